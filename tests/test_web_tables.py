"""Each game's table as people use it, in a real browser (Playwright driving the
system's Chromium, as in test_web_browser.py): a whole game of each game played through
the page's own controls against computer seats (Haggis with a bet and a bomb; New
Eleusis with a string, a no-play and a prophet), the lobby's form and its list of open
tables, a spectator's page, a game without a layout of its own and God's page (drawn
from mocked sockets), a clock running out (the seat's move made for it, a forfeit), the
page reconnecting by itself after the server is killed and started again, and
screenshots of every table at 1280 and 390 pixels wide.

The screenshots go to ``$CARDRULES_SCREENSHOTS`` when it is set (the documentation's
copies: ``CARDRULES_SCREENSHOTS=docs/_static/web pytest tests/test_web_tables.py``), else
to a temporary folder.  Any console error or page error fails the test that saw it."""

from __future__ import annotations

import json
import os
import random
import re
import sys
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the web extra (starlette) is not installed")
pytest.importorskip("uvicorn", reason="the web extra (uvicorn) is not installed")
sync_api = pytest.importorskip(
    "playwright.sync_api", reason="playwright is not installed (the web-test extra)"
)

from web_helpers import CHROMIUM, ROOT, ServeProcess, chromium, serving  # noqa: E402

from cardrules.web.table import GameTable  # noqa: E402

if not os.path.exists(CHROMIUM):
    pytest.skip(f"no Chromium at {CHROMIUM} (apt-get install chromium)", allow_module_level=True)

TIMEOUT = 15_000  # ms: one step of a page
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
#: the most buttons the action panel may show at once (20, and the few without cards)
MOST_BUTTONS = 24
SHORT = {
    "aegis": {"target": 4},
    "gunsore": {"hand_size": 3},
    "haggis": {"target": 20},
    "eleusis": {"hand_size": 6, "sudden_death": 16, "sudden_death_prophet": 10},
}
#: a table worth a screenshot: the moment its drawing shows what the game is about
MOMENT = {
    "haggis": "[...document.querySelectorAll('#felt h3')].some(h => h.textContent === 'to beat')",
    "eleusis": "(document.querySelectorAll('#felt .side-line .card').length >= 2"
    " && document.querySelectorAll('#felt .main-card').length >= 5)"
    " || document.querySelectorAll('#felt .main-card').length >= 10",
    "aegis": "[...document.querySelectorAll('#felt h3')].some(h => h.textContent === 'trick')",
    "gunsore": "[...document.querySelectorAll('#felt h3')].some(h => h.textContent === 'to answer')",
}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServeProcess]:
    with serving(tmp_path_factory.mktemp("web") / "tables.db") as process:
        yield process


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from chromium(sync_api)


@pytest.fixture(scope="module")
def shots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = os.environ.get("CARDRULES_SCREENSHOTS")
    path = Path(folder) if folder else tmp_path_factory.mktemp("screenshots")
    path.mkdir(parents=True, exist_ok=True)
    return path


class Page:
    """A page in a browser context of its own, with every console error it logs."""

    def __init__(self, browser: Any, url: str, viewport: dict[str, int] = DESKTOP) -> None:
        self.context = browser.new_context(viewport=viewport)
        self.context.set_default_timeout(TIMEOUT)
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        self.page.on("pageerror", lambda exc: self.errors.append(str(exc)))
        self.page.goto(url)

    def close(self) -> None:
        self.context.close()

    def step(self) -> int:
        return int(self.page.evaluate("document.body.dataset.step || '-1'"))

    def wait_turn(self) -> str:
        """Wait until the game is over or this seat has buttons to press; which one."""
        self.page.wait_for_function(
            "() => document.body.dataset.status === 'over' || document.querySelector('#actions button') !== null"
        )
        return "over" if self.page.evaluate("document.body.dataset.status") == "over" else "turn"

    def press(self, button: Any) -> None:
        """Press an action button and wait for the table to move on."""
        before = self.step()
        button.click()
        self.page.wait_for_function(f"() => Number(document.body.dataset.step) > {before}")

    def action(self, text: str) -> Any:
        return self.page.locator(f'#actions button.action[data-action="{text}"]')

    def actions(self) -> list[str]:
        return self.page.eval_on_selector_all("#actions button.action", "bs => bs.map(b => b.dataset.action)")

    def any_action(self, rng: random.Random) -> None:
        """Press one of the buttons: an action, or a kind of action and then one of it."""
        p = self.page
        count = p.locator("#actions button").count()
        assert count <= MOST_BUTTONS, f"{count} buttons at once"
        groups = p.locator("#actions button.group:not(.back)")
        if groups.count() and (rng.random() < 0.7 or not p.locator("#actions button.action").count()):
            groups.nth(rng.randrange(groups.count())).click()
            assert p.locator("#actions button").count() <= MOST_BUTTONS
        buttons = p.locator("#actions button.action")
        self.press(buttons.nth(rng.randrange(buttons.count())))

    def select(self, cards: list[str]) -> None:
        for card in cards:
            self.page.click(f'#hand .card[data-card="{card}"]')

    def hand(self) -> list[str]:
        return self.page.eval_on_selector_all("#hand .card", "cs => cs.map(c => c.dataset.card)")

    def shot(self, shots: Path, name: str) -> Path:
        path = shots / f"{name}.png"
        self.page.mouse.move(0, 0)  # no button lit by the pointer
        self.page.screenshot(path=str(path), animations="disabled")  # the first screen
        return path


def create(server: ServeProcess, game: str, seats: list[str], **extra: Any) -> dict[str, Any]:
    body: dict[str, Any] = {"game": game, "seats": seats, "rules": SHORT[game], **extra}
    request = urllib.request.Request(
        f"{server.url}/tables", json.dumps(body).encode(), {"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=30) as answer:
        made: dict[str, Any] = json.load(answer)
    return made


def link(server: ServeProcess, made: dict[str, Any], seat: int = 0) -> str:
    return server.url + next(x["url"] for x in made["links"] if x["seat"] == seat)


def check_phone(browser: Any, url: str, step: int, shots: Path, name: str) -> None:
    """The same seat at 390 pixels: the hand and the actions on the first screens, no
    page wider than the screen."""
    phone = Page(browser, url, PHONE)
    try:
        phone.page.wait_for_function(f"() => Number(document.body.dataset.step) >= {step}")
        phone.page.wait_for_selector("#hand .card, #end:not([hidden])")
        width = phone.page.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE["width"], f"the page is {width} px wide at 390"
        if phone.page.locator("#hand .card").count():
            hand_top = phone.page.locator("#hand").bounding_box()["y"]
            assert hand_top < PHONE["height"], f"the hand starts {hand_top} px down the page"
        phone.shot(shots, f"{name}-390")
        assert phone.errors == []
    finally:
        phone.close()


def play_game(browser: Any, server: ServeProcess, shots: Path, game: str, seats: list[str],
              seat: int = 0, turn: Any = None, rng_seed: int = 1, **extra: Any) -> Page:  # fmt: skip
    """A whole game at ``seat`` (``turn(page)`` plays a turn its own way, or returns
    False for any action), screenshots at the game's moment and at the end; ``extra``
    goes with the new table (``rule=...``)."""
    made = create(server, game, seats, **extra)
    url = link(server, made, seat)
    page = Page(browser, url)
    rng = random.Random(rng_seed)
    shot = False
    for _ in range(400):
        if page.wait_turn() == "over":
            break
        if not shot and page.page.evaluate(MOMENT[game]):
            page.shot(shots, game)
            check_phone(browser, url, page.step(), shots, game)
            shot = True
        if turn is None or not turn(page, rng):
            page.any_action(rng)
    else:
        raise AssertionError("the game did not end")
    page.page.wait_for_selector("#end:not([hidden])")
    if not shot:  # a short game: its end is the picture
        page.shot(shots, game)
        check_phone(browser, url, page.step(), shots, game)
    page.shot(shots, f"{game}-over")
    return page


# -- the four games ----------------------------------------------------------------------------


def test_haggis_with_a_bet_and_a_bomb(server, browser, shots):
    done: dict[str, bool] = {}

    def turn(page: Page, rng: random.Random) -> bool:
        p = page.page
        if not done.get("bet") and page.action("bet 15").count():
            assert page.action("bet 30").count() == 1  # both bets are buttons of their own
            page.press(page.action("bet 15"))
            done["bet"] = True
            return True
        if not done.get("bomb") and done.get("bet"):
            bombs = p.locator('#actions button.group[data-group="bombs"]')
            if bombs.count():
                bombs.click()
                page.press(p.locator("#actions button.action").first)
                done["bomb"] = True
                # the bomb, said in words: on the table (or in the history once its trick is won)
                said = p.locator("#felt").inner_text() + p.locator("#history").inner_text()
                assert "a bomb" in said
                return True
        return False

    page = play_game(browser, server, shots, "haggis", ["human", "greedy"], turn=turn)
    try:
        assert done == {"bet": True, "bomb": True}
        p = page.page
        # every number on a chip is labelled, and the bet shows on its owner's chip
        me = p.locator('#players .player[data-seat="0"]').inner_text()
        assert "cards" in me and "score" in me
        assert "bet" in me and "15" in me
        end = p.locator("#end").inner_text()
        assert "Game over: player" in end and "wins with" in end
        assert "final scores: player 0" in end
        assert "bet 15 won" in end or "bet 15 lost" in end
        assert "last hand's points" not in end and "[" not in p.locator("#end-lines").inner_text()
        assert page.errors == []
    finally:
        page.close()


def _colour(card: str) -> str:
    return "red" if card[-1] in "HD" else "black"


def test_eleusis_with_a_string_a_no_play_and_a_prophet(server, browser, shots):
    """The rule (colours alternate, given to the computer's God) is known to the test, so
    it can play a right card to be offered the prophet's seat; a computer may take it
    first: then another table is made (at most a few)."""
    for attempt in range(4):
        done: dict[str, bool] = {}

        def turn(page: Page, rng: random.Random, done: dict[str, bool] = done) -> bool:
            p = page.page
            acts = page.actions()
            if "prophet" in acts:
                assert "judge every later play" in p.locator("#actions .explained").first.inner_text()
                page.press(page.action("prophet"))
                done["prophet"] = True
                return True
            if "no play" not in acts:
                return False  # judging, or an offer already taken
            p.wait_for_selector("#felt .main-line .main-card")  # drawn by the game's own script, once loaded
            main = p.eval_on_selector_all("#felt .main-line .main-card", "cs => cs.map(c => c.dataset.card)")
            hand = page.hand()
            right = [c for c in hand if _colour(c) != _colour(main[-1])]
            if not done.get("prophet") and not done.get("asked") and right:
                done["asked"] = True  # one right card: the offer comes (unless there is a prophet)
                page.press(page.action(right[0]))
                return True
            if not done.get("string") and len(hand) >= 3:
                first = right[0] if right else hand[0]
                second = next((c for c in hand if _colour(c) != _colour(first)), None)
                if second is not None:
                    page.select([first, second])
                    string = p.locator("#actions button.action.string")
                    assert string.get_attribute("data-action") == f"{first} {second}"
                    page.press(string)
                    for card in (first, second):  # on the layout now: the main line, or under it
                        p.wait_for_selector(f'#felt .main-line .card[data-card="{card}"]')
                    done["string"] = True
                    return True
            if not done.get("no play") and done.get("string"):
                assert "smaller one" in p.locator("#actions .explained").first.inner_text()
                page.press(page.action("no play"))
                done["no play"] = True
                return True
            return False

        page = play_game(browser, server, shots, "eleusis", ["random", "human", "greedy", "greedy"], seat=1,
                         turn=turn, rng_seed=attempt, rule="card.color != prev.color")  # fmt: skip
        try:
            assert page.errors == []
            if set(done) >= {"prophet", "string", "no play"}:
                end = page.page.locator("#end").inner_text()
                assert "Round over:" in end and "win" in end
                assert end.count("card.color != prev.color") == 1  # the rule, once
                assert "God" in page.page.locator('#players .player[data-seat="0"]').inner_text()
                assert page.page.locator('#players .player[data-seat="0"] .fact.score').count() == 1
                return
        finally:
            page.close()
    raise AssertionError(
        f"no table of {attempt + 1} let the seat play a string, a no-play and become prophet"
    )


@pytest.mark.parametrize("game", ["aegis", "gunsore"])
def test_a_trick_game(game, server, browser, shots):
    ended: list[str] = []

    def turn(page: Page, rng: random.Random) -> bool:
        p = page.page
        if p.locator("#result").is_visible():  # a season just ended: what it came to
            ended.append(p.locator("#result").inner_text())
            p.click("#result-close")
            assert p.locator("#result").is_hidden()
        if game != "aegis":
            return False
        # an exchange: pick two cards, press their exchange
        if not page.action("keep").count() or len(page.hand()) < 2:
            return False
        cards = page.hand()[:2]
        page.select(cards)
        assert p.locator("#hand .card.selected").count() == 2
        wanted = p.locator(f'#actions button.action[data-action="exchange {cards[0]} {cards[1]}"]')
        if not wanted.count():
            return False
        assert (
            p.locator("#actions button.action").first.get_attribute("data-action")
            == f"exchange {cards[0]} {cards[1]}"
        )
        page.press(wanted)
        return True

    page = play_game(browser, server, shots, game, ["human", "greedy"], turn=turn)
    try:
        p = page.page
        history = p.locator("#history").inner_text()
        if "season scored" in history or "new season" in history or "season 2" in history:
            assert ended, "a season ended and the page did not say what it came to"
        for text in ended:
            assert "is over" in text and "player" in text
        chips = [p.locator(f'#players .player[data-seat="{i}"]').inner_text() for i in range(2)]
        for chip in chips:
            assert "score" in chip and ("master" in chip.lower() or "slave" in chip.lower()
                                         or "attacker" in chip.lower() or "defender" in chip.lower())  # fmt: skip
        assert "Game over" in p.locator("#end-title").inner_text()
        assert page.errors == []
    finally:
        page.close()


# -- the lobby --------------------------------------------------------------------------------


def test_the_lobby_form_and_its_errors_in_words(server, browser, shots):
    page = Page(browser, server.url + "/")
    try:
        p = page.page
        p.wait_for_selector("#options-form label")
        p.select_option("#game", "haggis")
        assert p.locator('#options-form [data-option="target"] input').input_value() == "250"
        assert p.locator('#options-form [data-option="bomb_trick"] select').count() == 1
        p.fill("#option-target", "30")
        p.fill("#option-bets", "15")
        page.shot(shots, "lobby")
        p.click("#create")
        p.locator("a.join").first.wait_for()
        table = Page(browser, server.url + p.locator("a.join").first.get_attribute("href"))
        try:
            table.page.wait_for_selector("#hand .card")
            assert "playing to" in table.page.locator("#felt").inner_text()
            assert "30" in table.page.locator("#felt").inner_text()
            table.wait_turn()
            assert table.action("bet 15").count() == 1 and table.action("bet 30").count() == 0
            assert table.errors == []
        finally:
            table.close()
        # a misspelt option through the JSON box: refused in words, with the nearest name
        p.click("#options-json-box summary")
        p.fill("#options", '{"targt": 50}')
        p.click("#create")
        p.wait_for_selector("#lobby-error:not([hidden])")
        error = p.locator("#lobby-error").inner_text()
        assert error == ("no rule option 'targt' for haggis (options: target, bomb_trick, first_out_bonus, bets); "
                         "did you mean target?")  # fmt: skip
        assert "__init__" not in error
        # a value out of range: the form's field knows its limits (the browser says so
        # before sending), and the server refuses it in words, even for a rule God
        # writes later
        p.fill("#options", "")
        p.select_option("#game", "eleusis")
        p.fill("#option-hand_size", "-5")
        assert p.eval_on_selector("#option-hand_size", "e => e.validity.rangeUnderflow")
        p.fill("#option-hand_size", "14")
        p.fill("#options", '{"hand_size": -5}')
        p.click("#create")
        p.wait_for_function("() => document.querySelector('#lobby-error').textContent.includes('hand_size')")
        assert (
            p.locator("#lobby-error").inner_text()
            == "eleusis: rule option hand_size is a whole number at least 1, not -5"
        )
        # the refusals' answers are the one console line allowed
        allowed = ["Failed to load resource: the server responded with a status of 400 (Bad Request)"]
        assert [e for e in page.errors if e not in allowed] == []
    finally:
        page.close()


def test_a_favicon_and_no_console_error_on_the_pages(server, browser):
    with urllib.request.urlopen(f"{server.url}/favicon.ico", timeout=10) as answer:
        assert answer.headers["content-type"].startswith("image/svg+xml")
        assert b"<svg" in answer.read()


# -- drawn from messages: a spectator, a game without a layout, the clock, the step ----------------


def _mock_page(
    browser: Any, server: ServeProcess, path: str, messages: list[dict[str, Any]]
) -> tuple[Page, list[Any]]:
    """The table page at ``path``, its socket answered by the test: every message in
    ``messages`` once the page has said who it is; what the page sends is kept."""
    sent: list[Any] = []

    def handler(ws: Any) -> None:
        def on_message(text: Any) -> None:
            sent.append(json.loads(text))
            if len(sent) == 1:
                for msg in messages:
                    ws.send(json.dumps(msg))

        ws.on_message(on_message)

    context = browser.new_context(viewport=DESKTOP)
    context.route_web_socket("**/ws/**", handler)
    page = Page.__new__(Page)
    page.context, page.errors = context, []
    page.page = context.new_page()
    page.context.set_default_timeout(TIMEOUT)
    page.page.on("console", lambda m: page.errors.append(m.text) if m.type == "error" else None)
    page.page.on("pageerror", lambda exc: page.errors.append(str(exc)))
    page.page.goto(server.url + path)
    return page, sent


def _played(game: str, seats: list[str], actions: int, seed: str = "table") -> GameTable:
    table, _ = GameTable.create("mock", game, seats, rules=SHORT.get(game), seed=seed)
    rng = random.Random(seed)
    for _ in range(actions):
        if table.to_act is None:
            break
        action = rng.choice(table.game.legal_actions(table.state))
        table.commit(table.after(action), action)
    return table


def test_a_spectator_sees_the_table_and_no_hand(server, browser, shots):
    """A real spectator at ``/watch/ID`` of a Haggis table with a clock, while its person
    plays: the chips, the combination to beat, no hand, no actions, the seat's clock."""
    made = create(server, "haggis", ["human", "greedy"], clock=90)
    player = Page(browser, link(server, made))
    rng = random.Random(5)
    try:
        for _ in range(100):  # until the person is to beat the computer's combination
            assert player.wait_turn() == "turn"
            if player.page.evaluate(MOMENT["haggis"]):
                break
            player.any_action(rng)
        else:
            raise AssertionError("the computer never led")
        step = player.step()
        watcher = Page(browser, server.url + made["watch"])
        try:
            p = watcher.page
            p.wait_for_function(f"() => Number(document.body.dataset.step) === {step}")
            assert p.locator("#who").inner_text() == "watching"
            assert p.locator("#hand-box").is_hidden() and p.locator("#actions-box").is_hidden()
            assert p.locator("#players .player").count() == 2
            assert "to beat" in p.locator("#felt").text_content()
            # the person's cards are counted on its chip, and shown nowhere
            hand = player.hand()
            chip = p.locator('#players .player[data-seat="0"] .fact[data-label="cards"]').inner_text()
            assert chip == f"{len(hand)} cards"
            assert not any(p.locator(f'.card[data-card="{c}"]').count() for c in hand if c not in ("J", "Q", "K"))
            clock = p.locator("#clock").inner_text()
            assert re.fullmatch(r"player 0 has 1:[0-3]\d", clock), clock  # 90 s, counting down
            watcher.shot(shots, "spectator")
            assert watcher.errors == []
        finally:
            watcher.close()
        assert player.errors == []
    finally:
        player.close()


def test_every_act_carries_the_step_it_answers(server, browser):
    table = _played("gunsore", ["human", "human"], 0)
    msg = table.message(table.to_act)
    assert msg["legal"]
    page, sent = _mock_page(browser, server, "/table/mock#key", [msg])
    try:
        page.page.locator("#actions button.action").first.click()
        page.page.wait_for_function("() => true")
        page.page.wait_for_timeout(100)
        assert sent[0] == {"type": "join", "token": "key"}
        assert (
            sent[1]["type"] == "act" and sent[1]["step"] == msg["step"] and sent[1]["action"] in msg["legal"]
        )
        assert page.errors == []
    finally:
        page.close()


def test_a_game_without_a_layout_gets_the_generic_page(server, browser):
    sys.path.insert(0, str(ROOT / "examples" / "knockout"))
    import knockout  # noqa: F401  (registers the outside game)

    table, _ = GameTable.create("mock", "knockout", ["human", "random", "random"], seed="k")
    msg = table.message(0)
    assert msg["layout"] is None
    page, _ = _mock_page(browser, server, "/table/mock#key", [msg])
    try:
        p = page.page
        p.wait_for_selector("#hand .card")
        assert p.locator("#felt.generic").count() == 1
        assert p.locator("#actions button.action").count() >= 1
        assert page.errors == []
    finally:
        page.close()


def test_gods_page_shows_the_rule_and_every_score(server, browser):
    table = _played("eleusis", ["human", "human", "random", "random"], 0)
    table.set_rule(0, "card.color != prev.color")
    rng = random.Random(3)
    for _ in range(6):
        action = rng.choice(table.game.legal_actions(table.state))
        table.commit(table.after(action), action)
    msg = table.message(0)
    page, _ = _mock_page(browser, server, "/table/mock#key", [msg])
    try:
        p = page.page
        p.wait_for_selector("#felt .main-card")
        assert p.locator("#hand-box").is_hidden()  # God holds no cards
        assert "card.color != prev.color" in p.locator("#felt").inner_text()
        scores = p.locator("#players .fact.score")
        assert scores.count() == 4  # God's too
        assert page.errors == []
    finally:
        page.close()


def _post(server: ServeProcess, path: str) -> dict[str, Any]:
    request = urllib.request.Request(f"{server.url}{path}", b"", method="POST")
    with urllib.request.urlopen(request, timeout=30) as answer:
        result: dict[str, Any] = json.load(answer)
    return result


def _listed(server: ServeProcess, table_id: str) -> dict[str, Any]:
    with urllib.request.urlopen(f"{server.url}/tables", timeout=30) as answer:
        return next(t for t in json.load(answer)["tables"] if t["id"] == table_id)


def test_the_lobby_lists_open_tables_and_takes_a_free_seat(server, browser):
    """A listed table of the server (player 0's seat taken, player 1's free) in the
    lobby's list; a new table with the lobby's choices; taking the free seat."""
    made = create(server, "haggis", ["human", "human"], listed=True, clock=60)
    _post(server, f"/tables/{made['id']}/seats/0")
    sent: list[Any] = []

    def tables(route: Any) -> None:
        if route.request.method == "POST":
            sent.append(route.request.post_data_json)
        route.continue_()

    context = browser.new_context(viewport=DESKTOP)
    context.set_default_timeout(TIMEOUT)
    context.route("**/tables", tables)
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    try:
        page.goto(server.url + "/")
        table_id = made["id"]
        ours = page.locator(f'#open-list li[data-table="{table_id}"]')
        ours.wait_for()
        row = ours.inner_text()
        assert "Haggis" in row and "60 s a move" in row and "player 1: free" in row and "player 0: taken" in row
        assert ours.locator("a.watch").get_attribute("href") == f"/watch/{table_id}"
        assert ours.locator("button.take").count() == 1  # the free seat only
        # the table's choices go with a new table, when they differ from the defaults
        page.select_option("#game", "haggis")
        page.uncheck("#spectators")
        page.check("#listed")
        page.select_option("#clock", "60")
        page.select_option("#on-timeout", "forfeit")
        page.click("#create")
        page.locator("a.join").first.wait_for()
        assert sent == [{"game": "haggis", "seats": ["human", "random"], "rules": {},
                         "spectators": False, "listed": True, "clock": 60, "on_timeout": "forfeit"}]  # fmt: skip
        assert page.locator("#watch").is_hidden()  # no spectators: no watch link
        new_id = page.locator("a.join").first.get_attribute("href").split("/")[-1].split("#")[0]
        assert _listed(server, new_id)["watch"] is None and _listed(server, new_id)["clock"] == 60
        # the free seat: taken from the list, its page joins as that seat
        ours.locator("button.take").click()
        page.wait_for_url(f"**/table/{table_id}#*")
        page.wait_for_function("() => document.querySelector('#who').textContent === 'you are player 1'")
        assert [s["free"] for s in _listed(server, made["id"])["seats"]] == [False, False]
        assert errors == []
    finally:
        context.close()


# -- a clock that runs out, a server that restarts -------------------------------------------------

#: every text the header's clock shows, with the step it shows it at ("you have 0:01@4")
CLOCK_LOG = """() => {
  window.clockTexts = [];
  setInterval(() => {
    const c = document.getElementById('clock');
    const t = c && !c.hidden ? `${c.textContent}@${document.body.dataset.step}` : null;
    if (t && window.clockTexts[window.clockTexts.length - 1] !== t) window.clockTexts.push(t);
  }, 50);
}"""


def _cards_played(line: str) -> list[str]:
    """The cards a Haggis history line names after its colon (none for a pass)."""
    return line.split(": ", 1)[1].split() if ": " in line else []


def test_a_clock_that_runs_out_plays_the_seat_s_move_in_the_page(server, browser):
    """A Haggis table with a 2-second clock: the person plays once through the page, then
    does nothing on the next turn; the clock counts down to 0:00, and the move played for
    the seat shows in the history (its cards gone from the hand); the page plays on."""
    made = create(server, "haggis", ["human", "greedy"], clock=2, on_timeout="move")
    page = Page(browser, link(server, made))
    p = page.page
    try:
        # the first turn's clock started with the table: it is played at once, so the
        # turn watched below has a whole clock on a page already drawn
        assert page.wait_turn() == "turn"
        page.press(p.locator("#actions button.action").first)
        assert page.wait_turn() == "turn"
        step, hand = page.step(), page.hand()
        p.evaluate(CLOCK_LOG)
        # a whole clock reads 0:02 until the page's first tick (every 250 ms) takes it lower
        assert re.fullmatch(r"you have 0:0[012]", p.locator("#clock").inner_text())
        p.wait_for_function(f"() => Number(document.body.dataset.step) > {step}", timeout=5_000)
        shown = [t for t in p.evaluate("window.clockTexts") if t.endswith(f"@{step}")]
        countdown = [f"you have 0:0{n}@{step}" for n in (2, 1, 0)]
        assert shown in (countdown, countdown[1:]), shown  # counting down to 0:00
        # the seat's own line: its move, made for it (Haggis: player 0's line at that step)
        history = p.eval_on_selector_all("#history li", "ls => ls.map(l => l.textContent)")
        line = next(x for x in reversed(history) if x.startswith("player 0 "))
        played = _cards_played(line)
        assert "pass" in line or played, line
        gone = sorted(set(hand) - set(page.hand()))
        assert gone == sorted(played), (line, hand, page.hand())
        # still usable: the person's next move through the buttons (or the game is over)
        if page.wait_turn() == "turn":
            page.press(p.locator("#actions button.action").first)
        assert page.errors == []
    finally:
        page.close()


def test_a_forfeit_clock_ends_the_game_in_words_in_the_page(server, browser, shots):
    """A Haggis table whose person lets the 1-second clock run out on a ``"forfeit"``
    table: the page shows the game over, and says who forfeited and why."""
    made = create(server, "haggis", ["human", "random"], clock=1, on_timeout="forfeit")
    page = Page(browser, link(server, made))
    p = page.page
    try:
        p.wait_for_selector("#end:not([hidden])", timeout=5_000)  # the person does nothing
        assert p.locator("#status").inner_text() == "game over"
        assert p.locator("#end-title").inner_text() == "Game over: you forfeited"
        lines = p.eval_on_selector_all("#end-lines li", "ls => ls.map(l => l.textContent)")
        assert lines == ["the clock ran out on your move", "player 1 wins"]
        assert p.locator("#actions button").count() == 0 and p.locator("#clock").is_hidden()
        page.shot(shots, "haggis-forfeit")
        assert page.errors == []
    finally:
        page.close()


def test_the_page_reconnects_by_itself_after_the_server_restarts(browser, tmp_path):
    """A person three moves into a Haggis game; the server is SIGKILLed and started
    again on the same database and port: the page reconnects by itself, shows the same
    step, hand and history, and the person plays on through its buttons.  The one
    console error allowed is the browser's own line for a connection refused while
    the server is down."""
    server = ServeProcess(tmp_path / "restart.db")
    server.start()
    page: Page | None = None
    try:
        made = create(server, "haggis", ["human", "greedy"])
        page = Page(browser, link(server, made))
        p = page.page
        rng = random.Random(3)
        for _ in range(3):
            assert page.wait_turn() == "turn"
            page.any_action(rng)
        assert page.wait_turn() == "turn"

        def seen() -> dict[str, Any]:
            return {
                "step": page.step(),
                "hand": page.hand(),
                "history": p.eval_on_selector_all("#history li", "ls => ls.map(l => l.textContent)"),
                "actions": p.eval_on_selector_all("#actions button", "bs => bs.map(b => b.textContent)"),
                "players": p.locator("#players").inner_text(),
            }

        before = seen()
        server.kill()
        p.wait_for_function("() => document.querySelector('#status').textContent === 'reconnecting…'")
        server.start()
        p.wait_for_function("() => document.querySelector('#status').textContent === 'your turn'")
        assert seen() == before
        page.press(p.locator("#actions button.action").first)
        refused = re.compile(
            rf"WebSocket connection to 'ws://127\.0\.0\.1:{server.port}/ws/{made['id']}' failed: "
            r"Error in connection establishment: net::ERR_CONNECTION_REFUSED"
        )
        assert [e for e in page.errors if not refused.fullmatch(e)] == []
    finally:
        if page is not None:
            page.close()
        server.stop()

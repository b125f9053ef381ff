"""The web table in a real browser: Playwright drives the system's Chromium (headless,
``executable_path``: no browser download) against ``cardrules serve`` on a free
localhost port.  A full game of each game against computer seats, two people in two
browser contexts, the Eleusis god's rule with a typo then fixed, a reload mid-game.
Games are kept short with each game's rule options (seconds each)."""

from __future__ import annotations

import json
import os
import random
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the web extra (starlette) is not installed")
pytest.importorskip("uvicorn", reason="the web extra (uvicorn) is not installed")
sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed (the web-test extra)")

from web_helpers import CHROMIUM, ServeProcess, chromium, serving  # noqa: E402

from cardrules.web.table import MAX_HISTORY  # noqa: E402

if not os.path.exists(CHROMIUM):
    pytest.skip(f"no Chromium at {CHROMIUM} (apt-get install chromium)", allow_module_level=True)

SHORT = {
    "aegis": {"target": 5},
    "gunsore": {"hand_size": 3},
    "haggis": {"target": 20},
    "eleusis": {"hand_size": 4, "sudden_death": 8, "sudden_death_prophet": 6},
}
GAMES_PLAYERS = {"aegis": 2, "gunsore": 2, "haggis": 2}
TIMEOUT = 15_000  # ms: one step of a page


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServeProcess]:
    with serving(tmp_path_factory.mktemp("web") / "tables.db") as process:
        yield process


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from chromium(sync_api)


@pytest.fixture
def context(browser: Any) -> Iterator[Any]:
    ctx = browser.new_context(viewport={"width": 900, "height": 800})
    ctx.set_default_timeout(TIMEOUT)
    yield ctx
    ctx.close()


def create(server: ServeProcess, game: str, seats: list[str], rule: str | None = None) -> list[str]:
    body: dict[str, Any] = {"game": game, "seats": seats, "rules": SHORT[game]}
    if rule is not None:
        body["rule"] = rule
    request = urllib.request.Request(
        f"{server.url}/tables", json.dumps(body).encode(), {"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=30) as answer:
        links = json.load(answer)["links"]
    return [server.url + link["url"] for link in links]


def step(page: Any) -> int:
    return int(page.evaluate("document.body.dataset.step || '-1'"))


def wait_ready(page: Any) -> str:
    """Wait until the page is over or shows this seat's actions; which of the two."""
    page.wait_for_function("() => document.body.dataset.status === 'over' || document.querySelector('#actions button') !== null"
    )
    return "over" if page.evaluate("document.body.dataset.status") == "over" else "turn"


def click_an_action(page: Any, rng: random.Random) -> None:
    """Click one of the action buttons (with many legal actions, after the button of one
    kind of them: the page then shows kinds, not actions), and wait for the table to
    move on."""
    before = step(page)
    groups = page.locator("#actions button.group:not(.back)")
    if groups.count() and not page.locator("#actions button.action").count():
        groups.nth(rng.randrange(groups.count())).click()
    buttons = page.locator("#actions button.action")
    buttons.nth(rng.randrange(buttons.count())).click()
    page.wait_for_function(f"() => Number(document.body.dataset.step) > {before}")


def play_out(page: Any, rng: random.Random, limit: int = 400) -> int:
    """Play this seat to the end of the game; the number of actions it took."""
    for clicks in range(limit):
        if wait_ready(page) == "over":
            return clicks
        click_an_action(page, rng)
    raise AssertionError("the game did not end")


def check_no_page_errors(page: Any) -> list[str]:
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    return errors


@pytest.mark.parametrize("game", ["aegis", "gunsore", "haggis", "eleusis"])
def test_a_full_game_against_the_computer(game, server, context):
    if game == "eleusis":
        seats = ["random", "human", "greedy", "random"]  # the computer's God, given the rule
    else:
        seats = ["human"] + ["greedy"] * (GAMES_PLAYERS[game] - 1)
    (link,) = create(server, game, seats, rule="card.color != prev.color" if game == "eleusis" else None)
    page = context.new_page()
    errors = check_no_page_errors(page)
    page.goto(link)
    page.wait_for_selector("#hand .card")
    assert page.locator("#players .player").count() == len(seats)
    clicks = play_out(page, random.Random(game))
    assert clicks >= 1 and page.locator("#end").is_visible()
    summary = page.locator("#summary").text_content()
    assert summary.strip()
    if game == "eleusis":
        assert "the rule was: card.color != prev.color" in summary
    # a line for each action, this seat's among them (the table is dealt at random: a New
    # Eleusis round of 4-card hands may end after a handful of actions)
    assert page.locator("#history li").count() >= min(clicks, MAX_HISTORY)
    assert errors == []


def test_the_lobby_makes_a_table_with_a_link_per_person(server, context):
    page = context.new_page()
    page.goto(server.url + "/")
    page.select_option("#game", "haggis")
    page.select_option("#players", "3")
    assert page.locator("select.seat").count() == 3
    page.select_option("#seat-1", "human")
    page.select_option("#seat-2", "greedy")
    page.fill("#option-target", "20")
    page.click("#create")
    links = page.locator("a.join")
    links.first.wait_for()
    assert links.count() == 2
    assert [links.nth(i).get_attribute("data-seat") for i in range(2)] == ["0", "1"]
    table = context.new_page()
    table.goto(server.url + links.nth(1).get_attribute("href"))
    table.wait_for_selector("#hand .card")
    assert table.locator("#who").inner_text() == "you are player 1"
    page.click("#options-json-box summary")
    page.fill("#options", '{"targt": 1}')
    page.click("#create")
    page.wait_for_selector("#lobby-error:not([hidden])")
    assert "did you mean target?" in page.locator("#lobby-error").inner_text()


def test_two_people_in_two_browsers(server, browser):
    links = create(server, "aegis", ["human", "human"])
    contexts = [browser.new_context() for _ in links]
    try:
        pages = []
        for ctx, link in zip(contexts, links, strict=True):
            ctx.set_default_timeout(TIMEOUT)
            page = ctx.new_page()
            page.goto(link)
            page.wait_for_selector("#hand .card")
            pages.append(page)
        rng = random.Random(7)
        for _ in range(300):
            status = pages[0].evaluate("document.body.dataset.status")
            if status == "over":
                break
            # the one whose turn it is sees buttons; the other sees none
            pages[0].wait_for_function("() => document.body.dataset.status === 'over' || document.querySelector('.player.to-act') !== null")
            mover = next((p for p in pages if p.locator("#actions button.action").count()), None)
            if mover is None:
                pages[0].wait_for_timeout(50)
                continue
            other = pages[1] if mover is pages[0] else pages[0]
            assert other.locator("#actions-box").is_hidden()
            before = step(other)
            click_an_action(mover, rng)
            other.wait_for_function(f"() => Number(document.body.dataset.step) > {before}")
        for page in pages:
            page.wait_for_function("() => document.body.dataset.status === 'over'")
        scores = [p.locator("#players .score").all_inner_texts() for p in pages]
        assert scores[0] == scores[1] and len(scores[0]) == 2
        assert pages[0].locator("#who").inner_text() == "you are player 0"
        assert pages[1].locator("#who").inner_text() == "you are player 1"
    finally:
        for ctx in contexts:
            ctx.close()


def test_the_eleusis_god_writes_a_rule_with_a_typo_then_fixes_it(server, context):
    god_link, player_link = create(server, "eleusis", ["human", "human", "greedy", "random"])
    god = context.new_page()
    god.goto(god_link)
    god.wait_for_selector("#god:not([hidden])")
    player = context.new_page()
    player.goto(player_link)
    player.wait_for_function("() => document.body.dataset.status === 'rule'")
    assert player.locator("#god").is_hidden()
    assert player.locator("#status").inner_text() == "waiting for the rule"
    god.fill("#rule-text", "card.color != prev.colr")
    god.click("#rule-send")
    god.wait_for_selector("#error:not([hidden])")
    error = god.locator("#error").inner_text()
    assert error.startswith("line 1, column 20: ")
    assert error.rstrip().endswith("card.color != prev.colr\n                     ^")
    god.fill("#rule-text", "card.color != prev.color")
    god.click("#rule-send")
    god.wait_for_function("() => document.body.dataset.status !== 'rule'")
    assert god.locator("#error").is_hidden()
    assert "the secret rule: card.color != prev.color" in god.locator("#text").text_content()
    player.wait_for_selector("#hand .card")
    for part in ("#text", "#felt", "#history", "#players"):  # the rule stays secret from the players
        assert "prev.color" not in player.locator(part).text_content()
    play_out(player, random.Random(3))
    assert "the rule was: card.color != prev.color" in player.locator("#summary").text_content()
    god.wait_for_function("() => document.body.dataset.status === 'over'")


def test_a_reload_in_the_middle_of_a_game_goes_on(server, context):
    (link,) = create(server, "haggis", ["human", "greedy"])
    page = context.new_page()
    page.goto(link)
    rng = random.Random(11)
    for _ in range(3):
        assert wait_ready(page) == "turn"
        click_an_action(page, rng)
    wait_ready(page)
    before = {
        "step": step(page),
        "hand": page.locator("#hand").inner_text(),
        "history": page.locator("#history").inner_text(),
    }
    page.reload()
    page.wait_for_function(f"() => Number(document.body.dataset.step) >= {before['step']}")
    assert step(page) == before["step"]
    assert page.locator("#hand").inner_text() == before["hand"]
    assert page.locator("#history").inner_text() == before["history"]
    play_out(page, rng)

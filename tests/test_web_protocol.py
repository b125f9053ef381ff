"""The web table's protocol, through Starlette's TestClient: what each seat is sent (never
another seat's hidden cards: every message a seat receives is read and checked), forged
and malformed messages refused with nothing changed, the seat tokens, and the store
surviving a reopen."""

from __future__ import annotations

import json
import random
import sqlite3
import warnings
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the web extra (starlette) is not installed")
pytest.importorskip("httpx", reason="Starlette's TestClient needs httpx (the web-test extra)")

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # newer Starlette asks for httpx2: the TestClient works as it is
    from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from web_helpers import cards_in, receive_until, states_by_step

from cardrules import GAMES, from_json
from cardrules.codec import encode_value
from cardrules.web import GameTable, Store, create_app
from cardrules.web.app import MAX_BODY, MAX_MESSAGE
from cardrules.web.table import hash_token

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


#: short games: small targets and hands, through each game's rule options
SHORT = {
    "aegis": {"target": 5},
    "gunsore": {"hand_size": 3},
    "haggis": {"target": 20},
    "eleusis": {"hand_size": 5, "sudden_death": 10, "sudden_death_prophet": 8},
}


def client(db: Path) -> TestClient:
    return TestClient(create_app(str(db)))


def new_table(c: TestClient, game: str, seats: list[str], **extra: Any) -> tuple[str, dict[int, str]]:
    r = c.post("/tables", json={"game": game, "seats": seats, "rules": SHORT[game], **extra})
    assert r.status_code == 201, r.text
    made = r.json()
    tokens = {}
    for link in made["links"]:
        table_id, token = link["url"].removeprefix("/table/").split("#")
        assert table_id == made["id"]
        tokens[link["seat"]] = token
    return made["id"], tokens


def play_seat(c: TestClient, table_id: str, token: str, rng: random.Random) -> list[dict[str, Any]]:
    """Play one seat to the end with random legal actions; every message received."""
    seen: list[dict[str, Any]] = []
    with c.websocket_connect(f"/ws/{table_id}") as ws:
        ws.send_json({"type": "join", "token": token})
        while True:
            msg = receive_until(ws, lambda m: m["type"] == "state", seen)
            if msg["status"] == "over":
                return seen
            if msg["legal"]:
                ws.send_json({"type": "act", "action": rng.choice(msg["legal"]), "step": msg["step"]})


def check_messages(game: str, seat: int, seen: list[dict[str, Any]], record: str, cards: bool = True) -> int:
    """Every message ``seat`` received shows only what its view at that step shows, and
    (``cards``) no card it has not been shown so far, in its views or in the lines the
    game tells it of each action (``describe_for``: a season's last trick, say, is told
    though the next view no longer holds it); the number of state messages."""
    g = GAMES[game]
    states = states_by_step(record)
    history = from_json(record).history
    known: list[set[str]] = []  # the cards the seat was shown up to each step
    so_far: set[str] = set()
    for i, st in enumerate(states):
        so_far |= cards_in(encode_value(g.view(st, seat)))
        if i > 0 and type(history[i - 1]).__name__ != "Shuffle":
            so_far |= cards_in(g.describe_for(states[i - 1], history[i - 1], seat))
        known.append(set(so_far))
    checked = 0
    for msg in seen:
        if msg["type"] != "state":
            continue
        assert set(msg) >= {"view", "text", "legal", "history", "scores"}
        st = states[msg["step"]]
        assert msg["seat"] == seat
        assert msg["view"] == encode_value(g.view(st, seat))
        assert msg["text"] == g.render(st, seat)
        assert msg["notation"] == (g.notation or "")
        shown = {k: v for k, v in msg.items() if k != "notation"}
        leaked = cards_in(shown) - known[msg["step"]] if cards else set()
        assert not leaked, f"step {msg['step']}: seat {seat} was sent {sorted(leaked)}"
        assert "seed" not in json.dumps(shown)
        checked += 1
    return checked


@pytest.mark.parametrize("game", ["aegis", "gunsore", "haggis", "eleusis"])
def test_a_seat_is_sent_only_what_its_view_shows(game, tmp_path):
    human = 1 if game == "eleusis" else 0
    seats = ["random"] * GAMES[game].default_players
    if game == "eleusis":
        seats = ["random", "human", "greedy", "random"]
    seats[human] = "human"
    with client(tmp_path / "t.db") as c:
        table_id, tokens = new_table(c, game, seats)
        seen = play_seat(c, table_id, tokens[human], random.Random(1))
        record = c.app.state.server.store.record(table_id)
    assert seen[-1]["status"] == "over"
    assert check_messages(game, human, seen, record) >= 5
    # the test can fail: another seat's hand, as a message would show it, is caught
    st = states_by_step(record)[seen[0]["step"]]
    other = GAMES[game].view(st, 1 - human if game != "eleusis" else 2)
    forged = dict(seen[0], view=encode_value(other))
    with pytest.raises(AssertionError):
        check_messages(game, human, [forged], record)
    # and so is one of its cards in a line of the history
    mine = cards_in(encode_value(GAMES[game].view(st, human)))
    hidden = sorted(cards_in(encode_value(other)) - mine)
    assert hidden
    forged = dict(seen[0], history=[*seen[0]["history"], f"player 1 holds {hidden[0]}"])
    with pytest.raises(AssertionError, match="was sent"):
        check_messages(game, human, [forged], record)


def test_two_people_each_see_their_own_hand(tmp_path):
    with client(tmp_path / "t.db") as c:
        table_id, tokens = new_table(c, "haggis", ["human", "human"])
        seen: dict[int, list[dict[str, Any]]] = {0: [], 1: []}
        rng = random.Random(2)
        with c.websocket_connect(f"/ws/{table_id}") as w0, c.websocket_connect(f"/ws/{table_id}") as w1:
            ws = {0: w0, 1: w1}
            for seat in (0, 1):
                ws[seat].send_json({"type": "join", "token": tokens[seat]})
            last = {seat: receive_until(ws[seat], lambda m: m["type"] == "state", seen[seat]) for seat in (0, 1)}
            while last[0]["status"] != "over":
                mover = last[0]["to_act"]
                ws[mover].send_json({"type": "act", "action": rng.choice(last[mover]["legal"]), "step": last[mover]["step"]})
                step = last[mover]["step"]
                for seat in (0, 1):
                    last[seat] = receive_until(ws[seat], lambda m, s=step: m["type"] == "state" and m["step"] > s, seen[seat])
        record = c.app.state.server.store.record(table_id)
    for seat in (0, 1):
        assert check_messages("haggis", seat, seen[seat], record) >= 5


def test_forged_and_malformed_messages_are_refused_and_change_nothing(tmp_path):
    with client(tmp_path / "t.db") as c:
        table_id, tokens = new_table(c, "aegis", ["human", "human"])
        server = c.app.state.server
        before_record = server.store.record(table_id)
        before = server.tables[table_id].state
        g = GAMES["aegis"]
        with c.websocket_connect(f"/ws/{table_id}") as w0, c.websocket_connect(f"/ws/{table_id}") as w1:
            w0.send_json({"type": "join", "token": tokens[0]})
            w1.send_json({"type": "join", "token": tokens[1]})
            first = w0.receive_json()
            w1.receive_json()
            mover, other = (w0, w1) if first["to_act"] == 0 else (w1, w0)
            step = first["step"]
            with pytest.raises(Exception) as illegal:
                g.parse_action(before, "exchange 2S 2S 2S 2S 2S 2S")
            bad = [
                (mover, "not json at all", "a message is a JSON object"),
                (mover, "[1, 2]", "a message is a JSON object with a type"),
                (mover, json.dumps({"type": "act", "step": step}), "an action is a text, not NoneType"),
                (mover, json.dumps({"type": "act", "action": 7, "step": step}), "an action is a text, not int"),
                (mover, json.dumps({"type": "act", "action": "exchange 2S 2S 2S 2S 2S 2S", "step": step}), str(illegal.value)),
                (mover, json.dumps({"type": "act", "action": "x" * (MAX_MESSAGE + 1)}), "a message is at most"),
                (mover, json.dumps({"type": "launch"}), "no message of type 'launch'"),
                (mover, json.dumps({"type": "rule", "text": "card is red"}), "no one writes the rules at this table"),
                (other, json.dumps({"type": "act", "action": first["legal"][0] if first["legal"] else "keep", "step": step}), "it is not your turn"),
                (mover, json.dumps({"type": "join", "token": tokens[1]}), "no message of type 'join'"),
            ]
            mover.send_bytes(b'{"type": "state"}')
            assert mover.receive_json() == {"type": "error", "message": "a message is JSON text, not binary"}
            for ws, text, why in bad:
                ws.send_text(text)
                answer = ws.receive_json()
                assert answer["type"] == "error" and why in answer["message"], (text[:80], answer)
                assert server.tables[table_id].state is before
                assert server.store.record(table_id) == before_record
        assert server.store.record(table_id) == before_record


def test_tokens_are_unguessable_and_only_their_hashes_are_stored(tmp_path):
    db = tmp_path / "t.db"
    with client(db) as c:
        table_id, tokens = new_table(c, "haggis", ["human", "human"])
        assert len(set(tokens.values())) == 2 and all(len(t) >= 43 for t in tokens.values())
        for wrong in ["", "x", tokens[0][:-1] + ("A" if tokens[0][-1] != "A" else "B"), hash_token(tokens[0])]:
            with c.websocket_connect(f"/ws/{table_id}") as ws:
                ws.send_json({"type": "join", "token": wrong})
                assert ws.receive_json() == {"type": "error", "message": "no such table, or no seat with this token"}
                with pytest.raises(WebSocketDisconnect) as closed:  # closed by the server
                    ws.receive_json()
                assert closed.value.code == 4403
        with c.websocket_connect("/ws/no-such-table") as ws:
            ws.send_json({"type": "join", "token": tokens[0]})
            assert ws.receive_json()["type"] == "error"
        with c.websocket_connect(f"/ws/{table_id}") as ws:
            ws.send_json({"type": "join", "token": tokens[1]})
            assert ws.receive_json()["seat"] == 1
    raw = b"".join(p.read_bytes() for p in tmp_path.iterdir() if p.name.startswith("t.db"))
    for token in tokens.values():
        assert token.encode() not in raw and hash_token(token).encode() in raw


def test_requests_are_size_limited_and_checked(tmp_path):
    with client(tmp_path / "t.db") as c:
        huge = c.post("/tables", content=b"{" + b" " * MAX_BODY + b"}", headers={"content-type": "application/json"})
        assert huge.status_code == 400 and "at most" in huge.json()["error"]
        for body, why in [
            ("[]", "a new table is a JSON object"),
            ('{"game": "chess", "seats": ["human", "human"]}', "no game named 'chess'"),
            ('{"game": "haggis", "seats": ["human"]}', "haggis is played by 2, 3 players, not 1"),
            ('{"game": "haggis", "seats": ["human", "robot"]}', "no kind 'robot'"),
            ('{"game": "haggis", "seats": ["human", "random"], "rules": {"targt": 3}}', "no rule option 'targt' for haggis (options: target, bomb_trick, first_out_bonus, bets); did you mean target?"),
            ('{"game": "gunsore", "seats": ["human", "random"], "rules": {"decks": 3}}', "decks must be an even number"),
            ('{"game": "haggis", "seats": ["human", "random"], "seed": 1}', "unknown field 'seed'"),
            ("not json", "the request is not JSON"),
        ]:
            r = c.post("/tables", content=body.encode(), headers={"content-type": "application/json"})
            assert r.status_code == 400 and why in r.json()["error"], (body, r.text)
        assert c.app.state.server.store.ids() == []
        page = c.get("/")
        assert page.status_code == 200 and "default-src 'self'" in page.headers["content-security-policy"]
        assert c.get("/static/table.js").status_code == 200


def test_the_store_survives_a_reopen_and_the_game_goes_on(tmp_path):
    db = tmp_path / "t.db"
    rng = random.Random(3)
    with client(db) as c:
        table_id, tokens = new_table(c, "haggis", ["human", "greedy"])
        with c.websocket_connect(f"/ws/{table_id}") as ws:
            ws.send_json({"type": "join", "token": tokens[0]})
            msg: dict[str, Any] = {}
            for _ in range(3):
                msg = receive_until(ws, lambda m: m["type"] == "state" and bool(m["legal"]), [])
                ws.send_json({"type": "act", "action": rng.choice(msg["legal"]), "step": msg["step"]})
            msg = receive_until(ws, lambda m: m["type"] == "state" and bool(m["legal"]), [])
        before = msg
        record = c.app.state.server.store.record(table_id)
    assert json.loads(record)["format"] == "cardrules/state"
    with sqlite3.connect(db) as raw:
        assert raw.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    with client(db) as c:
        assert c.app.state.server.store.record(table_id) == record
        with c.websocket_connect(f"/ws/{table_id}") as ws:
            ws.send_json({"type": "join", "token": tokens[0]})
            again = ws.receive_json()
            assert {k: again[k] for k in ("step", "view", "legal", "history", "scores")} == {
                k: before[k] for k in ("step", "view", "legal", "history", "scores")
            }
        seen = play_seat(c, table_id, tokens[0], rng)
    assert seen[-1]["status"] == "over"


def test_the_eleusis_god_writes_the_rule_and_it_is_revealed_at_the_end(tmp_path):
    with client(tmp_path / "t.db") as c:
        table_id, tokens = new_table(c, "eleusis", ["human", "human", "greedy", "greedy"])
        with c.websocket_connect(f"/ws/{table_id}") as god, c.websocket_connect(f"/ws/{table_id}") as player:
            god.send_json({"type": "join", "token": tokens[0]})
            player.send_json({"type": "join", "token": tokens[1]})
            assert god.receive_json()["status"] == "rule"
            waiting = player.receive_json()
            assert waiting["status"] == "rule" and waiting["legal"] == []
            player.send_json({"type": "rule", "text": "card is red"})
            assert player.receive_json() == {"type": "error", "message": "only God writes the rule"}
            god.send_json({"type": "rule", "text": "card.color != prev.color and"})
            error = god.receive_json()
            assert error["type"] == "error"
            assert error["message"].startswith("line 1, column 29: ")
            assert error["message"].endswith("\n  card.color != prev.color and\n                              ^")
            assert c.app.state.server.store.record(table_id) is None
            god.send_json({"type": "rule", "text": "card.color != prev.color"})
            started = god.receive_json()
            assert started["status"] == "play" and "the secret rule: card.color != prev.color" in started["text"]
            rng = random.Random(4)
            msg = receive_until(player, lambda m: m["type"] == "state" and m["status"] == "play", [])
            seen = [msg]
            while msg["status"] != "over":
                assert "card.color" not in json.dumps(msg)
                if msg["legal"]:
                    player.send_json({"type": "act", "action": rng.choice(msg["legal"]), "step": msg["step"]})
                msg = receive_until(player, lambda m: m["type"] == "state", seen)
            assert msg["rule"] == "card.color != prev.color"
            assert "the rule was: card.color != prev.color" in msg["summary"]
        record = c.app.state.server.store.record(table_id)
    assert check_messages("eleusis", 1, seen[:-1], record) >= 5


def test_a_strong_computer_plays_off_the_event_loop(tmp_path):
    with client(tmp_path / "t.db") as c:
        table_id, tokens = new_table(c, "aegis", ["human", "strong"])
        seen = play_seat(c, table_id, tokens[0], random.Random(5))
    assert seen[-1]["status"] == "over"
    assert any(m["type"] == "state" and m["to_act"] == 1 for m in seen)


def test_the_table_model_is_plain_library_code(tmp_path):
    table, tokens = GameTable.create("t1", "haggis", ["human", "random"], rules={"target": 20}, seed="s")
    assert table.seat_of(tokens[0]) == 0 and table.seat_of("nope") is None
    with Store(str(tmp_path / "m.db")) as store:
        store.add(table)
        while table.state is not None and not table.state.is_over:
            if table.computer_to_act:
                action = table.choose()
            else:
                action = table.read_action(0, str(GAMES["haggis"].legal_actions(table.state)[0]))
            new = table.after(action)
            store.save(table, new)
            table.commit(new, action)
            again = store.load("t1")
            assert again is not None and again.state == table.state and again.lines == table.lines


def test_a_fault_in_a_game_s_code_is_an_error_reply_and_changes_nothing(tmp_path, monkeypatch):
    with client(tmp_path / "t.db") as c:
        table_id, tokens = new_table(c, "haggis", ["human", "human"])
        server = c.app.state.server
        before, record = server.tables[table_id].state, server.store.record(table_id)

        def broken(state, text):
            raise ValueError("a bug")

        monkeypatch.setattr(GAMES["haggis"], "parse_action", broken)
        seat = before.to_act
        with c.websocket_connect(f"/ws/{table_id}") as ws:
            ws.send_json({"type": "join", "token": tokens[seat]})
            step = ws.receive_json()["step"]
            ws.send_json({"type": "act", "action": "pass", "step": step})
            assert ws.receive_json() == {
                "type": "error", "message": "the server could not handle this message; nothing was changed"
            }
            ws.send_json({"type": "state"})
            assert ws.receive_json()["step"] == len(before.history)
        assert server.tables[table_id].state is before and server.store.record(table_id) == record


def test_any_registered_game_is_served(tmp_path):
    import toygame  # registers "highcard", a game written outside the library

    name = toygame.GAME.name
    with client(tmp_path / "t.db") as c:
        assert name in [g["name"] for g in c.get("/games").json()["games"]]
        r = c.post("/tables", json={"game": name, "seats": ["human", "random"]})
        assert r.status_code == 201, r.text
        table_id, token = r.json()["links"][0]["url"].removeprefix("/table/").split("#")
        seen = play_seat(c, table_id, token, random.Random(6))
        record = c.app.state.server.store.record(table_id)
    assert seen[-1]["status"] == "over" and json.loads(record)["game"] == name
    # its views forget a trick once it is scored, so only the views are compared here
    assert check_messages(name, 0, seen, record, cards=False) >= 3


def test_a_god_writes_a_rule_in_a_vocabulary_the_program_registered(tmp_path):
    """A word of the program's own (:meth:`Vocabulary.register`, what ``--load`` does for
    ``cardrules serve``) reaches the God's rule box, and the table read back from the
    store keeps the rule in that vocabulary."""
    import uuid

    from cardrules.lang import Vocabulary

    word = f"low_{uuid.uuid4().hex[:8]}"
    text = f"card is {word}"
    with client(tmp_path / "t.db") as c:
        table_id, tokens = new_table(c, "eleusis", ["human", "greedy", "greedy", "greedy"])
        with c.websocket_connect(f"/ws/{table_id}") as god:
            god.send_json({"type": "join", "token": tokens[0]})
            assert god.receive_json()["status"] == "rule"
            god.send_json({"type": "rule", "text": text})  # not a word yet
            error = god.receive_json()
            assert error["type"] == "error" and error["message"].startswith("line 1, column 9: ")
            assert c.app.state.server.store.record(table_id) is None
            Vocabulary.standard().with_property(word, lambda card: card.rank <= 5, explain="a low card").named(
                f"test-{word}"
            ).register()
            god.send_json({"type": "rule", "text": text})
            started = god.receive_json()
            assert started["status"] == "play" and f"the secret rule: {text}" in started["text"]
        record = c.app.state.server.store.record(table_id)
    state = from_json(record)
    assert state.rules.secret.vocabulary.name == f"test-{word}"
    assert all(card.rank <= 5 for card in state.main[1:])  # the main line after the starter
    with client(tmp_path / "t.db") as c:  # a restarted server reads the rule back in its words
        assert c.app.state.server.table(table_id).state.rules.secret == state.rules.secret

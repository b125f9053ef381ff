"""The web table's tables, through Starlette's TestClient: spectators (who see the public
view only: no card hidden from any player, in games of all four games), acts that name
their step, turn clocks (a greedy move or a forfeit, the deadline kept across a
restart), the list of open tables and claimed seats, computer seats that play only while
a person is connected (or on their own within the budget), rate limits, lone surrogates,
and reconnection."""

from __future__ import annotations

import json
import random
import time
import warnings
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the web extra (starlette) is not installed")
pytest.importorskip("httpx", reason="Starlette's TestClient needs httpx (the web-test extra)")

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from web_helpers import cards_in, receive_until, states_by_step

from cardrules import GAMES, from_json
from cardrules.codec import encode_value
from cardrules.web import GameTable, Store, create_app
from cardrules.web.limits import Bucket, Limits, PerAddress
from cardrules.web.table import TableError, TableSettings

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

SHORT = {
    "aegis": {"target": 5},
    "gunsore": {"hand_size": 3},
    "haggis": {"target": 20},
    "eleusis": {"hand_size": 5, "sudden_death": 10, "sudden_death_prophet": 8},
}


def client(db: Path, **kw: Any) -> TestClient:
    return TestClient(create_app(str(db), **kw))


def make(c: TestClient, game: str, seats: list[str], **extra: Any) -> dict[str, Any]:
    r = c.post("/tables", json={"game": game, "seats": seats, "rules": SHORT[game], **extra})
    assert r.status_code == 201, r.text
    made = r.json()
    made["tokens"] = {link["seat"]: link["url"].split("#")[1] for link in made["links"]}
    return made


# -- spectators ----------------------------------------------------------------------------


def check_spectator(game: str, seen: list[dict[str, Any]], record: str) -> int:
    """Every card a spectator was sent is one every player had been shown by then (the
    intersection over the seats of the cards of their views and of the lines they were
    told, so far); the number of state messages."""
    g = GAMES[game]
    states = states_by_step(record)
    players = states[0].players
    history = from_json(record).history
    so_far: list[set[str]] = [set() for _ in range(players)]
    common: list[set[str]] = []
    for i, st in enumerate(states):
        for p in range(players):
            so_far[p] |= cards_in(encode_value(g.view(st, p)))
            if i > 0 and type(history[i - 1]).__name__ != "Shuffle":
                so_far[p] |= cards_in(g.describe_for(states[i - 1], history[i - 1], p))
        common.append(set.intersection(*so_far))
    checked = 0
    for msg in seen:
        if msg["type"] != "state" or msg["status"] == "rule":
            continue
        assert msg["spectator"] is True and msg["seat"] is None and msg["legal"] == []
        shown = {k: v for k, v in msg.items() if k != "notation"}
        leaked = cards_in(shown) - common[msg["step"]]
        assert not leaked, f"step {msg['step']}: a spectator was sent {sorted(leaked)}"
        assert msg["view"] == encode_value(g.public_view(states[msg["step"]]))
        if game == "eleusis" and msg["status"] != "over":
            assert "prev.color" not in json.dumps(msg)  # the secret rule, until the end
        checked += 1
    return checked


@pytest.mark.parametrize("game", ["aegis", "gunsore", "haggis", "eleusis"])
@pytest.mark.parametrize("seed", [1, 2])
def test_a_spectator_is_sent_no_card_hidden_from_any_player(game, seed, tmp_path):
    g = GAMES[game]
    seats = ["random"] * g.default_players
    extra: dict[str, Any] = {"rule": "card.color != prev.color"} if game == "eleusis" else {}
    with client(tmp_path / "t.db") as c:
        made = make(c, game, seats, **extra)
        assert made["watch"] == f"/watch/{made['id']}"
        assert c.get(made["watch"]).status_code == 200
        seen: list[dict[str, Any]] = []
        with c.websocket_connect(f"/ws/{made['id']}") as ws:
            ws.send_json({"type": "watch"})
            receive_until(ws, lambda m: m["type"] == "state" and m["status"] == "over", seen)
            ws.send_json({"type": "act", "action": "pass", "step": seen[-1]["step"]})
            assert receive_until(ws, lambda m: m["type"] == "error")["message"] == "a spectator watches: it cannot act"
        record = c.app.state.server.store.record(made["id"])
    assert check_spectator(game, seen, record) >= 3
    if game == "eleusis":
        assert seen[-1]["rule"] == "card.color != prev.color"


def test_the_spectator_check_can_fail(tmp_path):
    # a player's hand in a spectator's message is caught
    with client(tmp_path / "t.db") as c:
        made = make(c, "haggis", ["random", "random"])
        seen: list[dict[str, Any]] = []
        with c.websocket_connect(f"/ws/{made['id']}") as ws:
            ws.send_json({"type": "watch"})
            receive_until(ws, lambda m: m["type"] == "state" and m["status"] == "over", seen)
        record = c.app.state.server.store.record(made["id"])
    st = states_by_step(record)[seen[0]["step"]]
    forged = dict(seen[0], view=encode_value(GAMES["haggis"].view(st, 0)))
    with pytest.raises(AssertionError, match="was sent"):
        check_spectator("haggis", [forged], record)


def test_a_table_may_refuse_spectators(tmp_path):
    with client(tmp_path / "t.db") as c:
        made = make(c, "aegis", ["human", "random"], spectators=False)
        assert made["watch"] is None
        with c.websocket_connect(f"/ws/{made['id']}") as ws:
            ws.send_json({"type": "watch"})
            assert ws.receive_json() == {"type": "error", "message": "this table cannot be watched"}
            with pytest.raises(WebSocketDisconnect):
                ws.receive_json()


# -- acts name their step --------------------------------------------------------------------


def test_an_act_for_another_step_is_refused_and_a_repeated_act_applies_once(tmp_path):
    with client(tmp_path / "t.db") as c:
        made = make(c, "haggis", ["human", "human"])
        server = c.app.state.server
        table = server.tables[made["id"]]
        mover = table.to_act
        with c.websocket_connect(f"/ws/{made['id']}") as ws:
            ws.send_json({"type": "join", "token": made["tokens"][mover]})
            first = ws.receive_json()
            action, step = first["legal"][-1], first["step"]
            before = server.store.record(made["id"])
            for bad, why in [
                ({"type": "act", "action": action}, "an act names the step it answers"),
                ({"type": "act", "action": action, "step": step + 1}, f"the table is at step {step}"),
                ({"type": "act", "action": action, "step": step - 1}, "nothing was changed"),
                ({"type": "act", "action": action, "step": True}, "an act names the step"),
                ({"type": "act", "action": action, "step": str(step)}, "an act names the step"),
            ]:
                ws.send_json(bad)
                answer = ws.receive_json()
                assert answer["type"] == "error" and why in answer["message"], (bad, answer)
                assert server.store.record(made["id"]) == before
            ws.send_json({"type": "act", "action": action, "step": step})
            ws.send_json({"type": "act", "action": action, "step": step})  # sent twice
            after = receive_until(ws, lambda m: m["type"] == "state")
            assert after["step"] == step + 1
            again = receive_until(ws, lambda m: m["type"] == "error")
            assert f"this act answers step {step}, but the table is at step {step + 1}" in again["message"]
        assert len(from_json(server.store.record(made["id"])).history) == step + 1


# -- clocks ---------------------------------------------------------------------------------


def test_a_seat_whose_clock_runs_out_plays_the_greedy_move(tmp_path):
    with client(tmp_path / "t.db") as c:
        made = make(c, "aegis", ["human", "human"], clock=1)
        table = c.app.state.server.tables[made["id"]]
        mover, step = table.to_act, table.step
        expected = table.timeout_action()
        with c.websocket_connect(f"/ws/{made['id']}") as ws:
            ws.send_json({"type": "join", "token": made["tokens"][mover]})
            first = ws.receive_json()
            assert first["clock"]["seat"] == mover and first["clock"]["per_move"] == 1
            assert 0 < first["clock"]["remaining"] <= 1
            t0 = time.monotonic()
            moved = receive_until(ws, lambda m: m["type"] == "state" and m["step"] > step)
            assert 0.3 < time.monotonic() - t0 < 15  # a 1 s clock, on a machine that may be busy
        record = from_json(c.app.state.server.store.record(made["id"]))
        assert record.history[step] == expected
        # the clock restarted for whoever acts next (the same seat may act twice running)
        clock = moved["clock"]
        assert clock is None or (clock["seat"] == moved["to_act"] and clock["remaining"] > 0.5)


def test_a_forfeit_table_ends_when_the_clock_runs_out(tmp_path):
    with client(tmp_path / "t.db") as c:
        made = make(c, "haggis", ["human", "random"], clock=1, on_timeout="forfeit")
        server = c.app.state.server
        with c.websocket_connect(f"/ws/{made['id']}") as ws:
            ws.send_json({"type": "join", "token": made["tokens"][0]})
            msg = receive_until(ws, lambda m: m["type"] == "state" and m["to_act"] == 0)
            over = receive_until(ws, lambda m: m["type"] == "state" and m["status"] == "over")
            assert over["forfeit"] == 0 and over["winners"] == [1] and "forfeited" in over["summary"]
            assert over["clock"] is None and over["legal"] == []
            ws.send_json({"type": "act", "action": msg["legal"][0] if msg["legal"] else "pass", "step": over["step"]})
            assert receive_until(ws, lambda m: m["type"] == "error")["message"] == "the game is over"
        record = server.store.record(made["id"])
    with client(tmp_path / "t.db") as c:  # the forfeit is kept
        table = c.app.state.server.table(made["id"])
        assert table.forfeit == 0 and table.status == "over"
        assert c.app.state.server.store.record(made["id"]) == record


def test_the_clock_s_deadline_is_kept_across_a_restart(tmp_path):
    with client(tmp_path / "t.db") as c:
        made = make(c, "aegis", ["human", "human"], clock=600)
        deadline = c.app.state.server.tables[made["id"]].deadline
        assert deadline is not None and 590 < deadline - time.time() <= 600
    time.sleep(0.2)
    with client(tmp_path / "t.db") as c:
        table = c.app.state.server.table(made["id"])
        assert table.deadline == deadline
        with c.websocket_connect(f"/ws/{made['id']}") as ws:
            ws.send_json({"type": "join", "token": made["tokens"][table.to_act]})
            left = ws.receive_json()["clock"]["remaining"]
            assert left == pytest.approx(deadline - time.time(), abs=1.0) and left < 599.9


def test_clock_settings_are_checked(tmp_path):
    with client(tmp_path / "t.db") as c:
        for extra, why in [
            ({"clock": 0}, "clock is a whole number"),
            ({"clock": 1.5}, "clock is a whole number"),
            ({"clock": True}, "clock is a whole number"),
            ({"clock": 10**9}, "clock is a whole number"),
            ({"on_timeout": "cry"}, "on_timeout is 'move' or 'forfeit'"),
            ({"spectators": "yes"}, "spectators is true or false"),
            ({"listed": 1}, "listed is true or false"),
        ]:
            r = c.post("/tables", json={"game": "aegis", "seats": ["human", "random"], **extra})
            assert r.status_code == 400 and why in r.json()["error"], (extra, r.text)
        assert c.app.state.server.store.ids() == []


# -- the list of open tables ----------------------------------------------------------------


def test_listed_tables_and_claiming_a_free_seat(tmp_path):
    with client(tmp_path / "t.db") as c:
        hidden = make(c, "aegis", ["human", "random"])
        made = make(c, "haggis", ["human", "human", "random"], listed=True, clock=60)
        newest = make(c, "aegis", ["human", "human"], listed=True, spectators=False)
        listing = c.get("/tables").json()["tables"]
        assert [t["id"] for t in listing] == [newest["id"], made["id"]]
        entry = listing[1]
        assert entry["game"] == "haggis" and entry["status"] == "play" and entry["clock"] == 60
        assert entry["watch"] == f"/watch/{made['id']}" and listing[0]["watch"] is None
        assert [s["free"] for s in entry["seats"]] == [True, True, False]
        with c.websocket_connect(f"/ws/{made['id']}") as ws:
            ws.send_json({"type": "join", "token": made["tokens"][0]})
            ws.receive_json()
        assert [s["free"] for s in c.get("/tables").json()["tables"][1]["seats"]] == [False, True, False]
        r = c.post(f"/tables/{made['id']}/seats/1")
        assert r.status_code == 200, r.text
        url = r.json()["url"]
        assert url.startswith(f"/table/{made['id']}#")
        token = url.split("#")[1]
        for seat, why in [(1, "not a free human seat"), (0, "not a free human seat"), (2, "not a free human seat"),
                          ("x", "not a free human seat"), (7, "not a free human seat")]:  # fmt: skip
            r = c.post(f"/tables/{made['id']}/seats/{seat}")
            assert r.status_code == 400 and why in r.json()["error"]
        assert c.post(f"/tables/{hidden['id']}/seats/0").json()["error"].startswith("this table is not listed")
        assert c.post("/tables/nope/seats/0").status_code == 400
        with c.websocket_connect(f"/ws/{made['id']}") as ws:  # the seat's former link is void
            ws.send_json({"type": "join", "token": made["tokens"][1]})
            assert ws.receive_json()["type"] == "error"
        with c.websocket_connect(f"/ws/{made['id']}") as ws:
            ws.send_json({"type": "join", "token": token})
            assert ws.receive_json()["seat"] == 1
    with client(tmp_path / "t.db") as c:  # kept across a restart
        listing = c.get("/tables").json()["tables"]
        assert [s["free"] for s in listing[1]["seats"]] == [False, False, False]


# -- computers play while someone is there ----------------------------------------------------


def test_computer_only_tables_wait_for_a_person(tmp_path):
    with client(tmp_path / "t.db") as c:
        made = make(c, "aegis", ["random", "random"])
        table = c.app.state.server.tables[made["id"]]
        step = table.step
        time.sleep(0.3)
        assert table.step == step and not table.is_over  # nobody there: no move
        with c.websocket_connect(f"/ws/{made['id']}") as ws:
            ws.send_json({"type": "watch"})
            receive_until(ws, lambda m: m["type"] == "state" and m["status"] == "over")


def test_autoplay_tables_play_on_their_own_within_the_budget(tmp_path):
    with client(tmp_path / "t.db", limits=Limits(autoplay_tables=1)) as c:
        server = c.app.state.server
        ids = [make(c, "aegis", ["random", "random"], autoplay=True)["id"] for _ in range(3)]
        most = 0
        deadline = time.monotonic() + 60
        while not all(server.tables[i].is_over for i in ids):
            assert time.monotonic() < deadline
            playing = sum(1 for i in ids if i in server.autoplaying)
            most = max(most, playing)
            time.sleep(0.005)
        assert most == 1
        assert not server.autoplaying


# -- rate limits ----------------------------------------------------------------------------


def test_new_tables_are_rate_limited_per_address(tmp_path):
    with client(tmp_path / "t.db", limits=Limits(tables=1, tables_burst=3)) as c:
        codes = [c.post("/tables", json={"game": "aegis", "seats": ["human", "random"]}).status_code
                 for _ in range(5)]  # fmt: skip
        assert codes == [201, 201, 201, 429, 429]
        r = c.post("/tables", json={"game": "aegis", "seats": ["human", "random"]})
        assert r.status_code == 429 and "too many new tables" in r.json()["error"]
        assert len(c.app.state.server.store.ids()) == 3


def test_messages_are_rate_limited_and_a_flood_closes_the_socket(tmp_path):
    limits = Limits(messages=1, messages_burst=5, flood=20)
    with client(tmp_path / "t.db", limits=limits) as c:
        made = make(c, "aegis", ["human", "human"])  # no computer's move in between
        with c.websocket_connect(f"/ws/{made['id']}") as ws:
            ws.send_json({"type": "join", "token": made["tokens"][0]})
            ws.receive_json()
            for _ in range(8):
                ws.send_json({"type": "state"})
            answers = [ws.receive_json() for _ in range(8)]
            assert [a["type"] for a in answers] == ["state"] * 5 + ["error"] * 3
            assert "too many messages" in answers[-1]["message"]
            for _ in range(30):
                ws.send_json({"type": "state"})
            with pytest.raises(WebSocketDisconnect) as closed:
                for _ in range(40):
                    ws.receive_json()
            assert closed.value.code == 1008


def test_a_state_message_is_made_once_per_step(tmp_path, monkeypatch):
    with client(tmp_path / "t.db") as c:
        r = c.post("/tables", json={"game": "haggis", "seats": ["human", "human", "human"]})
        made = r.json()
        table = c.app.state.server.tables[made["id"]]
        token = made["links"][table.to_act]["url"].split("#")[1]
        g = GAMES["haggis"]
        calls = []
        real = g.legal_actions
        monkeypatch.setattr(g, "legal_actions", lambda st: calls.append(1) or real(st))
        with c.websocket_connect(f"/ws/{made['id']}") as ws:
            ws.send_json({"type": "join", "token": token})
            first = ws.receive_json()
            assert len(first["legal"]) > 100
            for _ in range(150):
                ws.send_json({"type": "state"})
            answers = [ws.receive_json() for _ in range(150)]
        assert all(a["legal"] == first["legal"] for a in answers)
        assert len(calls) <= 1


def test_buckets():
    b = Bucket(rate=2.0, burst=3)
    t = b.stamp
    assert [b.take(t) for _ in range(4)] == [True, True, True, False]
    assert b.take(t + 0.5) and not b.take(t + 0.5)
    per = PerAddress(1.0, 1, keep=4)
    assert per.take("a") and not per.take("a")
    for i in range(10):
        per.take(str(i))
    assert len(per.buckets) <= 4
    with pytest.raises(ValueError):
        Limits(messages=0)


# -- texts that UTF-8 cannot carry ----------------------------------------------------------


def test_lone_surrogates_are_refused_in_words(tmp_path):
    with client(tmp_path / "t.db") as c:
        for body in [
            '{"game": "aegis", "seats": ["human", "random"], "rules": {"\\ud800": 1}}',
            '{"game": "eleusis", "seats": ["random", "human", "random", "random"], "rule": "card is red # \\ud800"}',
            '{"game": "aegis\\udfff", "seats": ["human", "random"]}',
        ]:
            r = c.post("/tables", content=body.encode(), headers={"content-type": "application/json"})
            assert r.status_code == 400 and "surrogate" in r.json()["error"], r.text
        assert c.app.state.server.store.ids() == []
        made = make(c, "eleusis", ["human", "human", "random", "random"])
        with c.websocket_connect(f"/ws/{made['id']}") as god:
            god.send_json({"type": "join", "token": made["tokens"][0]})
            god.receive_json()
            for text in ["card is red or \\ud800", "card is red # \\ud800"]:
                god.send_text('{"type": "rule", "text": "' + text + '"}')
                answer = god.receive_json()
                assert answer["type"] == "error" and "surrogate" in answer["message"]
            assert c.app.state.server.store.record(made["id"]) is None
            god.send_json({"type": "rule", "text": "card is red"})
            assert god.receive_json()["status"] == "play"


def test_a_table_stored_with_a_lone_surrogate_is_still_served(tmp_path):
    db = tmp_path / "t.db"
    table, tokens = GameTable.create("old", "eleusis", ["random", "human", "random", "random"],
                                     rules=SHORT["eleusis"], rule="card is red # \ud800")  # fmt: skip
    with Store(str(db)) as store:
        store.add(table)
    with client(db) as c:
        with c.websocket_connect("/ws/old") as ws:
            ws.send_json({"type": "join", "token": tokens[1]})
            first = ws.receive_json()
            assert first["type"] == "state" and first["status"] == "play"
            msg = first
            while msg["status"] != "over":
                if msg["legal"]:
                    ws.send_json({"type": "act", "action": msg["legal"][0], "step": msg["step"]})
                msg = receive_until(ws, lambda m: m["type"] == "state")
            assert msg["rule"] == "card is red # \ud800"  # sent as its JSON escape
        with c.websocket_connect("/ws/old") as ws:  # a later join is served too
            ws.send_json({"type": "watch"})
            assert ws.receive_json()["status"] == "over"


def test_a_damaged_stored_table_is_refused_and_the_server_goes_on(tmp_path):
    import sqlite3

    db = tmp_path / "t.db"
    with client(db) as c:
        made = make(c, "aegis", ["human", "random"])
    with sqlite3.connect(db) as raw:
        raw.execute("UPDATE tables SET record = ? WHERE id = ?", ("[" * 5000 + "]" * 5000, made["id"]))
    with client(db) as c:
        with c.websocket_connect(f"/ws/{made['id']}") as ws:
            ws.send_json({"type": "join", "token": made["tokens"][0]})
            assert ws.receive_json() == {"type": "error", "message": "this table cannot be read from the store"}
        assert c.get("/games").status_code == 200


# -- reconnection -----------------------------------------------------------------------------


def test_a_reconnection_is_sent_the_whole_current_message(tmp_path):
    with client(tmp_path / "t.db") as c:
        made = make(c, "gunsore", ["human", "random"])
        table = c.app.state.server.tables[made["id"]]
        rng = random.Random(8)
        for _ in range(3):
            with c.websocket_connect(f"/ws/{made['id']}") as ws:
                ws.send_json({"type": "join", "token": made["tokens"][0]})
                msg = receive_until(ws, lambda m: m["type"] == "state" and bool(m["legal"]))
                ws.send_json({"type": "act", "action": rng.choice(msg["legal"]), "step": msg["step"]})
                # until the person is to act again (or the game is over): no computer
                # then moves while the table is compared below
                receive_until(ws, lambda m, s=msg["step"]: m["type"] == "state" and m["step"] > s
                      and (bool(m["legal"]) or m["status"] == "over"))  # fmt: skip
            with c.websocket_connect(f"/ws/{made['id']}") as ws:
                ws.send_json({"type": "join", "token": made["tokens"][0]})
                again = ws.receive_json()
                whole = table.message(0)
                del again["clock"], whole["clock"]
                assert again == whole
                assert again["history_count"] == len(table.lines[0]) and again["view"] == encode_value(
                    GAMES["gunsore"].view(table.state, 0)
                )


def test_table_settings_read_back_from_the_store(tmp_path):
    settings = TableSettings(spectators=False, listed=True, clock=30, on_timeout="forfeit", autoplay=True)
    table, _ = GameTable.create("s1", "aegis", ["human", "random"], settings=settings, seed="x")
    table.taken.add(0)
    with Store(str(tmp_path / "s.db")) as store:
        store.add(table)
        again = store.load("s1")
    assert again is not None
    assert again.settings == settings and again.deadline == table.deadline and again.taken == {0}
    with pytest.raises(TableError):
        TableSettings.read({"clock": -1})

"""The web table on PostgreSQL, served by several processes: the store against a real
database (no mock), its optimistic step check and its notifications, a seat whose act
lost the race told so in words, two ``cardrules serve`` processes carrying one game
between two people connected to different processes, and 50 games over two processes
while one of them is killed with SIGKILL and restarted twice.

The database is the one ``CARDRULES_TEST_POSTGRES`` names (a ``postgresql://`` URL;
``.ci/run`` starts Debian's PostgreSQL and sets it); without it, or without psycopg,
these tests skip and say why.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import secrets
import sys

import pytest

from cardrules import CardRulesError, from_json, to_json
from cardrules.cli.serve_cmd import _shown
from cardrules.web.database import open_store
from cardrules.web.store import StaleTable, Store, table_step
from cardrules.web.table import GameTable, TableSettings

URL = os.environ.get("CARDRULES_TEST_POSTGRES", "")


def _why_skip() -> str | None:
    if not URL:
        return "no PostgreSQL to test with: set CARDRULES_TEST_POSTGRES=postgresql://... (.ci/run does)"
    try:
        import psycopg  # noqa: F401
    except ImportError:
        return "psycopg 3 is not installed (the extra cardrules[postgres])"
    return None


needs_postgres = pytest.mark.skipif(_why_skip() is not None, reason=_why_skip() or "")


def _needs_web() -> None:
    for name in ("starlette", "uvicorn", "websockets"):
        pytest.importorskip(name, reason=f"the web extra ({name}) is not installed")


def new_table(game: str = "aegis", seats: tuple[str, ...] = ("human", "human")) -> GameTable:
    table, _ = GameTable.create("t-" + secrets.token_hex(8), game, list(seats), rules={"target": 5}, seed="pg")
    return table


def test_a_postgres_url_without_psycopg_says_how_to_install_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "psycopg", None)  # import psycopg fails
    with pytest.raises(CardRulesError, match=r"psycopg 3.*pip install 'cardrules\[postgres\]'"):
        open_store("postgresql:///nowhere")


def test_a_sqlite_path_opens_the_sqlite_store(tmp_path):
    with open_store(str(tmp_path / "t.db")) as store:
        assert isinstance(store, Store) and not store.shared


def test_the_printed_url_hides_its_password():
    assert _shown("postgresql://cards:s3cret@db.example/cards") == "postgresql://cards:***@db.example/cards"
    assert _shown("postgresql:///cards?host=/run/pg") == "postgresql:///cards?host=/run/pg"
    assert _shown("tables.db") == "tables.db"


@needs_postgres
def test_the_store_keeps_a_table_as_sqlite_does(tmp_path):
    table = new_table()
    g = table.game
    new = g.apply(table.state, g.legal_actions(table.state)[0])
    with open_store(URL) as pg, Store(str(tmp_path / "t.db")) as lite:
        assert pg.shared
        for store in (pg, lite):
            store.add(table)
            store.save(table, new)
            back = store.load(table.id)
            assert back is not None and back.state == new
            assert (back.seats, back.tokens, back.seed, back.options) == (
                table.seats, table.tokens, table.seed, table.options)  # fmt: skip
            assert from_json(store.record(table.id)) == new
            assert table.id in store.ids()
        assert pg.load("no-such-table") is None and pg.record("no-such-table") is None
        with pytest.raises(KeyError):
            pg.save(new_table(), new)  # never added


@needs_postgres
def test_the_store_keeps_a_table_s_settings_as_sqlite_does(tmp_path):
    # spectators, listed, the clock and what its end does, autoplay, the deadline, a
    # forfeit, the taken seats; a table waiting for its rule saves its settings alone;
    # the listed tables, newest first
    settings = TableSettings(spectators=False, listed=True, clock=30, on_timeout="forfeit", autoplay=True)
    with open_store(URL) as pg, Store(str(tmp_path / "t.db")) as lite:
        for store in (pg, lite):
            table, _ = GameTable.create("t-" + secrets.token_hex(8), "haggis", ["human", "human"],
                                        rules={"target": 20}, settings=settings)  # fmt: skip
            store.add(table)
            table.deadline, table.forfeit, table.taken = 1234.5, 1, {0}
            store.save(table, table.state)
            back = store.load(table.id)
            assert (back.settings, back.deadline, back.forfeit, back.taken) == (settings, 1234.5, 1, {0})
            waiting, _ = GameTable.create("t-" + secrets.token_hex(8), "eleusis", ["human"] * 4,
                                          settings=TableSettings(listed=True))  # fmt: skip
            assert waiting.state is None
            store.add(waiting)
            waiting.taken = {2}
            store.save(waiting, None)
            back = store.load(waiting.id)
            assert back.state is None and back.taken == {2} and store.record(waiting.id) is None
            unlisted, _ = GameTable.create("t-" + secrets.token_hex(8), "aegis", ["human", "human"])
            store.add(unlisted)
            listed = store.listed_ids(1000)
            assert listed[:2] == [waiting.id, table.id] and unlisted.id not in listed
            assert store.listed_ids(1) == [waiting.id]


@needs_postgres
def test_a_table_caught_up_from_another_process_carries_its_settings_and_new_messages():
    # another process moves a table with a clock on and a seat is taken there: this
    # process catches up (the new actions only), with the stored deadline and taken
    # seats, and the messages it had made are made anew (not sent again from the cache)
    from cardrules.web.store import catch_up

    with open_store(URL) as a, open_store(URL) as b:
        table, _ = GameTable.create("t-" + secrets.token_hex(8), "aegis", ["human", "human"],
                                    rules={"target": 5}, settings=TableSettings(clock=60))  # fmt: skip
        a.add(table)
        here = b.load(table.id)
        before = {seat: here.message_text(seat) for seat in (0, 1, None)}
        g = table.game
        new = table.after(g.legal_actions(table.state)[0])
        table.deadline = table.deadline_for(new)
        table.taken = {0, 1}
        a.save(table, new, expected=table_step(table.state))
        table.commit(new, g.legal_actions(table.state)[0])
        assert catch_up(here, *b.row(table.id)) is True
        assert here.state == table.state and here.lines == table.lines
        assert here.public_lines == table.public_lines and here.last == table.last
        assert here.deadline == table.deadline and here.taken == {0, 1}
        for seat in (0, 1, None):
            after = here.message(seat)
            assert after["step"] == len(new.history) and here.message_text(seat) != before[seat]
            assert {k: v for k, v in after.items() if k != "clock"} == {
                k: v for k, v in table.message(seat).items() if k != "clock"
            }
        # a settings change alone (a forfeit) is carried too, and shown
        table.forfeits(1)
        a.save(table, table.state, expected=table_step(table.state))
        assert catch_up(here, *b.row(table.id)) is True
        assert here.forfeit == 1 and here.message(0)["status"] == "over"


@needs_postgres
def test_a_save_from_a_step_the_table_has_left_is_refused_and_writes_nothing():
    table = new_table()
    g = table.game
    with open_store(URL) as a, open_store(URL) as b:
        a.add(table)
        step = table_step(table.state)
        legal = g.legal_actions(table.state)
        first, second = g.apply(table.state, legal[0]), g.apply(table.state, legal[-1])
        a.save(table, first, expected=step)
        with pytest.raises(StaleTable, match="another action was made at this table first"):
            b.save(table, second, expected=step)  # made from the same step: too late
        assert from_json(b.record(table.id)) == first
        assert a.step(table.id) == table_step(first)


@needs_postgres
def test_every_process_hears_a_committed_save():
    table = new_table()
    g = table.game
    new = g.apply(table.state, g.legal_actions(table.state)[0])

    async def listen_and_save() -> list[object]:
        heard: list[object] = []
        with open_store(URL) as listener, open_store(URL) as writer:
            writer.add(table)
            changes = listener.changes()
            heard.append(await anext(changes))  # listening
            await asyncio.to_thread(writer.save, table, new, expected=table_step(table.state))
            while True:  # other tests may save their own tables meanwhile
                change = await asyncio.wait_for(anext(changes), 10)
                if change is not None and change[0] == table.id:
                    heard.append(change)
                    break
            await changes.aclose()
        return heard

    assert asyncio.run(listen_and_save()) == [None, (table.id, table_step(new))]


@needs_postgres
def test_an_act_that_lost_the_race_is_refused_in_words_and_the_table_read_again():
    pytest.importorskip("starlette", reason="the web extra (starlette) is not installed")
    from cardrules.web.app import Server

    table = new_table()

    async def race() -> tuple[str, int, int]:
        one, two = Server(open_store(URL)), Server(open_store(URL))
        try:
            one.store.add(table)
            t1, t2 = one.table(table.id), two.table(table.id)
            assert t1 is not None and t2 is not None
            seat = t1.to_act
            legal = [str(a) for a in t1.game.legal_actions(t1.state)]
            await one.act(t1, seat, legal[0], t1.step)  # this process is first
            with pytest.raises(StaleTable) as refused:
                await two.act(t2, seat, legal[-1], t2.step)  # the other still had the old step
            return str(refused.value), table_step(t1.state), table_step(t2.state)
        finally:
            await one.close()
            await two.close()

    words, step_one, step_two = asyncio.run(race())
    assert "not applied" in words
    assert step_two == step_one  # read again: the second process now shows the first's move


@needs_postgres
def test_two_people_at_one_table_each_on_another_process_play_a_whole_game():
    _needs_web()
    from benchmark_scripts import benchmark_script

    bench_web = benchmark_script("bench_web")
    result = bench_web.run(1, short=True, kill=False, seed="two", db=URL, processes=2, timeout=120)
    assert result["processes"] == 2
    assert result["over"] == result["same_records"] == result["replayed"] == 1
    # a client only acts when a message shows its turn: each of the other process's
    # moves reached it through the database
    assert result["relayed"] > 2
    assert result["regressions"] == 0 and result["refused"] == 0


@needs_postgres
def test_fifty_games_over_two_processes_all_end_with_no_kill_to_reconnect_them():
    # without a kill no client ever joins again, so a move that never reached a seat
    # connected to the other process would stall its game (the timeout)
    _needs_web()
    from benchmark_scripts import benchmark_script

    bench_web = benchmark_script("bench_web")
    result = bench_web.run(50, short=True, kill=False, seed="nokill", db=URL, processes=2, timeout=90)
    assert result["over"] == result["replayed"] == result["same_records"] == 50
    assert result["reconnects"] == 0 and result["regressions"] == 0 and result["relayed"] > 0


@needs_postgres
def test_fifty_games_over_two_processes_survive_two_sigkills():
    _needs_web()
    from benchmark_scripts import benchmark_script

    bench_web = benchmark_script("bench_web")
    result = bench_web.run(50, short=True, seed="pg", db=URL, processes=2, kills=2, timeout=300)
    assert len(result["kills"]) == 2
    assert all(n > 0 for n in result["unfinished_at_kills"])  # both kills came mid-game
    assert result["reconnects"] > 0 and result["relayed"] > 0
    # every game over; every record replays to itself and is the game of the clients'
    # seeded choices (an action lost or applied twice would change it); no client saw
    # a table go back a step
    assert result["over"] == result["replayed"] == result["same_records"] == 50
    assert result["regressions"] == 0


@pytest.mark.parametrize("game", ["aegis", "haggis", "eleusis"])
def test_catching_up_with_the_stored_actions_is_reading_the_table_whole(tmp_path, game):
    from cardrules.web.store import catch_up

    seats = ["human"] * (4 if game == "eleusis" else 2)
    rule = "card.color != prev.color" if game == "eleusis" else None
    table, _ = GameTable.create("t-" + game, game, seats, seed="catch", rule=rule)
    g = table.game
    rng = random.Random(game)
    with Store(str(tmp_path / "t.db")) as store:
        store.add(table)
        behind = store.load(table.id)
        diverged = store.load(table.id)  # will take another first action than the stored one
        legal = g.legal_actions(diverged.state)
        diverged.commit(diverged.after(legal[-1]), legal[-1])
        for moves in (3, 0, 7, 20):
            made = 0
            while made < moves and not table.state.is_over:
                action = rng.choice(g.legal_actions(table.state)[:-1] or g.legal_actions(table.state))
                new = table.after(action)
                store.save(table, new)
                table.commit(new, action)
                made += 1
            settings, record = store.row(table.id)
            assert catch_up(behind, settings, record) is (made > 0)
            whole = store.load(table.id)
            assert behind.state == whole.state == table.state
            assert behind.lines == whole.lines == table.lines
            assert to_json(behind.state) == record
        # a history that is not this one's continuation: read it whole instead
        assert catch_up(diverged, settings, record) is None
        # other settings (a seat taken...): read anew, the game caught up all the same
        other = store.load(table.id)
        stored_tokens = other.tokens
        other.tokens = {0: "another"}
        assert catch_up(other, settings, record) is True
        assert other.tokens == stored_tokens and other.state == table.state and other.lines == table.lines
        assert catch_up(other, settings, record) is False
        # another seed (not the same table): read it whole
        other.seed = "another"
        assert catch_up(other, settings, record) is None


@needs_postgres
def test_a_table_with_the_computer_and_two_people_on_two_processes_plays_to_the_end(tmp_path):
    _needs_web()
    import json
    import urllib.request

    from benchmark_scripts import benchmark_script

    bench_web = benchmark_script("bench_web")
    servers = [bench_web.Server(URL) for _ in range(2)]
    try:
        for server in servers:
            server.start()
        body = json.dumps({"game": "haggis", "seats": ["human", "human", "greedy"], "rules": {"target": 20}})
        request = urllib.request.Request(
            f"http://127.0.0.1:{servers[0].port}/tables", body.encode(), {"Content-Type": "application/json"}
        )
        with urllib.request.urlopen(request, timeout=30) as answer:
            made = json.load(answer)
        tokens = [link["url"].split("#", 1)[1] for link in made["links"]]
        stats = bench_web.Stats()
        ports = [lambda s=s: s.port for s in servers]

        async def play() -> None:
            clients = [bench_web.seat_client(ports, i, made["id"], t, f"c{i}", stats) for i, t in enumerate(tokens)]
            await asyncio.wait_for(asyncio.gather(*clients), 120)

        asyncio.run(play())
    finally:
        for server in servers:
            server.stop()
    with open_store(URL) as store:
        record = store.record(made["id"])
    state = from_json(record)
    assert state.is_over and to_json(state) == record
    assert stats.regressions == 0
    # the computer's seat played, and each of its moves was applied once: the record
    # replays (above), and the greedy agent's move at each of its turns is the one its
    # seed gives (the same in any process)
    from cardrules import GAMES, Shuffle

    table = GameTable("x", "haggis", 3, ["human", "human", "greedy"], {}, state.seed)
    g = GAMES["haggis"]
    replay = g.new_game(state.rules, players=3, seed=state.seed)
    computer_moves = 0
    for action in state.history:
        if type(action) is Shuffle:
            continue  # dealt by the seeded game itself
        if replay.to_act == 2:
            table.state = replay
            assert table.choose() == action
            computer_moves += 1
        replay = g.apply(replay, action)
    assert computer_moves > 0 and to_json(replay) == record


def test_serve_on_postgres_without_psycopg_says_how_to_install_it(monkeypatch, capsys):
    _needs_web()
    from cardrules.cli import main

    monkeypatch.setitem(sys.modules, "psycopg", None)
    assert main(["serve", "--port", "0", "--db", "postgresql:///cards"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("cardrules: a postgresql:// database needs psycopg 3") and "Traceback" not in err


@needs_postgres
def test_serve_on_a_database_that_is_not_there_says_so(capsys):
    _needs_web()
    from cardrules.cli import main

    url = URL.replace("postgresql:///", "postgresql:///no_such_database_", 1) if "postgresql:///" in URL else None
    if url is None:
        pytest.skip("the test's URL names no database in the form postgresql:///NAME")
    assert main(["serve", "--port", "0", "--db", url]) == 1
    err = capsys.readouterr().err
    assert err.startswith("cardrules: cannot connect to the PostgreSQL database") and "Traceback" not in err


@needs_postgres
def test_one_seat_acting_through_two_processes_at_once_moves_once():
    # two tabs of one seat, each connected to another process, send different actions
    # for the same step at the same moment: one is applied, the other refused in words,
    # and both tabs then show the same table (without the step check the second commit
    # would overwrite the first, and both tabs be told their action was taken)
    _needs_web()
    import json

    import websockets
    from benchmark_scripts import benchmark_script

    bench_web = benchmark_script("bench_web")
    servers = [bench_web.Server(URL) for _ in range(2)]

    async def race(table_id: str, token: str) -> tuple[int, list[str], list[dict]]:
        socks = [await websockets.connect(f"ws://127.0.0.1:{s.port}/ws/{table_id}") for s in servers]
        try:
            for ws in socks:
                await ws.send(json.dumps({"type": "join", "token": token}))
            firsts = [json.loads(await ws.recv()) for ws in socks]
            step, legal = firsts[0]["step"], firsts[0]["legal"]
            assert firsts[1]["step"] == step and len(legal) > 1
            acts = [json.dumps({"type": "act", "action": a, "step": step}) for a in (legal[0], legal[-1])]
            await asyncio.gather(*(ws.send(a) for ws, a in zip(socks, acts, strict=True)))
            errors: list[str] = []
            lasts = []
            for ws in socks:
                while True:  # until this tab shows the table past the step
                    msg = json.loads(await asyncio.wait_for(ws.recv(), 30))
                    if msg["type"] == "error":
                        errors.append(msg["message"])
                    elif msg["step"] > step:
                        lasts.append(msg)
                        break
            for ws in socks:  # the refusal may follow the table shown as it is
                with contextlib.suppress(TimeoutError):
                    while True:
                        msg = json.loads(await asyncio.wait_for(ws.recv(), 0.3))
                        if msg["type"] == "error":
                            errors.append(msg["message"])
            return step, errors, lasts
        finally:
            for ws in socks:
                await ws.close()

    try:
        for server in servers:
            server.start()
        results = []
        for _ in range(6):
            table_id, tokens = bench_web.create(servers[0].port, "haggis", {"target": 100})
            step, errors, lasts = asyncio.run(race(table_id, tokens[min(tokens)]))
            with open_store(URL) as store:
                state = from_json(store.record(table_id))
            results.append((step, errors, lasts, state))
    finally:
        for server in servers:
            server.stop()
    for step, errors, lasts, state in results:
        assert len(errors) == 1, errors  # exactly one of the two acts was refused ...
        assert "not applied" in errors[0] or "not your turn" in errors[0] or "step" in errors[0], errors
        # ... and exactly one applied: the stored game went one action past the step
        actions = [a for a in state.history[step:] if type(a).__name__ != "Shuffle"]
        assert len(actions) == 1
        assert lasts[0]["step"] == lasts[1]["step"] == len(state.history)
        assert lasts[0]["history"] == lasts[1]["history"]

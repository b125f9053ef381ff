"""Load check of the web table (``cardrules serve``), run by hand::

    nice -n 10 python benchmarks/bench_web.py              # 50 games, 3 SIGKILLs
    nice -n 10 python benchmarks/bench_web.py --fast-commits
    python benchmarks/bench_web.py --games 5 --short       # a small one (what the test runs)
    # PostgreSQL, two processes, the first one killed and restarted twice:
    nice -n 10 python benchmarks/bench_web.py --db postgresql:///cards --processes 2 --kills 2
    # moves/s and p99 latency: 1 process on SQLite, 1 and 2 processes on PostgreSQL
    nice -n 10 python benchmarks/bench_web.py --compare postgresql:///cards

Starts ``cardrules serve`` (``--processes`` of them, on free localhost ports, on one
database: a new SQLite file, or the PostgreSQL database ``--db``), makes GAMES tables
(the four games in turn, every acting seat a person's, spread over the processes), and
drives every seat over its WebSocket with a seeded random client: at each of its turns a
client picks the legal action ``Random(f"{client seed}:{step}")`` chooses, so the same
game follows whatever happens to the connection.  With several processes the seats of
one table connect to different processes, so every move reaches the other seats
through the database (LISTEN/NOTIFY).  Each time another quarter of the expected
actions is accepted (``--kills 3``; evenly spaced for another number, halfway for one)
the first process is killed with SIGKILL and started again on the same database; its
clients reconnect (to the other processes meanwhile) and play on.  The clients stand
for people at as many addresses: the one address they share here is let through the
server's per-address message limit.  Then every game must be over, every stored record
must replay to itself (:func:`cardrules.from_json` replays and checks each action) and
equal the record of the same game (its stored seed, the same client seeds) played in
this process (so no accepted action was lost or applied twice), and no client may ever
have seen a table go back to an earlier step.  Prints actions/s and the latency of an
action (sent until the seat sees its result): median, p99 and max.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import platform
import random
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

import websockets  # noqa: E402

from cardrules import GAMES, from_json, to_json  # noqa: E402
from cardrules.web.database import is_postgres_url, open_store  # noqa: E402

ORDER = ("aegis", "gunsore", "haggis", "eleusis")
#: the games' rule options: moderate, so that 50 games take a minute or so
RULES = {
    "aegis": {"target": 10},
    "gunsore": {},
    "haggis": {"target": 100},
    "eleusis": {"hand_size": 8},
}
#: short games, for the test
SHORT = {
    "aegis": {"target": 5},
    "gunsore": {"hand_size": 3},
    "haggis": {"target": 20},
    "eleusis": {"hand_size": 4, "sudden_death": 8, "sudden_death_prophet": 6},
}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """``cardrules serve`` in a process of its own, on a fixed port and database."""

    def __init__(self, db: Path | str, options: tuple[str, ...] = ()) -> None:
        self.db = str(db)
        self.options = options
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
        self.process = subprocess.Popen(
            [sys.executable, "-m", "cardrules", "serve", "--port", str(self.port), "--db", self.db, *self.options],
            env=env, stdout=subprocess.DEVNULL, stderr=self._log(),
        )  # fmt: skip
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError("cardrules serve stopped at once")
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", self.port), 0.2):
                return
            time.sleep(0.05)
        raise RuntimeError("cardrules serve did not start")

    def _log(self) -> Any:
        """Where the server's messages go: the file CARDRULES_BENCH_SERVER_LOG names
        (appended to), or nowhere."""
        path = os.environ.get("CARDRULES_BENCH_SERVER_LOG")
        return open(path, "ab") if path else subprocess.DEVNULL

    def kill(self) -> None:
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(10)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)


def choose(client_seed: str, step: int, n: int) -> int:
    return random.Random(f"{client_seed}:{step}").randrange(n)


def in_process(record: str, client_seed: str) -> str:
    """The game of ``record`` (its rules, players and seed) played here by the same
    seeded choices: its record."""
    stored = from_json(record)
    g = GAMES[json.loads(record)["game"]]
    st = g.new_game(stored.rules, players=stored.players, seed=stored.seed)
    while not st.is_over:
        legal = g.legal_actions(st)
        st = g.apply(st, legal[choose(client_seed, len(st.history), len(legal))])
    return to_json(st)


def create(port: int, game: str, rules: dict[str, Any]) -> tuple[str, dict[int, str]]:
    import urllib.request

    g = GAMES[game]
    seats = ["random" if i in g.observer_seats else "human" for i in range(g.default_players)]
    body = json.dumps({"game": game, "seats": seats, "rules": rules}).encode()
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}/tables", body, {"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=30) as answer:
        made = json.load(answer)
    return made["id"], {link["seat"]: link["url"].split("#", 1)[1] for link in made["links"]}


class Stats:
    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.refused: list[str] = []
        self.reconnects = 0
        #: state messages whose step was below one the same client had seen (an
        #: accepted action lost)
        self.regressions = 0
        #: state messages that showed a seat's table changed by a seat connected to
        #: another process
        self.relayed = 0


async def seat_client(
    ports: list[Any], home: int, table_id: str, token: str, client_seed: str, stats: Stats
) -> None:
    """Play one seat to the end, connected to ``ports[home]()`` and, whenever the server
    goes away, to the next process (or the same one again, when it is alone)."""
    attempt = 0
    highest = -1
    while True:
        port = ports[(home + attempt) % len(ports)]()
        try:
            async with websockets.connect(f"ws://127.0.0.1:{port}/ws/{table_id}", max_size=2**24) as ws:
                await ws.send(json.dumps({"type": "join", "token": token}))
                pending: tuple[int, float] | None = None
                async for raw in ws:
                    msg = json.loads(raw)
                    if msg["type"] == "error":
                        stats.refused.append(msg["message"])
                        continue
                    now = time.perf_counter()
                    if msg["step"] < highest:
                        stats.regressions += 1
                    elif msg["step"] > highest and pending is None and highest >= 0:
                        stats.relayed += 1  # another seat's move, seen here
                    highest = max(highest, msg["step"])
                    if pending is not None and msg["step"] > pending[0]:
                        stats.latencies.append(now - pending[1])
                        pending = None
                    if msg["status"] == "over":
                        return
                    if msg["legal"] and pending is None:
                        legal = msg["legal"]
                        action = legal[choose(client_seed, msg["step"], len(legal))]
                        pending = (msg["step"], now)
                        await ws.send(json.dumps({"type": "act", "action": action, "step": msg["step"]}))
        except (OSError, websockets.ConnectionClosed, asyncio.TimeoutError):
            stats.reconnects += 1
            attempt += 1
            await asyncio.sleep(0.1)


async def drive(
    servers: list[Server],
    games: int,
    rules: dict[str, dict[str, Any]],
    seed: str,
    kill_after: list[int],
    timeout: float | None = None,
) -> dict[str, Any]:
    """Play ``games`` games through ``servers``; kill ``servers[0]`` with SIGKILL (and
    start it again) once each of ``kill_after`` actions has been accepted.  With
    ``timeout`` (seconds), games that have not all ended by then raise ``TimeoutError``
    (a client waiting for a message that never comes)."""
    tables = []
    for i in range(games):
        game = ORDER[i % len(ORDER)]
        table_id, tokens = create(servers[i % len(servers)].port, game, rules[game])
        tables.append((i, game, table_id, tokens, f"{seed}:{i}"))
    stats = Stats()
    ports = [lambda s=s: s.port for s in servers]
    start = time.perf_counter()
    tasks = [
        asyncio.create_task(seat_client(ports, i + j, table_id, token, client_seed, stats))
        for i, _, table_id, tokens, client_seed in tables
        for j, token in enumerate(tokens.values())
    ]
    killed_at: list[int] = []
    restart = 0.0
    unfinished_at_kill: list[int] = []
    store = open_store(servers[0].db)
    try:
        for point in kill_after:
            while len(stats.latencies) < point and not all(t.done() for t in tasks):
                await asyncio.sleep(0.01)
            if all(t.done() for t in tasks):
                break  # the games ended before this kill (the expected actions are an estimate)
            killed_at.append(len(stats.latencies))
            servers[0].kill()
            unfinished_at_kill.append(sum(1 for t in tables if not _over(store, t[2])))
            t0 = time.perf_counter()
            await asyncio.get_running_loop().run_in_executor(None, servers[0].start)
            restart = max(restart, time.perf_counter() - t0)
        try:
            await asyncio.wait_for(
                asyncio.gather(*tasks), None if timeout is None else timeout - (time.perf_counter() - start)
            )
        except TimeoutError:
            stalled = sum(1 for t in tables if not _over(store, t[2]))
            raise TimeoutError(f"{stalled} of {games} games had not ended after {timeout} s") from None
        wall = time.perf_counter() - start
        records = {t[2]: store.record(t[2]) for t in tables}
    finally:
        store.close()
    over = sum(1 for r in records.values() if r is not None and from_json(r).is_over)
    replayed = sum(1 for r in records.values() if r is not None and to_json(from_json(r)) == r)
    same = sum(
        1 for _, _, table_id, _, cs in tables if records[table_id] == in_process(records[table_id], cs)
    )
    lat = sorted(stats.latencies)
    return {
        "games": games,
        "processes": len(servers),
        "over": over,
        "replayed": replayed,
        "same_records": same,
        "actions": len(lat),
        "wall_s": wall,
        "actions_per_s": len(lat) / wall,
        "median_ms": 1000 * lat[len(lat) // 2],
        "p99_ms": 1000 * lat[min(len(lat) - 1, int(0.99 * len(lat)))],
        "max_ms": 1000 * lat[-1],
        "killed_after": killed_at[0] if killed_at else None,
        "kills": killed_at,
        "unfinished_at_kill": unfinished_at_kill[0] if unfinished_at_kill else 0,
        "unfinished_at_kills": unfinished_at_kill,
        "restart_s": restart,
        "reconnects": stats.reconnects,
        "refused": len(stats.refused),
        "regressions": stats.regressions,
        "relayed": stats.relayed,
    }


def _over(store: Any, table_id: str) -> bool:
    record = store.record(table_id)
    return bool(record and from_json(record).is_over)


def expected_actions(games: int, rules: dict[str, dict[str, Any]], seed: str) -> int:
    """About how many actions the clients will send (games of the same kinds, played here)."""
    total = 0
    for i in range(games):
        game = ORDER[i % len(ORDER)]
        g = GAMES[game]
        st = g.new_game(g.Rules(**rules[game]), players=g.default_players, seed=f"estimate:{i}")
        while not st.is_over:
            legal = g.legal_actions(st)
            st = g.apply(st, legal[choose(f"{seed}:{i}", len(st.history), len(legal))])
            total += 1
    return total


def run(
    games: int = 50,
    *,
    short: bool = False,
    kill: bool = True,
    seed: str = "0",
    db: Path | str | None = None,
    fast_commits: bool = False,
    processes: int = 1,
    kills: int = 1,
    timeout: float | None = None,
) -> dict[str, Any]:
    """Run the check (see above) on ``processes`` servers sharing ``db`` (default a new
    SQLite file; several processes need a ``postgresql://`` URL); ``kills`` SIGKILLs of
    the first process, evenly spaced, unless ``kill`` is false; ``timeout``: see
    :func:`drive`."""
    if processes > 1 and not (db is not None and is_postgres_url(str(db))):
        raise ValueError("several processes share a PostgreSQL database: give db='postgresql://...'")
    rules = SHORT if short else RULES
    with tempfile.TemporaryDirectory() as tmp:
        # the clients stand for people at as many addresses: the one address they share
        # here is let through the per-address message limit
        options = ("--address-messages-per-second", "100000", *(("--fast-commits",) if fast_commits else ()))
        servers = [Server(db or Path(tmp) / "load.db", options) for _ in range(processes)]
        try:
            for server in servers:
                server.start()
            # the kills spread evenly over the expected actions (one kill: halfway)
            total = expected_actions(games, rules, seed) if kill else 0
            kill_after = [total * (k + 1) // (kills + 1) for k in range(kills)] if kill else []
            return asyncio.run(drive(servers, games, rules, seed, kill_after, timeout))
        finally:
            for server in servers:
                server.stop()


def report(result: dict[str, Any]) -> None:
    print(
        f"{result['games']} concurrent games on {result['processes']} process(es), {result['actions']} actions "
        f"in {result['wall_s']:.1f} s: {result['actions_per_s']:.0f} actions/s"
    )
    print(
        f"latency per action: median {result['median_ms']:.1f} ms, p99 {result['p99_ms']:.1f} ms, "
        f"max {result['max_ms']:.0f} ms"
    )
    for after, unfinished in zip(result["kills"], result["unfinished_at_kills"], strict=True):
        print(f"SIGKILL after {after} actions ({unfinished} games unfinished)")
    if result["kills"]:
        print(
            f"restarted in {result['restart_s']:.1f} s at most, {result['reconnects']} reconnection attempts, "
            f"{result['refused']} actions refused"
        )
    print(
        f"games over: {result['over']}/{result['games']}, records that replay to themselves: "
        f"{result['replayed']}/{result['games']}, equal to the same seeds played in-process: "
        f"{result['same_records']}/{result['games']}, steps seen going back: {result['regressions']}"
    )


def ok(result: dict[str, Any]) -> bool:
    n = result["games"]
    return result["over"] == result["replayed"] == result["same_records"] == n and result["regressions"] == 0


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--short", action="store_true", help="short games (small targets and hands)")
    parser.add_argument("--no-kill", action="store_true", help="do not kill the server")
    parser.add_argument(
        "--kills", type=int, default=3, help="SIGKILLs of the first process, spread evenly over the game (default 3)"
    )
    parser.add_argument("--seed", default="0")
    parser.add_argument(
        "--fast-commits", action="store_true", help="serve with cardrules serve --fast-commits"
    )
    parser.add_argument("--db", help="a postgresql:// URL (default: a new SQLite file)")
    parser.add_argument("--processes", type=int, default=1, help="cardrules serve processes on --db")
    parser.add_argument(
        "--compare",
        metavar="POSTGRES_URL",
        help="no kill: 1 process on SQLite, then 1 and 2 processes on this PostgreSQL database",
    )
    args = parser.parse_args()
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}")
    if args.compare:
        rows = []
        for label, db, n in (
            ("SQLite, 1 process", None, 1),
            ("PostgreSQL, 1 process", args.compare, 1),
            ("PostgreSQL, 2 processes", args.compare, 2),
        ):
            print(f"== {label}")
            result = run(
                args.games, short=args.short, kill=False, seed=args.seed, db=db,
                fast_commits=args.fast_commits, processes=n,
            )  # fmt: skip
            report(result)
            rows.append((label, result))
        print(f"{'':<26}{'moves/s':>9}{'median ms':>11}{'p99 ms':>9}")
        for label, result in rows:
            print(
                f"{label:<26}{result['actions_per_s']:>9.0f}{result['median_ms']:>11.1f}{result['p99_ms']:>9.1f}"
            )
        if not all(ok(r) for _, r in rows):
            sys.exit(1)
        return
    result = run(
        args.games, short=args.short, kill=not args.no_kill, seed=args.seed, db=args.db,
        fast_commits=args.fast_commits, processes=args.processes, kills=args.kills,
    )  # fmt: skip
    print("cardrules serve" + (" --fast-commits" if args.fast_commits else ""))
    report(result)
    if not ok(result):
        sys.exit(1)


if __name__ == "__main__":
    main()

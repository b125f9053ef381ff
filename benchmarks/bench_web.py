"""Load check of the web table (``cardrules serve``), run by hand::

    nice -n 10 python benchmarks/bench_web.py              # 50 games, 3 SIGKILLs
    nice -n 10 python benchmarks/bench_web.py --fast-commits
    python benchmarks/bench_web.py --games 5 --short       # a small one (what the test runs)

Starts ``cardrules serve`` on a free localhost port with a new database, makes GAMES
tables (the four games in turn, every acting seat a person's), and drives every seat
over its WebSocket with a seeded random client: at each of its turns a client picks the
legal action ``Random(f"{client seed}:{step}")`` chooses, so the same game follows
whatever happens to the connection.  Each time another quarter of the expected actions
is accepted (``--kills 3``), the server is killed with SIGKILL and started again on the
same database; the clients reconnect and play on.  Every game's stored record must then equal the record of the
same game (its stored seed, the same client seed) played in this process.  Prints
actions/s and the latency of an action (sent until the seat sees its result): median,
p99 and max.
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
import sqlite3
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

    def __init__(self, db: Path, options: tuple[str, ...] = ()) -> None:
        self.db = db
        self.options = options
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
        self.process = subprocess.Popen(
            [sys.executable, "-m", "cardrules", "serve", "--port", str(self.port), "--db", str(self.db), *self.options],
            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError("cardrules serve stopped at once")
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", self.port), 0.2):
                return
            time.sleep(0.05)
        raise RuntimeError("cardrules serve did not start")

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


async def seat_client(port_of: Any, table_id: str, token: str, client_seed: str, stats: Stats) -> None:
    """Play one seat to the end, reconnecting whenever the server goes away."""
    while True:
        try:
            async with websockets.connect(f"ws://127.0.0.1:{port_of()}/ws/{table_id}", max_size=2**24) as ws:
                await ws.send(json.dumps({"type": "join", "token": token}))
                pending: tuple[int, float] | None = None
                async for raw in ws:
                    msg = json.loads(raw)
                    if msg["type"] == "error":
                        stats.refused.append(msg["message"])
                        continue
                    now = time.perf_counter()
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
            await asyncio.sleep(0.1)


async def drive(
    server: Server, games: int, rules: dict[str, dict[str, Any]], seed: str, kill_after: list[int]
) -> dict[str, Any]:
    tables = []
    for i in range(games):
        game = ORDER[i % len(ORDER)]
        table_id, tokens = create(server.port, game, rules[game])
        tables.append((game, table_id, tokens, f"{seed}:{i}"))
    stats = Stats()
    port_of = lambda: server.port  # noqa: E731
    start = time.perf_counter()
    tasks = [
        asyncio.create_task(seat_client(port_of, table_id, token, client_seed, stats))
        for _, table_id, tokens, client_seed in tables
        for token in tokens.values()
    ]
    killed_at: list[int] = []
    restart = 0.0
    unfinished_at_kill = 0
    for point in kill_after:
        while len(stats.latencies) < point and not all(t.done() for t in tasks):
            await asyncio.sleep(0.01)
        if all(t.done() for t in tasks):
            break
        killed_at.append(len(stats.latencies))
        server.kill()
        if len(killed_at) == 1:
            unfinished_at_kill = sum(1 for _, table_id, _, _ in tables if not _over(server.db, table_id))
        t0 = time.perf_counter()
        await asyncio.get_running_loop().run_in_executor(None, server.start)
        restart = max(restart, time.perf_counter() - t0)
    await asyncio.gather(*tasks)
    wall = time.perf_counter() - start
    with sqlite3.connect(server.db) as db:
        records = {row[0]: row[1] for row in db.execute("SELECT id, record FROM tables")}
    same = sum(1 for _, table_id, _, cs in tables if records[table_id] == in_process(records[table_id], cs))
    lat = sorted(stats.latencies)
    return {
        "games": games,
        "same_records": same,
        "actions": len(lat),
        "wall_s": wall,
        "actions_per_s": len(lat) / wall,
        "median_ms": 1000 * lat[len(lat) // 2],
        "p99_ms": 1000 * lat[min(len(lat) - 1, int(0.99 * len(lat)))],
        "max_ms": 1000 * lat[-1],
        "killed_after": killed_at[0] if killed_at else None,
        "kills": killed_at,
        "unfinished_at_kill": unfinished_at_kill,
        "restart_s": restart,
        "reconnects": stats.reconnects,
        "refused": len(stats.refused),
    }


def _over(db: Path, table_id: str) -> bool:
    with sqlite3.connect(db) as conn:
        row = conn.execute("SELECT record FROM tables WHERE id = ?", (table_id,)).fetchone()
    return bool(row and row[0] and from_json(row[0]).is_over)


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
    kills: int = 1,
    seed: str = "0",
    db: Path | None = None,
    fast_commits: bool = False,
) -> dict[str, Any]:
    rules = SHORT if short else RULES
    with tempfile.TemporaryDirectory() as tmp:
        # the clients stand for people at 124 addresses: the one address they share here
        # is let through the per-address message limit
        options = ("--address-messages-per-second", "100000", *(("--fast-commits",) if fast_commits else ()))
        server = Server(db or Path(tmp) / "load.db", options)
        server.start()
        try:
            # the kills spread evenly over the expected actions (one kill: halfway)
            expected = expected_actions(games, rules, seed)
            kill_after = [expected * (i + 1) // (kills + 1) for i in range(kills)] if kill else []
            return asyncio.run(drive(server, games, rules, seed, kill_after))
        finally:
            server.stop()


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--short", action="store_true", help="short games (small targets and hands)")
    parser.add_argument("--no-kill", action="store_true", help="do not kill the server")
    parser.add_argument(
        "--kills", type=int, default=3, help="SIGKILLs, spread evenly over the expected actions (default 3)"
    )
    parser.add_argument("--seed", default="0")
    parser.add_argument(
        "--fast-commits", action="store_true", help="serve with cardrules serve --fast-commits"
    )
    args = parser.parse_args()
    result = run(
        args.games,
        short=args.short,
        kill=not args.no_kill,
        kills=args.kills,
        seed=args.seed,
        fast_commits=args.fast_commits,
    )
    print("cardrules serve" + (" --fast-commits" if args.fast_commits else ""))
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}")
    print(
        f"{result['games']} concurrent games, {result['actions']} actions in {result['wall_s']:.1f} s: "
        f"{result['actions_per_s']:.0f} actions/s"
    )
    print(
        f"latency per action: median {result['median_ms']:.1f} ms, p99 {result['p99_ms']:.1f} ms, "
        f"max {result['max_ms']:.0f} ms"
    )
    if result["killed_after"] is not None:
        print(
            f"SIGKILL after {', '.join(map(str, result['kills']))} actions "
            f"({result['unfinished_at_kill']} games unfinished at the first), "
            f"restarted in at most {result['restart_s']:.1f} s, {result['reconnects']} reconnection attempts"
        )
    print(f"records equal to the same seeds played in-process: {result['same_records']}/{result['games']}"
          f" ({result['refused']} messages refused)")  # fmt: skip
    if result["same_records"] != result["games"]:
        sys.exit(1)


if __name__ == "__main__":
    main()

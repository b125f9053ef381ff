"""What one flooding client costs the web table, run by hand::

    nice -n 10 python benchmarks/bench_web_flood.py              # the default limits
    nice -n 10 python benchmarks/bench_web_flood.py --no-limits  # limits raised out of reach

Starts ``cardrules serve`` on a free localhost port with a new database, makes a
3-player Haggis table of three people, joins the seat to act (its state message is the
largest: every legal action) and sends MESSAGES ``{"type": "state"}`` messages at
once, reading every answer; meanwhile another client asks ``GET /games`` every 50 ms.
Prints the server process's CPU time for the flood (from ``/proc``), how many messages
were answered with a state and how many refused, the size of a state message, and the
slowest ``GET /games``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

import websockets  # noqa: E402
from bench_web import Server  # noqa: E402

HIGH = ("--messages-per-second", "1000000", "--address-messages-per-second", "1000000")


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def flood(server: Server, messages: int) -> dict[str, float]:
    body = json.dumps({"game": "haggis", "seats": ["human", "human", "human"]}).encode()
    request = urllib.request.Request(f"http://127.0.0.1:{server.port}/tables", body, {"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as answer:
        made = json.load(answer)
    url = f"ws://127.0.0.1:{server.port}/ws/{made['id']}"
    first = None
    for link in made["links"]:
        ws = await websockets.connect(url, max_size=2**24)
        await ws.send(json.dumps({"type": "join", "token": link["url"].split("#")[1]}))
        msg = json.loads(await ws.recv())
        if msg["legal"]:
            first, raw_size = ws, len(json.dumps(msg))
            legal = len(msg["legal"])
            break
        await ws.close()
    assert first is not None and server.process is not None
    loop = asyncio.get_running_loop()
    waits: list[float] = []
    done = False
    waits.append(0.0)

    def games() -> None:
        while not done:
            t0 = time.perf_counter()
            with urllib.request.urlopen(f"http://127.0.0.1:{server.port}/games", timeout=30) as answer:
                answer.read()
            waits.append(time.perf_counter() - t0)
            time.sleep(0.05)

    watcher = loop.run_in_executor(None, games)
    cpu0, t0 = cpu_seconds(server.process.pid), time.perf_counter()
    states = refused = 0
    closed = False
    try:
        for _ in range(messages):
            await first.send('{"type": "state"}')
        while states + refused < messages:
            msg = json.loads(await first.recv())
            if msg["type"] == "state":
                states += 1
            else:
                refused += 1
    except websockets.ConnectionClosed:  # the server closed a connection that kept flooding
        closed = True
    finally:
        wall, cpu = time.perf_counter() - t0, cpu_seconds(server.process.pid) - cpu0
        done = True
        await watcher
    await first.close()
    return {"cpu": cpu, "wall": wall, "states": states, "refused": refused, "size": raw_size, "closed": closed,
            "legal": legal, "games_max": max(waits), "games_n": len(waits) - 1}  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--messages", type=int, default=2000)
    parser.add_argument("--no-limits", action="store_true", help="raise the message limits out of reach")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        server = Server(Path(tmp) / "flood.db", HIGH if args.no_limits else ())
        server.start()
        try:
            r = asyncio.run(flood(server, args.messages))
        finally:
            server.stop()
    print("cardrules serve" + (" " + " ".join(HIGH) if args.no_limits else ""))
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}")
    print(f"{args.messages} state messages from one seat: {r['states']} answered, {r['refused']} refused"
          + (", then the connection was closed" if r["closed"] else ""))  # fmt: skip
    print(f"a state message: {r['size']} bytes, {r['legal']} legal actions")
    print(f"server CPU {r['cpu']:.2f} s, wall {r['wall']:.2f} s; "
          f"GET /games meanwhile: slowest of {r['games_n']} {1000 * r['games_max']:.0f} ms")  # fmt: skip


if __name__ == "__main__":
    main()

"""A hostile client against a real ``cardrules serve`` on localhost (a process of its own,
uvicorn and all): malformed frames, lone surrogates, floods of messages and of new
tables, forged steps, clients that vanish while they are answered.  The server answers
each with an error in words (or 429, or closes that one connection), changes nothing,
stays responsive to everyone else, and logs no server error.  Bounded: a few hundred
messages, a few seconds."""

from __future__ import annotations

import asyncio
import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the web extra (starlette) is not installed")
pytest.importorskip("uvicorn", reason="the web extra (uvicorn) is not installed")
websockets = pytest.importorskip("websockets", reason="the web extra (websockets) is not installed")

from web_helpers import ROOT, free_port  # noqa: E402

#: the server's limits here: low, so that a flood of a few hundred messages meets them
LIMITS = ("--messages-per-second", "20", "--tables-per-minute", "5", "--address-messages-per-second", "200")


class Served:
    def __init__(self, tmp: Path) -> None:
        self.port = free_port()
        self.log = tmp / "serve.log"
        env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
        with self.log.open("wb") as log:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "cardrules", "serve", "--port", str(self.port),
                 "--db", str(tmp / "t.db"), *LIMITS],
                env=env, stdout=log, stderr=subprocess.STDOUT,
            )  # fmt: skip
        deadline = time.monotonic() + 30
        while True:
            assert self.process.poll() is None, self.log.read_text()
            try:
                socket.create_connection(("127.0.0.1", self.port), 0.2).close()
                break
            except OSError:
                assert time.monotonic() < deadline, "cardrules serve did not start"
                time.sleep(0.05)

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    def post(self, path: str, body: bytes) -> tuple[int, Any]:
        request = urllib.request.Request(self.url(path), body, {"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=10) as answer:
                return answer.status, json.load(answer)
        except urllib.error.HTTPError as exc:
            return exc.code, json.load(exc)

    def get(self, path: str) -> tuple[int, Any, float]:
        t0 = time.perf_counter()
        with urllib.request.urlopen(self.url(path), timeout=10) as answer:
            return answer.status, json.load(answer), time.perf_counter() - t0

    def stop(self) -> str:
        self.process.terminate()
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(10)
        return self.log.read_text(errors="replace")


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    server = Served(tmp_path_factory.mktemp("hostile"))
    yield server
    log = server.stop()
    # the whole campaign left no server error in the log
    for fault in ("Exception in ASGI application", "Traceback", "socket.send() raised"):
        assert fault not in log, log[-3000:]


def table(served: Served, game: str = "haggis", seats: Any = ("human", "human")) -> tuple[str, dict[int, str]]:
    status, made = served.post("/tables", json.dumps({"game": game, "seats": list(seats)}).encode())
    assert status == 201, made
    return made["id"], {link["seat"]: link["url"].split("#")[1] for link in made["links"]}


async def joined(served: Served, table_id: str, first: dict[str, Any]) -> tuple[Any, dict[str, Any]]:
    url = f"ws://127.0.0.1:{served.port}/ws/{table_id}"
    ws = await websockets.connect(url, max_size=2**24, close_timeout=0.5)
    await ws.send(json.dumps(first))
    return ws, json.loads(await asyncio.wait_for(ws.recv(), 10))


async def answer(ws: Any) -> dict[str, Any]:
    return json.loads(await asyncio.wait_for(ws.recv(), 10))


def run(coro: Any) -> Any:
    return asyncio.run(asyncio.wait_for(coro, 60))


def test_malformed_frames_get_errors_in_words(served):
    table_id, tokens = table(served)

    async def go() -> None:
        ws, first = await joined(served, table_id, {"type": "join", "token": tokens[0]})
        assert first["type"] == "state"
        for frame, why in [
            (b'{"type": "state"}', "not binary"),
            ("not json", "a message is a JSON object"),
            ("[" * 10_000 + "]" * 5_000, "a message is a JSON object"),
            ('{"type": 7}', "with a type"),
            ('{"type": "launch"}', "no message of type 'launch'"),
            (json.dumps({"type": "act", "action": ["x"], "step": first["step"]}), "an action is a text"),
            ("x" * 20_000, "a message is at most"),
        ]:
            await ws.send(frame)
            got = await answer(ws)
            assert got["type"] == "error" and why in got["message"], (frame[:40], got)
        await ws.send(json.dumps({"type": "state"}))
        assert (await answer(ws))["step"] == first["step"]
        await ws.send("y" * 100_000)  # a frame over uvicorn's limit: that connection is closed
        with pytest.raises(websockets.ConnectionClosed):
            await answer(ws)
        ws, again = await joined(served, table_id, {"type": "join", "token": tokens[0]})
        assert again["step"] == first["step"]
        await ws.close()
        for first_message in ["", "{}", '{"type": "join"}', '{"type": "join", "token": "\\ud800"}']:
            raw = await websockets.connect(f"ws://127.0.0.1:{served.port}/ws/{table_id}")
            await raw.send(first_message)
            assert (await answer(raw))["type"] == "error"
            with pytest.raises(websockets.ConnectionClosed):
                await answer(raw)

    run(go())


def test_lone_surrogates_are_refused_and_the_table_stays_viewable(served):
    status, made = served.post("/tables", b'{"game": "aegis", "seats": ["human", "random"], "rules": {"\\ud800": 1}}')
    assert status == 400 and "surrogate" in made["error"]
    status, made = served.post(
        "/tables", b'{"game": "eleusis", "seats": ["random", "human", "random"], "rule": "card is red # \\ud800"}'
    )
    assert status == 400 and "surrogate" in made["error"]
    table_id, tokens = table(served, "eleusis", ["human", "human", "random"])

    async def go() -> None:
        god, first = await joined(served, table_id, {"type": "join", "token": tokens[0]})
        assert first["status"] == "rule"
        for text in ["card is red or \\ud800", "card is red # \\ud800"]:
            await god.send('{"type": "rule", "text": "' + text + '"}')
            got = await answer(god)
            assert got["type"] == "error" and "surrogate" in got["message"]
        await god.send(json.dumps({"type": "rule", "text": "card is red # fine"}))
        assert (await answer(god))["status"] == "play"
        player, seen = await joined(served, table_id, {"type": "join", "token": tokens[1]})
        assert seen["status"] == "play"
        await god.close()
        await player.close()

    run(go())


FLOOD = 150  # messages at once: over the burst (80 here), under the refusals that close a socket (200)


def test_a_flood_meets_the_rate_limit_and_others_are_served_meanwhile(served):
    status, made = served.post("/tables", json.dumps({"game": "haggis", "seats": ["human"] * 3}).encode())
    assert status == 201
    link = next(link for link in made["links"])
    table_id = made["id"]

    async def go() -> tuple[int, int]:
        # the seat to act holds the most legal actions: its state messages are the largest
        sockets = [await joined(served, table_id, {"type": "join", "token": link["url"].split("#")[1]})]
        ws, _ = sockets[0]
        loop = asyncio.get_running_loop()
        for _ in range(FLOOD):
            await ws.send('{"type": "state"}')
        waits = []
        for _ in range(3):  # another client is answered promptly during the flood
            waits.append((await loop.run_in_executor(None, served.get, "/games"))[2])
        states = refused = 0
        while states + refused < FLOOD:
            got = await answer(ws)
            if got["type"] == "state":
                states += 1
            else:
                assert "too many messages" in got["message"]
                refused += 1
        assert max(waits) < 3.0, waits  # (unflooded: well under a second; flooded without limits: seconds)
        await ws.close()
        return states, refused

    states, refused = run(go())
    assert 60 <= states < FLOOD and refused > 0


def test_forged_and_repeated_steps_change_nothing(served):
    table_id, tokens = table(served, "haggis", ["human", "human"])

    async def go() -> None:
        sockets = [await joined(served, table_id, {"type": "join", "token": tokens[s]}) for s in (0, 1)]
        ws, first = next((w, m) for w, m in sockets if m["legal"])
        action, step = first["legal"][0], first["step"]
        for forged in [step + 1, step - 1, -5, 10**12, None, "0", 1.0, True]:
            await ws.send(json.dumps({"type": "act", "action": action, "step": forged}))
            got = await answer(ws)
            assert got["type"] == "error" and "step" in got["message"], (forged, got)
        await ws.send(json.dumps({"type": "state"}))
        assert (await answer(ws))["step"] == step
        for _ in range(3):  # the same act three times: applied once
            await ws.send(json.dumps({"type": "act", "action": action, "step": step}))
        got = [await answer(ws) for _ in range(3)]
        assert [m["type"] for m in got].count("state") == 1, got
        assert next(m for m in got if m["type"] == "state")["step"] == step + 1
        for w, _ in sockets:
            await w.close()

    run(go())


def test_clients_that_vanish_mid_reply_are_disconnects_not_errors(served):
    table_id, tokens = table(served, "gunsore", ["human", "random"])
    token = tokens[0]

    async def go() -> None:
        for i in range(12):
            ws, _ = await joined(served, table_id, {"type": "join", "token": token})
            for _ in range(30):
                await ws.send('{"type": "state"}')
            if i % 2:
                await ws.close()  # closed while its replies are being sent
            ws.transport.abort()  # gone, with replies still being sent
        await asyncio.sleep(0.5)

    run(go())
    assert served.get("/games")[0] == 200


def test_ids_that_are_not_text_are_no_table(served):
    async def go() -> None:
        for path in ["/ws/%ED%A0%80", "/ws/%FF%FE", "/ws/" + "x" * 500]:
            raw = await websockets.connect(f"ws://127.0.0.1:{served.port}{path}")
            await raw.send(json.dumps({"type": "watch"}))
            assert (await answer(raw)) == {"type": "error", "message": "no such table"}

    run(go())
    status, why = served.post("/tables/%ED%A0%80/seats/0", b"")
    assert status in (400, 429) and why["error"]


def test_a_seat_number_int_cannot_read_is_refused_in_words(served):
    # a superscript one passes str.isdigit() but not int(): the claim is refused with a
    # reason, and the log stays free of tracebacks (checked when the module's server stops)
    for seat in ("%C2%B9", "%E2%91%A0"):
        status, why = served.post(f"/tables/no-such-table/seats/{seat}", b"")
        assert status in (400, 429) and why["error"]


def test_new_tables_are_limited_with_429(tmp_path):  # a server of its own: it spends its tables
    server = Served(tmp_path)
    try:
        codes = [server.post("/tables", b'{"game": "aegis", "seats": ["human", "random"]}')[0] for _ in range(15)]
        assert 429 in codes and 5 <= codes.count(201) <= 11
        status, why = server.post("/tables", b'{"game": "aegis", "seats": ["human", "random"]}')
        assert status == 429 and "too many new tables" in why["error"]
    finally:
        log = server.stop()
    assert "Traceback" not in log

"""What the web table's tests share: a ``cardrules serve`` process on a free localhost
port (which a test may SIGKILL and start again on the same database), the browser, and
the reading of a table's messages and stored record."""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from cardrules import GAMES, from_json

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]  # fmt: skip


#: a card's text in a message (what a seat must not be sent unless it may see it)
CARD = re.compile(r"\b(?:10|[2-9AJQK])[SHDC]\b")


def receive_until(ws: Any, done: Any, seen: list[dict[str, Any]] | None = None, limit: int = 5000) -> dict[str, Any]:
    """Read a socket's messages (kept in ``seen``, when given) until one satisfies ``done``."""
    for _ in range(limit):
        msg = ws.receive_json()
        if seen is not None:
            seen.append(msg)
        if done(msg):
            return msg
    raise AssertionError("no such message")


def states_by_step(record: str) -> list[Any]:
    """Every state of a stored game, by the length of its history (deals included)."""
    final = from_json(record)
    g = GAMES[json.loads(record)["game"]]
    states = [g.new_game(final.rules, players=final.players)]
    for action in final.history:
        states.append(g.apply(states[-1], action))
    return states


def cards_in(value: Any) -> set[str]:
    """Every card named anywhere in a JSON value."""
    return set(CARD.findall(json.dumps(value)))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class ServeProcess:
    """``cardrules serve --port PORT --db DB`` in a process of its own."""

    def __init__(self, db: Path, port: int | None = None) -> None:
        self.db = db
        self.port = port or free_port()
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = 30.0) -> None:
        env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
        self.process = subprocess.Popen(
            [sys.executable, "-m", "cardrules", "serve", "--port", str(self.port), "--db", str(self.db)],
            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"cardrules serve stopped with status {self.process.returncode}")
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", self.port), 0.2):
                return
            time.sleep(0.05)
        raise RuntimeError("cardrules serve did not start")

    def kill(self) -> None:
        """SIGKILL: the server gets no chance to save anything."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(10)
        self.process = None

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)
        self.process = None


@contextlib.contextmanager
def serving(db: Path) -> Iterator[ServeProcess]:
    server = ServeProcess(db)
    server.start()
    try:
        yield server
    finally:
        server.stop()


def chromium(sync_api: Any) -> Iterator[Any]:
    """Headless Chromium through Playwright's ``sync_api`` (a module fixture's body)."""
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        yield browser
        browser.close()

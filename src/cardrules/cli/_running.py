"""What ``cardrules simulate`` and ``cardrules tournament`` share: the agents by name, the
options of a batch of games (the game, ``--games``, ``--seed``, ``--players``, ``--agents``
and the executor's ``--workers``, ``--dask``, ``--batch-size``, ``--quiet``) and the
progress line."""

from __future__ import annotations

import argparse
import contextlib
import importlib
import os
import signal
import sys
import threading
import time
from collections.abc import Iterator
from typing import Any, TextIO

from ..agents import AGENTS
from ..errors import CardRulesError
from ..protocol import GAMES
from ..simulation import Factory
from ._loading import load_all


def agent_names(text: str) -> list[str]:
    """``"greedy,random"`` as names, each one known, or an error listing the known ones."""
    names = [n.strip() for n in text.split(",")]
    for name in names:
        if name not in AGENTS:
            raise CardRulesError(f"unknown agent {name!r} (known: {', '.join(AGENTS)})")
    return names


def factory(name: str, game: str) -> Factory:
    """The agent ``name`` as a factory, so every game gets a new agent seeded for it."""
    return Factory(AGENTS[name], game)


def check_output(path: str | None, option: str) -> None:
    """Refuse, before any game is played, an output file that cannot be written: its
    folder missing, a folder in its place, or no permission."""
    if path is None:
        return
    folder = os.path.dirname(os.path.abspath(path))
    if os.path.isdir(path):
        why = "it is a folder"
    elif not os.path.isdir(folder):
        why = "no such folder"
    elif not os.access(path if os.path.exists(path) else folder, os.W_OK):
        why = "permission denied"
    else:
        return
    raise CardRulesError(f"{option} {path}: cannot write there ({why})")


def positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text} is not at least 1")
    return value


def add_match_options(
    p: argparse.ArgumentParser,
    *,
    games: int,
    games_help: str,
    agents: str | None,
    agents_help: str,
    players_help: str,
) -> None:
    """The options of a batch of games, the same in ``simulate`` and ``tournament``: the
    game, ``--games`` (default ``games``), ``--seed``, ``--agents`` (default ``agents``;
    required when ``None``), ``--players`` and the
    executor's options (:func:`add_run_options`).  Only the help texts differ."""
    p.add_argument("game", choices=GAMES, help="the game to play")
    p.add_argument(
        "--games", type=positive, default=games, metavar="N", help=f"{games_help} (default {games})"
    )
    p.add_argument("--seed", default="0", help="the master seed (default 0)")
    p.add_argument(
        "--agents",
        default=agents,
        required=agents is None,
        metavar="LIST",
        help=f"comma-separated agents, {agents_help}",
    )
    p.add_argument("--players", type=positive, default=None, metavar="N", help=players_help)
    add_run_options(p)


def add_run_options(p: argparse.ArgumentParser) -> None:
    where = p.add_mutually_exclusive_group()
    where.add_argument(
        "--workers",
        type=positive,
        default=1,
        metavar="N",
        help="play on N local processes (default 1: in this process)",
    )
    where.add_argument(
        "--dask",
        metavar="ADDRESS",
        help="play on the Dask cluster whose scheduler is at ADDRESS, such as tcp://host:8786 "
        "(needs the extra: pip install 'cardrules[dask]')",
    )
    p.add_argument(
        "--batch-size",
        type=positive,
        default=None,
        metavar="N",
        help="games per task sent to the workers (default: the games in about 64 tasks)",
    )
    p.add_argument(
        "--quiet",
        action="store_true",
        help="no progress on stderr (on a terminal, a line that updates; elsewhere, a line every 10 s)",
    )


def _start_worker(loads: tuple[str, ...]) -> None:  # pragma: no cover - runs in the worker processes
    # Ctrl-C reaches the whole process group: the command stops the pool itself, so the
    # workers must not print tracebacks of their own.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # the games of --load, for a worker that does not start as a copy of this process
    # (a forked one has them already, and loads nothing again)
    load_all(loads)


@contextlib.contextmanager
def executor(args: argparse.Namespace) -> Iterator[Any]:
    """The executor the options ask for (``None``: play in this process), stopped at the
    end; on an error or Ctrl-C without waiting for the games still queued."""
    if args.dask:
        try:
            distributed: Any = importlib.import_module("distributed")
        except ImportError:
            raise CardRulesError("--dask needs Dask: pip install 'cardrules[dask]'") from None
        try:
            client = distributed.Client(args.dask, timeout="10s")
        except OSError as exc:
            raise CardRulesError(f"cannot reach the Dask scheduler at {args.dask}: {exc}") from None
        try:
            yield client.get_executor()
        finally:
            client.close()
        return
    if args.workers == 1:
        yield None
        return
    from concurrent.futures import ProcessPoolExecutor

    loads = tuple(getattr(args, "load", None) or ())
    pool = ProcessPoolExecutor(max_workers=args.workers, initializer=_start_worker, initargs=(loads,))
    try:
        yield pool
    except BaseException:
        # Ctrl-C or an error: the games being played are stopped (their workers ignore
        # Ctrl-C) and the queued ones dropped, so that the command ends at once.
        _stop(pool)
        raise
    pool.shutdown(wait=True)


def _stop(pool: Any) -> None:
    """Stop ``pool`` now: its queued tasks cancelled, its workers ended mid-task.

    The workers are this process's children (the command starts no other):
    ``multiprocessing.active_children()`` names them, or the pool's own
    ``terminate_workers`` where Python has it (3.14)."""
    import multiprocessing
    from concurrent.futures import InvalidStateError

    terminate = getattr(pool, "terminate_workers", None)
    workers = [] if terminate is not None else multiprocessing.active_children()
    if terminate is None and not workers:
        pool.shutdown(wait=False, cancel_futures=True)
        return
    # The pool's own thread then fails the tasks it still holds, some already cancelled
    # (by the interrupted map), which Python 3.11 reports as an InvalidStateError
    # traceback from that thread: harmless, and not for the user's terminal.
    previous = threading.excepthook

    def hook(args: Any) -> None:
        if args.exc_type is not InvalidStateError:
            previous(args)

    threading.excepthook = hook
    try:
        if terminate is not None:
            terminate()
        for process in workers:
            process.terminate()
        # the pool sees its workers gone, fails what it still holds, and its thread ends
        pool.shutdown(wait=True, cancel_futures=True)
    finally:
        threading.excepthook = previous


class Progress:
    """Progress on ``stream`` (games done, games a second, time left).  On a terminal, one
    line that updates in place, shown once a run has taken ``delay`` seconds; elsewhere
    (a log, a pipe), a line every ``every`` seconds.  Nothing with ``quiet``."""

    def __init__(
        self, stream: TextIO | None = None, *, quiet: bool = False, delay: float = 1.0, every: float = 10.0
    ) -> None:
        self.stream = sys.stderr if stream is None else stream
        isatty = getattr(self.stream, "isatty", None)
        self.terminal = callable(isatty) and bool(isatty())
        self.enabled = not quiet
        self.delay = delay if self.terminal else every
        self.every = 0.1 if self.terminal else every
        self.start = time.monotonic()
        self.shown = 0  # the length of the line on screen
        self.last = 0.0 if self.terminal else self.start

    def __call__(self, done: int, total: int) -> None:
        if not self.enabled:
            return
        now = time.monotonic()
        elapsed = now - self.start
        if elapsed < self.delay or (now - self.last < self.every and done < total):
            return
        if not self.terminal and done >= total:
            return  # in a log: no line for the end, which the results show
        self.last = now
        rate = done / elapsed if elapsed > 0 else 0.0
        left = (total - done) / rate if rate > 0 else 0.0
        line = f"{done}/{total} games, {rate:.1f} games/s, {_duration(left)} left"
        if not self.terminal:
            self.stream.write(f"cardrules: {line}\n")
            self.stream.flush()
            return
        self.stream.write("\r" + line.ljust(self.shown))
        self.stream.flush()
        self.shown = len(line)

    def close(self) -> None:
        """Erase the line, if one was shown."""
        if self.shown:
            self.stream.write("\r" + " " * self.shown + "\r")
            self.stream.flush()
            self.shown = 0


def _duration(seconds: float) -> str:
    s = round(seconds)
    if s < 60:
        return f"{s} s"
    if s < 3600:
        return f"{s // 60} min {s % 60:02d} s"
    return f"{s // 3600} h {s % 3600 // 60:02d} min"

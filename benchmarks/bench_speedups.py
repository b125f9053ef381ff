"""What the optional C accelerator (``cardrules._speedups``) gains, as a whole and piece
by piece, through the public API.

Run by hand, from the project's root::

    PYTHONPATH=src python benchmarks/bench_speedups.py [--reps 7] [--alternations 9]

1. **C against pure Python.**  Each repetition runs every benchmark in a fresh
   interpreter with the C module, then in one with ``CARDRULES_PURE_PYTHON=1`` (the
   pure-Python library), or the other way round (the order alternates), so that the load
   of a shared machine falls on both alike.  Each figure is the median over ``--reps``
   repetitions of the process's CPU time (``time.process_time``: a time slice given to
   another process does not count), after one untimed run of the same work.
2. **Each piece's own effect.**  In one fresh interpreter per piece (with the C module),
   every benchmark runs ``--alternations`` times with that piece in C and as many times
   with it switched back to its pure-Python twin, alternating run by run (so that both
   see the same load within a second or so); the figure is the median of the ratios of
   the two CPU times, pair by pair.  The pieces: ``subsets`` (``aegis``' exchanges
   through ``_exchange_actions_py``), ``shuffle`` (``fisher_yates``), ``check``
   (``same_objects``), and ``all`` three at once: the code paths of the library without
   its C module, in the same interpreter.

Every interpreter runs with ``PYTHONHASHSEED=0``, so that its dictionaries and sets are
laid out alike from one to the next.

The benchmarks, each a fixed amount of work (the same games in every configuration, so
the same actions; the results are equal):

* ``<game> playouts``: random games (``new_game(seed=...)``, then ``legal_actions``, a
  ``random.Random`` pick and ``apply`` to the end);
* ``<game> apply``: ``apply`` alone, at every decision of random games played
  beforehand (the transitions);
* ``aegis new_game``: ``aegis.new_game(seed=...)``, a seeded shuffle and deal each;
* ``aegis exchanges``: ``aegis.legal_actions`` at states of the exchange phase;
* ``aegis Shuffle``: ``aegis.apply(state, Shuffle(order))`` at the first chance node of
  an unseeded game (the check that the order holds the chance node's cards, then the
  deal).

Every ratio is the pure-Python time over the C time: above 1 the C is faster.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from typing import Any

PIECES = ("subsets", "shuffle", "check", "all")


def piece_switch(piece: str) -> Callable[[bool], None]:
    """``switch(in_c)``: put ``piece`` in C (the library as imported with its C module) or
    back to its pure-Python twin, at every place the library uses it.  The library
    without its C module is these three switches off: the same code paths."""
    from cardrules import _hotloops, _shuffling, protocol
    from cardrules.aegis import rules as aegis

    if piece == "all":
        switches = [piece_switch(p) for p in PIECES[:-1]]

        def switch_all(in_c: bool) -> None:
            for s in switches:
                s(in_c)

        return switch_all
    site, name, fast_one, plain_one = {
        "subsets": (aegis, "_exchange_actions", aegis._exchange_actions_c, aegis._exchange_actions_py),
        "shuffle": (_shuffling, "fisher_yates", _hotloops.fisher_yates, _hotloops.fisher_yates_py),
        "check": (protocol, "same_objects", _hotloops.same_objects, _hotloops.same_objects_py),
    }[piece]
    assert getattr(site, name) is fast_one, "the C module is not in use"

    def switch(in_c: bool) -> None:
        setattr(site, name, fast_one if in_c else plain_one)

    return switch


def _playouts(name: str, games: int, players: int) -> Callable[[], None]:
    from cardrules import GAMES

    g = GAMES[name]

    def run() -> None:
        for seed in range(games):
            rng = random.Random(seed)
            state = g.new_game(players=players, seed=seed)
            while not state.is_over:
                legal = g.legal_actions(state)
                state = g.apply(state, legal[rng.randrange(len(legal))])

    return run


def _applies(name: str, games: int, players: int, repeat: int) -> Callable[[], None]:
    """``apply`` alone, over the (state, action) pairs of random games made beforehand."""
    from cardrules import GAMES

    g = GAMES[name]
    pairs = []
    for seed in range(games):
        rng = random.Random(seed)
        state = g.new_game(players=players, seed=seed)
        while not state.is_over:
            legal = g.legal_actions(state)
            action = legal[rng.randrange(len(legal))]
            pairs.append((state, action))
            state = g.apply(state, action)
    apply = g.apply

    def run() -> None:
        for _ in range(repeat):
            for state, action in pairs:
                apply(state, action)

    return run


def _new_games(count: int) -> Callable[[], None]:
    from cardrules import aegis

    def run() -> None:
        for seed in range(count):
            aegis.new_game(seed=seed)

    return run


def _exchange_states() -> list[Any]:
    from cardrules import aegis

    states = []
    for seed in range(40):
        rng = random.Random(seed)
        state = aegis.new_game(seed=seed)
        while not state.is_over:
            if state.phase == "exchange" and state.to_act is not None:
                states.append(state)
            legal = aegis.legal_actions(state)
            state = aegis.apply(state, legal[rng.randrange(len(legal))])
    return states


def _exchanges(states: list[Any], repeat: int) -> Callable[[], None]:
    from cardrules import aegis

    legal_actions = aegis.legal_actions

    def run() -> None:
        for _ in range(repeat):
            for state in states:
                legal_actions(state)

    return run


def _shuffles(count: int) -> Callable[[], None]:
    from cardrules import Shuffle, aegis, chance_cards

    start = aegis.new_game()
    cards = list(chance_cards(start))
    orders = []
    for seed in range(50):
        random.Random(seed).shuffle(cards)
        orders.append(Shuffle(tuple(cards)))

    def run() -> None:
        for i in range(count):
            aegis.apply(start, orders[i % 50])

    return run


BENCHMARKS: dict[str, Callable[[], Callable[[], None]]] = {
    "aegis playouts": lambda: _playouts("aegis", 300, 2),
    "gunsore playouts": lambda: _playouts("gunsore", 250, 2),
    "haggis playouts": lambda: _playouts("haggis", 12, 2),
    "eleusis playouts": lambda: _playouts("eleusis", 250, 5),
    "aegis apply": lambda: _applies("aegis", 100, 2, 3),
    "gunsore apply": lambda: _applies("gunsore", 100, 2, 2),
    "haggis apply": lambda: _applies("haggis", 5, 2, 3),
    "eleusis apply": lambda: _applies("eleusis", 100, 5, 2),
    "aegis new_game": lambda: _new_games(5000),
    "aegis exchanges": lambda: _exchanges(_exchange_states(), 40),
    "aegis Shuffle": lambda: _shuffles(10000),
}


def _cpu(run: Callable[[], None]) -> float:
    t = time.process_time()
    run()
    return time.process_time() - t


def measure(only: list[str]) -> dict[str, float]:
    """The CPU seconds of each benchmark (those named in ``only``, or all) in this
    interpreter, after an untimed run of each."""
    out = {}
    for name, make in BENCHMARKS.items():
        if not only or name in only:
            run = make()
            run()  # warm up: caches, interned objects, lazily made tables
            out[name] = _cpu(run)
    return out


def measure_piece(piece: str, alternations: int, only: list[str]) -> dict[str, float]:
    """For each benchmark, the median over ``alternations`` pairs of runs of (CPU time
    with ``piece`` in pure Python) / (CPU time with it in C), the two alternating."""
    switch = piece_switch(piece)
    out = {}
    for name, make in BENCHMARKS.items():
        if only and name not in only:
            continue
        run = make()
        run()  # warm up
        ratios = []
        for i in range(alternations):
            times = {}
            for in_c in (True, False) if i % 2 else (False, True):
                switch(in_c)
                times[in_c] = _cpu(run)
            ratios.append(times[False] / times[True])
        switch(True)
        out[name] = statistics.median(ratios)
    return out


def _child(args: list[str], pure: bool) -> dict[str, float]:
    env = {**os.environ, "CARDRULES_PURE_PYTHON": "1" if pure else "", "PYTHONHASHSEED": "0"}
    done = subprocess.run([sys.executable, __file__, *args], env=env, capture_output=True, text=True, check=True)
    result: dict[str, float] = json.loads(done.stdout)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--reps", type=int, default=7, help="repetitions of C against pure Python (default 7)")
    parser.add_argument("--alternations", type=int, default=9, help="pairs of runs per piece (default 9)")
    parser.add_argument("--pieces", nargs="*", choices=PIECES, default=PIECES, help="pieces to measure")
    parser.add_argument("--only", action="append", default=[], choices=BENCHMARKS, help="this benchmark only")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--piece", choices=PIECES, help=argparse.SUPPRESS)
    args = parser.parse_args()
    only = [f"--only={b}" for b in args.only]
    if args.child:
        from cardrules._hotloops import IMPLEMENTATION

        pure = bool(os.environ.get("CARDRULES_PURE_PYTHON"))
        expected = "Python" if pure else "C"
        assert expected == IMPLEMENTATION, IMPLEMENTATION
        result = measure_piece(args.piece, args.alternations, args.only) if args.piece else measure(args.only)
        print(json.dumps(result))
        return
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(
        f"CPython {platform.python_version()} on {platform.machine()}, {os.cpu_count()} cores, "
        f"{time.strftime('%Y-%m-%d %H:%M')}, load average {load:.1f} at the start"
    )
    runs: dict[bool, list[dict[str, float]]] = {False: [], True: []}
    for rep in range(args.reps):
        for pure in (False, True) if rep % 2 == 0 else (True, False):
            runs[pure].append(_child(["--child", *only], pure))
    c, py = ({b: statistics.median(r[b] for r in runs[p]) for b in runs[p][0]} for p in (False, True))
    print(f"\n1. C against pure Python: median CPU seconds of {args.reps} alternating runs")
    print(f"{'benchmark':18} {'C':>8} {'pure':>8} {'pure/C':>8}")
    for b in c:
        print(f"{b:18} {c[b]:>8.3f} {py[b]:>8.3f} {py[b] / c[b]:>7.2f}x")
    if not args.pieces:
        return
    pieces = {p: _child(["--child", f"--piece={p}", f"--alternations={args.alternations}", *only], False)
              for p in args.pieces}  # fmt: skip
    print(f"\n2. Each piece's own effect: median of {args.alternations} ratios (piece in pure Python / in C)")
    print(f"{'benchmark':18} " + " ".join(f"{p:>8}" for p in pieces))
    for b in c:
        print(f"{b:18} " + " ".join(f"{pieces[p][b]:>7.2f}x" for p in pieces))
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"\nload average {load:.1f} at the end")


if __name__ == "__main__":
    main()

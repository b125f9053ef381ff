"""What the optional C accelerator (``cardrules._speedups``) gains, piece by piece, through
the public API.

Run by hand, from the project's root::

    PYTHONPATH=src python benchmarks/bench_speedups.py [--reps 7]

Every measurement runs in a fresh interpreter, one per configuration and repetition; the
configurations alternate (each repetition runs them all, starting one later each time),
so that the load of a shared machine falls on all of them alike.  Each figure is the
median over ``--reps`` repetitions of the CPU time of the process
(``time.process_time``: a time slice given to another process does not count), after one
untimed run of the same work.  The configurations:

* ``C``: cardrules with its C module;
* ``pure``: ``CARDRULES_PURE_PYTHON=1``, the pure-Python library;
* ``C -records``, ``C -subsets``, ``C -shuffle``, ``C -check``: the C module with one
  piece switched back to its pure-Python twin (the record maker, ``subset_objects``,
  ``fisher_yates``, ``same_objects``), to measure that piece's own effect.

The benchmarks, each a fixed amount of work (the same games in every configuration, so
the same actions; the results are equal):

* ``<game> playouts``: random games (``new_game(seed=...)``, then ``legal_actions``, a
  ``random.Random`` pick and ``apply`` to the end);
* ``<game> apply``: ``apply`` alone, at every decision of random games played
  beforehand (the transitions, where the record maker works);
* ``aegis new_game``: ``aegis.new_game(seed=...)``, a seeded shuffle and deal each;
* ``aegis exchanges``: ``aegis.legal_actions`` at states of the exchange phase;
* ``aegis Shuffle``: ``aegis.apply(state, Shuffle(order))`` at the first chance node of
  an unseeded game (the check that the order holds the chance node's cards, then the
  deal).

It prints the median CPU seconds of each, and each ratio (pure Python, or the piece switched
off, over C): above 1 the C is faster.
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

PIECES = ("records", "subsets", "shuffle", "check")
CONFIGS = ("C", "pure", *(f"C -{p}" for p in PIECES))


def switch_off(piece: str) -> None:
    """Put one piece back to its pure-Python twin, at the places the library uses it
    (before any game is played, so that nothing made with the C piece is cached)."""
    from cardrules import _hotloops, _records, _shuffling, aegis, eleusis, gunsore, haggis, protocol
    from cardrules.haggis import combos

    if piece == "records":  # every maker through the class's constructor
        # no C maker from now on (new_game makes some when first called), and none of the games' own
        setattr(_records, "c_speedups", None)  # noqa: B010
        for module, name in [(aegis, "_STATE"), (aegis, "_TRICK"), (aegis, "_SEASON"), (gunsore, "_STATE"),
                             (eleusis, "_STATE"), (haggis, "_STATE"), (combos, "_COMBO"), (combos, "_PLAY")]:  # fmt: skip
            setattr(module, name, _records.maker(getattr(module, name).cls))
            assert not getattr(module, name).accelerated
    elif piece == "subsets":
        aegis._exchange_actions = aegis._exchange_actions_py  # type: ignore[misc]
    elif piece == "shuffle":
        setattr(_shuffling, "fisher_yates", _hotloops.fisher_yates_py)  # noqa: B010
    elif piece == "check":
        setattr(protocol, "same_objects", _hotloops.same_objects_py)  # noqa: B010
    else:
        raise ValueError(piece)


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


def measure(config: str, only: list[str]) -> dict[str, float]:
    """The CPU seconds of each benchmark (those named in ``only``, or all) in this
    interpreter, with ``config``."""
    if config.startswith("C -"):
        switch_off(config[3:])
    from cardrules._hotloops import IMPLEMENTATION

    expected = "Python" if config == "pure" else "C"
    assert expected == IMPLEMENTATION, (config, IMPLEMENTATION)
    benches: dict[str, Callable[[], Callable[[], None]]] = {
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
    out = {}
    for name, make in benches.items():
        if only and name not in only:
            continue
        run = make()
        run()  # warm up: caches, interned objects, lazily made tables
        t = time.process_time()
        run()
        out[name] = time.process_time() - t
    return out


def child(config: str, only: list[str]) -> dict[str, float]:
    env = {**os.environ, "CARDRULES_PURE_PYTHON": "1" if config == "pure" else ""}
    command = [sys.executable, __file__, "--child", config, *(f"--only={b}" for b in only)]
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=True)
    result: dict[str, float] = json.loads(done.stdout)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--reps", type=int, default=7, help="repetitions of each configuration (default 7)")
    parser.add_argument("--configs", nargs="+", choices=CONFIGS, default=CONFIGS, help="configurations to run")
    parser.add_argument("--only", action="append", default=[], help="run only this benchmark (repeatable)")
    parser.add_argument("--child", choices=CONFIGS, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(measure(args.child, args.only)))
        return
    configs = ["C", *(c for c in args.configs if c != "C")]  # the base of every ratio
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(
        f"CPython {platform.python_version()} on {platform.machine()}, {os.cpu_count()} cores, "
        f"{time.strftime('%Y-%m-%d %H:%M')}, load {load:.1f}; median of {args.reps} alternating runs"
    )
    runs: dict[str, list[dict[str, float]]] = {c: [] for c in configs}
    for rep in range(args.reps):
        for i in range(len(configs)):  # each repetition starts one configuration later
            config = configs[(rep + i) % len(configs)]
            runs[config].append(child(config, args.only))
    medians = {c: {b: statistics.median(r[b] for r in rs) for b in rs[0]} for c, rs in runs.items()}
    benches = list(medians["C"])
    print(f"{'benchmark':18} " + " ".join(f"{c:>10}" for c in configs) + "   (median CPU seconds)")
    for b in benches:
        print(f"{b:18} " + " ".join(f"{medians[c][b]:>10.3f}" for c in configs))
    print()
    print(f"{'benchmark':18} " + " ".join(f"{c:>10}" for c in configs[1:]) + "   (its seconds / C's)")
    for b in benches:
        print(f"{b:18} " + " ".join(f"{medians[c][b] / medians['C'][b]:>9.2f}x" for c in configs[1:]))


if __name__ == "__main__":
    main()

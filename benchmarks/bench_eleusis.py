"""Random playouts of New Eleusis (5 players) through the public API, against OpenSpiel's
C++ crazy eights (5 players, also a shedding game).

Run by hand (the pyspiel half needs the benchmark environment)::

    PYTHONPATH=src python benchmarks/bench_eleusis.py [--seconds 3] [--rounds 3] [--clock cpu]

Both sides do the same work per decision: ask the legal actions, pick one with
``random.Random.randrange``, apply it.  Chance is resolved the usual way of each library
(cardrules: a seeded game shuffles itself; pyspiel: one chance outcome at a time).
"actions/s" counts player decisions only; "steps/s" every applied action, chance
included.  Three secret rules are timed: the default (alternating colours, depth 1), a
depth-2 arithmetic rule and an ``if``/``elif`` rule.

Time is the process's CPU time by default (``--clock cpu``: a time slice the machine
gives another process does not count), or wall time (``--clock wall``).  Every row is
measured once per round, the rows one after the other, for ``--rounds`` rounds; each
figure is the row's median over the rounds.
"""

from __future__ import annotations

import argparse
import platform
import statistics
import sys
import time

from reference import cardrules_playouts, pyspiel_playouts

RULES = {
    "alternating colours": "card.color != prev.color",
    "depth 2 sum parity": "(card.rank + prev.rank + prev2.rank) % 2 == 0",
    "mod 3 if/elif": (
        "if prev.rank % 3 == 0 then card is face elif prev.rank % 3 == 1 then card is odd else card is even"
    ),
}


CLOCKS = {"cpu": time.process_time, "wall": time.perf_counter}


def bench_eleusis(seconds: float, text: str, clock: str = "cpu") -> tuple[float, float, float, float]:
    from cardrules import eleusis

    rules = eleusis.Rules(secret=eleusis.compile_rule(text))
    return cardrules_playouts(eleusis, seconds=seconds, rules=rules, players=5, clock=CLOCKS[clock])


def bench_pyspiel(seconds: float, clock: str = "cpu") -> tuple[float, float, float, float] | None:
    return pyspiel_playouts("crazy_eights", {"players": 5}, seconds=seconds, clock=CLOCKS[clock])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time per measurement (default 3)")
    parser.add_argument("--rounds", type=int, default=3, help="measurements of each row (default 3)")
    parser.add_argument(
        "--clock", choices=sorted(CLOCKS), default="cpu", help="CPU time (default) or wall time"
    )
    args = parser.parse_args()
    print(
        f"CPython {platform.python_version()} on {platform.machine()}, {time.strftime('%Y-%m-%d')}, "
        f"{args.clock} time, median of {args.rounds} rounds"
    )
    rows: dict[str, list[tuple[float, float, float, float]]] = {}
    for _ in range(args.rounds):
        for name, text in RULES.items():
            rows.setdefault("cardrules eleusis, " + name, []).append(
                bench_eleusis(args.seconds, text, args.clock)
            )
        ref = bench_pyspiel(args.seconds, args.clock)
        if ref is not None:
            rows.setdefault("OpenSpiel crazy_eights (C++)", []).append(ref)
    print(
        f"{'random playouts, 5 players':40} {'actions/s':>10} {'steps/s':>10} {'games/s':>9} {'actions/game':>13}"
    )
    for name, runs in rows.items():
        a, s, g, per = (statistics.median(column) for column in zip(*runs, strict=True))
        print(f"{name:40} {a:10,.0f} {s:10,.0f} {g:9,.1f} {per:13,.1f}")
    if "OpenSpiel crazy_eights (C++)" not in rows:
        print("pyspiel not installed: run with the benchmark environment for the reference", file=sys.stderr)


if __name__ == "__main__":
    main()

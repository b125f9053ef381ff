"""Random playouts of Gunsore through the public API, against OpenSpiel's C++ hearts.

Run by hand (the pyspiel half needs the benchmark environment)::

    PYTHONPATH=src python benchmarks/bench_gunsore.py [--seconds 3]

Both sides do the same work per decision: ask for the legal actions, pick one with
``random.Random.randrange``, apply it.  cardrules runs as installed (with its optional C
loops, ``cardrules._speedups``, when they were compiled) and, in the same alternation, in a
subprocess with ``CARDRULES_PURE_PYTHON=1`` (the pure-Python library).  Chance is resolved the usual way of each library
(cardrules: a seeded game shuffles itself, two ``Shuffle`` actions a game, the
first-master draw and the deal; pyspiel: one chance outcome per card dealt).
"actions/s" counts player decisions only, so the 52 one-card chance steps of a hearts
deal do not inflate pyspiel's count; "steps/s" counts every applied action, chance
included.  The time of the seeded shuffles is inside cardrules' figures.

The machine is shared, so the two measurements alternate for ``--rounds`` rounds and
the best round of each is reported (noise only ever slows a round down).
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time

from reference import cardrules_playouts, pure_python_playouts, pyspiel_playouts


def bench_gunsore(seconds: float) -> tuple[float, float, float]:
    from cardrules import gunsore

    return cardrules_playouts(gunsore, seconds=seconds)[:3]



def bench_pyspiel(seconds: float) -> tuple[float, float, float] | None:
    result = pyspiel_playouts("hearts", seconds=seconds)
    return None if result is None else result[:3]


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="time per measurement (default 1)")
    parser.add_argument("--rounds", type=int, default=3, help="alternating rounds, best kept (default 3)")
    parser.add_argument("--json", action="store_true", help="one cardrules measurement, as JSON (internal)")
    args = parser.parse_args()
    if args.json:
        print(json.dumps(bench_gunsore(args.seconds)))
        return
    from cardrules._hotloops import IMPLEMENTATION

    print(f"CPython {platform.python_version()} on {platform.machine()}, {time.strftime('%Y-%m-%d %H:%M')}")
    ours = (0.0, 0.0, 0.0)
    pure: tuple[float, float, float] | None = None
    ref: tuple[float, float, float] | None = (0.0, 0.0, 0.0)
    for _ in range(args.rounds):
        ours = max(ours, bench_gunsore(args.seconds))
        got = bench_pyspiel(args.seconds)
        ref = None if got is None or ref is None else max(ref, got)
        if IMPLEMENTATION == "C":
            pure = max(pure or (0.0, 0.0, 0.0), pure_python_playouts(__file__, args.seconds))
    rows = [(f"cardrules gunsore ({IMPLEMENTATION} loops)", ours)]
    if pure is not None:
        rows.append(("cardrules gunsore (pure Python)", pure))
    print(f"{'':32} {'actions/s':>10} {'steps/s':>10} {'games/s':>9}")
    for name, (a, b, c) in rows:
        print(f"{name:32} {a:>10,.0f} {b:>10,.0f} {c:>9,.1f}")
    if ref is None:
        print("pyspiel hearts: not installed (use the benchmark environment)", file=sys.stderr)
        return
    print(f"{'pyspiel hearts (random)':32} {ref[0]:>10,.0f} {ref[1]:>10,.0f} {ref[2]:>9,.1f}")
    for name, (a, _, _) in rows:
        print(f"ratio (actions/s), {name}: {a / ref[0]:.2f}x pyspiel")


if __name__ == "__main__":
    main()

"""Random playouts of Gunsore through the public API, against OpenSpiel's C++ hearts.

Run by hand (the pyspiel half needs the benchmark environment)::

    PYTHONPATH=src python benchmarks/bench_gunsore.py [--seconds 3]

Both sides do the same work per decision: ask for the legal actions, pick one with
``random.Random.randrange``, apply it.  Chance is resolved the usual way of each library
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
import platform
import sys
import time

from reference import cardrules_playouts, pyspiel_playouts


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
    args = parser.parse_args()
    print(f"CPython {platform.python_version()} on {platform.machine()}, {time.strftime('%Y-%m-%d')}")
    ours = (0.0, 0.0, 0.0)
    ref: tuple[float, float, float] | None = (0.0, 0.0, 0.0)
    for _ in range(args.rounds):
        ours = max(ours, bench_gunsore(args.seconds))
        got = bench_pyspiel(args.seconds)
        ref = None if got is None or ref is None else max(ref, got)
    print(f"{'':28} {'actions/s':>10} {'steps/s':>10} {'games/s':>9}")
    print(f"{'cardrules gunsore (random)':28} {ours[0]:>10,.0f} {ours[1]:>10,.0f} {ours[2]:>9,.1f}")
    if ref is None:
        print("pyspiel hearts: not installed (use the benchmark environment)", file=sys.stderr)
        return
    print(f"{'pyspiel hearts (random)':28} {ref[0]:>10,.0f} {ref[1]:>10,.0f} {ref[2]:>9,.1f}")
    print(f"ratio (actions/s): {ours[0] / ref[0]:.2f}x pyspiel")


if __name__ == "__main__":
    main()

"""What one iteration of the search agent costs, and its parts, at one decision.

    PYTHONPATH=src python benchmarks/bench_search_parts.py [--iterations 100]

For Aegis, Gunsore and two-player Haggis, at the first decision of the game seeded 5 (in
Aegis after the master stops exchanging):

* the analysis of the view that the state sampler makes once per decision
  (``GAMES[name].sampler(view)``, with its checks of the view: every field of its
  declared type, one state drawn and checked), the median of 20 calls after a first one
  (which also pays the process's one-time set-up);
* one sample (a whole state agreeing with the view), the mean of 100;
* one iteration of :class:`ISMCTSAgent` with random rollouts (a sample, a walk down the
  tree, a rollout to the end of the hand), the mean over a search of ``--iterations``
  iterations.

Wall-clock times of this process.
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import time

from cardrules import GAMES
from cardrules.search import ISMCTSAgent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=100)
    args = parser.parse_args()
    print(f"CPython {platform.python_version()} on {platform.machine()}")
    print("game      analysis of the view   one sample   one iteration")
    for name in ("aegis", "gunsore", "haggis"):
        game = GAMES[name]
        state = game.new_game(seed=5)
        if name == "aegis":  # the master stops exchanging
            state = game.apply(state, game.parse_action(state, "keep"))
        view, legal = game.view(state, state.to_act), game.legal_actions(state)
        draw = game.sampler(view)
        times = []
        for _ in range(20):
            start = time.perf_counter()
            draw = game.sampler(view)
            times.append(time.perf_counter() - start)
        analysis = statistics.median(times)
        rng = random.Random(1)
        start = time.perf_counter()
        for _ in range(100):
            draw(rng)
        sample = (time.perf_counter() - start) / 100
        agent = ISMCTSAgent(game, iterations=args.iterations, seed=1)
        start = time.perf_counter()
        agent(view, legal)
        iteration = (time.perf_counter() - start) / args.iterations
        print(f"{name:8}  {analysis * 1e3:17.2f} ms  {sample * 1e6:8.0f} us  {iteration * 1e6:11.0f} us")


if __name__ == "__main__":
    main()

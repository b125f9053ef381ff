"""Measure the spread of Gunsore's final margin, the ``SPREAD`` of its outlook.

    python benchmarks/fit_outlook.py [--games 60] [--seed spread] [--agents margin|outlook|greedy]

Plays ``--games`` seeded Gunsore games between two agents of a kind: ``margin`` (the
default), the search of ``bench_duel.STRONG``, rewarded by a season's margin;
``outlook``, the same search with ``reward="outlook"``; or ``greedy``, the greedy agents.
At every end of a season records the cards left in the stock ``n`` and how
far the margin then (player 0's score minus player 1's) is from the final one.  The
outlook (:func:`cardrules.gunsore.agent.outlook`) takes that difference as normal with a
standard deviation of ``SPREAD * sqrt(n + 2)``; printed are the root mean square
difference by bands of ``n``, each divided by ``sqrt(n + 2)`` (about constant if the
model's shape is right), and the pooled estimate ``sqrt(sum d**2 / sum (n + 2))``.
Deterministic for a seed (the search agents play a fixed number of iterations).
"""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path
from typing import Any

from cardrules import gunsore
from cardrules.search import ISMCTSAgent

sys.path.insert(0, str(Path(__file__).parent))
from bench_duel import STRONG

BANDS = [(0, 10), (10, 30), (30, 60), (60, 120)]


def rows(games: int, seed: str, agents: str) -> list[tuple[int, int]]:
    """``(cards left in the stock, final margin - margin then)`` at every season's end."""
    out: list[tuple[int, int]] = []
    g = gunsore.GAME
    for k in range(games):
        players: list[Any]
        if agents == "greedy":
            players = [gunsore.GreedyAgent(f"{seed}:{k}:{p}") for p in range(2)]
        else:
            settings = {**STRONG["gunsore"], "reward": agents}
            players = [ISMCTSAgent("gunsore", seed=f"{seed}:{k}:{p}", **settings) for p in range(2)]
        state = gunsore.new_game(seed=f"{seed}:{k}")
        marks: list[tuple[int, int]] = []
        scores = state.scores
        while not state.is_over:
            if state.scores != scores:  # a season has just been scored
                scores = state.scores
                marks.append((len(state.stock), scores[0] - scores[1]))
            p: Any = state.to_act
            state = gunsore.apply(state, players[p](g.view(state, p), gunsore.legal_actions(state)))
        final = state.scores[0] - state.scores[1]
        out.extend((n, final - margin) for n, margin in marks)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=60)
    ap.add_argument("--seed", default="spread")
    ap.add_argument("--agents", default="margin", choices=["margin", "outlook", "greedy"])
    args = ap.parse_args(argv)
    data = rows(args.games, args.seed, args.agents)
    print(
        f"python {sys.version.split()[0]}; {args.games} games of {args.agents} agents; {len(data)} season ends"
    )
    for lo, hi in BANDS:
        band = [(n, d) for n, d in data if lo <= n < hi]
        if band:
            rms = math.sqrt(sum(d * d for _, d in band) / len(band))
            mean_n = sum(n for n, _ in band) / len(band)
            print(
                f"stock {lo:>3}-{hi:<3} {len(band):>4} ends  mean stock {mean_n:5.1f}"
                f"  rms {rms:6.1f}  per sqrt(n + 2) {rms / math.sqrt(mean_n + 2):5.1f}"
            )
    if data:
        spread = math.sqrt(sum(d * d for _, d in data) / sum(n + 2 for n, _ in data))
        print(f"pooled SPREAD {spread:.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

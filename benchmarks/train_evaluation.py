"""Fit the Haggis evaluation (``src/cardrules/haggis/evaluation.json``) from greedy games.

    python benchmarks/train_evaluation.py [--games 800] [--seed train43] [--epsilon 0.1]
                                          [--bet 0.1] [-o src/cardrules/haggis/evaluation.json]

For two and for three players it plays ``--games`` seeded games of Haggis with the
game's ``GreedyAgent`` in every seat (a share ``--epsilon`` of the actions chosen at
random instead, and a bet of a random amount with probability ``--bet`` at a player's
first chance in a hand, so that the positions are varied and bets occur), records every
position where a player acts, with the features of
:func:`cardrules.haggis.evaluation.features` seen from each player, and, once the hand
ends, the points each player scored in it.  The weights are the least-squares fit
(numpy) of those points on the features, one set per player count; the file also
records how it was made.  Deterministic for a seed: the same command writes the same
file.  About a minute on one core.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from cardrules import GAMES
from cardrules.haggis import Bet, GreedyAgent
from cardrules.haggis.evaluation import FEATURES, features

OUT = Path(__file__).resolve().parents[1] / "src" / "cardrules" / "haggis" / "evaluation.json"


def positions(players: int, games: int, seed: str, epsilon: float, bet: float) -> tuple[Any, Any]:
    """The features (one row a position and player) and the hand points scored."""
    g = GAMES["haggis"]
    rng = random.Random(f"{seed}:{players}")
    rows: list[list[float]] = []
    targets: list[float] = []
    for i in range(games):
        agents = [GreedyAgent(f"{seed}:{players}:{i}:{p}") for p in range(players)]
        state = g.new_game(players=players, seed=f"{seed}:{players}:{i}")
        pending: list[tuple[int, list[float]]] = []
        while not state.is_over:
            p = state.to_act
            legal = g.legal_actions(state)
            for q in range(players):
                pending.append((q, features(state, q)))
            bets = [a for a in legal if type(a) is Bet]
            if bets and rng.random() < bet:
                action = bets[int(rng.random() * len(bets))]
            elif len(legal) > 1 and rng.random() < epsilon:
                action = legal[int(rng.random() * len(legal))]
            else:
                action = agents[p](g.view(state, p), legal)
            hand = state.hand_number
            state = g.apply(state, action)  # a seeded game deals the next hand itself
            if state.is_over or state.hand_number != hand:  # the hand ended: label it
                for q, row in pending:
                    rows.append(row)
                    targets.append(float(state.last_hand[q]))
                pending = []
    return np.array(rows, dtype=float), np.array(targets, dtype=float)


def fit(x: Any, y: Any) -> tuple[list[float], float, float]:
    """Least-squares weights, the residuals' root mean square and R²."""
    w, *_ = np.linalg.lstsq(x, y, rcond=None)
    residual = y - x @ w
    rms = float(np.sqrt(np.mean(residual**2)))
    r2 = 1.0 - float(np.var(residual) / np.var(y))
    return [round(float(v), 6) for v in w], rms, r2


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=800, help="games per player count")
    ap.add_argument("--seed", default="train43")
    ap.add_argument("--epsilon", type=float, default=0.1, help="share of random actions")
    ap.add_argument("--bet", type=float, default=0.1, help="chance of a random bet when one is legal")
    ap.add_argument("-o", "--output", type=Path, default=OUT)
    args = ap.parse_args(argv)
    data: dict[str, Any] = {
        "features": list(FEATURES),
        "weights": {},
        "fit": {},
        "made_by": (
            f"benchmarks/train_evaluation.py --games {args.games} --seed {args.seed}"
            f" --epsilon {args.epsilon} --bet {args.bet}"
        ),
    }
    for players in (2, 3):
        t = time.perf_counter()
        x, y = positions(players, args.games, args.seed, args.epsilon, args.bet)
        w, rms, r2 = fit(x, y)
        data["weights"][str(players)] = w
        data["fit"][str(players)] = {"rows": len(y), "rms": round(rms, 3), "r2": round(r2, 4)}
        print(
            f"{players} players: {len(y)} rows, rms {rms:.2f} points, R² {r2:.3f}"
            f" ({time.perf_counter() - t:.0f} s)",
            file=sys.stderr,
            flush=True,
        )
    args.output.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {args.output}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

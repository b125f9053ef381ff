"""Fit the Gunsore policy (``src/cardrules/gunsore/policy.json``) to the search's own choices.

    python benchmarks/train_gunsore_policy.py [--games 200] [--seed policy] [--jobs 2]
                                              [--iterations 500] [-o src/cardrules/gunsore/policy.json]

It plays ``--games`` seeded games of Gunsore between two search agents with
:data:`TEACHER`'s settings (Gunsore's strongest search *without* the model it trains, so
that the data never depends on an earlier fit), and records every decision with more
than one legal action: the :func:`cardrules.gunsore.policy.features` of each legal action
and the one chosen.  The weights maximise the likelihood of the choices under the
softmax model of :mod:`cardrules.gunsore.policy`, with a small L2 penalty (numpy, 3000
steps of Adam).  A first fit on the decisions of four fifths of the games is scored on
the other fifth (the mean negative log-likelihood, beside that of a uniform choice) to show that
the model predicts something; the shipped weights are then fitted on all of them.  The
file records how it was made.  Deterministic for a seed: the same command writes the
same file.  About 7 minutes on 2 cores.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np

from cardrules import GAMES
from cardrules.gunsore.policy import FEATURES, features
from cardrules.search import ISMCTSAgent

OUT = Path(__file__).resolve().parents[1] / "src" / "cardrules" / "gunsore" / "policy.json"

#: The search whose choices are fitted.
TEACHER: dict[str, Any] = {"iterations": 500, "prior": "greedy", "widening": 1.0, "reward": "outlook"}

#: The L2 penalty on the weights, and the steps and step size of the fit.
PENALTY = 1e-3
STEPS = 3000
RATE = 0.05

Decision = tuple[list[list[float]], int]


def dense(offset: int, values: list[float]) -> list[float]:
    row = [0.0] * len(FEATURES)
    row[offset : offset + len(values)] = values
    return row


def play(seed: str, index: int, teacher: dict[str, Any]) -> list[Decision]:
    """The decisions of one game: the features of each legal action and the chosen one."""
    g = GAMES["gunsore"]
    s = f"{seed}:{index}"
    agents = [ISMCTSAgent("gunsore", seed=f"{s}:{p}", **teacher) for p in range(2)]
    state = g.new_game(seed=s)
    out: list[Decision] = []
    while not state.is_over:
        p = state.to_act
        legal = g.legal_actions(state)
        action = agents[p](g.view(state, p), legal)
        if len(legal) > 1:
            out.append(([dense(*features(state, a)) for a in legal], legal.index(action)))
        state = g.apply(state, action)
    return out


def fit(decisions: list[Decision]) -> np.ndarray:
    """The maximum-likelihood weights (with the L2 penalty) of the softmax model."""
    rows = [r for legal, _ in decisions for r in legal]
    x = np.array(rows)
    group = np.repeat(np.arange(len(decisions)), [len(legal) for legal, _ in decisions])
    starts = np.r_[0, np.cumsum([len(legal) for legal, _ in decisions])[:-1]]
    chosen = starts + np.array([c for _, c in decisions])
    n = len(decisions)
    w = np.zeros(len(FEATURES))
    m1 = np.zeros_like(w)
    m2 = np.zeros_like(w)
    for t in range(1, STEPS + 1):
        z = x @ w
        top = np.maximum.reduceat(z, starts)
        e = np.exp(z - top[group])
        p = e / np.add.reduceat(e, starts)[group]
        grad = (p @ x - x[chosen].sum(0)) / n + 2 * PENALTY * w
        m1 = 0.9 * m1 + 0.1 * grad
        m2 = 0.999 * m2 + 0.001 * grad * grad
        w -= RATE * (m1 / (1 - 0.9**t)) / (np.sqrt(m2 / (1 - 0.999**t)) + 1e-8)
    return w


def loss(w: np.ndarray, decisions: list[Decision]) -> float:
    """The mean negative log-likelihood of the choices under the weights."""
    total = 0.0
    for legal, c in decisions:
        z = np.array(legal) @ w
        top = z.max()
        total += top + np.log(np.exp(z - top).sum()) - z[c]
    return total / len(decisions)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--seed", default="policy")
    ap.add_argument("--jobs", type=int, default=2, help="processes playing the games")
    ap.add_argument("--iterations", type=int, default=TEACHER["iterations"], help="the teacher's budget")
    ap.add_argument("-o", "--output", type=Path, default=OUT)
    args = ap.parse_args(argv)
    t0 = time.perf_counter()
    teacher = {**TEACHER, "iterations": args.iterations}
    indices = range(args.games)
    if args.jobs > 1:
        with ProcessPoolExecutor(args.jobs) as pool:
            games = list(pool.map(play, [args.seed] * args.games, indices, [teacher] * args.games))
    else:
        games = [play(args.seed, i, teacher) for i in indices]
    decisions = [d for game in games for d in game]
    cut = max(1, len(games) * 4 // 5)  # whole games on either side: the test is other games
    train = [d for game in games[:cut] for d in game]
    test = [d for game in games[cut:] for d in game] or train
    held_out = loss(fit(train), test)
    uniform = float(np.mean([np.log(len(legal)) for legal, _ in test]))
    w = fit(decisions)
    data = {
        "made_by": (
            f"benchmarks/train_gunsore_policy.py --games {args.games} --seed {args.seed} "
            f"--iterations {args.iterations}: "
            f"{len(decisions)} decisions of {teacher} in self-play; held-out mean negative "
            f"log-likelihood {held_out:.4f} (a uniform choice: {uniform:.4f})"
        ),
        "features": list(FEATURES),
        "weights": [round(float(v), 6) for v in w],
    }
    args.output.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    print(
        f"{len(decisions)} decisions from {args.games} games in {time.perf_counter() - t0:.0f} s",
        file=sys.stderr,
    )
    print(
        f"held-out mean negative log-likelihood {held_out:.4f}; a uniform choice {uniform:.4f}",
        file=sys.stderr,
    )
    print(f"wrote {args.output}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

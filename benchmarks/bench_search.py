"""Strength of ISMCTSAgent against the greedy agents, with seats swapped.

    python benchmarks/bench_search.py [--games N] [--only aegis,gunsore,haggis2,haggis3]
                                      [--iterations aegis=30,300 ...] [--rollout greedy]
                                      [--cutoff 0] [--opponents policy]
                                      [--actions candidates] [--reward outlook]

For each pairing and each iteration budget: N seeded games; the search agent sits in seat
``i % players`` of game ``i`` (the other seats are ``GreedyAgent``s), so every seat is
played equally often.  Printed per line: wins of the search agent (a tie at the top counts
as half a win for each tied player), the win rate with its Wilson 95% interval, the mean
and the largest time of one search decision (ms), and the search agent's iterations per
second.  A line is printed as soon as its games are played.
"""

from __future__ import annotations

import argparse
import importlib
import sys
import time

from cardrules import GAMES
from cardrules.search import ISMCTSAgent
from cardrules.simulation import wilson_interval

PAIRINGS = {
    "aegis": ("aegis", 2),
    "gunsore": ("gunsore", 2),
    "haggis2": ("haggis", 2),
    "haggis3": ("haggis", 3),
}
#: iterations per decision tried by default (``--iterations`` replaces them)
BUDGETS = {"aegis": [30, 300], "gunsore": [30, 300], "haggis2": [10, 30], "haggis3": [10, 30]}


def play(
    key: str,
    iterations: int,
    games: int,
    seed: str,
    rollout: str = "random",
    prior: str | None = None,
    widening: float | None = None,
    exploration: float = 0.7,
    belief: str = "uniform",
    epsilon: float = 0.0,
    cutoff: int | None = None,
    opponents: str | None = None,
    actions: str = "all",
    reward: str = "margin",
) -> None:
    name, n = PAIRINGS[key]
    g = GAMES[name]
    greedy = importlib.import_module(f"cardrules.{name}").GreedyAgent
    wins = 0.0
    think = 0.0
    worst = 0.0
    decisions = 0
    done_iterations = 0
    for i in range(games):
        seat = i % n
        search = ISMCTSAgent(
            name,
            iterations=iterations,
            seed=f"{seed}:{i}",
            rollout=rollout,
            prior=prior,
            widening=widening,
            exploration=exploration,
            belief=belief,
            epsilon=epsilon,
            cutoff=cutoff,
            opponents=opponents,
            actions=actions,
            reward=reward,
        )
        agents = [search if p == seat else greedy(f"{seed}:{i}:{p}") for p in range(n)]
        state = g.new_game(players=n, seed=f"{seed}:{i}")
        while not state.is_over:
            p = state.to_act
            legal = g.legal_actions(state)
            if p == seat and len(legal) > 1:
                t = time.perf_counter()
                action = search(g.view(state, p), legal)
                dt = time.perf_counter() - t
                think += dt
                worst = max(worst, dt)
                decisions += 1
                done_iterations += search.iterations_done
            else:
                action = agents[p](g.view(state, p), legal)
            state = g.apply(state, action)
        if seat in state.winners:
            wins += 1 / len(state.winners)
    lo, hi = wilson_interval(wins, games)
    print(
        f"{key:8} {rollout:6} {epsilon:4} {belief:7} {prior or '-':6} {widening or '-'!s:4}"
        f"{'' if cutoff is None else f' cut {cutoff}'}{'' if opponents is None else f' opp {opponents}'}"
        f"{'' if actions == 'all' else f' {actions}'}{'' if reward == 'margin' else f' {reward}'} {iterations:>5} it  {games:>4} games"
        f"  wins {wins:>6.1f}  rate {wins / games:.3f}"
        f"  [{lo:.3f}, {hi:.3f}]  mean {1000 * think / max(decisions, 1):6.1f} ms  max {1000 * worst:6.0f} ms"
        f"  {done_iterations / max(think, 1e-9):7.0f} it/s",
        flush=True,
    )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--only", default=",".join(PAIRINGS))
    ap.add_argument("--iterations", nargs="*", default=[], help="KEY=N,N,... budgets to try")
    ap.add_argument("--seed", default="bench")
    ap.add_argument("--rollout", default="random", choices=["random", "greedy", "policy"])
    ap.add_argument("--prior", default=None, choices=["greedy"])
    ap.add_argument("--widening", type=float, default=None)
    ap.add_argument("--exploration", type=float, default=0.7, help="the UCB constant")
    ap.add_argument("--belief", default="uniform", choices=["uniform", "policy", "model"])
    ap.add_argument("--epsilon", type=float, default=0.0, help="share of random rollout actions")
    ap.add_argument("--cutoff", type=int, default=None, help="rollout actions before the game's evaluation")
    ap.add_argument(
        "--opponents", default=None, choices=["policy", "greedy"], help="the other players' model in the tree"
    )
    ap.add_argument(
        "--actions", default="all", choices=["all", "candidates"], help="the actions the tree tries"
    )
    ap.add_argument(
        "--reward", default="margin", choices=["margin", "outlook"], help="what a rollout's end is worth"
    )
    args = ap.parse_args(argv)
    budgets = dict(BUDGETS)
    for item in args.iterations:
        key, _, values = item.partition("=")
        budgets[key] = [int(v) for v in values.split(",")]
    print(f"python {sys.version.split()[0]}; {args.games} games per line; seats swapped", flush=True)
    for key in args.only.split(","):
        for iterations in budgets[key]:
            play(
                key,
                iterations,
                args.games,
                args.seed,
                args.rollout,
                args.prior,
                args.widening,
                args.exploration,
                args.belief,
                args.epsilon,
                args.cutoff,
                args.opponents,
                args.actions,
                args.reward,
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

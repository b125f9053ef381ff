"""``cardrules simulate``: many seeded games between agents, summarised."""

from __future__ import annotations

import argparse
from typing import Any

from ..agents import RandomAgent, strong_agent
from ..protocol import GAME_NAMES, GAMES, Agent
from ..simulate import simulate


def register(sub: Any) -> None:
    p = sub.add_parser("simulate", help="play many seeded games between agents")
    p.add_argument("game", choices=GAME_NAMES)
    p.add_argument("--games", type=int, default=100, help="how many games (default 100)")
    p.add_argument("--seed", default="0")
    p.add_argument("--players", type=int, default=None)
    p.add_argument(
        "--agents",
        default="random",
        help="comma-separated agent kinds per player: random or strong (one kind applies to all)",
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    g = GAMES[args.game]
    n = args.players or g.default_players
    kinds = args.agents.split(",")
    if len(kinds) == 1:
        kinds = kinds * n
    agents: list[Agent] = [
        strong_agent(args.game, f"{args.seed}:{p}") if k == "strong" else RandomAgent(f"{args.seed}:{p}")
        for p, k in enumerate(kinds)
    ]
    s = simulate(args.game, agents, games=args.games, seed=args.seed)
    print(f"{s.games} games of {s.game}, {n} players, agents {','.join(kinds)}")
    for p in range(n):
        print(f"  player {p}: win rate {s.win_rates[p]:.3f}, average score {s.average_scores[p]:.2f}")
    print(f"  length: average {s.average_length:.1f} actions (min {s.min_length}, max {s.max_length})")
    return 0

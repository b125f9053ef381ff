"""``cardrules demo``: a seeded game of each game between agents, as a readable record."""

from __future__ import annotations

import argparse
from typing import Any

from ..agents import RandomAgent, strong_agent
from ..errors import CardRulesError
from ..protocol import GAMES, Agent
from ..simulation import play


def register(sub: Any) -> None:
    p = sub.add_parser(
        "demo",
        help="play a seeded game of each game and print its record",
        description="Play a seeded game of each game between the computer's agents (the stronger "
        "agent in one seat, random agents in the others) and print its record and the final table.",
        epilog="examples:\n  cardrules demo\n  cardrules demo --game haggis --seed 7\n"
        "  cardrules demo --game aegis --game gunsore",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--seed", default="demo", help="the seed of every shuffle and agent (default: demo)")
    p.add_argument(
        "--game", choices=GAMES, action="append", help="only this game (repeatable; default: every game)"
    )
    p.set_defaults(func=run)


#: The search agent's iterations per move in a demo (it plays random agents).
DEMO_ITERATIONS = 20


def _strong_seat(game: str) -> int:
    """The seat of the strong agent: the game's ``default_seat`` (0; Eleusis: 1, since its
    player 0 is God and never acts)."""
    return GAMES[game].default_seat


def _agents(game: str, n: int, seed: str) -> list[Agent]:
    agents: list[Agent] = []
    seat = _strong_seat(game)
    for p in range(n):
        try:
            # a small search budget: a demo against random players should be quick
            strong = strong_agent(game, f"{seed}:{p}", iterations=DEMO_ITERATIONS)
            agents.append(strong if p == seat else RandomAgent(f"{seed}:{p}"))
        except CardRulesError:
            agents.append(RandomAgent(f"{seed}:{p}"))
    return agents


def demo_record(game: str, seed: str) -> str:
    """The record of one seeded demo game, as text."""
    g = GAMES[game]
    lines = [f"== {game} (seed {seed!r}) =="]
    n = g.default_players
    agents = _agents(game, n, seed)
    lines.append("players: " + ", ".join(f"{p}: {type(a).__name__}" for p, a in enumerate(agents)))

    def record(state: Any, action: Any) -> None:
        lines.append("  " + g.describe(state, action))

    final = play(game, agents, seed=seed, on_action=record)
    lines.append(g.summary(final))
    lines.append("the table at the end:")
    lines.append(g.render(final))
    lines.append(f"scores: {list(final.scores)}; winners: {list(final.winners)}")
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    games = args.game or list(GAMES)  # every registered game: the four, then any loaded
    for name in games:
        print(demo_record(name, args.seed))
        print()
    return 0

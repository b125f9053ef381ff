"""``cardrules tournament``: every seating of several agents, with win rates and Elo."""

from __future__ import annotations

import argparse
from typing import Any

from ..agents import AGENTS
from ..errors import CardRulesError
from ..simulation import tournament
from . import _running
from .simulate_cmd import write_json

EXAMPLES = """\
examples:
  cardrules tournament haggis --agents greedy,random --games 100
  cardrules tournament haggis --players 3 --agents greedy,strong,random
  cardrules tournament aegis --agents greedy,random --workers 2 --json t.json
"""


def register(sub: Any) -> None:
    p = sub.add_parser(
        "tournament",
        help="play every seating of several agents and rank them",
        description="Play every seating of the agents (every pairing with seats swapped;\n"
        "every order of every group for 3 or more players) N times each, and print each\n"
        "agent's wins with a 95% interval, average score and fitted Elo rating.",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    _running.add_match_options(
        p,
        games=50,
        games_help="games for each seating",
        agents=None,
        agents_help=f"at least as many as players, from: {', '.join(AGENTS)}",
        players_help="players a game (default: the game's usual)",
    )
    p.add_argument("--json", metavar="FILE", help="write the table and every seating's games to FILE as JSON")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    names = _running.agent_names(args.agents)
    repeated = sorted({n for n in names if names.count(n) > 1})
    if repeated:
        raise CardRulesError(f"each agent plays once in a tournament; repeated: {', '.join(repeated)}")
    if len(names) < 2:
        raise CardRulesError(
            f"a tournament ranks agents against each other: give at least two, such as "
            f"--agents {names[0]},{'random' if names[0] != 'random' else 'greedy'} (to measure one agent "
            "against itself, use cardrules simulate)"
        )
    _running.check_output(args.json, "--json")
    progress = _running.Progress(quiet=args.quiet)
    try:
        with _running.executor(args) as executor:
            table = tournament(
                args.game,
                {name: _running.factory(name, args.game) for name in names},
                games=args.games,
                seed=args.seed,
                players=args.players,
                executor=executor,
                batch_size=args.batch_size,
                progress=progress,
            )
    finally:
        progress.close()
    print(table)
    if args.json:
        write_json(args.json, {"seed": args.seed, **table.as_dict()})
    return 0

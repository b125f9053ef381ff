"""``cardrules analyse``: each legal action's value for a position, as the search sees it."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from ..errors import CardRulesError
from ..protocol import CHANCE, GAMES, GameDef
from ..search import SearchConfig, analyse
from ..serialize import FORMAT, from_json
from . import _running

EXAMPLES = """\
examples:
  cardrules analyse aegis --state game.json     (a state saved by the library)
  cardrules analyse haggis --state position.json --iterations 400 --seed 7
  cardrules analyse gunsore --state game.json --json
  cardrules analyse aegis --state game.json --config '{"rollout": "greedy"}'

A position file is either a state as the library writes it (cardrules.serialize.to_json,
"format": "cardrules/state") or a position, {"seed": 7, "players": 2, "actions": ["3"]}:
the game dealt with that seed and played on with those actions as the game writes them.
"""


def register(sub: Any) -> None:
    p = sub.add_parser(
        "analyse",
        help="each legal action's value for a position, as the search sees it",
        description="Search a position from the view of the player to act and print each\n"
        "legal action's estimated value (the mean reward of the search after it, from 0 to\n"
        "1), a 95% interval and its visits, most visited (the search's choice) first.  The\n"
        "search is the game's strongest configuration unless --config gives another; with\n"
        "an iteration budget and a seed the analysis is the same on every run.",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("game", choices=GAMES, help="the game of the position")
    p.add_argument("--state", metavar="FILE", required=True, help="the position, as JSON (see below)")
    p.add_argument(
        "--iterations", type=_running.positive, help="iterations of the search (default: the configuration's)"
    )
    p.add_argument(
        "--time", type=float, metavar="SECONDS", help="seconds of search instead of a number of iterations"
    )
    p.add_argument("--seed", default="analyse", help="the search's seed (default 'analyse')")
    p.add_argument(
        "--config", metavar="JSON", help="the search's configuration as a JSON object (SearchConfig fields)"
    )
    p.add_argument("--json", action="store_true", help="print the analysis as JSON")
    p.set_defaults(func=run)


def read_position(game: GameDef[Any, Any], text: str) -> Any:
    """The state a position file holds (module docs): a library state, or a seed, a
    player count and actions as text."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise CardRulesError(f"the position is not JSON: {exc}") from None
    if isinstance(data, dict) and data.get("format") == FORMAT:
        if data.get("game") != game.name:
            raise CardRulesError(f"the state is a game of {data.get('game')}, not {game.name}")
        return from_json(text)
    if not isinstance(data, dict) or not set(data) <= {"seed", "players", "actions"}:
        raise CardRulesError(
            'a position is a library state ("format": "cardrules/state") or an object '
            'with "seed", "players" and "actions" (a list of actions as text)'
        )
    actions = data.get("actions", [])
    if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
        raise CardRulesError('a position\'s "actions" are a list of actions as text')
    state = game.new_game(players=data.get("players"), seed=data.get("seed"))
    for i, text_action in enumerate(actions):
        if state.is_over:
            raise CardRulesError(f"the game is over before action {i + 1} ({text_action!r})")
        state = game.apply(state, game.parse_action(state, text_action))
    return state


def _config(args: argparse.Namespace, game: GameDef[Any, Any]) -> SearchConfig:
    if args.config is not None:
        try:
            data = json.loads(args.config)
        except json.JSONDecodeError as exc:
            raise CardRulesError(f"--config is not JSON: {exc}") from None
        config = SearchConfig.from_json(data)
    else:
        hooks = game.search
        config = hooks.config if hooks is not None and hooks.config is not None else SearchConfig()
    if args.time is not None:
        return config.replace(iterations=args.iterations, time_per_move=args.time)
    if args.iterations is not None:
        return config.replace(iterations=args.iterations, time_per_move=None)
    return config


def run(args: argparse.Namespace) -> int:
    game = GAMES[args.game]
    config = _config(args, game)
    try:
        text = Path(args.state).read_text(encoding="utf-8")
    except OSError as exc:
        raise CardRulesError(f"cannot read {args.state}: {exc.strerror}") from None
    state = read_position(game, text)
    if state.is_over:
        raise CardRulesError("the game is over: there is nothing to analyse")
    if state.to_act is CHANCE:
        raise CardRulesError("chance is to act in this position, not a player")
    player = state.to_act
    legal = game.legal_actions(state)
    found = analyse(game, game.view(state, player), legal, config=config, seed=args.seed, rules=state.rules)
    if args.json:
        print(json.dumps(found.to_json(), indent=1))
        return 0
    print(f"{game.name}: {game.seat_name(player)} to act; {found.iterations} iterations of {config!r}")
    print(found.text())
    print(f"the search plays: {found.best}")
    return 0

"""``cardrules simulate``: many seeded games between agents, summarised."""

from __future__ import annotations

import argparse
import csv
import json
from typing import Any

from ..agents import AGENTS
from ..errors import CardRulesError
from ..protocol import GAMES
from ..simulation import Summary, simulate
from . import _running

EXAMPLES = """\
examples:
  cardrules simulate haggis --games 200 --agents greedy,random
  cardrules simulate haggis --agents greedy,random,random       (three players)
  cardrules simulate eleusis --players 4 --agents random        (one for all)
  cardrules simulate aegis --games 10000 --workers 2 --csv games.csv
  cardrules simulate gunsore --games 100000 --dask tcp://host:8786 --json g.json
"""


def register(sub: Any) -> None:
    p = sub.add_parser(
        "simulate",
        help="play many seeded games between agents",
        description="Play many seeded games between agents and print win rates, average\n"
        "scores and game lengths.  Game i is dealt with seed SEED:i, so a run gives the\n"
        "same results on any number of workers.",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    _running.add_match_options(
        p,
        games=100,
        games_help="how many games",
        agents="random",
        agents_help=f"one per player, from: {', '.join(AGENTS)}; their number is the number of "
        "players; one name alone plays every seat (default random)",
        players_help="the number of players (default: one per agent, or the game's usual number)",
    )
    p.add_argument("--json", metavar="FILE", help="write the summary and every game (seed, length, "
                   "scores, winners) to FILE as JSON")  # fmt: skip
    p.add_argument("--csv", metavar="FILE", help="write every game (seed, length, scores, winners) "
                   "to FILE as CSV, one line a game")  # fmt: skip
    p.set_defaults(func=run)


def seat_agents(game: str, text: str, players: int | None) -> list[str]:
    """One agent name a seat: the list decides the number of players unless ``players``
    is given; one name alone fills every seat."""
    names = _running.agent_names(text)
    g = GAMES[game]
    if len(names) == 1:
        names = names * (players or g.default_players)
    elif players is not None and players != len(names):
        raise CardRulesError(
            f"{len(names)} agents ({','.join(names)}) for {players} players: give one agent a "
            "player, or one agent for all"
        )
    if len(names) not in g.player_counts:
        allowed = " or ".join(map(str, g.player_counts))
        raise CardRulesError(f"{game} is played by {allowed} players, not {len(names)}")
    return names


def run(args: argparse.Namespace) -> int:
    names = seat_agents(args.game, args.agents, args.players)
    _running.check_output(args.json, "--json")
    _running.check_output(args.csv, "--csv")
    n = len(names)
    progress = _running.Progress(quiet=args.quiet)
    try:
        with _running.executor(args) as executor:
            s = simulate(
                args.game,
                [_running.factory(name, args.game) for name in names],
                games=args.games,
                seed=args.seed,
                executor=executor,
                batch_size=args.batch_size,
                progress=progress,
            )
    finally:
        progress.close()
    print(f"{s.games} games of {s.game}, {n} players, agents {','.join(names)}")
    for p in range(n):
        print(
            f"  player {p} ({names[p]}): win rate {s.win_rates[p]:.3f}, "
            f"average score {s.average_scores[p]:.2f}"
        )
    print(f"  length: average {s.average_length:.1f} actions (min {s.min_length}, max {s.max_length})")
    if args.json:
        write_json(args.json, {"seed": args.seed, "agents": names, **s.as_dict()})
    if args.csv:
        write_csv(args.csv, s)
    return 0


def write_json(path: str, data: dict[str, Any]) -> None:
    try:
        with open(path, "w", encoding="utf-8") as f:
            json.dump(data, f)
            f.write("\n")
    except OSError as exc:
        raise CardRulesError(f"cannot write {path}: {exc.strerror or exc}") from None


def write_csv(path: str, s: Summary) -> None:
    """One line a game: its number, seed, length, each player's score, the winners' seats
    (space-separated)."""
    n = len(s.wins)
    try:
        with open(path, "w", encoding="utf-8", newline="") as f:
            w = csv.writer(f)
            w.writerow(["game", "seed", "length", *(f"score_{p}" for p in range(n)), "winners"])
            for r in s.results:
                w.writerow([r.game, r.seed, r.length, *r.scores, " ".join(map(str, r.winners))])
    except OSError as exc:
        raise CardRulesError(f"cannot write {path}: {exc.strerror or exc}") from None

"""How Gunsore games go under random play: seasons, tricks, and the war triggers.

Run by hand::

    PYTHONPATH=src python benchmarks/sim_gunsore.py [--games 2000]

Both seats are :class:`cardrules.agents.RandomAgent` (uniform over the legal actions, so a
master declares war with chance 1/(distinct cards + 1) at each development lead).  For
the default rules and for ``Rules(declare_war=False)`` it prints how many seasons a game
lasts, how many development and war tricks a season has, how long a game is in player
actions, and how often each war trigger fires per game; these are the figures the
specification's prototype reported, recorded in
``docs/games/gunsore.rst``.
"""

from __future__ import annotations

import argparse
import statistics
from collections import Counter

from cardrules import Shuffle, gunsore, play
from cardrules.agents import RandomAgent


def measure(rules: gunsore.Rules, games: int, seed: str) -> dict[str, object]:
    seasons: list[int] = []
    dev: list[int] = []
    war: list[int] = []
    lengths: list[int] = []
    causes: Counter[str] = Counter()
    one_season = 0
    ties = 0
    for i in range(games):
        agents = [RandomAgent(f"{seed}:{i}:0"), RandomAgent(f"{seed}:{i}:1")]
        final = play("gunsore", agents, seed=f"{seed}:{i}", rules=rules)
        log = gunsore.season_log(final)
        seasons.append(len(log))
        one_season += len(log) == 1
        ties += len(final.winners) == 2
        lengths.append(sum(1 for a in final.history if not isinstance(a, Shuffle)))
        for r in log:
            dev.append(r.development_tricks)
            war.append(r.war_tricks)
            causes[r.war_cause or "none"] += 1
    return {
        "games": games,
        "seasons per game": (statistics.mean(seasons), min(seasons), max(seasons)),
        "one-season games": one_season / games,
        "development tricks per season": (statistics.mean(dev), min(dev), max(dev)),
        "median development tricks": statistics.median(dev),
        "seasons with 1-4 dev. tricks": sum(1 <= d <= 4 for d in dev) / len(dev),
        "war tricks per season": (statistics.mean(war), min(war), max(war)),
        "player actions per game": (statistics.mean(lengths), min(lengths), max(lengths)),
        "declared wars per game": causes["declared"] / games,
        "empty-stock wars per game": causes["stock"] / games,
        "stuck-slave wars per game": causes["stuck"] / games,
        "seasons without war per game": causes["none"] / games,
        "ties": ties / games,
    }


def _fmt(value: object) -> str:
    if isinstance(value, tuple):
        mean, lo, hi = value
        return f"{mean:.2f} (min {lo}, max {hi})"
    if isinstance(value, float):
        return f"{value:.3f}".rstrip("0").rstrip(".") if value == int(value) else f"{value:.3f}"
    return str(value)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seed", default="sim")
    args = parser.parse_args()
    for label, rules in (
        ("Rules()", gunsore.Rules()),
        ("Rules(declare_war=False)", gunsore.Rules(declare_war=False)),
    ):
        print(f"== {label}, {args.games} random games ==")
        for key, value in measure(rules, args.games, args.seed).items():
            print(f"  {key:32} {_fmt(value)}")


if __name__ == "__main__":
    main()

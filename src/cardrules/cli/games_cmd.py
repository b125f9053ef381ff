"""``cardrules games``: the games this installation knows, and where each comes from."""

from __future__ import annotations

import argparse
from typing import Any

from ..errors import CardRulesError
from ..protocol import ENTRY_POINT_GROUP, GAMES, game_source
from ._loading import load

EXAMPLES = """\
examples:
  cardrules games
  cardrules --load examples/knockout/knockout.py games
"""


def register(sub: Any) -> None:
    p = sub.add_parser(
        "games",
        help="list the games: built in, installed as plugins, or loaded with --load",
        description="List every game the other commands take: the built-in games, the games "
        f"of installed distributions (entry-point group {ENTRY_POINT_GROUP}; set "
        "CARDRULES_DISABLE_PLUGIN_AUTOLOAD=1 to leave them out), and the games --load registers; "
        "each with its title, its player counts and where it comes from.",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    # the modules --load loaded, by name: a game one of them registered says so
    loaded = {load(source).__name__: source for source in getattr(args, "load", None) or ()}
    rows = []
    broken = 0
    for name in GAMES:
        try:
            g = GAMES[name]
        except CardRulesError as exc:  # a plugin that does not load: said, and the rest listed
            rows.append((name, "(cannot be loaded)", "", f"{game_source(name)}: {exc}"))
            broken += 1
            continue
        counts = ", ".join(map(str, g.player_counts))
        source = f"--load {loaded[g.module]}" if g.module in loaded else game_source(name)
        rows.append((name, g.title, f"{counts} players", source))
    widths = [max(len(row[i]) for row in rows) for i in range(3)]
    for row in rows:
        print("  ".join(cell.ljust(w) for cell, w in zip(row[:3], widths, strict=True)) + "  " + row[3])
    return 1 if broken else 0

"""Where random playouts spend their time: a cProfile of each game, its top entries by
internal time.

Run by hand, from the project's root::

    PYTHONPATH=src python benchmarks/profile_playouts.py [--games N] [--game NAME] [--top 8] [--rst]

Each game plays the same seeded random games as ``benchmarks/reference.py``'s playouts,
through the public API: game ``i`` (``i`` from 0 to the number of games - 1) is
``new_game(seed=i)``, then ``legal_actions``, a ``random.Random(i).randrange`` pick
and ``apply`` to the end.  The games: ``aegis``, ``gunsore``, ``haggis-2p``,
``haggis-3p`` (Haggis with 2 and with 3 players) and ``eleusis`` (New Eleusis with its
default 5 players and default rule).  By default Aegis and Gunsore play 2000 games,
New Eleusis 500 and Haggis 20 with each number of players (about a second of profiled
play each); ``--games N`` plays N of every game.  Only the playouts run under the profiler, after
one unprofiled game (so that lazily built tables are built).

For each game the script prints the total profiled time and its ``--top`` entries by
internal time (``tottime``: the time spent in the function itself, not in what it
calls): the function (its file under ``src/cardrules`` and line, or the built-in), the
number of calls, the internal time and its share of the total.  The profiler's own cost
per call inflates small functions, so shares say where calls and work concentrate, not
what a run without the profiler would take.  ``--rst`` prints the same entries as
reStructuredText list-tables, ready for ``docs/performance/profile.rst``.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import platform
import pstats
import random
import time
from typing import Any

from cardrules import aegis, eleusis, gunsore, haggis

# each game's module, its arguments and its number of games by default (about a second of
# profiled play each on a 2-core machine: Haggis games are long, the others short)
GAMES: dict[str, tuple[Any, dict[str, int], int]] = {
    "aegis": (aegis, {}, 2000),
    "gunsore": (gunsore, {}, 2000),
    "haggis-2p": (haggis, {"players": 2}, 20),
    "haggis-3p": (haggis, {"players": 3}, 20),
    "eleusis": (eleusis, {}, 500),
}


def playouts(module: Any, kwargs: dict[str, int], seeds: range) -> int:
    """Plays the seeded random games; the number of decisions."""
    legal_actions, apply, new_game = module.legal_actions, module.apply, module.new_game
    decisions = 0
    for seed in seeds:
        randrange = random.Random(seed).randrange
        state = new_game(seed=seed, **kwargs)
        while not state.is_over:
            actions = legal_actions(state)
            state = apply(state, actions[randrange(len(actions))])
            decisions += 1
    return decisions


def profile(module: Any, kwargs: dict[str, int], games: int) -> tuple[pstats.Stats, int]:
    playouts(module, kwargs, range(-1, 0))  # unprofiled warm-up
    profiler = cProfile.Profile()
    decisions = profiler.runcall(playouts, module, kwargs, range(games))
    return pstats.Stats(profiler), decisions


def label(key: tuple[str, int, str]) -> str:
    """``file:line (name)`` for the library's functions (the file under ``cardrules/``),
    the class and the fields for the record maker's generated functions, the name alone
    for built-ins, a shortened path for the rest."""
    filename, line, name = key
    if filename == "~" and line == 0:
        return name.strip("{}").replace("built-in method ", "").replace("method ", "")
    if filename.startswith("<cardrules record maker "):  # a generated new or replace
        return "record maker " + filename.removeprefix("<cardrules record maker cardrules.").rstrip(">")
    parts = filename.replace(os.sep, "/").split("/")
    if "cardrules" in parts:
        where = "/".join(parts[len(parts) - parts[::-1].index("cardrules") :])
    else:
        where = "/".join(parts[-2:])
    return f"{where}:{line} ({name})"


def top_entries(stats: pstats.Stats, top: int) -> tuple[float, list[tuple[str, int, float, float]]]:
    """The total internal time and the ``top`` entries: (label, calls, tottime, share)."""
    table: dict[Any, Any] = stats.stats  # type: ignore[attr-defined]
    total = sum(entry[2] for entry in table.values())
    rows = sorted(table.items(), key=lambda item: item[1][2], reverse=True)[:top]
    return total, [
        (label(key), nc, tt, tt / total if total else 0.0) for key, (cc, nc, tt, ct, callers) in rows
    ]


def print_text(
    name: str, games: int, decisions: int, total: float, rows: list[tuple[str, int, float, float]]
) -> None:
    print(f"{name}: {games} games, {decisions:,} decisions, {total:.2f} s profiled")
    width = max(len(r[0]) for r in rows)
    print(f"  {'function':{width}} {'calls':>10} {'tottime s':>10} {'share':>6}")
    for where, calls, tt, share in rows:
        print(f"  {where:{width}} {calls:10,} {tt:10.3f} {share:6.1%}")
    print()


def print_rst(
    name: str, games: int, decisions: int, total: float, rows: list[tuple[str, int, float, float]]
) -> None:
    print(f".. list-table:: {name}: {games} games, {decisions:,} decisions, {total:.2f} s profiled")
    print("   :header-rows: 1")
    print("   :widths: 60 15 12 13")
    print()
    print("   * - function")
    print("     - calls")
    print("     - tottime (s)")
    print("     - share")
    for where, calls, tt, share in rows:
        print(f"   * - ``{where}``")
        print(f"     - {calls:,}")
        print(f"     - {tt:.3f}")
        print(f"     - {share:.1%}")
    print()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, help="seeded games of every game (default: each game's own)")
    parser.add_argument("--game", choices=sorted(GAMES), action="append", help="only this game (repeatable)")
    parser.add_argument("--top", type=int, default=8, help="entries per game (default 8)")
    parser.add_argument("--rst", action="store_true", help="print reStructuredText list-tables")
    args = parser.parse_args(argv)
    if (args.games is not None and args.games < 1) or args.top < 1:
        parser.error("--games and --top must be at least 1")
    from cardrules import _hotloops

    c = "with" if _hotloops.c_speedups is not None else "without"
    header = (
        f"{platform.python_implementation()} {platform.python_version()} on {platform.machine()}, "
        f"{time.strftime('%Y-%m-%d')}, {c} the C accelerator"
    )
    print((".. " if args.rst else "") + header)
    print()
    show = print_rst if args.rst else print_text
    for name, (module, kwargs, games) in GAMES.items():
        if not args.game or name in args.game:
            games = args.games or games
            stats, decisions = profile(module, kwargs, games)
            total, rows = top_entries(stats, args.top)
            show(name, games, decisions, total, rows)


if __name__ == "__main__":
    main()

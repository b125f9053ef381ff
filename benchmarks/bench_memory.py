"""The memory of game states and of stored histories, for each game, through the public API.

Run by hand, from the project's root::

    PYTHONPATH=src python benchmarks/bench_memory.py [--games 20] [--json FILE] [--compare OLD.json]

Every figure is an average over the same seeded random games: game ``i`` (``i`` from 0 to
``--games`` - 1) is ``new_game(seed=i)`` played to its end with a ``random.Random(i)``
pick among ``legal_actions`` at every decision.  "The states of a game" are the states a
caller holds: the new game and the state after each decision (the chance actions a seeded
game applies itself make no state of their own).  The games: Aegis, Gunsore, Haggis with
2 and with 3 players (``haggis-2p``, ``haggis-3p``), New Eleusis with its default players
(5) and its default rule.

What is *shared* is not charged to any state: the objects reachable from the modules of
the library (``cardrules`` and its submodules: interned cards, interned actions, tables,
caches), taken once the games are played (so that what a cache or an interned table
keeps of them is shared; a state itself never is, the script checks it), types, modules,
functions, and the small integers (-5 to 256) and ``None``/``True``/``False`` the
interpreter itself shares.  The ``Rules`` of a game (for New Eleusis its compiled secret
rule) is shared by all the game's states: it is counted apart, in its own column, never
in a state's figure.

The figures:

``state B``
    The **deep size of one state**: the bytes (``sys.getsizeof``, which includes the
    object's garbage-collector header) of every object reachable from the state, each
    counted once, leaving out what is shared (above) and the rules; the mean over every
    state of the games.  It includes the state's ``history`` tuple, which grows along a
    game.
``position B``
    The same without the ``history`` tuple (the tuple and what only it reaches): what
    the position itself takes; the mean over every state.
``kept B/state``
    The **memory a program keeps per state when it holds every state** of the games: a
    list of all the states of the games is built under ``tracemalloc``; the figure is
    the traced memory freed when that list is dropped (less the list's own array of
    pointers), divided by the number of states.  States share structure (the same
    hands, the same actions, the prefix of a history is not shared but its actions
    are), so this is the incremental cost of one more state, well below ``state B``.
    tracemalloc counts the bytes asked of the allocator, not its rounding or arenas.
``history B/action``
    The **history of a finished game in memory**: the deep size of its ``history``
    tuple (same exclusions: interned actions and cards cost nothing), per action in it
    (chance actions included).
``JSON B/action``
    The **history as stored**: the UTF-8 bytes of ``cardrules.to_json`` of the finished
    game (the whole document: format, rules, seed and every action), per action.
``rules B``
    The deep size of the game's ``Rules`` (counted apart, see above).

``--json FILE`` writes the figures (with the machine, the Python version and whether the
C accelerator was in use); ``--compare OLD.json`` prints a file's figures beside this
run's, with the ratio new/old (below 1: less memory).  The numbers do not depend on the
machine's load; they do depend on the Python version (object sizes) and, a little, on
whether the C accelerator is in use (``CARDRULES_PURE_PYTHON=1`` measures without it).
"""

from __future__ import annotations

import argparse
import gc
import json
import platform
import random
import sys
import time
import tracemalloc
import types
from collections.abc import Iterable
from typing import Any

from cardrules import aegis, eleusis, gunsore, haggis, to_json

GAMES: dict[str, tuple[Any, dict[str, int]]] = {
    "aegis": (aegis, {}),
    "gunsore": (gunsore, {}),
    "haggis-2p": (haggis, {"players": 2}),
    "haggis-3p": (haggis, {"players": 3}),
    "eleusis": (eleusis, {}),
}

# (key in the JSON, column title, format)
METRICS = (
    ("state_bytes", "state B", "{:,.0f}"),
    ("position_bytes", "position B", "{:,.0f}"),
    ("kept_bytes_per_state", "kept B/state", "{:,.0f}"),
    ("history_bytes_per_action", "history B/action", "{:,.1f}"),
    ("json_bytes_per_action", "JSON B/action", "{:,.1f}"),
    ("rules_bytes", "rules B", "{:,.0f}"),
)

_LEAF_TYPES = (type, types.ModuleType, types.FunctionType, types.BuiltinFunctionType, types.MethodType)
_INTERPRETER_SHARED = {id(None), id(True), id(False), id(Ellipsis), id(NotImplemented), id(())}
_INTERPRETER_SHARED.update(id(i) for i in range(-5, 257))


def shared_ids() -> set[int]:
    """The ids of every object reachable from the library's modules (not entering other
    modules), with the interpreter's own shared objects."""
    seen = set(_INTERPRETER_SHARED)
    stack: list[Any] = [
        m for name, m in sys.modules.items() if name == "cardrules" or name.startswith("cardrules.")
    ]
    while stack:
        obj = stack.pop()
        if id(obj) in seen:
            continue
        seen.add(id(obj))
        if isinstance(obj, types.ModuleType) and not obj.__name__.startswith("cardrules"):
            continue  # another library's module: its objects are shared anyway, and never a state's
        stack.extend(gc.get_referents(obj))
    return seen


def deep_size(root: Any, skip: set[int], *, leave_out: tuple[Any, ...] = (), functions: bool = False) -> int:
    """The bytes of every object reachable from ``root`` and not in ``skip`` (nor in
    ``leave_out``, nor reachable only through those), each once.  Types and modules are never counted nor entered; functions only with
    ``functions`` (a compiled rule is made of them)."""
    leaves = _LEAF_TYPES[:2] if functions else _LEAF_TYPES
    counted = {id(obj) for obj in leave_out}
    total = 0
    stack = [root]
    while stack:
        obj = stack.pop()
        key = id(obj)
        if key in skip or key in counted or isinstance(obj, leaves):
            continue
        counted.add(key)
        total += sys.getsizeof(obj)
        stack.extend(gc.get_referents(obj))
    return total


def rules_size(rules: Any) -> int:
    """The deep size of a game's ``Rules``, its compiled functions included, leaving out
    only modules, their dictionaries, types and the interpreter's shared objects."""
    skip = set(_INTERPRETER_SHARED)
    skip.update(id(vars(m)) for m in list(sys.modules.values()) if isinstance(m, types.ModuleType))
    return deep_size(rules, skip, functions=True)


def play(module: Any, kwargs: dict[str, int], seed: int) -> list[Any]:
    """Every state a caller holds along one seeded random game."""
    legal_actions, apply = module.legal_actions, module.apply
    randrange = random.Random(seed).randrange
    state = module.new_game(seed=seed, **kwargs)
    states = [state]
    while not state.is_over:
        actions = legal_actions(state)
        state = apply(state, actions[randrange(len(actions))])
        states.append(state)
    return states


def kept_per_state(module: Any, kwargs: dict[str, int], seeds: Iterable[int]) -> float:
    """The traced bytes freed when a list of every state of the games is dropped, less the
    list's pointers, per state."""
    gc.collect()
    tracemalloc.start()
    try:
        held: list[Any] = []
        for seed in seeds:
            held.extend(play(module, kwargs, seed))
        gc.collect()
        with_states = tracemalloc.get_traced_memory()[0]
        count, pointers = len(held), sys.getsizeof(held)
        del held
        gc.collect()
        without = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    return (with_states - without - pointers) / count


def measure(module: Any, kwargs: dict[str, int], games: int) -> dict[str, float]:
    seeds = range(games)
    played = [play(module, kwargs, seed) for seed in seeds]
    gc.collect()
    skip = shared_ids()  # after the games: what the library's caches hold of them is shared
    state_total = position_total = states = 0
    history_bytes = json_bytes = actions = 0
    for game in played:
        for state in game:
            if id(state) in skip:
                raise RuntimeError(
                    f"{module.__name__}: a library module holds a state; the figures would be wrong"
                )
            state_total += deep_size(state, skip, leave_out=(state.rules,))
            position_total += deep_size(state, skip, leave_out=(state.rules, state.history))
            states += 1
        final = game[-1]
        history_bytes += deep_size(final.history, skip)
        json_bytes += len(to_json(final).encode("utf-8"))
        actions += len(final.history)
    rules_bytes = rules_size(played[0][0].rules)
    del played
    kept = kept_per_state(module, kwargs, seeds)
    return {
        "games": games,
        "states": states,
        "actions": actions,
        "state_bytes": state_total / states,
        "position_bytes": position_total / states,
        "kept_bytes_per_state": kept,
        "history_bytes_per_action": history_bytes / actions,
        "json_bytes_per_action": json_bytes / actions,
        "rules_bytes": rules_bytes,
    }


def environment() -> dict[str, Any]:
    from cardrules import _hotloops

    return {
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "machine": platform.machine(),
        "date": time.strftime("%Y-%m-%d"),
        "c_accelerator": _hotloops.c_speedups is not None,
    }


def print_table(results: dict[str, dict[str, float]]) -> None:
    widths = [max(len(title), 10) for _, title, _ in METRICS]
    print(
        f"{'game':10} {'states':>7} "
        + " ".join(f"{t:>{w}}" for (_, t, _), w in zip(METRICS, widths, strict=True))
    )
    for name, row in results.items():
        cells = " ".join(
            f"{fmt.format(row[key]):>{w}}" for (key, _, fmt), w in zip(METRICS, widths, strict=True)
        )
        print(f"{name:10} {row['states']:7,} {cells}")


def print_comparison(old: dict[str, Any], new: dict[str, Any]) -> None:
    print(f"old: {_describe(old['environment'])}")
    print(f"new: {_describe(new['environment'])}")
    print(f"{'game':10} {'figure':18} {'old':>10} {'new':>10} {'new/old':>8}")
    for name, row in new["results"].items():
        before = old["results"].get(name)
        if before is None:
            print(f"{name:10} (not in the old file)")
            continue
        if before["games"] != row["games"]:
            print(f"{name:10} (old: {before['games']} games, new: {row['games']}: not the same games)")
        for key, title, fmt in METRICS:
            ratio = row[key] / before[key] if before[key] else float("nan")
            print(
                f"{name:10} {title:18} {fmt.format(before[key]):>10} {fmt.format(row[key]):>10} {ratio:8.2f}"
            )


def _describe(env: dict[str, Any]) -> str:
    c = "with" if env.get("c_accelerator") else "without"
    return (
        f"{env['implementation']} {env['python']} on {env['machine']}, {env['date']}, {c} the C accelerator"
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="seeded games per game (default 20)")
    parser.add_argument("--game", choices=sorted(GAMES), action="append", help="only this game (repeatable)")
    parser.add_argument("--json", metavar="FILE", help="write the figures to FILE")
    parser.add_argument("--compare", metavar="OLD.json", help="print a file's figures beside this run's")
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error("--games must be at least 1")
    env = environment()
    print(_describe(env) + f", {args.games} games each")
    results: dict[str, dict[str, float]] = {}
    for name, (module, kwargs) in GAMES.items():
        if not args.game or name in args.game:
            results[name] = measure(module, kwargs, args.games)
    print_table(results)
    doc = {"environment": env, "results": results}
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(doc, f, indent=2)
            f.write("\n")
    if args.compare:
        with open(args.compare, encoding="utf-8") as f:
            old = json.load(f)
        print()
        print_comparison(old, doc)


if __name__ == "__main__":
    main()

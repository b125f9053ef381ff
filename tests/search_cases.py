"""Seeded positions for the search's decisions, shared by ``tests/test_search_parity.py``
and ``benchmarks/search_parity.py``.

Each case names a game, a seed and the search's options; :func:`decisions` plays the game
from that seed with the search agent in the game's default seat and the game's greedy agents elsewhere, and
returns the search's first decisions (where it had a choice) as text.  The recorded file
``tests/golden/search_decisions.json`` holds these decisions as the search made them
before it was split into components (``python benchmarks/search_parity.py --record``,
run then): the component search must make exactly the same ones.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from cardrules import GAMES

KNOCKOUT = Path(__file__).resolve().parent.parent / "examples" / "knockout"

#: name -> (game, players, options of the search agent, decisions kept, seeds)
CASES: dict[str, tuple[str, int, dict[str, Any], int, tuple[int, ...]]] = {
    # each game's strongest configuration, with a small budget
    "aegis-strong": (
        "aegis",
        2,
        {
            "iterations": 60,
            "rollout": "policy",
            "belief": "policy",
            "opponents": "policy",
            "actions": "candidates",
        },
        8,
        (1, 2),
    ),
    "gunsore-strong": (
        "gunsore",
        2,
        {"iterations": 60, "prior": "greedy", "widening": 1.0, "reward": "outlook", "opponents": "policy"},
        8,
        (1, 2),
    ),
    "haggis-strong": (
        "haggis",
        2,
        {"iterations": 40, "prior": "greedy", "widening": 1.0, "cutoff": 0},
        6,
        (1, 2),
    ),
    "haggis3-strong": (
        "haggis",
        3,
        {"iterations": 30, "prior": "greedy", "widening": 1.0, "cutoff": 0},
        4,
        (3,),
    ),
    "knockout-strong": ("knockout", 3, {"iterations": 60, "prior": "greedy"}, 8, (1,)),
    # the other components
    "aegis-default": ("aegis", 2, {"iterations": 60}, 6, (1,)),
    "aegis-particles": (
        "aegis",
        2,
        {
            "iterations": 40,
            "belief": "model",
            "belief_samples": 12,
            "opponents": "greedy",
            "prior": "greedy",
            "widening": 0.5,
        },
        8,
        (1,),
    ),
    "aegis-greedy-rollout": ("aegis", 2, {"iterations": 25, "rollout": "greedy", "epsilon": 0.2}, 5, (2,)),
    "gunsore-random": ("gunsore", 2, {"iterations": 60, "exploration": 1.0}, 6, (1,)),
    "gunsore-policy-rollout": (
        "gunsore",
        2,
        {"iterations": 40, "rollout": "policy", "epsilon": 0.1, "reward": "outlook"},
        6,
        (2,),
    ),
    "haggis-cutoff": (
        "haggis",
        2,
        {"iterations": 25, "rollout": "greedy", "cutoff": 3, "max_rollout": 50},
        4,
        (1,),
    ),
    "haggis-particles": (
        "haggis",
        3,
        {
            "iterations": 20,
            "belief": "model",
            "belief_samples": 8,
            "belief_epsilon": 0.2,
            "cutoff": 0,
            "prior": "greedy",
            "widening": 1.0,
        },
        4,
        (2,),
    ),
    "eleusis-default": ("eleusis", 4, {"iterations": 20, "max_rollout": 40}, 4, (1,)),
    "knockout-default": ("knockout", 2, {"iterations": 40}, 6, (2,)),
}


def load_knockout() -> None:
    """Register the outside game of ``examples/knockout`` (once)."""
    if "knockout" not in GAMES:
        sys.path.insert(0, str(KNOCKOUT))
        import knockout  # noqa: F401  (registered as it loads)


def decisions(make: Callable[..., Any], case: str, options: Mapping[str, Any] | None = None) -> list[str]:
    """The search's decisions in ``case``: ``make(game, seed=..., **options)`` makes the
    search agent (the options of the case unless ``options`` replaces them)."""
    name, players, opts, keep, seeds = CASES[case]
    if name == "knockout":
        load_knockout()
    g = GAMES[name]
    seat = g.default_seat  # New Eleusis: player 0 is God
    out: list[str] = []
    for seed in seeds:
        search = make(name, seed=seed, **(opts if options is None else options))
        others = [g.greedy_agent(f"{seed}:{p}") for p in range(players)]
        state = g.new_game(players=players, seed=seed)
        made = 0
        while not state.is_over and made < keep:
            p = state.to_act
            legal = g.legal_actions(state)
            if p == seat and len(legal) > 1:
                action = search(g.view(state, p), legal)
                out.append(repr(action))
                made += 1
            else:
                action = others[p](g.view(state, p), legal)
            state = g.apply(state, action)
    return out

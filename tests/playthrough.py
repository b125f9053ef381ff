"""Golden playthroughs: one seeded game written out state by state.

Each file shows, for every state of one seeded game, who is to act, every player's view,
the legal actions and the action taken (OpenSpiel's "playthrough" idea), so any change
of behaviour shows up as a reviewable diff.  ``python tests/golden/regenerate.py``
rewrites them; ``tests/test_golden.py`` checks them.

A game's playthroughs are listed in :data:`CONFIGS`.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from cardrules import CHANCE, GAMES
from cardrules.agents import RandomAgent
from cardrules.serialize import encode_value

#: file name -> (game, players, seed, max actions written).  Random agents seeded from
#: the seed play every seat.
CONFIGS: dict[str, tuple[str, int, str, int]] = {
    "aegis": ("aegis", 2, "golden", 400),
    "gunsore": ("gunsore", 2, "golden", 400),
    "eleusis": ("eleusis", 5, "golden", 400),
    "haggis-2p": ("haggis", 2, "golden", 400),
    "haggis-3p": ("haggis", 3, "golden", 400),
}


#: Longer lists of legal actions are written as their first actions and a digest of all.
SHOWN_ACTIONS = 24


def _line(value: Any) -> str:
    return json.dumps(encode_value(value), ensure_ascii=False, sort_keys=True)


def _action(action: Any) -> str:
    data = encode_value(action)
    fields = "" if data == {} else " " + json.dumps(data, ensure_ascii=False, sort_keys=True)
    return type(action).__name__ + fields


def _legal(actions: tuple[Any, ...]) -> str:
    shown = " | ".join(_action(a) for a in actions[:SHOWN_ACTIONS])
    if len(actions) <= SHOWN_ACTIONS:
        return f"legal ({len(actions)}): {shown}"
    digest = hashlib.sha256("\n".join(_action(a) for a in actions).encode()).hexdigest()[:16]
    return f"legal ({len(actions)}, all with sha256 {digest}): {shown} | ..."


def playthrough(name: str) -> str:
    game, players, seed, limit = CONFIGS[name]
    g = GAMES[game]
    state = g.new_game(players=players, seed=seed)
    agents = [RandomAgent(f"{seed}:{p}") for p in range(players)]
    out = [f"# golden playthrough: {game}, {players} players, seed {seed!r}",
           "# regenerate with: python tests/golden/regenerate.py"]
    for i in range(limit):
        out.append(f"\n## state {i}: to_act {state.to_act!r}, scores {list(state.scores)}")
        for p in range(players):
            out.append(f"view {p}: {_line(g.view(state, p))}")
        if state.is_over:
            out.append(f"over: winners {list(state.winners)}")
            break
        assert state.to_act is not CHANCE  # seeded: chance resolves itself
        actions = g.legal_actions(state)
        out.append(_legal(actions))
        action = agents[state.to_act](g.view(state, state.to_act), actions)
        out.append("apply: " + _action(action))
        state = g.apply(state, action)
    return "\n".join(out) + "\n"

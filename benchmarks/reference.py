"""The reference side of the playout benchmarks: OpenSpiel's C++ games driven from Python.

The cardrules side is here too. Shared by ``bench_aegis.py``, ``bench_gunsore.py`` and ``bench_eleusis.py`` so that every
comparison drives pyspiel the same way: random legal actions, chance outcomes sampled
uniformly, both through pyspiel's Python API.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import time
from collections.abc import Callable
from typing import Any


def pyspiel_playouts(
    name: str,
    params: dict[str, int] | None = None,
    *,
    seconds: float,
    clock: Callable[[], float] = time.perf_counter,
) -> tuple[float, float, float, float] | None:
    """Random playouts of pyspiel game ``name`` for ``seconds`` of ``clock``: decisions/s,
    steps/s (chance included), games/s and decisions per game; ``None`` without pyspiel."""
    try:
        import pyspiel  # type: ignore[import-not-found]
    except ImportError:
        return None
    game = pyspiel.load_game(name, params or {})
    randrange = random.Random(0).randrange
    decisions = steps = games = 0
    start = clock()
    deadline = start + seconds
    while clock() < deadline:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[randrange(len(outcomes))][0])
            else:
                actions = state.legal_actions()
                state.apply_action(actions[randrange(len(actions))])
                decisions += 1
            steps += 1
        games += 1
    elapsed = clock() - start
    return decisions / elapsed, steps / elapsed, games / elapsed, decisions / max(games, 1)


def cardrules_playouts(
    module: Any,
    *,
    seconds: float,
    rules: Any = None,
    players: int | None = None,
    clock: Callable[[], float] = time.perf_counter,
) -> tuple[float, float, float, float]:
    """Random playouts of a cardrules game module through its public API (``new_game``,
    ``legal_actions``, ``apply`` and a random choice) for ``seconds`` of ``clock`` (wall
    time by default; ``time.process_time`` for CPU time): decisions/s,
    steps/s (chance included), games/s and decisions per game.  Game ``i`` uses seed ``i``."""
    legal_actions, apply, new_game = module.legal_actions, module.apply, module.new_game
    kwargs = {} if players is None else {"players": players}
    randrange = random.Random(0).randrange
    decisions = steps = games = 0
    start = clock()
    deadline = start + seconds
    while clock() < deadline:
        state = new_game(rules, seed=games, **kwargs)
        while not state.is_over:
            actions = legal_actions(state)
            state = apply(state, actions[randrange(len(actions))])
            decisions += 1
        steps += len(state.history)
        games += 1
    elapsed = clock() - start
    return decisions / elapsed, steps / elapsed, games / elapsed, decisions / max(games, 1)


def pure_python_playouts(script: str, seconds: float) -> tuple[float, float, float]:
    """The playouts of a benchmark ``script`` run again in a fresh interpreter that uses
    no C loops (``CARDRULES_PURE_PYTHON=1``): the script's ``--json`` prints one
    measurement, decisions/s, steps/s and games/s."""
    env = {**os.environ, "CARDRULES_PURE_PYTHON": "1"}
    out = subprocess.run(
        [sys.executable, script, "--json", "--seconds", str(seconds)],
        env=env, capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip
    a, b, c = json.loads(out)
    return a, b, c

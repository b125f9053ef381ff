"""What a learning program pays per decision through the adapters, side by side with the
frameworks' own card games, in one run.

Random play; at every decision the observation tensor and the action mask (the legal
ids) are read, as a learner reads them:

* **PettingZoo**: ``env()`` of each cardrules game beside PettingZoo's own classic card
  environments ``texas_holdem_v4`` and ``leduc_holdem_v4`` (they need ``rlcard``): the
  ``agent_iter``/``last()``/``step`` loop, reading ``obs["observation"]`` and
  ``obs["action_mask"]`` and stepping a random legal id.  Figure: steps per second
  (decisions; the closing dead steps are not counted).
* **OpenSpiel**: each cardrules game beside OpenSpiel's own Python game
  ``python_block_dominoes``: ``observation_tensor(player)`` and ``legal_actions()`` at
  every decision, a random legal id applied; chance nodes draw by their probabilities
  and are no decisions (their time counts).  Each entered id (token) is a decision.
  Figure: decisions per second.

Each cell is the best of ``rounds`` rounds of ``seconds`` seconds of this process's CPU
time (the rows taking turns; CPU time, so that other programs on a shared machine do
not count).  The ratio is the cardrules figure over the faster reference.  Goals: through
PettingZoo every cardrules game at least 1.5 times the faster classic card environment;
through OpenSpiel every cardrules game at least as many decisions per second as
``python_block_dominoes``.  Needs the extras and ``rlcard``::

    pip install -e '.[openspiel,pettingzoo]' rlcard pygame
    python benchmarks/bench_integrations.py [seconds] [rounds] [game-players ...]

Naming rows (``haggis-2 haggis-3``) runs only those cardrules games, beside every
reference; by default every game runs.
"""

from __future__ import annotations

import random
import sys
import time
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.games import block_dominoes  # noqa: F401  (registers python_block_dominoes)

from cardrules.integrations import openspiel as cos
from cardrules.integrations import pettingzoo as cpz

# CPU time of this process: on a shared machine, other programs' load does not count
_clock = time.process_time

CASES = [("aegis", 2), ("gunsore", 2), ("haggis", 2), ("haggis", 3), ("eleusis", 5)]


def pettingzoo_loop(make: Callable[[], Any], seconds: float) -> float:
    """Decisions per second of random play through a PettingZoo AEC environment,
    reading the observation and the action mask at every decision."""
    env = make()
    rng = random.Random(0)
    seed = 0
    steps = 0
    start = _clock()
    end = start + seconds
    while _clock() < end:
        env.reset(seed=seed)
        seed += 1
        for _agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            obs["observation"]
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[rng.randrange(len(legal))]))
            steps += 1
    return steps / (_clock() - start)


def openspiel_loop(game: Any, seconds: float) -> float:
    """Decisions per second of random play through an OpenSpiel game, reading the
    observation tensor and the legal actions at every decision."""
    rng = random.Random(0)
    decisions = 0
    start = _clock()
    end = start + seconds
    while _clock() < end:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                ids = [a for a, _ in outcomes]
                state.apply_action(rng.choices(ids, [p for _, p in outcomes])[0])
                continue
            state.observation_tensor(state.current_player())
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
            decisions += 1
    return decisions / (_clock() - start)


def best(rows: dict[str, Callable[[], float]], rounds: int) -> dict[str, float]:
    """Each row's best of ``rounds`` runs, the rows taking turns."""
    out = dict.fromkeys(rows, 0.0)
    for _ in range(rounds):
        for name, run in rows.items():
            out[name] = max(out[name], run())
    return out


def main() -> None:
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 2.0
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 2
    only = sys.argv[3:]
    cases = [(g, n) for g, n in CASES if not only or f"{g}-{n}" in only]
    if only and len(cases) != len(only):
        raise SystemExit(
            f"unknown rows {sorted(set(only) - {f'{g}-{n}' for g, n in CASES})}; rows: "
            + " ".join(f"{g}-{n}" for g, n in CASES)
        )
    warnings.filterwarnings("ignore")
    from pettingzoo.classic import leduc_holdem_v4, texas_holdem_v4

    pz_refs = {"texas_holdem_v4": texas_holdem_v4.env, "leduc_holdem_v4": leduc_holdem_v4.env}
    pz_rows: dict[str, Callable[[], float]] = {
        name: (lambda make=make: pettingzoo_loop(make, seconds)) for name, make in pz_refs.items()
    }
    for g, n in cases:
        pz_rows[f"{g}-{n}"] = lambda g=g, n=n: pettingzoo_loop(lambda: cpz.env(g, players=n), seconds)
    os_rows: dict[str, Callable[[], float]] = {
        "python_block_dominoes": lambda: openspiel_loop(pyspiel.load_game("python_block_dominoes"), seconds)
    }
    for g, n in cases:
        os_rows[f"{g}-{n}"] = lambda g=g, n=n: openspiel_loop(
            pyspiel.load_game(cos.GAME_NAMES[g], {"players": n}), seconds
        )
    for title, rows, refs, goal in (
        ("PettingZoo: steps/s (observation + action mask read at every step)", pz_rows, list(pz_refs), 1.5),
        ("OpenSpiel: decisions/s (observation tensor + legal actions at every decision)", os_rows,
         ["python_block_dominoes"], 1.0),
    ):
        figures = best(rows, rounds)
        ref = max(figures[r] for r in refs)
        print(title)
        print(f"  {'':24} {'per second':>11} {'ratio':>7}  (goal {goal}x the faster reference)")
        for name, value in figures.items():
            ratio = "" if name in refs else f"{value / ref:6.2f}x"
            print(f"  {name:24} {value:11,.0f} {ratio:>7}")
        print()


if __name__ == "__main__":
    main()

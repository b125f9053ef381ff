"""Random play through the OpenSpiel and PettingZoo adapters next to the native API.

One cardrules action may take several adapter steps (a chance draw per dealt card, a
token per chosen card), so every column counts *cardrules actions* (chance included: a
Shuffle is one action) per second of the same random games, played from the same seeds.
Needs the extras: pip install -e '.[openspiel,pettingzoo]'.

    python benchmarks/bench_integrations.py [seconds per cell]
"""

from __future__ import annotations

import random
import sys
import time

import numpy as np
import pyspiel

from cardrules import GAMES
from cardrules.integrations import openspiel as cos
from cardrules.integrations.pettingzoo import raw_env

CASES = [("aegis", 2), ("gunsore", 2), ("haggis", 2), ("haggis", 3), ("eleusis", 5)]


def native(name: str, players: int, seed: int) -> int:
    g = GAMES[name]
    rng = random.Random(seed)
    s = g.new_game(players=players, seed=seed)
    while not s.is_over:
        s = g.apply(s, rng.choice(g.legal_actions(s)))
    return len(s.history)


def openspiel(name: str, players: int, seed: int, game: object) -> int:
    rng = random.Random(seed)
    s = game.new_initial_state()  # type: ignore[attr-defined]
    while not s.is_terminal():
        if s.is_chance_node():
            outcomes = s.chance_outcomes()
            s.apply_action(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
        else:
            s.apply_action(rng.choice(s.legal_actions()))
    return len(s.cardrules_state.history)


def pettingzoo(name: str, players: int, seed: int, env: object) -> int:
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)  # type: ignore[attr-defined]
    for _agent in env.agent_iter():  # type: ignore[attr-defined]
        obs, _, term, trunc, _ = env.last()  # type: ignore[attr-defined]
        env.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))  # type: ignore[attr-defined]
    return len(env.cardrules_state.history)  # type: ignore[attr-defined]


def rate(fn, budget: float) -> float:  # type: ignore[no-untyped-def]
    actions, seed, start = 0, 0, time.perf_counter()
    while time.perf_counter() - start < budget:
        actions += fn(seed)
        seed += 1
    return actions / (time.perf_counter() - start)


def main() -> None:
    budget = float(sys.argv[1]) if len(sys.argv) > 1 else 2.0
    print(f"{'game':12} {'native':>10} {'openspiel':>10} {'ratio':>6} {'pettingzoo':>10} {'ratio':>6}  (cardrules actions/s)")
    for name, players in CASES:
        game = pyspiel.load_game(cos.GAME_NAMES[name], {"players": players})
        env = raw_env(name, players=players)
        n = rate(lambda s, name=name, players=players: native(name, players, s), budget)
        o = rate(lambda s, name=name, players=players, game=game: openspiel(name, players, s, game), budget)
        p = rate(lambda s, name=name, players=players, env=env: pettingzoo(name, players, s, env), budget)
        print(f"{name + '-' + str(players):12} {n:10,.0f} {o:10,.0f} {n / o:6.1f} {p:10,.0f} {n / p:6.1f}")


if __name__ == "__main__":
    main()

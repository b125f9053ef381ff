"""Where an adapter's time goes, call by call: the loops of ``bench_integrations.py``
with a timer around each framework call, the adapter beside the floor (the framework
doing nothing, with the adapter's own lists), so that each kind of call gets its share
of the adapter's own cost.

For one game: the OpenSpiel loop, split into chance steps and decision steps
(``is_terminal``, ``is_chance_node``, ``chance_outcomes`` or ``legal_actions``,
``apply_action``), and the PettingZoo loop (``reset``, ``last()``, reading the action
mask, ``step``).  Milliseconds for all the games, best of ``repeats`` for each line (the
adapter and the floor taking turns); the timer's own cost (some 50 ns a call) is in
both columns, so the difference is what the adapter adds.  It includes the native work
done inside the adapter (``legal_actions``, ``apply``, a deal's seeded shuffle).

    python benchmarks/steps_integrations.py aegis-2 [games] [repeats]
"""

from __future__ import annotations

import sys
import time
from collections import defaultdict
from typing import Any

import bench_integrations as b
import pyspiel

from cardrules.integrations.pettingzoo import raw_env

_clock = time.perf_counter_ns


def openspiel_steps(s: Any, tokens: list[int], t: dict[str, int]) -> None:
    for token in tokens:
        t0 = _clock()
        s.is_terminal()
        t1 = _clock()
        chance = s.is_chance_node()
        t2 = _clock()
        if chance:
            s.chance_outcomes()
        else:
            s.legal_actions()
        t3 = _clock()
        s.apply_action(token)
        t4 = _clock()
        kind = "chance " if chance else "decision "
        t[kind + "is_terminal"] += t1 - t0
        t[kind + "is_chance_node"] += t2 - t1
        t[kind + ("chance_outcomes" if chance else "legal_actions")] += t3 - t2
        t[kind + "apply_action"] += t4 - t3


def pettingzoo_steps(e: Any, ids: list[int], t: dict[str, int]) -> None:
    it = iter(ids)
    for _agent in e.agent_iter():
        t0 = _clock()
        obs, _, term, trunc, _ = e.last()
        t1 = _clock()
        if term or trunc:
            e.step(None)
            t["closing steps"] += _clock() - t1
            continue
        obs["action_mask"]
        t2 = _clock()
        e.step(next(it, 0))
        t3 = _clock()
        t["last()"] += t1 - t0
        t["action mask"] += t2 - t1
        t["step"] += t3 - t2


def main() -> None:
    name, players = sys.argv[1].rsplit("-", 1)
    n_games = int(sys.argv[2]) if len(sys.argv) > 2 else 20
    repeats = int(sys.argv[3]) if len(sys.argv) > 3 else 5
    p = int(players)
    game = pyspiel.load_game(b.cos.GAME_NAMES[name], {"players": p})
    floor = pyspiel.load_game("python_bench_floor")
    env = raw_env(name, players=p)
    games = [b.Recorded(name, p, seed, game) for seed in range(n_games)]
    scripts = [b.openspiel_script(game, r) for r in games]
    orders = [b.pettingzoo_script(name, p, game, r) for r in games]
    env.reset(seed=0)
    floor_env = b.FloorEnv(p, dict(env.observe(env.agent_selection)))

    def adapter() -> dict[str, int]:
        t: dict[str, int] = defaultdict(int)
        for r in games:
            openspiel_steps(game.new_initial_state(), r.tokens, t)
            t0 = _clock()
            env.reset(seed=r.seed)
            t["reset"] += _clock() - t0
            pettingzoo_steps(env, r.decisions, t)
        return t

    def nothing() -> dict[str, int]:
        t: dict[str, int] = defaultdict(int)
        for script, order in zip(scripts, orders, strict=True):
            b._SCRIPT[:] = script
            openspiel_steps(floor.new_initial_state(), [0] * len(script), t)
            floor_env.script = order
            t0 = _clock()
            floor_env.reset()
            t["reset"] += _clock() - t0
            pettingzoo_steps(floor_env, [0] * len(order), t)
        return t

    best: dict[tuple[str, str], int] = {}
    for _ in range(repeats):
        for which, run in (("adapter", adapter), ("floor", nothing)):
            for key, ns in run().items():
                best[which, key] = min(best.get((which, key), ns), ns)
    print(f"{sys.argv[1]}, {n_games} games, best of {repeats}; milliseconds")
    print(f"{'call':32} {'adapter':>8} {'floor':>8} {'adds':>8}")
    for key in sorted({k for _, k in best}, key=lambda k: (k.split()[0] in ("chance", "decision"), k)):
        a, f = best.get(("adapter", key), 0) / 1e6, best.get(("floor", key), 0) / 1e6
        print(f"{key:32} {a:8.2f} {f:8.2f} {a - f:8.2f}")


if __name__ == "__main__":
    main()

"""The same random games through the native API, the OpenSpiel adapter and the PettingZoo
adapter, next to what OpenSpiel and PettingZoo cost on their own.

For each game, ``games`` random games are played once through the native API (seeded,
untimed) and their histories kept.  Then each path replays exactly those games, and only
the stepping loop is timed (best of ``repeats``, the paths taking turns, after a warm-up
run):

* ``native``: from a new unseeded game, ``legal_actions`` at every decision, ``apply`` of
  each recorded action (a ``Shuffle`` is one action);
* ``openspiel``: from ``new_initial_state()``, one chance step per dealt card (the card's
  id, in the ``Shuffle``'s order) and one step per token of each recorded action (the
  encoded ids), calling ``is_terminal``, ``is_chance_node`` and ``chance_outcomes`` or
  ``legal_actions`` at every step as a random player would;
* ``pettingzoo``: ``reset(seed=...)`` (the same seeded deal as the native game) and the
  ``agent_iter``/``last()``/``step`` loop with the same ids, reading the action mask as a
  random agent would (the loop's closing dead steps included);
* ``+tensor``: the same PettingZoo loop reading the observation tensor too (what a
  learning agent reads; the other loops never compute it);
* the *floors*: the same number of steps through a trivial OpenSpiel Python game and a
  trivial PettingZoo ``AECEnv`` that do nothing per step but return lists, outcomes and
  masks built in advance (of the same lengths as the adapter's): what the framework costs
  by itself.

Figures are microseconds per cardrules action (all the games' actions, chance included);
``own`` is the adapter's own cost beside the native API, ``(adapter - floor) / native``.
Needs the extras: pip install -e '.[openspiel,pettingzoo]'.

    python benchmarks/bench_integrations.py [games per cell] [repeats] [game-players ...]

The rows default to every game of ``CASES``; ``aegis-2 gunsore-2`` picks rows (to compare
two versions of the library row by row, each row in its own process, in turns).
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable
from typing import Any, ClassVar

import pyspiel
from gymnasium import spaces
from pettingzoo import AECEnv

from cardrules import CHANCE, GAMES, Shuffle
from cardrules.integrations import openspiel as cos
from cardrules.integrations.pettingzoo import raw_env

CASES = [("aegis", 2), ("gunsore", 2), ("haggis", 2), ("haggis", 3), ("eleusis", 5)]


# -- the games --------------------------------------------------------------------------


class Recorded:
    """One native random game and what each path needs to replay it."""

    def __init__(self, name: str, players: int, seed: int, game: Any) -> None:
        g = GAMES[name]
        rng = random.Random(seed)
        s = g.new_game(players=players, seed=seed)
        while not s.is_over:
            s = g.apply(s, rng.choice(g.legal_actions(s)))
        self.seed = seed
        self.history = s.history
        self.final = s
        enc = game.encoding
        self.tokens = enc.action_tokens(g.new_game(players=players), self.history)  # chance included
        decisions: list[int] = []
        state = g.new_game(players=players)
        for action in self.history:
            if not isinstance(action, Shuffle):
                decisions.extend(enc.tokens(state, action))
            state = g.apply(state, action)
        self.decisions = decisions


def native(name: str, players: int, games: list[Recorded]) -> float:
    g = GAMES[name]
    start = time.perf_counter()
    for rec in games:
        s = g.new_game(players=players)
        for action in rec.history:
            if s.to_act is not CHANCE:
                g.legal_actions(s)
            s = g.apply(s, action)
    elapsed = time.perf_counter() - start
    assert s == games[-1].final
    return elapsed


def openspiel(game: Any, games: list[Recorded]) -> float:
    start = time.perf_counter()
    for rec in games:
        s = game.new_initial_state()
        for token in rec.tokens:
            s.is_terminal()
            if s.is_chance_node():
                s.chance_outcomes()
            else:
                s.legal_actions()
            s.apply_action(token)
        s.is_terminal()
    elapsed = time.perf_counter() - start
    assert s.is_terminal() and s.cardrules_state == games[-1].final
    return elapsed


def pettingzoo(env: Any, games: list[Recorded], tensor: bool = False) -> float:
    start = time.perf_counter()
    for rec in games:
        env.reset(seed=rec.seed)
        ids = iter(rec.decisions)
        for _agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
            else:
                obs["action_mask"]
                if tensor:
                    obs["observation"]
                env.step(next(ids))
    elapsed = time.perf_counter() - start
    assert env.cardrules_state == games[-1].final
    return elapsed


# -- the floors: frameworks doing nothing -------------------------------------------------

_SCRIPT: list[tuple[int, Any]] = []  # (player, legal ids or chance outcomes) per step


class FloorGame(pyspiel.Game):
    def __init__(self, params: Any = None) -> None:
        super().__init__(_FLOOR_TYPE, pyspiel.GameInfo(200, 200, 5, -1.0, 1.0, None, 100_000), params or {})

    def new_initial_state(self) -> FloorState:
        return FloorState(self)


class FloorState(pyspiel.State):
    def __init__(self, game: FloorGame) -> None:
        super().__init__(game)
        self._script = _SCRIPT
        self._i = 0
        self._n = len(_SCRIPT)

    def current_player(self) -> int:
        return self._script[self._i][0] if self._i < self._n else int(pyspiel.PlayerId.TERMINAL)

    def _legal_actions(self, player: int) -> Any:
        return self._script[self._i][1]

    def chance_outcomes(self) -> Any:
        return self._script[self._i][1]

    def _apply_action(self, action: int) -> None:
        self._i += 1

    def is_terminal(self) -> bool:
        return self._i == self._n

    def returns(self) -> list[float]:
        return [0.0] * 5

    def __str__(self) -> str:
        return str(self._i)


_FLOOR_TYPE = pyspiel.GameType(
    short_name="python_bench_floor",
    long_name="a game that does nothing",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=5,
    min_num_players=1,
    provides_information_state_string=False,
    provides_information_state_tensor=False,
    provides_observation_string=False,
    provides_observation_tensor=False,
    parameter_specification={},
)
pyspiel.register_game(_FLOOR_TYPE, FloorGame)


def pettingzoo_script(name: str, players: int, game: Any, r: Recorded) -> list[int]:
    """The agent order of the PettingZoo game replaying ``r``: the player to act, once
    per token of each of its actions (chance has no agent)."""
    g = GAMES[name]
    state, order = g.new_game(players=players), []
    for action in r.history:
        if not isinstance(action, Shuffle):
            order.extend([state.to_act] * len(game.encoding.tokens(state, action)))
        state = g.apply(state, action)
    return order


def openspiel_script(game: Any, rec: Recorded) -> list[tuple[int, Any]]:
    """Each step's player and the very list the adapter returned (untimed)."""
    out = []
    s = game.new_initial_state()
    for token in rec.tokens:
        out.append((s.current_player(), s.chance_outcomes() if s.is_chance_node() else s.legal_actions()))
        s.apply_action(token)
    return out


def openspiel_floor(floor: Any, scripts: list[list[tuple[int, Any]]]) -> float:
    start = time.perf_counter()
    for script in scripts:
        _SCRIPT[:] = script
        s = floor.new_initial_state()
        for _ in range(len(script)):
            s.is_terminal()
            if s.is_chance_node():
                s.chance_outcomes()
            else:
                s.legal_actions()
            s.apply_action(0)
        s.is_terminal()
    return time.perf_counter() - start


class FloorEnv(AECEnv):  # type: ignore[misc]
    """An AEC environment that steps through a given order of agents and does nothing."""

    metadata: ClassVar[dict[str, Any]] = {"name": "floor_v0", "render_modes": [], "is_parallelizable": False}

    def __init__(self, players: int, observation: Any) -> None:
        super().__init__()
        self.possible_agents = [f"player_{i}" for i in range(players)]
        self.agents = self.possible_agents[:]
        self._space = spaces.Dict({k: spaces.Box(0, 1, v.shape) for k, v in observation.items()})
        self._obs = observation
        self.script: list[int] = []

    def observation_space(self, agent: str) -> Any:
        return self._space

    def action_space(self, agent: str) -> Any:
        return spaces.Discrete(len(self._obs["action_mask"]))

    def reset(self, seed: int | None = None, options: Any = None) -> None:
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self._i = 0
        self.agent_selection = self.possible_agents[self.script[0]]

    def observe(self, agent: str) -> Any:
        return self._obs

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        self._i += 1
        if self._i == len(self.script):
            for a in self.agents:
                self.rewards[a] = 1.0
                self.terminations[a] = True
        else:
            self.agent_selection = self.possible_agents[self.script[self._i]]
        self._accumulate_rewards()


def pettingzoo_floor(env: FloorEnv, scripts: list[list[int]]) -> float:
    start = time.perf_counter()
    for script in scripts:
        env.script = script
        env.reset()
        for _agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
            else:
                obs["action_mask"]
                env.step(0)
    return time.perf_counter() - start


# -- the run ------------------------------------------------------------------------------


def best(paths: list[Callable[[], float]], repeats: int) -> list[float]:
    """Each path's best time, the paths taking turns (so that a busy spell of a shared
    machine does not fall on one path only), after a warm-up run of each."""
    for path in paths:
        path()
    times = [[path() for path in paths] for _ in range(repeats)]
    return [min(column) for column in zip(*times, strict=True)]


def row(name: str, players: int, n_games: int, repeats: int, floor: Any) -> str:
    game = pyspiel.load_game(cos.GAME_NAMES[name], {"players": players})
    env = raw_env(name, players=players)
    games = [Recorded(name, players, seed, game) for seed in range(n_games)]
    actions = sum(len(r.history) for r in games)
    os_scripts = [openspiel_script(game, r) for r in games]
    pz_scripts = [pettingzoo_script(name, players, game, r) for r in games]
    env.reset(seed=0)
    floor_env = FloorEnv(players, dict(env.observe(env.agent_selection)))

    def us(seconds: float) -> float:
        return 1e6 * seconds / actions

    paths: list[Callable[[], float]] = [
        lambda: native(name, players, games),
        lambda: openspiel(game, games),
        lambda: openspiel_floor(floor, os_scripts),
        lambda: pettingzoo(env, games),
        lambda: pettingzoo_floor(floor_env, pz_scripts),
        lambda: pettingzoo(env, games, tensor=True),
    ]
    nat, osp, osf, pz, pzf, pzt = (us(t) for t in best(paths, repeats))
    return (
        f"{name + '-' + str(players):10} {actions:8,} {nat:7.1f} | {osp:9.1f} {osf:6.1f} {(osp - osf) / nat:5.2f} |"
        f" {pz:10.1f} {pzf:6.1f} {(pz - pzf) / nat:5.2f} | {pzt:7.1f}"
    )


def main() -> None:
    n_games = int(sys.argv[1]) if len(sys.argv) > 1 else 10
    repeats = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    cases = [(c.rsplit("-", 1)[0], int(c.rsplit("-", 1)[1])) for c in sys.argv[3:]] or CASES
    floor = pyspiel.load_game("python_bench_floor")
    print(f"{n_games} games per cell, best of {repeats}; microseconds per cardrules action")
    print(
        f"{'game':10} {'actions':>8} {'native':>7} | {'openspiel':>9} {'floor':>6} {'own':>5} |"
        f" {'pettingzoo':>10} {'floor':>6} {'own':>5} | {'+tensor':>7}"
    )
    for name, players in cases:
        print(row(name, players, n_games, repeats, floor), flush=True)


if __name__ == "__main__":
    main()

"""The four cardrules games as PettingZoo AEC environments (extra ``cardrules[pettingzoo]``).

>>> from cardrules.integrations.pettingzoo import env  # doctest: +SKIP
>>> e = env("haggis", players=3)                       # doctest: +SKIP

In the style of PettingZoo's classic games: agents ``player_0`` ... ``player_{n-1}``, a
``Discrete`` action space with the integer encoding of
:mod:`cardrules.integrations.encoding` (composite actions are entered token by token by the
same agent), and a dict observation with ``observation`` and ``action_mask``.
``observation`` is the tensor of the agent's view, the same as OpenSpiel's observation
tensor (:mod:`cardrules.integrations.tensors`: readable blocks, the tokens the agent has
chosen so far, and the whole view coded exactly); the view itself is in
``infos[agent]["view"]``.
``reset(seed=...)`` deals with the library's seeded shuffle (``new_game(seed=...)``), so
chance never stops the environment.  Rewards come at the end: each agent's final score.
``render_mode="ansi"`` returns the table as the selected agent sees it.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from ..protocol import GAMES
from .encoding import Encoding, Position, encoding_for
from .tensors import tensor_size, view_tensor

__all__ = ["env", "raw_env"]


def env(game: str, **options: Any) -> AECEnv:
    """The environment of ``game`` with PettingZoo's usual wrappers (illegal actions end
    the game with a penalty, out-of-bounds actions are refused, the API order is enforced).
    ``options``: ``players``, ``render_mode``, ``rules`` (a ``Rules`` object), or the
    ``Rules`` fields themselves."""
    e: AECEnv = raw_env(game, **options)
    e = wrappers.TerminateIllegalWrapper(e, illegal_reward=-1)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    e = wrappers.OrderEnforcingWrapper(e)
    return e


class raw_env(AECEnv):  # PettingZoo's name for the unwrapped environment
    """A cardrules game as an AEC environment, without wrappers."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi"],
        "name": "cardrules_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        game: str,
        *,
        players: int | None = None,
        render_mode: str | None = None,
        rules: Any = None,
        **rule_options: Any,
    ) -> None:
        super().__init__()
        gd = GAMES[game]
        if rules is None:
            rules = gd.Rules(**rule_options)
        self.encoding: Encoding = encoding_for(game, rules, players)
        self.game_name = game
        self.metadata = {**raw_env.metadata, "name": f"cardrules_{game}_v0"}  # type: ignore[misc]
        n = self.encoding.players
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self.agents = self.possible_agents[:]
        size = tensor_size(self.encoding)
        obs_space = spaces.Dict(
            {
                "observation": spaces.Box(low=-np.inf, high=np.inf, shape=(size,), dtype=np.float32),
                "action_mask": spaces.Box(low=0, high=1, shape=(self.encoding.num_actions,), dtype=np.int8),
            }
        )
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(self.encoding.num_actions) for a in self.possible_agents}
        self.render_mode = render_mode
        self._seeds = random.Random()
        self.position: Position | None = None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    @property
    def cardrules_state(self) -> Any:
        """The underlying cardrules state."""
        assert self.position is not None
        return self.position.state

    def _player(self, agent: str) -> int:
        return self.possible_agents.index(agent)

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._seeds.seed(seed)
            game_seed: object = seed
        else:
            game_seed = self._seeds.randrange(2**63)
        self.position = self.encoding.initial(seed=game_seed)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._sync()

    def _sync(self) -> None:
        assert self.position is not None
        enc = self.encoding
        who = enc.to_act(self.position)
        if who is None:
            scores = self.position.state.scores
            for i, a in enumerate(self.possible_agents):
                if a in self.agents:
                    self.rewards[a] = float(scores[i])
                    self.terminations[a] = True
                    self.truncations[a] = enc.truncated(self.position.state)
            if self.agent_selection_is_unset():
                self.agent_selection = self.agents[0]
        else:
            self.agent_selection = self.possible_agents[who]
        for a in self.agents:
            self.infos[a] = {"view": GAMES[self.game_name].view(self.position.state, self._player(a))}

    def agent_selection_is_unset(self) -> bool:
        return not hasattr(self, "agent_selection") or self.agent_selection not in self.agents

    def observe(self, agent: str) -> dict[str, Any]:
        assert self.position is not None
        enc = self.encoding
        pos = self.position
        p = self._player(agent)
        vec = view_tensor(enc, pos, p)
        mask = np.zeros(enc.num_actions, dtype=np.int8)
        if enc.to_act(pos) == p and not enc.is_terminal(pos):
            mask[enc.legal_tokens(pos)] = 1
        return {"observation": vec, "action_mask": mask}

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        assert self.position is not None
        self._cumulative_rewards[agent] = 0.0
        self.position = self.encoding.apply(self.position, int(action))
        self._sync()
        self._accumulate_rewards()

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        assert self.position is not None
        who = self.agent_selection if self.agents else None
        player = self._player(who) if who is not None else None
        text = GAMES[self.game_name].render(self.position.state, player)
        if self.position.pending:
            text += "\nchosen so far: " + " ".join(self.encoding.token_name(t) for t in self.position.pending)
        return text

    def close(self) -> None:
        return None

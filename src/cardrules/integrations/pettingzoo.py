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
The observation dicts and the info dicts are computed as they are read: ``last()`` and
``observe`` return at once, and an agent that reads only ``obs["action_mask"]`` never pays
for the tensor (or for the view in ``infos``).  They are ``dict`` objects (a subclass
that computes each value the first time any way of reading asks for it).  An agent's
info is one dict while the state stays the same (as the tokens of one action are
entered), and a new one, with the new view, once the state changes; what a caller
writes into ``infos`` stays until then.
``reset(seed=...)`` deals with the library's seeded shuffle (``new_game(seed=...)``), so
chance never stops the environment.  Rewards come at the end: each agent's final score.
``render_mode="ansi"`` returns the table as the selected agent sees it.
"""

from __future__ import annotations

import operator
import random
from collections.abc import Callable, Iterator
from typing import Any, ClassVar

import attrs

from . import missing_extra

try:
    import numpy as np
    from gymnasium import spaces
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers
except ModuleNotFoundError as _exc:
    raise missing_extra(_exc, "pettingzoo") from None

from ..encoding import Encoding, Position, encoding_for
from ..errors import CardRulesError, IllegalActionError
from ..protocol import GAMES
from .tensors import seen_pending, tensor_of

__all__ = ["env", "raw_env"]


def env(game: str, **options: Any) -> AECEnv:
    """The environment of ``game`` with PettingZoo's usual wrappers (illegal actions end
    the game with a penalty, out-of-bounds actions are refused, the API order is enforced).
    ``options``: ``players``, ``render_mode``, ``rules`` (a ``Rules`` object), or the
    ``Rules`` fields themselves."""
    e: AECEnv = raw_env(game, **options)
    e = wrappers.TerminateIllegalWrapper(e, illegal_reward=-1)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    # before PettingZoo's wrappers read the action (True would index the action mask as
    # a boolean array; a float gets a bare assertion): anything but an action id is
    # refused, naming it
    e = _ActionIds(e)
    e = wrappers.OrderEnforcingWrapper(e)
    return e


_TODO: Any = object()  # a value not computed yet


class _Lazy(dict[str, Any]):
    """A ``dict`` whose values are computed (``compute(key)``) the first time they are
    read, by any means: ``[]``, ``get``, ``items``, ``values``, ``==``, ``repr``, copies
    and pickles (which are plain dicts), ``dict(d)`` and ``{**d}`` (which read through
    ``keys`` and ``[]``, as ``__iter__`` is overridden).  Its keys are there from the
    start, in order."""

    __slots__ = ("_compute",)

    def __init__(self, keys: tuple[str, ...], compute: Callable[[str], Any]) -> None:
        dict.__init__(self, dict.fromkeys(keys, _TODO))
        self._compute = compute

    def __getitem__(self, key: str) -> Any:
        value = dict.__getitem__(self, key)
        if value is _TODO:
            value = self._compute(key)
            dict.__setitem__(self, key, value)
        return value

    def _filled(self) -> dict[str, Any]:
        return {key: self[key] for key in dict.keys(self)}

    def get(self, key: str, default: Any = None) -> Any:
        return self[key] if dict.__contains__(self, key) else default

    def __iter__(self) -> Iterator[str]:
        return dict.__iter__(self)

    def values(self) -> Any:
        return self._filled().values()

    def items(self) -> Any:
        return self._filled().items()

    def copy(self) -> dict[str, Any]:
        return self._filled()

    def pop(self, key: str, *default: Any) -> Any:
        if key in self:
            value = self[key]
            dict.__delitem__(self, key)
            return value
        return dict.pop(self, key, *default)

    def setdefault(self, key: str, default: Any = None) -> Any:
        if key in self:
            return self[key]
        dict.__setitem__(self, key, default)
        return default

    def __eq__(self, other: object) -> bool:
        return self._filled() == other

    def __ne__(self, other: object) -> bool:
        return self._filled() != other

    __hash__ = None

    def __repr__(self) -> str:
        return repr(self._filled())

    def __or__(self, other: Any) -> Any:
        return self._filled() | other

    def __ror__(self, other: Any) -> Any:
        return other | self._filled()

    def __reduce_ex__(self, protocol: Any) -> Any:  # copies and pickles are plain dicts
        return dict, (self._filled(),)


_OBS_KEYS = ("observation", "action_mask")
_INFO_KEYS = ("view",)


def _action_id(enc: Encoding, action: Any) -> int:
    """``action`` as a plain int, or an :class:`~cardrules.errors.IllegalActionError`
    saying it is no action id (a float, a string, ``None`` ...: never truncated)."""
    try:
        if isinstance(action, float | np.floating | bool | np.bool_):
            raise TypeError
        return operator.index(action)
    except TypeError:
        raise IllegalActionError(
            f"{enc.name}: {action!r} is not an action id of this game (0 to {enc.num_actions - 1})"
        ) from None


class _ActionIds(wrappers.BaseWrapper):
    """Refuses, naming it, an action that is not an action id (``True``, ``1.0``, a
    string ...), before the wrappers inside it read it; ``None`` (a done agent's step)
    passes through."""

    def step(self, action: Any) -> None:
        if action is not None:
            enc = self.unwrapped.encoding
            if type(action) is not int:
                _action_id(enc, action)
        super().step(action)


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
        if render_mode not in self.metadata["render_modes"] and render_mode is not None:
            modes = ", ".join(map(repr, self.metadata["render_modes"]))
            raise CardRulesError(f"{game}: render_mode must be None or one of {modes}, not {render_mode!r}")
        if rules is None:
            known = {f.name for f in attrs.fields(gd.Rules)} if attrs.has(gd.Rules) else set(rule_options)
            unknown = sorted(set(rule_options) - known)
            if unknown:
                raise CardRulesError(
                    f"{game}: unknown option(s) {', '.join(unknown)} (options: players, render_mode, "
                    f"rules, or the Rules fields {', '.join(sorted(known))})"
                )
            rules = gd.Rules(**rule_options)
        elif rule_options:
            raise CardRulesError(
                f"{game}: give either rules= or the Rules fields "
                f"({', '.join(sorted(rule_options))}), not both"
            )
        self.encoding: Encoding = encoding_for(game, rules, players)
        self.game_name = game
        self.metadata = {**raw_env.metadata, "name": f"cardrules_{game}_v0"}  # type: ignore[misc]
        enc = self.encoding
        self.possible_agents = [f"player_{i}" for i in range(enc.players)]
        self._index = {a: i for i, a in enumerate(self.possible_agents)}
        self._view = gd.view
        self.agents = self.possible_agents[:]
        self._tensor = tensor_of(enc)
        # the tensor is filled here, in place, then handed out as a copy of its own
        self._scratch = self._tensor.new()
        self._no_mask = np.zeros(enc.num_actions, np.int8)
        size = self._tensor.size
        obs_space = spaces.Dict(
            {
                "observation": spaces.Box(low=-np.inf, high=np.inf, shape=(size,), dtype=np.float32),
                "action_mask": spaces.Box(low=0, high=1, shape=(enc.num_actions,), dtype=np.int8),
            }
        )
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(enc.num_actions) for a in self.possible_agents}
        self.render_mode = render_mode
        self._seeds = random.Random()
        self._reseed: Any = None  # a seed given to reset that _seeds does not have yet
        self.position: Position | None = None
        self._infos_at: Any = None  # the state the infos' views are of

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
        return self._index[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            # the seeds of the unseeded resets to come: seeded when the first is asked
            # for (seeding a Random takes 20 us, most of a seeded reset's own time)
            self._reseed = seed
            game_seed: object = seed
        else:
            if self._reseed is not None:
                self._seeds.seed(self._reseed)
                self._reseed = None
            game_seed = self._seeds.randrange(2**63)
        self.position = self.encoding.initial(seed=game_seed)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {}
        self._infos_at = None
        self._settle(self.position)

    def _info(self, agent: str, state: Any) -> dict[str, Any]:
        """``agent``'s info at ``state``: its view, computed when first read."""
        player = self._index[agent]
        return _Lazy(_INFO_KEYS, lambda key: self._view(state, player))

    def _settle(self, pos: Position) -> None:
        """What a step does once the position is ``pos``: the agent to act, the infos
        made anew (a new state: each caller's write replaced), the rewards (the end)."""
        enc = self.encoding
        who = enc.to_act(pos)
        state = pos.state
        if state is not self._infos_at:  # the same state, the same views
            self._infos_at = state
            for a in self.agents:
                self.infos[a] = self._info(a, state)
        if who is not None:
            self.agent_selection = self.possible_agents[who]
            return
        scores = state.scores
        for i, a in enumerate(self.possible_agents):
            if a in self.agents:
                self.rewards[a] = float(scores[i])
                self.terminations[a] = True
                self.truncations[a] = enc.truncated(state)
        if not hasattr(self, "agent_selection") or self.agent_selection not in self.agents:
            self.agent_selection = self.agents[0]
        self._accumulate_rewards()

    def _observation(self, pos: Position, player: int, key: str) -> Any:
        """``player``'s ``observation`` tensor or ``action_mask`` at ``pos``."""
        if key == "action_mask":
            if self.encoding.to_act(pos) != player:
                return self._no_mask.copy()
            mask = self._no_mask.copy()
            mask[self.encoding._legal(pos)] = 1
            return mask
        out = self._scratch
        self._tensor.write(out, pos.state, player, seen_pending(pos, player))
        return out.copy()

    def observe(self, agent: str) -> dict[str, Any]:
        pos = self.position
        assert pos is not None
        player = self._index[agent]
        return _Lazy(_OBS_KEYS, lambda key: self._observation(pos, player, key))

    def step(self, action: Any) -> None:
        if self.position is None:
            raise CardRulesError(f"{self.game_name}: call reset() before step()")
        if not self.agents:
            # every agent is done: as for a done agent, step(None) is what api_test
            # and the usual loops send, and it does nothing; an action is refused
            if action is None:
                return
            raise IllegalActionError(
                f"{self.game_name}: the game is over and every agent is done; "
                f"only step(None) is accepted until reset(), not {action!r}"
            )
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        pos = self.position
        assert pos is not None
        self._cumulative_rewards[agent] = 0.0
        enc = self.encoding
        self.position = pos = enc.apply(pos, action if type(action) is int else _action_id(enc, action))
        self._settle(pos)

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

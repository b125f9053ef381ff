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
that computes each value the first time any way of reading asks for it).
``reset(seed=...)`` deals with the library's seeded shuffle (``new_game(seed=...)``), so
chance never stops the environment.  Rewards come at the end: each agent's final score.
``render_mode="ansi"`` returns the table as the selected agent sees it.
"""

from __future__ import annotations

import operator
import random
from collections.abc import Callable, Iterable, Iterator
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from .._hotloops import first_legal, id_mask
from ..errors import IllegalActionError
from ..protocol import GAMES
from .encoding import _UNSET, Encoding, Position, encoding_for
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


_TODO: Any = object()


class _LazyDict(dict[str, Any]):
    """A ``dict`` whose values are computed by ``make(key)`` the first time they are read,
    by any means (``[]``, ``get``, ``items``, ``values``, comparison, ``repr``, copy, pickle,
    ``dict(d)``, ``{**d}``).  Its keys are there from the start, in order."""

    __slots__ = ("_made", "_make")

    # made by ``_LazyDict.of(keys, make)``; the subclasses made at every step keep dict's
    # own (C) __init__ and set their slots themselves, which is half the cost
    _made: list[str]  # the keys computed since the last refresh
    _make: Callable[[str], Any]

    @classmethod
    def of(cls, keys: Iterable[str], make: Callable[[str], Any]) -> _LazyDict:
        out = cls(dict.fromkeys(keys, _TODO))
        out._make = make
        out._made = []
        return out

    def refresh(self) -> None:
        """Every value to be computed again."""
        made = self._made
        if made:
            for key in made:
                if key in self:
                    dict.__setitem__(self, key, _TODO)
            made.clear()

    def _compute(self, key: str) -> Any:
        return self._make(key)

    def __getitem__(self, key: str) -> Any:
        value = dict.__getitem__(self, key)
        if value is _TODO:
            value = self._compute(key)
            dict.__setitem__(self, key, value)
            self._made.append(key)
        return value

    def _filled(self) -> dict[str, Any]:
        return {key: self[key] for key in dict.keys(self)}

    def get(self, key: str, default: Any = None) -> Any:
        try:
            return self[key]
        except KeyError:
            return default

    def __iter__(self) -> Iterator[str]:  # also makes dict(d) and {**d} read through __getitem__
        return dict.__iter__(self)

    def values(self) -> Any:
        return self._filled().values()

    def items(self) -> Any:
        return self._filled().items()

    def copy(self) -> dict[str, Any]:
        return self._filled()

    def __eq__(self, other: object) -> bool:
        return self._filled() == other

    def __ne__(self, other: object) -> bool:
        return self._filled() != other

    def __repr__(self) -> str:
        return repr(self._filled())

    def __or__(self, other: Any) -> Any:
        return self._filled() | other

    def __ror__(self, other: Any) -> Any:
        return other | self._filled()

    def pop(self, key: str, *default: Any) -> Any:
        if key in self:
            value = self[key]
            dict.__delitem__(self, key)
            return value
        return dict.pop(self, key, *default)

    def popitem(self) -> tuple[str, Any]:
        key = next(reversed(dict.keys(self)))
        return key, self.pop(key)

    def setdefault(self, key: str, default: Any = None) -> Any:
        if key in self:
            return self[key]
        self[key] = default
        return default

    # what a caller writes is also reset by the next refresh
    def __setitem__(self, key: str, value: Any) -> None:
        dict.__setitem__(self, key, value)
        self._made.append(key)

    def update(self, *args: Any, **kwargs: Any) -> None:
        for key, value in dict(*args, **kwargs).items():
            self[key] = value

    def __ior__(self, other: Any) -> Any:
        self.update(other)
        return self

    def __reduce_ex__(self, protocol: Any) -> Any:  # copies and pickles are plain dicts
        return dict, (self._filled(),)


_INT8 = np.dtype(np.int8)
_OBS_KEYS = dict.fromkeys(("observation", "action_mask"), _TODO)
_INFO_KEYS = dict.fromkeys(("view",), _TODO)


class _Observation(_LazyDict):
    """A player's observation at a position: the tensor of its view and its action mask
    (made by :func:`_observation`)."""

    __slots__ = ("_enc", "_player", "_pos")
    _enc: Encoding
    _pos: Position
    _player: int

    def __getitem__(self, key: str) -> Any:  # _LazyDict's, the mask asked first and inline
        value = dict.__getitem__(self, key)
        if value is _TODO:
            if key == "action_mask":
                enc, pos = self._enc, self._pos
                who = pos._who
                if (enc.to_act(pos) if who is _UNSET else who) == self._player:
                    legal = pos._legal
                    if legal is None:
                        state, tree_phase = pos.state, enc._tree_phase
                        found = (
                            first_legal(enc._legal_of(state), enc._first_table)
                            if pos._step is None
                            and not pos.pending
                            and pos._trie is None
                            and enc._first_pair
                            and (tree_phase is None or state.phase != tree_phase)
                            else None
                        )  # Encoding._legal's common case inline, as the OpenSpiel state's
                        if found is not None:
                            pos._step, legal = found
                            pos._legal = legal
                        else:
                            legal = enc._legal(pos)
                    mask = id_mask(enc.num_actions, legal)
                else:
                    mask = bytearray(enc.num_actions)
                # a dtype object, positional: half the cost of dtype=np.int8
                value = np.frombuffer(mask, _INT8)
            else:
                value = self._compute(key)
            dict.__setitem__(self, key, value)
            self._made.append(key)
        return value

    def _mask(self) -> Any:
        enc, pos = self._enc, self._pos
        who = pos._who
        if (enc.to_act(pos) if who is _UNSET else who) == self._player:
            legal = pos._legal
            return np.frombuffer(id_mask(enc.num_actions, enc._legal(pos) if legal is None else legal), _INT8)
        return np.frombuffer(bytearray(enc.num_actions), _INT8)

    def _compute(self, key: str) -> Any:
        if key == "observation":
            return view_tensor(self._enc, self._pos, self._player)
        return self._mask()


def _observation(enc: Encoding, pos: Position, player: int) -> _Observation:
    obs = _Observation(_OBS_KEYS)
    obs._made = []
    obs._enc = enc
    obs._pos = pos
    obs._player = player
    return obs


class _ViewInfo(_LazyDict):
    """A player's info at a state: ``{"view": view(state, player)}`` (made by
    :func:`_view_info`)."""

    __slots__ = ("_args",)
    _args: tuple[Callable[[Any, int], Any], Any, int]

    def _compute(self, key: str) -> Any:
        view, state, player = self._args
        return view(state, player)


def _view_info(view: Callable[[Any, int], Any], state: Any, player: int) -> _ViewInfo:
    info = _ViewInfo(_INFO_KEYS)
    info._made = []
    info._args = (view, state, player)
    return info


class _Infos(_LazyDict):
    """The environment's ``infos``: each agent's :class:`_ViewInfo` at the current state."""

    __slots__ = ("_env",)
    _env: raw_env

    @classmethod
    def of_env(cls, env: raw_env) -> _Infos:
        out = cls(dict.fromkeys(env.agents, _TODO))
        out._make = env._info
        out._made = []
        out._env = env
        return out

    def __getitem__(self, key: str) -> Any:  # _LazyDict's, with _compute in place
        value = dict.__getitem__(self, key)
        if value is _TODO:
            env = self._env
            info = value = _ViewInfo(_INFO_KEYS)  # _view_info, inline
            info._made = []
            info._args = (env._view, env.position.state, env._index[key])  # type: ignore[union-attr]
            dict.__setitem__(self, key, value)
            self._made.append(key)
        return value

    def _compute(self, key: str) -> Any:
        env = self._env
        assert env.position is not None
        return _view_info(env._view, env.position.state, env._index[key])


def _action_id(enc: Encoding, action: Any) -> int:
    """``action`` as a plain int, or an :class:`~cardrules.errors.IllegalActionError`
    saying it is no action id (a float, a string, ``None`` ...: never truncated)."""
    try:
        return operator.index(action)
    except TypeError:
        raise IllegalActionError(
            f"{enc.name}: {action!r} is not an action id of this game (0 to {enc.num_actions - 1})"
        ) from None


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
        self._index = {a: i for i, a in enumerate(self.possible_agents)}
        self._view = GAMES[game].view
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
        self._reseed: Any = None  # a seed given to reset that _seeds does not have yet
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
        self.infos: dict[str, dict[str, Any]] = _Infos.of_env(self)
        self._sync()

    def _info(self, agent: str) -> dict[str, Any]:
        """``agent``'s info (its view) at the current position."""
        assert self.position is not None
        return _view_info(self._view, self.position.state, self._index[agent])

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
        infos = self.infos
        if isinstance(infos, _LazyDict):
            infos.refresh()
        else:  # replaced by the caller
            for a in self.agents:
                infos[a] = self._info(a)

    def agent_selection_is_unset(self) -> bool:
        return not hasattr(self, "agent_selection") or self.agent_selection not in self.agents

    def observe(self, agent: str) -> dict[str, Any]:
        pos = self.position
        assert pos is not None
        obs = _Observation(_OBS_KEYS)  # _observation, inline
        obs._made = []
        obs._enc = self.encoding
        obs._pos = pos
        obs._player = self._index[agent]
        return obs

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        # AECEnv's, with observe inline
        agent = self.agent_selection
        assert agent is not None
        obs: Any = None
        if observe:
            pos = self.position
            assert pos is not None
            obs = _Observation(_OBS_KEYS)
            obs._made = []
            obs._enc = self.encoding
            obs._pos = pos
            obs._player = self._index[agent]
        infos = self.infos
        if type(infos) is _Infos:  # _Infos.__getitem__, inline
            info = dict.__getitem__(infos, agent)
            if info is _TODO:
                info = _ViewInfo(_INFO_KEYS)
                info._made = []
                info._args = (self._view, self.position.state, self._index[agent])  # type: ignore[union-attr]
                dict.__setitem__(infos, agent, info)
                infos._made.append(agent)
        else:
            info = infos[agent]
        return (
            obs,
            self._cumulative_rewards[agent],
            self.terminations[agent],
            self.truncations[agent],
            info,
        )

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        assert self.position is not None
        self._cumulative_rewards[agent] = 0.0
        enc = self.encoding
        pos = self.position
        step = pos._step  # what the action mask worked out (a player's node)
        # only an integer is an action id (a float or a string equal to one is not)
        move = _UNSET
        if step is not None and (type(action) is int or isinstance(action, np.integer)):
            move = step.get(action, _UNSET)  # type: ignore[arg-type]  # (a NumPy integer finds its int)
        if move is None:  # a pending token: Encoding.apply's, without its checks
            pos = self.position = enc._extend(pos, action)
        elif move is not _UNSET:  # it completes an action: Encoding.apply's, inline
            pos = self.position = enc.enter(enc._apply(pos.state, move))
        else:  # no step yet, or an error
            pos = self.position = enc.apply(pos, _action_id(enc, action))
        who = pos._who
        if who is _UNSET:
            who = enc.to_act(pos)
        infos = self.infos
        if who is not None and type(infos) is _Infos:  # the game goes on: what _sync does then
            self.agent_selection = self.possible_agents[who]
            made = infos._made
            if made:  # refresh, inline
                for key in made:
                    if key in infos:
                        dict.__setitem__(infos, key, _TODO)
                made.clear()
            if not any(self.rewards.values()):  # 0.0 until the end: nothing to accumulate
                return
        else:
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

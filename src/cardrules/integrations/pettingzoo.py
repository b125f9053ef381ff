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
from collections.abc import Iterable, Iterator
from typing import Any, ClassVar, Literal

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from .._hotloops import FastMethod, LazyChild, LazyDict, c_speedups, first_legal, mask_of, subset_step
from ..errors import IllegalActionError
from ..protocol import CHANCE, GAMES
from .encoding import _POSITION, _UNSET, Encoding, Position, _SubsetTree, encoding_for
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


class _LazyDict(LazyDict):  # (LazyDict: the C type, or its reference)
    """A ``dict`` whose values are computed by ``_compute(self, key)`` the first time they
    are read, by any means (``[]``, ``get``, ``items``, ``values``, comparison, ``repr``,
    copy, pickle, ``dict(d)``, ``{**d}``).  Its keys are there from the start, in order;
    a value not computed yet is ``_compute`` itself.  Made by ``make(template, compute,
    source, at, player)`` (:class:`~cardrules._hotloops.LazyDictPy`): with the C module,
    made and read by ``[]`` in C, one call each."""

    __slots__ = ()  # LazyDict's: _made, _compute, _source, _at, _player
    # the keys computed or written since the last refresh (False: never refreshed)
    _made: list[str] | Literal[False] | None
    _compute: Any
    _source: Any
    _at: Any
    _player: Any

    def _filled(self) -> dict[str, Any]:
        keys: Iterable[str] = dict.keys(self)
        return {key: self[key] for key in keys}

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
        key: str = next(reversed(dict.keys(self)))
        return key, self.pop(key)

    def setdefault(self, key: str, default: Any = None) -> Any:
        if key in self:
            return self[key]
        self[key] = default
        return default

    # what a caller writes is also reset by the next refresh
    def __setitem__(self, key: str, value: Any) -> None:
        dict.__setitem__(self, key, value)
        made = self._made
        if made is None:
            self._made = [key]  # type: ignore[misc]  # (a slot of LazyDict)
        elif made is not False:  # (False: never refreshed, nothing recorded)
            made.append(key)

    def update(self, *args: Any, **kwargs: Any) -> None:
        for key, value in dict(*args, **kwargs).items():
            self[key] = value

    def __ior__(self, other: Any) -> Any:
        self.update(other)
        return self

    def __reduce_ex__(self, protocol: Any) -> Any:  # copies and pickles are plain dicts
        return dict, (self._filled(),)


def _observation_value(obs: _Observation, key: str) -> Any:
    """A value of an observation: its action mask or its tensor (the ``_compute`` of
    :class:`_Observation`)."""
    enc, new_mask, legal_of, first_table, tree_phase = obs._source
    pos = obs._at
    if key == "action_mask":
        who = pos._who
        if (enc.to_act(pos) if who is _UNSET else who) == obs._player:
            legal = pos._legal
            if legal is None:
                tree, pending = pos._trie, pos.pending
                if not pending:  # Encoding._legal's first-token cases inline, as the OpenSpiel state's
                    if first_table is not None and pos._step is None and tree is None:
                        state = pos.state
                        if tree_phase is None or state.phase != tree_phase:
                            found = first_legal(legal_of(state), first_table)
                            if found is not None:
                                pos._step, legal = found
                                pos._legal = legal
                        else:  # a tree from the start (an Aegis exchange)
                            legal = enc._tree_legal(pos)
                elif pos._step is None:  # an action under way: Encoding._legal's, inline
                    found = (  # (an Aegis exchange: _SubsetTree.step_at, inline)
                        subset_step(tree._ids, tree._end, tree._actions, pending)
                        if type(tree) is _SubsetTree
                        else enc._pending_legal(pos)
                    )
                    if found is not None:
                        pos._step, legal = found
                        pos._legal = legal
                if legal is None:
                    legal = enc._legal(pos)
            # a copy of an array of zeros, its ones written in C: one object, and a
            # quarter less time than an ndarray made over a bytearray of id_mask's
            # (numpy.ndarray's parsing of its arguments)
            return mask_of(new_mask, legal)
        return new_mask()
    return view_tensor(enc, pos, obs._player)


class _Observation(_LazyDict):
    """A player's observation at a position: the tensor of its view and its action mask
    (``_source`` the encoding, a new mask's maker and the encoding's constants of a first
    token, ``_at`` the position, ``_player`` the player)."""

    __slots__ = ()


# With the C module, the action mask's common case is answered in C (FastMethod's
# "action_mask": the ids kept on the position, a subset step under way, every first
# token interned), without _observation_value's Python frame; anything else (the tensor
# included) runs _observation_value (FastMethod's fallback).  Without the C module it is
# _observation_value itself.
_observation_compute: Any = _observation_value
if c_speedups is not None:
    _observation_compute = FastMethod(
        "action_mask", _observation_value, subset=_SubsetTree, position=Position, unset=_UNSET
    )
_OBS_KEYS = dict.fromkeys(("observation", "action_mask"), _observation_compute)
# bound once: looking up a classmethod of a C type's subclass binds it anew at every call
# (some 70 ns of the 170 a make costs that way), and every step makes an observation
_make_observation = _Observation.make


def _view_value(info: _ViewInfo, key: str) -> Any:
    """``view(state, player)`` (the ``_compute`` of :class:`_ViewInfo`)."""
    return info._source(info._at, info._player)


class _ViewInfo(_LazyDict):
    """A player's info at a state: ``{"view": view(state, player)}`` (``_source`` the
    game's ``view``, ``_at`` the state, ``_player`` the player)."""

    __slots__ = ()


_INFO_KEYS = dict.fromkeys(("view",), _view_value)
_make_view_info = _ViewInfo.make  # bound once, as _make_observation


# agent's info at the current state: _ViewInfo.make(_INFO_KEYS, _view_value, view, state,
# index[agent]), called from C by the infos' [] (the _compute of _Infos)
_info_value = LazyChild(_ViewInfo, _INFO_KEYS, _view_value)


class _Infos(_LazyDict):
    """The environment's ``infos``: each agent's :class:`_ViewInfo` at the current state
    (``_source`` the game's ``view``, ``_at`` the state, ``_player`` the agents' numbers;
    ``refresh_at(state)`` at every step)."""

    __slots__ = ()

    @classmethod
    def of_env(cls, env: raw_env) -> _Infos:
        assert env.position is not None
        return cls.make(  # type: ignore[no-any-return]
            dict.fromkeys(env.agents, _info_value), _info_value, env._view, env.position.state, env._index
        )


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
        # what an observation reads: the encoding, the bound copy of an array of zeros
        # never handed out (each call a new mask to fill), and the encoding's constants
        # the mask of a first token reads (taken once: some 80 ns less a decision)
        enc = self.encoding
        self._obs_source = (
            enc,
            np.zeros(enc.num_actions, np.int8).copy,
            enc._legal_of,
            enc._first_table if enc._first_pair else None,
            enc._tree_phase,
        )
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
        return _make_view_info(_INFO_KEYS, _view_value, self._view, self.position.state, self._index[agent])  # type: ignore[no-any-return]

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
        if type(infos) is _Infos:
            infos.refresh_at(self.position.state)
        else:  # replaced by the caller
            for a in self.agents:
                infos[a] = self._info(a)

    def agent_selection_is_unset(self) -> bool:
        return not hasattr(self, "agent_selection") or self.agent_selection not in self.agents

    def observe(self, agent: str) -> dict[str, Any]:
        pos = self.position
        assert pos is not None
        return _make_observation(  # type: ignore[no-any-return]
            _OBS_KEYS, _observation_compute, self._obs_source, pos, self._index[agent], False
        )

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        # AECEnv's, with observe inline
        agent = self.agent_selection
        assert agent is not None
        obs: Any = None
        if observe:
            obs = _make_observation(
                _OBS_KEYS, _observation_compute, self._obs_source, self.position, self._index[agent], False
            )
        return (
            obs,
            self._cumulative_rewards[agent],
            self.terminations[agent],
            self.truncations[agent],
            self.infos[agent],
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
            self.position = enc._extend(pos, action)
            # the same state, the same agent to act, the same infos: nothing else changes
            if type(self.infos) is _Infos and not any(self.rewards.values()):
                return
            pos = self.position
        elif move is not _UNSET:  # it completes an action: Encoding.apply's, inline
            pos = self.position = enc.enter(enc._apply(pos.state, move))
        else:  # no step yet, or an error
            pos = self.position = enc.apply(pos, _action_id(enc, action))
        self._settle(pos)

    def _settle(self, pos: Position) -> None:
        """What a step does once the position is ``pos``: the agent to act, the infos
        refreshed (a new state), the rewards (the end)."""
        who = pos._who
        if who is _UNSET:
            who = self.encoding.to_act(pos)
        infos = self.infos
        if who is not None and type(infos) is _Infos:  # the game goes on: what _sync does then
            self.agent_selection = self.possible_agents[who]
            state = pos.state
            if state is not infos._at:  # the same state, the same views
                infos.refresh_at(state)
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


# With the C module, last() (without observe=, or observe a bool) makes its tuple in C
# (FastMethod's "env_last": the observation made, the agent's reward, flags and info
# read), and a step's common case (an int id found in the position's step: a
# pending token extends the position, else the action is applied and entered; then the
# agent selected and the infos refreshed) runs in C (FastMethod's "env_step"), without
# the Python frames of step and _settle; anything else runs raw_env.step (FastMethod's
# fallback), and what the C code does not settle itself, raw_env._settle.  The step
# makes the next position itself with the positions' record maker, as Encoding._extend
# and Encoding.enter make it (enter itself at the end, at a chance node, or where the
# game truncates).  Without the C
# module the methods above are the class's own.
if c_speedups is not None:
    raw_env.step = FastMethod(  # type: ignore[method-assign]
        "env_step",
        raw_env.__dict__["step"],
        position=Position,
        unset=_UNSET,
        infos=_Infos,
        enter=None if _POSITION is None else (_POSITION, CHANCE),
    )
    raw_env.last = FastMethod(  # type: ignore[method-assign]
        "env_last", raw_env.__dict__["last"], make=(_make_observation, _OBS_KEYS, _observation_compute, False)
    )

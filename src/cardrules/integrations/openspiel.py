"""The four cardrules games as OpenSpiel games (extra ``cardrules[openspiel]``).

Importing this module registers, with ``pyspiel.register_game``, the games
``python_cardrules_aegis``, ``python_cardrules_gunsore``, ``python_cardrules_haggis`` and
``python_cardrules_eleusis``::

    import pyspiel
    import cardrules.integrations.openspiel  # registers the games
    game = pyspiel.load_game("python_cardrules_haggis", {"players": 3})

Actions are the integer encoding of :mod:`cardrules.integrations.encoding` (one chance
node per dealt card; composite actions as short token sequences by the same player).
``state.cardrules_state`` is the underlying cardrules state, and :func:`from_cardrules`
makes an OpenSpiel state from one.  Observation and information-state strings are the
player's :func:`view` (``repr``), followed by the tokens it has chosen so far for the
action it is entering; the tensors hold the same (:mod:`cardrules.integrations.tensors`).
Returns are the game's own final scores (general-sum).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any
from urllib.parse import unquote

import numpy as np
import pyspiel

from .. import eleusis
from .._hotloops import FastMethod, c_speedups, first_legal, subset_step
from ..errors import CardRulesError
from ..protocol import CHANCE, GAMES, game_of
from ..serialize import from_json, to_json
from .encoding import _POSITION, _UNSET, Encoding, Position, _Drawing, _moved, _SubsetTree, encoding_for
from .tensors import layout, tensor_size, view_tensor

__all__ = [
    "GAME_NAMES",
    "CardRulesGame",
    "CardRulesObserver",
    "CardRulesState",
    "from_cardrules",
    "observation_text",
    "sampling_resampler",
]

#: The OpenSpiel short names, by cardrules game.
GAME_NAMES: Mapping[str, str] = {
    g: f"python_cardrules_{g}" for g in ("aegis", "gunsore", "haggis", "eleusis")
}



def _quote(text: str) -> str:
    """``text`` with the characters an OpenSpiel game string cannot hold percent-encoded."""
    return "".join(f"%{ord(ch):02X}" if ch in ",()=%" else ch for ch in text)

# Parameters: OpenSpiel name -> default.  Each game's Rules fields that take a plain value.
_PARAMS: dict[str, dict[str, Any]] = {
    "aegis": {
        "players": 2,
        "target": 25,
        "margin": 10,
        "max_exchanges": 4,
        "new_master": "loser",
        "promise": "four_or_more",
        "slave_exchange_limit": -1,  # -1: no limit (None)
    },
    "gunsore": {
        "players": 2,
        "declare_war": True,
        "war_when_stock_empty": True,
        "hand_size": 5,
        "decks": 2,
    },
    "haggis": {
        "players": 2,
        "target": 250,
        "bomb_trick": "choose",
        "first_out_bonus": 0,
        "bets": "15 30",  # amounts separated by spaces; "" turns betting off
        "max_hands": 0,  # 0: derived from the rules (see the encoding)
    },
    "eleusis": {
        "players": 5,
        "secret": "card.color !%3D prev.color",  # the rule text; , ( ) = % written %2C %28 %29 %3D %25
        "hand_size": 14,
        "decks": 2,
        "sudden_death": 30,
        "sudden_death_prophet": 20,
        "penalty": 2,
        "no_play_penalty": 5,
        "no_play_shrink": 4,
        "overthrow_penalty": 5,
        "max_string": 4,
        "prophets": True,
    },
}


def _encoding(name: str, params: Mapping[str, Any]) -> Encoding:
    p = {**_PARAMS[name], **params}
    unknown = set(p) - set(_PARAMS[name])
    if unknown:
        raise CardRulesError(f"{name}: unknown parameter(s) {', '.join(sorted(unknown))}")
    players = p.pop("players")
    game = GAMES[name]
    extra: dict[str, Any] = {}
    if name == "aegis":
        limit = p.pop("slave_exchange_limit")
        p["slave_exchange_limit"] = None if limit < 0 else limit
    elif name == "haggis":
        try:
            p["bets"] = tuple(int(b) for b in str(p.pop("bets")).split())
        except ValueError:
            why = f"bets must be amounts separated by spaces, not {params['bets']!r}"
            raise CardRulesError(f"haggis: {why}") from None
        hands = p.pop("max_hands")
        extra["max_hands"] = hands if hands > 0 else None
    elif name == "eleusis":
        p["secret"] = eleusis.compile_rule(unquote(str(p["secret"])))
    return encoding_for(name, game.Rules(**p), players, **extra)


def _game_type(name: str) -> Any:
    counts = GAMES[name].player_counts
    return pyspiel.GameType(
        short_name=GAME_NAMES[name],
        long_name=f"cardrules {name}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max(counts),
        min_num_players=min(counts),
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=dict(_PARAMS[name]),
    )


class CardRulesGame(pyspiel.Game):
    """One cardrules game as an OpenSpiel game (made by ``pyspiel.load_game``)."""

    game_name = ""

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        params = dict(params or {})
        if "secret" in params:  # OpenSpiel's game strings cannot hold , ( ) = as such
            params["secret"] = _quote(unquote(str(params["secret"])))
        self.encoding = enc = _encoding(self.game_name, params)
        lo, hi = enc.utility_bounds()
        info = pyspiel.GameInfo(
            num_distinct_actions=enc.num_actions,
            max_chance_outcomes=len(enc.cards),
            num_players=enc.players,
            min_utility=lo,
            max_utility=hi,
            utility_sum=None,
            max_game_length=enc.max_game_length(),
        )
        super().__init__(_GAME_TYPES[self.game_name], info, params)

    def new_initial_state(self) -> CardRulesState:
        return CardRulesState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: Mapping[str, Any] | None = None
    ) -> CardRulesObserver | None:
        """The observer of a player's view (observation and information state alike:
        the view already recalls what the player saw).  ``None`` for the public-only
        and private-only observation types, which a cardrules view does not split."""
        if iig_obs_type is not None and not (
            iig_obs_type.public_info and iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
        ):
            return None
        return CardRulesObserver(self.encoding, iig_obs_type, params)


_TERMINAL = int(pyspiel.PlayerId.TERMINAL)
_CHANCE = int(pyspiel.PlayerId.CHANCE)


class CardRulesState(pyspiel.State):
    """An OpenSpiel state over a cardrules state (``cardrules_state``)."""

    # the encoding sits in a slot, not in the __dict__ OpenSpiel deep-copies and pickles
    # (a clone or a deserialized state is made by new_initial_state, which sets it)
    __slots__ = ("__dict__", "_enc")

    def __init__(self, game: CardRulesGame, position: Position | None = None) -> None:
        super().__init__(game)
        self._enc: Encoding = game.encoding
        self._pos = position if position is not None else game.encoding.initial()

    # the cardrules side
    @property
    def cardrules_state(self) -> Any:
        """The underlying cardrules state (mid-deal: the state before the deal)."""
        return self._pos.state

    @property
    def position(self) -> Position:
        """The cardrules state with the pending tokens and the cards drawn so far."""
        pos = self._pos
        return pos.frozen() if type(pos) is _Drawing else pos

    # the OpenSpiel side
    def current_player(self) -> int:
        pos = self._pos
        player = pos.player_id
        if player is None:
            who = pos._who  # what the encoding worked out when it made the position
            if who is _UNSET:
                who = self._enc.to_act(pos)
            if who is None:
                player = _TERMINAL
            elif who is CHANCE:
                player = _CHANCE
            else:
                player = who if type(who) is int else int(who)
            pos.player_id = player
        return player

    def _legal_actions(self, player: int) -> list[int]:
        pos = self._pos
        current = pos.player_id  # OpenSpiel asked current_player() just before
        if player != (self.current_player() if current is None else current):
            return []
        legal = pos._legal
        if legal is None:
            enc = self._enc
            tree, pending = pos._trie, pos.pending
            if not pending:
                if pos._step is None and tree is None and enc._first_pair:
                    state, tree_phase = pos.state, enc._tree_phase
                    if tree_phase is None or state.phase != tree_phase:
                        # Encoding._legal's common case, inline: every legal action
                        # interned, the first tokens and the legal ids in one call
                        found = first_legal(enc._legal_of(state), enc._first_table)
                        if found is not None:
                            pos._step, legal = found
                            pos._legal = legal
                            return legal
                    else:  # a tree from the start (an Aegis exchange), as Encoding._legal
                        legal = enc._tree_legal(pos)
                        if legal is not None:
                            return legal
            elif type(tree) is _SubsetTree and pos._step is None:
                # a token of an Aegis exchange under way: Encoding._legal's, inline
                found = subset_step(tree._ids, tree._end, tree._actions, pending)
                if found is not None:
                    pos._step, legal = found
                    pos._legal = legal
                    return legal
            legal = enc._legal(pos)
        return legal  # not changed: OpenSpiel copies it

    def chance_outcomes(self) -> list[tuple[int, float]]:
        pos = self._pos
        deal = pos._deal
        if deal is not None and type(pos) is _Drawing:  # one C call (the deal keeps the list)
            outcomes: list[tuple[int, float]] | None = deal.outcomes(pos._k)
            if outcomes is not None:
                return outcomes  # not changed: OpenSpiel copies it
        out = pos._outcomes
        return self._enc._chance_outcomes(pos) if out is None else out  # likewise

    def _apply_action(self, action: int) -> None:
        pos = self._pos
        deal = pos._deal
        if deal is None:
            step = pos._step  # what _legal_actions worked out just before (a player's node)
            if step is not None:
                move = step.get(action, _UNSET)
                if move is None:  # a pending token: Encoding.apply's, without its checks
                    self._pos = self._enc._extend(pos, action)
                    return
                if move is not _UNSET:  # it completes an action: Encoding.apply's, inline
                    enc = self._enc
                    self._pos = enc.enter(enc._apply(pos.state, move))
                    return
            self._pos = self._enc.apply(pos, action)  # no step yet, or an error
            return
        # a deal draws in place, on a position of this state's own (a clone copies it)
        if type(pos) is _Drawing:
            k = pos._k
            if deal.draw(k, action):  # one C call: in place, at the deal's end, not its last card
                pos._k = k + 1
                pos._outcomes = None
                return
        else:
            pos = self._pos = _moved(pos, _Drawing)
        done = self._enc._draw(pos, action)  # the rest: a deal of its own, the last card, errors
        if done is not None:
            self._pos = done

    def _action_to_string(self, player: int, action: int) -> str:
        return self._enc.action_string(self._pos, int(action))

    def is_terminal(self) -> bool:
        pos = self._pos
        player = pos.player_id
        if player is None:  # a new position: what the encoding worked out, without a call
            who = pos._who
            return self.current_player() == _TERMINAL if who is _UNSET else who is None
        return player == _TERMINAL

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0] * self._enc.players
        return [float(s) for s in self._pos.state.scores]

    def __str__(self) -> str:
        pos = self._pos
        text = GAMES[self._enc.name].render(pos.state)
        if pos.pending:
            text += "\npending: " + " ".join(self._enc.token_name(t) for t in pos.pending)
        if pos.dealt:
            text += "\ndealt so far: " + " ".join(map(str, pos.dealt))
        return text


# With the C module, the methods OpenSpiel calls at every step (current_player and
# is_terminal several times a step, chance_outcomes or _legal_actions, _apply_action)
# answer their common case in C, from the position, without a Python frame: the player
# kept, a card drawn in place, the step worked out by _legal_actions, every legal action
# interned; anything else runs the methods above (FastMethod's fallback).  Without the C
# module the methods above are the class's own.
if c_speedups is not None:
    # the positions a decision makes: with the record maker, as Encoding._extend and
    # Encoding.enter make them (as PettingZoo's step; enter itself where they would not)
    _ENTER = None if _POSITION is None else (_POSITION, CHANCE)
    for _name, _kind, _extra in (
        ("current_player", "current_player", {}),
        ("is_terminal", "is_terminal", {"terminal": _TERMINAL}),
        ("chance_outcomes", "chance_outcomes", {"drawing": _Drawing}),
        ("_apply_action", "apply_action", {"drawing": _Drawing, "enter": _ENTER}),
        ("_legal_actions", "legal_actions", {"subset": _SubsetTree}),
    ):
        _method = FastMethod(_kind, CardRulesState.__dict__[_name], position=Position, **_extra)
        setattr(CardRulesState, _name, _method)


def _restore(name: str, state_json: str, pending: tuple[int, ...], dealt: tuple[str, ...]) -> Position:
    from ..cards import parse_card

    enc_state = from_json(state_json)
    pos = Position(enc_state, pending)
    if dealt or enc_state.to_act is CHANCE:
        from collections import Counter

        cards = Counter(GAMES[name].chance_cards(enc_state))
        drawn = tuple(parse_card(c) for c in dealt)
        cards.subtract(drawn)
        alphabet = encoding_for(name, enc_state.rules, enc_state.players).cards
        pos = Position(enc_state, pending, drawn, tuple(max(0, cards.get(c, 0)) for c in alphabet))
    return pos


def _reduce_position(self: Position) -> tuple[Callable[..., Position], tuple[Any, ...]]:
    # OpenSpiel serializes a Python state by pickling it: the cardrules state goes as JSON
    name = game_of(self.state).name
    return _restore, (name, to_json(self.state), self.pending, tuple(map(str, self.dealt)))


Position.__reduce__ = _reduce_position  # type: ignore[assignment,method-assign]


def observation_text(encoding: Encoding, position: Position, player: int) -> str:
    """What ``player`` observes: ``repr`` of its cardrules view, then (when it is
    entering an action) the tokens it chose so far."""
    text = repr(GAMES[encoding.name].view(position.state, player))
    if position.pending and position.state.to_act == player and position.state.to_act is not CHANCE:
        text += "\npending: " + " ".join(encoding.token_name(t) for t in position.pending)
    return text


class CardRulesObserver:
    """OpenSpiel's Python observer: the string and the tensor of a player's view (see
    :mod:`cardrules.integrations.tensors` for the tensor's blocks, which ``dict`` names)."""

    def __init__(self, encoding: Encoding, iig_obs_type: Any, params: Mapping[str, Any] | None) -> None:
        if params:
            raise CardRulesError(f"observation parameters are not supported; passed {dict(params)}")
        self.encoding = encoding
        self.tensor = np.zeros(tensor_size(encoding), np.float32)
        self.dict: dict[str, Any] = {}
        start = 0
        for name, size in layout(encoding):
            self.dict[name] = self.tensor[start : start + size]
            start += size

    def set_from(self, state: CardRulesState, player: int) -> None:
        view_tensor(self.encoding, state.position, player, out=self.tensor)

    def string_from(self, state: CardRulesState, player: int) -> str:
        return observation_text(self.encoding, state.position, player)


def from_cardrules(game: CardRulesGame, state: Any) -> CardRulesState:
    """An OpenSpiel state of ``game`` at cardrules ``state`` (which must be a state of the
    same game, rules and players).  Its OpenSpiel history holds the tokens of
    ``state.history``."""
    enc = game.encoding
    out = game.new_initial_state()
    for token in enc.action_tokens(enc.game.new_game(enc.rules, players=enc.players), state.history):
        out.apply_action(token)
    if out.cardrules_state != state:
        raise CardRulesError(f"{enc.name}: the state does not belong to this game's rules and players")
    return out


def sampling_resampler(seed: int = 0) -> Callable[[CardRulesState, int], CardRulesState]:
    """A resampler for OpenSpiel's ``ISMCTSBot.set_resampler``: a state that ``player``
    cannot tell from the given one, hidden cards dealt at random (see
    :func:`cardrules.integrations.sampling.sample_state`)."""
    from .sampling import sample_state

    counter = [seed]

    def resample(state: CardRulesState, player: int) -> CardRulesState:
        counter[0] += 1
        game: CardRulesGame = state.get_game()
        enc = game.encoding
        sampled = sample_state(enc.name, state.cardrules_state, player, seed=counter[0])
        pos = Position(sampled, state.position.pending)
        out = CardRulesState(game, pos)
        return out

    return resample


_GAME_TYPES = {name: _game_type(name) for name in GAME_NAMES}


def _register() -> None:
    for name, short in GAME_NAMES.items():
        cls = type(f"CardRules{name.title()}Game", (CardRulesGame,), {"game_name": name})
        if short not in pyspiel.registered_names():
            pyspiel.register_game(_GAME_TYPES[name], cls)


_register()

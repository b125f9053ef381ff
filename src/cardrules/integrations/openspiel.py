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
action it is entering.  The tensors (:mod:`cardrules.integrations.tensors`) hold the
view's readable blocks (the hand, the trick, the scores ...) and the pending tokens; the
information-state tensor (perfect recall) also holds the whole view's code, as
OpenSpiel's own Python games keep the history in the information state only.
Returns are the game's own final scores (general-sum).

``state.serialize()`` writes the state as JSON (:data:`STATE_FORMAT`: the cardrules
state's own versioned JSON, :func:`cardrules.to_json`, with the pending tokens and the
cards dealt so far), and ``game.deserialize_state(text)`` reads that and nothing else:
it replays the history, the deal and the tokens with every check of the rules, so a
stored text can only ever give a position of the game.  OpenSpiel's own C++
``pyspiel.serialize_game_and_state`` / ``deserialize_game_and_state`` (what
``random_sim_test(serialize=True)`` uses) store a Python game's attributes with
:mod:`pickle`, for every Python game: they round-trip here too, but only text a program
wrote itself may be read back with them.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any
from urllib.parse import unquote

from . import missing_extra

try:
    import pyspiel
except ModuleNotFoundError as _exc:
    raise missing_extra(_exc, "openspiel") from None

from ..cards import parse_card
from ..codec import check_depth
from ..encoding import Encoding, Position, encoding_for, encoding_type
from ..errors import CardRulesError, StateFormatError
from ..protocol import CHANCE, GAMES, game_of
from ..serialize import from_json, to_json
from .tensors import seen_pending, tensor_of

__all__ = [
    "GAME_NAMES",
    "STATE_FORMAT",
    "CardRulesGame",
    "CardRulesObserver",
    "CardRulesState",
    "from_cardrules",
    "observation_text",
    "register",
    "sampling_resampler",
]

#: The OpenSpiel short names, by cardrules game (the four built in, then any game
#: :func:`register` added).
GAME_NAMES: dict[str, str] = {}


def _quote(text: str) -> str:
    """``text`` with the characters an OpenSpiel game string cannot hold percent-encoded."""
    return "".join(f"%{ord(ch):02X}" if ch in ",()=%" else ch for ch in text)


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
        parameter_specification=encoding_type(name).parameters(),
    )


#: the ``format`` of the JSON that ``state.serialize()`` writes
STATE_FORMAT = "cardrules/openspiel-state"
#: the longest text ``game.deserialize_state`` reads (far beyond any real game's)
MAX_STATE_TEXT = 8_000_000
#: OpenSpiel's counts (actions, game length, utilities) are C ``int``s
_INT_MAX = 2**31 - 1


def _check_params(name: str, enc: Encoding) -> None:
    """Refuse, when the game is loaded, parameters whose games OpenSpiel cannot describe
    or whose first deal cannot be made, in the library's words."""
    length = enc.max_game_length()
    lo, hi = enc.utility_bounds()
    if length > _INT_MAX or max(abs(lo), abs(hi)) > _INT_MAX:
        raise CardRulesError(
            f"{name}: these rules make games too long for OpenSpiel (a game may last {length} "
            f"actions and score up to {max(abs(lo), abs(hi)):g}; OpenSpiel counts to {_INT_MAX}); "
            "choose a smaller target"
        )
    # the first deal: rules that cannot be dealt with this many players say so now
    enc.game.new_game(enc.rules, players=enc.players, seed=0)


class CardRulesGame(pyspiel.Game):
    """One cardrules game as an OpenSpiel game (made by ``pyspiel.load_game``)."""

    game_name = ""

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        params = dict(params or {})
        for key, value in params.items():  # OpenSpiel holds an int parameter in a C int
            if type(value) is int and not -_INT_MAX - 1 <= value <= _INT_MAX:
                raise CardRulesError(
                    f"{self.game_name}: parameter {key}={value} does not fit OpenSpiel's int"
                )
        for key, value in params.items():  # OpenSpiel's game strings cannot hold , ( ) = as such
            if isinstance(value, str):
                params[key] = _quote(unquote(value))
        rules, players, extra = encoding_type(self.game_name).rules_from_params(params)
        self.encoding = enc = encoding_for(self.game_name, rules, players, **extra)
        _check_params(self.game_name, enc)
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
        self._initial = enc.initial()

    def new_initial_state(self) -> CardRulesState:
        # positions are immutable: every new game shares the first one (OpenSpiel makes
        # a new initial state to learn a tensor's shape, at every observation_tensor call)
        return CardRulesState(self, self._initial)

    def deserialize_state(self, text: str) -> CardRulesState:
        """The state ``state.serialize()`` wrote (:data:`STATE_FORMAT`); anything else
        (another format, a pickle, a state of other rules or players, an action the
        rules do not allow) raises :class:`~cardrules.StateFormatError` saying why."""
        return CardRulesState(self, _read_position(self.encoding, text))

    def make_py_observer(
        self, iig_obs_type: Any = None, params: Mapping[str, Any] | None = None
    ) -> CardRulesObserver | None:
        """The observer of a player's view: with ``perfect_recall`` (the information
        state) the tensor ends with the whole view's code, else (the observation, the
        default) it holds the readable blocks only.  ``None`` for the public-only and
        private-only observation types, which a cardrules view does not split."""
        iig_obs_type = iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False)
        mine = pyspiel.PrivateInfoType.SINGLE_PLAYER
        if not (iig_obs_type.public_info and iig_obs_type.private_info == mine):
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
        # an immutable Position: every action replaces it (a clone shares it)
        self._pos = position if position is not None else game.encoding.initial()
        self._player = self._player_of(self._pos)  # OpenSpiel asks for it many times a step

    def _player_of(self, pos: Position) -> int:
        who = self._enc.to_act(pos)
        if who is None:
            return _TERMINAL
        return _CHANCE if who is CHANCE else int(who)

    # the cardrules side
    @property
    def cardrules_state(self) -> Any:
        """The underlying cardrules state (mid-deal: the state before the deal)."""
        return self._pos.state

    @property
    def position(self) -> Position:
        """The cardrules state with the pending tokens and the cards drawn so far."""
        return self._pos

    # the OpenSpiel side
    def current_player(self) -> int:
        return self._player

    def _legal_actions(self, player: int) -> list[int]:
        if player != self._player:
            return []
        return self._enc._legal(self._pos)  # kept on the position: OpenSpiel copies it

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self._enc._chance_outcomes(self._pos)  # likewise

    def _apply_action(self, action: int) -> None:
        self._pos = pos = self._enc.apply(self._pos, action)
        self._player = self._player_of(pos)

    def _action_to_string(self, player: int, action: int) -> str:
        return self._enc.action_string(self._pos, int(action))

    def is_terminal(self) -> bool:
        return self._player == _TERMINAL

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0] * self._enc.players
        return [float(s) for s in self._pos.state.scores]

    def serialize(self) -> str:
        """The position as JSON (:data:`STATE_FORMAT`), which ``game.deserialize_state``
        reads back."""
        return _write_position(self._enc, self._pos)

    def __str__(self) -> str:
        pos = self._pos
        text = self._enc.game.render(pos.state)
        if pos.pending:
            text += "\npending: " + " ".join(self._enc.token_name(t) for t in pos.pending)
        if pos.dealt:
            text += "\ndealt so far: " + " ".join(map(str, pos.dealt))
        return text


def _write_position(enc: Encoding, pos: Position) -> str:
    doc = {
        "format": STATE_FORMAT,
        "version": 1,
        "game": enc.name,
        "state": json.loads(to_json(pos.state)),
        "pending": list(pos.pending),
        "dealt": [str(c) for c in pos.dealt],
    }
    return json.dumps(doc, ensure_ascii=True)


def _read_position(enc: Encoding | str, text: object) -> Position:
    """The position :func:`_write_position` wrote, replayed with every check: the state
    from its history (:func:`cardrules.from_json`), then the cards dealt so far and the
    pending tokens through the encoding, as a framework would enter them.  ``enc`` is the
    game's encoding, or the game's name (the encoding of the state's rules and players)."""
    name = enc if isinstance(enc, str) else enc.name
    where = f"{name}: deserialize_state"
    if not isinstance(text, str):
        raise StateFormatError(f"{where} reads a JSON text, not {type(text).__name__}")
    if len(text) > MAX_STATE_TEXT:
        raise StateFormatError(f"{where}: a text of {len(text)} characters is longer than any game's")
    try:
        doc = json.loads(text)
    except (ValueError, RecursionError):  # not JSON, or nested past the caller's stack
        doc = None
    if not isinstance(doc, dict) or doc.get("format") != STATE_FORMAT:
        raise StateFormatError(
            f"{where} reads only the JSON that state.serialize() writes (format {STATE_FORMAT!r}); "
            f"this text is not that (it begins {text[:40]!r})"
        )
    check_depth(doc, where)
    if doc.get("version") != 1:
        raise StateFormatError(f"{where}: unknown version {doc.get('version')!r} (this library writes 1)")
    if doc.get("game") != name:
        raise StateFormatError(
            f"{where}: the text holds a state of {str(doc.get('game'))[:40]!r}, not of {name}"
        )
    pending, dealt = doc.get("pending"), doc.get("dealt")
    if not (isinstance(pending, list) and all(type(t) is int for t in pending)):
        raise StateFormatError(f"{where}: 'pending' must be a list of action ids")
    if not (isinstance(dealt, list) and all(isinstance(c, str) for c in dealt)):
        raise StateFormatError(f"{where}: 'dealt' must be a list of cards")
    if pending and dealt:
        raise StateFormatError(f"{where}: a position has pending tokens or cards dealt, not both")
    state = from_json(json.dumps(doc.get("state")))
    if isinstance(enc, str):
        enc = encoding_for(name, state.rules, state.players)
    if game_of(state) is not enc.game or state.players != enc.players or state.rules != enc.rules:
        raise StateFormatError(f"{where}: the state is not one of this game's rules and players")
    pos = enc.enter(state)
    try:
        for card in dealt:
            token = enc.card_id.get(parse_card(card), -1) if pos.remaining is not None else -1
            if token < 0 or sum(pos.remaining or ()) <= 1:
                raise StateFormatError(f"card {card!r} cannot be dealt here")
            pos = enc.apply(pos, token)
        if pending and (pos.remaining is not None or enc.is_terminal(pos)):
            raise StateFormatError("no player is entering an action here")
        for token in pending:
            if enc.completes(pos, token) is not None:
                raise StateFormatError(f"token {token} completes an action; it cannot be pending")
            pos = enc.apply(pos, token)
    except CardRulesError as exc:
        raise StateFormatError(f"{where}: {exc}") from None
    return pos


def _restore(name: str, text: str) -> Position:
    # what OpenSpiel's C++ serialization unpickles: the same JSON, read the same way
    return _read_position(name, text)


def _reduce_position(self: Position) -> tuple[Callable[..., Position], tuple[Any, ...]]:
    # OpenSpiel's C++ serialization pickles a Python state's attributes: the position
    # goes as its JSON (what state.serialize() writes)
    name = game_of(self.state).name
    return _restore, (name, _write_position(encoding_for(name, self.state.rules, self.state.players), self))


Position.__reduce__ = _reduce_position  # type: ignore[assignment,method-assign]


def observation_text(encoding: Encoding, position: Position, player: int) -> str:
    """What ``player`` observes: ``repr`` of its cardrules view, then (when it is
    entering an action) the tokens it chose so far."""
    text = repr(encoding.game.view(position.state, player))
    pending = seen_pending(position, player)
    if pending:
        text += "\npending: " + " ".join(encoding.token_name(t) for t in pending)
    return text


class CardRulesObserver:
    """OpenSpiel's Python observer: the string and the tensor of a player's view.  The
    tensor is one float32 array (``tensor``), with a named view of each block onto it
    (``dict``; see :mod:`cardrules.integrations.tensors`), filled in place by
    :meth:`set_from`."""

    def __init__(self, encoding: Encoding, iig_obs_type: Any, params: Mapping[str, Any] | None) -> None:
        if params:
            raise CardRulesError(f"observation parameters are not supported; passed {dict(params)}")
        self.encoding = encoding
        recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        self._tensor = tensor_of(encoding, recall)
        self.tensor = self._tensor.new()
        self.dict: dict[str, Any] = {
            name: self.tensor[start : start + size] for name, (start, size) in self._tensor.offsets.items()
        }

    def set_from(self, state: CardRulesState, player: int) -> None:
        pos = state.position
        self._tensor.write(self.tensor, pos.state, player, seen_pending(pos, player))

    def string_from(self, state: CardRulesState, player: int) -> str:
        return observation_text(self.encoding, state.position, player)


def from_cardrules(game: CardRulesGame, state: Any) -> CardRulesState:
    """An OpenSpiel state of ``game`` at cardrules ``state`` (which must be a state of the
    same game, rules and players).  Its OpenSpiel history holds the tokens of
    ``state.history``."""
    enc = game.encoding
    enc.game.check_state(state)
    out = game.new_initial_state()
    for token in enc.action_tokens(enc.game.new_game(enc.rules, players=enc.players), state.history):
        out.apply_action(token)
    if out.cardrules_state != state:
        raise CardRulesError(f"{enc.name}: the state does not belong to this game's rules and players")
    return out


def sampling_resampler(seed: int = 0) -> Callable[[CardRulesState, int], CardRulesState]:
    """A resampler for OpenSpiel's ``ISMCTSBot.set_resampler``: a state that ``player``
    cannot tell from the given one, hidden cards dealt at random by the game's own
    sampler (see :func:`cardrules.integrations.sampling.sample_state`)."""
    from .sampling import sample_state

    counter = [seed]

    def resample(state: CardRulesState, player: int) -> CardRulesState:
        counter[0] += 1
        game: CardRulesGame = state.get_game()
        enc = game.encoding
        sampled = sample_state(enc.name, state.cardrules_state, player, seed=counter[0])
        return CardRulesState(game, Position(sampled, state.position.pending))

    return resample


_GAME_TYPES: dict[str, Any] = {}


def register(name: str) -> str:
    """Register game ``name`` (any registered game whose ``GameDef`` has an encoding)
    with OpenSpiel as ``python_cardrules_<name>``; its short name.  Every such game
    registered before this module is imported is registered when it is imported (the
    four built-in games among them); calling this again does nothing."""
    short = GAME_NAMES.setdefault(name, f"python_cardrules_{name}")
    if name not in _GAME_TYPES:
        _GAME_TYPES[name] = _game_type(name)
    if short not in pyspiel.registered_names():
        cls = type(f"CardRules{name.title()}Game", (CardRulesGame,), {"game_name": name})
        pyspiel.register_game(_GAME_TYPES[name], cls)
    return short


# every game registered so far that has an encoding (the four built-in games first); a
# game registered later is added with register(name)
for _name in GAMES:
    if GAMES[_name].encoding is not None:
        register(_name)

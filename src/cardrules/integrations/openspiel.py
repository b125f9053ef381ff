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
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from typing import Any
from urllib.parse import unquote

from . import missing_extra

try:
    import pyspiel
except ModuleNotFoundError as _exc:
    raise missing_extra(_exc, "openspiel") from None

from ..cards import parse_card
from ..encoding import Encoding, Position, encoding_for, encoding_type
from ..errors import CardRulesError
from ..protocol import CHANCE, GAMES, game_of
from ..serialize import from_json, to_json
from .tensors import seen_pending, tensor_of

__all__ = [
    "GAME_NAMES",
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


class CardRulesGame(pyspiel.Game):
    """One cardrules game as an OpenSpiel game (made by ``pyspiel.load_game``)."""

    game_name = ""

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        params = dict(params or {})
        for key, value in params.items():  # OpenSpiel's game strings cannot hold , ( ) = as such
            if isinstance(value, str):
                params[key] = _quote(unquote(value))
        rules, players, extra = encoding_type(self.game_name).rules_from_params(params)
        self.encoding = enc = encoding_for(self.game_name, rules, players, **extra)
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

    def __str__(self) -> str:
        pos = self._pos
        text = self._enc.game.render(pos.state)
        if pos.pending:
            text += "\npending: " + " ".join(self._enc.token_name(t) for t in pos.pending)
        if pos.dealt:
            text += "\ndealt so far: " + " ".join(map(str, pos.dealt))
        return text


def _restore(name: str, state_json: str, pending: tuple[int, ...], dealt: tuple[str, ...]) -> Position:
    state = from_json(state_json)
    if not dealt and state.to_act is not CHANCE:
        return Position(state, pending)
    cards = Counter(GAMES[name].chance_cards(state))
    drawn = tuple(parse_card(c) for c in dealt)
    cards.subtract(drawn)
    alphabet = encoding_for(name, state.rules, state.players).cards
    return Position(state, pending, drawn, tuple(max(0, cards.get(c, 0)) for c in alphabet))


def _reduce_position(self: Position) -> tuple[Callable[..., Position], tuple[Any, ...]]:
    # OpenSpiel serializes a Python state by pickling it: the cardrules state goes as JSON
    name = game_of(self.state).name
    return _restore, (name, to_json(self.state), self.pending, tuple(map(str, self.dealt)))


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

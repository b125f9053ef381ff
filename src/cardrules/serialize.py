"""Exact JSON for every state of every game.

The format is **history-based**, as OpenSpiel recommends: a state is stored as its game,
its rules, its player count, its seed and the list of actions that led to it.  Reading it
back replays the actions through the game's own ``apply``, so a file can never produce a
state that could not have happened: a tampered card, an illegal action or an unknown game
is refused with a :class:`~cardrules.StateFormatError` saying what is wrong.

Format, version 1 (a JSON object)::

    {"format": "cardrules/state", "version": 1, "game": "aegis", "players": 2,
     "seed": 7, "rules": {"target": 25, ...},
     "history": [{"action": "Shuffle", "order": ["5H", "KC", ...]},
                 {"action": "Bid", "n": 3}, ...]}

Values are encoded by their declared type: a card as its canonical string (``"10H"``), a
tuple as a list, an attrs class (a haggis ``Combo``) as an object of its fields, a trick
table or an Eleusis rule as its source text (types register their codec with
:func:`register_codec`).  ``seed`` is an int, a string or null (any other seed is stored as
its ``str``, which seeds chance identically).  The text is always valid UTF-8: a string
that is not (a lone surrogate such as ``"\\ud800"``) is written with JSON's ``\\u``
escapes, and reads back as the same string.

>>> from cardrules import parse_cards
>>> encode_value(parse_cards("10H QS"))
['10H', 'QS']
>>> decode_value(tuple[Card, ...], ['10H', 'QS']) == parse_cards("10H QS")
True
"""

from __future__ import annotations

import enum
import json
import types
import typing
from collections.abc import Callable
from typing import Any, Final, Literal, Union

import attrs

from . import protocol as _protocol
from .cards import Card, parse_card
from .errors import CardRulesError, StateFormatError
from .protocol import CHANCE, GAMES, GameDef, game_of

__all__ = ["FORMAT", "VERSION", "decode_value", "encode_value", "from_json", "register_codec", "to_json"]

FORMAT: Final = "cardrules/state"
VERSION: Final = 1

_CODECS: dict[type, tuple[Callable[[Any], Any], Callable[[Any], Any]]] = {}
_HINTS: dict[type, dict[str, Any]] = {}


def register_codec(cls: type, encode: Callable[[Any], Any], decode: Callable[[Any], Any]) -> None:
    """Teach the codec a type: ``encode(value)`` gives JSON data, ``decode(data)`` the
    value back (raising :class:`~cardrules.CardRulesError` on bad data)."""
    _CODECS[cls] = (encode, decode)


def encode_value(value: Any) -> Any:
    """JSON data for a card, an action, a view, rules, or anything built of them."""
    if value is None or type(value) in (bool, int, str, float):
        return value
    if value is CHANCE:  # a view's to_act at a chance node
        return "CHANCE"
    if isinstance(value, enum.Enum):
        return encode_value(value.value)
    if isinstance(value, Card):
        return str(value)
    codec = _CODECS.get(type(value))
    if codec is not None:
        return codec[0](value)
    if isinstance(value, (tuple, list, frozenset)):
        return [encode_value(v) for v in value]
    if isinstance(value, dict):
        return {str(encode_value(k)): encode_value(v) for k, v in value.items()}
    if attrs.has(type(value)):
        return {f.name: encode_value(getattr(value, f.name)) for f in attrs.fields(type(value))}
    raise CardRulesError(f"cannot encode {type(value).__name__} as JSON")


def _hints(cls: type) -> dict[str, Any]:
    try:
        return _HINTS[cls]
    except KeyError:
        hints = typing.get_type_hints(cls)
        _HINTS[cls] = hints
        return hints


#: The scalar types a JSON document holds as themselves: which data fit (an integer is
#: never a bool) and what an error says was expected.
_SCALARS: dict[type, tuple[Callable[[Any], bool], str]] = {
    type(None): (lambda data: data is None, "null"),
    bool: (lambda data: isinstance(data, bool), "true or false"),
    int: (lambda data: isinstance(data, int) and not isinstance(data, bool), "an integer"),
    str: (lambda data: isinstance(data, str), "a string"),
}


def decode_value(tp: Any, data: Any, where: str = "value") -> Any:
    """The value of declared type ``tp`` encoded as ``data`` by :func:`encode_value`."""
    if tp is Any:
        return data
    origin = typing.get_origin(tp)
    if origin in (Union, types.UnionType):
        errors = []
        for arm in typing.get_args(tp):
            try:
                return decode_value(arm, data, where)
            except CardRulesError as exc:
                errors.append(str(exc))
        raise StateFormatError(f"{where}: {data!r} fits none of its types ({'; '.join(errors)})")
    if origin is Literal:
        if data in typing.get_args(tp) and type(data) in (str, int, bool):
            return data
        raise StateFormatError(f"{where}: {data!r} is not one of {typing.get_args(tp)}")
    scalar = _SCALARS.get(tp) if isinstance(tp, type) else None
    if scalar is not None:
        fits, expected = scalar
        if fits(data):
            return data
        raise StateFormatError(f"{where}: expected {expected}, got {data!r}")
    if tp is Card:
        if not isinstance(data, str):
            raise StateFormatError(f"{where}: expected a card such as '10H', got {data!r}")
        try:
            return parse_card(data)
        except CardRulesError as exc:
            raise StateFormatError(f"{where}: {exc}") from None
    if origin is tuple:
        args = typing.get_args(tp)
        if not isinstance(data, list):
            raise StateFormatError(f"{where}: expected a list, got {data!r}")
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(decode_value(args[0], d, f"{where}[{i}]") for i, d in enumerate(data))
        if len(args) != len(data):
            raise StateFormatError(f"{where}: expected {len(args)} items, got {len(data)}")
        return tuple(
            decode_value(a, d, f"{where}[{i}]") for i, (a, d) in enumerate(zip(args, data, strict=True))
        )
    if isinstance(tp, type):
        codec = _CODECS.get(tp)
        if codec is not None:
            try:
                return codec[1](data)
            except CardRulesError as exc:
                raise StateFormatError(f"{where}: {exc}") from None
        if issubclass(tp, enum.Enum):
            try:
                return tp(data)
            except ValueError:
                raise StateFormatError(f"{where}: {data!r} is not a {tp.__name__}") from None
        if attrs.has(tp):
            return _decode_attrs(tp, data, where)
    raise StateFormatError(f"{where}: cannot decode a value of type {tp!r}")


def _decode_attrs(cls: type, data: Any, where: str) -> Any:
    if not isinstance(data, dict):
        raise StateFormatError(f"{where}: expected an object for {cls.__name__}, got {data!r}")
    hints = _hints(cls)
    names = [f.name for f in attrs.fields(cls) if f.init]
    unknown = set(data) - set(names)
    if unknown:
        raise StateFormatError(f"{where}: {cls.__name__} has no field {sorted(unknown)[0]!r}")
    kwargs = {
        name: decode_value(hints[name], data[name], f"{where}.{name}") for name in names if name in data
    }
    try:
        return cls(**kwargs)
    except CardRulesError as exc:
        raise StateFormatError(f"{where}: {exc}") from None
    except (TypeError, ValueError) as exc:
        raise StateFormatError(f"{where}: not a valid {cls.__name__}: {exc}") from None


def _encode_action(action: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"action": type(action).__name__}
    for f in attrs.fields(type(action)):
        out[f.name] = encode_value(getattr(action, f.name))
    return out


def _decode_action(game: GameDef[Any, Any], data: Any, where: str) -> Any:
    if not isinstance(data, dict) or not isinstance(data.get("action"), str):
        raise StateFormatError(f"{where}: expected an object with an 'action' name, got {data!r}")
    name = data["action"]
    for cls in game.action_types:
        if cls.__name__ == name:
            fields = {k: v for k, v in data.items() if k != "action"}
            return _decode_attrs(cls, fields, where)
    known = ", ".join(c.__name__ for c in game.action_types)
    raise StateFormatError(f"{where}: {game.name} has no action {name!r} (known: {known})")


def _encode_seed(seed: object) -> int | str | None:
    if seed is None or (isinstance(seed, int) and not isinstance(seed, bool)):
        return seed
    return str(seed)


def to_json(state: Any, *, indent: int | None = None) -> str:
    """The state as JSON text (format above); :func:`from_json` reads it back exactly."""
    game = game_of(state)
    if not state.history and state != game.new_game(state.rules, players=state.players):
        # a state sampled from a view is a position without a past: nothing to store
        raise StateFormatError(
            f"{game.name}: this state has no history (a sample drawn from a view?); "
            "JSON stores a state as the actions that led to it"
        )
    doc = {
        "format": FORMAT,
        "version": VERSION,
        "game": game.name,
        "players": state.players,
        "seed": _encode_seed(state.seed),
        "rules": encode_value(state.rules),
        "history": [_encode_action(a) for a in state.history],
    }
    text = json.dumps(doc, ensure_ascii=False, indent=indent)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        # a lone surrogate (a seed "\ud800", a rule's text): written as its JSON escape,
        # which every JSON reader gives back as the same string, and a file can hold
        text = json.dumps(doc, ensure_ascii=True, indent=indent)
    return text


def from_json(text: str | bytes) -> Any:
    """The state stored by :func:`to_json`.

    Everything read is checked: the format and version, the game, the rules (through
    ``Rules`` itself), every card, and every action (by replaying it: an action that is
    not legal where it stands is refused).  Any fault raises
    :class:`~cardrules.StateFormatError` saying what and where.
    """
    try:
        doc = json.loads(text)
    except (ValueError, TypeError, RecursionError) as exc:
        raise StateFormatError(f"not JSON text: {exc}") from None
    if not isinstance(doc, dict):
        raise StateFormatError("a cardrules state is a JSON object")
    if doc.get("format") != FORMAT:
        raise StateFormatError(
            f"not a cardrules state (format is {doc.get('format')!r}, expected {FORMAT!r})"
        )
    if doc.get("version") != VERSION:
        raise StateFormatError(
            f"unsupported version {doc.get('version')!r}: this cardrules reads version {VERSION}"
        )
    name = doc.get("game")
    if not isinstance(name, str) or name not in GAMES:
        raise StateFormatError(f"unknown game {name!r} (known: {', '.join(GAMES)})")
    game = GAMES[name]
    missing = [k for k in ("players", "seed", "rules", "history") if k not in doc]
    if missing:
        raise StateFormatError(f"the state has no {missing[0]!r}")
    players = doc["players"]
    if not isinstance(players, int) or isinstance(players, bool):
        raise StateFormatError(f"players must be an integer, not {players!r}")
    seed = doc["seed"]
    if not (seed is None or isinstance(seed, str) or (isinstance(seed, int) and not isinstance(seed, bool))):
        raise StateFormatError(f"seed must be an integer, a string or null, not {seed!r}")
    rules = decode_value(game.Rules, doc["rules"], "rules")
    history = doc["history"]
    if not isinstance(history, list):
        raise StateFormatError("history must be a list of actions")
    actions = [_decode_action(game, a, f"history[{i}]") for i, a in enumerate(history)]
    try:
        state = game.replay(rules, actions, players=players)
    except CardRulesError as exc:
        raise StateFormatError(f"history does not replay: {exc}") from None
    if seed is not None:
        if state.to_act is CHANCE:
            raise StateFormatError("a seeded state never waits at a chance node")
        state = attrs.evolve(state, seed=seed)
    return state


def _typed_copy(value: Any) -> Any:
    """``value`` (an attrs record) encoded and decoded again: a field of a type its class
    does not declare raises :class:`~cardrules.StateFormatError`."""
    return decode_value(type(value), encode_value(value), "view")


# what GameDef.sampler checks a view's field types with (the protocol cannot import this
# module: this module imports it)
_protocol._typed_copy = _typed_copy

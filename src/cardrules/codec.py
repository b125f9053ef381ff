"""The JSON codec of values: cards, actions, views, rules, and anything built of them.

:func:`encode_value` turns a value into JSON data by its type; :func:`decode_value` reads
data back as a value of a declared type, checking it (every card, every field of an
attrs class by its annotation); a type that needs its own form registers it with
:func:`register_codec` (a trick table or an Eleusis rule is stored as its source text).
:mod:`cardrules.serialize` stores whole states with it, and the protocol checks the
fields of a view with it (:func:`typed_copy`).

>>> from cardrules import parse_cards
>>> encode_value(parse_cards("10H QS"))
['10H', 'QS']
>>> decode_value(tuple[Card, ...], ['10H', 'QS']) == parse_cards("10H QS")
True
"""

from __future__ import annotations

import enum
import types
import typing
from collections.abc import Callable
from typing import Any, Final, Literal, Union

import attrs

from ._chance import CHANCE, Chance
from .cards import Card, parse_card
from .errors import CardRulesError, StateFormatError

__all__ = ["MAX_DEPTH", "check_depth", "decode_value", "encode_value", "register_codec", "typed_copy"]

#: the deepest nesting of lists and objects a reader accepts (a state's record, a view,
#: rules: the deepest any game writes is under 10); deeper data is refused before it is
#: read, so no reader recurses deeper than this whatever its caller's stack holds
MAX_DEPTH: Final = 64

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


def check_depth(data: Any, where: str = "value", limit: int = MAX_DEPTH) -> None:
    """Raise :class:`~cardrules.StateFormatError` if JSON data (lists and dicts) nests
    deeper than ``limit``; walked without recursion, so any stack can check any data."""
    stack: list[tuple[Any, int]] = [(data, 1)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, dict):
            items: Any = value.values()
        elif isinstance(value, (list, tuple)):
            items = value
        else:
            continue
        if depth > limit:
            raise StateFormatError(f"{where}: lists and objects nested deeper than {limit} levels")
        stack.extend((v, depth + 1) for v in items)


def decode_value(tp: Any, data: Any, where: str = "value") -> Any:
    """The value of declared type ``tp`` encoded as ``data`` by :func:`encode_value`.
    Data nested deeper than ``MAX_DEPTH`` (64) is refused
    (:class:`~cardrules.StateFormatError`) before it is read."""
    check_depth(data, where)
    try:
        return _decode(tp, data, where)
    except RecursionError:  # a caller whose own stack is nearly full
        raise StateFormatError(f"{where}: too deeply nested to read here") from None


def _decode(tp: Any, data: Any, where: str) -> Any:
    if tp is Any:
        return data
    origin = typing.get_origin(tp)
    if origin in (Union, types.UnionType):
        errors = []
        for arm in typing.get_args(tp):
            try:
                return _decode(arm, data, where)
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
    if tp is Chance:  # a view's to_act at a chance node
        if data == "CHANCE":
            return CHANCE
        raise StateFormatError(f"{where}: expected 'CHANCE', got {data!r}")
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
            return tuple(_decode(args[0], d, f"{where}[{i}]") for i, d in enumerate(data))
        if len(args) != len(data):
            raise StateFormatError(f"{where}: expected {len(args)} items, got {len(data)}")
        return tuple(
            _decode(a, d, f"{where}[{i}]") for i, (a, d) in enumerate(zip(args, data, strict=True))
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
        name: _decode(hints[name], data[name], f"{where}.{name}") for name in names if name in data
    }
    try:
        return cls(**kwargs)
    except CardRulesError as exc:
        raise StateFormatError(f"{where}: {exc}") from None
    except (TypeError, ValueError) as exc:
        raise StateFormatError(f"{where}: not a valid {cls.__name__}: {exc}") from None


def typed_copy(value: Any) -> Any:
    """``value`` (an attrs record) encoded and decoded again: a field of a type its class
    does not declare raises :class:`~cardrules.StateFormatError`."""
    return decode_value(type(value), encode_value(value), "view")

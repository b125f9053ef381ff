"""A view's exact code: any view (or part of one) as a prefix-free sequence of integers,
each value tagged by its kind, so that different views always have different codes.  The
last block of the adapters' observation tensors (:mod:`cardrules.encoding`); re-exported
there as :func:`cardrules.encoding.view_code`."""

from __future__ import annotations

import operator
import zlib
from collections.abc import Callable
from itertools import chain, repeat
from typing import Any

import attrs

from ._chance import CHANCE
from .cards import Card

__all__ = ["view_code"]

# tags of the prefix-free code
_NONE, _BOOL, _INT, _STR, _CARD, _SEQ, _REC, _CHANCE, _OTHER = range(1, 10)
# per record type: its tag and the getter of its fields' values, in order
_RECORDS: dict[type, tuple[int, Callable[[Any], Any]]] = {}


_Memo = dict[int, tuple[Any, list[int]]]


def view_code(value: Any, card_id: dict[Card, int], memo: _Memo | None = None) -> list[int]:
    """``value`` (a view or any part of one) as a prefix-free sequence of integers: each
    value tagged by its kind (nothing, flag, number, text, card, sequence, record), so
    that different views always have different codes.  ``memo`` (for one ``card_id``)
    keeps the codes of the tuples and records met, by identity (each with its value,
    so that an id is never reused while it is kept): the parts successive views share
    (the tricks played, the lines of cards) are then coded once."""
    out: list[int] = []
    _code(value, card_id, out, {} if memo is None else memo)
    return out


def _code(value: Any, card_id: dict[Card, int], out: list[int], memo: _Memo) -> None:
    kind = type(value)
    if kind is Card:
        out += (_CARD, card_id[value])
    elif kind is int:
        out += (_INT, value)
    elif value is None:
        out.append(_NONE)
    elif kind is tuple:
        if len(value) < 3:  # (not worth a memo)
            out += (_SEQ, len(value))
            _items(value, card_id, out, memo)
            return
        hit = memo.get(id(value))
        if hit is not None and hit[0] is value:
            out += hit[1]
            return
        start = len(out)
        out += (_SEQ, len(value))
        if type(value[0]) is Card:
            try:  # a pile of cards (the common case): each card's tag and id, in C loops
                out += chain.from_iterable(zip(repeat(_CARD), map(card_id.__getitem__, value)))
            except (KeyError, TypeError):  # not only cards: one by one
                del out[start + 2 :]
                _items(value, card_id, out, memo)
        else:
            _items(value, card_id, out, memo)
        memo[id(value)] = (value, out[start:])
    elif kind is bool:
        out += (_BOOL, int(value))
    elif value is CHANCE:
        out.append(_CHANCE)
    elif kind is str:
        out += (_STR, len(value), *map(ord, value))
    else:
        record = _RECORDS.get(kind)
        if record is None and attrs.has(kind):
            tag = zlib.crc32(kind.__name__.encode()) & 0xFFFF
            names = tuple(f.name for f in attrs.fields(kind))
            record = _RECORDS[kind] = (tag, _fields_getter(names))
        if record is not None:
            hit = memo.get(id(value))
            if hit is not None and hit[0] is value:
                out += hit[1]
                return
            start = len(out)
            out += (_REC, record[0])
            _items(record[1](value), card_id, out, memo)
            memo[id(value)] = (value, out[start:])
        elif isinstance(value, bool):  # subclasses: as their base
            _code(bool(value), card_id, out, memo)
        elif isinstance(value, int):
            _code(int(value), card_id, out, memo)
        elif isinstance(value, str):
            _code(str(value), card_id, out, memo)
        elif isinstance(value, tuple):
            _code(tuple(value), card_id, out, memo)
        else:  # e.g. an Eleusis rule: its text
            text = str(value)
            out += (_OTHER, len(text), *map(ord, text))


def _fields_getter(names: tuple[str, ...]) -> Callable[[Any], tuple[Any, ...]]:
    """The values of the fields ``names`` of a record, as a tuple, in one call."""
    if len(names) > 1:
        return operator.attrgetter(*names)
    if names:
        get = operator.attrgetter(names[0])
        return lambda v: (get(v),)
    return lambda v: ()


def _items(values: Any, card_id: dict[Card, int], out: list[int], memo: _Memo) -> None:
    """The codes of ``values`` one after the other (cards, numbers and ``None`` inline)."""
    for v in values:
        kind = type(v)
        if kind is Card:
            out += (_CARD, card_id[v])
        elif kind is int:
            out += (_INT, v)
        elif v is None:
            out.append(_NONE)
        else:
            _code(v, card_id, out, memo)

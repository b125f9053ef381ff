"""The items of a constant set or list (``{2, 5..9}``, ``[3, 1, 4]``), ranges kept as
intervals.

A range ``lo..hi`` stands for every integer from ``lo`` to ``hi`` whatever its size:
``card.rank in {1..999999999}`` costs no more memory than ``{1..2}``.  Small sets and
lists (at most :data:`SMALL` values in all) are expanded by the code generator into a
frozenset or a dictionary, the fastest look-up; larger ones are an :class:`Items` object
whose look-ups work on the intervals (a binary search for membership, a walk over the
written items for positions).  The type checker has made every item one type, so values
of different types (``True`` and ``1``) never meet here.
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence
from typing import Any

from . import ast as A
from .ast import Item

__all__ = ["SMALL", "Items"]

#: Sets and lists of at most this many values are expanded into a table.
SMALL = 256


def _same(a: object, b: object) -> bool:
    return type(a) is type(b) and a == b


class Items:
    """The items of one set or list, in the order written; immutable.

    ``size`` is the number of values (a range counts all its integers); :meth:`values`
    expands them (only for :data:`SMALL` sizes); :meth:`contains`, :meth:`at` and
    :meth:`after` answer without expanding.  ``None`` (*nothing*) is in no set.
    """

    __slots__ = ("_ends", "_offsets", "_segments", "_singles", "_starts", "size")

    def __init__(self, items: Sequence[Item]) -> None:
        segments: list[tuple[Any, Any]] = []  # (lo, hi) of a range, or (value, _SINGLE)
        offsets: list[int] = []
        size = 0
        for item in items:
            offsets.append(size)
            if isinstance(item, A.Range):
                lo, hi = item.lo.value, item.hi.value
                assert type(lo) is int and type(hi) is int and lo <= hi
                segments.append((lo, hi))
                size += hi - lo + 1
            else:
                segments.append((item.value, _SINGLE))
                size += 1
        self._segments = tuple(segments)
        self._offsets = tuple(offsets)
        self.size = size
        self._singles = frozenset(v for v, hi in segments if hi is _SINGLE)
        # Merged, sorted intervals of the ranges, for membership.
        spans = sorted((lo, hi) for lo, hi in segments if hi is not _SINGLE)
        merged: list[list[int]] = []
        for lo, hi in spans:
            if merged and lo <= merged[-1][1] + 1:
                merged[-1][1] = max(merged[-1][1], hi)
            else:
                merged.append([lo, hi])
        self._starts = tuple(m[0] for m in merged)
        self._ends = tuple(m[1] for m in merged)

    def values(self) -> list[Any]:
        """Every value, in order (ranges expanded); only for at most :data:`SMALL` values."""
        if self.size > SMALL:
            raise ValueError(f"{self.size} values are too many to expand")
        out: list[Any] = []
        for lo, hi in self._segments:
            if hi is _SINGLE:
                out.append(lo)
            else:
                out.extend(range(lo, hi + 1))
        return out

    def contains(self, x: object) -> bool:
        """Whether ``x`` is one of the values."""
        if x is None:
            return False
        if type(x) is int and self._starts:
            i = bisect.bisect_right(self._starts, x) - 1
            if i >= 0 and x <= self._ends[i]:
                return True
        return x in self._singles  # one type: the checker refuses mixed items

    def at(self, i: object) -> Any:
        """The value at 0-based place ``i``; ``None`` (*nothing*) out of range."""
        if type(i) is not int or not 0 <= i < self.size:
            return None
        k = bisect.bisect_right(self._offsets, i) - 1
        lo, hi = self._segments[k]
        return lo if hi is _SINGLE else lo + (i - self._offsets[k])

    def index(self, x: object) -> int | None:
        """The 0-based place of ``x``'s first occurrence, ``None`` if absent."""
        if x is None:
            return None
        for (lo, hi), offset in zip(self._segments, self._offsets, strict=True):
            if hi is _SINGLE:
                if _same(lo, x):
                    return offset
            elif type(x) is int and lo <= x <= hi:
                return offset + (x - int(lo))
        return None

    def after(self, x: object) -> Any:
        """The value after ``x``'s first occurrence, cyclically (after the last comes
        the first); ``None`` (*nothing*) if ``x`` is absent."""
        i = self.index(x)
        return None if i is None else self.at((i + 1) % self.size)

    def __repr__(self) -> str:
        return f"<Items of {self.size} values>"


class _Single:
    __slots__ = ()

    def __repr__(self) -> str:
        return "single"


_SINGLE: Any = _Single()

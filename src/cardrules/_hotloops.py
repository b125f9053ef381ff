"""Two loops that random playouts spend much of their time in, in Python and in C.

``subset_objects`` makes the action objects of "every subset of these cards" (an Aegis
exchange decision has 32 of them); ``shuffle`` is the seeded shuffle of every deal.  The
Python versions here are the reference.  When cardrules was installed with a C compiler
at hand, ``cardrules._speedups`` (``src/cardrules/_speedups.c``) holds the same two
functions in C, and they are used instead: the same results, about three times faster
(``docs/performance/aegis.rst``).  Neither knows a game's rules.

:data:`IMPLEMENTATION` says which is in use (``"C"`` or ``"Python"``); setting the
environment variable ``CARDRULES_PURE_PYTHON`` to a non-empty value before cardrules is
imported keeps the Python versions (for comparisons and debugging).  The tests check that
both give the same results.
"""

from __future__ import annotations

import os
from collections import deque
from collections.abc import Callable
from itertools import combinations, repeat
from math import comb
from typing import Any

__all__ = ["IMPLEMENTATION", "shuffle", "subset_objects"]

_new = object.__new__


def subset_objects_py(
    items: tuple[Any, ...], slot: Any, interned: dict[tuple[Any, ...], Any], interned_sizes: int
) -> tuple[Any, ...]:
    """Every subset of ``items``, by size (the empty one first) then in the order of
    ``itertools.combinations``, each as an object: ``interned[subset]`` for a size up to
    ``interned_sizes``, else a new instance of the class that owns the member
    descriptor ``slot`` (a slotted class whose only field that is), with that slot set
    to the subset's tuple.  No ``__init__`` runs: the caller vouches that the subsets
    are valid values of that field."""
    cls, set_slot = slot.__objclass__, slot.__set__
    out: list[Any] = []
    n = len(items)
    for k in range(n + 1):
        if k <= interned_sizes:
            out += map(interned.__getitem__, combinations(items, k))
        else:  # new objects, filled in C loops (no Python frame per object)
            fresh = list(map(_new, repeat(cls, comb(n, k))))
            deque(map(set_slot, fresh, combinations(items, k)), 0)
            out += fresh
    return tuple(out)


def shuffle_py(items: list[Any], getrandbits: Callable[[int], int]) -> None:
    """``random.Random.shuffle``'s algorithm on ``items`` with the given
    ``getrandbits``: for i from n-1 down to 1, j is ``getrandbits(k)`` (k the bit length
    of i + 1) drawn again until it is at most i, then items i and j are swapped."""
    for i in range(len(items) - 1, 0, -1):
        n = i + 1
        bits = n.bit_length()
        j = getrandbits(bits)
        while j >= n:
            j = getrandbits(bits)
        items[i], items[j] = items[j], items[i]


subset_objects: Callable[[tuple[Any, ...], Any, dict[tuple[Any, ...], Any], int], tuple[Any, ...]]
shuffle: Callable[[list[Any], Callable[[int], int]], None]
IMPLEMENTATION: str
#: The compiled module when it is used (``None`` otherwise); ``_fastinit`` takes its
#: record maker from it.
c_speedups: Any
try:
    if os.environ.get("CARDRULES_PURE_PYTHON"):
        raise ImportError("CARDRULES_PURE_PYTHON is set")
    from . import _speedups as c_speedups
except ImportError:  # not compiled at install time (no C compiler), or not wanted
    c_speedups = None
    subset_objects, shuffle = subset_objects_py, shuffle_py
    IMPLEMENTATION = "Python"
else:
    subset_objects, shuffle = c_speedups.subset_objects, c_speedups.shuffle
    IMPLEMENTATION = "C"

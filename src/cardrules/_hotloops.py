"""The optional C accelerator: what it holds, its pure-Python twins, and the switch.

cardrules is a pure-Python library.  A few things it does at every step of a game have a
C version in the optional module ``cardrules._speedups`` (``src/cardrules/_speedups.c``),
compiled when cardrules is installed with a C compiler at hand:

* :func:`coded_subsets`: the action objects of "every subset of these cards" (an Aegis
  exchange decision has 32 of them), the small ones interned and found by arithmetic on
  their items' codes (an index into a table of interned objects) rather than by a tuple
  key;
* :func:`fisher_yates`: the swaps of the library's seeded shuffle (every seeded deal);
* :func:`same_objects`: whether a ``Shuffle`` holds the very cards of its chance node
  (cards are interned), the fast half of the check every ``Shuffle`` gets from
  :meth:`~cardrules.protocol.GameDef.apply`.

The pure-Python twins are the reference: the ``*_py`` functions here.  Both give the
same results (the tests compare them, and CI runs the whole test suite with and without
the C module); the C versions are faster (``docs/performance/speedups.rst``).  Neither
knows a game's rules.  The C module is built on CPython's limited API, one binary for
CPython 3.10 and later; built for the free-threaded CPython (which has no limited API) it
declares that it needs no GIL.

:data:`IMPLEMENTATION` says which is in use (``"C"`` or ``"Python"``).  Setting the
environment variable ``CARDRULES_PURE_PYTHON`` to a non-empty value before cardrules is
imported turns the accelerator off: the C module is then not even imported.
"""

from __future__ import annotations

import os
from collections import deque
from collections.abc import Callable
from itertools import combinations, repeat
from math import comb
from struct import Struct
from typing import Any

__all__ = [
    "IMPLEMENTATION",
    "c_speedups",
    "coded_subsets",
    "coded_subsets_py",
    "fisher_yates",
    "fisher_yates_py",
    "same_objects",
    "same_objects_py",
]

_new = object.__new__


def coded_subsets_py(
    items: tuple[Any, ...],
    codes: dict[Any, int],
    base: int,
    tables: tuple[tuple[Any, ...], ...],
    cls: type,
    name: str,
) -> tuple[Any, ...]:
    """Every subset of ``items``, by size (the empty one first) then in the order of
    ``itertools.combinations``, each as an object.  Those of a size ``k < len(tables)``
    are found by their items' codes: the subset whose items have the
    codes ``c0, c1, ..., c(k-1)`` (``codes[item]``, each from 0 to ``base - 1``, in the
    order of ``items``) is ``tables[k][rank]`` with ``rank = ((c0 * base + c1) * base +
    ...) + c(k-1)`` (0 for the empty subset).  An item without a code, or a subset whose
    rank is out of its table or finds ``None`` there, is a :class:`KeyError`.  Larger
    subsets are new instances of ``cls`` (a slotted class whose only field is the slot
    ``name``) with that slot set to the subset's tuple.  No ``__init__`` runs: the caller
    vouches that each subset is already what the class's constructor would store (see
    ``aegis.Exchange``)."""
    set_slot = cls.__dict__[name].__set__
    coded: list[int] = []
    for item in items:
        c = codes[item]
        if not 0 <= c < base:
            raise KeyError(item)
        coded.append(c)
    out: list[Any] = []
    n = len(items)
    for k in range(n + 1):
        if k < len(tables):
            table = tables[k]
            for positions in combinations(range(n), k):
                rank = 0
                for i in positions:
                    rank = rank * base + coded[i]
                obj = table[rank] if rank < len(table) else None
                if obj is None:
                    raise KeyError(tuple(items[i] for i in positions))
                out.append(obj)
        else:
            fresh: list[Any] = list(map(_new, repeat(cls, comb(n, k))))
            deque(map(set_slot, fresh, combinations(items, k)), 0)
            out += fresh
    return tuple(out)


def same_objects_py(a: tuple[Any, ...], b: tuple[Any, ...]) -> bool:
    """Whether ``a`` and ``b`` hold the same objects (by identity) as many times each, in
    any order."""
    return len(a) == len(b) and sorted(map(id, a)) == sorted(map(id, b))


def fisher_yates_py(items: list[Any], stream: bytes) -> None:
    """The swaps of the library's seeded shuffle (:mod:`cardrules._shuffling`), in
    place: ``stream`` read as big-endian unsigned 64-bit draws, and for ``t, i`` in
    ``enumerate(range(len(items) - 1, 0, -1))`` the items at ``i`` and ``draws[t] %
    (i + 1)`` swapped.  A list of fewer than two items is left as it is."""
    if type(items) is not list or type(stream) is not bytes:
        raise TypeError("fisher_yates(items: list, stream: bytes)")
    n = len(items)
    if n < 2:
        return
    if len(stream) < 8 * (n - 1):
        raise ValueError("fisher_yates: the stream must hold 8 bytes per item but one")
    unpack = _UNPACKERS.get(n - 1)
    if unpack is None:
        unpack = _UNPACKERS[n - 1] = Struct(f">{n - 1}Q")
    i = n - 1
    for draw in unpack.unpack_from(stream):
        j = draw % (i + 1)
        items[i], items[j] = items[j], items[i]
        i -= 1


# One compiled Struct per number of draws ("> n Q"): unpacking is one loop in C.
_UNPACKERS: dict[int, Struct] = {}


coded_subsets: Callable[
    [tuple[Any, ...], dict[Any, int], int, tuple[tuple[Any, ...], ...], type, str], tuple[Any, ...]
]
same_objects: Callable[[tuple[Any, ...], tuple[Any, ...]], bool]
fisher_yates: Callable[[list[Any], bytes], None]
IMPLEMENTATION: str
#: The compiled module when it is used (``None`` otherwise).
c_speedups: Any
try:
    if os.environ.get("CARDRULES_PURE_PYTHON"):
        raise ImportError("CARDRULES_PURE_PYTHON is set")
    from . import _speedups as c_speedups
except (ImportError, SystemError):
    # not compiled at install time (no C compiler), or not wanted; or, in a source
    # checkout, an abi3 module built for a CPython with a GIL, which a free-threaded
    # CPython finds by its name but cannot initialise (SystemError)
    c_speedups = None
    coded_subsets = coded_subsets_py
    same_objects = same_objects_py
    fisher_yates = fisher_yates_py
    IMPLEMENTATION = "Python"
else:
    coded_subsets = c_speedups.coded_subsets
    same_objects = c_speedups.same_objects
    fisher_yates = c_speedups.fisher_yates
    IMPLEMENTATION = "C"

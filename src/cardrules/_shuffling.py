"""The library's own seeded shuffle: the same deal for a seed on every Python version and
in any other language.

A seeded game resolves its ``k``-th chance node (``k`` counts the :class:`Shuffle` actions
already in the history, from 0) by shuffling the canonical chance cards with
:func:`seeded_order`:

* ``stream``: the first ``8 * (n - 1)`` bytes of SHAKE-256 of the text ``f"{seed}:{k}"``
  encoded as UTF-8 (``surrogatepass``, so that any Python string is a seed);
* ``draws``: the stream read as ``n - 1`` big-endian unsigned 64-bit integers;
* Fisher-Yates from the last position down: for ``t, i`` in ``enumerate(range(n - 1, 0,
  -1))``, swap the items at ``i`` and ``draws[t] % (i + 1)``.

Every step is a published, frozen algorithm (SHAKE-256 is FIPS 202; the rest is integer
arithmetic), so the deal never depends on the private state machine of Python's
``random``, which promises no stable ``shuffle`` across versions.  The modulo makes the
shuffle very slightly non-uniform: for 104 cards the largest bias is below ``104 / 2**64``,
far under anything a game could show.
"""

from __future__ import annotations

from hashlib import shake_256
from typing import Any

from ._hotloops import fisher_yates

__all__ = ["seeded_order", "seeded_shuffle"]

def _stream(text: str, count: int) -> bytes:
    """The first ``8 * count`` bytes of SHAKE-256 of ``text`` (UTF-8, ``surrogatepass``)."""
    return shake_256(text.encode("utf-8", "surrogatepass")).digest(8 * count)


def seeded_shuffle(text: str, items: list[Any]) -> None:
    """Shuffle the list ``items`` in place with the stream of ``text`` (see the module's
    docstring); a list of fewer than two items is left as it is.  The swaps are
    :func:`cardrules._hotloops.fisher_yates` (a C loop with the C module).

    >>> items = list(range(10))
    >>> seeded_shuffle("demo:0", items)
    >>> items
    [8, 5, 1, 9, 4, 6, 0, 3, 7, 2]
    """
    n = len(items)
    if n < 2:
        return
    fisher_yates(items, _stream(text, n - 1))


def seeded_order(seed: object, k: int, cards: Any) -> tuple[Any, ...]:
    """The order in which the ``k``-th seeded shuffle (from 0) of a game seeded with
    ``seed`` puts ``cards`` (given in canonical order): the first ``8 * (n - 1)`` bytes
    of SHAKE-256 of ``f"{seed}:{k}"`` (UTF-8, ``surrogatepass``) read as ``n - 1``
    big-endian 64-bit draws, then Fisher-Yates from the last position down, swapping
    position ``i`` with ``draw % (i + 1)``.

    >>> from cardrules import standard_deck
    >>> " ".join(map(str, seeded_order(42, 3, standard_deck())[:10]))
    '10C 9H 3D 4S 7C 8D 8H KS 7H 6S'
    """
    order = list(cards)
    seeded_shuffle(f"{seed}:{k}", order)
    return tuple(order)

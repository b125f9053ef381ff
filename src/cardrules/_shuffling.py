"""Seeded shuffles: ``random.Random(text).shuffle(items)``, exactly, in less time.

``api.md`` fixes how a seeded game resolves chance: the k-th shuffle of a game orders
the chance cards with ``random.Random(f"{seed}:{k}").shuffle``.  A playout makes a
shuffle per deal, and most of that time was Python overhead around two C calls:
``Random.__init__`` and ``Random.seed`` (two Python frames around the C seeding) and
``random.shuffle``'s call to ``_randbelow`` for every card.  :func:`seeded_shuffle` does
the same work with those layers inlined, and the shuffle's loop in C when
``cardrules._speedups`` was compiled (``_hotloops``): 52 cards in about 6 us (9 us
without the C loop) instead of 13 us.

Both inlinings copy CPython's algorithms (3.2 to 3.13 at least): a ``str`` seed becomes
the integer ``int.from_bytes(s + sha512(s).digest())`` of its UTF-8 bytes ``s``; the
shuffle, for i from n-1 down to 1, swaps item i with item j, where j is
``getrandbits(k)`` (k the bit length of i + 1) drawn again until it is at most i.  They
are used only after checking, when this module is imported, that they give exactly the
orders of ``random.Random(text).shuffle``; a Python that seeds or shuffles otherwise
keeps its own methods (and the tests say so).
"""

from __future__ import annotations

import random
from _random import Random as _CRandom
from collections.abc import Callable
from hashlib import sha512
from typing import Any, Final

from ._hotloops import shuffle

__all__ = ["seeded_shuffle"]

# Random.__new__ makes the object (unseeded: seeding is Random.__init__'s job, through
# the Python method Random.seed); _random.Random.seed is the C seeding from an int.
_new_random: Callable[[type], Any] = random.Random.__new__
_c_seed: Callable[[Any, int], None] = _CRandom.seed
_from_bytes = int.from_bytes


def _reference(text: str, items: list[Any]) -> None:
    random.Random(text).shuffle(items)


def _inline(text: str, items: list[Any]) -> None:
    """``random.Random(text).shuffle(items)`` with CPython's layers inlined."""
    data = text.encode()
    rng = _new_random(random.Random)
    _c_seed(rng, _from_bytes(data + sha512(data).digest(), "big"))
    shuffle(items, rng.getrandbits)  # random.shuffle's loop, in C when compiled (_hotloops)


def _same_orders(shuffle: Callable[[str, list[Any]], None]) -> bool:
    """Whether ``shuffle`` gives ``random.Random(text).shuffle``'s orders (a sample)."""
    for text in ("0:0", "x:12", "é:3"):
        for n in (0, 1, 2, 5, 52, 104):
            expected, got = list(range(n)), list(range(n))
            random.Random(text).shuffle(expected)
            shuffle(text, got)
            if got != expected:
                return False
    return True


#: ``seeded_shuffle(text, items)`` shuffles the list ``items`` in place exactly as
#: ``random.Random(text).shuffle(items)`` does.
seeded_shuffle: Final[Callable[[str, list[Any]], None]] = _inline if _same_orders(_inline) else _reference

"""Rule tools: how often a rule accepts a card.

:func:`acceptance` is here; ``profile`` and ``equivalent`` live beside it.
"""

from __future__ import annotations

import random

from ..cards import standard_deck
from .rules import Rule

__all__ = ["acceptance"]

# Two decks as "the canonical 52 twice": the 52 cards in canonical order, then
# the same 52 again (AS..KC, AS..KC).  Read literally; sorting the 104 cards (equal cards
# adjacent, as cardrules.two_decks() and two-deck chance cards are) would give other
# samples for the same seed.  docs/language/good-rules.rst records this reading.
_TWO_DECKS = standard_deck() * 2


def acceptance(rule: Rule, *, lines: int = 2000, seed: int = 0) -> float:
    """The share of random plays the rule accepts.

    With ``rng = random.Random(seed)``, for each of ``lines`` samples: ``n =
    rng.randint(1, 10)``, ``cs = rng.sample(two_decks, n + 1)``, main line ``cs[:n]``,
    card ``cs[n]``.  ``two_decks`` is "the canonical 52 twice": the 52 cards in canonical
    order, then again.  The ``start:`` part is not applied.

    >>> from cardrules.lang import compile_rule
    >>> 0.45 < acceptance(compile_rule("card is red")) < 0.55   # half the cards are red
    True
    """
    if lines <= 0:
        return 0.0
    rng = random.Random(seed)
    accepts = rule.accepts
    hits = 0
    for _ in range(lines):
        n = rng.randint(1, 10)
        cs = rng.sample(_TWO_DECKS, n + 1)
        if accepts(cs[:n], cs[n]):
            hits += 1
    return hits / lines

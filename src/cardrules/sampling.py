"""Shared machinery of the state samplers (``GAMES[name].sample_state``).

A *sampler* turns a player's view into whole states that agree with everything the
view shows: the player's own cards and everything public stay as they are, and the
cards that player cannot see are dealt at random among the places the view says hold
hidden cards (an opponent's hand, the stock, discards, the Haggis).  What each game
knows (which cards are hidden where, which suits a player has shown it lacks) is in
the game's module, at its end (``sample_state`` and the sampler handed to
:class:`~cardrules.GameDef`); this module only has the card arithmetic they share.

How hidden cards are placed:

* every placement consistent with the view has a positive probability;
* when the view fixes only how many hidden cards lie where, the placement is uniform:
  every hidden physical card is equally likely to be in any hidden place (equal cards
  of a two-deck game are told apart, as real cards are);
* when the view shows that a player lacks a suit (it did not follow suit when it had
  to, and could draw nothing since), that player's hidden cards are drawn uniformly
  from the cards it may still hold.

A sample is a *position*, not a past: its ``history`` is empty (the hidden part of
the past, such as whole deck orders, cannot be told from a view, and no rule reads
it), and its ``seed`` is ``None``, so a chance node in the sample waits for a
:class:`~cardrules.Shuffle`.  Play goes on from a sample exactly as from the true
state; :func:`~cardrules.to_json`, which stores a state as its history, refuses a
sample.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import TypeVar

from ._hotloops import fisher_yates
from .cards import Card, canonical
from .errors import CardRulesError

__all__ = ["SampleError", "deal", "shuffled", "unseen"]

T = TypeVar("T")


class SampleError(CardRulesError):
    """A view that no state could have produced (cards counted twice, sizes that do
    not add up): there is nothing to sample."""


def unseen(deck: Iterable[Card], *seen: Iterable[Card]) -> list[Card]:
    """The cards of ``deck`` (a multiset) left once every card of ``seen`` is taken
    out, in canonical order.  A seen card the deck does not hold (or holds fewer
    times) raises :class:`SampleError`."""
    left = Counter(deck)
    for cards in seen:
        for c in cards:
            n = left[c]
            if n <= 0:
                raise SampleError(f"the view shows {c} more often than the deck holds it")
            left[c] = n - 1
    return list(canonical(left.elements()))


def check_total(what: str, cards: Sequence[Card], sizes: Sequence[int]) -> None:
    """Raise :class:`SampleError` unless the hidden places hold as many cards as are
    unseen."""
    if sum(sizes) != len(cards) or any(s < 0 for s in sizes):
        raise SampleError(
            f"{what}: {len(cards)} cards are unseen but the view has {sum(sizes)} hidden places for them"
        )


def shuffled(rng: random.Random, items: Iterable[T]) -> list[T]:
    """A uniformly random order of ``items`` (a new list), drawn from ``rng``.

    Fisher-Yates from the last position down, as the library's seeded deal does
    (:func:`cardrules.protocol.seeded_order`), over draws read from one call of
    ``rng.randbytes``: the swaps run in one C loop with the accelerator
    (:mod:`cardrules._hotloops`), several times faster than ``rng.shuffle``, which
    asks the generator once per card from Python.  The order is the same with and
    without the accelerator; it is not the order ``rng.shuffle`` would give.  The
    64-bit draws taken modulo each position bias the shuffle by less than ``n / 2**64``.

    >>> order = shuffled(random.Random(7), range(10))
    >>> sorted(order) == list(range(10))
    True
    """
    order = list(items)
    n = len(order)
    if n > 1:
        fisher_yates(order, rng.randbytes(8 * (n - 1)))
    return order


def deal(rng: random.Random, cards: Sequence[Card], sizes: Sequence[int]) -> list[list[Card]]:
    """Cut a uniform shuffle of ``cards`` (:func:`shuffled`) into consecutive parts of
    ``sizes``: a uniform placement of the cards into places of those sizes (each part
    in the order dealt: the top of a stock first)."""
    order = shuffled(rng, cards)
    parts = []
    i = 0
    for s in sizes:
        parts.append(order[i : i + s])
        i += s
    return parts

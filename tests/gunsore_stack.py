"""Stacked decks for Gunsore tests: put chosen cards where the spec says they go.

``spec/gunsore.md``: the first shuffle is the first-master draw (``order[0]`` to player 0,
``order[1]`` to player 1); the second is the deal (``order[0]`` to the master, ``order[1]``
to the slave, alternating, ``hand_size`` each; the rest is the stock, top first).
"""

from __future__ import annotations

from collections import Counter

from cardrules import Shuffle, canonical, chance_cards, gunsore, parse_cards


def cards(text):
    return parse_cards(text) if isinstance(text, str) else tuple(text)


def stacked(front, rules=None):
    """A Shuffle of the whole deck with ``front`` on top, then the rest in canonical order."""
    front = cards(front)
    deck = chance_cards(gunsore.new_game(rules))
    rest = Counter(deck)
    rest.subtract(front)
    assert all(n >= 0 for n in rest.values()), f"more copies than the deck holds in {front}"
    return Shuffle(front + canonical(rest.elements()))


def game(master_hand, slave_hand, stock="", *, master=0, rules=None):
    """A game just dealt: ``master`` holds ``master_hand``, the other ``slave_hand``, and
    the stock starts with ``stock`` (then the rest of the deck, canonical)."""
    s = gunsore.new_game(rules)
    s = gunsore.apply(s, stacked("KS 2S" if master == 0 else "2S KS", rules))  # KS beats 2S
    assert s.master == master
    m, sl = cards(master_hand), cards(slave_hand)
    assert len(m) == len(sl)
    dealt = tuple(c for pair in zip(m, sl, strict=True) for c in pair)
    return gunsore.apply(s, stacked(dealt + cards(stock), rules))


def play(state, *texts):
    """Apply ``Play`` actions (card texts) or ``"war"`` for DeclareWar, in order."""
    for t in texts:
        action = gunsore.DeclareWar() if t == "war" else gunsore.Play(t)
        state = gunsore.apply(state, action)
    return state

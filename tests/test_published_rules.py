"""The published rules of ``benchmarks/published_rules.rules`` say what their sources say.

Each rule of the "Game of Science" benchmark was written in the rule language from the
benchmark's own description of it.  Here each description is written a second time, the
plain way, as a Python predicate over the line and the card, and the two are compared on
random plays and on every starter: a slip in the rule text (an ace counted as a number,
a place off by one) would make the benchmark measure another rule.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from cardrules.cards import Card, Suit, standard_deck
from cardrules.lang.rules import compile_rules

FILE = Path(__file__).resolve().parent.parent / "benchmarks" / "published_rules.rules"
DECK = standard_deck()
S, H, D, C = Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS


def red(c: Card) -> bool:
    return c.suit in (H, D)


def face(c: Card) -> bool:
    return c.rank >= 11


def after(line: list[Card], card: Card, ok) -> bool:
    """A rule about the last card: any card may start the line."""
    return True if not line else ok(line[-1], card)


def nxt(order: list[Suit], s: Suit) -> Suit:
    return order[(order.index(s) + 1) % len(order)]


# name: (the play, the starter) as the benchmark describes them
DESCRIBED = {
    "only red cards": (lambda line, c: red(c), None),
    "spades only": (lambda line, c: c.suit == S, None),
    "alternating colours": (lambda line, c: after(line, c, lambda p, c: red(p) != red(c)), None),
    "even ranks only": (lambda line, c: c.rank in (2, 4, 6, 8, 10, 12), None),
    "different suit": (lambda line, c: after(line, c, lambda p, c: p.suit != c.suit), None),
    "opposite parity": (lambda line, c: after(line, c, lambda p, c: (p.rank + c.rank) % 2 == 1), None),
    "no spades": (lambda line, c: c.suit in (H, C, D), None),
    "different suit, same colour": (
        lambda line, c: after(line, c, lambda p, c: p.suit != c.suit and red(p) == red(c)),
        None,
    ),
    "prime ranks only": (lambda line, c: c.rank in (2, 3, 5, 7, 11, 13), None),
    "only aces": (lambda line, c: c.rank == 1, None),
    "spades and diamonds only": (lambda line, c: c.suit in (S, D), None),
    "face cards only": (lambda line, c: c.rank in (11, 12, 13), None),
    "cyclic suit order": (
        lambda line, c: after(line, c, lambda p, c: c.suit == nxt([H, S, C, D], p.suit)),
        None,
    ),
    "ranks one to seven": (lambda line, c: 1 <= c.rank <= 7, None),
    "black face cards": (lambda line, c: not red(c) and face(c), None),
    "non-decreasing from an ace": (
        lambda line, c: after(line, c, lambda p, c: c.rank >= p.rank),
        lambda c: c.rank == 1,
    ),
    "ranks five to nine": (lambda line, c: 5 <= c.rank <= 9, None),
    "share colour or parity": (
        lambda line, c: after(line, c, lambda p, c: red(p) == red(c) or p.rank % 2 == c.rank % 2),
        None,
    ),
    # number cards are 1 to 10 there
    "alternating face and number": (lambda line, c: after(line, c, lambda p, c: face(p) != face(c)), None),
    "red up to seven": (lambda line, c: red(c) and c.rank <= 7, None),
    # cards 1 and 2 one rank, 3 and 4 another ...: the second of a pair repeats the first
    # one's rank, the first of a pair differs from the card before it
    "paired ranks, distinct": (
        lambda line, c: after(line, c, lambda p, c: (c.rank == p.rank) == (len(line) % 2 == 1)),
        None,
    ),
    "paired suits, alternating": (
        lambda line, c: after(line, c, lambda p, c: (c.suit == p.suit) == (len(line) % 2 == 1)),
        None,
    ),
    "red up, black down": (
        lambda line, c: after(line, c, lambda p, c: c.rank >= p.rank if red(p) else c.rank <= p.rank),
        lambda c: 5 <= c.rank <= 9,
    ),
    "alternating groups": (
        lambda line, c: after(line, c, lambda p, c: (p.suit in (H, S)) != (c.suit in (H, S))),
        None,
    ),
    "faces red, numbers black": (lambda line, c: red(c) if face(c) else not red(c), None),
    "a face imposes its suit": (
        lambda line, c: after(line, c, lambda p, c: (c.suit == p.suit) == face(p)),
        None,
    ),
}

RULES = compile_rules(FILE.read_text(encoding="utf-8"))


def test_every_described_rule_is_in_the_file_and_nothing_else() -> None:
    assert set(RULES) == set(DESCRIBED)


@pytest.mark.parametrize("name", sorted(DESCRIBED))
def test_the_rule_text_judges_as_the_description(name: str) -> None:
    rule = RULES[name]
    play, start = DESCRIBED[name]
    for card in DECK:
        assert rule.accepts_start(card) == (start(card) if start else True), (name, card)
    rng = random.Random(name)
    for _ in range(600):
        line = [rng.choice(DECK) for _ in range(rng.randint(1, 9))]
        card = rng.choice(DECK)
        assert rule.accepts(line, card) == play(line, card), (name, line, card)

"""Cards, suits and decks, and the card notation used everywhere in cardrules.

Cards are interned values: there is exactly one object per distinct card, so equality
and hashing are identity checks (the fastest Python has) while still meaning "equal by
value".  Two decks hold two *equal* cards, which are the same object; a game counts them
with multisets.

>>> from cardrules import parse_card, parse_cards
>>> parse_card("10h")
Card('10H')
>>> str(parse_card("Ts")), str(parse_card("a♣")), str(parse_card("*"))
('10S', 'AC', 'JK')
>>> [str(c) for c in parse_cards("5H, 7c QS")]
['5H', '7C', 'QS']
>>> parse_card("1H")
Traceback (most recent call last):
...
cardrules.errors.CardParseError: '1H' is not a card: '1' is not a rank (A 2 3 4 5 6 7 8 9 10 T J Q K)
"""

from __future__ import annotations

import enum
import operator
from collections.abc import Callable, Iterable
from typing import Any, NoReturn

from .errors import CardParseError, InvalidCardError

__all__ = [
    "JOKER",
    "Card",
    "Color",
    "Suit",
    "canonical",
    "haggis_faces",
    "haggis_number_cards",
    "parse_card",
    "parse_cards",
    "standard_deck",
    "two_decks",
]


class Color(str, enum.Enum):
    """A suit's colour.  Compares equal to its name: ``Color.RED == "red"``."""

    RED = "red"
    BLACK = "black"

    # Enum's own __hash__ is written in Python; the identity hash is about 3x faster
    # and consistent with Enum equality (which is identity).
    __hash__ = object.__hash__

    def __str__(self) -> str:
        return self.value


class Suit(enum.Enum):
    """The four French suits, plus Haggis's fifth suit, moons.

    Each suit has a one-letter :attr:`code`, a :attr:`symbol` and a :attr:`color`
    (``None`` for moons).  Members are listed in canonical order.
    """

    SPADES = "S"
    HEARTS = "H"
    DIAMONDS = "D"
    CLUBS = "C"
    MOONS = "M"

    __hash__ = object.__hash__  # identity hash: see Color

    @property
    def code(self) -> str:
        """The one-letter code: ``S H D C M``."""
        return str(self.value)

    @property
    def symbol(self) -> str:
        """``♠ ♥ ♦ ♣ ☾``."""
        return _SYMBOLS[self]

    @property
    def color(self) -> Color | None:
        """``Color.RED`` for hearts and diamonds, ``Color.BLACK`` for spades and clubs,
        ``None`` for moons."""
        return _COLORS[self]

    @property
    def order(self) -> int:
        """The suit's place in canonical order (spades 0 ... moons 4)."""
        return _SUIT_ORDER[self]

    def __repr__(self) -> str:
        return f"Suit.{self.name}"


_SYMBOLS = {
    Suit.SPADES: "♠",
    Suit.HEARTS: "♥",
    Suit.DIAMONDS: "♦",
    Suit.CLUBS: "♣",
    Suit.MOONS: "☾",
}
_COLORS: dict[Suit, Color | None] = {
    Suit.SPADES: Color.BLACK,
    Suit.HEARTS: Color.RED,
    Suit.DIAMONDS: Color.RED,
    Suit.CLUBS: Color.BLACK,
    Suit.MOONS: None,
}
_SUIT_ORDER = {s: i for i, s in enumerate(Suit)}
_RANK_NAMES = {1: "A", 11: "J", 12: "Q", 13: "K"}


class Card:
    """One playing card: a :attr:`rank` and a :attr:`suit`.

    ``rank`` is an ``int``: A=1, 2..10, J=11, Q=12, K=13, and 0 for the joker.
    ``suit`` is a :class:`Suit`, or ``None`` for the joker and for Haggis's suitless
    face cards.  ``Card(rank, suit)`` returns the one interned object for that card and
    raises :class:`~cardrules.InvalidCardError` for a card that does not exist.

    Cards are immutable and hashable.  They have no ``<``: which card is "higher" is a
    game's business (see :mod:`cardrules.tricks`); :attr:`index` is the canonical order.
    """

    __slots__ = ("_hash", "color", "index", "rank", "suit")

    rank: int
    suit: Suit | None
    color: Color | None
    index: int

    def __new__(cls, rank: int, suit: Suit | None = None) -> Card:
        try:
            card = _INTERNED[rank, suit]
        except (KeyError, TypeError):
            raise InvalidCardError(_why_no_card(rank, suit)) from None
        if rank.__class__ is bool:  # True == 1 would find the ace
            raise InvalidCardError(_why_no_card(rank, suit))
        return card

    @classmethod
    def _make(cls, rank: int, suit: Suit | None, index: int) -> Card:
        card = object.__new__(cls)
        object.__setattr__(card, "rank", rank)
        object.__setattr__(card, "suit", suit)
        object.__setattr__(card, "color", None if suit is None else _COLORS[suit])
        object.__setattr__(card, "index", index)
        return card

    def __setattr__(self, name: str, value: object) -> NoReturn:
        raise AttributeError(f"Card is immutable: cannot set {name!r}")

    def __delattr__(self, name: str) -> NoReturn:
        raise AttributeError(f"Card is immutable: cannot delete {name!r}")

    # Interned: the default identity __eq__/__hash__ are value equality.
    def __reduce__(self) -> tuple[Any, ...]:
        return (Card, (self.rank, self.suit))

    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: object) -> Card:
        return self

    @property
    def is_joker(self) -> bool:
        return self.rank == 0

    def __str__(self) -> str:
        if self.rank == 0:
            return "JK"
        r = _RANK_NAMES.get(self.rank) or str(self.rank)
        return r if self.suit is None else r + self.suit.value

    def __repr__(self) -> str:
        return f"Card({str(self)!r})"

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)


def _why_no_card(rank: object, suit: object) -> str:
    if type(rank) is not int or not 0 <= rank <= 13:
        return f"no card has rank {rank!r} (ranks are 0 for the joker, 1..13 for A..K)"
    if suit is not None and not isinstance(suit, Suit):
        return f"{suit!r} is not a Suit"
    if rank == 0:
        return "the joker has no suit"
    if suit is None:
        return f"only the joker (0) and J, Q, K (11..13) come without a suit, not rank {rank}"
    return f"there is no {rank} of moons (moons hold the numbers 2..10)"


def _build() -> dict[tuple[int, Suit | None], Card]:
    cards: dict[tuple[int, Suit | None], Card] = {}
    index = 0
    for suit in Suit:
        ranks = range(2, 11) if suit is Suit.MOONS else range(1, 14)
        for rank in ranks:
            cards[rank, suit] = Card._make(rank, suit, index)
            index += 1
    for rank in (11, 12, 13):
        cards[rank, None] = Card._make(rank, None, index)
        index += 1
    cards[0, None] = Card._make(0, None, index)
    return cards


_INTERNED = _build()
#: The joker.
JOKER = _INTERNED[0, None]

_RANK_TOKENS = {
    "A": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9,
    "10": 10, "T": 10, "J": 11, "Q": 12, "K": 13,
}  # fmt: skip
_SUIT_TOKENS = {
    "S": Suit.SPADES, "H": Suit.HEARTS, "D": Suit.DIAMONDS, "C": Suit.CLUBS, "M": Suit.MOONS,
    "♠": Suit.SPADES, "♥": Suit.HEARTS, "♦": Suit.DIAMONDS, "♣": Suit.CLUBS, "☾": Suit.MOONS,
    "♤": Suit.SPADES, "♡": Suit.HEARTS, "♢": Suit.DIAMONDS, "♧": Suit.CLUBS,
}  # fmt: skip
_JOKER_TOKENS = {"JK", "*", "JOKER"}
_RANKS_HELP = "A 2 3 4 5 6 7 8 9 10 T J Q K"
_SUITS_HELP = "S H D C M or ♠ ♥ ♦ ♣ ☾"
_PARSE_CACHE: dict[str, Card] = {}


def parse_card(text: str) -> Card:
    """Read one card: a rank ``A 2 .. 10 T J Q K`` then a suit ``S H D C M`` (or
    ``♠ ♥ ♦ ♣ ☾``), case-insensitive; ``JK`` or ``*`` for the joker; a bare ``J``, ``Q``
    or ``K`` for Haggis's suitless face cards.

    Raises :class:`~cardrules.CardParseError` naming the bad token.
    """
    try:
        return _PARSE_CACHE[text]
    except (KeyError, TypeError):
        pass
    if not isinstance(text, str):
        raise CardParseError(f"{text!r} is not a card: expected text such as '10H'", repr(text))
    card = _parse_uncached(text)
    if len(_PARSE_CACHE) < 4096:  # bounded: untrusted input must not grow it forever
        _PARSE_CACHE[text] = card
    return card


def _parse_uncached(text: str) -> Card:
    token = text.strip()
    up = token.upper()
    if not up:
        raise CardParseError("an empty string is not a card: expected e.g. '10H'", text)
    if up in _JOKER_TOKENS:
        return JOKER
    if up in ("J", "Q", "K"):
        return _INTERNED[_RANK_TOKENS[up], None]
    rank_part, suit_part = up[:-1], up[-1]
    rank = _RANK_TOKENS.get(rank_part)
    if not rank_part and up not in _RANK_TOKENS:  # one character, and no rank
        raise CardParseError(
            f"{token!r} is not a card: a card is a rank ({_RANKS_HELP}) and a suit ({_SUITS_HELP}), "
            "e.g. '10H'",
            text,
        )
    if rank is None:
        if suit_part not in _SUIT_TOKENS and up in _RANK_TOKENS:
            raise CardParseError(f"{token!r} is not a card: the suit is missing ({_SUITS_HELP})", text)
        raise CardParseError(
            f"{token!r} is not a card: {rank_part!r} is not a rank ({_RANKS_HELP})", text
        )
    suit = _SUIT_TOKENS.get(suit_part)
    if suit is None:
        raise CardParseError(
            f"{token!r} is not a card: {text.strip()[-1]!r} is not a suit ({_SUITS_HELP})", text
        )
    try:
        return Card(rank, suit)
    except InvalidCardError as exc:
        raise CardParseError(f"{token!r} is not a card: {exc}", text) from None


def parse_cards(text: str) -> tuple[Card, ...]:
    """Read cards separated by spaces and/or commas: ``parse_cards("5H, 7C QS")``.

    An empty string gives ``()``.  A bad token raises :class:`~cardrules.CardParseError`
    naming it.
    """
    if not isinstance(text, str):
        raise CardParseError(f"{text!r} is not card text: expected e.g. '5H 7C'", repr(text))
    return tuple(parse_card(tok) for tok in text.replace(",", " ").split())


def canonical(cards: Iterable[Card]) -> tuple[Card, ...]:
    """The cards sorted into canonical order: suits spades, hearts,
    diamonds, clubs, moons; A..K within a suit; suitless J, Q, K; jokers last."""
    return tuple(sorted(cards, key=_index))


# The canonical sort key, read in C: a Python function here would be called once per card
# of every hand a game sorts.
_index: Callable[[Card], int] = operator.attrgetter("index")


def standard_deck() -> tuple[Card, ...]:
    """One 52-card French deck in canonical order."""
    return tuple(c for (r, s), c in _INTERNED.items() if s is not None and s is not Suit.MOONS)


def two_decks(*, jokers: int = 0) -> tuple[Card, ...]:
    """Two 52-card decks and ``jokers`` jokers, in canonical order (equal cards adjacent)."""
    return tuple(c for c in standard_deck() for _ in range(2)) + (JOKER,) * jokers


def haggis_number_cards(suits: int = 5) -> tuple[Card, ...]:
    """The Haggis number cards 2..10 in the first ``suits`` suits (5 with moons, 4 without)."""
    if suits not in (4, 5):
        raise InvalidCardError("Haggis uses 4 or 5 suits")
    return tuple(Card(r, s) for s in list(Suit)[:suits] for r in range(2, 11))


def haggis_faces() -> tuple[Card, ...]:
    """One suitless J, Q and K: the wild cards each Haggis player owns."""
    return (Card(11), Card(12), Card(13))

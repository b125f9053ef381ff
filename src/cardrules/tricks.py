"""Trick tables: which card wins a trick.

SCAFFOLD (issue 4 replaces it): this module holds the public API of
``rule-language.md`` section 3 with the three shipped tables written by hand, so that the
games can be built while the table language is written.  The compiled tables of issue 4
replace the hand-written classes below; these then move to the tests as the independent
reference.
"""

from __future__ import annotations

from collections.abc import Sequence

from .cards import Card, Suit
from .errors import CardRulesError
from .serialize import register_codec

__all__ = ["TableError", "TrickTable", "builtin"]


class TableError(CardRulesError):
    """A fault in trick-table text, or a table used without what it needs."""


_ELEMENTS = {Suit.SPADES: 4, Suit.CLUBS: 3, Suit.HEARTS: 2, Suit.DIAMONDS: 1}


def _cycle3_beats(a: int, b: int) -> int:
    """1 if rank a beats rank b in cycle3, -1 if b beats a, 0 if equal."""

    def group(r: int) -> int:
        return 0 if r == 1 else (1 if r >= 11 else 2)

    ga, gb = group(a), group(b)
    if ga == gb:
        return (a > b) - (a < b)
    # aces(0) beat faces(1), faces(1) beat numbers(2), numbers(2) beat aces(0)
    return 1 if (gb - ga) % 3 == 1 else -1


class TrickTable:
    """A compiled trick table (see ``rule-language.md`` section 3)."""

    def __init__(self, name: str, source: str = "") -> None:
        self.name = name
        self.source = source

    def classify(self, card: Card, *, lead: Card, key: Card | None = None) -> str:
        raise NotImplementedError

    def beats(self, challenger: Card, holder: Card, *, lead: Card, key: Card | None = None) -> bool:
        raise NotImplementedError

    def winner(self, cards: Sequence[Card], *, key: Card | None = None) -> int:
        """Index of the winning card; ``cards[0]`` leads."""
        lead = cards[0]
        best = 0
        for i in range(1, len(cards)):
            if self.beats(cards[i], cards[best], lead=lead, key=key):
                best = i
        return best

    def __eq__(self, other: object) -> bool:
        return isinstance(other, TrickTable) and (self.name, self.source) == (other.name, other.source)

    def __hash__(self) -> int:
        return hash((self.name, self.source))

    def __repr__(self) -> str:
        return f"<TrickTable {self.name}>"


class _Aegis(TrickTable):
    _REL = frozenset({("trump", "leader"), ("trump", "other"), ("killer", "trump"),
            ("leader", "killer"), ("leader", "other")})  # fmt: skip

    def classify(self, card: Card, *, lead: Card, key: Card | None = None) -> str:
        if key is None:
            raise TableError("table aegis uses 'key': call it with key=")
        if card.suit is key.suit:
            return "trump"
        if card.suit is lead.suit:
            return "leader"
        if card.rank == key.rank:
            return "killer"
        return "other"

    def beats(self, challenger: Card, holder: Card, *, lead: Card, key: Card | None = None) -> bool:
        a = self.classify(challenger, lead=lead, key=key)
        b = self.classify(holder, lead=lead, key=key)
        if (a, b) in self._REL:
            return True
        if (b, a) in self._REL:
            return False
        return _cycle3_beats(challenger.rank, holder.rank) > 0


class _Gunsore(TrickTable):
    def classify(self, card: Card, *, lead: Card, key: Card | None = None) -> str:
        return "joker" if card.rank == 0 else "plain"

    def beats(self, challenger: Card, holder: Card, *, lead: Card, key: Card | None = None) -> bool:
        a, b = challenger.rank == 0, holder.rank == 0
        if a != b:
            return b
        c = _cycle3_beats(challenger.rank, holder.rank) if not a else 0
        if c:
            return c > 0
        sa = _ELEMENTS.get(challenger.suit, 0)  # type: ignore[arg-type]
        sb = _ELEMENTS.get(holder.suit, 0)  # type: ignore[arg-type]
        if sa != sb:
            return sa > sb
        return True  # then later


_TABLES: dict[str, TrickTable] = {"aegis": _Aegis("aegis"), "gunsore": _Gunsore("gunsore")}


def _decode_table(data: object) -> TrickTable:
    if not isinstance(data, dict) or not isinstance(data.get("name"), str):
        raise TableError(f"a trick table is stored as {{'name': ..., 'source': ...}}, not {data!r}")
    return builtin(data["name"])


register_codec(TrickTable, lambda t: {"name": t.name, "source": t.source}, _decode_table)
for _cls in (_Aegis, _Gunsore):
    register_codec(_cls, lambda t: {"name": t.name, "source": t.source}, _decode_table)


def builtin(name: str) -> TrickTable:
    """A shipped table: ``aegis``, ``gunsore``, ``whist``."""
    try:
        return _TABLES[name]
    except KeyError:
        raise TableError(f"no shipped table {name!r} (known: {', '.join(_TABLES)})") from None

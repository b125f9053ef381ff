"""Trick tables: which card wins a trick, written as text in the trick-table language.

A table file holds rank orders, suit orders and tables.  :func:`compile_tables` checks a
file completely (every fault is a :class:`TableError` with its line and column) and turns
each table into plain Python code: classifying a card runs the table's ``when`` conditions
as one compiled ``if`` chain, and the relation between classes and the tie-break chain
are lookups in precomputed tuples.  Nothing walks a parse tree while a trick is judged.

>>> from cardrules import parse_cards
>>> aegis = builtin("aegis")
>>> key = parse_cards("7S")[0]
>>> aegis.classify(parse_cards("2S")[0], lead=parse_cards("KH")[0], key=key)
'trump'
>>> aegis.winner(parse_cards("KH 2S"), key=key)     # trump beats leader
1
>>> aegis.winner(parse_cards("KH 2S 7D"), key=key)  # then the killer 7D beats the trump
2
>>> tables = compile_tables('''
... table high:
...     class led when card.suit == lead.suit
...     class off
...     led beats off
...     otherwise by ranks standard     # the shipped orders are known in every file
... ''')
>>> tables["high"].winner(parse_cards("5C AD 9C"))
2

The shipped tables live in ``cardrules/tables/standard.tricks``; its rank and suit orders
(``standard``, ``cycle3``, ``elements``) may be used by any file, which can also define
its own orders of the same names.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final

import lark
from lark.visitors import merge_transformers

from . import _resources
from .cards import JOKER, Card, Suit, haggis_faces, haggis_number_cards, standard_deck
from .errors import CardRulesError
from .lang import (
    BuildError,
    CodeGen,
    Env,
    ExprBuilder,
    SourceError,
    Type,
    Variable,
    check,
    check_nesting,
    keyword_callbacks,
    load_parser,
    source_error,
)
from .lang import ast as A
from .lang.parser import MAX_TEXT
from .serialize import register_codec

__all__ = ["RankOrder", "SuitOrder", "TableError", "TrickTable", "builtin", "compile_tables"]


class TableError(SourceError):
    """A fault in trick-table text, or a table used without what it needs.

    A fault in text carries :attr:`line` and :attr:`column` (1-based) and prints the
    offending source line with a caret under the column (see
    :class:`~cardrules.lang.errors.SourceError`).  A table called without the key card it
    needs, or given something that is not a trick, raises it with no place in any text:
    ``line`` and ``column`` are then ``0`` and the message stands alone.
    """

    def __init__(self, message: str, text: str = "", line: int = 0, column: int = 0) -> None:
        if line <= 0:
            self.message = message
            self.line = self.column = 0
            self.source_line = ""
            CardRulesError.__init__(self, message)
        else:
            super().__init__(message, text, line, column)


# --------------------------------------------------------------------------- the cards

#: Every interned card, indexed by ``Card.index``.
_CARDS: Final[tuple[Card, ...]] = tuple(
    sorted({*standard_deck(), *haggis_number_cards(5), *haggis_faces(), JOKER}, key=lambda c: c.index)
)
assert [c.index for c in _CARDS] == list(range(len(_CARDS)))

_RANK_WORDS: Final = {"A": 1, "ace": 1, "J": 11, "jack": 11, "Q": 12, "queen": 12, "K": 13, "king": 13}
_RANK_NAMES: Final = {1: "A", 11: "J", 12: "Q", 13: "K"}
_SUIT_WORDS: Final = {
    "spades": Suit.SPADES, "spade": Suit.SPADES, "♠": Suit.SPADES, "♤": Suit.SPADES,
    "hearts": Suit.HEARTS, "heart": Suit.HEARTS, "♥": Suit.HEARTS, "♡": Suit.HEARTS,
    "diamonds": Suit.DIAMONDS, "diamond": Suit.DIAMONDS, "♦": Suit.DIAMONDS, "♢": Suit.DIAMONDS,
    "clubs": Suit.CLUBS, "club": Suit.CLUBS, "♣": Suit.CLUBS, "♧": Suit.CLUBS,
}  # fmt: skip
_FRENCH_SUITS: Final = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)


def _rank_str(rank: int) -> str:
    return _RANK_NAMES.get(rank) or str(rank)


# --------------------------------------------------------------------------- orders


class RankOrder:
    """A compiled ``ranks`` definition: a total order or groups related by ``beat``.

    :meth:`compare` says which of two ranks is stronger; jokers (rank 0) are below every
    rank.  :attr:`groups` lists ``(group name, ranks strongest first)``; a plain chain is
    one group named after the order.  :attr:`group_beats` holds the ``(winner, loser)``
    pairs of group names, as stated.  Immutable.
    """

    __slots__ = ("_cmp", "group_beats", "groups", "name", "source")

    name: str
    groups: tuple[tuple[str, tuple[int, ...]], ...]
    group_beats: tuple[tuple[str, str], ...]
    source: str
    _cmp: tuple[tuple[int, ...], ...]

    def __init__(
        self,
        name: str,
        groups: Sequence[tuple[str, Sequence[int]]],
        group_beats: Sequence[tuple[str, str]],
        source: str,
    ) -> None:
        set_ = object.__setattr__
        set_(self, "name", name)
        set_(self, "groups", tuple((g, tuple(rs)) for g, rs in groups))
        set_(self, "group_beats", tuple(group_beats))
        set_(self, "source", source)
        where: dict[int, tuple[str, int]] = {}
        for gname, ranks in self.groups:
            for i, r in enumerate(ranks):
                where[r] = (gname, i)
        cmp = [[0] * 14 for _ in range(14)]
        for a in range(14):
            for b in range(14):
                if a == b:
                    continue
                if a == 0 or b == 0:
                    cmp[a][b] = -1 if a == 0 else 1
                    continue
                (ga, ia), (gb, ib) = where[a], where[b]
                if ga == gb:
                    cmp[a][b] = 1 if ia < ib else -1
                else:
                    cmp[a][b] = 1 if (ga, gb) in group_beats else -1
        set_(self, "_cmp", tuple(tuple(row) for row in cmp))

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"RankOrder is immutable: cannot set {name!r}")

    def compare(self, a: int, b: int) -> int:
        """``1`` if rank ``a`` beats rank ``b``, ``-1`` if ``b`` beats ``a``, ``0`` if equal."""
        return self._cmp[a][b]

    def describe(self) -> str:
        """The order in words: ``A > K > ... > 2``, or the groups and how they relate
        (``aces = A; faces = K > Q > J; ...; aces beat faces, ...``)."""
        if len(self.groups) == 1:
            return " > ".join(_rank_str(r) for r in self.groups[0][1])
        chains = "; ".join(f"{g} = {' > '.join(_rank_str(r) for r in rs)}" for g, rs in self.groups)
        return chains + "; " + ", ".join(f"{a} beat {b}" for a, b in self.group_beats)

    def __repr__(self) -> str:
        return f"<RankOrder {self.name}: {self.describe()}>"


class SuitOrder:
    """A compiled ``suits`` definition: the four suits strongest first.

    Cards without a suit (jokers, Haggis's suitless faces) and moons are below every suit.
    Immutable.
    """

    __slots__ = ("_strength", "name", "source", "suits")

    name: str
    suits: tuple[Suit, ...]
    source: str
    _strength: dict[Suit | None, int]

    def __init__(self, name: str, suits: Sequence[Suit], source: str) -> None:
        set_ = object.__setattr__
        set_(self, "name", name)
        set_(self, "suits", tuple(suits))
        set_(self, "source", source)
        set_(self, "_strength", {s: len(suits) - i for i, s in enumerate(suits)})

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"SuitOrder is immutable: cannot set {name!r}")

    def compare(self, a: Suit | None, b: Suit | None) -> int:
        """``1`` if suit ``a`` beats ``b``, ``-1`` if ``b`` beats ``a``, ``0`` if equal."""
        sa, sb = self._strength.get(a, 0), self._strength.get(b, 0)
        return (sa > sb) - (sa < sb)

    def describe(self) -> str:
        """The order in words: ``spades > clubs > hearts > diamonds``."""
        return " > ".join(s.name.lower() for s in self.suits)

    def __repr__(self) -> str:
        return f"<SuitOrder {self.name}: {self.describe()}>"


# --------------------------------------------------------------------------- tables

# How a pair of classes is settled: challenger wins, holder keeps, or the tie-break.
_HOLDER: Final = 0
_CHALLENGER: Final = 1
_TIEBREAK: Final = 2


class TrickTable:
    """A compiled trick table.

    Build one with :func:`compile_tables` or :func:`builtin`; ``TrickTable(name,
    source)`` is ``compile_tables(source)[name]``.  A table is an immutable value: two
    tables are equal when their names and their self-contained :attr:`source` texts are
    equal, and a table pickles and serialises (JSON ``{"name": ..., "source": ...}``) as
    that text.

    A table may also be written in Python: a subclass that overrides :meth:`winner` (and
    :meth:`classify`, :meth:`beats` if it is asked for them).  ``Subclass(name,
    source="")`` then only sets :attr:`name` and :attr:`source`; the games call nothing
    but ``winner``.  Such a table is not stored in JSON game states.

    Attributes: :attr:`name`; :attr:`source` (the table's definition preceded by the
    definitions of the orders it uses: compiling it gives this table back);
    :attr:`classes` (class names in the order they are tried); :attr:`conditions` (each
    class's ``when`` text, ``None`` for the catch-all); :attr:`relations` (the stated
    ``(winner, loser)`` pairs); :attr:`tiebreak` (the comparators, each a
    :class:`RankOrder` or :class:`SuitOrder`); :attr:`later` (``True`` for
    ``then later``); :attr:`uses_key` (the table mentions ``key``).
    """

    name: str
    source: str
    classes: tuple[str, ...] = ()
    conditions: tuple[str | None, ...] = ()
    relations: frozenset[tuple[str, str]] = frozenset()
    tiebreak: tuple[RankOrder | SuitOrder, ...] = ()
    later: bool = False
    uses_key: bool = False

    def __init__(self, name: str, source: str = "") -> None:
        if type(self) is not TrickTable:  # a table written in Python
            object.__setattr__(self, "name", name)
            object.__setattr__(self, "source", source)
            return
        self.__dict__.update(_from_source(name, source).__dict__)

    @classmethod
    def _build(cls, _parts: _TableParts) -> TrickTable:
        # Used by compile_tables; the generated functions shadow the methods below.
        table = object.__new__(TrickTable)
        d = table.__dict__
        d["name"] = _parts.name
        d["source"] = _parts.source
        d["classes"] = tuple(c.name for c in _parts.classes)
        d["conditions"] = tuple(c.text for c in _parts.classes)
        d["relations"] = frozenset(_parts.relations)
        d["tiebreak"] = tuple(_parts.tiebreak)
        d["later"] = _parts.later
        d["uses_key"] = _parts.uses_key
        d.update(_generate(_parts))
        return table

    # A compiled table is immutable.  A subclass (a table written in Python, e.g. a test
    # double that records its calls) manages its own attributes.

    def __setattr__(self, name: str, value: object) -> None:
        if type(self) is TrickTable:
            raise AttributeError(f"TrickTable is immutable: cannot set {name!r}")
        object.__setattr__(self, name, value)

    def __delattr__(self, name: str) -> None:
        if type(self) is TrickTable:
            raise AttributeError(f"TrickTable is immutable: cannot delete {name!r}")
        object.__delattr__(self, name)

    # The three methods below document the API; each instance replaces them by code
    # generated for its own table (see _generate), so calls pay no extra indirection.

    def classify(self, card: Card, *, lead: Card, key: Card | None = None) -> str:
        """The name of the first class whose ``when`` holds for ``card`` (the catch-all
        class if none does), in a trick led by ``lead`` with key card ``key``."""
        raise NotImplementedError  # pragma: no cover - replaced per instance

    def beats(self, challenger: Card, holder: Card, *, lead: Card, key: Card | None = None) -> bool:
        """Whether ``challenger``, played after ``holder``, takes the trick from it."""
        raise NotImplementedError  # pragma: no cover - replaced per instance

    def winner(self, cards: Sequence[Card], *, key: Card | None = None) -> int:
        """Index of the winning card of the trick ``cards`` (``cards[0]`` leads): the
        first card holds the trick and each next card takes it iff it beats the holder."""
        raise NotImplementedError  # pragma: no cover - replaced per instance

    def relation(self, a: str, b: str) -> int:
        """``1`` if class ``a`` beats class ``b``, ``-1`` if ``b`` beats ``a``, ``0`` if
        neither (the tie-break decides)."""
        for x in (a, b):
            if x not in self.classes:
                raise TableError(f"table {self.name} has no class {x!r} (classes: {', '.join(self.classes)})")
        if (a, b) in self.relations:
            return 1
        if (b, a) in self.relations:
            return -1
        return 0

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, TrickTable):
            return NotImplemented
        return self.name == other.name and self.source == other.source

    def __hash__(self) -> int:
        return hash((self.name, self.source))

    def __repr__(self) -> str:
        return f"<TrickTable {self.name}>"

    def __str__(self) -> str:
        return self.source

    def __reduce__(self) -> tuple[Any, ...]:
        return (_from_source, (self.name, self.source))

    def __copy__(self) -> TrickTable:
        return self

    def __deepcopy__(self, memo: object) -> TrickTable:
        return self


_DECODED: dict[tuple[str, str], TrickTable] = {}


def _from_source(name: str, source: str) -> TrickTable:
    """The table ``name`` compiled from ``source`` (unpickling and JSON).

    Tables are immutable values, so the last few decoded are kept and shared: reading
    many saved games of one variant compiles its table once."""
    if not isinstance(name, str) or not isinstance(source, str):
        raise TableError("a trick table is stored as {'name': <text>, 'source': <text>}")
    _shipped()
    table = _DECODED.get((name, source))
    if table is not None:
        return table
    tables = compile_tables(source)
    try:
        table = tables[name]
    except KeyError:
        raise TableError(f"the stored source defines no table {name!r}") from None
    if len(_DECODED) >= 64:  # bounded: untrusted input must not grow it forever
        _DECODED.pop(next(iter(_DECODED)))
    _DECODED[name, source] = table
    return table


# --------------------------------------------------------------------------- compiling


class _Class:
    __slots__ = ("condition", "name", "text")

    def __init__(self, name: str, condition: str | None, text: str | None) -> None:
        self.name = name
        self.condition = condition  # Python source over card, lead, key; None = catch-all
        self.text = text  # the `when` condition, normalised (ast.unparse)


class _TableParts:
    """Everything needed to build a :class:`TrickTable`, checked."""

    __slots__ = ("classes", "later", "name", "namespace", "relations", "source", "tiebreak", "uses_key")

    def __init__(self) -> None:
        self.name = ""
        self.source = ""
        self.classes: list[_Class] = []
        self.relations: set[tuple[str, str]] = set()
        self.tiebreak: list[RankOrder | SuitOrder] = []
        self.later = False
        self.uses_key = False
        self.namespace: dict[str, object] = {}  # globals the conditions' code needs


def _tie_matrix(tiebreak: Sequence[RankOrder | SuitOrder], later: bool) -> tuple[tuple[bool, ...], ...]:
    """``m[c.index][h.index]``: does challenger ``c`` take the trick from holder ``h`` of
    the same standing (neither class beats the other)?"""
    rows = []
    for c in _CARDS:
        row = []
        for h in _CARDS:
            decided = 0
            for comp in tiebreak:
                if isinstance(comp, RankOrder):
                    decided = comp.compare(c.rank, h.rank)
                else:
                    decided = comp.compare(c.suit, h.suit)
                if decided:
                    break
            row.append(decided > 0 if decided else later)
        rows.append(tuple(row))
    return tuple(rows)


def _classify_block(classes: Sequence[_Class], var: str, scale: int, indent: str) -> list[str]:
    """``if`` chain setting ``var`` to ``index * scale`` of the first class that holds."""
    lines = []
    for i, cls in enumerate(classes):
        if cls.condition is None:
            lines.append(f"{indent}else:" if i else "")
            lines.append(f"{indent}{'    ' if i else ''}{var} = {i * scale}")
        else:
            lines.append(f"{indent}{'if' if i == 0 else 'elif'} {cls.condition}:")
            lines.append(f"{indent}    {var} = {i * scale}")
    return [ln for ln in lines if ln]


_TEMPLATE: Final = """
def classify(card, *, lead, key=None):
    {keycheck}
    try:
{cls}
        return NAMES[c]
    except (AttributeError, TypeError) as exc:
        raise _bad(exc, (card, lead), key) from None

def beats(challenger, holder, *, lead, key=None):
    {keycheck}
    try:
        card = holder
{beats_h}
        card = challenger
{beats_c}
        r = REL[c + h]
        return r == 1 or (r == 2 and TIE[challenger.index][holder.index])
    except (AttributeError, TypeError) as exc:
        raise _bad(exc, (challenger, holder, lead), key) from None

def winner(cards, *, key=None):
    {keycheck}
    try:
        lead = card = cards[0]
{win_h}
        if len(cards) == 2:
            holder = card
            card = cards[1]
{win2_c}
            r = REL[c + h]
            return 1 if r == 1 or (r == 2 and TIE[card.index][holder.index]) else 0
        best = 0
        holder = card
        for i in range(1, len(cards)):
            card = cards[i]
{loop_c}
            r = REL[c + h]
            if r == 1 or (r == 2 and TIE[card.index][holder.index]):
                best = i
                holder = card
                h = c // K
        return best
    except (AttributeError, TypeError, IndexError) as exc:
        raise _bad(exc, cards, key) from None
"""


def _bad(exc: BaseException, cards: object, key: object) -> TableError:
    """The error for a call with something that is not a trick."""
    try:
        items = list(cards)  # type: ignore[call-overload]
    except TypeError:
        return TableError(f"a trick is a sequence of cards, not {cards!r}")
    if not items:
        return TableError("a trick has at least one card")
    for c in [*items, key]:
        if c is not None and not isinstance(c, Card):
            return TableError(f"{c!r} is not a Card")
    return TableError(f"cannot judge this trick: {exc}")  # pragma: no cover - a bug


def _generate(parts: _TableParts) -> dict[str, Callable[..., Any]]:
    """Python functions ``classify``, ``beats`` and ``winner`` for one table."""
    k = len(parts.classes)
    rel = [0] * (k * k)
    names = [c.name for c in parts.classes]
    for ci, cname in enumerate(names):
        for hi, hname in enumerate(names):
            if (cname, hname) in parts.relations:
                rel[ci * k + hi] = _CHALLENGER
            elif (hname, cname) in parts.relations:
                rel[ci * k + hi] = _HOLDER
            else:
                rel[ci * k + hi] = _TIEBREAK
    if parts.uses_key:
        keycheck = (
            "if key is None:\n        raise TableError("
            f"{f'table {parts.name} uses key: call it with key=<the key card>'!r})"
        )
    else:
        keycheck = "pass"

    def block(var: str, scale: int, indent: int) -> str:
        return "\n".join(_classify_block(parts.classes, var, scale, " " * indent))

    code = _TEMPLATE.format(
        keycheck=keycheck,
        cls=block("c", 1, 8),
        beats_h=block("h", 1, 8),
        beats_c=block("c", k, 8),
        win_h=block("h", 1, 8),
        win2_c=block("c", k, 12),
        loop_c=block("c", k, 12),
    )
    namespace: dict[str, Any] = {
        **parts.namespace,
        "NAMES": tuple(names),
        "REL": tuple(rel),
        "TIE": _tie_matrix(parts.tiebreak, parts.later),
        "K": k,
        "TableError": TableError,
        "_bad": _bad,
    }
    exec(compile(code, f"<trick table {parts.name}>", "exec"), namespace)
    return {"classify": namespace["classify"], "beats": namespace["beats"], "winner": namespace["winner"]}


# --------------------------------------------------------------------------- parsing

_PARSER: lark.Lark | None = None

#: Plain words for this grammar's own terminals, for "expected ..." in error messages.
_WORDS: Final = {
    "RANKS": "'ranks'", "SUITS": "'suits'", "TABLE": "'table'", "GROUP": "'group'",
    "CLASS": "'class'", "WHEN": "'when'", "BEATS": "'beats' (as in: X beats Y)",
    "OTHERWISE": "'otherwise'",
    "BY": "'by'", "LATER": "'later'", "EARLIER": "'earlier'", "_COLON": "':'", "_GT": "'>'",
    "_EQUAL": "'='", "_COMMA": "','",
}  # fmt: skip


#: Words of the table language that never name anything inside a ``when`` condition:
#: lexed there as keywords, so that a condition cut short ("when card.rank ==" followed
#: by "class b") is reported where it stops instead of swallowing the next line.
#: (``then`` is the expression language's keyword, imported un-namespaced.)
_RESERVED: Final = {"class": "CLASS", "otherwise": "OTHERWISE", "table": "TABLE", "ranks": "RANKS",
                    "suits": "SUITS", "group": "GROUP", "when": "WHEN", "then": "THEN"}  # fmt: skip


def _parser() -> lark.Lark:
    """The table grammar (LALR, cached, loaded by the shared :func:`load_parser`);
    ``when`` expressions arrive as :mod:`cardrules.lang.ast` nodes built by the shared
    :class:`ExprBuilder`, everything else as a lark tree."""
    global _PARSER
    if _PARSER is None:
        builder: lark.Transformer[lark.Token, Any] = merge_transformers(  # type: ignore[no-untyped-call]
            lark.Transformer(), expr=ExprBuilder()
        )
        _PARSER = load_parser("tables.lark", builder, lexer_callbacks=keyword_callbacks(extra=_RESERVED))
    return _PARSER


#: What a ``when`` condition may use: the card being classed, the lead, the key card.
_ENV: Final = Env(
    {
        "card": Variable(Type.CARD, "card"),
        "lead": Variable(Type.CARD, "lead"),
        "key": Variable(Type.CARD, "key"),
    },
    syntax_error=TableError,
    type_error=TableError,
    where="in a trick table",
)


# --------------------------------------------------------------------------- checking

_Token = lark.Token
_Tree = lark.Tree


_RELATION_LINE: Final = re.compile(r"\s*[A-Za-z_]\w*\s+beats?\b")
_ENDS_WITH_OPERATOR: Final = re.compile(
    r"(?:\b(?:and|or|not|in|is|if|then|else)|==|!=|<=|>=|<|>|\+|-|\*|//|%|\(|\[|,)\s*$"
)


def _condition_cut_short(text: str, tok: _Token) -> TableError | None:
    """The error for a ``when`` condition that ends with an operator on the line before a
    relation (``class trump when card.suit == key.suit and`` then ``trump beats other``).

    Newlines are whitespace, so the parser reads the relation's first name as the missing
    operand and only stumbles further on; the place to show is the end of the condition."""
    lines = text.split("\n")
    n = (tok.line or 1) - 1
    if not 0 < n < len(lines) or not _RELATION_LINE.match(lines[n]):
        return None
    p = n - 1
    while p >= 0 and (not lines[p].strip() or lines[p].lstrip().startswith("#")):
        p -= 1
    if p < 0:
        return None
    code = lines[p].split("#", 1)[0].rstrip()
    end = _ENDS_WITH_OPERATOR.search(code)
    if end is None or "when" not in code.split():
        return None
    op = end.group().strip()
    relation = lines[n].split("#", 1)[0].strip()
    return TableError(
        f"the condition ends with {op!r} and nothing after it, so the next line ({relation!r}) "
        "was read as part of it (a condition may go on over several lines): finish the condition",
        text,
        p + 1,
        len(code) + 1,
    )


class _Compiler:
    """Checks one table file and builds its orders and tables."""

    def __init__(self, text: str, prelude: Mapping[str, Mapping[str, Any]]) -> None:
        self.text = text
        self.ranks: dict[str, RankOrder] = dict(prelude.get("ranks", {}))
        self.suits: dict[str, SuitOrder] = dict(prelude.get("suits", {}))
        self.own_ranks: dict[str, RankOrder] = {}
        self.own_suits: dict[str, SuitOrder] = {}
        self.tables: dict[str, TrickTable] = {}
        self.def_text: dict[int, str] = {}

    def error(self, message: str, tok: _Token) -> TableError:
        return TableError(message, self.text, tok.line or 1, tok.column or 1)

    def where(self, tok: _Token) -> str:
        return f"line {tok.line}, column {tok.column}"

    def definition_text(self, start: int, end: int) -> str:
        """The text of the definition whose first token is at ``start`` (the next one
        starts at ``end``): the comment lines right above it, its own lines with the
        comment that ends its last line, and nothing after."""
        text = self.text
        lines = text[start:end].split("\n")
        while len(lines) > 1 and (not lines[-1].strip() or lines[-1].lstrip().startswith("#")):
            lines.pop()
        body = "\n".join(lines).rstrip()
        line_start = text.rfind("\n", 0, start) + 1
        if text[line_start:start].strip():
            return body  # another definition ends on this line
        above: list[str] = []
        pos = line_start
        while pos > 0:
            prev_start = text.rfind("\n", 0, pos - 1) + 1
            prev = text[prev_start : pos - 1]
            if not prev.lstrip().startswith("#"):
                break
            above.insert(0, prev.strip())
            pos = prev_start
        return "\n".join([*above, body])

    def run(self) -> dict[str, TrickTable]:
        if len(self.text) > MAX_TEXT:
            raise TableError(
                f"the text is too long ({len(self.text)} characters; at most {MAX_TEXT})", self.text, 1, 1
            )
        check_nesting(self.text, TableError)
        try:
            tree = _parser().parse(self.text)
        except lark.exceptions.UnexpectedInput as exc:
            if isinstance(exc, lark.exceptions.UnexpectedToken) and exc.token.type == "_EQUAL":
                tok = exc.token
                if "_EQUAL" not in exc.expected:
                    message = "unexpected '=': use == to compare"
                    raise TableError(message, self.text, tok.line or 1, tok.column or 1) from None
            if isinstance(exc, lark.exceptions.UnexpectedToken):
                cut = _condition_cut_short(self.text, exc.token)
                if cut is not None:
                    raise cut from None
            raise source_error(exc, self.text, TableError, extra_words=_WORDS) from None
        except BuildError as exc:
            raise TableError(exc.message, self.text, exc.pos.line, exc.pos.column) from None
        defs = tree.children
        starts = []
        for d in defs:
            assert isinstance(d, _Tree)
            kw = d.children[0]
            assert isinstance(kw, _Token) and kw.start_pos is not None
            starts.append(kw.start_pos)
        ends = [*starts[1:], len(self.text)] if starts else []
        self.def_text = {
            id(d): self.definition_text(a, b) for d, a, b in zip(defs, starts, ends, strict=True)
        }
        seen: dict[tuple[str, str], _Token] = {}
        for d in defs:
            assert isinstance(d, _Tree)
            kw, name = d.children[0], d.children[1]
            assert isinstance(kw, _Token) and isinstance(name, _Token)
            if (kw.type, str(name)) in seen:
                first = seen[kw.type, str(name)]
                raise self.error(f"{kw} {name} is defined twice (first at {self.where(first)})", name)
            seen[kw.type, str(name)] = name
        # Orders first, so that a table may use an order defined after it.
        for d in defs:
            assert isinstance(d, _Tree)
            if d.data == "ranks_def":
                order = self.rank_order(d)
                self.ranks[order.name] = self.own_ranks[order.name] = order
            elif d.data == "suits_def":
                suits = self.suit_order(d)
                self.suits[suits.name] = self.own_suits[suits.name] = suits
        for d in defs:
            assert isinstance(d, _Tree)
            if d.data == "table_def":
                table = TrickTable._build(self.table(d))
                self.tables[table.name] = table
        return self.tables

    # -- ranks

    def rank(self, tok: _Token) -> int:
        word = str(tok)
        if tok.type == "INT" and 2 <= int(word) <= 10 and word == str(int(word)):
            return int(word)
        if word in _RANK_WORDS:
            return _RANK_WORDS[word]
        raise self.error(
            f"{word!r} is not a rank: ranks are A 2 3 4 5 6 7 8 9 10 J Q K (or ace, jack, queen, king)", tok
        )

    def chain(self, tree: _Tree[_Token], placed: dict[int, _Token], order: str) -> list[int]:
        ranks = []
        for r in tree.children:
            assert isinstance(r, _Tree)
            tok = r.children[0]
            assert isinstance(tok, _Token)
            rank = self.rank(tok)
            if rank in placed:
                raise self.error(
                    f"rank {_rank_str(rank)} appears twice in ranks {order} "
                    f"(first at {self.where(placed[rank])})",
                    tok,
                )
            placed[rank] = tok
            ranks.append(rank)
        return ranks

    def rank_order(self, d: _Tree[_Token]) -> RankOrder:
        kw, name_tok, *body = d.children
        assert isinstance(kw, _Token) and isinstance(name_tok, _Token)
        name = str(name_tok)
        placed: dict[int, _Token] = {}
        groups: list[tuple[str, list[int]]] = []
        group_tok: dict[str, _Token] = {}
        beats: dict[tuple[str, str], _Token] = {}
        for part in body:
            assert isinstance(part, _Tree)
            if part.data == "rank_chain":
                groups.append((name, self.chain(part, placed, name)))
            elif part.data == "group":
                _, gtok, chain = part.children
                assert isinstance(gtok, _Token) and isinstance(chain, _Tree)
                if str(gtok) in group_tok:
                    raise self.error(
                        f"group {gtok} is defined twice (first at {self.where(group_tok[str(gtok)])})", gtok
                    )
                group_tok[str(gtok)] = gtok
                groups.append((str(gtok), self.chain(chain, placed, name)))
            else:  # group_beat
                a, _, b = part.children
                assert isinstance(a, _Token) and isinstance(b, _Token)
                for tok in (a, b):
                    if str(tok) not in group_tok:
                        known = ", ".join(group_tok)
                        raise self.error(f"unknown group {tok!s} in ranks {name} (groups: {known})", tok)
                if str(a) == str(b):
                    raise self.error(f"group {a} cannot beat itself", b)
                pair, back = (str(a), str(b)), (str(b), str(a))
                if pair in beats:
                    raise self.error(f"{a} beat {b} is stated twice (first at {self.where(beats[pair])})", a)
                if back in beats:
                    raise self.error(
                        f"{a} beat {b} contradicts {b} beat {a} at {self.where(beats[back])}: "
                        "state one direction only",
                        a,
                    )
                beats[pair] = a
        missing = [r for r in range(1, 14) if r not in placed]
        if missing:
            ranks = ", ".join(_rank_str(r) for r in missing)
            raise self.error(
                f"ranks {name} does not place {ranks}: every rank A..K must appear exactly once", kw
            )
        gnames = [g for g, _ in groups]
        for i, ga in enumerate(gnames):
            for gb in gnames[i + 1 :]:
                if (ga, gb) not in beats and (gb, ga) not in beats:
                    raise self.error(
                        f"groups {ga} and {gb} of ranks {name} have no relation: "
                        f"add '{ga} beat {gb}' or '{gb} beat {ga}'",
                        kw,
                    )
        return RankOrder(name, groups, list(beats), self.def_text[id(d)])

    # -- suits

    def suit_order(self, d: _Tree[_Token]) -> SuitOrder:
        kw, name_tok, *body = d.children
        assert isinstance(kw, _Token) and isinstance(name_tok, _Token)
        placed: dict[Suit, _Token] = {}
        for s in body:
            assert isinstance(s, _Tree)
            tok = s.children[0]
            assert isinstance(tok, _Token)
            suit = _SUIT_WORDS.get(str(tok))
            if suit is None:
                raise self.error(f"{tok!s} is not a suit: suits are spades, hearts, diamonds, clubs", tok)
            if suit in placed:
                raise self.error(
                    f"{suit.name.lower()} appears twice in suits {name_tok} "
                    f"(first at {self.where(placed[suit])})",
                    tok,
                )
            placed[suit] = tok
        missing = [s.name.lower() for s in _FRENCH_SUITS if s not in placed]
        if missing:
            raise self.error(
                f"suits {name_tok} does not place {', '.join(missing)}: every suit must appear exactly once",
                kw,
            )
        return SuitOrder(str(name_tok), list(placed), self.def_text[id(d)])

    # -- tables

    def table(self, d: _Tree[_Token]) -> _TableParts:
        kw, name_tok, *body = d.children
        assert isinstance(kw, _Token) and isinstance(name_tok, _Token)
        parts = _TableParts()
        parts.name = str(name_tok)
        class_tok: dict[str, _Token] = {}
        stated: dict[tuple[str, str], _Token] = {}
        class_defs = [p for p in body if isinstance(p, _Tree) and p.data == "class_def"]
        for i, cd in enumerate(class_defs):
            ckw, ctok, *when = cd.children
            assert isinstance(ckw, _Token) and isinstance(ctok, _Token)
            if str(ctok) in class_tok:
                raise self.error(
                    f"class {ctok} is defined twice (first at {self.where(class_tok[str(ctok)])})", ctok
                )
            class_tok[str(ctok)] = ctok
            if not when and i < len(class_defs) - 1:
                raise self.error(
                    f"class {ctok} has no 'when', so it catches every card and the classes after it "
                    "never apply: only the last class may have no 'when'",
                    ckw,
                )
            if when:
                expr = when[1]
                assert not isinstance(expr, (_Tree, _Token))
                code = self.condition(expr, parts, i)
                parts.classes.append(_Class(str(ctok), code, A.unparse(expr)))
            else:
                parts.classes.append(_Class(str(ctok), None, None))
        if class_defs[-1].children[2:]:
            raise self.error(
                f"table {name_tok} has no catch-all class: its last class must have no 'when' "
                f"(e.g. 'class other')",
                kw,
            )
        used: list[RankOrder | SuitOrder] = []
        for p in body:
            assert isinstance(p, _Tree)
            if p.data == "relation":
                win, _, *losers = p.children
                assert isinstance(win, _Token)
                self.known_class(win, class_tok, parts.name)
                for lose in losers:
                    assert isinstance(lose, _Token)
                    self.known_class(lose, class_tok, parts.name)
                    pair, back = (str(win), str(lose)), (str(lose), str(win))
                    if pair[0] == pair[1]:
                        raise self.error(f"class {win} cannot beat itself", lose)
                    if pair in stated:
                        raise self.error(
                            f"{win} beats {lose} is stated twice (first at {self.where(stated[pair])})", lose
                        )
                    if back in stated:
                        raise self.error(
                            f"{win} beats {lose} contradicts {lose} beats {win} at "
                            f"{self.where(stated[back])}: state one direction only",
                            lose,
                        )
                    stated[pair] = lose
            elif p.data == "otherwise":
                self.otherwise(p, parts, used)
        parts.relations = set(stated)
        parts.tiebreak = used
        # The self-contained source: the orders this table uses, then the table.
        pieces = [o.source for o in used if isinstance(o, RankOrder)]
        pieces += [o.source for o in used if isinstance(o, SuitOrder)]
        parts.source = "\n\n".join([*dict.fromkeys(pieces), self.def_text[id(d)]]) + "\n"
        return parts

    def known_class(self, tok: _Token, classes: Mapping[str, _Token], table: str) -> None:
        if str(tok) not in classes:
            raise self.error(f"unknown class {tok!s} (classes of table {table}: {', '.join(classes)})", tok)

    def otherwise(self, p: _Tree[_Token], parts: _TableParts, used: list[RankOrder | SuitOrder]) -> None:
        okw = p.children[0]
        assert isinstance(okw, _Token)
        if len(p.children) == 1:
            raise self.error("'otherwise' needs 'by' and comparators, or 'then later'/'then earlier'", okw)
        for c in p.children[1:]:
            if isinstance(c, _Token):  # BY
                continue
            if c.data == "tie_rule":
                which = c.children[1]
                assert isinstance(which, _Token)
                parts.later = which.type == "LATER"
                continue
            kind, ntok = c.children
            assert isinstance(kind, _Token) and isinstance(ntok, _Token)
            pool: Mapping[str, RankOrder | SuitOrder]
            other: Mapping[str, RankOrder | SuitOrder]
            pool, other = (self.ranks, self.suits) if kind.type == "RANKS" else (self.suits, self.ranks)
            order = pool.get(str(ntok))
            if order is None:
                hint = ""
                if str(ntok) in other:
                    hint = f"; {ntok} is a {'suit' if kind.type == 'RANKS' else 'rank'} order"
                known = ", ".join(pool) or "none"
                raise self.error(f"unknown {kind} order {ntok!s} (known: {known}){hint}", ntok)
            if order in used:
                raise self.error(f"{kind} {ntok} is already in the tie-break chain", ntok)
            used.append(order)

    # -- conditions: the shared checker and code generator

    def condition(self, expr: A.Expr, parts: _TableParts, index: int) -> str:
        """Python code for one ``when`` condition over ``card``, ``lead`` and ``key``."""
        checked = check(expr, _ENV, self.text, want=None)
        kind = checked.type_of(expr)
        if kind is not Type.BOOL:
            pos = A.start_pos(expr)
            raise TableError(
                f"a 'when' condition must be true or false, but {A.unparse(expr)} is "
                f"{'an' if str(kind)[0] in 'aeiou' else 'a'} {kind}",
                self.text,
                pos.line,
                pos.column,
            )
        gen = CodeGen(checked, prefix=f"w{index}_")
        code = gen.cond(expr)
        if gen.statements:  # pragma: no cover - aggregates are refused without a main line
            raise TableError("a trick-table condition cannot look at a main line", self.text, 1, 1)
        parts.namespace.update(gen.globals)
        parts.uses_key |= any(isinstance(n, A.Name) and n.name == "key" for n in A.walk(expr))
        return f"({code})"


# --------------------------------------------------------------------------- shipped tables

_SHIPPED: dict[str, Any] = {}


def _shipped() -> dict[str, Any]:
    """The shipped file's tables and orders (compiled once)."""
    if not _SHIPPED:
        compiler = _Compiler(_resources.package_text("tables", "standard.tricks"), {})
        tables = compiler.run()
        _SHIPPED.update(tables=tables, ranks=compiler.own_ranks, suits=compiler.own_suits)
        for table in tables.values():  # a stored shipped table decodes to the shipped object
            _DECODED[table.name, table.source] = table
    return _SHIPPED


def compile_tables(text: str) -> dict[str, TrickTable]:
    """Compile a table file: its tables by name, in the order they are defined.

    The orders of the shipped file (``ranks standard``, ``ranks cycle3``, ``suits
    elements``) are known in every file; a file may define its own of the same name,
    which then wins.  Every fault raises :class:`TableError` with line and column.
    """
    if not isinstance(text, str):
        raise TableError(f"table text must be a string, not {type(text).__name__}")
    return _Compiler(text, _shipped()).run()


def builtin(name: str) -> TrickTable:
    """A shipped table: ``aegis``, ``gunsore`` or ``whist``."""
    tables: dict[str, TrickTable] = _shipped()["tables"]
    try:
        return tables[name]
    except (KeyError, TypeError):
        raise TableError(f"no shipped table {name!r} (known: {', '.join(tables)})") from None


def _decode_table(data: object) -> TrickTable:
    if not isinstance(data, dict) or set(data) != {"name", "source"}:
        raise TableError(f"a trick table is stored as {{'name': ..., 'source': ...}}, not {data!r}")
    return _from_source(data["name"], data["source"])


register_codec(TrickTable, lambda t: {"name": t.name, "source": t.source}, _decode_table)

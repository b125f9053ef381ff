"""The trick-table compiler: table text to checked definitions and generated code.

This is the second language of :mod:`cardrules.lang`, beside the Eleusis rules: it
parses a table file with ``grammars/tables.lark`` (whose ``when`` conditions are the
shared expression language, built by the shared :class:`~cardrules.lang.parser.ExprBuilder`),
checks every definition, type-checks each ``when`` with the shared checker and writes
it with the shared :class:`~cardrules.lang.codegen.CodeGen`, then generates one
``classify``, ``beats`` and ``winner`` per table (an ``if`` chain over the conditions
and look-ups in precomputed tuples), compiled by the shared
:func:`~cardrules.lang.codegen.exec_source`.

The runtime objects (:class:`~cardrules.tricks.TrickTable`, its rank and suit orders and
:class:`~cardrules.tricks.TableError`) live in :mod:`cardrules.tricks`, which calls
:class:`TableCompiler` with the error class and the makers of its order objects, and
builds each table from the :class:`TableParts` the compiler returns.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final, Protocol

import lark
from lark.visitors import merge_transformers

from ..cards import JOKER, Card, Suit, haggis_faces, haggis_number_cards, standard_deck
from . import ast as A
from . import codegen
from .ast import Type
from .check import Env, Variable, check
from .codegen import CodeGen, exec_source
from .errors import SourceError
from .parser import (
    MAX_TEXT,
    BuildError,
    ExprBuilder,
    check_nesting,
    keyword_callbacks,
    load_parser,
    source_error,
)

__all__ = [
    "CARDS",
    "FRENCH_SUITS",
    "RANK_WORDS",
    "SUIT_WORDS",
    "CompiledFile",
    "Order",
    "TableClass",
    "TableCompiler",
    "TableParts",
    "rank_str",
]


class Order(Protocol):
    """What the compiler needs of a rank or suit order object made by the caller."""

    @property
    def name(self) -> str: ...

    @property
    def source(self) -> str: ...

    def compare(self, a: Any, b: Any, /) -> int: ...


# --------------------------------------------------------------------------- the cards

#: Every interned card, indexed by ``Card.index``.
CARDS: Final[tuple[Card, ...]] = tuple(
    sorted({*standard_deck(), *haggis_number_cards(5), *haggis_faces(), JOKER}, key=lambda c: c.index)
)
assert [c.index for c in CARDS] == list(range(len(CARDS)))

#: Spellings of ranks in table text (numbers are read as themselves).
RANK_WORDS: Final = {"A": 1, "ace": 1, "J": 11, "jack": 11, "Q": 12, "queen": 12, "K": 13, "king": 13}
_RANK_NAMES: Final = {1: "A", 11: "J", 12: "Q", 13: "K"}
#: Spellings of suits in table text.
SUIT_WORDS: Final = {
    "spades": Suit.SPADES, "spade": Suit.SPADES, "♠": Suit.SPADES, "♤": Suit.SPADES,
    "hearts": Suit.HEARTS, "heart": Suit.HEARTS, "♥": Suit.HEARTS, "♡": Suit.HEARTS,
    "diamonds": Suit.DIAMONDS, "diamond": Suit.DIAMONDS, "♦": Suit.DIAMONDS, "♢": Suit.DIAMONDS,
    "clubs": Suit.CLUBS, "club": Suit.CLUBS, "♣": Suit.CLUBS, "♧": Suit.CLUBS,
}  # fmt: skip
#: The suits an order places.
FRENCH_SUITS: Final = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)


def rank_str(rank: int) -> str:
    """``A``, ``2`` ... ``10``, ``J``, ``Q``, ``K``."""
    return _RANK_NAMES.get(rank) or str(rank)


# --------------------------------------------------------------------------- tables

# How a pair of classes is settled: challenger wins, holder keeps, or the tie-break.
_HOLDER: Final = 0
_CHALLENGER: Final = 1
_TIEBREAK: Final = 2

# --------------------------------------------------------------------------- compiling


class TableClass:
    """One class of a table: its name, the Python code of its ``when`` condition over
    ``card``, ``lead`` and ``key`` (``None`` for the catch-all) and the condition's
    normalised text."""

    __slots__ = ("condition", "name", "text")

    def __init__(self, name: str, condition: str | None, text: str | None) -> None:
        self.name = name
        self.condition = condition  # Python source over card, lead, key; None = catch-all
        self.text = text  # the `when` condition, normalised (ast.unparse)


class TableParts:
    """Everything needed to build a trick table, checked: its name, self-contained
    source, classes, stated ``(winner, loser)`` relations, tie-break comparators (each
    ``("ranks" | "suits", order)``), ``later``, ``uses_key``, and :attr:`functions`, the
    generated ``classify``, ``beats`` and ``winner``."""

    __slots__ = (
        "classes",
        "functions",
        "later",
        "name",
        "namespace",
        "relations",
        "source",
        "tiebreak",
        "uses_key",
    )

    def __init__(self) -> None:
        self.name = ""
        self.source = ""
        self.classes: list[TableClass] = []
        self.relations: set[tuple[str, str]] = set()
        self.tiebreak: list[tuple[str, Order]] = []
        self.later = False
        self.uses_key = False
        self.namespace: dict[str, object] = {}  # globals the conditions' code needs
        self.functions: dict[str, Callable[..., Any]] = {}


class CompiledFile:
    """What :meth:`TableCompiler.run` returns: the file's own rank and suit orders (by
    name, as the caller's makers built them) and its tables' parts, in file order."""

    __slots__ = ("ranks", "suits", "tables")

    def __init__(self, ranks: dict[str, Order], suits: dict[str, Order], tables: list[TableParts]) -> None:
        self.ranks = ranks
        self.suits = suits
        self.tables = tables


def _tie_matrix(tiebreak: Sequence[tuple[str, Order]], later: bool) -> tuple[tuple[bool, ...], ...]:
    """``m[c.index][h.index]``: does challenger ``c`` take the trick from holder ``h`` of
    the same standing (neither class beats the other)?"""
    rows = []
    for c in CARDS:
        row = []
        for h in CARDS:
            decided = 0
            for kind, comp in tiebreak:
                decided = comp.compare(c.rank, h.rank) if kind == "ranks" else comp.compare(c.suit, h.suit)
                if decided:
                    break
            row.append(decided > 0 if decided else later)
        rows.append(tuple(row))
    return tuple(rows)


def _classify_block(classes: Sequence[TableClass], var: str, scale: int, indent: str) -> list[str]:
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


def _bad(error: type[SourceError], exc: BaseException, cards: object, key: object) -> SourceError:
    """The error for a call with something that is not a trick."""
    try:
        items = list(cards)  # type: ignore[call-overload]
    except TypeError:
        return error(f"a trick is a sequence of cards, not {cards!r}")
    if not items:
        return error("a trick has at least one card")
    for c in [*items, key]:
        if c is not None and not isinstance(c, Card):
            return error(f"{c!r} is not a Card")
    return error(f"cannot judge this trick: {exc}")  # pragma: no cover - a bug


#: What the table functions use beyond the builtins of the condition code.
_TABLE_BUILTINS: Final = {
    "len": len, "range": range,
    "AttributeError": AttributeError, "TypeError": TypeError, "IndexError": IndexError,
}  # fmt: skip


def _generate(parts: TableParts, error: type[SourceError]) -> dict[str, Callable[..., Any]]:
    """Python functions ``classify``, ``beats`` and ``winner`` for one table; a call
    with something that is not a trick raises ``error``."""
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
        "TableError": error,
        "_bad": lambda exc, cards, key: _bad(error, exc, cards, key),
        "__builtins__": {**codegen.SAFE_BUILTINS, **_TABLE_BUILTINS},
    }
    scope = exec_source(code, f"trick table {parts.name}", namespace, keep_with="winner")
    return {"classify": scope["classify"], "beats": scope["beats"], "winner": scope["winner"]}


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
    """The table grammar (LALR, built once per process by the shared :func:`load_parser`);
    ``when`` expressions arrive as :mod:`cardrules.lang.ast` nodes built by the shared
    :class:`ExprBuilder`, everything else as a lark tree."""
    global _PARSER
    if _PARSER is None:
        builder: lark.Transformer[lark.Token, Any] = merge_transformers(  # type: ignore[no-untyped-call]
            lark.Transformer(), expr=ExprBuilder()
        )
        _PARSER = load_parser("tables.lark", builder, lexer_callbacks=keyword_callbacks(extra=_RESERVED))
    return _PARSER


def _env(error: type[SourceError]) -> Env:
    """What a ``when`` condition may use: the card being classed, the lead, the key card."""
    return Env(
        {
            "card": Variable(Type.CARD, "card"),
            "lead": Variable(Type.CARD, "lead"),
            "key": Variable(Type.CARD, "key"),
        },
        syntax_error=error,
        type_error=error,
        where="in a trick table",
    )


# --------------------------------------------------------------------------- checking

_Token = lark.Token
_Tree = lark.Tree


_RELATION_LINE: Final = re.compile(r"\s*[A-Za-z_]\w*\s+beats?\b")
_ENDS_WITH_OPERATOR: Final = re.compile(
    r"(?:\b(?:and|or|not|in|is|if|then|else)|==|!=|<=|>=|<|>|\+|-|\*|//|%|\(|\[|,)\s*$"
)


def _condition_cut_short(text: str, tok: _Token, error: type[SourceError]) -> SourceError | None:
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
    return error(
        f"the condition ends with {op!r} and nothing after it, so the next line ({relation!r}) "
        "was read as part of it (a condition may go on over several lines): finish the condition",
        text,
        p + 1,
        len(code) + 1,
    )


#: ``make_ranks(name, groups, group_beats, source)``: the caller's rank order object.
MakeRanks = Callable[[str, list[tuple[str, list[int]]], list[tuple[str, str]], str], Order]
#: ``make_suits(name, suits, source)``: the caller's suit order object.
MakeSuits = Callable[[str, list[Suit], str], Order]


class TableCompiler:
    """Checks one table file, builds its orders (with the caller's makers) and compiles
    its tables.

    ``TableCompiler(text, error=TableError, make_ranks=..., make_suits=...,
    ranks=prelude_ranks, suits=prelude_suits).run()`` returns a :class:`CompiledFile`;
    every fault raises ``error`` (a :class:`~cardrules.lang.errors.SourceError`) with
    its line and column.  ``ranks``/``suits`` are orders known before the file (the
    shipped ones); the file's own orders of the same name win.
    """

    def __init__(
        self,
        text: str,
        *,
        error: type[SourceError],
        make_ranks: MakeRanks,
        make_suits: MakeSuits,
        ranks: Mapping[str, Order] | None = None,
        suits: Mapping[str, Order] | None = None,
    ) -> None:
        self.text = text
        self.error_class = error
        self.make_ranks = make_ranks
        self.make_suits = make_suits
        self.env = _env(error)
        self.ranks: dict[str, Order] = dict(ranks or {})
        self.suits: dict[str, Order] = dict(suits or {})
        self.own_ranks: dict[str, Order] = {}
        self.own_suits: dict[str, Order] = {}
        self.def_text: dict[int, str] = {}

    def error(self, message: str, tok: _Token) -> SourceError:
        return self.error_class(message, self.text, tok.line or 1, tok.column or 1)

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

    def run(self) -> CompiledFile:
        error = self.error_class
        if len(self.text) > MAX_TEXT:
            raise error(
                f"the text is too long ({len(self.text)} characters; at most {MAX_TEXT})", self.text, 1, 1
            )
        check_nesting(self.text, error)
        try:
            tree = _parser().parse(self.text)
        except lark.exceptions.UnexpectedInput as exc:
            if isinstance(exc, lark.exceptions.UnexpectedToken) and exc.token.type == "_EQUAL":
                tok = exc.token
                if "_EQUAL" not in exc.expected:
                    message = "unexpected '=': use == to compare"
                    raise error(message, self.text, tok.line or 1, tok.column or 1) from None
            if isinstance(exc, lark.exceptions.UnexpectedToken):
                cut = _condition_cut_short(self.text, exc.token, error)
                if cut is not None:
                    raise cut from None
            raise source_error(exc, self.text, error, extra_words=_WORDS) from None
        except BuildError as exc:
            raise error(exc.message, self.text, exc.pos.line, exc.pos.column) from None
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
        tables = []
        for d in defs:
            assert isinstance(d, _Tree)
            if d.data == "table_def":
                parts = self.table(d)
                parts.functions = _generate(parts, self.error_class)
                tables.append(parts)
        return CompiledFile(self.own_ranks, self.own_suits, tables)

    # -- ranks

    def rank(self, tok: _Token) -> int:
        word = str(tok)
        if tok.type == "INT" and 2 <= int(word) <= 10 and word == str(int(word)):
            return int(word)
        if word in RANK_WORDS:
            return RANK_WORDS[word]
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
                    f"rank {rank_str(rank)} appears twice in ranks {order} "
                    f"(first at {self.where(placed[rank])})",
                    tok,
                )
            placed[rank] = tok
            ranks.append(rank)
        return ranks

    def rank_order(self, d: _Tree[_Token]) -> Order:
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
            ranks = ", ".join(rank_str(r) for r in missing)
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
        return self.make_ranks(name, groups, list(beats), self.def_text[id(d)])

    # -- suits

    def suit_order(self, d: _Tree[_Token]) -> Order:
        kw, name_tok, *body = d.children
        assert isinstance(kw, _Token) and isinstance(name_tok, _Token)
        placed: dict[Suit, _Token] = {}
        for s in body:
            assert isinstance(s, _Tree)
            tok = s.children[0]
            assert isinstance(tok, _Token)
            suit = SUIT_WORDS.get(str(tok))
            if suit is None:
                raise self.error(f"{tok!s} is not a suit: suits are spades, hearts, diamonds, clubs", tok)
            if suit in placed:
                raise self.error(
                    f"{suit.name.lower()} appears twice in suits {name_tok} "
                    f"(first at {self.where(placed[suit])})",
                    tok,
                )
            placed[suit] = tok
        missing = [s.name.lower() for s in FRENCH_SUITS if s not in placed]
        if missing:
            raise self.error(
                f"suits {name_tok} does not place {', '.join(missing)}: every suit must appear exactly once",
                kw,
            )
        return self.make_suits(str(name_tok), list(placed), self.def_text[id(d)])

    # -- tables

    def table(self, d: _Tree[_Token]) -> TableParts:
        kw, name_tok, *body = d.children
        assert isinstance(kw, _Token) and isinstance(name_tok, _Token)
        parts = TableParts()
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
                parts.classes.append(TableClass(str(ctok), code, A.unparse(expr)))
            else:
                parts.classes.append(TableClass(str(ctok), None, None))
        if class_defs[-1].children[2:]:
            raise self.error(
                f"table {name_tok} has no catch-all class: its last class must have no 'when' "
                f"(e.g. 'class other')",
                kw,
            )
        used: list[tuple[str, Order]] = []
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
        pieces = [o.source for kind, o in used if kind == "ranks"]
        pieces += [o.source for kind, o in used if kind == "suits"]
        parts.source = "\n\n".join([*dict.fromkeys(pieces), self.def_text[id(d)]]) + "\n"
        return parts

    def known_class(self, tok: _Token, classes: Mapping[str, _Token], table: str) -> None:
        if str(tok) not in classes:
            raise self.error(f"unknown class {tok!s} (classes of table {table}: {', '.join(classes)})", tok)

    def otherwise(self, p: _Tree[_Token], parts: TableParts, used: list[tuple[str, Order]]) -> None:
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
            pool: Mapping[str, Order]
            other: Mapping[str, Order]
            pool, other = (self.ranks, self.suits) if kind.type == "RANKS" else (self.suits, self.ranks)
            order = pool.get(str(ntok))
            if order is None:
                hint = ""
                if str(ntok) in other:
                    hint = f"; {ntok} is a {'suit' if kind.type == 'RANKS' else 'rank'} order"
                known = ", ".join(pool) or "none"
                raise self.error(f"unknown {kind} order {ntok!s} (known: {known}){hint}", ntok)
            entry = ("ranks" if kind.type == "RANKS" else "suits", order)
            if entry in used:
                raise self.error(f"{kind} {ntok} is already in the tie-break chain", ntok)
            used.append(entry)

    # -- conditions: the shared checker and code generator

    def condition(self, expr: A.Expr, parts: TableParts, index: int) -> str:
        """Python code for one ``when`` condition over ``card``, ``lead`` and ``key``."""
        checked = check(expr, self.env, self.text, want=None)
        kind = checked.type_of(expr)
        if kind is not Type.BOOL:
            pos = A.start_pos(expr)
            raise self.error_class(
                f"a 'when' condition must be true or false, but {A.unparse(expr)} is "
                f"{'an' if str(kind)[0] in 'aeiou' else 'a'} {kind}",
                self.text,
                pos.line,
                pos.column,
            )
        gen = CodeGen(checked, prefix=f"w{index}_")
        code = gen.cond(expr)
        if gen.statements:  # pragma: no cover - aggregates are refused without a main line
            raise self.error_class("a trick-table condition cannot look at a main line", self.text, 1, 1)
        parts.namespace.update(gen.globals)
        parts.uses_key |= any(isinstance(n, A.Name) and n.name == "key" for n in A.walk(expr))
        return f"({code})"

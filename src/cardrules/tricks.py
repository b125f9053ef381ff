"""Trick tables: which card wins a trick, written as text.

A table file holds rank orders, suit orders and tables.  :func:`compile_tables` checks a
file completely (every fault is a :class:`TableError` with its line and column) and turns
each table into plain Python code: classifying a card runs the table's ``when``
conditions as one compiled ``if`` chain, and the relation between classes and the
tie-break chain are lookups in precomputed tuples.  Nothing walks a parse tree while a
trick is judged.  The compiler is :mod:`cardrules.lang.tables`, beside the Eleusis rule
compiler, with which it shares the expression language, its checker and its code
generator; this module holds the runtime tables and orders and the public API.

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

from collections.abc import Sequence
from typing import Any

from . import _resources
from .cards import Card, Suit
from .errors import CardRulesError
from .lang.errors import SourceError, depth_guard
from .lang.tables import CompiledFile, TableCompiler, TableParts, rank_str
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
            return " > ".join(rank_str(r) for r in self.groups[0][1])
        chains = "; ".join(f"{g} = {' > '.join(rank_str(r) for r in rs)}" for g, rs in self.groups)
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


class TrickTable:
    """A compiled trick table (see the trick-table language reference).

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
    def _build(cls, _parts: TableParts) -> TrickTable:
        # Used by compile_tables; the functions the table compiler generated
        # (cardrules.lang.tables) shadow the methods below.
        table = object.__new__(TrickTable)
        d = table.__dict__
        d["name"] = _parts.name
        d["source"] = _parts.source
        d["classes"] = tuple(c.name for c in _parts.classes)
        d["conditions"] = tuple(c.text for c in _parts.classes)
        d["relations"] = frozenset(_parts.relations)
        d["tiebreak"] = tuple(order for _, order in _parts.tiebreak)
        d["later"] = _parts.later
        d["uses_key"] = _parts.uses_key
        d.update(_parts.functions)
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
    # generated for its own table (by cardrules.lang.tables), so calls pay no extra indirection.

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


# --------------------------------------------------------------------------- shipped tables

_SHIPPED: dict[str, Any] = {}


def _compile(text: str, prelude: dict[str, Any]) -> tuple[CompiledFile, dict[str, TrickTable]]:
    """The table compiler of :mod:`cardrules.lang.tables` run on ``text``, making this
    module's orders, errors and tables."""
    compiled = TableCompiler(
        text,
        error=TableError,
        make_ranks=RankOrder,
        make_suits=SuitOrder,
        ranks=prelude.get("ranks"),
        suits=prelude.get("suits"),
    ).run()
    return compiled, {parts.name: TrickTable._build(parts) for parts in compiled.tables}


def _shipped() -> dict[str, Any]:
    """The shipped file's tables and orders (compiled once)."""
    if not _SHIPPED:
        compiled, tables = _compile(_resources.package_text("tables", "standard.tricks"), {})
        _SHIPPED.update(tables=tables, ranks=compiled.ranks, suits=compiled.suits)
        for table in tables.values():  # a stored shipped table decodes to the shipped object
            _DECODED[table.name, table.source] = table
    return _SHIPPED


@depth_guard(TableError)
def compile_tables(text: str) -> dict[str, TrickTable]:
    """Compile a table file: its tables by name, in the order they are defined.

    The orders of the shipped file (``ranks standard``, ``ranks cycle3``, ``suits
    elements``) are known in every file; a file may define its own of the same name,
    which then wins.  Every fault raises :class:`TableError` with line and column.
    """
    if not isinstance(text, str):
        raise TableError(f"table text must be a string, not {type(text).__name__}")
    return _compile(text, _shipped())[1]


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

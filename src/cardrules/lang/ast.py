"""The abstract syntax tree of the expression language, and its pretty printer.

Every node is an immutable :mod:`attrs` value with a :class:`Pos` (the 1-based line and
column of the token that names it: the operator of an operation, the name of a call,
the ``if`` of a conditional).  Equality ignores positions, so two texts that differ only
in layout give equal trees.  Names of constants (``spades``, ``red``, ``J``, ``true``)
are resolved when the tree is built, into :class:`Const`; every other name stays a
:class:`Name` and is resolved by the type checker against the caller's variables.

Nodes (``Expr`` is their union):

=====================  =========================================================
:class:`Const`         an integer, boolean, :class:`~cardrules.Suit` or :class:`~cardrules.Color`
:class:`Name`          a variable: ``card``, ``prev3``, ``position``, ``lead``, a bound name
:class:`Attribute`     ``x.rank``, ``x.suit``, ``x.color``
:class:`Neg`           ``-x``
:class:`Arith`         ``a + b``, ``-``, ``*``, ``//``, ``%``
:class:`Compare`       ``a == b``, ``!=``, ``<``, ``<=``, ``>``, ``>=``
:class:`Member`        ``x in {...}`` and ``x not in {...}``
:class:`Is`            ``x is P`` and ``x is not P``
:class:`Not`           ``not p``
:class:`BoolOp`        ``p and q and ...``, ``p or q or ...`` (flattened)
:class:`If`            ``if p then x elif q then y else z``
:class:`Call`          ``abs(x)``, ``min(a, b)``, ``max(a, b)``, ``next(x, [...])``, ``has(prevN)``,
                       ``index/after/before(x, [...])``, ``isqrt(n)``
:class:`ListLit`       ``[a, b, c]`` (only indexed, or as ``next``'s list)
:class:`Index`         ``[a, b, c][i]``
:class:`Aggregate`     ``count(x in line where p)``, ``any``, ``all``; ``last N`` windows;
                       ``sum(e for x in line where p)``, ``min``, ``max`` (folds)
=====================  =========================================================

:class:`Range` is an item ``lo..hi`` of a set or a list.  :func:`walk` yields every node
of a tree, :func:`children` the direct sub-expressions, :func:`unparse` the normalised
text (minimal parentheses, canonical spellings) that parses back to an equal tree.
Every node also has ``depth`` (1 for a leaf), which the parser uses to refuse
pathological nesting before anything recursive runs.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterator
from typing import Any, Final, NamedTuple, Union

import attrs

from ..cards import Color, Suit

__all__ = [
    "FOLDS",
    "TRUE",
    "Aggregate",
    "Arith",
    "BoolOp",
    "Call",
    "Compare",
    "Const",
    "Expr",
    "If",
    "Index",
    "Is",
    "Item",
    "ListLit",
    "Member",
    "Name",
    "Neg",
    "Not",
    "Pos",
    "Range",
    "Type",
    "children",
    "start_pos",
    "unparse",
    "walk",
]


class Pos(NamedTuple):
    """A 1-based place in the source text."""

    line: int
    column: int


NOPOS = Pos(1, 1)


class Type(enum.Enum):
    """The types of the expression language."""

    INT = "integer"
    BOOL = "boolean"
    SUIT = "suit"
    COLOR = "colour"
    CARD = "card"

    __hash__ = object.__hash__

    def __str__(self) -> str:
        return self.value


ConstValue = Union[int, bool, Suit, Color]  # noqa: UP007 (runtime aliases: Python 3.10)


@attrs.frozen(slots=True)
class Const:
    """A constant.  ``spelling`` is its normalised text (``"J"``, ``"spades"``, ``"-3"``)."""

    value: ConstValue
    spelling: str
    pos: Pos = attrs.field(default=NOPOS, eq=False, repr=False)
    depth: int = attrs.field(default=1, eq=False, repr=False)

    @property
    def type(self) -> Type:
        v = self.value
        if isinstance(v, bool):
            return Type.BOOL
        if isinstance(v, int):
            return Type.INT
        if isinstance(v, Suit):
            return Type.SUIT
        return Type.COLOR


@attrs.frozen(slots=True)
class Name:
    """A variable, resolved by the type checker (``card``, ``prev2``, ``lead``, a bound name)."""

    name: str
    pos: Pos = attrs.field(default=NOPOS, eq=False, repr=False)
    depth: int = attrs.field(default=1, eq=False, repr=False)


@attrs.frozen(slots=True)
class Range:
    """``lo..hi`` inside a set or a list: the integers ``lo`` to ``hi`` inclusive."""

    lo: Const
    hi: Const
    pos: Pos = attrs.field(default=NOPOS, eq=False, repr=False)
    depth: int = attrs.field(default=2, eq=False, repr=False)


Item = Union[Const, Range]  # noqa: UP007


class _Compound:
    """What every node with sub-nodes shares: after ``__init__`` its ``depth`` is one
    more than its deepest child's, the children being what :func:`children` lists
    (``_CHILDREN``, the one place that says which fields hold sub-nodes)."""

    __slots__ = ()

    def __attrs_post_init__(self) -> None:
        kids = _CHILDREN[type(self)](self)
        object.__setattr__(self, "depth", 1 + max([k.depth for k in kids], default=0))


@attrs.frozen(slots=True)
class Attribute(_Compound):
    """``obj.attr`` with ``attr`` one of ``rank``, ``suit``, ``color``."""

    obj: Expr
    attr: str
    pos: Pos = attrs.field(default=NOPOS, eq=False, repr=False)
    depth: int = attrs.field(default=0, eq=False, repr=False)


@attrs.frozen(slots=True)
class Neg(_Compound):
    """``-operand``."""

    operand: Expr
    pos: Pos = attrs.field(default=NOPOS, eq=False, repr=False)
    depth: int = attrs.field(default=0, eq=False, repr=False)


@attrs.frozen(slots=True)
class Arith(_Compound):
    """``left op right`` with ``op`` one of ``+ - * // %``."""

    op: str
    left: Expr
    right: Expr
    pos: Pos = attrs.field(default=NOPOS, eq=False, repr=False)
    depth: int = attrs.field(default=0, eq=False, repr=False)


@attrs.frozen(slots=True)
class Compare(_Compound):
    """``left op right`` with ``op`` one of ``== != < <= > >=``."""

    op: str
    left: Expr
    right: Expr
    pos: Pos = attrs.field(default=NOPOS, eq=False, repr=False)
    depth: int = attrs.field(default=0, eq=False, repr=False)


@attrs.frozen(slots=True)
class Member(_Compound):
    """``elem in {items}`` (or ``not in`` when ``negated``)."""

    elem: Expr
    items: tuple[Item, ...]
    negated: bool = False
    pos: Pos = attrs.field(default=NOPOS, eq=False, repr=False)
    depth: int = attrs.field(default=0, eq=False, repr=False)


@attrs.frozen(slots=True)
class Is(_Compound):
    """``subject is prop`` (or ``is not`` when ``negated``); ``prop`` is a normalised
    property name (``red``, ``odd``, ``face``, ``spades``...)."""

    subject: Expr
    prop: str
    negated: bool = False
    pos: Pos = attrs.field(default=NOPOS, eq=False, repr=False)
    depth: int = attrs.field(default=0, eq=False, repr=False)


@attrs.frozen(slots=True)
class Not(_Compound):
    """``not operand``."""

    operand: Expr
    pos: Pos = attrs.field(default=NOPOS, eq=False, repr=False)
    depth: int = attrs.field(default=0, eq=False, repr=False)


@attrs.frozen(slots=True)
class BoolOp(_Compound):
    """``a and b and ...`` or ``a or b or ...`` (``op`` is ``"and"`` or ``"or"``; at
    least two operands; a chain of one operator is one node)."""

    op: str
    operands: tuple[Expr, ...]
    pos: Pos = attrs.field(default=NOPOS, eq=False, repr=False)
    depth: int = attrs.field(default=0, eq=False, repr=False)


@attrs.frozen(slots=True)
class If(_Compound):
    """``if c1 then v1 elif c2 then v2 ... else orelse``; ``branches`` is ``((c1, v1),
    (c2, v2), ...)``."""

    branches: tuple[tuple[Expr, Expr], ...]
    orelse: Expr
    pos: Pos = attrs.field(default=NOPOS, eq=False, repr=False)
    depth: int = attrs.field(default=0, eq=False, repr=False)


@attrs.frozen(slots=True)
class ListLit(_Compound):
    """``[a, b, c]``: constants of one type; ranges expand in order."""

    items: tuple[Item, ...]
    pos: Pos = attrs.field(default=NOPOS, eq=False, repr=False)
    depth: int = attrs.field(default=0, eq=False, repr=False)


@attrs.frozen(slots=True)
class Call(_Compound):
    """``func(args...)``: ``abs``, ``min``, ``max``, ``next`` (second argument a
    :class:`ListLit`) or ``has`` (argument a :class:`Name` ``prevN``)."""

    func: str
    args: tuple[Expr, ...]
    pos: Pos = attrs.field(default=NOPOS, eq=False, repr=False)
    depth: int = attrs.field(default=0, eq=False, repr=False)


@attrs.frozen(slots=True)
class Index(_Compound):
    """``[items][index]``: the ``index``-th item from 0, *nothing* when out of range."""

    items: ListLit
    index: Expr
    pos: Pos = attrs.field(default=NOPOS, eq=False, repr=False)
    depth: int = attrs.field(default=0, eq=False, repr=False)


@attrs.frozen(slots=True)
class Aggregate(_Compound):
    """``func(var in line where pred)`` or ``func(var in last N where pred)``;
    ``func`` is ``count``, ``any`` or ``all``; ``last`` is ``N`` or ``None`` for the
    whole line.

    A *fold* ``func(value for var in W where pred)`` has ``func`` ``sum``, ``min`` or
    ``max`` and the integer expression ``value`` (``None`` for ``count/any/all``); a
    fold written without ``where`` has the predicate :data:`TRUE`."""

    func: str
    var: str
    last: int | None
    pred: Expr
    pos: Pos = attrs.field(default=NOPOS, eq=False, repr=False)
    depth: int = attrs.field(default=0, eq=False, repr=False)
    value: Expr | None = attrs.field(default=None, kw_only=True)


#: The functions that fold an integer over a window: ``sum(E for x in W where P)``.
FOLDS = ("sum", "min", "max")
#: The predicate of a fold written without ``where``.
TRUE = Const(True, "true")


Expr = Union[  # noqa: UP007
    Const, Name, Attribute, Neg, Arith, Compare, Member, Is, Not, BoolOp, If, Call, ListLit, Index, Aggregate
]


def _fold_children(node: Aggregate) -> tuple[Expr, ...]:
    if node.value is not None:  # a fold; one written without ``where`` shows no predicate
        return (node.value,) if node.pred == TRUE else (node.value, node.pred)
    return (node.pred,)


#: The direct sub-nodes of each kind of node: the one place that says which fields hold
#: sub-nodes (:func:`children`, :func:`walk` and every compound node's ``depth`` read it).
_CHILDREN: Final[dict[type, Callable[[Any], tuple[Expr | Range, ...]]]] = {
    Const: lambda node: (),
    Name: lambda node: (),
    Range: lambda node: (node.lo, node.hi),
    Attribute: lambda node: (node.obj,),
    Neg: lambda node: (node.operand,),
    Not: lambda node: (node.operand,),
    Arith: lambda node: (node.left, node.right),
    Compare: lambda node: (node.left, node.right),
    Member: lambda node: (node.elem, *node.items),
    Is: lambda node: (node.subject,),
    BoolOp: lambda node: node.operands,
    If: lambda node: (*(e for b in node.branches for e in b), node.orelse),
    Call: lambda node: node.args,
    ListLit: lambda node: node.items,
    Index: lambda node: (node.items, node.index),
    Aggregate: _fold_children,
}


def children(node: Expr | Range) -> tuple[Expr | Range, ...]:
    """The direct sub-nodes of ``node``, left to right."""
    try:
        return _CHILDREN[type(node)](node)
    except KeyError:
        raise TypeError(f"not a node of an expression: {node!r}") from None


def walk(node: Expr | Range) -> Iterator[Expr | Range]:
    """Every node of the tree, parents before children (iterative: safe on any depth)."""
    stack: list[Expr | Range] = [node]
    while stack:
        n = stack.pop()
        yield n
        stack.extend(reversed(children(n)))


# -- pretty printing -----------------------------------------------------------------

# Binding levels, loosest first: if, or, and, not, comparison, sum, product, unary, postfix.
_IF, _OR, _AND, _NOT, _CMP, _SUM, _PROD, _UNARY, _POST, _ATOM = range(10)
_ARITH_LEVEL = {"+": _SUM, "-": _SUM, "*": _PROD, "//": _PROD, "%": _PROD}


def _level(node: Expr) -> int:
    if isinstance(node, If):
        return _IF
    if isinstance(node, BoolOp):
        return _OR if node.op == "or" else _AND
    if isinstance(node, Not):
        return _NOT
    if isinstance(node, (Compare, Member, Is)):
        return _CMP
    if isinstance(node, Arith):
        return _ARITH_LEVEL[node.op]
    if isinstance(node, Neg):
        return _UNARY
    if isinstance(node, Const) and isinstance(node.value, int) and not isinstance(node.value, bool):
        return _UNARY if node.value < 0 else _ATOM
    if isinstance(node, (Attribute, Index)):
        return _POST
    return _ATOM


def _wrap(node: Expr, at_least: int) -> str:
    text = unparse(node)
    return f"({text})" if _level(node) < at_least else text


def _item(item: Item) -> str:
    if isinstance(item, Range):
        return f"{item.lo.spelling}..{item.hi.spelling}"
    return item.spelling


def unparse(node: Expr) -> str:
    """The normalised text of an expression: one space around operators, canonical
    spellings (``J`` for ``jack``, ``spades`` for ``♠``), the fewest parentheses that keep
    the tree.  ``parse(unparse(e)) == e``."""
    if isinstance(node, Const):
        return node.spelling
    if isinstance(node, Name):
        return node.name
    if isinstance(node, Attribute):
        return f"{_wrap(node.obj, _POST)}.{node.attr}"
    if isinstance(node, Neg):
        return f"-{_wrap(node.operand, _UNARY)}"
    if isinstance(node, Arith):
        lvl = _ARITH_LEVEL[node.op]
        return f"{_wrap(node.left, lvl)} {node.op} {_wrap(node.right, lvl + 1)}"
    if isinstance(node, Compare):
        return f"{_wrap(node.left, _SUM)} {node.op} {_wrap(node.right, _SUM)}"
    if isinstance(node, Member):
        op = "not in" if node.negated else "in"
        return f"{_wrap(node.elem, _SUM)} {op} {{{', '.join(_item(i) for i in node.items)}}}"
    if isinstance(node, Is):
        op = "is not" if node.negated else "is"
        return f"{_wrap(node.subject, _SUM)} {op} {node.prop}"
    if isinstance(node, Not):
        return f"not {_wrap(node.operand, _NOT)}"
    if isinstance(node, BoolOp):
        lvl = _OR if node.op == "or" else _AND
        return f" {node.op} ".join(_wrap(o, lvl + 1) for o in node.operands)
    if isinstance(node, If):
        parts = []
        for i, (cond, value) in enumerate(node.branches):
            kw = "if" if i == 0 else "elif"
            parts.append(f"{kw} {_wrap(cond, _OR)} then {_wrap(value, _OR)}")
        parts.append(f"else {unparse(node.orelse)}")
        return " ".join(parts)
    if isinstance(node, Call):
        return f"{node.func}({', '.join(unparse(a) for a in node.args)})"
    if isinstance(node, ListLit):
        return f"[{', '.join(_item(i) for i in node.items)}]"
    if isinstance(node, Index):
        return f"{unparse(node.items)}[{unparse(node.index)}]"
    window = "line" if node.last is None else f"last {node.last}"
    if node.value is not None:
        where = "" if node.pred == TRUE else f" where {unparse(node.pred)}"
        return f"{node.func}({unparse(node.value)} for {node.var} in {window}{where})"
    return f"{node.func}({node.var} in {window} where {unparse(node.pred)})"


def start_pos(node: Expr | Range) -> Pos:
    """The place of the first token of ``node`` (its ``pos`` is the place of the
    token that names it: for ``a + b`` the ``+``, for ``x.rank`` the ``rank``)."""
    while isinstance(node, (Attribute, Arith, Compare, Member, Is, BoolOp, Range)):
        node = children(node)[0]
    if isinstance(node, Index):
        return node.items.pos
    return node.pos

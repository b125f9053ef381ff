"""The type checker of the expression language.

:func:`check` resolves the names of a tree against an :class:`Env` (the variables the
caller declares: Eleusis rules declare ``card``, ``prev`` ... ``prev9`` and ``position``;
trick tables ``card``, ``lead`` and ``key``), checks every operation's types, and
returns a :class:`Checked` that records the type of every node and whether it may be
*nothing* at run time.  Faults raise the env's ``syntax_error`` class (unknown names,
attributes, properties and functions, listing the known ones) or its ``type_error``
class (located at the operator or operand whose type is wrong).

Types (:class:`~cardrules.lang.ast.Type`): integer, boolean, suit, colour, card.

=============================  =========================================================
form                           typing
=============================  =========================================================
``x.rank .suit .color``        card -> integer, suit, colour
``-a  a+b  a-b  a*b``          integers -> integer
``a // n   a % n``             integer, ``n`` a positive integer literal -> integer
``abs min max``                integers -> integer (``min``/``max`` take two or more)
``== !=``                      two values of one type -> boolean
``< <= > >=``                  integers -> boolean
``x in {...}``                 items are constants of ``x``'s type -> boolean
``x is P``                     P known for ``x``'s type -> boolean
``not and or``                 booleans -> boolean
``if/elif/else``               boolean conditions, branches of one type
``next(x, [...])``             items of ``x``'s type -> that type (may be nothing)
``[...][i]``                   integer index -> the items' type (may be nothing)
``has(prevN)``                 -> boolean
``count/any/all``              boolean predicate -> integer / boolean
``sum/min/max(E for x in W)``  integer ``E``, boolean predicate -> integer (``min``/``max``
                               of an empty window: nothing; nothing in ``E``: nothing)
``index(x, [...])``            items of ``x``'s type -> integer (may be nothing)
``after/before(x, [...])``     items of ``x``'s type -> that type (may be nothing)
``isqrt(n)``                   integer -> integer (nothing for a negative ``n``)
=============================  =========================================================
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Mapping

import attrs

from . import ast as A
from .ast import Type
from .errors import RuleSyntaxError, RuleTypeError, SourceError
from .vocabulary import STANDARD, Vocabulary

__all__ = ["ATTRIBUTES", "FUNCTIONS", "PROPERTIES", "Checked", "Env", "Variable", "check"]

# The words themselves (spellings, types, meanings) are declared once, in
# :mod:`cardrules.lang.vocabulary`; the checker reads them from the env's vocabulary.
# These tables show the standard words, for readers of the module.

#: Card attributes of the standard vocabulary and their types.
ATTRIBUTES: dict[str, Type] = {
    w.name: w.result for w in STANDARD.of_kind("attribute") if w.result is not None
}

#: Properties (after ``is``) of the standard vocabulary and the types they apply to.
PROPERTIES: dict[str, frozenset[Type]] = {w.name: frozenset(w.types) for w in STANDARD.of_kind("property")}

#: Functions of the language called as ``f(...)`` (``count``, ``any`` and ``all`` are
#: aggregates, with their own syntax; ``sum``, and ``min``/``max`` with ``for``, fold
#: over a window).
FUNCTIONS = tuple(n for n in STANDARD.names("function") if n not in ("count", "any", "all"))

_BOUND_NAME = re.compile(r"[a-z_][a-z0-9_]*\Z")
_PREV = re.compile(r"prev([1-9]?)\Z")


@attrs.frozen
class Variable:
    """A variable an :class:`Env` declares: its type, the Python expression that reads
    it inside the generated function (an identifier the caller chose, never user text),
    and whether it may be *nothing* at run time."""

    type: Type
    code: str
    nothing: bool = False


@attrs.frozen
class Env:
    """What an expression may use.

    ``variables``: name -> :class:`Variable`.  ``line``/``length``: Python expressions
    for the main line (a sequence of cards) and its length inside the generated function,
    or ``None`` where there is no main line (trick tables, Eleusis ``start:``): then
    aggregates and ``has`` are refused.  ``syntax_error``/``type_error``: the classes
    raised (subclasses of :class:`~cardrules.lang.errors.SourceError`).  ``where``:
    words naming the context in messages ("in a start: part").
    """

    variables: Mapping[str, Variable]
    line: str | None = None
    length: str | None = None
    syntax_error: type[SourceError] = RuleSyntaxError
    type_error: type[SourceError] = RuleTypeError
    where: str = ""
    #: The words the expression may use (:mod:`cardrules.lang.vocabulary`).
    vocabulary: Vocabulary = STANDARD


@attrs.define
class Checked:
    """The result of :func:`check`: the tree, its env, and per node (by ``id``) its type
    and whether it may be *nothing*.  List literals have the type of their items."""

    tree: A.Expr
    env: Env
    types: dict[int, Type] = attrs.field(factory=dict)
    maybe: dict[int, bool] = attrs.field(factory=dict)
    bound: set[str] = attrs.field(factory=set)

    def type_of(self, node: A.Expr) -> Type:
        return self.types[id(node)]

    def may_be_nothing(self, node: A.Expr) -> bool:
        return self.maybe.get(id(node), False)


def _describe(node: A.Expr, checked: Checked) -> str:
    return f"{_short(node)} is {_a(checked.type_of(node))}"


def _short(node: A.Expr) -> str:
    text = A.unparse(node)
    return text if len(text) <= 40 else text[:37] + "..."


def _a(t: Type) -> str:
    return f"an {t}" if t in (Type.INT,) else f"a {t}"


class _Checker:
    def __init__(self, tree: A.Expr, env: Env, text: str) -> None:
        self.env = env
        self.text = text
        self.result = Checked(tree, env)
        self.scopes: list[str] = []

    # errors
    def syntax(self, message: str, pos: A.Pos) -> SourceError:
        return self.env.syntax_error(message, self.text, pos.line, pos.column)

    def type_err(self, message: str, pos: A.Pos) -> SourceError:
        return self.env.type_error(message, self.text, pos.line, pos.column)

    def known_names(self) -> list[str]:
        names = [*self.scopes[::-1], *self.env.variables]
        return names

    def record(self, node: A.Expr, t: Type, maybe: bool = False) -> Type:
        self.result.types[id(node)] = t
        if maybe:
            self.result.maybe[id(node)] = True
        return t

    def maybe(self, *nodes: A.Expr) -> bool:
        return any(self.result.maybe.get(id(n), False) for n in nodes)

    def expect(self, node: A.Expr, t: Type, what: str) -> None:
        got = self.visit(node)
        if got is not t:
            raise self.type_err(
                f"{what} needs {_a(t)}, but {_describe(node, self.result)}", A.start_pos(node)
            )

    def visit(self, node: A.Expr) -> Type:
        method = getattr(self, "v_" + type(node).__name__)
        t: Type = method(node)
        return t

    def v_Const(self, node: A.Const) -> Type:
        return self.record(node, node.type)

    def v_Name(self, node: A.Name) -> Type:
        if node.name in self.scopes:
            return self.record(node, Type.CARD)
        var = self.env.variables.get(node.name)
        if var is None:
            raise self.unknown_name(node)
        return self.record(node, var.type, var.nothing)

    def unknown_name(self, node: A.Name) -> SourceError:
        name = node.name
        m = re.fullmatch(r"prev(\d+)", name)
        if m and "prev" in self.env.variables:
            why = (
                "the last card is prev, the one before prev2"
                if int(m.group(1)) <= 1
                else "the language looks back at most 9 cards (prev .. prev9)"
            )
            return self.syntax(f"unknown name '{name}': {why}", node.pos)
        known = self.known_names()
        if "prev" in known:
            shown = [k for k in known if not re.fullmatch(r"prev[2-9]", k)]
            shown.insert(shown.index("prev") + 1, "prev2 .. prev9")
        else:
            shown = known
        vocab = self.env.vocabulary
        consts = " ".join(_constant_order(vocab))
        hint = _did_you_mean(name, [*known, *consts.split(), *_functions(vocab)])
        where = f" {self.env.where}" if self.env.where else ""
        return self.syntax(
            f"unknown name '{name}'{where}{hint}; known names: {', '.join(shown)}, "
            f"and the constants {consts}",
            node.pos,
        )

    def v_Attribute(self, node: A.Attribute) -> Type:
        vocab = self.env.vocabulary
        word = vocab.lookup("attribute", node.attr)
        if word is None or word.result is None:
            names = vocab.names("attribute")
            hint = _did_you_mean(node.attr, list(vocab.spellings("attribute")))
            listed = (
                ", ".join(f".{n}" for n in names[:-1]) + f" and .{names[-1]}"
                if len(names) > 1
                else f".{names[0]}"
            )
            raise self.syntax(f"unknown attribute '.{node.attr}'{hint}; a card has {listed}", node.pos)
        attr = word.name
        obj_t = self.visit(node.obj)
        if obj_t is not Type.CARD:
            raise self.type_err(
                f"'.{attr}' is an attribute of a card, but {_describe(node.obj, self.result)}", node.pos
            )
        return self.record(node, word.result, self.maybe(node.obj))

    def v_Neg(self, node: A.Neg) -> Type:
        self.expect(node.operand, Type.INT, "'-'")
        return self.record(node, Type.INT, self.maybe(node.operand))

    def v_Arith(self, node: A.Arith) -> Type:
        for side in (node.left, node.right):
            t = self.visit(side)
            if t is not Type.INT:
                raise self.type_err(
                    f"'{node.op}' needs integers, but {_describe(side, self.result)}", node.pos
                )
        if node.op in ("%", "//"):
            r = node.right
            if not (isinstance(r, A.Const) and type(r.value) is int and r.value > 0):
                raise self.type_err(
                    f"the divisor of '{node.op}' must be a positive integer literal, such as 2 or 3",
                    A.start_pos(r),
                )
        return self.record(node, Type.INT, self.maybe(node.left, node.right))

    def v_Compare(self, node: A.Compare) -> Type:
        lt = self.visit(node.left)
        rt = self.visit(node.right)
        if node.op in ("==", "!="):
            if lt is not rt:
                raise self.type_err(
                    f"'{node.op}' compares two values of one type, but {_describe(node.left, self.result)}"
                    f" and {_describe(node.right, self.result)}",
                    node.pos,
                )
        else:
            for side, t in ((node.left, lt), (node.right, rt)):
                if t is not Type.INT:
                    raise self.type_err(
                        f"'{node.op}' orders integers only, but {_describe(side, self.result)}", node.pos
                    )
        return self.record(node, Type.BOOL)

    def items(self, items: tuple[A.Item, ...], t: Type, owner: str) -> None:
        for item in items:
            if isinstance(item, A.Range):
                self.record(item.lo, Type.INT)
                self.record(item.hi, Type.INT)
                if t is not Type.INT:
                    raise self.type_err(f"a range lo..hi holds integers, but {owner} holds {t}s", item.pos)
                continue
            self.visit(item)
            if item.type is not t:
                raise self.type_err(f"{item.spelling} is {_a(item.type)}, but {owner} holds {t}s", item.pos)

    def v_Member(self, node: A.Member) -> Type:
        t = self.visit(node.elem)
        if not node.items:
            raise self.syntax("a set needs at least one item", node.pos)
        self.items(node.items, t, f"the set for {_short(node.elem)}")
        return self.record(node, Type.BOOL)

    def v_Is(self, node: A.Is) -> Type:
        vocab = self.env.vocabulary
        word = vocab.lookup("property", node.prop)
        if word is None:
            close = vocab.suggest("property", node.prop)
            hint = f" (did you mean '{close}'?)" if close else ""
            known = ", ".join(vocab.names("property"))
            raise self.syntax(
                f"unknown property '{node.prop}'{hint}; known properties: {known}",
                node.pos,
            )
        t = self.visit(node.subject)
        allowed = word.types
        if t not in allowed:
            names = [str(k) for k in (Type.CARD, Type.INT, Type.SUIT, Type.COLOR) if k in allowed]
            kinds = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]
            raise self.type_err(
                f"'{node.prop}' is a property of a {kinds}, but {_describe(node.subject, self.result)}",
                node.pos,
            )
        return self.record(node, Type.BOOL)

    def v_Not(self, node: A.Not) -> Type:
        self.expect(node.operand, Type.BOOL, "'not'")
        return self.record(node, Type.BOOL)

    def v_BoolOp(self, node: A.BoolOp) -> Type:
        for operand in node.operands:
            self.expect(operand, Type.BOOL, f"'{node.op}'")
        return self.record(node, Type.BOOL)

    def v_If(self, node: A.If) -> Type:
        first: Type | None = None
        values = [v for _, v in node.branches] + [node.orelse]
        for cond, _ in node.branches:
            self.expect(cond, Type.BOOL, "the condition of 'if'")
        for value in values:
            t = self.visit(value)
            if first is None:
                first = t
            elif t is not first:
                raise self.type_err(
                    f"all branches of 'if' must have one type: the first is {_a(first)}, but "
                    f"{_describe(value, self.result)}",
                    A.start_pos(value),
                )
        assert first is not None
        return self.record(node, first, self.maybe(*values))

    def v_ListLit(self, node: A.ListLit) -> Type:
        raise self.type_err(
            "a list [...] can only be indexed, as in [3, 1, 4][position - 1], or given to next(x, [...])",
            node.pos,
        )

    def list_type(self, node: A.ListLit) -> Type:
        if not node.items:
            raise self.syntax("a list needs at least one item", node.pos)
        first = node.items[0]
        t = Type.INT if isinstance(first, A.Range) else first.type
        self.items(node.items, t, "this list")
        self.record(node, t)
        return t

    def v_Index(self, node: A.Index) -> Type:
        t = self.list_type(node.items)
        self.expect(node.index, Type.INT, "a list index")
        return self.record(node, t, True)

    def v_Call(self, node: A.Call) -> Type:
        f, args = node.func, node.args
        functions = _functions(self.env.vocabulary)
        if f not in functions:
            every = self.env.vocabulary.names("function")
            hint = _did_you_mean(f, list(every))
            raise self.syntax(
                f"unknown function '{f}'{hint}; known functions: {', '.join(every)}",
                node.pos,
            )
        if f in ("index", "after", "before", "isqrt", "sum"):
            return self.lookup_or_root(node)
        if f == "abs":
            if len(args) != 1:
                raise self.type_err("abs takes one integer, as in abs(card.rank - prev.rank)", node.pos)
            self.expect(args[0], Type.INT, "abs")
            return self.record(node, Type.INT, self.maybe(*args))
        if f in ("min", "max"):
            if len(args) < 2:
                raise self.type_err(
                    f"{f} takes two or more integers, as in {f}(card.rank, 10), or runs over a window, "
                    f"as in {f}(x.rank for x in last 3)",
                    node.pos,
                )
            for a in args:
                self.expect(a, Type.INT, f)
            return self.record(node, Type.INT, self.maybe(*args))
        if f == "next":
            if len(args) != 2 or not isinstance(args[1], A.ListLit):
                raise self.type_err(
                    "next takes a value and a list of constants, "
                    "as in next(prev.suit, [spades, hearts, diamonds, clubs])",
                    node.pos,
                )
            t = self.visit(args[0])
            lst = args[1]
            if not lst.items:
                raise self.syntax("a list needs at least one item", lst.pos)
            self.items(lst.items, t, f"the list of next for {_short(args[0])}")
            self.record(lst, t)
            return self.record(node, t, True)
        # has(prevN)
        if self.env.line is None:
            raise self.syntax(
                f"has(...) looks at the main line, which does not exist {self.env.where or 'here'}", node.pos
            )
        if len(args) == 1 and isinstance(args[0], A.Name) and not _PREV.match(args[0].name):
            name = args[0].name
            if name not in self.env.variables and name not in self.scopes:  # has(prev10), has(cardd)
                raise self.unknown_name(args[0])
        if len(args) != 1 or not isinstance(args[0], A.Name) or not _PREV.match(args[0].name):
            raise self.type_err("has takes one of prev, prev2 .. prev9, as in has(prev3)", node.pos)
        self.visit(args[0])
        return self.record(node, Type.BOOL)

    def lookup_or_root(self, node: A.Call) -> Type:
        """``index``, ``after``, ``before``, ``isqrt``, and ``sum`` without a window."""
        f, args = node.func, node.args
        if f == "sum":
            raise self.type_err(
                "sum runs over a window of cards, as in sum(x.rank for x in line) "
                "or sum(x.rank for x in last 3 where x is red)",
                node.pos,
            )
        if f == "isqrt":
            if len(args) != 1:
                raise self.type_err("isqrt takes one integer, as in isqrt(8 * position + 1)", node.pos)
            self.expect(args[0], Type.INT, "isqrt")
            return self.record(node, Type.INT, self.maybe(args[0]) or not _non_negative(args[0]))
        example = {
            "index": "index(card.suit, [clubs, diamonds, hearts, spades])",
            "after": "after(prev.rank, [A, 2, 3, 4, 5, 6, 7, 8, 9, 10, J, Q, K])",
            "before": "before(prev.rank, [A, 2, 3, 4, 5, 6, 7, 8, 9, 10, J, Q, K])",
        }[f]
        if len(args) != 2 or not isinstance(args[1], A.ListLit):
            raise self.type_err(f"{f} takes a value and a list of constants, as in {example}", node.pos)
        t = self.visit(args[0])
        if t is Type.CARD:
            raise self.type_err(
                f"{f} looks a value up in a list of constants, but {_describe(args[0], self.result)}; "
                f"look up its rank or suit, as in {example}",
                A.start_pos(args[0]),
            )
        lst = args[1]
        if not lst.items:
            raise self.syntax("a list needs at least one item", lst.pos)
        self.items(lst.items, t, f"the list of {f} for {_short(args[0])}")
        self.record(lst, t)
        return self.record(node, Type.INT if f == "index" else t, True)

    def v_Aggregate(self, node: A.Aggregate) -> Type:
        if self.env.line is None:
            raise self.syntax(
                f"{node.func}(...) looks at the main line, which does not exist {self.env.where or 'here'}",
                node.pos,
            )
        var = node.var
        if (
            not _BOUND_NAME.match(var)
            or var in self.env.variables
            or var in self.scopes
            or _is_language_name(var, self.env.vocabulary)
        ):
            why = (
                "is already bound by an enclosing window"
                if var in self.scopes
                else "is a name the language uses"
                if var in self.env.variables or _is_language_name(var, self.env.vocabulary)
                else "must be lower-case letters, digits and _"
            )
            raise self.syntax(f"the card name '{var}' {why}; choose another, such as x or c", node.pos)
        self.scopes.append(var)
        self.result.bound.add(var)
        try:
            if node.value is not None:
                self.expect(node.value, Type.INT, f"the value of {node.func}(... for {var} in ...)")
            self.expect(node.pred, Type.BOOL, f"the condition after 'where' in {node.func}(...)")
        finally:
            self.scopes.pop()
        if node.value is not None:  # sum, min, max
            return self.record(node, Type.INT, node.func != "sum" or self.maybe(node.value))
        return self.record(node, Type.INT if node.func == "count" else Type.BOOL)


def _is_language_name(name: str, vocabulary: Vocabulary) -> bool:
    return (
        vocabulary.is_word(name)
        or name in ("card", "position", "lead", "key", "line", "last", "start", "play", "rule")
        or bool(re.fullmatch(r"prev\d*", name))
    )


def _functions(vocabulary: Vocabulary) -> tuple[str, ...]:
    """The functions called as ``f(...)`` (the aggregates have a syntax of their own)."""
    return tuple(n for n in vocabulary.names("function") if n not in ("count", "any", "all"))


def _constant_order(vocabulary: Vocabulary) -> list[str]:
    """The constants' names as error messages list them: suits, colours, ranks, booleans."""
    order = {A.Type.SUIT: 0, A.Type.COLOR: 1, A.Type.INT: 2, A.Type.BOOL: 3}
    words = sorted(vocabulary.of_kind("constant"), key=lambda w: order.get(w.result, 4) if w.result else 4)
    return [w.name for w in words]


def _non_negative(node: A.Expr) -> bool:
    """Whether an integer expression is never negative (a cautious, local judgement)."""
    if isinstance(node, A.Const):
        return type(node.value) is int and node.value >= 0
    if isinstance(node, A.Name):
        return node.name == "position"
    if isinstance(node, A.Attribute):
        return node.attr == "rank"
    if isinstance(node, A.Arith):
        if node.op == "%":
            return True  # the divisor is a positive literal
        return node.op in ("+", "*", "//") and _non_negative(node.left) and _non_negative(node.right)
    if isinstance(node, A.Call):
        return node.func in ("abs", "isqrt", "index") or (
            node.func in ("min", "max") and all(_non_negative(a) for a in node.args)
        )
    if isinstance(node, A.Aggregate):
        return node.func == "count" or (node.value is not None and _non_negative(node.value))
    return False


def _did_you_mean(name: str, known: list[str]) -> str:
    close = difflib.get_close_matches(name, known, n=1, cutoff=0.75)
    return f" (did you mean '{close[0]}'?)" if close else ""


def check(tree: A.Expr, env: Env, text: str = "", *, want: Type | None = Type.BOOL) -> Checked:
    """Type-check ``tree`` (parsed from ``text``, used for error messages) in ``env``.

    ``want`` is the type the whole expression must have (``None``: any).  Returns the
    :class:`Checked` tree for :func:`cardrules.lang.codegen.compile_expr`.
    """
    checker = _Checker(tree, env, text)
    t = checker.visit(tree)
    if want is not None and t is not want:
        raise checker.type_err(
            f"a rule must be a condition (a boolean), but {_describe(tree, checker.result)}",
            A.start_pos(tree),
        )
    return checker.result

"""Code generation: a checked tree becomes one plain Python function.

The generator writes Python source from the **checked** tree only: the identifiers in it
are its own (``_p1``, ``_t3``, ``_c2``...) or the caller's declared variable code, the
literals are integers and booleans it validated, and every other constant (suits,
colours, sets, lists) is passed in the function's globals under a generated name.  User
text never reaches :func:`compile`.  The function runs with almost no builtins.

Evaluation is total: nothing in the generated code can raise for cards (``%`` and ``//``
have positive literal divisors, lists and ``next`` are dictionary look-ups, *nothing* is
``None`` and is tested before any operation that would fail on it), and it always ends
(the only loops run over the main line).

*Nothing* (a missing ``prevN`` in a rule that uses ``has``, an index out of range, a
``next`` of a value not in its list) is ``None``, except for a suit or a colour, where it
is :data:`NOTHING`: a card's own "no suit" or "no colour" (a moon's colour, a joker's suit)
is ``None``, a real value, equal to itself, never to be taken for nothing.  Nothing
carries through arithmetic and attributes; ``==``, ordering, ``in`` and ``is P`` with it
are false, their negations true, and a boolean nothing counts as false.

Constant sets and lists keep their ranges as intervals (:mod:`cardrules.lang.items`):
small ones become a frozenset or a dictionary, large ones an
:class:`~cardrules.lang.items.Items` object, so no range is ever expanded into memory.

Aggregates (``count/any/all``) become ``for`` loops hoisted in front of the expression
that uses them (in the function body, or in the body of an enclosing aggregate's loop),
so they run at the speed of a hand-written loop.  Hoisting evaluates an aggregate even
where a conditional would not have needed it, which changes no result.
"""

from __future__ import annotations

import itertools
import keyword
import linecache
import weakref
from collections.abc import Callable, Sequence
from typing import Any

from ..cards import Color, Suit
from ..errors import CardRulesError
from . import ast as A
from .ast import Type
from .check import Checked
from .items import SMALL, Items

__all__ = ["NOTHING", "CodeGen", "build_function", "compile_expr", "exec_source"]


class _Nothing:
    """The type of :data:`NOTHING`."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "NOTHING"

    def __reduce__(self) -> str:
        return "NOTHING"


#: *Nothing* of a suit or colour type in generated code (``None`` is a card's own "no
#: suit"/"no colour" there).
NOTHING: Any = _Nothing()
_NOTHING_TYPES = (Type.SUIT, Type.COLOR)

SAFE_BUILTINS = {"len": len, "abs": abs, "min": min, "max": max, "None": None, "True": True, "False": False}


class CodeGen:
    """Writes Python code for the nodes of one :class:`~cardrules.lang.check.Checked` tree.

    ``expr(node)`` returns a Python expression; loops for aggregates are appended to
    ``statements`` (lines with 4-space indentation, to be put before the
    expression); ``globals`` holds the constants the code names.
    """

    def __init__(self, checked: Checked, *, prefix: str = "") -> None:
        self.checked = checked
        self.env = checked.env
        self.prefix = prefix
        self.globals: dict[str, object] = {}
        self._const_names: dict[tuple[str, object], str] = {}
        self.statements: list[str] = []
        self._counter = 0
        self._bound: dict[str, str] = {}
        self._common: dict[A.Expr, str] = {}

    # -- helpers -----------------------------------------------------------------------

    def fresh(self, kind: str) -> str:
        self._counter += 1
        return f"_{self.prefix}{kind}{self._counter}"

    def const(self, value: object, key: object | None = None) -> str:
        # Keyed by the types of the values too: [1] and [true] are equal tuples in
        # Python (1 == True) but two different constants.
        k = (type(value).__name__, _typed_key(key if key is not None else value))
        name = self._const_names.get(k)
        if name is None:
            name = self.fresh("k")
            self._const_names[k] = name
            self.globals[name] = value
        return name

    def maybe(self, node: A.Expr) -> bool:
        return self.checked.may_be_nothing(node)

    def nothing(self, t: Type) -> str:
        """The code of *nothing* of type ``t``: ``None``, or :data:`NOTHING` for a suit
        or a colour."""
        return self.const(NOTHING, key="nothing") if t in _NOTHING_TYPES else "None"

    def lookup(self, items: Sequence[A.Item], kind: str, x: str, t: Type) -> str:
        """Code for ``at`` (``kind="list"``: the item at place ``x``) or ``after``
        (``kind="next"``: the item after ``x``, cyclically) over constant items of type
        ``t``, *nothing* when there is none."""
        found = Items(items)
        if found.size <= SMALL:
            values = found.values()
            if kind == "list":
                table: dict[object, object] = dict(enumerate(values))
            else:
                table = {}
                for i, v in enumerate(values):
                    table.setdefault(v, values[(i + 1) % len(values)])
            name = self.const(table, key=(kind, tuple(values)))
            default = self.nothing(t)
            return f"{name}.get({x})" if default == "None" else f"{name}.get({x}, {default})"
        name = self.const(found, key=(kind, _items_key(items)))
        return f"{name}.{'at' if kind == 'list' else 'after'}({x})"  # integers: nothing is None

    def literal(self, value: A.ConstValue) -> str:
        if isinstance(value, bool):
            return "True" if value else "False"
        if isinstance(value, int):
            return f"({value})" if value < 0 else str(value)
        if isinstance(value, (Suit, Color)):
            return self.const(value)
        raise CardRulesError(f"cannot generate code for constant {value!r}")  # pragma: no cover

    def cond(self, node: A.Expr) -> str:
        """Code for a boolean in a condition: a boolean *nothing* counts as false."""
        code = self.expr(node)
        return f"({code} is True)" if self.maybe(node) else code

    # -- expressions -------------------------------------------------------------------

    def expr(self, node: A.Expr) -> str:
        if self._common:
            name = self._common.get(node)
            if name is not None:
                return name
        method: Callable[[Any], str] = getattr(self, "g_" + type(node).__name__)
        return method(node)

    def hoist_common(self, tree: A.Expr) -> None:
        """Compute once, in a local, every sub-expression that appears more than once
        (or once inside an aggregate's loop) and reads no bound name: common
        subexpressions and loop invariants.  Evaluating them up front changes no result
        (evaluation is total and has no effects)."""
        counts: dict[A.Expr, int] = {}
        bound = self.checked.bound
        stack: list[tuple[A.Expr | A.Range, bool]] = [(tree, False)]
        while stack:
            node, in_loop = stack.pop()
            if isinstance(node, _HOISTABLE) and not (bound and _reads_bound(node, bound)):
                counts[node] = counts.get(node, 0) + (2 if in_loop else 1)
            inner = in_loop or isinstance(node, A.Aggregate)
            stack.extend((child, inner) for child in A.children(node))
        common = sorted((n for n, c in counts.items() if c > 1), key=lambda n: n.depth)
        for node in common:
            code = self.expr(node)
            name = self.fresh("v")
            self.statements.append(f"{name} = {code}")
            self._common[node] = name

    def g_Const(self, node: A.Const) -> str:
        return self.literal(node.value)

    def g_Name(self, node: A.Name) -> str:
        bound = self._bound.get(node.name)
        if bound is not None:
            return bound
        return self.env.variables[node.name].code

    def g_Attribute(self, node: A.Attribute) -> str:
        word = self.env.vocabulary.lookup("attribute", node.attr)
        assert word is not None  # the checker resolved it
        obj = self.expr(node.obj)
        if self.maybe(node.obj):
            t = self.fresh("t")
            nothing = self.nothing(self.checked.type_of(node))
            return f"({nothing} if ({t} := {obj}) is None else {word.code(Type.CARD, t, self.const)})"
        return word.code(Type.CARD, obj, self.const)

    def _guarded(self, parts: Sequence[A.Expr], make: Callable[[list[str]], str]) -> str:
        """``make(codes)`` with *nothing* carried through: None if any part is None."""
        codes: list[str] = []
        checks: list[str] = []
        for part in parts:
            code = self.expr(part)
            if self.maybe(part):
                t = self.fresh("t")
                checks.append(f"({t} := {code}) is None")
                code = t
            codes.append(code)
        if not checks:
            return make(codes)
        return f"(None if {' or '.join(checks)} else {make(codes)})"

    def g_Neg(self, node: A.Neg) -> str:
        return self._guarded([node.operand], lambda c: f"(-{c[0]})")

    def g_Arith(self, node: A.Arith) -> str:
        return self._guarded([node.left, node.right], lambda c: f"({c[0]} {node.op} {c[1]})")

    def g_Call(self, node: A.Call) -> str:
        f = node.func
        if f in ("index", "after", "before"):
            return self.list_lookup(node)
        if f == "isqrt":
            return self.isqrt(node)
        if f in ("abs", "min", "max"):
            return self._guarded(list(node.args), lambda c: f"{f}({', '.join(c)})")
        if f == "next":
            lst = node.args[1]
            assert isinstance(lst, A.ListLit)
            return self.lookup(lst.items, "next", self.expr(node.args[0]), self.checked.type_of(node))
        # has(prevN)
        arg = node.args[0]
        assert isinstance(arg, A.Name)
        n = int(arg.name[4:] or "1")
        return f"({self.env.length} >= {n})"

    def isqrt(self, node: A.Call) -> str:
        """``isqrt(n)``: ``math.isqrt``, *nothing* for a negative ``n`` (tested only when
        ``n`` may be negative)."""
        import math

        isqrt = self.const(math.isqrt, key="isqrt")
        code = self.expr(node.args[0])
        if not self.maybe(node):
            return f"{isqrt}({code})"
        t = self.fresh("t")
        test = f"({t} := {code}) < 0"
        if self.maybe(node.args[0]):
            test = f"({t} := {code}) is None or {t} < 0"
        return f"(None if {test} else {isqrt}({t}))"

    def list_lookup(self, node: A.Call) -> str:
        """``index``, ``after``, ``before``: one dictionary look-up from the value's first
        occurrence in the list (a value not in the table gives ``None``, *nothing*).  A
        list whose ranges hold more than :data:`TABLE_LIMIT` values is searched range by
        range instead (``[1..100000000]`` builds no table)."""
        import functools

        lst = node.args[1]
        assert isinstance(lst, A.ListLit)
        spans = _spans(lst.items)
        typed = tuple((type(lo).__name__, lo, hi) for lo, hi in spans)  # True and 1 differ
        step = {"index": 0, "after": 1, "before": -1}[node.func]
        arg = self.expr(node.args[0])
        # The code of nothing of the result's type: None, unless the generator gives a
        # suit or a colour a nothing of its own (a card's own "no suit" being None).
        nothing = getattr(self, "nothing", None)
        default = "None" if nothing is None else nothing(self.checked.type_of(node))
        if sum(_span_size(span) for span in spans) > TABLE_LIMIT:
            partial = functools.partial(look_up_spans, step, spans)
            search = self.const(partial, key=(node.func, "spans", typed))
            if default == "None":
                return f"{search}({arg})"
            t = self.fresh("t")
            return f"({default} if ({t} := {search}({arg})) is None else {t})"
        values = [v for lo, hi in spans for v in (range(lo, hi + 1) if type(lo) is int else (lo,))]  # type: ignore[operator]
        first: dict[object, int] = {}
        for i, v in enumerate(values):
            first.setdefault(v, i)
        if step == 0:
            table: dict[object, object] = {v: i + 1 for v, i in first.items()}
        else:
            table = {v: values[i + step] for v, i in first.items() if 0 <= i + step < len(values)}
        # The bound method ``table.get`` is called directly: no attribute look-up per call,
        # and, unlike a subscript, nothing a caller passes can make it raise.
        look_up = self.const(table.get, key=(node.func, typed))
        return f"{look_up}({arg})" if default == "None" else f"{look_up}({arg}, {default})"

    def g_Index(self, node: A.Index) -> str:
        return self.lookup(node.items.items, "list", self.expr(node.index), self.checked.type_of(node))

    def g_Compare(self, node: A.Compare) -> str:
        t = self.checked.type_of(node.left)
        left, right = self.expr(node.left), self.expr(node.right)
        # A side that may be nothing is tested first: nothing equals and orders against
        # nothing, not even what a side without nothing may hold for a card that lacks
        # it (a joker's suit and colour are None).
        guards: list[str] = []
        nothing = self.nothing(t)
        if self.maybe(node.left):
            a = self.fresh("t")
            guards.append(f"({a} := {left}) is not {nothing}")
            left = a
        if self.maybe(node.right):
            b = self.fresh("t")
            guards.append(f"({b} := {right}) is not {nothing}")
            right = b
        op, negate = node.op, False
        if op in ("==", "!="):
            if guards:  # != is the negation of the guarded ==
                op, negate = "==", op == "!="
            if t is not Type.INT:
                op = "is" if op == "==" else "is not"
        positive = "(" + " and ".join([*guards, f"{left} {op} {right}"]) + ")"
        return f"(not {positive})" if negate else positive

    def g_Member(self, node: A.Member) -> str:
        found = Items(node.items)
        elem = self.expr(node.elem)
        if found.size <= SMALL:
            values = frozenset(found.values())
            table = self.const(values, key=("set", tuple(sorted(map(repr, values)))))
            op = "not in" if node.negated else "in"
            return f"({elem} {op} {table})"
        table = self.const(found, key=("items", _items_key(node.items)))
        return f"({'not ' if node.negated else ''}{table}.contains({elem}))"

    def g_Is(self, node: A.Is) -> str:
        # What the property means is the vocabulary's: each word gives its code on each
        # type it applies to (checked when the vocabulary was built).
        t = self.checked.type_of(node.subject)
        subject = self.expr(node.subject)
        word = self.env.vocabulary.lookup("property", node.prop)
        assert word is not None  # the checker resolved it
        if t in _NOTHING_TYPES:  # a suit's or colour's nothing is in no set, no colour
            code = f"({word.code(t, subject, self.const)})"
        else:
            x = subject
            guard = ""
            if self.maybe(node.subject):
                x = self.fresh("t")
                guard = f"({x} := {subject}) is not None and "
            code = "(" + guard + word.code(t, x, self.const) + ")"
        return f"(not {code})" if node.negated else code

    def g_Not(self, node: A.Not) -> str:
        return f"(not {self.cond(node.operand)})"

    def g_BoolOp(self, node: A.BoolOp) -> str:
        return "(" + f" {node.op} ".join(self.cond(o) for o in node.operands) + ")"

    def g_If(self, node: A.If) -> str:
        parts = []
        for cond, value in node.branches:
            parts.append(f"{self.expr(value)} if {self.cond(cond)} else")
        return "(" + " ".join([*parts, self.expr(node.orelse)]) + ")"

    def g_ListLit(self, node: A.ListLit) -> str:  # pragma: no cover - refused by the checker
        raise CardRulesError("a bare list has no value")

    def g_Aggregate(self, node: A.Aggregate) -> str:
        assert self.env.line is not None
        var = self.fresh("c")
        result = self.fresh("a")
        window = self.env.line if node.last is None else f"{self.env.line}[-{node.last}:]"
        saved_bound = self._bound.get(node.var)
        saved_statements = self.statements
        self._bound[node.var] = var
        self.statements = []
        try:
            value = None if node.value is None else self.expr(node.value)
            pred = self.cond(node.pred)
            inner = self.statements
        finally:
            self.statements = saved_statements
            if saved_bound is None:
                del self._bound[node.var]
            else:  # pragma: no cover - nested windows may not rebind a name
                self._bound[node.var] = saved_bound
        body = [f"    {line}" for line in inner]
        if value is not None:
            assert node.value is not None
            if node.func == "sum":
                start = "0"
            else:  # an integer no value reaches, compared faster than None or infinity
                bounds = _int_bounds(node.value)
                past = None if bounds is None else bounds[1] + 1 if node.func == "min" else bounds[0] - 1
                start = "None" if past is None else self.literal(past)
            lines = [f"for {var} in {window}:", *body, *self._fold_step(node, pred, value, result, start)]
            self.statements.extend([f"{result} = {start}", *lines])
            if start not in ("0", "None"):
                self.statements += [f"if {result} == {start}:", f"    {result} = None"]
            return result
        if node.func == "count":
            lines = [
                f"{result} = 0",
                f"for {var} in {window}:",
                *body,
                f"    if {pred}:",
                f"        {result} += 1",
            ]
        elif node.func == "any":
            lines = [f"{result} = False", f"for {var} in {window}:", *body, f"    if {pred}:",
                     f"        {result} = True", "        break"]  # fmt: skip
        else:
            lines = [f"{result} = True", f"for {var} in {window}:", *body, f"    if not {pred}:",
                     f"        {result} = False", "        break"]  # fmt: skip
        self.statements.extend(lines)
        return result

    def _fold_step(self, node: A.Aggregate, pred: str, value: str, result: str, start: str) -> list[str]:
        """The body of a fold's loop (after the loop's own statements): one card's
        ``value`` taken into ``result`` when ``pred`` holds; a *nothing* value makes the
        whole fold *nothing*.  ``min``/``max`` start from ``start``: an integer past
        every value the expression can take when that is known, else ``None``."""
        maybe = node.value is not None and self.maybe(node.value)
        step: list[str] = []
        if maybe:
            t = self.fresh("t")
            step += [f"{t} = {value}", f"if {t} is None:", f"    {result} = None", "    break"]
            value = t
        if node.func == "sum":
            step.append(f"{result} += {value}")
        else:
            simple = isinstance(node.value, (A.Name, A.Const)) or (
                isinstance(node.value, A.Attribute) and isinstance(node.value.obj, A.Name)
            )
            if not maybe and not simple:
                t = self.fresh("t")
                step.append(f"{t} = {value}")
                value = t
            op = "<" if node.func == "min" else ">"
            first = f"{result} is None or " if start == "None" else ""
            step += [f"if {first}{value} {op} {result}:", f"    {result} = {value}"]
        if node.pred == A.TRUE:
            return [f"    {line}" for line in step]
        return [f"    if {pred}:", *(f"        {line}" for line in step)]


def _int_bounds(node: A.Expr) -> tuple[int, int] | None:
    """Bounds of an integer expression over every card (a rank is 0 for a joker, at most
    13), or ``None`` when they are not known at a glance."""
    if isinstance(node, A.Const):
        v = node.value
        return (v, v) if type(v) is int else None
    if isinstance(node, A.Attribute):
        return (0, 13) if node.attr == "rank" else None
    if isinstance(node, A.Neg):
        b = _int_bounds(node.operand)
        return None if b is None else (-b[1], -b[0])
    if isinstance(node, A.Arith):
        if node.op == "%":
            n = node.right
            return (0, n.value - 1) if isinstance(n, A.Const) and type(n.value) is int else None
        left, right = _int_bounds(node.left), _int_bounds(node.right)
        if left is None or right is None:
            return None
        if node.op == "+":
            return (left[0] + right[0], left[1] + right[1])
        if node.op == "-":
            return (left[0] - right[1], left[1] - right[0])
        if node.op == "*":
            products = [a * b for a in left for b in right]
            return (min(products), max(products))
        return None
    return None


#: Most values a list given to ``index``, ``after`` or ``before`` is expanded into a
#: look-up table for; longer lists (long ranges) are searched range by range.
TABLE_LIMIT = 4096

Span = tuple[A.ConstValue, A.ConstValue]


def _spans(items: Sequence[A.Item]) -> tuple[Span, ...]:
    """The items as ``(lo, hi)`` pairs: a range's ends, a constant twice."""
    return tuple((i.lo.value, i.hi.value) if isinstance(i, A.Range) else (i.value, i.value) for i in items)


def _span_size(span: Span) -> int:
    lo, hi = span
    return hi - lo + 1 if type(lo) is int and type(hi) is int else 1


def look_up_spans(step: int, spans: tuple[Span, ...], x: object) -> object:
    """``index`` (``step`` 0), ``after`` (1) or ``before`` (-1) of ``x`` in a list given
    as spans, without expanding its ranges; ``None`` (*nothing*) when ``x`` is not in the
    list or the neighbour is past an end."""
    if x is None:
        return None
    place = 0  # 0-based place of the span's first value in the whole list
    for span in spans:
        lo, hi = span
        size = _span_size(span)
        if type(x) is type(lo):
            inside = lo <= x <= hi if type(x) is int else x is lo or x == lo  # type: ignore[operator]
            if inside:
                at = place + (x - lo if type(x) is int else 0)  # type: ignore[operator]
                if step == 0:
                    return at + 1
                return _value_at(spans, at + step)
        place += size
    return None


def _value_at(spans: tuple[Span, ...], at: int) -> object:
    if at < 0:
        return None
    for span in spans:
        size = _span_size(span)
        if at < size:
            lo = span[0]
            return lo + at if type(lo) is int else lo
        at -= size
    return None


_HOISTABLE = (A.Arith, A.Call, A.Index, A.Attribute, A.Neg)


def _reads_bound(node: A.Expr, bound: set[str]) -> bool:
    """Whether a node reads a name bound by an aggregate (or contains an aggregate)."""
    return any(
        isinstance(n, A.Aggregate) or (isinstance(n, A.Name) and n.name in bound) for n in A.walk(node)
    )


def _items_key(items: Sequence[A.Item]) -> tuple[object, ...]:
    """A key telling constant item lists apart without expanding their ranges."""
    return tuple(
        ("range", i.lo.value, i.hi.value) if isinstance(i, A.Range) else (type(i.value).__name__, i.value)
        for i in items
    )


def _typed_key(key: object) -> object:
    """``key`` with every scalar paired with its type's name (tuples recursively)."""
    if isinstance(key, tuple):
        return tuple(_typed_key(k) for k in key)
    return (type(key).__name__, key)


_UNITS = itertools.count(1)


def exec_source(
    source: str, what: str, namespace: dict[str, object], *, keep_with: str | None = None
) -> dict[str, Any]:
    """Compile and run generated ``source`` with ``namespace`` as its globals (almost no
    builtins unless it holds ``__builtins__``); returns the scope it ran in.

    The source is registered with :mod:`linecache` under a filename of its own
    (``<cardrules WHAT #N>``, unique per compiled unit), as attrs does for the methods it
    writes, so a traceback through the generated code shows its lines.  The entry lives
    as long as the function ``scope[keep_with]`` (it is removed by the first compilation
    after that function is collected, so compiling many rules does not grow the cache),
    or for ever without ``keep_with``.  Raises :class:`SyntaxError` and the like as Python's compiler does.
    """
    filename = f"<cardrules {what} #{next(_UNITS)}>"
    scope: dict[str, Any] = dict(namespace)
    scope.setdefault("__builtins__", SAFE_BUILTINS)
    code = compile(source, filename, "exec")
    exec(code, scope)  # our generated code, never user text
    while True:  # the entries of units collected since the last compilation
        try:
            gone = _COLLECTED.pop()
        except IndexError:  # none left (another thread may have taken the last one)
            break
        linecache.cache.pop(gone, None)
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    if keep_with is not None:
        forget = weakref.finalize(scope[keep_with], _COLLECTED.append, filename)
        forget.atexit = False
    return scope


# The filenames of compiled units whose function was collected.  Their line-cache entries
# are removed by the next compilation, not by the finalizer: a collection can run in the
# middle of linecache.checkcache (pdb, doctest and traceback call it), which reads every
# key it listed first and fails on one removed meanwhile.
_COLLECTED: list[str] = []


def build_function(
    name: str, params: Sequence[str], body: Sequence[str], namespace: dict[str, object]
) -> tuple[Callable[..., Any], str]:
    """Compile ``def name(params): body`` (``body``: lines without indentation) with
    ``namespace`` as globals; returns the function and its source.

    ``name`` and ``params`` must be plain identifiers chosen by the caller (not user
    text); the body comes from :class:`CodeGen`.  A body Python cannot compile (far
    beyond the depth limits) raises :class:`~cardrules.CardRulesError`.
    """
    for ident in (name, *params):
        if not ident.isidentifier() or keyword.iskeyword(ident):
            raise CardRulesError(f"{ident!r} is not a plain identifier")
    source = f"def {name}({', '.join(params)}):\n" + "\n".join(f"    {line}" for line in body) + "\n"
    try:
        scope = exec_source(source, name.lstrip("_"), dict(namespace), keep_with=name)
    except (SyntaxError, RecursionError, MemoryError, ValueError) as exc:
        raise CardRulesError(f"the expression is too complex to compile ({exc.__class__.__name__})") from None
    fn: Callable[..., Any] = scope[name]
    return fn, source


def compile_expr(checked: Checked, params: Sequence[str], *, name: str = "expr") -> Callable[..., Any]:
    """A function of ``params`` (the caller's parameter names, which the env's variable
    code refers to) returning the value of the checked expression.  A boolean
    expression returns a ``bool`` (a boolean *nothing* is ``False``); other types may
    return ``None`` for *nothing*.

    >>> from cardrules.lang import Env, Variable, Type, parse_expression, check
    >>> env = Env({"card": Variable(Type.CARD, "card"), "lead": Variable(Type.CARD, "lead")})
    >>> tree = parse_expression("card.suit == lead.suit and card is not face")
    >>> follows = compile_expr(check(tree, env), ["card", "lead"])
    >>> from cardrules import parse_card
    >>> follows(parse_card("7H"), parse_card("2H")), follows(parse_card("KH"), parse_card("2H"))
    (True, False)
    """
    gen = CodeGen(checked)
    tree = checked.tree
    gen.hoist_common(tree)
    is_bool = checked.type_of(tree) is Type.BOOL
    value = gen.cond(tree) if is_bool else gen.expr(tree)
    if gen.maybe(tree) and checked.type_of(tree) in _NOTHING_TYPES:
        value = f"(None if (_v := {value}) is {gen.nothing(checked.type_of(tree))} else _v)"
    fn, _ = build_function(f"_{name}", params, [*gen.statements, f"return {value}"], gen.globals)
    return fn

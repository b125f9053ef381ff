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
``next`` of a value not in its list) is ``None``: it carries through arithmetic and
attributes; ``==``, ordering, ``in`` and ``is P`` with it are false, their negations true,
and a boolean nothing counts as false.

Aggregates (``count/any/all``) become ``for`` loops hoisted in front of the expression
that uses them (in the function body, or in the body of an enclosing aggregate's loop),
so they run at the speed of a hand-written loop.  Hoisting evaluates an aggregate even
where a conditional would not have needed it, which changes no result.
"""

from __future__ import annotations

import keyword
from collections.abc import Callable, Sequence
from typing import Any

from ..cards import Color, Suit
from ..errors import CardRulesError
from . import ast as A
from .ast import Type
from .check import Checked

__all__ = ["CodeGen", "build_function", "compile_expr"]

_SAFE_BUILTINS = {"len": len, "abs": abs, "min": min, "max": max, "None": None, "True": True, "False": False}


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
        k = (type(value).__name__, key if key is not None else value)
        name = self._const_names.get(k)
        if name is None:
            name = self.fresh("k")
            self._const_names[k] = name
            self.globals[name] = value
        return name

    def maybe(self, node: A.Expr) -> bool:
        return self.checked.may_be_nothing(node)

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
        attr = "color" if node.attr == "colour" else node.attr
        obj = self.expr(node.obj)
        if self.maybe(node.obj):
            t = self.fresh("t")
            return f"(None if ({t} := {obj}) is None else {t}.{attr})"
        return f"{obj}.{attr}"

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
        if f in ("abs", "min", "max"):
            return self._guarded(list(node.args), lambda c: f"{f}({', '.join(c)})")
        if f == "next":
            lst = node.args[1]
            assert isinstance(lst, A.ListLit)
            values = _item_values(lst.items)
            following: dict[object, object] = {}
            for i, v in enumerate(values):
                following.setdefault(v, values[(i + 1) % len(values)])
            table = self.const(following, key=("next", tuple(values)))
            return f"{table}.get({self.expr(node.args[0])})"
        # has(prevN)
        arg = node.args[0]
        assert isinstance(arg, A.Name)
        n = int(arg.name[4:] or "1")
        return f"({self.env.length} >= {n})"

    def g_Index(self, node: A.Index) -> str:
        values = _item_values(node.items.items)
        table = self.const(dict(enumerate(values)), key=("list", tuple(values)))
        return f"{table}.get({self.expr(node.index)})"

    def g_Compare(self, node: A.Compare) -> str:
        t = self.checked.type_of(node.left)
        left, right = self.expr(node.left), self.expr(node.right)
        # A side that may be nothing is tested first: nothing equals and orders against
        # nothing, not even what a side without nothing may hold for a card that lacks
        # it (a joker's suit and colour are None).
        guards: list[str] = []
        if self.maybe(node.left):
            a = self.fresh("t")
            guards.append(f"({a} := {left}) is not None")
            left = a
        if self.maybe(node.right):
            b = self.fresh("t")
            guards.append(f"({b} := {right}) is not None")
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
        values = frozenset(_item_values(node.items))
        table = self.const(values, key=("set", tuple(sorted(map(repr, values)))))
        op = "not in" if node.negated else "in"
        return f"({self.expr(node.elem)} {op} {table})"

    def g_Is(self, node: A.Is) -> str:
        t = self.checked.type_of(node.subject)
        subject = self.expr(node.subject)
        prop = node.prop
        if t is Type.SUIT:
            reds = self.const(frozenset({Suit.HEARTS, Suit.DIAMONDS}), key="red-suits")
            code = f"({subject} {'in' if prop == 'red' else 'not in'} {reds})"
            if prop == "black":
                blacks = self.const(frozenset({Suit.SPADES, Suit.CLUBS}), key="black-suits")
                code = f"({subject} in {blacks})"
        elif t is Type.COLOR:
            code = f"({subject} is {self.const(Color.RED if prop == 'red' else Color.BLACK)})"
        else:
            x = subject
            guard = ""
            if self.maybe(node.subject):
                x = self.fresh("t")
                guard = f"({x} := {subject}) is not None and "
            code = "(" + guard + self._card_or_int_property(x, t, prop) + ")"
        return f"(not {code})" if node.negated else code

    def _card_or_int_property(self, x: str, t: Type, prop: str) -> str:
        if t is Type.INT:
            return f"{x} & 1 == {1 if prop == 'odd' else 0}"
        if prop in ("red", "black"):
            return f"{x}.color is {self.const(Color.RED if prop == 'red' else Color.BLACK)}"
        if prop in ("odd", "even"):
            return f"{x}.rank & 1 == {1 if prop == 'odd' else 0}"
        if prop == "face":
            return f"{x}.rank > 10"
        if prop == "number":
            return f"1 < {x}.rank < 11"
        if prop == "ace":
            return f"{x}.rank == 1"
        return f"{x}.suit is {self.const(Suit[prop.upper()])}"

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
            pred = self.cond(node.pred)
            inner = self.statements
        finally:
            self.statements = saved_statements
            if saved_bound is None:
                del self._bound[node.var]
            else:  # pragma: no cover - nested windows may not rebind a name
                self._bound[node.var] = saved_bound
        body = [f"    {line}" for line in inner]
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


_HOISTABLE = (A.Arith, A.Call, A.Index, A.Attribute, A.Neg)


def _reads_bound(node: A.Expr, bound: set[str]) -> bool:
    """Whether a node reads a name bound by an aggregate (or contains an aggregate)."""
    return any(
        isinstance(n, A.Aggregate) or (isinstance(n, A.Name) and n.name in bound) for n in A.walk(node)
    )


def _item_values(items: Sequence[A.Item]) -> list[A.ConstValue]:
    values: list[A.ConstValue] = []
    for item in items:
        if isinstance(item, A.Range):
            lo, hi = item.lo.value, item.hi.value
            assert isinstance(lo, int) and isinstance(hi, int)
            values.extend(range(lo, hi + 1))
        else:
            values.append(item.value)
    return values


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
    scope: dict[str, Any] = dict(namespace)
    scope["__builtins__"] = _SAFE_BUILTINS
    try:
        code = compile(source, f"<cardrules {name}>", "exec")
        exec(code, scope)  # our generated code, never user text
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
    fn, _ = build_function(f"_{name}", params, [*gen.statements, f"return {value}"], gen.globals)
    return fn

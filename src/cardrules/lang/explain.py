"""A reference interpreter of rule trees, and :func:`explain` built on it.

:func:`evaluate` walks a checked tree directly, following the spec's wording
(``rule-language.md``), *nothing* included.  It is slow and is never used to judge
cards in play (compiled code does that); it explains a judgement in words, and the tests
use it as an independent oracle for the code generator.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import attrs

from ..cards import Card, Color, Suit
from . import ast as A

if TYPE_CHECKING:
    from .rules import Rule

__all__ = ["Context", "evaluate", "explain", "judge"]

_FACE = (11, 12, 13)


@attrs.define
class Context:
    """What a rule sees: the main line, the judged card, and bound names.  ``has``: the
    rule uses ``has`` (a missing ``prevN`` is then *nothing*; otherwise the caller has
    applied the depth rule first)."""

    line: Sequence[Card]
    card: Card
    has: bool = False
    bound: dict[str, Card] = attrs.field(factory=dict)
    position: int | None = None


def _truthy(value: object) -> bool:
    return value is True


def _item_values(items: Sequence[A.Item]) -> list[Any]:
    out: list[Any] = []
    for item in items:
        if isinstance(item, A.Range):
            lo, hi = item.lo.value, item.hi.value
            assert isinstance(lo, int) and isinstance(hi, int)
            out.extend(range(lo, hi + 1))
        else:
            out.append(item.value)
    return out


def _card_property(card: Card, prop: str) -> bool:
    if prop == "red":
        return card.color is Color.RED
    if prop == "black":
        return card.color is Color.BLACK
    if prop == "odd":
        return card.rank % 2 == 1
    if prop == "even":
        return card.rank % 2 == 0
    if prop == "face":
        return card.rank in _FACE
    if prop == "number":
        return 2 <= card.rank <= 10
    if prop == "ace":
        return card.rank == 1
    return card.suit is Suit[prop.upper()]


def _property(value: object, prop: str) -> bool:
    if isinstance(value, Card):
        return _card_property(value, prop)
    if isinstance(value, Suit):
        return value.color is (Color.RED if prop == "red" else Color.BLACK)
    if isinstance(value, Color):
        return value is (Color.RED if prop == "red" else Color.BLACK)
    assert isinstance(value, int)
    return value % 2 == (1 if prop == "odd" else 0)


def evaluate(node: A.Expr, ctx: Context) -> Any:
    """The value of ``node`` (``None`` is *nothing*)."""
    if isinstance(node, A.Const):
        return node.value
    if isinstance(node, A.Name):
        name = node.name
        if name in ctx.bound:
            return ctx.bound[name]
        if name == "card":
            return ctx.card
        if name == "position":
            return ctx.position if ctx.position is not None else len(ctx.line) + 1
        n = int(name[4:] or "1")  # prevN
        return ctx.line[-n] if len(ctx.line) >= n else None
    if isinstance(node, A.Attribute):
        obj = evaluate(node.obj, ctx)
        return None if obj is None else getattr(obj, node.attr)
    if isinstance(node, A.Neg):
        v = evaluate(node.operand, ctx)
        return None if v is None else -v
    if isinstance(node, A.Arith):
        a, b = evaluate(node.left, ctx), evaluate(node.right, ctx)
        if a is None or b is None:
            return None
        if node.op == "+":
            return a + b
        if node.op == "-":
            return a - b
        if node.op == "*":
            return a * b
        return a // b if node.op == "//" else a % b
    if isinstance(node, A.Compare):
        a, b = evaluate(node.left, ctx), evaluate(node.right, ctx)
        if node.op == "!=":
            return not (a is not None and b is not None and a == b)
        if a is None or b is None:
            return False
        if node.op == "==":
            return bool(a == b)
        if node.op == "<":
            return bool(a < b)
        if node.op == "<=":
            return bool(a <= b)
        return bool(a > b) if node.op == ">" else bool(a >= b)
    if isinstance(node, A.Member):
        v = evaluate(node.elem, ctx)
        inside = v is not None and v in _item_values(node.items)
        return not inside if node.negated else inside
    if isinstance(node, A.Is):
        v = evaluate(node.subject, ctx)
        holds = v is not None and _property(v, node.prop)
        return not holds if node.negated else holds
    if isinstance(node, A.Not):
        return not _truthy(evaluate(node.operand, ctx))
    if isinstance(node, A.BoolOp):
        if node.op == "and":
            return all(_truthy(evaluate(o, ctx)) for o in node.operands)
        return any(_truthy(evaluate(o, ctx)) for o in node.operands)
    if isinstance(node, A.If):
        for cond, value in node.branches:
            if _truthy(evaluate(cond, ctx)):
                return evaluate(value, ctx)
        return evaluate(node.orelse, ctx)
    if isinstance(node, A.Call):
        if node.func == "has":
            arg = node.args[0]
            assert isinstance(arg, A.Name)
            return len(ctx.line) >= int(arg.name[4:] or "1")
        if node.func == "next":
            x = evaluate(node.args[0], ctx)
            lst = node.args[1]
            assert isinstance(lst, A.ListLit)
            values = _item_values(lst.items)
            for i, v in enumerate(values):
                if x is not None and v == x and type(v) is type(x):
                    return values[(i + 1) % len(values)]
            return None
        args = [evaluate(a, ctx) for a in node.args]
        if any(a is None for a in args):
            return None
        if node.func == "abs":
            return abs(args[0])
        return min(args) if node.func == "min" else max(args)
    if isinstance(node, A.Index):
        i = evaluate(node.index, ctx)
        values = _item_values(node.items.items)
        return values[i] if i is not None and 0 <= i < len(values) else None
    if isinstance(node, A.Aggregate):
        window = list(ctx.line) if node.last is None else list(ctx.line)[-node.last :]
        saved = dict(ctx.bound)
        results = []
        for x in window:
            ctx.bound[node.var] = x
            results.append(_truthy(evaluate(node.pred, ctx)))
        ctx.bound = saved
        if node.func == "count":
            return sum(results)
        return any(results) if node.func == "any" else all(results)
    raise TypeError(f"not an expression node: {node!r}")  # pragma: no cover


def judge(tree: A.Expr, line: Sequence[Card], card: Card, *, depth: int, has: bool) -> bool:
    """Interpret a rule's decision: the depth rule, then the tree."""
    if not has and len(line) < depth:
        return True
    return _truthy(evaluate(tree, Context(line, card, has)))


# -- explanations ----------------------------------------------------------------------


def _show(value: object) -> str:
    if value is None:
        return "nothing"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, Suit):
        return value.name.lower()
    return str(value)


def _notes(node: A.Expr, ctx: Context) -> str:
    """Values of the interesting operands of an atom: ``(card.color = red, prev = 7H)``."""
    if isinstance(node, A.Compare):
        parts: list[A.Expr] = [node.left, node.right]
    elif isinstance(node, A.Member):
        parts = [node.elem]
    elif isinstance(node, A.Is):
        parts = [node.subject]
    elif isinstance(node, (A.Const, A.Not, A.BoolOp)):
        parts = []
    else:
        parts = [node]
    shown = []
    for p in parts:
        if isinstance(p, A.Const):
            continue
        shown.append(f"{A.unparse(p)} = {_show(evaluate(p, ctx))}")
    return f" ({', '.join(shown)})" if shown else ""


def _why(node: A.Expr, ctx: Context) -> str:
    value = evaluate(node, ctx)
    text = A.unparse(node)
    if isinstance(node, A.If):
        for cond, branch in node.branches:
            if _truthy(evaluate(cond, ctx)):
                return f"{_why(cond, ctx)}, so {A.unparse(branch)} must hold: {_why(branch, ctx)}"
        conds = " and ".join(_why(c, ctx) for c, _ in node.branches)
        return f"{conds}, so {A.unparse(node.orelse)} must hold: {_why(node.orelse, ctx)}"
    if isinstance(node, A.BoolOp):
        deciding = [o for o in node.operands if _truthy(evaluate(o, ctx)) is (node.op == "or")]
        if deciding:
            return _why(deciding[0], ctx)
        return " and ".join(_why(o, ctx) for o in node.operands)
    if isinstance(node, A.Not):
        return f"{text} is {_show(value)}, because {_why(node.operand, ctx)}"
    if isinstance(node, A.Aggregate) and node.func in ("any", "all"):
        window = list(ctx.line) if node.last is None else list(ctx.line)[-node.last :]
        saved = dict(ctx.bound)
        witness = None
        for x in window:
            ctx.bound[node.var] = x
            if _truthy(evaluate(node.pred, ctx)) is (node.func == "any"):
                witness = x
                break
        ctx.bound = saved
        if witness is None:
            return f"{text} is {_show(value)} ({len(window)} cards looked at)"
        return f"{text} is {_show(value)} ({node.var} = {witness})"
    return f"{text} is {_show(value)}{_notes(node, ctx)}"


def explain(rule: Rule, line: Sequence[Card], card: Card) -> str:
    """Why ``rule`` accepts or rejects ``card`` after ``line``, in one sentence."""
    right = rule.accepts(line, card)
    verdict = f"{card} is {'right' if right else 'wrong'}"
    if not rule.uses_has and len(line) < rule.depth:
        cards = "card" if rule.depth == 1 else "cards"
        return (
            f"the rule looks back {rule.depth} {cards} and the main line has {len(line)}: "
            f"every card is accepted, so {verdict}"
        )
    reason = _why(rule.tree, Context(line, card, rule.uses_has))
    return f"{reason}; so {verdict}"

"""A reference interpreter of rule trees, and :func:`explain` built on it.

:func:`evaluate` walks a checked tree directly, following the language reference's
wording, *nothing* included.  It is slow and is never used to judge
cards in play (compiled code does that); it explains a judgement in words, and the tests
use it as an independent oracle for the code generator.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, Protocol

import attrs

from ..cards import Card, Suit
from . import ast as A
from .items import Items
from .vocabulary import STANDARD, Vocabulary

__all__ = ["Context", "RuleLike", "evaluate", "explain", "judge"]


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
    #: The words the rule was compiled with: what each property and attribute means.
    vocabulary: Vocabulary = STANDARD


def _truthy(value: object) -> bool:
    return value is True


class _NoValue:
    """A card's own "no suit" or "no colour" (a moon's colour, a joker's suit): a real
    value, equal to itself, never *nothing*."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "none"


_NONE = _NoValue()


def _property(value: object, prop: str, vocabulary: Vocabulary) -> bool:
    if value is _NONE:  # no suit or no colour has no property
        return False
    word = vocabulary.lookup("property", prop)
    assert word is not None  # the checker resolved it
    return word.holds(value)


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
        if obj is None:
            return None
        word = ctx.vocabulary.lookup("attribute", node.attr)
        assert word is not None and word.meaning is not None  # the checker resolved it
        value = word.meaning(obj)
        return _NONE if value is None else value
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
        inside = v is not None and Items(node.items).contains(v)
        return not inside if node.negated else inside
    if isinstance(node, A.Is):
        v = evaluate(node.subject, ctx)
        holds = v is not None and _property(v, node.prop, ctx.vocabulary)
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
    if isinstance(node, A.Aggregate) and node.value is not None:
        return _fold(node, ctx)
    if isinstance(node, A.Call) and node.func in ("index", "after", "before"):
        return _look_up(node, evaluate(node.args[0], ctx))
    if isinstance(node, A.Call) and node.func == "isqrt":
        n = evaluate(node.args[0], ctx)
        return None if n is None or n < 0 else math.isqrt(n)
    if isinstance(node, A.Call):
        if node.func == "has":
            arg = node.args[0]
            assert isinstance(arg, A.Name)
            return len(ctx.line) >= int(arg.name[4:] or "1")
        if node.func == "next":
            x = evaluate(node.args[0], ctx)
            lst = node.args[1]
            assert isinstance(lst, A.ListLit)
            return Items(lst.items).after(x)
        args = [evaluate(a, ctx) for a in node.args]
        if any(a is None for a in args):
            return None
        if node.func == "abs":
            return abs(args[0])
        return min(args) if node.func == "min" else max(args)
    if isinstance(node, A.Index):
        i = evaluate(node.index, ctx)
        return Items(node.items.items).at(i)
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


def _look_up(node: A.Call, x: object) -> Any:
    """``index``, ``after``, ``before`` of ``x``: from its first occurrence in the list,
    without wrapping round; *nothing* if ``x`` is not there or past either end.  Ranges
    stay ``range`` objects (membership and places in them cost nothing)."""
    lst = node.args[1]
    assert isinstance(lst, A.ListLit)
    parts: list[Sequence[Any]] = [
        range(i.lo.value, i.hi.value + 1) if isinstance(i, A.Range) else (i.value,)  # type: ignore[arg-type, operator]
        for i in lst.items
    ]
    place = 0
    for part in parts:
        if x is not None and type(part[0]) is type(x) and x in part:
            i = place + part.index(x)
            if node.func == "index":
                return i + 1
            return _nth(parts, i + 1 if node.func == "after" else i - 1)
        place += len(part)
    return None


def _nth(parts: Sequence[Sequence[Any]], i: int) -> Any:
    if i < 0:
        return None
    for part in parts:
        if i < len(part):
            return part[i]
        i -= len(part)
    return None


def _fold(node: A.Aggregate, ctx: Context) -> Any:
    """``sum``, ``min`` or ``max`` of the value over the window's cards that satisfy the
    predicate: 0 (sum) or *nothing* (min, max) for none; *nothing* if a value is."""
    assert node.value is not None
    window = list(ctx.line) if node.last is None else list(ctx.line)[-node.last :]
    saved = dict(ctx.bound)
    values = []
    for x in window:
        ctx.bound[node.var] = x
        if _truthy(evaluate(node.pred, ctx)):
            values.append(evaluate(node.value, ctx))
    ctx.bound = saved
    if any(v is None for v in values):
        return None
    if node.func == "sum":
        return sum(values)
    if not values:
        return None
    return min(values) if node.func == "min" else max(values)


def judge(
    tree: A.Expr,
    line: Sequence[Card],
    card: Card,
    *,
    depth: int,
    has: bool,
    vocabulary: Vocabulary = STANDARD,
) -> bool:
    """Interpret a rule's decision: the depth rule, then the tree."""
    if not has and len(line) < depth:
        return True
    return _truthy(evaluate(tree, Context(line, card, has, vocabulary=vocabulary)))


# -- explanations ----------------------------------------------------------------------


def _show(value: object) -> str:
    if value is None:
        return "nothing"
    if value is _NONE:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, Suit):
        return value.name.lower()
    return str(value)


def _operand(node: A.Expr, ctx: Context) -> str:
    """An operand with its value: ``prev 7H``, ``card.rank (5)``, ``3``."""
    text = A.unparse(node)
    if isinstance(node, A.Const):
        return text
    value = _show(evaluate(node, ctx))
    if isinstance(node, A.Name):
        return f"{text} {value}"
    if len(text) > 50:
        text = text[:47] + "..."
    return f"{text} ({value})"


def _why(node: A.Expr, ctx: Context) -> str:
    """The facts that decide a boolean node's value, in words."""
    value = evaluate(node, ctx)
    text = A.unparse(node)
    if isinstance(node, A.If):
        return _decide(node, ctx)
    if isinstance(node, A.BoolOp):
        deciding = [o for o in node.operands if _truthy(evaluate(o, ctx)) is (node.op == "or")]
        if deciding:
            return _why(deciding[0], ctx)
        return " and ".join(_why(o, ctx) for o in node.operands)
    if isinstance(node, A.Not):
        return _why(node.operand, ctx)
    if isinstance(node, A.Is):
        positive = _truthy(value) is not node.negated
        return f"{_operand(node.subject, ctx)} is {'' if positive else 'not '}{node.prop}"
    if isinstance(node, A.Member):
        inside = _truthy(value) is not node.negated
        items = ", ".join(
            i.spelling if isinstance(i, A.Const) else f"{i.lo.spelling}..{i.hi.spelling}" for i in node.items
        )
        return f"{_operand(node.elem, ctx)} is {'' if inside else 'not '}in {{{items}}}"
    if isinstance(node, A.Compare):
        left, right = _operand(node.left, ctx), _operand(node.right, ctx)
        if node.op in ("==", "!="):
            equal = _truthy(value) is (node.op == "==")
            a, b = evaluate(node.left, ctx), evaluate(node.right, ctx)
            if a is None or b is None:
                return f"{left} {node.op} {right} is {_show(value)} (nothing is never equal)"
            return f"{left} {'==' if equal else '!='} {right}"
        return f"{left} {node.op} {right}" + ("" if _truthy(value) else " is false")
    if isinstance(node, A.Call) and node.func == "has":
        cards = "card" if len(ctx.line) == 1 else "cards"
        return f"the line has {len(ctx.line)} {cards} ({text} is {_show(value)})"
    if isinstance(node, A.Aggregate) and node.func in ("any", "all"):
        window = list(ctx.line) if node.last is None else list(ctx.line)[-node.last :]
        where = "the line" if node.last is None else f"the last {node.last}"
        pred = A.unparse(node.pred)
        saved = dict(ctx.bound)
        witness = None
        for x in window:
            ctx.bound[node.var] = x
            if _truthy(evaluate(node.pred, ctx)) is (node.func == "any"):
                witness = x
                break
        ctx.bound = saved
        if node.func == "any":
            if witness is None:
                return f"no card {node.var} of {where} has {pred}"
            return f"{witness} of {where} has {pred}"
        if witness is None:
            return f"every card {node.var} of {where} has {pred}"
        return f"{witness} of {where} does not have {pred}"
    return f"{text} is {_show(value)}"


_OP_WORDS = {
    "==": "must be",
    "!=": "must differ from",
    "<": "must be less than",
    "<=": "must be at most",
    ">": "must be more than",
    ">=": "must be at least",
}
_NEGATED_OP_WORDS = {
    "==": "must differ from",
    "!=": "must be",
    "<": "must be at least",
    "<=": "must be more than",
    ">": "must be at most",
    ">=": "must be less than",
}


def _card_fact(card: Card, prop: str, vocabulary: Vocabulary) -> str:
    """What ``card`` is, in the respect of ``prop`` (the word's own wording): ``4D is
    red``, ``4D is even``, ``9C is not a prime rank``."""
    word = vocabulary.lookup("property", prop)
    assert word is not None and word.fact is not None  # checked when the vocabulary was built
    return word.fact(card)


def _value_fact(node: A.Expr, ctx: Context) -> str:
    inner = [_fact(n, ctx) for n in _inner_folds(node)]
    return ", ".join([*inner, _fact(node, ctx)])


def _fact(node: A.Expr, ctx: Context) -> str:
    """``sum(x.rank for x in line) is 22``; an empty window says so."""
    text = f"{A.unparse(node)} is {_show(evaluate(node, ctx))}"
    if isinstance(node, A.Aggregate) and node.value is not None and node.func != "sum":
        window = list(ctx.line) if node.last is None else list(ctx.line)[-node.last :]
        saved = dict(ctx.bound)
        chosen = 0
        for x in window:
            ctx.bound[node.var] = x
            chosen += _truthy(evaluate(node.pred, ctx))
        ctx.bound = saved
        if not chosen:
            where = "the line" if node.last is None else f"the last {node.last}"
            if node.pred == A.TRUE:  # a window of no card: the line is empty
                text += " (the line is empty)"
            else:
                text += f" (no card {node.var} of {where} has {A.unparse(node.pred)})"
    return text


def _inner_folds(node: A.Expr) -> list[A.Expr]:
    """The sums, minima, maxima and list look-ups strictly inside ``node`` (not inside
    an aggregate, where they would read its card), left to right: facts worth showing."""
    out: list[A.Expr] = []
    stack = list(reversed(A.children(node)))
    while stack:
        n = stack.pop()
        if isinstance(n, A.Aggregate):
            if n.value is not None:
                out.append(n)
            continue
        if isinstance(n, A.Call) and n.func in ("index", "after", "before", "isqrt"):
            out.append(n)
        stack.extend(reversed([c for c in A.children(n) if not isinstance(c, (A.Range, A.ListLit))]))
    return out


def _requirement(node: A.Expr, ctx: Context, negate: bool = False) -> str:
    """What the rule asks of this (boolean) part, then the facts: ``card must be black;
    4D is red``."""
    if isinstance(node, A.Not):
        return _requirement(node.operand, ctx, not negate)
    if isinstance(node, A.If):
        return _decide(node, ctx, negate)
    if isinstance(node, A.BoolOp):
        values = [_truthy(evaluate(o, ctx)) for o in node.operands]
        conj = (node.op == "and") is not negate  # all must hold, or one is enough
        failing = [o for o, v in zip(node.operands, values, strict=True) if v is negate]
        holding = [o for o, v in zip(node.operands, values, strict=True) if v is not negate]
        if conj and failing:
            return _requirement(failing[0], ctx, negate)
        if not conj and holding:
            return _requirement(holding[0], ctx, negate)
        joiner = ", and " if conj else ", or "
        return joiner.join(_requirement(o, ctx, negate) for o in node.operands)
    must = "must not" if negate else "must"
    if isinstance(node, A.Is):
        neg = node.negated is not negate
        subject = node.subject
        want = f"{A.unparse(subject)} {'must not' if neg else 'must'} be {node.prop}"
        value = evaluate(subject, ctx)
        if isinstance(value, Card):
            return f"{want}; {_card_fact(value, node.prop, ctx.vocabulary)}"
        return f"{want}; {_value_fact(subject, ctx)}"
    if isinstance(node, A.Compare):
        words = (_NEGATED_OP_WORDS if negate else _OP_WORDS)[node.op]
        facts = [_value_fact(side, ctx) for side in (node.left, node.right) if not isinstance(side, A.Const)]
        return f"{A.unparse(node.left)} {words} {A.unparse(node.right)}; {', '.join(facts)}"
    if isinstance(node, A.Member):
        inside = node.negated is negate
        items = ", ".join(
            i.spelling if isinstance(i, A.Const) else f"{i.lo.spelling}..{i.hi.spelling}" for i in node.items
        )
        want = f"{A.unparse(node.elem)} must {'' if inside else 'not '}be in {{{items}}}"
        return f"{want}; {_value_fact(node.elem, ctx)}"
    if isinstance(node, A.Aggregate) and node.func in ("any", "all"):
        where = "the line" if node.last is None else f"the last {node.last} cards"
        pred = A.unparse(node.pred)
        wants = {
            ("any", False): f"a card {node.var} of {where} must have {pred}",
            ("any", True): f"no card {node.var} of {where} may have {pred}",
            ("all", False): f"every card {node.var} of {where} must have {pred}",
            ("all", True): f"some card {node.var} of {where} must not have {pred}",
        }
        return f"{wants[node.func, negate]}; {_why(node, ctx)}"
    if isinstance(node, A.Const):
        says = "every card is right" if (node.value is True) is not negate else "no card is right"
        return f"the rule says {says}"
    return f"{A.unparse(node)} {must} hold; it is {_show(evaluate(node, ctx))}"


def _decide(node: A.If, ctx: Context, negate: bool = False) -> str:
    """``prev 7H is odd, so card must be black; 4D is red``: the condition that chose the
    branch, as facts, then what the branch asks."""
    for cond, branch in node.branches:
        if _truthy(evaluate(cond, ctx)):
            return f"{_why(cond, ctx)}, so {_requirement(branch, ctx, negate)}"
    conds = " and ".join(_why(c, ctx) for c, _ in node.branches)
    return f"{conds}, so {_requirement(node.orelse, ctx, negate)}"


class RuleLike(Protocol):
    """What :func:`explain` reads of a rule, as a :class:`~cardrules.lang.rules.Rule`
    has it: ``tree`` (the ``play:`` part), ``depth`` and ``uses_has``."""

    @property
    def tree(self) -> A.Expr: ...

    @property
    def depth(self) -> int: ...

    @property
    def uses_has(self) -> bool: ...


def explain(rule: RuleLike, line: Sequence[Card], card: Card) -> str:
    """Which part of ``rule`` decides on ``card`` after ``line``, in one sentence:
    the conditions that hold, what the rule then asks, and what the card is.

    >>> from cardrules import parse_card, parse_cards
    >>> from cardrules.lang import compile_rule
    >>> rule = compile_rule("if prev is odd then card is black else card is red")
    >>> rule.explain(parse_cards("7H"), parse_card("4D"))
    'prev 7H is odd, so card must be black; 4D is red'
    """
    if not rule.uses_has and len(line) < rule.depth:
        cards = "card" if rule.depth == 1 else "cards"
        have = f"has {len(line)}" if line else "is empty"
        return f"the rule looks back {rule.depth} {cards} and the main line {have}: every card is right"
    vocabulary = getattr(rule, "vocabulary", STANDARD)
    return _requirement(rule.tree, Context(line, card, rule.uses_has, vocabulary=vocabulary))

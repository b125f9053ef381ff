"""A small reference evaluator of Eleusis rules, written from the language reference
alone, independent of cardrules' code generator and of its own tree-walking explainer.

It walks the parsed tree (:mod:`cardrules.lang.ast`, which only records what was
written) and follows the reference's words:

* *nothing* (a missing ``prevN`` in a rule that uses ``has``, an index out of range, a
  ``next`` of an absent value) carries through arithmetic, attributes, ``abs``,
  ``min``/``max``, ``next`` and indexing; ``==``, ordering, ``in`` and ``is P`` with
  nothing on either side are false (``nothing == nothing`` too); their negative forms are
  the negations; a boolean nothing counts as false;
* a card's own lack of a suit or colour (a moon's colour, a joker's suit) is a value,
  equal to itself, not nothing;
* the depth rule: without ``has``, a line shorter than the largest ``N`` of a ``prevN``
  accepts every card.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from cardrules import Card
from cardrules.cards import Color, Suit
from cardrules.lang import ast as A


class _Nothing:
    def __repr__(self) -> str:
        return "nothing"


NOTHING: Any = _Nothing()
_RED_SUITS = {Suit.HEARTS, Suit.DIAMONDS}
_BLACK_SUITS = {Suit.SPADES, Suit.CLUBS}


def _prev_n(name: str) -> int | None:
    if name == "prev":
        return 1
    if name.startswith("prev") and name[4:].isdigit():
        return int(name[4:])
    return None


def _nodes(node: A.Expr | A.Range) -> list[A.Expr | A.Range]:
    out = [node]
    for child in A.children(node):
        out.extend(_nodes(child))
    return out


def depth_and_has(tree: A.Expr) -> tuple[int, bool]:
    nodes = _nodes(tree)
    depth = max((_prev_n(n.name) or 0 for n in nodes if isinstance(n, A.Name)), default=0)
    has = any(isinstance(n, A.Call) and n.func == "has" for n in nodes)
    return depth, has


def _same(a: Any, b: Any) -> bool:
    return type(a) is type(b) and a == b


def _member(x: Any, items: Sequence[A.Item]) -> bool:
    for item in items:
        if isinstance(item, A.Range):
            if type(x) is int and item.lo.value <= x <= item.hi.value:  # type: ignore[operator]
                return True
        elif _same(item.value, x):
            return True
    return False


def _size(items: Sequence[A.Item]) -> int:
    return sum(i.hi.value - i.lo.value + 1 if isinstance(i, A.Range) else 1 for i in items)  # type: ignore[operator]


def _at(items: Sequence[A.Item], i: int) -> Any:
    if not 0 <= i < _size(items):
        return NOTHING
    for item in items:
        n = item.hi.value - item.lo.value + 1 if isinstance(item, A.Range) else 1  # type: ignore[operator]
        if i < n:
            return item.lo.value + i if isinstance(item, A.Range) else item.value  # type: ignore[operator]
        i -= n
    raise AssertionError


def _position(x: Any, items: Sequence[A.Item]) -> int | None:
    offset = 0
    for item in items:
        if isinstance(item, A.Range):
            if type(x) is int and item.lo.value <= x <= item.hi.value:  # type: ignore[operator]
                return offset + x - item.lo.value  # type: ignore[operator]
            offset += item.hi.value - item.lo.value + 1  # type: ignore[operator]
        else:
            if _same(item.value, x):
                return offset
            offset += 1
    return None


def _property(v: Any, prop: str) -> bool:
    if isinstance(v, Card):
        if prop == "red":
            return v.color is Color.RED
        if prop == "black":
            return v.color is Color.BLACK
        if prop == "odd":
            return v.rank % 2 == 1
        if prop == "even":
            return v.rank % 2 == 0
        if prop == "face":
            return v.rank in (11, 12, 13)
        if prop == "number":
            return 2 <= v.rank <= 10
        if prop == "ace":
            return v.rank == 1
        return v.suit is {"spades": Suit.SPADES, "hearts": Suit.HEARTS,
                          "diamonds": Suit.DIAMONDS, "clubs": Suit.CLUBS}[prop]  # fmt: skip
    if isinstance(v, Suit):
        return v in (_RED_SUITS if prop == "red" else _BLACK_SUITS)
    if isinstance(v, Color):
        return v is (Color.RED if prop == "red" else Color.BLACK)
    if type(v) is int:
        return v % 2 == (1 if prop == "odd" else 0)
    return False  # no suit / no colour has no property


class Evaluator:
    def __init__(self, line: Sequence[Card], card: Card, has: bool) -> None:
        self.line = list(line)
        self.card = card
        self.has = has
        self.bound: dict[str, Card] = {}

    def truth(self, node: A.Expr) -> bool:
        return self.value(node) is True

    def value(self, node: A.Expr) -> Any:
        if isinstance(node, A.Const):
            return node.value
        if isinstance(node, A.Name):
            if node.name in self.bound:
                return self.bound[node.name]
            if node.name == "card":
                return self.card
            if node.name == "position":
                return len(self.line) + 1
            n = _prev_n(node.name)
            assert n is not None
            return self.line[-n] if len(self.line) >= n else NOTHING
        if isinstance(node, A.Attribute):
            obj = self.value(node.obj)
            if obj is NOTHING:
                return NOTHING
            return {"rank": obj.rank, "suit": obj.suit, "color": obj.color}[node.attr]
        if isinstance(node, A.Neg):
            v = self.value(node.operand)
            return NOTHING if v is NOTHING else -v
        if isinstance(node, A.Arith):
            a, b = self.value(node.left), self.value(node.right)
            if a is NOTHING or b is NOTHING:
                return NOTHING
            if node.op == "+":
                return a + b
            if node.op == "-":
                return a - b
            if node.op == "*":
                return a * b
            return a // b if node.op == "//" else a % b
        if isinstance(node, A.Compare):
            a, b = self.value(node.left), self.value(node.right)
            if node.op == "!=":
                return not (a is not NOTHING and b is not NOTHING and a == b)
            if a is NOTHING or b is NOTHING:
                return False
            if node.op == "==":
                return a == b
            if node.op == "<":
                return a < b
            if node.op == "<=":
                return a <= b
            return a > b if node.op == ">" else a >= b
        if isinstance(node, A.Member):
            v = self.value(node.elem)
            inside = v is not NOTHING and _member(v, node.items)
            return not inside if node.negated else inside
        if isinstance(node, A.Is):
            v = self.value(node.subject)
            holds = v is not NOTHING and _property(v, node.prop)
            return not holds if node.negated else holds
        if isinstance(node, A.Not):
            return not self.truth(node.operand)
        if isinstance(node, A.BoolOp):
            results = [self.truth(o) for o in node.operands]
            return all(results) if node.op == "and" else any(results)
        if isinstance(node, A.If):
            for cond, value in node.branches:
                if self.truth(cond):
                    return self.value(value)
            return self.value(node.orelse)
        if isinstance(node, A.Call):
            if node.func == "has":
                arg = node.args[0]
                assert isinstance(arg, A.Name)
                return len(self.line) >= (_prev_n(arg.name) or 0)
            if node.func == "next":
                x = self.value(node.args[0])
                lst = node.args[1]
                assert isinstance(lst, A.ListLit)
                p = None if x is NOTHING else _position(x, lst.items)
                return NOTHING if p is None else _at(lst.items, (p + 1) % _size(lst.items))
            args = [self.value(a) for a in node.args]
            if any(a is NOTHING for a in args):
                return NOTHING
            if node.func == "abs":
                return abs(args[0])
            return min(args) if node.func == "min" else max(args)
        if isinstance(node, A.Index):
            i = self.value(node.index)
            return NOTHING if i is NOTHING else _at(node.items.items, i)
        if isinstance(node, A.Aggregate):
            window = self.line if node.last is None else self.line[-node.last :]
            saved = dict(self.bound)
            hits = []
            for x in window:
                self.bound[node.var] = x
                hits.append(self.truth(node.pred))
            self.bound = saved
            if node.func == "count":
                return sum(hits)
            return any(hits) if node.func == "any" else all(hits)
        raise AssertionError(f"a form the reference does not know: {node!r}")


def accepts(tree: A.Expr, line: Sequence[Card], card: Card) -> bool:
    """The reference's verdict: may ``card`` extend ``line`` under the rule ``tree``?"""
    depth, has = depth_and_has(tree)
    if not has and len(line) < depth:
        return True
    return Evaluator(line, card, has).truth(tree)

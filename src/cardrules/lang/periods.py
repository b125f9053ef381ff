"""When the position stops mattering: past a threshold ``T``, every comparison in a rule
is settled and the rule's verdict repeats with a period ``P`` of positions.

:class:`Growth` finds ``T`` and ``P`` for rule trees (:func:`root_bound` bounds the
roots of the polynomials it meets); :func:`exact_case` says whether a rule has them at
all.  The exact searches of :mod:`cardrules.lang.analysis` and
:mod:`cardrules.lang.inplay` walk positions up to ``T + P``, at most
:data:`EXACT_LENGTH_LIMIT` cards; the method is described in
:mod:`cardrules.lang.analysis`.

>>> from cardrules.lang import compile_rule
>>> growth = Growth()
>>> _ = growth.visit(compile_rule("position % 3 == 1 or position > 20").tree)
>>> growth.threshold, growth.period
(22, 3)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction

import attrs

from . import ast as A
from .rules import Rule, prev_number
from .vocabulary import STANDARD, Vocabulary

__all__ = ["EXACT_LENGTH_LIMIT", "Growth", "Interval", "exact_case", "root_bound"]

#: Longest main line the exact search walks through; rules whose literals put the
#: threshold ``T + P`` beyond it are searched up to it, then reported as not proven.
EXACT_LENGTH_LIMIT = 200_000


def exact_case(rule: Rule) -> bool:
    """Whether the exact searches apply to ``rule``: it looks back at most 2 cards, uses no
    aggregate and no square root of the position."""
    return rule.depth <= 2 and not any(
        isinstance(n, A.Aggregate) or _root_of_position(n) for n in A.walk(rule.tree)
    )


def _root_of_position(node: A.Expr | A.Range) -> bool:
    """Whether ``node`` is ``isqrt`` of something that reads the position: its value grows
    like a square root, so positions never settle into a period (``isqrt(position) % 2``
    changes forever, ever more slowly) and the exact search does not apply."""
    return (
        isinstance(node, A.Call)
        and node.func == "isqrt"
        and any(isinstance(n, A.Name) and n.name == "position" for n in A.walk(node))
    )


# Threshold and period: a bound past which every comparison is settled, and the period of
# positions after it.


Interval = tuple[Fraction, Fraction]
_ZERO: Interval = (Fraction(0), Fraction(0))


@attrs.define
class _Val:
    """What :class:`Growth` knows of a node: whether it depends on the position, its
    period in positions, and for an integer, an interval holding each coefficient of its
    polynomial in the position (``coeffs[k]`` for ``position ** k``), all rationals
    with denominator ``den``."""

    pos: bool
    period: int = 1
    coeffs: tuple[Interval, ...] = (_ZERO,)
    den: int = 1


def _combine(vals: Sequence[_Val]) -> tuple[bool, int]:
    return any(v.pos for v in vals), math.lcm(*(v.period for v in vals)) if vals else 1


def _pad(c: tuple[Interval, ...], size: int) -> tuple[Interval, ...]:
    return c + (_ZERO,) * (size - len(c))


def _hull(*cs: tuple[Interval, ...]) -> tuple[Interval, ...]:
    size = max(len(c) for c in cs)
    padded = [_pad(c, size) for c in cs]
    return tuple((min(c[k][0] for c in padded), max(c[k][1] for c in padded)) for k in range(size))


def _add(x: tuple[Interval, ...], y: tuple[Interval, ...], sign: int = 1) -> tuple[Interval, ...]:
    size = max(len(x), len(y))
    x, y = _pad(x, size), _pad(y, size)
    if sign > 0:
        return tuple((x[k][0] + y[k][0], x[k][1] + y[k][1]) for k in range(size))
    return tuple((x[k][0] - y[k][1], x[k][1] - y[k][0]) for k in range(size))


def _mul(x: tuple[Interval, ...], y: tuple[Interval, ...]) -> tuple[Interval, ...]:
    out = [(Fraction(0), Fraction(0))] * (len(x) + len(y) - 1)
    for i, (a, b) in enumerate(x):
        for j, (c, d) in enumerate(y):
            products = (a * c, a * d, b * c, b * d)
            lo, hi = out[i + j]
            out[i + j] = (lo + min(products), hi + max(products))
    return tuple(out)


def _const_val(value: int) -> _Val:
    v = Fraction(value)
    return _Val(False, 1, ((v, v),), 1)


def _sign(c: tuple[Interval, ...]) -> int:
    """The sign of a polynomial for all large positions: 1 or -1 when its highest
    coefficient that can be nonzero is surely nonzero, else 0 (unknown or zero)."""
    for lo, hi in reversed(c):
        if lo == hi == 0:
            continue
        return 1 if lo > 0 else -1 if hi < 0 else 0
    return 0


class Growth:
    """Walks rule trees and finds ``threshold`` (T) and ``period`` (P).

    For positions ``x`` of one residue class modulo a node's period, past the
    thresholds of its sub-expressions, an integer node equals a polynomial in ``x``
    whose coefficients depend on the cards; :class:`_Val` holds an interval for each.
    A comparison of two such polynomials is settled once ``x`` is past every real root
    of their difference (:func:`root_bound`).  Past that point ``abs``, ``min`` and
    ``max`` are one of their arguments (which one is known when the sign of the
    difference's leading coefficient is).
    """

    def __init__(self, vocabulary: Vocabulary = STANDARD) -> None:
        self.threshold = 0
        self.period = 1
        self.vocabulary = vocabulary

    def settle(self, d: _Val) -> None:
        """Raise the threshold past every real root of ``d`` (a difference compared with 0)."""
        if len(d.coeffs) > 1:
            self.threshold = max(self.threshold, root_bound(d.coeffs, d.den))

    def visit(self, node: A.Expr) -> _Val:
        v = self._visit(node)
        self.period = math.lcm(self.period, v.period)
        return v

    def _visit(self, node: A.Expr) -> _Val:
        if isinstance(node, A.Const):
            v = node.value
            return _const_val(v) if type(v) is int else _Val(False)
        if isinstance(node, A.Name):
            if node.name == "position":
                return _Val(True, 1, (_ZERO, (Fraction(1), Fraction(1))), 1)
            return _Val(False)
        if isinstance(node, A.Attribute):
            obj = self.visit(node.obj)
            return _Val(obj.pos, obj.period, ((Fraction(1), Fraction(13)),), 1)
        if isinstance(node, A.Neg):
            x = self.visit(node.operand)
            return _Val(x.pos, x.period, tuple((-hi, -lo) for lo, hi in x.coeffs), x.den)
        if isinstance(node, A.Arith):
            return self._arith(node)
        if isinstance(node, A.Compare):
            left, right = self.visit(node.left), self.visit(node.right)
            pos, period = _combine([left, right])
            if pos:
                self.settle(_difference(left, right, period))
            return _Val(pos, period)
        if isinstance(node, A.Member):
            elem = self.visit(node.elem)
            self._against_items(elem, node.items)
            return _Val(elem.pos, elem.period)
        if isinstance(node, A.Is):
            subject = self.visit(node.subject)
            # A property of an integer repeats with the word's own period (2 for odd).
            word = self.vocabulary.lookup("property", node.prop)
            factor = word.period if word is not None and word.period else 1
            period = subject.period * factor if subject.pos else subject.period
            return _Val(subject.pos, period)
        if isinstance(node, (A.Not, A.BoolOp)):
            kids = [self.visit(k) for k in A.children(node) if not isinstance(k, A.Range)]
            pos, period = _combine(kids)
            return _Val(pos, period)
        if isinstance(node, A.If):
            conds = [self.visit(c) for c, _ in node.branches]
            values = [self.visit(v) for _, v in node.branches] + [self.visit(node.orelse)]
            pos, period = _combine(conds + values)
            coeffs = _hull(*(v.coeffs for v in values))
            return _Val(pos, period, coeffs, math.lcm(*(v.den for v in values)))
        if isinstance(node, A.Call):
            return self._call(node)
        if isinstance(node, A.Index):
            index = self.visit(node.index)
            last = Fraction(_item_count(node.items.items) - 1)
            self._against_range(index, Fraction(0), last)
            return _Val(index.pos, index.period, _items_range(node.items.items), 1)
        # Aggregates never reach here (the exact search refuses them); be safe anyway.
        kids = [self.visit(k) for k in A.children(node) if not isinstance(k, A.Range)]  # pragma: no cover
        pos, period = _combine(kids)  # pragma: no cover
        return _Val(pos, period, ((Fraction(-(10**9)), Fraction(10**9)),), 1)  # pragma: no cover

    def _against_range(self, elem: _Val, lo: Fraction, hi: Fraction) -> None:
        """``elem`` is compared with constants between ``lo`` and ``hi``."""
        if elem.pos and len(elem.coeffs) > 1:
            (c_lo, c_hi), *rest = elem.coeffs
            self.settle(_Val(True, elem.period, ((c_lo - hi, c_hi - lo), *rest), elem.den))

    def _against_items(self, elem: _Val, items: Sequence[A.Item]) -> None:
        """``elem`` is compared with each item (a set, ``next``'s list)."""
        lo_hi = _items_range(items)[0]
        self._against_range(elem, *lo_hi)

    def _arith(self, node: A.Arith) -> _Val:
        left, right = self.visit(node.left), self.visit(node.right)
        pos, period = _combine([left, right])
        op = node.op
        if op in ("+", "-"):
            coeffs = _add(left.coeffs, right.coeffs, 1 if op == "+" else -1)
            return _Val(pos, period, coeffs, math.lcm(left.den, right.den))
        if op == "*":
            return _Val(pos, period, _mul(left.coeffs, right.coeffs), left.den * right.den)
        assert isinstance(node.right, A.Const) and type(node.right.value) is int
        n = node.right.value
        if left.pos:
            period = left.period * n
        if op == "%":
            return _Val(pos, period, ((Fraction(0), Fraction(n - 1)),), 1)
        # p // n == (p - p % n) / n, where p % n (between 0 and n - 1) is fixed on a
        # residue class.
        (lo, hi), *rest = left.coeffs
        shrunk = (((lo - (n - 1)) / n, hi / n), *((a / n, b / n) for a, b in rest))
        return _Val(pos, period, shrunk, left.den * n)

    def _call(self, node: A.Call) -> _Val:
        f = node.func
        if f == "has":
            # has(prevN) is settled once the line holds N cards (position N + 1).
            assert isinstance(node.args[0], A.Name)
            n = prev_number(node.args[0].name) or 1
            self.threshold = max(self.threshold, n + 1)
            return _Val(True)
        args = [self.visit(x) for x in node.args if not isinstance(x, A.ListLit)]
        pos, period = _combine(args)
        if f in ("next", "after", "before"):
            lst = node.args[1]
            assert isinstance(lst, A.ListLit)
            self._against_items(args[0], lst.items)
            return _Val(pos, period, _items_range(lst.items), 1)
        if f == "index":
            lst = node.args[1]
            assert isinstance(lst, A.ListLit)
            self._against_items(args[0], lst.items)
            return _Val(pos, period, ((Fraction(1), Fraction(_item_count(lst.items))),), 1)
        if f == "isqrt":
            # Only of an argument without the position (the exact search refuses the
            # others): a constant interval on each residue class, whose root is one too.
            (lo, hi), *_ = _pad(args[0].coeffs, 1)
            low, high = math.isqrt(max(0, math.floor(lo))), math.isqrt(max(0, math.ceil(hi)))
            return _Val(pos, period, ((Fraction(low), Fraction(high)),), 1)
        if f == "abs":
            x = args[0]
            self.settle(x)
            sign = _sign(x.coeffs)
            negated = tuple((-hi, -lo) for lo, hi in x.coeffs)
            coeffs = x.coeffs if sign > 0 else negated if sign < 0 else _hull(x.coeffs, negated)
            return _Val(pos, period, coeffs, x.den)
        # min / max: settled once every pair's order is; then one argument is the result
        # (known when the order of every pair is).
        for i, x in enumerate(args):
            for y in args[i + 1 :]:
                if x.pos or y.pos:
                    self.settle(_difference(x, y, period))
        wanted = -1 if f == "min" else 1
        best: _Val | None = args[0]
        for other in args[1:]:
            if best is None:
                break
            sign = _sign(_difference(other, best, period).coeffs)
            best = other if sign == wanted else best if sign == -wanted else None
        if best is not None:
            return _Val(pos, period, best.coeffs, best.den)
        return _Val(pos, period, _hull(*(x.coeffs for x in args)), math.lcm(*(x.den for x in args)))


def _difference(x: _Val, y: _Val, period: int) -> _Val:
    """``x - y``."""
    return _Val(True, period, _add(x.coeffs, y.coeffs, -1), math.lcm(x.den, y.den))


def root_bound(coeffs: Sequence[Interval], den: int) -> int:
    """An integer ``R`` past every real root: every polynomial ``sum c_k x**k`` with
    ``coeffs[k][0] <= c_k <= coeffs[k][1]``, rational coefficients of denominator
    ``den``, and a nonzero coefficient of degree 1 or more, has all its real roots
    strictly between ``-R`` and ``R``.

    Whatever the leading degree ``m`` turns out to be, ``|c_m| >= 1 / den`` (more when
    its interval excludes 0); the roots are then below both Cauchy's bound ``1 + max
    |c_k / c_m|`` and Fujiwara's ``2 max |c_(m-k) / c_m| ** (1 / k)`` (the better one
    for high degrees, as in ``position * position``).

    >>> F = Fraction
    >>> root_bound([(F(-100), F(-100)), (F(1), F(1))], 1)   # x - 100
    102
    >>> root_bound([(F(-100000), F(-100000)), (F(0), F(0)), (F(1), F(1))], 1)   # x**2 - 100000
    635
    """
    sizes = [max(abs(lo), abs(hi)) for lo, hi in coeffs]
    worst = 0
    for m in range(1, len(coeffs)):
        lo, hi = coeffs[m]
        if lo == hi == 0:
            continue  # never the leading coefficient
        if any(a > 0 or b < 0 for a, b in coeffs[m + 1 :]):
            continue  # a higher coefficient is surely nonzero
        lead = Fraction(1, den)
        if lo > 0 or hi < 0:
            lead = max(lead, min(abs(lo), abs(hi)))
        scaled = [math.ceil(size / lead) for size in sizes[:m]]
        cauchy = 1 + max(scaled) + 1
        fujiwara = 2 * max(_root_ceiling(scaled[m - k], k) for k in range(1, m + 1)) + 1
        worst = max(worst, min(cauchy, fujiwara))
    return worst


def _root_ceiling(value: int, k: int) -> int:
    """The least integer ``r >= 0`` with ``r ** k >= value``."""
    lo, hi = 0, 1 << (value.bit_length() // k + 1)  # hi ** k > value
    while lo < hi:
        mid = (lo + hi) // 2
        if mid**k >= value:
            hi = mid
        else:
            lo = mid + 1
    return lo


def _item_count(items: Sequence[A.Item]) -> int:
    count = 0
    for item in items:
        if isinstance(item, A.Range):
            lo, hi = item.lo.value, item.hi.value
            assert isinstance(lo, int) and isinstance(hi, int)
            count += hi - lo + 1
        else:
            count += 1
    return count


def _items_range(items: Sequence[A.Item]) -> tuple[Interval]:
    """The smallest and largest integer item (0, 0 for other items)."""
    values = [0]  # a harmless end for lists of suits or colours
    for item in items:
        ends = (item.lo, item.hi) if isinstance(item, A.Range) else (item,)
        values.extend(e.value for e in ends if type(e.value) is int)
    if len(values) > 1:
        values = values[1:]
    return ((Fraction(min(values)), Fraction(max(values))),)

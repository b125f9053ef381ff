"""Rule tools: what a rule looks at (:func:`profile`) and whether two rules are the same
rule (:func:`equivalent`), as ``rule-language.md`` section 2c specifies.

>>> from cardrules.lang import compile_rule
>>> alternate = compile_rule("card.color != prev.color")
>>> equivalent(alternate, compile_rule("(card is red) == (prev is black)")) is None
True
>>> line, card = equivalent(alternate, compile_rule("card.suit != prev.suit"))
>>> [str(c) for c in line], str(card)
(['AS'], 'AC')

How :func:`equivalent` decides
------------------------------

For two rules without aggregates whose depth is at most 2, the answer is **exact**.
Such a rule reads at most the judged card, the last two cards of the main line, the
line's length (through ``position`` and ``has``) and nothing else.  Lines of 0 and 1
cards are tried exhaustively.  From 2 cards on, a line is its last two cards plus its
length, and the length matters only through ``position``:

* every integer expression is, for positions in one residue class modulo ``P`` (the
  product of the ``%``/``//`` divisors on its path, and 2 for ``is odd/even`` on an
  integer), a polynomial in ``position`` whose coefficients depend on the cards; the
  coefficients' sizes are bounded from the literals (:class:`_Growth`), so past a
  threshold ``T`` (a Cauchy root bound) every comparison, ``abs``, ``min``/``max``,
  set membership and list index is settled;
* so from ``T`` on, positions repeat with period ``P``, and searching positions
  ``1 .. T + P - 1`` (lines of ``0 .. T + P - 2`` cards) decides the question.

Within that range the search is cheap: the parts of each rule that depend on the position
and on no card (*position atoms*, such as ``position % 3`` or ``has(prev2)``) are
evaluated for each length; lengths whose atoms agree behave alike and are skipped.  For
each new combination, both rules are specialised (the atoms become constants), compiled
into one generated Python loop over the judged card and the last two line cards, and
each card slot runs only over one representative per class of the attributes the two
rules read there (13 ranks, 4 suits, 2 colours, or all 52 cards when a whole card is
compared), the first in canonical order, so the first difference found is the least.

Otherwise (aggregates, or depth above 2), every line of 0, 1 and 2 cards is tried with
every card, then a seeded sample of lines of each length up to ``max_length``; finding
nothing there returns ``None`` with an :class:`EquivalenceNotProven` warning.
"""

from __future__ import annotations

import math
import random
import warnings
from collections.abc import Callable, Iterable, Sequence
from fractions import Fraction
from typing import Any

import attrs

from ..cards import Card, canonical, standard_deck
from . import ast as A
from .ast import Type
from .check import Env, Variable, check
from .codegen import CodeGen, build_function
from .rules import Rule, prev_number
from .tools import acceptance

__all__ = ["EquivalenceNotProven", "Profile", "equivalent", "profile"]

#: The 52 cards in canonical order.
DECK: tuple[Card, ...] = canonical(standard_deck())
_ACE_OF_SPADES = DECK[0]

#: Longest main line the exact search walks through; rules whose literals put the
#: threshold ``T + P`` beyond it are searched up to it, then reported as not proven.
EXACT_LENGTH_LIMIT = 200_000

#: Lines sampled per length (3 .. ``max_length``) by the bounded search.
SAMPLES_PER_LENGTH = 400


class EquivalenceNotProven(UserWarning):
    """:func:`equivalent` found no difference, but its search was not exhaustive (a rule
    uses aggregates, looks back more than 2 cards, or has enormous literals)."""


# -- profile -----------------------------------------------------------------------------


@attrs.frozen
class Profile:
    """What a rule looks at, how complex it is and how often it says yes.

    * ``depth``: the largest ``N`` of a ``prevN`` in the rule (``has(prevN)`` counts);
    * ``uses_position``: whether ``position`` appears;
    * ``uses_line``: whether an aggregate (``count``, ``any``, ``all``) reads the line;
    * ``attributes``: which card attributes the rule reads, among ``"rank"``, ``"suit"``
      and ``"color"`` (``odd even face number ace`` count as rank, ``red black`` as
      colour, suit names as suit, a whole card compared with ``==``/``!=`` as rank and
      suit);
    * ``branches``: the number of ``if`` and ``elif``;
    * ``size``: the number of nodes of its syntax tree;
    * ``acceptance``: :func:`~cardrules.lang.acceptance`, the share of random plays it
      accepts.

    All fields describe the ``play:`` part, the part :meth:`Rule.accepts` judges.
    """

    depth: int
    uses_position: bool
    uses_line: bool
    attributes: frozenset[str]
    branches: int
    size: int
    acceptance: float

    def __str__(self) -> str:
        attrs_text = ", ".join(a for a in ("rank", "suit", "color") if a in self.attributes) or "nothing"
        extras = [f"looks back {self.depth}"]
        if self.uses_position:
            extras.append("uses position")
        if self.uses_line:
            extras.append("reads the whole line")
        branches = "1 branch" if self.branches == 1 else f"{self.branches} branches"
        share = f"accepts {self.acceptance:.0%}"
        return f"{', '.join(extras)}; reads {attrs_text}; {branches}, size {self.size}; {share}"


_RANK_PROPS = frozenset({"odd", "even", "face", "number", "ace"})
_COLOR_PROPS = frozenset({"red", "black"})
_SUIT_PROPS = frozenset({"spades", "hearts", "diamonds", "clubs"})


def _rule_env() -> Env:
    variables = {"card": Variable(Type.CARD, "card"), "position": Variable(Type.INT, "_pos")}
    for n in range(1, 10):
        variables["prev" if n == 1 else f"prev{n}"] = Variable(Type.CARD, f"_p{n}", True)
    return Env(variables, line="line", length="_n")


def profile(rule: Rule, *, lines: int = 2000, seed: int = 0) -> Profile:
    """The :class:`Profile` of a rule (``lines`` and ``seed`` go to
    :func:`~cardrules.lang.acceptance`).

    >>> from cardrules.lang import compile_rule
    >>> p = profile(compile_rule("if prev is odd then card is black else card.rank > 10"))
    >>> p.depth, p.uses_position, sorted(p.attributes), p.branches, p.size
    (1, False, ['color', 'rank'], 1, 9)
    """
    tree = rule.tree
    checked = check(tree, _rule_env(), rule.source)
    attributes: set[str] = set()
    branches = size = 0
    uses_position = uses_line = False
    for node in A.walk(tree):
        size += 1
        if isinstance(node, A.Attribute):
            attributes.add(node.attr)
        elif isinstance(node, A.Is):
            subject = checked.type_of(node.subject)
            if node.prop in _COLOR_PROPS and subject is not Type.COLOR:
                attributes.add("color")
            elif node.prop in _RANK_PROPS and subject is Type.CARD:
                attributes.add("rank")
            elif node.prop in _SUIT_PROPS:
                attributes.add("suit")
        elif isinstance(node, A.Compare):
            if checked.type_of(node.left) is Type.CARD:
                attributes.update(("rank", "suit"))
        elif isinstance(node, A.If):
            branches += len(node.branches)
        elif isinstance(node, A.Name) and node.name == "position":
            uses_position = True
        elif isinstance(node, A.Aggregate):
            uses_line = True
    return Profile(
        depth=rule.depth,
        uses_position=uses_position,
        uses_line=uses_line,
        attributes=frozenset(attributes),
        branches=branches,
        size=size,
        acceptance=acceptance(rule, lines=lines, seed=seed),
    )


# -- equivalent ----------------------------------------------------------------------------

Counterexample = tuple[tuple[Card, ...], Card]


def equivalent(
    a: Rule, b: Rule, *, max_length: int = 10, seed: int = 0, samples: int = SAMPLES_PER_LENGTH
) -> Counterexample | None:
    """``None`` when nothing tells the two rules apart, else a ``(line, card)`` pair
    that one rule accepts and the other refuses: the one with the fewest line cards,
    and among those the first in canonical order (lines compared card by card, then the
    card).

    Lines hold any of the 52 cards, repeats allowed, and may be empty.  The answer is
    exact when neither rule uses aggregates and both look back at most 2 cards (then the
    counterexample may be longer than ``max_length``: ``position`` can matter far out).
    Otherwise every line of 0 to 2 cards is tried, then ``samples`` random lines (from
    ``random.Random(seed)``) of each length from 3 to ``max_length``; if none tells the
    rules apart, the result is ``None`` with an :class:`EquivalenceNotProven` warning.
    The ``start:`` parts are not compared.

    >>> from cardrules.lang import compile_rule
    >>> equivalent(compile_rule("position is even"), compile_rule("position % 4 in {0, 2}")) is None
    True
    >>> line, card = equivalent(compile_rule("position < 40"), compile_rule("position <= 40"))
    >>> len(line), str(card)
    (39, 'AS')
    """
    if _exact_case(a) and _exact_case(b):
        found, proven = _exact_search(a, b)
        if found is not None or proven:
            return found
        reason = (
            "their literals make positions beyond the exact search matter "
            f"(lines of up to {EXACT_LENGTH_LIMIT} cards were searched)"
        )
    else:
        found = _bounded_search(a, b, max_length, seed, samples)
        if found is not None:
            return found
        reason = (
            "a rule uses count/any/all or looks back more than 2 cards (every line of up to "
            f"2 cards was tried, and {samples} random lines of each length up to {max_length})"
        )
    warnings.warn(
        EquivalenceNotProven(f"no difference found, but the search was not exhaustive: {reason}"),
        stacklevel=2,
    )
    return None


def _exact_case(rule: Rule) -> bool:
    return rule.depth <= 2 and not any(isinstance(n, A.Aggregate) for n in A.walk(rule.tree))


def _first_difference(a: Rule, b: Rule, lines: Iterable[Sequence[Card]]) -> Counterexample | None:
    """The first ``(line, card)`` (lines in the given order, cards in canonical order)
    on which the two rules disagree."""
    fa, fb = a.accepts, b.accepts
    for line in lines:
        for card in DECK:
            if fa(line, card) != fb(line, card):
                return tuple(line), card
    return None


def _short_lines(n: int) -> Iterable[tuple[Card, ...]]:
    if n == 0:
        yield ()
    elif n == 1:
        for c in DECK:
            yield (c,)
    else:
        for c in DECK:
            for d in DECK:
                yield (c, d)


# -- the bounded search ----------------------------------------------------------------------


def _bounded_search(a: Rule, b: Rule, max_length: int, seed: int, samples: int) -> Counterexample | None:
    for n in range(min(max_length, 2) + 1):
        found = _first_difference(a, b, _short_lines(n))
        if found is not None:
            return found
    rng = random.Random(seed)
    fa, fb = a.accepts, b.accepts
    pool_sizes = (2, 3, 4, 8, 13, 26, 52)
    for n in range(3, max_length + 1):
        best: Counterexample | None = None
        best_key: tuple[int, ...] | None = None
        for _ in range(samples):
            # Lines drawn from a small random pool repeat ranks, suits and colours often,
            # which is what aggregate rules ("never repeat a rank") look at.
            pool = rng.sample(DECK, rng.choice(pool_sizes))
            line = [rng.choice(pool) for _ in range(n)]
            for card in DECK:
                if fa(line, card) != fb(line, card):
                    key = (*(c.index for c in line), card.index)
                    if best_key is None or key < best_key:
                        best, best_key = (tuple(line), card), key
                    break
        if best is not None:
            return best
    return None


# -- the exact search ------------------------------------------------------------------------


def _exact_search(a: Rule, b: Rule) -> tuple[Counterexample | None, bool]:
    """``(counterexample or None, proven)`` for two rules of depth <= 2 without
    aggregates."""
    for n in (0, 1):
        found = _first_difference(a, b, _short_lines(n))
        if found is not None:
            return found, True
    if a == b or a.tree == b.tree:
        return None, True
    growth = _Growth()
    for rule in (a, b):
        growth.visit(rule.tree)
    threshold = max(3, growth.threshold)
    period = growth.period
    last_length = threshold + period - 2  # lines of 2 .. last_length cards: positions 3 .. T + P - 1
    proven = last_length <= EXACT_LENGTH_LIMIT
    last_length = min(last_length, EXACT_LENGTH_LIMIT)

    atom_nodes = [*_atoms(a.tree), *_atoms(b.tree)]
    evaluate = _atom_evaluator(atom_nodes)
    search = _triple_search(a.tree, b.tree, atom_nodes)
    reads = _reads((a.tree, b.tree))
    reps = [_representatives(reads[slot]) for slot in ("card", "prev", "prev2")]
    seen: set[tuple[object, ...]] = set()
    for n in range(2, last_length + 1):
        values = evaluate(n + 1, n)
        if values in seen:
            continue
        seen.add(values)
        hit = search(*reps, *values)
        if hit is not None:
            p2, p1, card = hit
            return ((_ACE_OF_SPADES,) * (n - 2) + (p2, p1), card), True
        if not atom_nodes:
            break
    return None, proven


# Threshold and period: a bound past which every comparison is settled, and the period of
# positions after it.


@attrs.define
class _Val:
    """What :class:`_Growth` knows of a node: whether it depends on the position, its
    period in positions, and for an integer, bounds on the sizes of the coefficients of
    its polynomial in the position (``coeffs[k]`` bounds the coefficient of
    ``position ** k``) with a common denominator ``den``."""

    pos: bool
    period: int = 1
    coeffs: tuple[Fraction, ...] = (Fraction(0),)
    den: int = 1


def _combine(vals: Sequence[_Val]) -> tuple[bool, int]:
    return any(v.pos for v in vals), math.lcm(*(v.period for v in vals)) if vals else 1


def _pad_max(*cs: tuple[Fraction, ...]) -> tuple[Fraction, ...]:
    size = max(len(c) for c in cs)
    return tuple(max((c[k] for c in cs if k < len(c)), default=Fraction(0)) for k in range(size))


def _pad_add(x: tuple[Fraction, ...], y: tuple[Fraction, ...]) -> tuple[Fraction, ...]:
    size = max(len(x), len(y))
    zero = Fraction(0)
    return tuple((x[k] if k < len(x) else zero) + (y[k] if k < len(y) else zero) for k in range(size))


def _const_val(value: int) -> _Val:
    return _Val(False, 1, (Fraction(abs(value)),), 1)


class _Growth:
    """Walks rule trees and finds ``threshold`` (T) and ``period`` (P) of section 2c.

    For positions ``x`` of one residue class modulo a node's period, past the
    thresholds of its sub-expressions, an integer node equals a polynomial in ``x``
    whose coefficients depend on the cards; :class:`_Val` bounds them.  A comparison of
    two such polynomials is settled once ``x`` is past every real root of their
    difference ``d``: with ``d``'s leading coefficient at least ``1 / den`` in size,
    Cauchy's bound puts every root below ``1 + den * max |coefficient|``.
    """

    def __init__(self) -> None:
        self.threshold = 0
        self.period = 1

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
                return _Val(True, 1, (Fraction(0), Fraction(1)), 1)
            return _Val(False)
        if isinstance(node, A.Attribute):
            obj = self.visit(node.obj)
            return _Val(obj.pos, obj.period, (Fraction(13),), 1)
        if isinstance(node, A.Neg):
            return self.visit(node.operand)
        if isinstance(node, A.Arith):
            return self._arith(node)
        if isinstance(node, A.Compare):
            left, right = self.visit(node.left), self.visit(node.right)
            pos, period = _combine([left, right])
            if pos and len(left.coeffs) + len(right.coeffs) > 2:
                self.settle(
                    _Val(True, period, _pad_add(left.coeffs, right.coeffs), math.lcm(left.den, right.den))
                )
            return _Val(pos, period)
        if isinstance(node, A.Member):
            elem = self.visit(node.elem)
            self._against_items(elem, node.items)
            return _Val(elem.pos, elem.period)
        if isinstance(node, A.Is):
            subject = self.visit(node.subject)
            period = subject.period * 2 if subject.pos and node.prop in ("odd", "even") else subject.period
            return _Val(subject.pos, period)
        if isinstance(node, (A.Not, A.BoolOp)):
            kids = [self.visit(k) for k in A.children(node) if not isinstance(k, A.Range)]
            pos, period = _combine(kids)
            return _Val(pos, period)
        if isinstance(node, A.If):
            conds = [self.visit(c) for c, _ in node.branches]
            values = [self.visit(v) for _, v in node.branches] + [self.visit(node.orelse)]
            pos, period = _combine(conds + values)
            coeffs = _pad_max(*(v.coeffs for v in values))
            return _Val(pos, period, coeffs, math.lcm(*(v.den for v in values)))
        if isinstance(node, A.Call):
            return self._call(node)
        if isinstance(node, A.Index):
            index = self.visit(node.index)
            self._against_items(
                index, (A.Range(_int_const(0), _int_const(_item_count(node.items.items) - 1)),)
            )
            return _Val(index.pos, index.period, _items_size(node.items.items), 1)
        # Aggregates never reach here (the exact search refuses them); be safe anyway.
        kids = [self.visit(k) for k in A.children(node) if not isinstance(k, A.Range)]  # pragma: no cover
        pos, period = _combine(kids)  # pragma: no cover
        return _Val(pos, period, (Fraction(10**9),), 1)  # pragma: no cover

    def _against_items(self, elem: _Val, items: Sequence[A.Item]) -> None:
        """``elem`` is compared with each item (a set, a list's index range, ``next``)."""
        if elem.pos and len(elem.coeffs) > 1:
            biggest = _biggest(items)
            shifted = (elem.coeffs[0] + biggest, *elem.coeffs[1:])
            self.settle(_Val(True, elem.period, shifted, elem.den))

    def _arith(self, node: A.Arith) -> _Val:
        left, right = self.visit(node.left), self.visit(node.right)
        pos, period = _combine([left, right])
        op = node.op
        if op in ("+", "-"):
            return _Val(pos, period, _pad_add(left.coeffs, right.coeffs), math.lcm(left.den, right.den))
        if op == "*":
            size = len(left.coeffs) + len(right.coeffs) - 1
            coeffs = [Fraction(0)] * size
            for i, x in enumerate(left.coeffs):
                for j, y in enumerate(right.coeffs):
                    coeffs[i + j] += x * y
            return _Val(pos, period, tuple(coeffs), left.den * right.den)
        assert isinstance(node.right, A.Const) and type(node.right.value) is int
        n = node.right.value
        if left.pos:
            period = left.period * n
        if op == "%":
            return _Val(pos, period, (Fraction(n - 1),), 1)
        # p // n == (p - p % n) / n, where p % n is fixed on a residue class.
        shrunk = ((left.coeffs[0] + n - 1) / n, *(c / n for c in left.coeffs[1:]))
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
        if f == "next":
            lst = node.args[1]
            assert isinstance(lst, A.ListLit)
            self._against_items(args[0], lst.items)
            return _Val(pos, period, _items_size(lst.items), 1)
        if f == "abs":
            self.settle(args[0])
            return _Val(pos, period, args[0].coeffs, args[0].den)
        # min / max: settled once every pair's order is.
        for i, x in enumerate(args):
            for y in args[i + 1 :]:
                if x.pos or y.pos:
                    self.settle(_Val(True, period, _pad_add(x.coeffs, y.coeffs), math.lcm(x.den, y.den)))
        return _Val(pos, period, _pad_max(*(x.coeffs for x in args)), math.lcm(*(x.den for x in args)))


def root_bound(coeffs: Sequence[Fraction], den: int) -> int:
    """An integer ``R`` such that every real root ``x`` of every polynomial ``sum c_k x**k``
    with ``|c_k| <= coeffs[k]``, rational coefficients of denominator ``den`` and at
    least one nonzero coefficient of degree 1 or more satisfies ``|x| < R``.

    Whatever the leading degree ``m`` turns out to be, ``|c_m| >= 1 / den``; the roots are
    then below both Cauchy's bound ``1 + max |c_k / c_m|`` and Fujiwara's ``2 max |c_(m-k)
    / c_m| ** (1 / k)`` (the better one for high degrees, as in ``position * position``).

    >>> root_bound([Fraction(100), Fraction(1)], 1)   # x - 100 (or x + 100)
    102
    >>> root_bound([Fraction(100000), Fraction(0), Fraction(1)], 1)   # x**2 - 100000
    635
    """
    worst = 0
    for m in range(1, len(coeffs)):
        if coeffs[m] == 0:  # this coefficient is always zero: never the leading one
            continue
        scaled = [math.ceil(den * c) for c in coeffs[:m]]
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


def _int_const(v: int) -> A.Const:
    return A.Const(v, str(v))


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


def _biggest(items: Sequence[A.Item]) -> int:
    """The largest size of an integer item (a range's ends bound it); 0 for others."""
    sizes = [0]
    for item in items:
        ends = (item.lo, item.hi) if isinstance(item, A.Range) else (item,)
        sizes.extend(abs(e.value) for e in ends if type(e.value) is int)
    return max(sizes)


def _items_size(items: Sequence[A.Item]) -> tuple[Fraction, ...]:
    return (Fraction(_biggest(items)),)


# Position atoms: the largest sub-expressions that depend on the position (or on has) and
# on no card.  A rule's verdict on a line of 2 or more cards is a function of the last two
# cards, the judged card and the atoms' values.

_CARD_SLOTS = {"card": "card", "prev": "_p1", "prev2": "_p2"}


def _atoms(tree: A.Expr) -> list[A.Expr]:
    flags: dict[int, tuple[bool, bool]] = {}  # id -> (uses the position, uses a card)

    def scan(node: A.Expr | A.Range) -> tuple[bool, bool]:
        if isinstance(node, A.Call) and node.func == "has":
            result = (True, False)
        elif isinstance(node, A.Name):
            result = (node.name == "position", node.name != "position")
        else:
            pos = cards = False
            for kid in A.children(node):
                p, c = scan(kid)
                pos, cards = pos or p, cards or c
            result = (pos, cards)
        flags[id(node)] = result
        return result

    scan(tree)
    out: list[A.Expr] = []
    stack: list[A.Expr | A.Range] = [tree]
    while stack:
        node = stack.pop()
        pos, cards = flags[id(node)]
        if not pos:
            continue
        if not cards and not isinstance(node, A.Range):
            out.append(node)
            continue
        stack.extend(reversed(A.children(node)))
    return out


def _atom_env() -> Env:
    variables = {"position": Variable(Type.INT, "_pos")}
    for n in range(1, 10):
        variables["prev" if n == 1 else f"prev{n}"] = Variable(Type.CARD, "None", True)
    return Env(variables, line="()", length="_n")


def _atom_evaluator(atoms: Sequence[A.Expr]) -> Callable[[int, int], tuple[object, ...]]:
    """One generated function of ``(position, length)`` returning every atom's value
    (``None`` for *nothing*)."""
    env = _atom_env()
    statements: list[str] = []
    codes: list[str] = []
    namespace: dict[str, object] = {}
    for i, atom in enumerate(atoms):
        gen = CodeGen(check(atom, env, want=None), prefix=f"x{i}_")
        codes.append(gen.expr(atom))
        statements.extend(gen.statements)
        namespace.update(gen.globals)
    body = [*statements, f"return ({', '.join(codes)},)" if codes else "return ()"]
    fn, _ = build_function("atoms", ("_pos", "_n"), body, namespace)
    return fn


def _substitute(node: A.Expr, names: dict[int, str]) -> A.Expr:
    """``node`` with each atom (by ``id``) replaced by a :class:`~cardrules.lang.ast.Name`."""
    if id(node) in names:
        return A.Name(names[id(node)])
    if isinstance(node, (A.Const, A.Name)):
        return node

    def r(n: A.Expr) -> A.Expr:
        return _substitute(n, names)

    if isinstance(node, A.Attribute):
        return A.Attribute(r(node.obj), node.attr)
    if isinstance(node, A.Neg):
        return A.Neg(r(node.operand))
    if isinstance(node, A.Arith):
        return A.Arith(node.op, r(node.left), r(node.right))
    if isinstance(node, A.Compare):
        return A.Compare(node.op, r(node.left), r(node.right))
    if isinstance(node, A.Member):
        return A.Member(r(node.elem), node.items, node.negated)
    if isinstance(node, A.Is):
        return A.Is(r(node.subject), node.prop, node.negated)
    if isinstance(node, A.Not):
        return A.Not(r(node.operand))
    if isinstance(node, A.BoolOp):
        return A.BoolOp(node.op, tuple(r(o) for o in node.operands))
    if isinstance(node, A.If):
        return A.If(tuple((r(c), r(v)) for c, v in node.branches), r(node.orelse))
    if isinstance(node, A.Call):
        return A.Call(node.func, tuple(a if isinstance(a, A.ListLit) else r(a) for a in node.args))
    if isinstance(node, A.Index):
        return A.Index(node.items, r(node.index))
    raise TypeError(f"unexpected node {node!r}")  # pragma: no cover - aggregates are refused earlier


# Searching the card triples of one specialisation.

_TRIPLE_VARIABLES = {
    "card": Variable(Type.CARD, "card"),
    "prev": Variable(Type.CARD, "_p1"),
    "prev2": Variable(Type.CARD, "_p2"),
}


def _reads(trees: Iterable[A.Expr]) -> dict[str, set[str]]:
    """Per card slot (``card``, ``prev``, ``prev2``), the attributes read: ``rank``,
    ``suit``, ``color``; ``rank`` and ``suit`` for a card used whole."""
    reads: dict[str, set[str]] = {slot: set() for slot in _CARD_SLOTS}
    for tree in trees:
        consumed: set[int] = set()
        for node in A.walk(tree):
            if isinstance(node, A.Attribute) and isinstance(node.obj, A.Name) and node.obj.name in reads:
                reads[node.obj.name].add(node.attr)
                consumed.add(id(node.obj))
            elif isinstance(node, A.Is) and isinstance(node.subject, A.Name) and node.subject.name in reads:
                prop = node.prop
                what = "rank" if prop in _RANK_PROPS else "color" if prop in _COLOR_PROPS else "suit"
                reads[node.subject.name].add(what)
                consumed.add(id(node.subject))
            elif isinstance(node, A.Name) and node.name in reads and id(node) not in consumed:
                reads[node.name].update(("rank", "suit"))
    return reads


def _representatives(read: set[str]) -> tuple[Card, ...]:
    """The first card, in canonical order, of each class of cards that agree on ``read``."""
    seen: dict[tuple[object, ...], Card] = {}
    for c in DECK:
        key = (
            c.rank if "rank" in read else None,
            c.suit if "suit" in read else (c.color if "color" in read else None),
        )
        seen.setdefault(key, c)
    return tuple(seen.values())


TripleSearch = Callable[..., "tuple[Card, Card, Card] | None"]


def _triple_search(a: A.Expr, b: A.Expr, atoms: Sequence[A.Expr]) -> TripleSearch:
    """One generated function ``search(C, P1, P2, *atom_values)`` returning the first
    ``(prev2, prev, card)`` (cards from ``C``, ``P1``, ``P2``, in that nesting) on which
    the two rules disagree on a line of 2 cards or more, or ``None``."""
    env_atoms = _atom_env()
    names = {id(atom): f"_x{i}" for i, atom in enumerate(atoms)}
    variables = dict(_TRIPLE_VARIABLES)
    for i, atom in enumerate(atoms):
        checked = check(atom, env_atoms, want=None)
        variables[f"_x{i}"] = Variable(checked.type_of(atom), f"_x{i}", checked.may_be_nothing(atom))
    env = Env(variables)
    namespace: dict[str, Any] = {}
    codes = []
    for prefix, tree in (("a", a), ("b", b)):
        tree = _substitute(tree, names)
        gen = CodeGen(check(tree, env), prefix=prefix)
        codes.append(gen.cond(tree))
        assert not gen.statements  # no aggregates here
        namespace.update(gen.globals)
    body = [
        "for _p2 in P2:",
        "    for _p1 in P1:",
        "        for card in C:",
        f"            if {codes[0]} != {codes[1]}:",
        "                return (_p2, _p1, card)",
        "return None",
    ]
    search, _ = build_function("search", ("C", "P1", "P2", *names.values()), body, namespace)
    return search

"""Rule tools: what a rule looks at (:func:`profile`) and whether two rules are the same
rule (:func:`equivalent`).

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
  integer; ``P`` is the least common multiple over all paths), a polynomial in
  ``position`` whose coefficients depend on the cards.  :class:`_Growth` bounds each
  coefficient by an interval computed from the literals (a rank is 1 to 13, ``x % n``
  is 0 to ``n - 1``, ``x // n`` is ``(x - x % n) / n``, ...), so past a threshold ``T``
  (:func:`root_bound`: the better of Cauchy's and Fujiwara's root bounds) every
  comparison, ``abs``, ``min``/``max``, set membership and list index is settled;
* so from ``T`` on, positions repeat with period ``P``, and searching positions
  ``1 .. T + P - 1`` (lines of ``0 .. T + P - 2`` cards) decides the question.  The
  line before its last two cards does not matter; the least such line is all ``AS``.

Within that range the search is made cheap in four ways:

1. The parts of each rule that depend on the position and on no card (*position atoms*,
   such as ``position % 3`` or ``has(prev2)``) are evaluated for each length; a length
   whose atoms repeat an earlier length's values behaves like it and is skipped.
2. Both rules are compiled together, once, into one generated Python function that
   loops over the second-to-last card, the last card and the judged card, with the
   atoms as parameters.  Each slot runs only over one representative per class of what
   the two rules read there (2 colours, 4 suits, 13 ranks, 26 rank-and-colours, or all
   52 cards when a whole card is compared), the first of its class in canonical order,
   so the first difference found is the least one.
3. Inside that function, the parts that do not read the judged card are computed once
   per pair of line cards; the loop over the judged card depends on nothing else, so a
   combination of their values already seen without a difference (at this length or an
   earlier one) is skipped.
4. When whole cards are compared only with ``==``/``!=`` between slots, a list of a few
   thousand triples showing every combination of attribute classes and equalities is
   tried first; the full walk over 52 cards runs only at the length that differs.

Otherwise (aggregates, or depth above 2), every line of 0, 1 and 2 cards is tried with
every card, then a seeded sample of lines of each length up to ``max_length``; finding
nothing there returns ``None`` with an :class:`EquivalenceNotProven` warning.
"""

from __future__ import annotations

import itertools
import math
import random
import warnings
from collections.abc import Callable, Iterable, Sequence
from fractions import Fraction
from typing import Any, Final

import attrs

from ..cards import Card, canonical, standard_deck
from ..errors import CardRulesError
from . import ast as A
from .ast import Type
from .check import Env, Variable, check
from .codegen import CodeGen, build_function
from .errors import depth_guard
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


@depth_guard(CardRulesError)
def profile(rule: Rule, *, lines: int = 2000, seed: int = 0) -> Profile:
    """The :class:`Profile` of a rule (``lines`` and ``seed`` go to
    :func:`~cardrules.lang.acceptance`).

    >>> from cardrules.lang import compile_rule
    >>> p = profile(compile_rule("if prev is odd then card is black else card.rank > 10"))
    >>> p.depth, p.uses_position, sorted(p.attributes), p.branches, p.size
    (1, False, ['color', 'rank'], 1, 9)
    """
    _need_rule(rule)
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


@depth_guard(CardRulesError)
def equivalent(
    a: Rule,
    b: Rule,
    *,
    max_length: int = 10,
    seed: int = 0,
    samples: int = SAMPLES_PER_LENGTH,
    in_play: bool = False,
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
    When a length's samples tell them apart, the first lines of that length in canonical
    order (up to :data:`CANONICAL_SCAN_LINES` of them) are tried before the least sample
    is kept, so a difference that shows early is given as the canonical first pair
    (``prev3.rank == 3`` against ``true``: ``AS AS AS`` then ``AS``).
    The ``start:`` parts are not compared.

    With ``in_play=True`` only the main lines the rules themselves build count: a
    starter that ``accepts_start`` takes (the starters are compared first: a difference
    there is ``((), card)``), then each card the rule accepts after the cards before it.
    If the rules agree on every such line they build the same lines, so the question is
    symmetric.  The answer has the same shape: the counterexample with the fewest line
    cards, the first in canonical order among those; exact in the same cases (the built
    lines are followed as sets of their last two cards, which repeat), else a bounded
    search (every built line of up to 2 cards, then ``samples`` random built lines of
    up to ``max_length`` cards) that warns when it finds nothing.

    >>> from cardrules.lang import compile_rule
    >>> equivalent(compile_rule("position is even"), compile_rule("position % 4 in {0, 2}")) is None
    True
    >>> line, card = equivalent(compile_rule("position < 40"), compile_rule("position <= 40"))
    >>> len(line), str(card)
    (39, 'AS')
    """
    _need_rule(a)
    _need_rule(b)
    if in_play:
        from .inplay import in_play_search

        found, proven = in_play_search(a, b, max_length=max_length, seed=seed, samples=samples)
        if found is not None or proven:
            return found
        reason = (
            "a rule uses count/any/all or looks back more than 2 cards, or its literals make far "
            f"positions matter (every built line of up to 2 cards was tried, and {samples} random "
            f"built lines of up to {max_length} cards)"
        )
    elif _exact_case(a) and _exact_case(b):
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
            "a rule uses count/any/all/sum/min/max over a window, the square root of the position, "
            "or looks back more than 2 cards (every line of up to "
            f"2 cards was tried, and {samples} random lines of each length up to {max_length})"
        )
    warnings.warn(
        EquivalenceNotProven(f"no difference found, but the search was not exhaustive: {reason}"),
        stacklevel=3,  # the caller of equivalent (through its depth guard)
    )
    return None


def _need_rule(rule: object) -> None:
    if not isinstance(rule, Rule):
        raise TypeError(f"expected a compiled Rule (from compile_rule), not {type(rule).__name__}")


def _exact_case(rule: Rule) -> bool:
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
            return _earlier_in_canonical_order(a, b, best)
    return None


#: Lines of a length tried in canonical order before a sampled answer is kept as it is.
CANONICAL_SCAN_LINES: Final = 3000  # 52 * 52 + 296: past the first card's second value


def _earlier_in_canonical_order(a: Rule, b: Rule, found: Counterexample) -> Counterexample:
    """The first pair of ``found``'s length in canonical order (ties go to the first in
    canonical order), when it comes within :data:`CANONICAL_SCAN_LINES` lines of the
    start; else the sampled ``found``, the least of the samples."""
    line, _ = found
    stop = tuple(c.index for c in line)
    lines = itertools.islice(itertools.product(DECK, repeat=len(line)), CANONICAL_SCAN_LINES)
    for candidate in lines:
        if tuple(c.index for c in candidate) > stop:
            break
        first = _first_difference(a, b, (candidate,))
        if first is not None:
            return first
    return found


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
    search, differ = _triple_search(a.tree, b.tree, atom_nodes)
    uses = _slot_uses((a.tree, b.tree))
    reps = [_representatives(uses.reads(slot)) for slot in ("card", "prev", "prev2")]
    # Whole cards compared only with == / != : look for a difference on a few thousand
    # telling triples first, and walk every card only at the length that has one.
    reduced = _reduced_triples(uses) if uses.equal and not uses.opaque else None
    if reduced is not None and len(reduced) * 4 > math.prod(map(len, reps)):
        reduced = None  # not much smaller than the full walk (fine classes in every slot)
    seen: set[tuple[object, ...]] = set()
    inner_seen: set[tuple[object, ...]] = set()
    for n in range(2, last_length + 1):
        values = evaluate(n + 1, n)
        if values in seen:
            continue
        seen.add(values)
        if reduced is not None and not differ(reduced, *values):
            if not atom_nodes:
                break
            continue
        hit = search(*reps, inner_seen, *values)
        if hit is not None:
            p2, p1, card = hit
            return ((_ACE_OF_SPADES,) * (n - 2) + (p2, p1), card), True
        if not atom_nodes:
            break
    return None, proven


# Threshold and period: a bound past which every comparison is settled, and the period of
# positions after it.


Interval = tuple[Fraction, Fraction]
_ZERO: Interval = (Fraction(0), Fraction(0))


@attrs.define
class _Val:
    """What :class:`_Growth` knows of a node: whether it depends on the position, its
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


class _Growth:
    """Walks rule trees and finds ``threshold`` (T) and ``period`` (P) of section 2c.

    For positions ``x`` of one residue class modulo a node's period, past the
    thresholds of its sub-expressions, an integer node equals a polynomial in ``x``
    whose coefficients depend on the cards; :class:`_Val` holds an interval for each.
    A comparison of two such polynomials is settled once ``x`` is past every real root
    of their difference (:func:`root_bound`).  Past that point ``abs``, ``min`` and
    ``max`` are one of their arguments (which one is known when the sign of the
    difference's leading coefficient is).
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

    def choose(node: A.Expr | A.Range) -> bool | None:
        pos, cards = flags[id(node)]
        if not pos:
            return False
        return True if not cards else None

    return _largest_parts(tree, choose)


def _largest_parts(tree: A.Expr, choose: Callable[[A.Expr | A.Range], bool | None]) -> list[A.Expr]:
    """The largest sub-expressions of ``tree`` that ``choose`` takes, left to right:
    ``choose(node)`` says ``True`` (take it whole), ``False`` (leave it and everything
    in it) or ``None`` (look at its children)."""
    out: list[A.Expr] = []
    stack: list[A.Expr | A.Range] = [tree]
    while stack:
        node = stack.pop()
        verdict = choose(node)
        if verdict is None:
            stack.extend(reversed(A.children(node)))
        elif verdict and not isinstance(node, A.Range):  # a range is never a part
            out.append(node)
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


@attrs.define
class _SlotUses:
    """How two rules use each card slot (``card``, ``prev``, ``prev2``): the attributes
    they read (:attr:`attributes`), the slots compared as whole cards with ``==``/``!=``
    against another slot (:attr:`equal`), and slots used whole in any other way
    (:attr:`opaque`, as in ``(if p then card else prev).rank``)."""

    attributes: dict[str, set[str]]
    equal: set[str]
    opaque: set[str]

    def reads(self, slot: str) -> set[str]:
        """What tells two cards apart in this slot (a whole card: rank and suit)."""
        if slot in self.equal or slot in self.opaque:
            return {"rank", "suit"}
        return self.attributes[slot]


def _slot_uses(trees: Iterable[A.Expr]) -> _SlotUses:
    slots = _CARD_SLOTS
    uses = _SlotUses({slot: set() for slot in slots}, set(), set())
    for tree in trees:
        consumed: set[int] = set()
        for node in A.walk(tree):
            if isinstance(node, A.Call) and node.func == "has":
                consumed.update(id(arg) for arg in node.args)  # has(prev2) reads no card
            elif isinstance(node, A.Attribute) and isinstance(node.obj, A.Name) and node.obj.name in slots:
                uses.attributes[node.obj.name].add(node.attr)
                consumed.add(id(node.obj))
            elif isinstance(node, A.Is) and isinstance(node.subject, A.Name) and node.subject.name in slots:
                prop = node.prop
                what = "rank" if prop in _RANK_PROPS else "color" if prop in _COLOR_PROPS else "suit"
                uses.attributes[node.subject.name].add(what)
                consumed.add(id(node.subject))
            elif (
                isinstance(node, A.Compare)
                and node.op in ("==", "!=")
                and isinstance(node.left, A.Name)
                and isinstance(node.right, A.Name)
                and node.left.name in slots
                and node.right.name in slots
            ):
                uses.equal.update((node.left.name, node.right.name))
                consumed.update((id(node.left), id(node.right)))
            elif isinstance(node, A.Name) and node.name in slots and id(node) not in consumed:
                uses.opaque.add(node.name)
    return uses


def _classes(read: set[str]) -> list[tuple[Card, ...]]:
    """The cards grouped by what ``read`` sees, each group in canonical order."""
    groups: dict[tuple[object, ...], list[Card]] = {}
    for c in DECK:
        key = (
            c.rank if "rank" in read else None,
            c.suit if "suit" in read else (c.color if "color" in read else None),
        )
        groups.setdefault(key, []).append(c)
    return [tuple(g) for g in groups.values()]


def _set_partitions(items: Sequence[str]) -> Iterable[list[list[str]]]:
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for partition in _set_partitions(rest):
        yield [[first], *partition]
        for i in range(len(partition)):
            yield [*partition[:i], [first, *partition[i]], *partition[i + 1 :]]


def _distinct(groups: Sequence[tuple[Card, ...]], used: tuple[Card, ...] = ()) -> tuple[Card, ...] | None:
    """One card from each group, all different (``None`` if impossible)."""
    if not groups:
        return used
    for c in groups[0]:
        if c not in used:
            found = _distinct(groups[1:], (*used, c))
            if found is not None:
                return found
    return None


def _reduced_triples(uses: _SlotUses) -> list[tuple[Card, Card, Card]]:
    """``(prev2, prev, card)`` triples that show every behaviour of two rules whose only
    whole-card use is ``==``/``!=`` between slots: a rule's verdict depends on each
    slot's class of read attributes and on which compared slots hold the same card, and
    every realisable combination of those appears here (a few thousand at most, against
    52 ** 3 triples of whole cards)."""
    order = ("prev2", "prev", "card")
    compared = [s for s in order if s in uses.equal]
    triples: set[tuple[Card, Card, Card]] = set()
    for partition in _set_partitions(compared):
        blocks = [*partition, *([s] for s in order if s not in uses.equal)]
        per_block = [_classes(set().union(*(uses.attributes[s] for s in block))) for block in blocks]
        for combo in itertools.product(*per_block):
            chosen = _distinct(combo[: len(partition)])  # different blocks: different cards
            if chosen is None:
                continue
            cards = [*chosen, *(group[0] for group in combo[len(partition) :])]
            assign = {s: c for block, c in zip(blocks, cards, strict=True) for s in block}
            triples.add((assign["prev2"], assign["prev"], assign["card"]))
    return sorted(triples, key=lambda t: (t[0].index, t[1].index, t[2].index))


def _representatives(read: set[str]) -> tuple[Card, ...]:
    """The first card, in canonical order, of each class of cards that agree on ``read``."""
    return tuple(group[0] for group in _classes(read))


TripleSearch = Callable[..., "tuple[Card, Card, Card] | None"]
TripleTest = Callable[..., bool]


def _card_free_parts(tree: A.Expr) -> list[A.Expr]:
    """The largest sub-expressions of ``tree`` that do not read the judged card (and are
    not constants or lists), left to right."""
    mentions: dict[int, bool] = {}

    def scan(node: A.Expr | A.Range) -> bool:
        found = isinstance(node, A.Name) and node.name == "card"
        for kid in A.children(node):
            found = scan(kid) or found
        mentions[id(node)] = found
        return found

    scan(tree)

    def choose(node: A.Expr | A.Range) -> bool | None:
        if isinstance(node, (A.Const, A.Range, A.ListLit)):
            return False
        return True if not mentions[id(node)] else None

    return _largest_parts(tree, choose)


def _triple_search(a: A.Expr, b: A.Expr, atoms: Sequence[A.Expr]) -> tuple[TripleSearch, TripleTest]:
    """Two generated functions for two rules on lines of 2 cards or more.

    ``search(C, P1, P2, seen, *atom_values)`` returns the first ``(prev2, prev, card)``
    (cards from ``C``, ``P1``, ``P2``, in that nesting) on which the rules disagree, or
    ``None``.  For each ``(prev2, prev)`` it first computes the parts of both rules that
    do not read the judged card; the loop over the judged card depends on nothing else,
    so a combination of those values already in ``seen`` (a set kept across calls, of
    combinations that showed no difference) is skipped.

    ``differ(triples, *atom_values)`` says whether the rules disagree on one of the
    listed ``(prev2, prev, card)`` triples."""
    env_atoms = _atom_env()
    names = {id(atom): f"_x{i}" for i, atom in enumerate(atoms)}
    variables = dict(_TRIPLE_VARIABLES)
    for i, atom in enumerate(atoms):
        checked = check(atom, env_atoms, want=None)
        variables[f"_x{i}"] = Variable(checked.type_of(atom), f"_x{i}", checked.may_be_nothing(atom))
    env = Env(variables)
    namespace: dict[str, Any] = {}
    codes: list[str] = []
    inner_codes: list[str] = []
    hoisted: dict[A.Expr, str] = {}  # card-free part -> local name
    hoisted_code: list[str] = []
    inner_vars: dict[str, Variable] = {"card": Variable(Type.CARD, "card")}
    for prefix, tree in (("a", a), ("b", b)):
        tree = _substitute(tree, names)
        checked = check(tree, env)
        gen = CodeGen(checked, prefix=prefix)
        codes.append(gen.cond(tree))
        local: dict[int, str] = {}
        for part in _card_free_parts(tree):
            name = hoisted.get(part)
            if name is None:
                name = hoisted[part] = f"_h{len(hoisted)}"
                hoisted_code.append(f"{name} = {gen.expr(part)}")
                inner_vars[name] = Variable(checked.type_of(part), name, checked.may_be_nothing(part))
            local[id(part)] = name
        inner = _substitute(tree, local)
        inner_gen = CodeGen(check(inner, Env(inner_vars)), prefix=f"{prefix}i")
        inner_codes.append(inner_gen.cond(inner))
        assert not gen.statements and not inner_gen.statements  # no aggregates here
        namespace.update(gen.globals)
        namespace.update(inner_gen.globals)
    key = f"({', '.join(hoisted.values())},)" if hoisted else "()"
    body = [
        "for _p2 in P2:",
        "    for _p1 in P1:",
        *(f"        {line}" for line in hoisted_code),
        f"        _key = {key}",
        "        if _key in seen:",
        "            continue",
        "        for card in C:",
        f"            if {inner_codes[0]} != {inner_codes[1]}:",
        "                return (_p2, _p1, card)",
        "        seen.add(_key)",
        "return None",
    ]
    search, _ = build_function("search", ("C", "P1", "P2", "seen", *names.values()), body, namespace)
    listed = [
        "for _p2, _p1, card in T:",
        f"    if {codes[0]} != {codes[1]}:",
        "        return True",
        "return False",
    ]
    differ, _ = build_function("differ", ("T", *names.values()), listed, namespace)
    return search, differ

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
  ``position`` whose coefficients depend on the cards.  ``cardrules.lang.periods``
  bounds each coefficient by an interval computed from the literals (a rank is 1 to 13,
  ``x % n`` is 0 to ``n - 1``, ``x // n`` is ``(x - x % n) / n``, ...), so past a
  threshold ``T`` (:func:`root_bound`: the better of Cauchy's and Fujiwara's root
  bounds) every comparison, ``abs``, ``min``/``max``, set membership and list index
  is settled;
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
from typing import Any, Final

import attrs

from ..cards import Card
from ..errors import CardRulesError
from . import ast as A
from .ast import Type
from .atoms import atom_env, atom_evaluator, largest_parts, position_atoms, substitute
from .cardclasses import (
    DECK,
    Counterexample,
    reduced_triples,
    representatives,
    slot_uses,
)
from .check import Env, Variable, check
from .codegen import CodeGen, build_function
from .errors import depth_guard
from .inplay import in_play_search
from .periods import EXACT_LENGTH_LIMIT, Growth, exact_case, root_bound
from .rules import Rule
from .tools import acceptance
from .vocabulary import STANDARD, Vocabulary

__all__ = ["EquivalenceNotProven", "Profile", "equivalent", "profile", "root_bound"]

_ACE_OF_SPADES = DECK[0]

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


def _rule_env(vocabulary: Vocabulary = STANDARD) -> Env:
    variables = {"card": Variable(Type.CARD, "card"), "position": Variable(Type.INT, "_pos")}
    for n in range(1, 10):
        variables["prev" if n == 1 else f"prev{n}"] = Variable(Type.CARD, f"_p{n}", True)
    return Env(variables, line="line", length="_n", vocabulary=vocabulary)


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
    vocabulary = rule.vocabulary
    checked = check(tree, _rule_env(vocabulary), rule.source)
    attributes: set[str] = set()
    branches = size = 0
    uses_position = uses_line = False
    for node in A.walk(tree):
        size += 1
        if isinstance(node, A.Attribute):
            attributes.add(node.attr)
        elif isinstance(node, A.Is):
            # What a property reads of a card is its word's (red and black: the
            # colour, of a card or of a suit).
            subject = checked.type_of(node.subject)
            word = vocabulary.lookup("property", node.prop)
            reads = word.reads if word is not None else frozenset()
            if subject is Type.CARD:
                attributes.update(reads)
            elif subject is Type.SUIT and "color" in reads:
                attributes.add("color")
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
        found, proven = in_play_search(a, b, max_length=max_length, seed=seed, samples=samples)
        if found is not None or proven:
            return found
        reason = (
            "a rule uses count/any/all or looks back more than 2 cards, or its literals make far "
            f"positions matter (every built line of up to 2 cards was tried, and {samples} random "
            f"built lines of up to {max_length} cards)"
        )
    elif exact_case(a) and exact_case(b) and a.vocabulary.merged(b.vocabulary) is not None:
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
        if a.vocabulary.merged(b.vocabulary) is None:
            reason = (
                f"the rules' vocabularies ({a.vocabulary.name}, {b.vocabulary.name}) give one word two "
                f"meanings, so they are compared by their verdicts alone (every line of up to 2 cards "
                f"was tried, and {samples} random lines of each length up to {max_length})"
            )
        else:
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
    vocabulary = a.vocabulary.merged(b.vocabulary)
    assert vocabulary is not None  # checked by the caller
    growth = Growth(vocabulary)
    for rule in (a, b):
        growth.visit(rule.tree)
    threshold = max(3, growth.threshold)
    period = growth.period
    last_length = threshold + period - 2  # lines of 2 .. last_length cards: positions 3 .. T + P - 1
    proven = last_length <= EXACT_LENGTH_LIMIT
    last_length = min(last_length, EXACT_LENGTH_LIMIT)

    atom_nodes = [*position_atoms(a.tree), *position_atoms(b.tree)]
    evaluate = atom_evaluator(atom_nodes, vocabulary)
    search, differ = _triple_search(a.tree, b.tree, atom_nodes, vocabulary)
    uses = slot_uses((a.tree, b.tree), vocabulary)
    reps = [representatives(uses.reads(slot)) for slot in ("card", "prev", "prev2")]
    # Whole cards compared only with == / != : look for a difference on a few thousand
    # telling triples first, and walk every card only at the length that has one.
    reduced = reduced_triples(uses) if uses.equal and not uses.opaque else None
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


# Searching the card triples of one specialisation.

_TRIPLE_VARIABLES = {
    "card": Variable(Type.CARD, "card"),
    "prev": Variable(Type.CARD, "_p1"),
    "prev2": Variable(Type.CARD, "_p2"),
}


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

    return largest_parts(tree, choose)


def _triple_search(
    a: A.Expr, b: A.Expr, atoms: Sequence[A.Expr], vocabulary: Vocabulary = STANDARD
) -> tuple[TripleSearch, TripleTest]:
    """Two generated functions for two rules on lines of 2 cards or more.

    ``search(C, P1, P2, seen, *atom_values)`` returns the first ``(prev2, prev, card)``
    (cards from ``C``, ``P1``, ``P2``, in that nesting) on which the rules disagree, or
    ``None``.  For each ``(prev2, prev)`` it first computes the parts of both rules that
    do not read the judged card; the loop over the judged card depends on nothing else,
    so a combination of those values already in ``seen`` (a set kept across calls, of
    combinations that showed no difference) is skipped.

    ``differ(triples, *atom_values)`` says whether the rules disagree on one of the
    listed ``(prev2, prev, card)`` triples."""
    env_atoms = atom_env(vocabulary)
    names = {id(atom): f"_x{i}" for i, atom in enumerate(atoms)}
    variables = dict(_TRIPLE_VARIABLES)
    for i, atom in enumerate(atoms):
        checked = check(atom, env_atoms, want=None)
        variables[f"_x{i}"] = Variable(checked.type_of(atom), f"_x{i}", checked.may_be_nothing(atom))
    env = Env(variables, vocabulary=vocabulary)
    namespace: dict[str, Any] = {}
    codes: list[str] = []
    inner_codes: list[str] = []
    hoisted: dict[A.Expr, str] = {}  # card-free part -> local name
    hoisted_code: list[str] = []
    inner_vars: dict[str, Variable] = {"card": Variable(Type.CARD, "card")}
    for prefix, tree in (("a", a), ("b", b)):
        tree = substitute(tree, names)
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
        inner = substitute(tree, local)
        inner_gen = CodeGen(check(inner, Env(inner_vars, vocabulary=vocabulary)), prefix=f"{prefix}i")
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

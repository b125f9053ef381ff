"""``equivalent(a, b, in_play=True)``: do two rules judge alike on the lines they build?

Only main lines the rules build count: a starter that ``accepts_start`` takes, then each
card the rule accepts after the cards before it.  The starters are compared first (a
difference is ``((), card)``).

**Exact case** (neither rule uses aggregates, both look back at most 2 cards): a rule's
verdict depends on the last two cards, the judged card and the position only, and the
position matters only through the values of the rules' position atoms (past a threshold
``T`` periodically, with period ``P``; see :mod:`cardrules.lang.periods`).  So the built
lines of each length are followed as the **set of their last two cards** (cards grouped
into classes of what the rules read, each class walked through its first card), with
the least built line reaching each pair as its witness.  A length whose set and position
atoms repeat an earlier length's is not judged again (its moves are replayed), and once
past ``T`` a set met again at the same position modulo ``P`` means nothing new can
happen: the rules are equivalent.  Witnesses are found in increasing order (states are
expanded in the order of their witnesses, cards in canonical order), so the first
difference found is the least one of its length.

**Otherwise** every built line of up to 2 cards is tried, then random built lines (each
card drawn among the accepted ones, often from a small pool so that ranks and suits
repeat) up to ``max_length`` cards; the least difference found is kept.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..cards import Card
from .atoms import atom_evaluator, position_atoms
from .cardclasses import DECK, Counterexample, card_classes, slot_uses
from .periods import EXACT_LENGTH_LIMIT, Growth, exact_case
from .rules import Rule
from .vocabulary import Vocabulary

__all__ = ["in_play_search"]

_AS = DECK[0]

# A witness is a linked list (previous witness, card), read back into a line when needed.
Witness = tuple[object, Card] | None


def _line(w: Witness) -> tuple[Card, ...]:
    out: list[Card] = []
    while w is not None:
        w, card = w  # type: ignore[assignment]
        out.append(card)
    return tuple(reversed(out))


def in_play_search(
    a: Rule, b: Rule, *, max_length: int, seed: int, samples: int, starts: bool = True
) -> tuple[Counterexample | None, bool]:
    """``(counterexample or None, proven)``.  With ``starts=False`` the ``start:`` parts
    are not compared: only the lines ``a`` builds count, from every starter ``a`` takes
    (how a guess is judged against a secret rule, ``a``)."""
    if starts:
        for c in DECK:
            if a.accepts_start(c) != b.accepts_start(c):
                return ((), c), True
    starters = [c for c in DECK if a.accepts_start(c)]
    if not starters:
        return None, True
    vocabulary = a.vocabulary.merged(b.vocabulary)
    if vocabulary is not None and exact_case(a) and exact_case(b):
        return _exact(a, b, starters, vocabulary)
    return _bounded(a, b, starters, max_length, seed, samples), False


def _exact(
    a: Rule, b: Rule, starters: Sequence[Card], vocabulary: Vocabulary
) -> tuple[Counterexample | None, bool]:
    uses = slot_uses((a.tree, b.tree), vocabulary)
    read = uses.reads("card") | uses.reads("prev") | uses.reads("prev2")
    classes = card_classes(read)
    reps = [g[0] for g in classes]
    cls = {c: k for k, g in enumerate(classes) for c in g}
    growth = Growth(vocabulary)
    for rule in (a, b):
        growth.visit(rule.tree)
    threshold = max(3, growth.threshold)
    period = growth.period
    evaluate = atom_evaluator([*position_atoms(a.tree), *position_atoms(b.tree)], vocabulary)
    fa, fb = a.accepts, b.accepts

    # Lines of one card: the least starter of each class.
    states: dict[tuple[int, ...], Witness] = {}
    for c in starters:
        key = (cls[c],)
        if key not in states:
            states[key] = (None, c)
    memo: dict[tuple[object, ...], dict[tuple[int, ...], list[tuple[int, tuple[int, ...]]]]] = {}
    settled: set[tuple[object, ...]] = set()
    n = 1
    while states:
        if n > EXACT_LENGTH_LIMIT:
            return None, False
        frozen = frozenset(states)
        values: tuple[object, ...] = evaluate(n + 1, n) if n >= 3 else (n,)
        state_key: tuple[object, ...] = (frozen, values)
        if n >= threshold:
            cycle = (frozen, n % period)
            if cycle in settled:
                return None, True
            settled.add(cycle)
        moves = memo.get(state_key)
        if moves is None:
            moves = {}
            for state, witness in states.items():
                line = tuple(reps[k] for k in state)
                if n > 2:
                    line = (_AS,) * (n - 2) + line
                out: list[tuple[int, tuple[int, ...]]] = []
                for k, card in enumerate(reps):
                    ya = fa(line, card)
                    if ya != fb(line, card):
                        return (_line(witness), card), True
                    if ya:
                        out.append((k, (state[-1], k)))
                moves[state] = out
            memo[state_key] = moves
        new: dict[tuple[int, ...], Witness] = {}
        for state, witness in states.items():
            for k, nxt in moves[state]:
                if nxt not in new:
                    new[nxt] = (witness, reps[k])
        states = new
        n += 1
    return None, True


def _bounded(
    a: Rule, b: Rule, starters: Sequence[Card], max_length: int, seed: int, samples: int
) -> Counterexample | None:
    fa, fb = a.accepts, b.accepts

    def first_difference(line: tuple[Card, ...]) -> Card | None:
        for c in DECK:
            if fa(line, c) != fb(line, c):
                return c
        return None

    # Every built line of 1 and 2 cards, in canonical order.
    for s in starters:
        c = first_difference((s,))
        if c is not None:
            return (s,), c
    if max_length >= 2:
        for s in starters:
            for d in DECK:
                if fa((s,), d):
                    c = first_difference((s, d))
                    if c is not None:
                        return (s, d), c
    rng = random.Random(seed)
    best: Counterexample | None = None
    best_key: tuple[int, ...] = ()
    pool_sizes = (2, 3, 4, 8, 13, 26, 52)
    for _ in range(samples):
        pool = set(rng.sample(DECK, rng.choice(pool_sizes)))
        line = [rng.choice(starters)]
        limit = max_length if best is None else len(best[0])
        while len(line) < limit:
            ok = [c for c in DECK if fa(line, c)]
            if not ok:
                break
            near = [c for c in ok if c in pool]
            line.append(rng.choice(near if near and rng.random() < 0.8 else ok))
            t = tuple(line)
            c = first_difference(t)
            if c is not None:
                key = (len(t), *(x.index for x in t), c.index)
                if best is None or key < best_key:
                    best, best_key = (t, c), key
                break
    return best

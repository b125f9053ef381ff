"""Finding rules from observations: :class:`Observation` and :func:`induce`.

The search runs over rules of the rule language itself, built from its own pieces:

* **Atoms** are small boolean expressions of the language, generated once per process
  from its building blocks: the properties of ``card``, ``prev``, ``prev2`` (every
  property of a card in the language's vocabulary: ``is odd``, ``is face``, ``is red``,
  ``is hearts`` ...), comparisons of ranks with
  constants and with each other, windows of ranks (``card.rank in {3..9}``), two suits
  (``card.suit in {diamonds, clubs}``), equal or different suits and colours, differences
  (``abs(card.rank - prev.rank) <= 2``), sums and their parity, remainders, the
  successor of a suit in a cycle (``next``), a higher suit in an order of the four
  (``index``), ``position`` and its remainders, what the place in the line prescribes
  (``[...][position % 4]``), aggregates over the line or its last cards (``any``,
  ``all``, ``count``) and the running total of the line's ranks with the card's.  Each
  atom and its negation are rule text, compiled by the rule compiler
  (:func:`~cardrules.lang.plays.compile_plays`, all in one generated module), so a word
  added to the vocabulary is a new atom with no code here; its prior takes the share
  of its kind of atom until the prior counts are relearnt.
* **Rules** are an atom, or two atoms joined by ``and``, ``or`` or ``==`` (so ``if P
  then Q else not Q``), or ``if C then T else E`` with three atoms, or ``if C1 then A
  elif C2 then B else E`` where ``C1`` and ``C2`` are two values of one feature
  (:data:`CASE_FEATURES`).  The **prior** is a
  small generative grammar (:func:`prior`): a family, then atoms independently, each by
  ``exp(-SIZE_COST * size)`` (its words and operators) shared among the texts of its
  :func:`template` (so a constant costs the choice among its alternatives): short,
  simple rules first; then moved toward the kinds of atom and the templates that the
  rules people write use (:func:`learnt_factors`, from
  :data:`~cardrules.eleusis.prior_counts.TEMPLATE_COUNTS`).
* **Fingerprints.**  Every atom is evaluated once per process on a fixed set of probe
  plays (main lines of 0 to 20 cards, many drawn from small pools of cards so that ranks,
  suits and colours repeat).  Atoms with the same fingerprint are one atom (the shortest
  text is kept), and rules whose fingerprints agree are one hypothesis.
* **Consistency** is decided with bit masks: bit ``j`` of an atom's mask is its value on
  observation ``j``.  A rule combines its atoms' masks with ``&``, ``|`` and ``^``; the
  depth rule (a rule accepts every card while the line is shorter than its largest
  ``prevN``) is a mask too.  Pairs are found by mask algebra: an ``and`` needs two masks
  holding every accepted observation, an ``or`` two masks inside them, an ``==`` the one
  mask that completes it (a dictionary look-up).  The atoms that compare one integer
  expression with constants (``card.rank < 7``, ``card.rank % 3 == 1``, the running
  total ``<= 42``) are evaluated together: the expression once per play.

Starter observations (an empty main line) are judged by a ``start:`` part; a rule found
here has none (it accepts every starter), unless some starter was rejected: then the
shortest atom about the card alone that fits the starters becomes its ``start:`` part.
"""

from __future__ import annotations

import functools
import itertools
import math
import operator
import random
import re
import time
import warnings
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Final

import attrs

from ..cards import Card, Suit, canonical, standard_deck
from ..errors import CardRulesError
from ..lang.analysis import EquivalenceNotProven, equivalent
from ..lang.ast import Type
from ..lang.plays import compile_plays
from ..lang.rules import Rule, compile_rule
from ..lang.vocabulary import STANDARD, Vocabulary
from .prior_counts import TEMPLATE_COUNTS

__all__ = [
    "KIND_PSEUDOCOUNT",
    "MAX_LINE",
    "SIZE_COST",
    "TEMPLATE_COUNTS",
    "TEMPLATE_PSEUDOCOUNT",
    "Hypothesis",
    "Observation",
    "Searcher",
    "atom_kind",
    "induce",
    "learnt_factors",
    "searcher",
    "size_weights",
]

Pred = Callable[[Sequence[Card], Card], bool]

#: How fast an atom's prior weight falls with its size: ``exp(-SIZE_COST * size)`` (see
#: :func:`atoms`).
SIZE_COST: Final = 0.3

#: How many atoms the size prior's share of each kind of atom (:func:`atom_kind`) weighs
#: as, beside the atoms counted in :data:`~cardrules.eleusis.prior_counts.TEMPLATE_COUNTS`
#: (see :func:`learnt_factors`).
#: 30 is the value under which each counted atom's kind is best predicted from the
#: others (leave one out); 10 and 100 do a little worse, there and on the held-out and
#: published rules, which it does not learn from (``benchmarks/learn_prior.py --validate``).
KIND_PSEUDOCOUNT: Final = 30.0

#: How many atoms the size prior's share of each template within its kind weighs as,
#: beside the counted atoms of that kind: chosen the same way (30).
TEMPLATE_PSEUDOCOUNT: Final = 30.0

_DECK: Final = canonical(standard_deck())

#: The most cards a main line (or a hand) can hold: every card of the most decks a New
#: Eleusis round is played with (20).  A longer line, which no game can produce, is
#: refused before any work is done on it.
MAX_LINE: Final = 20 * 52


def _cards_tuple(cards: Iterable[Card]) -> tuple[Card, ...]:
    return tuple(cards)


@attrs.frozen
class Observation:
    """One judged card: ``line`` is the main line (starter first) when ``card`` was
    played, ``accepted`` the verdict.  The starter is ``Observation((), starter, True)``
    (judged by the rule's ``start:`` part)."""

    line: tuple[Card, ...] = attrs.field(converter=_cards_tuple)
    card: Card
    accepted: bool


# -- atoms ------------------------------------------------------------------------------

_TOKEN = re.compile(r"[A-Za-z_][A-Za-z_0-9]*|\d+|[=!<>]=|[<>+\-*%]|//")


def text_size(text: str) -> int:
    """The size of a rule text: its words, numbers and operators (brackets, dots and
    commas do not count)."""
    return len(_TOKEN.findall(text))


@attrs.frozen
class Atom:
    """A boolean expression of the language with its compiled predicate."""

    text: str
    depth: int
    size: int
    cond: bool  # does not read the judged card: fit as the condition of an ``if``
    card_only: bool  # reads the judged card alone: fit as a ``start:`` part
    fn: Pred = attrs.field(eq=False, repr=False)
    #: The prior weight of the atom's behaviour (before normalising): see :func:`atoms`.
    weight: float = attrs.field(default=1.0, eq=False)
    #: ``(expression, operator, constant)`` when the atom compares an integer
    #: expression (rule text) with a constant: the atoms of one expression are then
    #: evaluated together, the expression once per play.
    scale: tuple[str, str, int] | None = attrs.field(default=None, eq=False)


_SUITS: Final = {"spades": Suit.SPADES, "hearts": Suit.HEARTS, "diamonds": Suit.DIAMONDS, "clubs": Suit.CLUBS}
_PRIMES: Final = "{2, 3, 5, 7, J, K}"
_NEG_OP: Final = {"==": "!=", "!=": "==", "<": ">=", ">=": "<", ">": "<=", "<=": ">"}
_RANK_VALUES: Final = {"A": 1, "J": 11, "Q": 12, "K": 13}


def _suit_cycles() -> list[tuple[Suit, ...]]:
    """The six cyclic orders of the four suits, each starting with spades."""
    rest = (Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)
    return [(Suit.SPADES, *p) for p in itertools.permutations(rest)]


_SUIT_WORD: Final = {v: k for k, v in _SUITS.items()}


#: The words the atoms are written in: the language's standard vocabulary.
_WORDS: Vocabulary = STANDARD


def _card_properties() -> tuple[str, ...]:
    """The properties of a card, from the language's vocabulary: each is an atom of each
    card (``card is P``, ``prev is P``, ...) and a count over the line, so a word added
    to the vocabulary is a new hypothesis with no code here."""
    return tuple(w.name for w in _WORDS.of_kind("property") if Type.CARD in w.types)


class _AtomMaker:
    """Collects atom texts: ``(text, scale)``, ``scale`` as in :attr:`Atom.scale`."""

    def __init__(self) -> None:
        self.items: list[tuple[str, tuple[str, str, int] | None]] = []

    def add(self, text: str, neg_text: str | None = None, scale: tuple[str, str, int] | None = None) -> None:
        self.items.append((text, scale))
        if neg_text is not None:
            neg_scale = None if scale is None else (scale[0], _NEG_OP[scale[1]], scale[2])
            self.items.append((neg_text, neg_scale))

    def compare(self, left: str, op: str, right: str) -> None:
        # An integer expression against an integer constant: evaluated once per play
        # for every constant it is compared with.
        value = int(right) if right.isdecimal() else _RANK_VALUES.get(right)
        scale = (left, op, value) if value is not None else None
        self.add(f"{left} {op} {right}", f"{left} {_NEG_OP[op]} {right}", scale)


def _raw_atoms() -> list[tuple[str, tuple[str, str, int] | None]]:
    """The atom texts of the search (rule text only: they are compiled by the rule
    compiler), with their scales."""
    m = _AtomMaker()
    properties = _card_properties()
    # Properties of one card.
    for slot in ("card", "prev", "prev2"):
        for prop in properties:
            m.add(f"{slot} is {prop}", f"{slot} is not {prop}")
    # Ranks against constants, primes, remainders.
    for slot in ("card", "prev"):
        for k in range(1, 14):
            m.compare(f"{slot}.rank", "==", _rank_word(k))
        for k in range(2, 14):
            m.compare(f"{slot}.rank", "<", _rank_word(k))
        for k in range(1, 13):
            m.compare(f"{slot}.rank", ">", _rank_word(k))
        m.add(f"{slot}.rank in {_PRIMES}", f"{slot}.rank not in {_PRIMES}")
        # A window of ranks with both ends inside (an end at A or K is a threshold
        # above), and two suits that are not a colour: one template each, so naming
        # the window costs the choice among its 55 texts, the suits among 6.
        for lo in range(2, 12):
            for hi in range(lo + 1, 13):
                window = f"{{{_rank_word(lo)}..{_rank_word(hi)}}}"
                m.add(f"{slot}.rank in {window}", f"{slot}.rank not in {window}")
        for a, b in itertools.combinations(_SUITS, 2):
            pair = f"{{{a}, {b}}}"
            m.add(f"{slot}.suit in {pair}", f"{slot}.suit not in {pair}")
        for mod in (3, 4):
            for r in range(mod):
                m.compare(f"{slot}.rank % {mod}", "==", str(r))
    # The card against the cards before it.
    for slot in ("prev", "prev2", "prev3"):
        for attr in ("color", "suit", "rank"):
            m.compare(f"card.{attr}", "==", f"{slot}.{attr}")
        if slot != "prev3":
            m.compare("card.rank", ">", f"{slot}.rank")
            m.compare("card.rank", "<", f"{slot}.rank")
    m.compare("card", "==", "prev")
    for attr in ("color", "suit", "rank"):
        m.compare(f"prev.{attr}", "==", f"prev2.{attr}")
    m.compare("prev.rank", ">", "prev2.rank")
    m.compare("prev.rank", "<", "prev2.rank")
    # Differences, sums, remainders of two ranks.
    for k in range(1, 7):
        m.compare("abs(card.rank - prev.rank)", "==", str(k))
        m.compare("abs(card.rank - prev.rank)", "<=", str(k))
    for k in (1, 2, 3):
        m.compare("card.rank", "==", f"prev.rank + {k}")
        m.compare("card.rank", "==", f"prev.rank - {k}")
    for r in (1, 12):
        m.compare("(card.rank - prev.rank) % 13", "==", str(r))
    # A step of one that wraps from K to A, as people write it: one way (the same
    # behaviours as the remainders above, whose weight they add to) or either way.
    for a, b in (("card", "prev"), ("prev", "card")):
        m.add(f"{a}.rank == {b}.rank % 13 + 1", f"{a}.rank != {b}.rank % 13 + 1")
    m.add("(card.rank - prev.rank) % 13 in {1, 12}", "(card.rank - prev.rank) % 13 not in {1, 12}")
    # High and low by one threshold: the card on the other side of it than the last.
    for k in range(2, 13):
        w = _rank_word(k)
        m.add(f"(card.rank > {w}) != (prev.rank > {w})", f"(card.rank > {w}) == (prev.rank > {w})")
    for mod in (2, 3):
        for r in range(mod):
            m.compare(f"(card.rank + prev.rank) % {mod}", "==", str(r))
        m.compare(f"card.rank % {mod}", "==", f"prev.rank % {mod}")
    for r in range(2):
        m.compare("(card.rank + prev.rank + prev2.rank) % 2", "==", str(r))
    for k in range(6, 21):
        m.compare("card.rank + prev.rank", ">", str(k))
        m.compare("prev.rank + prev2.rank", ">", str(k))
    # Suits in a cycle.
    for order in _suit_cycles():
        words = ", ".join(_SUIT_WORD[s] for s in order)
        m.compare("card.suit", "==", f"next(prev.suit, [{words}])")
    # Suits in an order (bridge order or any other): a higher suit than the last card.
    # The reversed order gives "lower", the negation "not higher".
    for order in itertools.permutations(_SUITS.values()):
        words = ", ".join(_SUIT_WORD[s] for s in order)
        m.compare(f"index(card.suit, [{words}])", ">", f"index(prev.suit, [{words}])")
    # Suits next to each other in an order (bridge order or any other; an order and
    # its reverse are one).
    for order in itertools.permutations(_SUITS.values()):
        if _SUIT_WORD[order[0]] > _SUIT_WORD[order[-1]]:
            continue
        words = ", ".join(_SUIT_WORD[s] for s in order)
        m.compare(f"abs(index(card.suit, [{words}]) - index(prev.suit, [{words}]))", "==", "1")
    # A running total over the whole line, with the card: its parity, its remainder by
    # three, and bounds.
    for mod in (2, 3):
        for r in range(mod):
            m.compare(f"(sum(x.rank for x in line) + card.rank) % {mod}", "==", str(r))
    for k in range(10, 121):
        m.compare("sum(x.rank for x in line) + card.rank", "<=", str(k))
    # The place in the line.
    m.add("position is even", "position is odd")
    for mod in (3, 4):
        for r in range(mod):
            m.compare(f"position % {mod}", "==", str(r))
        m.compare(f"card.rank % {mod}", "==", f"position % {mod}")
    for perm in itertools.permutations(_SUITS):
        m.compare("card.suit", "==", f"[{', '.join(perm)}][position % 4]")
    for a, b in itertools.permutations(_SUITS, 2):
        m.compare("card.suit", "==", f"[{a}, {b}][position % 2]")
    # Aggregates: the card against the line or its last cards; counts of a property.
    relations = [f"x.{a} {op} card.{a}" for a in ("rank", "suit", "color") for op in ("==", "!=")]
    relations += [f"x.rank {op} card.rank" for op in ("<", ">", "<=", ">=")]
    for window in ("line", "last 2", "last 3"):
        for rel in relations:
            for agg in ("any", "all"):
                m.add(f"{agg}(x in {window} where {rel})", f"not {agg}(x in {window} where {rel})")
    for prop in properties:
        count = f"count(x in line where x is {prop})"
        for r in range(2):
            m.compare(f"{count} % 2", "==", str(r))
        for k in range(1, 5):
            m.compare(count, "<", str(k))
        m.compare("card.rank % 2", "==", f"{count} % 2")
    return m.items


def _rank_word(k: int) -> str:
    return {1: "A", 11: "J", 12: "Q", 13: "K"}.get(k, str(k))


# -- probes -----------------------------------------------------------------------------

#: Number of probe plays of the fingerprints with short lines (0 to 8 cards).
PROBES: Final = 640
#: Number of probe plays with long lines (9 to 20 cards): without them, running totals
#: of the line above about 80 would share fingerprints.
LONG_PROBES: Final = 320


@functools.cache
def probes() -> tuple[tuple[tuple[Card, ...], Card], ...]:
    """The fixed probe plays ``(line, card)`` of the fingerprints (made once)."""
    rng = random.Random(20240617)
    out: list[tuple[tuple[Card, ...], Card]] = []
    pool_sizes = (2, 3, 4, 6, 8, 13, 26, 52)
    for i in range(PROBES + LONG_PROBES):
        if i >= PROBES:
            n = rng.randint(9, 20)
        else:
            n = i % 9 if i < 90 else rng.choice((1, 2, 2, 3, 3, 4, 5, 6, 7, 8))
        pool = rng.sample(_DECK, rng.choice(pool_sizes))
        line = tuple(rng.choice(pool) for _ in range(n))
        card = rng.choice(pool) if rng.random() < 0.5 else rng.choice(_DECK)
        out.append((line, card))
    return tuple(out)


class _OutOfTime(Exception):
    """The deadline passed while the atoms were being evaluated on the observations."""


def _check(deadline: float | None) -> None:
    if deadline is not None and time.perf_counter() > deadline:
        raise _OutOfTime


def _masks(
    fns: Sequence[Pred],
    depths: Sequence[int],
    plays: Sequence[tuple[Sequence[Card], Card]],
    deadline: float | None = None,
) -> list[int]:
    """For each predicate, the bit mask of its values on ``plays`` (0 where the line is
    shorter than its depth).  Raises :class:`_OutOfTime` between two predicates once the
    ``deadline`` has passed."""
    out: list[int] = []
    lens = [len(line) for line, _ in plays]
    for fn, depth in zip(fns, depths, strict=True):
        _check(deadline)
        mask = 0
        bit = 1
        for (line, card), n in zip(plays, lens, strict=True):
            if n >= depth and fn(line, card):
                mask |= bit
            bit <<= 1
        out.append(mask)
    return out


_COMPARE: Final[dict[str, Callable[[int, int], bool]]] = {
    "==": operator.eq,
    "!=": operator.ne,
    "<": operator.lt,
    "<=": operator.le,
    ">": operator.gt,
    ">=": operator.ge,
}


@functools.cache
def _expression(text: str) -> Callable[[Sequence[Card], Card], int]:
    """An integer expression of the atom table, compiled by the rule compiler."""
    (compiled,) = compile_plays([text], want=[False], vocabulary=_WORDS)
    fn: Callable[[Sequence[Card], Card], int] = compiled.fn
    return fn


def _atom_masks(
    found: Sequence[Atom], plays: Sequence[tuple[Sequence[Card], Card]], deadline: float | None = None
) -> list[int]:
    """For each atom, the bit mask of its values on ``plays`` (0 where the line is
    shorter than its depth): :func:`_masks` of their predicates, but the atoms that
    compare one expression with constants share one evaluation of it per play, then
    each takes the plays of the values it admits.  Raises :class:`_OutOfTime` between
    two evaluations once the ``deadline`` has passed."""
    out = [0] * len(found)
    plain = [i for i, a in enumerate(found) if a.scale is None]
    made = _masks([found[i].fn for i in plain], [found[i].depth for i in plain], plays, deadline)
    for i, m in zip(plain, made, strict=True):
        out[i] = m
    groups: dict[tuple[str, int], list[int]] = {}
    for i, a in enumerate(found):
        if a.scale is not None:
            groups.setdefault((a.scale[0], a.depth), []).append(i)
    lens = [len(line) for line, _ in plays]
    for (expr, depth), members in groups.items():
        _check(deadline)
        fn = _expression(expr)
        by_value: dict[int, int] = {}
        bit = 1
        for (line, card), n in zip(plays, lens, strict=True):
            if n >= depth:
                v = fn(line, card)
                by_value[v] = by_value.get(v, 0) | bit
            bit <<= 1
        for i in members:
            scale = found[i].scale
            assert scale is not None
            compare, k = _COMPARE[scale[1]], scale[2]
            mask = 0
            for v, plays_of_v in by_value.items():
                if compare(v, k):
                    mask |= plays_of_v
            out[i] = mask
    return out


_CONSTANT: Final = re.compile(r"\b(\d+|[AJQK]|spades|hearts|diamonds|clubs)\b")


def template(text: str) -> str:
    """An atom's text with its constants (numbers, rank letters, suit names) blanked:
    the atoms of one template differ only in the constants they name."""
    return _CONSTANT.sub("_", text)


def atom_kind(text: str) -> str:
    """The kind of an atom (or of a :func:`template`), by what it reads: ``"place"`` (the
    place in the line), ``"count"`` (a count of cards of the line), ``"total"`` (the
    running total of ranks), ``"aggregate"`` (``any``/``all`` over the line or its last
    cards), ``"back"`` (a card two or three back), ``"relation"`` (the card against the
    last card), ``"card"`` (the card alone) or ``"prev"`` (the last card alone).

    >>> atom_kind("card.color != prev.color"), atom_kind("prev is face"), atom_kind("card is red")
    ('relation', 'prev', 'card')
    """
    if "position" in text:
        return "place"
    if "count(" in text:
        return "count"
    if "sum(x.rank" in text:
        return "total"
    if "any(" in text or "all(" in text:
        return "aggregate"
    if re.search(r"\bprev[23]\b", text):
        return "back"
    card = re.search(r"\bcard\b", text) is not None
    if card and re.search(r"\bprev\b", text):
        return "relation"
    return "card" if card else "prev"


def learnt_factors(weighted: Iterable[tuple[str, float]], counts: Mapping[str, int]) -> dict[str, float]:
    """The factor that moves each template's prior weight toward the rules people write.

    ``weighted`` gives atom texts with their size weights; ``counts`` how often each
    template is an atom of the rules counted
    (:data:`~cardrules.eleusis.prior_counts.TEMPLATE_COUNTS`).  Two levels: each
    kind of atom (:func:`atom_kind`) gets the share ``(n_kind + KIND_PSEUDOCOUNT *
    s_kind) / (n + KIND_PSEUDOCOUNT)`` of the weight, where ``s_kind`` is its share by
    size and ``n_kind`` its counted atoms; within its kind, a template gets ``(n_t +
    TEMPLATE_PSEUDOCOUNT * s_t) / (n_kind + TEMPLATE_PSEUDOCOUNT)``, ``s_t`` its share of
    the kind by size.  A template never counted keeps a part of its size share, so every
    atom stays possible; with no counts every factor is 1 (the size prior alone).  The
    total weight is unchanged."""
    by_template: dict[str, float] = {}
    for text, weight in weighted:
        t = template(text)
        by_template[t] = by_template.get(t, 0.0) + weight
    if not counts:
        return dict.fromkeys(by_template, 1.0)  # exactly, so that no tie is broken anew
    by_kind: dict[str, float] = {}
    counted: dict[str, int] = {}
    for t, weight in by_template.items():
        k = atom_kind(t)
        by_kind[k] = by_kind.get(k, 0.0) + weight
        counted[k] = counted.get(k, 0) + counts.get(t, 0)
    total = math.fsum(by_kind.values())
    n = sum(counted.values())
    out: dict[str, float] = {}
    for t, weight in by_template.items():
        k = atom_kind(t)
        kind_share = by_kind[k] / total
        kind_new = (counted[k] + KIND_PSEUDOCOUNT * kind_share) / (n + KIND_PSEUDOCOUNT)
        share = weight / by_kind[k]
        new = (counts.get(t, 0) + TEMPLATE_PSEUDOCOUNT * share) / (counted[k] + TEMPLATE_PSEUDOCOUNT)
        out[t] = kind_new / kind_share * new / share
    return out


def size_weights(texts: Sequence[tuple[str, int]]) -> tuple[list[int], list[float]]:
    """The sizes and size weights of atom texts given with their depths: the size is
    :func:`text_size` plus one per card looked back beyond ``prev`` and one for
    ``position``; the weight ``exp(-SIZE_COST * size) / n``, ``n`` the number of the
    texts of its :func:`template`."""
    per_template: dict[str, int] = {}
    for text, _ in texts:
        per_template[template(text)] = per_template.get(template(text), 0) + 1
    sizes: list[int] = []
    weights: list[float] = []
    for text, depth in texts:
        # Looking further back, or at the place in the line, is less simple.
        size = text_size(text) + max(0, depth - 1) + ("position" in text)
        sizes.append(size)
        weights.append(math.exp(-SIZE_COST * size) / per_template[template(text)])
    return sizes, weights


@functools.cache
def atoms() -> tuple[Atom, ...]:
    """The distinct atoms (by fingerprint), most probable first; made once per process.

    An atom text's size weight is ``exp(-SIZE_COST * size) / n``, where ``n`` is the
    number of atom texts of its :func:`template`: choosing a constant among ``n`` costs
    ``log n`` (``card.rank == 7`` is one of 13 such atoms, ``card is red`` one of one).
    Its prior weight is that times its template's :func:`learnt_factors` from
    :data:`~cardrules.eleusis.prior_counts.TEMPLATE_COUNTS`, which moves weight toward the
    kinds of atom and the templates of the rules people write (``card.suit !=
    prev.suit`` above atoms of its size that nobody writes).  Texts with one fingerprint
    are one atom, whose weight is the sum of theirs."""
    plays = probes()
    raw = _raw_atoms()
    # Every atom is rule text, compiled by the rule compiler (all in one module).
    compiled = compile_plays([text for text, _ in raw], vocabulary=_WORDS)
    sizes, weights = size_weights([(text, c.depth) for (text, _), c in zip(raw, compiled, strict=True)])
    texts = (text for text, _ in raw)
    factor = learnt_factors(zip(texts, weights, strict=True), TEMPLATE_COUNTS)
    made: list[Atom] = []
    for (text, scale), c, size, weight in zip(raw, compiled, sizes, weights, strict=True):
        reads_card = re.search(r"\bcard\b", text) is not None
        reads_line = re.search(r"\bprev[2-9]?\b|\bline\b|\blast\b|\bposition\b", text) is not None
        weight *= factor[template(text)]
        made.append(Atom(text, c.depth, size, not reads_card, not reads_line, c.fn, weight, scale))
    made.sort(key=lambda a: (a.size, a.depth))
    prints = _atom_masks(made, plays)
    kept: dict[tuple[int, int], Atom] = {}
    summed: dict[tuple[int, int], float] = {}
    full = (1 << len(plays)) - 1
    for atom, fp in zip(made, prints, strict=True):
        key = (atom.depth, fp)
        if fp == 0 or fp == _long_mask(plays, atom.depth, full):
            continue  # never or always true (where it can be evaluated): no atom
        summed[key] = summed.get(key, 0.0) + atom.weight
        kept.setdefault(key, atom)
    out = [attrs.evolve(a, weight=summed[k]) for k, a in kept.items()]
    out.sort(key=lambda a: (-a.weight, a.size, a.depth, a.text))
    return tuple(out)


def _long_mask(plays: Sequence[tuple[Sequence[Card], Card]], depth: int, full: int) -> int:
    mask = 0
    for j, (line, _) in enumerate(plays):
        if len(line) >= depth:
            mask |= 1 << j
    return mask & full


@functools.cache
def _probe_masks() -> tuple[tuple[int, ...], tuple[int, ...], int]:
    """The atoms' probe masks, the probe masks of ``len(line) >= d`` for d in 0..3, and
    the full mask."""
    plays = probes()
    found = atoms()
    full = (1 << len(plays)) - 1
    longs = tuple(_long_mask(plays, d, full) for d in range(4))
    return tuple(_atom_masks(found, plays)), longs, full


# -- rules made of atoms --------------------------------------------------------------------

AND, OR, EQ, ITE, ONE, CASE = "and", "or", "==", "if", "atom", "elif"


@attrs.frozen
class Hypothesis:
    """A rule of the search: ``kind`` (``"atom"``, ``"and"``, ``"or"``, ``"=="``,
    ``"if"`` or ``"elif"``) over atom indices ``parts`` (``and``, ``or``: two or three
    atoms; ``if``: condition, then, else; ``elif``: condition, then, second condition,
    then, else); ``start`` the index of the ``start:`` atom or ``None``."""

    kind: str
    parts: tuple[int, ...]
    size: int
    depth: int
    start: int | None = None

    @property
    def weight(self) -> float:
        """The prior probability :func:`prior` of the rule (a ``start:`` part, forced by
        the observations, adds nothing)."""
        return prior(self.kind, self.parts)

    def text(self) -> str:
        """The rule text."""
        found = atoms()
        t = [found[i].text for i in self.parts]
        if self.kind == ONE:
            body = t[0]
        elif self.kind in (AND, OR):
            body = f" {self.kind} ".join(t)
        elif self.kind == EQ:
            body = f"({t[0]}) == ({t[1]})"
        elif self.kind == CASE:
            body = f"if {t[0]} then {t[1]} elif {t[2]} then {t[3]} else {t[4]}"
        else:
            body = f"if {t[0]} then {t[1]} else {t[2]}"
        if self.start is None:
            return body
        return f'rule "found":\n    start: {found[self.start].text}\n    play: {body}'

    def rule(self) -> Rule:
        """The compiled rule."""
        return compile_rule(self.text())

    def value(self, masks: Sequence[int], longs: Sequence[int], full: int) -> int:
        """The rule's mask from its atoms' masks (``longs[d]``: where the line has at
        least ``d`` cards)."""
        p = self.parts
        if self.kind == ONE:
            v = masks[p[0]]
        elif self.kind == AND:
            v = masks[p[0]] & masks[p[1]]
            if len(p) == 3:
                v &= masks[p[2]]
        elif self.kind == OR:
            v = masks[p[0]] | masks[p[1]]
            if len(p) == 3:
                v |= masks[p[2]]
        elif self.kind == EQ:
            v = ~(masks[p[0]] ^ masks[p[1]])
        elif self.kind == CASE:
            c, c2 = masks[p[0]], masks[p[2]]
            v = (c & masks[p[1]]) | (~c & ((c2 & masks[p[3]]) | (~c2 & masks[p[4]])))
        else:
            c = masks[p[0]]
            v = (c & masks[p[1]]) | (~c & masks[p[2]])
        long = longs[self.depth]
        return ((v & long) | (full & ~long)) & full


#: The prior share of each family of rules: one atom, two atoms joined, a conditional
#: on the cards before (or the place in the line), a three-way conditional on one
#: feature (:func:`case_splits`), three atoms joined by ``and`` or by ``or``, a
#: conditional on the judged card itself (``if card is red then card.rank > prev.rank
#: else card.rank < prev.rank``: each kind of card has its own rule).
FAMILY_SHARE: Final = {"atom": 0.4, "pair": 0.45, "if": 0.15, "elif": 0.03, "triple": 0.03, "if card": 0.03}


#: The prior factor of a rule that never reads the judged card.
BLIND: Final = 0.01


@functools.cache
def atom_probabilities() -> tuple[tuple[float, ...], tuple[float, ...]]:
    """The atoms' prior probabilities (their weights normalised), and the same among the
    atoms fit as a condition (0 for the others)."""
    found = atoms()
    total = math.fsum(a.weight for a in found)
    total_c = math.fsum(a.weight for a in found if a.cond)
    return (
        tuple(a.weight / total for a in found),
        tuple(a.weight / total_c if a.cond else 0.0 for a in found),
    )


def card_condition(atom: Atom) -> bool:
    """Whether ``atom`` is fit as the condition of an ``if`` on the judged card: it reads
    the card alone and is short (``card is red``, ``card.rank > 7``)."""
    return atom.card_only and atom.size <= 4


@functools.cache
def card_condition_probabilities() -> tuple[float, ...]:
    """The atoms' prior probabilities as the condition of an ``if`` on the judged card
    (:func:`card_condition`; 0 for the others), normalised among those."""
    found = atoms()
    total = math.fsum(a.weight for a in found if card_condition(a))
    return tuple(a.weight / total if card_condition(a) else 0.0 for a in found)


def prior(kind: str, parts: Sequence[int]) -> float:
    """The prior probability of a rule of the search, a small generative grammar: a
    family (:data:`FAMILY_SHARE`), then its atoms independently by their probabilities
    (:func:`atom_probabilities`); a pair's joiner is one of three (``and``, ``or``,
    ``==``), a triple's one of two (``and``, ``or``), and their atoms are unordered.  A
    rule that never reads the judged card (``prev is red``: everything or nothing goes)
    is a rule of the language but hardly a secret rule: its weight is multiplied by
    :data:`BLIND`."""
    p, pc = atom_probabilities()
    found = atoms()
    judged = parts[1:] if kind == ITE else parts[1::2] if kind == CASE else parts
    blind = BLIND if all(found[i].cond for i in judged) else 1.0
    if kind == ONE:
        return FAMILY_SHARE["atom"] * p[parts[0]] * blind
    if kind == ITE and not found[parts[0]].cond:
        return FAMILY_SHARE["if card"] * card_condition_probabilities()[parts[0]] * p[parts[1]] * p[parts[2]]
    if kind == ITE:
        return FAMILY_SHARE["if"] * pc[parts[0]] * p[parts[1]] * p[parts[2]] * blind
    if kind == CASE:
        split = FAMILY_SHARE["elif"] / len(case_splits())
        return split * p[parts[1]] * p[parts[3]] * p[parts[4]] * blind
    if len(parts) == 3:  # (three distinct atoms: six orders)
        return FAMILY_SHARE["triple"] / 2 * 6 * p[parts[0]] * p[parts[1]] * p[parts[2]] * blind
    return FAMILY_SHARE["pair"] / 3 * 2 * p[parts[0]] * p[parts[1]] * blind


def make_hypothesis(kind: str, parts: tuple[int, ...], found: Sequence[Atom]) -> Hypothesis:
    size = sum(found[i].size for i in parts) + {ONE: 0, ITE: 3, CASE: 5}.get(kind, len(parts) - 1)
    return Hypothesis(kind, parts, size, max(found[i].depth for i in parts))


# -- the search -------------------------------------------------------------------------------

#: The features a three-way conditional splits on: each is the list of its values'
#: conditions, which exclude one another (the last card's rank modulo 3, its suit...).
CASE_FEATURES: Final = (
    tuple(f"prev.rank % 3 == {r}" for r in range(3)),
    tuple(f"prev.rank % 4 == {r}" for r in range(4)),
    ("prev is face", "prev is number", "prev is ace"),
    tuple(f"prev is {suit}" for suit in _SUITS),
    tuple(f"position % 3 == {r}" for r in range(3)),
    tuple(f"position % 4 == {r}" for r in range(4)),
)


@functools.cache
def case_splits() -> tuple[tuple[int, int], ...]:
    """The atom pairs ``(first, second)`` of the three-way conditionals ``if first then
    ... elif second then ... else ...``: for each of :data:`CASE_FEATURES`, every way to
    give two of its values a branch each and the rest the ``else`` (one way for a feature
    of three values: which value gets which branch is the branches' choice)."""
    found = atoms()
    index = {a.text: i for i, a in enumerate(found)}
    out: list[tuple[int, int]] = []
    for values in CASE_FEATURES:
        ids = [index[v] for v in values]
        pairs = [(ids[0], ids[1])] if len(ids) == 3 else list(itertools.combinations(ids, 2))
        out.extend(pairs)
    return tuple(out)


#: How many atoms of one observed behaviour take part in pairs (the shortest ones).
GROUP_CAP: Final = 8
#: How many rules a search keeps at most before grouping them by fingerprint.
KEEP: Final = 4000
#: Conditionals are searched while fewer than ``KEEP * ITE_ROOM`` rules were found; for
#: each condition, the first ``ITE_BRANCHES`` fitting behaviours of each branch.
ITE_ROOM: Final = 0.5
ITE_BRANCHES: Final = 12
#: For each split of a three-way conditional, the first fitting behaviours of each branch.
CASE_BRANCHES: Final = 6
#: Three atoms joined are searched (with room, as conditionals) only among at most this
#: many behaviours that could be one of them (their cost grows as its cube).
TRIPLE_KEYS: Final = 160


class Searcher:
    """Finds the rules consistent with observations and their fingerprints.

    Made once per process (:func:`searcher`); :meth:`consistent` is the search."""

    def __init__(self) -> None:
        self.atoms = atoms()
        self.probe_masks, self.probe_longs, self.probe_full = _probe_masks()
        self.conds = [i for i, a in enumerate(self.atoms) if a.cond]
        # the conditions of an ``if``: on the cards before or the place, or on the card
        self.if_conds = [i for i, a in enumerate(self.atoms) if (a.cond and a.size <= 4) or card_condition(a)]
        self._if_cond_set = frozenset(self.if_conds)
        self._obs_cache: dict[tuple[tuple[Card, ...], Card], int] = {}

    def evaluate(
        self,
        plays: Sequence[tuple[Sequence[Card], Card]],
        only: Iterable[int] | None = None,
        *,
        deadline: float | None = None,
    ) -> tuple[list[int], list[int], int]:
        """Atom masks over ``plays`` (only of the atoms ``only`` if given, the others 0),
        the masks of ``len(line) >= d`` (d 0..3), and the full mask.  With a
        ``deadline``, raises :class:`_OutOfTime` once it has passed (long lines make
        the atoms that read the whole line slow)."""
        found = self.atoms
        if only is None:
            masks = _atom_masks(found, plays, deadline)
        else:
            masks = [0] * len(found)
            wanted = sorted(set(only))
            made = _atom_masks([found[i] for i in wanted], plays, deadline)
            for i, m in zip(wanted, made, strict=True):
                masks[i] = m
        full = (1 << len(plays)) - 1
        longs = [_long_mask(plays, d, full) for d in range(4)]
        return masks, longs, full

    def fingerprint(self, h: Hypothesis) -> int:
        """The rule's values on the probe plays."""
        return h.value(self.probe_masks, self.probe_longs, self.probe_full)

    def consistent(
        self, observations: Sequence[Observation], *, deadline: float | None = None, keep: int = KEEP
    ) -> list[Hypothesis]:
        """Rules consistent with every observation, shortest first (at most ``keep``
        before the deadline ends the search)."""
        plays = [(o.line, o.card) for o in observations if o.line]
        verdicts = [o.accepted for o in observations if o.line]
        starters = [o for o in observations if not o.line]
        start = self._start(starters)
        if start == -1:
            return []
        try:
            masks, longs, full = self.evaluate(plays, deadline=deadline)
        except _OutOfTime:
            return []  # no rule is known to fit until every observation is evaluated
        target = sum(1 << j for j, v in enumerate(verdicts) if v)
        found = self.atoms
        out: list[Hypothesis] = []

        def timed_out() -> bool:
            return deadline is not None and time.perf_counter() > deadline

        for d in range(4):
            long = longs[d]
            if (full & ~long) & ~target:
                continue  # an observation on a short line was refused: no rule of depth d
            goal = target & long
            groups: dict[int, list[int]] = {}
            for i, a in enumerate(found):
                if a.depth <= d:
                    groups.setdefault(masks[i] & long, []).append(i)
            for g in groups.values():
                del g[GROUP_CAP * 4 :]
            # One atom.
            for i in groups.get(goal, ()):
                if found[i].depth == d:
                    out.append(make_hypothesis(ONE, (i,), found))
            keys = list(groups)
            sup = [m for m in keys if m & goal == goal]
            sub = [m for m in keys if m & ~goal == 0]
            combos: list[tuple[str, tuple[int, ...]]] = []
            for x, y in itertools.combinations_with_replacement(sup, 2):
                if x & y == goal:
                    combos.append((AND, (x, y)))
            if timed_out():
                break
            for x, y in itertools.combinations_with_replacement(sub, 2):
                if x | y == goal:
                    combos.append((OR, (x, y)))
            for x in keys:
                y = ~(x ^ goal) & long
                if y in groups and x <= y:
                    combos.append((EQ, (x, y)))
            if timed_out():
                break
            # Conditionals: short conditions, short branches, and only while the
            # shorter rules leave room.
            branch_keys = [m for m in keys if found[groups[m][0]].size <= 5]
            if len(out) + len(combos) < keep * ITE_ROOM:
                cond_masks = {masks[i] & long for i in self.if_conds if found[i].depth <= d}
                for c in cond_masks:
                    if c in (0, long):
                        continue
                    outside = ~c & long
                    thens = [m for m in branch_keys if (m ^ goal) & c == 0]
                    elses = [m for m in branch_keys if (m ^ goal) & outside == 0]
                    for t in thens[:ITE_BRANCHES]:
                        for e in elses[:ITE_BRANCHES]:
                            if t != e:
                                combos.append((ITE, (c, t, e)))
                    if timed_out():
                        break
            if len(out) + len(combos) < keep * ITE_ROOM:
                combos.extend(self._cases(masks, long, goal, d, branch_keys))
            if len(out) + len(combos) < keep * ITE_ROOM:
                combos.extend(_triples(sub, goal, OR, timed_out))
                combos.extend(_triples([~m & long for m in sup], ~goal & long, AND, timed_out, long))
            for kind, key in combos:
                if kind == CASE:
                    lists = [[key[0]], groups[key[1]][:1], [key[2]], groups[key[3]][:1], groups[key[4]][:1]]
                elif kind == ITE:
                    lists = [[i for i in groups[key[0]] if i in self._if_cond_set][:2]]
                    lists += [[i for i in groups[k] if found[i].size <= 5][:2] for k in key[1:]]
                elif len(key) == 3:  # three atoms joined: the shortest two of each behaviour
                    lists = [groups[k][:2] for k in key]
                else:
                    lists = [groups[k][:GROUP_CAP] for k in key]
                for parts in itertools.product(*lists):
                    if kind in (AND, OR, EQ) and key[0] == key[-1] and parts[0] >= parts[-1]:
                        continue  # each unordered pair of one group once
                    if max(found[i].depth for i in parts) != d:
                        continue
                    out.append(make_hypothesis(kind, parts, found))
            if timed_out():
                break
        out.sort(key=lambda h: (-h.weight, h.size, h.kind, h.parts))
        del out[keep:]
        if start is not None:
            out = [attrs.evolve(h, start=start, size=h.size + found[start].size + 2) for h in out]
        return out

    def extensions(self, h: Hypothesis, observations: Sequence[Observation]) -> list[Hypothesis]:
        """The rules that add a third atom to the pair ``h`` (``a or b or x``, ``a and b
        and x``) and fit every observation: one per fingerprint (the most probable), most
        probable first, none with the pair's own fingerprint.  :meth:`consistent` leaves
        out a third part that no observation needs, since the pair is far more probable;
        once the pair is refuted (a wrong guess), they are among the rules left, and
        the ones experiments can tell apart.  Empty for any other rule, or when a
        starter was refused (the search then fits a ``start:`` part itself)."""
        if not isinstance(h, Hypothesis):
            raise CardRulesError(f"extensions takes a Hypothesis of the search, not {h!r}")
        observations = [_checked_observation(o, "extensions") for o in observations]
        if h.kind not in (AND, OR) or len(h.parts) != 2 or h.start is not None:
            return []
        if any(not o.accepted for o in observations if not o.line):
            return []
        plays = [(o.line, o.card) for o in observations if o.line]
        masks, longs, full = self.evaluate(plays)
        target = sum(1 << j for j, o in enumerate(o for o in observations if o.line) if o.accepted)
        found = self.atoms
        pair = self.fingerprint(h)
        best: dict[int, Hypothesis] = {}
        for x in range(len(found)):
            if x in h.parts:
                continue
            e = make_hypothesis(h.kind, (*h.parts, x), found)
            if e.value(masks, longs, full) != target:
                continue
            fp = self.fingerprint(e)
            if fp != pair and (fp not in best or e.weight > best[fp].weight):
                best[fp] = e
        return sorted(best.values(), key=lambda e: (-e.weight, e.size, e.parts))

    def _cases(
        self, masks: Sequence[int], long: int, goal: int, d: int, branch_keys: Sequence[int]
    ) -> list[tuple[str, tuple[int, ...]]]:
        """Three-way conditionals fitting ``goal``: for each split (:func:`case_splits`) of
        depth at most ``d``, the first fitting behaviours of each branch.  A key holds the
        two conditions as atom indices and the three branches as behaviours."""
        found = self.atoms
        out: list[tuple[str, tuple[int, ...]]] = []
        for first, second in case_splits():
            if max(found[first].depth, found[second].depth) > d:
                continue
            one = masks[first] & long
            two = masks[second] & long & ~one
            rest = long & ~one & ~two
            if not one or not two or not rest:
                continue  # a branch no observation reached: the rule is an ``if``
            thens = [m for m in branch_keys if (m ^ goal) & one == 0][:CASE_BRANCHES]
            mids = [m for m in branch_keys if (m ^ goal) & two == 0][:CASE_BRANCHES]
            elses = [m for m in branch_keys if (m ^ goal) & rest == 0][:CASE_BRANCHES]
            for t in thens:
                for m in mids:
                    for e in elses:
                        if t != e and m != e:
                            out.append((CASE, (first, t, second, m, e)))
        return out

    def _start(self, starters: Sequence[Observation]) -> int | None:
        """``None`` (no ``start:`` part needed), the shortest fitting atom about the card
        alone, or -1 when none fits."""
        if all(o.accepted for o in starters):
            return None
        for i, a in enumerate(self.atoms):
            if a.card_only and all(a.fn((), o.card) == o.accepted for o in starters):
                return i
        return -1


def _triples(
    keys: Sequence[int], goal: int, kind: str, timed_out: Callable[[], bool], long: int = 0
) -> list[tuple[str, tuple[int, ...]]]:
    """Three behaviours of ``keys`` whose union is ``goal``, each needed for some
    observation: ``x or y or z``.  For ``and``, the caller passes the complements (within
    ``long``) of the behaviours and of the goal, and gets the behaviours back.  A third
    part that no observation needs would make a rule the observations cannot tell from
    the pair of the other two, which is far more probable.  Searched among at most
    :data:`TRIPLE_KEYS` behaviours, most observations first."""
    keys = sorted({k for k in keys if k and k != goal}, key=lambda k: (-k.bit_count(), k))
    if len(keys) > TRIPLE_KEYS:
        return []
    out: list[tuple[int, int, int]] = []
    for a, x in enumerate(keys):
        if timed_out():
            break
        for b in range(a + 1, len(keys)):
            y = keys[b]
            rest = goal & ~(x | y)
            if not rest or not x & ~y or not y & ~x:
                continue
            for z in keys[b + 1 :]:
                if z & rest == rest and x & ~(y | z) and y & ~(x | z):
                    out.append((x, y, z))
    if kind == AND:
        return [(kind, (~x & long, ~y & long, ~z & long)) for x, y, z in out]
    return [(kind, key) for key in out]


@functools.cache
def searcher() -> Searcher:
    """The process's :class:`Searcher` (atoms and fingerprints are made once)."""
    return Searcher()


@attrs.frozen
class Ranked:
    """Hypotheses grouped by fingerprint: the most probable of each group, with the
    group's weight (the sum of the prior weights of the rules found in it), most probable
    first."""

    hypotheses: tuple[Hypothesis, ...]
    weights: tuple[float, ...]


def ranked(observations: Sequence[Observation], *, deadline: float | None = None) -> Ranked:
    """The consistent hypotheses, one per fingerprint, most probable first."""
    s = searcher()
    best: dict[int, Hypothesis] = {}
    found = s.consistent(observations, deadline=deadline)
    mass: dict[int, float] = {}
    found.sort(key=lambda h: (-h.weight, h.size, h.kind, h.parts))
    for h in found:
        fp = s.fingerprint(h)
        if fp not in best:
            best[fp] = h
        mass[fp] = mass.get(fp, 0.0) + h.weight
    order = sorted(best, key=lambda fp: -mass[fp])
    return Ranked(tuple(best[fp] for fp in order), tuple(mass[fp] for fp in order))


def induce(
    observations: Iterable[Observation], *, limit: int = 10, time_limit: float = 1.0, seed: int | None = None
) -> tuple[Rule, ...]:
    """Rules of the rule language consistent with every observation, most probable first.

    The prior (:func:`prior`) prefers short, simple rules with few constants, made of
    the kinds of atom that people's rules use.  At most
    ``limit`` rules are given, no two of them equivalent on the lines they build
    (:func:`~cardrules.lang.analysis.equivalent` with ``in_play=True``); every one is
    checked against the observations with the compiled rule itself.  When
    ``time_limit`` seconds run out, what was found so far is returned (nothing when they
    run out before every observation has been judged by the search's building blocks,
    as they may on lines of thousands of cards).  The first call in a process also makes
    those building blocks and their fingerprints, once (about half a second on a 2-core
    machine), before its time limit starts.  Deterministic for a ``seed`` when the time
    limit does not bind.

    >>> from cardrules import parse_card as c
    >>> line = [c("5H"), c("8S")]
    >>> obs = [Observation((), c("5H"), True), Observation(line[:1], c("8S"), True),
    ...        Observation(line, c("2C"), False), Observation(line, c("9D"), True)]
    >>> rules = induce(obs, limit=3)
    >>> len(rules), all(r.accepts(o.line, o.card) == o.accepted for r in rules for o in obs[1:])
    (3, True)
    """
    if isinstance(observations, (str, bytes)) or not isinstance(observations, Iterable):
        raise TypeError(f"induce takes Observation records (a list), not {type(observations).__name__}")
    obs = [_checked_observation(o) for o in observations]
    searcher()  # made once per process: its setup is not this call's search time
    start = time.perf_counter()
    deadline = start + max(0.0, time_limit)
    found = ranked(obs, deadline=deadline)
    rng = random.Random(seed)
    out: list[Rule] = []
    for h in found.hypotheses:
        if len(out) >= max(0, limit) or time.perf_counter() > deadline:
            break
        rule = h.rule()
        if not all(_judge(rule, o) == o.accepted for o in obs):
            continue  # never expected: the fast predicates are checked against the compiler
        if any(_differs_quickly(rule, r, rng) is None for r in out):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", EquivalenceNotProven)
                if any(equivalent(rule, r, in_play=True) is None for r in out):
                    continue
        out.append(rule)
    return tuple(out)


def _checked_observation(o: object, who: str = "induce") -> Observation:
    if not isinstance(o, Observation):
        raise CardRulesError(f"{who} takes Observation records, not {short_text(o)}")
    check_line_length(o.line)
    check_standard_cards(o.line, o.card)
    return o


def short_text(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 200 else f"{text[:200]}... ({len(text)} characters)"


def check_line_length(cards: Sequence[object], what: str = "a line") -> None:
    """Raise a :class:`~cardrules.errors.CardRulesError` when ``cards`` is longer than
    :data:`MAX_LINE`: longer than any New Eleusis round can make it."""
    if len(cards) > MAX_LINE:
        raise CardRulesError(
            f"{what} of {len(cards)} cards is longer than any New Eleusis round makes one "
            f"(at most {MAX_LINE}: every card of 20 decks)"
        )


_STANDARD: Final = frozenset(_DECK)


def check_standard_cards(*groups: object) -> None:
    """Raise a :class:`~cardrules.errors.CardRulesError` naming the first card of
    ``groups`` (cards, or sequences of cards) that is not one of the 52 cards of a
    standard deck: New Eleusis is played with standard decks, and the search's atoms
    know only their ranks and suits."""
    for group in groups:
        cards = group if isinstance(group, (tuple, list)) else (group,)
        for card in cards:
            if not isinstance(card, Card) or card not in _STANDARD:
                raise CardRulesError(
                    f"New Eleusis is played with standard cards (A to K of spades, hearts, "
                    f"diamonds, clubs); {short_text(card)} is not one"
                )


def _judge(rule: Rule, o: Observation) -> bool:
    return rule.accepts_start(o.card) if not o.line else rule.accepts(o.line, o.card)


def _differs_quickly(a: Rule, b: Rule, rng: random.Random, walks: int = 40, length: int = 8) -> object:
    """Something (not ``None``) when random lines built by either rule tell them apart;
    ``None`` when these samples do not."""
    for c in _DECK:
        if a.accepts_start(c) != b.accepts_start(c):
            return c
    for builder in (a, b):
        for _ in range(walks):
            line: list[Card] = [rng.choice([c for c in _DECK if builder.accepts_start(c)] or list(_DECK))]
            for _ in range(length):
                ok = [c for c in _DECK if a.accepts(line, c)]
                if ok != [c for c in _DECK if b.accepts(line, c)]:
                    return line
                if not ok:
                    break
                line.append(rng.choice(ok))
    return None

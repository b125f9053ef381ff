"""A computer God: :func:`choose_rule` draws a secret rule like the ones people write.

The rules are drawn from the generative prior the scientist believes in
(:func:`cardrules.eleusis.induction.prior`): a family of rule (one condition, two joined
by ``and``, ``or`` or ``==``, an ``if ... then ... else``), then its conditions by how often
people's rules use their kinds (the learnt counts of
:mod:`cardrules.eleusis.prior_counts`).  So the rules look like people's rules, and they
are not a fixed list: the language's whole vocabulary of conditions is drawn from.

God scores the best scientist's score: a rule every scientist reads at once leaves them
all with few cards (a small high count), a rule no one finds leaves everyone's hand
full.  A drawn rule is kept only if it plays like a table rule (on random lines it
builds, it takes between :data:`MIN_RATE` and :data:`MAX_RATE` of the cards, and never
leaves the line without a right card), and if its prior probability falls in the band
of the ``difficulty`` asked for (:data:`DIFFICULTIES`, in bits of the prior: the rarer a
rule, the longer the scientists take to believe it).
"""

from __future__ import annotations

import math
import random
from typing import Final

from ..cards import canonical, standard_deck
from ..errors import CardRulesError
from ..lang.rules import Rule, compile_rule
from .induction import (
    AND,
    EQ,
    FAMILY_SHARE,
    ITE,
    ONE,
    OR,
    Hypothesis,
    atom_probabilities,
    atoms,
    card_condition_probabilities,
    make_hypothesis,
    prior,
)

__all__ = ["DIFFICULTIES", "MAX_RATE", "MIN_RATE", "choose_rule"]

#: The bands of the prior (``-log2`` of the rule's prior probability) each difficulty
#: draws from: ``"easy"`` rules are the commonest kinds (``card is red``,
#: ``card.rank > prev.rank``), ``"hard"`` ones two or three conditions joined.
DIFFICULTIES: Final = {"easy": (0.0, 9.0), "medium": (7.0, 14.0), "hard": (12.0, 20.0)}
#: The least share of the 52 cards a rule takes on the lines it builds (on average):
#: below it, scientists mostly draw penalties and no one goes out.
MIN_RATE: Final = 0.2
#: The most: above it, almost every card is right and the rule is read at once.
MAX_RATE: Final = 0.7
#: The tries before giving up (a difficulty band always has rules; this only bounds the loop).
TRIES: Final = 5000

_DECK: Final = canonical(standard_deck())


def _draw(rng: random.Random) -> Hypothesis | None:
    """One rule drawn from the prior's grammar (``None`` for a family left out: the
    three-way conditionals and triples, rare among people's rules)."""
    found = atoms()
    p, pc = atom_probabilities()
    idx = range(len(found))
    families = list(FAMILY_SHARE)
    family = rng.choices(families, weights=[FAMILY_SHARE[f] for f in families])[0]

    def one(weights: tuple[float, ...]) -> int:
        return rng.choices(idx, weights=weights)[0]

    if family == "atom":
        return make_hypothesis(ONE, (one(p),), found)
    if family == "pair":
        a, b = one(p), one(p)
        if a == b:
            return None
        kind = rng.choice((AND, OR, EQ))
        return make_hypothesis(kind, (min(a, b), max(a, b)), found)
    if family == "if":
        c, t, e = one(pc), one(p), one(p)
        return None if t == e else make_hypothesis(ITE, (c, t, e), found)
    if family == "if card":
        c, t, e = one(card_condition_probabilities()), one(p), one(p)
        return None if t == e else make_hypothesis(ITE, (c, t, e), found)
    return None


def _plays_like_a_table_rule(rule: Rule, rng: random.Random, walks: int = 4, length: int = 40) -> bool:
    """Whether ``rule`` takes between :data:`MIN_RATE` and :data:`MAX_RATE` of the cards
    on random lines it builds (from random starters it takes), leaves no line it builds
    (from any starter) with no right card, and not every card right at every step."""
    rates: list[float] = []
    starters = [c for c in _DECK if rule.accepts_start(c)]
    if not starters or not all(any(rule.accepts((s,), c) for c in _DECK) for s in starters):
        return False  # a starter after which no card is right
    for _ in range(walks):
        line = [rng.choice(starters)]
        for _ in range(length):
            ok = [c for c in _DECK if rule.accepts(line, c)]
            if not ok:
                return False
            rates.append(len(ok) / len(_DECK))
            line.append(rng.choice(ok))
    mean = math.fsum(rates) / len(rates)
    return MIN_RATE <= mean <= MAX_RATE and min(rates) < 1.0


def choose_rule(*, players: int, seed: object, difficulty: str = "medium") -> Rule:
    """The secret rule a computer God chooses for a round of ``players`` (3..8): the same
    rule for the same ``players``, ``seed`` and ``difficulty`` (``"easy"``, ``"medium"``
    or ``"hard"``: :data:`~cardrules.eleusis.god.DIFFICULTIES`).  Its text (``rule.source``) is what God
    reveals at the end of the round.

    >>> rule = choose_rule(players=4, seed=7)
    >>> rule.source == choose_rule(players=4, seed=7).source
    True
    """
    if type(players) is not int or not 3 <= players <= 8:
        raise CardRulesError(f"New Eleusis is played by 3 to 8 players, not {players!r}")
    if difficulty not in DIFFICULTIES:
        raise CardRulesError(f"no difficulty {difficulty!r} (difficulties: {', '.join(DIFFICULTIES)})")
    low, high = DIFFICULTIES[difficulty]
    rng = random.Random(f"eleusis-god:{players}:{seed!r}:{difficulty}")
    seen: set[tuple[str, tuple[int, ...]]] = set()
    for _ in range(TRIES):
        h = _draw(rng)
        if h is None or (h.kind, h.parts) in seen:
            continue
        seen.add((h.kind, h.parts))
        bits = -math.log2(prior(h.kind, h.parts))
        if not low <= bits <= high:
            continue
        rule = compile_rule(h.text())
        if _reads_the_card(h) and _plays_like_a_table_rule(rule, rng):
            return rule
    raise CardRulesError(f"no {difficulty} rule found for seed {seed!r}")  # pragma: no cover


def _reads_the_card(h: Hypothesis) -> bool:
    """Whether the rule reads the judged card (a rule that does not takes every card or
    none, whatever is played)."""
    found = atoms()
    judged = h.parts[1:] if h.kind == ITE else h.parts
    return not all(found[i].cond for i in judged)


def chosen_text(players: int, seed: object) -> str:
    """The text of :func:`choose_rule`'s rule (the game's ``rule_chooser``, for the
    command line's ``--god computer`` and the web table's computer God)."""
    text: str = choose_rule(players=players, seed=seed).source
    return text

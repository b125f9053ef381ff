"""The Eleusis scientist: find the god's secret rule from what the table shows.

:class:`Scientist` keeps no model of the god but the observations: each judged card with
the main line it was played on (:class:`~cardrules.eleusis.induction.Observation`).  From them
the rule finder (:func:`~cardrules.eleusis.induction.induce`'s search) lists the rules of the
rule language that fit every observation, one per behaviour, each weighted by a prior
that prefers short, simple rules of the kinds people write.  The scientist

* plays the card after whose verdict its most probable rule is expected to be most
  probable: the chance of a right guess after this card, plus that after the best card
  to follow it (a two-card look-ahead over the verdicts), plus the expected information
  of the verdict (which matters most while many rules are about equally probable);
* states its most probable rule when waiting is worth less (in expected score) than a
  guess: at once when that rule's probability reaches ``confidence`` (0.6); else when
  the probability ``s`` of the rules no card can tell from it any more, times the turns
  playing would take to make it sure (with the cards at hand, or waiting to draw a
  telling card), outweighs the cost of a wrong guess (2, or what it is expected to take
  from the right guess that waiting would bring when that is less: near the end of a
  round, or when waiting is not expected to find the rule in time, it guesses readily)
  times ``1 - s``.  The probability of a guess counts the rules that build the same
  lines as it, since the guess is right if the secret rule is one of them.  A wrong
  guess rules out its
  lookalikes too (the rules that build the same lines).  A rule may have a ``start:``
  part, which only the starter shows (:meth:`Scientist.starts`); a guess is judged on
  the lines the secret rule builds, whatever ``start:`` part it states, so a wrong
  guess refutes its play part with every ``start:`` part.  A
  share of the probability is kept for "a rule the search does not know", falling
  with every observation as a coin's would, so a rule that fits only because nothing
  simpler does is not believed at once.

:func:`play_science` is the single-player round that measures it: a hand of 12 from two
shuffled decks, one card a turn, a guess after each verdict; the score is ``turns -
turn - penalty * wrong guesses`` for a right guess at turn ``turn``.

>>> from cardrules.eleusis import compile_rule
>>> result = play_science(compile_rule("card.color != prev.color"), Scientist(seed=1), seed=3)
>>> result.solved, str(result.guesses[-1][1])
(True, 'card.color != prev.color')
"""

from __future__ import annotations

import functools
import math
import random
import time
import warnings
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from typing import Any, Final

import attrs

from ..cards import Card, canonical, standard_deck
from ..errors import CardRulesError
from ..lang.analysis import SAMPLES_PER_LENGTH, EquivalenceNotProven, equivalent
from ..lang.inplay import in_play_search
from ..lang.rules import Rule
from ..protocol import seeded_order
from .induction import (
    Hypothesis,
    Observation,
    atoms,
    check_line_length,
    check_standard_cards,
    ranked,
    searcher,
    short_text,
)
from .rules import BecomeProphet, Judge, NoPlay, Pass, Play, Rules, cards_to_shuffle, start_state

__all__ = ["ScienceRound", "Scientist", "guess_is_right", "observations_from_view", "play_science"]

#: The prior probability of "a rule the search does not know", kept beside the
#: hypotheses so that probabilities are not overstated.  Such a rule is taken to judge
#: like a coin of the observed acceptance rate: its weight falls with every observation
#: (see :func:`unknown_weight`), while a rule of the search that fits keeps its prior.
UNKNOWN_WEIGHT: Final = 0.01


def unknown_rate(observations: Sequence[Observation]) -> float:
    """The chance that "a rule the search does not know" accepts the next card: the
    acceptance rate of the played cards, Laplace-smoothed (``1/2`` before any)."""
    played = [o.accepted for o in observations if o.line]
    return (sum(played) + 1) / (len(played) + 2)


def unknown_weight(observations: Sequence[Observation]) -> float:
    """The weight of "a rule the search does not know" after ``observations``: its prior
    times the chance that a coin of the observed acceptance rate (Laplace-smoothed) gives
    the observed verdicts."""
    played = [o.accepted for o in observations if o.line]
    yes = sum(played)
    n = len(played)
    if n == 0:
        return UNKNOWN_WEIGHT
    q = unknown_rate(observations)
    return UNKNOWN_WEIGHT * math.exp(yes * math.log(q) + (n - yes) * math.log(1 - q))


_DECK: Final = canonical(standard_deck())
_DECK_INDEX: Final = {c: j for j, c in enumerate(_DECK)}

#: The cost of a wrong guess in the science round (the default of the scientist's
#: ``penalty``).
PENALTY: Final = 2
#: Never guess below this probability unless stuck.
MIN_GUESS: Final = 0.04

#: How many of the most probable hypotheses a wrong guess is compared with, to drop its
#: lookalikes too (see :meth:`Scientist.wrong_guess`).
LOOKALIKE_HYPOTHESES: Final = 200
#: How many of them, found alike on random lines, are confirmed equivalent in play (and
#: dropped) at most.
LOOKALIKE_CHECKS: Final = 8

#: The prior probability that a secret rule has a ``start:`` part (a condition on the
#: starter alone); see :meth:`Scientist.starts`.
START_SHARE: Final = 0.05
#: How many of the most probable hypotheses a guess is chosen among, the refuted ones
#: left out (see :meth:`Scientist.guess`).
GUESS_HYPOTHESES: Final = 20

#: The weight of a verdict's expected information (bits) beside the chance of a right
#: guess when choosing a card (see :meth:`Scientist.choose`).
INFO_WEIGHT: Final = 1.0

#: The weight, beside the chance of a right guess, of the probability that a card
#: leaves the line stuck (accepted, then no card at all accepted after it) under rules
#: that could then only be guessed in turn (see :meth:`Scientist.choose`).
STUCK_WEIGHT: Final = 1.0
#: How many of the most probable hypotheses that is looked at for.
STUCK_HYPOTHESES: Final = 200

#: How many of the most probable hypotheses the choice of a card looks at.
LOOKAHEAD_HYPOTHESES: Final = 600


@attrs.frozen
class Belief:
    """What a scientist believes after some observations: the hypotheses (one per
    behaviour, most probable first), their probabilities, and the main line."""

    hypotheses: tuple[Hypothesis, ...]
    probabilities: tuple[float, ...]
    line: tuple[Card, ...]
    #: the chance that "a rule the search does not know" (the probability the
    #: hypotheses leave) accepts a card (:func:`unknown_rate`)
    unknown_rate: float = 0.5

    @property
    def best(self) -> Hypothesis | None:
        return self.hypotheses[0] if self.hypotheses else None

    @property
    def confidence(self) -> float:
        return self.probabilities[0] if self.probabilities else 0.0


def main_line(observations: Sequence[Observation]) -> tuple[Card, ...]:
    """The main line the observations show: the longest accepted line plus its card."""
    best: tuple[Card, ...] = ()
    for o in observations:
        if o.accepted and len(o.line) + 1 > len(best):
            best = (*o.line, o.card)
    return best


class Scientist:
    """A rule finder that plays: :meth:`choose` a card, :meth:`guess` the rule, and as a
    New Eleusis agent (``agent(view, legal_actions)``) plays whole rounds.

    ``seed`` breaks ties between equally good cards; ``time_per_move`` bounds the search
    of one decision (seconds); ``confidence`` is the probability from which it states a
    guess at once (below it, :meth:`guess` weighs the expected score of guessing now
    against waiting), ``prophet_confidence`` the one from which it becomes a prophet and plays the
    cards its rule accepts.  ``turns`` and ``penalty`` describe the science round it
    plays (:func:`play_science`'s, whose defaults they share): how many turns a round
    has and what a wrong guess costs.  It counts the turns from the observations (one a
    turn) and its wrong guesses from :meth:`wrong_guess`, so it knows what a right guess
    would still score.  It sees only observations (or an agent's view): never the
    secret rule.

    The same ``seed`` and observations give the same cards and guesses while the time
    limit does not bind (a decision takes about 0.2 s; pass a larger ``time_per_move``
    where rounds must replay exactly on a loaded machine).
    """

    def __init__(
        self,
        *,
        seed: int | None = None,
        time_per_move: float = 1.0,
        confidence: float = 0.6,
        prophet_confidence: float = 0.8,
        turns: int = 30,
        penalty: int = PENALTY,
    ) -> None:
        for name, value, low in (("turns", turns, 1), ("penalty", penalty, 0)):
            if type(value) is not int or value < low:
                raise CardRulesError(f"{name} must be an integer >= {low}, not {value!r}")
        self.seed = seed
        self.time_per_move = time_per_move
        self.confidence = confidence
        self.prophet_confidence = prophet_confidence
        self.turns = turns
        self.penalty = penalty
        self._rng = random.Random(0 if seed is None else seed)
        # observations -> the belief, and the total weight its probabilities were divided by
        self._cache: OrderedDict[tuple[Observation, ...], tuple[Belief, float]] = OrderedDict()
        # Refuted guesses of this round: fingerprint of the play part -> {None} (refuted
        # with every start: part, since the start: part of a guess is not judged).
        self._wrong: dict[int, set[int | None]] = {}
        self._stated: tuple[str, int, int | None] | None = None  # the last guess: text, fingerprint, start
        self._wrong_at: tuple[Observation, ...] = ()
        self._wrong_count = 0  # wrong guesses this round
        # guesses refuted without a start: part: the extensions of the pairs among them are weighed
        self._refuted: list[Hypothesis] = []
        self._hand: tuple[Card, ...] = ()  # the hand seen by choose(), less the card played
        # pairs of play parts (fingerprints, smaller first) -> whether they build the same lines
        self._same: dict[tuple[int, int], bool] = {}

    def __repr__(self) -> str:
        return f"Scientist(seed={self.seed!r}, time_per_move={self.time_per_move!r})"

    # -- beliefs ---------------------------------------------------------------------

    def belief(self, observations: Sequence[Observation]) -> Belief:
        """The hypotheses that fit ``observations`` with their probabilities."""
        key = _observations(observations)
        self._forget_other_rounds(key)
        entry = self._cache.get(key)
        if entry is not None and not self._wrong:
            return entry[0]
        if entry is None:
            searcher()  # made once per process: its setup is not this decision's search time
            deadline = time.perf_counter() + 0.8 * self.time_per_move
            found = ranked(key, deadline=deadline)
            total = math.fsum(found.weights) + unknown_weight(key)
            shares = tuple(w / total for w in found.weights)
            entry = (Belief(found.hypotheses, shares, main_line(key), unknown_rate(key)), total)
            self._cache[key] = entry
            if len(self._cache) > 64:
                self._cache.popitem(last=False)
        cached, total = entry
        if self._wrong:
            # A refuted guess takes away its play part's share, whatever start: part
            # it was stated with (a guess's start: part is not judged).
            starts = self.starts(key)
            s = searcher()
            hyps: list[Hypothesis] = []
            probs: list[float] = []
            for h, p in zip(cached.hypotheses, cached.probabilities, strict=True):
                left = _left(starts, self._wrong.get(s.fingerprint(h)))
                if left > 1e-12:
                    hyps.append(h)
                    probs.append(p * left)
            # A refuted pair points to the rules that add a part no verdict needed yet
            # (the search leaves them out while the pair stands): weighed by their prior.
            known = {s.fingerprint(h) for h in hyps} | set(self._wrong)
            for pair in self._refuted:
                for e in _extensions(pair, key):
                    fp = s.fingerprint(e)
                    if fp not in known:
                        known.add(fp)
                        hyps.append(e)
                        probs.append(e.weight / total)
            lost = 1.0 - math.fsum(cached.probabilities)  # the unknown rule's share
            total = math.fsum(probs) + lost
            scale = 1.0 / total if total > 0 else 0.0
            order = sorted(range(len(hyps)), key=lambda i: -probs[i])  # stable: ties keep their order
            return Belief(
                tuple(hyps[i] for i in order),
                tuple(probs[i] * scale for i in order),
                cached.line,
                cached.unknown_rate,
            )
        return cached

    def starts(self, observations: Sequence[Observation]) -> tuple[tuple[int | None, float], ...]:
        """The ``start:`` parts the starter leaves possible, with their probabilities,
        most probable first: ``None`` for "no ``start:`` part", else the index of an atom
        about the card alone (one per set of cards it takes).

        A secret rule has a ``start:`` part with prior probability :data:`START_SHARE`,
        which is then an atom about the card alone, by the atoms' prior.  The verdicts on
        played cards say nothing about it (the ``start:`` part judges the starter only);
        the starter does: it is the first card turned that the part takes, so a part
        that takes ``n`` of the 52 cards shows this starter with chance ``1/n``, against
        ``1/52`` without one (the size principle: "an ace" explains an ace starter 13
        times better than "any card").  When a starter was refused, or there is no
        starter, the search fits the ``start:`` part itself and this is ``((None, 1.0),)``.
        """
        starters = [o for o in _observations(observations) if not o.line]
        if len(starters) != 1 or not starters[0].accepted:
            return ((None, 1.0),)
        return _start_posterior(starters[0].card)

    def _pick(
        self, b: Belief, observations: Sequence[Observation]
    ) -> tuple[Hypothesis, int | None, float, float] | None:
        """The guess to state: the most probable play part not refuted, with the most
        probable ``start:`` part (which is not judged: the guess is right if its play
        part builds the secret rule's lines from the secret rule's starters, whatever
        ``start:`` part the secret has); that rule, its ``start:`` part (as
        :meth:`starts` names it), the probability of its play part and the chance that
        the guess is right (the same: every ``start:`` part of the secret counts)."""
        starts = self.starts(observations)
        s = searcher()
        best: tuple[Hypothesis, int | None, float, float] | None = None
        top = 0.0
        for h, p in zip(b.hypotheses[:GUESS_HYPOTHESES], b.probabilities, strict=False):
            refuted = self._wrong.get(s.fingerprint(h))
            left = _left(starts, refuted)
            part = next(((st, q) for st, q in starts if refuted is None or st not in refuted), None)
            if part is None or left <= 0.0:
                continue
            chance = p
            if best is None or chance > top:
                best = (h if part[0] is None else attrs.evolve(h, start=part[0]), part[0], p, chance)
                top = chance
        return best

    def _forget_other_rounds(self, key: tuple[Observation, ...]) -> None:
        """Refuted guesses count only while the observations extend those of the
        refutation (one round)."""
        if self._wrong and key[: len(self._wrong_at)] != self._wrong_at:
            self._wrong.clear()
            self._wrong_at = ()
            self._wrong_count = 0
            self._refuted.clear()

    def best(self, observations: Sequence[Observation]) -> tuple[Rule | None, float]:
        """The most probable rule now and its probability (``(None, 0.0)`` when no rule
        of the search fits)."""
        b = self.belief(observations)
        return (b.best.rule() if b.best is not None else None), b.confidence

    def wrong_guess(self, rule: Rule, observations: Sequence[Observation]) -> None:
        """Told that ``rule`` was a wrong guess: neither it nor its lookalikes (the
        hypotheses that build the same lines from every starter, so are as wrong as
        it) are stated again this round.  Lookalikes are found among the
        :data:`LOOKALIKE_HYPOTHESES` most probable hypotheses by random lines, then each
        is confirmed by :func:`~cardrules.lang.analysis.equivalent` (``in_play=True``,
        between play parts), at most :data:`LOOKALIKE_CHECKS` of them.  A guess is judged
        on the lines the secret rule builds, whatever ``start:`` part the guess states:
        had the secret rule the guess's play part, with any ``start:`` part, the guess
        would have been right.  So a wrong guess refutes its play part (and its
        lookalikes) with every ``start:`` part."""
        if not isinstance(rule, Rule):
            raise CardRulesError(f"wrong_guess takes the compiled Rule that was guessed, not {rule!r}")
        b = self.belief(observations)
        s = searcher()
        if self._stated is not None and self._stated[0] == rule.source:
            wrong = {self._stated[1]}
            stated = next((h for h in b.hypotheses if s.fingerprint(h) == self._stated[1]), None)
            if stated is not None:
                self._refuted.append(stated)
                rule = stated.rule()  # its play part: the start: part stated is not judged
        else:
            named = [h for h in b.hypotheses if h.text() == rule.source]
            wrong = {s.fingerprint(h) for h in named}
            self._refuted.extend(named)
        candidates = _lookalikes(rule, b.hypotheses[:LOOKALIKE_HYPOTHESES], random.Random(len(observations)))
        checked = 0
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", EquivalenceNotProven)
            for h in candidates:
                fp = s.fingerprint(h)
                if fp in wrong:
                    continue
                if checked >= LOOKALIKE_CHECKS:
                    break
                checked += 1
                if equivalent(h.rule(), rule, in_play=True) is None:
                    wrong.add(fp)
        for fp in sorted(wrong):
            self._wrong.setdefault(fp, set()).add(None)
        self._wrong_at = tuple(observations)
        self._wrong_count += 1

    # -- the science round -------------------------------------------------------------

    def choose(self, hand: Iterable[Card], observations: Sequence[Observation]) -> Card:
        """The card of ``hand`` to play next: the one after whose verdict (and the best
        card after it) the most probable rule is expected to be most probable, that
        is the chance of a right guess one and two cards from now; the entropy of the
        verdict of the search's rules (the rest of the probability counting as a
        refusal) breaks ties.  A card is worth less by the probability of the rules that
        would accept it and then no card at all (the line stuck, and all but the most
        probable of them to be guessed in vain), weighed :data:`STUCK_WEIGHT`."""
        held = _cards(hand)
        cards = canonical(set(held))
        if not cards:
            raise CardRulesError("choose needs a hand with at least one card")
        b = self.belief(observations)
        if not b.hypotheses:
            chosen = cards[self._rng.randrange(len(cards))]
            self._remember(held, chosen)
            return chosen
        deadline = time.perf_counter() + 0.5 * self.time_per_move
        hyps = b.hypotheses[:LOOKAHEAD_HYPOTHESES]
        probs = b.probabilities[:LOOKAHEAD_HYPOTHESES]
        values = _values(hyps, b.line, cards)
        stuck = _stuck_after(hyps[:STUCK_HYPOTHESES], b.line, cards)
        scores: list[float] = []
        for j, card in enumerate(cards):
            acc = [i for i, v in enumerate(values) if v >> j & 1]
            rej = [i for i, v in enumerate(values) if not v >> j & 1]
            pacc = math.fsum(probs[i] for i in acc)
            # the known rules' verdict: the unknown rule's share counts as a refusal,
            # which favours the cards the likely rules accept (they extend the line,
            # where later cards can test them); counting it as a coin of the observed
            # rate (the mutual information, as in delay) was measured and not kept
            q = min(max(pacc, 0.0), 1.0)
            h = _entropy(q)
            one = _top(probs, acc) + _top(probs, rej)
            # the rules that would accept the card and then no card at all: the line
            # would be stuck, and all but one of them would be guessed in vain
            dead = [probs[i] for i in acc if i < len(stuck[j]) and stuck[j][i]]
            ends = math.fsum(dead) - max(dead, default=0.0)
            two = 0.0
            if time.perf_counter() < deadline:
                rest = list(held)
                rest.remove(card)
                rest_cards = canonical(set(rest))
                for group, line in ((acc, (*b.line, card)), (rej, b.line)):
                    if not group or not rest_cards:
                        two += _top(probs, group)
                        continue
                    sub = [hyps[i] for i in group]
                    sub_values = _values(sub, line, rest_cards)
                    best = 0.0
                    for k in range(len(rest_cards)):
                        a2 = [group[i] for i, v in enumerate(sub_values) if v >> k & 1]
                        r2 = [group[i] for i, v in enumerate(sub_values) if not v >> k & 1]
                        best = max(best, _top(probs, a2) + _top(probs, r2))
                    two += best
            else:
                two = one
            scores.append(one + two + INFO_WEIGHT * h + 0.01 * q - STUCK_WEIGHT * ends)
        top = max(scores)
        best_cards = [c for c, sc in zip(cards, scores, strict=True) if sc >= top - 1e-9]
        chosen = best_cards[self._rng.randrange(len(best_cards))]
        self._remember(held, chosen)
        return chosen

    def _remember(self, hand: Sequence[Card], played: Card) -> None:
        rest = list(hand)
        rest.remove(played)
        self._hand = canonical(set(rest))

    def _acceptance(self, b: Belief, cards: Sequence[Card], *, unknown: bool = True) -> list[float]:
        """For each card, the probability that it is accepted after the main line (with
        ``unknown=False``, the part of it that is the search's rules')."""
        if not b.hypotheses:
            return [0.5 if unknown else 0.0] * len(cards)
        s = searcher()
        plays = [(b.line, c) for c in cards]
        masks, longs, full = s.evaluate(plays)
        out = [0.0] * len(cards)
        for h, p in zip(b.hypotheses, b.probabilities, strict=True):
            v = h.value(masks, longs, full)
            for j in range(len(cards)):
                if v >> j & 1:
                    out[j] += p
        if not unknown:
            return out
        rest = max(0.0, 1.0 - math.fsum(b.probabilities))
        return [x + b.unknown_rate * rest for x in out]

    def guess(self, observations: Sequence[Observation]) -> Rule | None:
        """The rule it would state now, or ``None`` while waiting is worth more.

        The rule is the most probable play part not refuted, with the most probable
        ``start:`` part (:meth:`starts`; usually none), which is not judged.  Its
        probability ``r`` counts the play parts that build the same lines from every
        starter (confirmed by the in-play equivalence): the guess is right if the secret
        rule is any of them, with any ``start:`` part.  With ``p`` the probability of its
        play part (whatever its ``start:`` part) and ``s >= p`` that of the rules no
        experiment can tell from its play part any more (:meth:`settled`: its
        lookalikes), it
        guesses when ``r >= confidence``, or when ``r * min(delay, left) + (s - r) >
        cost * (1 - s)``, where ``delay`` (:meth:`delay`) is the number of turns playing
        would take to make the best rule sure and ``left`` the turns left in the round.
        The rules of ``s`` will have to be guessed in turn anyway, so a guess now costs
        only if the secret rule is not among them; it saves about ``delay`` turns (no
        more than are left) if it is the rule stated, and one turn of the sequence of
        guesses if it is another of them.  So lookalikes are guessed at once, most
        probable first (a wrong guess is not repeated), and so is the best rule when the
        cards can hardly tell anything more.  A play part that a wrong guess refuted is
        not stated again, with any ``start:`` part.

        ``cost`` is what a wrong guess is expected to take from the score: the
        ``penalty``, but no more than a right guess one turn later would still score
        (``left - 1 - penalty * wrong guesses``), nor than the right guess that waiting
        brings would still score.  Waiting is taken to find the rule after a time ``D``
        that is memoryless (the least assuming law) with mean ``delay``, so ``cost`` is
        ``E[min(penalty, max(0, left - penalty * wrong guesses - D))]``: small when
        waiting is not expected to find the rule in time.  On the last turn it is 0, and
        the scientist then states its best rule however improbable (only from a
        probability of :data:`MIN_GUESS` before): a round not solved scores 0 whatever
        was guessed."""
        b = self.belief(observations)
        pick = self._pick(b, observations)
        if pick is None:
            return None
        h, start, p, chance = pick
        if chance >= self.confidence or self._stuck(b):
            return self._state(h, start)
        left = self.turns - sum(1 for o in observations if o.line)  # one observation a turn
        cost = min(self.penalty, max(0, left - 1 - self.penalty * self._wrong_count))
        if cost == 0:
            return self._state(h, start)
        if p < MIN_GUESS:
            return None
        group = self._settled_group(b, h)
        # Its start: variants are among the rules no experiment can tell from it.
        s = max(math.fsum(q for _, q in group), p)
        # The guess is right too if the secret rule is another play part that builds
        # the same lines from every starter (with the same start: part).
        chance *= 1.0 + self._same_in_play(h, group) / p
        if chance >= self.confidence:
            return self._state(h, start)
        delay = self.delay(b, chance)
        # A wrong guess takes no more than the right guess that waiting would bring
        # could still score: little when waiting is not expected to find the rule in time.
        risk = _expected_loss(cost, left - self.penalty * self._wrong_count, delay)
        if chance * min(delay, max(1, left)) + (s - chance) > risk * (1 - s):
            return self._state(h, start)
        return None

    def _state(self, h: Hypothesis, start: int | None) -> Rule:
        """``h`` as the rule to state, remembered so that :meth:`wrong_guess` knows which
        play part and ``start:`` part it refutes."""
        rule = h.rule()
        self._stated = (rule.source, searcher().fingerprint(h), start)
        return rule

    def delay(self, b: Belief, confidence: float | None = None) -> float:
        """The turns that playing is expected to take before the best rule is sure.

        The bits still missing are ``-log2 p``, with ``p`` the best rule's probability
        (or ``confidence`` when given).  Played from the hand, they take the bits missing
        over the most information (bits) the verdict on one card of the hand can bring.
        Or the scientist waits to draw one of the ``k`` kinds of card (of the 52) that
        tell the most, about ``52 / k`` turns, and then plays such cards: ``52 / k`` plus
        the bits missing over the least information among those ``k``.  The delay is the
        shortest of these, at least 1; ``math.inf`` when no card at all can tell
        anything.  The hand is the one last seen by :meth:`choose` without the card
        played (the whole deck when there is none)."""
        p = b.confidence if confidence is None else min(confidence, 1.0)
        if p <= 0.0:
            return math.inf
        # what a verdict tells of the hypotheses: its entropy less the part of it that
        # is the unknown rule's coin (which tells nothing)
        unknown = max(0.0, 1.0 - math.fsum(b.probabilities))
        every = [_information(q, unknown, b.unknown_rate) for q in self._acceptance(b, _DECK, unknown=False)]
        needed = -math.log2(p)
        hand = [every[_DECK_INDEX[c]] for c in self._hand] if self._hand else every
        info = max(hand, default=0.0)
        turns = needed / info if info > 0.0 else math.inf
        # When the hand tells little (an ace is what would tell "only aces" from the
        # rest), waiting for a telling card to be drawn is the faster way.
        for k, x in enumerate(sorted(every, reverse=True), 1):
            if x <= 0.0:
                break
            turns = min(turns, len(_DECK) / k + needed / x)
        return max(1.0, turns)

    def settled(self, b: Belief, h: Hypothesis | None = None, *, walks: int = 3, length: int = 4) -> float:
        """The probability of the rule ``h`` (the best rule by default) and of the rules
        no experiment can tell from it any more: those that judge every card alike on
        random lines ``h`` builds from the main line as it stands (the past cannot be
        played again)."""
        if h is None:
            assert b.best is not None
            h = b.best
        return math.fsum(p for _, p in self._settled_group(b, h, walks=walks, length=length))

    def _settled_group(
        self, b: Belief, h: Hypothesis, *, walks: int = 3, length: int = 4
    ) -> list[tuple[Hypothesis, float]]:
        """The hypotheses of :meth:`settled` with their probabilities, most probable first."""
        lines = _random_lines(h.rule(), [b.line], random.Random(len(b.line)), walks, length)
        plays = [(line, c) for line in lines for c in _DECK]
        hyps = b.hypotheses[:LOOKAHEAD_HYPOTHESES]
        used = {i for x in (*hyps, h) for i in x.parts}
        masks, longs, full = searcher().evaluate(plays, only=used)
        mine = h.value(masks, longs, full)
        probs = b.probabilities
        return [(x, p) for x, p in zip(hyps, probs, strict=False) if x.value(masks, longs, full) == mine]

    def _same_in_play(self, h: Hypothesis, group: Sequence[tuple[Hypothesis, float]]) -> float:
        """The probability of the play parts of ``group`` other than ``h`` that build
        the same lines as ``h`` from every starter (confirmed by
        :func:`~cardrules.lang.analysis.equivalent` with ``in_play=True``, the check that
        judges a guess, at most :data:`LOOKALIKE_CHECKS` new checks a decision; the
        answers are kept, since they do not depend on the observations), refuted with
        the same ``start:`` parts as ``h``.  Only the parts of at least a hundredth of
        ``h``'s probability count: the others can hardly change a decision, and a check
        that confirms an equivalence takes up to a tenth of a second."""
        s = searcher()
        mine = s.fingerprint(h)
        refuted = self._wrong.get(mine)
        rule = h.rule()
        total = 0.0
        checks = 0
        floor = next((q for x, q in group if x is h), 0.0)
        if len(self._same) > 100_000:
            self._same.clear()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", EquivalenceNotProven)
            for x, q in group:
                if q < 0.01 * floor:
                    break  # most probable first: the rest can hardly change a decision
                fp = s.fingerprint(x)
                if fp == mine or self._wrong.get(fp) != refuted:
                    continue
                key = (mine, fp) if mine < fp else (fp, mine)
                same = self._same.get(key)
                if same is None:
                    if checks >= LOOKALIKE_CHECKS:
                        continue
                    checks += 1
                    same = self._same[key] = equivalent(x.rule(), rule, in_play=True) is None
                if same:
                    total += q
        return total

    def _stuck(self, b: Belief) -> bool:
        """Whether no card at all is likely to be accepted after the main line: then
        the line cannot change, no experiment can tell more, and guessing is free of
        regret."""
        return max(self._acceptance(b, _DECK)) < 0.02

    # -- New Eleusis -------------------------------------------------------------------

    def __call__(self, view: Any, legal_actions: Sequence[Any]) -> Any:
        if not legal_actions:
            raise CardRulesError("the scientist was asked to act with no legal action")
        observations = observations_from_view(view)
        b = self.belief(observations)
        first = legal_actions[0]
        rule = b.best.rule() if b.best is not None else None
        if type(first) in (BecomeProphet, Pass):
            sure = rule is not None and b.confidence >= self.prophet_confidence
            become = BecomeProphet()
            return become if sure and become in legal_actions else Pass()
        if type(first) is Judge:
            return _judge(view, rule, legal_actions)
        hand = tuple(view.hand)
        if rule is not None and b.confidence >= self.prophet_confidence:
            chain = _chain(rule, view.main, hand, max(1, view.max_string))
            if chain:
                return Play(tuple(chain))
            if NoPlay() in legal_actions:
                return NoPlay()
        cards = canonical(set(hand))
        if b.hypotheses and max(self._acceptance(b, cards)) < 0.02 and NoPlay() in legal_actions:
            return NoPlay()
        return Play((self.choose(hand, observations),))


@functools.lru_cache(maxsize=32)
def _extensions(pair: Hypothesis, observations: tuple[Observation, ...]) -> tuple[Hypothesis, ...]:
    """:meth:`~cardrules.eleusis.induction.Searcher.extensions`, kept for the turns of a round."""
    return tuple(searcher().extensions(pair, observations))


def _items(items: object, kind: type, whole: str, each: str) -> tuple[Any, ...]:
    """``items`` as a tuple, or a :class:`~cardrules.errors.CardRulesError` (``whole`` when
    it is no sequence, ``each`` when an item is not a ``kind``)."""
    if isinstance(items, (str, bytes)) or not isinstance(items, Iterable):
        raise CardRulesError(f"{whole}, not {short_text(items)}")
    out = tuple(items)
    for x in out:
        if not isinstance(x, kind):
            raise CardRulesError(f"{each}, not {short_text(x)}")
    return out


def _observations(observations: Iterable[Observation]) -> tuple[Observation, ...]:
    """``observations`` as a tuple, or a :class:`~cardrules.errors.CardRulesError` that
    says what is not an observation."""
    out = _items(observations, Observation, "observations are a sequence of Observation records",
                 "observations are Observation records")  # fmt: skip
    for o in out:
        check_line_length(o.line)
        if not isinstance(o.card, Card) or not all(isinstance(c, Card) for c in o.line):
            raise CardRulesError(f"an observation's card and line are cards: {short_text(o)}")
        if type(o.accepted) is not bool:
            raise CardRulesError(f"an observation's verdict is True or False: {short_text(o)}")
        check_standard_cards(o.line, o.card)
    return out


def _cards(hand: Iterable[Card]) -> tuple[Card, ...]:
    """``hand`` as a tuple of cards, or a :class:`~cardrules.errors.CardRulesError`."""
    out = _items(hand, Card, "a hand is a sequence of cards", "a hand holds cards")
    check_line_length(out, "a hand")
    check_standard_cards(out)
    return out


def _left(starts: Sequence[tuple[int | None, float]], refuted: set[int | None] | None) -> float:
    """The share of a play part's probability left after the wrong guesses: none once
    it was refuted (``refuted`` not empty), whatever ``start:`` part it was stated with,
    since the guess's ``start:`` part is not judged."""
    return 0.0 if refuted else 1.0


@functools.cache
def _start_parts() -> tuple[tuple[int, int, float], ...]:
    """The ``start:`` parts a scientist weighs: one atom about the card alone per set of
    cards (the most probable text), with the set as a mask over the 52 cards and the
    prior probability of the set (the atoms' weights, summed and normalised)."""
    found = atoms()
    full = (1 << len(_DECK)) - 1
    sets: dict[int, list[Any]] = {}
    for i, a in enumerate(found):
        if not a.card_only:
            continue
        mask = sum(1 << k for k, c in enumerate(_DECK) if a.fn((), c))
        if mask in (0, full):
            continue
        if mask in sets:
            sets[mask][1] += a.weight
        else:
            sets[mask] = [i, a.weight]
    total = math.fsum(w for _, w in sets.values())
    return tuple(sorted(((i, m, w / total) for m, (i, w) in sets.items()), key=lambda t: (-t[2], t[0])))


@functools.lru_cache(maxsize=64)
def _start_posterior(starter: Card) -> tuple[tuple[int | None, float], ...]:
    """The probabilities of the ``start:`` parts after the starter (see
    :meth:`Scientist.starts`), most probable first; parts below one in a million are
    left out."""
    bit = 1 << _DECK.index(starter)
    n = len(_DECK)
    weights: list[tuple[int | None, float]] = [(None, 1.0 - START_SHARE)]
    for i, mask, prior in _start_parts():
        if mask & bit:
            weights.append((i, START_SHARE * prior * n / mask.bit_count()))
    total = math.fsum(w for _, w in weights)
    out = [(i, w / total) for i, w in weights if w / total >= 1e-6]
    out.sort(key=lambda t: -t[1])
    return tuple(out)


def _random_lines(
    rule: Rule, starts: Sequence[tuple[Card, ...]], rng: random.Random, walks: int, length: int
) -> list[tuple[Card, ...]]:
    """The lines of ``walks`` random walks of up to ``length`` cards that ``rule`` accepts,
    each from one of ``starts`` (drawn at random when there are several), with every line
    on the way, shortest first."""
    lines: set[tuple[Card, ...]] = set()
    for _ in range(walks):
        line = list(starts[0] if len(starts) == 1 else starts[rng.randrange(len(starts))])
        lines.add(tuple(line))
        for _ in range(length):
            ok = [c for c in _DECK if rule.accepts(line, c)]
            if not ok:
                break
            line.append(ok[rng.randrange(len(ok))])
            lines.add(tuple(line))
    return sorted(lines, key=lambda x: (len(x), [k.index for k in x]))


def _lookalikes(
    rule: Rule, hyps: Sequence[Hypothesis], rng: random.Random, *, walks: int = 8, length: int = 6
) -> list[Hypothesis]:
    """The hypotheses of ``hyps`` that judge all 52 cards as ``rule`` does on random
    lines ``rule`` builds from a starter it accepts (a sample: they are probably
    equivalent to ``rule`` in play)."""
    starters = [(c,) for c in _DECK if rule.accepts_start(c)]
    if not starters or not hyps:
        return []
    plays = [(line, c) for line in _random_lines(rule, starters, rng, walks, length) for c in _DECK]
    mine = sum(1 << j for j, (line, c) in enumerate(plays) if rule.accepts(line, c))
    used = {i for h in hyps for i in h.parts}
    masks, longs, full = searcher().evaluate(plays, only=used)
    return [h for h in hyps if h.value(masks, longs, full) == mine]


def _expected_loss(cost: float, score: float, delay: float) -> float:
    """What a wrong guess is expected to take from a right guess that waiting brings
    after a time ``D`` (turns) that is memoryless of mean ``delay``: ``E[min(cost,
    max(0, score - D))]``, where ``score`` is what a right guess now would score
    (``cost`` at most ``score``)."""
    cost = min(cost, score)
    if cost <= 0.0 or math.isinf(delay):
        return 0.0
    return max(0.0, cost - delay * math.exp(-score / delay) * math.expm1(cost / delay))


def _entropy(q: float) -> float:
    """The information (bits) of a verdict that is "accepted" with probability ``q``."""
    if q <= 0.0 or q >= 1.0:
        return 0.0
    return -(q * math.log2(q) + (1 - q) * math.log2(1 - q))


def _information(accepting: float, unknown: float, rate: float) -> float:
    """What a verdict tells of the rules (bits, the mutual information): ``accepting`` is
    the probability of the search's rules that accept the card, ``unknown`` that of "a
    rule the search does not know", which accepts it at ``rate``; the verdict's entropy
    less the part of it that is the unknown rule's coin (which tells nothing)."""
    q = min(max(accepting + unknown * rate, 0.0), 1.0)
    return max(0.0, _entropy(q) - unknown * _entropy(rate))


def _top(probs: Sequence[float], group: Sequence[int]) -> float:
    return max((probs[i] for i in group), default=0.0)


def _values(hyps: Sequence[Hypothesis], line: tuple[Card, ...], cards: Sequence[Card]) -> list[int]:
    """For each hypothesis, the bit mask of the cards it accepts after ``line``."""
    s = searcher()
    masks, longs, full = s.evaluate([(line, c) for c in cards])
    return [h.value(masks, longs, full) for h in hyps]


def _stuck_after(
    hyps: Sequence[Hypothesis], line: tuple[Card, ...], cards: Sequence[Card]
) -> list[list[bool]]:
    """For each card, whether each hypothesis accepts no card at all after ``line``
    extended by it."""
    s = searcher()
    n = len(_DECK)
    plays = [((*line, c), d) for c in cards for d in _DECK]
    used = {i for h in hyps for i in h.parts}
    masks, longs, full = s.evaluate(plays, only=used)
    values = [h.value(masks, longs, full) for h in hyps]
    whole = (1 << n) - 1
    return [[not (v >> (n * j)) & whole for v in values] for j in range(len(cards))]


def _chain(rule: Rule, main: Sequence[Card], hand: Sequence[Card], longest: int) -> list[Card]:
    """Cards of ``hand`` that ``rule`` accepts one after another (at most ``longest``)."""
    line = list(main)
    left = list(canonical(hand))
    chain: list[Card] = []
    while len(chain) < longest:
        pick = next((c for c in left if rule.accepts(line, c)), None)
        if pick is None:
            break
        chain.append(pick)
        left.remove(pick)
        line.append(pick)
    return chain


def _judge(view: Any, rule: Rule | None, legal: Sequence[Any]) -> Any:
    pending = view.pending
    if type(pending) is Play:
        right = rule is None or rule.accepts_string(view.main, pending.cards)
        return Judge(right)
    if rule is not None:
        for c in canonical(set(view.shown)):
            if rule.accepts(view.main, c) and Judge(False, c) in legal:
                return Judge(False, c)
    return Judge(True)


def observations_from_view(view: Any) -> tuple[Observation, ...]:
    """What a New Eleusis table shows: the starter, every main-line card (accepted,
    with the line before it) and every single card of a side line (rejected, with the
    main line up to the card it lies under).  A wrong string of several cards tells
    nothing about any one of them, so it gives no observation."""
    main = tuple(view.main)
    out = [Observation(main[:k], main[k], True) for k in range(len(main))]
    for i, cards in view.sides:
        if len(cards) == 1 and 0 <= i < len(main):
            out.append(Observation(main[: i + 1], cards[0], False))
    return tuple(out)


# -- the science round ----------------------------------------------------------------------


@attrs.frozen
class ScienceRound:
    """The result of :func:`play_science`.

    ``solved``; ``turns`` (the turn of the right guess, else the number of turns);
    ``wrong_guesses``; ``score`` (``max(0, turns_max - turn - penalty * wrong_guesses)``
    when solved, else 0); ``guesses`` (``(turn, rule)`` for each stated guess);
    ``observations`` (the starter's, then one per turn)."""

    solved: bool
    turns: int
    wrong_guesses: int
    score: int
    guesses: tuple[tuple[int, Rule], ...]
    observations: tuple[Observation, ...]


def guess_is_right(guess: Rule, secret: Rule, *, max_length: int = 10) -> bool:
    """Whether ``guess`` is right about ``secret``, as a science round judges it: it gives
    the secret rule's verdict on every card, along every main line the *secret* rule
    builds (from every starter its ``start:`` part accepts, then each card it accepts).
    The guess's own ``start:`` part is not judged: the round's starter is already on the
    table, and the cards the secret refused as starters were never shown.

    Exact where :func:`~cardrules.lang.equivalent` is exact; otherwise the same bounded
    search (every built line of up to 2 cards, then random built lines of up to
    ``max_length`` cards).

    >>> from cardrules.eleusis import compile_rule
    >>> only_aces = compile_rule('''
    ... rule "only aces":
    ...     start: card is ace
    ...     play:  card is ace
    ... ''')
    >>> guess_is_right(compile_rule("card.rank <= prev.rank"), only_aces)
    True
    >>> guess_is_right(compile_rule("card is ace"), compile_rule("card.rank <= prev.rank"))
    False
    """
    for rule in (guess, secret):
        if not isinstance(rule, Rule):
            raise TypeError(f"guess_is_right takes compiled Rules, not {type(rule).__name__}")
    found, _ = in_play_search(
        secret, guess, max_length=max_length, seed=0, samples=SAMPLES_PER_LENGTH, starts=False
    )
    return found is None


def _two_decks_order(seed: object) -> tuple[Card, ...]:
    """Two standard decks shuffled by the library's seeded shuffle (``seed``, chance
    number 0): the order a seeded New Eleusis deal starts from."""
    # the cards of a new game's deal, in the order its first seeded shuffle puts them
    # (what the deal of new_game(seed=seed) starts from)
    return seeded_order(seed, 0, cards_to_shuffle(start_state(Rules(), 5)))


def play_science(
    rule: Rule,
    scientist: Any,
    *,
    seed: object = 0,
    hand: int = 12,
    turns: int = 30,
    penalty: int = 2,
) -> ScienceRound:
    """One single-player science round (the "Game of Science" protocol).

    Two decks (104 cards) are shuffled with the library's seeded shuffle (``seed``,
    chance number 0).  The scientist draws ``hand`` cards from the top; then cards are
    turned until one is accepted by ``rule.accepts_start``: the starter (the others are
    out of play and not shown).  Each turn the scientist plays one card of its hand
    (``scientist.choose(hand, observations)``), the rule judges it against the main
    line, the scientist draws the next card (if any), then may state a guess
    (``scientist.guess(observations)``): right when it gives the rule's verdict on
    every card along every main line the rule builds (:func:`guess_is_right`; the
    guess's own ``start:`` part is not judged), else it costs ``penalty``.  The round ends at
    the first right guess or after ``turns`` turns.  A scientist with a
    ``wrong_guess(rule, observations)`` method is told of each wrong guess.

    The scientist sees the observations only; the rule is used to judge and to check
    guesses.
    """
    if not isinstance(rule, Rule):
        raise CardRulesError(f"play_science needs a compiled Rule, not {type(rule).__name__}")
    if not all(callable(getattr(scientist, m, None)) for m in ("choose", "guess")):
        raise TypeError(
            "play_science needs a scientist with the methods choose(hand, observations) and "
            f"guess(observations) (a Scientist), not {type(scientist).__name__}"
        )
    for name, value, low in (("hand", hand, 1), ("turns", turns, 1), ("penalty", penalty, 0)):
        if type(value) is not int or value < low:
            raise CardRulesError(f"{name} must be an integer >= {low}, not {value!r}")
    order = _two_decks_order(seed)
    held = list(order[:hand])
    pos = hand
    starter: Card | None = None
    while pos < len(order):
        card = order[pos]
        pos += 1
        if rule.accepts_start(card):
            starter = card
            break
    if starter is None:
        raise CardRulesError("the rule's start: part accepts no card of the deck")
    main: list[Card] = [starter]
    observations: list[Observation] = [Observation((), starter, True)]
    guesses: list[tuple[int, Rule]] = []
    wrong = 0
    solved = False
    turn = 0
    for turn in range(1, turns + 1):
        if not held:
            break
        card = scientist.choose(tuple(held), tuple(observations))
        if card not in held:
            raise CardRulesError(f"the scientist played {card!r}, which is not in its hand")
        held.remove(card)
        accepted = bool(rule.accepts(main, card))
        observations.append(Observation(tuple(main), card, accepted))
        if accepted:
            main.append(card)
        if pos < len(order):
            held.append(order[pos])
            pos += 1
        stated = scientist.guess(tuple(observations))
        if stated is None:
            continue
        if not isinstance(stated, Rule):
            raise CardRulesError(f"a guess is a compiled Rule or None, not {stated!r}")
        guesses.append((turn, stated))
        if guess_is_right(stated, rule):
            solved = True
            break
        wrong += 1
        told = getattr(scientist, "wrong_guess", None)
        if told is not None:
            told(stated, tuple(observations))
    last = turn if solved else turns
    score = max(0, turns - last - penalty * wrong) if solved else 0
    return ScienceRound(solved, last, wrong, score, tuple(guesses), tuple(observations))

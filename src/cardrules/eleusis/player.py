"""The scientist at the New Eleusis table: :class:`TableScientist`, the strong agent.

It keeps the hypotheses of the Eleusis scientist (:class:`~cardrules.eleusis.science.Scientist`,
the same search and prior as ``cardrules science``) about the secret rule, rebuilt from
its view alone at each decision: every main-line card is a card the rule accepted after
the cards before it, every single card of a side line one it refused after the main line
up to that card, whoever played them and whoever judged them (God, or a prophet God
approved: an overthrown prophet's call is corrected on the layout).  A side line of
several cards (a wrong string) says only that at least one of them was wrong: the
hypotheses that accept the whole string are dropped.  The view does not keep a hand
shown with a no-play once it is judged, so that evidence is not used.

From the probabilities of the hypotheses (and of "a rule the search does not know",
which accepts a card at the observed rate) it knows the chance that each card, each
string and a no-play is right, and plays for cards shed:

* a right card sheds one card, a wrong one costs one net (the card back on the side
  line, two drawn); a string of ``k`` sheds ``k`` or costs ``k``; a right no-play sheds
  four, a wrong one costs four (five drawn, one right card put down); emptying the hand
  adds the four points of going out.  In sudden death a wrong play expels the player
  with its hand: it costs what the hand could still shed (half of it), so only a sure
  play is made;
* outside sudden death a single card is worth a little more for what its verdict tells
  (:data:`INFO_VALUE` per bit of the verdict's mutual information with the rules);
* it becomes prophet when the rules that judge like its best rule on the lines that
  rule builds from the main line (:meth:`Scientist.settled`) hold at least
  :data:`PROPHET_SURE` of the probability, and judges as prophet by the probability of
  the verdict under all its hypotheses.

A decision takes the search's time (``time_per_move``, by default 0.3 s, of which the
search uses 80%) and a few milliseconds more; between two full searches (every
:data:`FRESH_EVERY` observations) the hypotheses found are filtered by the new
observations, which takes milliseconds.
"""

from __future__ import annotations

import math
import threading
import time
import zlib
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any, Final

from ..agents import SeededAgent
from ..cards import Card, canonical
from ..errors import CardRulesError
from .induction import Hypothesis, Observation, Ranked, ranked, searcher
from .rules import BecomeProphet, Judge, NoPlay, Pass, Play, View
from .science import Belief, Scientist, main_line, observations_from_view, unknown_rate, unknown_weight

__all__ = ["INFO_VALUE", "PROPHET_SURE", "TableScientist"]

#: What one bit of a verdict's information is worth, in cards shed, when choosing a
#: single card outside sudden death.
INFO_VALUE: Final = 0.3
#: The share of the probability that must judge like the best rule (on the lines it
#: builds from the main line) for the player to become prophet.
PROPHET_SURE: Final = 0.9
#: Cards of the main line (starter included) before the player becomes prophet at all.
PROPHET_AFTER: Final = 6
#: The points of going out (a scientist with no cards scores 4 more).
GOING_OUT: Final = 4.0
#: How many of the most probable hypotheses each propose a string (their longest run of
#: cards of the hand).
STRING_HYPOTHESES: Final = 8
#: How many of the most probable hypotheses the chances of cards and strings count.
COUNTED: Final = 600


class TableScientist(SeededAgent):
    """The Eleusis scientist as a New Eleusis player (``strong_agent("eleusis")``).

    ``agent(view, legal_actions) -> action`` as every agent; it rebuilds its belief from
    the view (a belief already computed for the same layout is reused), so an agent
    made anew for every move plays as one kept for the round.  ``time_per_move`` bounds
    the search of one decision (seconds); ``prophet_sure`` is the share of the
    probability from which it becomes prophet (:data:`~cardrules.eleusis.player.PROPHET_SURE`).  See
    :mod:`cardrules.eleusis.player` for how it decides.  The same seed and views give
    the same actions while the search's time limit does not bind (as for
    :class:`~cardrules.eleusis.Scientist`); on a loaded machine a search cut short may
    find fewer rules.
    """

    SEED_PREFIX = "eleusis-scientist"

    def __init__(
        self, seed: object = None, *, time_per_move: float = 0.3, prophet_sure: float = PROPHET_SURE
    ) -> None:
        super().__init__(seed)
        self.time_per_move = time_per_move
        self.prophet_sure = prophet_sure
        number = None if seed is None else zlib.crc32(repr(seed).encode())
        self.scientist = Scientist(seed=number, time_per_move=time_per_move)

    # -- belief --------------------------------------------------------------------

    def belief(self, view: View) -> tuple[Belief, float, float]:
        """The hypotheses that fit ``view``'s layout with their probabilities, the
        probability left to "a rule the search does not know" and the chance that it
        accepts a card."""
        observations = observations_from_view(view)
        searcher()  # made once per process: its setup is not this decision's search time
        found = _ranked(observations, time.perf_counter() + 0.8 * self.time_per_move)
        total = math.fsum(found.weights) + unknown_weight(observations)
        b = Belief(
            found.hypotheses,
            tuple(w / total for w in found.weights),
            main_line(observations),
            unknown_rate(observations),
        )
        hyps = list(b.hypotheses[:COUNTED])
        probs = list(b.probabilities[:COUNTED])
        unknown = max(0.0, 1.0 - math.fsum(b.probabilities))
        strings = [(view.main[: i + 1], cards) for i, cards in view.sides if len(cards) > 1]
        if strings and hyps:
            # a wrong string: at least one of its cards was wrong
            plays, spans = _string_plays(strings)
            values = _masks(hyps, plays)
            keep = [all(not _all_set(v, a, z) for a, z in spans) for v in values]
            if not all(keep):
                hyps = [h for h, k in zip(hyps, keep, strict=True) if k]
                probs = [p for p, k in zip(probs, keep, strict=True) if k]
                total = math.fsum(probs) + unknown
                if total > 0:
                    probs = [p / total for p in probs]
                    unknown /= total
        out = Belief(tuple(hyps), tuple(probs), b.line, b.unknown_rate)
        return out, unknown, b.unknown_rate

    def chances(self, view: View, strings: Sequence[tuple[Card, ...]]) -> list[float]:
        """The chance that each of ``strings`` (one card or more) is right after the
        main line, as the player believes."""
        b, unknown, rate = self.belief(view)
        return _chances(b, unknown, rate, view.main, strings)

    # -- acting ----------------------------------------------------------------------

    def __call__(self, view: View, legal_actions: Sequence[Any]) -> Any:
        if not legal_actions:
            raise CardRulesError("the scientist was asked to act with no legal action")
        b, unknown, rate = self.belief(view)
        first = legal_actions[0]
        if type(first) in (BecomeProphet, Pass):
            return self._offer(view, b, legal_actions)
        if type(first) is Judge:
            return self._judge(view, b, unknown, rate, legal_actions)
        return self._play(view, b, unknown, rate, legal_actions)

    def sure(self, view: View) -> float:
        """The probability of the rules that judge like the best one on the lines it
        builds from the main line (:meth:`Scientist.settled`): how sure the player is of
        the next verdicts."""
        b, _, _ = self.belief(view)
        if b.best is None:
            return 0.0
        return self.scientist.settled(b)

    def _offer(self, view: View, b: Belief, legal: Sequence[Any]) -> Any:
        become = BecomeProphet()
        if become not in legal or b.best is None or len(view.main) < PROPHET_AFTER:
            return Pass()
        return become if self.scientist.settled(b) >= self.prophet_sure else Pass()

    def _judge(self, view: View, b: Belief, unknown: float, rate: float, legal: Sequence[Any]) -> Any:
        pending = view.pending
        if type(pending) is Play:
            (p,) = _chances(b, unknown, rate, view.main, [tuple(pending.cards)])
            return Judge(p >= 0.5)
        shown = canonical(set(view.shown))
        if not shown:
            return Judge(True)
        ps = _chances(b, unknown, rate, view.main, [(c,) for c in shown])
        none = _none_right(b, unknown, rate, view.main, shown)
        j = max(range(len(shown)), key=lambda i: ps[i])
        call = Judge(False, shown[j])
        # "c is right" is approved only if c is right: weigh it against "no card is right"
        if ps[j] > none and call in legal:
            return call
        return Judge(True)

    def _play(self, view: View, b: Belief, unknown: float, rate: float, legal: Sequence[Any]) -> Any:
        hand = tuple(view.hand)
        cards = canonical(set(hand))
        n = len(hand)
        sudden = bool(view.in_sudden_death)

        # what a wrong play costs (cards), by its length; in sudden death the player is
        # expelled and keeps its hand: the cards it could still shed are lost
        def cost(k: int) -> float:
            return max(2.0, 0.5 * n) if sudden else float(k)

        def gain(k: int) -> float:
            return k + (GOING_OUT if k >= n else 0.0)

        candidates: list[tuple[Card, ...]] = [(c,) for c in cards]
        if view.max_string > 1 and b.hypotheses:
            candidates += _strings(b, view.main, hand, view.max_string)
        ps = _chances(b, unknown, rate, view.main, candidates)
        info = _information(b, unknown, rate, view.main, cards) if not sudden else [0.0] * len(cards)
        best_value = -math.inf
        best: Any = None
        for j, (s, p) in enumerate(zip(candidates, ps, strict=True)):
            k = len(s)
            value = p * gain(k) - (1 - p) * cost(k)
            if k == 1:
                value += INFO_VALUE * info[j]
            if value > best_value + 1e-9:
                best_value, best = value, Play(s)
        if NoPlay() in legal:
            q = _none_right(b, unknown, rate, view.main, cards)
            shed = float(min(4, n)) + (GOING_OUT if n <= 4 else 0.0)
            value = q * shed - (1 - q) * (max(2.0, 0.5 * n) if sudden else 4.0)
            if value > best_value + 1e-9:
                best = NoPlay()
        return best if best is not None else legal[0]


# -- the search, kept from one decision to the next ------------------------------------

#: The search's answers for recent layouts (shared by every player of the process, so
#: that a player made anew for every move, as at the web table, reuses them): the
#: observations, the hypotheses and their weights, and how many observations the last
#: full search had.
_FOUND: OrderedDict[frozenset[Observation], tuple[Ranked, int]] = OrderedDict()
#: (the web table chooses the computer's moves in threads)
_LOCK: Final = threading.Lock()
#: How many layouts are kept.
KEPT_LAYOUTS: Final = 256
#: How many observations may be added to those of a full search before the search is
#: run again: in between, the hypotheses it found are filtered by the new observations
#: (a rule consistent with more observations is consistent with fewer), which takes
#: milliseconds.  The search keeps only the most probable rules it finds, so a rule it
#: left out may come to the fore as observations rule the others out: hence the fresh
#: searches, and one whenever filtering leaves fewer than :data:`FEWEST` hypotheses of
#: twice as many.
FRESH_EVERY: Final = 6
#: The fewest hypotheses the filtering of a large answer may leave before the search
#: is run again.
FEWEST: Final = 200


def _ranked(observations: Sequence[Observation], deadline: float) -> Ranked:
    """The search's answer (:func:`~cardrules.eleusis.induction.ranked`) for
    ``observations``, from the kept answers when a recent layout is a part of this one
    (see :data:`FRESH_EVERY`)."""
    key = frozenset(observations)
    with _LOCK:
        hit = _FOUND.get(key)
        if hit is not None:
            _FOUND.move_to_end(key)
            return hit[0]
        base: frozenset[Observation] | None = None
        for known in reversed(_FOUND):
            if len(known) <= len(key) and known <= key and (base is None or len(known) > len(base)):
                base = known
        start = _FOUND[base] if base is not None else None
    found: Ranked | None = None
    searched = len(key)
    if base is not None and start is not None:
        kept, at = start
        new = [o for o in observations if o not in base]
        if len(key) - at <= FRESH_EVERY and all(o.line for o in new):
            found = _filtered(kept, new)
            if len(found.hypotheses) < FEWEST <= len(kept.hypotheses) // 2:
                found = None  # a large answer, perhaps cut short, filtered to a few
            else:
                searched = at
    if found is None:
        found = ranked(observations, deadline=deadline)
    with _LOCK:
        _FOUND[key] = (found, searched)
        while len(_FOUND) > KEPT_LAYOUTS:
            _FOUND.popitem(last=False)
    return found


def _filtered(found: Ranked, new: Sequence[Observation]) -> Ranked:
    """The hypotheses of ``found`` that give every verdict of ``new``."""
    if not new or not found.hypotheses:
        return found
    values = _masks(found.hypotheses, [(o.line, o.card) for o in new])
    target = sum(1 << j for j, o in enumerate(new) if o.accepted)
    keep = [i for i, v in enumerate(values) if v == target]
    return Ranked(tuple(found.hypotheses[i] for i in keep), tuple(found.weights[i] for i in keep))


# -- chances --------------------------------------------------------------------------


def _string_plays(
    strings: Sequence[tuple[tuple[Card, ...], tuple[Card, ...]]],
) -> tuple[list[tuple[tuple[Card, ...], Card]], list[tuple[int, int]]]:
    """The single plays that make up each ``(line, string)`` and each string's span of
    them."""
    plays: list[tuple[tuple[Card, ...], Card]] = []
    spans: list[tuple[int, int]] = []
    for line, cards in strings:
        a = len(plays)
        for i, c in enumerate(cards):
            plays.append(((*line, *cards[:i]), c))
        spans.append((a, len(plays)))
    return plays, spans


def _masks(hyps: Sequence[Hypothesis], plays: Sequence[tuple[tuple[Card, ...], Card]]) -> list[int]:
    s = searcher()
    used = {i for h in hyps for i in h.parts}
    masks, longs, full = s.evaluate(list(plays), only=used)
    return [h.value(masks, longs, full) for h in hyps]


def _all_set(v: int, a: int, z: int) -> bool:
    span = ((1 << (z - a)) - 1) << a
    return v & span == span


def _chances(
    b: Belief, unknown: float, rate: float, main: tuple[Card, ...], strings: Sequence[tuple[Card, ...]]
) -> list[float]:
    """The chance that each string is accepted after ``main``: the probability of the
    hypotheses that accept each of its cards, plus the unknown rule's (a coin of the
    observed rate for each card)."""
    if not strings:
        return []
    out = [unknown * rate ** len(s) for s in strings]
    if not b.hypotheses:
        return out
    plays, spans = _string_plays([(main, s) for s in strings])
    values = _masks(b.hypotheses, plays)
    for v, p in zip(values, b.probabilities, strict=True):
        for j, (a, z) in enumerate(spans):
            if _all_set(v, a, z):
                out[j] += p
    return [min(1.0, x) for x in out]


def _none_right(
    b: Belief, unknown: float, rate: float, main: tuple[Card, ...], cards: Sequence[Card]
) -> float:
    """The chance that the rule accepts none of ``cards`` after ``main``."""
    out = unknown * (1 - rate) ** len(cards)
    if not b.hypotheses or not cards:
        return min(1.0, out + (math.fsum(b.probabilities) if not cards else 0.0))
    values = _masks(b.hypotheses, [(main, c) for c in cards])
    whole = (1 << len(cards)) - 1
    for v, p in zip(values, b.probabilities, strict=True):
        if not v & whole:
            out += p
    return min(1.0, out)


def _entropy(q: float) -> float:
    if q <= 0.0 or q >= 1.0:
        return 0.0
    return -(q * math.log2(q) + (1 - q) * math.log2(1 - q))


def _information(
    b: Belief, unknown: float, rate: float, main: tuple[Card, ...], cards: Sequence[Card]
) -> list[float]:
    """What the verdict on each card tells of the rules (bits): its entropy less the
    part of it that is the unknown rule's coin."""
    known = _chances(
        Belief(b.hypotheses, b.probabilities, b.line, rate), 0.0, rate, main, [(c,) for c in cards]
    )
    out = []
    for q in known:
        total = min(max(q + unknown * rate, 0.0), 1.0)
        out.append(max(0.0, _entropy(total) - unknown * _entropy(rate)))
    return out


def _strings(b: Belief, main: tuple[Card, ...], hand: Sequence[Card], longest: int) -> list[tuple[Card, ...]]:
    """Strings of 2..``longest`` cards of ``hand`` worth weighing: for each of the
    :data:`STRING_HYPOTHESES` most probable hypotheses, the cards of the hand it accepts
    one after another (and each prefix of two cards or more)."""
    hyps = b.hypotheses[:STRING_HYPOTHESES]
    out: set[tuple[Card, ...]] = set()
    s = searcher()
    for h in hyps:
        line = tuple(main)
        left = list(canonical(set(hand)))
        rest = list(hand)
        chain: list[Card] = []
        while len(chain) < longest and left:
            masks, longs, full = s.evaluate([(line, c) for c in left], only=set(h.parts))
            v = h.value(masks, longs, full)
            pick = next((c for j, c in enumerate(left) if v >> j & 1), None)
            if pick is None:
                break
            chain.append(pick)
            rest.remove(pick)
            line = (*line, pick)
            left = list(canonical(set(rest)))
        for k in range(2, len(chain) + 1):
            out.add(tuple(chain[:k]))
    return sorted(out, key=lambda t: (len(t), [c.index for c in t]))

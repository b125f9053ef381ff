"""The New Eleusis agents' side of the game: the :class:`GreedyAgent` (a scientist that
reasons from the layout with a small library of candidate rules) and the search hooks
(``card_standing``).  The Eleusis scientist of the science round is in
:mod:`cardrules.eleusis.science`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from ..agents import SeededAgent
from ..cards import Card
from ..errors import CardRulesError
from ..lang.rules import Rule, compile_rule
from .rules import (
    BECOME_PROPHET,
    JUDGE_RIGHT,
    JUDGE_WRONG,
    NAME_WRONG,
    NO_PLAY,
    PASS_ACTION,
    PLAY_ONE,
    BecomeProphet,
    Judge,
    Pass,
    Play,
    State,
    View,
    distinct_cards,
)

#: Where ``cardrules demo`` seats the :class:`GreedyAgent`: player 0 is God and never acts.
DEMO_SEAT: Final = 1

#: The candidate rules :class:`GreedyAgent` keeps in mind by default.
LIBRARY: Final = (
    "card.color != prev.color",
    "card.color == prev.color",
    "card.suit == prev.suit or card.rank == prev.rank",
    "card.suit != prev.suit",
    "card.suit == next(prev.suit, [spades, hearts, diamonds, clubs])",
    "card.rank >= prev.rank",
    "card.rank <= prev.rank",
    "abs(card.rank - prev.rank) <= 2",
    "(card.rank + prev.rank) % 2 == 0",
    "(card.rank + prev.rank) % 2 == 1",
    "if prev is odd then card is black else card is red",
    "if prev is odd then card is red else card is black",
    "if card.rank > prev.rank then card.color == prev.color else card.color != prev.color",
    "if position is even then card is red else card is black",
    "if prev.rank % 3 == 0 then card is face elif prev.rank % 3 == 1 then card is odd else card is even",
    "card.rank in {2, 3, 5, 7, 11, 13}",
    "card is red",
    "card is black",
    "card is odd",
    "card is even",
    "card is number",
)

_LIBRARY_RULES: list[tuple[Rule, ...]] = []


class GreedyAgent(SeededAgent):
    """A scientist that reasons from the layout with a small library of candidate rules.

    It keeps the candidates (:data:`LIBRARY`, or ``library=``: rule texts or compiled
    rules) that fit the layout best: a candidate fits when it accepts every main-line
    card after the starter and rejects every wrong play on the side lines.  On its turn
    it plays the card of its hand that most of the best candidates accept; when every
    best candidate fits the layout exactly and none accepts a card of its hand, it
    declares no play.  Once a single reading of the layout is left (all fitting
    candidates agree on the next card) it plays strings of cards they all accept, and
    offers itself as prophet when the main line is long enough.  As prophet it judges
    by the same vote.  It sees only its view, never the rule.

    >>> from cardrules.simulation import play
    >>> from cardrules.agents import RandomAgent
    >>> final = play("eleusis", [RandomAgent(0), GreedyAgent(1), RandomAgent(2), RandomAgent(3)], seed=5)
    >>> final.is_over
    True
    """

    SEED_PREFIX = "eleusis-greedy"

    def __init__(self, seed: object = None, *, library: Sequence[str | Rule] | None = None,
                 prophet_after: int = 12) -> None:  # fmt: skip
        super().__init__(seed)
        if library is None:
            if not _LIBRARY_RULES:
                _LIBRARY_RULES.append(tuple(compile_rule(t) for t in LIBRARY))
            self.library: tuple[Rule, ...] = _LIBRARY_RULES[0]
        else:
            self.library = tuple(r if isinstance(r, Rule) else compile_rule(r) for r in library)
        self.prophet_after = prophet_after

    def best(self, view: View) -> tuple[list[Rule], int]:
        """The candidates that fit ``view``'s layout best, and how many observations
        each of them gets wrong (0: they fit exactly)."""
        main = view.main
        scored: list[tuple[int, Rule]] = []
        for rule in self.library:
            misses = 0
            for i in range(1, len(main)):
                if not rule.accepts(main[:i], main[i]):
                    misses += 1
            for i, cards in view.sides:
                if rule.accepts_string(main[: i + 1], cards):
                    misses += 1
            scored.append((misses, rule))
        low = min(m for m, _ in scored)
        return [r for m, r in scored if m == low], low

    def __call__(self, view: View, legal_actions: Sequence[Any]) -> Any:
        if not legal_actions:
            raise CardRulesError("GreedyAgent was asked to act with no legal action")
        first = legal_actions[0]
        if type(first) in (BecomeProphet, Pass):
            rules, misses = self.best(view)
            sure = misses == 0 and self._agree(rules, view.main)
            return (
                BECOME_PROPHET
                if sure and len(view.main) >= self.prophet_after and BECOME_PROPHET in legal_actions
                else PASS_ACTION
            )
        rules, misses = self.best(view)
        if type(first) is Judge:
            return self._judge(view, rules, legal_actions)
        hand = distinct_cards(view.hand)
        votes = {c: sum(r.accepts(view.main, c) for r in rules) for c in hand}
        top = max(votes.values(), default=0)
        if top == 0 and misses == 0 and NO_PLAY in legal_actions:
            return NO_PLAY
        if misses == 0 and view.max_string > 1 and self._agree(rules, view.main):
            chain = self._chain(rules, view)
            if len(chain) > 1:
                return Play(tuple(chain))
        best = [c for c in hand if votes[c] == top]
        return PLAY_ONE[best[self._rng.randrange(len(best))]] if best else legal_actions[0]

    def _agree(self, rules: Sequence[Rule], line: tuple[Card, ...]) -> bool:
        return len({r.allowed(line) for r in rules}) == 1

    def _chain(self, rules: Sequence[Rule], view: View) -> list[Card]:
        line = view.main
        hand = list(view.hand)
        chain: list[Card] = []
        while len(chain) < view.max_string:
            pick = next((c for c in hand if all(r.accepts(line, c) for r in rules)), None)
            if pick is None:
                break
            chain.append(pick)
            hand.remove(pick)
            line = (*line, pick)
        return chain

    def _judge(self, view: View, rules: Sequence[Rule], legal: Sequence[Any]) -> Any:
        pending = view.pending
        if type(pending) is Play:
            yes = sum(r.accepts_string(view.main, pending.cards) for r in rules)
            return JUDGE_RIGHT if 2 * yes >= len(rules) else JUDGE_WRONG
        votes = {c: sum(r.accepts(view.main, c) for r in rules) for c in distinct_cards(view.shown)}
        top = max(votes.values(), default=0)
        if 2 * top > len(rules):
            card = next(c for c in votes if votes[c] == top)
            if NAME_WRONG[card] in legal:
                return NAME_WRONG[card]
        return JUDGE_RIGHT


# -- the search hooks ------------------------------------------------------------------


def card_standing(state: State) -> list[float]:
    """A rollout's standing when no score changed: fewer cards is better (God, who
    holds none, stands at the scientists' mean)."""
    n = state.players
    gains: list[float] = [-len(h) for h in state.hands]
    gains[0] = sum(gains[1:]) // max(n - 1, 1)
    return gains

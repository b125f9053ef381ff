"""The Aegis players of the library: :class:`GreedyAgent`; the search components Aegis
offers in its :class:`~cardrules.protocol.SearchHooks` (a policy with the greedy agent's
rules, the likelihood of what the opponent did under it, and the exchanges worth
searching), as plain functions that :mod:`cardrules.aegis` hands to its ``GameDef``; and
its strongest search, :data:`STRONG_CONFIG`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from random import Random
from typing import Any

from ..cards import Card
from ..errors import CardRulesError
from ..search.config import SearchConfig
from .rules import (
    BIDS,
    CARD_INDEX,
    DECK,
    KEEP,
    SMALL_EXCHANGES,
    TRICKS,
    Bid,
    Exchange,
    Play,
    Rules,
    State,
    View,
    exchange_of,
    legal_actions,
    lowest_bid,
)

# ---------------------------------------------------------------------------------------
# Agents


class GreedyAgent:
    """A simple, documented Aegis player that sees only its :class:`View`.

    It rates each card by how often it beats the cards it cannot see, through the trick
    table with the key card, leading and following alike: its *strength*, from 0 to 1.

    * **Exchanges**: cards of strength below ``weak`` (0.5) are weak.  The master
      exchanges its weak cards in the first round when it holds two or more, and
      otherwise stops (each exchange raises its lowest bid).  The slave, whose
      exchanges cost nothing, exchanges its weak cards whenever it may.
    * **Bids**: it expects as many tricks as the sum of its cards' strengths, rounded.
      The master bids that (or the lowest legal bid if higher); the slave outbids the
      master when it expects more tricks, and otherwise bids the master's bid to defend.
    * **Tricks**: leading, it plays its strongest card; following, the weakest card that
      wins the trick if one does, else its weakest card.

    ``seed`` is accepted for the agent interface; the agent is deterministic.
    ``rules`` gives the trick table when a variant table is played.
    """

    def __init__(self, seed: object = None, *, rules: Rules | None = None, weak: float = 0.5) -> None:
        self.seed = seed
        self.table = (rules or Rules()).table
        self.weak = weak

    def __repr__(self) -> str:
        return f"GreedyAgent(seed={self.seed!r})"

    def _unseen(self, view: View) -> list[Card]:
        seen = set(view.hand)
        seen.update(view.trick)
        if view.key is not None:
            seen.add(view.key)
        for t in view.played:
            seen.update(t.cards)
        return [c for c in DECK if c not in seen]

    def strength(self, card: Card, view: View, unseen: Sequence[Card] | None = None) -> float:
        """How often ``card`` wins against the cards this player cannot see: the mean
        of the share it beats when it leads and the share it beats when it follows."""
        others = self._unseen(view) if unseen is None else unseen
        if not others:
            return 1.0
        winner = self.table.winner
        key = view.key
        leading = sum(1 for u in others if winner((card, u), key=key) == 0)
        following = sum(1 for u in others if winner((u, card), key=key) == 1)
        return (leading + following) / (2 * len(others))

    def __call__(self, view: View, legal_actions: Sequence[Any]) -> Any:
        if not legal_actions:
            raise CardRulesError("GreedyAgent was asked to act with no legal action")
        first = legal_actions[0]
        unseen = self._unseen(view)
        if type(first) is Play:
            return self._play(view, legal_actions, unseen)
        strength = {c: self.strength(c, view, unseen) for c in view.hand}
        if type(first) is Bid:
            expect = round(sum(strength.values()))
            bids = [a.n for a in legal_actions]
            # a slave that does not expect more than the master defends at the master's bid
            want = min(max(expect, bids[0]), bids[-1])
            return next(a for a in legal_actions if a.n == want)
        if type(first) is Exchange:
            weak = tuple(sorted((c for c in view.hand if strength[c] < self.weak), key=CARD_INDEX))
            if view.role == "master" and (view.exchanges > 0 or len(weak) < 2):
                weak = ()
            for a in legal_actions:
                if a.cards == weak:
                    return a
        return legal_actions[0]

    def _play(self, view: View, legal: Sequence[Any], unseen: Sequence[Card]) -> Any:
        ranked = sorted(legal, key=lambda a: (self.strength(a.card, view, unseen), a.card.index))
        if not view.trick:
            return ranked[-1]
        lead = view.trick[0]
        for a in ranked:
            if self.table.winner((lead, a.card), key=view.key) == 1:
                return a
        return ranked[0]


# ---------------------------------------------------------------------------------------
# A rollout policy (for search agents: cardrules.search, ``rollout="policy"``)

#: (table, key card) -> (strength of each card, {(lead, follow): follow wins}); a season's
#: key is fixed, so a search builds one entry per season (about 2 ms).
_PolicyTables = tuple[dict[Card, float], dict[tuple[Card, Card], bool]]
_POLICY_TABLES: dict[tuple[Any, Card], _PolicyTables] = {}
#: The entry last asked for, found by identity (a rollout asks for the same one at every
#: step; hashing a table hashes its source text in Python).
_LAST_POLICY: tuple[Any, Card, _PolicyTables] | None = None


def policy_tables(table: Any, key: Card) -> _PolicyTables:
    """Under ``table`` with ``key`` as the key card: each card's strength, and for each
    (lead, follow) pair whether the follow wins (built once per pair, then kept)."""
    global _LAST_POLICY
    last = _LAST_POLICY
    if last is not None and last[0] is table and last[1] is key:
        return last[2]
    entry = _POLICY_TABLES.get((table, key))
    if entry is None:
        winner = table.winner
        others = [c for c in DECK if c != key]
        wins = {(a, b): winner((a, b), key=key) == 1 for a in others for b in others if a != b}
        strength = {
            c: sum((not wins[c, u]) + wins[u, c] for u in others if u != c) / (2 * (len(others) - 1))
            for c in others
        }
        if len(_POLICY_TABLES) > 64:
            _POLICY_TABLES.clear()
        entry = _POLICY_TABLES[table, key] = (strength, wins)
    _LAST_POLICY = (table, key, entry)
    return entry


def rollout_policy(state: State, rng: Random) -> Any:
    """The action of a quick heuristic for the player to act in ``state`` (a rollout's
    opponent model): :class:`GreedyAgent`'s rules, with each card's strength rated once
    per key card against the whole deck instead of against the unseen cards.  It reads
    the player's own hand and the public part of the state only."""
    p = state.to_act
    assert isinstance(p, int)
    hand = state.hands[p]
    strength, wins = policy_tables(state.rules.table, state.key)  # type: ignore[arg-type]
    phase = state.phase
    if phase == "play":
        legal = legal_actions(state)
        if not state.trick:
            return max(legal, key=lambda a: strength[a.card])
        lead = state.trick[0]
        ranked = sorted(legal, key=lambda a: strength[a.card])
        for a in ranked:
            if wins[lead, a.card]:
                return a
        return ranked[0]
    if phase == "bid":
        lowest = lowest_bid(state)
        expect = round(sum(strength[c] for c in hand))
        return BIDS[min(max(expect, lowest), TRICKS) - 1]
    weak = tuple(c for c in hand if strength[c] < 0.5)  # the hand is in canonical order
    if p == state.master and (state.drawn[p] or len(weak) < 2):
        return KEEP
    return SMALL_EXCHANGES.get(weak) or exchange_of(weak)


def candidate_actions(state: State, legal: tuple[Any, ...]) -> tuple[Any, ...]:
    """The actions a search tries (``ISMCTSAgent(actions="candidates")``): in the
    exchange phase, of the up to 32 exchanges of a hand only those that discard its
    ``k`` weakest cards, ``k`` from 0 (stop, or exchange nothing) to the whole hand,
    weakest as ``rollout_policy`` rates the cards for the season's key; in the
    other phases every legal action.  Which weak cards to let go is seldom the question
    (a stronger card is a better card to keep, whatever it is); how many is, and a
    search that splits its iterations over 32 exchanges learns that too slowly."""
    if state.phase != "exchange":
        return legal
    strength, _ = policy_tables(state.rules.table, state.key)  # type: ignore[arg-type]
    hand = sorted(state.hands[state.to_act], key=lambda c: (strength[c], CARD_INDEX(c)))  # type: ignore[index]
    wanted = {tuple(sorted(hand[:k], key=CARD_INDEX)) for k in range(len(hand) + 1)}
    return tuple(a for a in legal if a.cards in wanted)


def action_likelihood(view: View, rules: Rules | None) -> Callable[[State], float] | None:
    """How likely the opponent's observed exchanges and bid are in a sample of ``view``,
    were the opponent playing ``rollout_policy`` (a number in ``(0, 1]``, for
    rejection sampling; ``None`` when the opponent has shown nothing yet).  Each
    departure from the policy divides the weight: a discarded card that was not weak,
    a master that kept two weak cards or more without exchanging, a bid one trick away
    from what the hand (before the tricks) was worth."""
    p = view.player
    o = 1 - p
    if view.key is None or view.master is None or view.phase not in ("exchange", "bid", "play"):
        return None
    bid = view.bids[o]
    exchanged = sum(view.drawn[o]) > 0
    stopped = o == view.master and not view.drawn[o] and view.phase != "exchange"
    if bid is None and not exchanged and not stopped:
        return None
    strength, _ = policy_tables((rules or Rules()).table, view.key)
    mine = set(view.discarded)
    shown = [t.cards[0] if t.leader == o else t.cards[1] for t in view.played]
    if view.trick and view.leader == o:
        shown.append(view.trick[0])
    lowest = 1 + len(view.drawn[o]) if o == view.master else view.bids[p] or 1

    def weight(state: State) -> float:
        w = 1.0
        if exchanged:
            for c in state.discards:
                if c not in mine and strength[c] >= 0.5:
                    w *= 0.3
        if stopped or bid is not None:
            hand = [*state.hands[o], *shown]
            if stopped:
                weak = sum(1 for c in hand if strength[c] < 0.5)
                if weak >= 2:
                    w *= 0.3 ** (weak - 1)
            if bid is not None:
                expect = round(sum(strength[c] for c in hand))
                off = abs(expect - bid) if bid > lowest else max(expect - bid, 0)
                w *= 0.25**off
        return w

    return weight


#: Aegis's strongest search agent (:func:`cardrules.agents.strong_agent`): rollouts and
#: the opponent in the tree play ``rollout_policy``, determinizations are weighed by
#: ``action_likelihood`` of the opponent's exchanges and bid, and the tree tries only the
#: ``candidate_actions`` exchanges; 650 iterations stay near 100 ms a decision on a 2-core
#: machine.
STRONG_CONFIG = SearchConfig(
    iterations=650, rollout="policy", belief="likelihood", opponents="policy", actions="candidates"
)

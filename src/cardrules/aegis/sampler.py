"""The Aegis state sampler: whole states consistent with a player's view
(``cardrules.aegis.sample_state``, and the sampler the search draws from).
"""

from __future__ import annotations

from collections.abc import Callable
from random import Random

from ..cards import Card
from ..sampling import SampleError, check_total, shuffled, unseen
from .rules import CARD_INDEX, DECK, STATE, Rules, State, View, discard_turns


def state_sampler(view: View, rules: Rules | None) -> Callable[[Random], State]:
    """What ``view`` leaves open, worked out once: the opponent's hand is drawn from
    the unseen cards of the suits it has not shown it lacks (it did not follow suit;
    nobody draws during the tricks), and the rest of the unseen cards make the stock
    and the opponent's discards."""
    rules = rules if rules is not None else Rules()
    p = view.player
    o = 1 - p
    seen: list[Card] = [*view.hand, *view.discarded, *view.trick]
    if view.key is not None:
        seen.append(view.key)
    for t in view.played:
        seen += t.cards
    pool = unseen(DECK, seen) if view.phase not in ("draw", "deal") else []
    h, s, d = view.hand_sizes[o], view.stock_size, sum(view.drawn[o])
    check_total("aegis", pool, (h, s, d))
    void = {t.cards[0].suit for t in view.played if t.leader == p and t.cards[1].suit is not t.cards[0].suit}
    allowed = [c for c in pool if c.suit not in void]
    if len(allowed) < h:
        raise SampleError("aegis: the opponent cannot hold its cards in the suits it may still have")
    barred = [c for c in pool if c.suit in void]  # never in the opponent's hand
    turns = [] if view.master is None else discard_turns(view.master, view.drawn)

    def draw(rng: Random) -> State:
        # One uniform shuffle of the cards the opponent may hold: its hand is the first
        # h, a uniform choice.  With no void suit that shuffle already orders the rest
        # uniformly (the stock, then the opponent's discards); else the rest and the
        # barred cards are shuffled together.
        order = shuffled(rng, allowed)
        hand = order[:h]
        rest = shuffled(rng, order[h:] + barred) if barred else order[h:]
        stock, theirs = tuple(rest[:s]), rest[s:]
        mine = view.discarded
        discards: list[Card] = []
        i = j = 0
        for q, k in turns:
            if q == p:
                discards += mine[i : i + k]
                i += k
            else:
                discards += sorted(theirs[j : j + k], key=CARD_INDEX)
                j += k
        opp = tuple(sorted(hand, key=CARD_INDEX))
        hands = (view.hand, opp) if p == 0 else (opp, view.hand)
        return STATE.new(
            rules=rules, players=2, phase=view.phase, master=view.master, key=view.key, hands=hands,
            stock=stock, discards=tuple(discards), drawn=view.drawn, bids=view.bids, leader=view.leader,
            trick=view.trick, played=view.played, scores=view.scores, seasons=view.seasons,
            to_act=view.to_act, history=(), seed=None,
        )  # fmt: skip

    return draw

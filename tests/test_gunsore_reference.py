"""Gunsore against an independent reference: a small mutable model written from the spec.

The model below shares no code with :mod:`cardrules.gunsore` (not even the trick table:
it compares cards itself, from the spec's "Cards" section).  Random games are played
through the engine and, action by action, through the model; every public part of the
state must agree.
"""

import random
from collections import Counter

from hypothesis import given
from hypothesis import strategies as st

from cardrules import JOKER, Card, Shuffle, Suit, chance_cards, gunsore
from cardrules.gunsore import DeclareWar, Play, Rules

SUIT_RANK = {Suit.SPADES: 4, Suit.CLUBS: 3, Suit.HEARTS: 2, Suit.DIAMONDS: 1}  # wind fire water earth


def group(rank):
    return "ace" if rank == 1 else "face" if rank >= 11 else "number"


BEATS = {("ace", "face"), ("face", "number"), ("number", "ace")}


def reply_wins(lead, reply):
    """Does the slave's card take the trick?  spec: rank by the cycle, then suit; the
    joker is weakest; identical cards go to the slave."""
    if lead.rank == 0 or reply.rank == 0:
        return lead.rank == 0  # the joker loses to anything; two jokers: the slave
    gl, gr = group(lead.rank), group(reply.rank)
    if gl != gr:
        return (gr, gl) in BEATS
    if lead.rank != reply.rank:
        return reply.rank > lead.rank
    if lead.suit != reply.suit:
        return SUIT_RANK[reply.suit] > SUIT_RANK[lead.suit]
    return True


def dev_points(card):
    return {0: 0, 1: 11, 11: 10, 12: 10, 13: 10}.get(card.rank, card.rank)


def war_points(card):
    return {0: 0, 1: 1, 11: 0, 12: 0, 13: 0}.get(card.rank, card.rank)


class Model:
    def __init__(self, rules, draw, deal):
        self.rules = rules
        master = 0
        for i in range(0, len(draw) - 1, 2):
            a, b = draw[i], draw[i + 1]
            if a != b:
                master = 1 if reply_wins(a, b) else 0
                break
        self.master = master
        self.scores = [0, 0]
        self.stock = list(deal)
        self.new_season()

    def new_season(self):
        self.hands = [[], []]
        n = self.rules.hand_size
        for _ in range(n):
            for p in (self.master, 1 - self.master):
                if self.stock:
                    self.hands[p].append(self.stock.pop(0))
        self.pools = [0, 0]
        self.season = "development"
        self.lead = None

    def legal(self):
        p = self.master if self.lead is None else 1 - self.master
        hand = set(self.hands[p])
        if self.lead is None or self.lead.rank == 0:
            return hand
        if self.season == "development":
            return {c for c in hand if c.suit != self.lead.suit}
        same = {c for c in hand if c.suit == self.lead.suit}
        return same or hand

    def declare(self):
        assert self.season == "development" and self.lead is None and self.rules.declare_war
        self.season = "war"

    def play(self, card):
        assert card in self.legal()
        if self.lead is None:
            self.hands[self.master].remove(card)
            slave_hand = self.hands[1 - self.master]
            if (
                self.season == "development"
                and card.rank != 0
                and all(c.suit == card.suit for c in slave_hand)
            ):
                self.season = "war"  # the stuck slave
            self.lead = card
            return
        slave = 1 - self.master
        self.hands[slave].remove(card)
        lead, self.lead = self.lead, None
        if card.rank == 0:
            self.pools.reverse()
        winner = slave if reply_wins(lead, card) else self.master
        if self.season == "development":
            self.pools[self.master] += dev_points(lead)
            self.pools[slave] += dev_points(card)
        else:
            self.pools[winner] += war_points(lead) + war_points(card)
        self.master = winner
        if self.season == "development":
            for p in (winner, 1 - winner):
                if self.stock:
                    self.hands[p].append(self.stock.pop(0))
        if not self.hands[0] and not self.hands[1]:
            a, b = self.pools
            if a == b:
                self.scores[0] += a
                self.scores[1] += b
            else:
                self.scores[0 if a > b else 1] += a + b
            self.pools = [0, 0]
            if self.stock:
                self.new_season()
            else:
                self.season = None
            return
        if self.season == "development" and not self.stock and self.rules.war_when_stock_empty:
            self.season = "war"


def same(model, state):
    assert [Counter(h) for h in model.hands] == [Counter(h) for h in state.hands]
    assert tuple(model.stock) == state.stock
    assert tuple(model.pools) == state.pools and tuple(model.scores) == state.scores
    assert model.season == state.season
    if not state.is_over:
        assert model.master == state.master
        assert {a.card for a in gunsore.legal_actions(state) if isinstance(a, Play)} == model.legal()


RULES = [
    Rules(),
    Rules(declare_war=False),
    Rules(war_when_stock_empty=False),
    Rules(hand_size=2),
    Rules(hand_size=9, declare_war=False, war_when_stock_empty=False),
]


@given(rules=st.sampled_from(RULES), seed=st.integers(0, 2**32 - 1))
def test_engine_agrees_with_the_reference_model(rules, seed):
    rng = random.Random(seed)
    deck = list(chance_cards(gunsore.new_game(rules)))
    draw, deal = deck[:], deck[:]
    rng.shuffle(draw)
    rng.shuffle(deal)
    state = gunsore.apply(gunsore.apply(gunsore.new_game(rules), Shuffle(draw)), Shuffle(deal))
    model = Model(rules, draw, deal)
    same(model, state)
    while not state.is_over:
        actions = gunsore.legal_actions(state)
        action = actions[rng.randrange(len(actions))]
        state = gunsore.apply(state, action)
        if isinstance(action, DeclareWar):
            model.declare()
        else:
            model.play(action.card)
        same(model, state)


def test_the_model_agrees_with_the_spec_on_strength():
    # A few fixed facts from the spec, so the reference itself is checked.
    c = Card
    assert reply_wins(c(13, Suit.SPADES), c(1, Suit.DIAMONDS))  # A beats faces
    assert not reply_wins(c(2, Suit.DIAMONDS), c(1, Suit.SPADES))  # numbers beat A
    assert reply_wins(c(7, Suit.HEARTS), c(7, Suit.CLUBS))  # fire beats water
    assert reply_wins(c(7, Suit.HEARTS), c(7, Suit.HEARTS))  # identical: the slave
    assert not reply_wins(c(2, Suit.DIAMONDS), JOKER) and reply_wins(JOKER, JOKER)

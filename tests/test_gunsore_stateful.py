"""Gunsore under Hypothesis: random games checked against invariants and an oracle.

Invariants: every card is accounted for (hands + stock + cards played = the deck), the
pools and scores together hold exactly the points of the tricks played (development
points for development tricks, war points for war tricks: the joker swap and the truce
move points but never create or lose them), hands are equal at every lead, the views
show exactly a player's own hand, and replay and JSON reproduce the state exactly.  The
legal actions are checked against an independent reading of the follow rules.
"""

import random
from collections import Counter

from hypothesis import event
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
)

from cardrules import CHANCE, JOKER, IllegalActionError, Shuffle, chance_cards, from_json, gunsore, to_json
from cardrules.gunsore import DeclareWar, Play, Rules

RULES = [
    Rules(),
    Rules(),
    Rules(declare_war=False),
    Rules(war_when_stock_empty=False),
    Rules(declare_war=False, war_when_stock_empty=False, hand_size=7),
    Rules(hand_size=3),
    Rules(hand_size=53),
    Rules(decks=4, hand_size=8),
    Rules(points_development=(1,) * 14, points_war=tuple(range(14))),
]

ALL_CARDS = tuple(dict.fromkeys(chance_cards(gunsore.new_game())))


def oracle_legal(state):
    """The legal actions read straight from spec/gunsore.md, written independently."""
    p = state.to_act
    hand = state.hands[p]
    distinct = [c for c in ALL_CARDS if c in hand]
    if not state.table:
        out = [Play(c) for c in distinct]
        if state.season == "development" and state.rules.declare_war:
            out.append(DeclareWar())
        return out
    lead = state.table[0]
    if lead is JOKER:
        return [Play(c) for c in distinct]
    same = [c for c in distinct if c.suit == lead.suit]
    other = [c for c in distinct if c.suit != lead.suit]  # the joker included
    if state.season == "development":
        assert other, "a development slave always has a card of another suit"
        return [Play(c) for c in other]
    return [Play(c) for c in (same or distinct)]


class GunsoreGame(RuleBasedStateMachine):
    @initialize(rules=st.sampled_from(RULES), seed=st.integers(0, 2**32 - 1))
    def deal(self, rules, seed):
        rng = random.Random(seed)
        s = gunsore.new_game(rules)
        self.deck = Counter(chance_cards(s))
        assert sum(self.deck.values()) == 53 * rules.decks
        for _ in range(2):  # the first-master draw, then the deal
            assert s.to_act is CHANCE
            order = list(chance_cards(s))
            rng.shuffle(order)
            s = gunsore.apply(s, Shuffle(order))
        self.state = s
        self.trick_points = 0

    def _apply(self, action):
        before = self.state
        assert sorted(oracle_legal(before), key=repr) == sorted(gunsore.legal_actions(before), key=repr)
        after = gunsore.apply(before, action)
        if after.season == "war" and before.season == "development":
            event(f"war breaks out: {after.war_cause}")
        if isinstance(action, Play) and action.card is JOKER and before.table:
            event(f"the slave plays the joker in {before.season}")
        if before.table:  # a trick was completed: its points entered some pool
            lead, reply = before.table[0], action.card
            table = (
                before.rules.points_development if before.season == "development" else before.rules.points_war
            )
            self.trick_points += table[lead.rank] + table[reply.rank]
            if not after.is_over:
                assert after.master == after.to_act
        self.state = after

    @precondition(lambda self: not self.state.is_over)
    @rule(choice=st.integers(0, 1000))
    def play_one(self, choice):
        actions = gunsore.legal_actions(self.state)
        self._apply(actions[choice % len(actions)])

    @precondition(lambda self: not self.state.is_over)
    @rule(seed=st.integers(0, 2**16), n=st.integers(1, 60))
    def play_many(self, seed, n):
        rng = random.Random(seed)
        for _ in range(n):
            if self.state.is_over:
                break
            actions = gunsore.legal_actions(self.state)
            self._apply(actions[rng.randrange(len(actions))])
            self.check_cards()
            self.check_points()

    @rule(card=st.sampled_from(ALL_CARDS), declare=st.booleans())
    def illegal_actions_are_refused(self, card, declare):
        action = DeclareWar() if declare else Play(card)
        if action in gunsore.legal_actions(self.state):
            return
        try:
            gunsore.apply(self.state, action)
        except IllegalActionError as exc:
            assert str(exc)
            if self.state.is_over:
                assert str(exc) == "gunsore: the game is over"
        else:
            raise AssertionError(f"{action} was accepted but is not legal")

    @precondition(lambda self: self.state.is_over)
    @rule(player=st.integers(0, 1))
    def finished(self, player):
        s = self.state
        event("the game ends" + (" in a tie" if len(s.winners) == 2 else ""))
        assert s.to_act is None and gunsore.legal_actions(s) == () and s.pools == (0, 0)
        assert s.hands == ((), ()) and s.stock == ()
        best = max(s.scores)
        assert s.winners == tuple(p for p in (0, 1) if s.scores[p] == best)
        assert sum(s.scores) == self.trick_points
        v = gunsore.view(s, player)
        assert v.to_act is None and v.hand == () and v.season is None

    @invariant()
    def check_cards(self):
        s = self.state
        played = Counter(a.card for a in s.history if isinstance(a, Play))
        held = Counter(s.hands[0]) + Counter(s.hands[1]) + Counter(s.stock)
        assert held + played == self.deck
        for hand in s.hands:
            assert list(hand) == sorted(hand, key=lambda c: c.index)
        if not s.table and not s.is_over:
            assert len(s.hands[0]) == len(s.hands[1]) > 0
        if s.table:
            assert len(s.hands[s.to_act]) == len(s.hands[1 - s.to_act]) + 1

    @invariant()
    def check_points(self):
        s = self.state
        assert sum(s.scores) + sum(s.pools) == self.trick_points
        if s.season is None and not s.is_over:
            raise AssertionError("a dealt game is always in a season until the end")

    @invariant()
    def check_views(self):
        s = self.state
        for p in (0, 1):
            v = gunsore.view(s, p)
            assert v.hand == s.hands[p] and v.opponent_hand_size == len(s.hands[1 - p])
            assert (v.pools, v.scores, v.stock_size, v.table) == (s.pools, s.scores, len(s.stock), s.table)

    @invariant()
    def replay_and_json_are_exact(self):
        s = self.state
        if len(s.history) % 9 == 0 or s.is_over:
            assert gunsore.replay(s.rules, s.history) == s
            assert from_json(to_json(s)) == s


TestGunsoreGame = GunsoreGame.TestCase

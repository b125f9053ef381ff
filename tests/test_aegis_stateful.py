"""Aegis under random play: a Hypothesis state machine over every Rules variant.

At every step: the 52 cards are all accounted for, scores change only when a season is
scored (and by its points), replay and JSON reproduce the state exactly, legal actions
are distinct and exactly the actions ``apply`` accepts, and no view shows a hidden card.
"""

from __future__ import annotations

from collections import Counter

import attrs
from aegis_oracle import oracle_first_master, oracle_points, oracle_trick
from hypothesis import event, given, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from cardrules import (
    CHANCE,
    IllegalActionError,
    Shuffle,
    aegis,
    chance_cards,
    from_json,
    standard_deck,
    to_json,
)
from cardrules.aegis import Bid, Exchange, Play, Rules
from cardrules.serialize import encode_value

DECK = standard_deck()

rules_strategy = st.builds(
    Rules,
    target=st.integers(1, 30),
    margin=st.integers(1, 12),
    max_exchanges=st.integers(0, 4),
    new_master=st.sampled_from(["loser", "winner"]),
    promise=st.sampled_from(["four_or_more", "exact"]),
    slave_exchange_limit=st.none() | st.integers(0, 4),
)


def cards_in_play(state):
    cards = [*state.hands[0], *state.hands[1], *state.stock, *state.discards, *state.trick]
    if state.key is not None:
        cards.append(state.key)
    for t in state.played:
        cards.extend(t.cards)
    return cards


class AegisMachine(RuleBasedStateMachine):
    @initialize(rules=rules_strategy, seed=st.none() | st.integers(0, 10**6))
    def start(self, rules, seed):
        self.state = aegis.new_game(rules, seed=seed)
        self.seasons_seen = 0

    # -- moves ----------------------------------------------------------------------

    @rule(data=st.data())
    def step(self, data):
        """One move of the game: a shuffle at a chance node (drawn by Hypothesis, so
        stacked decks of every kind are tried), a random legal action, or at the end the
        checks of a finished game.  (One rule for all three: no rule is ever disabled.)"""
        state = self.state
        if state.to_act is CHANCE:
            assert chance_cards(state) == DECK
            self.advance(Shuffle(data.draw(st.permutations(DECK), label="order")))
        elif state.is_over:
            self.finished()
        else:
            legal = aegis.legal_actions(state)
            self.advance(legal[data.draw(st.integers(0, len(legal) - 1), label="action")])

    @rule(
        candidate=st.one_of(
            st.builds(Exchange, st.lists(st.sampled_from(DECK), max_size=6)),
            st.builds(Bid, st.integers(-1, 7)),
            st.builds(Play, st.sampled_from(DECK)),
        )
    )
    def try_any_action(self, candidate):
        """legal_actions is exactly what apply accepts (nothing at a chance node or at
        the end)."""
        legal = aegis.legal_actions(self.state)
        if candidate in legal:
            aegis.apply(self.state, candidate)
        else:
            try:
                aegis.apply(self.state, candidate)
            except IllegalActionError as exc:
                assert str(exc)
            else:
                raise AssertionError(f"{candidate} applied but is not in legal_actions")

    def finished(self):
        event("a finished game was checked")
        state = self.state
        assert state.to_act is None and aegis.legal_actions(state) == ()
        s0, s1 = state.scores
        r = state.rules
        assert abs(s0 - s1) >= r.margin or max(s0, s1) >= r.target
        assert len(state.winners) == 1
        w = state.winners[0]
        assert state.scores[w] >= state.scores[1 - w]
        if s0 == s1:
            assert w == state.seasons[-1].winner and s0 >= r.target
        for p in (0, 1):
            e = aegis.evaluate(state, p)
            assert e.result is not None and 0 <= e.result <= 100
            assert 0 <= e.total <= 100

    def advance(self, action):
        before = self.state
        after = aegis.apply(before, action)
        n = len(before.history)
        assert after.history[: n + 1] == (*before.history, action)
        if type(action) is Shuffle and before.phase == "draw":  # the first master
            assert after.master == oracle_first_master(action.order[0], action.order[1])
        if type(action) is Play and before.trick:  # a trick is complete: check it
            lead, follow = before.trick[0], action.card
            if follow.suit is not lead.suit:  # must follow: only when void in the led suit
                assert all(c.suit is not lead.suit for c in before.hands[before.to_act])
            winner = before.leader if oracle_trick(lead, follow, before.key) == 0 else before.to_act
            last = after.played[-1] if len(after.seasons) == len(before.seasons) else None
            if last is not None and after.phase != "over":
                assert last.cards == (lead, follow) and last.winner == winner
            elif after.phase == "over":
                assert after.played[-1].winner == winner
        assert all(type(a) is Shuffle for a in after.history[n + 1 :])  # a seeded deal
        if len(after.seasons) == len(before.seasons):
            assert after.scores == before.scores
        else:
            assert len(after.seasons) == len(before.seasons) + 1
            season = after.seasons[-1]
            pts = season.points
            assert after.scores == (before.scores[0] + pts[0], before.scores[1] + pts[1])
            assert type(action) is Play
            assert pts == oracle_points(season, before.rules)
            assert season.bids == before.bids and season.master == before.master
            m = before.master
            assert season.attacker == (1 - m if before.bids[1 - m] > before.bids[m] else m)
            assert sum(season.tricks) == 5
            if after.phase == "deal":  # the next master
                loser = 1 - season.winner
                assert after.master == (loser if before.rules.new_master == "loser" else season.winner)
        self.state = after

    # -- invariants -----------------------------------------------------------------

    @invariant()
    def all_52_cards(self):
        state = self.state
        if state.to_act is CHANCE:
            assert chance_cards(state) == DECK
            return
        cards = cards_in_play(state)
        assert len(cards) == 52 and Counter(cards) == Counter(DECK)

    @invariant()
    def replay_and_json_exact(self):
        state = self.state
        assert aegis.replay(state.rules, state.history) == state
        back = from_json(to_json(state))
        assert back == state and back.seed == state.seed

    @invariant()
    def legal_actions_distinct(self):
        legal = aegis.legal_actions(self.state)
        assert len(set(legal)) == len(legal)
        if isinstance(self.state.to_act, int):
            assert legal

    @invariant()
    def phase_shape(self):
        state = self.state
        if state.phase in ("exchange", "bid"):
            assert state.hands[0] and len(state.hands[0]) == len(state.hands[1]) == 5
            assert state.exchanges <= state.rules.max_exchanges
            limit = state.rules.slave_exchange_limit
            if limit is not None:
                assert sum(1 for d in state.drawn[1 - state.master] if d) <= limit
        if state.phase == "play":
            p = state.to_act
            assert len(state.hands[p]) == 5 - len(state.played)
            assert len(state.hands[1 - p]) == 5 - len(state.played) - (0 if not state.trick else 1)

    @invariant()
    def views_hide_what_they_must(self):
        state = self.state
        for p in (0, 1):
            v = aegis.view(state, p)
            assert v.hand == state.hands[p] and v.scores == state.scores
            if state.to_act is CHANCE:
                continue
            # past seasons' key cards are public; everything else of the view is scanned
            text = repr(encode_value(attrs.evolve(v, seasons=())))
            # a player sees its own discards go (``discarded``), never the other's
            hidden = set(state.hands[1 - p]) | (set(state.discards) - set(v.discarded)) | set(state.stock)
            for c in hidden:
                assert f"'{c}'" not in text


AegisMachine.TestCase.settings = settings(AegisMachine.TestCase.settings, stateful_step_count=80)
TestAegisMachine = AegisMachine.TestCase


@given(seed=st.integers(0, 10**9), rules=rules_strategy)
@settings(max_examples=30)
def test_random_games_end(seed, rules):
    """A whole seeded game of random moves ends, with scores the seasons add up to."""
    import random

    rng = random.Random(seed)
    state = aegis.new_game(rules, seed=seed)
    while not state.is_over:
        legal = aegis.legal_actions(state)
        state = aegis.apply(state, legal[rng.randrange(len(legal))])
        assert len(state.history) < 5000
    assert tuple(map(sum, zip(*(s.points for s in state.seasons), strict=True))) == state.scores

"""Haggis as a state machine: random games with 2 and 3 players, checking at every step
that every card is accounted for, that hand points add up, that views hide what they
must, that incremental move generation equals generation from scratch, and that replay
and JSON are exact."""

import contextlib
import random

import attrs
from hypothesis import event, given, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from cardrules import CHANCE, Shuffle, canonical, chance_cards, from_json, to_json
from cardrules.haggis import (
    Bet,
    GiveTrick,
    Pass,
    Play,
    Rules,
    apply,
    card_points,
    deck,
    legal_actions,
    new_game,
    replay,
    view,
)
from cardrules.haggis.rules import Memo

TOTAL_CARDS = {2: 42, 3: 54}
TOTAL_POINTS = {2: 36, 3: 50}


class HaggisGame(RuleBasedStateMachine):
    @initialize(
        players=st.sampled_from([2, 3]),
        seed=st.integers(0, 10**6),
        rules=st.sampled_from(
            [
                Rules(),
                Rules(bomb_trick="tournament"),
                Rules(bets=(), target=120),
                Rules(first_out_bonus=5, target=150),
            ]
        ),
    )
    def start(self, players, seed, rules):
        # unseeded, so that the state rests at each deal and the hand's end can be checked
        self.rng = random.Random(seed)
        self.n = players
        self.hands_seen = 0
        self.state = new_game(rules, players=players)
        self._deal()

    def _deal(self):
        order = list(chance_cards(self.state))
        self.rng.shuffle(order)
        self.state = apply(self.state, Shuffle(order))

    def _apply(self, action):
        before = self.state
        self.state = apply(before, action)
        assert self.state.history == (*before.history, action)
        if self.state.to_act is CHANCE or self.state.is_over:
            self._check_hand_points(self.state)
            assert self.state.hand_number == before.hand_number
        if self.state.to_act is CHANCE:
            self._deal()
            assert self.state.hand_number == before.hand_number + 1

    def _check_hand_points(self, s):
        """The hand just ended: its card points add up to 36 / 50 before going-out
        points and bets."""
        first = s.out[0]
        bets = 0
        for b, amount in enumerate(s.bets):
            if amount:
                if b == first:
                    bets += amount
                else:
                    bets += amount * (
                        1 + sum(1 for q in range(self.n) if q not in (b, first) and not s.bets[q])
                    )
        # going_out holds the going-out points (and the first-out bonus)
        assert sum(s.last_hand) == TOTAL_POINTS[self.n] + sum(s.going_out) + bets
        assert sum(card_points(p) for p in s.captured) == TOTAL_POINTS[self.n]
        self.hands_seen += 1
        event("a hand ended")
        if s.is_over:
            event("a game ended")

    @precondition(lambda self: not self.state.is_over)
    @rule(data=st.data())
    def any_action(self, data):
        actions = legal_actions(self.state)
        assert actions and len(actions) == len(set(actions))
        self._apply(data.draw(st.sampled_from(actions)))

    @precondition(lambda self: not self.state.is_over)
    @rule()
    def biggest_play(self):
        """Shed many cards, so that hands end within a test's steps."""
        actions = legal_actions(self.state)
        plays = [a for a in actions if type(a) is Play]
        if plays:
            self._apply(max(plays, key=lambda a: len(a.combo.cards)))
        else:
            self._apply(actions[0])

    @precondition(lambda self: not self.state.is_over)
    @rule(bet=st.booleans())
    def finish_the_hand(self, bet):
        """Play greedily to the end of the hand (checking every card on the way)."""
        number = self.state.hand_number
        while not self.state.is_over and self.state.hand_number == number:
            actions = legal_actions(self.state)
            plays = [a for a in actions if type(a) is Play]
            bets = [a for a in actions if type(a) is Bet]
            if bet and bets:
                self._apply(bets[-1])
            elif plays:
                self._apply(max(plays, key=lambda a: len(a.combo.cards)))
            else:
                self._apply(actions[0])
            self.cards_accounted_for()

    @precondition(lambda self: self.state.is_over)
    @rule()
    def finished(self):
        assert legal_actions(self.state) == ()
        assert self.state.winners and len(self.state.winners) == 1
        assert max(self.state.scores) >= self.state.rules.target

    @rule()
    def replay_and_json(self):
        s = self.state
        assert replay(s.rules, s.history, players=self.n) == s
        back = from_json(to_json(s))
        assert back == s and back.seed == s.seed
        assert legal_actions(back) == legal_actions(s)

    @invariant()
    def cards_accounted_for(self):
        s = self.state
        held = sum(len(h) for h in s.hands) + len(s.haggis) + sum(len(p) for p in s.captured)
        held += sum(len(c.cards) for _, c in s.trick)
        assert held == TOTAL_CARDS[self.n]
        numbers = [c for h in s.hands for c in h if c.suit is not None] + list(s.haggis)
        numbers += [c for p in s.captured for c in p if c.suit is not None]
        numbers += [c for _, combo in s.trick for c in combo.cards if c.suit is not None]
        assert sorted(numbers, key=lambda c: c.index) == list(deck(self.n))
        assert all(h == canonical(h) for h in s.hands)  # what the views' wilds rely on

    @invariant()
    def incremental_generation_equals_scratch(self):
        s = self.state
        fresh = attrs.evolve(s, memo=Memo(self.n))
        assert legal_actions(fresh) == legal_actions(s)

    @invariant()
    def legal_actions_are_consistent(self):
        s = self.state
        if s.is_over:
            return
        p = s.to_act
        actions = legal_actions(s)
        if s.giving:
            assert actions == tuple(GiveTrick(q) for q in range(self.n) if q != p)
            return
        assert (Pass() in actions) == bool(s.trick)
        assert any(type(a) is Bet for a in actions) == (
            bool(s.rules.bets) and not s.started[p] and not s.bets[p]
        )
        for a in actions:
            if type(a) is Play:
                assert set(a.combo.cards) <= set(s.hands[p])

    @invariant()
    def views_hide_hands_and_haggis(self):
        s = self.state
        for p in range(self.n):
            v = view(s, p)
            assert v.hand == s.hands[p] and v.scores == s.scores
            seen = set(v.hand) | {c for pile in v.captured for c in pile}
            seen |= {c for _, combo in v.trick for c in combo.cards}
            hidden = {c for q in range(self.n) if q != p for c in s.hands[q] if c.suit is not None}
            hidden |= set(s.haggis)
            assert not seen & hidden
            assert v.hand_sizes == tuple(len(h) for h in s.hands)
            assert v.wilds == tuple(tuple(c for c in h if c.suit is None) for h in s.hands)
            assert "haggis" not in {f.name for f in attrs.fields(type(v))}


HaggisGame.TestCase.settings = settings(HaggisGame.TestCase.settings, stateful_step_count=60)
TestHaggisGame = HaggisGame.TestCase


@settings(max_examples=30)
@given(st.integers(0, 10**6), st.sampled_from([2, 3]), st.randoms(use_true_random=False))
def test_apply_accepts_exactly_the_legal_actions(seed, players, rnd):
    """Random states, random candidate actions (plays of random groups of the player's
    hand and of other cards, passes, bets, gifts): apply succeeds exactly when the
    action is in legal_actions, and otherwise raises IllegalActionError."""
    from cardrules import CardRulesError, IllegalActionError
    from cardrules.haggis import J, K, Q, combinations

    state = new_game(players=players, seed=seed)
    for _ in range(rnd.randint(0, 40)):
        if state.is_over:
            break
        state = apply(state, rnd.choice(legal_actions(state)))
    if state.is_over:
        return
    legal = set(legal_actions(state))
    p = state.to_act
    pool = list(state.hands[p]) + rnd.sample(list(deck(players)), 6) + [J, Q, K]
    candidates = [Pass(), Bet(15), Bet(30), Bet(7), GiveTrick((p + 1) % players), GiveTrick(p)]
    for _ in range(25):
        group = rnd.sample(pool, rnd.randint(1, 5))
        with contextlib.suppress(CardRulesError):  # a group with a card twice is no group
            candidates += [Play(c) for c in combinations(group, suits=5)]
    for action in candidates:
        try:
            apply(state, action)
        except IllegalActionError as exc:
            assert action not in legal, (action, exc)
            assert str(exc)
        else:
            assert action in legal, action

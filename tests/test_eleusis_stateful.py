"""New Eleusis under Hypothesis: random rounds, with strings and illegal tries, keep
every card accounted for, replay and round-trip through JSON exactly."""

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from cardrules import CHANCE, IllegalActionError, Shuffle, chance_cards, from_json, parse_card, to_json
from cardrules import eleusis as E
from cardrules.eleusis.rules import DECK

RULE_TEXTS = (
    'rule "from an ace":\n    start: card is ace and card is black\n    play: card.color != prev.color\n',
    "card.color != prev.color",
    "card.rank > prev.rank",
    "card.suit == prev.suit or card.rank == prev.rank",
)


class EleusisMachine(RuleBasedStateMachine):
    @initialize(
        players=st.integers(3, 8),
        seed=st.integers(0, 10**6),
        text=st.sampled_from(RULE_TEXTS),
        hand_size=st.sampled_from([3, 5, 14]),
        sudden=st.sampled_from([(30, 20), (40, 30), (3, 2), (0, 0)]),
        prophets=st.booleans(),
        decks=st.sampled_from([1, 2]),
        penalty=st.sampled_from([2, 0]),
        seeded=st.booleans(),
    )
    def start(self, players, seed, text, hand_size, sudden, prophets, decks, penalty, seeded):
        if (players - 1) * hand_size + 1 > 52 * decks:
            decks = 2
        self.rules = E.Rules(
            secret=E.compile_rule(text), hand_size=hand_size, decks=decks, sudden_death=sudden[0],
            sudden_death_prophet=sudden[1], prophets=prophets, penalty=penalty,
        )  # fmt: skip
        self.state = E.new_game(self.rules, players=players, seed=seed if seeded else None)
        self.players = players

    @precondition(lambda self: self.state.to_act is CHANCE)
    @rule(data=st.data())
    def chance(self, data):
        order = data.draw(st.permutations(chance_cards(self.state)))
        self.state = E.apply(self.state, Shuffle(tuple(order)))

    @precondition(lambda self: not self.state.is_over and self.state.to_act is not CHANCE)
    @rule(data=st.data())
    def act(self, data):
        s = self.state
        actions = E.legal_actions(s)
        assert actions and len(set(actions)) == len(actions)
        if s.phase == "turn" and s.rules.max_string > 1 and data.draw(st.integers(0, 3)) == 0:
            n = (
                data.draw(st.integers(2, min(s.rules.max_string, len(s.hands[s.to_act]))), label="n")
                if len(s.hands[s.to_act]) >= 2
                else 1
            )
            cards = data.draw(st.permutations(s.hands[s.to_act]))[:n]
            action = E.Play(tuple(cards))
        else:
            action = data.draw(st.sampled_from(actions))
        self.state = E.apply(s, action)

    @precondition(lambda self: not self.state.is_over and self.state.to_act is not CHANCE)
    @rule(data=st.data())
    def illegal(self, data):
        s = self.state
        before = to_json(s)
        if s.phase == "turn":
            missing = next(c for c in DECK if c not in s.hands[s.to_act])
            bad = data.draw(st.sampled_from([E.Play((missing,)), E.Judge(True), E.Pass(), E.Play(())]))
        elif s.phase == "judge":
            bad = data.draw(st.sampled_from([E.NoPlay(), E.Play((parse_card("5H"),)), E.BecomeProphet()]))
        else:
            bad = data.draw(st.sampled_from([E.NoPlay(), E.Judge(False)]))
        try:
            E.apply(s, bad)
        except IllegalActionError as exc:
            assert str(exc)
        else:
            raise AssertionError(f"{bad} was accepted in phase {s.phase}")
        assert to_json(s) == before

    @precondition(lambda self: self.state.is_over)
    @rule()
    def finished(self):
        s = self.state
        assert s.to_act is None and E.legal_actions(s) == ()
        scores = s.scores
        assert s.winners and all(scores[w] == max(scores) for w in s.winners)
        assert (
            any(not s.hands[p] for p in range(1, s.players))
            or len(s.expelled) + (s.prophet is not None) == s.players - 1
        )
        assert scores[0] == max(scores[1:]) or s.prophet is not None

    @invariant()
    def cards_are_accounted_for(self):
        s = self.state
        if s.phase in ("setup", "starter"):
            return
        held = Counter(c for h in s.hands for c in h)
        held.update(s.stock)
        held.update(s.main)
        for _, cards in s.sides:
            held.update(cards)
        copies = set(held.values())
        assert len(held) == 52 and len(copies) == 1, "every card as often as every other"
        assert copies.pop() >= s.rules.decks
        assert s.count == len(s.main) - 1 + s.side_cards

    @invariant()
    def who_acts(self):
        s = self.state
        assert (s.to_act is CHANCE) == (s.phase in ("setup", "starter", "fresh", "reshuffle"))
        if s.seed is not None:
            assert s.to_act is not CHANCE
        if s.phase == "turn":
            assert s.to_act not in (0, s.prophet) and s.to_act not in s.expelled
        if s.phase == "judge":
            assert s.to_act == s.prophet
        assert s.hands[0] == ()

    @invariant()
    def views_hide_what_they_must(self):
        s = self.state
        for p in range(s.players):
            v = E.view(s, p)
            assert v.hand == s.hands[p]
            assert (v.rule is not None) == (p == 0)
            assert v.hand_sizes == tuple(len(h) for h in s.hands)

    @invariant()
    def replay_and_json_are_exact(self):
        s = self.state
        assert E.replay(s.rules, s.history, players=s.players) == s
        assert from_json(to_json(s)) == s


EleusisMachine.TestCase.settings = settings(settings.default, stateful_step_count=50)
TestEleusis = EleusisMachine.TestCase


ODD_THINGS = st.one_of(
    st.none(),
    st.integers(),
    st.text(max_size=3),
    st.sampled_from(DECK),
    st.lists(st.integers(), max_size=2),
)


@settings(max_examples=60)
@given(
    seed=st.integers(0, 50),
    steps=st.integers(0, 30),
    kind=st.sampled_from(["play", "judge", "other"]),
    things=st.lists(ODD_THINGS, min_size=0, max_size=5),
    right=st.one_of(st.booleans(), st.integers(), st.none()),
)
def test_odd_actions_are_refused_with_illegal_action_error_only(seed, steps, kind, things, right):
    s = E.new_game(players=4, seed=seed)
    for i in range(steps):
        if s.is_over:
            break
        actions = E.legal_actions(s)
        s = E.apply(s, actions[(seed + i) % len(actions)])
    if kind == "play":
        action = E.Play(tuple(things))
    elif kind == "judge":
        action = E.Judge(right, things[0] if things else None)
    else:
        action = things[0] if things else object()
    try:
        E.apply(s, action)
    except IllegalActionError as exc:
        assert str(exc)

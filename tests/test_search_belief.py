"""ISMCTSAgent(belief="model"): particles weighted by the opponent model, exactly; every
determinization agrees with the view; reproducible; invalid options refused."""

import random
from collections import Counter

import pytest
import toygame
from test_tools_protocol import DUEL, Play, Rules, State

from cardrules import GAMES, Card, CardRulesError, Suit
from cardrules.search import FRESH_SHARE, ISMCTSAgent, model_likelihood
from cardrules.search.belief import ParticleBelief, from_pool


def S(rank):
    return Card(rank, Suit.SPADES)


def _after_first_trick(opponent_hand):
    """A duel position: player 0 led 3S (the agent's action), player 1 (holding
    ``opponent_hand``) is to follow; each player keeps two cards afterwards."""
    played = (Play(S(3)),)
    return State(Rules(), 2, ((S(1), S(2)), tuple(opponent_hand)), (S(3),), (0, 0), 1, played)


def test_model_likelihood_is_greedy_with_epsilon_spread_over_the_legal_actions():
    legal = ("a", "b", "c", "d")
    assert model_likelihood("b", "b", legal, 0.2) == pytest.approx(0.85)
    assert model_likelihood("c", "b", legal, 0.2) == pytest.approx(0.05)
    assert sum(model_likelihood(a, "b", legal, 0.2) for a in legal) == pytest.approx(1)
    assert model_likelihood("c", "b", legal, 0.0) == 0.0


def test_the_particles_are_weighted_exactly_by_the_opponents_observed_action():
    # The opponent followed 5S.  Its greedy agent plays its highest card: with
    # {4S, 5S, 6S} it would have played 6S (the model's choice is not what it did), with
    # {4S, 5S, 1H...} 5S is its choice, and with {4S, 6S, 2S} it could not have played
    # 5S at all.  The agent (player 0) sees the same view in every case.
    eps = 0.3
    tracker = ParticleBelief(DUEL, DUEL.greedy_agent, 3, eps)
    tracker.model = DUEL.greedy_agent(0)
    likely = _after_first_trick((S(4), S(5), Card(1, Suit.HEARTS)))
    unlikely = _after_first_trick((S(4), S(5), S(6)))
    impossible = _after_first_trick((S(4), S(6), Card(2, Suit.HEARTS)))
    truth = DUEL.apply(likely, Play(S(5)))
    view = DUEL.view(truth, 0)
    tracker.player = 0
    tracker.particles = [(likely, 1.0), (unlikely, 1.0), (impossible, 1.0)]
    followed = tracker.follow(view, 0, random.Random(0))
    assert [w for _, w in followed] == pytest.approx([1 - eps + eps / 3, eps / 3])
    assert [s.hands[1] for s, _ in followed] == [(S(4), Card(1, Suit.HEARTS)), (S(4), S(6))]
    assert all(DUEL.view(s, 0) == view for s, _ in followed)
    # the determinizations are drawn in proportion: 0.8 to 0.1
    draw = from_pool(followed)
    rng = random.Random(5)
    counts = Counter(draw(rng).hands[1] for _ in range(9000))
    assert counts[(S(4), Card(1, Suit.HEARTS))] == pytest.approx(8000, abs=200)
    assert counts[(S(4), S(6))] == pytest.approx(1000, abs=200)
    # a model trusted entirely (epsilon 0) keeps only the hands where it chose 5S
    tracker.epsilon = 0.0
    tracker.particles = [(likely, 1.0), (unlikely, 1.0), (impossible, 1.0)]
    followed = tracker.follow(view, 0, random.Random(0))
    assert [(s.hands[1], w) for s, w in followed] == [((S(4), Card(1, Suit.HEARTS)), 1.0)]


def test_resampling_keeps_the_particles_in_proportion_to_their_weights():
    # half the particles are new draws from the view, half follow the weights
    assert FRESH_SHARE == 0.5
    agent = ISMCTSAgent("duel", iterations=5, seed=1, belief="model", belief_samples=20)
    a = _after_first_trick((S(4), S(5), Card(1, Suit.HEARTS)))
    b = _after_first_trick((S(4), S(5), S(6)))
    c = _after_first_trick((S(5), S(6), Card(1, Suit.HEARTS)))
    belief = agent.belief
    assert isinstance(belief, ParticleBelief)
    belief.pool, belief.fresh = [(a, 0.8), (b, 0.2)], lambda rng: c
    belief.after(Play(S(5)), random.Random(1))
    kept = Counter(s.hands[1] for s, _ in belief.particles)
    assert kept == {(S(4), Card(1, Suit.HEARTS)): 8, (S(4), S(6)): 2, (S(6), Card(1, Suit.HEARTS)): 10}
    assert all(w == 1.0 for _, w in belief.particles)


class _Checking(ISMCTSAgent):
    """Checks that every determinization of a decision agrees with the view."""

    def search(self, view, rng):
        prepare = self.belief.prepare

        def checked_prepare(v, r):
            draw = prepare(v, r)

            def checked(r):
                state = draw(r)
                assert self.game.view(state, state.to_act) == view
                self.drawn += 1
                return state

            return checked

        self.belief.prepare = checked_prepare
        try:
            return super().search(view, rng)
        finally:
            del self.belief.prepare


@pytest.mark.parametrize("name, players", [("aegis", 2), ("gunsore", 2), ("haggis", 3)])
def test_model_belief_keeps_the_view_and_is_reproducible(name, players):
    g = GAMES[name]

    def play(seed):
        agent = _Checking(name, iterations=8, seed=seed, belief="model", belief_samples=8)
        agent.drawn = 0
        other = g.greedy_agent(1)
        state = g.new_game(players=players, seed="belief")
        actions, followed = [], 0
        while not state.is_over and len(actions) < 25:
            p = state.to_act
            legal = g.legal_actions(state)
            if p == 0:
                action = agent(g.view(state, p), legal)
                assert action in legal
                actions.append(action)
                followed += bool(agent.belief.particles)
            else:
                action = other(g.view(state, p), legal)
            state = g.apply(state, action)
        assert agent.drawn > 0
        return actions, followed

    first, followed = play("s")
    assert followed > 0
    assert play("s") == (first, followed)


def test_reset_forgets_the_particles():
    g = GAMES["haggis"]
    agent = ISMCTSAgent("haggis", iterations=4, seed=1, belief="model", belief_samples=4)
    state = g.new_game(players=2, seed=3)
    while state.to_act != 0 or len(g.legal_actions(state)) < 2:
        state = g.apply(state, g.legal_actions(state)[0])
    agent(g.view(state, 0), g.legal_actions(state))
    assert len(agent.belief.particles) == 4
    agent.reset(2)
    assert agent.belief.particles == []


@pytest.mark.parametrize(
    "options, message",
    [
        ({"belief": "psychic"}, "belief must be"),
        ({"belief": "model", "belief_samples": 0}, "belief_samples"),
        ({"belief": "model", "belief_samples": 2.5}, "belief_samples"),
        ({"belief": "model", "belief_epsilon": 1.5}, "belief_epsilon"),
        ({"belief": "model", "belief_epsilon": -0.1}, "belief_epsilon"),
        ({"belief": "model", "belief_epsilon": "0.1"}, "belief_epsilon"),
        ({"belief": "model", "belief_epsilon": True}, "belief_epsilon"),
    ],
)
def test_invalid_belief_options_are_refused(options, message):
    with pytest.raises(CardRulesError, match=message):
        ISMCTSAgent("haggis", **options)


def test_model_belief_needs_a_greedy_agent():
    with pytest.raises(CardRulesError, match="highcard has no greedy agent, which belief='particles' needs"):
        ISMCTSAgent(toygame.GAME, belief="model")

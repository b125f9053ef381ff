"""ISMCTSAgent: legal, reproducible choices from the view alone, for every game."""

import pytest

from cardrules import CHANCE, GAMES, CardRulesError
from cardrules.agents import RandomAgent, strong_agent
from cardrules.protocol import GAME_NAMES
from cardrules.search import ISMCTSAgent

CASES = sorted({(g, n) for g in GAME_NAMES for n in (min(GAMES[g].player_counts), max(GAMES[g].player_counts))})


def _decision_points(name, players, seed, count):
    """States (with the player to act) where a choice is to be made, from a random game."""
    g = GAMES[name]
    state = g.new_game(players=players, seed=seed)
    agent = RandomAgent(seed)
    out = []
    while not state.is_over and len(out) < count:
        legal = g.legal_actions(state)
        if len(legal) > 1:
            out.append(state)
        state = g.apply(state, agent(None, legal))
    return out


@pytest.mark.parametrize("name, players", CASES)
def test_ismcts_chooses_legal_actions_in_every_game(name, players):
    g = GAMES[name]
    agent = ISMCTSAgent(name, iterations=12, seed=1)
    for state in _decision_points(name, players, 5, 6):
        p = state.to_act
        legal = g.legal_actions(state)
        assert agent(g.view(state, p), legal) in legal
        assert 1 <= agent.iterations_done <= 12


@pytest.mark.parametrize("name, players", [("aegis", 2), ("gunsore", 2), ("haggis", 2), ("haggis", 3), ("eleusis", 4)])
def test_choices_do_not_depend_on_the_hidden_cards(name, players):
    # Different true states with the same view (the hidden cards dealt anew,
    # consistently): a fresh agent with the same seed and budget chooses the same.
    g = GAMES[name]
    for state in _decision_points(name, players, 9, 3):
        p = state.to_act
        v = g.view(state, p)
        others = [g.sample_state(v, seed=k, rules=state.rules) for k in range(3)]
        assert len({hash(tuple(map(tuple, s.hands))) for s in [state, *others]}) > 1
        choices = set()
        for truth in [state, *others]:
            assert g.view(truth, p) == v
            agent = ISMCTSAgent(name, iterations=15, seed="same", rules=state.rules)
            choices.add(agent(g.view(truth, p), g.legal_actions(truth)))
        assert len(choices) == 1


def test_ismcts_is_reproducible_for_a_seed_and_budget():
    g = GAMES["aegis"]
    states = _decision_points("aegis", 2, 3, 4)

    def run(seed):
        agent = ISMCTSAgent("aegis", iterations=30, seed=seed)
        return [agent(g.view(s, s.to_act), g.legal_actions(s)) for s in states]

    assert run(4) == run(4)


def test_greedy_rollouts_and_time_budget():
    g = GAMES["gunsore"]
    state = _decision_points("gunsore", 2, 2, 1)[0]
    legal = g.legal_actions(state)
    greedy = ISMCTSAgent("gunsore", iterations=5, seed=1, rollout="greedy")
    assert greedy(g.view(state, state.to_act), legal) in legal
    timed = ISMCTSAgent("gunsore", time_per_move=0.02, seed=1)
    assert timed(g.view(state, state.to_act), legal) in legal
    assert timed.iterations_done >= 1


def test_a_forced_action_is_returned_without_search():
    # Aegis, stacked: the slave leads a diamond and the master holds one diamond.
    from cardrules import Shuffle, aegis, parse_cards

    g = GAMES["aegis"]
    state = g.new_game()
    deck = list(g.chance_cards(state))
    state = g.apply(state, Shuffle(tuple(parse_cards("KS 2S")) + tuple(c for c in deck if str(c) not in ("KS", "2S"))))
    key = parse_cards("2C")
    m = parse_cards("AS 3D QS JS 10S")  # master
    s = parse_cards("2H 3H 4H 5H 4D")  # slave
    rest = [c for c in deck if c not in (*key, *m, *s)]
    state = g.apply(state, Shuffle((*key, *(c for pair in zip(m, s, strict=True) for c in pair), *rest)))
    state = g.apply(state, aegis.Exchange(()))
    state = g.apply(state, aegis.Bid(1))
    state = g.apply(state, aegis.Bid(5))  # the slave attacks with 5 and leads
    assert state.to_act == 1
    state = g.apply(state, aegis.Play(parse_cards("4D")[0]))  # a diamond led: the master must follow
    legal = g.legal_actions(state)
    assert legal == (aegis.Play(parse_cards("3D")[0]),)
    # one legal action: returned without search
    agent = ISMCTSAgent("aegis", iterations=50, seed=0)
    assert agent(g.view(state, 0), legal) == legal[0] and agent.iterations_done == 0


def test_bad_arguments_are_clear_errors():
    with pytest.raises(CardRulesError):
        ISMCTSAgent("aegis", iterations=0)
    with pytest.raises(CardRulesError):
        ISMCTSAgent("aegis", rollout="clever")
    with pytest.raises(CardRulesError):
        ISMCTSAgent("aegis", time_per_move=-1)
    with pytest.raises(CardRulesError):
        ISMCTSAgent("nope")
    with pytest.raises(CardRulesError):
        ISMCTSAgent("aegis", iterations=5)(None, ())


@pytest.mark.parametrize("name", ["aegis", "gunsore", "haggis"])
def test_strong_agent_is_the_search_agent_with_a_budget(name):
    agent = strong_agent(name, seed=1, iterations=10)
    assert isinstance(agent, ISMCTSAgent) and agent.iterations == 10
    g = GAMES[name]
    state = g.new_game(seed=1)
    assert state.to_act is not CHANCE
    legal = g.legal_actions(state)
    assert agent(g.view(state, state.to_act), legal) in legal


def test_progressive_widening_bounds_the_children_and_the_prior_comes_first():
    from cardrules import haggis

    g = GAMES["haggis"]
    state = g.new_game(seed=8)
    v, legal = g.view(state, state.to_act), g.legal_actions(state)
    assert len(legal) > 50  # a lead from a full hand
    agent = ISMCTSAgent("haggis", iterations=16, seed=2, prior="greedy", widening=1.0)
    root = agent.search(g.sampler(v), __import__("random").Random(0))
    # the root was visited 16 times: at most 1 + sqrt(v) children each time it widened
    assert 1 < len(root.children) <= 1 + 4
    greedy = haggis.GreedyAgent(0)(v, legal)
    assert greedy in root.children
    plain = ISMCTSAgent("haggis", iterations=16, seed=2)
    assert len(plain.search(g.sampler(v), __import__("random").Random(0)).children) == 16
    with pytest.raises(CardRulesError):
        ISMCTSAgent("haggis", prior="oracle")
    with pytest.raises(CardRulesError):
        ISMCTSAgent("haggis", widening=0)

"""ISMCTSAgent: legal, reproducible choices from the view alone, for every game."""

import pytest

from cardrules import CHANCE, GAMES, CardRulesError
from cardrules.agents import RandomAgent, strong_agent
from cardrules.protocol import GAME_NAMES
from cardrules.search import Evaluation, ISMCTSAgent

CASES = sorted(
    {(g, n) for g in GAME_NAMES for n in (min(GAMES[g].player_counts), max(GAMES[g].player_counts))}
)


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


@pytest.mark.parametrize(
    "name, players", [("aegis", 2), ("gunsore", 2), ("haggis", 2), ("haggis", 3), ("eleusis", 4)]
)
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


def _stacked_aegis_season():
    """Aegis, stacked: player 0 is master (KS beats 2S); key 2C (clubs trump); the master
    holds AS 3D QS JS 10S, the slave 2H 3H 4H 5H 4D.  Returns the game, the state at the
    master's first exchange, the deck, the key card and the master's hand."""
    from cardrules import Shuffle, parse_cards

    g = GAMES["aegis"]
    state = g.new_game()
    deck = list(g.chance_cards(state))
    state = g.apply(
        state, Shuffle(tuple(parse_cards("KS 2S")) + tuple(c for c in deck if str(c) not in ("KS", "2S")))
    )
    key = parse_cards("2C")
    m = parse_cards("AS 3D QS JS 10S")  # master
    s = parse_cards("2H 3H 4H 5H 4D")  # slave
    rest = [c for c in deck if c not in (*key, *m, *s)]
    state = g.apply(state, Shuffle((*key, *(c for pair in zip(m, s, strict=True) for c in pair), *rest)))
    return g, state, deck, key[0], m


def test_a_forced_action_is_returned_without_search():
    # the slave leads a diamond and the master holds one diamond
    from cardrules import aegis, parse_cards

    g, state, _, _, _ = _stacked_aegis_season()
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
    root = agent.search(v, __import__("random").Random(0))
    # the root was visited 16 times: at most 1 + sqrt(v) children each time it widened
    assert 1 < len(root.children) <= 1 + 4
    greedy = haggis.GreedyAgent(0)(v, legal)
    assert greedy in root.children
    plain = ISMCTSAgent("haggis", iterations=16, seed=2)
    assert len(plain.search(v, __import__("random").Random(0)).children) == 16
    with pytest.raises(CardRulesError):
        ISMCTSAgent("haggis", prior="oracle")
    with pytest.raises(CardRulesError):
        ISMCTSAgent("haggis", widening=0)


def test_cutoff_rates_rollouts_with_the_haggis_evaluation_reproducibly(monkeypatch):
    import random

    g = GAMES["haggis"]
    state = g.new_game(seed=8)
    v, legal = g.view(state, state.to_act), g.legal_actions(state)
    def agent_with(cutoff, seed, iterations=30):
        # cutoff=0 plays no rollout: its rollout option would mean nothing (refused)
        rollout = "random" if cutoff == 0 else "greedy"
        return ISMCTSAgent(
            "haggis", iterations=iterations, seed=seed, cutoff=cutoff, prior="greedy", widening=1.0, rollout=rollout
        )

    def root(cutoff, seed=3):
        agent = agent_with(cutoff, seed)
        node = agent.search(v, random.Random(seed))
        return {a: (n.visits, round(n.reward, 9)) for a, n in node.children.items()}

    for cutoff in (0, 3):
        assert root(cutoff) == root(cutoff)  # the same seed: the same search
        assert agent_with(cutoff, 1)(v, legal) == agent_with(cutoff, 1)(v, legal)
    assert root(0) != root(None) and root(0) != root(3)
    # cutoff=0: every iteration rates the state it expanded (no hand ends that soon)
    from cardrules.haggis import evaluation

    calls = []
    counted = Evaluation(lambda s: calls.append(s) or evaluation.evaluate(s))
    agent = agent_with(0, 1, 25)
    monkeypatch.setattr(agent.parts.value, "evaluation", counted)
    agent(v, legal)
    assert len(calls) == 25 and all(s.scores == state.scores and s.to_act is not CHANCE for s in calls)
    # cutoff=3: the rated states are at most three actions past a node of the tree
    agent = agent_with(3, 1, 25)
    calls.clear()
    monkeypatch.setattr(agent.parts.value, "evaluation", counted)
    agent(v, legal)
    assert 0 < len(calls) <= 25
    assert ISMCTSAgent("haggis", iterations=1).parts.rollout.limit == 400  # no cutoff: full rollouts


@pytest.mark.parametrize("bad", [-1, 1.5, True, "3"])
def test_a_bad_cutoff_is_a_clear_error(bad):
    with pytest.raises(CardRulesError, match="cutoff must be None or a whole number"):
        ISMCTSAgent("haggis", cutoff=bad)


@pytest.mark.parametrize("name", ["aegis", "gunsore"])
def test_a_game_without_an_evaluation_refuses_cutoff(name):
    with pytest.raises(CardRulesError, match=f"{name} has no evaluation"):
        ISMCTSAgent(name, cutoff=0)


def test_aegis_rollout_policy_plays_legal_actions_from_the_hand_and_public_facts():
    # Random games: the policy's action is legal wherever a player acts, and it depends
    # only on the player's hand and the public state (the opponent's hand re-dealt
    # consistently does not change it).
    import random

    from cardrules import aegis

    g = GAMES["aegis"]
    rng = random.Random(3)
    for seed in range(4):
        for state in _decision_points("aegis", 2, seed, 40):
            legal = g.legal_actions(state)
            action = aegis.agent.rollout_policy(state, rng)
            assert action in legal
            p = state.to_act
            other = g.sample_state(g.view(state, p), seed=seed)
            assert aegis.agent.rollout_policy(other, rng) == action


def test_aegis_rollout_policy_follows_the_greedy_rules_in_a_stacked_deal():
    from cardrules import aegis

    g, state, deck, key, m = _stacked_aegis_season()
    strength, _ = aegis.agent.policy_tables(state.rules.table, key)
    # an independent rating: the share of the other 50 cards beaten, leading and following
    table = state.rules.table
    others = [c for c in deck if c != key]
    for c in m:
        beaten = sum(
            (table.winner((c, u), key=key) == 0) + (table.winner((u, c), key=key) == 1)
            for u in others
            if u != c
        )
        assert strength[c] == pytest.approx(beaten / (2 * (len(others) - 1)))
    weak = tuple(c for c in state.hands[state.to_act] if strength[c] < 0.5)
    action = aegis.agent.rollout_policy(state, None)
    assert action == (aegis.Exchange(weak) if len(weak) >= 2 else aegis.Exchange(()))
    state = g.apply(state, aegis.Exchange(()))  # the master stops: it bids what its hand is worth
    bid = aegis.agent.rollout_policy(state, None)
    expect = round(sum(strength[c] for c in m))
    assert bid == aegis.Bid(max(expect, 1))


def test_aegis_likelihood_weights_lie_in_the_unit_interval_and_favour_the_policy():
    import random

    from cardrules import aegis

    g = GAMES["aegis"]
    rng = random.Random(5)
    seen = 0
    for seed in range(3):
        for state in _decision_points("aegis", 2, seed, 30):
            v = g.view(state, state.to_act)
            weight = aegis.agent.action_likelihood(v, None)
            if weight is None:
                assert v.bids[1 - v.player] is None and not any(v.drawn[1 - v.player])
                continue
            seen += 1
            draw = g.sampler(v)
            for _ in range(5):
                assert 0 < weight(draw(rng)) <= 1
    assert seen
    # the policy's own choices are the likeliest: a game played by the policy itself
    state = g.new_game(seed=11)
    while state.phase != "play":
        state = g.apply(state, aegis.agent.rollout_policy(state, rng))
    for p in (0, 1):
        weight = aegis.agent.action_likelihood(g.view(state, p), None)
        assert weight is not None and weight(state) == 1.0


def test_aegis_candidates_are_the_exchanges_of_the_weakest_cards():
    # A brute-force oracle: for each size k, the candidate exchange is one whose cards'
    # strengths add up to the least of every legal exchange of k cards; one per k, and
    # every legal action outside the exchange phase.
    from cardrules import aegis

    g = GAMES["aegis"]
    exchanges = 0
    for seed in range(4):
        for state in _decision_points("aegis", 2, seed, 40):
            legal = g.legal_actions(state)
            found = aegis.agent.candidate_actions(state, legal)
            if state.phase != "exchange":
                assert found == legal
                continue
            exchanges += 1
            strength, _ = aegis.agent.policy_tables(state.rules.table, state.key)
            hand = state.hands[state.to_act]
            assert sorted(len(a.cards) for a in found) == list(range(len(hand) + 1))
            assert [a for a in legal if a in found] == list(found)  # in the legal order
            for a in found:
                least = min(sum(strength[c] for c in b.cards) for b in legal if len(b.cards) == len(a.cards))
                assert sum(strength[c] for c in a.cards) == pytest.approx(least)
    assert exchanges > 20


def test_candidate_actions_bound_the_tree_but_not_the_decision():
    import random

    from cardrules import aegis

    g = GAMES["aegis"]
    state = g.new_game(seed=4)
    assert state.phase == "exchange"
    v = g.view(state, state.to_act)
    legal = g.legal_actions(state)
    found = set(aegis.agent.candidate_actions(state, legal))
    assert len(legal) == 32 and len(found) == 6
    roots = {}
    for actions in ("all", "candidates"):
        agent = ISMCTSAgent("aegis", iterations=200, seed=1, rollout="policy", actions=actions)
        roots[actions] = agent.search(v, random.Random(7)).children
        assert agent(v, legal) in (legal if actions == "all" else found)
    assert set(roots["candidates"]) == found
    assert len(roots["all"]) == 32  # the oracle can fail: without candidates all are tried
    # whatever the decision (exchanges, bids, plays), the choice is one of the candidates
    agent = ISMCTSAgent("aegis", iterations=20, seed=3, actions="candidates")
    for state in _decision_points("aegis", 2, 6, 30):
        legal = g.legal_actions(state)
        choice = agent(g.view(state, state.to_act), legal)
        assert choice in aegis.agent.candidate_actions(state, legal)
    with pytest.raises(CardRulesError, match="actions must be one of 'all', 'candidates'"):
        ISMCTSAgent("aegis", actions="some")
    with pytest.raises(CardRulesError, match="gunsore has no candidate actions"):
        ISMCTSAgent("gunsore", actions="candidates")


def test_policy_rollouts_and_belief_are_legal_and_reproducible():
    g = GAMES["aegis"]
    states = _decision_points("aegis", 2, 8, 6)

    def run():
        agent = ISMCTSAgent("aegis", iterations=20, seed=2, rollout="policy", belief="policy")
        return [agent(g.view(s, s.to_act), g.legal_actions(s)) for s in states]

    first = run()
    assert all(a in g.legal_actions(s) for a, s in zip(first, states, strict=True))
    assert first == run()
    with pytest.raises(CardRulesError):
        ISMCTSAgent("aegis", belief="psychic")
    with pytest.raises(CardRulesError):
        ISMCTSAgent("haggis", rollout="policy")
    with pytest.raises(CardRulesError):
        ISMCTSAgent("gunsore", belief="policy")


@pytest.mark.parametrize(
    "opponents, name",
    [("policy", "aegis"), ("policy", "gunsore"), ("greedy", "gunsore"), ("greedy", "haggis")],
)
def test_modelled_opponents_are_legal_reproducible_and_blind_to_the_truth(opponents, name):
    # the model plays the other players' cards of each determinization, never the true ones
    g = GAMES[name]
    settings = {"rollout": "policy", "belief": "policy"} if name == "aegis" else {}
    for state in _decision_points(name, 2, 11, 3):
        p = state.to_act
        v = g.view(state, p)
        choices = set()
        for truth in [state, *(g.sample_state(v, seed=k) for k in range(2))]:
            agent = ISMCTSAgent(name, iterations=25, seed="same", opponents=opponents, **settings)
            choices.add(agent(g.view(truth, p), g.legal_actions(truth)))
            assert agent.iterations_done == 25
        assert len(choices) == 1 and choices <= set(g.legal_actions(state))
    with pytest.raises(CardRulesError, match="opponents must be"):
        ISMCTSAgent(name, opponents="psychic")
    with pytest.raises(CardRulesError, match="haggis has no policy"):
        ISMCTSAgent("haggis", opponents="policy")

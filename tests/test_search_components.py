"""The search's components, each on its own, on the toy game of ``tests/toygame.py``
("highcard": the six spades, three each, the higher card of each round scores a point);
the configuration; the outside game searched with public components alone; and every
configuration a game ships, played."""

from __future__ import annotations

import json
import math
import random
import sys
from pathlib import Path

import pytest
import toygame

from cardrules import GAMES, Card, CardRulesError, Shuffle, Suit, play
from cardrules.agents import SEARCH_CONFIGS, strong_agent
from cardrules.search import Evaluation, ISMCTSAgent, SearchConfig, analyse, components
from cardrules.search.analysis import wilson
from cardrules.search.belief import UniformBelief, rejecting
from cardrules.search.loop import Components, search
from cardrules.search.opponents import GreedyOpponents, PolicyOpponents, SearchOpponents
from cardrules.search.rollout import GreedyRollout, PolicyRollout, RandomRollout
from cardrules.search.selection import UCB, Bounds
from cardrules.search.tree import Node
from cardrules.search.value import ChanceValue, MarginValue

TOY = toygame.GAME


def S(rank: int) -> Card:
    return Card(rank, Suit.SPADES)


def dealt(*ranks: int) -> toygame.State:
    """The toy game dealt in this order: ranks[0], [2], [4] to player 0."""
    return TOY.apply(TOY.new_game(seed=None), Shuffle(tuple(S(r) for r in ranks)))


def lowest(state, rng=None):
    """A policy: the lowest card of the player to act."""
    return min(TOY.legal_actions(state), key=lambda a: a.card.rank)


class Lowest:
    """The same as an agent of a view (the toy game's view is the hand)."""

    def __init__(self, seed):
        self.seed = seed

    def __call__(self, view, legal):
        return min(legal, key=lambda a: a.card.rank)


# -- selection ------------------------------------------------------------------------


def test_ucb_expands_every_action_once_then_takes_the_highest_score():
    state = dealt(1, 2, 3, 4, 5, 6)  # player 0: 1, 3, 5
    ucb = UCB(0.7, TOY.legal_actions, TOY.view)
    ucb.start(random.Random(0))
    node, rng, bounds = Node(), random.Random(1), Bounds(False)
    tried = []
    for _ in range(3):
        action, child, expanded = ucb.select(node, state, 0, rng, bounds)
        assert expanded and child is node.children[action]
        tried.append(action)
        child.visits, child.reward = 1, {1: 0.0, 3: 0.5, 5: 1.0}[action.card.rank]
    assert sorted(a.card.rank for a in tried) == [1, 3, 5]
    # every action tried: the UCB score mean + c * sqrt(log(avail) / visits) chooses
    node.children[tried[0]].visits = 4  # the first one tried is better known
    action, child, expanded = ucb.select(node, state, 0, rng, bounds)
    assert not expanded and action.card.rank == 5
    assert all(ch.avail == 2 for ch in node.children.values())  # each was available once more
    scores = {a.card.rank: ch.reward / ch.visits + 0.7 * math.sqrt(math.log(2) / ch.visits)
              for a, ch in node.children.items()}  # fmt: skip
    assert max(scores, key=scores.get) == 5


def test_ucb_rescales_the_means_to_the_range_of_the_rewards_when_asked():
    bounds = Bounds(True)
    bounds.update([0.4, 0.6], True)
    bounds.update([0.5, 0.45], False)
    assert (bounds.lo, bounds.hi) == (0.4, 0.6) and bounds.inv == pytest.approx(5.0)
    node = Node()
    for rank, mean in ((1, 0.45), (3, 0.55)):
        child = node.children[toygame.Play(S(rank))] = Node()
        child.visits, child.reward = 10, 10 * mean
    node.legal = None
    # no exploration: the higher mean, however rescaled
    action, _, _ = UCB(0.0, lambda s: tuple(node.children), TOY.view).select(
        node, None, 0, random.Random(0), bounds
    )
    assert action.card.rank == 3


def test_progressive_widening_the_prior_and_candidates_bound_what_the_tree_tries():
    state = dealt(1, 2, 3, 4, 5, 6)
    rng = random.Random(2)
    widened = UCB(0.7, TOY.legal_actions, TOY.view, widening=0.5)
    widened.start(rng)
    node = Node()
    for _ in range(6):
        _, child, _ = widened.select(node, state, 0, rng, Bounds(False))
        child.visits += 1
        child.reward += 0.5
        node.visits += 1
        assert len(node.children) <= 1 + int(0.5 * math.sqrt(node.visits))
    # the prior's choice is the first child
    prior = UCB(0.7, TOY.legal_actions, TOY.view, prior=Lowest)
    prior.start(rng)
    action, _, _ = prior.select(Node(), state, 0, rng, Bounds(False))
    assert action.card.rank == 1
    # candidates: the tree never tries what the game leaves out
    only = UCB(0.7, TOY.legal_actions, TOY.view, candidates=lambda s, legal: legal[1:])
    node = Node()
    for _ in range(5):
        _, child, _ = only.select(node, state, 0, rng, Bounds(False))
        child.visits, child.reward = child.visits + 1, child.reward + 0.5
    assert {a.card.rank for a in node.children} == {3, 5}


# -- opponents ------------------------------------------------------------------------


def test_opponent_models_choose_with_the_cards_of_the_determinization():
    state = TOY.apply(dealt(1, 2, 3, 4, 5, 6), toygame.Play(S(3)))  # player 1 (2, 4, 6) to act
    assert not SearchOpponents().modelled
    policy = PolicyOpponents(lowest)
    assert policy.modelled and policy.choose(state, 1, random.Random(0)).card == S(2)
    greedy = GreedyOpponents(Lowest, TOY.view, TOY.legal_actions)
    greedy.start(random.Random(0))
    assert greedy.modelled and greedy.choose(state, 1, random.Random(0)).card == S(2)


# -- rollouts -------------------------------------------------------------------------


def test_rollouts_play_to_the_first_change_of_scores_or_stop_at_the_cutoff():
    state = dealt(1, 2, 3, 4, 5, 6)
    for rollout in (RandomRollout(TOY, 400), PolicyRollout(TOY, 400, lowest)):
        ended = rollout.play(state, state.scores, random.Random(3))
        assert sum(ended.scores) == 1 and len(ended.history) == len(state.history) + 2
    # the policy plays each side's lowest card: 1 against 2, player 1 scores
    assert PolicyRollout(TOY, 400, lowest).play(state, state.scores, random.Random(0)).scores == (0, 1)
    assert GreedyRollout(TOY, 400, Lowest).play(state, state.scores, random.Random(0)).scores == (0, 1)
    assert RandomRollout(TOY, 0).play(state, state.scores, random.Random(0)) is state  # cut off at once
    one = RandomRollout(TOY, 1).play(state, state.scores, random.Random(0))
    assert len(one.history) == len(state.history) + 1 and one.scores == (0, 0)
    # epsilon 1: every action of a policy rollout is random, so it can differ from the policy's
    seen = {PolicyRollout(TOY, 400, lowest, epsilon=1.0).play(state, state.scores, random.Random(k)).table
            for k in range(20)}  # fmt: skip
    assert len(seen) == 1  # the trick is complete: the table is empty again
    scores = {PolicyRollout(TOY, 400, lowest, epsilon=1.0).play(state, state.scores, random.Random(k)).scores
              for k in range(30)}  # fmt: skip
    assert scores == {(0, 1), (1, 0)}


# -- leaf values ----------------------------------------------------------------------


def test_the_margin_value_rates_points_the_evaluation_and_the_end_of_the_game():
    state = dealt(1, 2, 3, 4, 5, 6)
    after = TOY.apply(TOY.apply(state, toygame.Play(S(1))), toygame.Play(S(2)))  # player 1 scores
    value = MarginValue(2.0)
    assert value(after, state.scores) == pytest.approx(
        [0.5 - 0.5 * math.tanh(0.5), 0.5 + 0.5 * math.tanh(0.5)]
    )
    assert value(state, state.scores) == [0.5, 0.5]  # nothing scored, nothing to evaluate it
    points = MarginValue(2.0, Evaluation(lambda s: [float(sum(c.rank for c in h)) for h in s.hands]))
    half = TOY.apply(state, toygame.Play(S(1)))  # 3 + 5 = 8 in hand against 2 + 4 + 6 = 12
    assert points(half, state.scores) == pytest.approx(
        [0.5 + 0.5 * math.tanh(-4 / 2), 0.5 + 0.5 * math.tanh(4 / 2)]
    )
    over = state
    for _ in range(6):
        over = TOY.apply(over, lowest(over))
    assert over.is_over and points(over, state.scores) == [0.0, 1.0] == value(over, state.scores)
    chance = ChanceValue(Evaluation(lambda s: [0.3, 0.7], "chance"))
    assert chance.normalised and not value.normalised
    assert chance(half, state.scores) == [0.3, 0.7] and chance(over, state.scores) == [0.0, 1.0]
    with pytest.raises(CardRulesError, match="'points' or 'chance'"):
        Evaluation(lambda s: [], "hope")  # type: ignore[arg-type]


# -- beliefs --------------------------------------------------------------------------


def test_rejection_keeps_a_sample_in_proportion_to_its_weight():
    draws = iter(range(10**6))
    weights = {0: 0.0, 1: 1.0}
    draw = rejecting(lambda rng: next(draws) % 2, weights.__getitem__)
    rng = random.Random(0)
    assert {draw(rng) for _ in range(50)} == {1}  # weight 0 is never kept while 1 is drawn
    best = rejecting(lambda rng: 0, lambda s: 0.0)  # nothing kept: the likeliest seen
    assert best(rng) == 0


# -- the loop -------------------------------------------------------------------------


def _toy_parts(opponents=None):
    return Components(
        TOY,
        UCB(0.7, TOY.legal_actions, TOY.view),
        opponents or SearchOpponents(),
        RandomRollout(TOY, 400),
        MarginValue(1.0),
    )


def test_the_loop_searches_a_determinization_and_finds_the_winning_answers():
    # player 1 answers a 3 holding 2, 4, 6 (perfect information: the draw is the truth)
    state = TOY.apply(dealt(1, 2, 3, 4, 5, 6), toygame.Play(S(3)))
    root, done, me = search(_toy_parts(), lambda rng: state, random.Random(0), 300)
    assert done == root.visits == 300 and me == 1
    assert sum(ch.visits for ch in root.children.values()) == 300
    means = {a.card.rank: ch.reward / ch.visits for a, ch in root.children.items()}
    assert means[2] < 0.5 < means[4] and means[6] > 0.5  # 4 and 6 win the point, 2 loses it
    # with player 0 modelled by a policy, its answers are the policy's, one child each
    root, _, _ = search(_toy_parts(PolicyOpponents(lowest)), lambda rng: dealt(1, 2, 3, 4, 5, 6),
                        random.Random(0), 60)  # fmt: skip
    assert len(root.children) == 3
    assert all(set(ch.children) == {toygame.Play(S(2))} for ch in root.children.values())


def test_a_game_without_what_a_configuration_asks_for_is_refused_by_name():
    for options, message in [
        ({"prior": "greedy"}, "highcard has no greedy agent, which prior='greedy' needs"),
        ({"rollout": "policy"}, "highcard has no policy"),
        ({"actions": "candidates"}, "highcard has no candidate actions"),
        ({"cutoff": 0}, "highcard has no evaluation in points"),
        ({"value": "chance"}, "highcard has no evaluation of each player's chance"),
    ]:
        with pytest.raises(CardRulesError, match=message):
            components(TOY, SearchConfig(**options))


# -- the configuration ----------------------------------------------------------------


@pytest.mark.parametrize(
    "options, message",
    [
        ({"iterations": 0}, "iterations must be None or a whole number"),
        ({"iterations": 2.5}, "iterations must be"),
        ({"time_per_move": -1}, "time_per_move must be"),
        ({"exploration": "a"}, "exploration must be"),
        ({"widening": 0}, "widening must be"),
        ({"prior": "oracle"}, "prior must be one of None, 'greedy'"),
        ({"belief": "psychic"}, "belief must be one of"),
        ({"belief": "particles", "belief_samples": 0}, "belief_samples"),
        ({"belief": "particles", "belief_epsilon": True}, "belief_epsilon"),
        ({"belief_samples": 8}, "belief_samples and belief_epsilon are the particles'"),
        ({"opponents": "psychic"}, "opponents must be one of"),
        ({"rollout": "perfect"}, "rollout must be one of"),
        ({"epsilon": 0.1}, "rollout='random' is random already"),
        ({"cutoff": 0, "rollout": "greedy"}, "cutoff=0 plays no rollout"),
        ({"cutoff": -1}, "cutoff must be"),
        ({"max_rollout": 0}, "max_rollout must be"),
        ({"value": "chance", "cutoff": 3}, "use one of them"),
        ({"value": "hope"}, "value must be one of"),
    ],
)
def test_an_invalid_configuration_is_refused_when_it_is_made(options, message):
    with pytest.raises(CardRulesError, match=message):
        SearchConfig(**options)


def test_a_configuration_prints_as_text_and_json_and_reads_back():
    c = SearchConfig(
        iterations=650, rollout="policy", belief="likelihood", opponents="policy", actions="candidates"
    )
    assert repr(c) == str(c)
    assert str(c) == ("SearchConfig(iterations=650, actions='candidates', belief='likelihood', "
                      "opponents='policy', rollout='policy')")  # fmt: skip
    assert eval(str(c), {"SearchConfig": SearchConfig}) == c  # the text is the call that makes it
    text = json.dumps(c.to_json())
    assert SearchConfig.from_json(json.loads(text)) == c and hash(c) == hash(
        SearchConfig.from_json(c.to_json())
    )
    assert str(SearchConfig()) == "SearchConfig()"
    with pytest.raises(
        CardRulesError, match="unknown search option 'iteration' \\(did you mean 'iterations'\\?\\)"
    ):
        SearchConfig.from_json({"iteration": 3})
    with pytest.raises(CardRulesError, match="unknown search option 'widen'"):
        c.replace(widen=2)
    assert c.replace(iterations=5).iterations == 5 and c.iterations == 650
    # the older names of some choices still read
    assert SearchConfig(belief="model", opponents=None, value="outlook") == SearchConfig(
        belief="particles", opponents="search", value="chance"
    )
    with pytest.raises(CardRulesError, match="a search configuration is a JSON object"):
        SearchConfig.from_json([1])  # type: ignore[arg-type]


# -- every configuration a game ships, and the outside game -------------------------------


@pytest.mark.parametrize("name", sorted(SEARCH_CONFIGS))
def test_every_configuration_a_game_ships_plays_whole_games(name):
    g = GAMES[name]
    config = SEARCH_CONFIGS[name]
    assert isinstance(config, SearchConfig) and g.search.config is config
    for seed in range(2):
        agents = [strong_agent(name, seed, iterations=6), g.greedy_agent(seed)]
        if seed:
            agents.reverse()
        final = play(name, agents, seed=seed)
        assert final.is_over


def test_the_outside_game_is_searched_with_public_components_alone():
    path = Path(__file__).resolve().parent.parent / "examples" / "knockout"
    sys.path.insert(0, str(path))
    import knockout  # noqa: F401  (registered as it loads)

    g = GAMES["knockout"]
    state = g.new_game(players=3, seed=5)
    view = g.view(state, state.to_act)
    parts = Components(
        g,
        UCB(0.7, g.legal_actions, g.view, widening=1.0, prior=g.greedy_agent),
        GreedyOpponents(g.greedy_agent, g.view, g.legal_actions),
        GreedyRollout(g, 400, g.greedy_agent, epsilon=0.1),
        MarginValue(2.0),
    )
    rng = random.Random(1)
    draw = UniformBelief(g).prepare(view, rng)
    root, done, me = search(parts, draw, rng, 40)
    assert done == 40 and me == state.to_act
    assert set(root.children) <= set(g.legal_actions(state)) and root.children
    # and its own configuration, from its hooks
    assert strong_agent("knockout", 1, iterations=20)(view, g.legal_actions(state)) in g.legal_actions(state)


def test_a_configuration_that_is_not_a_search_config_is_refused_by_name():
    from cardrules.protocol import GameDef, SearchHooks

    odd = GameDef(
        "highcard_odd", rules_type=toygame.Rules, state_type=int, action_types=(toygame.Play,),
        player_counts=(2,), default_players=2, start=toygame.start, legal_actions=toygame.legal_actions,
        step=toygame.step, chance_cards=toygame.chance_cards, deal=toygame.deal, view=toygame.view,
        search=SearchHooks(config={"iterations": 5}),  # type: ignore[arg-type]
    )  # fmt: skip
    with pytest.raises(CardRulesError, match=r"highcard_odd's SearchHooks\.config must be a SearchConfig"):
        strong_agent(odd, 1)
    with pytest.raises(CardRulesError, match="config must be a SearchConfig"):
        ISMCTSAgent(TOY, {"iterations": 5})  # type: ignore[arg-type]


# -- analysis -------------------------------------------------------------------------


def test_the_analysis_gives_each_action_its_value_visits_and_interval():
    g = GAMES["aegis"]
    state = g.new_game(seed=4)
    view, legal = g.view(state, state.to_act), g.legal_actions(state)
    config = SearchConfig(iterations=120)
    found = analyse("aegis", view, legal, config=config, seed=3)
    assert found.iterations == 120 and found.player == state.to_act and found.config == config
    assert {line.action for line in found.lines} == set(legal) and len(found.lines) == len(legal)
    assert sum(line.visits for line in found.lines) == 120
    visits = [line.visits for line in found.lines]
    assert visits == sorted(visits, reverse=True)
    for line in found.lines:
        if line.visits:
            assert line.low <= line.value <= line.high
            assert (line.low, line.high) == pytest.approx(wilson(line.value, line.visits))
        else:
            assert line.value is None
    # the analysis's best is what the agent with the same seed plays
    assert found.best == ISMCTSAgent("aegis", config, seed=3)(view, legal)
    assert analyse("aegis", view, config=config, seed=3) == found  # legal actions from the view
    data = json.loads(json.dumps(found.to_json()))
    assert data["actions"][0]["text"] == str(found.best) and data["config"] == {"iterations": 120}
    assert str(found).splitlines()[1].startswith(str(found.best))


def test_wilson_interval_matches_the_formula():
    lo, hi = wilson(0.3, 50)
    z = 1.959963984540054
    centre = (0.3 + z * z / 100) / (1 + z * z / 50)
    assert (lo + hi) / 2 == pytest.approx(centre)
    assert wilson(0.5, 0) == (0.0, 1.0)

"""The learned Gunsore policy (cardrules.gunsore.policy): its features read the right
things, its probabilities are a softmax of its scores, its draws follow them, and its data
file is checked."""

from __future__ import annotations

import json
import math
import random
from collections import Counter
from pathlib import Path

import pytest
from benchmark_scripts import benchmark_script
from gunsore_stack import game, play

from cardrules import CardRulesError, gunsore
from cardrules.gunsore import policy as pol
from cardrules.gunsore.policy import (
    CARD_FEATURES,
    CONTEXTS,
    FEATURES,
    WAR_FEATURES,
    features,
    load_weights,
    probabilities,
    rollout_policy,
    scores,
)

ROOT = Path(__file__).resolve().parents[1]


def named(state, action):
    """The action's features by name (the nonzero block only)."""
    offset, values = features(state, action)
    return dict(zip(FEATURES[offset : offset + len(values)], values, strict=True))


def test_the_names_cover_every_weight():
    assert len(FEATURES) == len(CONTEXTS) * len(CARD_FEATURES) + len(WAR_FEATURES) == len(load_weights())
    assert len(set(FEATURES)) == len(FEATURES)


def test_a_development_lead_reads_the_card_and_the_hand():
    s = game("9S AH KD JK 2C", "3H 4H 5H 6H 7H")
    f = named(s, gunsore.Play("9S"))
    assert f["development lead: number"] == 1.0 and f["development lead: number_rank"] == 0.9
    assert f["development lead: suit"] == 1.0  # spades, the strongest suit
    assert f["development lead: lead_rank_hand"] == pytest.approx(0.9)  # 5 cards in hand
    assert f["development lead: lead_war_points"] == pytest.approx(0.9)
    assert f["development lead: wins"] == 0.0  # a lead wins nothing yet
    king = named(s, gunsore.Play("KD"))
    assert king["development lead: face"] == 1.0 and king["development lead: face_rank"] == 1.0
    assert king["development lead: suit"] == 0.0 and king["development lead: lead_war_points"] == 0.0
    assert named(s, gunsore.Play("AH"))["development lead: ace"] == 1.0


def test_declaring_war_reads_the_hand_the_pools_and_the_stock():
    s = game("9S AH KD JK 2C", "3H 4H 5H 6H 7H")
    f = named(s, gunsore.DeclareWar())
    assert f["declare war: bias"] == 1.0 and f["declare war: season_start"] == 1.0
    assert f["declare war: faces"] == pytest.approx(1 / 5) and f["declare war: aces"] == pytest.approx(1 / 5)
    assert f["declare war: high"] == pytest.approx(1 / 5) and f["declare war: low"] == pytest.approx(1 / 5)
    assert f["declare war: jokers"] == 1.0
    assert f["declare war: stock"] == pytest.approx(len(s.stock) / 96)


def test_a_war_answer_knows_whether_it_wins_and_what_it_takes():
    # player 0 declares war and leads 6S; player 1 has no spade: 8D wins 6 + 8, QH too
    # (a face beats a number) for 6 + 0, 2H loses
    s = play(game("5H 2S 3S 4S 6S", "2H 3H QH 7D 8D"), "war", "6S")
    assert s.to_act == 1 and s.season == "war"
    eight = named(s, gunsore.Play("8D"))
    assert eight["war answer: wins"] == 1.0
    assert eight["war answer: wins_points"] == pytest.approx(1.4)
    assert eight["war answer: wins_ahead"] == 0.0  # equal pools
    queen = named(s, gunsore.Play("QH"))
    assert queen["war answer: wins"] == 1.0 and queen["war answer: wins_points"] == pytest.approx(0.6)
    two = named(s, gunsore.Play("2H"))
    assert two["war answer: wins"] == 0.0 and two["war answer: wins_points"] == 0.0


def test_the_joker_reads_what_its_swap_would_bring():
    # development: 9S against 3H puts 9 and 3 in the pools and player 0 stays master;
    # it leads 2S, and player 1's joker would swap the pools: (9 - 3) / 30 from its side
    s = play(game("9S 2S 3S 4S 6S", "JK 3H QH 7D 8D"), "9S", "3H", "2S")
    assert s.pools == (9, 3) and s.to_act == 1
    f = named(s, gunsore.Play("JK"))
    assert f["development answer: joker"] == 1.0
    assert f["development answer: joker_swap"] == pytest.approx(6 / 30)
    assert named(s, gunsore.Play("QH"))["development answer: joker_swap"] == 0.0


def test_probabilities_are_the_softmax_of_the_scores():
    s = game("9S AH KD JK 2C", "3H 4H 5H 6H 7H")
    legal = gunsore.legal_actions(s)
    w = load_weights()
    by_hand = []
    for a in legal:
        offset, values = features(s, a)
        by_hand.append(sum(w[offset + i] * v for i, v in enumerate(values)))
    assert scores(s, legal) == pytest.approx(by_hand)
    e = [math.exp(x) for x in by_hand]
    assert probabilities(s, legal) == pytest.approx([x / sum(e) for x in e])


def test_the_policy_draws_legal_actions_as_often_as_their_probabilities():
    s = game("9S AH KD JK 2C", "3H 4H 5H 6H 7H")
    legal = gunsore.legal_actions(s)
    rng = random.Random(5)
    n = 6000
    seen = Counter(rollout_policy(s, rng) for _ in range(n))
    assert set(seen) <= set(legal)
    for a, p in zip(legal, probabilities(s, legal), strict=True):
        assert seen[a] / n == pytest.approx(p, abs=4 * math.sqrt(p * (1 - p) / n) + 1e-9)


def test_a_single_legal_action_is_played_without_scoring():
    # war, player 1 holds one spade: it must follow with it
    s = play(game("5H 2S 3S 4S 6S", "2H 3H QH 7D 8S"), "war", "6S")
    assert gunsore.legal_actions(s) == (gunsore.Play("8S"),)
    assert rollout_policy(s, random.Random(1)) == gunsore.Play("8S")


def test_the_search_hook_is_the_policy():
    hooks = gunsore.GAME.search
    assert hooks is not None and hooks.policy is rollout_policy


def test_the_data_file_loads_and_has_the_shape_the_script_writes(tmp_path):
    shipped = json.loads((ROOT / "src" / "cardrules" / "gunsore" / "policy.json").read_text())
    assert shipped["features"] == list(FEATURES)
    assert load_weights() == tuple(shipped["weights"])
    pytest.importorskip("numpy")
    train_gunsore_policy = benchmark_script("train_gunsore_policy")
    out = tmp_path / "policy.json"
    args = ["--games", "2", "--iterations", "5", "--jobs", "1", "--seed", "t", "-o", str(out)]
    assert train_gunsore_policy.main(args) == 0
    written = json.loads(out.read_text())
    assert set(written) == set(shipped)
    assert written["features"] == shipped["features"]
    assert len(pol._check(written)) == len(FEATURES)
    assert "--iterations 5" in written["made_by"]


def test_a_malformed_data_file_is_refused():
    good = {"features": list(FEATURES), "weights": [0.0] * len(FEATURES)}
    assert pol._check(good) == (0.0,) * len(FEATURES)
    with pytest.raises(CardRulesError, match="features"):
        pol._check({**good, "features": ["bias"]})
    with pytest.raises(CardRulesError, match="malformed"):
        pol._check({**good, "weights": [0.0]})
    with pytest.raises(CardRulesError, match="malformed"):
        pol._check({**good, "weights": ["x"] * len(FEATURES)})
    with pytest.raises(CardRulesError, match="features"):
        pol._check([])

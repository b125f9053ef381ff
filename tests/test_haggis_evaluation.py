"""The Haggis evaluation (cardrules.haggis.evaluation): its features on a stacked
state, computed by hand; the shipped weights and the file the training script writes."""

from __future__ import annotations

import json
from pathlib import Path

import attrs
import pytest
from benchmark_scripts import benchmark_script

from cardrules import CardRulesError, parse_cards
from cardrules.haggis import combinations, new_game
from cardrules.haggis import evaluation as ev
from cardrules.haggis.evaluation import FEATURES, evaluate, features, load_weights

ROOT = Path(__file__).resolve().parents[1]


def _stacked():
    """Player 0 to act, following player 1's pair of 7s; player 0 has bet 15."""
    state = new_game(players=2, seed=1)
    (pair,) = [c for c in combinations("7S 7H") if c.describe() == "two 7s"]
    return attrs.evolve(
        state,
        hands=(parse_cards("3S 5H 7D 9C 10S 10H J Q"), parse_cards("2S 2H 4D K")),
        captured=(parse_cards("3H 5S"), parse_cards("9S 9H")),
        trick=((1, pair),),
        haggis=parse_cards("3D 5D"),
        bets=(15, 0),
        out=(),
        going_out=(0, 0),
        to_act=0,
    )


def test_features_of_a_stacked_state_seen_from_each_player():
    state = _stacked()
    mine = dict(zip(FEATURES, features(state, 0), strict=True))
    assert mine == {
        "bias": 1, "captured": 2, "going_out": 0, "trick_mine": 0, "trick_other": 2,
        "hand": 8, "hand_points": 4, "faces": 2, "number_bomb": 1, "high": 3, "groups": 1,
        "opponent_max": 4, "opponent_min": 4, "ahead": 0, "out_first": 0, "other_out_first": 0,
        "leading": 0, "bet": 15, "other_bets": 0, "others_points": 5, "others_faces": 1,
        "haggis_points": 2, "race": -4, "ahead_bonus": 0,
    }  # fmt: skip
    theirs = dict(zip(FEATURES, features(state, 1), strict=True))
    assert theirs == {
        "bias": 1, "captured": 2, "going_out": 0, "trick_mine": 2, "trick_other": 0,
        "hand": 4, "hand_points": 0, "faces": 1, "number_bomb": 0, "high": 0, "groups": 1,
        "opponent_max": 8, "opponent_min": 8, "ahead": 1, "out_first": 0, "other_out_first": 0,
        "leading": 0, "bet": 0, "other_bets": 15, "others_points": 9, "others_faces": 2,
        "haggis_points": 2, "race": 4, "ahead_bonus": 5 * 8 + 9 + 2,
    }  # fmt: skip


def test_a_leader_a_player_out_and_a_bomb_of_one_suit():
    state = attrs.evolve(
        _stacked(),
        hands=(parse_cards("3S 5S 7S 9S"), (), parse_cards("2M 4M")),
        captured=((), (), ()),
        trick=(),
        bets=(0, 0, 30),
        out=(1,),
        going_out=(0, 30, 0),
        players=3,
        to_act=0,
    )
    f = dict(zip(FEATURES, features(state, 0), strict=True))
    assert (f["number_bomb"], f["leading"], f["other_out_first"], f["out_first"]) == (1, 1, 1, 0)
    assert (f["opponent_max"], f["opponent_min"], f["ahead"], f["race"]) == (2, 2, 0, -2)
    assert f["other_bets"] == 30
    g = dict(zip(FEATURES, features(state, 1), strict=True))
    assert (g["going_out"], g["out_first"], g["hand"], g["ahead"], g["ahead_bonus"]) == (30, 1, 0, 0, 0)
    # 3-5-7-9 of only three suits is no bomb
    three = attrs.evolve(state, hands=(parse_cards("3S 5S 7H 9D 9S"), (), parse_cards("2M")))
    assert dict(zip(FEATURES, features(three, 0), strict=True))["number_bomb"] == 0


def test_evaluate_is_the_weights_times_the_features():
    state = _stacked()
    w = load_weights()[2]
    values = evaluate(state)
    assert len(values) == 2
    for p in (0, 1):
        assert values[p] == pytest.approx(sum(a * b for a, b in zip(w, features(state, p), strict=True)))


def test_the_data_file_loads_and_has_the_shape_the_script_writes(tmp_path):
    shipped = json.loads((ROOT / "src" / "cardrules" / "haggis" / "evaluation.json").read_text())
    weights = load_weights()
    assert set(weights) == {2, 3} and all(len(w) == len(FEATURES) for w in weights.values())
    assert shipped["features"] == list(FEATURES)
    pytest.importorskip("numpy")
    train_evaluation = benchmark_script("train_evaluation")
    out = tmp_path / "evaluation.json"
    assert train_evaluation.main(["--games", "2", "--seed", "t", "-o", str(out)]) == 0
    written = json.loads(out.read_text())
    assert set(written) == set(shipped)
    assert written["features"] == shipped["features"]
    assert {k: len(v) for k, v in written["weights"].items()} == {k: len(v) for k, v in shipped["weights"].items()}
    assert ev._check(written).keys() == weights.keys()


def test_a_malformed_data_file_is_refused():
    good = {"features": list(FEATURES), "weights": {"2": [0.0] * len(FEATURES)}}
    assert ev._check(good) == {2: (0.0,) * len(FEATURES)}
    with pytest.raises(CardRulesError, match="features"):
        ev._check({**good, "features": ["bias"]})
    with pytest.raises(CardRulesError, match="malformed"):
        ev._check({**good, "weights": {"2": [0.0]}})
    with pytest.raises(CardRulesError, match="no weights"):
        ev._check({"features": list(FEATURES)})

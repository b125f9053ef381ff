"""JSON round trip and the rejection of tampered input, on the toy game."""

import json

import pytest
import toygame
from hypothesis import given
from hypothesis import strategies as st

import cardrules
from cardrules import StateFormatError, from_json, to_json
from cardrules.agents import RandomAgent

G = toygame.GAME


def _played(seed, steps):
    s = G.new_game(seed=seed)
    agent = RandomAgent(seed)
    for _ in range(steps):
        if s.is_over:
            break
        s = G.apply(s, agent(None, G.legal_actions(s)))
    return s


@given(st.integers(0, 1000), st.integers(0, 7))
def test_round_trip_is_exact(seed, steps):
    s = _played(seed, steps)
    back = from_json(to_json(s))
    assert back == s and back.seed == s.seed and back.history == s.history


def test_unseeded_states_round_trip_at_chance_nodes():
    s = G.new_game(toygame.Rules(cards=4))
    back = from_json(to_json(s))
    assert back == s and back.rules.cards == 4 and back.to_act is cardrules.CHANCE


def test_document_shape():
    doc = json.loads(to_json(_played(1, 2)))
    assert doc["format"] == "cardrules/state" and doc["version"] == 1 and doc["game"] == "highcard"
    assert doc["history"][0]["action"] == "Shuffle" and len(doc["history"][0]["order"]) == 6
    assert doc["history"][1]["action"] == "Play" and isinstance(doc["history"][1]["card"], str)


def _tamper(fn):
    doc = json.loads(to_json(_played(3, 4)))
    fn(doc)
    return json.dumps(doc)


@pytest.mark.parametrize("text, why", [
    ("{", "not JSON"),
    ("[]", "JSON object"),
    ("[" * 100000 + "]" * 100000, "not JSON"),
    (_tamper(lambda d: d.update(format="other")), "not a cardrules state"),
    (_tamper(lambda d: d.update(version=99)), "unsupported version 99"),
    (_tamper(lambda d: d.update(game="chess")), "unknown game 'chess'"),
    (_tamper(lambda d: d.update(players=3)), "played by 2 players"),
    (_tamper(lambda d: d.update(players="2")), "players must be an integer"),
    (_tamper(lambda d: d.update(seed=[1])), "seed must be"),
    (_tamper(lambda d: d.pop("history")), "no 'history'"),
    (_tamper(lambda d: d.update(history={})), "must be a list"),
    (_tamper(lambda d: d["history"][1].update(card="ZZ")), "history\\[1\\].card: 'ZZ' is not a card"),
    (_tamper(lambda d: d["history"][1].update(card=7)), "expected a card"),
    (_tamper(lambda d: d["history"][1].update(action="Fold")), "no action 'Fold'"),
    (_tamper(lambda d: d["history"][1].update(extra=1)), "no field 'extra'"),
    (_tamper(lambda d: d["history"][2].update(card=d["history"][1]["card"])), "does not replay"),
    (_tamper(lambda d: d["history"][0]["order"].pop()), "does not replay.*lacks"),
    (_tamper(lambda d: d["history"][0]["order"].__setitem__(0, "KH")), "does not replay.*holds KH"),
    (_tamper(lambda d: d["rules"].update(cards=5)), "highcard deals 2, 4 or 6"),
    (_tamper(lambda d: d["rules"].update(cards="6")), "rules.cards: expected an integer"),
    (_tamper(lambda d: d["rules"].update(speed=1)), "no field 'speed'"),
    (_tamper(lambda d: d["history"].pop(0)), "does not replay"),
])
def test_tampered_input_is_refused_with_a_clear_error(text, why):
    with pytest.raises(StateFormatError, match=why):
        from_json(text)


def test_seeded_state_cannot_wait_at_chance():
    doc = json.loads(to_json(G.new_game()))
    doc["seed"] = 4
    with pytest.raises(StateFormatError, match="seeded state"):
        from_json(json.dumps(doc))


def test_views_at_a_chance_node_encode_chance_by_name():
    from cardrules.serialize import encode_value

    assert encode_value({"to_act": cardrules.CHANCE}) == {"to_act": "CHANCE"}


def _nested(depth: int) -> object:
    value: object = "5C"
    for _ in range(depth):
        value = [value]
    return value


def _deep_judge(depth: int) -> str:
    """An Eleusis record whose last action is a Judge whose card is a list ``depth`` deep."""
    doc = json.loads(to_json(cardrules.GAMES["eleusis"].new_game(seed=1)))
    doc["history"].append({"action": "Judge", "right": False, "card": "CARD"})
    return json.dumps(doc).replace('"CARD"', "[" * depth + '"5C"' + "]" * depth)


def _on_a_deep_stack(frames: int, call):  # the caller's own stack, nearly full
    return call() if frames == 0 else _on_a_deep_stack(frames - 1, call)


@pytest.mark.parametrize("depth", [70, 300, 990, 5000])
@pytest.mark.parametrize("frames", [0, 400, 850])
def test_deep_nesting_is_refused_whatever_the_caller_s_stack(depth, frames):
    import sys

    text = _deep_judge(depth)
    assert len(text) < 40_000
    assert sys.getrecursionlimit() > frames + 50
    with pytest.raises(StateFormatError, match="nested"):
        _on_a_deep_stack(frames, lambda: from_json(text))


def test_nesting_within_the_limit_reads_to_the_usual_error():
    from cardrules.codec import MAX_DEPTH

    # a record nests a few levels: its own depth stays far below the limit
    with pytest.raises(StateFormatError, match="card"):
        from_json(_deep_judge(MAX_DEPTH - 8))
    with pytest.raises(StateFormatError, match="deeper than"):
        from_json(_deep_judge(MAX_DEPTH + 1))


def test_decode_value_refuses_deep_data_without_recursing():
    from cardrules.cards import Card
    from cardrules.codec import decode_value

    with pytest.raises(StateFormatError, match="deeper than"):
        decode_value(tuple[Card, ...], _nested(100_000))

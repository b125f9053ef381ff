"""Hostile and careless input on the adapters: a stored OpenSpiel state runs no code and
reads back only as the library's own JSON, game parameters are checked when the game is
loaded, and PettingZoo's constructor and ``step`` say what is wrong in the library's
words.  Fuzzed with Hypothesis (bounded: a few seconds under the ``dev`` profile)."""

from __future__ import annotations

import base64
import json
import pickle
import random
from pathlib import Path
from typing import Any

import pytest

pyspiel = pytest.importorskip("pyspiel", reason="the openspiel extra (open_spiel) is not installed")
pytest.importorskip("pettingzoo", reason="the pettingzoo extra (pettingzoo) is not installed")
np = pytest.importorskip("numpy", reason="the extras' numpy is not installed")

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from cardrules import GAMES, CardRulesError, StateFormatError  # noqa: E402
from cardrules.integrations import openspiel as cos  # noqa: E402
from cardrules.integrations.pettingzoo import raw_env  # noqa: E402


def _walk(game: Any, seed: int, steps: int) -> list[Any]:
    """States of one random game (clones), chance by its probabilities."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    out = [state.clone()]
    for _ in range(steps):
        if state.is_terminal():
            break
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
        out.append(state.clone())
    return out


class _Evil:
    """A pickle that writes a file when it is loaded."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def __reduce__(self) -> Any:
        return (Path.write_text, (self.path, "pwned"))


# -- OpenSpiel: serialization -----------------------------------------------------------


def test_a_pickled_state_string_runs_no_code(tmp_path: Path) -> None:
    game = pyspiel.load_game("python_cardrules_aegis")
    target = tmp_path / "pwned"
    payload = base64.b64encode(pickle.dumps({"_pos": _Evil(target)})).decode()
    crafted = f"history=\nmove_number=0\n__dict__={payload}"
    with pytest.raises(StateFormatError, match="reads only the JSON"):
        game.deserialize_state(crafted)
    assert not target.exists()


@pytest.mark.parametrize(("name", "players"), [("aegis", 2), ("haggis", 3), ("eleusis", 4), ("gunsore", 2)])
def test_serialize_is_json_and_reads_back(name: str, players: int) -> None:
    game = pyspiel.load_game(cos.GAME_NAMES[name], {"players": players})
    states = _walk(game, seed=5, steps=300)
    for state in states[::7]:
        text = state.serialize()
        doc = json.loads(text)
        assert doc["format"] == cos.STATE_FORMAT and "__dict__" not in text
        back = game.deserialize_state(text)
        assert back.cardrules_state == state.cardrules_state
        assert back.position.pending == state.position.pending
        assert back.position.dealt == state.position.dealt
        assert back.legal_actions() == state.legal_actions()
        assert str(back) == str(state)


def test_a_tampered_state_text_is_refused() -> None:
    game = pyspiel.load_game("python_cardrules_haggis", {"players": 3})
    states = _walk(game, seed=2, steps=120)
    mid_deal = next(s for s in states if s.position.dealt)
    pending = next(s for s in states if s.position.pending)
    doc = json.loads(pending.serialize())
    for bad in (
        {**doc, "format": "pickle"},
        {**doc, "version": 2},
        {**doc, "game": "aegis"},
        {**doc, "pending": [9999]},
        {**doc, "pending": ["1"]},
        {**doc, "dealt": ["AS"]},
        {**json.loads(mid_deal.serialize()), "dealt": ["ZZ"]},
        {**json.loads(mid_deal.serialize()), "pending": [0]},
    ):
        with pytest.raises(StateFormatError):
            game.deserialize_state(json.dumps(bad))
    other = pyspiel.load_game("python_cardrules_haggis", {"players": 2})
    with pytest.raises(StateFormatError, match="rules and players"):
        other.deserialize_state(pending.serialize())
    with pytest.raises(StateFormatError, match="not int"):
        game.deserialize_state(5)


def test_cxx_serialization_still_round_trips() -> None:
    game = pyspiel.load_game("python_cardrules_aegis")
    for state in _walk(game, seed=4, steps=200)[::20]:
        _, state2 = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))
        assert state2.cardrules_state == state.cardrules_state and str(state2) == str(state)


_SERIALIZED: dict[str, str] = {}


def _some_text() -> str:
    if not _SERIALIZED:
        game = pyspiel.load_game("python_cardrules_aegis")
        _SERIALIZED["aegis"] = _walk(game, seed=1, steps=60)[-1].serialize()
    return _SERIALIZED["aegis"]


_json = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)


@settings(max_examples=60)
@given(data=st.data())
def test_fuzz_deserialize_state(data: st.DataObject) -> None:
    """A text is read back as the state it names, or refused with StateFormatError."""
    game = pyspiel.load_game("python_cardrules_aegis")
    doc = json.loads(_some_text())
    kind = data.draw(st.sampled_from(["junk", "field", "cut"]))
    if kind == "junk":
        text = data.draw(st.text(max_size=60) | _json.map(json.dumps))
    elif kind == "field":
        key = data.draw(st.sampled_from(["format", "version", "game", "state", "pending", "dealt", "extra"]))
        doc[key] = data.draw(_json)
        text = json.dumps(doc)
    else:
        full = json.dumps(doc)
        text = full[: data.draw(st.integers(0, len(full)))]
    try:
        state = game.deserialize_state(text)
    except StateFormatError:
        return
    assert state.cardrules_state.history == tuple(state.cardrules_state.history)


# -- OpenSpiel: parameters ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("spec", "params", "words"),
    [
        ("python_cardrules_aegis(target=1000000000)", None, "too long for OpenSpiel"),
        ("python_cardrules_eleusis", {"decks": 1}, "cannot deal"),
        ("python_cardrules_eleusis", {"players": 8, "decks": 1}, "cannot deal"),
        ("python_cardrules_haggis", {"players": 7}, "played by 2, 3 players"),
        ("python_cardrules_aegis", {"new_master": "nobody"}, "new_master"),
    ],
)
def test_parameters_are_checked_when_the_game_is_loaded(spec: str, params: Any, words: str) -> None:
    with pytest.raises(CardRulesError, match=words):
        pyspiel.load_game(spec, params) if params is not None else pyspiel.load_game(spec)


def test_a_direct_constructor_checks_players_too() -> None:
    cls = type(pyspiel.load_game("python_cardrules_haggis"))
    with pytest.raises(CardRulesError, match="players=4611686018427387904 does not fit OpenSpiel's int"):
        cls({"players": 2**62})
    with pytest.raises(CardRulesError, match="played by"):
        cls({"players": 9})
    with pytest.raises(CardRulesError, match="max_hands must be of type int, not ''"):
        cls({"max_hands": ""})
    with pytest.raises(CardRulesError, match="unknown parameter"):
        cls({"": 1})


@settings(max_examples=40)
@given(
    name=st.sampled_from(["aegis", "gunsore", "haggis", "eleusis"]),
    key=st.sampled_from(["players", "target", "decks", "hand_size", "margin", "max_hands", "penalty", "x"]),
    value=st.integers(-(2**40), 2**40) | st.booleans() | st.text(max_size=6),
)
def test_fuzz_openspiel_parameters(name: str, key: str, value: Any) -> None:
    """A parameter set loads a game whose first state works, or is refused at once (by
    OpenSpiel's own type check, or in the library's words)."""
    cls = type(pyspiel.load_game(cos.GAME_NAMES[name]))
    try:
        game = cls({key: value})
    except CardRulesError:
        return
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    assert state.is_terminal() or state.legal_actions()


# -- PettingZoo ----------------------------------------------------------------------------


def _play_out(e: Any) -> None:
    e.reset(seed=3)
    for _agent in e.agent_iter(max_iter=100_000):
        obs, _, term, trunc, _ = e.last()
        e.step(None if term or trunc else int(np.flatnonzero(obs["action_mask"])[0]))
    assert e.agents == []


def test_stepping_after_every_agent_is_done() -> None:
    e = raw_env("aegis")
    _play_out(e)
    e.step(None)  # what api_test and the usual loops send: nothing happens
    assert e.agents == []
    with pytest.raises(CardRulesError, match="every agent is done"):
        e.step(0)


def test_step_before_reset() -> None:
    with pytest.raises(CardRulesError, match="reset"):
        raw_env("haggis").step(0)


@pytest.mark.parametrize(
    ("kwargs", "words"),
    [
        ({"foo": 1}, "unknown option"),
        ({"rules": 5}, "rules must be a aegis.Rules"),
        ({"rules": GAMES["aegis"].Rules(), "target": 5}, "not both"),
        ({"render_mode": "human"}, "render_mode"),
        ({"players": "x"}, "played by"),
        ({"target": "x"}, "target"),
    ],
)
def test_raw_env_constructor_errors(kwargs: dict[str, Any], words: str) -> None:
    with pytest.raises(CardRulesError, match=words):
        raw_env("aegis", **kwargs)


@settings(max_examples=40)
@given(
    name=st.sampled_from(["aegis", "gunsore", "haggis", "eleusis"]),
    options=st.dictionaries(
        st.sampled_from(["players", "target", "decks", "hand_size", "render_mode", "rules", "bets", "zz"]),
        st.integers(-5, 300) | st.none() | st.text(max_size=5) | st.floats(allow_nan=True),
        max_size=3,
    ),
)
def test_fuzz_raw_env_constructor(name: str, options: dict[str, Any]) -> None:
    """An environment is made and resets, or CardRulesError says why not."""
    try:
        e = raw_env(name, **options)
    except CardRulesError:
        return
    e.reset(seed=1)
    assert e.agents


def test_from_cardrules_and_the_resampler_take_only_their_games_states() -> None:
    from cardrules.integrations.sampling import sample_state

    game = pyspiel.load_game("python_cardrules_aegis")
    for bad in (5, None, GAMES["haggis"].new_game(seed=1)):
        with pytest.raises(TypeError, match="must be a state of aegis"):
            cos.from_cardrules(game, bad)
        with pytest.raises(TypeError, match="must be a state of aegis"):
            sample_state("aegis", bad, 0)
    other_rules = GAMES["aegis"].new_game(GAMES["aegis"].Rules(target=30), seed=1)
    with pytest.raises(CardRulesError, match="rules and players"):
        cos.from_cardrules(game, other_rules)


@pytest.mark.parametrize("action", [True, False, np.True_, 1.0, np.float32(2), "3", [1], np.array([1, 2]), b"\x01"])
def test_the_wrapped_environment_refuses_a_non_integer_action_naming_it(action):
    from cardrules.integrations.pettingzoo import env

    e = env("aegis")
    e.reset(seed=1)
    before = e.unwrapped.position
    with pytest.raises(CardRulesError, match="is not an action id") as refused:
        e.step(action)
    assert repr(action)[:20] in str(refused.value)
    assert e.unwrapped.position is before
    legal = int(np.flatnonzero(e.observe(e.agent_selection)["action_mask"])[0])
    e.step(np.int64(legal))  # an integer (numpy's too) is still an action
    assert e.unwrapped.position is not before

"""Invariants every game must keep, checked through the generic registry.

Random seeded games through ``GAMES[name]``: legal actions are distinct and stable, an
illegal action is refused without harm, states are never changed in place, replay and
JSON are exact at every step, views name their player, and random play ends.
"""

import importlib.util

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardrules import CHANCE, GAMES, CardRulesError, IllegalActionError, from_json, to_json
from cardrules.agents import RandomAgent
from cardrules.protocol import GAME_NAMES

CASES = [(g, n) for g in GAME_NAMES for n in (2, 3, 5) if n in (2, 3) or g == "eleusis"]


def _game(name, players):
    if importlib.util.find_spec(f"cardrules.{name}") is None:
        pytest.skip(f"cardrules.{name} does not exist yet")
    g = GAMES[name]
    if players not in g.player_counts:
        pytest.skip(f"{name} is not played by {players}")
    return g


class _NotAnAction:
    pass


@pytest.mark.parametrize("name, players", CASES)
@settings(max_examples=5)
@given(seed=st.integers(0, 10**9))
def test_random_games_keep_the_protocol(name, players, seed):
    g = _game(name, players)
    state = g.new_game(players=players, seed=seed)
    agent = RandomAgent(seed)
    steps = 0
    while not state.is_over:
        assert state.to_act is not CHANCE  # a seed resolves chance by itself
        assert state.winners == ()
        actions = g.legal_actions(state)
        assert actions, "a player to act must have a legal action"
        assert len(set(actions)) == len(actions), "legal actions must be distinct"
        assert g.legal_actions(state) == actions, "legal actions must be stable"
        view = g.view(state, state.to_act)
        assert view.player == state.to_act
        with pytest.raises(IllegalActionError):
            g.apply(state, _NotAnAction())
        before = to_json(state)
        action = agent(view, actions)
        new = g.apply(state, action)
        assert to_json(state) == before, "apply must not change its argument"
        assert new.history[: len(state.history)] == state.history
        state = new
        steps += 1
        if steps % 25 == 0:
            assert from_json(to_json(state)) == state
        assert steps < 20_000, "random play must end"
    assert g.legal_actions(state) == ()
    assert state.to_act is None and state.winners
    assert len(state.scores) == players
    assert g.replay(state.rules, state.history, players=players) == state
    back = from_json(to_json(state))
    assert back == state and back.seed == seed


@pytest.mark.parametrize("name", GAME_NAMES)
def test_rules_reject_unknown_options_and_games_reject_wrong_player_counts(name):
    g = _game(name, GAMES[name].default_players if importlib.util.find_spec(f"cardrules.{name}") else 2)
    with pytest.raises(TypeError):
        g.Rules(no_such_option=1)
    with pytest.raises(CardRulesError):
        g.new_game(players=9)

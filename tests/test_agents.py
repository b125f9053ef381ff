import pytest
import toygame

from cardrules import CardRulesError
from cardrules.agents import RandomAgent
from cardrules.simulate import simulate


def test_random_agent_is_deterministic_for_a_seed():
    actions = tuple(range(50))
    a, b = RandomAgent(3), RandomAgent(3)
    assert [a(None, actions) for _ in range(20)] == [b(None, actions) for _ in range(20)]
    assert len({RandomAgent(s)(None, actions) for s in range(30)}) > 5


def test_random_agent_refuses_to_act_without_actions():
    with pytest.raises(CardRulesError):
        RandomAgent(1)(None, ())


def test_simulate_summarises_and_is_deterministic():
    assert toygame.GAME  # registers "highcard"
    s1 = simulate("highcard", [RandomAgent(1), RandomAgent(2)], games=40, seed=9)
    s2 = simulate("highcard", [RandomAgent(1), RandomAgent(2)], games=40, seed=9)
    assert s1 == s2 and s1.games == 40
    assert sum(s1.average_scores) == pytest.approx(3.0)  # three points are dealt each game
    assert all(0 <= r <= 1 for r in s1.win_rates) and sum(s1.wins) >= 40
    assert s1.min_length == s1.max_length == 7 == s1.average_length  # shuffle + 6 plays


def test_simulate_rejects_nonsense():
    with pytest.raises(CardRulesError):
        simulate("chess", [], games=1, seed=0)
    with pytest.raises(CardRulesError):
        simulate("highcard", [RandomAgent(1), RandomAgent(2)], games=0, seed=0)

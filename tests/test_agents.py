import pytest
import toygame

from cardrules import CardRulesError, simulate
from cardrules.agents import RandomAgent


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
    assert s1.lengths == (7,) * 40


@pytest.mark.parametrize("game", ["aegis", "gunsore", "eleusis", "haggis"])
def test_simulate_gives_the_same_summary_with_agents_used_before(game):
    from cardrules.agents import strong_agent

    # a small search budget keeps the games quick
    agents = [strong_agent(game, 1, iterations=4),
              *(RandomAgent(p) for p in range(2, 4 if game == "eleusis" else 3))]  # fmt: skip
    first = simulate(game, agents, games=2, seed="again")
    again = simulate(game, agents, games=2, seed="again")
    fresh = simulate(game, [strong_agent(game, 1, iterations=4), *(RandomAgent(p) for p in range(2, len(agents) + 1))],
                     games=2, seed="again")  # fmt: skip
    assert first == again == fresh


class Counting:
    """A user agent without reset: simulate leaves it alone (it may be learning)."""

    def __init__(self):
        self.calls = 0

    def __call__(self, view, legal_actions):
        self.calls += 1
        return legal_actions[0]


def test_simulate_leaves_agents_without_reset_alone():
    assert toygame.GAME
    agent = Counting()
    simulate("highcard", [agent, RandomAgent(2)], games=3, seed=1)
    assert agent.calls == 9  # three plays a game, kept across games


def test_simulate_rejects_nonsense():
    with pytest.raises(CardRulesError):
        simulate("chess", [], games=1, seed=0)
    with pytest.raises(CardRulesError):
        simulate("highcard", [RandomAgent(1), RandomAgent(2)], games=0, seed=0)


def test_the_haggis_strong_agent_rates_its_expansions_with_the_evaluation():
    from cardrules import GAMES
    from cardrules.agents import strong_agent
    from cardrules.haggis.evaluation import evaluate
    from cardrules.search import ISMCTSAgent

    agent = strong_agent("haggis", 1)
    assert isinstance(agent, ISMCTSAgent)
    c = agent.config
    assert (c.iterations, c.cutoff, c.prior, c.widening) == (150, 0, "greedy", 1.0)
    assert agent.parts.value.evaluation.fn is evaluate and agent.parts.rollout.limit == 0
    # the settings it replaced stay buildable as options of the search
    old = ISMCTSAgent("haggis", iterations=40, rollout="greedy", prior="greedy", widening=1.0, seed=1)
    assert old.config.cutoff is None and old.parts.rollout.limit == 400
    g = GAMES["haggis"]
    state = g.new_game(players=3, seed=2)
    legal = g.legal_actions(state)
    assert strong_agent("haggis", 1, iterations=20)(g.view(state, state.to_act), legal) in legal


def test_every_tool_offers_the_kinds_of_agents_holds(monkeypatch, capsys):
    # one registry: a kind added to AGENTS is offered by `cardrules play` and the web table
    from cardrules import agents
    from cardrules.cli import main
    from cardrules.web.table import COMPUTER_KINDS

    assert list(COMPUTER_KINDS) == list(agents.AGENTS) == list(agents.AGENT_KINDS)
    monkeypatch.setitem(agents.AGENTS, "first", _first_agent)
    assert "first" in COMPUTER_KINDS and list(COMPUTER_KINDS)[-1] == "first"
    assert main(["play", "aegis", "--auto", "--opponents", "greedy", "--seed", "1"]) == 0
    assert main(["play", "aegis", "--auto", "--opponents", "first", "--seed", "1"]) == 0
    assert "winner" in capsys.readouterr().out


class _First:
    def __call__(self, view, legal):
        return legal[0]


def _first_agent(game, seed):
    return _First()

"""GreedyAgent: it reasons from what its view shows, and it beats random play."""

from eleusis_helpers import card, game, play

from cardrules import eleusis as E
from cardrules import parse_cards, simulate
from cardrules.agents import RandomAgent, greedy_agent, strong_agent


def test_greedy_agent_finds_it_and_strong_agent_is_the_scientist():
    assert isinstance(greedy_agent("eleusis", 1), E.GreedyAgent)
    assert isinstance(strong_agent("eleusis", 1), E.TableScientist)


def test_it_keeps_the_candidates_that_fit_the_layout():
    s = game(["2S 3H 4C 5D", "6C 6H 7S 8D", "8S 9C 10H JD", "QS KC QH KD"], "KD")  # scientist 1 first
    s = E.apply(play(s, "2S"), E.Pass())  # right: black after red
    s = E.apply(play(s, "6C"), E.Pass())  # wrong: black after black
    agent = E.GreedyAgent(0)
    best, misses = agent.best(E.view(s, 3))
    assert misses == 0
    texts = {r.source.strip() for r in best}
    assert "card.color != prev.color" in texts
    assert "card.color == prev.color" not in texts  # 6C after 2S was wrong
    # with alternating colours left as a candidate, it plays a red card after 2S
    action = agent(E.view(s, 3), E.legal_actions(s))
    assert isinstance(action, E.Play) and all(c.color == "red" for c in action.cards)


def test_it_declares_no_play_when_every_fitting_candidate_rejects_its_hand():
    agent = E.GreedyAgent(0, library=["card.color != prev.color"])
    s = game(["2H 3H 4D 5D", "6C 6H 7S 8D", "8S 9C 10H JD", "QS KC QH KD"], "KD")
    assert agent(E.view(s, 1), E.legal_actions(s)) == E.NoPlay()


def test_it_plays_a_string_once_the_candidates_agree():
    agent = E.GreedyAgent(0, library=["card.color != prev.color"])
    s = game(["2S 3H 4C 5D", "6C 6H 7S 8D", "8S 9C 10H JD", "QS KC QH KD"], "KD")
    action = agent(E.view(s, 1), E.legal_actions(s))
    assert action == E.Play(parse_cards("2S 3H 4C 5D"))  # colours alternate
    assert E.apply(s, action).is_over


def test_as_prophet_it_judges_by_its_candidates():
    agent = E.GreedyAgent(0, library=["card.color != prev.color"])
    s = game(["2S 3H 4S 5H", "6S 7H 8S 9H", "10S JH QS KH", "AS 2H 3S 4H"], "KD")
    s = E.apply(play(s, "2S"), E.BecomeProphet())
    t = play(s, "6S")
    assert agent(E.view(t, 1), E.legal_actions(t)) == E.Judge(False)
    t = play(s, "7H")
    assert agent(E.view(t, 1), E.legal_actions(t)) == E.Judge(True)
    t = E.apply(s, E.NoPlay())
    assert agent(E.view(t, 1), E.legal_actions(t)) == E.Judge(False, card("7H"))


def test_it_beats_random_players():
    agents = [RandomAgent(0), E.GreedyAgent(1), RandomAgent(2), RandomAgent(3), RandomAgent(4)]
    summary = simulate("eleusis", agents, games=12, seed="greedy")
    greedy = summary.average_scores[1]
    randoms = [summary.average_scores[p] for p in (2, 3, 4)]
    assert greedy > max(randoms)

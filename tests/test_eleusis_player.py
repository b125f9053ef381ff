"""The scientist at the New Eleusis table (TableScientist, strong_agent("eleusis")) and
the computer God (choose_rule), on stacked decks and a few quick rounds."""

import random

import pytest
from eleusis_helpers import fresh, game

from cardrules import CHANCE, parse_cards
from cardrules import eleusis as E
from cardrules.agents import make_agent, strong_agent
from cardrules.cards import standard_deck
from cardrules.eleusis.player import TableScientist
from cardrules.simulation import play as play_round
from cardrules.web.table import GameTable

RED = "card is red"


def _red(card):
    return card.suit.name in ("HEARTS", "DIAMONDS")


def _drive(state, turns):
    """Play ``turns`` turns with an oracle that knows the secret rule is "card is red":
    every other turn a wrong (black) card when the hand has one, else a right one; no one
    becomes prophet."""
    for step in range(turns):
        if type(E.legal_actions(state)[0]) in (E.BecomeProphet, E.Pass):
            state = E.apply(state, E.Pass())
        p = state.to_act
        hand = state.hands[p]
        reds = [c for c in hand if _red(c)]
        blacks = [c for c in hand if not _red(c)]
        pick = blacks if (step % 2 == 0 and blacks) or not reds else reds
        state = E.apply(state, E.Play((pick[step % len(pick)],)))
        assert not state.is_over
    if type(E.legal_actions(state)[0]) in (E.BecomeProphet, E.Pass):
        state = E.apply(state, E.Pass())
    return state


# scientist 1 holds only black cards, and so does the top of the stock (its penalties)
HANDS = ["2S 3C 4S 5C 6S 7C 8S 9C", "JH 4D QH 6D 2C 4C 6C 8C", "7H KD 9H TD 3S 5S 7S 9S"]
STOCK = " ".join(["TS JS QS KS TC JC QC KC AS AC"] * 2 + ["6S 6C 7S 7C 8S 8C 9S 9C"])


def _table():
    # starter 2H: the count of two from God's left makes scientist 2 first
    return game(HANDS, "2H", STOCK, secret=RED)


@pytest.fixture(scope="module")
def known():
    """The round after 20 turns: reds on the main line, blacks of every kind refused."""
    return _drive(_table(), 20)


def _agent():
    # a limit that never binds: its decisions are then the same on a busy machine
    return TableScientist(1, time_per_move=600.0)


def test_the_layout_makes_the_rule_sharp(known):
    assert len(known.main) >= 6 and len(known.sides) >= 6
    agent = _agent()
    p = known.to_act
    assert agent.sure(E.view(known, p)) >= 0.9


def _with_red(state):
    """The round from ``state`` on to the turn of a scientist who holds a red card."""
    while not any(_red(c) for c in state.hands[state.to_act]):
        state = E.apply(state, E.Play((state.hands[state.to_act][0],)))
        if type(E.legal_actions(state)[0]) in (E.BecomeProphet, E.Pass):
            state = E.apply(state, E.Pass())
    return state


def test_it_plays_cards_the_sharply_known_rule_accepts(known):
    state = _with_red(known)
    p = state.to_act
    action = _agent()(E.view(state, p), E.legal_actions(state))
    assert type(action) is E.Play
    assert state.rules.secret.accepts_string(state.main, action.cards)


def test_it_declares_no_play_when_no_card_fits(known):
    state = known
    while state.to_act != 1:
        state = E.apply(state, E.Play((state.hands[state.to_act][0],)))
        if type(E.legal_actions(state)[0]) in (E.BecomeProphet, E.Pass):
            state = E.apply(state, E.Pass())
    assert not any(_red(c) for c in state.hands[1])
    assert _agent()(E.view(state, 1), E.legal_actions(state)) == E.NoPlay()


def test_it_becomes_prophet_when_sure_and_not_before(known):
    # at the first turn of the round, nothing is known: it passes the offer
    state = _table()
    p = state.to_act
    agent = _agent()
    state = E.apply(state, agent(E.view(state, p), E.legal_actions(state)))
    legal = E.legal_actions(state)
    assert E.BecomeProphet() in legal
    assert agent(E.view(state, p), legal) == E.Pass()
    # once the rule is sharp, after a play it takes the offer
    state = _with_red(known)
    p = state.to_act
    state = E.apply(state, agent(E.view(state, p), E.legal_actions(state)))
    legal = E.legal_actions(state)
    assert E.BecomeProphet() in legal
    assert agent(E.view(state, p), legal) == E.BecomeProphet()


def test_as_prophet_it_judges_by_the_rule(known):
    state = known
    prophet = state.to_act
    state = E.apply(state, E.Play((state.hands[prophet][0],)))
    state = E.apply(state, E.BecomeProphet())
    assert state.prophet == prophet
    agent = _agent()
    secret = state.rules.secret
    judged = 0
    for _ in range(6):
        p = state.to_act
        hand = state.hands[p]
        for card in sorted(set(hand), key=lambda c: c.index)[:3]:
            pending = E.apply(state, E.Play((card,)))
            assert pending.to_act == prophet
            call = agent(E.view(pending, prophet), E.legal_actions(pending))
            assert call == E.Judge(bool(secret.accepts(state.main, card)))
            judged += 1
        pending = E.apply(state, E.NoPlay())
        call = agent(E.view(pending, prophet), E.legal_actions(pending))
        right = [c for c in hand if secret.accepts(state.main, c)]
        assert call.right == (not right)
        if right:
            assert secret.accepts(state.main, call.card)
        state = E.apply(pending, call)
        while state.to_act is CHANCE:
            state = fresh(state)
        if state.is_over:
            break
        if type(E.legal_actions(state)[0]) in (E.BecomeProphet, E.Pass):
            state = E.apply(state, E.Pass())
    assert judged >= 6


def test_strong_agent_is_the_scientist_at_the_table():
    assert isinstance(strong_agent("eleusis", 3), TableScientist)
    assert isinstance(make_agent("strong", "eleusis", 3), TableScientist)
    assert strong_agent("eleusis", 3, time_per_move=0.2).time_per_move == 0.2


# -- the computer God -------------------------------------------------------------------


def _walk(secret, rng, length=30):
    """Acceptance rates along a random line the rule builds; None if it gets stuck."""
    deck = list(standard_deck())
    line = [rng.choice([c for c in deck if secret.accepts_start(c)])]
    rates = []
    for _ in range(length):
        ok = [c for c in deck if secret.accepts(line, c)]
        if not ok:
            return None
        rates.append(len(ok) / 52)
        line.append(rng.choice(ok))
    return rates


@pytest.mark.parametrize("difficulty", ["easy", "medium", "hard"])
def test_choose_rule_is_a_playable_rule_fixed_by_the_seed(difficulty):
    texts = set()
    for seed in range(8):
        secret = E.choose_rule(players=4, seed=seed, difficulty=difficulty)
        assert isinstance(secret, E.Rule)
        assert E.choose_rule(players=4, seed=seed, difficulty=difficulty).source == secret.source
        assert E.compile_rule(secret.source).source == secret.source
        rates = _walk(secret, random.Random(seed))
        assert rates is not None, f"{secret.source} leaves a line with no right card"
        # neither trivial (every card right) nor impossible (hardly any)
        assert 0.1 < sum(rates) / len(rates) < 0.8, secret.source
        texts.add(secret.source)
    assert len(texts) >= 4  # not a short fixed list


def test_choose_rule_refuses_bad_arguments():
    with pytest.raises(E.CardRulesError, match="3 to 8"):
        E.choose_rule(players=2, seed=1)
    with pytest.raises(E.CardRulesError, match="difficult"):
        E.choose_rule(players=4, seed=1, difficulty="brutal")


def test_a_computer_god_seat_at_the_web_table_chooses_the_rule():
    table, tokens = GameTable.create("t", "eleusis", ["computer", "human", "strong", "strong"], seed="s1")
    assert set(tokens) == {1}
    assert table.rule_text == E.choose_rule(players=4, seed="s1").source
    assert table.state.rules.secret.source == table.rule_text
    # a person's God still writes the rule
    other, _ = GameTable.create("u", "eleusis", ["human", "human", "strong", "strong"], seed="s1")
    assert other.waits_for_rule


def test_three_scientists_end_their_round():
    secret = E.choose_rule(players=4, seed=2)
    agents = [E.GreedyAgent(0)] + [TableScientist(p, time_per_move=0.2) for p in (1, 2, 3)]
    final = play_round("eleusis", agents, seed=2, rules=E.Rules(secret=secret), max_actions=2000)
    assert final.is_over


def test_play_with_a_computer_god_reveals_its_rule(monkeypatch, capsys):
    import io
    import sys

    from cardrules.cli import main

    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    argv = ["play", "eleusis", "--god", "computer", "--auto", "--seed", "5", "--players", "4"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert f"the rule was: {E.choose_rule(players=4, seed='5').source}" in out
    assert main([*argv, "--rule", "card is red"]) != 0
    assert "not both" in capsys.readouterr().err
    assert main(["play", "haggis", "--god", "computer", "--auto"]) != 0
    assert "haggis has no computer god" in capsys.readouterr().err


def test_a_wrong_string_rules_out_the_hypotheses_that_take_it_whole():
    state = _table()  # scientist 2 first: it holds 4D and 2C
    state = E.apply(state, E.Play(tuple(parse_cards("4D 2C"))))
    if type(E.legal_actions(state)[0]) in (E.BecomeProphet, E.Pass):
        state = E.apply(state, E.Pass())
    ((under, cards),) = state.sides
    assert cards == tuple(parse_cards("4D 2C"))
    b, _, _ = _agent().belief(E.view(state, 3))
    assert b.hypotheses
    line = state.main[: under + 1]
    for h in b.hypotheses[:100]:
        assert not h.rule().accepts_string(line, cards), h.text()

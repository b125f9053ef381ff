"""Every shipped example rule plays whole rounds: random and greedy scientists, the
start clause honoured, every card accounted for, replay exact."""

from collections import Counter
from pathlib import Path

import pytest

from cardrules import InvalidCardError, parse_card, play
from cardrules import eleusis as E
from cardrules.agents import RandomAgent
from cardrules.eleusis import compile_rule

RULES = sorted((Path(__file__).resolve().parents[1] / "examples" / "rules").glob("*.rule"))


@pytest.mark.parametrize("path", RULES, ids=lambda p: p.stem)
def test_an_example_rule_plays_whole_rounds(path):
    rule = E.compile_rule(path.read_text(encoding="utf-8"))
    rules = E.Rules(secret=rule)
    for i, players in enumerate((4, 6)):
        agents = [RandomAgent(f"{path.stem}:{p}") for p in range(players)]
        agents[1] = E.GreedyAgent(i)
        final = play("eleusis", agents, seed=f"{path.stem}:{i}", rules=rules)
        assert final.is_over
        assert rule.accepts_start(final.main[0])
        for k in range(1, len(final.main)):  # the main line is right, card by card
            assert rule.accepts(final.main[:k], final.main[k])
        for k, cards in final.sides:  # and no side-line play was right where it lies
            assert not rule.accepts_string(final.main[: k + 1], cards)
        held = Counter(c for h in final.hands for c in h)
        held.update(final.stock)
        held.update(final.main)
        for _, cards in final.sides:
            held.update(cards)
        assert len(set(held.values())) == 1 and len(held) == 52
        assert E.replay(rules, final.history, players=players) == final


@pytest.mark.parametrize(
    ("call", "words"),
    [
        (lambda r: r.accepts([parse_card("AS")], None), "judges a Card, not None"),
        (lambda r: r.accepts(["AS"], "2H"), "judges a Card, not '2H'"),
        (lambda r: r.accepts([1], parse_card("2H")), "1 is not a Card"),
        (lambda r: r.accepts(5, parse_card("2H")), "a main line of cards"),
        (lambda r: r.accepts_start("x"), "judges a Card, not 'x'"),
        (lambda r: r.allowed([], deck=["AS", "2S"]), "a deck holds cards: '(AS|2S)' is not a Card"),
    ],
)
def test_rules_given_what_is_not_cards_say_so(call, words):
    # api.md: bad input never escapes as a bare AttributeError/TypeError
    rule = compile_rule('rule "r":\n    start: card is red\n    play: card.rank > prev.rank or card is red')
    with pytest.raises(InvalidCardError, match=words):
        call(rule)

"""Every shipped example rule plays whole rounds: random and greedy scientists, the
start clause honoured, every card accounted for, replay exact."""

from collections import Counter
from pathlib import Path

import pytest

from cardrules import eleusis as E
from cardrules.agents import RandomAgent
from cardrules.simulate import play

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

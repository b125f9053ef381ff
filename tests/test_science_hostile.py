"""The scientist and induction given careless input: a clear error of the library (or a
TypeError naming what was expected) at once, and a line longer than any round makes is
refused before any work is done on it."""

from __future__ import annotations

import time

import pytest

from cardrules import CardRulesError, parse_card, parse_cards
from cardrules.eleusis import Observation, compile_rule, equivalent, induce, play_science
from cardrules.eleusis.induction import MAX_LINE
from cardrules.eleusis.science import Scientist

RULE = compile_rule("card.color != prev.color")


def test_play_science_with_no_seed_plays_a_round() -> None:
    result = play_science(RULE, Scientist(), seed=None, turns=2)
    assert result.turns <= 2 and result.observations[0].accepted


@pytest.mark.parametrize("scientist", [None, 5, object(), "scientist"])
def test_play_science_needs_a_scientist(scientist: object) -> None:
    with pytest.raises(TypeError, match="needs a scientist with the methods choose"):
        play_science(RULE, scientist)


@pytest.mark.parametrize("bad", [None, 5, 2.0])
def test_equivalent_and_induce_name_what_they_take(bad: object) -> None:
    with pytest.raises(TypeError, match="compiled Rule"):
        equivalent(bad, RULE)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="induce takes Observation records"):
        induce(bad)  # type: ignore[arg-type]


def _long_line(n: int) -> tuple[object, ...]:
    return parse_cards("5H 8S " * (n // 2))


@pytest.mark.parametrize("n", [MAX_LINE + 2, 5000])
def test_a_line_longer_than_any_round_is_refused_at_once(n: int) -> None:
    line = _long_line(n)
    start = parse_card("5H")
    long_obs = [Observation((), start, True), Observation(line, parse_card("2C"), False)]
    t = time.perf_counter()
    for call in (
        lambda: induce(long_obs),
        lambda: Scientist().guess(long_obs),
        lambda: Scientist().choose(parse_cards("2C 3D"), long_obs),
        lambda: Scientist().choose(line, long_obs[:1]),
    ):
        with pytest.raises(CardRulesError, match=f"at most {MAX_LINE}") as info:
            call()
        assert len(str(info.value)) < 300
    assert time.perf_counter() - t < 1.0


def test_a_line_of_the_longest_round_is_still_read() -> None:
    line = _long_line(MAX_LINE)
    obs = [Observation((), line[0], True), Observation(line[:-1], line[-1], True)]
    assert all(r.accepts(o.line, o.card) == o.accepted for r in induce(obs, limit=2) for o in obs[1:])

"""The executor contract of simulate and tournament: an executor whose map raises, an
object without map, or a map that returns junk gives a SimulationError that says what
the executor did wrong, keeping every result that did come back.  Fuzzed with Hypothesis
(bounded: a few seconds under the ``dev`` profile)."""

from __future__ import annotations

from typing import Any

import pytest
import toygame
from hypothesis import given, settings
from hypothesis import strategies as st

from cardrules import RandomAgent, SimulationError, simulate, tournament

GAME = toygame.GAME.name
AGENTS = [RandomAgent(1), RandomAgent(2)]


class Here:
    """An executor in this process; ``spoil(k, results)`` may spoil the k-th result."""

    def __init__(self, spoil: Any = None, stop_after: int | None = None) -> None:
        self.spoil = spoil
        self.stop_after = stop_after

    def map(self, fn: Any, iterable: Any) -> Any:
        for k, task in enumerate(iterable):
            if self.stop_after is not None and k >= self.stop_after:
                return
            out = fn(task)
            yield self.spoil(k, out) if self.spoil is not None else out


class Raises:
    def map(self, fn: Any, iterable: Any) -> Any:
        raise RuntimeError("no workers")


class RaisesLater:
    def map(self, fn: Any, iterable: Any) -> Any:
        for k, task in enumerate(iterable):
            if k == 2:
                raise ConnectionError("worker lost")
            yield fn(task)


def test_an_object_without_map() -> None:
    for executor in (object(), 5, "pool"):
        with pytest.raises(SimulationError, match="has no map") as info:
            simulate(GAME, AGENTS, games=4, seed=1, executor=executor)  # type: ignore[arg-type]
        assert len(info.value.failures) == 4 and info.value.summary is None


def test_a_map_that_raises() -> None:
    with pytest.raises(SimulationError, match="map raised RuntimeError: no workers") as info:
        simulate(GAME, AGENTS, games=5, seed=1, executor=Raises(), batch_size=2)
    assert [f.game for f in info.value.failures] == [0, 1, 2, 3, 4]


def test_a_map_that_fails_midway_keeps_what_came_back() -> None:
    here = simulate(GAME, AGENTS, games=10, seed=1)
    with pytest.raises(SimulationError, match="ConnectionError: worker lost") as info:
        simulate(GAME, AGENTS, games=10, seed=1, executor=RaisesLater(), batch_size=2)
    assert info.value.summary is not None
    assert info.value.summary.results == here.results[:4]
    assert [f.game for f in info.value.failures] == [4, 5, 6, 7, 8, 9]


@pytest.mark.parametrize(
    "junk", [None, 5, "results", [], [None], [1, 2], {"a": 1}], ids=lambda j: type(j).__name__ + str(j)[:6]
)
def test_a_map_that_returns_junk_for_one_task(junk: object) -> None:
    here = simulate(GAME, AGENTS, games=6, seed=2)
    executor = Here(spoil=lambda k, out: junk if k == 1 else out)
    with pytest.raises(SimulationError, match=r"the executor.s map returned .* for games 2 to 3") as info:
        simulate(GAME, AGENTS, games=6, seed=2, executor=executor, batch_size=2)
    assert [f.game for f in info.value.failures] == [2, 3]
    assert info.value.summary is not None
    assert info.value.summary.results == (*here.results[:2], *here.results[4:])


def test_a_map_that_returns_none_at_all_or_too_few() -> None:
    class NoneMap:
        def map(self, fn: Any, iterable: Any) -> Any:
            return None

    with pytest.raises(SimulationError, match="map raised TypeError"):
        simulate(GAME, AGENTS, games=3, seed=1, executor=NoneMap())
    with pytest.raises(SimulationError, match="returned 1 results for 3 tasks") as info:
        simulate(GAME, AGENTS, games=3, seed=1, executor=Here(stop_after=1), batch_size=1)
    assert [f.game for f in info.value.failures] == [1, 2]


def test_a_tournament_says_the_same() -> None:
    with pytest.raises(SimulationError, match="has no map"):
        tournament(GAME, {"a": RandomAgent(1), "b": RandomAgent(2)}, games=2, seed=1, executor=object())  # type: ignore[arg-type]
    with pytest.raises(SimulationError, match="map raised RuntimeError"):
        tournament(GAME, {"a": RandomAgent(1), "b": RandomAgent(2)}, games=2, seed=1, executor=Raises())


_JUNK = st.none() | st.integers() | st.text(max_size=5) | st.lists(st.integers(), max_size=3)


@settings(max_examples=40)
@given(
    games=st.integers(1, 8),
    batch_size=st.integers(1, 4),
    spoilt=st.sets(st.integers(0, 7), max_size=3),
    junk=_JUNK,
    stop_after=st.none() | st.integers(0, 8),
)
def test_fuzz_the_executor_contract(
    games: int, batch_size: int, spoilt: set[int], junk: object, stop_after: int | None
) -> None:
    """Whatever a map gives back, each game is a result (the one played here) or a
    failure naming what went wrong, never both, never an exception of another kind."""
    here = {r.game: r for r in simulate(GAME, AGENTS, games=games, seed=3).results}
    executor = Here(spoil=lambda k, out: junk if k in spoilt else out, stop_after=stop_after)
    try:
        summary = simulate(GAME, AGENTS, games=games, seed=3, executor=executor, batch_size=batch_size)
    except SimulationError as exc:
        results = exc.summary.results if exc.summary is not None else ()
        failed = {f.game for f in exc.failures}
        assert all("executor" in f.error for f in exc.failures)
    else:
        results, failed = summary.results, set()
    assert all(here[r.game] == r for r in results)
    assert sorted([r.game for r in results] + sorted(failed)) == list(range(games))

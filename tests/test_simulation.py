"""simulate on any executor, in batches; failures; factories; tournaments."""

import multiprocessing
import pickle
from concurrent.futures import ProcessPoolExecutor

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cardrules
from cardrules import CardRulesError, Factory, RandomAgent, SimulationError, simulate, tournament
from cardrules.agents import strong_agent
from cardrules.cli import main
from cardrules.simulation import fit_elo, wilson_interval

GAME = "aegis"  # the quickest of the four games
BUDGET = 50  # search iterations: these tests are about seeds and executors, not strength


@pytest.fixture(scope="module")
def pool():
    with ProcessPoolExecutor(max_workers=2) as executor:
        yield executor


def agents():
    return [Factory(strong_agent, GAME, iterations=BUDGET), RandomAgent(2)]


@pytest.fixture(scope="module")
def reference():
    return simulate(GAME, agents(), games=9, seed="same")


def test_a_summary_holds_every_game_and_its_seed(reference):
    assert reference.games == 9 == len(reference.results)
    assert [r.game for r in reference.results] == list(range(9))
    assert [r.seed for r in reference.results] == [f"same:{i}" for i in range(9)]
    assert reference.lengths == tuple(r.length for r in reference.results)
    assert reference.wins == tuple(sum(p in r.winners for r in reference.results) for p in range(2))
    # each game is the one play() gives for its seed, with the seat's agent made or reset from it
    reset = RandomAgent(2)
    reset.reset("same:4:1")
    final = cardrules.play(GAME, [strong_agent(GAME, "same:4:0", iterations=BUDGET), reset], seed="same:4")
    assert reference.results[4].scores == tuple(final.scores)
    assert reference.results[4].winners == tuple(final.winners)
    assert reference.results[4].length == len(final.history)


@pytest.mark.parametrize("batch_size", [1, 7, 1000])
def test_a_process_pool_gives_the_same_summary_for_any_batch_size(pool, reference, batch_size):
    assert simulate(GAME, agents(), games=9, seed="same", executor=pool, batch_size=batch_size) == reference


def test_a_multiprocessing_pool_gives_the_same_summary(reference):
    with multiprocessing.get_context("spawn").Pool(2) as mp_pool:
        assert simulate(GAME, agents(), games=9, seed="same", executor=mp_pool) == reference


def test_progress_reports_games_done(pool):
    seen = []
    simulate(GAME, agents(), games=5, seed="p", executor=pool, batch_size=2, progress=lambda d, t: seen.append((d, t)))
    assert seen == [(2, 5), (4, 5), (5, 5)]
    seen.clear()
    simulate(GAME, agents(), games=3, seed="p", progress=lambda d, t: seen.append((d, t)))
    assert seen == [(1, 3), (2, 3), (3, 3)]


def test_a_dask_cluster_gives_the_same_summary(reference, capsys):
    pytest.importorskip("distributed", reason="the Dask test needs the extra cardrules[dask]")
    from distributed import Client, LocalCluster

    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                      worker_dashboard_address=None) as cluster:  # fmt: skip
        with Client(cluster) as client:
            executor = client.get_executor()
            assert simulate(GAME, agents(), games=9, seed="same", executor=executor, batch_size=4) == reference
            table = tournament(GAME, {"greedy": Factory(strong_agent, GAME, iterations=BUDGET), "random": RandomAgent},
                               games=2, seed="t", executor=executor)  # fmt: skip
        # The command's own client, alone in this process as in a user's (two clients of
        # one process connecting at once can trip a race inside distributed).
        assert main(["simulate", GAME, "--games", "4", "--agents", "greedy,random", "--dask", cluster.scheduler_address]) == 0
        on_dask = capsys.readouterr().out
    assert table == tournament(GAME, {"greedy": Factory(strong_agent, GAME, iterations=BUDGET), "random": RandomAgent}, games=2, seed="t")
    assert main(["simulate", GAME, "--games", "4", "--agents", "greedy,random"]) == 0
    assert capsys.readouterr().out == on_dask


class Flaky(RandomAgent):
    """A random agent that raises in the games whose seat seed is in ``bad``."""

    def __init__(self, seed, bad):
        super().__init__(seed)
        self.bad = bad
        self.failing = False

    def reset(self, seed):
        super().reset(seed)
        self.failing = seed in self.bad

    def __call__(self, view, legal_actions):
        if self.failing:
            raise ValueError("flaky agent")
        return super().__call__(view, legal_actions)


@pytest.mark.parametrize("use_pool", [False, True])
def test_a_failing_game_is_reported_and_loses_no_other_result(pool, use_pool):
    executor = pool if use_pool else None
    good = simulate(GAME, [RandomAgent(1), RandomAgent(2)], games=8, seed="f")
    with pytest.raises(SimulationError) as info:
        simulate(GAME, [RandomAgent(1), Flaky(2, {"f:3:1", "f:6:1"})], games=8, seed="f", executor=executor,
                 batch_size=3)  # fmt: skip
    err = info.value
    assert [(f.game, f.seed) for f in err.failures] == [(3, "f:3"), (6, "f:6")]
    assert all(f.error == "ValueError: flaky agent" and "flaky agent" in f.traceback for f in err.failures)
    assert "game 3" in str(err) and "'f:3'" in str(err) and "2 of 8" in str(err)
    assert err.summary.results == tuple(r for r in good.results if r.game not in (3, 6))
    assert isinstance(err, CardRulesError)
    if not use_pool:  # here the original exception is at hand
        assert isinstance(err.__cause__, ValueError)


def test_an_agent_that_cannot_be_pickled_is_named(pool):
    with pytest.raises(CardRulesError, match=r"agent 1 \(<function.*cannot be pickled"):
        simulate(GAME, [RandomAgent(1), lambda view, actions: actions[0]], games=2, seed=0, executor=pool)
    with pytest.raises(CardRulesError, match="agent greedy"):
        tournament(GAME, {"random": RandomAgent, "greedy": lambda seed: strong_agent(GAME, seed, iterations=BUDGET)},
                   games=1, seed=0, executor=pool)  # fmt: skip


def test_factories_make_a_new_agent_for_every_game():
    made = []

    def factory(seed):
        made.append(seed)
        return RandomAgent(seed)

    s = simulate(GAME, [Factory(factory), RandomAgent], games=3, seed="m")
    assert made == ["m:0:0", "m:1:0", "m:2:0"]
    assert s == simulate(GAME, [RandomAgent, Factory(RandomAgent)], games=3, seed="m")
    assert Factory(factory) == Factory(factory) and pickle.loads(pickle.dumps(Factory(strong_agent, GAME))) == Factory(
        strong_agent, GAME
    )


def test_simulate_refuses_bad_arguments(pool):
    with pytest.raises(CardRulesError, match="played by 2 players, not 3"):
        simulate(GAME, [RandomAgent(1)] * 3, games=1, seed=0)
    with pytest.raises(CardRulesError, match="batch_size"):
        simulate(GAME, [RandomAgent(1)] * 2, games=1, seed=0, executor=pool, batch_size=0)
    with pytest.raises(CardRulesError, match="rules must be"):
        simulate(GAME, [RandomAgent(1)] * 2, games=1, seed=0, rules=cardrules.haggis.Rules())


def test_cardrules_simulate_is_the_function():
    import cardrules.simulation

    assert cardrules.simulate is cardrules.simulation.simulate and cardrules.play is cardrules.simulation.play
    s = cardrules.simulate(GAME, [RandomAgent(1), RandomAgent(2)], games=2, seed=1)
    assert s == cardrules.simulation.simulate(GAME, [RandomAgent(1), RandomAgent(2)], games=2, seed=1)
    assert cardrules.RandomAgent is cardrules.agents.RandomAgent


# -- tournaments ------------------------------------------------------------------------


def test_wilson_interval_bounds_solve_its_equation():
    z = 1.959963984540054
    for wins, n in [(0, 5), (3, 10), (10, 10), (57, 200)]:
        p = wins / n
        low, high = wilson_interval(wins, n)
        assert low <= p <= high
        for bound in (low, high):  # each bound q solves (p - q)^2 = z^2 q (1 - q) / n
            if 0 < bound < 1:
                assert (p - bound) ** 2 == pytest.approx(z * z * bound * (1 - bound) / n)
        assert (wins == 0) == (low == 0) and (wins == n) == (high == 1)


def test_fitted_elo_meets_the_likelihood_equations():
    names = ["a", "b", "c"]
    scores = {("a", "b"): 7, ("b", "a"): 3, ("a", "c"): 9.5, ("c", "a"): 0.5, ("b", "c"): 6, ("c", "b"): 4}
    games = dict.fromkeys(scores, 10)
    elo = fit_elo(names, scores, games)
    assert sum(elo.values()) / 3 == pytest.approx(1500)
    assert elo["a"] > elo["b"] > elo["c"]

    # The shift to a mean of 1500 hides where the virtual reference (strength 1) was: summed
    # over the agents, the equations below say sum g/(g+1) = 3 * 1/2; find the shift so.
    def strengths(shift):
        return {a: 10 ** ((elo[a] - 1500 + shift) / 400) for a in names}

    low, high = -2000.0, 2000.0
    for _ in range(200):
        mid = (low + high) / 2
        low, high = (mid, high) if sum(g / (g + 1) for g in strengths(mid).values()) < 1.5 else (low, mid)
    g = strengths(low)
    for a in names:  # the maximum likelihood: each agent's expected score is its actual score
        expected = g[a] / (g[a] + 1) + sum(games[a, b] * g[a] / (g[a] + g[b]) for b in names if b != a)
        actual = 0.5 + sum(scores[a, b] for b in names if b != a)
        assert expected == pytest.approx(actual, rel=1e-6)


def test_a_tournament_plays_every_seating(pool):
    strong = Factory(strong_agent, "haggis", iterations=5)  # a small budget: the test is about seatings
    entries = {"greedy": strong, "random": RandomAgent, "random2": RandomAgent}
    table = tournament("haggis", entries, games=2, seed="t", players=3)
    assert sorted(table.summaries) == sorted(
        (a, b, c) for a in entries for b in entries for c in entries if len({a, b, c}) == 3
    )
    two = tournament("haggis", entries, games=2, seed="t")  # the default: two players
    assert len(two.summaries) == 6 and two.players == 2
    for t in (table, two):
        for row in t.rows:  # every row is the sum of its seatings, counted independently
            results = [(key.index(row.name), r) for key, s in t.summaries.items() if row.name in key for r in s.results]
            assert row.games == len(results) == 2 * len(t.summaries) * t.players // len(entries)
            assert row.wins == sum(p in r.winners for p, r in results)
            assert row.average_score == pytest.approx(sum(r.scores[p] for p, r in results) / len(results))
            assert (row.win_low, row.win_high) == wilson_interval(row.wins, row.games)
        assert [r.elo for r in t.rows] == sorted((r.elo for r in t.rows), reverse=True)
    # a seating's games are those of simulate with the seating's seed
    assert table.summaries["random", "greedy", "random2"] == simulate(
        "haggis", [RandomAgent, strong, RandomAgent], games=2, seed="t:random/greedy/random2"
    )
    assert tournament("haggis", entries, games=2, seed="t", players=3, executor=pool, batch_size=1) == table
    assert "greedy" in str(table) and table.as_dict()["rows"][0]["name"] == table.rows[0].name


def test_a_tournament_needs_enough_agents():
    n = cardrules.GAMES["eleusis"].default_players
    with pytest.raises(CardRulesError, match=f"needs at least {n} agents, not 2"):
        tournament("eleusis", {"a": RandomAgent, "b": RandomAgent}, games=1, seed=0)
    with pytest.raises(CardRulesError, match="at least 2 agents"):
        tournament("aegis", {"a": RandomAgent}, games=1, seed=0)


class Exiting(RandomAgent):
    """Kills its worker process in one game (as a crash of the worker would)."""

    def reset(self, seed):
        super().reset(seed)
        if seed == "x:3:1":
            import os

            os._exit(1)


def test_a_lost_worker_fails_its_games_and_keeps_the_finished_ones():
    with ProcessPoolExecutor(max_workers=1) as executor, pytest.raises(SimulationError) as info:
        simulate(GAME, [RandomAgent(1), Exiting(2)], games=6, seed="x", executor=executor, batch_size=2)
    err = info.value
    done = [r.game for r in err.summary.results] if err.summary else []
    failed = [f.game for f in err.failures]
    # games 0 and 1 finished before the crash (unless the pool saw the crash before their
    # result): each game is either a result or a failure, and the crashing one failed
    assert sorted(done + failed) == list(range(6)) and set(done) <= {0, 1} and {2, 3, 4, 5} <= set(failed)
    lost = next(f for f in err.failures if f.game == 3)
    assert "BrokenProcessPool" in lost.error and lost.seed == "x:3"


class ShuffledExecutor:
    """An executor in this process that runs the tasks in reverse order and sends every
    task and result through pickle, as a remote one would."""

    def map(self, fn, iterable):
        tasks = [pickle.loads(pickle.dumps(t)) for t in iterable]
        done = {i: pickle.loads(pickle.dumps(fn(t))) for i, t in reversed(list(enumerate(tasks)))}
        return [done[i] for i in range(len(tasks))]


@settings(max_examples=25, deadline=None)
@given(games=st.integers(1, 30), batch_size=st.one_of(st.none(), st.integers(1, 40)), seed=st.integers(0, 10**6))
def test_any_batching_gives_the_summary_played_here(games, batch_size, seed):
    import toygame

    agents = [RandomAgent(1), Factory(RandomAgent)]
    here = simulate(toygame.GAME.name, agents, games=games, seed=seed)
    there = simulate(toygame.GAME.name, agents, games=games, seed=seed, executor=ShuffledExecutor(),
                     batch_size=batch_size)  # fmt: skip
    assert there == here and [r.game for r in there.results] == list(range(games))


def test_a_worker_that_cannot_load_the_agents_reports_every_game():
    from cardrules.simulation import _Batch, _play_batch

    batch = _Batch(GAME, None, b"not a pickle", "w", 3, 5, 1000)
    failures = _play_batch(batch)
    assert [(f.game, f.seed) for f in failures] == [(3, "w:3"), (4, "w:4")]
    assert all(f.error.startswith("the worker cannot load the agents") for f in failures)

"""simulate and tournament on a Ray pool (ray.util.multiprocessing.Pool) give what they give
in this process.  Ray's Pool.map takes one iterable and returns a list, in order: what
simulate asks of an executor."""

import pytest

from cardrules import Factory, RandomAgent, simulate, tournament
from cardrules.agents import strong_agent

ray = pytest.importorskip("ray", reason="the Ray test needs the extra cardrules[ray]")

GAME = "aegis"
BUDGET = 50  # search iterations: these tests are about executors, not strength


def agents():
    return [Factory(strong_agent, GAME, iterations=BUDGET), RandomAgent(2)]


@pytest.fixture(scope="module")
def ray_pool():
    from ray.util.multiprocessing import Pool

    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False)
    try:
        pool = Pool(processes=2)
        try:
            yield pool
        finally:
            pool.terminate()
    finally:
        ray.shutdown()


@pytest.mark.parametrize("batch_size", [1, 4, 1000])
def test_a_ray_pool_gives_the_same_summary(ray_pool, batch_size):
    here = simulate(GAME, agents(), games=9, seed="same")
    assert simulate(GAME, agents(), games=9, seed="same", executor=ray_pool, batch_size=batch_size) == here


def test_a_ray_pool_gives_the_same_tournament(ray_pool):
    entries = {"greedy": Factory(strong_agent, GAME, iterations=BUDGET), "random": RandomAgent}
    assert tournament(GAME, entries, games=2, seed="t", executor=ray_pool) == tournament(GAME, entries, games=2, seed="t")

"""The PettingZoo adapter: PettingZoo's own API and seed tests for every game and player
count, and an action-masked random loop."""

from __future__ import annotations

import pytest

pytest.importorskip("pettingzoo", reason="the pettingzoo extra (pettingzoo) is not installed")
np = pytest.importorskip("numpy", reason="the pettingzoo extra (numpy) is not installed")

from pettingzoo.test import api_test, seed_test  # noqa: E402

from cardrules import GAMES  # noqa: E402
from cardrules.integrations.pettingzoo import env, raw_env  # noqa: E402

CASES = [
    ("aegis", 2),
    ("gunsore", 2),
    ("haggis", 2),
    ("haggis", 3),
    *(("eleusis", n) for n in GAMES["eleusis"].player_counts),
]
IDS = [f"{g}-{n}" for g, n in CASES]


@pytest.mark.parametrize(("name", "players"), CASES, ids=IDS)
def test_api_test(name: str, players: int) -> None:
    api_test(env(name, players=players), num_cycles=1000)


@pytest.mark.parametrize(("name", "players"), CASES, ids=IDS)
def test_seed_test(name: str, players: int) -> None:
    seed_test(lambda: env(name, players=players), num_cycles=1000)


@pytest.mark.parametrize(("name", "players"), [("aegis", 2), ("gunsore", 2), ("haggis", 3), ("eleusis", 4)])
def test_masked_random_loop_plays_the_seeded_game(name: str, players: int) -> None:
    """A loop with action masks ends the game; the deal is the library's seeded deal, and
    the final rewards are the cardrules scores."""
    e = env(name, players=players, render_mode="ansi")
    e.reset(seed=5)
    assert e.unwrapped.cardrules_state == GAMES[name].new_game(players=players, seed=5)
    rng = np.random.default_rng(0)
    totals = dict.fromkeys(e.possible_agents, 0.0)
    for agent in e.agent_iter():
        obs, reward, term, trunc, info = e.last()
        totals[agent] += reward
        if term or trunc:
            e.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        assert set(legal) == set(e.unwrapped.encoding.legal_tokens(e.unwrapped.position))
        assert info["view"] == GAMES[name].view(e.unwrapped.cardrules_state, e.possible_agents.index(agent))
        e.step(int(rng.choice(legal)))
    final = e.unwrapped.cardrules_state
    assert final.is_over
    assert [totals[a] for a in e.possible_agents] == [float(s) for s in final.scores]


def test_render_draws_the_agents_table() -> None:
    e = raw_env("gunsore", render_mode="ansi")
    e.reset(seed=1)
    player = e.possible_agents.index(e.agent_selection)
    assert e.render() == GAMES["gunsore"].render(e.cardrules_state, player)

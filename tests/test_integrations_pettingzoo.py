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


def test_unseeded_resets_follow_the_last_seed_given() -> None:
    """After ``reset(seed=s)``, each unseeded reset deals the game of the next seed of
    ``random.Random(s)``, the last seed given winning, however resets alternate."""
    import random

    e = raw_env("gunsore", players=2)
    e.reset()  # an unseeded reset first: its seed comes from an unseeded Random
    for given in ([7], [7, 8], [3, 3]):
        for seed in given:
            e.reset(seed=seed)
            assert e.cardrules_state == GAMES["gunsore"].new_game(players=2, seed=seed)
        seeds = random.Random(given[-1])
        for _ in range(3):
            e.reset()
            expected = GAMES["gunsore"].new_game(players=2, seed=seeds.randrange(2**63))
            assert e.cardrules_state == expected


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


def test_observations_and_infos_read_like_plain_dicts() -> None:
    """The observation and info dicts compute their values when read; every way of reading
    gives what computing them at once gives, copies and pickles are plain dicts, an info
    kept from an earlier step keeps its view, and what a caller writes into ``infos`` is
    replaced once an action is done."""
    import copy
    import pickle

    from cardrules.integrations.tensors import view_tensor

    e = raw_env("haggis", players=3)
    e.reset(seed=2)
    game = GAMES["haggis"]
    agent = e.agent_selection
    p = e.possible_agents.index(agent)
    tensor = view_tensor(e.encoding, e.position, p)
    mask = np.zeros(e.encoding.num_actions, dtype=np.int8)
    mask[e.encoding.legal_tokens(e.position)] = 1

    obs = e.observe(agent)
    assert list(obs) == ["observation", "action_mask"] and len(obs) == 2 and "observation" in obs
    assert np.array_equal(obs.get("action_mask"), mask)
    for plain in (dict(obs), {**obs}, obs.copy(), copy.deepcopy(e.observe(agent)), pickle.loads(pickle.dumps(obs))):
        assert type(plain) is dict
        assert np.array_equal(plain["observation"], tensor) and np.array_equal(plain["action_mask"], mask)
    assert [k for k, _ in e.observe(agent).items()] == ["observation", "action_mask"]

    view = game.view(e.cardrules_state, p)
    kept = e.infos[agent]
    assert kept == {"view": view} and {"view": view} == kept and kept.get("view") == view
    assert pickle.loads(pickle.dumps(e.infos)) == {a: {"view": game.view(e.cardrules_state, i)} for i, a in enumerate(e.agents)}
    e.infos[agent] = {"written": True}
    state = e.cardrules_state
    for token in e.encoding.tokens(state, game.legal_actions(state)[0]):  # one whole action
        e.step(token)
    assert kept["view"] == view
    assert e.infos[agent] == {"view": game.view(e.cardrules_state, p)} != {"view": view}


@pytest.mark.parametrize(("name", "players"), [("aegis", 2), ("eleusis", 4)])
def test_what_last_hands_out_never_changes(name: str, players: int) -> None:
    """Each ``last()`` hands out an observation and an info that stay as they were when
    later steps are taken (their masks and tensors are arrays of their own, not views of
    a buffer reused); while an action's tokens are entered the state does not change, and each
    agent's info is then the very same dict (its view is that state's), made anew once the
    action is done; what a caller writes into ``infos`` stays until then."""
    e = raw_env(name, players=players)
    e.reset(seed=3)
    rng = np.random.default_rng(1)
    kept: list[tuple[object, np.ndarray, np.ndarray, object, object]] = []
    shared = fresh = 0
    before: tuple[object, object, object] | None = None
    for agent in e.agent_iter():
        obs, _, term, trunc, info = e.last()
        if term or trunc:
            e.step(None)
            continue
        mask = obs["action_mask"]
        state = e.cardrules_state
        assert info["view"] == GAMES[name].view(state, e.possible_agents.index(agent))
        if before is not None and before[0] is state and before[1] == agent:
            assert info is before[2]
            shared += 1
        else:
            fresh += 1
        kept.append((obs, mask.copy(), obs["observation"].copy(), info, info["view"]))
        before = (state, agent, info)
        e.step(int(rng.choice(np.flatnonzero(mask))))
    for obs, mask, tensor, info, view in kept:
        assert np.array_equal(obs["action_mask"], mask) and info["view"] == view
        assert np.array_equal(obs["observation"], tensor)
    assert shared and fresh  # both kinds of step were seen
    # a write into infos, kept while the state does not change, replaced once it does
    e.reset(seed=3)
    seen = set()
    for agent in e.agent_iter():
        if e.terminations[agent]:
            break
        e.infos[agent] = {"written": True}
        state = e.cardrules_state
        e.step(int(np.flatnonzero(e.observe(agent)["action_mask"])[0]))
        same = e.cardrules_state is state
        written = e.infos[agent] == {"written": True}
        assert written == same and (same or e.infos[agent]["view"] == GAMES[name].view(e.cardrules_state, e.possible_agents.index(agent)))
        seen.add(same)
        if seen == {True, False}:
            break
    assert seen == {True, False}


@pytest.mark.parametrize("bad", [3.0, np.float32(3.0), 3.5, float("nan"), "3", None, [3], 10**30, -1])
def test_a_step_with_no_action_id_is_refused_and_changes_nothing(bad: object) -> None:
    """What a server may pass on from a user: anything but an integer id of a legal action
    gets an IllegalActionError naming the range of ids (a float or a string equal to a legal
    id is not truncated into it), and the environment is as it was."""
    from cardrules import IllegalActionError

    e = raw_env("gunsore")
    e.reset(seed=3)
    legal = [int(t) for t in np.flatnonzero(e.last()[0]["action_mask"])]
    before, agent = e.position, e.agent_selection
    # a value equal to a legal id, where the bad value is a number or a string of one
    if isinstance(bad, float | np.floating) and bad == bad and bad == int(bad):
        bad = type(bad)(legal[0])
    elif isinstance(bad, str):
        bad = str(legal[0])
    with pytest.raises(IllegalActionError, match=r"is not an action id of this game \(0 to 53\)"):
        e.step(bad)
    assert e.position is before and e.agent_selection == agent
    e.step(np.int64(legal[0]))  # a NumPy integer is an id
    assert e.position is not before


def test_the_docs_table_is_true_of_the_environments() -> None:
    """docs/integrations/pettingzoo.rst's table: actions, observation shape, reward bound
    and version of each environment with its default rules."""
    from pathlib import Path

    from cardrules.encoding import encoding_for

    page = (Path(__file__).resolve().parent.parent / "docs" / "integrations" / "pettingzoo.rst").read_text()
    table = page[page.index("The environments at a glance") :]
    for name, players, call in [
        ("aegis", 2, 'env("aegis")'),
        ("gunsore", 2, 'env("gunsore")'),
        ("haggis", 2, 'env("haggis")'),
        ("haggis", 3, 'env("haggis", players=3)'),
        ("eleusis", 5, 'env("eleusis")'),
    ]:
        e = env(name, players=players)
        e.reset(seed=0)
        agent = e.agents[0]
        _, high = encoding_for(name, None, players).utility_bounds()
        row = table[table.index(f"``{call}``") :].split("   * -")[0]
        assert f"``Discrete({e.action_space(agent).n})``" in row
        assert f"``{e.observation_space(agent)['observation'].shape}``" in row
        assert f"0 to {high:g}" in row
        assert f"``{e.unwrapped.metadata['name']}``" in row

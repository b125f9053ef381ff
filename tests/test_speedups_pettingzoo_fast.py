"""The PettingZoo environment's hot path in C (``FastMethod``'s kinds ``action_mask``,
``env_step`` and ``env_last``) against their Python reference (``FastMethodPy``) and
against the plain Python methods they stand for."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardrules import _hotloops

pz = pytest.importorskip("cardrules.integrations.pettingzoo")
np = pytest.importorskip("numpy")

speedups = _hotloops.c_speedups
needs_c = pytest.mark.skipif(speedups is None, reason="the C loops are switched off")
_IMPLEMENTATIONS = [pytest.param("C", marks=needs_c), "Python"]


def _make(impl: str) -> Any:
    return speedups.FastMethod if impl == "C" else _hotloops.FastMethodPy


def _plain(name: str) -> Any:
    """The Python method a name of raw_env stands for."""
    attr = pz.raw_env.__dict__[name]
    return getattr(attr, "fallback", attr)


def _env_class(impl: str | None) -> Any:
    """raw_env with its hot path from ``impl`` ("C", "Python": FastMethodPy), or the
    plain Python methods (``None``)."""
    if impl is None:
        compute: Any = pz._observation_value
    else:
        compute = _make(impl)(
            "action_mask", pz._observation_value, subset=pz._SubsetTree, position=pz.Position, unset=pz._UNSET
        )
    keys = dict.fromkeys(("observation", "action_mask"), compute)

    def observe(self: Any, agent: str) -> Any:
        return pz._make_observation(keys, compute, self._obs_source, self.position, self._index[agent])

    def last(self: Any, observe: bool = True) -> Any:
        agent = self.agent_selection
        obs = self.observe(agent) if observe else None
        return (obs, self._cumulative_rewards[agent], self.terminations[agent], self.truncations[agent],
                self.infos[agent])

    methods: dict[str, Any] = {"observe": observe}
    if impl is None:
        methods.update(step=_plain("step"), last=last)
    else:
        make = _make(impl)
        enter = None if pz._POSITION is None else (pz._POSITION, pz.CHANCE)
        methods["step"] = make(
            "env_step", _plain("step"), position=pz.Position, unset=pz._UNSET, infos=pz._Infos, enter=enter
        )
        methods["last"] = make("env_last", last, make=(pz._make_observation, keys, compute))
    return type(f"Env{impl}", (pz.raw_env,), methods)


_CLASSES: dict[Any, Any] = {impl: _env_class(impl) for impl in (["C"] if speedups is not None else []) + ["Python", None]}
_CLASSES["raw_env"] = pz.raw_env  # (the environment itself)


def test_the_environment_uses_the_c_methods_with_the_c_module() -> None:
    for name, kind in (("step", "env_step"), ("last", "env_last")):
        attr = pz.raw_env.__dict__[name]
        if speedups is None:
            assert callable(attr) and not isinstance(attr, _hotloops.FastMethodPy)
        else:
            assert type(attr) is speedups.FastMethod and attr.kind == kind
    compute = pz._OBS_KEYS["action_mask"]
    assert (compute is pz._observation_value) if speedups is None else compute.kind == "action_mask"


def _outcome(call: Any) -> tuple[str, Any]:
    try:
        return "ok", call()
    except Exception as exc:  # the same error, or none, on every track
        return type(exc).__name__, str(exc)


def _seen(env: Any, observe: bool) -> str:
    obs, reward, term, trunc, info = env.last(observe)
    mask = None if obs is None else obs["action_mask"].tolist()
    return repr((env.agent_selection, mask, reward, term, trunc, dict(info), env.cardrules_state,
                 env.position.pending, dict(env.rewards), dict(env._cumulative_rewards)))


CASES = [("aegis", 2), ("gunsore", 2), ("eleusis", 4), ("haggis", 3)]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from(CASES),
    st.integers(0, 2**32),
    st.lists(st.tuples(st.integers(0, 10_000), st.integers(0, 29)), min_size=20, max_size=300),
)
def test_the_three_versions_play_the_same_games(case: tuple[str, int], seed: int, steps: list[tuple[int, int]]) -> None:
    _play_alike(case, seed, steps)


@pytest.mark.parametrize("case", CASES)
def test_the_three_versions_play_whole_games_alike(case: tuple[str, int]) -> None:
    import random

    rng = random.Random(case[1])
    steps = [(rng.randrange(10_000), rng.randrange(30)) for _ in range(6000)]
    assert _play_alike(case, 7, steps) is True


def _play_alike(case: tuple[str, int], seed: int, steps: list[tuple[int, int]]) -> bool:
    """The same choices through the C methods, the reference and the plain methods: the
    same observations, masks, rewards, infos and errors at every step, including
    illegal ids, NumPy integers, last(observe=False) and the closing steps."""
    envs = [cls(case[0], players=case[1]) for cls in _CLASSES.values()]
    for e in envs:
        e.reset(seed=seed)
    for pick, op in steps:
        if not envs[0].agents:
            return True
        seen = {_seen(e, op != 1) for e in envs}
        assert len(seen) == 1, seen
        _, _, term, trunc, _ = envs[0].last()
        if term or trunc:
            for e in envs:
                e.step(None)
            continue
        ids = np.flatnonzero(envs[0].last()[0]["action_mask"]).tolist()
        if op == 2:  # an id that is not legal here: the same error everywhere, nothing changed
            bad = next(i for i in range(200) if i not in ids)
            errors = {repr(_outcome(lambda e=e, bad=bad: e.step(bad))) for e in envs}
            assert len(errors) == 1, errors
            assert "ok" not in errors.pop()
            continue
        token: Any = ids[pick % len(ids)]
        if op == 3:
            token = np.int64(token)
        for e in envs:
            e.step(token)
    assert envs[0].cardrules_state.history  # (played)
    assert len({repr((e.cardrules_state, e.agents, e._cumulative_rewards)) for e in envs}) == 1
    return False


class _Obs:
    """Not a LazyDict: what the mask's fallback gets."""


@pytest.mark.parametrize("impl", _IMPLEMENTATIONS)
def test_fast_method_calls_its_fallback_outside_its_common_case(impl: str) -> None:
    calls: list[tuple[Any, ...]] = []

    def fallback(*args: Any, **kwargs: Any) -> Any:
        calls.append((*args, kwargs) if kwargs else args)
        return "fallback"

    make = _make(impl)
    mask = make("action_mask", fallback, subset=pz._SubsetTree, position=pz.Position, unset=pz._UNSET)
    step = make("env_step", fallback, position=pz.Position, unset=pz._UNSET, infos=pz._Infos)
    last = make("env_last", fallback)  # no maker: never its common case
    assert (mask.kind, step.kind, last.kind) == ("action_mask", "env_step", "env_last")
    obs = _Obs()
    assert mask(obs, "action_mask") == "fallback" and calls[-1] == (obs, "action_mask")
    lazy = _hotloops.LazyDict.make({"observation": 1}, fallback, (1, 2), None, 0)
    assert mask(lazy, "observation") == "fallback"  # another key: the tensor
    assert mask(lazy, "action_mask") == "fallback"  # a source that is no 5-tuple
    env = SimpleNamespace()
    assert step(env, 1.0) == "fallback"  # not an int
    assert step(env, 3) == "fallback"  # no environment's attributes: the fallback's business
    assert last(env) == "fallback" and last(env, True) == "fallback"
    assert last(env, observe=False) == "fallback"  # a keyword
    assert len(calls) == 8


@pytest.mark.parametrize("impl", _IMPLEMENTATIONS)
def test_the_environment_step_falls_back_where_it_must(impl: str) -> None:
    """A closed agent, an id the step does not hold, an agent's dicts replaced: the
    Python step answers (errors included), the same as the plain method."""
    cls = _CLASSES[impl] if impl in _CLASSES else pytest.skip("the C loops are switched off")
    e = cls("gunsore", players=2)
    e.reset(seed=3)
    e.last()[0]["action_mask"]
    with pytest.raises(pz.IllegalActionError):
        e.step(109)
    e.terminations = {**e.terminations}  # a plain dict still: the common case
    ids = np.flatnonzero(e.last()[0]["action_mask"]).tolist()
    before = e.agent_selection
    e.step(ids[0])
    assert e.cardrules_state.history and (e.agent_selection != before or e.cardrules_state.to_act == 0)


@pytest.mark.parametrize("impl", _IMPLEMENTATIONS)
@pytest.mark.parametrize(
    ("args", "kwargs", "error"),
    [
        (("env_stepper", print), {}, ValueError),
        (("env_step", 3), {}, TypeError),
        (("env_last", None), {}, TypeError),
        (("action_mask", print), {"position": 3}, TypeError),
        (("action_mask", print), {"nothing": 3}, TypeError),
        (("env_step", print), {"enter": 3}, TypeError),
        (("env_step", print), {"enter": (1, 2, 3)}, TypeError),
    ],
)
def test_fast_method_refuses_bad_input(impl: str, args: tuple[Any, ...], kwargs: dict[str, Any], error: type) -> None:
    with pytest.raises(error):
        _make(impl)(*args, **kwargs)


# -- subset_root ----------------------------------------------------------------------------


class _Choice:
    """An action choosing ``cards`` (what subset_root reads of an action)."""

    __slots__ = ("cards",)

    def __init__(self, cards: tuple[Any, ...]) -> None:
        self.cards = cards

    def __repr__(self) -> str:
        return f"_Choice({self.cards!r})"


def _subsets(hand: tuple[Any, ...]) -> list[_Choice]:
    from itertools import combinations

    return [_Choice(c) for k in range(len(hand) + 1) for c in combinations(hand, k)]


_SUBSET_ROOTS = {"Python": _hotloops.subset_root_py}
if speedups is not None:
    _SUBSET_ROOTS["C"] = speedups.subset_root


@given(
    st.lists(st.integers(0, 60), max_size=7, unique=True),
    st.sampled_from(["every", "short", "first", "last", "shuffled", "tuple"]),
    st.dictionaries(st.integers(0, 60), st.integers(-5, 200), max_size=70),
    st.integers(0, 300),
)
def test_subset_root_is_the_python_reference(hand: list[int], how: str, ids: dict[int, int], end: int) -> None:
    card_id = {c: ids.get(c, c * 2) for c in hand}
    if how == "shuffled" and hand:
        card_id[hand[0]] = 999  # the ids do not ascend
    hand_t = tuple(sorted(hand, key=card_id.__getitem__))
    actions: Any = _subsets(hand_t)
    if how == "short" and actions:
        actions.pop()
    elif how == "first" and len(actions) > 1:
        actions[0] = actions[1]
    elif how == "last" and len(actions) > 1:
        actions[-1] = actions[-2]
    elif how == "tuple":
        actions = tuple(actions)
    results = {name: _outcome(lambda f=f: f(hand_t, card_id, actions, end)) for name, f in _SUBSET_ROOTS.items()}
    assert len({repr(r) for r in results.values()}) == 1, results
    kind, found = results["Python"]
    if how in ("every", "tuple", "shuffled") and kind == "ok" and found is not None:
        acts, got_ids, root, legal = found
        assert acts == tuple(actions) and got_ids == tuple(card_id[c] for c in hand_t)
        assert legal == [*got_ids, end] and root[end] is actions[0]
        if len(set(legal)) == len(legal):  # (distinct ids, end above them: one key each)
            assert list(root) == legal


@pytest.mark.parametrize("which", sorted(_SUBSET_ROOTS))
@pytest.mark.parametrize(
    ("args", "error"),
    [
        (([1], {}, [], 0), TypeError),  # the hand no tuple
        (((1,), [], [], 0), TypeError),  # card_id no dict
        (((1,), {}, "ab", 0), TypeError),  # actions neither list nor tuple
        (((1,), {}, [_Choice(()), _Choice((1,))], 0), KeyError),  # a card without an id
        (((1,), {1: 0}, [object(), _Choice((1,))], 0), AttributeError),  # an action without cards
        (((1,), {1: 0}, [_Choice(()), _Choice((1,))]), TypeError),  # three arguments
    ],
)
def test_subset_root_refuses_bad_input(which: str, args: tuple[Any, ...], error: type) -> None:
    with pytest.raises(error):
        _SUBSET_ROOTS[which](*args)


@pytest.mark.parametrize("hold", ["mask", "weakref", "view", "read-only", "reshaped"])
def test_a_mask_someone_holds_never_changes(hold: str) -> None:
    """The C action mask takes up again the last array it made once nothing holds it:
    one held (itself, a weak reference, a view of it), made read-only or reshaped by
    its holder before being let go, stays as it was; every mask is that of its
    position, as the plain Python method computes it."""
    import weakref

    env = pz.raw_env("aegis", players=2)
    env.reset(seed=3)
    kept: list[tuple[Any, bytes]] = []
    refs: list[Any] = []
    steps = 0
    while steps < 300:
        if not env.agents:
            env.reset()
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        mask = obs["action_mask"]
        want = pz._observation_value(obs, "action_mask")
        assert mask.tobytes() == want.tobytes()
        if hold == "mask":
            kept.append((mask, mask.tobytes()))
        elif hold == "weakref":
            refs.append((weakref.ref(mask), mask.tobytes()))
        elif hold == "view":
            kept.append((mask[::2], mask[::2].tobytes()))
        elif hold == "read-only":
            mask.setflags(write=False)
        else:
            mask.shape = (1, mask.size)
        legal = np.flatnonzero(want)
        env.step(int(legal[steps % len(legal)]))
        del obs, mask
        steps += 1
    for array, was in kept:
        assert array.tobytes() == was
    for ref, was in refs:
        alive = ref()
        assert alive is None or alive.tobytes() == was


def _play_env(e: Any, seeds: range) -> list[Any]:
    """Whole games of ``e`` from ``reset(seed=...)``, the first legal id at every step;
    their final states."""
    finals = []
    for seed in seeds:
        e.reset(seed=seed)
        for _agent in e.agent_iter():
            obs, _, term, trunc, _ = e.last()
            e.step(None if term or trunc else int(np.flatnonzero(obs["action_mask"])[seed % 3 and -1]))
        finals.append(e.cardrules_state)
    return finals


@pytest.mark.parametrize("impl", _IMPLEMENTATIONS)
def test_the_step_reads_what_is_not_in_the_environments_dict_as_an_attribute(impl: str) -> None:
    """The encoding and the agents read from the environment's ``__dict__`` where they are
    there, else as attributes (here, class attributes): the same games either way."""
    cls = _CLASSES[impl] if impl in _CLASSES else pytest.skip("the C loops are switched off")
    plain = cls("aegis", players=2)
    moved = cls("aegis", players=2)
    holder = type("Moved", (cls,), {"encoding": moved.encoding, "possible_agents": moved.possible_agents})
    moved.__class__ = holder
    del moved.__dict__["encoding"], moved.__dict__["possible_agents"]
    assert _play_env(moved, range(3)) == _play_env(plain, range(3))


@needs_c
def test_many_games_through_the_c_step_leave_nothing_behind() -> None:
    """The C step's positions (made with the record maker) and what it reads from the
    environment are freed: memory stays flat over many games."""
    import gc
    import sys

    e = pz.raw_env("aegis", players=2)
    _play_env(e, range(10))  # (the encoding's caches filled)
    gc.collect()
    before = sys.getallocatedblocks()
    _play_env(e, range(10, 40))  # some 3,000 steps: a leak per step would be thousands of blocks
    gc.collect()
    assert sys.getallocatedblocks() - before < 1000

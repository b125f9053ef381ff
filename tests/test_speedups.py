"""The optional C accelerator (cardrules._speedups) gives exactly what its Python references
give (cardrules._hotloops, the attrs constructors), and refuses bad input instead of
crashing.  The record maker's own tests are in test_records.py."""

from __future__ import annotations

import os
import subprocess
import sys
from itertools import combinations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cardrules import _hotloops, standard_deck
from cardrules.aegis import Exchange

try:
    import cardrules._speedups as speedups
except ImportError:  # installed without a C compiler: nothing to compare
    if os.environ.get("CI"):  # CI compiles it: its absence there is a broken build, not a skip
        raise
    pytest.skip("cardrules._speedups was not compiled", allow_module_level=True)

DECK = standard_deck()
SLOT = Exchange.__dict__["cards"]


def test_ci_uses_the_c_loops() -> None:
    if os.environ.get("CI") and not os.environ.get("CARDRULES_PURE_PYTHON"):
        assert _hotloops.IMPLEMENTATION == "C"


def _interned(items: tuple[object, ...], sizes: int) -> dict[tuple[object, ...], object]:
    return {s: Exchange(s) for k in range(min(sizes, len(items)) + 1) for s in combinations(items, k)}


# Canonical card tuples, as hands are (an Exchange keeps its cards in canonical order).
HANDS = st.lists(st.sampled_from(DECK), unique=True, max_size=9).map(lambda cs: tuple(sorted(cs, key=DECK.index)))


@given(HANDS, st.integers(-1, 3))
def test_subset_objects_c_is_the_python_reference(items: tuple[object, ...], sizes: int) -> None:
    interned = _interned(items, sizes)
    expected = _hotloops.subset_objects_py(items, SLOT, interned, sizes)
    got = speedups.subset_objects(items, SLOT, interned, sizes)
    assert type(got) is tuple and got == expected and len(got) == 2 ** len(items)
    for e, g in zip(expected, got, strict=True):
        assert type(g) is Exchange and g.cards == e.cards and hash(g) == hash(e)
        assert (interned.get(g.cards) is g) == (len(g.cards) <= sizes)
    assert got == tuple(Exchange(s) for k in range(len(items) + 1) for s in combinations(items, k))


@pytest.mark.parametrize(
    ("args", "error"),
    [
        (([1, 2], SLOT, {}, 0), "items must be a tuple"),
        (((1, 2), "cards", {}, 0), "member descriptor"),
        (((1, 2), SLOT, [], 0), "interned must be a dict"),
        ((tuple(range(17)), SLOT, {}, -1), "at most 16"),
        (((1, 2), SLOT, {(): 0}, 1), "KeyError"),
        (((1, 2), SLOT, {}, "x"), "integer"),
        (((1, 2), SLOT, {}), "subset_objects"),
    ],
)
def test_subset_objects_refuses_bad_input(args: tuple[object, ...], error: str) -> None:
    with pytest.raises((TypeError, ValueError, KeyError)) as info:
        speedups.subset_objects(*args)
    assert error in f"{type(info.value).__name__}: {info.value}"


def test_the_pure_python_switch_plays_the_same_games() -> None:
    script = (
        "import cardrules, cardrules._hotloops as h;"
        "from cardrules.agents import RandomAgent;"
        "from cardrules.simulate import play;"
        "print(h.IMPLEMENTATION);"
        "print(cardrules.to_json(play('aegis', [RandomAgent(1), RandomAgent(2)], seed=5)))"
    )
    out = {}
    for pure in ("", "1"):
        env = {**os.environ, "CARDRULES_PURE_PYTHON": pure}
        run = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, check=True)
        out[pure] = run.stdout.splitlines()
    assert out["1"][0] == "Python" and out[""][0] == "C"
    assert out["1"][1] == out[""][1]


@pytest.mark.skipif(_hotloops.c_speedups is None, reason="the C loops are switched off")
def test_haggis_plays_built_in_c_are_the_attrs_built_ones() -> None:
    from cardrules import haggis as hg

    states = [hg.new_game(players=p, seed=f"speedups:{p}:{i}") for p in (2, 3) for i in range(3)]
    combos = {a.combo for s in states for a in hg.legal_actions(s) if type(a) is hg.Play}
    assert len(combos) > 1000
    for c in combos:
        fast = hg._make_play(c.kind, c.rank, c.size, c.width, c.cards)  # built in C here
        slow = hg.Play(hg.Combo(c.kind, c.rank, c.size, c.width, c.cards))  # attrs' constructors
        assert fast == slow and hash(fast) == hash(slow) and repr(fast) == repr(slow)
        assert hash(fast.combo) == hash(slow.combo)


# A deal in progress: how many of each alphabet card are left (up to three copies), and
# each card left as its key ``count * len(counts) + id``, as the integer encoding keeps it.
DEAL_COUNTS = st.lists(st.integers(0, 3), min_size=1, max_size=60)


def _keys(counts: list[int]) -> list[int]:
    return [n * len(counts) + i for i, n in enumerate(counts) if n]


@given(DEAL_COUNTS, st.integers(-3, 64))
def test_deal_draw_c_is_the_python_reference(counts: list[int], token: int) -> None:
    py_counts, py_keys = list(counts), _keys(counts)
    c_counts, c_keys = list(counts), _keys(counts)
    drawn = _hotloops.deal_draw_py(py_counts, py_keys, token)
    assert speedups.deal_draw(c_counts, c_keys, token) is drawn
    assert (c_counts, c_keys) == (py_counts, py_keys)
    assert drawn == (0 <= token < len(counts) and counts[token] > 0)
    if drawn:  # one card fewer, and the keys still those of the counts left
        assert sum(c_counts) == sum(counts) - 1 and c_keys == _keys(c_counts)
    else:
        assert (c_counts, c_keys) == (counts, _keys(counts))


@given(DEAL_COUNTS)
def test_deal_outcomes_c_is_the_python_reference(counts: list[int]) -> None:
    size = len(counts)
    table = tuple((i, c / 7) for c in range(4) for i in range(size))
    keys = _keys(counts)
    got = speedups.deal_outcomes(table, keys)
    assert type(got) is list and got == _hotloops.deal_outcomes_py(table, keys)
    assert got == [(i, n / 7) for i, n in enumerate(counts) if n]


@pytest.mark.parametrize(
    ("call", "error"),
    [
        (lambda: speedups.deal_outcomes((1, 2), [2]), "IndexError"),
        (lambda: speedups.deal_outcomes((1, 2), [-1]), "IndexError"),
        (lambda: speedups.deal_outcomes([1, 2], [0]), "must be a tuple"),
        (lambda: speedups.deal_outcomes((1, 2), ["0"]), "TypeError"),
        (lambda: speedups.deal_draw([1, 1], [2], 1), "not in keys"),
        (lambda: speedups.deal_draw((1, 1), [2, 3], 1), "must be lists"),
        (lambda: speedups.deal_draw([1, 1], [2, 3], "1"), "TypeError"),
        (lambda: speedups.deal_draw([1, 1], [2, 3]), "deal_draw"),
    ],
)
def test_deal_functions_refuse_bad_input(call: object, error: str) -> None:
    with pytest.raises((TypeError, ValueError, IndexError)) as info:
        call()  # type: ignore[operator]
    assert error in f"{type(info.value).__name__}: {info.value}"


# Objects that stand for interned actions, and the (token, value) pair of some of them.
ACTIONS = [object() for _ in range(12)]


@given(
    st.lists(st.integers(0, 11), max_size=15),
    st.dictionaries(st.integers(0, 11), st.tuples(st.integers(0, 5), st.booleans()), max_size=12),
)
def test_first_step_c_is_the_python_reference(picks: list[int], table: dict[int, tuple[int, bool]]) -> None:
    actions = tuple(ACTIONS[i] for i in picks)
    pairs = {id(ACTIONS[i]): (t, ACTIONS[i] if ends else None) for i, (t, ends) in table.items()}
    got = speedups.first_step(actions, pairs)
    assert got == _hotloops.first_step_py(actions, pairs)
    if all(i in table for i in picks):  # the last action of each token wins, as in a dict
        expected = {}
        for i in picks:
            expected[table[i][0]] = ACTIONS[i] if table[i][1] else None
        assert got == expected and list(got) == list(expected)
    else:
        assert got is None
    assert speedups.first_step(list(actions), pairs) == got  # any sequence


@pytest.mark.parametrize(
    ("args", "error"),
    [
        (((), []), "pairs must be a dict"),
        ((5, {}), "must be a sequence"),
        (((ACTIONS[0],), {id(ACTIONS[0]): 3}), "(token, value) tuples"),
        (((ACTIONS[0],), {id(ACTIONS[0]): ([], 1)}), "unhashable"),
        (((),), "first_step"),
    ],
)
def test_first_step_refuses_bad_input(args: tuple[object, ...], error: str) -> None:
    with pytest.raises(TypeError) as info:
        speedups.first_step(*args)
    assert error in str(info.value)


@given(st.lists(st.integers(0, 11), max_size=20), st.lists(st.integers(0, 11), max_size=20), st.randoms())
def test_same_objects_c_is_the_python_reference(a: list[int], b: list[int], rnd: object) -> None:
    """Same objects as many times each, by identity: against the reference and against
    a count by hand; a shuffled copy is always the same, an equal but distinct object
    never is."""
    left, right = tuple(ACTIONS[i] for i in a), tuple(ACTIONS[i] for i in b)
    by_hand = sorted(a) == sorted(b)
    assert speedups.same_objects(left, right) is _hotloops.same_objects_py(left, right) is by_hand
    shuffled = list(left)
    rnd.shuffle(shuffled)  # type: ignore[attr-defined]
    assert speedups.same_objects(left, tuple(shuffled)) is True
    copies = tuple(int(str(10**30 + i)) for i in a)  # equal ints, other objects
    originals = tuple(int(str(10**30 + i)) for i in a)
    assert speedups.same_objects(copies, originals) is (len(a) == 0)


@pytest.mark.parametrize("args", [([], ()), ((), []), ((),), ((), (), ())])
def test_same_objects_refuses_bad_input(args: tuple[object, ...]) -> None:
    with pytest.raises(TypeError, match="two tuples"):
        speedups.same_objects(*args)


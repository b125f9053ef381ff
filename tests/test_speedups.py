"""The optional C accelerator (cardrules._speedups) gives exactly what its Python twins
give (cardrules._hotloops), and refuses bad input instead of crashing."""

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


def test_ci_uses_the_c_loops() -> None:
    if os.environ.get("CI") and not os.environ.get("CARDRULES_PURE_PYTHON"):
        assert _hotloops.IMPLEMENTATION == "C"


# Canonical card tuples, as hands are (an Exchange keeps its cards in canonical order).
HANDS = st.lists(st.sampled_from(DECK), unique=True, max_size=9).map(lambda cs: tuple(sorted(cs, key=DECK.index)))


def _coded_tables(items: tuple[object, ...], sizes: int, base: int) -> tuple[tuple[object, ...], ...]:
    """Tables of interned exchanges by rank (the codes are the cards' deck positions),
    built from the definition of the rank, independently of any implementation."""
    tables = []
    for k in range(sizes + 1):
        table: list[object] = [None] * base**k
        for s in combinations(items, k):
            rank = 0
            for c in s:
                rank = rank * base + DECK.index(c)
            table[rank] = Exchange(s)
        tables.append(tuple(table))
    return tuple(tables)


@given(HANDS.filter(lambda h: len(h) <= 7), st.integers(0, 3))
def test_coded_subsets_c_is_the_python_reference(items: tuple[object, ...], sizes: int) -> None:
    codes = {c: i for i, c in enumerate(DECK)}
    tables = _coded_tables(items, sizes, len(DECK))
    expected = _hotloops.coded_subsets_py(items, codes, len(DECK), tables, Exchange, "cards")
    got = speedups.coded_subsets(items, codes, len(DECK), tables, Exchange, "cards")
    assert type(got) is tuple and got == expected and len(got) == 2 ** len(items)
    assert got == tuple(Exchange(s) for k in range(len(items) + 1) for s in combinations(items, k))
    for e, g in zip(expected, got, strict=True):
        assert type(g) is Exchange and g.cards == e.cards
        assert (g is e) == (len(g.cards) <= sizes)  # the interned ones are the tables' own


@pytest.mark.parametrize("twin", ["C", "Python"])
def test_coded_subsets_refuse_what_they_cannot_find(twin: str) -> None:
    f = speedups.coded_subsets if twin == "C" else _hotloops.coded_subsets_py
    a, b = DECK[0], DECK[1]
    tables = ((Exchange(()),), (Exchange((a,)), None))
    with pytest.raises(KeyError) as info:  # an item without a code
        f((a, b), {a: 0}, 2, tables, Exchange, "cards")
    assert info.value.args == (b,)
    with pytest.raises(KeyError) as info:  # a code out of range
        f((a, b), {a: 0, b: 2}, 2, tables, Exchange, "cards")
    assert info.value.args == (b,)
    with pytest.raises(KeyError) as info:  # None in the table
        f((a, b), {a: 0, b: 1}, 2, tables, Exchange, "cards")
    assert info.value.args == ((b,),)
    with pytest.raises(KeyError) as info:  # a rank past the table's end
        f((a, b), {a: 0, b: 1}, 2, (*tables, ()), Exchange, "cards")
    assert info.value.args == ((b,),)
    assert f((a,), {a: 0}, 2, tables, Exchange, "cards") == (Exchange(()), Exchange((a,)))


class Base:
    __slots__ = ("a",)


class Slotted(Base):
    __slots__ = ("b",)


@pytest.mark.parametrize(
    ("args", "error"),
    [
        (([1], {}, 2, (), Exchange, "cards"), "items must be a tuple"),
        (((1,), [], 2, (), Exchange, "cards"), "codes must be a dict"),
        (((1,), {1: 0}, 0, (), Exchange, "cards"), "base must be"),
        (((1,), {1: 0}, "2", (), Exchange, "cards"), "integer"),
        (((1,), {1: 0}, 2, [()], Exchange, "cards"), "tables must be a tuple"),
        (((1,), {1: 0}, 2, ([],), Exchange, "cards"), "tables must be a tuple"),
        (((1,), {1: 0}, 2, (), "Exchange", "cards"), "cls must be a class"),
        (((1,), {1: 0}, 2, (), Exchange, "hand"), "not a writable object slot of"),
        (((1,), {1: 0}, 2, (), Exchange, b"cards"), "name must be a str"),
        (((1,), {1: 0}, 2, (), Slotted, "a"), "not a writable object slot of"),  # a base class's slot
        (((1,), {1: 0}, 2, (), Exchange, "__weakref__"), "not a writable object slot of"),
        (((1,), {1: "0"}, 2, (), Exchange, "cards"), "integer"),
        ((tuple(range(17)), {}, 2, (), Exchange, "cards"), "at most 16"),
        (((1,), {1: 0}, 2, ()), "coded_subsets"),
    ],
)
def test_coded_subsets_refuses_bad_input(args: tuple[object, ...], error: str) -> None:
    with pytest.raises((TypeError, ValueError, KeyError)) as info:
        speedups.coded_subsets(*args)
    assert error in f"{type(info.value).__name__}: {info.value}"


def test_the_pure_python_switch_plays_the_same_games() -> None:
    script = (
        "import cardrules, cardrules._hotloops as h;"
        "from cardrules.agents import RandomAgent;"
        "from cardrules.simulation import play;"
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


# Objects that stand for interned cards.
OBJECTS = [object() for _ in range(12)]


@given(st.lists(st.integers(0, 11), max_size=20), st.lists(st.integers(0, 11), max_size=20), st.randoms())
def test_same_objects_c_is_the_python_reference(a: list[int], b: list[int], rnd: object) -> None:
    """Same objects as many times each, by identity: against the reference and against
    a count by hand; a shuffled copy is always the same, an equal but distinct object
    never is."""
    left, right = tuple(OBJECTS[i] for i in a), tuple(OBJECTS[i] for i in b)
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


# -- fisher_yates -------------------------------------------------------------------------


@given(st.integers(0, 120), st.binary(max_size=8 * 130))
def test_fisher_yates_c_is_the_python_reference(n: int, stream: bytes) -> None:
    items = [DECK[i % len(DECK)] for i in range(n)]
    expected, got = list(items), list(items)
    try:
        _hotloops.fisher_yates_py(expected, stream)
    except ValueError:  # a stream too short: neither changes the list
        with pytest.raises(ValueError):
            speedups.fisher_yates(got, stream)
        assert got == items
        return
    speedups.fisher_yates(got, stream)
    assert got == expected
    assert sorted(got, key=DECK.index) == sorted(items, key=DECK.index)


@pytest.mark.parametrize(
    ("args", "error"),
    [
        (((1, 2, 3), bytes(16)), TypeError),  # not a list
        (([1, 2, 3], bytearray(16)), TypeError),  # not bytes
        (([1, 2, 3], bytes(15)), ValueError),  # 8 bytes per item but one
        (([1, 2, 3],), TypeError),
    ],
)
def test_fisher_yates_refuses_bad_input(args: tuple[object, ...], error: type[Exception]) -> None:
    with pytest.raises(error):
        speedups.fisher_yates(*args)
    if len(args) == 2:
        with pytest.raises(error):
            _hotloops.fisher_yates_py(*args)  # type: ignore[arg-type]

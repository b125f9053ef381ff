"""The C helpers of the PettingZoo adapter's dicts and masks (``LazyDict.refresh_at``,
``LazyChild``, ``mask_of`` in cardrules._speedups) give exactly what their Python
references give (cardrules._hotloops), and refuse bad input instead of crashing."""

from __future__ import annotations

import os
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cardrules import _hotloops

try:
    import cardrules._speedups as speedups
except ImportError:  # installed without a C compiler: nothing to compare
    if os.environ.get("CI"):  # CI compiles it: its absence there is a broken build, not a skip
        raise
    pytest.skip("cardrules._speedups was not compiled", allow_module_level=True)

np = pytest.importorskip("numpy", reason="the pettingzoo extra (numpy) is not installed")

IMPLEMENTATIONS = {
    "C": (speedups.LazyDict, speedups.LazyChild, speedups.mask_of),
    "Python": (_hotloops.LazyDictPy, _hotloops.LazyChildPy, _hotloops.mask_of_py),
}


# -- LazyDict.refresh_at ------------------------------------------------------------------


def _refresh_run(which: str, keys: list[int], reads: list[int], gone: list[int], at: object) -> tuple[object, ...]:
    """A LazyDict of ``keys`` (all to compute), ``reads`` read through [], ``gone`` taken
    out, then ``refresh_at(at)``: what it holds, then the same reads again."""
    lazy_dict = IMPLEMENTATIONS[which][0]

    def compute(d: Any, key: int) -> object:
        return ("made", key, d._at)

    lazy = lazy_dict.make(dict.fromkeys(keys, compute), compute, None, "before", None)
    first = [lazy[k] for k in reads if k in keys]
    for k in gone:
        dict.pop(lazy, k, None)
    made_before = None if lazy._made is None else list(lazy._made)
    lazy.refresh_at(at)
    raw = [(k, "todo" if v is compute else v) for k, v in dict.items(lazy)]
    made_after = lazy._made
    again = [lazy[k] for k in reads if k in dict.keys(lazy)]
    return first, made_before, raw, made_after, lazy._at, again, lazy._made


@given(
    st.lists(st.integers(0, 9), max_size=6, unique=True),
    st.lists(st.integers(0, 11), max_size=8),
    st.lists(st.integers(0, 9), max_size=3),
    st.sampled_from(["after", "before", None]),
)
def test_refresh_at_is_the_python_reference(keys: list[int], reads: list[int], gone: list[int], at: object) -> None:
    assert _refresh_run("C", keys, reads, gone, at) == _refresh_run("Python", keys, reads, gone, at)


@pytest.mark.parametrize("which", ["C", "Python"])
def test_refresh_at_resets_what_was_read_and_written(which: str) -> None:
    lazy_dict = IMPLEMENTATIONS[which][0]
    calls: list[tuple[str, object]] = []

    def compute(d: Any, key: str) -> object:
        calls.append((key, d._at))
        return [key, d._at]

    lazy = lazy_dict.make({"a": compute, "b": 5}, compute, None, 1, None)
    lazy.refresh_at(2)  # nothing made yet: only _at changes
    assert lazy._at == 2 and lazy._made is None and dict.__getitem__(lazy, "b") == 5
    assert lazy["a"] == ["a", 2] and lazy["a"] == ["a", 2] and calls == [("a", 2)]
    dict.__setitem__(lazy, "b", 6)
    lazy._made.append("b")  # what a write through the adapter's dicts records
    lazy.refresh_at(3)
    assert lazy._made == [] and dict.__getitem__(lazy, "a") is compute and dict.__getitem__(lazy, "b") is compute
    assert lazy["b"] == ["b", 3] and lazy._made == ["b"]
    with pytest.raises(TypeError):
        lazy.refresh_at()  # type: ignore[call-arg]


# -- LazyChild ----------------------------------------------------------------------------


def _child_run(which: str, keys: list[int], players: dict[int, int], reads: list[int]) -> tuple[object, ...]:
    """A LazyDict whose values are made by a LazyChild (each a LazyDict of its own, of a
    subclass, whose one value is computed when read): ``reads`` read through [], each
    child read in turn; then what the parent holds."""
    lazy_dict, lazy_child, _ = IMPLEMENTATIONS[which]

    class Child(lazy_dict):  # type: ignore[misc, valid-type]
        __slots__ = ()

    def view(d: Any, key: str) -> object:
        return ("view", key, d._source, d._at, d._player)

    child = lazy_child(Child, {"view": view, "given": 1}, view)
    parent = lazy_dict.make(dict.fromkeys(keys, child), child, "source", "at", players)
    got: list[object] = []
    for key in reads:
        try:
            made = parent[key]
        except KeyError as e:  # no such key, or no player for it
            got.append(("KeyError", e.args))
            continue
        got.append((type(made) is Child, made._made, made["view"], made["given"], made._made, len(made)))
        got.append(made is parent[key])  # made once, kept
    raw = [(k, "todo" if v is child else "made") for k, v in dict.items(parent)]
    return tuple(got), raw, parent._made


@given(
    st.lists(st.integers(0, 6), max_size=5, unique=True),
    st.dictionaries(st.integers(0, 6), st.integers(0, 4), max_size=5),
    st.lists(st.integers(0, 8), max_size=8),
)
def test_lazy_child_is_the_python_reference(keys: list[int], players: dict[int, int], reads: list[int]) -> None:
    assert _child_run("C", keys, players, reads) == _child_run("Python", keys, players, reads)


@pytest.mark.parametrize("which", ["C", "Python"])
def test_lazy_child_refuses_bad_input(which: str) -> None:
    lazy_dict, lazy_child, _ = IMPLEMENTATIONS[which]

    def compute(d: object, key: object) -> object:
        return key

    with pytest.raises(TypeError, match="cls must be a LazyDict type"):
        lazy_child(dict, {}, compute)
    with pytest.raises(TypeError, match="cls must be a LazyDict type"):
        lazy_child(5, {}, compute)
    with pytest.raises(TypeError, match="template must be a dict"):
        lazy_child(lazy_dict, [("a", 1)], compute)
    with pytest.raises(TypeError):
        lazy_child(lazy_dict, {})  # one argument missing
    child = lazy_child(lazy_dict, {"a": compute}, compute)
    with pytest.raises(TypeError, match="parent must be a LazyDict"):
        child({"x": 1}, "x")
    with pytest.raises(TypeError):
        child(lazy_dict.make({}, None, None, None, {}))  # one argument missing
    with pytest.raises(TypeError):  # a _player that is no mapping
        child(lazy_dict.make({}, None, None, None, 5), "x")
    with pytest.raises(KeyError):
        child(lazy_dict.make({}, None, None, None, {}), "x")
    made = child(lazy_dict.make({}, None, "s", "t", {"x": 3}), "x")
    assert type(made) is lazy_dict and made["a"] == "a" and (made._source, made._at, made._player) == ("s", "t", 3)


# -- mask_of ------------------------------------------------------------------------------


@given(st.integers(0, 40), st.lists(st.integers(-45, 45), max_size=12), st.booleans())
def test_mask_of_is_the_python_reference(size: int, ids: list[int], as_tuple: bool) -> None:
    new = np.zeros(size, np.int8).copy
    given_ids = tuple(ids) if as_tuple else ids
    results = []
    for which in ("C", "Python"):
        mask_of = IMPLEMENTATIONS[which][2]
        try:
            out = mask_of(new, given_ids)
        except IndexError:
            results.append("IndexError")
        else:
            assert type(out) is np.ndarray and out.dtype == np.int8 and out.flags.writeable and out.flags.owndata
            results.append(out.tolist())
    assert results[0] == results[1]
    if results[0] != "IndexError":
        expected = [0] * size
        for t in ids:
            expected[t] = 1
        assert results[0] == expected
    assert not new().any()  # the zeros copied are left as they were


@pytest.mark.parametrize("which", ["C", "Python"])
def test_mask_of_refuses_bad_input(which: str) -> None:
    mask_of = IMPLEMENTATIONS[which][2]
    new = np.zeros(5, np.int8).copy
    for ids in ({1, 2}, iter([1]), "12", None, np.array([1, 2])):
        with pytest.raises(TypeError, match="list or tuple of ints"):
            mask_of(new, ids)
    for ids in ([1.0], ["1"], [None]):
        with pytest.raises(TypeError):
            mask_of(new, ids)
    for ids in ([5], [-6], [10**30]):
        with pytest.raises(IndexError):
            mask_of(new, ids)
    spaced = np.zeros(10, np.int8)[::2]  # not in one piece
    for bad in (np.zeros(5, np.int16).copy, np.zeros((2, 3), np.int8).copy, lambda: b"\0\0\0", lambda: spaced):
        with pytest.raises(TypeError, match="writable buffer of one-byte items"):
            mask_of(bad, [1])
    with pytest.raises(TypeError):
        mask_of(lambda: 5, [1])  # no buffer at all
    readonly = np.zeros(5, np.int8)
    readonly.flags.writeable = False
    with pytest.raises(TypeError, match="writable buffer of one-byte items"):
        mask_of(lambda: readonly, [1])
    with pytest.raises(ZeroDivisionError):
        mask_of(lambda: 1 / 0, [1])
    with pytest.raises(TypeError):
        mask_of(new)  # type: ignore[call-arg]
    assert mask_of(lambda: bytearray(3), [2]) == bytearray(b"\0\0\1")

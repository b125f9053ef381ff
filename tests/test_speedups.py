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
        fast = hg.combos._make_play(c.kind, c.rank, c.size, c.width, c.cards)  # built in C here
        slow = hg.Play(hg.Combo(c.kind, c.rank, c.size, c.width, c.cards))  # attrs' constructors
        assert fast == slow and hash(fast) == hash(slow) and repr(fast) == repr(slow)
        assert hash(fast.combo) == hash(slow.combo)


# A deal in progress: how many of each alphabet card are left (up to three copies).
DEAL_COUNTS = st.lists(st.integers(0, 3), min_size=1, max_size=60)


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



# -- Deal: a deal in progress of the integer encoding ------------------------------------

ALPHABET = tuple(DECK[:60]) + tuple(f"extra{i}" for i in range(max(0, 60 - len(DECK))))


def _deal_state(deal: object) -> tuple[object, ...]:
    d: object = deal
    return (d.cards, d.counts, d.tokens, d.drawn, d.left, d.most, d.start)  # type: ignore[attr-defined]


@given(
    DEAL_COUNTS,
    st.lists(st.integers(0, len(DECK)), max_size=5),
    st.lists(st.tuples(st.sampled_from(["draw", "outcomes", "counts_at"]), st.integers(-2, 62), st.integers(-1, 2))),
)
def test_deal_c_is_the_python_reference(counts: list[int], before: list[int], ops: list[tuple[str, int, int]]) -> None:
    """The same operations on a C Deal and on the reference give the same answers and
    leave the same deal; the outcome list is the counts left over the cards left."""
    alphabet = ALPHABET[: len(counts)]
    cards = [DECK[i % len(DECK)] for i in before]
    c_rows: dict[int, object] = {}
    py_rows: dict[int, object] = {}
    c = speedups.Deal(alphabet, counts, c_rows, cards)
    py = _hotloops.DealPy(alphabet, counts, py_rows, cards)
    assert _deal_state(c) == _deal_state(py)
    for op, token, shift in ops:
        k = py.drawn + shift  # mostly at the end of the deal, sometimes not
        if op == "draw":
            drawn = py.draw(k, token)
            assert c.draw(k, token) is drawn
            if drawn:  # only at the end, a card that was left, not the last one
                assert shift == 0 and 0 <= token < len(counts) and py.left >= 1
        elif op == "outcomes":
            out = py.outcomes(k)
            assert c.outcomes(k) == out
            if out is not None:
                left = c.counts
                assert out == [(i, n / sum(left)) for i, n in enumerate(left) if n]
                assert c.outcomes(k) is c.outcomes(k)  # kept until the next draw
        elif py.start <= k <= py.drawn:
            assert c.counts_at(k) == py.counts_at(k)
        else:
            with pytest.raises(ValueError):
                c.counts_at(k)
            with pytest.raises(ValueError):
                py.counts_at(k)
        assert _deal_state(c) == _deal_state(py)
    assert c_rows == py_rows
    # counts_at goes back along the draw: the counts made at the start
    assert c.counts_at(c.start) == list(counts)


def test_deal_draw_says_no_at_the_last_card_and_for_a_card_not_left() -> None:
    for make in (speedups.Deal, _hotloops.DealPy):
        deal = make(("a", "b"), [1, 1], {})
        assert deal.draw(0, 5) is False and deal.draw(0, -1) is False and deal.draw(0, 1.0) is False
        assert deal.draw(1, 0) is False  # not at the deal's end
        assert deal.draw(0, True) is True and deal.cards == ["b"]  # an int (bool is one)
        assert deal.draw(1, 1) is False and deal.draw(1, 0) is False  # one card left: the caller's
        assert deal.left == 1 and deal.outcomes(1) == [(0, 1.0)] and deal.outcomes(0) is None


@pytest.mark.parametrize("make", [lambda *a: speedups.Deal(*a), lambda *a: _hotloops.DealPy(*a)])
@pytest.mark.parametrize(
    ("args", "error"),
    [
        ((["a"], [1], {}), TypeError),
        ((("a",), [1], []), TypeError),
        ((("a",), [1, 2], {}), ValueError),
        ((("a",), [-1], {}), ValueError),
        ((("a",), [10**30], {}), ValueError),
        ((("a",), ["1"], {}), TypeError),
        ((("a",), 5, {}), TypeError),
        ((("a",), [1], {}, 5), TypeError),
    ],
)
def test_deal_refuses_bad_input(make: object, args: tuple[object, ...], error: type[Exception]) -> None:
    with pytest.raises(error):
        make(*args)  # type: ignore[operator]


def test_deal_methods_refuse_a_k_that_is_no_int() -> None:
    for make in (speedups.Deal, _hotloops.DealPy):
        deal = make(("a",), [2], {})
        with pytest.raises(TypeError):
            deal.draw("0", 0)
        with pytest.raises(TypeError):
            deal.outcomes(0.0)
        with pytest.raises(TypeError):
            deal.counts_at(None)


def test_deal_rebuilds_a_table_that_is_not_one() -> None:
    """A table the rows hold that is no tuple, or too short, is made again (never read
    out of its bounds)."""
    for make in (speedups.Deal, _hotloops.DealPy):
        rows: dict[int, object] = {3: "junk", 2: ((0, 0.5),)}
        deal = make(("a", "b"), [2, 1], rows)
        assert deal.outcomes(0) == [(0, 2 / 3), (1, 1 / 3)]
        assert deal.draw(0, 0) and deal.outcomes(1) == [(0, 0.5), (1, 0.5)]
        assert type(rows[3]) is tuple and len(rows[2]) == 6  # type: ignore[arg-type]


# -- FirstTable and first_legal -----------------------------------------------------------


@given(
    st.lists(st.integers(0, 11), max_size=15),
    st.lists(st.tuples(st.integers(0, 11), st.integers(0, 5), st.booleans()), max_size=14),
)
def test_first_legal_c_is_the_python_reference(picks: list[int], triples: list[tuple[int, int, bool]]) -> None:
    actions = tuple(ACTIONS[i] for i in picks)
    entries = [(ACTIONS[i], t, ACTIONS[i] if ends else None) for i, t, ends in triples]
    c_table, py_table = speedups.FirstTable(entries), _hotloops.FirstTablePy(entries)
    assert len(c_table) == len(py_table) == len({i for i, _, _ in triples})
    for obj in ACTIONS:
        assert c_table.get(obj) == py_table.get(obj)
    got = speedups.first_legal(actions, c_table)
    assert got == _hotloops.first_legal_py(actions, py_table)
    known = {id(ACTIONS[i]): (t, ACTIONS[i] if ends else None) for i, t, ends in triples}  # the last wins
    step = _hotloops.first_step_py(actions, known)
    assert got == (None if step is None else (step, sorted(step)))
    if got is not None:
        assert list(got[0]) == list(step)  # type: ignore[arg-type]
    assert speedups.first_legal(list(actions), c_table) == got  # any sequence


def test_a_first_table_keeps_its_objects_alive() -> None:
    table = speedups.FirstTable([(object(), 1, None)])
    import gc

    gc.collect()
    assert len(table) == 1 and speedups.first_legal([object()], table) is None


@pytest.mark.parametrize(
    "call",
    [
        lambda: speedups.FirstTable(5),
        lambda: speedups.FirstTable([(1, 2)]),
        lambda: speedups.FirstTable([[1, 2, 3]]),
        lambda: speedups.FirstTable([], x=1),
        lambda: speedups.first_legal([], {}),
        lambda: speedups.first_legal(5, speedups.FirstTable([])),
        lambda: speedups.first_legal([]),
        lambda: _hotloops.FirstTablePy(5),
        lambda: _hotloops.FirstTablePy([(1, 2)]),
        lambda: _hotloops.first_legal_py([], {}),  # type: ignore[arg-type]
    ],
)
def test_first_table_and_first_legal_refuse_bad_input(call: object) -> None:
    with pytest.raises(TypeError):
        call()  # type: ignore[operator]


# -- id_mask ------------------------------------------------------------------------------


@given(st.integers(0, 120), st.lists(st.integers(-130, 130), max_size=20))
def test_id_mask_c_is_the_python_reference(size: int, ids: list[int]) -> None:
    try:
        expected: object = _hotloops.id_mask_py(size, ids)
    except IndexError:
        expected = IndexError
    if expected is IndexError:
        with pytest.raises(IndexError):
            speedups.id_mask(size, ids)
    else:
        got = speedups.id_mask(size, ids)
        assert type(got) is bytearray and got == expected


@pytest.mark.parametrize(
    ("args", "error"),
    [((-1, []), ValueError), (("3", []), TypeError), ((3, [1.0]), TypeError), ((3, 5), TypeError), ((3,), TypeError)],
)
def test_id_mask_refuses_bad_input(args: tuple[object, ...], error: type[Exception]) -> None:
    with pytest.raises(error):
        speedups.id_mask(*args)
    if len(args) == 2:
        with pytest.raises(error):
            _hotloops.id_mask_py(*args)  # type: ignore[arg-type]


# -- subset_step --------------------------------------------------------------------------


def _subset_call(fn: object, args: tuple[object, ...]) -> object:
    """What ``fn(*args)`` returns, or the type of the error it raises."""
    try:
        return fn(*args)  # type: ignore[operator]
    except (TypeError, ValueError, IndexError) as error:
        return type(error)


@given(
    st.lists(st.integers(0, 12), max_size=7),
    st.integers(0, 140),
    st.lists(st.integers(-1, 14), min_size=1, max_size=8),
    st.booleans(),
)
def test_subset_step_c_is_the_python_reference(ids: list[int], missing: int, prefix: list[int], rising: bool) -> None:
    # ids may repeat (the last place counts) and the actions may be too few
    actions = tuple(f"subset {i}" for i in range(max(0, (1 << len(ids)) - missing % 3 * missing)))
    if rising and ids:  # a run of the ids in their order: mostly a legal prefix
        prefix = [ids[p] for p in sorted({p % len(ids) for p in prefix})]
    args = (tuple(ids), 99, actions, tuple(prefix))
    expected = _subset_call(_hotloops.subset_step_py, args)
    assert _subset_call(speedups.subset_step, args) == expected


def test_subset_step_gives_each_prefix_its_subset_in_combinations_order() -> None:
    ids = (3, 8, 20, 31, 40)
    subsets = tuple(c for k in range(len(ids) + 1) for c in combinations(ids, k))
    for fn in (speedups.subset_step, _hotloops.subset_step_py):
        for subset in subsets[1:]:
            found = fn(ids, 52, subsets, subset)
            assert found is not None
            level, legal = found
            after = ids[ids.index(subset[-1]) + 1 :]
            assert legal == [*after, 52]
            assert level == {**dict.fromkeys(after), 52: subset}
        assert fn(ids, 52, subsets, (8, 3)) is None  # not in the hand's order
        assert fn(ids, 52, subsets, (8, 8)) is None
        assert fn(ids, 52, subsets, (7,)) is None  # not in the hand
        assert fn(ids, 52, subsets, (8.0,)) is None  # no id


@pytest.mark.parametrize(
    ("args", "error"),
    [
        (((1, 2), 52, (0, 1, 2, 3), ()), ValueError),  # an empty prefix
        ((tuple(range(17)), 52, (), (1,)), ValueError),  # more ids than it takes
        (((1, 2), 52, (0, 1), (2,)), IndexError),  # too few actions
        (((1, "2"), 52, (0, 1, 2, 3), (1,)), TypeError),  # an id that is no int
        (([1, 2], 52, (0, 1, 2, 3), (1,)), TypeError),  # not tuples
        (((1, 2), 52, [0, 1, 2, 3], (1,)), TypeError),
        (((1, 2), 52, (0, 1, 2, 3), [1]), TypeError),
    ],
)
def test_subset_step_refuses_bad_input(args: tuple[object, ...], error: type[Exception]) -> None:
    with pytest.raises(error):
        speedups.subset_step(*args)
    with pytest.raises(error):
        _hotloops.subset_step_py(*args)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        speedups.subset_step((1, 2), 52, (0, 1, 2, 3))  # type: ignore[call-arg]


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


# -- hand_step ----------------------------------------------------------------------------


@given(
    st.lists(st.integers(0, 15), min_size=8, max_size=8),
    st.lists(st.integers(0, 7), max_size=12),
    st.lists(st.integers(-1, 16), max_size=3),
    st.booleans(),
)
def test_hand_step_c_is_the_python_reference(values: list[int], hand: list[int], pending: list[int], held: bool) -> None:
    ids = {DECK[i]: v for i, v in enumerate(values)}  # ids may repeat, as two decks' cards do
    cards = tuple(DECK[i] for i in hand)
    if held and hand:  # pending tokens from the hand, mostly
        pending = [values[hand[p % len(hand)]] for p in pending]
    args = (ids, cards, tuple(pending), 52, "play")
    try:
        expected: object = _hotloops.hand_step_py(*args)
    except ValueError:
        expected = ValueError
    if expected is ValueError:
        with pytest.raises(ValueError):
            speedups.hand_step(*args)
    else:
        got = speedups.hand_step(*args)
        assert got == expected
        step, legal = got
        assert legal == list(step) and legal[:-1] == sorted(set(legal[:-1]))


@pytest.mark.parametrize(
    ("args", "error"),
    [
        (({DECK[0]: 3}, (DECK[1],), (), 52, "p"), KeyError),  # a card without an id
        (({DECK[0]: "3"}, (DECK[0],), (), 52, "p"), TypeError),  # an id that is no int
        (({DECK[0]: 3}, (DECK[0],), ("3",), 52, "p"), TypeError),  # a token that is no int
        (({DECK[0]: 3}, (DECK[0],), (4,), 52, "p"), ValueError),  # a token not in the hand
        (({DECK[0]: 3}, (DECK[0],), (3, 3), 52, "p"), ValueError),  # taken out once only
        (({DECK[0]: 2**70}, (DECK[0],), (), 52, "p"), OverflowError),
        (([(DECK[0], 3)], (DECK[0],), (), 52, "p"), TypeError),  # not a dict
        (({DECK[0]: 3}, [DECK[0]], (), 52, "p"), TypeError),  # not tuples
        (({DECK[0]: 3}, (DECK[0],), [3], 52, "p"), TypeError),
    ],
)
def test_hand_step_refuses_bad_input(args: tuple[object, ...], error: type[Exception]) -> None:
    with pytest.raises(error):
        speedups.hand_step(*args)
    with pytest.raises(error):
        _hotloops.hand_step_py(*args)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        speedups.hand_step({}, (), (), 52)  # type: ignore[call-arg]


# -- LazyDict -----------------------------------------------------------------------------


def _lazy_run(
    cls: type, keys: list[int], computed: list[int], reads: list[int], made: object = None
) -> tuple[object, ...]:
    """Make one of ``cls`` (keys in ``computed`` given a value, the rest to compute; with
    ``made=False`` where ``made`` is, the keys computed not recorded), read ``reads``
    through [] (each read: the value or the error), and what it holds after."""
    calls: list[tuple[object, int]] = []

    def compute(d: object, key: int) -> object:
        calls.append((d is lazy, key))
        if key % 7 == 3:
            raise ArithmeticError(key)
        return ("made", key, lazy._source, lazy._at, lazy._player)

    class Sub(cls):  # type: ignore[misc, valid-type]
        __slots__ = ()

    template = {k: (("given", k) if k in computed else compute) for k in keys}
    lazy = Sub.make(template, compute, "source", "at", 4) if made is None else Sub.make(
        template, compute, "source", "at", 4, made
    )
    got: list[object] = []
    for key in reads:
        try:
            got.append(lazy[key])
        except (KeyError, ArithmeticError) as e:
            got.append((type(e), e.args))
    raw = [(k, "todo" if v is compute else v) for k, v in dict.items(lazy)]
    return tuple(got), raw, lazy._made, calls, type(lazy) is Sub, len(lazy), lazy._compute is compute


@given(
    st.lists(st.integers(0, 20), max_size=8, unique=True),
    st.lists(st.integers(0, 20), max_size=8),
    st.lists(st.integers(0, 22), max_size=12),
    st.sampled_from([None, False]),
)
def test_lazy_dict_c_is_the_python_reference(
    keys: list[int], computed: list[int], reads: list[int], made: object
) -> None:
    got = _lazy_run(speedups.LazyDict, keys, computed, reads, made)
    assert got == _lazy_run(_hotloops.LazyDictPy, keys, computed, reads, made)
    if made is False:  # nothing recorded, whatever was computed
        assert got[2] is False


def test_lazy_dict_computes_a_value_once_and_keeps_what_it_refers_to() -> None:
    import gc
    import weakref

    class Thing:
        pass

    for cls in (speedups.LazyDict, _hotloops.LazyDictPy):
        source = Thing()
        seen = weakref.ref(source)

        def compute(d: object, key: str) -> object:
            return [key]

        lazy = cls.make({"a": compute}, compute, source, None, None)
        del source
        gc.collect()
        assert seen() is not None and lazy._source is seen()
        first = lazy["a"]
        assert lazy["a"] is first and lazy._made == ["a"] and dict.__getitem__(lazy, "a") is first
        lazy._made = None  # what a refresh may do
        assert lazy["a"] is first
        del lazy
        gc.collect()
        assert seen() is None


@pytest.mark.parametrize("cls", ["C", "Python"])
def test_lazy_dict_refuses_bad_input(cls: str) -> None:
    lazy_dict = speedups.LazyDict if cls == "C" else _hotloops.LazyDictPy
    with pytest.raises(TypeError, match=r"made by LazyDict\.make"):
        lazy_dict({"a": 1})
    with pytest.raises(TypeError, match=r"made by LazyDict\.make"):
        lazy_dict()
    with pytest.raises(TypeError, match="template must be a dict"):
        lazy_dict.make([("a", 1)], None, None, None, None)
    with pytest.raises(TypeError):
        lazy_dict.make({}, None, None, None)  # one argument missing
    with pytest.raises(TypeError):
        lazy_dict.make({}, None, None, None, None, False, 1)  # one too many
    with pytest.raises(TypeError, match="made must be None or False"):
        lazy_dict.make({}, None, None, None, None, [])
    with pytest.raises(TypeError, match="made must be None or False"):
        lazy_dict.make({}, None, None, None, None, 0)
    with pytest.raises(TypeError):  # a value to compute whose compute is no callable
        lazy_dict.make({"a": 5}, 5, None, None, None)["a"]
    lazy = lazy_dict.make({"a": None}, None, None, None, None)
    with pytest.raises(TypeError):
        lazy["a"]
    assert dict.__getitem__(lazy, "a") is None and lazy._made is None  # nothing stored
    with pytest.raises(KeyError):
        lazy["b"]

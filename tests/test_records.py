"""The record maker (cardrules._records): one way to make a record, fields by name, the
same record from the C accelerator as from the attrs constructor; and every game's
transitions give the same states with either."""

from __future__ import annotations

import pickle
import random
import traceback
from functools import partial
from typing import Any

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardrules import GAMES, _records, aegis, eleusis, gunsore, haggis
from cardrules._hotloops import c_speedups, subset_objects_py
from cardrules._records import Maker, maker
from cardrules.haggis import combos


@attrs.frozen
class Record:
    a: int
    b: tuple[int, ...]
    c: object = None
    d: list[int] = attrs.field(factory=list, eq=False)
    seed: object = attrs.field(default=None, eq=False)


def _descriptor_maker(cls: type) -> Maker[Any]:
    """The pure-Python maker of a build where changing an object's class is costly
    (free-threaded CPython): it stores through the slots' descriptors, no builder."""
    saved = _records._CLASS_SWITCH
    _records._CLASS_SWITCH = False
    try:
        return maker(cls, accelerate=False)
    finally:
        _records._CLASS_SWITCH = saved


# Every maker: in pure Python (through a builder, or through the slots' descriptors), and
# in C when the accelerator is in use.
MAKERS = [
    pytest.param(maker(Record, accelerate=False), id="python"),
    pytest.param(_descriptor_maker(Record), id="descriptors"),
]
if c_speedups is not None:
    MAKERS.append(pytest.param(maker(Record), id="C"))


def _fields(r: object) -> tuple[object, ...]:
    return tuple(getattr(r, a.name) for a in attrs.fields(type(r)))


def test_which_maker_builds_what() -> None:
    assert maker(Record, accelerate=False).accelerated is False
    assert maker(Record).accelerated is (c_speedups is not None)


@pytest.mark.parametrize("m", MAKERS)
@given(a=st.integers(), b=st.lists(st.integers()).map(tuple), c=st.one_of(st.none(), st.text()), seed=st.integers())
def test_new_and_replace_are_the_constructor_and_evolve(m: Maker[Record], a: int, b: tuple[int, ...], c: object,
                                                         seed: int) -> None:  # fmt: skip
    built = m.new(a=a, b=b, c=c, seed=seed)
    expected = Record(a, b, c, seed=seed)
    assert type(built) is Record and built == expected and hash(built) == hash(expected)
    assert repr(built) == repr(expected) and _fields(built)[:3] == (a, b, c) and built.seed == seed
    with pytest.raises(attrs.exceptions.FrozenInstanceError):  # a builder's record is frozen too
        built.a = 0  # type: ignore[misc]
    assert built.d == [] and built.d is not m.new(a=a, b=b).d  # a factory runs per record
    assert pickle.loads(pickle.dumps(built)) == expected
    changed = m.replace(built, b=(1, 2), c="x")
    assert _fields(changed) == _fields(attrs.evolve(built, b=(1, 2), c="x"))
    assert changed.seed == seed and changed.d is built.d  # eq=False fields are kept too
    assert _fields(built)[:3] == (a, b, c)  # the record itself never changes
    assert m.replace(built, seed="s").seed == "s"
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        built.a = 2  # type: ignore[misc]


@pytest.mark.parametrize("m", MAKERS)
def test_fields_are_named_and_checked(m: Maker[Record]) -> None:
    with pytest.raises(TypeError):
        m.new(a=1)  # b is missing
    with pytest.raises(TypeError):
        m.new(a=1, b=(), zz=3)
    with pytest.raises(TypeError):
        m.replace(Record(1, ()), zz=3)
    with pytest.raises(TypeError):
        m.replace(Record(1, ()), 2)  # no field by position
    with pytest.raises(TypeError):
        m.new(1, ())


@attrs.frozen
class NamesOfTheMaker:
    record: int
    obj: int = 0
    new: tuple[int, ...] = ()


@pytest.mark.parametrize("which", ["python", "descriptors", "C"])
def test_fields_may_have_the_names_the_generated_code_uses(which: str) -> None:
    m = _descriptor_maker(NamesOfTheMaker) if which == "descriptors" else maker(NamesOfTheMaker, accelerate=which == "C")
    r = m.new(record=1, obj=2)
    assert r == NamesOfTheMaker(1, 2, ())
    assert m.replace(r, record=5) == NamesOfTheMaker(5, 2, ())
    assert m.replace(r, obj=7, new=(1,)) == NamesOfTheMaker(1, 7, (1,))


def _converted(value: object) -> tuple[object, ...]:
    return tuple(sorted(value))  # type: ignore[call-overload]


@attrs.frozen
class WithConverter:
    xs: tuple[object, ...] = attrs.field(converter=_converted)


@attrs.frozen
class WithValidator:
    n: int = attrs.field(validator=attrs.validators.instance_of(int))


@attrs.frozen(cache_hash=True)
class WithCachedHash:
    n: int


@attrs.frozen
class WithPostInit:
    n: int

    def __attrs_post_init__(self) -> None:
        if self.n < 0:
            raise ValueError("negative")


@pytest.mark.parametrize("cls", [WithConverter, WithValidator, WithCachedHash, WithPostInit])
def test_a_class_whose_init_does_more_than_store_is_built_by_its_constructor(cls: type) -> None:
    m = maker(cls)
    assert m.accelerated is False


def test_converters_and_validators_run() -> None:
    m = maker(WithConverter)
    assert m.new(xs=[3, 1, 2]).xs == (1, 2, 3)
    assert m.replace(m.new(xs=[2]), xs=[5, 4]).xs == (4, 5)
    with pytest.raises(TypeError):
        maker(WithValidator).replace(WithValidator(1), n="x")
    with pytest.raises(ValueError, match="negative"):
        maker(WithPostInit).replace(WithPostInit(1), n=-1)
    r = maker(WithCachedHash).replace(WithCachedHash(1), n=2)
    assert r == WithCachedHash(2) and hash(r) == hash(WithCachedHash(2))


def test_a_traceback_through_generated_code_shows_its_source() -> None:
    replace = maker(Record, accelerate=False).replace

    class NotARecord:
        a = 1

    try:
        replace(NotARecord(), a=2)
    except AttributeError:
        text = traceback.format_exc()
    else:  # pragma: no cover
        raise AssertionError("no error")
    assert "<cardrules record maker tests.test_records.Record" in text or "record maker" in text
    assert "record.b if b is _KEEP else b" in text  # the generated line, from linecache


@pytest.mark.skipif(c_speedups is None, reason="the C accelerator is not in use")
def test_the_c_record_maker_refuses_what_it_cannot_build() -> None:
    m = maker(Record)
    with pytest.raises(TypeError, match="expected a"):
        m.replace(WithPostInit(1), a=1)
    names = tuple(a.name for a in attrs.fields(Record))
    n = len(names)
    with pytest.raises(TypeError, match=r"not a writable object slot of .*WithPostInit itself"):
        c_speedups.record_layout(WithPostInit, names, (None,) * n, (None,) * n, object())

    @attrs.frozen
    class Child(Record):  # Record's slots are its base's, not its own
        e: int = 0

    with pytest.raises(TypeError, match=r"'a' is not a writable object slot of .*Child itself"):
        c_speedups.record_layout(Child, (*names, "e"), (None,) * (n + 1), (None,) * (n + 1), object())
    with pytest.raises(TypeError, match="must be a str"):
        c_speedups.record_layout(Record, (1,) * n, (None,) * n, (None,) * n, object())
    with pytest.raises(ValueError, match="one default"):
        c_speedups.record_layout(Record, names, (), (), object())
    with pytest.raises(TypeError, match="layout"):
        c_speedups.new_record("not a layout", a=1)
    with pytest.raises(TypeError, match="layout"):
        c_speedups.replace_record("not a layout", Record(1, ()), a=1)


# -- every game: the accelerated transitions and the plain ones give the same states ----


def _plain(monkeypatch: pytest.MonkeyPatch, descriptors: bool) -> None:
    """Every game module's makers in pure Python (through builders, or through the
    slots' descriptors), and the Python loops."""
    make = _descriptor_maker if descriptors else partial(maker, accelerate=False)
    for module in (aegis.rules, gunsore.rules, eleusis.rules, haggis.rules):
        monkeypatch.setattr(module, "STATE", make(module.State))
    monkeypatch.setattr(aegis.rules, "_TRICK", make(aegis.Trick))
    monkeypatch.setattr(aegis.rules, "_SEASON", make(aegis.Season))
    monkeypatch.setattr(aegis.rules, "_exchange_actions", aegis.rules._exchange_actions_py)
    monkeypatch.setattr(combos, "_COMBO", make(combos.Combo))
    monkeypatch.setattr(combos, "_PLAY", make(combos.Play))
    assert subset_objects_py is not None


def _playout(name: str, players: int, seed: int, steps: int) -> list[tuple[object, ...]]:
    g = GAMES[name]
    rng = random.Random(seed)
    state = g.new_game(players=players, seed=seed)
    out = []
    for _ in range(steps):
        if state.is_over:
            break
        legal = g.legal_actions(state)
        if not legal:  # an Eleusis judge or offer always has some; a safeguard
            break
        action = legal[rng.randrange(len(legal))]
        state = g.apply(state, action)
        rebuilt = attrs.evolve(state)  # through the class's own constructor
        assert rebuilt == state and rebuilt.seed == state.seed and type(rebuilt) is type(state)
        out.append((repr(state), state.seed, state.to_act, tuple(map(repr, legal))))
    return out


GAME_CASES = [("aegis", 2), ("gunsore", 2), ("eleusis", 4), ("haggis", 2), ("haggis", 3)]


@pytest.mark.parametrize("descriptors", [False, True], ids=["builders", "descriptors"])
@pytest.mark.parametrize(("name", "players"), GAME_CASES)
@settings(max_examples=4, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_accelerated_and_plain_transitions_give_equal_states(name: str, players: int, descriptors: bool,
                                                             seed: int) -> None:  # fmt: skip
    fast = _playout(name, players, seed, 150)
    with pytest.MonkeyPatch.context() as mp:
        _plain(mp, descriptors)
        plain = _playout(name, players, seed, 150)
    assert fast == plain


def test_aegis_exchanges_are_their_constructors_fixed_points() -> None:
    # legal_actions makes exchanges straight into their slot: each must be exactly what
    # the constructor (and its converter) makes of the same cards.
    rng = random.Random(3)
    seen = 0
    for g in range(6):
        state = aegis.new_game(seed=g)
        while not state.is_over:
            legal = aegis.legal_actions(state)
            for a in legal:
                if type(a) is aegis.Exchange:
                    again = aegis.Exchange(a.cards)
                    assert again == a and again.cards == a.cards and hash(again) == hash(a)
                    seen += 1
            state = aegis.apply(state, legal[rng.randrange(len(legal))])
    assert seen > 100

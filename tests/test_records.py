"""The record maker (cardrules._records): one way to make a record, fields by name, the
same record as the attrs constructor makes, whether through a builder or through the
slots' descriptors; and every game's transitions give the same states either way."""

from __future__ import annotations

import abc
import inspect
import pickle
import random
import traceback
from typing import Any, ClassVar

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardrules import GAMES, _records, aegis, eleusis, gunsore, haggis
from cardrules._records import Maker, maker
from cardrules.haggis import combos


@attrs.frozen
class Record:
    a: int
    b: tuple[int, ...]
    c: object = None
    d: list[int] = attrs.field(factory=list, eq=False)
    seed: object = attrs.field(default=None, eq=False)


class _Descriptors:
    """Makers made as on a build where changing an object's class is costly
    (free-threaded CPython): they store through the slots' descriptors, no builder."""

    def __enter__(self) -> None:
        self.saved = _records._CLASS_SWITCH
        _records._CLASS_SWITCH = False

    def __exit__(self, *exc: object) -> None:
        _records._CLASS_SWITCH = self.saved


def _descriptor_maker(cls: type) -> Maker[Any]:
    with _Descriptors():
        return maker(cls)


# The two ways: through a builder, and through the slots' descriptors.
MAKERS = [pytest.param(maker(Record), id="builder"), pytest.param(_descriptor_maker(Record), id="descriptors")]


def _fields(r: object) -> tuple[object, ...]:
    return tuple(getattr(r, a.name) for a in attrs.fields(type(r)))


def test_which_way_makes_what() -> None:
    # the builder's stores for a class whose __init__ only stores, except where changing
    # a class is costly; the descriptors' otherwise
    assert "_obj.a = " in inspect.getsource(maker(Record).new)
    assert "_set0(_obj, a)" in inspect.getsource(_descriptor_maker(Record).new)
    assert "_cls(" in inspect.getsource(maker(WithPostInit).replace)  # the constructor


@pytest.mark.parametrize("m", MAKERS)
@given(a=st.integers(), b=st.lists(st.integers()).map(tuple), c=st.one_of(st.none(), st.text()), seed=st.integers())
def test_new_and_replace_are_the_constructor_and_evolve(m: Maker[Record], a: int, b: tuple[int, ...], c: object,
                                                         seed: int) -> None:  # fmt: skip
    built = m.new(a=a, b=b, c=c, seed=seed)
    expected = Record(a, b, c, seed=seed)
    assert type(built) is Record and built == expected and hash(built) == hash(expected)
    assert repr(built) == repr(expected) and _fields(built)[:3] == (a, b, c) and built.seed == seed
    assert built.d == [] and built.d is not m.new(a=a, b=b).d  # a factory runs per record
    assert pickle.loads(pickle.dumps(built)) == expected
    changed = m.replace(built, b=(1, 2), c="x")
    assert _fields(changed) == _fields(attrs.evolve(built, b=(1, 2), c="x"))
    assert changed.seed == seed and changed.d is built.d  # eq=False fields are kept too
    assert _fields(built)[:3] == (a, b, c)  # the record itself never changes
    assert m.replace(built, seed="s").seed == "s"
    with pytest.raises(attrs.exceptions.FrozenInstanceError):  # a builder's record too
        built.a = 2  # type: ignore[misc]


@pytest.mark.parametrize("m", MAKERS)
@given(a=st.integers(), b=st.lists(st.integers()).map(tuple), c=st.one_of(st.none(), st.text()), seed=st.integers())
def test_a_replacer_is_replace_for_its_fields(m: Maker[Record], a: int, b: tuple[int, ...], c: object,
                                              seed: int) -> None:  # fmt: skip
    record = m.new(a=0, b=(), seed=seed)
    for names in [("a",), ("c", "b"), ("a", "b", "c", "d", "seed"), ()]:
        changes = {n: v for n, v in {"a": a, "b": b, "c": c, "d": [a], "seed": "s"}.items() if n in names}
        made = m.replacer(*names)(record, **changes)
        expected = attrs.evolve(record, **changes)
        assert type(made) is Record and _fields(made) == _fields(expected)
        assert made.seed == expected.seed and made.d is expected.d  # eq=False fields too
    assert _fields(record) == (0, (), None, [], seed)  # the record itself never changes


@pytest.mark.parametrize("m", MAKERS)
def test_a_replacer_takes_exactly_its_fields_by_name(m: Maker[Record]) -> None:
    record = Record(1, ())
    change_b = m.replacer("b", "c")
    with pytest.raises(TypeError, match="'c'"):
        change_b(record, b=(2,))  # c is missing
    with pytest.raises(TypeError, match="'a'"):
        change_b(record, b=(2,), c=3, a=5)  # a is not among its fields
    with pytest.raises(TypeError):
        change_b(record, (2,), 3)  # no field by position
    with pytest.raises(TypeError, match="replacer of Record: 'zz' is not a field"):
        m.replacer("zz")
    with pytest.raises(TypeError, match="replacer of Record: 'b' is named twice"):
        m.replacer("b", "b")


def test_a_replacer_of_a_class_that_checks_goes_through_its_constructor() -> None:
    assert maker(WithConverter).replacer("xs")(WithConverter([2]), xs=[5, 4]).xs == (4, 5)
    with pytest.raises(ValueError, match="negative"):
        maker(WithPostInit).replacer("n")(WithPostInit(1), n=-1)


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


class Registry:
    """A base that keeps a registry of its subclasses, as plugin systems do."""

    subclasses: list[type] = []  # noqa: RUF012 - the registry itself

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        Registry.subclasses.append(cls)


@attrs.frozen
class Registered(Registry):
    n: int


def test_no_builder_for_a_class_whose_subclasses_run_code() -> None:
    # a builder is a subclass: it would run __init_subclass__ (or a metaclass) and join
    # the registry, so such a class gets the descriptors' stores
    before = list(Registry.subclasses)
    m = maker(Registered)
    assert Registry.subclasses == before
    assert "_set0(_obj, n)" in inspect.getsource(m.new)
    r = m.replacer("n")(m.new(n=1), n=2)
    assert type(r) is Registered and r == Registered(2)
    assert _records._builder(Record) is not None
    assert _records._builder(WithABCMeta) is None  # a metaclass of its own
    assert maker(WithABCMeta).new(n=3) == WithABCMeta(3)


@attrs.frozen
class WithABCMeta(abc.ABC):
    n: int


@attrs.frozen
class Counted:
    """A record whose own ``__new__`` counts what it makes (a cache, a pool...)."""

    n: int
    made: ClassVar[list[int]] = []

    def __new__(cls, *args: Any, **kwargs: Any) -> Counted:
        Counted.made.append(1)
        return super().__new__(cls)


def test_a_class_with_its_own_new_goes_through_its_constructor() -> None:
    # the builder's stores would skip that __new__, and so would the descriptors' stores
    assert _records._plain(Counted) == "it has its own __new__"
    m = maker(Counted)
    before = len(Counted.made)
    r = m.replacer("n")(m.new(n=1), n=2)
    assert r == Counted(2) and type(r) is Counted
    assert len(Counted.made) == before + 3  # new, the replacer, and Counted(2)


@pytest.mark.parametrize("descriptors", [False, True])
def test_fields_may_have_the_names_the_generated_code_uses(descriptors: bool) -> None:
    m = _descriptor_maker(NamesOfTheMaker) if descriptors else maker(NamesOfTheMaker)
    r = m.new(record=1, obj=2)
    assert r == NamesOfTheMaker(1, 2, ())
    assert m.replace(r, record=5) == NamesOfTheMaker(5, 2, ())
    assert m.replace(r, obj=7, new=(1,)) == NamesOfTheMaker(1, 7, (1,))
    assert m.replacer("record", "obj", "new")(r, record=0, obj=0, new=()) == NamesOfTheMaker(0, 0, ())


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
    assert "cls(**fields)" in inspect.getsource(m.new) and "_cls(" in inspect.getsource(m.replace)


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
    replace = maker(Record).replace

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


# -- every game: its transitions give the same states through builders and through the
# slots' descriptors (as on a free-threaded build), and with the pure-Python exchanges


def _generated(value: object) -> bool:
    code = getattr(value, "__code__", None)
    return code is not None and code.co_filename.startswith("<cardrules record maker")


def _with_descriptors(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every game module's makers and replacers made again as on a free-threaded build,
    and the pure-Python listing of Aegis exchanges."""
    with _Descriptors():
        for module in (aegis.rules, gunsore.rules, eleusis.rules, haggis.rules, combos):
            for name, value in list(vars(module).items()):
                if isinstance(value, Maker):
                    monkeypatch.setattr(module, name, maker(value.cls))
                elif _generated(value):  # a replacer: its fields are its keyword-only parameters
                    code = value.__code__  # type: ignore[attr-defined]
                    fields = code.co_varnames[code.co_argcount : code.co_argcount + code.co_kwonlyargcount]
                    assert value.__kwdefaults__ is None  # type: ignore[attr-defined]
                    made = maker(value.__globals__["_cls"]).replacer(*fields)  # type: ignore[attr-defined]
                    assert "_set0(_obj, " in inspect.getsource(made)
                    monkeypatch.setattr(module, name, made)
    monkeypatch.setattr(aegis.rules, "_exchange_actions", aegis.rules._exchange_actions_py)


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


@pytest.mark.parametrize(("name", "players"), GAME_CASES)
@settings(max_examples=4, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_builders_and_descriptors_give_equal_states(name: str, players: int, seed: int) -> None:
    built = _playout(name, players, seed, 150)
    with pytest.MonkeyPatch.context() as mp:
        _with_descriptors(mp)
        stored = _playout(name, players, seed, 150)
    assert built == stored


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


def test_haggis_plays_made_without_their_constructors_are_the_attrs_built_ones() -> None:
    from cardrules import haggis as hg

    states = [hg.new_game(players=p, seed=f"speedups:{p}:{i}") for p in (2, 3) for i in range(3)]
    combos = {a.combo for s in states for a in hg.legal_actions(s) if type(a) is hg.Play}
    assert len(combos) > 1000
    for c in combos:
        fast = hg.combos.make_play(c.kind, c.rank, c.size, c.width, c.cards)  # by the record maker
        slow = hg.Play(hg.Combo(c.kind, c.rank, c.size, c.width, c.cards))  # attrs' constructors
        assert fast == slow and hash(fast) == hash(slow) and repr(fast) == repr(slow)
        assert hash(fast.combo) == hash(slow.combo)

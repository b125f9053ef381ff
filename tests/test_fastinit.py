"""``fast_constructor`` builds exactly what the attrs constructor builds, or refuses."""

from __future__ import annotations

import pickle

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

from cardrules._fastinit import fast_constructor
from cardrules._hotloops import c_speedups


@attrs.frozen(weakref_slot=False)
class Record:
    a: int
    b: tuple[int, ...]
    c: object = None


# Both implementations: the Python twin-class one, and the C one when it was compiled.
MAKERS = [pytest.param(fast_constructor(Record, use_c=False), id="python")]
if c_speedups is not None:
    MAKERS.append(pytest.param(fast_constructor(Record), id="C"))


@pytest.mark.parametrize("make_record", MAKERS)
@given(a=st.integers(), b=st.lists(st.integers()).map(tuple), c=st.one_of(st.none(), st.text()))
def test_same_object_as_the_attrs_constructor(make_record, a: int, b: tuple[int, ...], c: object) -> None:
    built, fast = Record(a, b, c), make_record(a, b, c)
    assert type(fast) is Record
    assert fast == built and hash(fast) == hash(built) and repr(fast) == repr(built)
    assert (fast.a, fast.b, fast.c) == (a, b, c)
    assert pickle.loads(pickle.dumps(fast)) == built


@pytest.mark.parametrize("make_record", MAKERS)
def test_defaults_and_frozenness(make_record) -> None:
    r = make_record(1, ())
    assert r == Record(1, ())
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        r.a = 2  # type: ignore[misc]
    assert attrs.evolve(r, c="x") == Record(1, (), "x")


@pytest.mark.parametrize("make_record", MAKERS)
def test_a_wrong_number_of_values_is_a_type_error(make_record) -> None:
    with pytest.raises(TypeError):
        make_record(1)
    with pytest.raises(TypeError):
        make_record(1, 2, 3, 4)


@pytest.mark.skipif(c_speedups is None, reason="cardrules._speedups was not compiled")
def test_the_c_record_layout_refuses_what_is_not_the_classs_slots() -> None:
    slots = tuple(Record.__dict__[n] for n in ("a", "b", "c"))
    with pytest.raises(TypeError, match="own object slots"):
        c_speedups.record_layout(Record, (*slots[:2], "c"), ())
    with pytest.raises(TypeError, match="own object slots"):
        c_speedups.record_layout(WithPostInit, slots, ())
    with pytest.raises(ValueError, match="more defaults"):
        c_speedups.record_layout(Record, slots[:1], (1, 2))
    with pytest.raises(TypeError, match="layout"):
        c_speedups.new_record("not a layout", 1, 2)


@attrs.frozen
class WithWeakref:
    a: int


@attrs.frozen(weakref_slot=False)
class WithValidator:
    a: int = attrs.field(validator=attrs.validators.instance_of(int))


@attrs.frozen(weakref_slot=False)
class WithPostInit:
    a: int

    def __attrs_post_init__(self) -> None:
        pass


@attrs.frozen(weakref_slot=False, cache_hash=True)
class WithCachedHash:
    a: int


@attrs.frozen(weakref_slot=False)
class WithFactory:
    a: list[int] = attrs.field(factory=list)


class NotAttrs:
    __slots__ = ("a",)


@pytest.mark.parametrize(
    ("cls", "why"),
    [
        (WithWeakref, "__weakref__"),
        (WithValidator, "validators"),
        (WithPostInit, "__attrs_post_init__"),
        (WithCachedHash, "cached hash"),
        (WithFactory, "factories"),
        (NotAttrs, "not a slotted attrs class"),
    ],
)
def test_refuses_classes_whose_init_does_more_than_store(cls: type, why: str) -> None:
    with pytest.raises(TypeError, match=why):
        fast_constructor(cls)

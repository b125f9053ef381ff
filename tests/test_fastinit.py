"""``fast_constructor`` builds exactly what the attrs constructor builds, or refuses."""

from __future__ import annotations

import pickle

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

from cardrules._fastinit import fast_constructor


@attrs.frozen(weakref_slot=False)
class Record:
    a: int
    b: tuple[int, ...]
    c: object = None


make_record = fast_constructor(Record)


@given(st.integers(), st.lists(st.integers()).map(tuple), st.one_of(st.none(), st.text()))
def test_same_object_as_the_attrs_constructor(a: int, b: tuple[int, ...], c: object) -> None:
    built, fast = Record(a, b, c), make_record(a, b, c)
    assert type(fast) is Record
    assert fast == built and hash(fast) == hash(built) and repr(fast) == repr(built)
    assert (fast.a, fast.b, fast.c) == (a, b, c)
    assert pickle.loads(pickle.dumps(fast)) == built


def test_defaults_and_frozenness() -> None:
    r = make_record(1, ())
    assert r == Record(1, ())
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        r.a = 2  # type: ignore[misc]
    assert attrs.evolve(r, c="x") == Record(1, (), "x")


def test_missing_argument_is_a_type_error() -> None:
    with pytest.raises(TypeError):
        make_record(1)


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

"""A faster constructor for the frozen attrs records the game engines make at every step.

attrs' frozen ``__init__`` cannot use plain attribute stores (the class's ``__setattr__``
refuses them), so it sets each field through ``object.__setattr__`` by name: about
55 ns a field, 1 us for an 18-field game state.  :func:`fast_constructor` builds the
same object three times faster: it fills the slots of a plain *twin* class with the same
slot layout (plain ``self.x = x`` stores, which CPython specialises), then turns the
object into the frozen class by assigning ``__class__``, which CPython allows between
classes whose slots are the same.  When the optional C loops were compiled
(``cardrules._speedups``, see ``_hotloops``), ``new_record`` fills a new instance's slots
directly instead, eight times faster than attrs.

The result is indistinguishable from ``cls(*values)``: the same type, fields, equality,
hash and repr (``tests/test_fastinit.py`` checks both makers against attrs, and
``tests/test_aegis_fast_paths.py`` every state of random games).
It applies only where attrs' ``__init__`` would do nothing but store the values: no
validators, converters, factories, ``__attrs_post_init__`` or cached hash, and no
``__weakref__`` slot (CPython only allows the class change when the weak-reference slot
is at the same place in both layouts, which attrs does not do), so the records it builds
are declared ``@attrs.frozen(weakref_slot=False)``.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any, TypeVar

import attrs

from ._hotloops import c_speedups

__all__ = ["fast_constructor"]

T = TypeVar("T")


def fast_constructor(cls: type[T], *, use_c: bool = True) -> Callable[..., T]:
    """A function ``make(*values)`` equal in effect to ``cls(*values)`` (positional
    arguments in field order, defaults as declared), about three times faster; eight
    times with the C record maker of ``cardrules._speedups``, used when it was compiled
    (and ``use_c`` is true).

    Raises :class:`TypeError` when ``cls`` is not a frozen slotted attrs class whose
    ``__init__`` only stores its arguments (see the module's docstring)."""
    if not attrs.has(cls) or "__slots__" not in cls.__dict__:
        raise TypeError(f"fast_constructor: {cls.__name__} is not a slotted attrs class")
    slots = cls.__dict__["__slots__"]
    fields = attrs.fields(cls)
    names = tuple(a.name for a in fields)
    for problem, found in (
        ("a __weakref__ slot (declare it with weakref_slot=False)", "__weakref__" in slots),
        ("an __attrs_post_init__", hasattr(cls, "__attrs_post_init__")),
        ("validators or converters", any(a.validator or a.converter for a in fields)),
        ("default factories", any(isinstance(a.default, attrs.Factory) for a in fields)),  # type: ignore[arg-type]
        ("slots that are not its own fields (a cached hash, inherited fields)", set(slots) != set(names)),
        ("private fields", any(a.alias != a.name for a in fields)),
    ):
        if found:
            raise TypeError(f"fast_constructor: {cls.__name__} has {problem}")

    defaults = tuple(a.default for a in fields if a.default is not attrs.NOTHING)
    if use_c and c_speedups is not None:  # in C: the slots of a new instance filled directly
        layout = c_speedups.record_layout(cls, tuple(cls.__dict__[n] for n in names), defaults)
        return partial(c_speedups.new_record, layout)

    # The twin: a plain class with the very same slots, so that CPython accepts the
    # ``__class__`` change (same size, same slot names at the same offsets).
    twin = type(f"_{cls.__name__}Builder", (), {"__slots__": slots, "__module__": cls.__module__})
    params = ", ".join(
        n if a.default is attrs.NOTHING else f"{n}=_default_{n}" for n, a in zip(names, fields, strict=True)
    )
    body = "".join(f"    self.{n} = {n}\n" for n in names)
    source = (
        f"def make({params}):\n    self = _new(_twin)\n{body}    self.__class__ = _cls\n    return self\n"
    )
    namespace: dict[str, Any] = {"_new": object.__new__, "_twin": twin, "_cls": cls}
    namespace.update({f"_default_{a.name}": a.default for a in fields if a.default is not attrs.NOTHING})
    exec(compile(source, f"<fast constructor of {cls.__qualname__}>", "exec"), namespace)
    make: Callable[..., T] = namespace["make"]
    make.__qualname__ = make.__name__ = f"make_{cls.__name__}"
    make.__doc__ = f"``{cls.__name__}(*values)``, built without attrs' frozen ``__init__``."
    return make

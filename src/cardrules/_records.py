"""How cardrules makes its records: the one way every game builds a new state.

A game state (and every other record a transition makes: an Aegis ``Trick`` or
``Season``, a Haggis ``Combo``) is a frozen attrs class.  A transition builds the next
state with the :class:`Maker` of its class, naming every field it sets::

    STATE = maker(State)
    _STOP = STATE.replacer("phase", "to_act", "history")
    ...
    return _STOP(state, phase="bid", to_act=master, history=history)

* ``maker.new(**fields)`` is ``cls(**fields)``: a new record, every field by name
  (those with a default may be left out);
* ``maker.replace(record, **changes)`` is ``attrs.evolve(record, **changes)``: a new
  record with the named fields changed and every other field (``eq=False`` ones, such as
  a seed, included) taken from ``record``.  ``record`` itself never changes;
* ``maker.replacer(*names)``, made once at import for each kind of transition, is a
  ``replace`` for exactly the fields ``names``, each of them a required keyword: at each
  step it tests no field for a change.

Fields are never given by position, so a transition says which fields it changes and two
swapped values cannot go unnoticed.  Every operation gives what the class's own
constructor gives, so its converters, validators and defaults apply (a class that has
any goes through its constructor); this module relies on no private name of attrs.

**How a record is made.**  The functions are generated for each class (and each
replacer) with ``exec``, one straight line per field, no loop over a dict; their source is
registered with :mod:`linecache`, so a traceback through them shows its lines.  A class
that passes every check of :func:`_plain`, that is a class whose generated ``__init__``
does nothing but store its arguments:

* a slotted attrs class whose own ``__slots__`` are exactly its fields (``__weakref__``
  aside): no inherited field, no cached-hash slot;
* no ``__attrs_init__`` or ``__new__`` of its own and no ``__attrs_post_init__``;
* every field plain: no validator, no converter, ``init=True``, not ``kw_only``, its
  alias its name (no private ``_x`` field), no factory that takes ``self``;

is made without calling its constructor.  Each field is stored into an instance of the
class's *builder*, a subclass with no slot of its own (so the same layout) whose
``__init__`` and ``__setattr__`` are ``object``'s (calling it makes an empty instance
straight from the type's slots): plain attribute stores, which CPython 3.11 and
later make straight into the slot, defaults and factories applied as ``__init__``
applies them.  The instance then becomes one of the class itself by ``__class__``
assignment, which CPython allows between two classes of the same layout.  The result is
the object the constructor makes (its class, its fields, frozen).  Measured with
``timeit`` on the machine of :doc:`/performance/aegis`, a new Aegis ``State`` with three
fields changed takes 0.19 µs through a replacer, 0.44 µs through ``replace`` (which
tests each of the 18 fields for a change), 1.0 µs when each field is stored through its
slot's descriptor and 2.8 µs through ``attrs.evolve``.  A free-threaded build of
CPython may stop every other thread to change an object's class, so there the generated
code stores through each slot's own descriptor instead (the same object again, at the
slower speed).  Any other class goes through its constructor.  ``tests/test_records.py``
checks every way against the constructor and ``attrs.evolve``.

A C version of these stores (the same object, stored at each slot's offset) made a
random playout only 1.1 times faster than these functions, below the 1.5 times a C piece
must earn (:doc:`/performance/speedups`), so there is none.
"""

from __future__ import annotations

import itertools
import linecache
import sysconfig
from collections.abc import Callable
from typing import Any, Final, Generic, TypeVar, cast

import attrs

__all__ = ["Maker", "maker"]

T = TypeVar("T")

_KEEP = object()  # "not named": replace() keeps the record's value
_SOURCES: dict[str, str] = {}  # the generated functions' file names and sources


def _compile(cls: type, what: str, source: str, namespace: dict[str, Any]) -> Any:
    """Run ``source``, generated here from the field names of a record class of the
    program's own (never from text that comes from outside), under a file name that says
    what it makes (``<cardrules record maker module.Class: what>``; a profile lists it
    so), and register it with linecache so that a traceback shows its lines."""
    filename = base = f"<cardrules record maker {cls.__module__}.{cls.__qualname__}: {what}>"
    for n in itertools.count(2):  # another source under that name (a maker made again differently)
        if _SOURCES.setdefault(filename, source) == source:
            break
        filename = f"{base[:-1]} #{n}>"
    exec(compile(source, filename, "exec"), namespace)
    linecache.cache[filename] = (len(source), None, source.splitlines(keepends=True), filename)
    return namespace[source[4 : source.index("(")]]


def _fields(cls: type) -> tuple[attrs.Attribute[Any], ...]:
    return attrs.fields(cast(Any, cls))  # type: ignore[no-any-return]


def _plain(cls: type) -> str | None:
    """Why ``cls`` must be made by its constructor (its ``__init__`` does more than
    store), or ``None`` when it need not be."""
    if not attrs.has(cast(Any, cls)) or "__slots__" not in cls.__dict__:
        return "it is not a slotted attrs class"
    fields = _fields(cls)
    slots = set(cls.__dict__["__slots__"]) - {"__weakref__"}
    if slots != {a.name for a in fields}:
        return "it has slots that are not its own fields (a cached hash, inherited fields)"
    if "__attrs_init__" in cls.__dict__ or hasattr(cls, "__attrs_post_init__"):
        return "it has its own __init__ or an __attrs_post_init__"
    if cast(Any, cls).__new__ is not object.__new__:
        return "it has its own __new__"
    for a in fields:
        if a.validator is not None or a.converter is not None:
            return f"its field {a.name!r} has a validator or a converter"
        if not a.init or a.kw_only or a.alias != a.name:
            return f"its field {a.name!r} is not a plain positional field"
        if isinstance(a.default, attrs.Factory) and a.default.takes_self:  # type: ignore[arg-type, union-attr]
            return f"its field {a.name!r} has a factory that takes self"
    return None


# A free-threaded CPython may stop every other thread to change an object's class: there
# the pure-Python makers store through the slots' descriptors instead (see _builder).
_CLASS_SWITCH: Final = not sysconfig.get_config_var("Py_GIL_DISABLED")


def _builder(cls: type) -> type | None:
    """The builder of a class whose ``__init__`` only stores (see :func:`_plain`): a
    subclass with no slot of its own, so the same layout, whose ``__setattr__`` is
    ``object.__setattr__``.  Its instances take plain attribute stores, which the
    interpreter makes straight into the slots (CPython 3.11 and later specialise them),
    and then become instances of ``cls`` by ``__class__`` assignment, which CPython
    allows between classes of the same layout.  ``None`` where that assignment is costly
    (a free-threaded build), and for a class whose subclasses are not plain: one with a
    metaclass of its own or an ``__init_subclass__`` in its bases (making the builder
    would run them, and they may keep a registry of subclasses)."""
    if not _CLASS_SWITCH or type(cls) is not type:
        return None
    if any("__init_subclass__" in vars(k) for k in cls.__mro__[:-1]):
        return None
    namespace = {
        "__slots__": (),
        "__setattr__": object.__setattr__,
        "__delattr__": object.__delattr__,  # both, or a frozen __delattr__ keeps the slow path
        # calling the builder is then object_new and object_init straight from the type's
        # slots: cheaper than object.__new__(builder), a call through a wrapper
        "__init__": object.__init__,
        "__module__": cls.__module__,
        "__qualname__": f"{cls.__qualname__}._Builder",
    }
    return type("_Builder", (cls,), namespace)


def _python_replace(cls: type[T], changing: tuple[str, ...] | None = None) -> Callable[..., T]:
    """``replace(record, **changes)``, generated so that it reads each field once:
    through the class's constructor, or for a class whose ``__init__`` only stores (see
    :func:`_plain`) through the same stores; registered with linecache.  With
    ``changing``, the replace of :meth:`Maker.replacer`: exactly those fields change,
    each a required keyword, and no field is tested for a change."""
    fields = [a for a in _fields(cls) if a.init]
    if changing is None:
        params = ", *, " + ", ".join(f"{a.alias}=_KEEP" for a in fields)

        def value(a: attrs.Attribute[Any]) -> str:
            return f"_record.{a.name} if {a.alias} is _KEEP else {a.alias}"

    else:
        aliases = [a.alias for a in fields]
        for name in changing:
            if name not in aliases or changing.count(name) > 1:
                what = "is not a field" if name not in aliases else "is named twice"
                raise TypeError(f"replacer of {cls.__name__}: {name!r} {what}")
        params = ", *, " + ", ".join(changing) if changing else ""

        def value(a: attrs.Attribute[Any]) -> str:
            return str(a.alias) if a.alias in changing else f"_record.{a.name}"

    positional = all(not a.kw_only for a in fields)
    args = ",\n        ".join(("" if positional else f"{a.alias}=") + value(a) for a in fields)
    namespace: dict[str, Any] = {"_cls": cls, "_KEEP": _KEEP}
    plain = _plain(cls) is None
    builder = _builder(cls) if plain else None
    if builder is not None:
        # a class whose __init__ only stores: the same stores, as plain attribute stores
        # into an instance of its builder, which then becomes an instance of the class
        stores = "".join(f"    _obj.{a.name} = {value(a)}\n" for a in fields)
        source = (
            f"def replace(_record, /{params}):\n    _obj = _builder()\n{stores}"
            "    _obj.__class__ = _cls\n    return _obj\n"
        )
        namespace["_builder"] = builder
    elif plain:
        # the same stores through each slot's own descriptor (what __init__ does through
        # object.__setattr__), in one straight line
        stores = "".join(f"    _set{i}(_obj, {value(a)})\n" for i, a in enumerate(fields))
        source = f"def replace(_record, /{params}):\n    _obj = _new(_cls)\n{stores}    return _obj\n"
        namespace["_new"] = object.__new__
        for i, a in enumerate(fields):
            namespace[f"_set{i}"] = cls.__dict__[a.name].__set__
    else:
        source = f"def replace(_record, /{params}):\n    return _cls(\n        {args},\n    )\n"
    what = "replace" if changing is None else f"replace {' '.join(changing)}".rstrip()
    replace: Callable[..., T] = _compile(cls, what, source, namespace)
    replace.__qualname__ = f"replace_{cls.__name__}"
    replace.__doc__ = f"``attrs.evolve(record, **changes)`` for a {cls.__name__}."
    return replace


def _python_new(cls: type[T]) -> Callable[..., T]:
    """``new(**fields)``, generated: for a class whose ``__init__`` only stores (see
    :func:`_plain`), the same stores as :func:`_python_replace`'s, defaults and factories
    applied as ``__init__`` applies them; any other class through its constructor.
    Registered with linecache, as :func:`_python_replace`."""
    if _plain(cls) is not None:

        def new(**fields: Any) -> T:
            return cls(**fields)

        new.__qualname__ = f"new_{cls.__name__}"
        new.__doc__ = f"``{cls.__name__}(**fields)``: every field by name."
        return new
    fields = _fields(cls)
    builder = _builder(cls)
    namespace: dict[str, Any] = {"_cls": cls, "_new": object.__new__, "_MISSING": _KEEP, "_builder": builder}
    params = []
    # (no field has a private name, so none can be called _obj, _cls or _builder)
    body = ["    _obj = _new(_cls)\n" if builder is None else "    _obj = _builder()\n"]
    for i, a in enumerate(fields):
        namespace[f"_set{i}"] = cls.__dict__[a.name].__set__
        default = a.default
        if default is attrs.NOTHING:
            params.append(a.name)
        elif isinstance(default, attrs.Factory):  # type: ignore[arg-type]
            namespace[f"_factory{i}"] = default.factory  # type: ignore[union-attr]
            params.append(f"{a.name}=_MISSING")
            body.append(f"    if {a.name} is _MISSING:\n        {a.name} = _factory{i}()\n")
        else:
            namespace[f"_default{i}"] = default
            params.append(f"{a.name}=_default{i}")
        store = f"_set{i}(_obj, {a.name})" if builder is None else f"_obj.{a.name} = {a.name}"
        body.append(f"    {store}\n")
    if builder is not None:
        body.append("    _obj.__class__ = _cls\n")
    source = f"def new(*, {', '.join(params)}):\n{''.join(body)}    return _obj\n"
    made: Callable[..., T] = _compile(cls, "new", source, namespace)
    made.__qualname__ = f"new_{cls.__name__}"
    made.__doc__ = f"``{cls.__name__}(**fields)``: every field by name."
    return made


@attrs.frozen
class Maker(Generic[T]):
    """The record maker of one frozen attrs class (see the module's docstring)."""

    #: The class it makes.
    cls: type[T]
    #: ``new(**fields)``: ``cls(**fields)``.
    new: Callable[..., T] = attrs.field(repr=False)
    #: ``replace(record, **changes)``: ``attrs.evolve(record, **changes)``.
    replace: Callable[..., T] = attrs.field(repr=False)

    def replacer(self, *names: str) -> Callable[..., T]:
        """:attr:`replace` for the records that change exactly the fields ``names``:
        ``f(record, /, *, name=value, ...)``, each of ``names`` a required keyword (a
        missing or another field is a ``TypeError``, as for any function).  A game makes
        one at import for each kind of transition, so that at each step no field is
        tested for a change: such a replace costs about half of :attr:`replace`'s."""
        return _python_replace(self.cls, names)


def maker(cls: type[T]) -> Maker[T]:
    """The :class:`Maker` of ``cls`` (an attrs class)."""
    if not attrs.has(cast(Any, cls)):
        raise TypeError(f"maker: {cls.__name__} is not an attrs class")
    return Maker(cls, _python_new(cls), _python_replace(cls))

"""Sphinx configuration for cardrules.

The build is strict: CI runs ``sphinx-build -W -n --keep-going``, so a warning fails it
and every cross-reference must resolve (nitpicky).  How to keep it so when you add
something:

* **A new module or public name**: document it with ``automodule``/``autoclass``/
  ``autofunction`` on an ``api/`` page (a new page goes into the ``API reference`` list
  of ``index.rst``).  Document each object once.  A name re-exported elsewhere
  (``cardrules.X`` for ``cardrules.mod.X``, ``cardrules.eleusis.compile_rule`` for
  ``cardrules.lang.rules.compile_rule``) needs no second description: a reference to
  any name under which Python reaches the object resolves to the one description
  (``_resolve_alias`` below).  What ``import cardrules`` gives (its ``__all__``) is
  documented on ``api/core.rst`` under the ``cardrules.X`` names; exclude those names
  from the module's own ``automodule`` there.
* **A new page**: add it by hand to the toctree of ``index.rst`` where it belongs in the
  reading order (tutorials before references); the lists use no glob, on purpose.
* **Rule or table text in a page**: ``.. code-block:: eleusis`` or ``..
  code-block:: cardrules-tables`` (lexers in ``cardrules.pygments_lexers``).
* **A reference that cannot resolve** (a name of the standard library, lark or attrs,
  whose inventories an offline build lacks, or a private name such as a type
  variable): add a pattern to ``nitpick_ignore_regex``.  Never add a public cardrules
  name there: document it instead.
"""

from __future__ import annotations

import builtins
import importlib
import os
import sys
import types
from typing import Any

sys.path.insert(0, os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "src")))

from cardrules import __version__

project = "cardrules"
author = "The cardrules developers"
copyright = "2026, the cardrules developers"
release = version = __version__

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.doctest",
    "sphinx.ext.intersphinx",
    "sphinx.ext.viewcode",
]
html_theme = "furo"
html_title = f"cardrules {release}"
exclude_patterns = ["_build"]
# The rule playground's page files (playground.rst) are copied to _static/ as they are;
# docs/bundle_playground.py adds Pyodide and the wheels beside them in a built tree.
html_static_path = ["_static"]
autodoc_member_order = "bysource"
# Type hints go into the description, and only for the parameters a docstring
# describes: signatures stay short, and a class's fields are not listed twice.
autodoc_typehints = "description"
autodoc_typehints_description_target = "documented"
# No default "members": Sphinx lets a default ``members: True`` override a directive's
# own list (``:members: a, b``), so each automodule says ``:members:`` itself.
autodoc_default_options = {"show-inheritance": True}
# The build machines have no network: intersphinx reads the Python inventory only when
# one is cached next to this file (docs/_static/python-objects.inv); otherwise links to
# the standard library stay plain text.
_inv = os.path.join(os.path.dirname(__file__), "_static", "python-objects.inv")
intersphinx_mapping = {"python": ("https://docs.python.org/3", _inv)} if os.path.exists(_inv) else {}

nitpicky = True
_stdlib = "|".join(sorted(sys.stdlib_module_names))
nitpick_ignore_regex = [
    # Outside cardrules: the standard library (builtins such as compile included), lark,
    # attrs and Pygments (no inventory offline).
    (r"py:.*", rf"({_stdlib})(\..+)?"),
    (r"py:.*", "|".join(n for n in dir(builtins) if not n.startswith("_"))),
    (r"py:.*", r"(lark|attrs?|pygments)(\..*)?"),
    # The web table's framework (the extra cardrules[web]): no inventory offline.
    (r"py:.*", r"(starlette|uvicorn|anyio)(\..*)?"),
    # Private names: type variables of the protocol, and names with a leading underscore.
    (r"py:.*", r"(cardrules\.protocol\.)?[SR]"),
    (r"py:.*", r"~?(.*\.)?_\w+(\..*)?"),
    # A type alias of the rule language's syntax tree (Const | Range): autodoc cannot
    # document a Union alias, and its two classes are documented.
    (r"py:class", r"Item"),
]


# -- One description per object, reached by every name -------------------------------

_MISSING = object()
_lookups: dict[str, Any] = {}


def _lookup(dotted: str) -> Any:
    """The object Python reaches by ``dotted`` (a module, then attributes), or _MISSING."""
    if dotted in _lookups:
        return _lookups[dotted]
    found: Any = _MISSING
    parts = dotted.split(".")
    if all(p.isidentifier() for p in parts):
        for i in range(len(parts), 0, -1):
            try:
                obj: Any = importlib.import_module(".".join(parts[:i]))
            except Exception:
                continue
            try:
                for p in parts[i:]:
                    obj = getattr(obj, p)
            except AttributeError:
                break
            found = obj
            break
    _lookups[dotted] = found
    return found


def _canonical_names(obj: Any) -> list[str]:
    if isinstance(obj, types.ModuleType):
        return [obj.__name__]
    names = []
    module, qualname = getattr(obj, "__module__", None), getattr(obj, "__qualname__", None)
    if isinstance(module, str) and isinstance(qualname, str):
        names.append(f"{module}.{qualname}")
    return names


def _resolve_alias(app: Any, env: Any, node: Any, contnode: Any) -> Any:
    """Resolve a reference to a cardrules object under another of its names.

    ``cardrules.Shuffle``, ``cardrules.lang.acceptance``, or a short name in a module's
    docstring (``Rule`` in :mod:`cardrules.eleusis`) reach an object that is documented
    once, under one name; this finds that name.  A name that reaches no documented
    object stays unresolved, and the nitpicky build reports it.
    """
    if node.get("refdomain") != "py":
        return None
    target: str = node["reftarget"].lstrip(".~")
    module, cls = node.get("py:module"), node.get("py:class")
    tries = [target]
    if module:
        if cls:
            tries.append(f"{module}.{cls}.{target}")
        tries.append(f"{module}.{target}")
    domain = env.get_domain("py")
    for name in tries:
        if not name.startswith("cardrules"):
            continue
        obj = _lookup(name)
        if obj is _MISSING:
            continue
        candidates = [n for n in _canonical_names(obj) if n != name]
        if not candidates:  # data (a dict, a constant): the documented name with the same object
            tail = name.rsplit(".", 1)[-1]
            candidates = [
                n for n in domain.objects if n.rsplit(".", 1)[-1] == tail and n != name and _lookup(n) is obj
            ]
        for canonical in candidates:
            if canonical in domain.objects:
                return domain.resolve_xref(
                    env, node["refdoc"], app.builder, node["reftype"], canonical, node, contnode
                )
    # An attribute of a documented class that has no entry of its own (an attrs field,
    # a slot): the class's description, which says what its attributes are.
    if node["reftype"] in ("attr", "meth", "obj"):
        for name in tries:
            owner_name, _, attr = name.rpartition(".")
            owner = _lookup(owner_name) if owner_name.startswith("cardrules") else _MISSING
            if not isinstance(owner, type) or not _has_attribute(owner, attr):
                continue
            for canonical in [owner_name, *_canonical_names(owner)]:
                if canonical in domain.objects:
                    return domain.resolve_xref(
                        env, node["refdoc"], app.builder, "class", canonical, node, contnode
                    )
    return None


def _has_attribute(cls: type, attr: str) -> bool:
    if hasattr(cls, attr):
        return True
    fields = getattr(cls, "__attrs_attrs__", ())
    return any(f.name == attr for f in fields) or any(
        attr in getattr(c, "__annotations__", {}) or attr in getattr(c, "__slots__", ()) for c in cls.__mro__
    )


def _add_lexers(app: Any) -> None:
    """The rule and table lexers, when the installed cardrules' entry points are not
    there (a build from a checkout that was never installed)."""
    from pygments.lexers import find_lexer_class_by_name
    from pygments.util import ClassNotFound

    from cardrules.pygments_lexers import EleusisLexer, TrickTableLexer

    for cls in (EleusisLexer, TrickTableLexer):
        for alias in cls.aliases:
            try:
                find_lexer_class_by_name(alias)
            except ClassNotFound:
                app.add_lexer(alias, cls)


def _public_bases(app: Any, name: str, obj: Any, options: Any, bases: list[Any]) -> None:
    """Show only public base classes: a private mixin that shares machinery (such as
    the syntax tree's ``_Compound``) is no part of the API."""
    bases[:] = [b for b in bases if not getattr(b, "__name__", "").startswith("_")] or [object]


def _drop_plain_bases(app: Any, doctree: Any) -> None:
    """Drop "Bases: object": a class with no public base says nothing by it."""
    from docutils import nodes
    from sphinx import addnodes

    for content in doctree.findall(addnodes.desc_content):
        for para in list(content.findall(nodes.paragraph)):
            if para.parent is content and para.astext() == "Bases: object":
                content.remove(para)


def _words_directive() -> Any:
    """``.. cardrules-words::``: the tables of the language's words, read from its
    vocabulary (``cardrules.lang.vocabulary``), so the reference lists every word the
    compiler knows and no other."""
    from docutils import nodes
    from docutils.parsers.rst import Directive
    from docutils.statemachine import StringList

    class Words(Directive):
        has_content = False
        optional_arguments = 1  # one kind of word (property, attribute, ...): its table alone

        def run(self) -> list[Any]:
            from cardrules.lang import Vocabulary

            standard = Vocabulary.standard()
            text = (
                standard.reference(self.arguments, titles=False) if self.arguments else standard.reference()
            )
            container = nodes.container()
            self.state.nested_parse(
                StringList(text.splitlines(), source="cardrules vocabulary"), 0, container
            )
            return container.children

    return Words


def setup(app: Any) -> dict[str, Any]:
    _add_lexers(app)
    app.add_directive("cardrules-words", _words_directive())
    app.connect("doctree-read", _drop_plain_bases)
    app.connect("missing-reference", _resolve_alias)
    app.connect("autodoc-process-bases", _public_bases)
    return {"parallel_read_safe": True}

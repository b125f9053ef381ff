"""No import circles in cardrules: the modules form a layered graph.

The graph is read from the source with :mod:`ast`, not by importing anything: an edge
``m -> n`` for every ``import``/``from ... import`` statement of module ``m`` that names
module ``n`` of the package, wherever the statement is (top level, inside a function or
method, under ``if``/``try``).

* Relative imports are resolved against the importing module's package (a package's
  ``__init__`` is that package).
* ``from pkg import name`` imports the submodule ``pkg.name`` when there is one, else
  ``pkg`` itself (its ``__init__``); ``import pkg`` imports ``pkg``'s ``__init__``.
* Importing ``pkg.mod`` does not count as importing ``pkg``'s ``__init__``, although
  Python runs it first: otherwise every package whose ``__init__`` re-exports its
  submodules would be a circle.
* ``if TYPE_CHECKING:`` imports count.  They do nothing at run time, but they are
  imports a reader (and mypy) follows: a module that needs another's types to be read
  sits above it, and two modules that each need the other are one tangle, whether the
  need is of types or of values.  An import inside a function counts for the same
  reason: it only postpones the circle to the first call.
"""

from __future__ import annotations

import ast
import importlib.machinery
from collections.abc import Iterable, Mapping
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "src" / "cardrules"

Graph = dict[str, set[str]]


def module_names(root: Path) -> dict[str, Path | None]:
    """Every module of the package at ``root`` (a directory with ``__init__.py``): its
    dotted name, and its source file (``None`` for a compiled extension module, found by its file or its stub)."""
    modules: dict[str, Path | None] = {}
    base = root.parent
    for path in sorted(root.rglob("*.py")):
        parts = list(path.relative_to(base).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        modules[".".join(parts)] = path
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        for path in sorted(root.rglob(f"*{suffix}")):
            parts = list(path.relative_to(base).parts)
            parts[-1] = parts[-1][: -len(suffix)]
            modules.setdefault(".".join(parts), None)
    # a compiled module not built here (no compiler) is still declared by its stub
    for path in sorted(root.rglob("*.pyi")):
        modules.setdefault(".".join(path.relative_to(base).with_suffix("").parts), None)
    return modules


def _imported(tree: ast.AST, module: str, is_package: bool, known: Mapping[str, object]) -> set[str]:
    """The modules of the package that the statements in ``tree`` (of ``module``) import."""
    top = module.split(".")[0]
    own_package = module.split(".") if is_package else module.split(".")[:-1]
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names if a.name == top or a.name.startswith(top + "."))
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = own_package[: len(own_package) - (node.level - 1)]
                target = ".".join(base + (node.module.split(".") if node.module else []))
            else:
                target = node.module or ""
                if target != top and not target.startswith(top + "."):
                    continue  # outside the package
            for alias in node.names:
                sub = f"{target}.{alias.name}"
                out.add(sub if sub in known else target)
    out.discard(module)  # ``from . import name`` in a package's own __init__
    return out


def import_graph(root: Path) -> Graph:
    """``{module: modules it imports}`` for the package at ``root``."""
    known = module_names(root)
    graph: Graph = {}
    for name, path in known.items():
        if path is None:
            graph[name] = set()
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        graph[name] = _imported(tree, name, path.name == "__init__.py", known)
    return graph


def _components(graph: Mapping[str, Iterable[str]]) -> dict[str, int]:
    """Each node's strongly connected component (Tarjan's algorithm, without recursion)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    component: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    counter = 0
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph.get(root, ()))))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            else:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[node])
                if low[node] == index[node]:
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component[member] = index[node]
                        if member == node:
                            break
    return component


def find_cycles(graph: Mapping[str, Iterable[str]]) -> list[list[str]]:
    """Every elementary cycle of ``graph``, each once, as the list of its modules in
    import order starting from its least name and ending with that name again
    (``["a", "b", "a"]``: ``a`` imports ``b``, which imports ``a``); sorted."""
    component = _components(graph)
    cycles: list[list[str]] = []
    for start in sorted(graph):
        # The cycles whose least node is ``start``: walk only through greater nodes of
        # its component.
        def successors(node: str, start: str = start) -> Iterable[str]:
            return iter(
                sorted(
                    n
                    for n in graph.get(node, ())
                    if n == start or (n > start and component.get(n) == component[start])
                )
            )

        path = [start]
        work = [successors(start)]
        while work:
            for nxt in work[-1]:
                if nxt == start:
                    cycles.append([*path, start])
                elif nxt not in path:
                    path.append(nxt)
                    work.append(successors(nxt))
                    break
            else:
                work.pop()
                path.pop()
    return sorted(cycles)


def _show(cycles: list[list[str]]) -> str:
    return "\n".join("  " + " -> ".join(c) for c in cycles)


# -- the package itself ----------------------------------------------------------------


def test_the_graph_of_cardrules_is_read() -> None:
    """The walker sees the package (so an empty graph cannot pass the tests below)."""
    graph = import_graph(PACKAGE)
    assert "cardrules.lang.rules" in graph["cardrules.lang"]
    assert "cardrules.lang.codegen" in graph["cardrules.lang.rules"]
    assert "cardrules.cards" in graph["cardrules.lang.rules"]


def test_cardrules_lang_has_no_import_cycles() -> None:
    cycles = [
        c for c in find_cycles(import_graph(PACKAGE)) if all(m.startswith("cardrules.lang.") for m in c)
    ]
    assert not cycles, f"modules of cardrules.lang import one another in circles:\n{_show(cycles)}"


def test_cardrules_has_no_import_cycles() -> None:
    cycles = find_cycles(import_graph(PACKAGE))
    assert not cycles, f"modules import one another in circles:\n{_show(cycles)}"


# -- the graph builder, on a small package -----------------------------------------------


def _write(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root / "pkg"


def test_import_graph_resolves_every_kind_of_import(tmp_path: Path) -> None:
    pkg = _write(
        tmp_path,
        {
            "pkg/__init__.py": "from .a import f\nfrom . import b\nVALUE = 1\n",
            "pkg/a.py": "import os\nfrom .sub import c\n\ndef f():\n    from . import VALUE\n",
            "pkg/b.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg.sub.c import C\n",
            "pkg/sub/__init__.py": "",
            "pkg/sub/c.py": "import pkg.b as bee\nfrom ..a import f\nfrom .. import sub\nfrom attrs import define\n",
            "pkg/sub/d.py": "class D:\n    def m(self):\n        import pkg\n        from .c import C\n",
        },
    )
    assert import_graph(pkg) == {
        "pkg": {"pkg.a", "pkg.b"},
        "pkg.a": {"pkg.sub.c", "pkg"},  # a submodule by ``from .sub import c``; VALUE is pkg's
        "pkg.b": {"pkg.sub.c"},  # under TYPE_CHECKING
        "pkg.sub": set(),
        "pkg.sub.c": {"pkg.b", "pkg.a", "pkg.sub"},  # ``from .. import sub``: the package
        "pkg.sub.d": {"pkg", "pkg.sub.c"},  # inside a method
    }


def test_a_circle_is_found_and_a_tree_is_not(tmp_path: Path) -> None:
    circle = _write(
        tmp_path / "circle",
        {
            "pkg/__init__.py": "from .a import f\n",
            "pkg/a.py": "from .b import g\n\ndef f():\n    return g()\n",
            "pkg/b.py": "def g():\n    from .a import f\n    return f\n",
            "pkg/c.py": "from .a import f\n",
        },
    )
    assert find_cycles(import_graph(circle)) == [["pkg.a", "pkg.b", "pkg.a"]]
    tree = _write(
        tmp_path / "tree",
        {
            "pkg/__init__.py": "from .a import f\nfrom .b import g\n",
            "pkg/a.py": "from .b import g\n\ndef f():\n    from .c import h\n",
            "pkg/b.py": "from . import c\n",
            "pkg/c.py": "def h():\n    pass\n",
        },
    )
    assert find_cycles(import_graph(tree)) == []


def test_find_cycles_lists_each_cycle_once() -> None:
    graph = {
        "a": {"b"},
        "b": {"a", "c"},
        "c": {"a", "d"},
        "d": set(),
        "e": {"f"},
        "f": {"e"},
        "g": {"g"},
    }
    assert find_cycles(graph) == [
        ["a", "b", "a"],
        ["a", "b", "c", "a"],
        ["e", "f", "e"],
        ["g", "g"],
    ]


# -- no module reaches into another's private names ---------------------------------------
#
# A name with a leading underscore is its module's own: no other module imports it, or
# reads it as an attribute of an imported module.  What the rooms of a game package
# share (the protocol functions of rules.py, a deck, a record maker) is public in the
# room that defines it.  A private *module* (``_chance``, ``cli._running``) is its
# package's helper and may be imported within the package; the names it offers are
# public ones.


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def private_imports(root: Path) -> list[str]:
    """Each place of the package at ``root`` where a module imports another module's
    private name (``from .rules import _step``) or reads one on a module it imported
    (``rules._step``): ``"module:line: name"``."""
    known = module_names(root)
    found = []
    for module, path in known.items():
        if path is None:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        own_package = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
        modules_bound: dict[str, str] = {}  # a local name -> the package module it is bound to
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name in known and alias.asname:
                        modules_bound[alias.asname] = alias.name
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = own_package[: len(own_package) - (node.level - 1)]
                    target = ".".join(base + (node.module.split(".") if node.module else []))
                else:
                    target = node.module or ""
                if target not in known:
                    continue  # outside the package
                for alias in node.names:
                    sub = f"{target}.{alias.name}"
                    if sub in known:
                        modules_bound[alias.asname or alias.name] = sub
                    elif _private(alias.name):
                        found.append(f"{module}:{node.lineno}: {alias.name} from {target}")
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id in modules_bound
                and _private(node.attr)
                and f"{modules_bound[node.value.id]}.{node.attr}" not in known
                and modules_bound[node.value.id] != module
            ):
                found.append(f"{module}:{node.lineno}: {node.attr} of {modules_bound[node.value.id]}")
    return found


def test_no_module_imports_another_modules_private_names() -> None:
    found = private_imports(PACKAGE)
    assert not found, "private names used outside their module (make them public there):\n" + "\n".join(found)


def test_private_imports_are_found_and_private_modules_allowed(tmp_path: Path) -> None:
    pkg = _write(
        tmp_path,
        {
            "pkg/__init__.py": "from .rules import _step, start\nfrom . import _helper\n",
            "pkg/_helper.py": "VALUE = 1\n_HIDDEN = 2\n",
            "pkg/rules.py": "def _step(): ...\ndef start(): ...\n",
            "pkg/text.py": "from . import rules as r\nfrom ._helper import VALUE\n\ndef f():\n    return r._step, r.start\n",
            "pkg/sub/__init__.py": "from .. import _helper\nfrom .._helper import _HIDDEN\n",
        },
    )
    assert sorted(private_imports(pkg)) == [
        "pkg.sub:2: _HIDDEN from pkg._helper",
        "pkg.text:5: _step of pkg.rules",
        "pkg:1: _step from pkg.rules",
    ]

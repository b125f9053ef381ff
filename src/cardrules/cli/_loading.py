"""``cardrules --load MODULE_OR_FILE``: games defined outside the package.

The module (imported by name) or Python file (loaded by its path) registers its games
with :func:`cardrules.register_game` as it loads, and every command then takes them as
it takes the four games.  This is the one place where the command line imports code
by a name it is given.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import os
import sys
from collections.abc import Iterable, Sequence
from types import ModuleType
from typing import Any

from ..errors import CardRulesError

__all__ = ["LoadAction", "is_path", "load", "load_all"]


def is_path(source: str) -> bool:
    """Whether ``source`` names a file (``games/mine.py``) rather than a module
    (``mygames.cards``)."""
    return source.endswith(".py") or "/" in source or os.sep in source


def load(source: str) -> ModuleType:
    """Import the module ``source`` names, or load the Python file at ``source``, once:
    a file already loaded (or imported under its own name) is not run again."""
    try:
        return _load_file(source) if is_path(source) else importlib.import_module(source)
    except (ImportError, SyntaxError, OSError) as exc:
        raise CardRulesError(f"--load {source}: {exc}") from exc


def load_all(sources: Iterable[str]) -> None:
    """:func:`load` each of ``sources``, in order."""
    for source in sources:
        load(source)


def _load_file(source: str) -> ModuleType:
    path = os.path.abspath(source)
    if not os.path.isfile(path):
        raise CardRulesError(f"--load {source}: no such file")
    real = os.path.realpath(path)
    for module in list(sys.modules.values()):
        where = getattr(module, "__file__", None)
        if isinstance(where, str) and os.path.realpath(where) == real:
            return module  # loaded already, by an import or an earlier --load
    name = os.path.splitext(os.path.basename(path))[0]
    if name in sys.modules:
        raise CardRulesError(f"--load {source}: a module named {name!r} is loaded already; rename the file")
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise CardRulesError(f"--load {source}: not a Python file")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # under its name, as an import would: the game's module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[name]
        raise
    return module


class LoadAction(argparse.Action):
    """``--load``: loads at once, as the option is read, so that the sub-command read
    next (``play GAME``) already knows the games; the sources are kept in order."""

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: str | Sequence[Any] | None,
        option_string: str | None = None,
    ) -> None:
        source = str(values)
        load(source)
        kept = list(getattr(namespace, self.dest, None) or [])
        setattr(namespace, self.dest, [*kept, source])

"""Files shipped with the package: the lark grammars and the trick-table texts.

In an installed wheel the grammars sit inside the package (``cardrules/grammars``, put
there by the build); in a source checkout they are at the repository root
(``grammars/``).  Both are found here, so the code never cares which.
"""

from __future__ import annotations

import importlib.resources
from pathlib import Path

__all__ = ["grammar_text", "package_text"]


def grammar_text(name: str) -> str:
    """The text of ``grammars/<name>``."""
    packaged = importlib.resources.files("cardrules").joinpath("grammars").joinpath(name)
    if packaged.is_file():
        return packaged.read_text(encoding="utf-8")
    source = Path(__file__).resolve().parents[2] / "grammars" / name
    return source.read_text(encoding="utf-8")


def package_text(*parts: str) -> str:
    """The text of a data file inside the package, e.g. ``package_text("tables", "aegis.tricks")``."""
    path = importlib.resources.files("cardrules")
    for part in parts:
        path = path.joinpath(part)
    return path.read_text(encoding="utf-8")

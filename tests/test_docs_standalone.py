"""The documentation stands on its own: no page, README or docstring sends the reader to
a file they cannot open (the project's internal specification, the original game texts
by file name, or a path of the machine the library was written on).  Decisions are
stated where they apply, and the original texts are named by title and author."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FORBIDDEN = re.compile(r"spec/|api\.md|rule-language\.md|seeds/|/work/")
TEXT_SUFFIXES = {".py", ".pyi", ".c", ".rst", ".md", ".txt", ".lark", ".tricks", ".rule", ".toml", ".cfg", ".json"}

def _files() -> list[Path]:
    found = [ROOT / "README.md"]
    for top in ("docs", "src", "grammars", "examples"):
        for path in sorted((ROOT / top).rglob("*")):
            parts = path.relative_to(ROOT).parts
            if "_build" in parts or "__pycache__" in parts or not path.is_file():
                continue
            if path.suffix in TEXT_SUFFIXES:
                found.append(path)
    return found


def test_the_scan_sees_the_docs_and_the_sources() -> None:
    names = {p.relative_to(ROOT).as_posix() for p in _files()}
    assert {"README.md", "docs/index.rst", "docs/conf.py", "src/cardrules/protocol.py"} <= names
    assert any(n.startswith("grammars/") for n in names)
    assert FORBIDDEN.search("as ``spec/aegis.md`` says") and FORBIDDEN.search("see api.md")
    assert not FORBIDDEN.search("the specification says")


@pytest.mark.parametrize("path", _files(), ids=lambda p: p.relative_to(ROOT).as_posix())
def test_no_citation_of_files_a_reader_lacks(path: Path) -> None:
    text = path.read_text(encoding="utf-8", errors="replace")
    hits = [
        f"{path.relative_to(ROOT)}:{n}: {line.strip()}"
        for n, line in enumerate(text.splitlines(), 1)
        if FORBIDDEN.search(line)
    ]
    assert not hits, "cites a file the reader cannot open:\n" + "\n".join(hits)

"""The docs speak to a user, in the present tense: what the library does, how to use it,
what it measures now.  How it came to be (its stages of work, the issues that asked for
it, who did what, what was tried and dropped, the dates of runs) belongs in the commit
log, and a condensed account of what a user gains in the changelog of releases.

Each pattern below is a word of that history.  Some of its words are also game terms
(the *lead* of a trick is the card led), so the patterns take the word in its history
sense only, and the allow-list names any other use exactly.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

#: a word of the project's history, and why it has no place in a user's docs
FORBIDDEN: dict[str, str] = {
    r"\bstages?\b": "a stage of the work",
    r"\brounds? of work\b": "a round of work",
    r"\bissues?\b": "an issue of the tracker",
    r"\bhelpers?\b": "who did the work",
    r"\blead's\b": "who did the work",
    r"\bthe lead (?:merges|asks|asked|says|said|decides|decided|wants|reviews|will)\b": "who did the work",
    r"\bsessions?\b": "who did the work",
    r"\bnot kept\b": "what was tried and dropped",
    r"\b20[2-9]\d-\d\d-\d\d\b": "the date of a run (the Aegis manual's revisions of 2002 are rules)",
}

#: exact phrases that hold a forbidden word and are no history (none so far)
ALLOWED: tuple[str, ...] = ()

PATTERN = re.compile("|".join(f"(?:{p})" for p in FORBIDDEN), re.IGNORECASE)

#: pages that others are rewriting now; each still speaks of the project's history


def _pages() -> list[Path]:
    pages = [ROOT / "README.md"]
    pages += sorted(p for p in (ROOT / "docs").rglob("*.rst") if "_build" not in p.parts)
    return pages


def _hits(text: str) -> list[str]:
    found = []
    for n, line in enumerate(text.splitlines(), 1):
        for phrase in ALLOWED:
            line = line.replace(phrase, "")
        for match in PATTERN.finditer(line):
            found.append(f"{n}: {match.group(0)!r} in {line.strip()}")
    return found


def test_the_scan_sees_every_page() -> None:
    names = {p.relative_to(ROOT).as_posix() for p in _pages()}
    assert {"README.md", "docs/index.rst", "docs/changelog.rst", "docs/games/eleusis-scientist.rst"} <= names


@pytest.mark.parametrize(
    "line",
    [
        "The sixteenth stage learnt the prior.",
        "Two stages later it is faster.",
        "The ninth round of work on PettingZoo.",
        "Issue 4 asks that the tables load.",
        "The goal of the issue is met.",
        "the lead's jobs and another helper's jobs",
        "The lead merges the branch.",
        "Measured and not kept.",
        "in a session of the project",
        "Measured on 2026-11-22 on two cores.",
    ],
)
def test_the_scan_finds_history(line: str) -> None:
    assert _hits(line)


@pytest.mark.parametrize(
    "line",
    [
        "A table that does not know the lead is always trump or leader.",
        "``winner`` classifies the lead once.",
        "the leader of the trick; the led suit; lead.suit",
        "A round of New Eleusis; three rounds of each rule.",
        "the earlier card keeps the trick",
        "the lead list of a smaller hand",
        "the rules as revised up to 2002-12-21",
    ],
)
def test_game_terms_pass(line: str) -> None:
    assert not _hits(line)


def _params() -> list[object]:
    params: list[object] = []
    for path in _pages():
        name = path.relative_to(ROOT).as_posix()
        params.append(pytest.param(path, id=name))
    return params


@pytest.mark.parametrize("path", _params())
def test_the_page_speaks_to_a_user(path: Path) -> None:
    name = path.relative_to(ROOT).as_posix()
    hits = _hits(path.read_text(encoding="utf-8"))
    assert not hits, f"{name} speaks of the project's history:\n" + "\n".join(hits)

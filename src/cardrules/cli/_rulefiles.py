"""Where the command line takes a rule: a rule file, ``FILE:NAME`` for one rule of a
file of several (or ``--name NAME``), or the rule's text itself.

An argument that looks like a file name (a path separator, or a name ending in
``.rule``, ``.rules`` or ``.txt``, with no spaces) and is no file is an error, "no such
file", rather than rule text that does not compile.
"""

from __future__ import annotations

import os
from pathlib import Path

from ..errors import CardRulesError

__all__ = ["SUFFIXES", "looks_like_file", "split_rule_arg"]

#: The endings of a rule file's name.
SUFFIXES = (".rule", ".rules", ".txt")

#: The example rules, in a copy of the source.
_EXAMPLES = Path(__file__).resolve().parents[3] / "examples" / "rules"


def looks_like_file(arg: str) -> bool:
    """Whether ``arg`` names a file: one exists, or it reads as a file name (a path
    separator, or a name ending in ``.rule``, ``.rules``, ``.txt``) and not as rule text."""
    if os.path.isfile(arg):
        return True
    if not arg.strip() or any(ch.isspace() for ch in arg.strip()):
        return False
    return "/" in arg or os.sep in arg or arg.endswith(SUFFIXES)


def split_rule_arg(arg: str, name: str | None, option: str = "--name") -> tuple[str | None, str | None]:
    """``(path, name)`` when ``arg`` is a rule file or ``FILE:NAME``; ``(None, name)`` when
    it is rule text.  Raises :class:`~cardrules.CardRulesError` "no such file" for an
    argument that looks like a file name and is not a file."""
    if os.path.isfile(arg):
        return arg, name
    head, sep, tail = arg.rpartition(":")
    if sep and head and os.path.isfile(head):
        if name is not None and name != tail:
            raise CardRulesError(f"{arg} names the rule {tail!r} and {option} names {name!r}: give one")
        return head, tail
    path = head if sep and head and looks_like_file(head) else arg
    if looks_like_file(path):
        raise CardRulesError(no_such_file(path))
    return None, name


def no_such_file(path: str) -> str:
    """The message for a rule file that is not there, naming the example rule of that
    name when there is one (in a copy of the source)."""
    message = f"no such file: {path}"
    for folder in (Path("examples") / "rules", _EXAMPLES):
        example = folder / Path(path).name
        if os.path.isfile(example):  # False, not OSError, for a name too long for the system
            shown = os.path.relpath(example)
            shown = shown if not shown.startswith("..") else str(example)
            return f"{message} (the example of that name is {shown})"
    return message

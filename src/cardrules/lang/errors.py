"""Errors in rule and table text, located in the text.

:class:`SourceError` is the base of every fault found in text written in one of the rule
languages (Eleusis rules here, trick tables in :mod:`cardrules.tricks`).  It carries the
1-based :attr:`~SourceError.line` and :attr:`~SourceError.column`, and its message shows
the offending source line with a caret under the column::

    line 1, column 9: expected a card property such as red, odd or face after 'is'
      card is 7
              ^
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import ParamSpec, TypeVar

from ..errors import CardRulesError, cut_echoes

__all__ = ["RuleSyntaxError", "RuleTypeError", "SourceError", "depth_guard"]

_P = ParamSpec("_P")
_R = TypeVar("_R")


class SourceError(CardRulesError):
    """A fault at a place in a source text.

    ``SourceError(message, text, line, column)``: ``message`` says what is wrong in plain
    words; ``text`` is the whole source (used to show the offending line); ``line`` and
    ``column`` are 1-based (a column of ``len(line) + 1`` points just after the end of
    the line).  ``str(error)`` is the message, the source line and a caret.  Without
    ``text`` the error has no place (``line == column == 0``) and ``str`` is the message.

    Attributes: :attr:`message`, :attr:`line`, :attr:`column`, :attr:`source_line`.
    """

    message: str
    line: int
    column: int
    source_line: str

    def __init__(self, message: str, text: str | None = None, line: int = 1, column: int = 1) -> None:
        self.message = message = cut_echoes(message)
        if text is None:  # a fault with no place in a text (e.g. a table used without its key)
            self.line = self.column = 0
            self.source_line = ""
            super().__init__(message)
            return
        self.line = max(1, line)
        self.column = max(1, column)
        lines = text.split("\n")
        self.source_line = lines[self.line - 1] if self.line <= len(lines) else ""
        super().__init__(self._render())

    def _render(self) -> str:
        src = self.source_line
        if len(src) > 120:  # show a window around the column of a very long line
            start = max(0, self.column - 60)
            shown = src[start : start + 120]
            caret_at = self.column - 1 - start
        else:
            shown, caret_at = src, self.column - 1
        shown = shown.replace("\t", " ")
        head = f"line {self.line}, column {self.column}: {self.message}"
        return f"{head}\n  {shown}\n  {' ' * caret_at}^"

    def __reduce__(self) -> tuple[object, ...]:
        # Rebuild from the rendered parts (pickling keeps the message and the place).
        if self.line == 0:
            return (type(self), (self.message,))
        return (_rebuild, (type(self), self.message, self.source_line, self.line, self.column))

    @classmethod
    def from_error(cls, error: SourceError, text: str | None = None) -> SourceError:
        """The same fault as another :class:`SourceError`, as this class (the tricks
        language turns the shared checker's errors into its own ``TableError``)."""
        if text is None:
            text = "\n" * (error.line - 1) + error.source_line
        return cls(error.message, text, error.line, error.column)


def _rebuild(cls: type[SourceError], message: str, source_line: str, line: int, column: int) -> SourceError:
    return cls(message, "\n" * (line - 1) + source_line, line, column)


class RuleSyntaxError(SourceError):
    """Eleusis rule text that does not read: a misplaced token, an unknown name,
    attribute, property or function (the message lists the known ones), text that is
    too long or nested too deeply."""


class RuleTypeError(SourceError):
    """Eleusis rule text that reads but does not make sense: a suit compared with a
    number, ``card.rank is red``, ordered suits, branches of different types, a rule
    that is not a boolean, a divisor that is not a positive integer literal..."""


_TOO_DEEP = (
    "too deep for the free Python stack (called from a deep stack, or nested near the language's limits)"
)


def depth_guard(error: type[CardRulesError]) -> Callable[[Callable[_P, _R]], Callable[_P, _R]]:
    """Decorate a public entry point of the languages so that running out of Python's
    stack (a deep caller, or text nested near the limits) raises ``error``, a
    :class:`~cardrules.CardRulesError`, instead of a bare :class:`RecursionError`.

    A fault in the text (a :class:`SourceError`) is raised again from the entry point
    with the frames of the compiler dropped: the message says what is wrong and where,
    and a typo's traceback is the caller's line, not the compiler's insides."""

    def decorate(fn: Callable[_P, _R]) -> Callable[_P, _R]:
        @functools.wraps(fn)
        def guarded(*args: _P.args, **kwargs: _P.kwargs) -> _R:
            try:
                return fn(*args, **kwargs)
            except SourceError as fault:
                raise fault.with_traceback(None) from None
            except RecursionError:
                # Made without running Python code (no __init__): the stack may still be
                # nearly full here.
                exc = error.__new__(error, _TOO_DEEP)
                exc.__dict__.update(message=_TOO_DEEP, line=0, column=0, source_line="")
                raise exc from None

        return guarded

    return decorate

"""Pygments lexers for the two languages of cardrules: Eleusis rules and trick tables.

Installing cardrules registers them with Pygments (the ``pygments.lexers`` entry
points), so any program that colours code with Pygments knows them by name: Sphinx
(``.. code-block:: eleusis``), ``pygmentize -l eleusis rule.txt``, a Markdown renderer.

==========================  ===========================================  ==============
lexer                        aliases                                      files
==========================  ===========================================  ==============
:class:`EleusisLexer`        ``eleusis``, ``cardrules-rule``,             ``*.rule``
                             ``cardrules-rules``
:class:`TrickTableLexer`     ``cardrules-tables``, ``cardrules-table``,   ``*.tricks``
                             ``tricks``
==========================  ===========================================  ==============

Pygments is not a dependency of cardrules: this module imports it, and only Pygments
(through the entry points) or a program that wants the lexers imports this module.

Tokens: keywords (``if``, ``then``, ``where``, ``count`` ..., and ``rule``, ``start:``,
``play:`` in rule files; ``table``, ``class``, ``when``, ``beats`` ... in tables) are
``Keyword``; ``and or not in is`` are ``Operator.Word``; the names a rule is judged with
(``card``, ``prev``, ``prev3``, ``position``, ``lead``, ``key``, ``line``) are
``Name.Builtin``; properties after ``is`` (``red``, ``face``, ``odd`` ...) are
``Name.Property``; attributes after ``.`` (``rank``, ``suit``, ``color``) are
``Name.Attribute``; functions (``abs``, ``min``, ``next``, ``has`` ...) are
``Name.Function``; ranks, suits and colours (``A``, ``K``, ``spades``, ``♥``, ``red``)
are ``Name.Constant``, ``true`` and ``false`` ``Keyword.Constant``; a rule's name is a
``String``; ``#`` comments are ``Comment.Single``.

>>> from pygments import lex
>>> from pygments.token import Name
>>> (Name.Property, "red") in list(lex("card is red", EleusisLexer()))
True
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from pygments.lexer import RegexLexer, bygroups, words
from pygments.token import (
    Comment,
    Keyword,
    Name,
    Number,
    Operator,
    Punctuation,
    String,
    Whitespace,
)

from .lang.vocabulary import STANDARD

__all__ = ["EleusisLexer", "TrickTableLexer"]

# Pygments' stubs leave bygroups untyped; one typed name for it keeps mypy --strict quiet.
_groups: Callable[..., Any] = bygroups

_KEYWORDS = (
    "if", "then", "elif", "else", "where", "for", "last", "count", "any", "all",
)  # fmt: skip
_WORD_OPERATORS = ("and", "or", "not", "in", "is")
#: Names bound when a card is judged (a rule) or classed (a table).
_BUILTIN_NAMES = ("card", "prev", "position", "lead", "key", "line")
# The words of the language and their colours come from its vocabulary
# (cardrules.lang.vocabulary): a word added there is coloured here.
_FUNCTIONS = tuple(w.name for w in STANDARD.of_kind("function") if w.token == "Name.Function")
_PROPERTIES = tuple(s for s in STANDARD.spellings("property") if s.isidentifier())
_CONSTANTS = tuple(
    s for s, w in STANDARD.spellings("constant").items() if s.isidentifier() and w.token == "Name.Constant"
)
_BOOLEANS = tuple(
    s for s, w in STANDARD.spellings("constant").items() if s.isidentifier() and w.token == "Keyword.Constant"
)
_NAME = r"[A-Za-z_][A-Za-z0-9_]*"
_SUIT_SYMBOLS = "".join(s for s in STANDARD.spellings("constant") if not s.isidentifier())

# The expression language, shared by both lexers (a table's `when` conditions are
# expressions of the same language).
_EXPRESSION: list[Any] = [
    (r"[ \t\f\r\n]+", Whitespace),
    (r"#[^\n]*", Comment.Single),
    # `x is P`, `x is not P`: P is a property.
    (
        rf"(is)(\s+)(?:(not)(\s+))?({_NAME}|[{_SUIT_SYMBOLS}])",
        _groups(Operator.Word, Whitespace, Operator.Word, Whitespace, Name.Property),
    ),
    (rf"(\.)([ \t]*)({_NAME})", _groups(Punctuation, Whitespace, Name.Attribute)),
    (words(_WORD_OPERATORS, suffix=r"\b"), Operator.Word),
    (words(_BOOLEANS, suffix=r"\b"), Keyword.Constant),
    (words(_KEYWORDS, suffix=r"\b"), Keyword),
    (r"prev[0-9]+\b", Name.Builtin),
    (words(_BUILTIN_NAMES, suffix=r"\b"), Name.Builtin),
    (words(_FUNCTIONS, suffix=r"(?=\s*\()"), Name.Function),
    (words(_CONSTANTS, suffix=r"\b"), Name.Constant),
    (rf"[{_SUIT_SYMBOLS}]", Name.Constant),
    (r"[0-9]+", Number.Integer),
    (r"\.\.|==|!=|<=|>=|//|[<>+\-*%=]", Operator),
    (r"[()\[\]{},:.]", Punctuation),
    (_NAME, Name),
]


class EleusisLexer(RegexLexer):
    """Eleusis secret rules: a bare expression, or ``rule "NAME": [start: E] [play:] E``."""

    name = "Eleusis rule"
    aliases: ClassVar[list[str]] = ["eleusis", "cardrules-rule", "cardrules-rules"]
    filenames: ClassVar[list[str]] = ["*.rule"]
    mimetypes: ClassVar[list[str]] = ["text/x-eleusis-rule"]
    url = "https://pypi.org/project/cardrules/"

    tokens: ClassVar[dict[str, Any]] = {
        "root": [
            (r'(rule)(\s*)("[^"\n]*")', _groups(Keyword.Declaration, Whitespace, String.Double)),
            (r"(start|play)(\s*)(:)", _groups(Keyword.Declaration, Whitespace, Punctuation)),
            *_EXPRESSION,
        ],
    }


class TrickTableLexer(RegexLexer):
    """Trick tables: ``ranks``, ``suits`` and ``table`` definitions, with ``when``
    conditions in the expression language."""

    name = "cardrules trick tables"
    aliases: ClassVar[list[str]] = ["cardrules-tables", "cardrules-table", "tricks"]
    filenames: ClassVar[list[str]] = ["*.tricks"]
    mimetypes: ClassVar[list[str]] = ["text/x-cardrules-tables"]
    url = "https://pypi.org/project/cardrules/"

    tokens: ClassVar[dict[str, Any]] = {
        "root": [
            # A definition and its name: `ranks cycle3:`, `table aegis:`, `group faces =`,
            # `class trump`; an order named in a tie-break: `by ranks cycle3`.
            (
                rf"(ranks|suits|table|group|class)(\s+)({_NAME})",
                _groups(Keyword.Declaration, Whitespace, Name.Class),
            ),
            (words(("when", "beats", "beat", "otherwise", "by", "later", "earlier"), suffix=r"\b"), Keyword),
            *_EXPRESSION,
        ],
    }

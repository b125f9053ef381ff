"""Text to AST: the lark parsers of the rule languages and their error messages.

The grammars live in ``grammars/`` (shipped inside the wheel); :func:`load_parser` loads
one, resolving ``%import expr (...)`` through the same lookup, as an LALR parser with a
parse-time transformer (no parse tree is built).  No I/O beyond reading the package's
own grammar files: lark's on-disk grammar cache is not used (it writes files to the
temporary folder); each parser is built once per process and kept in memory.

:class:`ExprBuilder` turns the rules of ``expr.lark`` into :mod:`cardrules.lang.ast`
nodes.  A grammar that imports ``expr`` sees its rules under the namespace ``expr``, so
its transformer is ``merge_transformers(MyBuilder(), expr=ExprBuilder())``.

Every lark exception is turned into a :class:`~cardrules.lang.errors.SourceError` (of the
caller's class) by :func:`source_error`, with the place, the source line, a caret and what
was expected in plain words.
"""

from __future__ import annotations

import copy
import functools
import importlib.resources
import re
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, NoReturn, TypeVar, cast

from lark import Lark, Token, Transformer, Tree, v_args
from lark.exceptions import UnexpectedCharacters, UnexpectedInput, UnexpectedToken
from lark.visitors import merge_transformers

from .._resources import grammar_text
from . import ast as A
from .errors import RuleSyntaxError, RuleTypeError, SourceError
from .vocabulary import STANDARD

__all__ = [
    "CONSTANTS",
    "KEYWORDS",
    "MAX_DEPTH",
    "MAX_TEXT",
    "PROPERTY_ALIASES",
    "BuildError",
    "ExprBuilder",
    "build_expr",
    "check_nesting",
    "describe_expected",
    "keyword_callbacks",
    "load_parser",
    "parse_expression",
    "parse_rule_text",
    "source_error",
]

#: Longest text the parsers read (characters); longer text is refused at once.
MAX_TEXT = 100_000
#: Deepest expression tree accepted (a leaf is 1).  Real rules stay far below; the
#: limit keeps every later pass (checking, code generation, Python's compiler) safe.
MAX_DEPTH = 50
#: Most digits in an integer literal.
MAX_DIGITS = 9

#: Names of constants, resolved when the tree is built: name -> (value, normalised
#: spelling); read from the standard vocabulary (:mod:`cardrules.lang.vocabulary`).
CONSTANTS: dict[str, tuple[A.ConstValue, str]] = {
    spelling: (cast("A.ConstValue", word.value), word.name)
    for spelling, word in STANDARD.spellings("constant").items()
    if spelling.isidentifier()
}
_SYMBOLS = {
    spelling: word.name
    for spelling, word in STANDARD.spellings("constant").items()
    if not spelling.isidentifier()
}

#: Spellings of properties (after ``is``) -> normalised property name.  A spelling that
#: is not here is kept as written: the type checker resolves it in the vocabulary the
#: rule is compiled with (words of a program's own) or reports it.
PROPERTY_ALIASES: dict[str, str] = {
    spelling: word.name for spelling, word in STANDARD.spellings("property").items()
}
_ATTRIBUTE_ALIASES = {spelling: word.name for spelling, word in STANDARD.spellings("attribute").items()}


class BuildError(Exception):
    """Raised while building a tree (inside lark's callbacks); turned into a
    :class:`SourceError` of the right class, with the text, by the caller."""

    def __init__(self, kind: str, message: str, pos: A.Pos) -> None:
        super().__init__(message)
        self.kind = kind  # "syntax" or "type"
        self.message = message
        self.pos = pos


def _pos(tok: Token) -> A.Pos:
    return A.Pos(tok.line or 1, tok.column or 1)


_N = TypeVar("_N", bound="A.Expr")


def _checked(node: _N) -> _N:
    if node.depth > MAX_DEPTH:
        message = f"the expression is nested too deeply (more than {MAX_DEPTH} levels)"
        raise BuildError("syntax", message, node.pos)
    return node


@v_args(inline=True)
class ExprBuilder(Transformer[Token, Any]):
    """Builds :mod:`~cardrules.lang.ast` nodes from the rules of ``expr.lark``.

    Stateless (one instance may serve every parse).  Faults found here (an item of a set
    that is not a constant, a number too long, ``[...]`` indexing something that is not a
    list, nesting deeper than :data:`MAX_DEPTH`) raise :class:`BuildError`.
    """

    def if_expr(self, if_tok: Token, cond: A.Expr, _then: Token, value: A.Expr, *rest: Any) -> A.If:
        branches = [(cond, value)]
        branches.extend(r for r in rest[:-2])
        return _checked(A.If(tuple(branches), rest[-1], _pos(if_tok)))

    def elif_part(self, _elif: Token, cond: A.Expr, _then: Token, value: A.Expr) -> tuple[A.Expr, A.Expr]:
        return (cond, value)

    def bool_chain(self, first: A.Expr, *rest: Any) -> A.BoolOp:
        op: Token = rest[0]
        operands: list[A.Expr] = []
        for side in (first, *rest[1::2]):
            if isinstance(side, A.BoolOp) and side.op == op.value:  # (a or b) or c
                operands.extend(side.operands)
            else:
                operands.append(side)
        return _checked(A.BoolOp(op.value, tuple(operands), _pos(op)))

    def not_expr(self, tok: Token, operand: A.Expr) -> A.Not:
        return _checked(A.Not(operand, _pos(tok)))

    def compare(self, left: A.Expr, op: Token, right: A.Expr) -> A.Compare:
        return _checked(A.Compare(op.value, left, right, _pos(op)))

    def member(self, elem: A.Expr, tok: Token, items: tuple[A.Item, ...]) -> A.Member:
        return _checked(A.Member(elem, items, False, _pos(tok)))

    def not_member(self, elem: A.Expr, tok: Token, _in: Token, items: tuple[A.Item, ...]) -> A.Member:
        return _checked(A.Member(elem, items, True, _pos(tok)))

    def is_prop(self, subject: A.Expr, _is: Token, prop: Token) -> A.Is:
        return _checked(A.Is(subject, _property(prop), False, _pos(prop)))

    def is_not_prop(self, subject: A.Expr, _is: Token, _not: Token, prop: Token) -> A.Is:
        return _checked(A.Is(subject, _property(prop), True, _pos(prop)))

    def property(self, tok: Token) -> Token:
        return tok

    def arith(self, left: A.Expr, op: Token, right: A.Expr) -> A.Arith:
        return _checked(A.Arith(op.value, left, right, _pos(op)))

    def neg(self, tok: Token, operand: A.Expr) -> A.Expr:
        if (
            isinstance(operand, A.Const)
            and type(operand.value) is int
            and operand.value >= 0
            and operand.spelling.isdigit()
        ):
            return A.Const(-operand.value, f"-{operand.spelling}", _pos(tok))
        return _checked(A.Neg(operand, _pos(tok)))

    def attribute(self, obj: A.Expr, _dot: Token, name: Token) -> A.Attribute:
        attr = _ATTRIBUTE_ALIASES.get(name.value, name.value)  # colour -> color
        return _checked(A.Attribute(obj, attr, _pos(name)))

    def index(self, obj: A.Expr, tok: Token, index: A.Expr, _r: Token) -> A.Index:
        if not isinstance(obj, A.ListLit):
            raise BuildError(
                "type",
                "only a list of constants can be indexed, as in [3, 1, 4][position - 1]",
                _pos(tok),
            )
        return _checked(A.Index(obj, index, _pos(tok)))

    def integer(self, tok: Token) -> A.Const:
        digits = tok.value
        if len(digits) > MAX_DIGITS:
            raise BuildError(
                "syntax", f"the number {digits[:12]}... is too long (at most {MAX_DIGITS} digits)", _pos(tok)
            )
        return A.Const(int(digits), str(int(digits)), _pos(tok))

    def name(self, tok: Token) -> A.Const | A.Name:
        const = CONSTANTS.get(tok.value)
        if const is not None:
            return A.Const(const[0], const[1], _pos(tok))
        return A.Name(tok.value, _pos(tok))

    def suit_symbol(self, tok: Token) -> A.Const:
        spelling = _SYMBOLS[tok.value]
        return A.Const(CONSTANTS[spelling][0], spelling, _pos(tok))

    def group(self, _l: Token, inner: A.Expr, _r: Token) -> A.Expr:
        return inner

    def call(self, name: Token, _l: Token, args: tuple[A.Expr, ...], _r: Token) -> A.Call:
        return _checked(A.Call(name.value, args, _pos(name)))

    def arguments(self, *items: Any) -> tuple[A.Expr, ...]:
        return tuple(i for i in items if not isinstance(i, Token))

    def aggregate_fn(self, tok: Token) -> Token:
        return tok

    def aggregate(
        self,
        fn: Token,
        _l: Token,
        var: Token,
        _in: Token,
        window: int | None,
        _w: Token,
        pred: A.Expr,
        _r: Token,
    ) -> A.Aggregate:
        return _checked(A.Aggregate(fn.value, var.value, window, pred, _pos(fn)))

    def fold(self, fn: Token, _l: Token, value: A.Expr, _for: Token, var: Token, *rest: Any) -> A.Aggregate:
        # rest: IN window [WHERE pred] RPAR
        window: int | None = rest[1]
        pred: A.Expr = rest[3] if len(rest) == 5 else A.TRUE
        if fn.value not in A.FOLDS:
            raise BuildError(
                "syntax",
                f"'{fn.value}(... for x in ...)' is not a function of the language: only "
                "sum, min and max run over a window, as in sum(x.rank for x in line)",
                _pos(fn),
            )
        return _checked(A.Aggregate(fn.value, var.value, window, pred, _pos(fn), value=value))

    def whole_line(self, _tok: Token) -> None:
        return None

    def last_n(self, _tok: Token, n: Token) -> int:
        if len(n.value) > MAX_DIGITS:
            raise BuildError("syntax", f"the number {n.value[:12]}... is too long", _pos(n))
        value = int(n.value)
        if value < 1:
            raise BuildError("type", "the window 'last N' needs a positive N, such as last 3", _pos(n))
        return value

    def set_lit(self, *items: Any) -> tuple[A.Item, ...]:
        return tuple(i for i in items if not isinstance(i, Token))

    def list_lit(self, lsqb: Token, *items: Any) -> A.ListLit:
        return _checked(A.ListLit(tuple(i for i in items if not isinstance(i, Token)), _pos(lsqb)))

    def item(self, value: A.Expr) -> A.Const:
        return _constant(value)

    def range_item(self, lo: A.Expr, tok: Token, hi: A.Expr) -> A.Range:
        lo_c, hi_c = _constant(lo), _constant(hi)
        for end in (lo_c, hi_c):
            if end.type is not A.Type.INT:
                raise BuildError(
                    "type", f"a range lo..hi runs over integers, but {end.spelling} is a {end.type}", end.pos
                )
        if lo_c.value > hi_c.value:  # type: ignore[operator]
            raise BuildError(
                "type",
                f"the range {lo_c.spelling}..{hi_c.spelling} is empty (lo must not exceed hi)",
                _pos(tok),
            )
        return A.Range(lo_c, hi_c, _pos(tok))


def _constant(value: A.Expr) -> A.Const:
    if isinstance(value, A.Const):
        return value
    raise BuildError(
        "type",
        f"the items of a set or list must be constants (numbers, ranks, suits, colours, true, false); "
        f"'{A.unparse(value)}' is not",
        A.start_pos(value),
    )


def _property(tok: Token) -> str:
    # Unknown property names are kept as written; the type checker lists the known ones.
    name = str(tok.value)
    return PROPERTY_ALIASES.get(name, name)


# -- loading grammars ------------------------------------------------------------------


class _GrammarLoader:
    """lark import loader: ``%import expr (...)`` finds ``grammars/expr.lark`` in the
    installed package, or at the repository root in a source checkout."""

    def __call__(self, base_path: object, grammar_path: str) -> tuple[str, str]:
        name = Path(grammar_path).name
        packaged = importlib.resources.files("cardrules").joinpath("grammars").joinpath(name)
        path = (
            str(packaged)
            if packaged.is_file()
            else str(Path(__file__).resolve().parents[3] / "grammars" / name)
        )
        try:
            return path, str(grammar_text(name))
        except OSError as exc:  # lark tries the next loader on IOError
            raise OSError(str(exc)) from None

    def __repr__(self) -> str:
        return "cardrules-grammars"


_LOADER = _GrammarLoader()


#: The keywords of the expression language and their terminals in ``expr.lark``.
KEYWORDS: dict[str, str] = {
    "if": "IF", "then": "THEN", "elif": "ELIF", "else": "ELSE", "or": "OR", "and": "AND",
    "not": "NOT", "in": "IN", "is": "IS", "where": "WHERE", "line": "LINE", "last": "LAST",
    "count": "COUNT", "any": "ANY", "all": "ALL", "for": "FOR",
}  # fmt: skip


def keyword_callbacks(
    namespace: str = "expr", extra: dict[str, str] | None = None
) -> dict[str, Callable[[Token], Token]]:
    """lark ``lexer_callbacks`` that make keywords reserved everywhere.

    The contextual lexer only tries the terminals the parser can accept next, so where
    only a name fits it would read ``or`` as a name.  This callback turns a ``NAME``
    token that spells a keyword back into the keyword, so the parser reports "unexpected
    'or'" with what was expected there.  ``extra`` maps more words to terminal names (a
    grammar's own keywords, already namespaced as that grammar sees them).
    """
    prefix = f"{namespace}__" if namespace else ""
    table = {word: prefix + name for word, name in KEYWORDS.items()}
    table.update(extra or {})

    def retype(tok: Token) -> Token:
        kind = table.get(tok.value)
        return tok if kind is None else Token.new_borrow_pos(kind, tok.value, tok)

    return {prefix + "NAME": retype}


def load_parser(
    grammar: str,
    transformer: Transformer[Token, Any],
    *,
    start: str | list[str] = "start",
    lexer_callbacks: dict[str, Callable[[Token], Token]] | None = None,
) -> Lark:
    """An LALR parser for ``grammars/<grammar>`` whose ``parse`` returns what
    ``transformer`` builds (pass ``merge_transformers(Mine(), expr=ExprBuilder())`` for a
    grammar that imports ``expr``).  Builds the parser in memory (no cache file is
    written: keep the result, as the languages do, once per process).
    ``lexer_callbacks`` defaults to :func:`keyword_callbacks` (keywords reserved inside
    expressions)."""
    return Lark(
        grammar_text(grammar),
        parser="lalr",
        lexer="contextual",
        transformer=transformer,
        import_paths=[_LOADER],
        source_path=grammar,
        start=start,
        cache=False,
        maybe_placeholders=False,
        lexer_callbacks=keyword_callbacks() if lexer_callbacks is None else lexer_callbacks,
    )


def _merge(base: Transformer[Token, Any], **namespaced: Transformer[Token, Any]) -> Transformer[Token, Any]:
    merged = merge_transformers(base, **namespaced)  # type: ignore[no-untyped-call]
    return cast("Transformer[Token, Any]", merged)


def build_expr(tree: Tree[Token], text: str = "", *, namespace: str = "expr") -> A.Expr:
    """The AST of an expression subtree of a parse tree built by lark without a
    transformer (rule names prefixed ``namespace__``).  Raises :class:`BuildError`."""
    builder = _merge(Transformer(), **{namespace: ExprBuilder()})
    return cast("A.Expr", builder.transform(tree))


# -- the Eleusis rule grammar ----------------------------------------------------------


@v_args(inline=True)
class _RuleBuilder(Transformer[Token, Any]):
    def bare_rule(self, expr: A.Expr) -> list[tuple[str | None, A.Pos, A.Expr | None, A.Expr]]:
        return [(None, A.NOPOS, None, expr)]

    def named_rules(self, *rules: Any) -> list[Any]:
        return list(rules)

    def named_rule(self, tok: Token, name: Token, _c: Token, body: tuple[A.Expr | None, A.Expr]) -> Any:
        return (name.value[1:-1], _pos(tok), body[0], body[1])

    def plain_body(self, expr: A.Expr) -> tuple[None, A.Expr]:
        return (None, expr)

    def play_body(self, _p: Token, _c: Token, expr: A.Expr) -> tuple[None, A.Expr]:
        return (None, expr)

    def start_play_body(
        self, _s: Token, _c: Token, start: A.Expr, _p: Token, _c2: Token, play: A.Expr
    ) -> Any:
        return (start, play)


@functools.cache
def _rule_parser() -> Lark:
    return load_parser("eleusis.lark", _merge(_RuleBuilder(), expr=ExprBuilder()))


def _raise_build(exc: BuildError, text: str) -> NoReturn:
    cls: type[SourceError] = RuleTypeError if exc.kind == "type" else RuleSyntaxError
    raise cls(exc.message, text, exc.pos.line, exc.pos.column) from None


def parse_rule_text(text: str) -> list[tuple[str | None, A.Pos, A.Expr | None, A.Expr]]:
    """Parse Eleusis rule text: a list of ``(name, place, start, play)``; ``name`` is
    ``None`` for a bare expression, ``start`` ``None`` without a ``start:`` part.
    Raises :class:`RuleSyntaxError` / :class:`RuleTypeError`."""
    if not isinstance(text, str):
        raise RuleSyntaxError(f"rule text must be a string, not {type(text).__name__}", "")
    if len(text) > MAX_TEXT:
        raise RuleSyntaxError(f"the text is too long ({len(text)} characters; at most {MAX_TEXT})", text)
    check_nesting(text, RuleSyntaxError)
    try:
        result = cast("list[Any]", _rule_parser().parse(text))
    except BuildError as exc:
        _raise_build(exc, text)
    except UnexpectedInput as exc:
        raise source_error(exc, text, RuleSyntaxError) from None
    return result


_PREFIX_RUN = re.compile(rf"(?:(?<![A-Za-z0-9_])(?:not|if)(?![A-Za-z0-9_])\s*|-\s*){{{MAX_DEPTH + 1}}}")
_COMMENT_OR_STRING = re.compile(r'"[^"\n]*"|#[^\n]*')
_BRACKETS = re.compile(r'"[^"\n]*"|#[^\n]*|[(\[{]|[)\]}]')


def check_nesting(text: str, cls: type[SourceError]) -> None:
    """Refuse text whose brackets nest deeper than :data:`MAX_DEPTH` (before parsing:
    no real rule comes near, and pathological text is turned away at once)."""
    depth = 0
    for m in _BRACKETS.finditer(text):
        ch = m.group()
        if ch in "([{":
            depth += 1
            if depth > MAX_DEPTH:
                offset = m.start()
                line = text.count("\n", 0, offset) + 1
                column = offset - (text.rfind("\n", 0, offset) + 1) + 1
                message = f"brackets nested too deeply (more than {MAX_DEPTH} levels)"
                raise cls(message, text, line, column)
        elif ch in ")]}":
            depth = max(0, depth - 1)
    # Prefix operators nest too ("not not not ..."); a long run of them is turned away
    # before the parser shifts every one.
    run = _PREFIX_RUN.search(_COMMENT_OR_STRING.sub(lambda c: " " * len(c.group()), text))
    if run is not None:
        offset = run.start()
        line = text.count("\n", 0, offset) + 1
        column = offset - (text.rfind("\n", 0, offset) + 1) + 1
        raise cls(f"operators nested too deeply (more than {MAX_DEPTH} in a row)", text, line, column)


def parse_expression(text: str) -> A.Expr:
    """The AST of one expression (a bare rule text).  Raises :class:`RuleSyntaxError`."""
    rules = parse_rule_text(text)
    if len(rules) != 1 or rules[0][0] is not None:
        raise RuleSyntaxError("expected one expression, not named rules", text)
    return rules[0][3]


# -- error messages --------------------------------------------------------------------

_WORDS: dict[str, str] = {
    "IF": "'if'", "THEN": "'then'", "ELIF": "'elif'", "ELSE": "'else'", "OR": "'or'",
    "AND": "'and'", "NOT": "'not'", "IN": "'in'", "IS": "'is'", "WHERE": "'where'",
    "LINE": "'line'", "LAST": "'last'", "COUNT": "'count'", "ANY": "'any'", "ALL": "'all'", "FOR": "'for'",
    "COMPARE": "a comparison (== != < <= > >=)", "PLUS": "'+'", "MINUS": "'-'", "STAR": "'*'",
    "FLOORDIV": "'//'", "PERCENT": "'%'", "DOTDOT": "'..'", "DOT": "'.'", "COMMA": "','",
    "LPAR": "'('", "RPAR": "')'", "LSQB": "'['", "RSQB": "']'", "LBRACE": "'{'", "RBRACE": "'}'",
    "SUIT_SYMBOL": "a suit symbol", "NAME": "a name", "INT": "a number", "RULE": "'rule'",
    "START": "'start:'", "PLAY": "'play:'", "COLON": "':'", "STRING": 'a name in double quotes',
    "$END": "the end of the text",
}  # fmt: skip
_OPERATORS = {
    "COMPARE",
    "PLUS",
    "MINUS",
    "STAR",
    "FLOORDIV",
    "PERCENT",
    "AND",
    "OR",
    "IN",
    "IS",
    "NOT",
    "DOT",
    "LSQB",
}
_VALUE_STARTS = {"INT", "NAME", "LPAR"}
#: Operators named as examples in "expected an operator such as ...", most common first.
_OPERATOR_EXAMPLES = (
    ("COMPARE", "=="), ("AND", "and"), ("OR", "or"), ("PLUS", "+"), ("MINUS", "-"),
    ("STAR", "*"), ("PERCENT", "%"), ("IN", "in"), ("IS", "is"), ("DOT", "."),
)  # fmt: skip


def _short(name: str) -> str:
    return name.rsplit("__", 1)[-1] if "__" in name and not name.startswith("__") else name


def describe_expected(
    names: Iterable[str], before: str = "", extra_words: dict[str, str] | None = None
) -> str:
    """Plain words for a set of expected lark terminal names (namespaces stripped), e.g.
    ``"a card property such as red, odd or face after 'is'"``; ``before`` is the text of
    the token just before the error, if known; ``extra_words`` adds words for a caller's
    own terminals."""
    words = {**_WORDS, **(extra_words or {})}
    expected = {_short(n) for n in names}
    if "NAME" in expected and before in ("is", "not") and "INT" not in expected:
        return f"a card property such as red, odd or face after '{before if before == 'is' else 'is not'}'"
    if expected == {"NAME"} and before == ".":
        return "an attribute (rank, suit or color) after '.'"
    if expected == {"NAME"} and before == "(":
        return "a name for the card, as in count(x in line where x is red)"
    if expected == {"IN"}:
        return "'in' and a window after the card's name, as in x in line or x in last 3"
    if expected == {"NAME"} and before == "for":
        return "a name for the card after 'for', as in sum(x.rank for x in line)"
    if expected == {"LBRACE"}:
        return f"a set such as {{2, 3, 5}} after '{before or 'in'}'"
    if expected <= {"LINE", "LAST"} and expected:
        return "'line' or 'last N' after 'in', as in count(x in last 3 where x is red)"
    if expected == {"STRING"}:
        return "the rule's name in double quotes after 'rule', as in rule \"alternate colours\":"
    if expected >= _VALUE_STARTS:
        after = f" after '{before}'" if before else ""
        return f"a value such as card.rank, 7, spades or an expression in parentheses{after}"
    others = sorted(e for e in expected if e not in _OPERATORS)
    parts = [words.get(e, e.lower()) for e in others]
    if expected & _OPERATORS:
        shown = [symbol for name, symbol in _OPERATOR_EXAMPLES if name in expected][:4]
        parts.append("an operator such as " + ", ".join(shown) if shown else "an operator")
    if not parts:
        return "something else"
    return " or ".join(parts[:6])


_TAIL = re.compile(r"(\.\.|[=!<>]=|//|[A-Za-z_][A-Za-z0-9_]*|\d+|\S)\s*$")


def _token_before(text: str, offset: int) -> str:
    head = re.sub(r"#[^\n]*", "", text[:offset])
    m = _TAIL.search(head)
    return m.group(1) if m else ""


def _offset(text: str, line: int, column: int) -> int:
    lines = text.split("\n")
    return sum(len(x) + 1 for x in lines[: line - 1]) + column - 1


def source_error(
    exc: UnexpectedInput,
    text: str,
    cls: type[SourceError],
    extra_words: dict[str, str] | None = None,
) -> SourceError:
    """A :class:`SourceError` of class ``cls`` for a lark parse error in ``text``."""
    if isinstance(exc, UnexpectedToken):
        tok = exc.token
        if tok.type == "$END":
            line = tok.end_line if tok.end_line is not None else 1
            column = tok.end_column if tok.end_column is not None else 1
            if not text.strip() or tok.line is None:
                line, column = _end_of_text(text)
            what = "unexpected end of text"
        else:
            line, column = tok.line or 1, tok.column or 1
            shown = tok.value if len(tok.value) <= 20 else tok.value[:20] + "..."
            what = f"unexpected {shown!r}"
        before = _token_before(text, _offset(text, line, column))
        accepted = _accepted(exc)
        expected = describe_expected(accepted, before, extra_words)
        if _short(tok.type) == "COMPARE" and "COMPARE" not in {_short(n) for n in accepted}:
            what += " (comparisons do not chain: write a < b and b < c)"
        return cls(f"{what}: expected {expected}", text, line, column)
    if isinstance(exc, UnexpectedCharacters):
        line, column = exc.line or 1, exc.column or 1
        offset = _offset(text, line, column)
        char = text[offset] if 0 <= offset < len(text) else "?"
        hint = (
            ": use == to compare"
            if char == "="
            else (": rule names go in double quotes" if char == "'" else " (not part of the rule language)")
        )
        return cls(f"unexpected character {char!r}{hint}", text, line, column)
    line = getattr(exc, "line", 1) or 1
    column = getattr(exc, "column", 1) or 1
    return cls(f"unexpected text: {exc.__class__.__name__}", text, line, column)


def _accepted(exc: UnexpectedToken) -> set[str]:
    """The terminals the parser would have accepted where it failed (lark's own
    ``accepts`` skips namespaced terminals such as ``expr__NAME``)."""
    ip = getattr(exc, "interactive_parser", None)
    if ip is None:
        return set(exc.expected)
    conf = copy.copy(ip.parser_state.parse_conf)
    conf.callbacks = {}
    accepted = set()
    for choice in ip.choices():
        if not isinstance(choice, str) or not _short(choice).isupper():
            continue
        cursor = ip.copy(deepcopy_values=False)
        cursor.parser_state.parse_conf = conf
        try:
            cursor.feed_token(Token(choice, ""))
        except (UnexpectedInput, KeyError, IndexError, TypeError):
            continue
        accepted.add(choice)
    return accepted


def _end_of_text(text: str) -> tuple[int, int]:
    stripped = re.sub(r"#[^\n]*", lambda m: " " * len(m.group()), text).rstrip()
    if not stripped:
        return 1, 1
    lines = stripped.split("\n")
    return len(lines), len(lines[-1]) + 1

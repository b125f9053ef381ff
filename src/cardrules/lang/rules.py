"""Eleusis secret rules: compile rule text into :class:`Rule` objects that judge cards.

>>> rule = compile_rule("card.color != prev.color")
>>> from cardrules import parse_card, parse_cards
>>> rule.accepts(parse_cards("5H 7C"), parse_card("4D"))
True
>>> rule.accepts(parse_cards("5H 7C"), parse_card("QS"))
False
>>> [str(c) for c in rule.allowed(parse_cards("5H"))][:3]
['AS', '2S', '3S']

A rule text is a bare boolean expression or one or more named rules
(``rule "name": ...``, with optional ``start:`` and ``play:`` parts); see the language
reference.  The public names are re-exported by :mod:`cardrules.eleusis`.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable, Sequence
from typing import Any, TypeVar

import attrs

from ..cards import Card, canonical, standard_deck
from ..errors import CardRulesError, InvalidCardError
from ..serialize import register_codec
from . import ast as A
from .check import Checked, Env, Variable, check
from .codegen import CodeGen, build_function
from .errors import RuleSyntaxError, RuleTypeError, depth_guard
from .explain import explain as _explain
from .parser import parse_rule_text
from .vocabulary import STANDARD, Vocabulary, VocabularyError

__all__ = [
    "LINE_COST",
    "MAX_COST",
    "Rule",
    "RuleSyntaxError",
    "RuleTypeError",
    "check_cost",
    "compile_registered",
    "compile_registered_rules",
    "compile_rule",
    "compile_rules",
]

#: In the cost estimate of a rule, a window over the whole main line counts as this many
#: cards (``last N`` as ``N``, at most this).
LINE_COST = 100
#: The largest estimated cost of judging one card that a rule may have: room for three
#: windows over the whole line nested in one another (and a short ``last N`` window
#: around them), not four.
MAX_COST = 10_000_000

Line = Sequence[Card]

_PREV_NAME = re.compile(r"prev([1-9]?)\Z")
_COMMENT = re.compile(r"#[^\n]*")
_DEFAULT_DECK: tuple[Card, ...] = canonical(set(standard_deck()))


def _analyse(tree: A.Expr) -> tuple[dict[str, int], int, bool]:
    """One walk: how often each name is read (a read inside an aggregate's loop counts
    as many), the depth, and whether ``has`` appears."""
    counts: dict[str, int] = {}
    has = False
    stack: list[tuple[A.Expr | A.Range, bool]] = [(tree, False)]
    while stack:
        node, in_loop = stack.pop()
        if isinstance(node, A.Name):
            counts[node.name] = counts.get(node.name, 0) + (2 if in_loop else 1)
        elif isinstance(node, A.Call) and node.func == "has":
            has = True
        inner = in_loop or isinstance(node, A.Aggregate)
        stack.extend((child, inner) for child in A.children(node))
    depth = max((n for n in map(prev_number, counts) if n is not None), default=0)
    return counts, depth, has


def _play_env(has: bool, uses: dict[str, int], vocabulary: Vocabulary = STANDARD) -> Env:
    """The variables of a play rule.  A ``prevN`` or ``position`` read once (outside any
    loop) is read in place (``line[-2]``); otherwise it is bound once to a local."""
    variables = {"card": Variable(A.Type.CARD, "card")}
    for n in range(1, 10):
        name = "prev" if n == 1 else f"prev{n}"
        inline = not has and uses.get(name, 0) == 1
        variables[name] = Variable(A.Type.CARD, f"line[-{n}]" if inline else f"_p{n}", has)
    inline_pos = uses.get("position", 0) == 1
    variables["position"] = Variable(A.Type.INT, "(len(line) + 1)" if inline_pos else "_pos")
    return Env(variables, line="line", length="_n", vocabulary=vocabulary)


_START_ENV = Env(
    {"card": Variable(A.Type.CARD, "card"), "position": Variable(A.Type.INT, "1")},
    where="in a start: part (there is no main line before the starter)",
)


def prev_number(name: str) -> int | None:
    """``N`` for ``prevN`` (1 for ``prev``), else ``None``."""
    m = _PREV_NAME.match(name)
    if m is None:
        return None
    return int(m.group(1) or "1")


def depth_of(tree: A.Expr) -> int:
    """The rule's depth: the largest ``N`` such that ``prevN`` appears (``prev`` is 1),
    inside aggregates too; 0 when no ``prevN`` appears."""
    depth = 0
    for node in A.walk(tree):
        if isinstance(node, A.Name):
            n = prev_number(node.name)
            if n is not None:
                depth = max(depth, n)
    return depth


def uses_has(tree: A.Expr) -> bool:
    """Whether ``has(...)`` appears anywhere in the tree."""
    return any(isinstance(n, A.Call) and n.func == "has" for n in A.walk(tree))


def _window_size(node: object) -> int | None:
    """The estimated number of cards a window node runs over (``None``: not a window)."""
    if not isinstance(node, A.Aggregate):
        return None
    return LINE_COST if node.last is None else min(node.last, LINE_COST)


def check_cost(tree: A.Expr, text: str) -> None:
    """Refuse, with a :class:`RuleTypeError`, a rule whose estimated cost of judging
    one card exceeds :data:`MAX_COST`.

    The estimate is the number of times the conditions of windows (``count``, ``any``,
    ``all``...) are evaluated: for every window, the product of its size and the sizes
    of the windows around it, a window over the whole line counting as
    :data:`LINE_COST` cards and ``last N`` as ``N`` (at most :data:`LINE_COST`).  The
    loops of nested windows multiply, so the limit is reached by nesting, not by length:
    three windows over the whole line nested in one another are accepted, four are not.
    """
    total = 0
    worst: tuple[int, A.Pos, int] = (0, A.NOPOS, 0)  # (cost, place, nesting)
    stack: list[tuple[A.Expr | A.Range, int, int]] = [(tree, 1, 0)]
    while stack:
        node, outer, nesting = stack.pop()
        size = _window_size(node)
        if size is not None:
            outer *= size
            nesting += 1
            total += outer
            if outer > worst[0]:
                worst = (outer, node.pos, nesting)
        stack.extend((child, outer, nesting) for child in A.children(node))
    if total > MAX_COST:
        _, pos, nesting = worst
        raise RuleTypeError(
            f"this rule would cost too much to judge: its windows (count, any, all ...) nest "
            f"{nesting} deep here, about {total:,} steps per card judged, counting a whole line "
            f"as {LINE_COST} cards; at most {MAX_COST:,} are allowed (three windows over the "
            "whole line nested in one another, not four): nest fewer windows, or use 'last N'",
            text,
            pos.line,
            pos.column,
        )


def _compile_play(
    tree: A.Expr, text: str, vocabulary: Vocabulary
) -> tuple[Callable[[Line, Card], bool], Checked, str, int, bool]:
    uses, depth, has = _analyse(tree)
    env = _play_env(has, uses, vocabulary)
    checked = check(tree, env, text)
    check_cost(tree, text)
    body: list[str] = []
    if has:
        body.append("_n = len(line)")
    elif depth == 1:
        body += ["if not line:", "    return True"]
    elif depth:
        body += [f"if len(line) < {depth}:", "    return True"]
    for n in range(1, 10):
        var = env.variables["prev" if n == 1 else f"prev{n}"]
        if var.code.startswith("_p") and uses.get("prev" if n == 1 else f"prev{n}"):
            body.append(f"_p{n} = line[-{n}] if _n >= {n} else None" if has else f"_p{n} = line[-{n}]")
    if env.variables["position"].code == "_pos" and "position" in uses:
        body.append("_pos = _n + 1" if has else "_pos = len(line) + 1")
    gen = CodeGen(checked)
    gen.hoist_common(tree)
    value = gen.cond(tree)
    body.extend(gen.statements)
    body.append(f"return {value}")
    try:
        fn, source = build_function("accepts", ("line", "card"), _guarded(body), _with_guard(gen.globals))
    except CardRulesError as exc:
        raise RuleSyntaxError(str(exc), text) from None
    return fn, checked, source, depth, has


def _guarded(body: list[str], line: str = "line") -> list[str]:
    """``body`` inside a ``try`` whose ``except`` turns what only non-cards can cause
    into a clear error (the code is total for cards; ``try`` costs nothing in 3.11)."""
    return [
        "try:",
        *(f"    {line}" for line in body),
        "except _INPUT_ERRORS as _exc:",
        f"    raise _not_cards(_exc, card, {line}) from None",
    ]


def _with_guard(namespace: dict[str, object]) -> dict[str, object]:
    return {
        **namespace,
        "_INPUT_ERRORS": (AttributeError, TypeError, IndexError, KeyError),
        "_not_cards": _not_cards,
    }


def _not_cards(exc: BaseException, card: object, line: object) -> BaseException:
    """The error for a rule given something that is not cards; the original exception
    if everything was a card (a fault of cardrules, not of the caller)."""
    if type(card) is not Card:
        return InvalidCardError(f"a rule judges a Card, not {card!r}")
    if not isinstance(line, Sequence) or isinstance(line, str):
        return InvalidCardError(
            "a rule judges a main line of cards (a sequence such as a list or tuple, starter "
            f"first), not {type(line).__name__} {_short_repr(line)}"
        )
    items = list(line)
    for c in items:
        if type(c) is not Card:
            return InvalidCardError(f"a main line holds cards: {c!r} is not a Card")
    return exc  # pragma: no cover - the generated code raising for cards would be a bug


def _short_repr(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _compile_start(tree: A.Expr, text: str, vocabulary: Vocabulary) -> Callable[[Card], bool]:
    env = _START_ENV if vocabulary is STANDARD else attrs.evolve(_START_ENV, vocabulary=vocabulary)
    checked = check(tree, env, text)
    gen = CodeGen(checked)
    gen.hoist_common(tree)
    value = gen.cond(tree)
    try:
        body = _guarded([*gen.statements, f"return {value}"], line="()")
        fn, _ = build_function("accepts_start", ("card",), body, _with_guard(gen.globals))
    except CardRulesError as exc:
        raise RuleSyntaxError(str(exc), text) from None
    return fn


def _accept_any_start(card: Card) -> bool:
    return True


def _check_name(name: str) -> str:
    if not isinstance(name, str) or '"' in name or "\n" in name:
        raise RuleSyntaxError(f"a rule name is text without double quotes or newlines, not {name!r}", "")
    return name


class Rule:
    """A compiled Eleusis rule.

    Made by :func:`compile_rule` or :func:`compile_rules`; immutable.  Two rules are
    equal when their names and normalised texts (``str(rule)``) are equal; a rule
    pickles and serialises (JSON) as its name and source text.

    Attributes:

    * :attr:`name`: the rule's name (``None`` for an unnamed bare expression);
    * :attr:`source`: the text it was compiled from;
    * :attr:`tree`: the checked expression of the rule (the ``play:`` part), a
      :mod:`cardrules.lang.ast` tree; :attr:`start_tree` the ``start:`` part or ``None``;
    * :attr:`depth`: the largest ``N`` of a ``prevN`` in the rule (0 if none);
    * :attr:`uses_has`: whether the rule uses ``has(...)`` (then it is exempt from the
      depth rule and a missing ``prevN`` is *nothing*);
    * :attr:`code`: the Python source generated for :meth:`accepts` (for the curious);
    * :attr:`vocabulary`: the :class:`~cardrules.lang.Vocabulary` it was compiled with
      (its words; a rule of a vocabulary other than the standard one is written to JSON
      and pickled with the vocabulary's name, and read back where that name is
      registered).
    """

    __slots__ = (
        "_start",
        "_text",
        "accepts",
        "code",
        "depth",
        "name",
        "source",
        "start_tree",
        "tree",
        "uses_has",
        "vocabulary",
    )

    name: str | None
    source: str
    tree: A.Expr
    start_tree: A.Expr | None
    depth: int
    uses_has: bool
    code: str
    vocabulary: Vocabulary
    #: ``accepts(line, card) -> bool``: whether ``card`` may extend the main line
    #: ``line`` (a list or tuple of cards, starter first).  Never raises for any cards.  While
    #: the line has fewer cards than the rule's :attr:`depth`, every card is accepted
    #: (unless the rule uses ``has``).  This is the generated function itself, so a call
    #: costs no more than a hand-written predicate.
    accepts: Callable[[Line, Card], bool]
    _start: Callable[[Card], bool]
    _text: str

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        raise TypeError("use compile_rule(text) to make a Rule")

    @classmethod
    def _make(
        cls,
        name: str | None,
        source: str,
        start: A.Expr | None,
        play: A.Expr,
        text: str,
        vocabulary: Vocabulary = STANDARD,
    ) -> Rule:
        # ``text`` is the text the trees were parsed from (their positions refer to it).
        self = object.__new__(cls)
        fn, checked, code, depth, has = _compile_play(play, text, vocabulary)
        setattr_ = object.__setattr__
        setattr_(self, "name", name)
        setattr_(self, "source", source)
        setattr_(self, "tree", checked.tree)
        setattr_(self, "start_tree", start)
        setattr_(self, "depth", depth)
        setattr_(self, "uses_has", has)
        setattr_(self, "code", code)
        setattr_(self, "accepts", fn)
        setattr_(self, "vocabulary", vocabulary)
        setattr_(
            self, "_start", _accept_any_start if start is None else _compile_start(start, text, vocabulary)
        )
        setattr_(self, "_text", _normalised(name, start, play))
        return self

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Rule is immutable")

    def accepts_start(self, card: Card) -> bool:
        """Whether ``card`` may be the starter: the rule's ``start:`` part (``True``
        for every card without one)."""
        return self._start(card)

    def accepts_string(self, line: Line, cards: Iterable[Card]) -> bool:
        """Whether a string of cards played at once is right: each card is judged in
        turn, extending the line; true iff all are accepted (and for no cards)."""
        current = list(line)
        fn = self.accepts
        for card in cards:
            if not fn(current, card):
                return False
            current.append(card)
        return True

    def allowed(self, line: Line, deck: Iterable[Card] | None = None) -> tuple[Card, ...]:
        """The distinct cards of ``deck`` (default: one 52-card deck) that the rule
        accepts next, in canonical order.  Costs at most one :meth:`accepts` per
        distinct card."""
        if deck is None:
            cards = _DEFAULT_DECK
        else:
            distinct = set(deck)
            for c in distinct:
                if type(c) is not Card:
                    raise InvalidCardError(f"a deck holds cards: {c!r} is not a Card")
            cards = canonical(distinct)
        fn = self.accepts
        seq = line if isinstance(line, (list, tuple)) else tuple(line)
        return tuple([c for c in cards if fn(seq, c)])

    @depth_guard(CardRulesError)
    def explain(self, line: Line, card: Card) -> str:
        """A short sentence saying which part of the rule decided, e.g. ``"prev 7H is
        odd, so card is black must hold: 4D is not black, so 4D is wrong"``."""
        return _explain(self, list(line), card)

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        return f"<Rule {self._text!r}>"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Rule):
            return NotImplemented
        return self.name == other.name and self._text == other._text and self.vocabulary == other.vocabulary

    def __hash__(self) -> int:
        return hash((self.name, self._text))

    def __reduce__(self) -> tuple[Any, ...]:
        if self.vocabulary is STANDARD:
            return (_load, (self.source, self.name))
        return (_load, (self.source, self.name, self.vocabulary.name))


def _load(source: str, name: str | None, vocabulary: str | None = None) -> Rule:
    if vocabulary is None:
        return compile_rule(source, name=name)
    return compile_rule(source, name=name, vocabulary=Vocabulary.registered(vocabulary))


def _normalised(name: str | None, start: A.Expr | None, play: A.Expr) -> str:
    if name is None and start is None:
        return A.unparse(play)
    head = f'rule "{name or ""}":'
    if start is None:
        return f"{head}\n    {A.unparse(play)}"
    return f"{head}\n    start: {A.unparse(start)}\n    play: {A.unparse(play)}"


@depth_guard(RuleSyntaxError)
def compile_rule(text: str, *, name: str | None = None, vocabulary: Vocabulary | None = None) -> Rule:
    """Compile one rule: a bare boolean expression, or a single named rule
    (``name=`` overrides the text's name), in the words of ``vocabulary`` (default:
    :meth:`Vocabulary.standard() <cardrules.lang.Vocabulary.standard>`).

    Raises :class:`RuleSyntaxError` or :class:`RuleTypeError` (with line, column, the
    source line and a caret).  Rules are immutable, so compiling the same text twice
    may return the same object (a small cache serves programs that rebuild rules from
    their text, such as JSON replays).
    """
    vocab = _vocabulary(vocabulary)
    if isinstance(text, str) and len(text) <= 4096 and (name is None or isinstance(name, str)):
        return _compile_cached(text, name, vocab)
    return _compile_rule(text, name, vocab)


def _vocabulary(vocabulary: object) -> Vocabulary:
    if vocabulary is None:
        return STANDARD
    if not isinstance(vocabulary, Vocabulary):
        raise VocabularyError(
            f"vocabulary= takes a cardrules.lang.Vocabulary, not {type(vocabulary).__name__}"
        )
    vocabulary.remember()  # its rules read back from JSON in this program find it
    return vocabulary


@functools.lru_cache(maxsize=256)
def _compile_cached(text: str, name: str | None, vocabulary: Vocabulary) -> Rule:
    return _compile_rule(text, name, vocabulary)


def _compile_rule(text: str, name: str | None, vocabulary: Vocabulary = STANDARD) -> Rule:
    if name is not None:
        _check_name(name)
    parts = parse_rule_text(text)
    if len(parts) != 1:
        pos = parts[1][1]
        raise RuleSyntaxError(
            "compile_rule takes one rule; use compile_rules for a file of named rules",
            text,
            pos.line,
            pos.column,
        )
    rule_name, _, start, play = parts[0]
    return Rule._make(name if name is not None else rule_name, text, start, play, text, vocabulary)


@depth_guard(RuleSyntaxError)
def compile_rules(text: str, *, vocabulary: Vocabulary | None = None) -> dict[str, Rule]:
    """Compile a file of named rules: ``{name: Rule}`` in the file's order.  A bare
    expression, or two rules with one name, is an error; a text with nothing but
    comments and spaces holds no rules (``{}``).  ``vocabulary`` as in
    :func:`compile_rule`."""
    vocab = _vocabulary(vocabulary)
    if isinstance(text, str) and not _COMMENT.sub("", text).strip():
        return {}
    parts = parse_rule_text(text)
    if parts and parts[0][0] is None:
        raise RuleSyntaxError(
            'a rules file holds named rules, such as: rule "alternate colours": card.color != prev.color',
            text,
        )
    out: dict[str, Rule] = {}
    offsets = [_offset(text, p[1]) for p in parts] + [len(text)]
    for i, (rule_name, pos, start, play) in enumerate(parts):
        assert rule_name is not None
        if rule_name in out:
            raise RuleSyntaxError(f'a second rule named "{rule_name}"', text, pos.line, pos.column)
        source = text[offsets[i] : offsets[i + 1]].rstrip()
        out[rule_name] = Rule._make(rule_name, source, start, play, text, vocab)
    return out


def _offset(text: str, pos: A.Pos) -> int:
    lines = text.split("\n")
    return sum(len(x) + 1 for x in lines[: pos.line - 1]) + pos.column - 1


def _decode(data: Any) -> Rule:
    if isinstance(data, str):
        return compile_rule(data)
    if not isinstance(data, dict) or not isinstance(data.get("source"), str):
        raise CardRulesError(f"a rule is stored as {{'name': ..., 'source': ...}}, not {data!r}")
    name = data.get("name")
    if name is not None and not isinstance(name, str):
        raise CardRulesError(f"a rule's name is a string or null, not {name!r}")
    vocabulary = data.get("vocabulary")
    if vocabulary is None:
        return compile_rule(data["source"], name=name)
    if not isinstance(vocabulary, str):
        raise CardRulesError(f"a rule's vocabulary is the name of one, not {vocabulary!r}")
    return compile_rule(data["source"], name=name, vocabulary=Vocabulary.registered(vocabulary))


def _encode(rule: Rule) -> dict[str, object]:
    """``{"name", "source"}``, and ``"vocabulary"`` (its name) for a rule compiled with
    words of a program's own."""
    data: dict[str, object] = {"name": rule.name, "source": rule.source}
    if rule.vocabulary is not STANDARD:
        data["vocabulary"] = rule.vocabulary.name
    return data


register_codec(Rule, _encode, _decode)


def compile_registered(text: str, *, name: str | None = None) -> Rule:
    """Compile one rule in the standard words, or else in the words of a registered
    vocabulary (:meth:`Vocabulary.register`), the most recently registered first: what
    the text entry points (the command line, a table's God typing a rule) do, so that a
    program's own words, registered by the module ``--load`` loads, work there.  The
    error is the standard words' when no vocabulary compiles the text."""
    return _first_vocabulary(lambda v: compile_rule(text, name=name, vocabulary=v))


def compile_registered_rules(text: str) -> dict[str, Rule]:
    """:func:`compile_rules` as :func:`compile_registered` does it."""
    return _first_vocabulary(lambda v: compile_rules(text, vocabulary=v))


_T = TypeVar("_T")


def _first_vocabulary(attempt: Callable[[Vocabulary], _T]) -> _T:
    try:
        return attempt(STANDARD)
    except RuleSyntaxError as first:
        for vocabulary in reversed(Vocabulary.all_registered()):
            if vocabulary is STANDARD:
                continue
            try:
                return attempt(vocabulary)
            except RuleSyntaxError:
                continue
        raise first from None

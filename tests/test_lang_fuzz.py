"""Fuzzing the rule language: grammar-shaped text, mutated text, pathological text,
well-typed random rules checked against the reference interpreter, and the pretty
printer's round trip.
"""

from __future__ import annotations

import contextlib
import logging
import time
from pathlib import Path

import lark
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra.lark import LarkStrategy, from_lark

from cardrules import JOKER, Card, Suit, standard_deck
from cardrules._resources import grammar_text
from cardrules.errors import CardRulesError
from cardrules.lang import RuleSyntaxError, RuleTypeError, compile_rule, compile_rules
from cardrules.lang.explain import judge
from cardrules.lang.parser import _LOADER, KEYWORDS

DECK = standard_deck()
EXAMPLES = sorted((Path(__file__).resolve().parents[1] / "examples" / "rules").glob("*.rule"))
ODD_CARDS = [JOKER, Card(11), Card(13), Card(2, Suit.MOONS), Card(10, Suit.MOONS)]


def _grammar(**options: object) -> lark.Lark:
    return lark.Lark(
        grammar_text("eleusis.lark"),
        parser="lalr",
        import_paths=[_LOADER],
        source_path="eleusis.lark",
        **options,
    )


def compile_any(text: str) -> list[object]:
    """Compile text as a rule or a rules file; only CardRulesError may escape."""
    try:
        return [compile_rule(text)]
    except RuleSyntaxError as exc:
        if "compile_rules" not in exc.message:
            raise
    return list(compile_rules(text).values())


def test_grammar_is_lalr_without_conflicts(caplog: pytest.LogCaptureFixture) -> None:
    # lark resolves shift/reduce conflicts silently unless asked; with debug=True it
    # logs them.  (strict=True would also need the optional interegular package.)
    lark.logger.setLevel(logging.DEBUG)
    try:
        with caplog.at_level(logging.DEBUG, logger="lark"):
            _grammar(debug=True)
    finally:
        lark.logger.setLevel(logging.WARNING)
    assert not [r for r in caplog.records if "onflict" in r.getMessage()]


def test_terminals_are_named() -> None:
    names = {t.name for t in _grammar().terminals}
    assert not [n for n in names if "ANON" in n]


# -- grammar-shaped text ---------------------------------------------------------------

_NAMES = [
    "card", "prev", "prev2", "prev3", "prev9", "position", "x", "y", "red", "black", "odd",
    "face", "number", "spades", "hearts", "A", "K", "jack", "true", "false", "rank", "suit",
    "color", "abs", "min", "max", "next", "has", "ace", "cardd", "prev10", "start", "play",
]  # fmt: skip
_WORDS = {
    # every keyword terminal, spaced so that generated tokens do not run together
    **{f"expr__{name}": st.just(f" {word} ") for word, name in KEYWORDS.items()},
    "expr__NAME": st.sampled_from(_NAMES).map(lambda n: f" {n} "),
    "expr__INT": st.sampled_from(["0", "1", "2", "3", "7", "13", "99", "0003"]).map(lambda n: f" {n} "),
    "RULE": st.just("rule "),
    "START": st.just(" start"),
    "PLAY": st.just(" play"),
    "STRING": st.sampled_from(['"r"', '"s"', '""']),
    "COMMENT": st.just("# c\n"),
    "WS": st.sampled_from([" ", "\n", "  "]),
}


class _BoundedLark(LarkStrategy):  # type: ignore[misc]
    """``from_lark``'s strategy with a depth bound: below ``MAX_DEPTH`` nonterminals it
    draws as usual; deeper, each nonterminal takes the expansion that ends soonest.
    Unbounded, almost every draw of this recursive grammar runs out of data and
    Hypothesis ends up with a handful of examples."""

    MAX_DEPTH = 9

    def __init__(self, base: LarkStrategy) -> None:
        self.__dict__.update(base.__dict__)
        expansions = {k: list(v.elements) for k, v in base.nonterminal_strategies.items()}
        height: dict[str, float] = {}
        changed = True
        while changed:  # fixpoint: how many levels each nonterminal needs to end
            changed = False
            for name, options in expansions.items():
                best = min(
                    1
                    + max(
                        (height.get(sym.name, float("inf")) if not sym.is_term else 0 for sym in opt),
                        default=0,
                    )
                    for opt in options
                )
                if best < height.get(name, float("inf")):
                    height[name], changed = best, True
        self._ending = {
            name: min(
                options,
                key=lambda opt: max(
                    (height.get(sym.name, float("inf")) if not sym.is_term else 0 for sym in opt), default=0
                ),
            )
            for name, options in expansions.items()
        }
        self._depth = 0

    def draw_symbol(self, data: object, symbol: object, draw_state: list[str]) -> None:
        if getattr(symbol, "is_term", True) or self._depth < self.MAX_DEPTH:
            self._depth += 1
            try:
                super().draw_symbol(data, symbol, draw_state)
            finally:
                self._depth -= 1
            return
        for sym in self._ending[symbol.name]:  # type: ignore[attr-defined]
            self.draw_symbol(data, sym, draw_state)
            self.gen_ignore(data, draw_state)

    def do_draw(self, data: object) -> str:
        self._depth = 0
        return str(super().do_draw(data))


def _grammar_text() -> st.SearchStrategy[str]:
    base = from_lark(_grammar(), explicit=_WORDS).wrapped_strategy  # type: ignore[attr-defined]
    assert isinstance(base, LarkStrategy)
    return _BoundedLark(base)


GRAMMAR_TEXT = _grammar_text()


@settings(suppress_health_check=list(HealthCheck), deadline=None)
@given(
    GRAMMAR_TEXT,
    st.lists(st.sampled_from(DECK), max_size=6),
    st.sampled_from(DECK),
)
def test_grammar_shaped_text_compiles_or_fails_cleanly(text: str, line: list[Card], card: Card) -> None:
    try:
        rules = compile_any(text)
    except CardRulesError:
        return
    for rule in rules:
        assert isinstance(rule.accepts(line, card), bool)  # type: ignore[attr-defined]


_SPICE = [
    *list("()[]{}.,:#\"'+-*/%<>=!♠♥ \n"),
    "if ",
    " then ",
    " else ",
    " and ",
    " not ",
    " in ",
    " is ",
    "..",
    "//",
]


@settings(suppress_health_check=list(HealthCheck), deadline=None)
@given(
    st.sampled_from(EXAMPLES),
    st.lists(
        st.tuples(st.integers(0, 10_000), st.integers(0, 2), st.sampled_from(_SPICE)), min_size=1, max_size=4
    ),
)
def test_mutated_text_compiles_or_fails_cleanly(path: Path, edits: list[tuple[int, int, str]]) -> None:
    text = path.read_text(encoding="utf-8")
    for where, kind, piece in edits:
        i = where % (len(text) + 1)
        if kind == 0:
            text = text[:i] + piece + text[i:]
        elif kind == 1:
            text = text[:i] + text[i + 1 :]
        else:
            text = text[:i] + piece + text[i + 1 :]
    try:
        rules = compile_any(text)
    except CardRulesError as exc:
        assert "__ANON" not in str(exc) and "expr__" not in str(exc)
        return
    for rule in rules:
        for card in DECK[::7]:
            assert isinstance(rule.accepts([DECK[3], DECK[20]], card), bool)  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    "text",
    [
        "(" * 10_000 + "card is red" + ")" * 10_000,
        "(" * 10_000,
        ")" * 10_000,
        "card is red or " * 80_000 + "true",  # over a megabyte
        "x" * 1_000_000,
        " + ".join(["card.rank"] * 5_000) + " > 3",
        "not " * 5_000 + "card is red",
        "card.rank == " + "-" * 5_000 + "3",
        "if true then " * 3_000 + "true" + " else false" * 3_000,
        "[" * 5_000 + "1" + "]" * 5_000,
        "{" * 5_000,
        "card.rank == 1" + "0" * 5_000,
        " or ".join(["card is red"] * 6_000),
        "count(x in line where " * 2_000 + "true" + ")" * 2_000 + " > 0",
        "\x00\x01\ufeff",
        'rule "' + "a" * 50_000,
    ],
    ids=lambda t: f"{len(t)} chars: {t[:16]!r}",
)
def test_pathological_text_is_refused_quickly(text: str) -> None:
    start = time.process_time()  # CPU time: a loaded machine does not make it fail
    with contextlib.suppress(CardRulesError):
        compile_any(text)
    assert time.process_time() - start < 3.0


def test_deepest_allowed_nesting_still_compiles() -> None:
    from cardrules.lang.parser import MAX_DEPTH

    # Each kind of nesting right at the limit must produce a working rule.
    n = MAX_DEPTH - 6
    texts = [
        "card.rank" + " + prev.rank" * n + " > 0",
        "not " * n + "card is red",
        "has(prev) and " + "(prev.rank + " * n + "1" + ")" * n + " > 0",
        "if card is red then " * n + "true" + " else false" * n,
        "card.rank == " + "abs(" * n + "prev.rank" + ")" * n,
        "[1, 2][" * n + "0" + "]" * n + " == 1",
    ]
    for text in texts:
        rule = compile_rule(text)
        for card in DECK[::9]:
            rule.accepts(DECK[:2], card)


# -- well-typed random rules: compiled code against the reference interpreter -----------


def _spaced(*parts: str) -> str:
    return " ".join(parts)


_INT_LEAF = st.sampled_from(
    ["card.rank", "prev.rank", "prev2.rank", "position", "3", "-2", "0", "K", "J", "prev3.rank"]
)
_SUIT_LEAF = st.sampled_from(["card.suit", "prev.suit", "spades", "hearts", "♦", "prev2.suit"])
_COLOR_LEAF = st.sampled_from(["card.color", "prev.color", "red", "black"])
_CARD_LEAF = st.sampled_from(["card", "prev", "prev2"])
_PROPS = ["red", "black", "odd", "even", "face", "number", "ace", "spades", "hearts", "diamonds", "clubs"]


def _typed() -> st.SearchStrategy[str]:
    ints = st.deferred(lambda: st.one_of(
        _INT_LEAF,
        _INT_LEAF,
        st.tuples(ints, st.sampled_from(["+", "-", "*"]), ints).map(lambda t: f"({_spaced(*t)})"),
        st.tuples(ints, st.sampled_from(["%", "//"]), st.sampled_from(["2", "3", "5"])).map(lambda t: f"({_spaced(*t)})"),
        ints.map(lambda x: f"-{x}"),
        ints.map(lambda x: f"abs({x})"),
        st.tuples(st.sampled_from(["min", "max"]), ints, ints).map(lambda t: f"{t[0]}({t[1]}, {t[2]})"),
        ints.map(lambda x: f"[3, 1, 4, 1, 5, 9][{x}]"),
        ints.map(lambda x: f"[2..5, K][{x} % 7]"),
        ints.map(lambda x: f"next({x}, [1, 3, 5, 7])"),
        st.tuples(bools, ints, ints).map(lambda t: f"(if {t[0]} then {t[1]} else {t[2]})"),
        bools.map(lambda p: f"count(x in line where {p})"),
        bools.map(lambda p: f"count(y in last 3 where {p})"),
    ))  # fmt: skip
    suits = st.one_of(
        _SUIT_LEAF,
        _SUIT_LEAF.map(lambda s: f"next({s}, [spades, hearts, diamonds, clubs])"),
        ints.map(lambda i: f"[spades, clubs][{i}]"),
    )
    bools = st.deferred(lambda: st.one_of(
        st.sampled_from(["true", "false", "has(prev)", "has(prev3)"]),
        st.tuples(ints, st.sampled_from(["==", "!=", "<", "<=", ">", ">="]), ints).map(lambda t: f"({_spaced(*t)})"),
        st.tuples(suits, st.sampled_from(["==", "!="]), suits).map(lambda t: f"({_spaced(*t)})"),
        st.tuples(_COLOR_LEAF, st.sampled_from(["==", "!="]), _COLOR_LEAF).map(lambda t: f"({_spaced(*t)})"),
        st.tuples(_CARD_LEAF, st.sampled_from(["==", "!="]), _CARD_LEAF).map(lambda t: f"({_spaced(*t)})"),
        st.tuples(_CARD_LEAF, st.sampled_from(["is", "is not"]), st.sampled_from(_PROPS)).map(lambda t: _spaced(*t)),
        st.tuples(ints, st.sampled_from(["is", "is not"]), st.sampled_from(["odd", "even"])).map(lambda t: _spaced(*t)),
        st.tuples(suits, st.sampled_from(["is", "is not"]), st.sampled_from(["red", "black"])).map(lambda t: _spaced(*t)),
        st.tuples(ints, st.sampled_from(["in", "not in"]), st.sampled_from(["{2, 3, 5}", "{J..K}", "{-1, 0}"])).map(lambda t: _spaced(*t)),
        bools.map(lambda b: f"not {b}"),
        st.tuples(bools, st.sampled_from(["and", "or"]), bools).map(lambda t: f"({_spaced(*t)})"),
        st.tuples(bools, bools, bools).map(lambda t: f"(if {t[0]} then {t[1]} else {t[2]})"),
        st.tuples(bools, bools, bools, bools).map(lambda t: f"(if {t[0]} then {t[1]} elif {t[2]} then true else {t[3]})"),
        st.tuples(st.sampled_from(["any", "all"]), st.sampled_from(["line", "last 2"]), bools).map(
            lambda t: f"{t[0]}(z in {t[1]} where {t[2]})"
        ),
        st.sampled_from(["any(w in line where w.suit == card.suit)", "all(w in last 4 where w.rank <= card.rank)"]),
        st.just("[true, false, true][position % 5]"),
    ))  # fmt: skip
    return bools


TYPED_RULES = _typed()
LINES = st.lists(st.sampled_from(DECK), max_size=8)


@settings(suppress_health_check=list(HealthCheck), deadline=None, max_examples=150)
@given(TYPED_RULES, st.lists(st.tuples(LINES, st.sampled_from(DECK)), min_size=1, max_size=8))
def test_compiled_rules_agree_with_the_reference_interpreter(
    text: str, cases: list[tuple[list[Card], Card]]
) -> None:
    try:
        rule = compile_rule(text)
    except RuleSyntaxError as exc:  # nested windows reusing a name; too deep
        assert "enclosing" in exc.message or "deeply" in exc.message
        return
    except RuleTypeError as exc:  # windows nested beyond the cost limit
        assert "cost too much" in exc.message
        return
    again = compile_rule(str(rule))
    assert again == rule and str(again) == str(rule)
    for line, card in cases:
        expected = judge(rule.tree, line, card, depth=rule.depth, has=rule.uses_has)
        assert rule.accepts(line, card) is expected, (text, line, card)
        assert again.accepts(line, card) is expected
        assert isinstance(rule.explain(line, card), str)


@settings(suppress_health_check=list(HealthCheck), deadline=None, max_examples=60)
@given(
    TYPED_RULES,
    st.lists(st.sampled_from([*DECK, *ODD_CARDS]), max_size=6),
    st.sampled_from([*DECK, *ODD_CARDS]),
)
def test_accepts_never_raises_even_for_jokers_and_moons(text: str, line: list[Card], card: Card) -> None:
    try:
        rule = compile_rule(text)
    except RuleSyntaxError:
        return
    assert isinstance(rule.accepts(line, card), bool)
    assert isinstance(rule.accepts(tuple(line), card), bool)
    # (Jokers and suitless cards never appear in Eleusis: the verdict on them is not
    # specified, only that judging and explaining them never fails.)
    assert isinstance(rule.explain(line, card), str)


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_every_example_compiles_and_round_trips(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    rules = compile_rules(text)
    assert len(rules) == 1
    (rule,) = rules.values()
    assert text.lstrip().startswith("#"), "each example says what it means"
    again = compile_rule(str(rule))
    assert again == rule
    for n in range(0, 6):
        line = list(DECK[n * 7 : n * 7 + n])
        for card in DECK[::3]:
            assert again.accepts(line, card) is rule.accepts(line, card)
            assert rule.accepts(line, card) is judge(
                rule.tree, line, card, depth=rule.depth, has=rule.uses_has
            )


@settings(suppress_health_check=list(HealthCheck), deadline=None, max_examples=60)
@given(TYPED_RULES, st.data())
def test_layout_and_comments_do_not_change_a_rule(text: str, data: st.DataObject) -> None:
    try:
        rule = compile_rule(text)
    except RuleSyntaxError:
        return
    pieces = text.split(" ")
    seps = data.draw(
        st.lists(
            st.sampled_from([" ", "\n    ", "  # a comment\n", "\t"]),
            min_size=len(pieces),
            max_size=len(pieces),
        )
    )
    spaced = "".join(p + s for p, s in zip(pieces, seps, strict=True))
    assert compile_rule(f"({spaced})") == rule


def test_source_errors_pickle() -> None:
    import pickle

    from cardrules.lang import RuleTypeError

    with pytest.raises(RuleTypeError) as info:
        compile_rule("card.suit == 3")
    again = pickle.loads(pickle.dumps(info.value))
    assert type(again) is RuleTypeError
    assert (again.line, again.column, str(again)) == (info.value.line, info.value.column, str(info.value))

"""Hostile input: what a server that accepts rule text, table text, actions or stored
states from users may be sent.  Every case gets a right answer or a clear
CardRulesError, in bounded time and memory, with no file written."""

from __future__ import annotations

import inspect
import itertools
import os
import stat
import subprocess
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path

import pytest
import rule_reference
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardrules import JOKER, Card, Suit, eleusis, from_json, haggis, parse_card, parse_cards, to_json
from cardrules.errors import CardRulesError, IllegalActionError, InvalidCardError
from cardrules.lang import RuleSyntaxError, RuleTypeError, compile_rule, compile_rules
from cardrules.lang.parser import parse_rule_text
from cardrules.lang.rules import LINE_COST, MAX_COST
from cardrules.tricks import TableError, builtin, compile_tables

EXAMPLES = sorted((Path(__file__).resolve().parents[1] / "examples" / "rules").glob("*.rule"))
MOON5, MOON9 = Card(5, Suit.MOONS), Card(9, Suit.MOONS)
FACES = [Card(11), Card(12), Card(13)]  # Haggis's suitless faces
ODD = [JOKER, MOON5, MOON9, *FACES]
CARDS = [*parse_cards("AS 2H 3D 4C 7S 7H 10D JC QS KH 5C 9D"), *ODD]


def bounded(action: Callable[[], object], *, seconds: float = 1.0, megabytes: float = 100.0) -> object:
    """Run ``action`` (returning its result, or the CardRulesError it raised) and check
    it took less than ``seconds`` and allocated less than ``megabytes`` at its peak."""
    tracemalloc.start()
    # CPU time of this process: what the input costs, whatever else the machine runs
    start = time.process_time()
    try:
        try:
            result: object = action()
        except CardRulesError as exc:
            result = exc
        elapsed = time.process_time() - start
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert elapsed < seconds, f"took {elapsed:.2f} s"
    assert peak < megabytes * 2**20, f"peak {peak / 2**20:.0f} MB"
    return result


# -- wrong results -------------------------------------------------------------------


def test_an_int_list_and_a_bool_list_are_two_constants() -> None:
    assert compile_rule("[1][0] == 1 and [true][0]").accepts((), parse_card("AS")) is True
    rule = compile_rule("next(card.rank, [1, 0]) == 0 or next(card is red, [true, false])")
    assert rule.accepts((), parse_card("2S")) is True  # 2 is not in [1, 0]; 2S is black: next(false) = true
    assert rule.accepts((), parse_card("AS")) is True  # next(1, [1, 0]) == 0
    assert compile_rule("[0][0] == 0 and not [false][0]").accepts((), parse_card("AS")) is True
    assert compile_rule("card.rank in {1} and card is red in {true}".replace("card is red in {true}", "true")).accepts(
        (), parse_card("AH")
    )


@pytest.mark.parametrize("odd", ODD, ids=str)
def test_has_takes_a_cards_own_no_colour_for_a_value_not_nothing(odd: Card) -> None:
    line = (odd,)
    for expr in ("prev.color == prev.color", "prev.suit == prev.suit", "not (prev.color != prev.color)"):
        with_has = compile_rule(f"has(prev) and {expr}")
        without = compile_rule(expr)
        assert with_has.accepts(line, parse_card("2S")) is True, expr
        assert without.accepts(line, parse_card("2S")) is True, expr
    # ... while a missing card is still nothing: nothing equals nothing is false.
    assert compile_rule("has(prev2) or prev2.color == prev2.color").accepts(line, odd) is False
    # Two different cards without a colour both have "no colour".
    assert compile_rule("has(prev) and prev.color == card.color").accepts(line, MOON9) is True
    assert compile_rule("has(prev) and prev.color != card.color").accepts(line, parse_card("2S")) is True
    assert compile_rule("has(prev) and prev.color == card.color").accepts(line, parse_card("2S")) is False


def test_explain_agrees_on_no_colour() -> None:
    rule = compile_rule("has(prev) and prev.color == card.color")
    assert rule.accepts((MOON5,), MOON9) is True
    assert "none" in rule.explain((MOON5,), MOON9)


@pytest.mark.parametrize(
    "text",
    [
        "tablet: class a otherwise by ranks standard",
        "ranks r: A > K > Q > J > 10 > 9 > 8 > 7 > 6 > 5 > 4 > 3 > 2\ntablet: class a otherwise by ranks r",
        "table t: class a when card.rank == 2 class b otherwise by ranksstandard",
        "table t: classa when card.rank == 2 class b",
    ],
)
def test_a_keyword_glued_to_a_name_is_no_keyword_anywhere(text: str) -> None:
    with pytest.raises(TableError):
        compile_tables(text)


@pytest.mark.parametrize(
    "text", ["card is red andprev is black", "count(x in lines where true) > 0", "if card is red thenx else true"]
)
def test_rule_keywords_are_whole_words(text: str) -> None:
    with pytest.raises(RuleSyntaxError):
        compile_rule(text)


def test_names_that_start_with_a_keyword_are_names() -> None:
    tables = compile_tables(
        "ranks ranksx: A > K > Q > J > 10 > 9 > 8 > 7 > 6 > 5 > 4 > 3 > 2\n"
        "table tablet:\n    class classy when card.rank in {2..5}\n    class otherwiseish\n"
        "    classy beats otherwiseish\n    otherwise by ranks ranksx\n"
    )
    t = tables["tablet"]
    assert t.classes == ("classy", "otherwiseish")
    assert compile_tables(t.source)["tablet"] == t
    rule = compile_rule("count(lastly in line where lastly is red) >= 0 and card.rank in {1..3}")
    assert rule.accepts(parse_cards("2H"), parse_card("AS")) is True


ORDER = "ranks r: A > K > Q > J > 10 > 9 > 8 > 7 > 6 > 5 > 4 > 3 > 2"


@pytest.mark.parametrize(
    "text",
    [
        f"{ORDER} table t: class a when card.rank == 2 class b a beats b otherwise by ranks r",
        f"# orders\n{ORDER}\n\n# the table\ntable t:\n    class a when card.rank in {{2..999999999}}  # big\n"
        "    class b\n    otherwise by ranks r, suits elements then later\n",
        "table tableau: class a when card.suit == lead.suit class b a beats b otherwise by ranks standard"
        f" {ORDER.replace('ranks r', 'ranks standard')}",
    ],
)
def test_every_tables_source_compiles_back(text: str) -> None:
    for name, t in compile_tables(text).items():
        again = compile_tables(t.source)[name]
        assert again == t and again.source == t.source
    for name in ("aegis", "gunsore", "whist"):
        assert compile_tables(builtin(name).source)[name] == builtin(name)


# -- ranges are intervals --------------------------------------------------------------

HUGE = "card.rank in {1..999999999}"


def test_a_huge_range_is_an_interval() -> None:
    rule = bounded(lambda: compile_rule(HUGE))
    assert not isinstance(rule, CardRulesError)
    for c in CARDS:
        assert rule.accepts((), c) is (1 <= c.rank <= 999999999)
    negated = compile_rule("card.rank not in {-999999999..0, 14..999999999}")
    for c in CARDS:
        assert negated.accepts((), c) is (1 <= c.rank <= 13)


def test_huge_ranges_in_lists_index_and_next_without_expanding() -> None:
    at = bounded(lambda: compile_rule("[1..999999999][position] == position + 1"))
    assert isinstance(at, eleusis.Rule) and at.accepts(parse_cards("AS 2S"), parse_card("3S"))
    past = compile_rule("has(prev) or [0..999999999][999999999 + position] == 0")  # past the end: nothing
    assert past.accepts((), parse_card("3S")) is False
    nxt = compile_rule("next(card.rank, [5..999999999, 1]) == card.rank + 1")
    assert nxt.accepts((), parse_card("7S")) and not nxt.accepts((), parse_card("AS"))
    wrap = compile_rule("next(999999999, [5..999999999]) == 5")
    assert wrap.accepts((), parse_card("7S"))


def test_huge_ranges_in_a_table_and_in_a_stored_state() -> None:
    tables = bounded(
        lambda: compile_tables(
            "table t:\n    class big when card.rank in {2..999999999}\n    class low\n"
            "    big beats low\n    otherwise by ranks standard\n"
        )
    )
    assert isinstance(tables, dict)
    assert tables["t"].winner(parse_cards("AS 2S")) == 1
    state = eleusis.new_game(eleusis.Rules(secret=compile_rule(f"{HUGE} or card.rank in {{0..999999999}}")), seed=4)
    back = bounded(lambda: from_json(to_json(state)))
    assert back == state


def test_a_big_set_agrees_with_a_small_one() -> None:
    small = compile_rule("card.rank in {2, 4..6, 13}")
    big = compile_rule("card.rank in {2, 4..6, 13, 100..5000, -7000..-1000}")
    for c in CARDS:
        assert small.accepts((), c) is big.accepts((), c)


# -- the cost of a rule is bounded when it is compiled ---------------------------------


def _nested(k: int, window: str = "line") -> str:
    names = [f"x{i}" for i in range(k)]
    pred = " and ".join(f"{n}.rank >= card.rank" for n in names)
    text = pred
    for n in reversed(names):
        text = f"count({n} in {window} where {text}) > 0"
    return text


def test_windows_nested_four_deep_over_the_line_are_refused() -> None:
    for k in (4, 5):
        err = bounded(lambda k=k: compile_rule(_nested(k)))
        assert isinstance(err, RuleTypeError), err
        assert "cost too much" in err.message and f"{MAX_COST:,}" in err.message
        assert (err.line, err.column) == (1, _nested(k).index(f"count(x{k - 1}") + 1)


def test_three_nested_windows_and_short_windows_are_accepted() -> None:
    three = compile_rule(_nested(3))
    line = list(parse_cards("AS 2S 3S 4S 5S 6S 7S 8S 9S 10S") * 3)
    assert bounded(lambda: three.accepts(line, parse_card("2H"))) is True
    assert compile_rule(_nested(6, "last 5")).accepts(line, parse_card("2H")) is True  # 5**6 steps
    assert LINE_COST**3 < MAX_COST < LINE_COST**4


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_every_example_rule_is_within_the_limits(path: Path) -> None:
    assert compile_rules(path.read_text(encoding="utf-8"))


# -- depth problems are CardRulesErrors -------------------------------------------------


def _at_depth(free: int, action: Callable[[], object]) -> object:
    """``action()`` called with about ``free`` Python frames left."""
    target = sys.getrecursionlimit() - len(inspect.stack()) - free

    def down(n: int) -> object:
        return down(n - 1) if n > 0 else action()

    return down(target)


def test_a_deep_caller_gets_a_card_rules_error_not_a_recursion_error() -> None:
    text = " and ".join(["not " * 20 + "(card.rank + 1) * 2 - 3 > prev.rank"] * 3)
    table = "table t:\n    class a when " + "not " * 30 + "card.rank == 2\n    class b\n"
    outcomes = set()
    for free in range(12, 260, 8):
        for action in (
            lambda free=free: compile_rule(text + f" or card.rank == {free}"),
            lambda free=free: compile_tables(table.replace("== 2", f"== {free}")),
        ):
            try:
                _at_depth(free, action)
                outcomes.add("compiled")
            except CardRulesError:
                outcomes.add("refused")
    assert outcomes == {"compiled", "refused"}  # both happen, and nothing else escaped


# -- bare exceptions -------------------------------------------------------------------


@pytest.mark.parametrize(
    "line", [{"a": 1}, frozenset(parse_cards("AS 2H")), "AS 2H", 5], ids=["dict", "set", "str", "int"]
)
def test_a_line_that_is_not_a_sequence_of_cards_is_an_invalid_card_error(line: object) -> None:
    rule = compile_rule("card.color != prev.color")
    with pytest.raises(InvalidCardError, match="main line"):
        rule.accepts(line, parse_card("2S"))  # type: ignore[arg-type]


@pytest.mark.parametrize("cards", [5, None, 2.5, "AS"], ids=repr)
def test_an_eleusis_play_of_no_cards_is_refused_when_built(cards: object) -> None:
    with pytest.raises(IllegalActionError, match="Play takes"):
        eleusis.Play(cards)  # type: ignore[arg-type]


def test_an_illegal_bomb_prints() -> None:
    play = haggis.Play(haggis.Combo("bomb", 9, 2, None, ()))
    assert "bomb" in str(play)


# -- unbounded cost in the games -------------------------------------------------------


def test_a_hand_made_combo_of_the_whole_deck_is_refused_at_once() -> None:
    state = haggis.new_game(players=3, seed=11)
    everything = tuple(sorted(haggis.deck(3), key=lambda c: c.index))
    combo = haggis.Combo("sequence", 10, len(everything), 5, everything)
    err = bounded(lambda: haggis.apply(state, haggis.Play(combo)))
    assert isinstance(err, IllegalActionError)
    err = bounded(lambda: haggis.combinations(everything))
    assert isinstance(err, CardRulesError) and "at most 14 number cards" in str(err)
    err = bounded(lambda: haggis.declarations(everything))
    assert isinstance(err, CardRulesError)


def test_eleusis_strings_are_bounded_and_each_distinct_once() -> None:
    state = eleusis.new_game(eleusis.Rules(hand_size=14, max_string=5), seed=2)
    hand = state.hands[state.to_act]
    assert len(hand) == 14
    distinct = len(set(itertools.permutations(hand, 5)))  # brute force, for the count
    assert distinct > eleusis.MAX_STRINGS
    err = bounded(lambda: eleusis.strings(state, 5))
    assert isinstance(err, CardRulesError) and f"{distinct:,}" in str(err)
    for n in (1, 2, 3):
        want = sorted(set(itertools.permutations(hand, n)), key=lambda cs: tuple(c.index for c in cs))
        assert [p.cards for p in eleusis.strings(state, n)] == want


# -- no I/O ----------------------------------------------------------------------------


def test_compiling_writes_no_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from cardrules.lang import parser, tables

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    parser._rule_parser.cache_clear()
    monkeypatch.setattr(tables, "_PARSER", None)
    compile_rule("card.rank > 3 # no cache")
    compile_tables("table t:\n    class a when card.rank == 2\n    class b\n")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("kind", ["read-only", "missing"])
def test_everything_works_with_an_unwritable_temporary_folder(tmp_path: Path, kind: str) -> None:
    # A read-only folder stops a writer only when the tests do not run as root; a
    # folder that does not exist stops everyone.  Either way nothing may fail or warn.
    locked = tmp_path / "locked"
    if kind == "read-only":
        locked.mkdir()
        locked.chmod(stat.S_IRUSR | stat.S_IXUSR)
    code = (
        "import tempfile, os\n"
        "tempfile.tempdir = os.environ['TMPDIR']\n"
        "import cardrules\n"
        "from cardrules import eleusis, tricks, parse_card, parse_cards\n"
        "r = eleusis.compile_rule('card.color != prev.color')\n"
        "assert r.accepts(parse_cards('5H'), parse_card('7C'))\n"
        "assert tricks.builtin('aegis').winner(parse_cards('5H 9H'), key=parse_card('2S')) == 1\n"
        "assert tricks.compile_tables('table t:\\n class a\\n')['t'].winner(parse_cards('5H 9H')) == 0\n"
        "print('ok')\n"
    )
    env = {**os.environ, "TMPDIR": str(locked), "PYTHONDONTWRITEBYTECODE": "1"}
    try:
        done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)
    finally:
        if locked.exists():
            locked.chmod(stat.S_IRWXU)
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr
    assert done.stderr == ""
    assert not locked.exists() or list(locked.iterdir()) == []


# -- adversarial input within 1 s and 100 MB ------------------------------------------

ADVERSARIAL_RULES = [
    "card.rank in {1..999999999}",
    "card.rank in {" + ", ".join(f"{i}..{i + 999999}" for i in range(0, 2_000_000_000, 100_000_000)) + "}",
    "[1..999999999][position] > 0",
    "next(card.rank, [-999999999..999999999]) > 0",
    _nested(5),
    "(" * 5_000 + "card.rank" + ")" * 5_000 + " > 1",
    "not " * 20_000 + "true",
    "card.rank == " + " + ".join(["1"] * 20_000),
    "card.rank > 1 " + "#" * 99_990,
    "count(x in line where " * 2_000 + "true" + ")" * 2_000 + " > 0",
]


@pytest.mark.parametrize("text", ADVERSARIAL_RULES, ids=lambda t: t[:30])
def test_adversarial_rules_are_answered_within_bounds(text: str) -> None:
    outcome = bounded(lambda: compile_rule(text))
    if isinstance(outcome, eleusis.Rule):
        line = list(parse_cards("AS 2H 3D 4C 5S 6H 7D 8C 9S 10H") * 6)
        bounded(lambda: outcome.accepts(line, parse_card("7S")))
    else:
        assert isinstance(outcome, (RuleSyntaxError, RuleTypeError))


# -- compiled rules agree with the reference evaluator ------------------------------


def _rules() -> st.SearchStrategy[str]:
    card = st.sampled_from(["card", "prev", "prev2", "prev3"])
    cards_in = st.sampled_from(["x", "card", "prev"])
    leaf_int = st.one_of(
        st.sampled_from(["position", "2", "7", "-3", "K"]),
        card.map(lambda c: f"{c}.rank"),
    )
    ints = st.deferred(lambda: st.one_of(
        leaf_int, leaf_int,
        st.tuples(ints, st.sampled_from(["+", "-", "*"]), ints).map(lambda t: f"({t[0]} {t[1]} {t[2]})"),
        st.tuples(ints, st.sampled_from(["%", "//"]), st.sampled_from(["2", "3"])).map(lambda t: f"({t[0]} {t[1]} {t[2]})"),
        ints.map(lambda x: f"abs({x})"),
        st.tuples(ints, ints).map(lambda t: f"max({t[0]}, {t[1]})"),
        ints.map(lambda x: f"[3, 1, 4..6, 100..999999999][{x}]"),
        ints.map(lambda x: f"next({x}, [1, 3, 5..9, 2])"),
        st.tuples(bools, ints, ints).map(lambda t: f"(if {t[0]} then {t[1]} else {t[2]})"),
        bools.map(lambda p: f"count(x in line where {p})"),
    ))  # fmt: skip
    suits = st.one_of(
        card.map(lambda c: f"{c}.suit"),
        st.sampled_from(["spades", "hearts"]),
        card.map(lambda c: f"next({c}.suit, [spades, hearts, diamonds, clubs])"),
        ints.map(lambda i: f"[clubs, diamonds][{i}]"),
    )
    colors = st.one_of(card.map(lambda c: f"{c}.color"), st.sampled_from(["red", "black"]))
    bools = st.deferred(lambda: st.one_of(
        st.sampled_from(["true", "false", "has(prev)", "has(prev2)"]),
        st.tuples(ints, st.sampled_from(["==", "!=", "<", ">="]), ints).map(lambda t: f"({t[0]} {t[1]} {t[2]})"),
        st.tuples(suits, st.sampled_from(["==", "!="]), suits).map(lambda t: f"({t[0]} {t[1]} {t[2]})"),
        st.tuples(colors, st.sampled_from(["==", "!="]), colors).map(lambda t: f"({t[0]} {t[1]} {t[2]})"),
        st.tuples(card, st.sampled_from(["==", "!="]), card).map(lambda t: f"({t[0]} {t[1]} {t[2]})"),
        st.tuples(card, st.sampled_from(["is", "is not"]),
                  st.sampled_from(["red", "black", "odd", "face", "number", "ace", "hearts"])).map(" ".join),
        st.tuples(suits, st.sampled_from(["is", "is not"]), st.sampled_from(["red", "black"])).map(" ".join),
        st.tuples(colors, st.sampled_from(["is", "is not"]), st.sampled_from(["red", "black"])).map(" ".join),
        st.tuples(ints, st.sampled_from(["in", "not in"]),
                  st.sampled_from(["{2, 3}", "{J..K}", "{0..999999999}", "{-5..0, 13}"])).map(" ".join),
        st.tuples(suits, st.sampled_from(["in", "not in"]), st.just("{spades, hearts}")).map(" ".join),
        bools.map(lambda b: f"not {b}"),
        st.tuples(bools, st.sampled_from(["and", "or"]), bools).map(lambda t: f"({t[0]} {t[1]} {t[2]})"),
        st.tuples(bools, bools, bools).map(lambda t: f"(if {t[0]} then {t[1]} else {t[2]})"),
        st.tuples(st.sampled_from(["any", "all"]), st.sampled_from(["line", "last 2"]),
                  cards_in, st.sampled_from(["red", "odd", "face"])).map(
            lambda t: f"{t[0]}(y in {t[1]} where {t[2].replace('x', 'y')} is {t[3]})"),
    ))  # fmt: skip
    # Half the rules use has() without changing their verdict: there a missing prevN is
    # nothing, which must never be confused with a card's own "no colour"/"no suit".
    return st.one_of(bools, bools.map(lambda b: f"(has(prev) or true) and {b}"))


# Lines rich in cards without a colour or a suit (moons, jokers, suitless faces).
LINES = st.lists(st.sampled_from([*CARDS, *ODD, *ODD]), max_size=6)


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(_rules(), st.lists(st.tuples(LINES, st.sampled_from([*CARDS, *ODD, *ODD])), min_size=1, max_size=8))
def test_compiled_rules_agree_with_the_reference_evaluator(text: str, cases: list[tuple[list[Card], Card]]) -> None:
    try:
        rule = compile_rule(text)
    except RuleSyntaxError as exc:  # x used outside a window, or nested too deeply
        assert "unknown name 'x'" in exc.message or "deeply" in exc.message or "enclosing" in exc.message
        return
    (_, _, _, tree), = parse_rule_text(text)
    for line, card in cases:
        assert rule.accepts(line, card) is rule_reference.accepts(tree, line, card), (text, line, card)

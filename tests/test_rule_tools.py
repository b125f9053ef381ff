"""Rule tools (rule-language.md section 2c): acceptance, profile, equivalent, and the
``cardrules rule diff`` / ``rule check`` commands.

The oracles here are independent of :mod:`cardrules.lang.analysis`: brute force over
real lines with :meth:`Rule.accepts`, a re-implementation of the spec's sampling
procedure for :func:`acceptance`, and profiles counted by hand.
"""

from __future__ import annotations

import random
import warnings
from collections.abc import Sequence
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardrules import Card, canonical, parse_card, parse_cards, standard_deck
from cardrules.cli import main
from cardrules.lang import (
    EquivalenceNotProven,
    Profile,
    Rule,
    acceptance,
    compile_rule,
    equivalent,
    profile,
)
from cardrules.lang.analysis import root_bound

DECK = canonical(standard_deck())
AS = DECK[0]


def no_warning_equivalent(a: Rule, b: Rule, **kw: int) -> tuple[tuple[Card, ...], Card] | None:
    """``equivalent`` that must not warn (the exact cases)."""
    with warnings.catch_warnings():
        warnings.simplefilter("error", EquivalenceNotProven)
        return equivalent(a, b, **kw)


def differs(a: Rule, b: Rule, line: Sequence[Card], card: Card) -> bool:
    return a.accepts(list(line), card) != b.accepts(list(line), card)


def brute_first(a: Rule, b: Rule, max_n: int, slots: int) -> tuple[tuple[Card, ...], Card] | None:
    """The first difference by brute force, for rules that read at most the last
    ``slots`` line cards (so a line of ``n`` cards is ``AS ... AS`` followed by its last
    ``slots`` cards, the least prefix in canonical order); lengths 0 .. max_n."""
    for n in range(max_n + 1):
        free = min(n, slots)
        prefix = [AS] * (n - free)

        def tails(k: int) -> list[list[Card]]:
            if k == 0:
                return [[]]
            return [[c, *rest] for c in DECK for rest in tails(k - 1)]

        for tail in tails(free):
            line = prefix + tail
            for card in DECK:
                if differs(a, b, line, card):
                    return tuple(line), card
    return None


# -- equivalent: pairs known equal -----------------------------------------------------------

EQUAL_PAIRS = [
    ("card.color != prev.color", "(card is red) == (prev is black)"),
    ("card.color != prev.color", "not (card.color == prev.color)"),
    ("card.color != prev.color", "if prev is red then card is black else card is red"),
    ("card.suit == prev.suit or card.rank == prev.rank", "card.rank == prev.rank or prev.suit == card.suit"),
    ("card.rank in {2, 3, 5, 7, 11, 13}", "card.rank in {2, 3, 5, 7, J, K}"),
    ("card is face", "card.rank > 10"),
    ("card is face", "card.rank in {J..K}"),
    ("card is odd", "card.rank % 2 == 1"),
    ("card is not even", "card.rank is odd"),
    ("abs(card.rank - prev.rank) <= 2", "card.rank - prev.rank in {-2..2}"),
    ("abs(card.rank - prev.rank) <= 2", "max(card.rank, prev.rank) - min(card.rank, prev.rank) < 3"),
    ("(card.rank + prev.rank + prev2.rank) % 2 == 0", "(card.rank + prev.rank + prev2.rank) is even"),
    ("(card.rank + prev.rank + prev2.rank) % 2 == 0", "(card.rank + prev.rank + prev2.rank) % 4 in {0, 2}"),
    (
        "card.suit == next(prev.suit, [spades, hearts, diamonds, clubs])",
        "if prev is spades then card is hearts elif prev is hearts then card is diamonds "
        "elif prev is diamonds then card is clubs else card is spades",
    ),
    ("card == prev or card == prev2", "prev2 == card or prev == card"),
    ("card == prev", "card.rank == prev.rank and card.suit == prev.suit"),
    # three different cards of one rank and one colour do not exist (two of each)
    (
        "card != prev and card != prev2 and prev != prev2 and card.color == prev.color"
        " and prev.color == prev2.color and card.rank == prev.rank and prev.rank == prev2.rank",
        "prev2.rank < 0",  # false from 2 cards on, like the rule
    ),
    ("card != prev and card.suit == prev.suit and card.rank == prev.rank", "prev.rank < 0"),
    # positions written two ways
    ("position is even", "position % 4 in {0, 2}"),
    ("position is even", "(position + 1) % 2 == 1"),
    (
        "if position is even then card is red else card is black",
        "(position % 2 == 0) == (card.color == red)",
    ),
    ("card.rank == position % 13 + 1", "card.rank - 1 == position % 13"),
    ("(position // 3) % 5 == 0", "position % 15 in {0, 1, 2}"),
    ("(position // 2) % 2 == 1", "position % 4 in {2, 3}"),
    ("abs(position - 20) < 3", "position in {18..22}"),
    ("min(position, 10) == 10", "position >= 10"),
    ("max(card.rank, position) == position", "card.rank <= position"),
    ("position * position > 1000", "position > 31"),
    ("card.rank * position > 100", "card.rank * position > 100 or position * position > 100000"),
    (
        "card.rank == [3, 1, 4][position - 1]",
        "if position == 1 then card.rank == 3 elif position == 2 then card.rank == A "
        "elif position == 3 then card.rank == 4 else false",
    ),
    ("[true, false][position % 2]", "position is even"),
    # the missing-history rule and has()
    ("if has(prev2) then card.suit != prev2.suit else true", "card.suit != prev2.suit"),
    ("if has(prev) then card.color != prev.color else true", "card.color != prev.color"),
    ("prev.rank > 0", "true"),
    # with has(), a missing prev2 is nothing, and `!=` with nothing is true
    (
        "if has(prev2) then card.suit != prev2.suit else true",
        "if has(prev) then card.suit != prev2.suit else true",
    ),
    ("prev2.rank > 0 or card is red", "true"),
]


@pytest.mark.parametrize(("x", "y"), EQUAL_PAIRS)
def test_equal_pairs(x: str, y: str) -> None:
    a, b = compile_rule(x), compile_rule(y)
    assert no_warning_equivalent(a, b) is None
    assert no_warning_equivalent(b, a) is None


# -- equivalent: pairs known different -------------------------------------------------------

# (a, b, expected line, expected card): each expectation worked out by hand.
DIFFERENT = [
    # after AS, AC has the same colour (a refuses) but another suit (b accepts)
    ("card.color != prev.color", "card.suit != prev.suit", "AS", "AC"),
    ("card is red", "card is hearts", "", "AD"),
    ("card.rank > 1", "card is number", "", "JS"),
    # any card on an empty line: depth-1 rule accepts; depth-0 rule refuses AS
    ("card.color != prev.color", "card is red", "", "AS"),
    ("position < 40", "position <= 40", "AS " * 39, "AS"),
    ("position != 1000", "true", "AS " * 999, "AS"),
    ("position * position != 994009", "true", "AS " * 996, "AS"),  # 997 squared
    ("card.rank == position % 13 + 1", "card.rank == (position - 1) % 13 + 1", "", "AS"),
    # the 11th item: [..][10] is 5 in b, nothing in a; position 11 = 10 line cards
    (
        "card.rank == [3, 1, 4, 1, 5, 9, 2, 6, 5, 3][position - 1]",
        "card.rank == [3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5][position - 1]",
        "AS " * 10,
        "5S",
    ),
    # on a line of one card, b compares with a missing prev2: nothing == x is false
    (
        "if has(prev2) then card.suit == prev2.suit else true",
        "if has(prev) then card.suit == prev2.suit else true",
        "AS",
        "AS",
    ),
    ("card == prev or card == prev2", "card == prev2", "AS 2S", "2S"),
    ("card == prev and prev == prev2", "prev2.rank < 0", "AS AS", "AS"),
    ("card == prev2 and card != prev and card.rank == prev.rank", "prev2.rank < 0", "AS AH", "AS"),
    (
        "card != prev and card != prev2 and prev != prev2 and card.rank == prev2.rank",
        "prev2.rank < 0",
        "AS 2S",
        "AH",
    ),
    # only the period brings these positions: 7, 10 (5 * 2), 11 and 12 (lcm 4, 6)
    ("position % 7 == 0", "false", "AS " * 6, "AS"),
    ("(position // 5) % 3 == 2", "false", "AS " * 9, "AS"),
    ("position % 11 == 0 and card is red", "position % 11 == 0 and card is hearts", "AS " * 10, "AD"),
    ("position % 4 == 0 and position % 6 == 0", "false", "AS " * 11, "AS"),
    ("(position * position) % 13 == 3", "false", "AS " * 3, "AS"),  # 4 * 4 = 16
    ("card.rank * position > 100", "card.rank * position >= 100", "AS " * 9, "10S"),
]


@pytest.mark.parametrize(("x", "y", "line", "card"), DIFFERENT)
def test_different_pairs(x: str, y: str, line: str, card: str) -> None:
    a, b = compile_rule(x), compile_rule(y)
    found = no_warning_equivalent(a, b)
    assert found is not None
    got_line, got_card = found
    assert differs(a, b, got_line, got_card)
    assert (got_line, got_card) == (parse_cards(line), parse_card(card))
    # symmetric
    assert no_warning_equivalent(b, a) == found


SMALL_DIFFERENT = [
    ("card.color != prev.color", "card.suit != prev.suit"),
    ("(card.rank + prev.rank + prev2.rank) % 2 == 0", "(card.rank + prev.rank) % 2 == 0"),
    ("card.rank > prev.rank", "card.rank >= prev2.rank"),
    ("if prev is odd then card is black else card is red", "card.color != prev.color"),
    ("card == prev2", "card.rank == prev2.rank"),
    ("position is even and card is red", "card is red"),
    ("if has(prev2) then card.suit != prev2.suit else card is red", "card.suit != prev2.suit"),
    ("prev2 is red", "prev is red"),
]


@pytest.mark.parametrize(("x", "y"), SMALL_DIFFERENT)
def test_counterexample_is_minimal_by_brute_force(x: str, y: str) -> None:
    a, b = compile_rule(x), compile_rule(y)
    found = no_warning_equivalent(a, b)
    assert found is not None
    assert len(found[0]) <= 3
    assert brute_first(a, b, len(found[0]), slots=2) == found


# -- equivalent: random rules against brute force ---------------------------------------------

# Depth <= 1 pieces whose positions repeat with period 6 from position 6 on, so lines of
# 0 .. 12 cards decide every pair (brute force over the last card and the judged card).
PIECES = [
    "card is red",
    "card is odd",
    "card.rank > 7",
    "card.suit == prev.suit",
    "card.rank >= prev.rank",
    "prev is face",
    "position % 2 == 0",
    "position % 3 == 1",
    "position < 5",
    "card.rank + position > 12",
    "card.rank == position",
    "(prev.rank + position) % 3 == 0",
    "has(prev)",
    "card == prev",
    "card != prev",
]


def _rules() -> st.SearchStrategy[str]:
    piece = st.sampled_from(PIECES)
    return st.recursive(
        piece,
        lambda inner: st.one_of(
            st.tuples(inner, inner).map(lambda t: f"({t[0]}) and ({t[1]})"),
            st.tuples(inner, inner).map(lambda t: f"({t[0]}) or ({t[1]})"),
            inner.map(lambda t: f"not ({t})"),
            st.tuples(inner, inner, inner).map(lambda t: f"if {t[0]} then {t[1]} else {t[2]}"),
        ),
        max_leaves=4,
    )


def _rewrite(text: str, choice: int) -> str:
    """A rule with the same meaning (for even ``choice``) or one piece changed."""
    if choice % 2 == 1:
        for piece in PIECES:
            if piece in text:
                other = PIECES[(PIECES.index(piece) + choice) % len(PIECES)]
                return text.replace(piece, other, 1)
    return [f"not not ({text})", f"({text}) or false", f"if {text} then true else false"][choice % 3]


@given(_rules(), _rules())
def test_random_pairs_against_brute_force(x: str, y: str) -> None:
    a, b = compile_rule(x), compile_rule(y)
    found = no_warning_equivalent(a, b)
    assert found == brute_first(a, b, 12, slots=1)


@given(_rules(), st.integers(0, 20))
def test_random_near_pairs_against_brute_force(x: str, choice: int) -> None:
    # Pairs that agree often: the same rule rewritten, or with one piece swapped.
    a, b = compile_rule(x), compile_rule(_rewrite(x, choice))
    found = no_warning_equivalent(a, b)
    assert found == brute_first(a, b, 12, slots=1)
    if choice % 2 == 0:
        assert found is None


DEPTH2_PIECES = [
    "card == prev",
    "card == prev2",
    "prev != prev2",
    "card.rank == prev2.rank",
    "card.suit == prev.suit",
    "prev2 is red",
    "card.rank > prev.rank",
]


@settings(max_examples=12)
@given(st.lists(st.sampled_from(DEPTH2_PIECES), min_size=1, max_size=4), st.integers(0, 20))
def test_random_depth_two_pairs_against_brute_force(pieces: list[str], choice: int) -> None:
    # Whole cards compared in three slots: the reduced search must see every pattern.
    x = " and ".join(pieces)
    y = _rewrite(x, choice) if choice % 2 == 0 else " and ".join(pieces[:-1] or ["true"])
    a, b = compile_rule(x), compile_rule(y)
    assert no_warning_equivalent(a, b) == brute_first(a, b, 2, slots=2)


def test_missing_history_positions() -> None:
    # A depth-2 rule accepts everything on lines of 0 and 1 card: the first difference
    # with "false" is on the empty line, and with a depth-2 rule that refuses only
    # when prev2 exists, on a line of 2 cards.
    a = compile_rule("prev2 is red and card is red")
    assert no_warning_equivalent(a, compile_rule("true")) == ((AS, AS), AS)
    assert no_warning_equivalent(a, compile_rule("false")) == ((), AS)


# -- equivalent: the bounded search ------------------------------------------------------------


def test_aggregates_use_the_bounded_search() -> None:
    never_repeat = compile_rule("not any(x in line where x.rank == card.rank)")
    other = compile_rule("card.rank != prev.rank")
    found = equivalent(never_repeat, other)
    assert found == (parse_cards("AS 2S"), parse_card("AS"))
    assert differs(never_repeat, other, *found)


def test_bounded_search_finds_a_long_difference() -> None:
    a = compile_rule("count(x in line where x is red) < 4")
    b = compile_rule("count(x in line where x is red) < 5")
    found = equivalent(a, b)
    assert found is not None
    line, card = found
    assert len(line) == 4 and all(c.color.value == "red" for c in line)
    assert differs(a, b, line, card)


def test_bounded_search_warns_when_nothing_is_found() -> None:
    a = compile_rule("count(x in line where x is red) >= 0")
    with pytest.warns(EquivalenceNotProven):
        assert equivalent(a, compile_rule("true")) is None
    deep = compile_rule("prev3.rank > 0")
    with pytest.warns(EquivalenceNotProven):
        assert equivalent(deep, compile_rule("true"), max_length=4) is None
    assert issubclass(EquivalenceNotProven, UserWarning)


def test_bounded_search_depth_three() -> None:
    a = compile_rule("card.color != prev3.color")
    b = compile_rule("card.color != prev2.color")
    found = equivalent(a, b)
    assert found is not None and len(found[0]) == 2  # b speaks from 2 cards, a from 3
    assert differs(a, b, *found)


# -- root bound ---------------------------------------------------------------------------------


@given(st.lists(st.tuples(st.integers(-60, 60), st.integers(-60, 60)), min_size=2, max_size=4), st.data())
def test_root_bound_is_past_every_root(bounds: list[tuple[int, int]], data: st.DataObject) -> None:
    from fractions import Fraction

    intervals = [(Fraction(min(a, b)), Fraction(max(a, b))) for a, b in bounds]
    coeffs = [data.draw(st.integers(int(lo), int(hi))) for lo, hi in intervals]
    bound = root_bound(intervals, 1)
    if not any(coeffs[1:]):
        return  # a constant: nothing to settle
    values = [sum(c * x**k for k, c in enumerate(coeffs)) for x in range(bound, bound + 40)]
    assert all(v > 0 for v in values) or all(v < 0 for v in values)


# -- acceptance ------------------------------------------------------------------------------------

ONE_CARD = [
    ("card is red", 26),
    ("card is face", 12),
    ("card.rank in {2, 3, 5, 7, 11, 13}", 24),
    ("card is hearts or card.rank == 1", 16),
    ("card.rank % 3 == 0", 16),
    ("false", 0),
]


def spec_acceptance(rule: Rule, lines: int, seed: int) -> float:
    """The spec's procedure, written again from its text; ``two_decks`` is "the canonical
    52 twice": the 52 in canonical order, then again."""
    rng = random.Random(seed)
    decks = [*DECK, *DECK]
    hits = 0
    for _ in range(lines):
        n = rng.randint(1, 10)
        cs = rng.sample(decks, n + 1)
        hits += rule.accepts(cs[:n], cs[n])
    return hits / lines


@pytest.mark.parametrize(("text", "count"), ONE_CARD)
def test_acceptance_of_one_card_rules(text: str, count: int) -> None:
    rule = compile_rule(text)
    assert sum(1 for c in DECK if rule.accepts([], c)) == count  # the hand count is right
    share = acceptance(rule)
    # The judged card is uniform over the 104 cards, so the share estimates count / 52;
    # 2000 samples put it within 4 standard deviations.
    p = count / 52
    assert abs(share - p) <= 4 * (p * (1 - p) / 2000) ** 0.5 + 1e-9
    assert share == spec_acceptance(rule, 2000, 0)
    assert acceptance(rule, lines=300, seed=5) == spec_acceptance(rule, 300, 5)


# -- profile -----------------------------------------------------------------------------------------


def test_profile_fields() -> None:
    p = profile(compile_rule("if prev is odd then card is black else card is red"))
    assert isinstance(p, Profile)
    assert p.depth == 1
    assert not p.uses_position and not p.uses_line
    assert p.attributes == {"rank", "color"}
    assert p.branches == 1
    # If, Is(prev odd), Name prev, Is(card black), Name card, Is(card red), Name card
    assert p.size == 7
    assert 0.0 <= p.acceptance <= 1.0


@pytest.mark.parametrize(
    ("text", "depth", "position", "line", "attributes", "branches", "size"),
    [
        ("card.color != prev.color", 1, False, False, {"color"}, 0, 5),
        ("card.suit == next(prev.suit, [spades, hearts, diamonds, clubs])", 1, False, False, {"suit"}, 0, 11),
        ("card == prev", 1, False, False, {"rank", "suit"}, 0, 3),
        ("card is spades", 0, False, False, {"suit"}, 0, 2),
        ("card.suit is red", 0, False, False, {"suit", "color"}, 0, 3),
        ("position is even", 0, True, False, set(), 0, 2),
        ("card is ace or card is number", 0, False, False, {"rank"}, 0, 5),
        (
            "if prev.rank % 3 == 0 then card is face elif prev.rank % 3 == 1 then card is odd else card is even",
            1,
            False,
            False,
            {"rank"},
            2,
            19,
        ),
        ("if has(prev3) then card.suit != prev3.suit else true", 3, False, False, {"suit"}, 1, 9),
        ("not any(x in line where x.rank == card.rank)", 0, False, True, {"rank"}, 0, 7),
        ("card.rank == [3, 1, 4][position - 1]", 0, True, False, {"rank"}, 0, 11),
    ],
)
def test_profile_examples(
    text: str, depth: int, position: bool, line: bool, attributes: set[str], branches: int, size: int
) -> None:
    p = profile(compile_rule(text))
    assert (p.depth, p.uses_position, p.uses_line) == (depth, position, line)
    assert p.attributes == frozenset(attributes)
    assert p.branches == branches
    assert p.size == size


def test_profile_acceptance_matches() -> None:
    rule = compile_rule("card.rank >= prev.rank")
    assert profile(rule).acceptance == acceptance(rule)
    assert profile(rule, lines=100, seed=3).acceptance == acceptance(rule, lines=100, seed=3)
    assert "looks back 1" in str(profile(rule))


# -- the command line ----------------------------------------------------------------------------

EXAMPLES = Path(__file__).resolve().parents[1] / "examples" / "rules"


def test_cli_diff_equivalent(capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["rule", "diff", "card.color != prev.color", "(card is red) == (prev is black)"])
    out = capsys.readouterr().out
    assert status == 0
    assert out.splitlines()[-1] == "equivalent"


def test_cli_diff_counterexample(capsys: pytest.CaptureFixture[str]) -> None:
    rule = next(EXAMPLES.glob("alternat*-colours.rule"))
    status = main(["rule", "diff", str(rule), "card.suit != prev.suit"])
    out = capsys.readouterr().out.splitlines()
    assert status == 1
    assert out[0] == "different: main line AS, card AC (position 2)"
    assert out[1].startswith("  A says wrong: ") and out[2].startswith("  B says right: ")
    assert "prev.color" in out[1] and "prev.suit" in out[2]  # both explanations
    assert out[3].startswith("  A is card.color != prev.color (rule ")


def test_cli_diff_long_line_and_named_rule(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "two.rule"
    f.write_text('rule "early": position < 40\nrule "late": position <= 40\n')
    assert main(["rule", "diff", f"{f}:early", f"{f}:late"]) == 1
    out = capsys.readouterr().out
    assert "different: main line of 39 cards (AS AS ... AS AS AS), card AS (position 40)" in out
    assert main(["rule", "diff", str(f), "true"]) == 2  # which of the two?
    assert "early, late" in capsys.readouterr().err
    assert main(["rule", "diff", f"{f}:nope", "true"]) == 2
    assert main(["rule", "diff", "card is purple", "true"]) == 2
    assert "purple" in capsys.readouterr().err


def test_cli_diff_not_proven(capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["rule", "diff", "--max-length", "4", "count(x in line where x is red) >= 0", "true"])
    out = capsys.readouterr().out
    assert status == 0
    assert "equivalent" in out.splitlines()
    assert "note: no difference found, but the search was not exhaustive" in out


def test_cli_check_prints_profiles(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rule", "check", "--lines", "300", str(next(EXAMPLES.glob("alternat*-colours.rule")))]) == 0
    out = capsys.readouterr().out
    rule = compile_rule("card.color != prev.color")
    assert out.endswith(f": alternate colours: {profile(rule, lines=300)}\n")  # one line a rule
    assert "looks back 1; reads color; 0 branches, size 5" in out and len(out.splitlines()) == 1


def test_rules_must_be_compiled() -> None:
    with pytest.raises(TypeError, match="compile_rule"):
        equivalent("card is red", compile_rule("card is red"))  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="compile_rule"):
        profile("card is red")  # type: ignore[arg-type]


def test_has_is_no_whole_card_use() -> None:
    from cardrules.lang.cardclasses import slot_uses

    uses = slot_uses([compile_rule("has(prev2) and card == prev").tree])
    assert uses.opaque == set() and uses.equal == {"card", "prev"}
    assert uses.attributes["prev2"] == set()


def test_a_bounded_search_gives_the_canonical_first_pair_when_it_comes_early() -> None:
    # depth 3: the bounded search; its samples find a 3-card line, and the first lines in
    # canonical order then give the spec's tie-break answer
    line, card = equivalent(compile_rule("prev3.rank == 3"), compile_rule("true"))
    assert [str(c) for c in line] == ["AS", "AS", "AS"] and str(card) == "AS"
    line, card = equivalent(compile_rule("prev3.rank == 1"), compile_rule("true"))
    assert [str(c) for c in line] == ["2S", "AS", "AS"] and str(card) == "AS"

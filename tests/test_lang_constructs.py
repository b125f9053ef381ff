"""Every construct of the expression language, its typing and its errors.

Expected values are worked out by hand from rule-language.md, not copied from output.
"""

from __future__ import annotations

import pytest

from cardrules import parse_card, parse_cards, standard_deck
from cardrules.errors import CardRulesError
from cardrules.lang import RuleSyntaxError, RuleTypeError, SourceError, compile_rule

DECK = standard_deck()


def holds(text: str, line: str = "", card: str = "5H") -> bool:
    """Whether the rule ``text`` accepts ``card`` after ``line``."""
    return compile_rule(text).accepts(parse_cards(line), parse_card(card))


# -- literals, names, attributes ---------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("12 == 12", True),
        ("-3 < 0", True),
        ("A == 1 and J == 11 and Q == 12 and K == 13", True),
        ("ace == 1 and jack == 11 and queen == 12 and king == 13", True),
        ("spades != hearts and diamonds != clubs", True),
        ("spade == spades and heart == hearts and diamond == diamonds and club == clubs", True),
        ("♠ == spades and ♥ == hearts and ♦ == diamonds and ♣ == clubs", True),
        ("red != black", True),
        ("true and not false", True),
        ("true == true and false == false and true != false", True),
    ],
)
def test_constants(text: str, expected: bool) -> None:
    assert holds(text) is expected


def test_card_prev_position_and_attributes() -> None:
    line = "2S 9D KC"
    assert holds("card.rank == 5 and card.suit == hearts and card.color == red", line, "5H")
    assert holds("prev.rank == K and prev.suit == clubs and prev.color == black", line)
    assert holds("prev2.rank == 9 and prev2.suit == diamonds", line)
    assert holds("prev3.rank == 2 and prev3.suit == spades", line)
    assert holds("position == 4", line)
    assert holds("card.colour == red", line, "5H")  # British spelling of the attribute
    assert holds("card == card and prev != prev2", line)  # cards compare as values
    assert holds("prev == prev", "2S 2S") and holds("prev == prev2", "2S 2S")


def test_prev_up_to_nine() -> None:
    line = "AS 2S 3S 4S 5S 6S 7S 8S 9S"
    assert holds("prev9.rank == 1 and prev.rank == 9 and prev5.rank == 5", line)
    with pytest.raises(RuleSyntaxError, match="prev9"):
        compile_rule("prev10.rank == 1")


# -- arithmetic ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("2 + 3 * 4 == 14", True),  # * binds tighter
        ("(2 + 3) * 4 == 20", True),
        ("10 - 3 - 2 == 5", True),  # left to right
        ("-7 % 3 == 2", True),  # Python: a positive divisor gives a non-negative remainder
        ("-7 // 2 == -4", True),  # floor division
        ("7 // 2 == 3 and 7 % 2 == 1", True),
        ("-2 * 3 == -6 and - 2 * 3 == -6", True),  # unary minus binds tighter than *
        ("--3 == 3 and -(-3) == 3", True),
        ("abs(3 - 10) == 7 and abs(4) == 4", True),
        ("min(4, 9) == 4 and max(4, 9) == 9 and min(5, 2, 8) == 2", True),
        ("card.rank - prev.rank == 2", True),
    ],
)
def test_arithmetic(text: str, expected: bool) -> None:
    assert holds(text, "3C", "5H") is expected


def test_comparisons() -> None:
    assert holds("card.rank > prev.rank", "3C", "5H")
    assert holds("card.rank >= 5 and card.rank <= 5 and card.rank < 6 and card.rank != 4", "3C", "5H")
    assert not holds("card.suit == prev.suit", "3C", "5H")
    assert holds("card.color != prev.color", "3C", "5H")


def test_comparisons_do_not_chain() -> None:
    with pytest.raises(RuleSyntaxError):
        compile_rule("1 < card.rank < 5")


# -- membership and properties ----------------------------------------------------------


def test_membership() -> None:
    assert holds("card.rank in {2, 3, 5}", card="5H")
    assert not holds("card.rank not in {2, 3, 5}", card="5H")
    assert holds("card.rank in {2..10}", card="10H") and not holds("card.rank in {2..10}", card="JH")
    assert holds("card.rank in {J..K}", card="QH") and not holds("card.rank in {J..K}", card="AH")
    assert holds("card.suit in {hearts, diamonds}", card="5H")
    assert holds("card.color in {red}", card="5H")
    assert holds("card.rank in {1, 3..4, 13}", card="4S")
    with pytest.raises(RuleTypeError, match="empty"):
        compile_rule("card.rank in {5..2}")
    with pytest.raises(RuleTypeError):
        compile_rule("card.suit in {1, 2}")
    with pytest.raises(RuleTypeError):
        compile_rule("card.rank in {2, hearts}")
    with pytest.raises(RuleTypeError, match="constants"):
        compile_rule("card.rank in {prev.rank}")


@pytest.mark.parametrize(
    ("prop", "members"),
    [
        ("red", "AH 5D KH"),
        ("black", "AS 5C KS"),
        ("odd", "AS 3H 9D JC KS"),
        ("even", "2S 10H QC"),
        ("face", "JS QH KD"),
        ("number", "2S 5H 10C"),
        ("ace", "AS AH AC"),
        ("spades", "AS 7S"),
        ("hearts", "2H QH"),
        ("diamonds", "3D"),
        ("clubs", "KC"),
        ("spade", "AS"),
        ("♣", "KC"),
    ],
)
def test_card_properties(prop: str, members: str) -> None:
    wanted = set(parse_cards(members))
    rule = compile_rule(f"card is {prop}")
    negated = compile_rule(f"card is not {prop}")
    for card in DECK:
        if card in wanted:
            assert rule.accepts([], card) and not negated.accepts([], card), card
    # and the whole set, worked out from the definitions
    definitions = {
        "red": lambda c: c.suit.code in "HD",
        "black": lambda c: c.suit.code in "SC",
        "odd": lambda c: c.rank % 2 == 1,
        "even": lambda c: c.rank % 2 == 0,
        "face": lambda c: c.rank in (11, 12, 13),
        "number": lambda c: 2 <= c.rank <= 10,
        "ace": lambda c: c.rank == 1,
        "spades": lambda c: c.suit.code == "S",
        "hearts": lambda c: c.suit.code == "H",
        "diamonds": lambda c: c.suit.code == "D",
        "clubs": lambda c: c.suit.code == "C",
        "spade": lambda c: c.suit.code == "S",
        "♣": lambda c: c.suit.code == "C",
    }
    for card in DECK:
        assert rule.accepts([], card) is definitions[prop](card), card


def test_properties_of_integers_suits_and_colours() -> None:
    assert holds("card.rank is odd and prev.rank is even", "4S", "5H")
    assert holds("(card.rank + 1) is not odd", card="5H")
    assert holds("card.suit is red and prev.suit is black", "4S", "5H")
    assert holds("card.color is red and card.color is not black", card="5H")
    assert holds("-3 is odd and 0 is even")
    with pytest.raises(RuleTypeError, match="property"):
        compile_rule("card.rank is red")
    with pytest.raises(RuleTypeError):
        compile_rule("card.suit is odd")
    with pytest.raises(RuleTypeError):
        compile_rule("card.color is face")
    with pytest.raises(RuleSyntaxError, match="known properties"):
        compile_rule("card is purple")


# -- logic and conditionals ------------------------------------------------------------


def test_logic_and_binding() -> None:
    # not binds looser than comparisons: not card is red == not (card is red)
    assert holds("not card is red", card="5S") and not holds("not card is red", card="5H")
    # a or b and c == a or (b and c)
    assert holds("true or false and false")
    assert not holds("(true or false) and false")
    assert holds("not false and true")
    assert holds("card is red and card is odd and card.rank < 6", card="5H")
    assert holds("card is black or card is hearts or false", card="5H")


def test_conditionals() -> None:
    text = "if card.rank < 5 then 1 elif card.rank < 10 then 2 else 3"
    assert holds(f"({text}) == 1", card="4H")
    assert holds(f"({text}) == 2", card="9H")
    assert holds(f"({text}) == 3", card="10H")
    assert holds("if true then if false then false else true else false")
    assert holds("(if card is red then hearts else spades) == card.suit", card="5H")
    with pytest.raises(RuleTypeError, match="branches"):
        compile_rule("if card is red then 1 else spades")
    with pytest.raises(RuleTypeError, match="condition"):
        compile_rule("if card.rank then true else false")
    with pytest.raises(RuleSyntaxError):
        compile_rule("if card is red then true")  # an if needs an else


# -- next, lists, aggregates, has --------------------------------------------------------


def test_next() -> None:
    cyc = "next(prev.suit, [spades, hearts, diamonds, clubs])"
    assert holds(f"card.suit == {cyc}", "3S", "5H")
    assert holds(f"card.suit == {cyc}", "3C", "5S")  # after clubs comes spades
    assert holds("next(3, [1, 3, 3, 7]) == 3")  # after the FIRST occurrence
    assert holds("next(7, [1, 3, 7]) == 1")
    # not in the list: nothing; == false, != true, ordering false, in false
    assert not holds("next(5, [1, 2]) == 1")
    assert holds("next(5, [1, 2]) != 1")
    assert not holds("next(5, [1, 2]) < 100") and not holds("next(5, [1, 2]) >= -100")
    assert not holds("next(5, [1, 2]) in {1, 2}") and holds("next(5, [1, 2]) not in {1, 2}")
    assert not holds("next(5, [1, 2]) == next(5, [1, 2])")  # nothing == nothing is false
    assert holds("next(J, [J..K]) == Q")
    with pytest.raises(RuleTypeError):
        compile_rule("next(card.suit, [1, 2]) == 1")


def test_constant_lists() -> None:
    assert holds("[3, 1, 4][0] == 3 and [3, 1, 4][2] == 4")
    assert holds("[2..5][3] == 5")  # a range expands in order
    assert holds("[spades, hearts][1] == hearts")
    assert holds("[true, false][0]")
    # out of range (no wrap-around) gives nothing
    assert not holds("[3, 1, 4][3] == 3") and not holds("[3, 1, 4][-1] == 4")
    assert holds("[3, 1, 4][-1] != 4")
    assert not holds("[true, false][7]")  # a boolean nothing counts as false
    assert holds("not [true, false][7]")
    assert not holds("[1][5] + 1 == 2") and holds("([1][5] + 1) is not odd")
    with pytest.raises(RuleTypeError):
        compile_rule("[1, 2][card.suit] == 1")
    with pytest.raises(RuleTypeError):
        compile_rule("[1, spades][0] == 1")
    with pytest.raises(RuleTypeError, match="list"):
        compile_rule("[1, 2] == 1")
    with pytest.raises(RuleTypeError, match="indexed"):
        compile_rule("card.rank[0] == 1")


def test_aggregates() -> None:
    line = "2H 3S 4D 5C KH"
    assert holds("count(x in line where x is red) == 3", line)
    assert holds("count(x in last 2 where x is red) == 1", line)
    assert holds("count(x in last 99 where x is red) == 3", line)  # the window shrinks
    assert holds("any(x in line where x.rank == K)", line) and not holds(
        "any(x in line where x is ace)", line
    )
    assert holds("all(x in line where x.rank < 14)", line) and not holds(
        "all(x in line where x is red)", line
    )
    assert holds("all(x in line where false) and not any(x in line where true)", "")  # empty window
    assert holds("count(x in line where true) == 0", "")
    assert holds("count(x in line where x.rank < card.rank) == 3", line, "5S")  # card inside P
    assert holds("count(x in line where x.suit == prev.suit) == 2", line)  # prev inside P
    # nested windows, each with its own name
    assert holds("count(x in line where any(y in line where y.rank == x.rank + 1)) == 3", line)
    assert holds("count(x in line where x is red) + count(x in line where x is black) == 5", line)


def test_aggregate_names() -> None:
    for bad in ("card", "prev", "red", "position", "odd", "rank", "X"):
        with pytest.raises(RuleSyntaxError):
            compile_rule(f"any({bad} in line where true)")
    with pytest.raises(RuleSyntaxError, match="enclosing"):
        compile_rule("any(x in line where any(x in line where true))")
    with pytest.raises(RuleTypeError, match="where"):
        compile_rule("any(x in line where x.rank)")
    with pytest.raises(RuleTypeError):
        compile_rule("count(x in last 0 where true) == 0")
    with pytest.raises(RuleSyntaxError, match="unknown name 'x'"):
        compile_rule("any(x in line where true) and x is red")  # x is bound inside only


def test_has_and_nothing() -> None:
    rule = compile_rule("has(prev2) and prev2 is red")
    assert not rule.accepts([], parse_card("5H"))  # exempt from the depth rule
    assert rule.accepts(parse_cards("2H 3S"), parse_card("5H"))
    assert not rule.accepts(parse_cards("2S 3S"), parse_card("5H"))
    # a missing prevN is nothing: == false, != true, is P false, is not P true
    assert not holds("has(prev) or prev.rank == 5", "")
    assert holds("has(prev) or prev.rank != 5", "")
    assert holds("has(prev) or prev is not red", "")
    assert not holds("has(prev) or prev is red", "")
    assert not holds("has(prev) or prev == prev", "")
    assert not holds("has(prev) or prev.rank + 1 > 0", "")
    assert not holds("has(prev) or abs(prev.rank) >= 0", "")
    assert not holds("has(prev) or min(prev.rank, 3) == 3", "")
    assert holds("has(prev) or not (prev.rank < 3)", "")
    assert not holds("has(prev) or next(prev.suit, [spades, hearts]) == hearts", "")
    assert not holds("has(prev) or (if prev is red then true else prev is black)", "")
    assert holds("has(prev) or count(x in line where x == prev) == 0", "")
    assert holds("has(prev3) == false and has(prev2)", "2S 3S")
    with pytest.raises(RuleTypeError):
        compile_rule("has(card)")
    with pytest.raises(RuleTypeError):
        compile_rule("has(3)")


def test_start_part_has_no_main_line() -> None:
    for bad in ("prev is red", "has(prev)", "any(x in line where true)", "count(x in last 2 where true) > 0"):
        with pytest.raises(RuleSyntaxError):
            compile_rule(f'rule "r": start: {bad} play: true')
    rule = compile_rule('rule "r": start: position == 1 and card is number play: true')
    assert rule.accepts_start(parse_card("2C")) and not rule.accepts_start(parse_card("KC"))
    with pytest.raises(RuleSyntaxError):
        compile_rule('rule "r": play: true start: true')  # start: comes first


# -- errors ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "cls", "line", "column", "words"),
    [
        ("card.suit == 3", RuleTypeError, 1, 11, "one type"),
        ("card.rank is red", RuleTypeError, 1, 14, "red"),
        ("card.suit < prev.suit", RuleTypeError, 1, 11, "orders integers"),
        ("card.rank + 1", RuleTypeError, 1, 1, "boolean"),
        ("card.rank % 0 == 1", RuleTypeError, 1, 13, "positive integer literal"),
        ("card.rank % prev.rank == 1", RuleTypeError, 1, 13, "positive integer literal"),
        ("card.rank // -2 == 1", RuleTypeError, 1, 14, "positive integer literal"),
        ("cardd.rank == 1", RuleSyntaxError, 1, 1, "known names"),
        ("card.rnak == 1", RuleSyntaxError, 1, 6, "rank"),
        ("card is purple", RuleSyntaxError, 1, 9, "known properties"),
        ("foo(card) == 1", RuleSyntaxError, 1, 1, "known functions"),
        ("prev10 is red", RuleSyntaxError, 1, 1, "prev9"),
        ("has(prev10)", RuleSyntaxError, 1, 5, "prev9"),
        ("card.rank < 1 < 2", RuleSyntaxError, 1, 15, "comparisons do not chain"),
        ("card.rank < 1 < 2", RuleSyntaxError, 1, 15, "an operator such as and, or, +, -"),
        ("has(cardd) or true", RuleSyntaxError, 1, 5, "known names"),
        ("has(card)", RuleTypeError, 1, 1, "has takes one of prev"),
        ("card is", RuleSyntaxError, 1, 8, "expected a card property such as red, odd or face after 'is'"),
        ("card.rank ==", RuleSyntaxError, 1, 13, "expected a value"),
        ("card.rank = 3", RuleSyntaxError, 1, 11, "=="),
        ("if card is red then\n  true\n", RuleSyntaxError, 2, 7, "'else'"),
        ("card is red and\n\n   # nothing more\n", RuleSyntaxError, 1, 16, "expected a value"),
        ('rule "a":\n  card.suit == \n   7', RuleTypeError, 2, 13, "one type"),
        ("if card is red then 1 else true", RuleTypeError, 1, 28, "branches"),
        ("not card.rank", RuleTypeError, 1, 5, "boolean"),
        ("abs(card) == 1", RuleTypeError, 1, 5, "integer"),
        ("prev.suit.color == red", RuleTypeError, 1, 11, "card"),
    ],
)
def test_error_positions(text: str, cls: type, line: int, column: int, words: str) -> None:
    with pytest.raises(cls) as info:
        compile_rule(text)
    err = info.value
    assert isinstance(err, SourceError) and isinstance(err, CardRulesError)
    assert (err.line, err.column) == (line, column), str(err)
    assert words in str(err)
    # the message shows the source line and a caret under the column
    shown = str(err).split("\n")
    assert shown[1] == "  " + text.split("\n")[line - 1]
    assert shown[2] == "  " + " " * (column - 1) + "^"
    assert "__ANON" not in str(err) and "expr__" not in str(err)


def test_unknown_name_lists_what_is_known() -> None:
    with pytest.raises(RuleSyntaxError) as info:
        compile_rule("cardd is red")
    message = str(info.value)
    for known in ("card", "prev", "prev2 .. prev9", "position", "spades", "red"):
        assert known in message
    assert "did you mean 'card'" in message


def test_bad_arguments_are_card_rules_errors() -> None:
    with pytest.raises(RuleSyntaxError):
        compile_rule(123)  # type: ignore[arg-type]
    with pytest.raises(RuleSyntaxError):
        compile_rule("true", name='a "quoted" name')
    with pytest.raises(RuleSyntaxError):
        compile_rule("")
    with pytest.raises(RuleSyntaxError):
        compile_rule("# only a comment\n")


def test_bound_names_may_start_with_an_underscore() -> None:
    assert holds("count(_x1 in line where _x1 is red) == 1", "2H 3S")


def test_a_rules_file_of_comments_holds_no_rules() -> None:
    from cardrules.lang import compile_rules

    assert compile_rules("# nothing yet\n\n") == {}
    assert compile_rules("") == {}


@pytest.mark.parametrize(
    ("text", "column"),
    [
        ("card is red or or", 16),
        ("count(where in line where where is red) > 0", 7),
        ("card.if == 1", 6),
        ("card is in", 9),
        ("card.rank == then", 14),
        ("any(line in line where true)", 5),
    ],
)
def test_keywords_are_reserved_everywhere(text: str, column: int) -> None:
    with pytest.raises(RuleSyntaxError) as info:
        compile_rule(text)
    assert info.value.column == column
    assert "unexpected '" in info.value.message and "unknown name" not in info.value.message

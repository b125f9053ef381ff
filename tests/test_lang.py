"""The Eleusis rule language: the spec's examples against hand-written predicates.

Every compiled rule is compared with an independent Python predicate written from the
spec's wording (rule-language.md sections 1, 2 and 2b), on hand-picked and on random
main lines, empty and short ones included.
"""

from __future__ import annotations

import pickle
from collections.abc import Callable, Sequence

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cardrules import Card, Color, Suit, parse_card, parse_cards, standard_deck
from cardrules.lang import RuleSyntaxError, RuleTypeError, compile_rule, compile_rules

DECK = standard_deck()
RED = Color.RED
BLACK = Color.BLACK

Pred = Callable[[Sequence[Card], Card], bool]


def depth_guard(depth: int, pred: Pred) -> Pred:
    """The spec's missing-history rule: fewer than `depth` cards accept everything."""
    return lambda line, card: len(line) < depth or pred(line, card)


def _next_suit(s: Suit) -> Suit:
    order = [Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS]
    return order[(order.index(s) + 1) % 4]


def _mod3(line: Sequence[Card], card: Card) -> bool:
    r = line[-1].rank % 3
    if r == 0:
        return card.rank in (11, 12, 13)
    if r == 1:
        return card.rank % 2 == 1
    return card.rank % 2 == 0


def _recent_red(line: Sequence[Card], card: Card) -> bool:
    reds = sum(1 for x in line[-5:] if x.color is RED)
    position = len(line) + 1
    return (reds * 2 > min(position - 1, 5)) == (card.color is RED)


def _digits_of_pi(line: Sequence[Card], card: Card) -> bool:
    digits = [3, 1, 4, 1, 5, 9, 2, 6, 5, 3]
    i = len(line)  # position - 1
    return 0 <= i < len(digits) and card.rank == digits[i]


# (rule text, independent reference) -- the ten examples of section 2 and the six of 2b.
SPEC_EXAMPLES: list[tuple[str, Pred]] = [
    ("card.color != prev.color", depth_guard(1, lambda ln, c: c.color != ln[-1].color)),
    (
        "card.suit == next(prev.suit, [spades, hearts, diamonds, clubs])",
        depth_guard(1, lambda ln, c: c.suit == _next_suit(ln[-1].suit)),
    ),
    (
        "if prev is odd then card is black else card is red",
        depth_guard(1, lambda ln, c: c.color == (BLACK if ln[-1].rank % 2 else RED)),
    ),
    (
        "if prev.rank % 3 == 0 then card is face\n  elif prev.rank % 3 == 1 then card is odd\n  else card is even",
        depth_guard(1, _mod3),
    ),
    (
        "card.suit == prev.suit or card.rank == prev.rank",
        depth_guard(1, lambda ln, c: c.suit == ln[-1].suit or c.rank == ln[-1].rank),
    ),
    (
        "if card.rank > prev.rank then card.color == prev.color else card.color != prev.color",
        depth_guard(1, lambda ln, c: (c.color == ln[-1].color) == (c.rank > ln[-1].rank)),
    ),
    (
        "if position is even then card is red else card is black",
        lambda ln, c: c.color == (RED if (len(ln) + 1) % 2 == 0 else BLACK),
    ),
    ("card.rank in {2, 3, 5, 7, 11, 13}", lambda ln, c: c.rank in (2, 3, 5, 7, 11, 13)),
    ("abs(card.rank - prev.rank) <= 2", depth_guard(1, lambda ln, c: abs(c.rank - ln[-1].rank) <= 2)),
    (
        "(card.rank + prev.rank + prev2.rank) % 2 == 0",
        depth_guard(2, lambda ln, c: (c.rank + ln[-1].rank + ln[-2].rank) % 2 == 0),
    ),
    (
        "card.rank % 2 == count(x in line where x is red) % 2",
        lambda ln, c: c.rank % 2 == sum(1 for x in ln if x.color is RED) % 2,
    ),
    (
        "not any(x in line where x.rank == card.rank)                # never repeat a rank",
        lambda ln, c: all(x.rank != c.rank for x in ln),
    ),
    ("all(x in line where card.rank >= x.rank)", lambda ln, c: all(c.rank >= x.rank for x in ln)),
    ("(count(x in last 5 where x is red) * 2 > min(position - 1, 5)) == (card is red)", _recent_red),
    ("card.rank == [3, 1, 4, 1, 5, 9, 2, 6, 5, 3][position - 1]", _digits_of_pi),
    (
        "if has(prev3) then card.suit != prev3.suit else true",
        lambda ln, c: c.suit != ln[-3].suit if len(ln) >= 3 else True,
    ),
]

cards = st.sampled_from(DECK)
lines = st.lists(cards, min_size=0, max_size=12)


@pytest.mark.parametrize(("text", "reference"), SPEC_EXAMPLES, ids=[t[:40] for t, _ in SPEC_EXAMPLES])
@given(line=lines, card=cards)
def test_spec_examples_match_hand_written_predicates(
    text: str, reference: Pred, line: list[Card], card: Card
) -> None:
    rule = compile_rule(text)
    assert rule.accepts(line, card) is reference(line, card)
    assert rule.accepts(tuple(line), card) is reference(line, card)


@pytest.mark.parametrize(("text", "reference"), SPEC_EXAMPLES, ids=[t[:40] for t, _ in SPEC_EXAMPLES])
def test_spec_examples_on_every_short_line(text: str, reference: Pred) -> None:
    rule = compile_rule(text)
    sample = DECK[::5]
    for a in [None, *sample]:
        line = [] if a is None else [a]
        for card in sample:
            assert rule.accepts(line, card) is reference(line, card), (line, card)


def test_seed_rules() -> None:
    # The two rules of the New Eleusis seed (002): "odd then black, even then red" and
    # "divisible by 3: a face; remainder 1: odd; remainder 2: even".
    odd_black = compile_rule("if prev is odd then card is black else card is red")
    assert odd_black.accepts(parse_cards("7H"), parse_card("4S"))
    assert not odd_black.accepts(parse_cards("7H"), parse_card("4D"))
    assert odd_black.accepts(parse_cards("8C"), parse_card("4D"))
    mod3 = compile_rule(SPEC_EXAMPLES[3][0])
    assert mod3.accepts(parse_cards("9S"), parse_card("QH"))  # 9 % 3 == 0: a face
    assert not mod3.accepts(parse_cards("9S"), parse_card("10H"))
    assert mod3.accepts(parse_cards("10S"), parse_card("KH"))  # 10 % 3 == 1: odd (K = 13)
    assert mod3.accepts(parse_cards("JS"), parse_card("QH"))  # 11 % 3 == 2: even (Q = 12)


def test_missing_history_is_a_whole_rule_decision() -> None:
    # `not` does not change it: with no card in the line, every card is accepted.
    rule = compile_rule("not (card.color == prev.color)")
    assert all(rule.accepts([], c) for c in DECK)
    deep = compile_rule("card is red or prev3 is red")
    assert all(deep.accepts(parse_cards("2S 3S"), c) for c in DECK)
    assert not deep.accepts(parse_cards("2S 3S 4S"), parse_card("5S"))
    # prevN inside an aggregate counts for the depth.
    agg = compile_rule("any(x in line where x.rank == prev2.rank + 100)")
    assert agg.depth == 2
    assert agg.accepts(parse_cards("2S"), parse_card("3S"))
    assert not agg.accepts(parse_cards("2S 4S"), parse_card("3S"))


def test_position_counts_the_starter_as_one() -> None:
    rule = compile_rule("position == 2")
    assert rule.accepts(parse_cards("5H"), parse_card("2C"))
    assert not rule.accepts(parse_cards("5H 6H"), parse_card("2C"))
    assert compile_rule('rule "s": start: position == 1 play: true').accepts_start(parse_card("2C"))


def test_accepts_string_extends_the_line() -> None:
    rule = compile_rule("card.color != prev.color")
    assert rule.accepts_string(parse_cards("5H"), parse_cards("7C 4D 8S"))
    assert not rule.accepts_string(parse_cards("5H"), parse_cards("7C 8S"))
    assert rule.accepts_string(parse_cards("5H"), [])


def test_allowed_is_canonical_and_distinct() -> None:
    rule = compile_rule("card.suit == prev.suit and card.rank > prev.rank")
    got = rule.allowed(parse_cards("10H"))
    assert [str(c) for c in got] == ["JH", "QH", "KH"]
    two = rule.allowed(parse_cards("10H"), deck=[*DECK, *DECK])
    assert got == two
    assert rule.allowed([], deck=parse_cards("KS 2H 2H")) == parse_cards("KS 2H")


def test_allowed_costs_at_most_52_accepts() -> None:
    calls = 0
    rule = compile_rule("card is red  # a private copy: this test patches it")
    inner = rule.accepts

    def counting(line: Sequence[Card], card: Card) -> bool:
        nonlocal calls
        calls += 1
        return inner(line, card)

    object.__setattr__(rule, "accepts", counting)
    rule.allowed(parse_cards("5H"), deck=[*DECK, *DECK])
    assert calls == 52


def test_start_and_play() -> None:
    rule = compile_rule(
        'rule "ascending from an ace":\n    start: card is ace\n    play:  card.rank >= prev.rank'
    )
    assert rule.name == "ascending from an ace"
    assert rule.accepts_start(parse_card("AH"))
    assert not rule.accepts_start(parse_card("2H"))
    # accepts never consults start:
    assert rule.accepts(parse_cards("5H"), parse_card("6C"))
    assert not rule.accepts(parse_cards("5H"), parse_card("4C"))
    plain = compile_rule("card is red")
    assert all(plain.accepts_start(c) for c in DECK)
    play_only = compile_rule('rule "p": play: card is red')
    assert play_only.accepts([], parse_card("2H")) and not play_only.accepts([], parse_card("2S"))


def test_compile_rules_and_names() -> None:
    rules = compile_rules(
        '# two rules\nrule "alternate colours":\n    card.color != prev.color\n\n'
        'rule "primes": card.rank in {2, 3, 5, 7, 11, 13}\n'
    )
    assert list(rules) == ["alternate colours", "primes"]
    assert rules["primes"].source.startswith('rule "primes"')
    assert compile_rule(rules["primes"].source) == rules["primes"]
    with pytest.raises(RuleSyntaxError):
        compile_rules("card is red")
    with pytest.raises(RuleSyntaxError) as err:
        compile_rules('rule "a": true\nrule "a": false')
    assert err.value.line == 2
    with pytest.raises(RuleSyntaxError):
        compile_rule('rule "a": true rule "b": false')
    assert compile_rule("card is red", name="reds").name == "reds"
    assert compile_rule('rule "x": card is red', name="y").name == "y"


def test_equality_pickle_and_pretty_form() -> None:
    a = compile_rule("card.color  !=  prev.colour   # alternate")
    b = compile_rule("(card.color != prev.color)")
    assert a == b and hash(a) == hash(b)
    assert str(a) == "card.color != prev.color"
    assert a != compile_rule("card.color != prev.color", name="x")
    c = pickle.loads(pickle.dumps(a))
    assert c == a and c.source == a.source
    named = compile_rule('rule "asc":\n start: card is ace play: card.rank >= prev.rank')
    assert str(named) == 'rule "asc":\n    start: card is ace\n    play: card.rank >= prev.rank'
    assert compile_rule(str(named)) == named


def test_json_codec() -> None:
    from cardrules.errors import CardRulesError
    from cardrules.lang import Rule
    from cardrules.serialize import decode_value, encode_value

    rule = compile_rule("card is red", name="reds")
    data = encode_value(rule)
    assert data == {"name": "reds", "source": "card is red"}
    assert decode_value(Rule, data) == rule
    with pytest.raises(CardRulesError):
        decode_value(Rule, {"name": "x", "source": "card is"})
    with pytest.raises(CardRulesError):
        decode_value(Rule, {"nothing": 1})


def test_errors_are_located() -> None:
    with pytest.raises(RuleSyntaxError) as e:
        compile_rule("card is 7")
    assert (e.value.line, e.value.column) == (1, 9)
    assert "expected a card property such as red, odd or face after 'is'" in str(e.value)
    assert "  card is 7\n          ^" in str(e.value)
    with pytest.raises(RuleTypeError) as t:
        compile_rule("card.suit == 3")
    assert (t.value.line, t.value.column) == (1, 11)


@pytest.mark.parametrize(
    ("text", "line", "card", "expected"),
    [
        # the spec's (and the README's) example, word for word
        (
            "if prev is odd then card is black else card is red",
            "7H",
            "4D",
            "prev 7H is odd, so card must be black; 4D is red",
        ),
        (
            "if prev is odd then card is black else card is red",
            "8H",
            "4D",
            "prev 8H is not odd, so card must be red; 4D is red",
        ),
        (
            "card.color != prev.color",
            "7H",
            "4D",
            "card.color must differ from prev.color; card.color is red, prev.color is red",
        ),
        (
            "not any(x in line where x.rank == card.rank)",
            "7H 4S",
            "4D",
            "no card x of the line may have x.rank == card.rank; 4S of the line has x.rank == card.rank",
        ),
        ("card.rank in {2..10}", "", "KD", "card.rank must be in {2..10}; card.rank is 13"),
        (
            "card.suit == prev.suit or card.rank == prev.rank",
            "9S",
            "KD",
            "card.suit must be prev.suit; card.suit is diamonds, prev.suit is spades, "
            "or card.rank must be prev.rank; card.rank is 13, prev.rank is 9",
        ),
        (
            "not (prev is red and card is red)",
            "9H",
            "KD",
            "prev must not be red; 9H is red, or card must not be red; KD is red",
        ),
        ("card is face and card is red", "9H", "KS", "card must be red; KS is black"),
        (
            "card.color != prev2.color",
            "7H",
            "4D",
            "the rule looks back 2 cards and the main line has 1: every card is right",
        ),
    ],
)
def test_explain_names_the_deciding_part(text: str, line: str, card: str, expected: str) -> None:
    assert compile_rule(text).explain(parse_cards(line), parse_card(card)) == expected


# More of section 2b against hand-written predicates: windows, nesting, has, lists.
REACH_EXAMPLES: list[tuple[str, Pred]] = [
    (
        "count(x in last 3 where x.suit == card.suit) >= 1",
        lambda ln, c: any(x.suit == c.suit for x in ln[-3:]),
    ),
    (
        "count(x in line where any(y in last 2 where y.rank == x.rank)) > 2",
        lambda ln, c: sum(1 for x in ln if any(y.rank == x.rank for y in ln[-2:])) > 2,
    ),
    (
        "not (has(prev2) and card.suit == prev.suit and card.suit == prev2.suit)",
        lambda ln, c: not (len(ln) >= 2 and c.suit == ln[-1].suit and c.suit == ln[-2].suit),
    ),
    (
        "card.suit == [spades, hearts, diamonds, clubs][position % 4]",
        lambda ln, c: c.suit == [Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS][(len(ln) + 1) % 4],
    ),
    (
        "has(prev) and next(prev.rank, [A..K]) == card.rank",
        lambda ln, c: len(ln) >= 1 and c.rank == ln[-1].rank % 13 + 1,
    ),
    ("[true, false][position - 2]", lambda ln, c: len(ln) == 1),
    (
        "if has(prev) then prev.rank + card.rank > 10 else card is face",
        lambda ln, c: ln[-1].rank + c.rank > 10 if ln else c.rank > 10,
    ),
    (
        "all(x in last 4 where x.color != card.color or x.rank < card.rank)",
        lambda ln, c: all(x.color != c.color or x.rank < c.rank for x in ln[-4:]),
    ),
    (
        "count(x in line where x.rank == prev2.rank) == 1",  # prev2 inside P sets the depth
        depth_guard(2, lambda ln, c: sum(1 for x in ln if x.rank == ln[-2].rank) == 1),
    ),
    (
        "has(prev3) or prev3.rank != card.rank",  # a missing prev3 is nothing: != is true
        lambda ln, c: True,
    ),
    (
        "[3, 1, 4][position] != card.rank",  # out of range: nothing, != true
        lambda ln, c: not (len(ln) + 1 <= 2 and c.rank == [3, 1, 4][len(ln) + 1]),
    ),
]


@pytest.mark.parametrize(("text", "reference"), REACH_EXAMPLES, ids=[t[:40] for t, _ in REACH_EXAMPLES])
@given(line=lines, card=cards)
def test_reach_forms_match_hand_written_predicates(
    text: str, reference: Pred, line: list[Card], card: Card
) -> None:
    assert compile_rule(text).accepts(line, card) is reference(line, card)

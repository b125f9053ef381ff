import copy
import pickle

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cardrules import (
    JOKER,
    Card,
    CardParseError,
    CardRulesError,
    Color,
    InvalidCardError,
    Suit,
    canonical,
    haggis_number_cards,
    parse_card,
    parse_cards,
    standard_deck,
    two_decks,
)
from cardrules.cards import _INTERNED

ALL_CARDS = list(_INTERNED.values())
cards = st.sampled_from(ALL_CARDS)


def test_there_are_exactly_the_cards_the_games_use():
    # 52 French cards, 9 moons (2..10), suitless J Q K, one joker
    assert len(ALL_CARDS) == 52 + 9 + 3 + 1


@given(cards)
def test_str_round_trips(card):
    assert parse_card(str(card)) is card


@given(cards)
def test_pickle_and_copy_give_the_same_card(card):
    assert pickle.loads(pickle.dumps(card)) is card
    assert copy.copy(card) is card
    assert copy.deepcopy(card) is card


@given(cards, cards)
def test_equality_and_hash_are_by_value(a, b):
    assert (a == b) == ((a.rank, a.suit) == (b.rank, b.suit))
    if a == b:
        assert hash(a) == hash(b)
    assert Card(a.rank, a.suit) == a


@pytest.mark.parametrize(
    "text, rank, suit",
    [
        ("10h", 10, Suit.HEARTS), ("Th", 10, Suit.HEARTS), ("QS", 12, Suit.SPADES),
        ("a♣", 1, Suit.CLUBS), ("2♦", 2, Suit.DIAMONDS), ("K♥", 13, Suit.HEARTS),
        ("9♠", 9, Suit.SPADES), (" 7c ", 7, Suit.CLUBS), ("5M", 5, Suit.MOONS),
        ("5☾", 5, Suit.MOONS), ("JK", 0, None), ("*", 0, None), ("jk", 0, None),
        ("Q", 12, None), ("j", 11, None), ("K", 13, None),
    ],
)  # fmt: skip
def test_notation(text, rank, suit):
    card = parse_card(text)
    assert (card.rank, card.suit) == (rank, suit)


@pytest.mark.parametrize("card, text", [("10h", "10H"), ("Ts", "10S"), ("qs", "QS"),
                                        ("a♣", "AC"), ("*", "JK"), ("q", "Q"), ("5☾", "5M")])
def test_canonical_str(card, text):
    assert str(parse_card(card)) == text


@pytest.mark.parametrize(
    "text, token",
    [("1H", "'1'"), ("11H", "'11'"), ("QX", "'X'"), ("", "empty"), ("10", "suit is missing"),
     ("AM", "moons"), ("KM", "moons"), ("H", "'H'"), ("10HH", "'10H'"), ("JKS", "'JK'"),
     ("0S", "'0'"), ("♠", "'♠'")],
)
def test_bad_cards_name_the_bad_token(text, token):
    with pytest.raises(CardParseError) as info:
        parse_card(text)
    assert token in str(info.value)
    assert isinstance(info.value, ValueError) and isinstance(info.value, CardRulesError)


def test_parse_cards_separators_and_errors():
    assert parse_cards("5H, 7C QS") == (Card(5, Suit.HEARTS), Card(7, Suit.CLUBS), Card(12, Suit.SPADES))
    assert parse_cards("  ") == ()
    with pytest.raises(CardParseError, match="'ZZ'"):
        parse_cards("5H ZZ 7C")
    with pytest.raises(CardParseError):
        parse_cards(None)  # type: ignore[arg-type]
    with pytest.raises(CardParseError):
        parse_card(5)  # type: ignore[arg-type]


@pytest.mark.parametrize("rank, suit", [(14, Suit.SPADES), (-1, None), (1, Suit.MOONS),
                                        (0, Suit.HEARTS), (5, None), (True, Suit.HEARTS),
                                        ("5", Suit.HEARTS), (5, "H")])
def test_cards_that_do_not_exist(rank, suit):
    with pytest.raises(InvalidCardError):
        Card(rank, suit)


def test_cards_are_immutable():
    card = parse_card("5H")
    with pytest.raises(AttributeError):
        card.rank = 6  # type: ignore[misc]


def test_no_natural_order():
    with pytest.raises(TypeError):
        _ = parse_card("5H") < parse_card("6H")  # type: ignore[operator]


def test_suits_and_colours():
    assert [s.code for s in Suit] == ["S", "H", "D", "C", "M"]
    assert [s.symbol for s in Suit] == ["♠", "♥", "♦", "♣", "☾"]
    assert Suit.HEARTS.color == "red" and Suit.CLUBS.color is Color.BLACK
    assert Suit.MOONS.color is None
    assert parse_card("5D").color is Color.RED and JOKER.color is None


def test_canonical_order():
    deck = standard_deck()
    assert len(deck) == 52 and [str(c) for c in deck[:3]] == ["AS", "2S", "3S"]
    assert [s for s in dict.fromkeys(c.suit for c in deck)] == [Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS]
    mixed = parse_cards("JK K 5M 2C AS JK Q 10H 2C")
    assert [str(c) for c in canonical(mixed)] == ["AS", "10H", "2C", "2C", "5M", "Q", "K", "JK", "JK"]


@given(st.lists(cards, max_size=20))
def test_canonical_is_sorted_by_index(cs):
    out = canonical(cs)
    assert sorted(out, key=lambda c: c.index) == list(out) and sorted(map(str, out)) == sorted(map(str, cs))


def test_decks():
    assert len(two_decks()) == 104 and len(two_decks(jokers=2)) == 106
    assert two_decks(jokers=2).count(JOKER) == 2
    assert len(haggis_number_cards()) == 45 and len(haggis_number_cards(4)) == 36
    assert all(c.suit is not Suit.MOONS for c in haggis_number_cards(4))

"""New Eleusis: every rule of spec/eleusis.md on stacked decks.

The default rule (alternating colours) judges unless a test says otherwise.  Hands are
small (``Rules(hand_size=...)``) so each situation can be read off the test.
"""

import attrs
import pytest
from eleusis_helpers import card, deal_order, fresh, game, hand, line, play, rule, start_rule, total_cards

from cardrules import (
    CHANCE,
    IllegalActionError,
    RulesError,
    Shuffle,
    chance_cards,
    from_json,
    parse_cards,
    to_json,
)
from cardrules import eleusis as E
from cardrules.eleusis.rules import DECK

H3 = ["2S 3H 4D", "5C 6H 7S", "8D 9C 10H"]
# Four scientists; a KD starter makes scientist 1 first ((13 - 1) % 4 + 1).
H4 = ["2S 3H 4S 5H", "6S 7H 8S 9H", "10S JH QS KH", "AS 2H 3S 4H"]


def legal(s):
    return E.legal_actions(s)


# -- set-up ----------------------------------------------------------------------------


def test_the_deal_goes_one_card_at_a_time_from_scientist_1():
    s = E.new_game(E.Rules(hand_size=3), players=4)
    assert s.to_act is CHANCE and len(chance_cards(s)) == 104
    order = deal_order(H3, "7H", "KS KH")
    assert order.order[:4] == parse_cards("2S 5C 8D 3H")
    s = E.apply(s, order)
    assert [hand(s, p) for p in range(4)] == ["", "2S 3H 4D", "7S 6H 5C", "10H 8D 9C"]
    assert line(s) == "7H"
    assert s.stock[:2] == parse_cards("KS KH") and len(s.stock) == 104 - 10
    assert s.to_act == 1 and s.phase == "turn"


@pytest.mark.parametrize(
    ("players", "starter", "first"),
    [(4, "7H", 1), (4, "KD", 1), (4, "2C", 2), (4, "6C", 3), (5, "5C", 1), (5, "3C", 3), (5, "QC", 4),
     (8, "7S", 7), (8, "8S", 1), (3, "AS", 1), (3, "2S", 2), (3, "JS", 1)],
)  # fmt: skip
def test_the_starters_rank_counted_from_gods_left_names_the_first_scientist(players, starter, first):
    pool = parse_cards("AD 2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD AH 2H 3H 4H 5H 6H 10H JH")
    hands = [" ".join(map(str, pool[3 * i : 3 * i + 3])) for i in range(players - 1)]
    assert game(hands, starter).to_act == first


def test_a_hand_size_the_decks_cannot_deal_is_refused():
    with pytest.raises(RulesError, match="cannot deal"):
        E.new_game(E.Rules(decks=1, hand_size=14), players=5)
    E.new_game(E.Rules(decks=1, hand_size=17), players=4)  # 51 + the starter: just fits


@pytest.mark.parametrize(
    "bad",
    [{"hand_size": 0}, {"decks": 0}, {"penalty": -1}, {"max_string": 0}, {"no_play_shrink": 0},
     {"sudden_death": -1}, {"prophets": 1}, {"secret": "card.color != prev.color"}, {"hand_size": True},
     {"decks": 21}, {"decks": 10**9}, {"penalty": 53}, {"no_play_penalty": 10**9}, {"overthrow_penalty": 99}],
)  # fmt: skip
def test_impossible_rules_are_refused(bad):
    with pytest.raises(RulesError):
        E.Rules(**bad)


# -- the start clause ------------------------------------------------------------------


def test_the_starter_is_the_first_card_the_start_clause_accepts():
    secret = start_rule("card.rank == 1", "card.color != prev.color")
    s = game(H3, "5H 7C AS", "KS", secret=secret)
    assert line(s) == "AS"
    assert s.stock[0] == card("KS")
    assert s.stock[-2:] == parse_cards("5H 7C")  # rejected: to the bottom, in order
    assert len(s.stock) == 104 - 10
    assert s.to_act == 1  # an ace: the first scientist


def test_a_rule_without_start_clause_takes_the_top_card():
    s = game(H3, "5H 7C AS")
    assert line(s) == "5H" and s.stock[:2] == parse_cards("7C AS")


def test_a_start_clause_that_accepts_no_card_is_refused_when_the_game_is_made():
    rules = E.Rules(secret=start_rule("card.rank == 0", "card.color != prev.color"))
    with pytest.raises(RulesError, match="start: clause accepts no card"):
        E.new_game(rules)
    with pytest.raises(RulesError, match="start: clause accepts no card"):
        E.new_game(rules, players=3, seed=1)


def test_when_no_card_left_in_the_deck_suits_the_start_clause_a_fresh_deck_is_searched():
    secret = start_rule("card.rank == 1 and card.suit == spades", "card.color != prev.color")
    s = game(["AS AS 2H", "5C 6H 7S", "8D 9C 10H"], "", secret=secret)
    assert s.phase == "starter" and s.to_act is CHANCE and len(chance_cards(s)) == 52
    assert len(s.stock) == 104 - 9  # every card turned was rejected
    s = fresh(s, "3H 4H AS")
    assert line(s) == "AS" and s.to_act == 1
    assert s.stock[-2:] == parse_cards("3H 4H")
    assert len(s.stock) == 104 - 9 + 52 - 1
    assert total_cards(s) == 156


# -- single plays and strings ----------------------------------------------------------


def test_a_right_card_extends_the_main_line_and_the_player_is_offered_prophecy():
    s = play(game(H3, "7H"), "2S")
    assert line(s) == "7H 2S" and hand(s, 1) == "3H 4D" and s.count == 1
    assert s.phase == "offer" and s.to_act == 1
    assert legal(s) == (E.BecomeProphet(), E.Pass())
    s = E.apply(s, E.Pass())
    assert s.to_act == 2 and s.phase == "turn"


def test_a_wrong_card_goes_to_a_side_line_and_costs_two_cards():
    s = E.apply(play(game(H3, "7H", "KS KH QD"), "2S"), E.Pass())
    s = play(s, "5C")  # black after black
    assert line(s) == "7H 2S"
    assert s.sides == ((1, (card("5C"),)),)
    assert hand(s, 2) == "7S KS 6H KH"
    assert s.stock[0] == card("QD") and s.count == 2
    assert s.phase == "offer" and s.to_act == 2  # a wrong play is still a play


def test_a_string_is_judged_card_by_card_each_extending_the_line():
    s = game(["2S 3H 4C", "5C 6H 7S", "8D 9C 10H"], "7H", "KS KH QS QH")
    right = play(s, "2S 3H")  # 3H is right only after 2S
    assert line(right) == "7H 2S 3H" and hand(right, 1) == "4C" and right.count == 2
    wrong = play(s, "4C 2S")  # 4C right, then 2S black after black
    assert line(wrong) == "7H"
    assert wrong.sides == ((0, parse_cards("4C 2S")),)
    assert hand(wrong, 1) == "QS KS 3H QH KH"  # 2 per card played
    assert play(s, "3H 2S").sides == ((0, parse_cards("3H 2S")),)  # order matters


def test_a_string_that_empties_the_hand_ends_the_round():
    s = play(game(["2S 3H 4C", "5C 6H 7S", "8D 9C 10H"], "7H"), "2S 3H 4C")
    assert s.is_over and s.to_act is None and line(s) == "7H 2S 3H 4C"
    assert s.scores == (7, 7, 0, 0) and s.winners == (0, 1)


def test_legal_actions_list_each_distinct_card_then_no_play():
    s = game(["2S 2S 3H", "5C 6H 7S", "8D 9C 10H"], "7H")
    assert legal(s) == (E.Play(parse_cards("2S")), E.Play(parse_cards("3H")), E.NoPlay())


def test_strings_enumerates_every_distinct_ordered_string():
    s = game(["2S 2S 3H 4D", "5C 6H 7S 8S", "8D 9C 10H JH", "AS AC 2C 3C"], "KD")
    twos = E.strings(s, 2)
    assert [str(p) for p in twos] == ["2S 2S", "2S 3H", "2S 4D", "3H 2S", "3H 4D", "4D 2S", "4D 3H"]
    assert len(E.strings(s, 4)) == 12  # 4!/2!
    assert E.strings(s, 5) == () and E.strings(s, 0) == ()
    for p in E.strings(s, 3):
        E.apply(s, p)  # each one is legal


def test_a_hand_of_14_has_some_26000_strings():
    s = E.new_game(seed=2)
    h = s.hands[s.to_act]
    if len(set(h)) == 14:
        assert sum(len(E.strings(s, n)) for n in (2, 3, 4)) == 182 + 2184 + 24024


@pytest.mark.parametrize(
    ("cards", "message"),
    [("2S 3H 4D 5C 6C", "a string has at most 4 cards"), ("5H", "5H is not in your hand"),
     ("2S 2S", "you hold only 1 2S"), ("", "play at least one card")],
)  # fmt: skip
def test_illegal_plays_say_why(cards, message):
    s = game(["2S 3H 4D 5C 6C", "5D 6H 7S 8S 9S", "8D 9C 10H JH QH"], "7H")
    with pytest.raises(IllegalActionError, match=message):
        play(s, cards)


def test_max_string_one_forbids_strings():
    s = game(H3, "7H", max_string=1)
    with pytest.raises(IllegalActionError, match="only one card at a time"):
        play(s, "2S 3H")
    assert E.strings(s, 2) == ()


def test_actions_out_of_place_are_refused_in_words():
    s = game(H3, "7H")
    with pytest.raises(IllegalActionError, match="no prophet"):
        E.apply(s, E.Judge(True))
    with pytest.raises(IllegalActionError, match="right after your own play"):
        E.apply(s, E.BecomeProphet())
    offer = play(s, "2S")
    with pytest.raises(IllegalActionError, match="become prophet or pass"):
        E.apply(offer, E.NoPlay())
    with pytest.raises(IllegalActionError, match="chance"):
        E.apply(E.new_game(players=4), E.NoPlay())
    with pytest.raises(IllegalActionError, match="Play\\(cards\\)"):
        E.apply(s, "2S")


# -- no play ---------------------------------------------------------------------------

H6 = ["2H 3H 4D 5D 6H 7D", "AS 2S 3S 4S 5S 6S", "AC 2C 3C 4C 5C 6C"]


def test_a_right_no_play_reshuffles_the_hand_into_the_stock_and_deals_four_fewer():
    s = game(H6, "KH")  # red starter; scientist 1 holds only red cards
    assert s.to_act == 1
    s = E.apply(s, E.NoPlay())
    assert s.phase == "reshuffle" and s.to_act is CHANCE
    stock = s.stock
    assert chance_cards(s) == tuple(sorted(stock + parse_cards(H6[0]), key=lambda c: c.index))
    s = fresh(s, "AD 2D")
    assert hand(s, 1) == "AD 2D"  # order[:6 - 4]
    assert len(s.stock) == len(stock) + 4
    assert s.count == 0 and line(s) == "KH"  # nothing was played
    assert s.to_act == 2 and s.phase == "turn"  # no prophet offer after a no-play


def test_a_right_no_play_with_four_cards_or_fewer_leaves_the_player_out_of_cards():
    s = E.apply(game(["2H 3H 4D 5D", "AS 2S 3S 4S", "AC 2C 3C 4C"], "KH"), E.NoPlay())
    assert s.is_over and hand(s, 1) == ""
    assert s.scores == (8, 8, 0, 0)  # high count 4; 4 - 0 + 4


def test_a_wrong_no_play_puts_gods_first_right_card_out_and_costs_five():
    s = game(["2H 4C 3S", "5C 6H 7S", "8D 9C 10H"], "KH", "KS KH QS QH JS")
    s = E.apply(s, E.NoPlay())
    assert line(s) == "KH 3S"  # 3S and 4C are right; 3S comes first in canonical order
    assert hand(s, 1) == "JS QS KS 2H QH KH 4C"
    assert s.count == 1 and s.to_act == 2


def test_a_draw_that_empties_the_stock_shuffles_in_a_fresh_deck_and_goes_on():
    deck = [str(c) for c in DECK]
    hands = [" ".join(deck[0:16]), " ".join(deck[16:32]), " ".join(deck[32:48])]
    # hands: AS..KS AH 2H 3H / 4H..KH AD..6D / 7D..KD AC..9C; starter 10C; stock JC QC KC
    s = game(hands, "10C", decks=1)
    assert len(s.stock) == 3 and s.to_act == 1
    s = play(s, "AS 2S")  # black after black: 4 penalty cards, only 3 in the stock
    assert s.phase == "fresh" and s.to_act is CHANCE and len(chance_cards(s)) == 52
    assert "JC QC KC" in hand(s, 1) and len(s.hands[1]) == 14 + 3
    s = fresh(s, "5H")
    assert len(s.hands[1]) == 18 and s.hands[1].count(card("5H")) == 1
    assert len(s.stock) == 51 and total_cards(s) == 104
    assert s.phase == "offer" and s.to_act == 1  # the offer comes after every draw


# -- the prophet -----------------------------------------------------------------------


def prophet_game(hands=H4, stock="KS KC QS QC JS JC 10D 10C 9D 9C", **opts):
    """Scientist 1 plays 2S (right after the KD starter) and becomes prophet."""
    s = play(game(hands, "KD", stock, **opts), "2S")
    s = E.apply(s, E.BecomeProphet())
    assert s.prophet == 1 and s.marker == (1, 2, 0) and s.former_prophets == (1,)
    assert s.to_act == 2
    return s


def test_the_prophet_judges_every_play_and_is_skipped_in_turns():
    s = prophet_game()
    t = play(s, "6S")
    assert t.phase == "judge" and t.to_act == 1 and t.pending == E.Play(parse_cards("6S"))
    assert legal(t) == (E.Judge(True), E.Judge(False))
    assert line(t) == "KD 2S" and hand(t, 2) == "6S 8S 7H 9H"  # nothing happens before the call
    with pytest.raises(IllegalActionError, match="only the prophet judges now"):
        E.apply(t, E.NoPlay())
    with pytest.raises(IllegalActionError, match="without naming a card"):
        E.apply(t, E.Judge(False, card("6S")))
    u = E.apply(t, E.Judge(False))  # approved: 6S is wrong
    assert u.prophet == 1 and u.sides == ((1, (card("6S"),)),)
    assert len(u.hands[2]) == 3 + 2
    assert u.to_act == 3  # no offer while there is a prophet
    v = play(u, "JH")
    v = E.apply(v, E.Judge(True))  # approved: right
    assert line(v) == "KD 2S JH" and v.prophet == 1
    w = play(v, "AS")
    assert w.to_act == 1
    w = E.apply(w, E.Judge(True))
    assert line(w) == "KD 2S JH AS" and w.to_act == 2  # 1 is skipped: the prophet plays no more


def test_a_prophet_overthrown_on_a_play_takes_five_and_the_player_no_penalty():
    s = prophet_game()
    t = E.apply(play(s, "6S"), E.Judge(True))  # 6S is wrong: the call is disapproved
    assert t.prophet is None and t.marker is None and t.former_prophets == (1,)
    assert len(t.hands[1]) == 3 + 5
    assert hand(t, 2) == "8S 7H 9H"  # no penalty
    assert t.sides == ((1, (card("6S"),)),)  # God completes the play correctly
    assert t.phase == "offer" and t.to_act == 2  # now there is no prophet: 2 may declare
    t = E.apply(t, E.Pass())
    assert t.to_act == 3
    # the overthrown prophet plays again, and is never offered prophecy again
    t = E.apply(play(t, "JH"), E.Pass())
    t = E.apply(play(t, "AS"), E.Pass())
    assert t.to_act == 1
    t = play(t, "3H")
    assert t.to_act == 2 and t.phase == "turn"


def test_a_prophet_overthrown_on_a_right_play():
    t = E.apply(play(prophet_game(), "7H"), E.Judge(False))
    assert t.prophet is None and line(t) == "KD 2S 7H" and hand(t, 2) == "6S 8S 9H"


def test_a_no_play_is_judged_by_the_prophet_naming_a_right_card():
    s = prophet_game()
    t = E.apply(s, E.NoPlay())  # wrong: 7H and 9H are right after 2S
    assert t.to_act == 1
    names = [E.Judge(False, c) for c in parse_cards("6S 8S 7H 9H")]
    assert legal(t) == (E.Judge(True), *names)
    assert E.view(t, 3).shown == parse_cards("6S 8S 7H 9H")  # the hand is shown
    with pytest.raises(IllegalActionError, match="name a right card"):
        E.apply(t, E.Judge(False))
    with pytest.raises(IllegalActionError, match="5C is not in player 2's hand"):
        E.apply(t, E.Judge(False, card("5C")))
    ok = E.apply(t, E.Judge(False, card("9H")))  # approved: the prophet's card goes out
    assert ok.prophet == 1 and line(ok) == "KD 2S 9H" and len(ok.hands[2]) == 3 + 5 and ok.count == 2


@pytest.mark.parametrize("call", [E.Judge(True), E.Judge(False, card("8S"))])
def test_a_prophet_overthrown_on_a_wrong_no_play(call):
    t = E.apply(E.apply(prophet_game(), E.NoPlay()), call)
    assert t.prophet is None and len(t.hands[1]) == 3 + 5
    assert line(t) == "KD 2S 7H"  # God's first right card in canonical order
    assert hand(t, 2) == "6S 8S 9H"  # no penalty
    assert t.to_act == 3  # a no-play earns no offer


def test_a_right_no_play_approved_ends_the_round_with_a_true_prophet():
    s = prophet_game(hands=["2S 3H 4S 5H", "6S 8S 10C 8C", "10S JH QS KH", "AS 2H 3S 4H"])
    t = E.apply(E.apply(s, E.NoPlay()), E.Judge(True))
    assert t.is_over and hand(t, 2) == ""
    # high count 4: prophet 4 - 3 + no bonus; scientist 2: 4 + 4; God min(8, 2 * 1)
    assert t.scores == (2, 1, 8, 0, 0) and t.winners == (2,)


def test_a_right_no_play_called_wrong_overthrows_the_prophet():
    s = prophet_game(hands=["2S 3H 4S 5H", "6S 8S 10C 8C", "10S JH QS KH", "AS 2H 3S 4H"])
    t = E.apply(E.apply(s, E.NoPlay()), E.Judge(False, card("8S")))
    assert t.is_over and t.prophet is None and len(t.hands[1]) == 8
    assert t.scores == (12, 0, 12, 4, 4)


def test_the_offer_needs_two_other_scientists_still_in():
    s = game(H3, "7H", sudden_death=1)
    s = E.apply(play(s, "2S"), E.Pass())
    s = play(s, "5C")  # wrong in sudden death: expelled, no offer
    assert s.expelled == (2,) and s.to_act == 3 and s.phase == "turn"
    s = play(s, "10H")  # right, but only scientist 1 is left besides 3
    assert s.phase == "turn" and s.to_act == 1


def test_no_offer_without_prophets_or_with_three_players():
    assert play(game(H3, "7H", prophets=False), "2S").phase == "turn"
    assert play(game(H3[:2], "AH"), "2S").phase == "turn"


# -- sudden death and expulsion --------------------------------------------------------


def test_sudden_death_expels_on_a_wrong_play_and_a_wrong_no_play():
    s = game(H3, "7H", "KS KH", sudden_death=1)
    assert not s.in_sudden_death
    s = E.apply(play(s, "2S"), E.Pass())
    assert s.in_sudden_death and s.sudden_death_count == 1
    s = play(s, "5C")
    assert s.expelled == (2,) and hand(s, 2) == "7S 6H"  # no penalty; keeps its hand
    assert s.sides == ((1, (card("5C"),)),) and s.stock[0] == card("KS")
    s = E.apply(s, E.NoPlay())  # scientist 3 holds 10H and 8D, both right
    assert line(s) == "7H 2S 10H" and s.expelled == (2, 3) and hand(s, 3) == "8D 9C"
    assert s.to_act == 1 and not s.is_over
    s = play(s, "4D")  # red after red: scientist 1 is expelled too
    assert s.is_over and s.expelled == (2, 3, 1)
    assert s.scores == (1, 1, 0, 0)  # high count 2: scientist 1 holds only 3H


def test_the_sudden_death_count_includes_strings_card_by_card():
    s = game(["2S 3H 4C", "5C 6H 7S", "8D 9C 10H"], "7H", sudden_death=2)
    s = E.apply(play(s, "2S 3H"), E.Pass())
    assert s.count == 2 and s.in_sudden_death


def test_the_40_30_variant():
    rules = E.Rules(sudden_death=40, sudden_death_prophet=30)
    assert (rules.sudden_death, rules.sudden_death_prophet) == (40, 30)


def test_with_a_prophet_sudden_death_counts_from_the_marker():
    s = prophet_game(sudden_death_prophet=1)
    assert not s.in_sudden_death and s.sudden_death_count == 0
    s = E.apply(play(s, "6S"), E.Judge(False))  # approved, wrong, not yet sudden death
    assert s.expelled == () and len(s.hands[2]) == 5
    assert s.in_sudden_death
    t = E.apply(play(s, "10S"), E.Judge(False))  # approved, wrong, in sudden death
    assert t.expelled == (3,) and hand(t, 3) == "QS JH KH"
    # an overthrown prophet never expels: the player is spared
    u = E.apply(play(s, "10S"), E.Judge(True))
    assert u.expelled == () and u.prophet is None and not u.in_sudden_death  # 3 < 30 since the start


def test_the_round_ends_when_every_scientist_but_the_prophet_is_expelled():
    s = prophet_game(sudden_death_prophet=0)
    s = E.apply(play(s, "6S"), E.Judge(False))
    s = E.apply(play(s, "10S"), E.Judge(False))
    assert not s.is_over
    s = E.apply(play(s, "AS"), E.Judge(False))
    assert s.is_over and s.expelled == (2, 3, 4)
    # high count 4 (2, 3, 4 hold 3 each, the prophet 3): the prophet adds 2 per side card
    assert s.scores == (2, 0 + 6, 0, 0, 0)


# -- scoring ---------------------------------------------------------------------------


def finished_with(state, hands, **fields):
    """``state`` with the given hand sizes (cards taken from the two decks), over."""
    pool = iter(c for c in DECK for _ in range(4))
    new_hands = ((), *tuple(tuple(next(pool) for _ in range(k)) for k in hands))
    return attrs.evolve(state, hands=new_hands, phase="over", to_act=None, **fields)


def test_worked_example_one_no_prophet():
    s = finished_with(game(H3, "7H"), [8, 3, 0])
    assert s.scores == (12, 0, 5, 12)
    assert s.winners == (0, 3)


def test_worked_example_two_with_a_true_prophet():
    base = game(H4, "KD")
    main = tuple(DECK[:5]) + tuple(DECK[5:17])  # 5 before the marker, 12 after
    sides = ((2, tuple(DECK[20:24])), (7, tuple(DECK[24:30])), (9, tuple(DECK[30:35])))
    s = finished_with(base, [17, 14, 0, 9], prophet=4, marker=(19, 5, 4), main=main, sides=sides)
    assert s.side_cards == 4 + 11
    assert s.scores == (38, 0, 3, 21, 42)
    assert s.winners == (4,)


def test_scores_are_zero_until_the_round_ends():
    s = game(H3, "7H")
    assert s.scores == (0, 0, 0, 0) and s.winners == ()


def test_match_scores_adds_rounds_with_the_gods_seat_turning():
    r0 = (12, 0, 5, 12)  # god = match player 0
    r1 = (3, 1, 0, 2)  # god = match player 1; its player 1 is match player 2 ...
    assert E.match_scores([r0]) == (12, 0 + 10, 5 + 10, 12 + 10)
    assert E.match_scores([r0, r1]) == (12 + 2, 0 + 3, 5 + 1 + 10, 12 + 0 + 10)
    full = E.match_scores([r0, r1, r1, r1])
    assert full == (12 + 2 + 0 + 1, 0 + 3 + 2 + 0, 5 + 1 + 3 + 2, 12 + 0 + 1 + 3)  # no bonus


def test_match_scores_takes_finished_states():
    s = play(game(["2S 3H 4C", "5C 6H 7S", "8D 9C 10H"], "7H"), "2S 3H 4C")
    assert E.match_scores([s, s, s, s]) == (7 + 7 + 0 + 0, 7 + 7 + 0 + 0, 0 + 7 + 7 + 0, 0 + 0 + 7 + 7)


def test_match_scores_refuses_nonsense():
    with pytest.raises(E.CardRulesError if hasattr(E, "CardRulesError") else Exception):
        E.match_scores([])
    from cardrules import CardRulesError

    with pytest.raises(CardRulesError):
        E.match_scores([(1, 2, 3), (1, 2)])
    with pytest.raises(CardRulesError):
        E.match_scores([game(H3, "7H")])


# -- views, replay, JSON ---------------------------------------------------------------


def test_a_scientist_sees_the_layout_and_its_own_hand_never_the_rule():
    s = E.apply(play(prophet_game(), "6S"), E.Judge(False))
    v = E.view(s, 3)
    assert v.hand == s.hands[3] and v.rule is None
    assert v.main == s.main and v.sides == s.sides
    assert v.hand_sizes == (0, 3, 5, 4, 4)
    assert v.prophet == 1 and v.expelled == () and v.sudden_death_count == 1
    assert v.shown == ()
    flat = repr(attrs.asdict(v, recurse=False))
    for other in (2, 4):
        assert all(str(c) not in flat or c in s.main or c in s.hands[3] or c in s.sides[0][1]
                   for c in s.hands[other])  # fmt: skip
    god = E.view(s, 0)
    assert god.rule == s.rules.secret and god.hand == ()


def test_replay_and_json_are_exact():
    s = E.apply(play(prophet_game(), "6S"), E.Judge(True))
    assert E.replay(s.rules, s.history, players=5) == s
    assert from_json(to_json(s)) == s
    seeded = E.new_game(seed=7, players=6)
    assert from_json(to_json(seeded)) == seeded


def test_apply_never_changes_its_argument():
    s = game(H3, "7H")
    before = to_json(s)
    with pytest.raises(IllegalActionError):
        play(s, "5H")
    play(s, "2S")
    assert to_json(s) == before


def test_describe_and_summary_read_like_a_table():
    s = game(H3, "7H")
    g = E.GAME
    assert g.describe(s, E.Play(parse_cards("2S"))) == "player 1 plays 2S: right"
    assert g.describe(s, E.Play(parse_cards("3H"))) == "player 1 plays 3H: wrong, draws 2"
    assert g.describe(s, E.NoPlay()) == "player 1 declares no play: wrong: 2S goes on the main line, draws 5"
    end = play(game(["2S 3H 4C", "5C 6H 7S", "8D 9C 10H"], "7H"), "2S 3H 4C")
    text = E.summary(end)
    assert "7H 2S 3H 4C" in text and "card.color != prev.color" in text


def test_shuffle_must_be_the_chance_cards():
    s = E.new_game(players=4)
    with pytest.raises(IllegalActionError):
        E.apply(s, Shuffle(DECK))


def test_the_default_rule_is_alternating_colours():
    r = E.Rules().secret
    assert r == E.default_rule()
    assert r.accepts(parse_cards("5H"), card("2S")) and not r.accepts(parse_cards("5H"), card("2D"))


def test_a_custom_rule_judges():
    s = game(H3, "7H", secret=rule("card.rank > prev.rank"))
    assert line(play(s, "2S")) == "7H"
    assert line(play(s, "3H")) == "7H"


def test_a_seeded_round_deals_with_the_portable_shuffle():
    from cardrules import two_decks
    from cardrules.protocol import seeded_order

    order = seeded_order(9, 0, two_decks())
    s = E.new_game(players=6, seed=9)
    assert s.history == (Shuffle(tuple(order)),)
    assert s.hands[1] == tuple(sorted(order[0:70:5], key=lambda c: c.index))
    assert s.hands[5] == tuple(sorted(order[4:70:5], key=lambda c: c.index))
    assert s.main == (order[70],) and s.stock == tuple(order[71:])
    assert s.to_act == (order[70].rank - 1) % 5 + 1


# -- more prophet cases, and what the record says --------------------------------------


def test_going_out_on_a_play_the_prophet_calls_wrong_still_costs_the_prophet_five():
    s = prophet_game(hands=["2S 3H 4S 5H", "7H 6S 9H 8S", "10S JH QS KH", "AS 2H 3S 4H"])
    t = E.apply(play(s, "7H 6S 9H 8S"), E.Judge(False))  # all right: the call is wrong
    assert t.is_over and hand(t, 2) == "" and t.prophet is None
    assert len(t.hands[1]) == 3 + 5  # decision: the overthrow's draw happens before the end
    assert t.scores == (12, 0, 12, 4, 4)


def test_a_right_no_play_approved_by_the_prophet_reshuffles():
    s = prophet_game(hands=["2S 3H 4S 5H", "6S 8S 10C 8C", "10S JH QS KH", "AS 2H 3S 4H"], no_play_shrink=2)
    t = E.apply(E.apply(s, E.NoPlay()), E.Judge(True))
    assert t.phase == "reshuffle" and t.prophet == 1
    t = fresh(t, "AD 2D")
    assert hand(t, 2) == "AD 2D" and t.to_act == 3 and t.prophet == 1


def test_the_true_prophets_bonus_counts_cards_god_puts_out_after_the_marker():
    s = prophet_game(sudden_death_prophet=0)
    s = E.apply(E.apply(s, E.NoPlay()), E.Judge(False, card("7H")))  # approved: 7H out, 2 expelled
    s = E.apply(play(s, "JH"), E.Judge(False))  # red after red: 3 expelled
    s = E.apply(play(s, "2H"), E.Judge(False))  # 4 expelled: the end
    assert s.is_over and line(s) == "KD 2S 7H" and s.side_cards == 2
    # hands: prophet 3, scientist 2 holds 3, 3 and 4 hold 3; high count 3
    assert s.scores == (2, 0 + 1 + 2 * 2, 0, 0, 0)


def test_a_view_shows_no_other_players_cards():
    from cardrules import Card

    s = E.apply(play(prophet_game(), "6S"), E.Judge(False))
    for p in range(5):
        v = E.view(s, p)
        public = [
            getattr(v, f.name)
            for f in attrs.fields(E.View)
            if f.name not in ("hand", "main", "sides", "pending", "shown")
        ]

        def cards_in(x):
            if isinstance(x, Card):
                yield x
            elif isinstance(x, tuple):
                for y in x:
                    yield from cards_in(y)

        assert [c for x in public for c in cards_in(x)] == []
        assert v.hand == s.hands[p] and v.shown == ()


def test_describe_tells_the_prophets_calls():
    g = E.GAME
    s = prophet_game()
    t = play(s, "6S")
    assert g.describe(s, E.Play(parse_cards("6S"))) == "player 2 plays 6S; prophet 1 judges"
    assert g.describe(t, E.Judge(False)) == "prophet 1 calls player 2's 6S wrong: approved, wrong, draws 2"
    assert (
        g.describe(t, E.Judge(True))
        == "prophet 1 calls player 2's 6S right: overthrown, wrong, prophet 1 draws 5"
    )
    n = E.apply(s, E.NoPlay())
    assert g.describe(n, E.Judge(False, card("9H"))) == (
        "prophet 1 says player 2 could play 9H: approved, wrong: 9H goes on the main line, draws 5"
    )
    assert g.describe(n, E.Judge(True)) == (
        "prophet 1 agrees player 2 has no right card: overthrown, wrong: 7H goes on the main line, prophet 1 draws 5"
    )
    u = E.apply(play(game(H3, "7H", sudden_death=1), "2S"), E.Pass())
    assert g.describe(u, E.Play(parse_cards("5C"))) == "player 2 plays 5C: wrong, expelled"
    assert (
        g.describe(u, E.BecomeProphet())
        == "player 2: prophet (illegal: you may become prophet only right after your own play)"
    )

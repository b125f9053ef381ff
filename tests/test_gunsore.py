"""Gunsore, rule by rule, on stacked decks (spec/gunsore.md).

Card strength used below (the shipped ``gunsore`` table, spec "Cards"): A beats faces,
faces beat numbers, numbers beat A; K > Q > J; higher number beats lower; then spades >
clubs > hearts > diamonds; the joker is weakest; identical cards go to the slave.
"""

import json
from collections import Counter

import attrs
import pytest
from gunsore_stack import cards, game, play, stacked

from cardrules import (
    CHANCE,
    GAMES,
    JOKER,
    CardRulesError,
    IllegalActionError,
    RulesError,
    Shuffle,
    StateFormatError,
    chance_cards,
    from_json,
    gunsore,
    parse_card,
    parse_cards,
    simulate,
    to_json,
    tricks,
    two_decks,
)
from cardrules.agents import RandomAgent
from cardrules.gunsore import DeclareWar, Play, Rules
from cardrules.tricks import builtin

# -- Rules and points ------------------------------------------------------------------

# The spec's table, written out again card by card: (development, war).
SPEC_POINTS = {"A": (11, 1), "J": (10, 0), "Q": (10, 0), "K": (10, 0), "JK": (0, 0)}
SPEC_POINTS.update({str(n): (n, n) for n in range(2, 11)})


def spec_points(card):
    return SPEC_POINTS["JK" if card.rank == 0 else str(card)[:-1]]


def test_default_points_are_the_spec_table():
    rules = Rules()
    for card in two_decks(jokers=2):
        assert (rules.points_development[card.rank], rules.points_war[card.rank]) == spec_points(card)


def test_the_higher_value_of_every_card_of_two_decks_adds_up_to_760():
    # The manual's one surviving check of its lost table.
    rules = Rules()
    deck = chance_cards(gunsore.new_game())
    assert len(deck) == 106 and Counter(deck)[JOKER] == 2
    total = sum(max(rules.points_development[c.rank], rules.points_war[c.rank]) for c in deck)
    assert total == 760


def test_rules_defaults_and_options():
    r = Rules()
    assert (r.declare_war, r.war_when_stock_empty, r.hand_size, r.decks) == (True, True, 5, 2)
    assert r.table == builtin("gunsore")
    assert Rules(points_war=[0] * 14).points_war == (0,) * 14  # a list is accepted


@pytest.mark.parametrize(
    "kwargs, why",
    [
        ({"points_development": (1, 2, 3)}, "points_development must be 14 integers"),
        ({"points_war": (0,) * 13 + (True,)}, "points_war must be 14 integers"),
        ({"points_war": "0" * 14}, "points_war must be 14 integers"),
        ({"declare_war": 1}, "declare_war must be True or False"),
        ({"war_when_stock_empty": None}, "war_when_stock_empty must be True or False"),
        ({"hand_size": 0}, "hand_size must be a whole number"),
        ({"hand_size": 2.5}, "hand_size must be a whole number"),
        ({"decks": 3}, "decks must be an even number"),
        ({"decks": 0}, "decks must be an even number"),
        ({"decks": 22}, "decks must be an even number"),
        ({"hand_size": 54}, "too few to deal 54"),
        ({"table": "gunsore"}, "table must be a cardrules.tricks.TrickTable"),
    ],
)
def test_impossible_rules_raise_rules_error(kwargs, why):
    with pytest.raises(RulesError, match=why):
        Rules(**kwargs)


# -- the first master and the deal -----------------------------------------------------


@pytest.mark.parametrize(
    "draw, master",
    [
        ("KS 2S", 0),  # faces beat numbers
        ("2S KS", 1),
        ("AS KS", 0),  # the ace beats faces
        ("AS 2D", 1),  # numbers beat the ace
        ("7D 7S", 1),  # same rank: spades beat diamonds
        ("7C 7H", 0),  # clubs beat hearts
        ("JK 2D", 1),  # the joker is the weakest card
        ("7H 7H 2S KS", 1),  # equal cards: draw again (order[2] to 0, order[3] to 1)
        ("JK JK 9D 9D QH 3S", 0),  # two equal pairs, then the third decides
    ],
)
def test_first_master_is_the_stronger_draw_repeated_on_equal_cards(draw, master):
    s = gunsore.new_game()
    assert s.to_act is CHANCE and s.master is None and s.season is None
    s = gunsore.apply(s, stacked(draw))
    assert s.master == master and s.to_act is CHANCE and s.hands == ((), ())
    # the cards go back: the deal shuffles all 106 again
    assert len(chance_cards(s)) == 106


def test_every_pair_equal_makes_player_0_master():
    assert gunsore.first_master(builtin("gunsore"), cards("JK JK 5H 5H")) == 0


@pytest.mark.parametrize("master", [0, 1])
def test_deal_five_each_one_at_a_time_master_first_rest_is_stock(master):
    s = gunsore.apply(gunsore.new_game(), stacked("KS 2S" if master == 0 else "2S KS"))
    order = stacked("2H 3H 4H 5H 6H 7H 8H 9H 10H JH QD KD")
    s = gunsore.apply(s, order)
    assert s.hands[master] == parse_cards("2H 4H 6H 8H 10H")
    assert s.hands[1 - master] == parse_cards("3H 5H 7H 9H JH")
    assert s.stock == order.order[10:] and s.stock[:2] == parse_cards("QD KD")
    assert (s.to_act, s.season, s.pools, s.scores) == (master, "development", (0, 0), (0, 0))
    assert s.phase == "development" and s.slave == 1 - master


# -- development ----------------------------------------------------------------------


def test_development_cant_follow_own_pools_and_drawing_new_master_first():
    s = game("7S 2H 3H 4H 5H", "9C 8S 2D 3D 4D", "AC KD 6C")
    assert len(gunsore.legal_actions(s)) == 6  # the master may lead anything, or declare war
    s = play(s, "7S")
    assert s.table == cards("7S") and s.to_act == 1
    assert gunsore.legal_actions(s) == tuple(Play(c) for c in cards("2D 3D 4D 9C"))
    with pytest.raises(IllegalActionError) as exc:
        play(s, "8S")
    assert str(exc.value) == "development: you must not follow spades while you hold 2D"
    s = play(s, "9C")  # 9 beats 7: the slave wins and becomes master
    assert s.pools == (7, 9)  # each its own card's development points
    assert (s.master, s.to_act, s.table, s.last_trick) == (1, 1, (), cards("7S 9C"))
    assert s.hands == (cards("2H 3H 4H 5H KD"), cards("8S 2D 3D 4D AC"))  # canonical order
    assert s.stock[:1] == cards("6C") and len(s.stock) == 94
    assert s.season == "development"


def test_development_points_use_the_development_table():
    s = game("AS 2H 3H 4H 5H", "KC 8S 2D 3D 4D")
    s = play(s, "AS", "KC")  # A beats K; A is worth 11, K 10 in development
    assert s.pools == (11, 10) and s.master == 0


def test_development_joker_is_always_playable_and_a_led_joker_frees_the_slave():
    s = game("7S JK 3H 4H 5H", "JK 8S 9S 10S 2D")
    s = play(s, "7S")
    assert gunsore.legal_actions(s) == (Play("2D"), Play(JOKER))
    s = game("JK 2H 3H 4H 5H", "9S 8S 9D 10S 2D")
    s = play(s, "JK")
    assert s.season == "development"
    assert len(gunsore.legal_actions(s)) == 5  # anything may follow a led joker


# -- outbreak of war ------------------------------------------------------------------


def test_stuck_slave_starts_a_war_trick_at_once_with_no_drawing():
    s = game("5H 2S 3S 4S 6S", "2H 3H 4H 7H 8H", "AC KD")
    s = play(s, "5H")
    assert (s.season, s.war_cause) == ("war", "stuck")
    assert gunsore.legal_actions(s) == tuple(Play(c) for c in cards("2H 3H 4H 7H 8H"))
    s = play(s, "7H")  # 7 beats 5: the slave takes 5 + 7 war points
    assert s.pools == (0, 12) and s.master == 1 and s.season == "war"
    assert s.stock[:2] == cards("AC KD") and len(s.stock) == 96  # nobody drew
    assert [len(h) for h in s.hands] == [4, 4]


def test_stuck_war_needs_a_slave_with_nothing_but_the_led_suit():
    # a joker in the slave's hand is a card of another "suit": no war
    s = play(game("5H 2S 3S 4S 6S", "2H 3H 4H 7H JK"), "5H")
    assert s.season == "development" and gunsore.legal_actions(s) == (Play(JOKER),)
    # a led joker never triggers it
    s = play(game("JK 2S 3S 4S 6S", "2H 3H 4H 7H 8H"), "JK")
    assert s.season == "development" and s.war_cause is None


def test_declared_war_then_the_master_leads_the_first_war_trick():
    s = game("5H 2S 3S 4S 6S", "2H 3H 4H 7H 8D", "AC KD")
    assert gunsore.legal_actions(s)[-1] == DeclareWar()
    s = play(s, "war")
    assert (s.season, s.war_cause, s.to_act, s.master) == ("war", "declared", 0, 0)
    assert DeclareWar() not in gunsore.legal_actions(s)
    with pytest.raises(IllegalActionError, match="war has already broken out"):
        play(s, "war")
    s = play(game("5H 2S 3S 4S 6S", "2H 3H 4H 7H 8D"), "6S")
    with pytest.raises(IllegalActionError, match="only the master declares war"):
        play(s, "war")  # the slave, in development


def test_declared_war_can_be_switched_off():
    rules = Rules(declare_war=False)
    s = game("5H 2S 3S 4S 6S", "2H 3H 4H 7H 8D", rules=rules)
    assert DeclareWar() not in gunsore.legal_actions(s)
    with pytest.raises(IllegalActionError, match=r"declaring war is off in these rules"):
        play(s, "war")


def test_war_breaks_out_after_the_development_trick_that_empties_the_stock():
    rules = Rules(hand_size=50)  # 106 - 100 = 6 cards in the stock: three tricks of drawing
    s = gunsore.new_game(rules, seed=5)
    for stock_left in (4, 2, 0):
        assert s.season == "development"
        s = play(s, str(gunsore.legal_actions(s)[0].card))
        s = play(s, str(gunsore.legal_actions(s)[0].card))
        assert len(s.stock) == stock_left
    assert (s.season, s.war_cause) == ("war", "stock")
    assert [len(h) for h in s.hands] == [50, 50]


def test_war_breaks_out_after_the_first_trick_when_the_deal_empties_the_stock():
    s = gunsore.new_game(Rules(hand_size=53), seed=2)
    assert s.stock == () and s.season == "development"
    s = play(s, str(gunsore.legal_actions(s)[0].card))
    s = play(s, str(gunsore.legal_actions(s)[0].card))
    assert (s.season, s.war_cause) == ("war", "stock")


def test_empty_stock_war_can_be_switched_off():
    s = gunsore.new_game(Rules(hand_size=53, war_when_stock_empty=False), seed=2)
    s = play(s, str(gunsore.legal_actions(s)[0].card))
    s = play(s, str(gunsore.legal_actions(s)[0].card))
    assert s.season == "development" and s.war_cause is None


# -- war ------------------------------------------------------------------------------


def test_war_must_follow_and_the_winner_takes_both_cards_war_points():
    s = play(game("5H 2S 3S 4S 6S", "2H 3H QH 7D 8D"), "war", "6S")
    # the slave has no spade: anything goes
    assert len(gunsore.legal_actions(s)) == 5
    s = play(s, "8D")  # 8 beats 6: the slave takes 6 + 8
    assert s.pools == (0, 14) and s.master == 1
    s = play(s, "7D")
    assert len(gunsore.legal_actions(s)) == 4  # player 0 has no diamond
    s = play(s, "5H")  # 7D beats 5H: player 1 takes 12 more
    assert s.pools == (0, 26) and s.master == 1


def test_war_must_follow_message_names_a_card_of_the_led_suit():
    s = play(game("5H 2S 3S 4S 6S", "2H 3H 4C 7D 8D"), "war", "5H")
    with pytest.raises(IllegalActionError) as exc:
        play(s, "8D")
    assert str(exc.value) == "war: you hold 2H, so you must follow hearts"
    assert gunsore.legal_actions(s) == (Play("2H"), Play("3H"))


def test_war_faces_win_but_score_nothing():
    s = play(game("KS 2S 3S 4S 6S", "10S 3H 4C 7D 8D"), "war", "KS", "10S")
    assert s.pools == (10, 0) and s.master == 0  # K beats 10; K is worth 0, 10 is 10


def test_identical_cards_go_to_the_slave():
    s = play(game("7H 2S 3S 4S 6S", "7H 3H 4C 7D 8D"), "war", "7H", "7H")
    assert s.master == 1 and s.pools == (0, 14)


# -- the joker -------------------------------------------------------------------------


def test_slave_joker_in_development_swaps_the_pools_before_the_points():
    s = game("7S 2H 3H 4H 5H", "9C JK 2D 3D 4D", "6C 6D 8C 8D")
    s = play(s, "7S", "9C")  # pools (7, 9); player 1 masters, draws 6C, player 0 6D
    s = play(s, "2D", "5H")  # 5 beats 2: pools (12, 11); player 0 draws 8C, player 1 8D
    assert s.pools == (12, 11) and s.master == 0
    s = play(s, "4H", "JK")  # swap to (11, 12), then 4 to player 0 and 0 to player 1
    assert s.pools == (15, 12)
    assert s.master == 0  # the joker is the weakest card


def test_master_joker_does_nothing_in_development():
    s = game("7S JK 3H 4H 5H", "9C 2C 2D 3D 4D", "6C 6D 8C 8D")
    s = play(s, "7S", "9C", "2D", "3H")  # pools (10, 11): player 0 wins 3 over 2
    assert s.pools == (10, 11) and s.master == 0
    s = play(s, "JK", "2C")
    assert s.pools == (10, 13) and s.master == 1  # no swap


def test_two_jokers_in_development_the_slave_wins_and_swaps():
    s = game("7S JK 3H 4H 5H", "9C JK 2D 3D 4D", "6C 6D 8C 8D")
    s = play(s, "7S", "9C")  # (7, 9), player 1 masters
    s = play(s, "JK", "JK")  # player 1 leads the joker; player 0 answers with one: swap
    assert s.pools == (9, 7) and s.master == 0


def test_slave_joker_in_war_swaps_then_the_winner_scores():
    s = game("7S 2H 3H 4H 5H", "9C JK 2D 3D 4D", "6C 6D")
    s = play(s, "7S", "9C")  # (7, 9); player 1 masters and draws 6C, player 0 6D
    s = play(s, "war", "2D", "6D")  # 6D beats 2D: player 0 takes 8 -> (15, 9)
    assert s.pools == (15, 9)
    s = play(s, "2H")
    assert Play(JOKER) in gunsore.legal_actions(s)  # player 1 has no heart
    s = play(s, "JK")  # swap to (9, 15); player 0 wins and takes 2 + 0
    assert s.pools == (11, 15) and s.master == 0


def test_slave_who_can_follow_may_not_play_the_joker_in_war():
    s = play(game("7S 2H 3H 4H 5H", "9S JK 2D 3D 4D"), "war", "7S")
    assert gunsore.legal_actions(s) == (Play("9S"),)
    with pytest.raises(IllegalActionError) as exc:
        play(s, "JK")
    assert str(exc.value) == (
        "war: you hold 9S, so you must follow spades; the joker is only for a slave who cannot follow"
    )


def test_master_joker_in_war_does_nothing_and_frees_the_slave():
    s = play(game("JK 2H 3H 4H 5H", "9S 8C 2D 3D 4D"), "war", "JK")
    assert len(gunsore.legal_actions(s)) == 5
    s = play(s, "9S")  # any card beats the joker: player 1 takes 0 + 9
    assert s.pools == (0, 9) and s.master == 1


# -- truce, new seasons and the end ----------------------------------------------------


def test_truce_the_bigger_pool_scores_both_and_a_new_season_is_dealt():
    rules = Rules(hand_size=1)
    s = game("7S", "7C", "5H 5D 2C 3C", rules=rules)
    s = play(s, "7S", "7C")  # development: (7, 7); player 0 wins (spades), draws 5H
    s = play(s, "war", "5H", "5D")  # 5H beats 5D: player 0 takes 10 -> (17, 7), hands empty
    assert s.scores == (24, 0) and s.pools == (0, 0)
    assert (s.season, s.war_cause, s.master, s.to_act) == ("development", None, 0, 0)
    assert s.hands == (cards("2C"), cards("3C"))  # dealt from the stock, master first
    assert len(s.stock) == 106 - 2 - 2 - 2


def test_truce_equal_pools_each_scores_its_own():
    rules = Rules(hand_size=1)
    s = game("7S", "7C", "KH QD", rules=rules)
    s = play(s, "7S", "7C")  # (7, 7); player 0 draws KH, player 1 QD
    s = play(s, "war", "KH", "QD")  # K beats Q for 0 points: (7, 7)
    assert s.scores == (7, 7)


def _declare_and_play_out(s, seen):
    """Master declares war at every development lead; otherwise the first legal play."""
    while not s.is_over:
        before = s
        acts = gunsore.legal_actions(s)
        s = gunsore.apply(s, DeclareWar() if DeclareWar() in acts else acts[0])
        if before.season == "war" and s.season == "development":
            seen.append((before, s))
    return s


def test_new_seasons_are_dealt_from_the_stock_fewer_cards_when_short_then_the_end():
    s = gunsore.new_game(seed=11)
    seasons = []
    final = _declare_and_play_out(s, seasons)
    # 96 cards in the stock after the first deal, 10 per season: nine full re-deals,
    # then the tenth finds 6 cards and gives 3 each.
    assert len(seasons) == 10
    for before, after in seasons:
        trick_winner = after.master
        stock = before.stock
        k = min(10, len(stock))
        assert after.hands[trick_winner] == tuple(sorted(stock[0:k:2], key=lambda c: c.index))
        assert after.hands[1 - trick_winner] == tuple(sorted(stock[1:k:2], key=lambda c: c.index))
        assert after.stock == stock[k:]
    short_before, short = seasons[-1]
    assert len(short_before.stock) == 6 and [len(h) for h in short.hands] == [3, 3]
    assert final.is_over and final.to_act is None and final.season is None
    assert gunsore.legal_actions(final) == ()
    with pytest.raises(IllegalActionError, match="the game is over"):
        gunsore.apply(final, Play("2S"))
    best = max(final.scores)
    assert final.winners == tuple(p for p in (0, 1) if final.scores[p] == best)


def test_a_tie_makes_both_players_winners():
    # Every card worth 1 in development, 0 in war: pools stay equal all game long.
    rules = Rules(
        points_development=(1,) * 14, points_war=(0,) * 14, hand_size=53, war_when_stock_empty=False
    )
    s = gunsore.new_game(rules, seed=3)
    while not s.is_over:
        s = gunsore.apply(s, next(a for a in gunsore.legal_actions(s) if isinstance(a, Play)))
    assert s.scores[0] == s.scores[1] > 0
    assert s.winners == (0, 1)


# -- other Rules options ----------------------------------------------------------------


def test_hand_size_and_decks_options():
    rules = Rules(hand_size=3, decks=4)
    s = gunsore.new_game(rules)
    deck = chance_cards(s)
    assert len(deck) == 212 and Counter(deck)[JOKER] == 4 and Counter(deck)[parse_card("7H")] == 4
    s = gunsore.new_game(rules, seed=1)
    assert [len(h) for h in s.hands] == [3, 3] and len(s.stock) == 206


def test_points_options_are_used():
    rules = Rules(points_development=(5,) * 14, points_war=(2,) * 14)
    s = play(game("7S 2H 3H 4H 5H", "9C 2C 2D 3D 4D", rules=rules), "7S", "9C")
    assert s.pools == (5, 5)
    s = play(s, "war", "2C", "2H")
    assert s.pools == (5, 9)


def lead_wins_table():
    """A designer's table: the card led always wins (one class, no tie-break)."""
    return tricks.compile_tables("table leadwins:\n    class any\n")["leadwins"]


def test_the_trick_table_option_decides_every_trick():
    rules = Rules(table=lead_wins_table())
    # With this table no card is stronger than another: player 0 is the first master.
    s = gunsore.apply(gunsore.new_game(rules), stacked("2S KS", rules))
    assert s.master == 0
    s = gunsore.new_game(rules, seed=4)
    while not s.is_over:
        before = s
        s = gunsore.apply(s, gunsore.legal_actions(s)[0])
        if before.table and not s.is_over:
            assert s.master == before.master  # the leader always keeps the lead
    assert from_json(to_json(s)) == s  # a custom table is stored as its text


def test_a_table_that_needs_a_key_card_is_refused():
    with pytest.raises(RulesError, match="table 'aegis' cannot decide a Gunsore trick"):
        Rules(table=builtin("aegis"))


# -- actions, errors, view, records ----------------------------------------------------


def test_actions_are_values_and_play_accepts_card_text():
    assert Play("7h") == Play(parse_card("7H")) and hash(Play("7H")) == hash(Play(parse_card("7H")))
    assert DeclareWar() == DeclareWar() and str(Play("10S")) == "10S"
    with pytest.raises(CardRulesError):
        Play("1H")


def test_legal_actions_list_each_equal_card_once_in_canonical_order():
    s = game("7H 7H 2S JK 5D", "2H 3H 4C 7D 8D")
    assert gunsore.legal_actions(s) == (Play("2S"), Play("7H"), Play("5D"), Play(JOKER), DeclareWar())
    s2 = play(s, "7H")
    assert s2.hands[0] == cards("2S 7H 5D JK")


def test_illegal_actions_say_why():
    s = game("7S 2H 3H 4H 5H", "9C 8S 2D 3D 4D")
    with pytest.raises(IllegalActionError, match="development: you hold no 9S"):
        play(s, "9S")
    with pytest.raises(IllegalActionError, match="not a Gunsore action"):
        gunsore.apply(s, "7S")
    with pytest.raises(IllegalActionError, match="only legal at a chance node"):
        gunsore.apply(s, stacked(""))
    with pytest.raises(IllegalActionError, match="chance node"):
        gunsore.apply(gunsore.new_game(), Play("7S"))


def test_view_shows_own_hand_and_public_facts_only():
    s = play(game("7S 2H 3H 4H 5H", "9C 8S 2D 3D 4D"), "7S", "9C", "2D")
    v = gunsore.view(s, 0)
    assert v.player == 0 and v.hand == s.hands[0] and v.opponent_hand_size == 4
    assert v.pools == (7, 9) and v.scores == (0, 0) and v.stock_size == 94
    assert v.table == cards("2D") and v.last_trick == cards("7S 9C")
    assert v.season == "development" and v.to_act == 0 and v.master == 1
    assert gunsore.view(s, 1).hand == s.hands[1]
    assert all(getattr(v, f.name) != s.hands[1] for f in attrs.fields(gunsore.View))
    with pytest.raises(CardRulesError):
        gunsore.view(s, 2)


def test_replay_and_json_are_exact():
    s = gunsore.new_game(seed="json")
    agent = RandomAgent(1)
    for _ in range(40):
        s = gunsore.apply(s, agent(None, gunsore.legal_actions(s)))
    assert gunsore.replay(None, s.history) == s
    back = from_json(to_json(s))
    assert back == s and back.seed == "json"
    rules = Rules(hand_size=4, declare_war=False, points_war=(1,) * 14)
    s = gunsore.new_game(rules, seed=9)
    assert from_json(to_json(s)) == s and from_json(to_json(s)).rules == rules


def test_registry_and_generic_access():
    g = GAMES["gunsore"]
    assert g.Rules is Rules and g.new_game(seed=1) == gunsore.new_game(seed=1)
    assert g.player_counts == (2,)


def test_describe_and_summary_tell_the_story():
    s = game("5H 2S 3S 4S 6S", "2H 3H 4H 7H 8H")
    assert gunsore.describe(s, Play("5H")) == (
        "player 0 (master) leads 5H: war breaks out, player 1 holds only hearts"
    )
    s2 = play(s, "5H")
    assert (
        gunsore.describe(s2, Play("7H")) == "player 1 (slave) plays 7H; player 1 wins the trick (pools 0-12)"
    )
    assert gunsore.describe(s, DeclareWar()) == "player 0 (master) declares war"
    first = gunsore.new_game()
    line = gunsore.describe(first, stacked("7H 7H 2S KS"))
    assert line == (
        "chance: player 0 draws 7H, player 1 draws 7H; equal, again: player 0 draws 2S, "
        "player 1 draws KS: player 1 is the first master"
    )
    final = _declare_and_play_out(gunsore.new_game(seed=11), [])
    log = gunsore.season_log(final)
    assert len(log) == 11 and all(r.war_cause == "declared" for r in log)
    assert sum(sum(r.pools) for r in log) == sum(final.scores)
    assert gunsore.summary(final).startswith("gunsore: 11 seasons; wars: 11 declared")


def test_shuffle_order_is_checked():
    with pytest.raises(IllegalActionError, match="lacks"):
        gunsore.apply(gunsore.new_game(), Shuffle(chance_cards(gunsore.new_game())[1:]))


def test_greedy_agent_beats_random_play():
    # Random against random wins half the games; the greedy rules of thumb win about
    # three in four (docs/games/gunsore.rst).  60 games, 30 in each seat.
    first = simulate("gunsore", [gunsore.GreedyAgent(0), RandomAgent(1)], games=30, seed="greedy")
    second = simulate("gunsore", [RandomAgent(2), gunsore.GreedyAgent(3)], games=30, seed="greedy2")
    assert first.wins[0] + second.wins[1] >= 38, (first, second)


def test_greedy_agent_only_chooses_legal_actions_and_uses_the_joker_swap():
    agent = gunsore.GreedyAgent(5)
    s = game("7S 2H 3H 4H 5H", "9C JK 2D 3D 4D", "6C 6D")
    s = play(s, "7S", "9C", "war", "2D", "6D", "2H")  # pools (15, 9); player 1 has no heart
    assert gunsore.view(s, 1).pools == (15, 9)
    # the swap would leave player 1 ahead, but it is not the last trick and the gap is small
    assert agent(gunsore.view(s, 1), gunsore.legal_actions(s)) != Play(JOKER)
    with_gap = gunsore.GreedyAgent(5, margin=5)
    assert with_gap(gunsore.view(s, 1), gunsore.legal_actions(s)) == Play(JOKER)


def test_describe_tells_swaps_empty_stock_wars_and_equal_truces():
    rules = Rules(hand_size=1)
    s = game("7S", "JK", "KH QD 2C 3C", rules=rules)
    assert gunsore.describe(play(s, "7S"), Play("JK")) == (
        "player 1 (slave) plays JK, swapping the pools; player 0 wins the trick (pools 7-0)"
    )
    s = game("7S", "7C", "KH QD 2C 3C", rules=rules)
    s = play(s, "7S", "7C", "war", "KH")
    assert gunsore.describe(s, Play("QD")) == (
        "player 1 (slave) plays QD; player 0 wins the trick; truce: equal pools (7), each scores "
        "its own; scores 7 to 7; new season: 1 card each, player 0 is master"
    )
    s = gunsore.new_game(Rules(hand_size=53), seed=2)
    s = play(s, str(gunsore.legal_actions(s)[0].card))
    line = gunsore.describe(s, gunsore.legal_actions(s)[0])
    assert line.endswith("; the stock is empty: war breaks out")
    deal = gunsore.apply(gunsore.new_game(), stacked("KS 2S"))
    assert (
        gunsore.describe(deal, stacked(""))
        == "chance: the deal, 5 cards each, master first; 96 cards in the stock"
    )


def test_season_log_of_a_running_game_ends_with_the_open_season():
    s = play(game("5H 2S 3S 4S 6S", "2H 3H 4H 7H 8D"), "6S", "8D", "war")
    log = gunsore.season_log(s)
    assert log == (gunsore.SeasonRecord(0, 1, 0, "declared", None),)
    assert (
        gunsore.summary(s) == "gunsore: 1 season; wars: 1 declared, 0 on an empty stock, 0 by a stuck slave"
    )


def test_json_refuses_a_tampered_history_and_bad_rules():
    s = play(game("7S 2H 3H 4H 5H", "9C 8S 2D 3D 4D"), "7S")
    doc = json.loads(to_json(s))
    doc["history"][-1]["card"] = "8S"  # player 0 never held it
    with pytest.raises(StateFormatError, match="you hold no 8S"):
        from_json(json.dumps(doc))
    doc = json.loads(to_json(s))
    doc["history"].append({"action": "Play", "card": "8S"})  # following spades in development
    with pytest.raises(StateFormatError, match="must not follow spades while you hold 2D"):
        from_json(json.dumps(doc))
    doc = json.loads(to_json(s))
    doc["rules"]["decks"] = 3
    with pytest.raises(StateFormatError, match="decks must be an even number"):
        from_json(json.dumps(doc))


def test_players_is_accepted_but_must_be_two():
    from cardrules import CardRulesError
    from cardrules import gunsore as gs

    assert gs.new_game(players=2, seed=3) == gs.new_game(seed=3)
    with pytest.raises(CardRulesError, match="played by 2 players"):
        gs.new_game(players=3)
    s = gs.new_game(seed=3)
    assert gs.replay(None, s.history, players=2) == s


def test_the_outlook_is_the_normal_chance_of_keeping_the_lead():
    # An independent reference: statistics.NormalDist around today's margin, with the
    # spread SPREAD * sqrt(cards left in the stock + 2).
    from statistics import NormalDist

    from cardrules.gunsore.agent import SPREAD, outlook

    start = game("7S 2H 3H 4H 5H", "9C JK 2D 3D 4D", "6C 6D")
    for scores, stock in [((0, 0), 96), ((40, 10), 96), ((40, 10), 6), ((10, 40), 0), ((120, 119), 30)]:
        s = attrs.evolve(start, scores=scores, stock=start.stock[: len(start.stock) - 96 + stock])
        assert len(s.stock) == stock
        win = NormalDist(0, SPREAD * (stock + 2) ** 0.5).cdf(scores[0] - scores[1])
        assert outlook(s) == pytest.approx([win, 1 - win], abs=1e-12)
    # the same lead is worth more with fewer cards left, and the two chances add up to 1
    lead = [outlook(attrs.evolve(start, scores=(30, 0), stock=start.stock[:n]))[0] for n in (90, 40, 10, 0)]
    assert lead == sorted(lead) and lead[0] > 0.5 and lead[-1] < 1

"""Haggis rules of play and scoring, on stacked decks, for two and three players."""

import pytest

from cardrules import CHANCE, IllegalActionError, RulesError, Shuffle, chance_cards, parse_cards
from cardrules.haggis import (
    Bet,
    Combo,
    GiveTrick,
    J,
    K,
    Pass,
    Play,
    Q,
    Rules,
    apply,
    card_points,
    combinations,
    deck,
    legal_actions,
    new_game,
    replay,
    view,
)


def stacked(hands, players=2, rules=None, state=None):
    """Deal ``hands`` (card text, up to 14 each; the rest filled from the deck in
    canonical order) to the players; what is left is the haggis."""
    hands = [list(parse_cards(h)) for h in hands] + [[] for _ in range(players - len(hands))]
    taken = {c for h in hands for c in h}
    spare = [c for c in deck(players) if c not in taken]
    for h in hands:
        while len(h) < 14:
            h.append(spare.pop(0))
    order = [hands[i % players][i // players] for i in range(14 * players)] + spare
    if state is None:
        state = new_game(rules, players=players)
    assert state.to_act is CHANCE
    return apply(state, Shuffle(order))


def act(state, cards=None, shape=None):
    """Apply the legal play of ``cards`` (declared as ``shape``, a Combo.describe()
    text, when several), or Pass() when ``cards`` is None."""
    if cards is None:
        return apply(state, Pass())
    want = parse_cards(cards)
    plays = [
        a
        for a in legal_actions(state)
        if type(a) is Play and sorted(a.combo.cards, key=id) == sorted(want, key=id)
    ]
    if shape is not None:
        plays = [a for a in plays if a.combo.describe() == shape]
    assert len(plays) == 1, [a.combo.describe() for a in plays]
    return apply(state, plays[0])


def combo(cards, shape=None):
    from cardrules.haggis import combinations

    cs = [c for c in combinations(cards) if shape is None or c.describe() == shape]
    assert len(cs) == 1, cs
    return cs[0]


def cards_accounted(state):
    n = state.players
    held = sum(len(h) for h in state.hands) + len(state.haggis) + sum(len(p) for p in state.captured)
    held += sum(len(c.cards) for _, c in state.trick)
    return held == (42 if n == 2 else 54)


# hands used below (two players): player 0 goes out in two plays
RUN_HAND = "2S 3S 4S 5S 6S 7S 8S 9S 10S 2H 3H 4H 5H 6H"
OTHER = "7H 8H 9H 10H 2D 3D 4D 5D 6D 7D 8D 9D 10D 2C"


# -- the deal ----------------------------------------------------------------------------


def test_deal_two_players():
    state = new_game()
    assert chance_cards(state) == deck(2) and len(deck(2)) == 36
    order = list(reversed(deck(2)))
    state = apply(state, Shuffle(order))
    assert set(state.hands[0]) == set(order[0:28:2]) | {J, Q, K}
    assert set(state.hands[1]) == set(order[1:28:2]) | {J, Q, K}
    assert set(state.haggis) == set(order[28:]) and len(state.haggis) == 8
    assert state.to_act == 0 and cards_accounted(state)


def test_deal_three_players():
    state = new_game(players=3)
    assert chance_cards(state) == deck(3) and len(deck(3)) == 45
    order = list(deck(3))
    state = apply(state, Shuffle(order))
    for p in range(3):
        assert set(state.hands[p]) == set(order[p:42:3]) | {J, Q, K}
    assert len(state.haggis) == 3 and cards_accounted(state)


def test_card_points_add_up():
    assert card_points(deck(2)) + 2 * card_points([J, Q, K]) == 36
    assert card_points(deck(3)) + 3 * card_points([J, Q, K]) == 50


def test_card_points_of_each_card_by_its_rank():
    # written out from the rules: 3, 5, 7, 9 one point, J 2, Q 3, K 5, the rest none;
    # twice, so the second pass reads the table the first one filled
    worth = {3: 1, 5: 1, 7: 1, 9: 1, 11: 2, 12: 3, 13: 5}
    for _ in range(2):
        for c in (*deck(3), J, Q, K, *parse_cards("AS 4H")):
            assert card_points([c]) == worth.get(c.rank, 0)
    assert card_points(iter(deck(2))) == card_points(deck(2))  # any iterable, read once


# -- leading and following ----------------------------------------------------------------


def test_leader_may_not_pass_and_leads_any_combination():
    state = stacked([RUN_HAND, OTHER])
    assert Pass() not in legal_actions(state)
    with pytest.raises(IllegalActionError, match="may not pass"):
        apply(state, Pass())
    assert all(type(a) in (Play, Bet) for a in legal_actions(state))


def test_follow_same_shape_higher():
    state = stacked([RUN_HAND, OTHER])
    state = act(state, "2H 3H 4H")
    legal = legal_actions(state)
    assert Pass() in legal
    for a in legal:
        if type(a) is Play and a.combo.kind != "bomb":
            assert (a.combo.kind, a.combo.size, a.combo.width) == ("sequence", 3, 1)
            assert a.combo.rank > 4
    with pytest.raises(IllegalActionError, match="a pair cannot beat a run of three"):
        apply(state, Play(combo("2D 2C")))
    with pytest.raises(IllegalActionError, match="must be higher"):
        apply(state, Play(combo("2D 3D 4D")))
    with pytest.raises(IllegalActionError, match="you do not hold 2S"):
        apply(state, Play(combo("2S 3S 4S")))
    state = act(state, "8H 9H 10H")
    assert state.to_act == 0


def test_two_players_trick_ends_on_a_pass_and_winner_leads():
    state = stacked([RUN_HAND, OTHER])
    state = act(state, "2H 3H 4H")
    state = act(state, "8H 9H 10H")
    state = act(state, None)  # player 0 passes: player 1 captures
    assert state.trick == () and state.to_act == 1
    assert set(state.captured[1]) == set(parse_cards("2H 3H 4H 8H 9H 10H"))
    assert cards_accounted(state)


def test_bombs_any_time_captured_by_the_opponent_bomber_leads():
    state = stacked([RUN_HAND, OTHER])
    state = act(state, "2H 3H 4H")
    state = act(state, "J Q")  # a bomb beats a run
    legal = legal_actions(state)
    assert all(a.combo.kind == "bomb" and a.combo.rank > 2 for a in legal if type(a) is Play)
    with pytest.raises(IllegalActionError, match="only a stronger bomb"):
        apply(state, Play(combo("5S 6S 7S")))
    state = act(state, None)
    # the bomb won: the opponent (player 0) captures, the bomber (1) leads
    assert set(state.captured[0]) == set(parse_cards("2H 3H 4H J Q"))
    assert state.captured[1] == () and state.to_act == 1


def test_bomb_beats_bomb():
    state = stacked([RUN_HAND, OTHER])
    state = act(state, "J Q")
    with pytest.raises(IllegalActionError, match="cannot beat a stronger bomb"):
        apply(state, Play(combo("J Q")))
    state = act(state, "Q K")
    state = act(state, None)
    # player 1's bomb won: player 0 captures both bombs, player 1 leads
    assert sorted(map(str, state.captured[0])) == ["J", "K", "Q", "Q"]
    assert state.captured[1] == () and state.to_act == 1


def test_wild_declaration_is_the_players_choice():
    state = stacked([RUN_HAND, OTHER])
    decls = [
        a.combo.describe()
        for a in legal_actions(state)
        if type(a) is Play and set(a.combo.cards) == {parse_cards("2S")[0], J, Q, K}
    ]
    assert sorted(decls) == sorted(["four 2s", "a run of four to 5", "a run of two pairs to 3"])
    state = act(state, "2S J Q K", "a run of two pairs to 3")
    assert state.table.width == 2 and state.table.rank == 3


# -- bets ----------------------------------------------------------------------------------


def test_bets_before_first_card_and_not_the_move():
    state = stacked([RUN_HAND, OTHER])
    assert Bet(15) in legal_actions(state) and Bet(30) in legal_actions(state)
    state = apply(state, Bet(30))
    assert state.to_act == 0 and state.bets == (30, 0)  # the same player acts again
    assert not any(type(a) is Bet for a in legal_actions(state))
    with pytest.raises(IllegalActionError, match="already bet"):
        apply(state, Bet(15))
    state = act(state, "2H 3H 4H")
    state = act(state, None)  # player 1 passes: player 0 leads again
    assert state.to_act == 0
    with pytest.raises(IllegalActionError, match="bets are only allowed before your first card"):
        apply(state, Bet(15))


def test_bet_after_passing_and_when_following():
    state = stacked([RUN_HAND, OTHER])
    state = act(state, "2H 3H 4H")
    assert Bet(15) in legal_actions(state)  # following, before its first card
    state = act(state, None)  # player 1 passes without playing a card
    state = act(state, "5H")
    state = apply(state, Bet(15))  # still before its first card
    assert state.bets == (0, 15) and state.to_act == 1
    state = act(state, "7H")
    assert not any(type(a) is Bet for a in legal_actions(act(state, None)))


def test_bets_off_and_amounts():
    state = stacked([RUN_HAND, OTHER], rules=Rules(bets=()))
    assert not any(type(a) is Bet for a in legal_actions(state))
    with pytest.raises(IllegalActionError, match="betting is off"):
        apply(state, Bet(15))
    state = stacked([RUN_HAND, OTHER])
    with pytest.raises(IllegalActionError, match="15 or 30"):
        apply(state, Bet(20))


# -- going out and the end of a hand (two players) ----------------------------------------


def run_then_out(rules=None, bets=(0, 0)):
    """Player 0 leads its twelve-card run, player 1 passes; player 0 leads again."""
    state = stacked([RUN_HAND, OTHER], rules=rules)
    if bets[0]:
        state = apply(state, Bet(bets[0]))
    state = act(state, "2S 3S 4S 5S 6S 7S 8S 9S 10S J Q K", "a run of twelve to K")
    if bets[1]:
        state = apply(state, Bet(bets[1]))
    state = act(state, None)
    assert state.to_act == 0 and set(state.captured[0]) == set(
        parse_cards("2S 3S 4S 5S 6S 7S 8S 9S 10S J Q K")
    )
    return state


def test_going_out_ends_the_hand_and_scores_two_players():
    before = run_then_out()
    state = act(before, "2H 3H 4H 5H 6H")
    # two players: the hand ends as soon as one goes out; a new deal follows
    assert state.to_act is CHANCE and state.hand_number == 1 and state.out == (0,)
    opp = before.hands[1]
    assert len(opp) == 17
    # player 0: its run (3 5 7 9 = 4, J Q K = 10), its last run (3H 5H = 2), the haggis
    # and player 1's hand, and 5 x 17 for going out
    expected0 = 4 + 10 + 2 + card_points(before.haggis) + card_points(opp) + 5 * 17
    assert state.scores == (expected0, 0)
    assert sum(state.last_hand) == 36 + 5 * 17  # every card point, plus going out
    assert cards_accounted(state)
    # the lowest score leads the next hand
    assert state.leader == 1
    state = stacked([OTHER, RUN_HAND], state=state)
    assert state.to_act == 1 and state.hand_number == 2 and state.scores == (expected0, 0)


def test_first_out_bonus():
    state = act(run_then_out(Rules(first_out_bonus=5)), "2H 3H 4H 5H 6H")
    plain = act(run_then_out(), "2H 3H 4H 5H 6H")
    assert state.scores[0] == plain.scores[0] + 5


def test_bets_won_and_lost_two_players():
    won = act(run_then_out(bets=(15, 30)), "2H 3H 4H 5H 6H")
    plain = act(run_then_out(), "2H 3H 4H 5H 6H")
    # player 0 won its 15; player 1's lost 30 goes to the first out; the bettor loses nothing
    assert won.scores == (plain.scores[0] + 15 + 30, plain.scores[1])


def test_game_ends_at_target_with_a_strict_leader():
    state = act(run_then_out(Rules(target=100)), "2H 3H 4H 5H 6H")
    assert state.is_over and state.to_act is None and state.winners == (0,)
    assert legal_actions(state) == ()
    assert cards_accounted(state)
    with pytest.raises(IllegalActionError, match="over"):
        apply(state, Pass())


def test_last_trick_bomb_goes_to_the_opponent_two_players():
    state = stacked([RUN_HAND, OTHER])
    for cards in ("2S 3S 4S 5S 6S 7S 8S 9S 10S", "2H 3H 4H 5H 6H", "K"):
        state = act(state, cards)
        state = act(state, None)
    state = act(state, "J Q")  # a bomb, and player 0 is out
    assert state.to_act is CHANCE
    assert state.going_out == (5 * 17, 0)
    # player 1 captured the bomb (J 2 + Q 3 = 5), and nothing else
    assert state.last_hand[1] == 5


# -- three players -------------------------------------------------------------------------


THREE = ["2S 3S 4S 5S 6S 7S 8S 9S 10S 2H 3H 4H 5H 6H", "2M 3M 4M 5M 6M 7M 8M 9M 10M 2D 3D 4D 5D 6D"]
# player 2 gets 7H 8H 9H 10H 7D 8D 9D 10D 2C 3C 4C 5C 6C 7C; the haggis is 8C 9C 10C


def test_three_players_deal_of_the_stacked_deck():
    state = stacked(THREE, players=3)
    assert set(state.hands[2]) == set(parse_cards("7H 8H 9H 10H 7D 8D 9D 10D 2C 3C 4C 5C 6C 7C J Q K"))
    assert set(state.haggis) == set(parse_cards("8C 9C 10C"))


def test_three_players_trick_ends_after_every_other_player_passes_in_succession():
    state = stacked(THREE, players=3)
    state = act(state, "2H 3H 4H")
    state = act(state, None)  # 1 passes
    state = act(state, "7H 8H 9H")  # 2 plays
    state = act(state, None)  # 0 passes: one pass is not enough
    assert state.to_act == 1 and len(state.trick) == 2
    state = act(state, "8M 9M 10M")  # 1 passed before and may play again
    state = act(state, None)
    assert state.trick and state.to_act == 0
    state = act(state, None)
    assert state.trick == () and state.to_act == 1
    assert set(state.captured[1]) == set(parse_cards("2H 3H 4H 7H 8H 9H 8M 9M 10M"))


def three_players_first_out(rules=None, bets=()):
    state = stacked(THREE, players=3, rules=rules)
    for p, amount in bets:
        assert state.to_act == 0
        if p == 0:
            state = apply(state, Bet(amount))
    state = act(state, "2S 3S 4S 5S 6S 7S 8S 9S 10S J Q K", "a run of twelve to K")
    for p in (1, 2):
        for q, amount in bets:
            if q == p:
                state = apply(state, Bet(amount))
        state = act(state, None)
    before = state
    state = act(state, "2H 3H 4H 5H 6H")  # player 0 goes out
    assert state.out == (0,) and state.going_out[0] == 5 * 17
    return before, state


def test_three_players_first_out_trick_goes_on_and_it_captures_if_others_pass():
    _, state = three_players_first_out()
    assert state.to_act == 1 and state.trick  # the trick goes on without player 0
    state = act(state, None)
    state = act(state, None)
    # both passed: player 0 captures; the next player clockwise with cards leads
    assert set(state.captured[0]) >= set(parse_cards("2H 3H 4H 5H 6H"))
    assert state.trick == () and state.to_act == 1


def test_three_players_first_out_trick_can_be_won_by_another():
    _, state = three_players_first_out()
    state = act(state, "3M 4M 5M 6M 7M")
    state = act(state, None)  # player 2 passes: player 0 is out, so that ends it
    assert state.trick == () and state.to_act == 1
    assert set(state.captured[1]) == set(parse_cards("2H 3H 4H 5H 6H 3M 4M 5M 6M 7M"))


def test_three_players_second_out_ends_the_hand():
    _, state = three_players_first_out()
    state = act(state, None)
    state = act(state, None)
    state = act(state, "2M 3M 4M 5M 6M 7M 8M 9M 10M J Q K", "a run of twelve to K")
    state = act(state, None)  # only player 2 is left to pass
    assert state.to_act == 1
    before = state
    state = act(state, "2D 3D 4D 5D 6D")
    assert state.to_act is CHANCE and state.out == (0, 1)
    assert state.going_out == (85, 85, 0)  # the second out also scores 5 x 17
    assert sum(state.last_hand) == 50 + 170
    assert cards_accounted(state)
    # player 0 (first out) takes the haggis and player 2's hand
    last = before.hands[2]
    assert set(state.captured[0]) >= set(last) | set(before.haggis)
    # lowest score leads: player 2
    assert state.leader == 2


def test_three_players_lost_bets():
    _, plain = three_players_first_out()
    _, state = three_players_first_out(bets=[(2, 30)])
    finish = [
        None,
        None,
        ("2M 3M 4M 5M 6M 7M 8M 9M 10M J Q K", "a run of twelve to K"),
        None,
        ("2D 3D 4D 5D 6D", None),
    ]

    def end(s):
        for step in finish:
            s = act(s, None) if step is None else act(s, *step)
        return s

    a, b = end(plain), end(state)
    # player 2's lost 30: to the first out (0) and to the other player who made no bet (1)
    assert b.scores == (a.scores[0] + 30, a.scores[1] + 30, a.scores[2])
    _, both = three_players_first_out(bets=[(1, 15), (2, 30)])
    c = end(both)
    # two lost bets: each goes to the first out only (the others bet)
    assert c.scores == (a.scores[0] + 45, a.scores[1], a.scores[2])


def test_bomb_choose_give_trick_three_players():
    state = stacked(THREE, players=3)
    state = act(state, "2H 3H 4H")
    state = act(state, "J Q")
    state = act(state, None)
    state = act(state, None)
    assert state.giving and state.to_act == 1
    assert legal_actions(state) == (GiveTrick(0), GiveTrick(2))
    with pytest.raises(IllegalActionError, match="give it to an opponent"):
        apply(state, Pass())
    with pytest.raises(IllegalActionError, match="not to the bomber"):
        apply(state, GiveTrick(1))
    state = apply(state, GiveTrick(2))
    assert set(state.captured[2]) == set(parse_cards("2H 3H 4H J Q"))
    assert state.to_act == 1 and not state.giving  # the bomber leads


def test_bomb_tournament_rule():
    state = stacked(THREE, players=3, rules=Rules(bomb_trick="tournament"))
    state = act(state, "2H 3H 4H")
    state = act(state, "J Q")
    state = act(state, None)
    state = act(state, None)
    # the combination before the bomb was player 0's: player 0 takes the trick
    assert not state.giving
    assert set(state.captured[0]) == set(parse_cards("2H 3H 4H J Q")) and state.to_act == 1


def test_led_bomb_tournament_goes_to_the_right():
    hands = ["3S 5H 7D 9C 2S 4S 6S 8S 10S 2H 4H 6H 8H 10H", "2M 3M 4M 5M 6M 7M 8M 9M 10M 2D 3D 4D 5D 6D"]
    state = stacked(hands, players=3, rules=Rules(bomb_trick="tournament"))
    state = act(state, "3S 5H 7D 9C")  # player 0 leads a bomb
    state = act(state, None)
    state = act(state, None)
    assert set(state.captured[2]) == set(parse_cards("3S 5H 7D 9C"))  # 0 - 1 = player 2
    assert state.to_act == 0  # the bomber leads


def test_bomb_goes_out_and_gives_before_scoring_three_players():
    _, state = three_players_first_out()
    state = act(state, None)
    state = act(state, None)
    for cards in ("2M 3M 4M 5M 6M 7M 8M 9M 10M", "2D 3D 4D 5D 6D", "K"):
        state = act(state, cards)
        state = act(state, None)
    assert state.to_act == 1
    state = act(state, "J Q")  # the bomb takes player 1 out and ends the hand
    assert state.giving and state.to_act == 1
    assert legal_actions(state) == (GiveTrick(0), GiveTrick(2))
    state = apply(state, GiveTrick(0))  # to a player who has gone out: allowed
    assert state.to_act is CHANCE
    assert {J, Q} <= set(state.captured[0])


def test_next_leader_and_game_over():
    from cardrules.haggis import game_over, next_leader

    assert next_leader((100, 20, 20), 0) == 1
    assert next_leader((100, 20, 20), 1) == 2
    assert next_leader((20, 20, 20), 2) == 0
    assert next_leader((10, 10), 1) == 0
    assert game_over((250, 249), 250) and not game_over((250, 250), 250)
    assert not game_over((300, 300, 10), 250) and game_over((301, 300, 10), 250)


def test_rules_validation():
    with pytest.raises(RulesError):
        Rules(target=0)
    with pytest.raises(RulesError):
        Rules(bomb_trick="nobody")
    with pytest.raises(RulesError):
        Rules(first_out_bonus=-1)
    with pytest.raises(RulesError):
        Rules(bets=(15, 15))
    with pytest.raises(RulesError):
        Rules(bets=(0,))
    assert Rules(bets=[15]).bets == (15,)


def test_view_hides_hands_and_haggis():
    state = stacked([RUN_HAND, OTHER])
    v = view(state, 1)
    assert v.hand == state.hands[1]
    assert v.wilds == ((J, Q, K), (J, Q, K))
    assert v.hand_sizes == (17, 17) and v.haggis_size == 8
    text = repr(v)
    assert "2S" not in text  # player 0's number cards
    for c in state.haggis:
        assert str(c) not in " ".join(map(str, v.hand))


def test_replay_and_combo_as_play():
    state = stacked([RUN_HAND, OTHER])
    c = combo("2H 3H 4H")
    after = apply(state, c)  # a Combo is accepted as Play(combo)
    assert after.history[-1] == Play(c)
    assert replay(None, after.history) == after
    # a hand-made combo with cards out of order is the same declaration
    hand_made = Combo("sequence", 4, 3, 1, tuple(reversed(c.cards)))
    assert apply(state, Play(hand_made)).history[-1] == Play(c)
    # a false declaration is refused and said why
    with pytest.raises(IllegalActionError, match="cannot be declared so"):
        apply(state, Play(Combo("sequence", 5, 3, 1, c.cards)))
    with pytest.raises(IllegalActionError, match="is no combination"):
        apply(state, Play(Combo("set", 2, 2, None, parse_cards("2H 4H"))))


def test_hand_made_combo_with_a_list_of_cards():
    state = stacked([RUN_HAND, OTHER])
    c = combo("2H 3H 4H")
    after = apply(state, Play(Combo("sequence", 4, 3, 1, list(reversed(c.cards)))))
    assert after.history[-1] == Play(c)


def test_greedy_agent_beats_random():
    from cardrules import simulate
    from cardrules.agents import RandomAgent
    from cardrules.haggis import GreedyAgent

    summary = simulate("haggis", [GreedyAgent(1), RandomAgent(2)], games=5, seed="t")
    assert summary.wins[0] >= 4


def test_describe_and_summary():
    from cardrules.haggis import describe, summary

    state = stacked([RUN_HAND, OTHER])
    c = combo("2H 3H 4H")
    assert describe(state, Play(c)) == "player 0 plays a run of three to 4: 2H 3H 4H"
    assert describe(state, Bet(15)) == "player 0 bets 15 to go out first"
    before = run_then_out()
    assert describe(before, Play(combo("2H 3H 4H 5H 6H"))).endswith("and goes out; hand 1 ends")
    end = act(run_then_out(Rules(target=100)), "2H 3H 4H 5H 6H")
    assert "player 0 wins" in summary(end)


def test_json_refuses_a_false_declaration():
    import json

    from cardrules import StateFormatError, from_json, to_json
    from cardrules.serialize import encode_value

    state = act(stacked([RUN_HAND, OTHER]), "2H 3H 4H")
    doc = json.loads(to_json(state))
    assert from_json(json.dumps(doc)) == state
    doc["history"][-1]["combo"]["rank"] = 9  # 2H 3H 4H is no run to 9
    with pytest.raises(StateFormatError, match="cannot be declared so"):
        from_json(json.dumps(doc))
    doc["history"][-1]["combo"]["kind"] = "triple"
    with pytest.raises(StateFormatError):
        from_json(json.dumps(doc))
    # a view is plain data too
    assert json.loads(json.dumps(encode_value(view(state, 1))))["trick"][0][0] == 0


def test_states_pickle_and_copy_without_their_cache():
    import copy
    import pickle

    state = act(stacked([RUN_HAND, OTHER]), "2H 3H 4H")
    legal_actions(state)
    for other in (pickle.loads(pickle.dumps(state)), copy.deepcopy(state), copy.copy(state)):
        assert other == state
        assert legal_actions(other) == legal_actions(state)


def test_hand_made_plays_are_refused_in_words():
    state = stacked([RUN_HAND, OTHER])
    # two Js: a real declaration (three 5s? no: 5S is not in hand; 2S with two Js)
    two_js = Combo("set", 2, 3, None, parse_cards("2S J J"))
    with pytest.raises(IllegalActionError, match="you do not hold J"):
        apply(state, Play(two_js))
    with pytest.raises(IllegalActionError, match="tuple of cards"):
        apply(state, Play(Combo("set", 2, 1, None, 5)))
    with pytest.raises(IllegalActionError, match="not a Haggis card"):
        apply(state, Play(Combo("set", 1, 1, None, parse_cards("AS"))))
    with pytest.raises(IllegalActionError, match="Play needs a Combo"):
        apply(state, Play("2S"))
    with pytest.raises(IllegalActionError, match="not a Haggis action"):
        apply(state, "2S")
    with pytest.raises(IllegalActionError, match="only give away a trick your bomb won"):
        apply(state, GiveTrick(1))


def test_no_run_wider_than_the_suits_in_play():
    # two players play four suits: wilds cannot make a fifth column
    state = stacked(["4S 4H 4D 4C 5S 5H 5D 5C 2H 3H 6S 7S 8S 9S"])
    (wide,) = [c for c in combinations("4S 4H 4D 4C 5S 5H 5D 5C J Q") if c.width == 5]
    assert Play(wide) not in legal_actions(state)
    with pytest.raises(IllegalActionError, match="is no combination"):
        apply(state, Play(wide))
    assert any(type(a) is Play and a.combo.width == 4 for a in legal_actions(state))


def test_a_bet_is_a_whole_number_and_a_view_a_player_number():
    from cardrules import GAMES, CardRulesError
    from cardrules import haggis as hg

    s = hg.new_game(seed=1)
    with pytest.raises(IllegalActionError, match=r"not 15\.0"):
        hg.apply(s, hg.Bet(15.0))
    with pytest.raises(CardRulesError, match="no player True"):
        GAMES["haggis"].view(s, True)


def test_the_generators_own_plays_and_equal_hand_made_ones_step_alike():
    """The step trusts the plays legal_actions built (it knows their cards); an equal
    Play made by hand takes the full checks: the same states, the same refusals."""
    state = stacked([RUN_HAND, OTHER])
    for own in [a for a in legal_actions(state) if type(a) is Play][::37]:
        c = own.combo
        made = Play(Combo(c.kind, c.rank, c.size, c.width, tuple(c.cards)))
        assert made is not own and made == own
        assert apply(state, made) == apply(state, own)
    # player 1's own plays, offered to player 0, who does not hold their cards
    theirs = [a for a in legal_actions(stacked([OTHER, RUN_HAND])) if type(a) is Play]
    for own in [a for a in theirs if not set(a.combo.cards) <= set(state.hands[0])][::41]:
        c = own.combo
        made = Play(Combo(c.kind, c.rank, c.size, c.width, tuple(c.cards)))
        with pytest.raises(IllegalActionError) as mine:
            apply(state, own)
        with pytest.raises(IllegalActionError) as by_hand:
            apply(state, made)
        assert str(mine.value) == str(by_hand.value)


def _pass_by_the_book(state, action):
    """A pass as the rules put it, one step after the other: the pass is counted; when
    every other player still holding cards has passed, the trick is over and goes the
    way ``_end_trick`` sends it (to its winner, or by the bomb rule)."""
    from cardrules.haggis.rules import STATE, _end_trick, _next_with_cards

    p, hands = state.to_act, state.hands
    last = state.trick[-1][0]
    passes = state.passes + 1
    still_in = [q for q, h in enumerate(hands) if h and q != last]
    over = passes >= len(still_in)
    new = STATE.replace(
        state,
        passes=passes,
        giving=False,
        to_act=p if over else _next_with_cards(hands, p),
        history=(*state.history, action),
    )
    return _end_trick(new, last) if over else new


@pytest.mark.parametrize(
    ("players", "rules"), [(2, None), (3, None), (3, Rules(bomb_trick="tournament"))]
)
def test_every_pass_of_random_games_is_the_rules_pass(players, rules):
    # the step of a Pass ends the commonest tricks in one new state; at every pass of
    # random games it must give what the rules' own steps give, field by field
    import random

    rng = random.Random(players)
    checked = 0
    for g in range(30):
        state = new_game(rules, players=players, seed=f"pass:{g}")
        while not state.is_over:
            actions = legal_actions(state)
            action = actions[rng.randrange(len(actions))]
            after = apply(state, action)
            if type(action) is Pass and after.to_act is not CHANCE and not after.is_over:
                assert after == _pass_by_the_book(state, action)
                checked += 1
            state = after
    assert checked > 300

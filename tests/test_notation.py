"""Actions as text: ``parse_action(state, str(a)) == a`` for every legal action, the
forgiving ways of reading (case, card notation, order of a set), the errors, and
``render`` showing a player only what its view holds."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardrules import GAMES, IllegalActionError, aegis, eleusis, gunsore, haggis, parse_cards
from cardrules.notation import Notation, key_of

CONFIGS = [("aegis", 2), ("gunsore", 2), ("eleusis", 3), ("eleusis", 5), ("haggis", 2), ("haggis", 3)]
#: Legal actions checked per state: all of them up to this many, else a random sample.
PER_STATE = 80


def _round_trip(g, state, rng):
    legal = g.legal_actions(state)
    picks = legal if len(legal) <= PER_STATE else rng.sample(legal, PER_STATE)
    for a in picks:
        text = str(a)
        assert g.parse_action(state, text) == a, text
        # case does not matter
        assert g.parse_action(state, text.lower()) == a, text
    return legal


@pytest.mark.parametrize(("game", "players"), CONFIGS)
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6))
def test_every_legal_action_reads_back(game, players, seed):
    g = GAMES[game]
    rng = random.Random(seed)
    state = g.new_game(players=players, seed=seed)
    for _ in range(150):
        if state.is_over:
            break
        legal = _round_trip(g, state, rng)
        state = g.apply(state, rng.choice(legal))


def test_unique_texts():
    """Two different legal actions never share a text (else str could not read back)."""
    for game, players in CONFIGS:
        g = GAMES[game]
        rng = random.Random(1)
        state = g.new_game(players=players, seed=3)
        for _ in range(60):
            if state.is_over:
                break
            legal = g.legal_actions(state)
            texts = Counter(str(a) for a in legal)
            assert max(texts.values()) == 1, [t for t, n in texts.items() if n > 1]
            state = g.apply(state, rng.choice(legal))


def _aegis_exchange_state():
    return aegis.new_game(seed=7)


def test_aegis_reads_sets_in_any_order_and_aliases():
    s = _aegis_exchange_state()
    hand = s.hands[s.to_act]
    two = parse_cards(f"{hand[3]} {hand[0]}")
    want = aegis.Exchange(two)
    assert aegis.parse_action(s, f"exchange {str(hand[3]).lower()}, {hand[0]}") == want
    assert aegis.parse_action(s, f"{hand[3]} {hand[0]}") == want  # bare cards: an exchange
    assert aegis.parse_action(s, "stop") == aegis.Exchange(()) == aegis.parse_action(s, "KEEP")
    assert str(want) == "exchange " + " ".join(map(str, sorted(two, key=lambda c: c.index)))


def test_wrong_kind_says_why_and_lists_the_nearest():
    s = _aegis_exchange_state()
    with pytest.raises(IllegalActionError, match=r"you cannot bid now.*nearest of 32 legal actions"):
        aegis.parse_action(s, "bid 3")
    with pytest.raises(IllegalActionError, match="'5x' is not a card"):
        aegis.parse_action(s, "exchange 5x")


def test_gunsore_ten_notations_and_war():
    s = gunsore.new_game(seed=2024)
    legal = gunsore.legal_actions(s)
    assert str(gunsore.DeclareWar()) == "war" and gunsore.DeclareWar() in legal
    assert gunsore.parse_action(s, "Declare War") == gunsore.DeclareWar()
    play = next(a for a in legal if isinstance(a, gunsore.Play))
    assert gunsore.parse_action(s, f"play {play.card}") == play
    held = set(s.hands[s.to_act])
    missing = next(c for c in parse_cards("AS 2S 3S 4S 5S 6S 7S") if c not in held)
    with pytest.raises(IllegalActionError, match=f"no {missing}"):
        gunsore.parse_action(s, str(missing))


def test_eleusis_strings_are_read_in_order_though_not_listed():
    s = eleusis.new_game(seed=2024)
    hand = s.hands[s.to_act]
    text = f"{hand[2]} {hand[0]} {hand[1]}"
    a = eleusis.parse_action(s, text.lower())
    assert a == eleusis.Play((hand[2], hand[0], hand[1])) and a not in eleusis.legal_actions(s)
    assert str(a) == text
    assert eleusis.parse_action(s, "none") == eleusis.NoPlay()
    with pytest.raises(IllegalActionError, match="nothing to judge"):
        eleusis.parse_action(s, "judge right")
    assert (str(eleusis.BecomeProphet()), str(eleusis.Judge(True)), str(eleusis.Judge(False, hand[0]))) == (
        "prophet", "judge right", f"judge wrong {hand[0]}")


def test_haggis_asks_which_declaration():
    s = haggis.new_game(seed=2024, players=3)
    hand = s.hands[0]
    number = hand[0]
    # one number card and two wilds: a set of three, or a run; the text must say which
    options = [a for a in haggis.legal_actions(s)
               if isinstance(a, haggis.Play) and Counter(a.combo.cards) == Counter((number, *parse_cards("J K")))]
    assert len(options) >= 2
    with pytest.raises(IllegalActionError, match="say which"):
        haggis.parse_action(s, f"K {number} J")
    for a in options:
        assert " as " in str(a)
        cards, decl = str(a).split(" as ")
        assert haggis.parse_action(s, " ".join(reversed(cards.split())) + " as " + decl) == a
    with pytest.raises(IllegalActionError, match="lead"):
        haggis.parse_action(s, "pass")
    assert str(haggis.Bet(15)) == "bet 15" and str(haggis.GiveTrick(1)) == "give 1"


def test_key_of_is_the_canonical_form():
    n = Notation(aliases={"stop": "keep"}, card_sets=True)
    assert key_of(" th,  2s ", n) == "2S 10H"
    assert key_of("STOP", n) == "keep"
    assert key_of("th 2s", Notation()) == "10H 2S"  # order kept when not a set


@pytest.mark.parametrize(("game", "players"), CONFIGS)
def test_render_for_a_player_shows_no_hidden_card(game, players):
    """Every card in a player's render is one the player's view holds or that is public:
    another player's hand never shows."""
    g = GAMES[game]
    rng = random.Random(5)
    state = g.new_game(players=players, seed=11)
    for _ in range(40):
        if state.is_over:
            break
        for p in range(players):
            text = g.render(state, p)
            # render draws hands as "... hand: cards"; no other player's hand line appears
            assert "'s hand" not in text
            mine = next(line for line in text.splitlines() if line.startswith("your hand")) if p or game != "eleusis" else ""
            if mine:
                assert set(parse_cards(mine.split(":", 1)[1].replace("-", ""))) <= set(g.view(state, p).hand)
        full = g.render(state)
        assert "your hand" not in full
        state = g.apply(state, rng.choice(g.legal_actions(state)))


def test_render_is_a_game_def_method():
    s = GAMES["haggis"].new_game(seed=1)
    assert GAMES["haggis"].render(s, 1) == haggis.render(s, 1)
    assert GAMES["haggis"].parse_action(s, "bet 30") == haggis.Bet(30)

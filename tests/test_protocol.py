"""The shared protocol, tested on a toy game (tests/toygame.py) so that it stands on its own."""

import copy
import pickle
import random

import attrs
import pytest
import toygame
from hypothesis import given
from hypothesis import strategies as st

import cardrules
from cardrules import CHANCE, GAMES, IllegalActionError, Shuffle, chance_cards, parse_cards
from cardrules.agents import RandomAgent
from cardrules.protocol import _Chance

G = toygame.GAME


def test_chance_is_a_singleton_that_survives_pickling_and_copying():
    assert pickle.loads(pickle.dumps(CHANCE)) is CHANCE
    assert copy.copy(CHANCE) is CHANCE and copy.deepcopy(CHANCE) is CHANCE
    assert _Chance() is CHANCE and repr(CHANCE) == "CHANCE"


def test_unseeded_game_stops_at_chance_and_a_stacked_deck_deals_exactly():
    s = G.new_game()
    assert s.to_act is CHANCE and G.legal_actions(s) == ()
    assert chance_cards(s) == parse_cards("AS 2S 3S 4S 5S 6S")
    s = G.apply(s, Shuffle(parse_cards("6S AS 5S 2S 4S 3S")))
    assert s.hands == (parse_cards("4S 5S 6S"), parse_cards("AS 2S 3S"))
    assert chance_cards(s) == ()


@pytest.mark.parametrize("order, why", [
    ("AS 2S 3S 4S 5S", "lacks 6S"),
    ("AS 2S 3S 4S 5S 6S 6S", "holds 6S"),
    ("AS 2S 3S 4S 5S 7S", "holds 7S"),
    ("AS AS 3S 4S 5S 6S", "holds AS"),
])
def test_a_shuffle_must_be_a_permutation_of_the_chance_cards(order, why):
    s = G.new_game()
    with pytest.raises(IllegalActionError, match=why):
        G.apply(s, Shuffle(parse_cards(order)))


def test_only_shuffles_at_chance_and_never_elsewhere():
    s = G.new_game()
    with pytest.raises(IllegalActionError, match="chance node"):
        G.apply(s, toygame.Play(cardrules.parse_card("AS")))
    s = G.new_game(seed=1)
    with pytest.raises(IllegalActionError, match="only legal at a chance node"):
        G.apply(s, Shuffle(chance_cards(G.new_game())))


def test_seeded_chance_follows_the_documented_rule():
    s = G.new_game(seed="abc")
    order = list(chance_cards(G.new_game()))
    random.Random("abc:0").shuffle(order)
    assert s.history == (Shuffle(tuple(order)),)
    assert s.seed == "abc"


def test_seed_takes_no_part_in_equality_and_replay_is_exact():
    s = G.new_game(seed=5)
    rng = random.Random(0)
    while not s.is_over:
        s = G.apply(s, rng.choice(G.legal_actions(s)))
    r = G.replay(None, s.history)
    assert r == s and r.seed is None and s.seed == 5


def test_replay_names_the_illegal_action():
    s = G.new_game(seed=5)
    bad = [*s.history, toygame.Play(cardrules.parse_card("KS"))]
    with pytest.raises(IllegalActionError, match=r"action 1 \(.*KS.*\): KS is not in your hand"):
        G.replay(None, bad)


def test_player_counts_are_checked():
    with pytest.raises(cardrules.CardRulesError, match="played by 2 players"):
        G.new_game(players=3)
    with pytest.raises(cardrules.CardRulesError, match="rules must be"):
        G.new_game(rules="fast")  # type: ignore[arg-type]
    with pytest.raises(cardrules.CardRulesError, match="no player 2"):
        G.view(G.new_game(seed=1), 2)


def test_registry_has_the_four_games_and_defined_ones():
    assert list(GAMES)[:4] == ["aegis", "gunsore", "eleusis", "haggis"]
    assert GAMES["highcard"] is G and "highcard" in GAMES
    with pytest.raises(KeyError):
        GAMES["chess"]


@given(st.integers(min_value=0, max_value=10**6))
def test_random_play_ends_and_replays(seed):
    s = G.new_game(seed=seed)
    agents = [RandomAgent(seed), RandomAgent(seed + 1)]
    steps = 0
    while not s.is_over:
        p = s.to_act
        before = s
        s = G.apply(s, agents[p](G.view(s, p), G.legal_actions(s)))
        assert attrs.asdict(before, recurse=False) != attrs.asdict(s, recurse=False)
        steps += 1
        assert steps < 10
    assert sum(s.scores) == 3 and s.winners
    assert G.replay(None, s.history) == s


@given(st.text(max_size=12), st.integers(0, 120))
def test_the_fast_seeded_shuffle_is_random_shuffle_exactly(seed, n):
    from cardrules._shuffling import _inline, seeded_shuffle

    assert seeded_shuffle is _inline  # this Python shuffles as the inlined copy does
    expected, got = list(range(n)), list(range(n))
    random.Random(seed).shuffle(expected)
    seeded_shuffle(seed, got)
    assert got == expected


def test_a_python_that_shuffles_otherwise_keeps_its_own_shuffle():
    from cardrules import _shuffling

    def reversing(text, items):
        items.reverse()

    assert _shuffling._same_orders(_shuffling._inline)
    assert _shuffling._same_orders(_shuffling._reference)
    assert not _shuffling._same_orders(reversing)


def test_a_start_state_kept_by_the_game_is_never_changed_by_seeding(monkeypatch):
    # new_game gives a fresh start state its seed in place; one the game keeps must be copied.
    kept = G.new_game()
    monkeypatch.setattr(G, "_start", lambda rules, players: kept)
    seeded = G.new_game(seed=3)
    assert kept.seed is None and kept.history == () and kept.to_act is CHANCE
    assert seeded.seed == 3 and len(seeded.history) >= 1
    monkeypatch.undo()
    assert G.new_game(seed=3) == seeded and G.new_game(seed=3).seed == 3


def test_import_cardrules_alone_reaches_every_documented_module():
    # api.md writes cardrules.eleusis.compile_rule, cardrules.agents.RandomAgent ...
    import subprocess
    import sys

    script = (
        "import cardrules;"
        "print(cardrules.eleusis.compile_rule('card is red').name,"
        " cardrules.agents.RandomAgent.__name__,"
        " cardrules.tricks.builtin('aegis').name,"
        " [m.new_game.__module__ for m in (cardrules.aegis, cardrules.gunsore, cardrules.haggis)])"
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["None", "RandomAgent", "aegis", "['cardrules.aegis',", "'cardrules.gunsore',", "'cardrules.haggis']"]
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        cardrules.nothing  # noqa: B018


def test_an_unknown_game_name_is_a_clear_error_and_still_a_key_error():
    with pytest.raises(cardrules.UnknownGameError, match=r"no game named 'chess' \(games: aegis, gunsore"):
        GAMES["chess"]
    with pytest.raises(KeyError):
        GAMES["chess"]
    assert issubclass(cardrules.UnknownGameError, cardrules.CardRulesError)
    assert GAMES.get("chess") is None and "chess" not in GAMES


def test_a_shuffle_of_things_that_are_not_cards_is_an_illegal_action():
    s = G.new_game()
    n = len(chance_cards(s))
    for order in ([[1]] * n, [None] * n, ["AS"] * n):
        with pytest.raises(IllegalActionError, match="is not a Card"):
            G.apply(s, Shuffle(tuple(order)))
    with pytest.raises(IllegalActionError, match="Shuffle takes the cards in order"):
        Shuffle(5)

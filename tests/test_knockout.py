"""Knockout whist (``examples/knockout/knockout.py``): a game written outside the
package, registered through the public API, taken by every tool with no change to the
library: the protocol, JSON, ``simulate``, a ``tournament`` of random against ISMCTS,
``cardrules play`` typed at scripted stdin, OpenSpiel's ``random_sim_test`` and
PettingZoo's ``api_test``."""

from __future__ import annotations

import io
import random
import sys
from pathlib import Path

import pytest

import cardrules
from cardrules import GAMES, CardRulesError, IllegalActionError, RandomAgent, Shuffle, parse_card, parse_cards
from cardrules.cli import main

PATH = Path(__file__).resolve().parent.parent / "examples" / "knockout" / "knockout.py"
sys.path.insert(0, str(PATH.parent))
import knockout  # noqa: E402  (the example, registered as it loads)

GAME = GAMES["knockout"]


def stacked(order_text: str, players: int = 2, first_hand: int = 1):
    """A game whose first hand is dealt from ``order_text`` (then the rest of the deck)."""
    top = parse_cards(order_text)
    rest = [c for c in knockout.DECK if c not in top]
    state = GAME.new_game(knockout.Rules(first_hand=first_hand), players=players)
    return GAME.apply(state, Shuffle((*top, *rest)))


def test_registered_through_the_public_api() -> None:
    assert GAMES["knockout"] is knockout.GAME
    assert "knockout" in GAMES and "knockout" in list(GAMES)
    with pytest.raises(CardRulesError, match="already registered"):
        cardrules.register_game(
            cardrules.GameDef(
                "knockout", rules_type=knockout.Rules, state_type=int, action_types=(), player_counts=(2,),
                default_players=2, start=None, legal_actions=None, step=None, chance_cards=None,
                deal=None, view=None,
            )
        )


def test_a_stacked_deal_trump_beats_the_led_suit() -> None:
    # two players, one card each: 0 gets KH, 1 gets 2S, 5S is turned: spades are trump
    s = stacked("KH 2S 5S")
    assert s.hands == ((parse_card("KH"),), (parse_card("2S"),)) and s.trump == parse_card("5S")
    s = GAME.apply(s, knockout.Play(parse_card("KH")))
    s = GAME.apply(s, knockout.Play(parse_card("2S")))
    assert s.is_over and s.scores == (0, 1) and s.winners == (1,)


def test_follow_suit_is_enforced_with_a_reason() -> None:
    # 0: AH 3C, 1: 4H 9C (dealt alternately), turned 2D
    s = stacked("AH 4H 3C 9C 2D", first_hand=2)
    s = GAME.apply(s, knockout.Play(parse_card("AH")))
    assert GAME.legal_actions(s) == (knockout.Play(parse_card("4H")),)
    with pytest.raises(IllegalActionError, match="must follow suit: you hold 4H"):
        GAME.apply(s, knockout.Play(parse_card("9C")))
    s = GAME.apply(s, knockout.Play(parse_card("4H")))
    assert s.to_act == 0 and s.tricks == (1, 0)  # the ace of the led suit takes it and leads


def test_a_player_without_a_trick_is_knocked_out() -> None:
    # 0: AH KH, 1: 2C 3C; hearts led twice, 1 cannot follow and has no trump (turned 5D)
    s = stacked("AH 2C KH 3C 5D", first_hand=2)
    for card in ("AH", "2C", "KH", "3C"):
        s = GAME.apply(s, knockout.Play(parse_card(card)))
    assert s.is_over and s.winners == (0,) and s.alive == (True, False)


def test_random_games_end_with_one_player_and_every_card_accounted() -> None:
    rng = random.Random(0)
    for players in (2, 3, 4):
        for seed in range(10):
            s = GAME.new_game(players=players, seed=seed)
            while not s.is_over:
                if s.hands and s.trump is not None:
                    held = [c for h in s.hands for c in h] + [c for _, c in s.played]
                    assert len(held) == len(set(held)) and s.trump not in held
                s = GAME.apply(s, rng.choice(GAME.legal_actions(s)))
            assert len(s.winners) == 1 and sum(s.alive) == 1
            assert cardrules.from_json(cardrules.to_json(s)) == s
            assert GAME.replay(None, s.history, players=players) == s


def test_samples_match_the_view_and_the_voids_shown() -> None:
    rng = random.Random(1)
    checked = 0
    for seed in range(8):
        s = GAME.new_game(players=3, seed=seed)
        while not s.is_over:
            p = s.to_act
            v = GAME.view(s, p)
            sample = GAME.sample_state(v, seed=seed)
            assert GAME.view(sample, p) == v
            assert GAME.legal_actions(sample) == GAME.legal_actions(s)
            checked += 1
            s = GAME.apply(s, rng.choice(GAME.legal_actions(s)))
    assert checked > 100


def test_simulate_and_a_tournament_of_random_against_search() -> None:
    summary = cardrules.simulate("knockout", [RandomAgent, RandomAgent, RandomAgent], games=30, seed=1)
    assert summary.games == 30 and sum(summary.wins) == 30
    from cardrules.agents import strong_agent
    from cardrules.search import ISMCTSAgent

    assert isinstance(strong_agent("knockout", seed=0), ISMCTSAgent)
    table = cardrules.tournament(
        "knockout",
        {"ismcts": cardrules.Factory(strong_agent, "knockout", iterations=60), "random": RandomAgent},
        games=20,
        seed=2,
        players=2,
    )
    rows = {row.name: row for row in table.rows}
    assert rows["ismcts"].games == rows["random"].games == 40
    assert rows["ismcts"].wins + rows["random"].wins == 40
    # the search takes more tricks (two-player knockout's winner is mostly the luck of the
    # last hands, so the tricks, not the wins, show the search playing better)
    assert rows["ismcts"].average_score > rows["random"].average_score + 1


def test_cardrules_play_with_load_and_scripted_stdin(monkeypatch, capsys) -> None:
    status = main(["--load", str(PATH), "play", "knockout", "--auto", "--seed", "1"])
    out = capsys.readouterr().out
    assert status == 0 and out.startswith("Knockout whist, 3 players, seed 1")
    assert "winners: [" in out
    # a person at seat 0: help, a list, a wrong card, then the first legal action (#1) each turn
    typed = io.StringIO("\n".join(["help", "list", "ZZ", *["#1"] * 40]) + "\n")
    monkeypatch.setattr(sys, "stdin", typed)
    status = main(["--load", str(PATH), "play", "knockout", "--players", "2", "--seed", "3",
                   "--opponents", "random"])
    out = capsys.readouterr().out
    assert status == 0
    assert "a card to play" in out  # the game's own help text
    assert "game over: you" in out


def test_openspiel_random_sim_test() -> None:
    pyspiel = pytest.importorskip("pyspiel", reason="the openspiel extra is not installed")
    from cardrules.integrations import openspiel

    game = pyspiel.load_game(openspiel.register("knockout"), {"players": 3})
    pyspiel.random_sim_test(game, num_sims=5, serialize=True, verbose=False)


def test_pettingzoo_api_test() -> None:
    pytest.importorskip("pettingzoo", reason="the pettingzoo extra is not installed")
    from pettingzoo.test import api_test

    from cardrules.integrations.pettingzoo import env

    api_test(env("knockout", players=3), num_cycles=200)

"""``cardrules play aegis|gunsore|haggis``: one player against agents, read from a pipe."""

import io
import re
import sys

import pytest

from cardrules import aegis
from cardrules.cli import main


def run(argv, stdin, monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    status = main(argv)
    return status, capsys.readouterr().out


@pytest.mark.parametrize("game", ["aegis", "gunsore", "haggis"])
def test_auto_plays_a_whole_game_and_the_same_seed_plays_it_again(game, monkeypatch, capsys):
    # a small search budget keeps the whole game quick
    status, out = run(["play", game, "--auto", "--seed", "4", "--budget", "4"], "", monkeypatch, capsys)
    assert status == 0
    assert out.startswith(f"{game}, 2 players, seed 4\n") and "winners: [" in out
    _, again = run(["play", game, "--auto", "--seed", "4", "--budget", "4"], "", monkeypatch, capsys)
    assert again == out


def test_a_player_picks_by_number_or_by_text_and_sees_no_hidden_card(monkeypatch, capsys):
    # seed 5: player 1 is master and exchanges first; then player 0 (slave) keeps its
    # hand with 1, bids by text, plays by number, and stops.
    status, out = run(["play", "aegis", "--seed", "5"], "1\nbid(4)\n1\nquit\n", monkeypatch, capsys)
    assert status == 0 and out.rstrip().endswith("stopped.")
    assert re.search(r"player 1 \(master\) exchanges \d cards? \(round 1\)", out)  # not which cards
    assert "player 0 (slave) keeps its hand" in out
    assert "player 0 (slave) bids 4" in out
    assert re.search(r"player 0 \(attacker\) plays \w+", out)
    state = aegis.new_game(seed="5")
    assert f"your hand: {' '.join(map(str, state.hands[0]))}" in out


def test_a_text_that_matches_several_actions_lists_them_and_a_bad_one_says_so(monkeypatch, capsys):
    status, out = run(["play", "haggis", "--seed", "5"], "single 2\nnonsense\n99999\nquit\n", monkeypatch, capsys)
    assert status == 0
    after = out.split("> ", 1)[1]
    listed = re.findall(r"^\s+\d+\s+(.*)$", after.split("> ", 1)[0], re.M)
    assert listed and all("single 2" in a for a in listed)
    assert "no legal action matches 'nonsense'" in out
    assert re.search(r"no action 99999: choose from 1 to \d+", out)


@pytest.mark.parametrize("budget", ["0", "x", "0ms", "ms"])
def test_a_bad_budget_is_refused(budget, monkeypatch, capsys):
    status = main(["play", "aegis", "--budget", budget, "--seed", "1"])
    assert status != 0
    assert "--budget must be a number of iterations" in capsys.readouterr().err


def test_a_budget_in_milliseconds_plays(monkeypatch, capsys):
    status, out = run(["play", "aegis", "--seed", "5", "--budget", "5ms"], "1\nquit\n", monkeypatch, capsys)
    assert status == 0 and out.rstrip().endswith("stopped.")


def test_a_seat_that_does_not_exist_is_refused(monkeypatch, capsys):
    status = main(["play", "aegis", "--seat", "2", "--seed", "1"])
    assert status != 0
    assert "--seat must be a seat from 0 to 1" in capsys.readouterr().err

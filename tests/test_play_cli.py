"""``cardrules play``: one person against the computer, read from scripted stdin, for
every game: a whole game typed as text, ``help``, ``list``, a wrong input, the end of
input and Ctrl-C."""

import io
import random
import re
import sys

import pytest

from cardrules import GAMES, aegis
from cardrules.cli import main, play_cmd

CASES = [("aegis", 2, 0), ("gunsore", 2, 1), ("haggis", 2, 0), ("haggis", 3, 2), ("eleusis", 4, 1)]


def run(argv, stdin, monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    status = main(argv)
    return status, capsys.readouterr().out


class Typist:
    """A stdin that answers each prompt with the text of a legal action, computed from
    the game the command is playing (replayed here from the same seed and the lines
    printed so far is not needed: the session object is inspected)."""

    def __init__(self, extra_lines=()):
        self.rng = random.Random(0)
        self.session = None
        self.extra = list(extra_lines)
        self.typed = []

    def readline(self):
        if self.extra:
            line = self.extra.pop(0)
        else:
            s = self.session
            st = s.state
            legal = s.g.legal_actions(st)
            line = str(self.rng.choice(legal))
        self.typed.append(line)
        return line + "\n"


@pytest.mark.parametrize(("game", "players", "seat"), CASES)
def test_a_whole_game_typed_as_text(game, players, seat, monkeypatch, capsys):
    typist = Typist(["help", "no such move", "list", "999999"])
    real_init = play_cmd._Session.__init__

    def init(self, *a, **k):
        real_init(self, *a, **k)
        typist.session = self

    monkeypatch.setattr(play_cmd._Session, "__init__", init)
    monkeypatch.setattr(sys, "stdin", typist)
    argv = ["play", game, "--seed", "3", "--budget", "4", "--players", str(players), "--seat", str(seat),
            "--opponents", "random", "--max-actions", "20000"]
    status = main(argv)
    out = capsys.readouterr().out
    assert status == 0
    assert out.count(f"How to write an action in {game}") == 1
    assert "     1  " in out  # the numbered list, on request only
    assert "'no such move'" in out and "legal action" in out
    assert "no action 999999" in out
    assert "game over: " in out and "winners: [" in out
    # the wrong inputs did not reprint the list of legal actions
    assert out.count("     1  ") == 1
    # the typed texts were read as the actions they name: the game ended by them
    assert len(typist.typed) > 4


def test_aegis_table_and_results_show_as_they_happen(monkeypatch, capsys):
    # seed 5: player 1 is master and exchanges first; player 0 keeps as long as the
    # master exchanges (a 'keep' too many is refused in words), then bids 5 by text (5 is
    # legal whatever the master bid, so the test does not depend on the search's choices).
    script = "keep\n" * 4 + "bid 5\n#1\nquit\n"
    status, out = run(["play", "aegis", "--seed", "5", "--budget", "4"], script, monkeypatch, capsys)
    assert status == 0 and out.rstrip().endswith("stopped.")
    assert re.search(r"player 1 \(master\) exchanges \d cards? \(round 1\)", out)  # not which cards
    assert "player 0 (slave) keeps its hand" in out
    assert "player 0 (slave) bids 5" in out
    assert re.search(r"player 0 \((attacker|defender)\) plays \w+", out)
    state = aegis.new_game(seed="5")
    assert f"your hand: {' '.join(map(str, state.hands[0]))}" in out
    assert "key card" in out and "to act: player 0 (slave)" in out
    # the opponent's hand never shows
    assert f"{' '.join(map(str, state.hands[1]))}" not in out


def test_haggis_shows_what_to_beat_and_asks_for_a_declaration(monkeypatch, capsys):
    g = GAMES["haggis"]
    s = g.new_game(players=2, seed="8")
    hand = s.hands[0]
    number = hand[0]
    text = f"{number} J K"
    status, out = run(["play", "haggis", "--seed", "8", "--opponents", "random"], f"{text}\nquit\n", monkeypatch, capsys)
    assert status == 0
    assert "declares 2 combinations: say which" in out or "declares 3 combinations: say which" in out
    assert "to act: player 0 leads" in out


def test_end_of_input_and_ctrl_c_end_cleanly(monkeypatch, capsys):
    status, out = run(["play", "gunsore", "--seed", "1", "--seat", "1", "--budget", "4"], "", monkeypatch, capsys)
    assert status == 0 and out.rstrip().endswith("stopped.")

    class Interrupt:
        def readline(self):
            raise KeyboardInterrupt

    monkeypatch.setattr(sys, "stdin", Interrupt())
    status = main(["play", "gunsore", "--seed", "1", "--seat", "1", "--budget", "4"])
    out = capsys.readouterr().out
    assert status == 130 and out.rstrip().endswith("interrupted.")


@pytest.mark.parametrize("game", ["aegis", "gunsore", "haggis"])
def test_auto_plays_a_whole_game_and_the_same_seed_plays_it_again(game, monkeypatch, capsys):
    status, out = run(["play", game, "--auto", "--seed", "4", "--budget", "4"], "", monkeypatch, capsys)
    assert status == 0
    assert out.startswith(f"{game.capitalize()}, 2 players, seed 4;") and "winners: [" in out
    _, again = run(["play", game, "--auto", "--seed", "4", "--budget", "4"], "", monkeypatch, capsys)
    assert again == out


def test_eleusis_with_the_person_as_god(monkeypatch, capsys):
    status, out = run(["play", "eleusis", "--seat", "0", "--seed", "2", "--players", "4",
                       "--rule", "card.rank > 3"], "", monkeypatch, capsys)
    assert status == 0
    # seat 0 is God (the game's seat_names), a seat that never acts: the person watches
    assert "you are God" in out and "God never acts: watch the others play." in out
    assert "the secret rule: card.rank > 3" in out
    assert "the rule was: card.rank > 3" in out and "winners: [" in out


@pytest.mark.parametrize(("argv", "message"), [
    (["play", "aegis", "--seat", "2", "--seed", "1"], "--seat must be a seat from 0 to 1"),
    (["play", "haggis", "--rule", "card is red"], "--rule is for games whose rules are written as text; haggis has none"),
    (["play", "eleusis", "--name", "a"], "--name picks a rule of the --rule file"),
    (["play", "aegis", "--players", "3"], "aegis is played by 2 players"),
    (["play", "eleusis", "--rule", "card.rnak > 1"], "rnak"),
])
def test_options_a_game_cannot_use_are_errors(argv, message, monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    assert main(argv) != 0
    assert message in capsys.readouterr().err


@pytest.mark.parametrize("budget", ["0", "x", "0ms", "ms"])
def test_a_bad_budget_is_refused(budget, capsys):
    status = main(["play", "aegis", "--budget", budget, "--seed", "1"])
    assert status != 0
    assert "--budget must be a number of iterations" in capsys.readouterr().err


def test_a_budget_in_milliseconds_plays(monkeypatch, capsys):
    status, out = run(["play", "aegis", "--seed", "5", "--budget", "5ms"], "keep\nquit\n", monkeypatch, capsys)
    assert status == 0 and "stopped." in out


def _seat_0_turn(game, seed, typed, monkeypatch, capsys):
    return run(["play", game, "--seed", seed, "--budget", "4", "--opponents", "random"],
               "".join(line + "\n" for line in typed) + "quit\n", monkeypatch, capsys)


@pytest.mark.parametrize(("game", "seed", "number"), [("haggis", "1", "10"), ("aegis", "1", "7")])
def test_a_bare_number_is_card_text_unless_a_list_was_just_shown(game, seed, number, monkeypatch, capsys):
    # '10' in Haggis and '7' in Aegis are ranks: they must not pick the 10th or 7th action
    status, out = _seat_0_turn(game, seed, [number], monkeypatch, capsys)
    assert status == 0
    assert "player 0> player 0" not in out  # nothing was played
    assert f"(to choose by number: 'list', then the number; or #{number})" in out
    # '#N' picks the Nth action at any time; a bare number picks it right after a list
    legal = GAMES[game].legal_actions(GAMES[game].new_game(players=2, seed=seed))
    want = GAMES[game].describe_for(GAMES[game].new_game(players=2, seed=seed), legal[1], 0)
    for typed in (["#2"], ["list", "2"], ["list 2", "2"] if game == "haggis" else ["list", "2"]):
        status, out = _seat_0_turn(game, seed, typed, monkeypatch, capsys)
        assert status == 0 and f"> {want}" in out, (typed, out[-800:])
    # anything shown after the list (an error, the help) ends its numbers
    status, out = _seat_0_turn(game, seed, ["list", "zz", "2"], monkeypatch, capsys)
    assert f"> {want}" not in out and "'2'" in out


@pytest.mark.parametrize("typed", ["#¹", "²", "#①"])
def test_a_number_int_cannot_read_is_an_input_error_not_a_crash(typed, monkeypatch, capsys):
    # str.isdigit() holds for superscripts and circled digits, which int() refuses
    status, out = _seat_0_turn("aegis", "1", ["list", typed], monkeypatch, capsys)
    assert status == 0
    assert "player 0> player 0" not in out  # nothing was played
    assert repr(typed) in out  # the input is named back, as any text it cannot read

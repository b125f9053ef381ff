"""``cardrules play eleusis``: automatic rounds, hot-seat rounds read from a pipe, rule files."""

import io
import os
import subprocess
import sys
from pathlib import Path

from cardrules.cli import main

SRC = str(Path(__file__).resolve().parents[1] / "src")


def run(argv, stdin="", monkeypatch=None, capsys=None):
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    status = main(argv)
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_auto_plays_a_whole_round_and_draws_the_layout(monkeypatch, capsys):
    status, out, _ = run(
        ["play", "eleusis", "--auto", "--seed", "7", "--players", "4"], "", monkeypatch, capsys
    )
    assert status == 0
    assert out.startswith("New Eleusis, 4 players, seed 7; the computer plays every seat")
    assert "the rule was: card.color != prev.color" in out
    assert "scores: [" in out and "winners: [" in out
    assert "cards held: 1:" in out
    # the same seed plays the same round
    _status2, out2, _ = run(
        ["play", "eleusis", "--auto", "--seed", "7", "--players", "4"], "", monkeypatch, capsys
    )
    assert out2 == out


def test_hot_seat_reads_moves_from_a_pipe_and_explains_mistakes(monkeypatch, capsys):
    # Find the first scientist's hand for seed 3, then script a bad card, a no-play, quit.
    from cardrules import eleusis as E
    from cardrules.eleusis.rules import DECK

    s = E.new_game(seed="3", players=4)
    p = s.to_act
    absent = next(c for c in DECK if c not in s.hands[p])
    script = f"{absent}\n1 2 3 4 5\nhelp\nnone\nquit\n"
    status, out, _ = run(["play", "eleusis", "--seed", "3", "--players", "4", "--hot-seat"], script, monkeypatch, capsys)
    assert status == 0
    assert f"{absent} is not in your hand" in out
    assert "is not a card" in out
    assert out.count("How to write an action in eleusis") == 1
    assert f"player {p} declares no play" in out
    assert out.rstrip().endswith("stopped.")


def test_end_of_input_stops_quietly(monkeypatch, capsys):
    status, out, _ = run(["play", "eleusis", "--seed", "3"], "", monkeypatch, capsys)
    assert status == 0 and "stopped." in out


def test_a_rule_file_is_the_secret_rule(tmp_path, monkeypatch, capsys):
    path = tmp_path / "rule.txt"
    path.write_text("card.rank > prev.rank\n", encoding="utf-8")
    status, out, _ = run(
        ["play", "eleusis", "--auto", "--seed", "1", "--rule", str(path)], "", monkeypatch, capsys
    )
    assert status == 0 and "the rule was: card.rank > prev.rank" in out


def test_a_missing_rule_file_is_an_error(tmp_path, monkeypatch, capsys):
    status, _, err = run(["play", "eleusis", "--rule", str(tmp_path / "nope.txt")], "", monkeypatch, capsys)
    assert status == 1 and f"no such file: {tmp_path / 'nope.txt'}" in err


def test_a_real_pipe_drives_the_command():
    env = dict(os.environ, PYTHONPATH=SRC)
    proc = subprocess.run(
        [sys.executable, "-m", "cardrules", "play", "eleusis", "--seed", "3", "--players", "4", "--hot-seat"],
        input="none\nquit\n", capture_output=True, text=True, env=env, timeout=60,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert "declares no play" in proc.stdout


def test_hot_seat_through_a_prophet_offer_and_a_judgment(monkeypatch, capsys):
    from cardrules import eleusis as E

    s = E.new_game(seed="4", players=5)
    p = s.to_act
    right = next(c for c in s.hands[p] if s.rules.secret.accepts(s.main, c))
    script = f"{right}\nmaybe\ny\nnone\nwrong\nright\nquit\n"
    status, out, _ = run(["play", "eleusis", "--seed", "4", "--hot-seat"], script, monkeypatch, capsys)
    assert status == 0
    assert f"player {p} plays {right}: right" in out
    assert "'maybe' is not a word of any legal action; legal actions: prophet, pass" in out
    assert f"player {p} becomes prophet" in out
    assert "to judge: player" in out and "declares no play, showing" in out
    assert f"to act: player {p} judges the play" in out
    assert "'wrong': " in out  # 'wrong' alone does not say which card: refused
    assert f"prophet {p} agrees player" in out


def test_the_table_judge_example_judges_a_piped_table():
    root = Path(__file__).resolve().parents[1]
    env = dict(os.environ, PYTHONPATH=SRC)
    script = "start 7H\n2S\nKD\n4H\nJC 8D\nnone 3H 5D 9C\nlayout\nquit\n"
    proc = subprocess.run(
        [sys.executable, str(root / "examples" / "eleusis_table.py"), str(root / "examples" / "rules" / "odd-black-even-red.rule")],
        input=script, capture_output=True, text=True, env=env, timeout=60,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines()[:6] == [
        "starter 7H", "right", "right", "wrong: draw 2", "wrong: draw 4", "wrong: 9C goes on the main line; draw 5",
    ]  # fmt: skip
    assert "JC+8D" in proc.stdout


def test_a_file_of_several_rules_needs_a_name(tmp_path, monkeypatch, capsys):
    path = tmp_path / "rules.txt"
    path.write_text('rule "a": card is red\nrule "b": card is black\n', encoding="utf-8")
    status, _, err = run(["play", "eleusis", "--auto", "--rule", str(path)], "", monkeypatch, capsys)
    assert status == 1 and 'holds 2 rules ("a", "b"): choose one by name' in err
    status, out, _ = run(
        ["play", "eleusis", "--auto", "--seed", "2", "--rule", str(path), "--name", "b"],
        "",
        monkeypatch,
        capsys,
    )
    assert status == 0 and "the rule was: card is black" in out.replace('rule "b": ', "")
    status, _, err = run(["play", "eleusis", "--rule", str(path), "--name", "c"], "", monkeypatch, capsys)
    assert status == 1 and "no rule named 'c'" in err


def test_a_faulty_rule_file_shows_where(tmp_path, monkeypatch, capsys):
    path = tmp_path / "bad.txt"
    path.write_text("card.rnak > prev.rank\n", encoding="utf-8")
    status, _, err = run(["play", "eleusis", "--rule", str(path)], "", monkeypatch, capsys)
    assert status == 1 and "line 1, column" in err and "^" in err

"""A rule argument on the command line: a file, FILE:NAME, or rule text.  A name that
looks like a file and is none is "no such file", in every command; ``--name`` picks a
rule of a file of several, in every command (the old spellings still work)."""

import io
import sys
from pathlib import Path

import pytest

from cardrules.cli import main

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize(
    "argv",
    [
        ["rule", "check", "nosuchfile.rule"],
        ["rule", "judge", "nosuchfile.rule", "9D"],
        ["rule", "judge", "nosuchfile.rule:a", "9D"],
        ["rule", "diff", "card is red", "rules/nosuchfile.txt"],
        ["science", "nosuchfile.rules"],
        ["play", "eleusis", "--rule", "nosuchfile.rule"],
        ["play", "eleusis", "--rule", "some/dir/rules"],
    ],
)
def test_a_missing_rule_file_is_no_such_file(argv, monkeypatch, capsys, tmp_path):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    assert main(argv) != 0
    err = capsys.readouterr().err
    assert "cardrules: no such file: " in err, err
    assert "unknown" not in err and "^" not in err  # not read as rule text


def test_a_missing_example_rule_names_the_example(monkeypatch, capsys):
    # the Getting started page's command, typed one directory too deep
    monkeypatch.chdir(ROOT / "examples")
    assert main(["rule", "judge", "alternating-colours.rule", "--line", "5H 7C", "9D"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("cardrules: no such file: alternating-colours.rule")
    assert "rules/alternating-colours.rule" in err


def test_the_example_rule_runs_from_the_source_directory(monkeypatch, capsys):
    monkeypatch.chdir(ROOT)
    argv = ["rule", "judge", "examples/rules/alternating-colours.rule", "--line", "5H 7C", "9D", "2S"]
    assert main(argv) == 0
    assert capsys.readouterr().out.startswith("9D: right: card.color must differ from prev.color")


def test_rule_text_is_still_rule_text(capsys):
    assert main(["rule", "check", "card.rank > 3"]) == 0
    assert main(["rule", "judge", "card is red", "9D"]) == 0
    assert capsys.readouterr().out.endswith("9D: right: card must be red; 9D is red\n")
    assert main(["rule", "check", "card.rnak > 3"]) == 1
    assert "did you mean 'rank'" in capsys.readouterr().err


@pytest.fixture
def several(tmp_path):
    path = tmp_path / "several.rule"
    path.write_text('rule "reds": card is red\nrule "blacks": card is black\n', encoding="utf-8")
    return path


def test_name_picks_a_rule_of_a_file_in_every_command(several, monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    f = str(several)
    assert main(["rule", "judge", f, "--name", "blacks", "5S"]) == 0
    assert main(["rule", "judge", f"{f}:blacks", "5S"]) == 0
    assert capsys.readouterr().out == "5S: right: card must be black; 5S is black\n" * 2
    assert main(["rule", "diff", f, f, "--name-a", "reds", "--name-b", "reds"]) == 0
    assert main(["rule", "diff", f"{f}:reds", "card is red"]) == 0
    assert capsys.readouterr().out == "equivalent\n" * 2
    assert main(["science", f, "--name", "blacks", "--turns", "2"]) == 0
    assert capsys.readouterr().out.startswith('secret rule: rule "blacks":')
    argv = ["play", "eleusis", "--rule", f, "--name", "blacks", "--auto", "--seed", "1", "--max-actions", "5"]
    assert main(argv) == 0
    assert 'the secret rule: rule "blacks": card is black' in capsys.readouterr().out


def test_only_the_name_options_choose_a_rule_of_a_file(several, capsys):
    # --name, --name-a, --name-b (or FILE:NAME); no other spelling is read
    f = str(several)
    for argv in (["rule", "judge", f, "--rule", "blacks", "5S"],
                 ["rule", "diff", f, f, "--rule-a", "reds", "--rule-b", "reds"],
                 ["science", f, "--rule", "blacks", "--turns", "2"]):
        with pytest.raises(SystemExit) as exc:
            main(argv)
        assert exc.value.code == 2
        assert "unrecognized arguments: --rule" in capsys.readouterr().err
    for argv in (["rule", "judge", "-h"], ["rule", "diff", "-h"], ["science", "-h"]):
        with pytest.raises(SystemExit):
            main(argv)
        shown = capsys.readouterr().out
        assert "--name" in shown and "--rule" not in shown, shown


def test_a_file_of_several_rules_says_how_to_choose(several, capsys):
    assert main(["rule", "judge", str(several), "5S"]) == 1
    err = capsys.readouterr().err
    assert f"choose one with --name or {several}:NAME (reds, blacks)" in err
    assert main(["rule", "judge", "card is red", "--name", "reds", "5S"]) == 1
    assert "--name picks a rule of a rule file" in capsys.readouterr().err

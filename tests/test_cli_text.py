"""The command line's words: rule text wherever a rule is asked for, "never accepts",
card errors that read well, help text on every option and examples in every help."""

import argparse

import pytest

from cardrules import GAMES, CardParseError, parse_card
from cardrules.cli import build_parser, main

MINE = ("demo", "rule", "table", "play", "simulate", "tournament", "science")


def test_rule_check_takes_rule_text_and_names_it_once(capsys):
    assert main(["rule", "check", "card.rank > 3"]) == 0
    out = capsys.readouterr().out
    first = out.splitlines()[0]
    assert first.startswith("card.rank > 3: looks back 0")
    assert first.count("card.rank > 3") == 1


def test_a_rule_that_accepts_nothing_says_never_accepts(capsys, tmp_path):
    path = tmp_path / "never.rule"
    path.write_text("card.rank > 13\n", encoding="utf-8")
    for arg in ("card.rank > 13", str(path)):
        main(["rule", "check", arg])
        out = capsys.readouterr().out
        assert "never accepts" in out and "accepts 0%," not in out.splitlines()[0]


def test_rule_judge_takes_rule_text(capsys):
    assert main(["rule", "judge", "card is red", "5H", "5S", "--line", "3C"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("5H: right") and "5S: wrong" in out


def test_a_faulty_rule_text_is_located(capsys):
    assert main(["rule", "check", "card.rnak > 1"]) == 1
    assert "did you mean 'rank'" in capsys.readouterr().err


@pytest.mark.parametrize(("text", "words"), [
    ("n", "'n' is not a card: a card is a rank"),
    ("x", "'x' is not a card: a card is a rank"),
    ("1H", "'1' is not a rank"),
    ("5X", "'X' is not a suit"),
])
def test_card_errors_read_well(text, words):
    with pytest.raises(CardParseError, match=words) as info:
        parse_card(text)
    assert "'' is not" not in str(info.value)


def test_a_bad_card_on_the_command_line(capsys):
    assert main(["rule", "judge", "card is red", "n"]) == 1
    assert "'n' is not a card" in capsys.readouterr().err


def _parsers(parser, path=()):
    yield path, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from _parsers(sub, (*path, name))


def test_every_option_has_help_and_every_help_ends_with_examples():
    for path, parser in _parsers(build_parser()):
        if not path or path[0] not in MINE:
            continue
        assert parser.epilog and parser.epilog.startswith("examples:"), path
        assert isinstance(parser.formatter_class, type) and issubclass(
            parser.formatter_class, argparse.RawDescriptionHelpFormatter), path
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction) or action.dest == "help":
                continue
            assert action.help, (path, action.dest)
        assert parser.format_help().rstrip().splitlines()[-1].startswith("  cardrules ")


def test_every_help_fits_80_columns_and_shows_no_doubled_percent(monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")
    seen = 0
    for path, parser in _parsers(build_parser()):
        text = parser.format_help()
        assert "%%" not in text, path
        # (games registered by other tests lengthen the {choices} of the usage, unwrappable)
        long = [line for line in text.splitlines() if len(line) > 80 and not ("{" in line and len(GAMES) > 4)]
        assert not long, (path, long)
        seen += 1
    assert seen >= 12  # cardrules, its seven commands, rule's three actions, table's two
    monkeypatch.setenv("COLUMNS", "60")
    check = dict(_parsers(build_parser()))["rule", "check"].format_help()
    assert "warn under 10% or over 90%" in " ".join(check.split())
    assert max(len(line) for line in check.split("examples:")[0].splitlines()) <= 60  # wrapped to the width

"""The command line and the library's messages given very long arguments: a plain error
(never a traceback), and an echo of the argument cut to its start and length."""

from __future__ import annotations

import pickle
import sys

import pytest

from cardrules import GAMES, CardRulesError, parse_card
from cardrules.cli import main
from cardrules.eleusis import compile_rule
from cardrules.errors import MAX_ECHO, cut_echoes


@pytest.mark.parametrize(
    "arg",
    ["a" * 300, "a" * 300 + ".rule", "a/" * 150, "x" * 5000 + ".rules:name", "card.color != " + "x" * 5000],
)
def test_rule_check_with_a_very_long_argument(arg: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rule", "check", arg]) == 1
    err = capsys.readouterr().err
    assert "Traceback" not in err and "OSError" not in err
    assert err.startswith("cardrules: ") or err.startswith("rule: ")
    assert len(err) < 800, len(err)


@pytest.mark.parametrize(
    "call",
    [
        lambda: compile_rule("x" * 5300),
        lambda: compile_rule("card is " + "y" * 5300),
        lambda: parse_card("Q" * 5300),
        lambda: GAMES["n" * 5300],
        lambda: GAMES["aegis"].Rules(new_master="w" * 5300),
        lambda: GAMES["aegis"].new_game(players="p" * 5300),
        lambda: GAMES["haggis"].parse_action(GAMES["haggis"].new_game(seed=1), "z" * 9000),
    ],
)
def test_messages_cut_long_echoes(call: object) -> None:
    with pytest.raises(CardRulesError) as info:
        call()  # type: ignore[operator]
    text = str(info.value)
    assert len(text) < 700 and "characters)" in text
    assert str(pickle.loads(pickle.dumps(info.value))) == text


def test_cut_echoes_keeps_short_messages_and_is_idempotent() -> None:
    short = "must follow suit: you hold 7H 8H " + "x" * MAX_ECHO
    assert cut_echoes(short) == short
    long = "bad: " + "q" * 10_000 + " end"
    once = cut_echoes(long)
    assert once == "bad: " + "q" * 60 + "... (10000 characters) end"
    assert cut_echoes(once) == once


def test_the_command_line_names_a_long_path_without_a_traceback(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["rule", "judge", "r" * 400 + ".rule", "9D"]
    stdin = sys.stdin
    try:
        assert main(argv) == 1
    finally:
        sys.stdin = stdin
    err = capsys.readouterr().err
    assert err.startswith("cardrules: no such file: rrrr") and "characters)" in err and "Traceback" not in err

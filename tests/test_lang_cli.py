"""``cardrules rule check`` and ``cardrules rule judge``."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from cardrules.cli import main

EXAMPLES = Path(__file__).resolve().parents[1] / "examples" / "rules"


def test_check_prints_name_depth_and_acceptance(capsys: pytest.CaptureFixture[str]) -> None:
    status = main(
        [
            "rule",
            "check",
            str(EXAMPLES / "alternating-colours.rule"),
            str(EXAMPLES / "sum-of-three-even.rule"),
        ]
    )
    out = capsys.readouterr().out
    assert status == 0
    assert re.search(r"alternate colours: looks back 1; reads color; .*; accepts \d+%\n", out)
    assert re.search(r"even sum of three: looks back 2; reads rank; .*; accepts \d+%\n", out)
    assert len(out.splitlines()) == 2  # one line a rule
    assert "warning" not in out


def test_check_warns_about_too_hard_and_too_easy_rules(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "hard.rule").write_text('rule "kings": card.rank == K\n')
    (tmp_path / "easy.rule").write_text("card is not ace  # a bare expression\n")
    status = main(["rule", "check", str(tmp_path / "hard.rule"), str(tmp_path / "easy.rule")])
    out = capsys.readouterr().out
    assert status == 0
    assert "kings: warning: accepts under 10%" in out
    assert "easy: warning: accepts over 90%" in out  # a bare expression is named after its file


def test_check_reports_errors_with_a_caret(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.rule"
    bad.write_text('rule "x":\n    card is 7\n')
    status = main(["rule", "check", str(bad), str(EXAMPLES / "primes.rule")])
    captured = capsys.readouterr()
    assert status == 1
    assert "line 2, column 13" in captured.err and "\n      card is 7\n              ^" in captured.err
    assert "primes: looks back 0" in captured.out  # the other files are still checked
    assert main(["rule", "check", str(tmp_path / "missing.rule")]) == 1


def test_every_example_passes_check(capsys: pytest.CaptureFixture[str]) -> None:
    files = sorted(EXAMPLES.glob("*.rule"))
    assert len(files) >= 30
    assert main(["rule", "check", "--lines", "200", *map(str, files)]) == 0


def test_judge_says_right_or_wrong_and_why(capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["rule", "judge", str(EXAMPLES / "odd-black-even-red.rule"), "--line", "5H 7C", "4D", "QS"])
    out = capsys.readouterr().out.splitlines()
    assert status == 0
    assert out[0].startswith("4D: wrong: ") and "prev 7C is odd" in out[0]
    assert out[1].startswith("QS: right: ")


def test_judge_needs_a_rule_name_for_a_file_of_several(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    both = tmp_path / "both.rule"
    both.write_text('rule "reds": card is red\nrule "blacks": card is black\n')
    assert main(["rule", "judge", str(both), "5H"]) == 1
    assert "choose one with --name or " in capsys.readouterr().err
    assert main(["rule", "judge", str(both), "--name", "blacks", "5H"]) == 0
    assert capsys.readouterr().out.startswith("5H: wrong")
    assert main(["rule", "judge", f"{both}:blacks", "5H"]) == 0
    assert capsys.readouterr().out.startswith("5H: wrong")
    assert main(["rule", "judge", str(both), "--name", "nope", "5H"]) == 1
    assert main(["rule", "judge", str(both), "--name", "reds", "--line", "5X", "5H"]) == 1


def test_check_refuses_a_file_without_rules(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    empty = tmp_path / "empty.rule"
    empty.write_text("# to do\n")
    assert main(["rule", "check", str(empty)]) == 1
    assert "no rule" in capsys.readouterr().err


def test_diff_finds_a_telling_card_or_says_equivalent(capsys: pytest.CaptureFixture[str]) -> None:
    same = main(
        ["rule", "diff", "card.color != prev.color", "if prev is red then card is black else card is red"]
    )
    assert same == 0 and capsys.readouterr().out.startswith("equivalent")
    status = main(["rule", "diff", str(EXAMPLES / "alternating-colours.rule"), "card.suit != prev.suit"])
    out = capsys.readouterr().out.splitlines()
    assert status == 1
    assert out[0].startswith("different: main line ")
    # the counterexample really tells them apart: one says right, the other wrong
    assert {out[1].split(":")[0].split()[-1], out[2].split(":")[0].split()[-1]} == {"right", "wrong"}


def test_bounded_difference_is_shortest_first() -> None:
    from cardrules import parse_card
    from cardrules.cli.rule_cmd import _bounded_difference
    from cardrules.lang import compile_rule

    found = _bounded_difference(compile_rule("card is red"), compile_rule("card is red or card is ace"))
    assert found == ((), parse_card("AS"))
    found = _bounded_difference(compile_rule("true"), compile_rule("position != 4"))
    assert found is not None and len(found[0]) == 3

"""``cardrules table check`` and ``cardrules table show``."""

from __future__ import annotations

import pytest

from cardrules.cli import main

VARIANT = """\
# Aegis where killers also beat leaders
table aegis_killers:
    class trump  when card.suit == key.suit
    class leader when card.suit == lead.suit
    class killer when card.rank == key.rank
    class other
    trump  beats leader, other
    killer beats trump, leader
    leader beats other
    otherwise by ranks cycle3
"""


@pytest.fixture
def variant(tmp_path):
    path = tmp_path / "variant.tricks"
    path.write_text(VARIANT, encoding="utf-8")
    return path


def test_check_ok(variant, capsys):
    assert main(["table", "check", str(variant)]) == 0
    assert capsys.readouterr().out == f"{variant}: ok (1 table: aegis_killers)\n"


def test_check_reports_the_fault_with_a_caret(tmp_path, capsys):
    path = tmp_path / "bad.tricks"
    path.write_text(VARIANT.replace("killer beats trump, leader", "killer beats trump, leeder"))
    assert main(["table", "check", str(path)]) == 1
    err = capsys.readouterr().err.splitlines()
    assert (
        err[0]
        == f"{path}: line 8, column 25: unknown class leeder (classes of table aegis_killers: trump, leader, killer, other)"
    )
    assert err[1].strip() == "killer beats trump, leeder"
    assert err[2].index("^") == err[1].index("leeder")


def test_check_a_missing_file(tmp_path, capsys):
    assert main(["table", "check", str(tmp_path / "nope.tricks")]) == 1
    assert "cannot read" in capsys.readouterr().err


def test_show_a_shipped_table(capsys):
    assert main(["table", "show", "aegis"]) == 0
    out = capsys.readouterr().out
    rows = {
        line.split()[0]: line.split()[1:]
        for line in out.splitlines()
        if line.startswith("  ") and len(line.split()) == 5
    }
    # Row beats column, per aegis.md: trump beats leader and other; killer beats trump;
    # leader beats killer and other.
    assert rows["trump"] == ["tie", "beats", "loses", "beats"]
    assert rows["leader"] == ["loses", "tie", "beats", "beats"]
    assert rows["killer"] == ["beats", "loses", "tie", "tie"]
    assert rows["other"] == ["loses", "loses", "tie", "tie"]
    assert "tie-break: ranks cycle3, then the earlier card keeps the trick" in out
    assert (
        "    group faces = K > Q > J" in out
        and "aces beat faces, faces beat numbers, numbers beat aces" in out
    )


def test_show_a_file(variant, capsys):
    assert main(["table", "show", str(variant)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("table aegis_killers (needs the key card)")
    assert "  killer  beats   beats   tie     tie" in out


def test_show_one_table_of_a_file(variant, capsys):
    assert main(["table", "show", str(variant), "--table", "nope"]) == 1
    assert "has no table 'nope'" in capsys.readouterr().err
    assert main(["table", "show", str(variant), "--table", "aegis_killers"]) == 0


def test_show_unknown(capsys):
    assert main(["table", "show", "bridge"]) == 1
    assert "no shipped table 'bridge'" in capsys.readouterr().err


def test_show_gunsore_tie_break(capsys):
    assert main(["table", "show", "gunsore"]) == 0
    out = capsys.readouterr().out
    assert "tie-break: ranks cycle3, suits elements, then the later card takes the trick" in out
    assert "  suits elements: spades > clubs > hearts > diamonds" in out


def test_table_without_action(capsys):
    assert main(["table"]) == 2

"""The command line: version, demo, simulate."""

import pytest

from cardrules import __version__
from cardrules.cli import main


def test_version(capsys):
    with pytest.raises(SystemExit) as info:
        main(["--version"])
    assert info.value.code == 0
    from cardrules._hotloops import IMPLEMENTATION

    loops = "C loops" if IMPLEMENTATION == "C" else "pure Python"
    assert capsys.readouterr().out.strip() == f"cardrules {__version__} ({loops})"


def test_no_command_prints_help(capsys):
    assert main([]) == 2
    assert "demo" in capsys.readouterr().out


@pytest.mark.parametrize("game", ["aegis", "gunsore", "eleusis", "haggis"])
def test_demo_is_a_readable_seeded_record(game, capsys):
    assert main(["demo", "--game", game, "--seed", "7"]) == 0
    first = capsys.readouterr().out
    assert first.startswith(f"== {game}") and "winners" in first
    assert main(["demo", "--game", game, "--seed", "7"]) == 0
    assert capsys.readouterr().out == first  # deterministic for a seed


@pytest.mark.parametrize("game", ["aegis", "gunsore", "eleusis", "haggis"])
def test_simulate(game, capsys):
    assert main(["simulate", game, "--games", "3", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"3 games of {game}") and "win rate" in out

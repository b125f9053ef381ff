"""OpenSpiel's playthroughs of the four games: each stored file, made with OpenSpiel's own
``generate_playthrough`` (by ``tests/integrations/make_playthroughs.py``), regenerates
identically from its recorded actions.  A change to the encoding, the observations, the
tensors or the game bounds shows up here as a diff."""

from __future__ import annotations

import difflib
import sys
from pathlib import Path

import pytest

pytest.importorskip("pyspiel", reason="the openspiel extra (open_spiel) is not installed")

sys.path.insert(0, str(Path(__file__).parent / "integrations"))
import make_playthroughs as mp


@pytest.mark.parametrize("name", sorted(mp.PLAYTHROUGHS))
def test_playthrough_replays_identically(name: str) -> None:
    stored = mp.read(mp.HERE / name)
    game_string, _ = mp.PLAYTHROUGHS[name]
    assert stored.startswith(f"game: {game_string}\n")
    assert "IsTerminal() = True" in stored  # a whole game
    again = mp.replay(stored)
    if again != stored:
        diff = difflib.unified_diff(stored.splitlines(), again.splitlines(), "stored", "regenerated", lineterm="")
        pytest.fail("the playthrough changed; regenerate it if that is intended:\n" + "\n".join(list(diff)[:40]))

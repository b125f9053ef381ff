"""Every golden playthrough file still describes what the games do."""

from pathlib import Path

import pytest
from playthrough import CONFIGS, playthrough

HERE = Path(__file__).resolve().parent / "golden"


@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_golden_playthrough(name):
    game = CONFIGS[name][0]
    path = HERE / f"{name}.txt"
    assert path.exists(), f"missing {path.name}: run tests/golden/regenerate.py {name}"
    expected = path.read_text(encoding="utf-8")
    assert playthrough(name) == expected, f"{name}: behaviour changed; run tests/golden/regenerate.py and review the diff"

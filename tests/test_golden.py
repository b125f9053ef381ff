"""Every golden playthrough file still describes what the games do."""

from pathlib import Path

import pytest
from playthrough import CONFIGS, playthrough

HERE = Path(__file__).resolve().parent / "golden"


@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_golden_playthrough(name):
    path = HERE / f"{name}.txt"
    assert path.exists(), f"missing {path.name}: run tests/golden/regenerate.py {name}"
    expected = path.read_text(encoding="utf-8").splitlines()
    actual = playthrough(name).splitlines()
    # Report the first differing line only: pytest's full diff of a large file is slow.
    for i, (want, got) in enumerate(zip(expected, actual, strict=False)):
        if want != got:
            pytest.fail(f"{name}.txt line {i + 1} changed (run tests/golden/regenerate.py and review the diff)\n"
                        f"  expected: {want[:300]}\n  actual:   {got[:300]}")
    assert len(actual) == len(expected), f"{name}.txt: {len(expected)} lines expected, {len(actual)} produced"

"""The search in components makes the decisions the search made before it was split
(``tests/golden/search_decisions.json``, recorded from the earlier module with
``python benchmarks/search_parity.py --record``): for each game's strongest configuration
and every other component, the same seed and iteration budget give the same actions, so
the search's strength is unchanged by construction."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import search_cases

from cardrules.search import ISMCTSAgent

GOLDEN = json.loads((Path(__file__).parent / "golden" / "search_decisions.json").read_text())


@pytest.mark.parametrize("case", sorted(search_cases.CASES))
def test_the_search_makes_the_decisions_it_made_before_it_was_split(case: str) -> None:
    assert GOLDEN[case], "a case with no decision checks nothing"
    assert search_cases.decisions(ISMCTSAgent, case) == GOLDEN[case]


def test_every_case_was_recorded() -> None:
    assert set(GOLDEN) == set(search_cases.CASES)

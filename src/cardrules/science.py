"""The Eleusis scientist, where programs have imported it from: everything here is
:mod:`cardrules.eleusis.science` (documented there), re-exported."""

from __future__ import annotations

from .eleusis.science import (
    GUESS_HYPOTHESES,
    INFO_WEIGHT,
    LOOKAHEAD_HYPOTHESES,
    LOOKALIKE_CHECKS,
    LOOKALIKE_HYPOTHESES,
    MIN_GUESS,
    PENALTY,
    START_SHARE,
    STUCK_HYPOTHESES,
    STUCK_WEIGHT,
    UNKNOWN_WEIGHT,
    Belief,
    ScienceRound,
    Scientist,
    observations_from_view,
    play_science,
    unknown_rate,
    unknown_weight,
)

__all__ = [
    "GUESS_HYPOTHESES",
    "INFO_WEIGHT",
    "LOOKAHEAD_HYPOTHESES",
    "LOOKALIKE_CHECKS",
    "LOOKALIKE_HYPOTHESES",
    "MIN_GUESS",
    "PENALTY",
    "START_SHARE",
    "STUCK_HYPOTHESES",
    "STUCK_WEIGHT",
    "UNKNOWN_WEIGHT",
    "Belief",
    "ScienceRound",
    "Scientist",
    "observations_from_view",
    "play_science",
    "unknown_rate",
    "unknown_weight",
]

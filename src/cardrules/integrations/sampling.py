"""States for searches over hidden cards (the OpenSpiel adapter's ISMCTS resampler).

:func:`sample_state` deals the cards a player cannot see (the opponents' hidden cards, the
stock, Aegis discards, the Haggis haggis) again at random with the game's own sampler
(:meth:`cardrules.GameDef.sample_state`), keeping everything the player sees, so that
``view(sampled, player) == view(state, player)``.
"""

from __future__ import annotations

from typing import Any

from ..protocol import GAMES

__all__ = ["sample_state"]


def sample_state(name: str, state: Any, player: int, *, seed: int = 0) -> Any:
    """A state of game ``name`` that ``player`` cannot tell from ``state``."""
    game = GAMES[name]
    game.check_state(state)
    # the view of a real state: the checks of a tampered view are not needed
    return game.resample(state, player, seed=seed)

"""Leaf values: what the state where a rollout stopped is worth to each player, in
``[0, 1]``.

Both values rate the end of the game alike: 1 for a winner, 0 for the others, a tie
shared.  Before it, :class:`MarginValue` rates the hand by each player's points against the
others, ``0.5 + 0.5 * tanh(m / scale)`` (``m`` what the player scored in the rollout less
the mean of what the others scored, ``scale`` a typical hand's points in that game, its
:class:`~cardrules.SearchHooks`' ``reward_scale``); where no score changed (a rollout cut
off, or a game that scores rarely), by the game's :class:`~cardrules.search.Evaluation`
in points when it has one.  :class:`ChanceValue` rates it by the game's evaluation as each
player's chance of winning the game, and asks the selection to read the means rescaled to
the range of the rewards seen (``normalised``), so that the UCB constant weighs the same
whether the hand can swing the game a little or much.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping
from typing import Any, Final

from ..protocol import GAMES, SearchHooks
from .hooks import Evaluation

__all__ = ["REWARD_SCALE", "ChanceValue", "LeafValue", "MarginValue", "end_of_game"]

#: The hooks of a game that declares none: nothing beyond its rules.
NO_HOOKS: Final = SearchHooks()


def end_of_game(state: Any) -> list[float]:
    """1 for each winner (a tie shared), 0 for the others."""
    winners = state.winners
    share = 1.0 / len(winners) if winners else 0.0
    return [share if p in winners else 0.0 for p in range(state.players)]


class LeafValue:
    """The base: ``value(state, start_scores) -> rewards``; ``normalised`` asks the
    selection to rescale the means to the range of the rewards seen."""

    normalised = False

    def __call__(self, state: Any, start_scores: tuple[int, ...]) -> list[float]:
        raise NotImplementedError


class MarginValue(LeafValue):
    """Points against the others (module docs); ``evaluation`` (in points) rates a state
    where no score changed."""

    def __init__(self, scale: float, evaluation: Evaluation | None = None) -> None:
        self.scale = scale
        self.evaluation = evaluation

    def __call__(self, state: Any, start_scores: tuple[int, ...]) -> list[float]:
        if state.is_over:
            return end_of_game(state)
        n = state.players
        gains: list[float] = [s - t for s, t in zip(state.scores, start_scores, strict=True)]
        if self.evaluation is not None and not any(gains):  # an unfinished hand
            gains = self.evaluation(state)
        total = sum(gains)
        scale = self.scale
        tanh = math.tanh
        return [0.5 + 0.5 * tanh((g - (total - g) / (n - 1)) / scale) for g in gains]


class ChanceValue(LeafValue):
    """Each player's chance of winning the game, the game's evaluation (module docs)."""

    normalised = True

    def __init__(self, evaluation: Evaluation) -> None:
        self.evaluation = evaluation

    def __call__(self, state: Any, start_scores: tuple[int, ...]) -> list[float]:
        if state.is_over:
            return end_of_game(state)
        return self.evaluation(state)


class _RewardScale(Mapping[str, float]):
    """The type of :data:`REWARD_SCALE`: a read-only view of the registered games'
    :class:`~cardrules.SearchHooks` ``reward_scale``."""

    def __getitem__(self, name: str) -> float:
        if name not in GAMES:
            raise KeyError(name)
        hooks = GAMES[name].search
        return (hooks if hooks is not None else NO_HOOKS).reward_scale

    def __iter__(self) -> Iterator[str]:
        return iter(GAMES)

    def __len__(self) -> int:
        return len(GAMES)

    def __repr__(self) -> str:
        return f"REWARD_SCALE({dict(self.items())!r})"


#: Points that count as a clearly won hand in each game (the ``scale`` of
#: :class:`MarginValue`): ``REWARD_SCALE["gunsore"]``.  A read-only view of each registered
#: game's :class:`~cardrules.SearchHooks` ``reward_scale`` (10 for a game without hooks).
REWARD_SCALE: Final[Mapping[str, float]] = _RewardScale()

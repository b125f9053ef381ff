"""The opponent model: how the search chooses another player's action in the tree.

:class:`SearchOpponents` lets UCB choose for every player (the paper's single tree, which
keeps one set of statistics for an opponent's decision over every determinization, so the
opponent it imagines plays the same whatever cards it holds); :class:`PolicyOpponents`
and :class:`GreedyOpponents` answer each determinization with the cards dealt there: the
game's policy given the whole state, or the game's greedy agent given that player's view.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from .hooks import Policy

__all__ = ["GreedyOpponents", "Opponents", "PolicyOpponents", "SearchOpponents"]


class Opponents:
    """The base: ``modelled`` says whether another player's action comes from
    :meth:`choose` (else the selection chooses it like the searching player's)."""

    modelled = False

    def start(self, rng: random.Random) -> None:
        """A new decision."""

    def choose(self, state: Any, player: Any, rng: random.Random) -> Any:
        raise NotImplementedError


class SearchOpponents(Opponents):
    """The other players are searched like the searching player (UCB chooses)."""


class PolicyOpponents(Opponents):
    """The game's policy chooses for the other players, given the whole state."""

    modelled = True

    def __init__(self, policy: Policy) -> None:
        self.policy = policy

    def choose(self, state: Any, player: Any, rng: random.Random) -> Any:
        return self.policy(state, rng)


class GreedyOpponents(Opponents):
    """An agent made anew at each decision (``make(seed)``, the game's greedy agent)
    chooses for the other players, given their view of the determinization."""

    modelled = True

    def __init__(
        self,
        make: Callable[[int], Any],
        view: Callable[[Any, Any], Any],
        legal_actions: Callable[[Any], tuple[Any, ...]],
    ) -> None:
        self._make, self._view, self._legal = make, view, legal_actions
        self._agent: Any = None

    def start(self, rng: random.Random) -> None:
        self._agent = self._make(rng.getrandbits(32))

    def choose(self, state: Any, player: Any, rng: random.Random) -> Any:
        return self._agent(self._view(state, player), self._legal(state))

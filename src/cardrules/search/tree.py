"""The search tree's node, and the random deal every part of the search uses at a chance
node."""

from __future__ import annotations

import random
from typing import Any

from ..protocol import GameDef, Shuffle
from ..sampling import shuffled

__all__ = ["Node", "deal_at_random"]


class Node:
    """A node of the information-set tree: its children by action, visits, total reward
    (of the player who chose the action leading here) and availability count (how often
    it was legal when its parent was visited); ``legal`` and ``known`` remember the last
    legal actions seen here and which of them are children (in their order), so that a
    visit with the same legal actions (a Haggis lead has hundreds) need not look each one
    up again."""

    __slots__ = ("avail", "children", "known", "legal", "reward", "visits")

    def __init__(self) -> None:
        self.children: dict[Any, Node] = {}
        self.visits = 0
        self.reward = 0.0
        self.avail = 1
        self.legal: tuple[Any, ...] | None = None
        self.known: list[Any] = []


def deal_at_random(game: GameDef[Any, Any], state: Any, rng: random.Random) -> Any:
    """``state`` (a chance node) dealt by a shuffle drawn from ``rng``."""
    return game.apply(state, Shuffle(tuple(shuffled(rng, game.chance_cards(state)))))

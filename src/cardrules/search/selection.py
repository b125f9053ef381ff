"""Selection: which child of a node of the player's own decisions the search takes.

:class:`UCB` is UCB1 with availability counts (Cowling, Powley and Whitehouse 2012): a
node with an untried legal action is expanded, otherwise the child with the highest
``mean + c * sqrt(log(avail) / visits)`` is taken, ``avail`` being how often the child
was legal when its parent was visited.  Its options: *progressive widening* (a node
visited ``v`` times has at most ``1 + w * sqrt(v)`` children, for games with hundreds of
legal actions), a *prior* (an agent whose choice is a node's first child), and
*candidates* (the game's action abstraction: the actions the tree tries).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from typing import Any

from .hooks import Candidates
from .tree import Node

__all__ = ["UCB", "Bounds"]


class Bounds:
    """The range ``[lo, hi]`` of the rewards seen in a decision, when the value
    component asks for UCB to read means rescaled to it (``inv = 1 / (hi - lo)``)."""

    __slots__ = ("hi", "inv", "lo", "on")

    def __init__(self, on: bool) -> None:
        self.on = on
        self.lo, self.hi, self.inv = 0.0, 0.0, 1.0

    def update(self, rewards: list[float], first: bool) -> None:
        if first:
            self.lo, self.hi = min(rewards), max(rewards)
        else:
            self.lo, self.hi = min(self.lo, *rewards), max(self.hi, *rewards)
        self.inv = 1.0 / (self.hi - self.lo) if self.hi > self.lo else 1.0


class UCB:
    """UCB selection (module docs); ``prior`` makes the prior agent from a seed (one per
    decision, :meth:`start`), ``view`` and ``legal_actions`` are the game's."""

    def __init__(
        self,
        exploration: float,
        legal_actions: Callable[[Any], tuple[Any, ...]],
        view: Callable[[Any, Any], Any],
        *,
        widening: float | None = None,
        prior: Callable[[int], Any] | None = None,
        candidates: Candidates | None = None,
    ) -> None:
        self.exploration = exploration
        self.widening = widening
        self.candidates = candidates
        self._legal = legal_actions
        self._view = view
        self._make_prior = prior
        self._prior: Any = None

    def start(self, rng: random.Random) -> None:
        """A new decision: the prior agent of this decision."""
        self._prior = None if self._make_prior is None else self._make_prior(rng.getrandbits(32))

    def select(
        self, node: Node, state: Any, player: Any, rng: random.Random, bounds: Bounds
    ) -> tuple[Any, Node, bool]:
        """``(action, child, expanded)``: the action taken at ``node`` (``player`` to act
        in ``state``), its child, and whether the child is new (the descent ends)."""
        children = node.children
        legal = self._legal(state)
        if self.candidates is not None:
            legal = self.candidates(state, legal)
        if not children:
            known = []
        elif legal == node.legal:  # the same actions (mostly the same objects)
            known = node.known
        else:
            known = [a for a in legal if a in children]
            node.legal, node.known = legal, known
        room = len(legal)
        if self.widening is not None:
            room = min(room, 1 + int(self.widening * math.sqrt(node.visits)))
        if len(known) < room:
            return self._expand(node, state, player, legal, rng)
        return self._best(node, known, bounds)

    def _expand(
        self, node: Node, state: Any, player: Any, legal: tuple[Any, ...], rng: random.Random
    ) -> tuple[Any, Node, bool]:
        """A new child: the prior's choice first, then an untried action at random."""
        children = node.children
        action = None
        if self._prior is not None:
            action = self._prior(self._view(state, player), legal)
        if action is None or action in children:
            untried = [a for a in legal if a not in children]
            action = untried[int(rng.random() * len(untried))]
        child = children[action] = Node()
        node.legal = None  # a new child: known anew at the next visit
        return action, child, True

    def _best(self, node: Node, known: list[Any], bounds: Bounds) -> tuple[Any, Node, bool]:
        children = node.children
        c = self.exploration
        log, sqrt = math.log, math.sqrt
        best: Node | None = None
        action: Any = None
        value = -1.0
        if bounds.on:
            lo, inv = bounds.lo, bounds.inv
            for a in known:
                ch = children[a]
                ch.avail += 1
                v = (ch.reward / ch.visits - lo) * inv + c * sqrt(log(ch.avail) / ch.visits)
                if v > value:
                    best, value, action = ch, v, a
        else:
            for a in known:
                ch = children[a]
                ch.avail += 1
                v = ch.reward / ch.visits + c * sqrt(log(ch.avail) / ch.visits)
                if v > value:
                    best, value, action = ch, v, a
        assert best is not None
        return action, best, False

"""The search loop: one function over the components.

Each iteration draws a determinization (the belief's ``draw``), descends the tree of the
searching player's information sets (another player's action from the opponent model when
it models them, else from the selection), plays a rollout from the new node, rates where it
stopped (the leaf value) and credits each node on the path with the reward of the player
who chose its action.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

import attrs

from ..protocol import CHANCE, GameDef
from .opponents import Opponents
from .rollout import Rollout
from .selection import UCB, Bounds
from .tree import Node, deal_at_random
from .value import LeafValue

__all__ = ["Components", "search"]


@attrs.frozen
class Components:
    """The parts of one search, made from a configuration for a game
    (:func:`cardrules.search.components`)."""

    game: GameDef[Any, Any]
    selection: UCB
    opponents: Opponents
    rollout: Rollout
    value: LeafValue


def search(
    parts: Components,
    draw: Callable[[random.Random], Any],
    rng: random.Random,
    iterations: int | None,
    time_per_move: float | None = None,
) -> tuple[Node, int, Any]:
    """Run the iterations from states given by ``draw(rng)`` (at most ``iterations``,
    and for at most ``time_per_move`` seconds); returns the root, the iterations done and the
    searching player (the one to act in the first draw)."""
    parts.selection.start(rng)
    parts.opponents.start(rng)
    rollout, value = parts.rollout, parts.value
    bounds = Bounds(value.normalised)
    root = Node()
    me: Any = None  # the searching player: the one to act in the first draw
    limit = iterations if iterations is not None else 1 << 62
    deadline = None if time_per_move is None else time.perf_counter() + time_per_move
    done = 0
    while done < limit:
        if deadline is not None and done and time.perf_counter() >= deadline:
            break
        state = draw(rng)
        if me is None:
            me = state.to_act
        start_scores = state.scores
        state, path = _descend(parts, root, state, me, bounds, rng)
        rewards = value(rollout.play(state, start_scores, rng), start_scores)
        if bounds.on:
            bounds.update(rewards, not done)
        root.visits += 1
        for n, player in path:
            n.visits += 1
            n.reward += rewards[player]
        done += 1
    return root, done, me


def _descend(
    parts: Components, root: Node, state: Any, me: Any, bounds: Bounds, rng: random.Random
) -> tuple[Any, list[tuple[Node, Any]]]:
    """The state where the descent from ``root`` leaves the tree, and the path of
    ``(node, player who chose its action)``."""
    game = parts.game
    apply = game.apply
    select, opponents = parts.selection.select, parts.opponents
    modelled = opponents.modelled
    start_scores = state.scores
    node = root
    path: list[tuple[Node, Any]] = []
    while True:
        if state.to_act is CHANCE:
            state = deal_at_random(game, state, rng)
        if state.is_over or state.scores != start_scores or state.to_act is CHANCE:
            return state, path
        player = state.to_act
        if modelled and player != me:
            action = opponents.choose(state, player, rng)
            state = apply(state, action)
            child = node.children.get(action)
            if child is None:  # its first visit: expanded, and the rollout goes on
                child = node.children[action] = Node()
                path.append((child, player))
                return state, path
        else:
            action, child, expanded = select(node, state, player, rng, bounds)
            state = apply(state, action)
            if expanded:
                path.append((child, player))
                return state, path
        node = child
        path.append((node, player))

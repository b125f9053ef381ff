"""Rollouts: how the search plays on from a new node to the end of the hand.

A rollout plays from the state it is given to the first chance node (a new hand), change
of scores or end of the game, or until it has played ``limit`` actions (a *cut-off*: 0
plays none, and the value component rates the new node itself).  :class:`RandomRollout`
plays random actions, :class:`PolicyRollout` the game's policy, :class:`GreedyRollout`
the game's greedy agent at every seat; the last two play a random action instead with
probability ``epsilon``.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, Final

from ..protocol import CHANCE, GameDef
from .hooks import Policy
from .tree import deal_at_random

__all__ = ["GreedyRollout", "PolicyRollout", "RandomRollout", "Rollout"]

Choose = Callable[[Any, Any], Any]
#: ``chooser``'s answer for uniformly random actions, which the loop draws itself (the
#: commonest rollout, and the one whose every step counts)
RANDOM: Final = None


class Rollout:
    """The base: plays with :meth:`chooser`'s choices (``choose(state, player)``), or
    with ``policy(state, rng)`` when the rollout has a ``policy`` (called directly: a
    rollout step is the search's commonest call)."""

    policy: Policy | None = None

    def __init__(self, game: GameDef[Any, Any], limit: int, *, epsilon: float = 0.0) -> None:
        self.game = game
        self.limit = limit
        self.epsilon = epsilon

    def chooser(self, state: Any, rng: random.Random) -> Choose | None:
        """The choice of each action of a rollout from ``state`` (:data:`RANDOM`: uniformly
        random)."""
        raise NotImplementedError

    def play(self, state: Any, start_scores: tuple[int, ...], rng: random.Random) -> Any:
        """The state where the rollout from ``state`` stops."""
        if not self.limit:  # a cut-off at 0: the state itself is rated
            return state
        game = self.game
        apply, legal_of = game.apply, game.legal_actions
        choose = self.chooser(state, rng)
        policy = self.policy
        epsilon = self.epsilon
        rnd = rng.random  # int(random() * n): a uniform index, cheaper than randrange
        steps = 0
        limit = self.limit
        while not state.is_over and state.scores == start_scores and steps < limit:
            p = state.to_act
            if p is CHANCE:
                if steps:  # a new hand: the rollout has played the one it was in
                    break
                state = deal_at_random(game, state, rng)
                continue
            if epsilon and rnd() < epsilon:
                legal = legal_of(state)
                action = legal[int(rnd() * len(legal))]
            elif policy is not None:
                action = policy(state, rng)
            elif choose is RANDOM:
                legal = legal_of(state)
                action = legal[int(rnd() * len(legal))]
            else:
                action = choose(state, p)
            state = apply(state, action)
            steps += 1
        return state


class RandomRollout(Rollout):
    """Uniformly random legal actions."""

    def __init__(self, game: GameDef[Any, Any], limit: int) -> None:
        super().__init__(game, limit)

    def chooser(self, state: Any, rng: random.Random) -> Choose | None:
        return RANDOM


class PolicyRollout(Rollout):
    """The game's policy (``policy(state, rng)``, given the whole state)."""

    def __init__(self, game: GameDef[Any, Any], limit: int, policy: Policy, *, epsilon: float = 0.0) -> None:
        super().__init__(game, limit, epsilon=epsilon)
        self.policy = policy

    def chooser(self, state: Any, rng: random.Random) -> Choose | None:
        return RANDOM  # unused: the loop calls the policy itself


class GreedyRollout(Rollout):
    """An agent made for each seat at each rollout (``make(seed)``: the game's greedy
    agent), given its player's view."""

    def __init__(
        self, game: GameDef[Any, Any], limit: int, make: Callable[[int], Any], *, epsilon: float = 0.0
    ) -> None:
        super().__init__(game, limit, epsilon=epsilon)
        self.make = make

    def chooser(self, state: Any, rng: random.Random) -> Choose:
        agents = [self.make(rng.getrandbits(32)) for _ in range(state.players)]
        view, legal_of = self.game.view, self.game.legal_actions
        return lambda state, player: agents[player](view(state, player), legal_of(state))

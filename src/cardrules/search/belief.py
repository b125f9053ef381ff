"""Beliefs: how the search draws a *determinization*, one whole state consistent with the
player's view.

Each belief makes, at each decision, a ``draw(rng) -> state`` from the view
(:meth:`Belief.prepare`) and hears the action taken (:meth:`Belief.after`).  Every draw
comes from the game's sampler, which is checked against the view, or from states followed
on to the view and checked against it again.

- :class:`UniformBelief`: every state consistent with the view is equally likely (the
  game's sampler).
- :class:`LikelihoodBelief`: rejection sampling by the game's likelihood of what the
  other players did (a sample of weight ``w`` is kept with probability ``w``; after
  :data:`REJECTION_TRIES` refusals the likeliest sample seen is kept).
- :class:`ParticleBelief`: *particles*, whole states followed from one decision to the
  next and weighted by an opponent model (:func:`model_likelihood`).
"""

from __future__ import annotations

import bisect
import random
from collections.abc import Callable, Sequence
from typing import Any, Final

from ..protocol import CHANCE, GameDef
from .hooks import Likelihood
from .tree import deal_at_random

__all__ = [
    "FIND_BUDGET",
    "FIND_TRIES",
    "FRESH_SHARE",
    "REJECTION_TRIES",
    "TRACK_BUDGET",
    "Belief",
    "LikelihoodBelief",
    "ParticleBelief",
    "UniformBelief",
    "model_likelihood",
]

Draw = Callable[[random.Random], Any]

#: The samples a ``belief="likelihood"`` draw tries before it keeps the likeliest of them.
REJECTION_TRIES: Final = 8

#: Expansions of the opponents' possible actions one particle may try to reach the next
#: view before it is given up.
TRACK_BUDGET: Final = 48

#: The share of the particles drawn anew from the view at each decision (the rest are
#: drawn by weight from the particles followed there): without them the particles soon
#: become copies of one or two states, and the search plays for them.
FRESH_SHARE: Final = 0.5

#: Expansions one particle may try to reach the view when no other particle of the
#: decision has found the way yet, and how many particles try that many.
FIND_BUDGET: Final = 600
FIND_TRIES: Final = 3


class Belief:
    """The base, and the uniform belief: the game's sampler of the view."""

    def __init__(self, game: GameDef[Any, Any], rules: Any = None) -> None:
        self.game = game
        self.rules = rules

    def prepare(self, view: Any, rng: random.Random) -> Draw:
        """The draw of this decision, from ``view``."""
        return self.game.sampler(view, rules=self.rules)

    def after(self, action: Any, rng: random.Random) -> None:
        """The decision took ``action``."""

    def reset(self) -> None:
        """A new game: nothing is known of its cards."""


class UniformBelief(Belief):
    """Every state consistent with the view is equally likely."""


class LikelihoodBelief(Belief):
    """Rejection sampling by the game's ``likelihood`` (module docs)."""

    def __init__(self, game: GameDef[Any, Any], likelihood: Likelihood, rules: Any = None) -> None:
        super().__init__(game, rules)
        self.likelihood = likelihood

    def prepare(self, view: Any, rng: random.Random) -> Draw:
        draw = super().prepare(view, rng)
        weight = self.likelihood(view, self.rules)
        return draw if weight is None else rejecting(draw, weight)


def rejecting(draw: Draw, weight: Callable[[Any], float]) -> Draw:
    """``draw`` with rejection sampling: a sample of weight ``w`` (in ``[0, 1]``) is kept
    with probability ``w``; after :data:`REJECTION_TRIES` refusals the likeliest sample
    seen is kept."""

    def informed(rng: random.Random) -> Any:
        best, most = None, -1.0
        for _ in range(REJECTION_TRIES):
            state = draw(rng)
            w = weight(state)
            if rng.random() < w:
                return state
            if w > most:
                best, most = state, w
        return best

    return informed


def model_likelihood(action: Any, choice: Any, legal: Sequence[Any], epsilon: float) -> float:
    """The probability that a player modelled as "the model's ``choice`` with probability
    ``1 - epsilon``, else any of its ``legal`` actions uniformly" plays ``action`` (the
    opponent model of :class:`~cardrules.search.belief.ParticleBelief`).

    >>> model_likelihood("a", "a", ("a", "b"), 0.2)
    0.9
    >>> round(model_likelihood("b", "a", ("a", "b"), 0.2), 6)
    0.1
    """
    share = epsilon / len(legal)
    return 1.0 - epsilon + share if action == choice else share


def from_pool(pool: list[tuple[Any, float]]) -> Draw:
    """A draw that picks a state of ``pool`` in proportion to its weight."""
    states = [s for s, _ in pool]
    cum: list[float] = []
    acc = 0.0
    for _, w in pool:
        acc += w
        cum.append(acc)

    def draw(rng: random.Random) -> Any:
        return states[min(bisect.bisect_right(cum, rng.random() * acc), len(states) - 1)]

    return draw


class ParticleBelief(Belief):
    """Whole states (*particles*) followed from one decision to the next, weighted by how
    likely the other players' actions that led to them were under the opponent model
    (``model(seed)``, the game's greedy agent, departing from its choice with probability
    ``epsilon``).

    After each decision the particles are kept with the action applied (:meth:`after`):
    of ``samples``, a :data:`FRESH_SHARE` drawn anew from the view, the others from the
    decision's particles by weight (systematic resampling).  At the next decision
    :meth:`prepare` plays each particle on to the player's turn: every other player's
    action is tried, the model's choice first, chance is dealt at random, and a particle
    survives only where the player's view then is exactly the view it is given; its
    weight is multiplied by the model's probability of each of those actions.  Once one
    particle has reached the view, the others try its actions first.  A particle that
    matches no path within :data:`TRACK_BUDGET` expansions (:data:`FIND_BUDGET` while no
    particle has) is given up; when none is left, the view's uniform belief draws, and
    new particles are drawn from it."""

    def __init__(
        self,
        game: GameDef[Any, Any],
        model: Callable[[int], Any],
        samples: int,
        epsilon: float,
        rules: Any = None,
    ) -> None:
        super().__init__(game, rules)
        self.make_model = model
        self.samples = samples
        self.epsilon = epsilon
        self.particles: list[tuple[Any, float]] = []
        self.player: Any = None
        self.model: Any = None
        self.pool: list[tuple[Any, float]] = []
        self.fresh: Draw | None = None

    def reset(self) -> None:
        self.particles = []

    def prepare(self, view: Any, rng: random.Random) -> Draw:
        draw = self.fresh = super().prepare(view, rng)
        self.model = self.make_model(rng.getrandbits(32))
        probe = draw(rng)  # a sample of the view: whose turn it is
        pool = self.follow(view, probe.to_act, rng)
        if pool:
            self.pool = pool
            return from_pool(pool)
        # nothing followed: the view's uniform belief, and new particles from it
        self.pool = [(probe, 1.0)] + [(draw(rng), 1.0) for _ in range(self.samples - 1)]
        return draw

    def follow(self, view: Any, player: Any, rng: random.Random) -> list[tuple[Any, float]]:
        """The particles played on to ``view`` (``player`` to act), weighted; an empty
        list when none could be followed there."""
        if player != self.player:
            self.particles, self.player = [], player
        kept: list[tuple[Any, float]] = []
        hint: list[Any] = []
        searches = FIND_TRIES
        for state, weight in self.particles:
            if not hint and not searches:
                break  # no particle could be followed: none will
            budget = [TRACK_BUDGET]
            if not hint:
                searches -= 1
                budget = [FIND_BUDGET]
            found = self._reach(state, view, player, rng, budget, hint, 0)
            if found is not None:
                kept.append((found[0], weight * found[1]))
                hint = found[2]
        return kept

    def _reach(
        self,
        state: Any,
        view: Any,
        player: Any,
        rng: random.Random,
        budget: list[int],
        hint: Sequence[Any],
        k: int,
    ) -> tuple[Any, float, list[Any]] | None:
        """``(state, likelihood, path)`` where ``state`` (played on from ``state``) shows
        ``view`` to ``player``; ``path`` is the others' chosen actions on the way, tried
        first where ``hint`` (the path of another particle) says so."""
        game = self.game
        while True:
            if state.is_over:
                return None
            p = state.to_act
            if p is CHANCE:
                state = deal_at_random(game, state, rng)
                continue
            if p == player:
                return (state, 1.0, []) if game.view(state, player) == view else None
            legal = game.legal_actions(state)
            if len(legal) > 1:
                break
            state = game.apply(state, legal[0])
        # another player chooses: the action another particle reached the view with first
        # (what was seen is most often the same action in every particle), then the
        # model's choice, then the rest in order
        choice = self.model(game.view(state, p), legal)
        order = [choice, *(a for a in legal if a != choice)] if self.epsilon else [choice]
        if k < len(hint) and hint[k] != choice and hint[k] in order:
            order.remove(hint[k])
            order.insert(0, hint[k])
        for a in order:
            if budget[0] <= 0:
                return None
            budget[0] -= 1
            found = self._reach(game.apply(state, a), view, player, rng, budget, hint, k + 1)
            if found is not None:
                like = found[1] * model_likelihood(a, choice, legal, self.epsilon)
                return found[0], like, [a, *found[2]]
        return None

    def after(self, action: Any, rng: random.Random) -> None:
        pool, fresh = self.pool, self.fresh
        assert fresh is not None
        total = sum(w for _, w in pool)
        new = round(self.samples * FRESH_SHARE)
        n = self.samples - new
        kept: list[tuple[Any, float]] = [(fresh(rng), 1.0) for _ in range(new)]
        if total > 0:
            step = total / n
            u = rng.random() * step
            acc = 0.0
            i = 0
            for state, w in pool:
                acc += w
                while u < acc and i < n:
                    kept.append((state, 1.0))  # weighted anew from the next decision on
                    u += step
                    i += 1
        apply = self.game.apply
        self.particles = [(apply(s, action), w) for s, w in kept]

"""The base of the agents that draw from a generator of their own.

It lives apart from :mod:`cardrules.agents` so that :mod:`cardrules.search` (whose agent
derives from it) and :mod:`cardrules.agents` (which makes search agents) need not import
each other; :mod:`cardrules.agents` offers it under its public name,
:class:`cardrules.agents.SeededAgent`.
"""

from __future__ import annotations

import random

__all__ = ["SeededAgent"]


class SeededAgent:
    """The base of agents that draw from a generator of their own: ``self._rng``, seeded
    from ``seed`` (and from the operating system when ``seed`` is ``None``).

    Each kind of agent names its generator's seeds with its own ``SEED_PREFIX``, so that
    two kinds given the same seed do not draw the same numbers.
    """

    SEED_PREFIX = "agent"

    def __init__(self, seed: object = None) -> None:
        self.seed = seed
        self._rng = random.Random(None if seed is None else f"{self.SEED_PREFIX}:{seed}")

    def reset(self, seed: object) -> None:
        """Start a game (called by :func:`cardrules.simulation.simulate`): the generator is seeded
        anew from the agent's own seed and ``seed`` (an unseeded agent stays unseeded)."""
        if self.seed is not None:
            self._rng = random.Random(f"{self.SEED_PREFIX}:{self.seed}:{seed}")

    def __repr__(self) -> str:
        return f"{type(self).__name__}(seed={self.seed!r})"

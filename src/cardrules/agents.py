"""Agents: callables that choose an action from what their player may see.

An agent is any callable ``agent(view, legal_actions) -> action``.  It is given the
player's view (``view(state, player)``), never the state, so it cannot cheat.  An agent may also have a
``reset(seed)`` method: :func:`cardrules.simulation.simulate` calls it before each game with a seed
made of the simulation's seed, the game's number and the player's seat, so that a
simulation gives the same summary however often the same agent objects are reused.  :class:`RandomAgent` plays
every game; each game module adds a greedy one (``cardrules.aegis.GreedyAgent`` ...), and
:class:`cardrules.search.ISMCTSAgent` searches in every game; :func:`strong_agent` gives
the strongest of them for a game.

:data:`AGENTS` names the kinds of agent the command line offers (``cardrules simulate
--agents greedy,random``): each name maps to a function ``make(game, seed) -> agent``,
and :func:`make_agent` makes one by name.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable, Sequence
from typing import Any

from .errors import CardRulesError
from .protocol import GAMES, Agent

__all__ = [
    "AGENTS",
    "SEARCH_SETTINGS",
    "Agent",
    "RandomAgent",
    "SeededAgent",
    "greedy_agent",
    "make_agent",
    "random_agent",
    "strong_agent",
]


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


class RandomAgent(SeededAgent):
    """Chooses uniformly among the legal actions, from its own seeded generator.

    >>> from cardrules.agents import RandomAgent
    >>> agent = RandomAgent(seed=1)
    >>> agent(None, ("a", "b", "c")) in ("a", "b", "c")
    True
    """

    def __call__(self, view: Any, legal_actions: Sequence[Any]) -> Any:
        if not legal_actions:
            raise CardRulesError("RandomAgent was asked to act with no legal action")
        return legal_actions[self._rng.randrange(len(legal_actions))]


def greedy_agent(game: str, seed: object = None) -> Agent:
    """The game's ``GreedyAgent`` (each game module documents how it plays)."""
    if game not in GAMES:
        raise CardRulesError(f"unknown game {game!r} (known: {', '.join(GAMES)})")
    module = importlib.import_module(GAMES[game].module or f"cardrules.{game}")
    cls = getattr(module, "GreedyAgent", None)
    if cls is None:
        raise CardRulesError(f"{game} has no stronger agent yet")
    agent: Agent = cls(seed)
    return agent


#: The games whose strongest agent is the search agent (:class:`cardrules.search.ISMCTSAgent`),
#: with its settings there (iterations chosen to stay near 100 ms a move on a 2-core machine).
SEARCH_SETTINGS: dict[str, dict[str, Any]] = {
    "aegis": {"iterations": 600, "rollout": "policy", "belief": "policy"},
    "gunsore": {"iterations": 500, "prior": "greedy", "widening": 1.0},
    "haggis": {"iterations": 40, "rollout": "greedy", "prior": "greedy", "widening": 1.0},
}


def strong_agent(
    game: str, seed: object = None, *, iterations: int | None = None, time_per_move: float | None = None
) -> Agent:
    """The strongest documented agent of a game.

    Aegis, Gunsore and Haggis: :class:`cardrules.search.ISMCTSAgent` (information-set
    Monte Carlo tree search) with the settings of :data:`SEARCH_SETTINGS`, its budget
    replaced by ``iterations`` per decision or ``time_per_move`` seconds when given.
    New Eleusis: its ``GreedyAgent`` (a search would need the secret rule the
    scientists are looking for).
    """
    if game not in GAMES:
        raise CardRulesError(f"unknown game {game!r} (known: {', '.join(GAMES)})")
    if game in SEARCH_SETTINGS:
        from .search import ISMCTSAgent

        settings = dict(SEARCH_SETTINGS[game])
        if iterations is not None or time_per_move is not None:
            settings.update(iterations=iterations, time_per_move=time_per_move)
        return ISMCTSAgent(game, seed=seed, **settings)
    return greedy_agent(game, seed)


def random_agent(game: str, seed: object = None) -> Agent:
    """A :class:`RandomAgent` (the same for every game)."""
    if game not in GAMES:
        raise CardRulesError(f"unknown game {game!r} (known: {', '.join(GAMES)})")
    return RandomAgent(seed)


#: The agents by name as the command line offers them; ``AGENTS[name](game, seed)`` makes one.
#: A module that adds a kind of agent adds its maker here (a module-level function, so
#: that it can be sent to other processes).
AGENTS: dict[str, Callable[[str, object], Agent]] = {
    "random": random_agent,
    "greedy": greedy_agent,
    "strong": strong_agent,
}


def make_agent(name: str, game: str, seed: object = None) -> Agent:
    """The agent named ``name`` in :data:`AGENTS` for ``game``.

    >>> make_agent("random", "haggis", 3)
    RandomAgent(seed=3)
    >>> make_agent("clever", "haggis")
    Traceback (most recent call last):
    ...
    cardrules.errors.CardRulesError: unknown agent 'clever' (known: random, greedy, strong)
    """
    if name not in AGENTS:
        raise CardRulesError(f"unknown agent {name!r} (known: {', '.join(AGENTS)})")
    return AGENTS[name](game, seed)

"""Agents: callables that choose an action from what their player may see.

An agent is any callable ``agent(view, legal_actions) -> action``.  It is given the
player's view (``view(state, player)``), never the state, so it cannot cheat.  An agent may also have a
``reset(seed)`` method: :func:`cardrules.simulation.simulate` calls it before each game with a seed
made of the simulation's seed, the game's number and the player's seat, so that a
simulation gives the same summary however often the same agent objects are reused.  :class:`RandomAgent` plays
every game; each game adds a greedy one (its :class:`~cardrules.GameDef`'s
``greedy_agent``: ``cardrules.aegis.GreedyAgent`` ...), and
:class:`cardrules.search.ISMCTSAgent` searches in every game; :func:`strong_agent` gives
the strongest of them for a game.  Every function here takes a game's name or its
:class:`~cardrules.GameDef`, and works for any registered game
(:func:`cardrules.register_game`).

:data:`AGENTS` names the kinds of agent the command line offers (``cardrules simulate
--agents greedy,random``): each name maps to a function ``make(game, seed) -> agent``,
and :func:`make_agent` makes one by name.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from types import MappingProxyType
from typing import Any, Final

from ._seeded import SeededAgent
from .errors import CardRulesError
from .protocol import GAMES, Agent, GameDef
from .search import ISMCTSAgent, SearchConfig

__all__ = [
    "AGENTS",
    "AGENT_KINDS",
    "SEARCH_CONFIGS",
    "SEARCH_SETTINGS",
    "Agent",
    "RandomAgent",
    "SeededAgent",
    "greedy_agent",
    "make_agent",
    "random_agent",
    "strong_agent",
]


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


def _game(game: str | GameDef[Any, Any]) -> GameDef[Any, Any]:
    """The registered game ``game`` names (or ``game`` itself)."""
    if isinstance(game, GameDef):
        return game
    if game not in GAMES:
        raise CardRulesError(f"unknown game {game!r} (known: {', '.join(GAMES)})")
    return GAMES[game]


def greedy_agent(game: str | GameDef[Any, Any], seed: object = None) -> Agent:
    """The game's greedy agent (``GreedyAgent``: each game's page documents how it plays),
    made by its :class:`~cardrules.GameDef`'s ``greedy_agent``."""
    g = _game(game)
    if g.greedy_agent is None:
        raise CardRulesError(f"{g.name} has no stronger agent yet")
    return g.greedy_agent(seed)


def _search_config(game: GameDef[Any, Any]) -> SearchConfig | None:
    return None if game.search is None else game.search.config


class _SearchConfigs(Mapping[str, SearchConfig]):
    """The type of :data:`SEARCH_CONFIGS`: a read-only view of the registered games'
    :class:`~cardrules.SearchHooks` ``config``."""

    def __getitem__(self, name: str) -> SearchConfig:
        config = _search_config(GAMES[name]) if name in GAMES else None
        if config is None:
            raise KeyError(name)
        return config

    def __iter__(self) -> Iterator[str]:
        return (name for name in GAMES if _search_config(GAMES[name]) is not None)

    def __len__(self) -> int:
        return sum(1 for _ in self)

    def __repr__(self) -> str:
        return f"SEARCH_CONFIGS({dict(self.items())!r})"


#: The games whose strongest agent is the search agent (:class:`cardrules.search.ISMCTSAgent`),
#: with its configuration (:class:`~cardrules.search.SearchConfig`; iterations chosen to
#: stay near 100 ms a move on a 2-core machine): ``SEARCH_CONFIGS["aegis"].iterations``.
#: A read-only view of each registered game's :class:`~cardrules.SearchHooks` ``config``
#: (a game registered later shows here too); a game declares it in its
#: :class:`~cardrules.GameDef`.
SEARCH_CONFIGS: Final[Mapping[str, SearchConfig]] = _SearchConfigs()


class _SearchSettings(Mapping[str, Mapping[str, Any]]):
    """The type of :data:`SEARCH_SETTINGS`."""

    def __getitem__(self, name: str) -> Mapping[str, Any]:
        return MappingProxyType(SEARCH_CONFIGS[name].changes())

    def __iter__(self) -> Iterator[str]:
        return iter(SEARCH_CONFIGS)

    def __len__(self) -> int:
        return len(SEARCH_CONFIGS)

    def __repr__(self) -> str:
        return f"SEARCH_SETTINGS({ {name: dict(settings) for name, settings in self.items()}!r})"


#: :data:`SEARCH_CONFIGS` as the options that differ from the defaults, read-only dicts
#: (``SEARCH_SETTINGS["haggis"]["cutoff"]``).
SEARCH_SETTINGS: Final[Mapping[str, Mapping[str, Any]]] = _SearchSettings()


def strong_agent(
    game: str | GameDef[Any, Any],
    seed: object = None,
    *,
    iterations: int | None = None,
    time_per_move: float | None = None,
) -> Agent:
    """The strongest documented agent of a game.

    A game whose :class:`~cardrules.SearchHooks` give a ``config`` (Aegis, Gunsore and
    Haggis): :class:`cardrules.search.ISMCTSAgent` (information-set Monte Carlo tree
    search) with that :class:`~cardrules.search.SearchConfig` (:data:`SEARCH_CONFIGS`),
    its budget replaced by ``iterations`` per decision or ``time_per_move`` seconds when
    given.  A game whose hooks give a ``strong`` maker: that agent (New Eleusis: the
    scientist at the table, :class:`cardrules.eleusis.TableScientist`; a search would
    need the secret rule the scientists are looking for), ``time_per_move`` its budget
    when given.  Any other game: its greedy agent; :class:`~cardrules.CardRulesError`
    for a game without one.
    """
    g = _game(game)
    if g.search is not None and g.search.strong is not None:
        made: Agent = (
            g.search.strong(seed)
            if time_per_move is None
            else g.search.strong(seed, time_per_move=time_per_move)
        )
        return made
    config = _search_config(g)
    if config is None:
        return greedy_agent(g, seed)
    if not isinstance(config, SearchConfig):  # a GameDef written by hand: a plain dict, say
        raise CardRulesError(f"{g.name}'s SearchHooks.config must be a SearchConfig, not {config!r}")
    if iterations is not None or time_per_move is not None:
        config = config.replace(iterations=iterations, time_per_move=time_per_move)
    return ISMCTSAgent(g, config, seed=seed)


def random_agent(game: str | GameDef[Any, Any], seed: object = None) -> Agent:
    """A :class:`RandomAgent` (the same for every game)."""
    _game(game)
    return RandomAgent(seed)


#: The agents by name as the command line offers them; ``AGENTS[name](game, seed)`` makes one.
#: A module that adds a kind of agent adds its maker here (a module-level function, so
#: that it can be sent to other processes).
AGENTS: dict[str, Callable[[str, object], Agent]] = {
    "random": random_agent,
    "greedy": greedy_agent,
    "strong": strong_agent,
}


class _Kinds(Sequence[str]):
    """The names of :data:`AGENTS`, in order, as they are when asked (a kind of agent
    added to :data:`AGENTS` later is one of them)."""

    def __getitem__(self, index: Any) -> Any:
        return tuple(AGENTS)[index]

    def __len__(self) -> int:
        return len(AGENTS)

    def __iter__(self) -> Iterator[str]:
        return iter(tuple(AGENTS))

    def __contains__(self, name: object) -> bool:
        return name in AGENTS

    def __repr__(self) -> str:
        return repr(tuple(AGENTS))


#: The kinds of agent by name (``"random"``, ``"greedy"``, ``"strong"``): the keys of
#: :data:`AGENTS`, read when used, so that every tool that offers a choice of agent (the
#: command line, the web table's seats) offers the kinds :data:`AGENTS` holds.
AGENT_KINDS: Final[Sequence[str]] = _Kinds()


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

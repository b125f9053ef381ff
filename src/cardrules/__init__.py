"""cardrules: card games run exactly by the book.

Four games (:mod:`cardrules.aegis`, :mod:`cardrules.gunsore`, :mod:`cardrules.eleusis`,
:mod:`cardrules.haggis`) on one protocol: immutable states, pure transitions, chance as
explicit :class:`Shuffle` actions, replay and exact JSON.

>>> import cardrules
>>> list(cardrules.GAMES)[:4]
['aegis', 'gunsore', 'eleusis', 'haggis']
"""

import importlib as _importlib
from typing import Any as _Any

from ._version import __version__
from .agents import RandomAgent
from .cards import (
    JOKER,
    Card,
    Color,
    Suit,
    canonical,
    haggis_faces,
    haggis_number_cards,
    parse_card,
    parse_cards,
    standard_deck,
    two_decks,
)
from .errors import (
    CardParseError,
    CardRulesError,
    IllegalActionError,
    InvalidCardError,
    RulesError,
    StateFormatError,
    UnknownGameError,
)
from .protocol import CHANCE, GAMES, GameDef, SearchHooks, Shuffle, chance_cards, register_game
from .serialize import from_json, to_json
from .simulation import (
    Factory,
    GameFailure,
    GameResult,
    SimulationError,
    Summary,
    Table,
    play,
    simulate,
    tournament,
)

__all__ = [
    "CHANCE",
    "GAMES",
    "JOKER",
    "Card",
    "CardParseError",
    "CardRulesError",
    "Color",
    "Factory",
    "GameDef",
    "GameFailure",
    "GameResult",
    "IllegalActionError",
    "InvalidCardError",
    "RandomAgent",
    "RulesError",
    "SearchHooks",
    "Shuffle",
    "SimulationError",
    "StateFormatError",
    "Suit",
    "Summary",
    "Table",
    "UnknownGameError",
    "__version__",
    "canonical",
    "chance_cards",
    "from_json",
    "haggis_faces",
    "haggis_number_cards",
    "parse_card",
    "parse_cards",
    "play",
    "register_game",
    "simulate",
    "standard_deck",
    "to_json",
    "tournament",
    "two_decks",
]

# The game modules and the other public submodules load on first use
# (``cardrules.eleusis.compile_rule``, ``cardrules.agents.RandomAgent``...), so that
# ``import cardrules`` stays light and still gives access to every documented name.
_SUBMODULES = frozenset(
    {
        "aegis",
        "agents",
        "cards",
        "errors",
        "eleusis",
        "gunsore",
        "haggis",
        "lang",
        "protocol",
        "serialize",
        "simulation",
        "tricks",
    }
)


def __getattr__(name: str) -> _Any:
    if name in _SUBMODULES:
        return _importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module 'cardrules' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted({*globals(), *_SUBMODULES})

"""cardrules: card games run exactly by the book.

Four games (:mod:`cardrules.aegis`, :mod:`cardrules.gunsore`, :mod:`cardrules.eleusis`,
:mod:`cardrules.haggis`) on one protocol: immutable states, pure transitions, chance as
explicit :class:`Shuffle` actions, replay and exact JSON.

>>> import cardrules
>>> list(cardrules.GAMES)[:4]
['aegis', 'gunsore', 'eleusis', 'haggis']
"""

from ._version import __version__
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
)
from .protocol import CHANCE, GAMES, GameDef, Shuffle, chance_cards
from .serialize import from_json, to_json
from .simulate import Summary, simulate

__all__ = [
    "CHANCE",
    "GAMES",
    "JOKER",
    "Card",
    "CardParseError",
    "CardRulesError",
    "Color",
    "GameDef",
    "IllegalActionError",
    "InvalidCardError",
    "RulesError",
    "Shuffle",
    "StateFormatError",
    "Suit",
    "Summary",
    "__version__",
    "canonical",
    "chance_cards",
    "from_json",
    "haggis_faces",
    "haggis_number_cards",
    "parse_card",
    "parse_cards",
    "simulate",
    "standard_deck",
    "to_json",
    "two_decks",
]

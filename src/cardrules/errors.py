"""The errors cardrules raises on purpose.

Every one derives from :class:`CardRulesError`, so a caller can catch the library's
complaints in one place and let real bugs through.  Errors that describe bad *values*
(a card string, a state file) are also :class:`ValueError`, as Python code expects.
"""

from __future__ import annotations

__all__ = [
    "CardParseError",
    "CardRulesError",
    "IllegalActionError",
    "InvalidCardError",
    "RulesError",
    "StateFormatError",
    "UnknownGameError",
]


class CardRulesError(Exception):
    """Base class of every error cardrules raises on purpose."""


class InvalidCardError(CardRulesError, ValueError):
    """A card that does not exist (``Card(14, Suit.SPADES)``, a moon ace...)."""


class CardParseError(InvalidCardError):
    """Text that is not a card in the card notation (``"1H"``, ``"QX"``...).

    The message names the bad token; :attr:`token` holds it.
    """

    def __init__(self, message: str, token: str = "") -> None:
        super().__init__(message)
        self.token = token


class IllegalActionError(CardRulesError):
    """An action that is not legal in the state it was applied to.

    The message says why, in words a player understands ("must follow suit: you hold
    7H").  States are immutable, so nothing was changed.
    """


class RulesError(CardRulesError, ValueError):
    """A game's ``Rules`` built with an impossible option."""


class StateFormatError(CardRulesError, ValueError):
    """Text given to :func:`cardrules.from_json` that is not a state cardrules wrote."""


class UnknownGameError(CardRulesError, KeyError):
    """A game name :data:`cardrules.GAMES` does not know (a ``KeyError`` too, as a
    mapping's missing key should be)."""

    def __str__(self) -> str:  # KeyError's own would print the message's repr
        return str(self.args[0]) if self.args else ""

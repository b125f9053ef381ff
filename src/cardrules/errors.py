"""The errors cardrules raises on purpose.

Every one derives from :class:`CardRulesError`, so a caller can catch the library's
complaints in one place and let real bugs through.  Errors that describe bad *values*
(a card string, a state file) are also :class:`ValueError`, as Python code expects.
A message that echoes what it was given cuts a run of more than 150 characters without
a space to its start and its length, so a message stays short however long the text.
"""

from __future__ import annotations

import re

__all__ = [
    "CardParseError",
    "CardRulesError",
    "IllegalActionError",
    "InvalidCardError",
    "RulesError",
    "StateFormatError",
    "UnknownGameError",
]


#: the longest run of characters without a space an error message echoes whole; a
#: longer one (a 5,000-character "name", a 3 MB action text) is cut
MAX_ECHO = 150
_LONG_RUN = re.compile(r"\S{" + str(MAX_ECHO + 1) + ",}")


def cut_echoes(message: str) -> str:
    """``message`` with every run of more than :data:`MAX_ECHO` characters without a space
    cut to its start and its length: what a message echoes of a caller's text stays
    readable however long that text is."""
    if len(message) <= MAX_ECHO:
        return message
    return _LONG_RUN.sub(lambda m: f"{m[0][:60]}... ({len(m[0])} characters)", message)


class CardRulesError(Exception):
    """Base class of every error cardrules raises on purpose.

    A message echoes what it was given, cut: a run of more than 150 characters without a
    space shows its start and its length."""

    def __init__(self, *args: object) -> None:
        if args and isinstance(args[0], str):
            args = (cut_echoes(args[0]), *args[1:])
        super().__init__(*args)


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

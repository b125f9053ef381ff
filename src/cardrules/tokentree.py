"""The token tree of multi-token actions: the legal actions of a state by their integer
tokens, the next tokens of a prefix worked out only when asked for.  What an encoding
(:mod:`cardrules.encoding`) uses where one action is entered as several tokens (a Haggis
combination card by card); re-exported there as :class:`cardrules.encoding.Tree`."""

from __future__ import annotations

import operator
from collections.abc import Callable, Sequence
from itertools import compress
from typing import Any

__all__ = ["Tree"]


class Tree:
    """The legal actions of a state by their tokens: at each prefix of tokens, the next
    legal tokens, each to the action it completes (``None`` where it only extends the
    prefix).  Made from each action's first token (``heads``); the next token of the
    actions through a prefix (``codes(state, actions, k)``) is worked out only for the
    prefixes asked for.  A token is coded as itself where it ends its action and as
    ``~token`` where more tokens follow."""

    __slots__ = ("_codes", "_entries", "_levels", "_state", "root")

    def __init__(
        self,
        state: Any,
        actions: Sequence[Any],
        heads: list[int],
        codes: Callable[[Any, Sequence[Any], int], list[int]],
    ) -> None:
        self._state = state
        self._codes = codes
        #: the legal tokens with nothing entered yet
        self.root = self._level(actions, heads)
        self._levels: dict[tuple[int, ...], dict[int, Any]] = {(): self.root}
        # the actions through a prefix, and the code of each one's next token
        self._entries: dict[tuple[int, ...], tuple[Sequence[Any], list[int]]] = {(): (actions, heads)}

    @staticmethod
    def _level(actions: Sequence[Any], codes: list[int]) -> dict[int, Any]:
        # (in the standard library's C loops: a Haggis hand leads hundreds of actions)
        level = dict.fromkeys(map(operator.invert, filter((0).__gt__, codes)))
        ends = list(map((0).__le__, codes))
        level.update(zip(compress(codes, ends), compress(actions, ends), strict=True))
        return level

    def get(self, prefix: tuple[int, ...]) -> dict[int, Any] | None:
        """The level after ``prefix``, or ``None`` if it is no prefix of a legal action."""
        level = self._levels.get(prefix)
        if level is None:
            parent = self.get(prefix[:-1]) if prefix else None
            t = prefix[-1] if prefix else 0
            if parent is None or parent.get(t, 0) is not None:
                return None
            actions, codes = self._entries[prefix[:-1]]
            more = ~t
            through = list(compress(actions, map(more.__eq__, codes)))
            codes = self._codes(self._state, through, len(prefix))
            self._entries[prefix] = (through, codes)
            level = self._levels[prefix] = self._level(through, codes)
        return level

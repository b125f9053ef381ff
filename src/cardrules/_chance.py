"""The chance player, :data:`CHANCE`: ``state.to_act`` at a chance node.

It lives in a module of its own, below the protocol and the JSON codec, which both use
it; :mod:`cardrules.protocol` (and :mod:`cardrules`) re-export it.
"""

from __future__ import annotations

from typing import Final

__all__ = ["CHANCE"]


class Chance:
    """The type of :data:`CHANCE`.  There is exactly one instance."""

    __slots__ = ()
    _instance: Chance | None = None

    def __new__(cls) -> Chance:
        if cls._instance is None:
            cls._instance = object.__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "CHANCE"

    def __reduce__(self) -> str:
        return "CHANCE"  # pickled by name: unpickling gives the singleton back

    def __copy__(self) -> Chance:
        return self

    def __deepcopy__(self, memo: object) -> Chance:
        return self


#: ``state.to_act`` at a chance node: the next action must be a :class:`Shuffle`.
CHANCE: Final = Chance()

"""Adapters that make every cardrules game usable from other game-AI frameworks.

- :mod:`cardrules.integrations.openspiel`: the four games as OpenSpiel games (extra
  ``cardrules[openspiel]``);
- :mod:`cardrules.integrations.pettingzoo`: the four games as PettingZoo AEC environments
  (extra ``cardrules[pettingzoo]``);
- :mod:`cardrules.encoding` (framework-free, with no dependency): what both know of a
  game, each game's encoding in its own package (``cardrules.aegis.encoding`` ...): the
  integer action encoding, the observation blocks, the parameters, and the bounds (game
  length, utilities) derived from the rules; a game of one's own brings its own;
- :mod:`cardrules.integrations.tensors`: the observation tensor, filled with NumPy.
"""

from __future__ import annotations

__all__ = ["missing_extra"]


def missing_extra(exc: ModuleNotFoundError, *extras: str) -> ModuleNotFoundError:
    """The error an adapter raises when the package ``exc`` names is missing: it says
    which extra to install (its ``name`` stays the missing package's)."""
    names = " or ".join(extras)
    why = (
        f"{exc.name} is not installed: this adapter needs the {names} extra "
        f"(python -m pip install 'cardrules[{extras[0]}]')"
    )
    return ModuleNotFoundError(why, name=exc.name)

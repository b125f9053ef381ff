"""The integer encodings of the four games, under the names the adapters had for them.

Each game's :class:`~cardrules.encoding.Encoding` lives in its own package
(:mod:`cardrules.aegis.encoding` ...) and reaches the adapters through its ``GameDef``;
the machinery every encoding shares is :mod:`cardrules.encoding`.  This module only
gathers them for programs that import them from here.
"""

from __future__ import annotations

from ..aegis.encoding import AegisEncoding
from ..eleusis.encoding import EleusisEncoding
from ..encoding import Encoding, Position, Tree, encoding_for
from ..gunsore.encoding import GunsoreEncoding
from ..haggis.encoding import HaggisEncoding

__all__ = [
    "AegisEncoding",
    "EleusisEncoding",
    "Encoding",
    "GunsoreEncoding",
    "HaggisEncoding",
    "Position",
    "Tree",
    "encoding_for",
]

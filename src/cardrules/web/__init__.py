"""``cardrules serve``: a web table that embeds the library (the extra ``cardrules[web]``).

:class:`~cardrules.web.table.GameTable` (one game, its seats and what each seat is
shown) and :class:`~cardrules.web.store.Store` (the SQLite database) are plain library
code; :func:`create_app` makes the Starlette application around them, and needs the
extra (``pip install 'cardrules[web]'``).  The library itself never imports this package.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .store import Store
from .table import COMPUTER_KINDS, HUMAN, GameTable, TableError

if TYPE_CHECKING:
    from starlette.applications import Starlette

__all__ = ["COMPUTER_KINDS", "HUMAN", "GameTable", "Store", "TableError", "create_app"]


def create_app(db_path: str, *, debug: bool = False) -> Starlette:
    """The web table's ASGI application (:func:`cardrules.web.app.create_app`), its
    tables kept in the SQLite file ``db_path``; needs Starlette (``cardrules[web]``)."""
    from .app import create_app as make

    return make(db_path, debug=debug)

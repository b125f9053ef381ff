"""``cardrules serve``: a web table that embeds the library (the extra ``cardrules[web]``).

:class:`~cardrules.web.table.GameTable` (one game, its seats and what each seat is
shown) and :class:`~cardrules.web.store.Store` (the SQLite database; or
:class:`~cardrules.web.pgstore.PostgresStore`, PostgreSQL shared by several processes,
with the extra ``cardrules[postgres]``) are plain library code; :func:`create_app`
makes the Starlette application around them, and needs the extra (``pip install
'cardrules[web]'``).  The library itself never imports this package.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .database import open_store
from .limits import DEFAULT_LIMITS, Limits
from .store import StaleTable, Store, TableStore
from .table import COMPUTER_KINDS, HUMAN, GameTable, TableError, TableSettings

if TYPE_CHECKING:
    from starlette.applications import Starlette

__all__ = [
    "COMPUTER_KINDS",
    "HUMAN",
    "GameTable",
    "Limits",
    "StaleTable",
    "Store",
    "TableError",
    "TableSettings",
    "TableStore",
    "create_app",
    "open_store",
]


def create_app(
    db_path: str, *, durable: bool = True, debug: bool = False, limits: Limits = DEFAULT_LIMITS
) -> Starlette:
    """The web table's ASGI application, its tables kept in the SQLite file ``db_path``
    (made when missing), or in PostgreSQL when ``db_path`` is a ``postgresql://`` URL
    (the extra ``cardrules[postgres]``): then several processes may serve the same
    tables, each seeing the others' moves (:mod:`cardrules.web.pgstore`).  Every
    accepted action is committed to the database before anyone is told of it; with
    ``durable`` (the default) each commit waits for the disk, so the games survive the
    machine losing power, and without it they survive the server being killed, with
    commits a few hundred times faster.  ``debug`` shows Starlette's tracebacks.
    ``limits`` bounds what one client may cost (rate limits, the budget of tables that
    play on their own: :class:`~cardrules.web.limits.Limits`).  Needs the extra
    ``cardrules[web]`` (Starlette).

    Serve it with any ASGI server (``uvicorn.run(create_app("tables.db"))``) or mount it
    in an application of your own (``Mount("/cards", app=create_app(...))``)."""
    from .app import create_app as make

    return make(db_path, durable=durable, debug=debug, limits=limits)

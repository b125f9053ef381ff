"""Which database ``--db`` names: :func:`open_store` opens a SQLite file
(:class:`~cardrules.web.store.Store`) or a PostgreSQL database
(:class:`~cardrules.web.pgstore.PostgresStore`), each with the
:class:`~cardrules.web.store.TableStore` interface the server uses.
"""

from __future__ import annotations

from .store import Store, TableStore

__all__ = ["is_postgres_url", "open_store"]


def is_postgres_url(db: str) -> bool:
    """Whether ``db`` names a PostgreSQL database (``postgresql://...``) rather than a
    SQLite file."""
    return db.startswith(("postgresql://", "postgres://"))


def open_store(db: str, *, durable: bool = True) -> TableStore:
    """The store ``db`` names: a ``postgresql://`` URL (libpq's form, e.g.
    ``postgresql://user@host/dbname`` or ``postgresql:///dbname?host=/var/run/postgresql``)
    opens :class:`~cardrules.web.pgstore.PostgresStore` (needs psycopg 3: the extra
    ``cardrules[postgres]``); anything else is a SQLite file (``":memory:"``: none)."""
    if is_postgres_url(db):
        from .pgstore import PostgresStore

        return PostgresStore(db, durable=durable)
    return Store(db, durable=durable)

"""The web tables in PostgreSQL (psycopg 3, the extra ``cardrules[postgres]``): one
database that several ``cardrules serve`` processes share.

A table is one row of ``cardrules_tables``, as in the SQLite store (its settings, written
and read by the same functions, :meth:`Store._settings <cardrules.web.store.Store._settings>`
and ``Store._table``, and its record, :func:`cardrules.to_json`), plus its *step*
(:func:`~cardrules.web.store.table_step`: the number of actions in its history).

Two guarantees make several processes safe:

* **Optimistic concurrency.**  A save names the step the process read (``expected``):
  ``UPDATE ... WHERE id = %s AND step = %s``.  When another process has moved the table
  on meanwhile, no row matches, nothing is written, and :meth:`PostgresStore.save`
  raises :class:`~cardrules.web.store.StaleTable`; the server then reads the table
  again and tells the seat its action was not applied.  So no action is applied twice,
  or to a state that is no longer the table's.
* **LISTEN/NOTIFY.**  The same transaction sends ``NOTIFY cardrules_tables, 'ID STEP
  ORIGIN'`` (``ORIGIN``: the store that saved, so that each skips its own), which
  PostgreSQL delivers to every listening connection when (and only if) it commits.
  :meth:`PostgresStore.changes` listens on one dedicated connection per process; the
  server brings each table that changed elsewhere and has seats connected to it here
  up to date (applying only the new actions: :func:`~cardrules.web.store.catch_up`),
  and sends those seats their messages.

Every commit is durable (``synchronous_commit`` as the server sets it, ``on`` by
default) unless ``durable`` is false, which sets ``synchronous_commit = off`` for this
store's connections: a commit then returns before its WAL record is flushed, so the
last few actions may be lost if the database server (not ``cardrules serve``) crashes.
"""

from __future__ import annotations

import contextlib
import queue
import secrets
import time
from collections.abc import AsyncIterator, Iterator
from typing import TYPE_CHECKING, Any, Final

from ..errors import CardRulesError
from ..serialize import to_json
from .store import StaleTable, Store, table_step
from .table import GameTable

if TYPE_CHECKING:
    import psycopg

__all__ = ["CHANNEL", "POOL_SIZE", "PostgresStore"]

#: the NOTIFY channel of changed tables (payload ``"ID STEP ORIGIN"``)
CHANNEL: Final = "cardrules_tables"
#: the most connections one store opens for its reads and writes (beside the listener)
POOL_SIZE: Final = 4

_SCHEMA: Final = """
CREATE TABLE IF NOT EXISTS cardrules_tables (
    id TEXT PRIMARY KEY,
    settings TEXT NOT NULL,
    record TEXT,
    step INTEGER NOT NULL,
    created DOUBLE PRECISION NOT NULL,
    updated DOUBLE PRECISION NOT NULL
)
"""
#: the advisory lock that orders the schema's creation by processes starting together
_SCHEMA_LOCK: Final = 0x63617264


def _psycopg() -> Any:
    try:
        import psycopg
    except ImportError:
        raise CardRulesError(
            "a postgresql:// database needs psycopg 3, which is not installed: "
            "pip install 'cardrules[postgres]'"
        ) from None
    return psycopg


class PostgresStore:
    """The tables kept in the PostgreSQL database ``url`` (a libpq URL:
    ``postgresql://user:password@host:port/dbname``, or over a Unix socket
    ``postgresql:///dbname?host=/var/run/postgresql``).  The table ``cardrules_tables``
    is made when missing.  Blocking calls (as :class:`~cardrules.web.store.Store`'s):
    the server makes them in worker threads, each on a connection of a small pool."""

    shared = True

    def __init__(self, url: str, *, durable: bool = True, pool_size: int = POOL_SIZE) -> None:
        self.url = url
        self.durable = durable
        self._pg = _psycopg()
        self._pool: queue.LifoQueue[psycopg.Connection[Any]] = queue.LifoQueue()
        self._slots = queue.Queue[None]()
        for _ in range(pool_size):
            self._slots.put(None)
        self._closed = False
        #: this store's mark on its notifications (:meth:`changes` skips its own)
        self.origin = secrets.token_hex(8)
        with self._connection() as conn, conn.transaction():
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (_SCHEMA_LOCK,))
            conn.execute(_SCHEMA)

    def _connect(self) -> psycopg.Connection[Any]:
        try:
            conn: psycopg.Connection[Any] = self._pg.connect(self.url, autocommit=True)
        except self._pg.Error as exc:
            raise CardRulesError(f"cannot connect to the PostgreSQL database: {exc}".strip()) from None
        if not self.durable:
            conn.execute("SET synchronous_commit = off")
        return conn

    @contextlib.contextmanager
    def _connection(self) -> Iterator[psycopg.Connection[Any]]:
        """A connection of the pool (at most ``pool_size`` in use at once; one that
        failed is dropped, and a new one made next time)."""
        if self._closed:
            raise CardRulesError("the store is closed")
        self._slots.get()
        try:
            try:
                conn = self._pool.get_nowait()
            except queue.Empty:
                conn = self._connect()
            try:
                yield conn
            except BaseException:
                idle = conn.info.transaction_status == self._pg.pq.TransactionStatus.IDLE
                if conn.broken or conn.closed or not idle:
                    conn.close()
                else:
                    self._pool.put(conn)
                raise
            self._pool.put(conn)
        finally:
            self._slots.put(None)

    def close(self) -> None:
        self._closed = True
        while True:
            try:
                self._pool.get_nowait().close()
            except queue.Empty:
                return

    def __enter__(self) -> PostgresStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def add(self, table: GameTable) -> None:
        """Store a new table."""
        record = None if table.state is None else to_json(table.state)
        now = time.time()
        with self._connection() as conn, conn.transaction():
            conn.execute(
                "INSERT INTO cardrules_tables (id, settings, record, step, created, updated)"
                " VALUES (%s, %s, %s, %s, %s, %s)",
                (table.id, Store._settings(table), record, table_step(table.state), now, now),
            )

    def save(self, table: GameTable, state: Any, *, expected: int | None = None) -> None:
        """Store ``state`` as ``table``'s record (and its settings), committed when this
        returns, and notify every listening process.  With ``expected``, only if the
        stored table is still at that step: otherwise
        :class:`~cardrules.web.store.StaleTable`, and nothing is written.  ``state``
        ``None`` (a game not started) stores the settings alone."""
        record = None if state is None else to_json(state)
        step = table_step(state)
        with self._connection() as conn, conn.transaction():
            sql = (
                "UPDATE cardrules_tables SET settings = %s, record = %s, step = %s, updated = %s"
                " WHERE id = %s"
            )
            params: tuple[Any, ...] = (Store._settings(table), record, step, time.time(), table.id)
            if expected is not None:
                sql += " AND step = %s"
                params += (expected,)
            cur = conn.execute(sql, params)
            if cur.rowcount != 1:
                found = conn.execute("SELECT 1 FROM cardrules_tables WHERE id = %s", (table.id,))
                if found.fetchone() is None:
                    raise KeyError(table.id)
                raise StaleTable("another action was made at this table first: this one was not applied")
            # delivered to the listeners when, and only if, this transaction commits
            conn.execute("SELECT pg_notify(%s, %s)", (CHANNEL, f"{table.id} {step} {self.origin}"))

    def record(self, table_id: str) -> str | None:
        """The stored JSON record of a table (``None``: no such table, or not started)."""
        with self._connection() as conn:
            row = conn.execute("SELECT record FROM cardrules_tables WHERE id = %s", (table_id,)).fetchone()
        return None if row is None or row[0] is None else str(row[0])

    def step(self, table_id: str) -> int | None:
        """The stored step of a table, or ``None``."""
        with self._connection() as conn:
            row = conn.execute("SELECT step FROM cardrules_tables WHERE id = %s", (table_id,)).fetchone()
        return None if row is None else int(row[0])

    def load(self, table_id: str) -> GameTable | None:
        """The table ``table_id`` as stored, or ``None``."""
        row = self.row(table_id)
        return None if row is None else Store._table(table_id, *row)

    def row(self, table_id: str) -> tuple[str, str | None] | None:
        """A table's stored settings and record, as texts (``None``: no such table)."""
        with self._connection() as conn:
            cur = conn.execute("SELECT settings, record FROM cardrules_tables WHERE id = %s", (table_id,))
            row = cur.fetchone()
        return None if row is None else (str(row[0]), None if row[1] is None else str(row[1]))

    def listed_ids(self, limit: int) -> list[str]:
        """The ids of the newest ``limit`` listed tables (``TableSettings.listed``),
        newest first."""
        with self._connection() as conn:
            rows = conn.execute(
                "SELECT id FROM cardrules_tables WHERE (settings::jsonb ->> 'listed') = 'true'"
                " ORDER BY created DESC, id LIMIT %s",
                (limit,),
            ).fetchall()
        return [str(r[0]) for r in rows]

    def ids(self) -> list[str]:
        """Every stored table's id, oldest first."""
        with self._connection() as conn:
            rows = conn.execute("SELECT id FROM cardrules_tables ORDER BY created, id").fetchall()
        return [str(r[0]) for r in rows]

    async def changes(self) -> AsyncIterator[tuple[str, int] | None]:
        """The tables changed by other processes (other stores), as ``(id, step)`` (a
        step may stay the same when only a table's settings changed), from one connection
        that listens (psycopg's ``AsyncConnection``, on the event loop).
        It first yields ``None`` once listening: changes made before may have been
        missed, so a caller reads again what it holds.  Ends with an error when the
        connection is lost (the caller listens again)."""
        pg = self._pg
        conn = await pg.AsyncConnection.connect(self.url, autocommit=True)
        async with conn:
            await conn.execute(f"LISTEN {CHANNEL}")
            yield None
            async for note in conn.notifies():
                parts = note.payload.split(" ")
                if len(parts) == 3 and parts[2] != self.origin and parts[1].lstrip("-").isdecimal():
                    yield parts[0], int(parts[1])

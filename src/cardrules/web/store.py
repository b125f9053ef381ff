"""The web tables' database: SQLite (the standard library's :mod:`sqlite3`), in WAL mode,
by default; PostgreSQL (:mod:`cardrules.web.pgstore`) for a table served by several
processes.  :func:`~cardrules.web.database.open_store` picks one by the ``--db`` it
is given; both keep the :class:`TableStore` interface, and both write a table's
settings with :meth:`Store._settings` and read them back with :meth:`Store._table` (one
mapping for both databases).

Each table is one row: its settings (the game, the seats, the seat tokens' hashes, the
secret seed, the rule's text) and its state as the library's versioned JSON record
(:func:`cardrules.to_json`).  :meth:`Store.save` writes the record in one transaction,
committed before the server tells anyone the action was accepted: a server killed at any
moment and started again on the same file has every accepted action (with
``durable=True``, the default, SQLite's ``synchronous=FULL``: each commit waits for the
disk, so the actions survive the machine losing power too; ``durable=False`` is
``synchronous=NORMAL``, which survives the server being killed, not the machine, and
commits a few hundred times faster), and :meth:`Store.load` reads the record back with
:func:`cardrules.from_json`, which replays and checks every action.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from collections.abc import AsyncIterator
from typing import Any, Final, Protocol

import attrs

from ..protocol import Shuffle
from ..serialize import decode_action, encode_action, from_json, to_json
from .table import GameTable, TableError, TableSettings

__all__ = [
    "FORMAT",
    "VERSION",
    "StaleTable",
    "Store",
    "TableStore",
    "catch_up",
    "table_step",
]

FORMAT: Final = "cardrules/web-table"
VERSION: Final = 1
#: what a table's stored settings set (beside its game, players and seed, which never change)
_STORED: Final = ("seats", "tokens", "rule_text", "options", "settings", "deadline", "forfeit", "taken")


class StaleTable(TableError):
    """A save refused because the stored table has moved on since this process read it
    (another process changed it first): nothing was written."""


def table_step(state: Any) -> int:
    """A table's step as the stores count it: ``len(state.history)``, and ``-1`` before
    the game has started (New Eleusis waiting for its rule), so that every accepted
    change raises it."""
    return -1 if state is None else len(state.history)


class TableStore(Protocol):
    """What the web server asks of its database (:class:`Store` for SQLite,
    :class:`~cardrules.web.pgstore.PostgresStore` for PostgreSQL)."""

    #: whether other processes change the same tables (then :meth:`changes` tells of them)
    shared: bool

    def add(self, table: GameTable) -> None: ...

    def save(self, table: GameTable, state: Any, *, expected: int | None = None) -> None: ...

    def record(self, table_id: str) -> str | None: ...

    def load(self, table_id: str) -> GameTable | None: ...

    def row(self, table_id: str) -> tuple[str, str | None] | None: ...

    def ids(self) -> list[str]: ...

    def listed_ids(self, limit: int) -> list[str]: ...

    def close(self) -> None: ...

    def __enter__(self) -> TableStore: ...

    def __exit__(self, *exc: object) -> None: ...

    def changes(self) -> AsyncIterator[tuple[str, int] | None]: ...


def catch_up(table: GameTable, settings_text: str, record: str | None) -> bool | None:
    """Bring ``table`` to the stored row (its settings and record) by applying only the
    actions it lacks, rather than reading the whole game again: what a process does
    each time another process moves one of its tables on, so its cost is the new
    actions', not the game's.  The stored settings are read anew (without the record:
    no replay): the seats and their tokens, the taken seats, the rule, the clock and
    its deadline, a forfeit.  Answers whether the table changed, or ``None`` when
    it cannot catch up (a game not started, another game or seed, a history that does
    not extend this one, or a result that is not the stored record): then read it
    whole (``Store._table``), which replays and checks everything."""
    state = table.state
    if state is None or record is None:
        return None
    settings = Store._table(table.id, settings_text, None)  # the settings alone
    if (settings.game, settings.players, settings.seed) != (table.game, table.players, table.seed):
        return None
    doc = json.loads(record)
    history = doc.get("history")
    n = len(state.history)
    if not isinstance(history, list) or len(history) < n:
        return None
    if n and history[n - 1] != encode_action(state.history[-1]):
        return None
    changed = json.loads(settings_text) != json.loads(Store._settings(table))
    g = table.game
    kept = ([list(seat) for seat in table.lines], list(table.public_lines), table.last, table.ended)
    try:
        # as from_json replays: unseeded, each deal applied from the history, the seed
        # put back at the end; each action's line noted with the deals that follow it
        actions = [decode_action(g, a, f"history[{i}]") for i, a in enumerate(history[n:], n)]
        current = attrs.evolve(state, seed=None)
        i = 0
        while i < len(actions):
            action = actions[i]
            after = g.apply(current, action)
            i += 1
            if type(action) is not Shuffle:
                while i < len(actions) and type(actions[i]) is Shuffle:
                    after = g.apply(after, actions[i])
                    i += 1
                table.state = current
                table.commit(after, action)
            current = after
        final = attrs.evolve(current, seed=state.seed)
        if actions and to_json(final) != record:
            raise ValueError("not the stored record")
    except Exception:
        table.state = state
        table.lines, table.public_lines, table.last, table.ended = kept
        table.changed()
        return None
    for name in _STORED:  # the lines, the last action, the end of a hand: as committed
        setattr(table, name, getattr(settings, name))
    table.state = final if actions else state
    table.changed()  # no message made before is sent again
    return changed or bool(actions)


_SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    settings TEXT NOT NULL,
    record TEXT,
    created REAL NOT NULL,
    updated REAL NOT NULL
)
"""


class Store:
    """The tables kept in the SQLite file ``path`` (``":memory:"`` for none); each commit
    waits for the disk unless ``durable`` is false (see above).  One process serves a
    SQLite file: its changes are ordered by the server's lock of each table, so
    :meth:`save` ignores ``expected`` and :meth:`changes` never yields."""

    shared = False

    def __init__(self, path: str, *, durable: bool = True) -> None:
        self.path = path
        self.durable = durable
        self._lock = threading.Lock()
        self._db = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=" + ("FULL" if durable else "NORMAL"))
        self._db.execute("PRAGMA busy_timeout=5000")
        self._db.execute(_SCHEMA)

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @staticmethod
    def _settings(table: GameTable) -> str:
        return json.dumps(
            {
                "format": FORMAT,
                "version": VERSION,
                "game": table.game.name,
                "players": table.players,
                "seats": list(table.seats),
                "tokens": {str(k): v for k, v in table.tokens.items()},
                "seed": table.seed,
                "rule": table.rule_text,
                "options": table.options,
                "spectators": table.settings.spectators,
                "listed": table.settings.listed,
                "clock": table.settings.clock,
                "on_timeout": table.settings.on_timeout,
                "autoplay": table.settings.autoplay,
                "hints": table.settings.hints,
                "deadline": table.deadline,
                "forfeit": table.forfeit,
                "taken": sorted(table.taken),
            }
        )

    def add(self, table: GameTable) -> None:
        """Store a new table."""
        record = None if table.state is None else to_json(table.state)
        now = time.time()
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                self._db.execute(
                    "INSERT INTO tables (id, settings, record, created, updated) VALUES (?, ?, ?, ?, ?)",
                    (table.id, self._settings(table), record, now, now),
                )
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    def save(self, table: GameTable, state: Any, *, expected: int | None = None) -> None:
        """Store ``state`` as ``table``'s record (and the table's settings, which a
        written rule, a clock's deadline, a taken seat change), committed when this
        returns; ``state`` ``None`` (a game not started) stores the settings alone.
        (``expected``, the step the stored table must be at, is checked by the stores
        that several processes share.)"""
        record = None if state is None else to_json(state)
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                cur = self._db.execute(
                    "UPDATE tables SET settings = ?, record = ?, updated = ? WHERE id = ?",
                    (self._settings(table), record, time.time(), table.id),
                )
                if cur.rowcount != 1:
                    raise KeyError(table.id)
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    def record(self, table_id: str) -> str | None:
        """The stored JSON record of a table (``None``: no such table, or not started)."""
        with self._lock:
            row = self._db.execute("SELECT record FROM tables WHERE id = ?", (table_id,)).fetchone()
        return None if row is None else row[0]

    def load(self, table_id: str) -> GameTable | None:
        """The table ``table_id`` as stored, or ``None``."""
        with self._lock:
            row = self._db.execute("SELECT settings, record FROM tables WHERE id = ?", (table_id,)).fetchone()
        if row is None:
            return None
        return self._table(table_id, row[0], row[1])

    def row(self, table_id: str) -> tuple[str, str | None] | None:
        """A table's stored settings and record, as texts (``None``: no such table)."""
        with self._lock:
            row = self._db.execute("SELECT settings, record FROM tables WHERE id = ?", (table_id,)).fetchone()
        return None if row is None else (row[0], row[1])

    @staticmethod
    def _table(table_id: str, settings_text: str, record: str | None) -> GameTable:
        """The table a row holds: its settings (written by :meth:`_settings`) and its
        record (replayed and checked by :func:`cardrules.from_json`)."""
        settings = json.loads(settings_text)
        state = None if record is None else from_json(record)
        return GameTable(
            table_id,
            settings["game"],
            settings["players"],
            settings["seats"],
            {int(k): v for k, v in settings["tokens"].items()},
            settings["seed"],
            state,
            settings.get("rule"),
            settings.get("options"),
            settings=TableSettings.read(settings),
            deadline=settings.get("deadline"),
            forfeit=settings.get("forfeit"),
            taken=settings.get("taken", ()),
        )

    def listed_ids(self, limit: int) -> list[str]:
        """The ids of the newest ``limit`` listed tables (``TableSettings.listed``),
        newest first."""
        with self._lock:
            rows = self._db.execute(
                "SELECT id FROM tables WHERE settings LIKE '%\"listed\": true%' "
                "ORDER BY created DESC LIMIT ?",
                (limit,),
            ).fetchall()
        return [r[0] for r in rows]

    def ids(self) -> list[str]:
        """Every stored table's id, oldest first."""
        with self._lock:
            rows = self._db.execute("SELECT id FROM tables ORDER BY created").fetchall()
        return [r[0] for r in rows]

    async def changes(self) -> AsyncIterator[tuple[str, int] | None]:
        """Nothing: no other process changes a SQLite file's tables."""
        return
        yield  # an async generator that ends at once

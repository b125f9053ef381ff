"""The web tables' database: SQLite (the standard library's :mod:`sqlite3`), in WAL mode.

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
from typing import Any, Final

from ..serialize import from_json, to_json
from .table import GameTable, TableSettings

__all__ = ["FORMAT", "VERSION", "Store"]

FORMAT: Final = "cardrules/web-table"
VERSION: Final = 1

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
    waits for the disk unless ``durable`` is false (see above)."""

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

    def save(self, table: GameTable, state: Any) -> None:
        """Store ``state`` as ``table``'s record (and the table's settings, which a
        written rule, a clock's deadline, a taken seat change), committed when this
        returns; ``state`` ``None`` (a game not started) stores the settings alone."""
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
        settings = json.loads(row[0])
        state = None if row[1] is None else from_json(row[1])
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

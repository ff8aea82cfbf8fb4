"""The link's own record of what the club's broker acknowledged (``DATA_DIR/club/link.sqlite``).

A game leaves the table's outbox only when the broker acknowledged it (QoS 1 PUBACK). The
journal is the controller's and the link only reads it, so "left the outbox" is written here:
one row per acknowledged outbox item, and a cursor (every outbox record up to it is
acknowledged) so that a restart reads only what is still waiting.

Acknowledgements are recorded in batches after they arrive. If the link dies between a PUBACK
and its record, the game is sent again on restart: the server sees the same ``id`` and
``revision`` twice and keeps one (DESIGN.md: a repeat changes nothing). The reverse, a game
recorded as acknowledged that the broker never had, cannot happen.

>>> led = Ledger.open(":memory:")
>>> led.record([(5, 0, "t/1/7/1", 1), (6, 0, "t/1/7/2", 1)])
>>> led.cursor, led.is_acked(6, 0), led.count()
(6, True, 2)
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Iterable
from pathlib import Path

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS acked (
    seq INTEGER NOT NULL,
    n INTEGER NOT NULL,
    id TEXT NOT NULL,
    revision INTEGER NOT NULL,
    at REAL NOT NULL,
    PRIMARY KEY (seq, n)
) WITHOUT ROWID;
"""


class LedgerError(Exception):
    """The link's record cannot be opened or written (the message says why)."""


class Ledger:
    def __init__(self, conn: sqlite3.Connection) -> None:
        self._conn = conn
        row = conn.execute("SELECT value FROM meta WHERE key = 'cursor'").fetchone()
        self.cursor = int(row[0]) if row else 0

    @classmethod
    def open(cls, path: str | Path) -> Ledger:
        try:
            if str(path) != ":memory:":
                Path(path).parent.mkdir(parents=True, exist_ok=True)
            conn = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False,
                                   timeout=10)
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=FULL")
            conn.executescript(_SCHEMA)
            return cls(conn)
        except (sqlite3.Error, OSError) as exc:
            raise LedgerError(f"cannot open the link's record {path}: {exc}") from None

    def is_acked(self, seq: int, n: int) -> bool:
        if seq <= self.cursor:
            return True
        return self._conn.execute("SELECT 1 FROM acked WHERE seq = ? AND n = ?",
                                  (seq, n)).fetchone() is not None

    def record(self, items: Iterable[tuple[int, int, str, int]],
               cursor: int | None = None) -> None:
        """Record acknowledged items ``(seq, n, id, revision)`` and move the cursor to
        ``cursor`` (default: the highest seq recorded), in one transaction."""
        rows = [(s, n, i, r, time.time()) for s, n, i, r in items]
        if not rows and cursor is None:
            return
        new_cursor = max([self.cursor, *(r[0] for r in rows)]) if cursor is None else max(
            self.cursor, cursor)
        try:
            self._conn.execute("BEGIN IMMEDIATE")
            self._conn.executemany("INSERT OR IGNORE INTO acked VALUES (?, ?, ?, ?, ?)", rows)
            self._conn.execute("INSERT OR REPLACE INTO meta VALUES ('cursor', ?)",
                               (str(new_cursor),))
            self._conn.execute("COMMIT")
        except sqlite3.Error as exc:
            if self._conn.in_transaction:
                self._conn.execute("ROLLBACK")
            raise LedgerError(f"cannot write the link's record: {exc}") from None
        self.cursor = new_cursor

    def count(self) -> int:
        return int(self._conn.execute("SELECT COUNT(*) FROM acked").fetchone()[0])

    def close(self) -> None:
        self._conn.close()

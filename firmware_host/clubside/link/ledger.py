"""The link's own record of what the club's broker acknowledged (``DATA_DIR/club/link.sqlite``).

A game leaves the table's outbox only when the broker acknowledged it (QoS 1 PUBACK). The
journal is the controller's and the link only reads it, so "left the outbox" is written here:
one row per acknowledged outbox item, and a cursor (every outbox record up to it is
acknowledged) so that a restart reads only what is still waiting.

Acknowledgements are recorded in batches after they arrive. If the link dies between a PUBACK
and its record, the game is sent again on restart: the server sees the same ``id`` and
``revision`` twice and keeps one (docs/club-link.md: a repeat changes nothing). The reverse, a game
recorded as acknowledged that the broker never had, cannot happen.

A broker that crashes (SIGKILL, power cut) loses what it acknowledged since it last saved its
state, so after a lost connection the link sends the most recent acknowledged items again
(:meth:`Ledger.acked_since`); the time from which it does is kept here too
(:meth:`Ledger.mark_resend`), so that a link restarted before it could resend still does.

>>> led = Ledger.open(":memory:")
>>> led.record([(5, 0, "t/1/7/1", 1), (6, 0, "t/1/7/2", 1)])
>>> led.cursor, led.is_acked(6, 0), led.count()
(6, True, 2)
>>> led.acked_since(0.0), led.acked_since(time.time() + 60)
([(5, 0), (6, 0)], [])
>>> led.mark_resend(100.0); led.mark_resend(200.0); led.resend_since
100.0
>>> led.clear_resend(); led.resend_since is None
True
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
        row = conn.execute("SELECT value FROM meta WHERE key = 'resend_since'").fetchone()
        self.resend_since: float | None = float(row[0]) if row else None

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

    def acked_since(self, t: float) -> list[tuple[int, int]]:
        """``(seq, n)`` of the items recorded as acknowledged at or after ``t`` (epoch
        seconds), in outbox order."""
        return [(int(s), int(n)) for s, n in self._conn.execute(
            "SELECT seq, n FROM acked WHERE at >= ? ORDER BY seq, n", (t,))]

    def mark_resend(self, since: float) -> None:
        """Remember that what was acknowledged from ``since`` on must be sent again (the
        earliest such time wins until :meth:`clear_resend`)."""
        since = since if self.resend_since is None else min(since, self.resend_since)
        self._set_meta("resend_since", repr(since))
        self.resend_since = since

    def clear_resend(self) -> None:
        if self.resend_since is None:
            return
        try:
            self._conn.execute("DELETE FROM meta WHERE key = 'resend_since'")
        except sqlite3.Error as exc:
            raise LedgerError(f"cannot write the link's record: {exc}") from None
        self.resend_since = None

    def _set_meta(self, key: str, value: str) -> None:
        try:
            self._conn.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (key, value))
        except sqlite3.Error as exc:
            raise LedgerError(f"cannot write the link's record: {exc}") from None

    def count(self) -> int:
        return int(self._conn.execute("SELECT COUNT(*) FROM acked").fetchone()[0])

    def close(self) -> None:
        self._conn.close()

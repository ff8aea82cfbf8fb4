"""The journal: every input the table received, in SQLite, written before its effect is shown.

One row per input (accepted, refused or ignored: raw inputs are logged too), in a database in
WAL mode with ``synchronous=FULL``, so a row that was committed survives a power cut. Each row
carries a CRC of its contents; on opening, a damaged or torn tail (rows whose CRC does not
match, or a gap in the sequence) is detected, dropped and reported in :attr:`Journal.problems`.
A database file SQLite itself calls malformed is moved aside and what can still be read is
saved into a fresh file.

The table's state is a function of the accepted inputs of the current series, so recovery is
replaying :meth:`Journal.accepted` into a fresh controller.

>>> j = Journal.open(":memory:")
>>> sid = j.start_series({"players": ["A", "B", "C"]})
>>> j.append(sid, {"seat": 0, "press": "pass"}, "refused", line=1, reason="not now")
>>> [(e.line, e.status, e.reason) for e in j.entries(sid)]
[(1, 'refused', 'not now')]
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import time
import zlib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

SCHEMA_VERSION = 1
TAIL_WINDOW = 20_000  # records checked for a torn tail on opening (several long series)
_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS series (
    id INTEGER PRIMARY KEY,
    started REAL NOT NULL,
    config TEXT NOT NULL,
    finished INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS inputs (
    seq INTEGER PRIMARY KEY,
    series INTEGER NOT NULL,
    line INTEGER,
    source TEXT NOT NULL,
    input TEXT NOT NULL,
    status TEXT NOT NULL,
    reason TEXT,
    at REAL NOT NULL,
    crc INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS inputs_series ON inputs (series, seq);
"""


class JournalError(Exception):
    """The journal cannot be opened or written; the message says what the players should know."""


@dataclass(frozen=True)
class Entry:
    """One journalled input."""

    seq: int
    series: int
    line: int | None
    source: str
    input: dict[str, Any]
    status: str
    reason: str | None
    at: float


def _crc(seq: int, series: int, line: int | None, source: str, text: str, status: str,
         reason: str | None) -> int:
    blob = f"{seq}\x1f{series}\x1f{line}\x1f{source}\x1f{text}\x1f{status}\x1f{reason}"
    return zlib.crc32(blob.encode("utf-8"))


def _describe(exc: BaseException) -> str:
    text = str(exc).lower()
    if "full" in text:
        return "the storage is full"
    if "readonly" in text or "read-only" in text or "permission" in text:
        return "the storage is read-only"
    return f"the journal cannot be written ({exc})"


class Journal:
    """An open journal file; see the module docstring."""

    def __init__(self, conn: sqlite3.Connection, path: str, problems: list[str]) -> None:
        self._conn = conn
        self.path = path
        self.problems = problems
        self._next_seq = 1 + (conn.execute("SELECT MAX(seq) FROM inputs").fetchone()[0] or 0)

    # ---- opening and recovery --------------------------------------------------------------

    @classmethod
    def open(cls, path: str | Path) -> Journal:
        """Open (or create) a journal; raise :class:`JournalError` when that is impossible."""
        path = str(path)
        problems: list[str] = []
        if path != ":memory:":
            parent = Path(path).parent
            try:
                parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise JournalError(f"cannot create the data directory {parent}: "
                                   f"{exc.strerror or exc}") from None
        try:
            conn = cls._connect(path)
            ok = conn.execute("PRAGMA quick_check").fetchone()[0] == "ok"
            if not ok:
                raise sqlite3.DatabaseError("quick_check failed")
        except sqlite3.DatabaseError as exc:
            if path == ":memory:" or not _is_damage(exc):
                raise JournalError(f"cannot open the journal {path}: {_describe(exc)}") from None
            conn = cls._salvage(path, problems, exc)
        journal = cls(conn, path, problems)
        journal._drop_torn_tail()
        return journal

    @staticmethod
    def _connect(path: str) -> sqlite3.Connection:
        conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=FULL")
        conn.executescript(_SCHEMA)
        conn.execute("INSERT OR IGNORE INTO meta VALUES ('schema', ?)", (str(SCHEMA_VERSION),))
        return conn

    @classmethod
    def _salvage(cls, path: str, problems: list[str], exc: BaseException) -> sqlite3.Connection:
        """Move a malformed file aside and copy whatever rows can still be read."""
        rows: list[tuple[Any, ...]] = []
        series: list[tuple[Any, ...]] = []
        try:
            old = sqlite3.connect(path)
            with contextlib.suppress(sqlite3.DatabaseError):
                series = old.execute("SELECT id, started, config, finished FROM series").fetchall()
            seq = 0
            while True:
                try:
                    row = old.execute(
                        "SELECT seq, series, line, source, input, status, reason, at, crc "
                        "FROM inputs WHERE seq > ? ORDER BY seq LIMIT 1", (seq,)).fetchone()
                except sqlite3.DatabaseError:
                    break
                if row is None:
                    break
                rows.append(row)
                seq = row[0]
            old.close()
        except sqlite3.DatabaseError:
            pass
        aside = f"{path}.damaged-{int(time.time())}"
        for suffix in ("", "-wal", "-shm"):
            if os.path.exists(path + suffix):
                os.replace(path + suffix, aside + suffix)
        problems.append(
            f"the journal file was damaged ({exc}); {len(rows)} records were saved, "
            f"the damaged file is kept as {aside}")
        conn = cls._connect(path)
        conn.execute("BEGIN")
        conn.executemany("INSERT INTO series VALUES (?, ?, ?, ?)", series)
        conn.executemany("INSERT INTO inputs VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", rows)
        conn.execute("COMMIT")
        return conn

    def _drop_torn_tail(self, window: int = TAIL_WINDOW) -> None:
        """Find the first record that is damaged or out of sequence; drop it and all after.

        A torn write can only be at the end, so only the last ``window`` records are checked:
        opening stays quick when the journal holds a year of play.
        """
        expected = None
        bad_from = None
        for row in self._conn.execute(
            "SELECT seq, series, line, source, input, status, reason, crc FROM inputs "
            "WHERE seq > (SELECT COALESCE(MAX(seq), 0) FROM inputs) - ? ORDER BY seq", (window,)
        ):
            seq, series, line, source, text, status, reason, crc = row
            if (expected is not None and seq != expected) or crc != _crc(
                seq, series, line, source, text, status, reason
            ):
                bad_from = seq if expected is None or seq == expected else expected
                break
            expected = seq + 1
        if bad_from is None:
            return
        dropped = self._conn.execute(
            "SELECT COUNT(*) FROM inputs WHERE seq >= ?", (bad_from,)).fetchone()[0]
        self._conn.execute("DELETE FROM inputs WHERE seq >= ?", (bad_from,))
        self._next_seq = bad_from
        self.problems.append(
            f"the last {dropped} journal record(s) from #{bad_from} on were damaged "
            "(a torn write) and were dropped")

    # ---- series ------------------------------------------------------------------------------

    def start_series(self, config: Mapping[str, Any]) -> int:
        try:
            cur = self._conn.execute(
                "INSERT INTO series (started, config) VALUES (?, ?)",
                (time.time(), json.dumps(config, sort_keys=True, ensure_ascii=False)))
        except sqlite3.DatabaseError as exc:
            raise JournalError(_describe(exc)) from None
        return int(cur.lastrowid or 0)

    def open_series(self) -> tuple[int, dict[str, Any]] | None:
        """The latest series that is not finished: (id, the config it was started with)."""
        row = self._conn.execute(
            "SELECT id, config FROM series WHERE finished = 0 ORDER BY id DESC LIMIT 1"
        ).fetchone()
        return None if row is None else (row[0], json.loads(row[1]))

    def latest_series(self) -> tuple[int, dict[str, Any]] | None:
        """The latest series, finished or not: (id, the config it was started with)."""
        row = self._conn.execute(
            "SELECT id, config FROM series ORDER BY id DESC LIMIT 1").fetchone()
        return None if row is None else (row[0], json.loads(row[1]))

    def all_series(self) -> list[tuple[int, dict[str, Any], bool]]:
        return [(r[0], json.loads(r[1]), bool(r[2])) for r in self._conn.execute(
            "SELECT id, config, finished FROM series ORDER BY id")]

    def finish_series(self, series: int) -> None:
        try:
            self._conn.execute("UPDATE series SET finished = 1 WHERE id = ?", (series,))
        except sqlite3.DatabaseError as exc:
            raise JournalError(_describe(exc)) from None

    # ---- inputs --------------------------------------------------------------------------------

    def append(self, series: int, inp: Mapping[str, Any], status: str, *, line: int | None = None,
               source: str = "table", reason: str | None = None,
               at: float | None = None, durable: bool = True) -> None:
        """Write one input; raise :class:`JournalError` if the storage refuses.

        ``durable`` rows are fsync'd on commit. The others (inputs that changed nothing: a
        tag that left, a refusal) are only written: the WAL is append-only, so the next
        durable row's fsync makes them durable too, and a card picked up does not cost the
        next card laid an fsync's wait.
        """
        text = json.dumps(inp, sort_keys=True, ensure_ascii=False)
        seq = self._next_seq
        crc = _crc(seq, series, line, source, text, status, reason)
        try:
            if not durable:
                self._conn.execute("PRAGMA synchronous=OFF")
            try:
                self._conn.execute(
                    "INSERT INTO inputs VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (seq, series, line, source, text, status, reason,
                     time.time() if at is None else at, crc))
            finally:
                if not durable:
                    self._conn.execute("PRAGMA synchronous=FULL")
        except sqlite3.DatabaseError as exc:
            raise JournalError(_describe(exc)) from None
        self._next_seq = seq + 1

    @contextlib.contextmanager
    def batch(self) -> Iterator[None]:
        """Many appends in one transaction (imports, benchmarks): one fsync at the end."""
        self._conn.execute("BEGIN")
        try:
            yield
        except BaseException:
            self._conn.execute("ROLLBACK")
            raise
        self._conn.execute("COMMIT")

    def entries(self, series: int) -> list[Entry]:
        return list(self.iter_entries(series))

    def iter_entries(self, series: int) -> Iterator[Entry]:
        for row in self._conn.execute(
            "SELECT seq, series, line, source, input, status, reason, at FROM inputs "
            "WHERE series = ? ORDER BY seq", (series,)
        ):
            yield Entry(row[0], row[1], row[2], row[3], json.loads(row[4]), row[5], row[6], row[7])

    def last_line(self, series: int) -> int:
        row = self._conn.execute(
            "SELECT MAX(line) FROM inputs WHERE series = ?", (series,)).fetchone()
        return int(row[0] or 0)

    def close(self) -> None:
        # On a full disk the checkpoint fails: the WAL stays and is read back next time.
        with contextlib.suppress(sqlite3.DatabaseError):
            self._conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        self._conn.close()


def _is_damage(exc: BaseException) -> bool:
    text = str(exc).lower()
    return any(w in text for w in ("malformed", "not a database", "quick_check", "corrupt"))

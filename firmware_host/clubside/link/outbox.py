"""Where the link reads finished games: the controller's journal, read-only.

The journal (``firmware_host.series.journal``) writes a game's outbox item in the same transaction
as the game's last input and offers ``read_outbox(path, after_seq, limit)`` to another process: a
read-only reader that never takes the table's lock and verifies each item. :class:`JournalOutbox`
adapts it; any object with the same ``read`` method will do (tests, the bench).
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any, Protocol

from firmware_host.series.journal import OutboxRow

__all__ = ["JournalOutbox", "OutboxError", "OutboxRow", "OutboxSource"]


class OutboxError(Exception):
    """The outbox cannot be read now (the message says why); the link tries again later."""


class OutboxSource(Protocol):
    def read(self, after_seq: int, limit: int) -> list[Any]: ...


class JournalOutbox:
    """The outbox of the journal file at ``path``.

    Polled often (every 50 ms), it opens the database only when there may be something new:
    when the journal or its WAL file changed since the last read, or changed less than
    ``settle`` seconds ago, and in any case every ``recheck`` seconds. The WAL file changes
    when a commit's pages are written, but readers see the commit only when SQLite has
    synced them and updated its index (the ``-shm`` file, which a ``stat`` cannot follow); a
    read in between finds nothing new although the files will not change again. So a
    recent change is read again until it settles, and ``recheck`` bounds what a slow disk
    could still hide.
    """

    def __init__(self, path: str | Path, *, settle: float = 0.5, recheck: float = 1.0,
                 clock: Any = time.time) -> None:
        self.path = Path(path)
        self.settle = settle
        self.recheck = recheck
        self._clock = clock
        self._seen: tuple[Any, ...] | None = None
        self._read_at = float("-inf")

    def _stamp(self) -> tuple[tuple[Any, ...], float]:
        """What changes whenever the journal commits (the database and its WAL file), and
        when either last changed (epoch seconds)."""
        out: list[Any] = []
        newest = 0.0
        for p in (self.path, Path(f"{self.path}-wal")):
            try:
                st = p.stat()
                out += [st.st_mtime_ns, st.st_size, st.st_ino]
                newest = max(newest, st.st_mtime_ns / 1e9)
            except OSError:
                out += [None, None, None]
        return tuple(out), newest

    def read(self, after_seq: int, limit: int) -> list[Any]:
        """New items after ``after_seq`` (see the class docstring for when it looks)."""
        from firmware_host.series import journal

        files, newest = self._stamp()
        stamp = (after_seq, *files)
        # Wall time against the files' times; the monotonic clock for "how long since": a clock
        # set back (a Pi without a battery clock at boot) costs a few reads, never a stall.
        now, tick = self._clock(), time.monotonic()
        if (stamp == self._seen and now - newest > self.settle
                and tick - self._read_at < self.recheck):
            return []
        reader = getattr(journal, "read_outbox", None)
        if reader is None:
            raise OutboxError("this version of the journal keeps no outbox")
        try:
            rows = list(reader(self.path, after_seq, limit))
        except journal.JournalError as exc:
            raise OutboxError(str(exc)) from None
        self._seen = stamp if len(rows) < limit else None
        self._read_at = tick
        return rows

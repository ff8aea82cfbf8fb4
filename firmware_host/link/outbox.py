"""Where the link reads finished games: the controller's journal, read-only.

The journal (``firmware_host.journal``) writes a game's outbox item in the same transaction as
the game's last input and offers ``read_outbox(path, after_seq, limit)`` to another process: a
read-only reader that never takes the table's lock and verifies each item. :class:`JournalOutbox`
adapts it; any object with the same ``read`` method will do (tests, the bench).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol


@dataclass(frozen=True)
class OutboxRow:
    """One finished game (or a revision of one) as the outbox holds it: ``seq`` orders the
    outbox (ascending), ``n`` numbers the items of one journal record."""

    seq: int
    n: int
    series: int
    game: int
    revision: int
    payload: dict[str, Any]


class OutboxError(Exception):
    """The outbox cannot be read now (the message says why); the link tries again later."""


class OutboxSource(Protocol):
    def read(self, after_seq: int, limit: int) -> list[Any]: ...


class JournalOutbox:
    """The outbox of the journal file at ``path``."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._seen: tuple[Any, ...] | None = None

    def _stamp(self) -> tuple[Any, ...]:
        """What changes whenever the journal commits (the database and its WAL file)."""
        out: list[Any] = []
        for p in (self.path, Path(f"{self.path}-wal")):
            try:
                st = p.stat()
                out += [st.st_mtime_ns, st.st_size, st.st_ino]
            except OSError:
                out += [None, None, None]
        return tuple(out)

    def read(self, after_seq: int, limit: int) -> list[Any]:
        """New items after ``after_seq``. Polled often: when neither file changed since the
        last read that was not cut short by ``limit``, the database is not opened at all."""
        from firmware_host import journal

        stamp = (after_seq, *self._stamp())
        if stamp == self._seen:
            return []
        reader = getattr(journal, "read_outbox", None)
        if reader is None:
            raise OutboxError("this version of the journal keeps no outbox")
        try:
            rows = list(reader(self.path, after_seq, limit))
        except journal.JournalError as exc:
            raise OutboxError(str(exc)) from None
        self._seen = stamp if len(rows) < limit else None
        return rows

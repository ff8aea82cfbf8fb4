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

    def read(self, after_seq: int, limit: int) -> list[Any]:
        from firmware_host import journal

        try:
            return list(journal.read_outbox(self.path, after_seq, limit))
        except journal.JournalError as exc:
            raise OutboxError(str(exc)) from None

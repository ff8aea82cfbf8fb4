"""The one event vocabulary every reader backend and the GPIO layer speak.

Drivers never raise out of their threads: whatever happens at the hardware becomes one of these
values, posted to the controller through an :data:`EventSink` (a callable, or anything with a
``put`` method such as :class:`queue.Queue`).

>>> TagLaid("seat1", "04a224b2c94f80", 12.5)
TagLaid(zone='seat1', uid='04a224b2c94f80', at=12.5)
>>> str(ReaderFault("spi0.1", "centre", "reader answers all ones: not connected?"))
'reader spi0.1 (centre): reader answers all ones: not connected?'

Times (``at``) are seconds on the monotonic clock the backend runs on (``time.monotonic()`` on
the table).
"""

from __future__ import annotations

import logging
import queue
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol


@dataclass(frozen=True, slots=True)
class TagLaid:
    """A tag was laid in a zone (debounced: it counts once until it has gone again)."""

    zone: str
    uid: str
    at: float


@dataclass(frozen=True, slots=True)
class TagGone:
    """A tag that was laid in a zone has left it."""

    zone: str
    uid: str
    at: float


@dataclass(frozen=True, slots=True)
class ReaderFault:
    """A reader (or a whole reader board, then ``zone`` is None) stopped working."""

    reader: str
    zone: str | None
    message: str

    def __str__(self) -> str:
        where = f" ({self.zone})" if self.zone else ""
        return f"reader {self.reader}{where}: {self.message}"


@dataclass(frozen=True, slots=True)
class ReaderBack:
    """A reader that had a fault works again."""

    reader: str
    zone: str | None


@dataclass(frozen=True, slots=True)
class TagUnreadable:
    """A tag on a zone answers but cannot be read (a damaged sticker, or one at the edge of the
    field): said once, until the zone reads cleanly again. The reader works.

    >>> str(TagUnreadable("spi0.0", "seat1"))
    'a card on seat1 cannot be read: move it a little'
    """

    reader: str
    zone: str

    def __str__(self) -> str:
        return f"a card on {self.zone} cannot be read: move it a little"


@dataclass(frozen=True, slots=True)
class ButtonPress:
    """A seat's button was pressed and released (``button`` is ``"bid"`` or ``"pass"``)."""

    seat: int
    button: str


@dataclass(frozen=True, slots=True)
class ButtonHold:
    """A seat's button was held down (the long press: undo)."""

    seat: int
    button: str


TagEvent = TagLaid | TagGone
Event = (TagLaid | TagGone | ReaderFault | ReaderBack | TagUnreadable | ButtonPress
         | ButtonHold)


class _HasPut(Protocol):
    def put(self, item: Event) -> None: ...


EventSink = Callable[[Event], None] | _HasPut | queue.Queue


def as_callback(sink: EventSink | None) -> Callable[[Event], None]:
    """Turn a callable, a queue or None into one posting function.

    >>> seen = []
    >>> as_callback(seen.append)(ReaderBack("spi0.0", "deal"))
    >>> seen
    [ReaderBack(reader='spi0.0', zone='deal')]
    """
    if sink is None:
        return lambda event: None
    put = getattr(sink, "put", None)
    if callable(put):
        return put
    if callable(sink):
        return sink
    raise TypeError(f"on_event must be a callable or a queue, not {type(sink).__name__}")


def guarded(post: Callable[[Event], None], logger: logging.Logger) -> Callable[[Event], None]:
    """``post`` for a driver thread: an exception in the receiver is logged, never raised
    into the thread (which would stop the readers for good).

    >>> def broken(event):
    ...     raise RuntimeError("bug")
    >>> guarded(broken, logging.getLogger("test"))(ReaderBack("x", None))
    """

    def post_safely(event: Event) -> None:
        try:
            post(event)
        except Exception:
            logger.exception("the receiver of %r failed", event)

    return post_safely

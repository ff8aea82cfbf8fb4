"""The scripted backend: tag lines of a table script, fed in by ``skat-table replay`` and the
simulator, turned into the same events the real readers post.

Script lines are already debounced ("a tag line is a debounced laid event"), so each item is
applied as a confirmed report: the same tag again in the same zone with no ``gone`` between
changes nothing, and a ``gone`` for a tag that is not there changes nothing.

>>> events = []
>>> readers = ScriptedReaders(events.append)
>>> readers.feed("deal", "04A224B2C94F80")
[TagLaid(zone='deal', uid='04a224b2c94f80', at=0.0)]
>>> readers.feed("deal", "04a224b2c94f80")
[]
>>> readers.feed("deal", "04a224b2c94f80", gone=True)
[TagGone(zone='deal', uid='04a224b2c94f80', at=0.0)]
>>> parse_tag_line({"zone": "seat1", "tag": "04a224b2c94f80", "gone": True})
('seat1', '04a224b2c94f80', True)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from drivers.clock import Clock, VirtualClock
from drivers.events import Event
from drivers.uids import normalize_uid
from drivers.zones import ZoneTracker, check_zone

TagItem = tuple[str, str, bool]


def parse_tag_line(obj: Mapping[str, Any]) -> TagItem | None:
    """(zone, uid, gone) of a table-script tag line, None for other lines.

    Raises ValueError (ZoneError, UidError) with a readable reason for a bad zone or UID.
    """
    if "tag" not in obj:
        return None
    zone = check_zone(obj.get("zone"))
    return zone, normalize_uid(str(obj["tag"])), bool(obj.get("gone", False))


class ScriptedReaders:
    """A reader backend driven by the caller: ``feed`` one tag line at a time.

    ``items`` given at construction are fed, in order, by :meth:`start`.
    ``feed`` returns the events it produced (also posted to ``on_event``), so a replay can tie
    each event to its script line.
    """

    def __init__(
        self,
        on_event: Callable[[Event], None],
        items: Iterable[TagItem] = (),
        *,
        clock: Clock | None = None,
    ) -> None:
        self._post = on_event
        self._produced: list[Event] = []
        self.tracker = ZoneTracker(self._record)
        self.clock = clock or VirtualClock()
        self._items = list(items)

    def _record(self, event: Event) -> None:
        self._produced.append(event)
        self._post(event)

    def feed(self, zone: str, uid: str, gone: bool = False, at: float | None = None) -> list[Event]:
        """Apply one tag line; raises ValueError (bad zone or UID) and then changes nothing."""
        zone = check_zone(zone)
        uid = normalize_uid(uid)
        now = self.clock.now() if at is None else at
        self._produced = []
        if gone:
            self.tracker.gone(zone, uid, now)
        else:
            self.tracker.laid(zone, uid, now)
        return self._produced

    def start(self) -> None:
        items, self._items = self._items, []
        for zone, uid, gone in items:
            self.feed(zone, uid, gone)

    def close(self) -> None:
        self._items = []

"""Debouncing, in one place: turns raw reads and board reports into ``TagLaid``/``TagGone``.

Every backend feeds one :class:`ZoneTracker`:

- ``seen(zone, uid, now)``: a raw read (MFRC522 polling). A tag counts as laid after
  ``laid_after_reads`` identical reads (2 by default) and as gone after ``gone_after`` seconds
  unseen (1.0 by default, checked by ``expire(now)``).
- ``laid(zone, uid, now)`` / ``gone(zone, uid, now)``: reports that are already debounced (a
  serial reader board, the scripted backend). No timer applies to them.
- ``resync(zones, present, now)``: after a reconnection, what a board says is present now; tags
  missing from it are gone, new ones are laid, the rest changes nothing.

A tag seen again in a zone where it already lies changes nothing.

Each zone remembers at most ``max_tags`` tags (:data:`MAX_TAGS_PER_ZONE`): beyond that the one
laid or seen longest ago is forgotten, with a ``TagGone`` if it counted as laid. A zone holds a
few cards; only a flood of distinct UIDs (foreign stickers, lost GONE lines, a faulty board)
reaches the bound, and without it 100,000 of them kept 24 MB.

>>> events = []
>>> zt = ZoneTracker(events.append)
>>> zt.seen("deal", "04a224b2", 0.0); zt.seen("deal", "04a224b2", 0.1)
>>> zt.seen("deal", "04a224b2", 0.2)
>>> zt.expire(0.9); zt.expire(1.3)
>>> [type(e).__name__ for e in events]
['TagLaid', 'TagGone']
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from drivers.events import Event, TagGone, TagLaid
from drivers.quoting import quoted

ZONES = ("deal", "centre", "skat", "seat0", "seat1", "seat2", "seat3")
MAX_TAGS_PER_ZONE = 4096  # far more than a zone ever holds; about 1 MB a zone at most


class ZoneError(ValueError):
    """A zone name that the table does not have."""


def check_zone(name: object) -> str:
    """The zone name, or :class:`ZoneError` naming the zones there are.

    >>> check_zone("centre")
    'centre'
    >>> check_zone("center")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    drivers.zones.ZoneError: there is no zone 'center': the zones are deal, centre, skat, ...
    """
    if name not in ZONES:
        raise ZoneError(f"there is no zone {quoted(name)}: the zones are {', '.join(ZONES)}")
    return name  # type: ignore[return-value]


@dataclass(slots=True)
class _Track:
    reads: int
    last_seen: float
    laid: bool
    timed: bool  # True for raw reads (expire after gone_after), False for confirmed reports


class ZoneTracker:
    """The state of every zone: which tags lie there, which are still being confirmed.

    Thread-safe: several backends may share one tracker. Events are posted while the tracker's
    lock is held, so they leave in the order the changes happened.
    """

    def __init__(
        self,
        post: Callable[[Event], None],
        laid_after_reads: int = 2,
        gone_after: float = 1.0,
        max_tags: int = MAX_TAGS_PER_ZONE,
    ) -> None:
        if laid_after_reads < 1:
            raise ValueError(f"laid_after_reads must be at least 1, not {laid_after_reads}")
        if gone_after <= 0:
            raise ValueError(f"gone_after must be a positive number of seconds, not {gone_after}")
        if max_tags < 1:
            raise ValueError(f"max_tags must be at least 1, not {max_tags}")
        self._post = post
        self.laid_after_reads = laid_after_reads
        self.gone_after = gone_after
        self.max_tags = max_tags
        # In the order last laid or seen (a touched track moves to the end): the oldest of a
        # zone is the first of it, to forget when the zone is full.
        self._tracks: dict[tuple[str, str], _Track] = {}
        self._per_zone: dict[str, int] = {}
        self._lock = threading.RLock()

    def present(self, zone: str) -> set[str]:
        """The UIDs that count as laid in ``zone`` now."""
        with self._lock:
            return {uid for (z, uid), t in self._tracks.items() if z == zone and t.laid}

    def _touch(self, key: tuple[str, str], track: _Track | None, now: float) -> None:
        """Make ``track`` the newest of its zone (None: remove the key), forgetting the zone's
        oldest track when a new one makes it more than ``max_tags``."""
        old = self._tracks.pop(key, None)
        if track is not None:
            self._tracks[key] = track
        if old is None and track is not None:
            zone = key[0]
            self._per_zone[zone] = self._per_zone.get(zone, 0) + 1
            if self._per_zone[zone] > self.max_tags:
                oldest = next(k for k in self._tracks if k[0] == zone)
                self._forget(oldest, now)
        elif old is not None and track is None:
            self._per_zone[key[0]] -= 1

    def _forget(self, key: tuple[str, str], now: float) -> _Track | None:
        track = self._tracks.pop(key, None)
        if track is not None:
            self._per_zone[key[0]] -= 1
            if track.laid:  # the table forgets it too: laid again, it is laid anew
                self._post(TagGone(key[0], key[1], now))
        return track

    def seen(self, zone: str, uid: str, now: float) -> None:
        with self._lock:
            track = self._tracks.get((zone, uid))
            if track is None:
                track = _Track(0, now, False, True)
            self._touch((zone, uid), track, now)
            track.reads += 1
            track.last_seen = now
            if not track.laid and track.reads >= self.laid_after_reads:
                track.laid = True
                self._post(TagLaid(zone, uid, now))

    def seen_all(self, zone: str, uids: Iterable[str], now: float) -> None:
        with self._lock:
            for uid in dict.fromkeys(uids):  # a pass reads a tag once: drop repeats, keep order
                self.seen(zone, uid, now)

    def laid(self, zone: str, uid: str, now: float) -> None:
        with self._lock:
            track = self._tracks.get((zone, uid))
            if track is not None and track.laid:
                track.last_seen = now
                self._touch((zone, uid), track, now)
                return
            self._touch((zone, uid), _Track(self.laid_after_reads, now, True, False), now)
            self._post(TagLaid(zone, uid, now))

    def gone(self, zone: str, uid: str, now: float) -> None:
        with self._lock:
            track = self._tracks.get((zone, uid))
            self._touch((zone, uid), None, now)
            if track is not None and track.laid:
                self._post(TagGone(zone, uid, now))

    def expire(self, now: float, frozen: Iterable[str] = ()) -> None:
        """Report as gone every raw-read tag unseen for ``gone_after`` seconds.

        Zones in ``frozen`` (their reader is faulty: nobody can tell) keep their tags.
        """
        keep = set(frozen)
        with self._lock:
            for key, track in list(self._tracks.items()):
                if track.timed and key[0] not in keep and now - track.last_seen >= self.gone_after:
                    self._touch(key, None, now)
                    if track.laid:
                        self._post(TagGone(key[0], key[1], now))

    def resync(self, zones: Iterable[str], present: Iterable[tuple[str, str]], now: float) -> None:
        """Make ``zones`` hold exactly ``present`` ((zone, uid) pairs), posting only changes."""
        zone_set = set(zones)
        wanted = set(present)
        with self._lock:
            for key in [k for k in self._tracks if k[0] in zone_set and k not in wanted]:
                self.gone(key[0], key[1], now)
            for zone, uid in sorted(wanted):
                self.laid(zone, uid, now)

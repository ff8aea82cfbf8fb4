"""The debouncer's memory stays bounded: a reader board reporting a flood of distinct tags
laid (25,000 in make test, 100,000 in make test-full; and none gone: foreign stickers, lost
GONE lines, a faulty board) costs a fixed amount, and a tag laid recently is still known to
lie there."""

from __future__ import annotations

import random
import tracemalloc

from feedport import FeedPort
from fullrun import size

from drivers.clock import VirtualClock
from drivers.events import Event, TagGone, TagLaid
from drivers.serial_board import SerialBoard, frame
from drivers.zones import ZoneTracker

# distinct tags of the flood: enough that a few dozen bytes kept per tag break the bound
FLOOD = size(25_000, 100_000)


def test_a_flood_of_distinct_tags_from_a_board_grows_memory_by_under_2_mb() -> None:
    counts = {"laid": 0, "gone": 0}
    last: list[Event] = []

    def count(event: Event) -> None:  # keeps no event: only the tracker's memory is measured
        if isinstance(event, TagLaid):
            counts["laid"] += 1
        elif isinstance(event, TagGone):
            counts["gone"] += 1
        last[:] = [event]

    rng = random.Random(3)
    uids = [f"04{rng.getrandbits(48):012x}" for _ in range(FLOOD)]
    lines = ["HELLO sim 1 1.0 2", "0 READY"] + [f"{i + 1} LAID 0 {u}"
                                                for i, u in enumerate(uids)]
    data = b"".join(frame(t) for t in lines)
    del uids, lines  # only what the host keeps counts
    clock = VirtualClock()
    host = SerialBoard("/dev/null-board", {0: "centre"}, count, name="b", clock=clock,
                       heartbeat_timeout=1e9, serial_factory=lambda *a: None)
    host._ser = FeedPort(data, host, clock)
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        host._session()
        del data
        host._ser = None
        grown = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert counts["laid"] == FLOOD and host.syncs == 1
    assert grown < 2_000_000, f"{grown:,} bytes"


def test_a_tag_laid_recently_is_still_known_and_one_forgotten_is_reported_gone() -> None:
    events: list[Event] = []
    tracker = ZoneTracker(events.append)
    uids = [f"04{n:012x}" for n in range(20_000)]
    for t, uid in enumerate(uids):
        tracker.laid("centre", uid, float(t))
    recent = set(uids[-1000:])
    assert recent <= tracker.present("centre")
    events.clear()
    for uid in recent:  # reported again without having gone: nothing new
        tracker.laid("centre", uid, 30_000.0)
    assert events == []
    tracker.gone("centre", uids[-1], 30_001.0)
    assert events == [TagGone("centre", uids[-1], 30_001.0)]
    # The oldest were forgotten with a TagGone each, so the table forgets them too, and one
    # laid again is a new TagLaid.
    assert uids[0] not in tracker.present("centre")
    tracker.laid("centre", uids[0], 30_002.0)
    assert events[-1] == TagLaid("centre", uids[0], 30_002.0)


def test_other_zones_keep_their_tags_during_a_flood() -> None:
    tracker = ZoneTracker(lambda e: None)
    tracker.laid("seat0", "04aabbccddeeff", 0.0)
    for n in range(20_000):
        tracker.laid("centre", f"04{n:012x}", 1.0 + n)
    assert tracker.present("seat0") == {"04aabbccddeeff"}

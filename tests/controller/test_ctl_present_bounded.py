"""What the table remembers as lying on its readers stays bounded: a flood of distinct tags
(foreign stickers, a reader board inventing UIDs) costs a fixed amount of memory, and a tag
laid recently is still known to lie there."""

from __future__ import annotations

import random
import tracemalloc

from fullrun import size

from firmware_host.config import simulated_config
from firmware_host.table.controller import Table
from firmware_host.table.inputs import TagGone, TagLaid

# distinct tags of the flood: enough that a few dozen bytes kept per tag break the bound
FLOOD = size(25_000, 100_000)


def test_a_flood_of_distinct_tags_grows_memory_by_under_2_mb() -> None:
    table = Table(simulated_config(computer_seats=()))
    rng = random.Random(5)
    statuses: dict[str, int] = {}
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        for _ in range(FLOOD):
            uid = f"04{rng.getrandbits(48):012x}"  # made here: the table keeps it or not
            status = table.handle(TagLaid("deal", uid)).status
            statuses[status] = statuses.get(status, 0) + 1
        grown = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert statuses == {"refused": FLOOD}  # not a card of this deck, each one
    assert grown < 2_000_000, f"{grown:,} bytes"


def test_a_tag_laid_recently_is_still_known_to_lie_there() -> None:
    table = Table(simulated_config(computer_seats=()))
    rng = random.Random(6)
    uids = [f"04{rng.getrandbits(48):012x}" for _ in range(20_000)]
    for uid in uids:
        assert table.handle(TagLaid("deal", uid)).status == "refused"
    # The last thousand read again (a board's resync, a reader's hiccup): nothing new.
    for uid in uids[-1000:]:
        out = table.handle(TagLaid("deal", uid))
        assert out.status == "ignored" and "still lies" in (out.note or ""), out
    # A card of the deck laid after the flood is taken once, and once only.
    tag = next(iter(table.config.deck))
    assert table.handle(TagLaid("deal", tag)).status == "accepted"
    assert table.handle(TagLaid("deal", tag)).status == "ignored"
    # Taken away and laid again: a foreign tag is refused again, as before.
    table.handle(TagGone("deal", uids[-1]))
    assert table.handle(TagLaid("deal", uids[-1])).status == "refused"

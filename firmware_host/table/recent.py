"""A set of tag UIDs that forgets its oldest members beyond a bound: what lies on a reader.

The table remembers which tags lie in each zone so that a tag read again without having gone
changes nothing, and a foreign tag is refused once, not at every read. A zone holds a few cards
at a time, but a stream of distinct UIDs (stickers of other decks swept over a pad, a faulty
board inventing UIDs, TagGone events lost) would otherwise be kept forever: 100,000 of them
cost about 10 MB. Beyond :data:`MAX_TAGS_PER_ZONE` the tag added or seen longest ago is
forgotten; read again, it is treated as newly laid.

>>> tags = RecentTags(limit=2)
>>> tags.add("04aa"); tags.add("04bb"); tags.add("04aa"); tags.add("04cc")
>>> sorted(tags)  # 04bb was laid longest ago: 04aa was laid again since
['04aa', '04cc']
>>> tags == {"04aa", "04cc"}
True
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, MutableSet

# The debouncer's bound too: far more than a zone ever holds (32 cards), so only a flood of
# strangers reaches it, and the memory stays under about 0.6 MB a zone.
from drivers.zones import MAX_TAGS_PER_ZONE


class RecentTags(MutableSet[str]):
    """An insertion-ordered set of at most ``limit`` tags; adding one again makes it newest."""

    __slots__ = ("_tags", "limit")

    def __init__(self, tags: Iterable[str] = (), limit: int = MAX_TAGS_PER_ZONE) -> None:
        self._tags: dict[str, None] = {}
        self.limit = limit
        for tag in tags:
            self.add(tag)

    @classmethod
    def _from_iterable(cls, it: Iterable[str]) -> RecentTags:
        return cls(it)

    def __contains__(self, tag: object) -> bool:
        return tag in self._tags

    def __iter__(self) -> Iterator[str]:
        return iter(self._tags)

    def __len__(self) -> int:
        return len(self._tags)

    def __repr__(self) -> str:
        return f"RecentTags({list(self._tags)!r})"

    def add(self, tag: str) -> None:
        self._tags.pop(tag, None)  # to the end: the newest
        self._tags[tag] = None
        while len(self._tags) > self.limit:
            del self._tags[next(iter(self._tags))]

    def discard(self, tag: str) -> None:
        self._tags.pop(tag, None)

    def update(self, tags: Iterable[str]) -> None:
        for tag in tags:
            self.add(tag)

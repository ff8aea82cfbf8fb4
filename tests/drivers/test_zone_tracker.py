"""Debouncing: laid after N identical reads, gone after a time unseen, repeats change nothing."""

from __future__ import annotations

import doctest
import importlib
import pkgutil
import queue

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import drivers
from drivers.events import ReaderBack, TagGone, TagLaid, as_callback
from drivers.scripted import ScriptedReaders, parse_tag_line
from drivers.uids import UidError, normalize_uid
from drivers.zones import ZoneError, ZoneTracker

U = "04a224b2c94f80"


def test_laid_after_two_reads_gone_after_a_second_unseen() -> None:
    events: list = []
    zt = ZoneTracker(events.append)
    zt.seen("deal", U, 0.0)
    assert events == []
    zt.seen("deal", U, 0.1)
    assert events == [TagLaid("deal", U, 0.1)]
    for t in (0.2, 0.3, 0.4):
        zt.seen("deal", U, t)
        zt.expire(t)
    zt.expire(1.375)
    assert len(events) == 1
    zt.expire(1.5)
    assert events[1] == TagGone("deal", U, 1.5)


def test_a_single_glitchy_read_is_never_a_card() -> None:
    events: list = []
    zt = ZoneTracker(events.append)
    zt.seen("deal", U, 0.0)
    zt.expire(5.0)
    zt.seen("deal", U, 6.0)
    assert events == []


def test_thresholds_are_configurable_and_checked() -> None:
    events: list = []
    zt = ZoneTracker(events.append, laid_after_reads=3, gone_after=0.5)
    for t in (0.0, 0.1):
        zt.seen("seat0", U, t)
    assert events == []
    zt.seen("seat0", U, 0.2)
    zt.expire(0.75)
    assert [type(e) for e in events] == [TagLaid, TagGone]
    with pytest.raises(ValueError, match="laid_after_reads"):
        ZoneTracker(events.append, laid_after_reads=0)
    with pytest.raises(ValueError, match="gone_after"):
        ZoneTracker(events.append, gone_after=0)


def test_same_tag_in_two_zones_is_two_cards_and_frozen_zones_keep_tags() -> None:
    events: list = []
    zt = ZoneTracker(events.append, laid_after_reads=1)
    zt.seen("deal", U, 0.0)
    zt.seen("centre", U, 0.0)
    zt.expire(2.0, frozen={"centre"})
    assert events[-1] == TagGone("deal", U, 2.0)
    assert zt.present("centre") == {U}


def test_confirmed_reports_and_resync() -> None:
    events: list = []
    zt = ZoneTracker(events.append)
    zt.laid("seat0", U, 0.0)
    zt.laid("seat0", U, 0.5)  # again: nothing
    zt.gone("seat1", U, 0.5)  # not there: nothing
    zt.expire(10.0)  # confirmed reports never time out
    assert events == [TagLaid("seat0", U, 0.0)]
    zt.resync(["seat0", "seat1"], [("seat1", "deadbeef")], 11.0)
    assert events[1:] == [TagGone("seat0", U, 11.0), TagLaid("seat1", "deadbeef", 11.0)]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["seen", "expire"]), st.sampled_from(["a", "b"]),
                          st.floats(0.0, 0.8)), max_size=60))
def test_laid_and_gone_alternate_per_zone_and_tag(steps) -> None:
    events: list = []
    zt = ZoneTracker(events.append)
    now = 0.0
    for op, uid, dt in steps:
        now += dt
        if op == "seen":
            zt.seen("deal", uid * 8, now)
        else:
            zt.expire(now)
    for uid in ("a" * 8, "b" * 8):
        kinds = [type(e) for e in events if e.uid == uid]
        assert kinds == [TagLaid, TagGone] * (len(kinds) // 2) + [TagLaid] * (len(kinds) % 2)
        assert (uid in zt.present("deal")) == (len(kinds) % 2 == 1)


def test_event_sinks() -> None:
    q: queue.Queue = queue.Queue()
    as_callback(q)(ReaderBack("x", None))
    assert q.get_nowait() == ReaderBack("x", None)
    with pytest.raises(TypeError, match="callable or a queue"):
        as_callback(42)  # type: ignore[arg-type]


def test_uids() -> None:
    assert normalize_uid(" 04-A2-24-B2 ") == "04a224b2"
    with pytest.raises(UidError, match="has 3 bytes"):
        normalize_uid("04a224")


def test_scripted_backend() -> None:
    events: list = []
    readers = ScriptedReaders(events.append, [("deal", U, False), ("deal", U, True)])
    readers.start()
    assert [type(e) for e in events] == [TagLaid, TagGone]
    assert readers.feed("seat2", U) == [TagLaid("seat2", U, 0.0)]
    with pytest.raises(ZoneError, match="no zone 'seat9'"):
        readers.feed("seat9", U)
    with pytest.raises(UidError):
        readers.feed("deal", "not-hex")
    assert parse_tag_line({"seat": 1, "press": "bid"}) is None
    assert parse_tag_line({"zone": "skat", "tag": U.upper()}) == ("skat", U, False)


def _driver_modules() -> list[str]:
    return [info.name for info in pkgutil.walk_packages(drivers.__path__, "drivers.")]


@pytest.mark.parametrize("name", _driver_modules())
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0

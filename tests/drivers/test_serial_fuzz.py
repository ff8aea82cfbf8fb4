"""Hypothesis against the serial board host: whatever bytes arrive (valid protocol-2 lines with
characters changed, dropped or doubled, noise, protocol-1 lines, huge lines), the host never
raises, never reports a tag that no valid line carried, and a stream of garbage alone is a
fault, never a sign of life."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from drivers.clock import VirtualClock
from drivers.events import Event, ReaderFault, TagLaid
from drivers.serial_board import SerialBoard, frame

ZONES = {0: "seat0", 1: "seat1", 2: "seat2"}


class WirePort:
    """A serial port that hands out given bytes in chunks; the clock moves 10 ms a read."""

    def __init__(self, data: bytes, clock: VirtualClock, chunks: random.Random) -> None:
        self.data, self.clock, self.rng = data, clock, chunks
        self.sent: list[bytes] = []

    @property
    def in_waiting(self) -> int:
        return min(len(self.data), self.rng.randrange(1, 64))

    def read(self, n: int) -> bytes:
        self.clock.advance(0.01)
        out, self.data = self.data[:n], self.data[n:]
        return out

    def write(self, data: bytes) -> None:
        self.sent.append(data)

    def flush(self) -> None:
        pass

    def close(self) -> None:
        pass


def session(data: bytes, seed: int) -> tuple[list[Event], SerialBoard]:
    events: list[Event] = []
    clock = VirtualClock()
    host = SerialBoard("/dev/null-board", ZONES, events.append, name="b", clock=clock,
                       heartbeat_timeout=0.5, serial_factory=lambda *a: None)
    host._ser = WirePort(data, clock, random.Random(seed))
    host._session()  # returns when the bytes are used up and the heartbeat is missed
    return events, host


@st.composite
def streams(draw: st.DrawFn) -> tuple[bytes, set[tuple[str, str]]]:
    """A board's output after power-up with its lines damaged on the wire, and the tags its
    valid lines carry."""
    tags = draw(st.lists(st.tuples(st.integers(0, 2), st.text("0123456789abcdef", min_size=12,
                                                               max_size=12)),
                         max_size=8, unique=True))
    lines = ["HELLO sim 3 1.0 2"] + [f"{i} LAID {r} 04{u}" for i, (r, u) in enumerate(tags)]
    lines.append(f"{len(tags)} READY")
    rng = random.Random(draw(st.integers(0, 2**32)))
    out = b""
    for text in lines:
        raw = frame(text)
        damage = draw(st.sampled_from(["none", "none", "change", "drop", "double", "noise",
                                       "v1"]))
        if damage == "change":
            i = rng.randrange(len(raw) - 1)
            raw = raw[:i] + bytes([rng.choice([c for c in range(0x20, 0x7F)
                                               if c != raw[i]])]) + raw[i + 1:]
        elif damage == "drop":
            raw = b""
        elif damage == "double":
            raw += raw
        elif damage == "noise":
            raw = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 300))) + raw
        elif damage == "v1":
            raw = text.encode() + b"\n"
        out += raw
    valid = {(ZONES[r], f"04{u}") for r, u in tags}
    return out, valid


@settings(max_examples=300, deadline=None)
@given(streams(), st.integers(0, 1000))
def test_damaged_lines_never_deliver_a_wrong_tag(stream: tuple[bytes, set], seed: int) -> None:
    data, valid = stream
    events, _host = session(data, seed)
    laid = {(e.zone, e.uid) for e in events if isinstance(e, TagLaid)}
    assert laid <= valid  # a tag from a damaged line never arrives


@settings(max_examples=200, deadline=None)
@given(st.binary(min_size=1, max_size=4000), st.integers(0, 1000))
def test_garbage_alone_is_a_fault_never_life(noise: bytes, seed: int) -> None:
    events, host = session(noise, seed)
    assert not host.connected.is_set()
    assert not [e for e in events if isinstance(e, TagLaid)]
    faults = [e for e in events if isinstance(e, ReaderFault) and e.zone is None]
    assert faults, events  # said: no heartbeat, garbage, or no answer to SYNC


def test_an_undamaged_stream_delivers_every_tag() -> None:
    tags = [(0, "04aabbccddeeff"), (2, "04deadbeef0102")]
    lines = ["HELLO sim 3 1.0 2", *(f"{i} LAID {r} {u}" for i, (r, u) in enumerate(tags)),
             "2 READY"]
    events, host = session(b"".join(frame(t) for t in lines), 1)
    assert {(e.zone, e.uid) for e in events if isinstance(e, TagLaid)} == {
        ("seat0", "04aabbccddeeff"), ("seat2", "04deadbeef0102")}
    assert host.syncs == 1

"""Serial reader boards over a real pseudo-terminal with pyserial, unplugged and replugged."""

from __future__ import annotations

import logging
import os
import queue
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from drivers.boardsim import PtyBoard
from drivers.events import Event, ReaderBack, ReaderFault, TagGone, TagLaid
from drivers.serial_board import ProtocolError, SerialBoard, parse_line

UID_A, UID_B, UID_C = "04a224b2c94f80", "04a224b2c94f81", "deadbeef"
ZONES = {0: "seat0", 1: "seat1", 2: "centre"}


class Collector:
    def __init__(self) -> None:
        self.queue: queue.Queue[Event] = queue.Queue()
        self.seen: list[Event] = []

    def wait_for(self, pred: Callable[[Event], bool], timeout: float = 8.0) -> Event:
        """The first new event matching ``pred``; fails the test if none comes in time."""
        end = time.monotonic() + timeout
        while True:
            left = end - time.monotonic()
            if left <= 0:
                raise AssertionError(f"no such event; got {self.seen}")
            try:
                event = self.queue.get(timeout=left)
            except queue.Empty:
                continue
            self.seen.append(event)
            if pred(event):
                return event

    def drain(self) -> list[Event]:
        out = []
        while True:
            try:
                out.append(self.queue.get_nowait())
            except queue.Empty:
                self.seen += out
                return out


@pytest.fixture
def rig(tmp_path: Path) -> Iterator[tuple[PtyBoard, SerialBoard, Collector]]:
    board = PtyBoard(str(tmp_path / "platform-usb-0:1.3:1.0-port0"), readers=3, heartbeat=0.1)
    events = Collector()
    host = SerialBoard(board.link, ZONES, events.queue.put, name="board0",
                       heartbeat_timeout=0.8, backoff=(0.05, 0.2))
    yield board, host, events
    host.close()
    board.unplug()


def laid(zone: str, uid: str) -> Callable[[Event], bool]:
    return lambda e: isinstance(e, TagLaid) and (e.zone, e.uid) == (zone, uid)


def test_hello_and_tags(rig) -> None:
    board, host, events = rig
    board.tags[0].append(UID_A)  # lying there before the host connects
    board.plug()
    host.start()
    events.wait_for(laid("seat0", UID_A))
    assert host.connected.wait(5)
    assert host.board_name == "sim-board"
    board.lay(2, UID_B)
    events.wait_for(laid("centre", UID_B))
    board.lift(2, UID_B)
    events.wait_for(lambda e: isinstance(e, TagGone) and e.uid == UID_B)
    board.lay(0, UID_A)  # the same tag again in the same zone changes nothing
    board.lay(1, UID_C)
    events.wait_for(laid("seat1", UID_C))
    assert [e for e in events.seen if isinstance(e, TagLaid) and e.uid == UID_A] == [
        events.seen[0]]


def test_a_gap_in_the_sequence_is_reported_and_healed(rig) -> None:
    board, host, events = rig
    board.plug()
    host.start()
    assert host.connected.wait(5)
    board.skip(2)  # two messages lost on the wire...
    board.tags[1].append(UID_C)  # ...one of them was this tag
    board.lay(2, UID_A)
    fault = events.wait_for(lambda e: isinstance(e, ReaderFault))
    assert "2 message(s) lost" in fault.message and fault.zone is None
    events.wait_for(lambda e: e == ReaderBack("board0", None))
    tags = {(e.zone, e.uid) for e in events.seen if isinstance(e, TagLaid)}
    assert tags == {("seat1", UID_C), ("centre", UID_A)}  # the resync found the lost tag
    assert host.gaps == 1


def test_unplug_and_replug_mid_game_loses_no_tag(rig) -> None:
    board, host, events = rig
    board.tags[0] += [UID_A, UID_B]
    board.plug()
    host.start()
    events.wait_for(laid("seat0", UID_B))
    board.unplug()
    fault = events.wait_for(lambda e: isinstance(e, ReaderFault))
    assert "unplugged" in fault.message
    # While unplugged: one card taken away, another laid.
    board.tags[0].remove(UID_A)
    board.tags[2].append(UID_C)
    time.sleep(0.3)  # a few failed reconnection attempts (the port does not exist)
    board.plug()
    events.wait_for(lambda e: e == ReaderBack("board0", None))
    after = events.seen[events.seen.index(fault) + 1:]
    tag_events = [(type(e).__name__, e.zone, e.uid) for e in after
                  if isinstance(e, TagLaid | TagGone)]
    assert sorted(tag_events) == [("TagGone", "seat0", UID_A), ("TagLaid", "centre", UID_C)]
    assert host.reconnects >= 1
    board.lay(1, UID_A)  # and it goes on as before
    events.wait_for(laid("seat1", UID_A))


def test_a_missed_heartbeat_reconnects(rig) -> None:
    board, host, events = rig
    board.plug()
    host.start()
    assert host.connected.wait(5)
    board.silent = True
    fault = events.wait_for(lambda e: isinstance(e, ReaderFault))
    assert "heartbeat" in fault.message
    board.silent = False
    events.wait_for(lambda e: e == ReaderBack("board0", None))


def test_board_reader_faults_and_a_missing_reader(tmp_path: Path) -> None:
    board = PtyBoard(str(tmp_path / "b"), readers=2, heartbeat=0.1)
    events = Collector()
    host = SerialBoard(board.link, {0: "seat0", 3: "seat3"}, events.queue.put, name="b")
    try:
        board.plug()
        host.start()
        missing = events.wait_for(lambda e: isinstance(e, ReaderFault))
        assert missing.reader == "b:3" and missing.zone == "seat3"
        assert "only 2 readers" in missing.message
        assert host.connected.wait(5)
        board.fault(0, "antenna open circuit")
        fault = events.wait_for(lambda e: isinstance(e, ReaderFault) and e.reader == "b:0")
        assert fault.zone == "seat0" and fault.message == "antenna open circuit"
    finally:
        host.close()
        board.unplug()


def test_a_port_that_never_appears_is_a_fault_not_a_crash(tmp_path: Path) -> None:
    events = Collector()
    host = SerialBoard(str(tmp_path / "nothing"), ZONES, events.queue.put, backoff=(0.02, 0.05))
    host.start()
    try:
        fault = events.wait_for(lambda e: isinstance(e, ReaderFault))
        assert "cannot open" in fault.message
        time.sleep(0.2)
        assert [e for e in events.drain() if isinstance(e, ReaderFault)] == []  # said once
    finally:
        host.close()


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        ("LAID 0 04a224b2", "no sequence number"),
        ("3 LAID x 04a224b2", "needs a reader number"),
        ("3 LAID 0 zz", "not a tag UID"),
        ("3 FLY", "unknown message"),
        ("HELLO board", "reader count"),
    ],
)
def test_malformed_lines_are_refused_with_a_reason(line: str, reason: str) -> None:
    with pytest.raises(ProtocolError, match=reason):
        parse_line(line)


def test_sequence_numbers_wrap() -> None:
    assert parse_line("65536 BEAT") == (0, "BEAT", [])


def test_line_noise_is_dropped_and_the_board_goes_on(rig, caplog) -> None:
    caplog.set_level(logging.INFO, logger="drivers.serial_board")
    board, host, events = rig
    board.plug()
    host.start()
    assert host.connected.wait(5)
    noise = bytes(b for b in range(256) if b != 0x0A) * 8  # 2 KiB without a newline
    os.write(board._master, noise)
    time.sleep(0.3)  # the host reads the noise before any newline comes
    os.write(board._master, b"\n")
    board.lay(0, UID_A)
    events.wait_for(laid("seat0", UID_A))
    assert "without a newline" in caplog.text


def test_a_second_process_cannot_open_the_same_board(rig) -> None:
    import serial

    board, host, _events = rig
    board.plug()
    host.start()
    assert host.connected.wait(5)
    with pytest.raises(serial.SerialException):
        serial.Serial(board.link, 115200, exclusive=True)

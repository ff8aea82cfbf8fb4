"""Serial reader boards over a real pseudo-terminal with pyserial, unplugged and replugged;
protocol 2's checksum per line against changed characters, noise at a wrong baud rate, a board
that never answers SYNC, an old firmware without checksums, and the reconnect back-off."""

from __future__ import annotations

import logging
import os
import queue
import random
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from drivers.boardsim import PtyBoard
from drivers.events import Event, ReaderBack, ReaderFault, TagGone, TagLaid
from drivers.serial_board import (
    ChecksumError,
    ProtocolError,
    SerialBoard,
    checksum,
    frame,
    parse_line,
    unframe,
)

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


def test_one_changed_character_never_delivers_a_wrong_tag() -> None:
    """The attack's reproduction: 300 LAID lines, one character of each changed on the wire.
    Without a checksum (protocol 1) many still parse, some as another tag; with protocol 2
    every one is dropped (CRC-16 finds every change of one character: a burst of 8 bits)."""
    rng = random.Random(300)
    wrong_v1 = wrong_v2 = dropped_v2 = 0
    for n in range(300):
        uid = "".join(rng.choice("0123456789abcdef") for _ in range(14))
        text = f"{n} LAID {rng.randrange(4)} {uid}"
        for version in (1, 2):
            line = (frame(text) if version == 2 else (text + "\n").encode()).decode().rstrip()
            i = rng.randrange(len(line))
            changed = line[:i] + rng.choice([c for c in "0123456789abcdefABCDEF *LAIDGONE"
                                             if c != line[i]]) + line[i + 1:]
            try:
                got = parse_line(unframe(changed) if version == 2 else changed)
            except ProtocolError:
                dropped_v2 += version == 2
                continue
            if got != parse_line(text):
                if version == 1:
                    wrong_v1 += 1
                else:
                    wrong_v2 += 1
    assert wrong_v2 == 0 and dropped_v2 == 300
    assert wrong_v1 > 20  # what the checksum is for


def test_checksums_are_those_of_the_document() -> None:
    assert checksum("123456789") == "29B1"  # CRC-16/CCITT-FALSE's check value
    assert frame("HELLO pads-1 4 1.0 2") == b"HELLO pads-1 4 1.0 2 *2E30\n"  # docs/hardware.md
    with pytest.raises(ChecksumError, match="no checksum"):
        unframe("3 BEAT")
    assert unframe("3 BEAT *b6ed") == "3 BEAT"  # hex in either case


def test_corrupted_lines_on_the_wire_are_healed_by_a_resync(rig) -> None:
    board, host, events = rig
    board.plug()
    host.start()
    assert host.connected.wait(5)
    laid_uids = []
    for n in range(12):
        uid = f"04a224b2c94f{n:02x}"
        board.corrupt = 1 if n % 2 == 0 else 0  # every other LAID arrives changed
        board.lay(n % 3, uid)
        laid_uids.append((ZONES[n % 3], uid))
        time.sleep(0.05)
    end = time.monotonic() + 8
    got: set[tuple[str, str]] = set()
    while got != set(laid_uids) and time.monotonic() < end:  # the resyncs may reorder them
        time.sleep(0.05)
        got = {(e.zone, e.uid) for e in events.seen + events.drain() if isinstance(e, TagLaid)}
    assert got == set(laid_uids)  # every tag, and no other
    assert host.bad_lines >= 6 and host.gaps >= 1


def one_zone_rig(tmp_path: Path, **board: object) -> tuple[PtyBoard, SerialBoard, Collector]:
    sim = PtyBoard(str(tmp_path / "platform-usb-0:1.4:1.0-port0"), readers=1, heartbeat=0.1,
                   **board)  # type: ignore[arg-type]
    events = Collector()
    host = SerialBoard(sim.link, {0: "seat2"}, events.queue.put, name="pad2",
                       heartbeat_timeout=0.6, backoff=(0.05, 0.2))
    return sim, host, events


def test_a_board_sending_noise_is_a_fault_wrong_baud_rate(tmp_path: Path) -> None:
    board, host, events = one_zone_rig(tmp_path)
    try:
        board.plug()
        host.start()
        assert host.connected.wait(5)
        board.garbled = True  # noise only, and plenty of it: it must not count as a heartbeat
        fault = events.wait_for(lambda e: isinstance(e, ReaderFault))
        assert fault.message.startswith(
            "reader board on seat 2 sends garbage (wrong baud rate?)"), fault.message
        board.garbled = False
        events.wait_for(lambda e: e == ReaderBack("pad2", None))
    finally:
        host.close()
        board.unplug()


def test_a_board_that_never_answers_sync_is_a_fault(tmp_path: Path) -> None:
    board, host, events = one_zone_rig(tmp_path)
    try:
        board.deaf = board.silent = True  # no HELLO at power-up, no answer to SYNC...
        board.plug()
        board.silent = False  # ...but heartbeats, valid ones
        host.start()
        fault = events.wait_for(lambda e: isinstance(e, ReaderFault))
        assert fault.message == "reader board on seat 2 does not answer SYNC: reconnecting"
        assert not host.connected.is_set()
        board.deaf = False
        events.wait_for(lambda e: e == ReaderBack("pad2", None))
    finally:
        host.close()
        board.unplug()


def test_an_old_firmware_without_checksums_is_told_to_update(tmp_path: Path) -> None:
    board, host, events = one_zone_rig(tmp_path, protocol=1)
    try:
        board.plug()
        host.start()
        fault = events.wait_for(lambda e: isinstance(e, ReaderFault))
        assert "without a checksum (protocol 1): update its firmware" in fault.message
        assert not host.connected.is_set()
    finally:
        host.close()
        board.unplug()


def test_the_reconnect_delay_starts_again_after_a_good_connection(tmp_path: Path) -> None:
    board, host, events = one_zone_rig(tmp_path)
    host.backoff = (0.05, 0.4)
    try:
        host.start()  # no board yet: the delays grow
        events.wait_for(lambda e: isinstance(e, ReaderFault))
        time.sleep(1.0)
        assert host.delays[:4] == [0.05, 0.1, 0.2, 0.4]
        board.plug()
        events.wait_for(lambda e: e == ReaderBack("pad2", None))
        before = len(host.delays)
        board.unplug()  # a good connection ends in an unplug (an exception mid-read)
        events.wait_for(lambda e: isinstance(e, ReaderFault))
        time.sleep(0.3)
        assert host.delays[before] == 0.05, host.delays
    finally:
        host.close()
        board.unplug()

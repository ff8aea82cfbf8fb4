"""Protocol 2 taken literally: the checksum covers the exact bytes received, a line with a byte
outside printable ASCII is invalid, and the checksum field is four hex digits in one case.

Every single-byte change of a set of valid lines of every kind goes through the host's own
receive path; none may come out as another message. Bad lines are counted, and logged once
and then in summaries, never one log record per line."""

from __future__ import annotations

import logging
import random

import pytest
from feedport import FeedPort

from drivers.clock import VirtualClock
from drivers.serial_board import ChecksumError, SerialBoard, checksum, frame, unframe

ZONES = {0: "seat0", 1: "seat1", 2: "seat2"}

# One valid line of every kind the protocol has, both directions; a FAULT text with a "?" (the
# character a lossy decode turns other bytes into), a CRC of digits only and one with letters,
# an upper-case UID, sequence numbers at both ends, and a line ended by "\r\n".
VALID = [
    "HELLO pads-1 4 1.0 2",
    "0 LAID 2 04a224b2c94f80",
    "65535 LAID 0 04A224B2",
    "1 GONE 2 04a224b2c94f80",
    "2 READY",
    "3 BEAT",
    "4 FAULT 1 antenna ? no answer",
    "5 FAULT 0",
    "6 BACK 1",
    "SYNC",
]




def receive(data: bytes, step: float = 0.01) -> tuple[list[str], SerialBoard]:
    """The lines the host's receive path accepts from ``data`` (in order), and the host; the
    clock moves ``step`` seconds a read of up to 4 KiB."""
    clock = VirtualClock()
    host = SerialBoard("/dev/null-board", ZONES, lambda e: None, name="b", clock=clock,
                       heartbeat_timeout=1e9, serial_factory=lambda *a: None)
    accepted: list[str] = []
    host._handle = lambda line, now: accepted.append(line) or False  # type: ignore[method-assign]
    host._ser = FeedPort(data, host, clock, step)
    host._session()
    return accepted, host


def single_byte_changes(raw: bytes) -> list[bytes]:
    """Every line made from ``raw`` (without its newline) by changing one byte to another."""
    return [raw[:i] + bytes([b]) + raw[i + 1:]
            for i in range(len(raw)) for b in range(256) if b != raw[i]]


@pytest.mark.parametrize("ending", [b"\n", b"\r\n"])
def test_no_single_byte_change_is_taken_as_another_message(ending: bytes) -> None:
    changed_total = accepted_total = different = 0
    for text in VALID:
        raw = frame(text)[:-1] + ending[:-1]  # the line as received, without its "\n"
        changes = single_byte_changes(raw)
        accepted, _host = receive(b"".join(c + b"\n" for c in changes))
        changed_total += len(changes)
        accepted_total += len(accepted)
        different += sum(line != text for line in accepted)
    assert (changed_total, different) == (changed_total, 0)
    # The same message may pass, at most twice a line: a case change that leaves the checksum
    # in one case ("29B1" to "29b1"), and the "\r" of "\r\n" changed to "\n".
    assert accepted_total <= len(VALID) * len(ending)


def test_the_valid_lines_pass_as_they_are() -> None:
    accepted, host = receive(b"".join(frame(t) for t in VALID)
                             + b"".join(frame(t)[:-1] + b"\r\n" for t in VALID))
    assert accepted == VALID + VALID and host.bad_lines == 0


@pytest.mark.parametrize("line", [
    b"4 FAULT 1 antenna \xbf no answer *" + checksum("4 FAULT 1 antenna ? no answer").encode(),
    b"3 BEAT *b6ED",  # the checksum in mixed case
    b"3 BEAT *B6ED ",  # anything after it
    b"3 BEAT *B6E",
    b"3 BEAT *0B6ED",
    b" 3 BEAT *B6ED",  # a byte the checksum does not cover
    b"3\tBEAT *" + checksum("3\tBEAT").encode(),  # control characters, even with their CRC
    b"3 BEAT\x00 *" + checksum("3 BEAT\x00").encode(),
    b"3 BEAT\x7f *" + checksum("3 BEAT\x7f").encode(),
])
def test_lines_the_protocol_does_not_allow_are_refused(line: bytes) -> None:
    accepted, host = receive(line + b"\n")
    assert accepted == [] and host.bad_lines == 1
    with pytest.raises(ChecksumError):
        unframe(line)


def test_the_checksum_in_one_case_either_upper_or_lower() -> None:
    assert unframe(b"3 BEAT *B6ED") == unframe(b"3 BEAT *b6ed") == unframe("3 BEAT *b6ed")
    assert unframe(b"3 BEAT *B6ED\r") == "3 BEAT"


def test_garbage_is_counted_and_logged_once_then_in_summaries(caplog) -> None:
    """100,000 bad lines over about ten minutes: the first is logged in full, the rest in at
    most one summary a minute (WARNING), and the counter has every one."""
    rng = random.Random(7)
    kinds = [lambda i: f"{i} LAID 2 {rng.getrandbits(56):014x} *0000",  # a wrong checksum
             lambda i: f"{i} BEAT",  # none at all
             lambda i: bytes(rng.randrange(256) for _ in range(12)).replace(b"\n", b"")]
    lines = [kinds[i % 3](i) for i in range(100_000)]
    data = b"".join((x if isinstance(x, bytes) else x.encode()) + b"\n" for x in lines)
    reads = len(data) // 4096 + 1
    with caplog.at_level(logging.DEBUG, logger="drivers.serial_board"):
        accepted, host = receive(data, step=600 / reads)
    assert accepted == []
    blanks = sum(not x.strip() for x in lines)  # noise that happened to be only whitespace
    assert host.bad_lines == 100_000 - blanks
    records = [r for r in caplog.records if r.name == "drivers.serial_board"]
    assert 2 <= len(records) <= 12, [r.getMessage()[:80] for r in records]
    assert all(r.levelno == logging.WARNING for r in records)
    assert "dropped a line" in records[0].getMessage()
    # The summaries say how many lines were dropped since the last record: all of them.
    assert 1 + sum(getattr(r, "bad_lines", 0) for r in records[1:]) == host.bad_lines

"""Reader boards on a serial line (USB), over pyserial: a small line protocol, reconnection.

A reader board is a microcontroller with its own RFID readers that reports tags over USB
serial. It is the alternative to wiring MFRC522 boards to the Pi's SPI pins: one cable, any
number of readers, any distance. Ports are best named by ``/dev/serial/by-path/...`` so a board
keeps its name when it is plugged back into the same USB socket.

The protocol, version 2 (ASCII, one message per line, ``\\n`` or ``\\r\\n``, 115200 baud 8N1).
Every line, in both directions, ends in a space, ``*`` and the CRC-16/CCITT-FALSE (polynomial
0x1021, initial value 0xFFFF) of the text before the space, as four hex digits::

    17 LAID 2 04A224B2C94F80 *7E46

Board to host::

    HELLO <board> <readers> <firmware> 2   on power-up and in answer to SYNC (2: the protocol)
    <seq> LAID <reader> <uid>              a tag was laid on reader <reader> (0-based)
    <seq> GONE <reader> <uid>              it was taken away
    <seq> READY                            end of the list of tags lying now (after HELLO)
    <seq> BEAT                             heartbeat, at least once a second
    <seq> FAULT <reader> <text>            a reader of the board stopped working
    <seq> BACK <reader>                    it works again

Host to board::

    SYNC                                   say HELLO, list every tag lying now, then READY

``<seq>`` counts the board's numbered messages from 0 after each HELLO, modulo 65536; a gap
means lost messages. ``<uid>`` is hex. The board debounces its readers as the table does
(laid after two identical reads, gone after about a second unseen).

A line whose checksum does not match is dropped: the next line's sequence number shows the gap
and the host asks for the whole list again, so a changed character never delivers a wrong tag.
Only lines that pass count as signs of life: a board that sends only noise (a wrong baud rate,
a bad cable) is a fault ("reader board on seat 2 sends garbage (wrong baud rate?)"), as is one
that never answers SYNC, one without checksums (protocol 1: "update its firmware") and one
silent for ``heartbeat_timeout``.

The host (:class:`SerialBoard`) sends SYNC whenever it connects and after a gap, and applies
the list before READY as the whole truth: tags missing from it are reported gone, new ones
laid, the rest changes nothing. So a board unplugged mid-game and plugged back in loses no
tag. Every fault is a ``ReaderFault`` for the board (``zone=None``); the host retries with
back-off (0.1 s doubling to 5 s; back to 0.1 s after a connection that got in sync) and
reports ``ReaderBack`` after the board's READY.
"""

from __future__ import annotations

import binascii
import logging
import re
import threading
from collections.abc import Callable, Mapping
from typing import Any

from drivers.clock import Clock, RealClock
from drivers.events import Event, ReaderBack, ReaderFault, guarded
from drivers.uids import UidError, normalize_uid
from drivers.zones import ZoneTracker

log = logging.getLogger(__name__)

SEQ_MODULO = 65536
MAX_LINE = 1024  # no protocol line is longer; more without a newline is line noise
# Seconds between two log records about dropped lines: a board sending noise drops thousands
# of lines a second, and one record each would fill the journal (and the SD card).
BAD_LINE_SUMMARY_EVERY = 60.0
PROTOCOL = 2


class ProtocolError(ValueError):
    """A line from a reader board that does not follow the protocol."""


class ChecksumError(ProtocolError):
    """A line whose checksum is missing or does not match its text."""


def checksum(text: str | bytes) -> str:
    """The line checksum: CRC-16/CCITT-FALSE of the ASCII text, four upper-case hex digits.

    >>> checksum("123456789")  # the standard check value of CRC-16/CCITT-FALSE
    '29B1'
    """
    data = text if isinstance(text, bytes) else text.encode("ascii")
    return f"{binascii.crc_hqx(data, 0xFFFF):04X}"


def frame(text: str) -> bytes:
    """A line as sent: text, space, ``*``, checksum, newline.

    >>> frame("3 BEAT")
    b'3 BEAT *B6ED\\n'
    """
    return f"{text} *{checksum(text)}\n".encode("ascii")


# Printable ASCII only: a byte >= 0x80 or a control character is line noise, never protocol.
_PRINTABLE = bytes(range(0x20, 0x7F))
# Four hex digits in one case: docs/hardware.md allows either, but a mixed case is a change.
_CRC_FIELD = re.compile(rb"[0-9A-F]{4}|[0-9a-f]{4}")


def unframe(line: bytes | str) -> str:
    """The text of a received line if its checksum matches; :class:`ChecksumError` if not.

    The checksum covers the exact bytes received before `` *`` (nothing is decoded, replaced,
    stripped or case-folded first); the line may end in ``\\r`` (of ``\\r\\n``) and nothing
    else. A str must be ASCII.

    >>> unframe("3 BEAT *B6ED")
    '3 BEAT'
    >>> unframe("3 BEAT *B6EE")
    Traceback (most recent call last):
    ...
    drivers.serial_board.ChecksumError: checksum B6EE does not match '3 BEAT' (B6ED)
    """
    if isinstance(line, str):
        if not line.isascii():
            raise ChecksumError(f"a character outside ASCII in {line[:60]!r}")
        line = line.encode("ascii")
    line = line.removesuffix(b"\n").removesuffix(b"\r")
    if line.translate(None, _PRINTABLE):
        raise ChecksumError(f"a control character or a byte over 0x7F in {line[:60]!r}")
    text, sep, crc = line.rpartition(b" *")
    if not sep:
        raise ChecksumError(f"no checksum in {line[:60].decode('ascii')!r}")
    shown = text[:60].decode("ascii")
    if not _CRC_FIELD.fullmatch(crc):
        raise ChecksumError(f"checksum {crc[:8].decode('ascii')!r} of {shown!r} is not four "
                            "hex digits")
    if crc.upper().decode("ascii") != checksum(text):
        raise ChecksumError(f"checksum {crc.decode('ascii')} does not match {shown!r} "
                            f"({checksum(text)})")
    return text.decode("ascii")


def parse_line(line: str) -> tuple[int | None, str, list[str]]:
    """Split a board line into (sequence number or None for HELLO, verb, arguments).

    >>> parse_line("17 LAID 2 04A224B2C94F80")
    (17, 'LAID', ['2', '04a224b2c94f80'])
    >>> parse_line("HELLO pad-board 4 1.2")
    (None, 'HELLO', ['pad-board', '4', '1.2'])
    >>> parse_line("17 FLY 2")
    Traceback (most recent call last):
    ...
    drivers.serial_board.ProtocolError: unknown message 'FLY' in '17 FLY 2'
    """
    words = line.split()
    if not words:
        raise ProtocolError("empty line")
    if words[0] == "HELLO":
        if len(words) < 3 or not _digits(words[2]) or len(words[2]) > 3:
            raise ProtocolError(f"HELLO needs a board name and a reader count: {line!r}")
        return None, "HELLO", words[1:]
    if not _digits(words[0]) or len(words[0]) > 6 or len(words) < 2:
        raise ProtocolError(f"no sequence number in {line[:60]!r}")
    seq, verb, args = int(words[0]) % SEQ_MODULO, words[1], words[2:]
    if verb in ("LAID", "GONE"):
        if len(args) != 2 or not _digits(args[0]) or len(args[0]) > 3:
            raise ProtocolError(f"{verb} needs a reader number and a UID: {line!r}")
        try:
            args[1] = normalize_uid(args[1])
        except UidError as exc:
            raise ProtocolError(str(exc)) from None
    elif verb in ("FAULT", "BACK"):
        if not args or not _digits(args[0]) or len(args[0]) > 3:
            raise ProtocolError(f"{verb} needs a reader number: {line[:60]!r}")
        if verb == "FAULT":
            args = [args[0], " ".join(args[1:]) or "fault"]
    elif verb not in ("READY", "BEAT"):
        raise ProtocolError(f"unknown message {verb[:20]!r} in {line[:60]!r}")
    return seq, verb, args


def _digits(word: str) -> bool:
    return word.isascii() and word.isdigit()


def _default_serial_factory(port: str, baudrate: int, timeout: float) -> Any:
    import serial

    # exclusive: a second process (a forgotten test run, ModemManager probing) cannot steal lines
    return serial.Serial(port, baudrate, timeout=timeout, exclusive=True)


class SerialBoard:
    """One reader board on a serial port; a thread keeps it connected and posts its events.

    ``readers`` maps the board's reader numbers to zones, e.g. ``{0: "seat0", 1: "centre"}``.
    """

    def __init__(
        self,
        port: str,
        readers: Mapping[int, str],
        on_event: Callable[[Event], None],
        *,
        name: str | None = None,
        baudrate: int = 115200,
        heartbeat_timeout: float = 3.0,
        backoff: tuple[float, float] = (0.1, 5.0),
        tracker: ZoneTracker | None = None,
        clock: Clock | None = None,
        serial_factory: Callable[[str, int, float], Any] | None = None,
        bad_line_summary: float = BAD_LINE_SUMMARY_EVERY,
    ) -> None:
        self.port = port
        self.readers = {int(k): v for k, v in readers.items()}
        self.name = name or port.rsplit("/", 1)[-1]
        self.baudrate = baudrate
        self.heartbeat_timeout = heartbeat_timeout
        self.backoff = backoff
        self.clock = clock or RealClock()
        self._post = guarded(on_event, log)
        self.tracker = tracker or ZoneTracker(self._post)
        self._serial_factory = serial_factory or _default_serial_factory
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._ser: Any = None
        self._faulty = False  # a board fault has been posted and not yet followed by ReaderBack
        self._expected: int | None = None
        self._snapshot: set[tuple[str, str]] | None = None
        self._last_sync = 0.0
        self._awaiting: float | None = None  # an unanswered SYNC was first sent then
        self.connected = threading.Event()  # set while the board is connected and in sync
        self.board_name: str | None = None
        self.gaps = 0
        self.reconnects = 0
        self.syncs = 0  # times the board got in sync (READY after HELLO)
        self.bad_lines = 0  # lines dropped: checksum, syntax, noise (for status and tests)
        self.bad_line_summary = bad_line_summary
        self._bad_logged_at: float | None = None  # when a dropped line was last logged
        self._bad_unlogged = 0  # lines dropped since then
        self._bad_last = ""  # why the last of them was dropped
        self.delays: list[float] = []  # the waits before reconnecting, in order (tests, logs)

    # -- thread ------------------------------------------------------------------------------
    def start(self) -> None:
        if self._thread is None:
            self._stop.clear()
            self._thread = threading.Thread(
                target=self._run, name=f"reader-board-{self.name}", daemon=True
            )
            self._thread.start()

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None
        self._disconnect()

    def where(self) -> str:
        """The board in the players' words: "reader board on seat 2"."""
        zones = sorted(set(self.readers.values()))
        words = {"deal": "on the deal reader", "centre": "in the centre", "skat": "on the skat"}
        if len(zones) == 1:
            z = zones[0]
            return "reader board " + (f"on seat {z[4:]}" if z.startswith("seat")
                                      else words.get(z, f"on {z}"))
        return f"reader board {self.name} ({', '.join(zones)})"

    def _run(self) -> None:
        delay = self.backoff[0]
        while not self._stop.is_set():
            try:
                self._ser = self._serial_factory(self.port, self.baudrate, 0.05)
            except Exception as exc:  # a missing port raises SerialException or OSError
                self._fault(f"cannot open {self.port}: {exc}")
                self._wait(delay)
                delay = min(delay * 2, self.backoff[1])
                continue
            syncs = self.syncs
            try:
                self._session()
            except Exception as exc:  # an unplug shows as SerialException/OSError mid-read
                self._fault(f"{self.where()} unplugged or not answering ({exc})")
            if self.syncs > syncs:
                # That connection worked: the next attempt is quick again, whether it ended
                # in an unplug (an exception) or a missed heartbeat.
                delay = self.backoff[0]
            self._disconnect()
            if not self._stop.is_set():
                self.reconnects += 1
                self._wait(delay)
                delay = min(delay * 2, self.backoff[1])

    def _wait(self, delay: float) -> None:
        self.delays.append(delay)
        self._stop.wait(delay)

    def _disconnect(self) -> None:
        self.connected.clear()
        ser, self._ser = self._ser, None
        if ser is not None:
            try:
                ser.close()
            except Exception as exc:  # closing an unplugged port may fail; it is gone anyway
                log.debug("closing %s: %s", self.port, exc)

    def _dropped(self, why: str, now: float) -> None:
        """Count a dropped line; log the first in full, the rest in summaries (WARNING).

        At most one record per ``bad_line_summary`` seconds: the count since the last record
        (also as the record's ``bad_lines`` attribute) and the last line's problem.
        """
        self.bad_lines += 1
        if self._bad_logged_at is None:
            self._bad_logged_at = now
            log.warning("reader board %s: dropped a line: %s (more are counted and logged "
                        "at most every %g s)", self.name, why, self.bad_line_summary)
            return
        self._bad_unlogged += 1
        self._bad_last = why
        self._summarise_dropped(now)

    def _summarise_dropped(self, now: float, *, final: bool = False) -> None:
        """Log the lines dropped since the last record, if the interval is over (or ``final``)."""
        if not self._bad_unlogged or self._bad_logged_at is None:
            return
        if not final and now - self._bad_logged_at < self.bad_line_summary:
            return
        log.warning("reader board %s: dropped %d more bad line(s) in %.0f s (%d in all); the "
                    "last: %s", self.name, self._bad_unlogged, now - self._bad_logged_at,
                    self.bad_lines, self._bad_last, extra={"bad_lines": self._bad_unlogged})
        self._bad_logged_at = now
        self._bad_unlogged = 0

    def _session(self) -> bool:
        """Talk to a connected board until it fails; True if it got in sync at least once.

        Lines dropped and not yet logged are summed up when it ends.
        """
        try:
            return self._talk()
        finally:
            self._summarise_dropped(self.clock.now(), final=True)

    def _talk(self) -> bool:
        """The body of :meth:`_session`.

        Only lines with a good checksum count as signs of life: noise (a wrong baud rate)
        does not keep a dead board alive, and a board that keeps beating but never answers
        SYNC is a fault too.
        """
        self._expected = None
        self._snapshot = None
        self._awaiting = None
        synced = False
        last_good = self.clock.now()
        bad = 0  # lines (or runs of noise) dropped since the last good line
        unchecked = 0  # of them, lines of protocol 1 (no checksum)
        self._send_sync(last_good)
        buffer = b""
        while not self._stop.is_set():
            chunk = self._ser.read(self._ser.in_waiting or 1)
            now = self.clock.now()
            if chunk:
                buffer += chunk
                *lines, buffer = buffer.split(b"\n")
                if len(buffer) > MAX_LINE:
                    self._dropped(f"{len(buffer)} bytes without a newline", now)
                    buffer = b""
                    bad += 1
                for raw in lines:
                    if not raw.strip():
                        continue  # a blank line (or the "\r" of "\r\n" alone): harmless
                    try:
                        line = unframe(raw)
                    except ChecksumError as exc:
                        bad += 1
                        text = raw.decode("ascii", "replace").strip()
                        if " *" not in text and _v1_line(text):
                            unchecked += 1
                        self._dropped(str(exc), now)
                        continue
                    last_good = now
                    bad = unchecked = 0
                    synced |= self._handle(line, now)
            self._summarise_dropped(now)
            if now - last_good > self.heartbeat_timeout:
                if unchecked:
                    why = (f"{self.where()} sends lines without a checksum (protocol 1): "
                           f"update its firmware to protocol {PROTOCOL}")
                elif bad:
                    why = f"{self.where()} sends garbage (wrong baud rate?)"
                else:
                    why = f"{self.where()}: no heartbeat for {self.heartbeat_timeout:g} s"
                self._fault(why + ": reconnecting")
                return synced
            if self._awaiting is not None and now - self._awaiting > max(
                    self.heartbeat_timeout, 2.0):
                self._fault(f"{self.where()} does not answer SYNC: reconnecting")
                return synced
        return synced
    def _send_sync(self, now: float) -> None:
        if self._awaiting is None:  # since when a SYNC is unanswered (not reset by repeats)
            self._awaiting = now
        self._last_sync = now
        self._send("SYNC")

    def _send(self, text: str) -> None:
        self._ser.write(frame(text))
        self._ser.flush()

    def _fault(self, message: str) -> None:
        self.connected.clear()
        if not self._faulty:
            self._faulty = True
            log.warning("reader board %s: %s", self.name, message)
            self._post(ReaderFault(self.name, None, message))

    # -- messages ----------------------------------------------------------------------------
    def _handle(self, line: str, now: float) -> bool:
        """Apply one line; True when it completed a resynchronisation."""
        if not line:
            return False
        try:
            seq, verb, args = parse_line(line)
        except ProtocolError as exc:  # a good checksum: the firmware's mistake, not noise
            self._dropped(f"ignored {exc}", now)
            return False
        if seq is None:
            self._hello(args)
            return False
        if self._expected is None:
            # Numbered lines but no HELLO yet: the board missed our SYNC (or was busy); ask again,
            # at most once a second.
            if now - self._last_sync >= 1.0:
                self._send_sync(now)
            return False
        if seq != self._expected:
            lost = (seq - self._expected) % SEQ_MODULO
            self.gaps += 1
            self._fault(f"{lost} message(s) lost (expected {self._expected}, got {seq}):"
                        " asking the board for its tags again")
            self._snapshot = set()
            self._expected = None
            self._send_sync(now)
            return False
        self._expected = (seq + 1) % SEQ_MODULO
        return self._apply(verb, args, now)

    def _hello(self, args: list[str]) -> None:
        version = args[3] if len(args) > 3 else "1"
        if version != str(PROTOCOL):
            self._fault(f"{self.where()} speaks protocol {version[:8]}; this table needs "
                        f"protocol {PROTOCOL}: update its firmware")
            return
        self.board_name, count = args[0], int(args[1])
        self._expected = 0
        self._snapshot = set()
        for reader, zone in sorted(self.readers.items()):
            if reader >= count:
                self._post(ReaderFault(f"{self.name}:{reader}", zone,
                                       f"board {self.board_name} has only {count} readers"))

    def _apply(self, verb: str, args: list[str], now: float) -> bool:
        zone = self.readers.get(int(args[0])) if args else None
        if verb in ("LAID", "GONE") and zone is None:
            return False  # a reader the config does not use
        if self._snapshot is not None:
            if verb == "LAID":
                self._snapshot.add((zone, args[1]))  # type: ignore[arg-type]
            elif verb == "GONE":
                self._snapshot.discard((zone, args[1]))  # type: ignore[arg-type]
            elif verb == "READY":
                self.tracker.resync(self.readers.values(), self._snapshot, now)
                self._snapshot = None
                self.connected.set()
                self.syncs += 1
                self._awaiting = None
                if self._faulty:
                    self._faulty = False
                    self._post(ReaderBack(self.name, None))
                return True
            return False
        if verb == "LAID":
            self.tracker.laid(zone, args[1], now)  # type: ignore[arg-type]
        elif verb == "GONE":
            self.tracker.gone(zone, args[1], now)  # type: ignore[arg-type]
        elif verb == "FAULT":
            self._post(ReaderFault(f"{self.name}:{args[0]}", zone, args[1]))
        elif verb == "BACK":
            self._post(ReaderBack(f"{self.name}:{args[0]}", zone))
        return False


def _v1_line(text: str) -> bool:
    """A line that protocol 1 would take (no checksum): an old firmware, not noise."""
    try:
        parse_line(text)
    except ProtocolError:
        return False
    return True

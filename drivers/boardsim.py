"""A simulated serial reader board on a pseudo-terminal, speaking the protocol of
:mod:`drivers.serial_board` (version 2, or 1 as old firmware does), that can be unplugged and
plugged back in, and can misbehave as real boards do: noise at a wrong baud rate, changed
characters on the wire, a firmware that never answers SYNC.

It is what the tests of the serial backend talk to, through a real pty and pyserial, exactly
as the table talks to a USB board. ``link`` is a symlink standing for the stable
``/dev/serial/by-path/...`` name: on replug the board gets a new pty and the link is pointed
at it, as udev does.

>>> import tempfile, os
>>> with tempfile.TemporaryDirectory() as d:
...     board = PtyBoard(os.path.join(d, "board0"), readers=2)
...     board.plug()
...     os.path.exists(board.link)
...     board.unplug()
True
"""

from __future__ import annotations

import contextlib
import os
import random
import select
import threading
import tty

from drivers.serial_board import ChecksumError, frame, unframe


class PtyBoard:
    """A reader board whose USB cable is a pty pair; ``lay``/``lift`` change what it reads."""

    def __init__(self, link: str, readers: int = 4, name: str = "sim-board",
                 heartbeat: float = 0.2, protocol: int = 2, seed: int = 0) -> None:
        self.link = link
        self.readers = readers
        self.name = name
        self.heartbeat = heartbeat
        self.tags: dict[int, list[str]] = {r: [] for r in range(readers)}
        self._master: int | None = None
        self._slave: int | None = None
        self._seq = 0
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._threads: list[threading.Thread] = []
        self.silent = False  # True: stop heartbeats and answers (a hung board)
        self.deaf = False  # True: heartbeats go on, SYNC is never answered
        # True: what the board sends arrives as noise (its UART runs at another baud rate):
        # every byte becomes a random one, a newline now and then.
        self.garbled = False
        self.corrupt = 0  # the next N lines get one character changed on the wire
        self.protocol = protocol
        self.rng = random.Random(seed)
        self.syncs = 0

    # -- cable -------------------------------------------------------------------------------
    def plug(self) -> None:
        """Connect (a new pty), point the link at it, say HELLO and list the tags."""
        master, slave = os.openpty()
        tty.setraw(slave)  # no echo or line editing before the host opens the port
        self._master, self._slave = master, slave
        tmp = self.link + ".new"
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        os.symlink(os.ttyname(slave), tmp)
        os.replace(tmp, self.link)
        self._stop.clear()
        self._threads = [
            threading.Thread(target=self._listen, daemon=True, name="board-listen"),
            threading.Thread(target=self._beat, daemon=True, name="board-beat"),
        ]
        for t in self._threads:
            t.start()
        self.announce()

    def unplug(self) -> None:
        """Pull the cable: the host's next read fails; the link dangles until replug."""
        self._stop.set()
        with self._lock:
            master, self._master = self._master, None
            slave, self._slave = self._slave, None
        for fd in (master, slave):
            if fd is not None:
                os.close(fd)
        for t in self._threads:
            t.join(timeout=2)
        self._threads = []
        with contextlib.suppress(FileNotFoundError):
            os.unlink(self.link)

    # -- what the board reads ------------------------------------------------------------------
    def lay(self, reader: int, uid: str) -> None:
        with self._lock:
            self.tags[reader].append(uid)
            self._numbered(f"LAID {reader} {uid}")

    def lift(self, reader: int, uid: str) -> None:
        with self._lock:
            self.tags[reader].remove(uid)
            self._numbered(f"GONE {reader} {uid}")

    def skip(self, count: int) -> None:
        """Lose ``count`` numbered messages on the wire (the host sees a gap)."""
        with self._lock:
            self._seq = (self._seq + count) % 65536

    def fault(self, reader: int, text: str) -> None:
        with self._lock:
            self._numbered(f"FAULT {reader} {text}")

    def announce(self) -> None:
        """HELLO, the tags lying now, READY (on power-up and on SYNC)."""
        with self._lock:
            self._seq = 0
            version = f" {self.protocol}" if self.protocol >= 2 else ""
            self._line(f"HELLO {self.name} {self.readers} 1.0{version}")
            for reader, uids in self.tags.items():
                for uid in uids:
                    self._numbered(f"LAID {reader} {uid}")
            self._numbered("READY")

    # -- wire ----------------------------------------------------------------------------------
    def _line(self, text: str) -> None:
        if self._master is None or self.silent:
            return  # unplugged: what the readers see is lost, and listed again at SYNC
        data = frame(text) if self.protocol >= 2 else text.encode("ascii") + b"\n"
        if self.corrupt:
            self.corrupt -= 1
            data = self._change_one(data)
        if self.garbled:
            data = bytes(10 if self.rng.random() < 0.02 else self.rng.randrange(256)
                         for _ in data)
        with contextlib.suppress(OSError):
            os.write(self._master, data)

    def _change_one(self, data: bytes) -> bytes:
        """One character of the line (not its newline) changed into another printable one."""
        out = bytearray(data)
        i = self.rng.randrange(len(out) - 1)
        out[i] = self.rng.choice([c for c in range(0x21, 0x7F) if c != out[i]])
        return bytes(out)

    def _numbered(self, text: str) -> None:
        self._line(f"{self._seq} {text}")
        self._seq = (self._seq + 1) % 65536

    def _beat(self) -> None:
        while not self._stop.wait(self.heartbeat):
            with self._lock:
                if not self.silent:
                    self._numbered("BEAT")

    def _listen(self) -> None:
        buffer = b""
        while not self._stop.is_set():
            master = self._master
            if master is None:
                return
            try:
                ready, _, _ = select.select([master], [], [], 0.05)
                if not ready:
                    continue
                chunk = os.read(master, 256)
            except OSError:
                return  # the host closed the port, or we were unplugged
            buffer += chunk
            *lines, buffer = buffer.split(b"\n")
            for raw in lines:
                text = raw.decode("ascii", "replace").strip()
                if self.protocol >= 2:
                    try:
                        text = unframe(raw)  # the exact bytes, as a firmware checks them
                    except ChecksumError:
                        continue
                if text == "SYNC" and not self.silent and not self.deaf:
                    self.syncs += 1
                    self.announce()

"""The reader board at the other end of the VM's USB serial adapter.

The project's own board simulator (:class:`drivers.boardsim.PtyBoard`, protocol 2 with CRCs)
owns a pty pair; QEMU opens the pty's slave as the chardev of ``-device usb-serial`` (an FTDI
chip), so the guest's ``ftdi_sio`` driver gives the table ``/dev/ttyUSB0`` and udev its
``/dev/serial/by-path/...`` name. What the board sends, the table receives through the real
kernel driver; the table's SYNC comes back the same way.

While the VM is off (a power cut), nobody reads the pty: the board is made ``silent`` and
what is left in the pty's queue is thrown away before QEMU opens it again, as a board's
UART would have dropped it. The master side never blocks (a full queue loses the line; the
table asks for the whole list with SYNC after the gap in the sequence numbers).
"""

from __future__ import annotations

import os
import termios
from pathlib import Path

from drivers.boardsim import PtyBoard

# reader number on the board -> the table's zone (the config the twin writes says the same)
ZONES = {0: "deal", 1: "centre", 2: "skat"}
READER = {zone: reader for reader, zone in ZONES.items()}


class TwinBoard:
    def __init__(self, work: Path, heartbeat: float = 0.5) -> None:
        self.link = str(work / "board0")
        self.sim = PtyBoard(self.link, readers=len(ZONES), name="twin-board",
                            heartbeat=heartbeat)
        self.laid: list[tuple[str, str]] = []  # (zone, uid) in the order laid

    def plug(self) -> str:
        """Plug the board in; returns the tty QEMU opens."""
        self.sim.plug()
        assert self.sim._master is not None
        os.set_blocking(self.sim._master, False)
        return os.path.realpath(self.link)

    def power_off(self) -> None:
        """The VM is off: nothing reads the line."""
        self.sim.silent = True

    def power_on(self) -> None:
        """Before QEMU starts: the queue is emptied, the board speaks again."""
        if self.sim._slave is not None:
            termios.tcflush(self.sim._slave, termios.TCIOFLUSH)
        self.sim.silent = False

    def lay(self, zone: str, uid: str) -> None:
        self.sim.lay(READER[zone], uid)
        self.laid.append((zone, uid))

    def lift(self, zone: str, uid: str) -> None:
        self.sim.lift(READER[zone], uid)

    def lying(self) -> list[tuple[str, str]]:
        return [(ZONES[r], uid) for r, uids in self.sim.tags.items() for uid in uids]

    def close(self) -> None:
        self.sim.unplug()

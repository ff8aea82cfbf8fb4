"""Check the wiring of MFRC522 readers: ``python -m drivers.probe 0.0 0.1 1.0 --seconds 20``.

Opens each reader (SPI bus.device), prints what answers (the chip's version, or why it is
dead), then polls them as the table does and prints every tag laid and gone, so each pad can
be tried with a card. ``--emulate`` runs the same against emulated readers with a card on the
first one (for a PC, and for the tests). ``--ports`` lists the serial ports by their stable
``/dev/serial/by-path`` names, for the ``port`` of a reader board.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from typing import Any, TextIO

from drivers.clock import RealClock
from drivers.events import Event
from drivers.mfrc522 import MFRC522, DeadReaderError
from drivers.poller import MFRC522Poller


def _address(text: str) -> tuple[int, int]:
    try:
        bus, device = (int(part) for part in text.split("."))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{text!r}: write a reader as BUS.DEVICE, e.g. 1.2"
        ) from None
    return bus, device


def probe(addresses: Sequence[tuple[int, int]], seconds: float, out: TextIO,
          spi_factory: Any = None) -> int:
    """Print each reader's state, then tag events for ``seconds``; 1 if a reader is dead."""
    clock = RealClock()
    readers = [MFRC522(bus, dev, clock=clock, spi_factory=spi_factory) for bus, dev in addresses]
    dead = 0
    for reader in readers:
        try:
            print(f"{reader.name}: {reader.open()}", file=out)
        except DeadReaderError as exc:
            dead += 1
            print(f"{reader.name}: DEAD: {exc}", file=out)
    if seconds > 0:
        def show(event: Event) -> None:
            print(f"  {event}", file=out, flush=True)

        poller = MFRC522Poller([(r, r.name) for r in readers], show, clock=clock)
        poller.start()
        try:
            clock.sleep(seconds)
        finally:
            poller.close()
    for reader in readers:
        reader.close()
    return 1 if dead else 0


def list_ports(directory: str = "/dev/serial/by-path") -> list[tuple[str, str]]:
    """(stable name, device it points to) of every serial port in ``directory``."""
    try:
        names = sorted(os.listdir(directory))
    except FileNotFoundError:
        return []
    return [(os.path.join(directory, n), os.path.realpath(os.path.join(directory, n)))
            for n in names]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m drivers.probe", description=__doc__)
    parser.add_argument("readers", nargs="*", type=_address, default=[(0, 0)],
                        help="SPI BUS.DEVICE of each reader (default 0.0)")
    parser.add_argument("--seconds", type=float, default=15.0, help="how long to poll")
    parser.add_argument("--emulate", action="store_true", help="emulated readers (no Pi)")
    parser.add_argument("--ports", action="store_true",
                        help="list serial ports by /dev/serial/by-path name and stop")
    args = parser.parse_args(argv)
    if args.ports:
        ports = list_ports()
        for name, device in ports:
            print(f"{name} -> {device}")
        if not ports:
            print("no serial port in /dev/serial/by-path: is the reader board plugged in?")
        return 0
    spi_factory = None
    if args.emulate:
        from drivers.mfrc522_emu import EmulatedRig, EmulatedTag

        rig = EmulatedRig(RealClock())
        for bus, device in args.readers:
            rig.add_reader(bus, device)
        rig.chips[args.readers[0]].lay(EmulatedTag.from_hex("04a224b2c94f80"))
        spi_factory = rig.spidev
    return probe(args.readers, args.seconds, sys.stdout, spi_factory)


if __name__ == "__main__":
    sys.exit(main())

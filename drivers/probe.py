"""Bring-up of MFRC522 readers: ``skat-table probe`` (also ``python -m drivers.probe``).

For each reader (``BUS.DEVICE`` arguments, or the ``[[readers]]`` of ``--config``): the chip's
version or why it is dead, the receiver gain it holds, an SPI integrity sweep (patterns written
into the FIFO and a register and read back), then ``--passes`` polls with a test card on it:
the share of passes that read it and the damaged exchanges by kind (collision, parity, CRC,
protocol, timeout, deadline). ``--trace`` logs the raw ComIrqReg, ErrorReg and CollReg of every
exchange. ``--watch SECONDS`` then polls all readers as the table does and prints every tag laid
and gone. ``--emulate`` runs against emulated readers with a card on each (``--harsh``: under
the HARSH radio); ``--ports`` lists serial ports by their stable ``/dev/serial/by-path`` names.

>>> import io
>>> out = io.StringIO()
>>> probe([ReaderSpec(0, 0)], out, passes=20, emulate=True)
0
>>> print(out.getvalue())  # doctest: +ELLIPSIS
spi0.0: MFRC522 v2.0, gain 33 dB, SPI 1.0 MHz
  SPI integrity: ... bytes written and read back, 0 wrong
  test card: read in 20 of 20 passes (100 %): 04a224b2c94f80
  damaged exchanges: none
<BLANKLINE>
"""

from __future__ import annotations

import argparse
import os
import sys
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, TextIO

from drivers.clock import Clock, RealClock, VirtualClock
from drivers.events import Event
from drivers.mfrc522 import DEFAULT_GAIN_DB, DEFAULT_SPEED_HZ, MFRC522, ReaderError
from drivers.poller import MFRC522Poller

ERROR_KINDS = ("collision", "parity", "crc", "protocol", "timeout", "deadline", "format",
               "overflow")
TEST_CARD = "04a224b2c94f80"


@dataclass(frozen=True)
class ReaderSpec:
    """One reader to probe: where it is and how it is set up."""

    bus: int
    device: int
    zone: str | None = None
    gain_db: int = DEFAULT_GAIN_DB
    speed_hz: int = DEFAULT_SPEED_HZ
    reset_pin: int | str | None = None

    @property
    def name(self) -> str:
        return f"spi{self.bus}.{self.device}" + (f" ({self.zone})" if self.zone else "")


def _address(text: str) -> tuple[int, int]:
    try:
        bus, device = (int(part) for part in text.split("."))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{text!r}: write a reader as BUS.DEVICE, e.g. 1.2"
        ) from None
    return bus, device


def probe(specs: Sequence[ReaderSpec], out: TextIO, *, passes: int = 100, watch: float = 0.0,
          trace: bool = False, emulate: bool = False, harsh: bool = False,
          spi_factory: Any = None, clock: Clock | None = None) -> int:
    """Probe each reader, print what it found; 1 if a reader is dead or its SPI garbles."""
    rig = None
    if emulate:
        from drivers.mfrc522_emu import HARSH, EmulatedRig, EmulatedTag

        clock = clock or (RealClock() if watch else VirtualClock())
        rig = EmulatedRig(clock, profile=HARSH if harsh else None, seed=1)
        for i, spec in enumerate(specs):  # a card of its own on each (one card, one place)
            uid = bytes.fromhex(TEST_CARD)
            uid = uid[:-1] + bytes([(uid[-1] + i) % 256])
            rig.add_reader(spec.bus, spec.device).lay(EmulatedTag(uid))
        spi_factory = rig.spidev
    clock = clock or RealClock()
    bad = 0
    readers = []
    for spec in specs:
        reader = MFRC522(spec.bus, spec.device, clock=clock, spi_factory=spi_factory,
                         gain_db=spec.gain_db, speed_hz=spec.speed_hz, reset_pin=spec.reset_pin,
                         name=spec.name)
        readers.append(reader)
        if not _probe_one(reader, spec, out, passes, trace):
            bad += 1
    if watch > 0:
        live = [r for r in readers if r._spi is not None]

        def show(event: Event) -> None:
            print(f"  {event}", file=out, flush=True)

        print(f"watching {len(live)} reader(s) for {watch:g} s: lay a card on each pad in turn",
              file=out, flush=True)
        poller = MFRC522Poller([(r, r.name) for r in live], show, clock=clock)
        poller.start()
        try:
            clock.sleep(watch)
        finally:
            poller.close()
    for reader in readers:
        reader.close()
    return 1 if bad else 0


def _probe_one(reader: MFRC522, spec: ReaderSpec, out: TextIO, passes: int,
               trace: bool) -> bool:
    try:
        version = reader.open()
    except Exception as exc:  # a reader that cannot open is what the probe is for
        print(f"{reader.name}: DEAD: {exc}", file=out, flush=True)
        return False
    ok = True
    try:
        gain = reader.gain_read_back()
        gain_text = f"{gain} dB" if gain is not None else "unknown"
        print(f"{reader.name}: {version}, gain {gain_text}, SPI {spec.speed_hz / 1e6:.1f} MHz",
              file=out)
        total, wrong = reader.spi_check()
        print(f"  SPI integrity: {total} bytes written and read back, {wrong} wrong"
              + ("  <- lower speed_hz, shorten the leads, add a ground wire" if wrong else ""),
              file=out)
        ok = not wrong
        if trace:
            reader.trace = lambda line: print(f"    {line}", file=out)
        before = Counter(reader.errors)
        read = 0
        seen: Counter[str] = Counter()
        polls = []
        for _ in range(passes):
            uids = reader.poll()
            read += bool(uids)
            seen.update(uids)
            polls.append(frozenset(uids))
        reader.trace = None
        share = f"{100 * read / passes:.0f} %" if passes else "-"
        tags = ", ".join(uid for uid, _ in seen.most_common()) or "no tag: lay a card on it"
        print(f"  test card: read in {read} of {passes} passes ({share}): {tags}", file=out)
        if len(seen) > 1:
            whole = sum(p == frozenset(seen) for p in polls)
            print(f"  whole pile of {len(seen)}: read together in {whole} of {passes} passes"
                  f" ({100 * whole / passes:.0f} %)", file=out)
        errors = Counter(reader.errors)
        errors.subtract(before)
        counts = ", ".join(f"{kind} {errors[kind]}" for kind in ERROR_KINDS if errors[kind])
        print(f"  damaged exchanges: {counts or 'none'}", file=out, flush=True)
    except ReaderError as exc:
        print(f"  the reader failed: {exc}", file=out, flush=True)
        ok = False
    return ok


def specs_from_config(path: str) -> list[ReaderSpec]:
    """The MFRC522 readers of a config's ``[[readers]]``, as the table would set them up."""
    import tomllib

    from drivers.readerset import build_readers

    with open(path, "rb") as f:
        raw = tomllib.load(f)
    entries = raw.get("readers", [])
    readers = build_readers(entries, lambda event: None)  # checks them, names the bad key
    if readers.poller is None:
        return []
    return [ReaderSpec(s.reader.spi_bus, s.reader.spi_device, s.zone, s.reader.gain_db,
                       s.reader.speed_hz, s.reader.reset_pin) for s in readers.poller.slots]


def list_ports(directory: str = "/dev/serial/by-path") -> list[tuple[str, str]]:
    """(stable name, device it points to) of every serial port in ``directory``."""
    try:
        names = sorted(os.listdir(directory))
    except FileNotFoundError:
        return []
    return [(os.path.join(directory, n), os.path.realpath(os.path.join(directory, n)))
            for n in names]


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("readers", nargs="*", type=_address,
                   help="SPI BUS.DEVICE of each reader (default: the config's, else 0.0)")
    p.add_argument("--config", metavar="FILE", help="probe the [[readers]] of this config")
    p.add_argument("--passes", type=int, default=100,
                   help="polls per reader with the test card on it (default 100)")
    p.add_argument("--trace", action="store_true",
                   help="log ComIrqReg, ErrorReg and CollReg of every exchange")
    p.add_argument("--watch", type=float, default=0.0, metavar="SECONDS",
                   help="then poll all readers and print every tag laid and gone")
    p.add_argument("--seconds", type=float, dest="watch", help=argparse.SUPPRESS)
    p.add_argument("--gain", type=int, default=None, help="receiver gain in dB (default 33)")
    p.add_argument("--speed", type=int, default=None, help="SPI clock in Hz (default 1000000)")
    p.add_argument("--emulate", action="store_true",
                   help="emulated readers with a test card on each (no Pi needed)")
    p.add_argument("--harsh", action="store_true", help="with --emulate: the HARSH radio")
    p.add_argument("--ports", action="store_true",
                   help="list serial ports by /dev/serial/by-path name and stop")


def cmd_probe(args: argparse.Namespace) -> int:
    if args.ports:
        ports = list_ports()
        for name, device in ports:
            print(f"{name} -> {device}")
        if not ports:
            print("no serial port in /dev/serial/by-path: is the reader board plugged in?")
        return 0
    if args.config:
        try:
            specs = specs_from_config(args.config)
        except (OSError, ValueError) as exc:
            print(f"skat-table probe: {args.config}: {exc}", file=sys.stderr)
            return 2
        if not specs:
            print(f"skat-table probe: {args.config} has no MFRC522 reader", file=sys.stderr)
            return 2
    else:
        specs = [ReaderSpec(bus, device) for bus, device in (args.readers or [(0, 0)])]
    changes: dict[str, int] = {}
    if args.gain is not None:
        changes["gain_db"] = args.gain
    if args.speed is not None:
        changes["speed_hz"] = args.speed
    if changes:
        from dataclasses import replace

        specs = [replace(spec, **changes) for spec in specs]  # type: ignore[arg-type]
    try:
        return probe(specs, sys.stdout, passes=args.passes, watch=args.watch or 0.0,
                     trace=args.trace, emulate=args.emulate, harsh=args.harsh)
    except ValueError as exc:  # a gain the chip does not have
        print(f"skat-table probe: {exc}", file=sys.stderr)
        return 2


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m drivers.probe", description=__doc__)
    add_arguments(parser)
    return cmd_probe(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())

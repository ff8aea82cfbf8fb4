"""All the table's readers as one object, built from plain dicts (the config's ``[[readers]]``).

>>> events = []
>>> readers = build_readers([{"type": "scripted"}], events.append)
>>> readers.start()
>>> readers.scripted.feed("deal", "04a224b2c94f80")
[TagLaid(zone='deal', uid='04a224b2c94f80', at=0.0)]
>>> readers.close()

Keys of one reader dict (the controller's config helper turns TOML tables into these):

``type = "mfrc522"`` (at most five, all polled by one thread, one field on at a time)
    ``zone`` (required), ``spi_bus`` (0 or 1, default 0), ``spi_device`` (chip select:
    0-1 on SPI0, 0-2 on SPI1; default 0) or instead ``chip_select`` (0-4: SPI0 CE0, SPI0
    CE1, SPI1 CE0, SPI1 CE1, SPI1 CE2), ``reset_pin`` (GPIO number or gpiozero pin name,
    optional), ``gain_db`` (receiver gain: 18, 23, 33, 38, 43 or 48; default 33, the chip's
    own; 48 dB hears noise and neighbours), ``speed_hz`` (SPI clock, default 1 MHz for leads of
    30-50 cm under a table; only short wires take 4 MHz), ``name`` (optional, default
    ``spi<bus>.<device>``).
``type = "serial"`` (a reader board; one thread each)
    ``port`` (required; best a ``/dev/serial/by-path/...`` name), ``readers`` (the board's
    reader numbers to zones, e.g. ``{0 = "seat0", 1 = "centre"}``) or instead ``zone`` with
    ``reader`` (default 0); entries naming the same port are one board. ``baudrate``
    (default 115200), ``heartbeat_timeout`` (seconds, default 3), ``name`` (optional).
``type = "scripted"`` (or ``"simulated"``)
    no keys: tags come from :meth:`drivers.scripted.ScriptedReaders.feed` (replay, simulator).

``kind`` is accepted for ``type``, and keys whose value is None count as absent, so a
dataclass's ``asdict`` can be passed as it is.

Options for the whole set (keyword arguments of :func:`build_readers`): ``laid_after_reads``
(default 2) and ``gone_after`` (seconds, default 1.0).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from drivers.clock import Clock, RealClock
from drivers.events import Event, EventSink, as_callback, guarded
from drivers.mfrc522 import DEFAULT_GAIN_DB, DEFAULT_SPEED_HZ, MFRC522
from drivers.mfrc522_regs import RX_GAIN_DB
from drivers.poller import MFRC522Poller
from drivers.quoting import quoted
from drivers.scripted import ScriptedReaders
from drivers.serial_board import SerialBoard
from drivers.zones import ZoneError, ZoneTracker, check_zone

log = logging.getLogger(__name__)

CHIP_SELECTS = {0: (0, 1), 1: (0, 1, 2)}  # SPI1 needs dtoverlay=spi1-3cs for three
# ``chip_select = n`` numbers the five chip selects in wiring order.
FLAT_CHIP_SELECTS = ((0, 0), (0, 1), (1, 0), (1, 1), (1, 2))
KIND_ALIASES = {"simulated": "scripted"}


class ReaderConfigError(ValueError):
    """A ``[[readers]]`` entry that cannot work; the message names the entry and the key."""


class ReaderSet:
    """The table's reader backends behind one ``start()``/``close()`` and one event sink."""

    def __init__(self, backends: Sequence[Any], tracker: ZoneTracker) -> None:
        self.backends = list(backends)
        self.tracker = tracker
        self.scripted: ScriptedReaders | None = next(
            (b for b in self.backends if isinstance(b, ScriptedReaders)), None
        )
        self.poller: MFRC522Poller | None = next(
            (b for b in self.backends if isinstance(b, MFRC522Poller)), None
        )
        self.boards = [b for b in self.backends if isinstance(b, SerialBoard)]

    def start(self) -> None:
        for backend in self.backends:
            backend.start()

    def close(self) -> None:
        for backend in self.backends:
            backend.close()

    def __enter__(self) -> ReaderSet:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _int(entry: Mapping[str, Any], key: str, where: str, default: int | None = None) -> int:
    value = entry.get(key, default)
    if value is None:
        raise ReaderConfigError(f"{where}: {key} is missing")
    if isinstance(value, bool) or not isinstance(value, int):
        raise ReaderConfigError(f"{where}: {key} must be a whole number, not {quoted(value)}")
    return value


def _zone(value: object, where: str) -> str:
    try:
        return check_zone(value)
    except ZoneError as exc:
        raise ReaderConfigError(f"{where}: {exc}") from None


def _spi_address(entry: Mapping[str, Any], where: str) -> tuple[int, int]:
    if "chip_select" in entry:
        if "spi_bus" in entry or "spi_device" in entry:
            raise ReaderConfigError(f"{where}: give chip_select or spi_bus/spi_device, not both")
        index = _int(entry, "chip_select", where)
        if not 0 <= index < len(FLAT_CHIP_SELECTS):
            raise ReaderConfigError(
                f"{where}: chip_select must be 0..4 (SPI0 CE0, CE1, SPI1 CE0, CE1, CE2),"
                f" not {index}"
            )
        return FLAT_CHIP_SELECTS[index]
    bus = _int(entry, "spi_bus", where, 0)
    device = _int(entry, "spi_device", where, 0)
    if bus not in CHIP_SELECTS:
        raise ReaderConfigError(f"{where}: spi_bus must be 0 or 1, not {bus}")
    if device not in CHIP_SELECTS[bus]:
        raise ReaderConfigError(
            f"{where}: spi_device {device} does not exist on SPI{bus}: "
            f"use {' or '.join(map(str, CHIP_SELECTS[bus]))}"
        )
    return bus, device


def _serial_readers(entry: Mapping[str, Any], where: str) -> dict[int, str]:
    readers = entry.get("readers")
    if readers is None and "zone" in entry:
        reader = entry.get("reader", 0)
        if isinstance(reader, bool) or not isinstance(reader, int | str):
            # a list here would not even be a key of the mapping below
            raise ReaderConfigError(f"{where}: reader must be a whole number, not "
                                    f"{quoted(reader)}")
        readers = {reader: entry["zone"]}
    if not isinstance(readers, Mapping) or not readers:
        raise ReaderConfigError(
            f'{where}: readers must map reader numbers to zones, e.g. {{0 = "seat0"}}'
        )
    mapping: dict[int, str] = {}
    for key, zone in readers.items():
        if isinstance(key, bool) or not str(key).isdigit():
            raise ReaderConfigError(f"{where}: reader number {quoted(key)} is not a number")
        mapping[int(key)] = _zone(zone, f"{where}.readers.{key}")
    return mapping


def build_readers(
    configs: Sequence[Mapping[str, Any]],
    on_event: EventSink,
    *,
    laid_after_reads: int = 2,
    gone_after: float = 1.0,
    clock: Clock | None = None,
    spi_factory: Callable[[], Any] | None = None,
    pin_factory: Any = None,
    serial_factory: Callable[[str, int, float], Any] | None = None,
) -> ReaderSet:
    """Check the reader dicts and build the backends (nothing is opened until ``start``).

    Raises :class:`ReaderConfigError` naming the entry (``readers[2]``) and the key.
    """
    # The set's readers post from their own threads: a failing receiver is logged there.
    post: Callable[[Event], None] = guarded(as_callback(on_event), log)
    clock = clock or RealClock()
    try:
        tracker = ZoneTracker(post, laid_after_reads, gone_after)
    except ValueError as exc:
        raise ReaderConfigError(f"readers: {exc}") from None
    chips: list[tuple[MFRC522, str]] = []
    seen_cs: dict[tuple[int, int], str] = {}
    boards: dict[str, tuple[dict[int, str], dict[str, Any], str]] = {}
    scripted = False
    for i, raw in enumerate(configs):
        where = f"readers[{i}]"
        if not isinstance(raw, Mapping):
            raise ReaderConfigError(f"{where} must be a table of keys, not {quoted(raw)}")
        entry = {k: v for k, v in raw.items() if v is not None}
        kind = entry.get("type", entry.get("kind"))
        if isinstance(kind, str):  # a list or a table there is simply not a type
            kind = KIND_ALIASES.get(kind, kind)
        if kind == "mfrc522":
            bus, device = _spi_address(entry, where)
            if (bus, device) in seen_cs:
                raise ReaderConfigError(
                    f"{where}: SPI{bus} CE{device} is already used by {seen_cs[(bus, device)]}"
                )
            seen_cs[(bus, device)] = where
            gain = _int(entry, "gain_db", where, DEFAULT_GAIN_DB)
            if gain not in RX_GAIN_DB:
                raise ReaderConfigError(
                    f"{where}: gain_db must be one of {sorted(RX_GAIN_DB)}, not {gain}"
                )
            speed = _int(entry, "speed_hz", where, DEFAULT_SPEED_HZ)
            if not 10_000 <= speed <= 10_000_000:
                raise ReaderConfigError(
                    f"{where}: speed_hz must be 10000..10000000 (the MFRC522 takes up to"
                    f" 10 MHz), not {speed}"
                )
            chips.append((
                MFRC522(bus, device, reset_pin=entry.get("reset_pin"), name=entry.get("name"),
                        clock=clock, spi_factory=spi_factory, pin_factory=pin_factory,
                        gain_db=gain, speed_hz=speed),
                _zone(entry.get("zone"), where),
            ))
        elif kind == "serial":
            port = entry.get("port")
            if not isinstance(port, str) or not port:
                raise ReaderConfigError(f"{where}: port is missing (e.g. /dev/serial/by-path/...)")
            mapping = _serial_readers(entry, where)
            timeout = entry.get("heartbeat_timeout", 3.0)
            if isinstance(timeout, bool) or not isinstance(timeout, int | float) or timeout <= 0:
                raise ReaderConfigError(f"{where}: heartbeat_timeout must be seconds above 0")
            options = {"name": entry.get("name"), "heartbeat_timeout": float(timeout),
                       "baudrate": _int(entry, "baudrate", where, 115200)}
            # Several entries may name readers of the same board: one board, one connection.
            have, _, first = boards.setdefault(port, ({}, options, where))
            for reader, zone in mapping.items():
                if reader in have:
                    raise ReaderConfigError(
                        f"{where}: reader {reader} of {port} is already zone {have[reader]!r}"
                        f" ({first})"
                    )
                have[reader] = zone
        elif kind == "scripted":
            scripted = True
        else:
            raise ReaderConfigError(
                f'{where}: type must be "mfrc522", "serial" or "scripted", not {quoted(kind)}'
            )
    backends: list[Any] = []
    if chips:
        backends.append(MFRC522Poller(chips, post, clock=clock, tracker=tracker))
    for port, (mapping, options, _) in boards.items():
        backends.append(SerialBoard(port, mapping, post, tracker=tracker,
                                    serial_factory=serial_factory, **options))
    if scripted:
        backends.append(ScriptedReaders(post))
    return ReaderSet(backends, tracker)

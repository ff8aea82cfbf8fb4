"""Building the table's readers from plain dicts (the config's [[readers]] tables)."""

from __future__ import annotations

import pytest

from drivers.clock import RealClock, VirtualClock
from drivers.events import ReaderFault, TagLaid
from drivers.mfrc522_emu import EmulatedRig, EmulatedTag
from drivers.poller import MFRC522Poller
from drivers.readerset import ReaderConfigError, build_readers


@pytest.mark.parametrize(
    ("configs", "message"),
    [
        ([{"type": "rfid"}], r'readers\[0\]: type must be "mfrc522", "serial" or "scripted"'),
        ([{"type": "mfrc522"}], r"readers\[0\]: there is no zone None"),
        ([{"type": "mfrc522", "zone": "deal", "spi_device": 2}], "does not exist on SPI0"),
        ([{"type": "mfrc522", "zone": "deal", "spi_bus": 2}], "spi_bus must be 0 or 1"),
        ([{"type": "mfrc522", "zone": "deal", "spi_bus": "0"}], "spi_bus must be a whole number"),
        ([{"type": "mfrc522", "zone": "deal"}, {"type": "mfrc522", "zone": "skat"}],
         r"readers\[1\]: SPI0 CE0 is already used by readers\[0\]"),
        ([{"type": "mfrc522", "zone": "deal", "gain_db": 50}], "gain_db must be one of"),
        ([{"type": "mfrc522", "zone": "deal", "speed_hz": 20_000_000}], "up to 10 MHz"),
        ([{"type": "serial", "readers": {0: "deal"}}], "port is missing"),
        ([{"type": "serial", "port": "/dev/ttyACM0"}], "readers must map reader numbers"),
        ([{"type": "serial", "port": "/dev/x", "readers": {"a": "deal"}}], "'a' is not a number"),
        ([{"type": "serial", "port": "/dev/x", "readers": {"0": "table"}}],
         r"readers\[0\].readers.0: there is no zone 'table'"),
        (["deal"], "must be a table of keys"),
    ],
)
def test_bad_reader_entries_name_the_entry_and_key(configs: list, message: str) -> None:
    with pytest.raises(ReaderConfigError, match=message):
        build_readers(configs, lambda e: None)


def test_five_readers_from_dicts_polled_as_one_set() -> None:
    clock = VirtualClock()
    rig = EmulatedRig(clock)
    chips = [rig.add_reader(b, d) for b, d in [(0, 0), (0, 1), (1, 0), (1, 1), (1, 2)]]
    zones = ["deal", "centre", "seat0", "seat1", "seat2"]
    configs = [{"type": "mfrc522", "spi_bus": b, "spi_device": d, "zone": z}
               for (b, d), z in zip([(0, 0), (0, 1), (1, 0), (1, 1), (1, 2)], zones, strict=True)]
    configs.append({"type": "scripted"})
    events: list = []
    readers = build_readers(configs, events.append, clock=clock, spi_factory=rig.spidev)
    assert readers.poller is not None and readers.scripted is not None
    chips[3].lay(EmulatedTag.from_hex("04a224b2c94f80"))
    chips[0].dead = "zeros"
    readers.poller.poll_once()
    readers.poller.poll_once()
    readers.scripted.feed("skat", "deadbeef")
    assert [type(e) for e in events] == [ReaderFault, TagLaid, TagLaid]
    assert (events[1].zone, events[2].zone) == ("seat1", "skat")
    with pytest.raises(ValueError, match="at most 5"):
        MFRC522Poller([(p.reader, p.zone) for p in readers.poller.slots] * 2, events.append)


def test_serial_entry_keys() -> None:
    readers = build_readers(
        [{"type": "serial", "port": "/dev/serial/by-path/usb-0:1.3", "readers": {"0": "seat0"},
          "heartbeat_timeout": 2}], lambda e: None)
    (board,) = readers.boards
    assert board.readers == {0: "seat0"} and board.heartbeat_timeout == 2.0
    assert board.name == "usb-0:1.3"


def test_controller_style_entries_are_accepted() -> None:
    """``kind``, a flat ``chip_select``, one zone per serial entry, None for absent keys."""
    clock = VirtualClock()
    rig = EmulatedRig(clock)
    chip = rig.add_reader(1, 2)
    entries = [
        {"kind": "mfrc522", "zone": "centre", "chip_select": 4, "port": None},
        {"kind": "serial", "zone": "seat0", "chip_select": None, "port": "/dev/ttyACM0"},
        {"kind": "serial", "zone": "seat1", "reader": 1, "port": "/dev/ttyACM0"},
        {"kind": "simulated", "zone": "deal"},
    ]
    events: list = []
    readers = build_readers(entries, events.append, clock=clock, spi_factory=rig.spidev)
    (board,) = readers.boards
    assert board.readers == {0: "seat0", 1: "seat1"}
    assert readers.scripted is not None
    chip.lay(EmulatedTag.from_hex("deadbeef"))
    readers.poller.poll_once()
    readers.poller.poll_once()
    assert [(e.zone, e.uid) for e in events] == [("centre", "deadbeef")]


@pytest.mark.parametrize(
    ("entries", "message"),
    [
        ([{"kind": "mfrc522", "zone": "deal", "chip_select": 5}], "chip_select must be 0..4"),
        ([{"kind": "mfrc522", "zone": "deal", "chip_select": 0, "spi_bus": 0}], "not both"),
        ([{"kind": "serial", "zone": "seat0", "port": "/dev/x"},
          {"kind": "serial", "zone": "seat1", "port": "/dev/x"}],
         r"readers\[1\]: reader 0 of /dev/x is already zone 'seat0' \(readers\[0\]\)"),
    ],
)
def test_controller_style_mistakes(entries: list, message: str) -> None:
    with pytest.raises(ReaderConfigError, match=message):
        build_readers(entries, lambda e: None)


def test_probe_reports_versions_dead_readers_and_tags(capsys) -> None:
    from drivers.probe import main, probe

    assert main(["0.0", "1.2", "--emulate", "--passes", "3", "--watch", "0.6"]) == 0
    out = capsys.readouterr().out
    assert "spi0.0: MFRC522 v2.0" in out and "spi1.2: MFRC522 v2.0" in out
    assert "TagLaid(zone='spi0.0', uid='04a224b2c94f80'" in out
    assert "TagLaid(zone='spi1.2', uid='04a224b2c94f81'" in out
    rig = EmulatedRig(RealClock())
    rig.add_reader(0, 0).dead = "ones"
    import io

    from drivers.probe import ReaderSpec

    buffer = io.StringIO()
    assert probe([ReaderSpec(0, 0)], buffer, passes=0, spi_factory=rig.spidev) == 1
    assert "spi0.0: DEAD: reader answers all ones" in buffer.getvalue()


def test_probe_lists_serial_ports_by_path(tmp_path) -> None:
    from drivers.probe import list_ports

    (tmp_path / "ttyACM0").write_text("")
    (tmp_path / "by-path").mkdir()
    (tmp_path / "by-path" / "platform-usb-0:1.3:1.0").symlink_to(tmp_path / "ttyACM0")
    assert list_ports(str(tmp_path / "by-path")) == [
        (str(tmp_path / "by-path" / "platform-usb-0:1.3:1.0"), str(tmp_path / "ttyACM0"))]
    assert list_ports(str(tmp_path / "none")) == []


def test_a_whole_reader_set_in_real_time(tmp_path) -> None:
    """Emulated SPI readers and a reader board on a pty, started and closed as one set."""
    import queue

    from drivers.boardsim import PtyBoard
    from drivers.events import ReaderFault as Fault

    clock = RealClock()
    rig = EmulatedRig(clock)
    chip = rig.add_reader(0, 1)
    rig.add_reader(1, 0).dead = "zeros"
    board = PtyBoard(str(tmp_path / "usb-port0"), readers=2, heartbeat=0.1)
    board.tags[1].append("04a224b2c94f81")
    board.plug()
    events: queue.Queue = queue.Queue()
    readers = build_readers(
        [{"type": "mfrc522", "spi_bus": 0, "spi_device": 1, "zone": "centre"},
         {"type": "mfrc522", "spi_bus": 1, "spi_device": 0, "zone": "deal"},
         {"type": "serial", "port": board.link, "readers": {1: "seat1"}, "name": "pads"}],
        events, clock=clock, spi_factory=rig.spidev)
    chip.lay(EmulatedTag.from_hex("04a224b2c94f80"))
    seen: set = set()
    wanted = {("TagLaid", "centre"), ("TagLaid", "seat1"), ("ReaderFault", "deal")}
    with readers:
        while not wanted <= seen:
            event = events.get(timeout=10)
            seen.add((type(event).__name__, getattr(event, "zone", None)))
            if isinstance(event, Fault):
                assert "all zeros" in event.message
    board.unplug()
    assert not chip.field_on

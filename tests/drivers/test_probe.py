"""``skat-table probe``: what a person bringing up a table sees, on emulated readers."""

from __future__ import annotations

import io
from pathlib import Path

from drivers.clock import VirtualClock
from drivers.mfrc522_emu import HARSH, EmulatedRig, EmulatedTag
from drivers.probe import ReaderSpec, probe
from firmware_host.cli import main


def test_probe_command_reports_chip_gain_spi_read_rate_and_errors(capsys) -> None:
    assert main(["probe", "--emulate", "--harsh", "0.0", "1.2", "--passes", "150"]) == 0
    out = capsys.readouterr().out
    assert out.count("MFRC522 v2.0, gain 33 dB, SPI 1.0 MHz") == 2
    assert out.count("SPI integrity: 1536 bytes written and read back, 0 wrong") == 2
    assert "test card: read in 1" in out and "04a224b2c94f80" in out
    assert "damaged exchanges: " in out and "parity" in out  # the harsh radio bites


def test_probe_trace_logs_the_raw_registers_of_each_exchange(capsys) -> None:
    assert main(["probe", "--emulate", "--passes", "1", "--trace"]) == 0
    lines = [line.strip() for line in capsys.readouterr().out.splitlines()]
    assert "spi0.0 tx 26 ComIrq=60 Error=00 Coll=20" in lines  # REQA answered
    assert "spi0.0 tx 9320 ComIrq=60 Error=00 Coll=20" in lines  # anticollision, level 1
    assert "spi0.0 tx 500057cd ComIrq=41 Error=-- Coll=--" in lines  # HLTA: timer, silence


def test_probe_says_which_reader_is_dead_and_exits_1() -> None:
    clock = VirtualClock()
    rig = EmulatedRig(clock)
    rig.add_reader(0, 0).lay(EmulatedTag.from_hex("deadbeef"))
    rig.add_reader(0, 1).dead = "ones"
    out = io.StringIO()
    status = probe([ReaderSpec(0, 0, "deal"), ReaderSpec(0, 1, "centre")], out, passes=5,
                   spi_factory=rig.spidev, clock=clock)
    text = out.getvalue()
    assert status == 1
    assert "spi0.0 (deal): MFRC522 v2.0" in text and "read in 5 of 5 passes" in text
    assert "spi0.1 (centre): DEAD: reader answers all ones" in text


def test_long_leads_at_4_mhz_show_in_the_spi_sweep(capsys) -> None:
    assert main(["probe", "--emulate", "--harsh", "--speed", "4000000", "--passes", "5"]) == 1
    out = capsys.readouterr().out
    assert "SPI 4.0 MHz" in out and "0 wrong" not in out and "lower speed_hz" in out


def test_probe_takes_the_readers_of_a_config(tmp_path: Path, capsys) -> None:
    config = tmp_path / "table.toml"
    config.write_text(
        '[[readers]]\ntype = "mfrc522"\nspi_bus = 1\nspi_device = 2\nzone = "centre"\n'
        'gain_db = 43\n', encoding="utf-8")
    assert main(["probe", "--config", str(config), "--emulate", "--passes", "3"]) == 0
    assert "spi1.2 (centre): MFRC522 v2.0, gain 43 dB" in capsys.readouterr().out
    config.write_text('[[readers]]\ntype = "mfrc522"\nzone = "middle"\n', encoding="utf-8")
    assert main(["probe", "--config", str(config), "--emulate"]) == 2
    assert "readers[0]" in capsys.readouterr().err


def test_harsh_profile_is_an_assumption_written_down() -> None:
    assert HARSH.name == "harsh"
    doc = (Path(__file__).resolve().parents[2] / "docs" / "hardware.md").read_text("utf-8")
    assert "assumption" in doc.lower() and "partial_rate" in doc


def test_the_table_tells_the_players_once_and_keeps_going() -> None:
    """A card that cannot be read reaches the screen as a message in the players' words, with
    one beep; it is no reader fault and changes nothing at the table."""
    from drivers.events import TagUnreadable
    from firmware_host.config import simulated_config
    from firmware_host.series.session import Session
    from firmware_host.service.runner import EventLoop

    beeps: list[int] = []
    loop = EventLoop(Session(simulated_config(computer_seats=())), beep=lambda: beeps.append(1))
    before = loop.session.table.phase
    assert loop.handle(TagUnreadable("spi1.1", "seat1")) is None
    assert loop.last_refusal is not None
    assert loop.last_refusal.reason == "a card on Ben's pad cannot be read: move it a little"
    assert beeps == [1] and loop.reader_faults == {} and loop.session.table.phase == before

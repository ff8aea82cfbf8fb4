"""The kiosk's settings kept beside the journal: read at the start, written whole and
atomically at each change, a damaged or unwritable file never in the table's way; the event
loop applies them (the computer's pace, the hints, the sounds: on in the simulator, off on the
table) and a club table never gets hints."""

from __future__ import annotations

import json
import logging
import tomllib
from pathlib import Path
from types import SimpleNamespace

import pytest

from display import commands as cmd
from display.view import CARD_STYLES as VIEW_STYLES
from display.view import LANGUAGES as VIEW_LANGUAGES
from display.view import SPEEDS as VIEW_SPEEDS
from display.view import SUIT_ORDERS as VIEW_ORDERS
from firmware_host.config import parse_config, simulated_config
from firmware_host.series.session import Session
from firmware_host.series.settings import (
    CARD_STYLES,
    CHOICES,
    LANGUAGES,
    SPEEDS,
    SUIT_ORDERS,
    KioskSettings,
    SettingError,
    SettingsFile,
    settings_path,
)
from firmware_host.service.runner import EventLoop

ROOT = Path(__file__).resolve().parents[2]
CONFIG = ROOT / "tests" / "data" / "configs" / "three-series.toml"


def test_the_choices_are_the_kiosks() -> None:
    """What the file may hold is what the settings screen offers (and ChangeSetting names)."""
    assert LANGUAGES == VIEW_LANGUAGES and CARD_STYLES == VIEW_STYLES
    assert tuple(SPEEDS) == VIEW_SPEEDS and SUIT_ORDERS == VIEW_ORDERS
    assert set(cmd.SETTINGS) | {"language", "card_style"} == set(CHOICES)
    assert SPEEDS["normal"] == (0.6, 1.5)  # the simulator's pace before there was a choice


def test_a_choice_is_checked() -> None:
    s = KioskSettings()
    assert s.changed("speed", "slow").speed == "slow"
    for name, value in (("speed", "warp"), ("sound", 1), ("hints", "yes"), ("colour", True),
                        ("trump_first", None), ("suit_order", "DHSC")):
        with pytest.raises(SettingError):
            s.changed(name, value)
    with pytest.raises(cmd.CommandError):
        cmd.ChangeSetting("colour", True)


def test_kept_beside_the_journal_and_read_again(tmp_path: Path) -> None:
    path = settings_path(tmp_path / "journal.sqlite")
    assert path == tmp_path / "journal.settings.json"
    file = SettingsFile(path)
    assert file.load() == KioskSettings()  # no file yet: every default holds
    chosen = (KioskSettings().changed("language", "fr").changed("card_style", "german")
              .changed("speed", "fast").changed("trump_first", False)
              .changed("suit_order", "CHSD").changed("sound", False).changed("hints", True))
    assert file.save(chosen)
    assert SettingsFile(path).load() == chosen
    assert json.loads(path.read_text(encoding="utf-8"))["speed"] == "fast"
    assert [p.name for p in tmp_path.iterdir()] == ["journal.settings.json"]  # no temp left


def test_a_newer_tables_keys_are_kept(tmp_path: Path) -> None:
    """A key this version does not know (a newer skat-table's, another part's) is written
    back as it was; a value it cannot take is left out, said in the log."""
    path = tmp_path / "journal.settings.json"
    path.write_text(json.dumps({"guard": True, "speed": "warp", "sound": True}),
                    encoding="utf-8")
    file = SettingsFile(path)
    loaded = file.load()
    assert loaded.sound is True and loaded.speed is None
    file.save(loaded.changed("hints", True))
    assert json.loads(path.read_text(encoding="utf-8")) == {"guard": True, "sound": True,
                                                            "hints": True}


@pytest.mark.parametrize("content", [b"{not json", b"[1, 2]", b"\xff\xfe", b"{}" + b" " * 70000])
def test_a_damaged_file_leaves_the_defaults(tmp_path: Path, content: bytes,
                                            caplog: pytest.LogCaptureFixture) -> None:
    path = tmp_path / "journal.settings.json"
    path.write_bytes(content)
    with caplog.at_level(logging.WARNING):
        assert SettingsFile(path).load() == KioskSettings()
    assert "cannot read" in caplog.text
    assert SettingsFile(path).save(KioskSettings(speed="slow"))  # and it is mended
    assert SettingsFile(path).load().speed == "slow"


def test_storage_that_takes_no_writes_leaves_the_choice_in_force(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """(A folder that is a file: no write goes there, not even root's.)"""
    folder = tmp_path / "not-a-folder"
    folder.write_text("", encoding="utf-8")
    session = Session(simulated_config(computer_seats=(1, 2)))
    loop = EventLoop(session, simulator=object())
    loop.use_settings(SettingsFile(folder / "journal.settings.json"))
    with caplog.at_level(logging.WARNING):
        loop.handle(cmd.ChangeSetting("speed", "slow"))
    assert loop.pace == SPEEDS["slow"][0] and "cannot keep them" in caplog.text
    assert loop.settings_file.problem and sorted(tmp_path.iterdir()) == [folder]


def test_without_a_journal_the_settings_last_while_the_table_runs() -> None:
    assert settings_path(None) is None and settings_path(":memory:") is None
    file = SettingsFile(None)
    assert not file.save(KioskSettings(speed="fast")) and file.load() == KioskSettings()


def test_the_loop_applies_the_settings() -> None:
    """The simulator's pace follows the speed; the table (a person lays the computer's
    cards) has none; the sounds are on in the simulator and off on the table until chosen;
    the hints follow the choice."""
    session = Session(simulated_config(computer_seats=(1, 2)))
    sim = EventLoop(session, simulator=object())
    sim.use_settings(SettingsFile(None))
    assert (sim.pace, sim.trick_pause) == SPEEDS["normal"] and sim.sound_on
    assert sim.settings_view().speed_applies and not sim.settings_view().hints
    sim.handle(cmd.ChangeSetting("speed", "fast"))
    assert (sim.pace, sim.trick_pause) == SPEEDS["fast"]
    sim.handle(cmd.ChangeSetting("hints", True))
    assert session.hints_on and sim.settings_view().hints
    sim.handle(cmd.ChangeSetting("sound", False))
    assert not sim.sound_on and not sim.settings_view().sound
    table = EventLoop(Session(simulated_config(computer_seats=(1, 2))))
    table.use_settings(SettingsFile(None))
    assert (table.pace, table.trick_pause) == (0.0, 0.0) and not table.sound_on
    table.handle(cmd.ChangeSetting("speed", "slow"))
    assert table.pace == 0.0 and not table.settings_view().speed_applies
    played: list[str] = []
    table.chimes = SimpleNamespace(play=played.append)
    table.cue("card")
    table.handle(cmd.ChangeSetting("sound", True))
    table.cue("card")
    assert played == ["card"]


def test_no_hints_at_a_club_table_whatever_the_kiosk_says(tmp_path: Path) -> None:
    raw = tomllib.loads(CONFIG.read_text(encoding="utf-8"))
    pw = tmp_path / "pw"
    pw.write_text("secret\n", encoding="utf-8")
    raw["club"] = {"broker": "mqtt://127.0.0.1:1883", "club": "c1", "table": "t1",
                   "username": "t1", "password_file": str(pw)}
    session = Session(parse_config(raw))
    loop = EventLoop(session)
    loop.use_settings(SettingsFile(None))
    loop.handle(cmd.ChangeSetting("hints", True))
    assert session.hints_chosen is True and not session.hints_on
    assert not loop.settings_view().hints_allowed and not loop.settings_view().hints

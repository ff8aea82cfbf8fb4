"""The computer's level chosen on the kiosk: it plays from the next deal on (a game under way
keeps its player), it is kept beside the journal with the deal it plays from, so a restart in
between brings back the level of each deal, and the journal replays the same games; a club
table, a config that names its player and a table without computer seats keep the config's
level."""

from __future__ import annotations

import json
import logging
import tomllib
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from display import commands as cmd
from display.view import LEVELS as VIEW_LEVELS
from display.view import SettingsView, ViewError
from engine.players.levels import LEVEL_NAMES
from firmware_host.config import parse_config, simulated_config
from firmware_host.series import session as session_module
from firmware_host.series.levelchoice import LEVELS, LevelChange, choose, fixed_by
from firmware_host.series.session import Session
from firmware_host.series.settings import KioskSettings, SettingsFile, settings_path
from firmware_host.service.runner import DealingSimulator, EventLoop, open_session

ROOT = Path(__file__).resolve().parents[2]
CONFIG = ROOT / "tests" / "data" / "configs" / "three-series.toml"


def test_the_kiosks_levels_are_the_engines() -> None:
    assert LEVELS == LEVEL_NAMES == VIEW_LEVELS
    assert "level" in cmd.SETTINGS


def test_a_choice_plays_from_the_next_deal() -> None:
    """Chosen during deal 4 (or after it, before deal 5 is dealt): deal 4 keeps its level."""
    change = choose(None, "club", "expert", series=7, deal=4)
    assert [change.level_for(7, n) for n in (3, 4, 5, 6)] == ["club", "club", "expert",
                                                                 "expert"]
    assert change.level_for(8, 1) == "expert"  # a new series is a later deal too
    again = choose(change, "club", "beginner", series=7, deal=4)  # changed mind in deal 4
    assert (again.level_for(7, 4), again.level_for(7, 5)) == ("club", "beginner")


def test_the_level_and_its_deal_are_kept_in_the_settings_file(tmp_path: Path) -> None:
    path = tmp_path / "journal.settings.json"
    chosen = KioskSettings().changed("sound", True).with_level(
        LevelChange("beginner", series=2, deal=9, before="expert"))
    assert SettingsFile(path).save(chosen)
    assert json.loads(path.read_text(encoding="utf-8")) == {
        "sound": True, "level": "beginner",
        "level_from": {"series": 2, "deal": 9, "before": "expert"}}
    assert SettingsFile(path).load() == chosen
    assert chosen.level_change == LevelChange("beginner", 2, 9, "expert")


@pytest.mark.parametrize("kept", [{"series": 2, "deal": "9", "before": "club"},
                                  {"series": 2, "deal": 9, "before": "pimc"}, [2, 9]])
def test_a_damaged_level_from_is_said_and_the_level_plays_from_now(
        tmp_path: Path, kept: Any, caplog: pytest.LogCaptureFixture) -> None:
    path = tmp_path / "journal.settings.json"
    path.write_text(json.dumps({"level": "expert", "level_from": kept}), encoding="utf-8")
    with caplog.at_level(logging.WARNING):
        loaded = SettingsFile(path).load()
    assert "level_from" in caplog.text
    assert loaded.level == "expert" and loaded.level_from is None
    assert loaded.level_change is not None and loaded.level_change.level_for(0, 1) == "expert"


def test_a_level_that_does_not_exist_is_refused_by_the_command() -> None:
    assert KioskSettings.from_json({"level": "grandmaster"}).level is None
    with pytest.raises(ViewError):
        SettingsView(level="grandmaster")


class Decisions:
    """Which player decided each computer move: (deal number, the player's name)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.made: list[tuple[int, str]] = []
        real = session_module.ask

        def spy(player: Any, game: Any) -> Any:
            self.made.append((self.session.table.deal.number, player.name))
            return real(player, game)

        self.session: Any = None
        monkeypatch.setattr(session_module, "ask", spy)

    def names(self, deal: int) -> set[str]:
        return {name for number, name in self.made if number == deal}


def live_table(journal: Path, now: list[float]) -> tuple[Any, EventLoop]:
    """The simulator's table with three computer seats, its settings kept beside the
    journal; the computers lay their cards a second apart on the clock ``now`` (so a deal
    stops in its play until the clock goes on)."""
    cfg = simulated_config(computer_seats=(0, 1, 2), series_length=None, seed=5)
    session = open_session(cfg, journal)
    loop = EventLoop(session, simulator=DealingSimulator(session, 5))
    loop.use_settings(SettingsFile(settings_path(journal)))
    loop.pace = loop.trick_pause = 1.0
    loop.clock = lambda: now[0]
    return session, loop


def played(session: Any) -> int:
    game = session.table.game
    return 3 * len(game.tricks) + len(game.trick)


def test_the_level_reaches_the_computer_seats_from_the_next_deal_after_a_restart(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Chosen in the middle of deal 1, and the power cut before deal 1 ends: deal 1 is
    played to its end by the club player it started with, deal 2 by the beginner; a restart
    replays the journal to the same games."""
    journal, now = tmp_path / "journal.sqlite", [100.0]
    decisions = Decisions(monkeypatch)
    session, loop = live_table(journal, now)
    decisions.session = session
    try:
        loop.handle(cmd.DealRest())  # dealt, bid, declared: the first card a second later
        now[0] += 1.0
        loop.handle(cmd.DealNext())  # (nothing to deal: the computers go on)
        assert session.table.phase == "play" and played(session) == 1
        assert decisions.names(1) == {"club"}
        loop.handle(cmd.ChangeSetting("level", "beginner"))
        view = loop.settings_view()
        assert (view.level, view.next_level, view.level_fixed) == ("club", "beginner", "")
        now[0] += 1.0
        loop.handle(cmd.DealNext())
        assert played(session) == 2 and decisions.names(1) == {"club"}
        assert {p.name for p in session.players.values()} == {"club"}
        where = (session.table.deal.number, played(session))
    finally:
        session.close()  # the power cut

    session, loop = live_table(journal, now)
    decisions.session = session
    try:
        assert (session.table.deal.number, played(session)) == where
        assert session.computer_level() == "club" and session.computer_level(1) == "beginner"
        view = loop.settings_view()
        assert (view.level, view.next_level) == ("club", "beginner")
        loop.pace = loop.trick_pause = 0.0
        loop.computers()  # deal 1 to its end
        assert session.table.phase == "scored" and decisions.names(1) == {"club"}
        loop.handle(cmd.DealRest())  # deal 2, played through
        assert session.table.phase == "scored" and session.table.deal.number == 2
        assert decisions.names(2) == {"beginner"}
        assert {p.name for p in session.players.values()} == {"beginner"}
        assert loop.settings_view().next_level == ""
        games = [d.summary_json() for d in session.table.finished_deals]
    finally:
        session.close()

    decisions.made.clear()
    session, loop = live_table(journal, now)  # the journal replayed once more
    try:
        assert [d.summary_json() for d in session.table.finished_deals] == games
        assert not decisions.made  # replayed as journalled: nobody was asked again
        assert session.computer_level() == "beginner"
    finally:
        session.close()


def test_a_choice_before_the_first_card_plays_this_deal(monkeypatch: pytest.MonkeyPatch) -> None:
    """No card of the deal dealt yet: nobody has decided, so it is the next deal."""
    decisions = Decisions(monkeypatch)
    session = Session(simulated_config(computer_seats=(0, 1, 2), series_length=None, seed=5),
                      computer_seats=(0, 1, 2))
    decisions.session = session
    loop = EventLoop(session, simulator=DealingSimulator(session, 5))
    loop.use_settings(SettingsFile(None))
    loop.pace = loop.trick_pause = 0.0
    loop.handle(cmd.ChangeSetting("level", "beginner"))
    assert (loop.settings_view().level, loop.settings_view().next_level) == ("beginner", "")
    loop.handle(cmd.DealRest())
    assert session.table.phase == "scored" and decisions.names(1) == {"beginner"}


def club_config(tmp_path: Path, **computer: Any) -> Any:
    raw = tomllib.loads(CONFIG.read_text(encoding="utf-8"))
    pw = tmp_path / "pw"
    pw.write_text("secret\n", encoding="utf-8")
    raw["club"] = {"broker": "mqtt://127.0.0.1:1883", "club": "c1", "table": "t1",
                   "username": "t1", "password_file": str(pw)}
    raw["computer"] = {"seats": [1, 2], **computer}
    return parse_config(raw)


def kiosk(session: Session, settings: SettingsFile) -> EventLoop:
    """The event loop of a table without a simulator, its kiosk settings in ``settings``."""
    loop = EventLoop(session)
    loop.use_settings(settings)
    return loop


def choose_level(loop: EventLoop, level: str, caplog: pytest.LogCaptureFixture) -> None:
    """The kiosk's command choosing ``level``, what it logs kept in ``caplog``."""
    with caplog.at_level(logging.WARNING):
        loop.handle(cmd.ChangeSetting("level", level))


def test_a_club_table_keeps_the_configs_level(tmp_path: Path,
                                              caplog: pytest.LogCaptureFixture) -> None:
    """A tournament plays at the config's level: the kiosk offers no choice (it says why),
    a command that comes anyway is refused and said in the log, and a level kept from
    before the table joined a club counts for nothing."""
    config = club_config(tmp_path, level="expert")
    assert fixed_by(config) == "club"
    path = tmp_path / "journal.settings.json"
    SettingsFile(path).save(KioskSettings(level="beginner"))
    session = Session(config, computer_seats=(1, 2))
    loop = kiosk(session, SettingsFile(path))
    choose_level(loop, "club", caplog)
    assert "a club table plays at the level its config sets" in caplog.text
    assert loop.settings.level == "beginner"  # unchanged: nothing new was kept
    assert session.computer_level() == session.computer_level(1) == "expert"
    view = loop.settings_view()
    assert (view.level, view.next_level, view.level_fixed) == ("expert", "", "club")


def test_a_player_named_in_the_config_is_not_the_kiosks_to_change(
        caplog: pytest.LogCaptureFixture) -> None:
    config = simulated_config(computer_seats=(1, 2))
    config = replace(config, computer=replace(config.computer, player="rule"))
    session = Session(config, computer_seats=(1, 2))
    loop = kiosk(session, SettingsFile(None))
    choose_level(loop, "expert", caplog)
    assert "the table's config chooses the computer player" in caplog.text
    assert session.computer_level(1) == "rule"
    view = loop.settings_view()
    assert (view.level, view.level_fixed) == ("rule", "config")


def test_no_level_without_computer_seats(caplog: pytest.LogCaptureFixture) -> None:
    session = Session(simulated_config(computer_seats=()))
    loop = kiosk(session, SettingsFile(None))
    assert loop.settings_view().level == ""  # no row on the settings screen
    choose_level(loop, "expert", caplog)
    assert "no seat at this table is played by the computer" in caplog.text
    assert loop.chosen("level") is None


def test_a_club_table_whose_config_names_a_player_shows_it(tmp_path: Path) -> None:
    session = Session(club_config(tmp_path, player="rule"), computer_seats=(1, 2))
    view = kiosk(session, SettingsFile(None)).settings_view()
    assert (view.level, view.level_fixed) == ("rule", "club")

"""The statistics on the kiosk, as a person reaches them: from the score sheet and from a
series' summary, by taps (and the H key), with the figures counted by hand from the
journal's finished series (tests/archivekit.py), the series page, and the way back."""

from __future__ import annotations

import time
from pathlib import Path

import pygame
from archivekit import write_journal
from tabletop import Tabletop


def ready(t: Tabletop) -> None:
    """Until the worker has made the archive and the loop has shown it."""
    assert t.session.archive.wait(60)
    for _ in range(50):
        t.settle(0.05)
        stats = t.view.stats
        if stats is not None and stats.state == "done" and not t.session.archive.pending:
            return
        time.sleep(0.02)
    raise AssertionError("the statistics were not shown")


def rows(t: Tabletop, first: str) -> dict[str, dict[str, str]]:
    """The statistics' rows by the text of their first cell (``first``: its role): each
    cell's text by its role."""
    out: dict[str, dict[str, str]] = {}
    heads = [e for e in t.kiosk.elements if e.role == first]
    for head in heads:
        out[head.text] = {e.role: e.text for e in t.kiosk.elements
                          if e.role.startswith("stats-") and e.rect.y == head.rect.y}
    return out


def test_the_statistics_from_the_sheet_show_the_counted_figures(tmp_path: Path) -> None:
    t = Tabletop(journal=write_journal(tmp_path / "journal.sqlite"), games=1)
    try:
        ready(t)
        assert not t.find("stats-button")  # not in the play itself: on the sheet
        t.tap("sheet-button")
        t.tap("stats-button", touch=True)
        assert t.kiosk.ui.show_stats and t.one("title").text == "Statistik"
        assert t.one("subtitle").text == "4 abgeschlossene Listen"
        got = rows(t, "stats-name")
        # the players at the table first, by Seeger-Fabian points per series, then Dieter
        assert [e.text for e in t.find("stats-name")] == ["Ben", "Anna", "Carla", "Dieter"]
        assert got["Anna"] == {
            "stats-name": "Anna", "stats-series": "4", "stats-games": "15",
            "stats-won": "4/5 · 80 %", "stats-sf": "+121", "stats-best": "Kreuz Hand +156"}
        assert got["Ben"]["stats-won"] == "6/7 · 86 %" and got["Ben"]["stats-sf"] == "+194"
        assert got["Carla"]["stats-sf"] == "-22" and got["Carla"]["stats-best"] == "Herz +60"
        assert (got["Dieter"]["stats-games"], got["Dieter"]["stats-won"],
                got["Dieter"]["stats-best"]) == ("6", "0/0", "–")

        t.tap("stats-page-series")
        assert t.kiosk.ui.stats_page == "series"
        played = [e.text for e in t.find("stats-played")]
        assert played == ["1", "3", "8", "6"]  # the latest first; the broken-off one open
        totals = [e.text for e in t.find("stats-total")]
        # series 2 counted Seeger-Fabian: its totals are those; the winner's in gold
        assert totals[6:10] == ["+244", "+476", "-72", "+30"]
        gold = [e.text for e in t.find("stats-player") if e.colour == (255, 196, 48)]
        assert gold == ["Ben", "Ben", "Carla"]

        t.tap("stats-back")
        assert not t.kiosk.ui.show_stats and t.kiosk.ui.show_sheet  # back on the sheet
        t.key(pygame.K_h)
        assert t.kiosk.ui.show_stats and t.kiosk.ui.stats_page == "series"
        t.key(pygame.K_ESCAPE)
        assert not t.kiosk.ui.show_stats and t.kiosk.ui.show_sheet
    finally:
        t.close()


def test_the_summary_of_a_series_opens_the_statistics_with_it(tmp_path: Path) -> None:
    """A series played to its end at the window: its summary has a Statistics button, and
    the statistics count the series just finished."""
    t = Tabletop(journal=write_journal(tmp_path / "journal.sqlite"), games=1, seed=3)
    try:
        for _ in range(400):
            if t.kiosk.ui.series_end:
                break
            t.act()
        assert t.kiosk.ui.series_end
        ready(t)
        t.tap("stats-button", touch=True)
        assert t.one("subtitle").text == "5 abgeschlossene Listen"
        deal = t.table.series.sheet[0]
        anna = rows(t, "stats-name")["Anna"]
        assert anna["stats-series"] == "5"
        assert anna["stats-games"] == str(15 + (not deal.passed_in))
        t.tap("stats-back")
        assert t.kiosk.ui.series_end and t.find("series-back")  # where it was opened
    finally:
        t.close()


def test_without_a_journal_there_are_no_statistics_to_offer() -> None:
    t = Tabletop(games=1)
    try:
        t.tap("sheet-button")
        assert t.view.stats is None and not t.find("stats-button")
    finally:
        t.close()


def test_esc_closes_what_is_on_top_of_the_statistics(tmp_path: Path) -> None:
    """The language picker or the settings opened over the statistics: Esc closes that
    first, then the statistics."""
    t = Tabletop(journal=write_journal(tmp_path / "journal.sqlite"), games=1)
    try:
        ready(t)
        t.tap("sheet-button")
        t.tap("stats-button")
        t.tap("language")
        assert t.kiosk.ui.picker and t.kiosk.ui.show_stats
        t.key(pygame.K_ESCAPE)
        assert not t.kiosk.ui.picker and t.kiosk.ui.show_stats and t.find("stats-back")
        t.tap("settings-button")
        assert t.kiosk.ui.settings and not t.find("stats-back")
        t.key(pygame.K_ESCAPE)
        assert not t.kiosk.ui.settings and t.kiosk.ui.show_stats and t.find("stats-back")
        t.key(pygame.K_ESCAPE)
        assert not t.kiosk.ui.show_stats and t.kiosk.ui.show_sheet
    finally:
        t.close()

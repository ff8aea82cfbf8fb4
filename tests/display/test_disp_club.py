"""The club on the kiosk: the status line in every language and the seating scene laid out."""

from __future__ import annotations

import pytest
from test_disp_layout import check_layout

from display import commands as cmd
from display.clubscene import club_line
from display.i18n import translator
from display.render import Renderer
from display.view import LANGUAGES, ClubLine, SeatingView, View

LINES = [ClubLine("offline", "20:14", 3), ClubLine("offline", "20:14", 1),
         ClubLine("offline", "20:14", 0), ClubLine("online", "", 0),
         ClubLine("online", "", 5), ClubLine("connecting"), ClubLine("refused", "09:02", 2)]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_status_lines_are_translated_with_time_and_count(lang: str) -> None:
    tr = translator(lang)
    texts = [club_line(c, tr) for c in LINES]
    assert len(set(texts)) == len(texts)
    assert "20:14" in texts[0] and "3" in texts[0] and "09:02" in texts[-1]
    if lang != "en":
        assert texts[0] != club_line(LINES[0], translator("en"))


def test_the_english_line_is_the_issues_example() -> None:
    assert club_line(LINES[0], translator("en")) == "club: offline since 20:14, 3 games waiting"
    assert club_line(LINES[1], translator("en")).endswith("1 game waiting")


def seating_view(lang: str, confirmed=(True, False, False, False)) -> View:
    names = ("Anna-Lena Müller-Lüdenscheidt", "Ben", "Carla", "Dr. Zbigniew Brzęczyszczykiewicz")
    return View(scene="seating", players=names, language=lang,
                club=ClubLine("offline", "20:14", 3),
                seating=SeatingView("Herbstpreisskat-2026", "2", 48, 3, names, confirmed))


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("size", [(800, 480), (1920, 1080)])
def test_seating_scene_lays_out(renderer: Renderer, lang: str, size) -> None:
    view = seating_view(lang)
    elements = renderer.layout(view, size)
    problems = check_layout(elements, size)
    assert not problems, problems
    seats = [e for e in elements if e.role == "seating-seat"]
    assert len(seats) == 4
    # A seat that has confirmed is not a button any more; the others confirm by touch.
    assert seats[0].command is None
    assert [e.command for e in seats[1:]] == [cmd.ConfirmSeat(1), cmd.ConfirmSeat(2),
                                              cmd.ConfirmSeat(3)]
    assert any("20:14" in (e.text or "") for e in elements), "the status line is shown"

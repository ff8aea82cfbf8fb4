"""The open-card analysis on the kiosk: the sentence in every language, the line on the result
screen, the trick-by-trick view a tap away, and the screenshots of the docs."""

from __future__ import annotations

import doctest
from dataclasses import replace
from pathlib import Path

import pygame
import pytest

import display.analysis
from display import commands as cmd
from display.analysis import AnalysisCard, AnalysisView, analysis_sentence
from display.i18n import translator
from display.kiosk import Kiosk
from display.layout import Frame
from display.render import Renderer
from display.samples import demo_view
from display.scenes import SceneBuilder, UiState
from display.screenshots import write_screenshots
from display.view import LANGUAGES
from engine.cards import Card

NAMES = ("Anna", "Ben", "Carla")


def test_doctests() -> None:
    result = doctest.testmod(display.analysis)
    assert result.attempted > 0 and result.failed == 0


def views() -> dict[str, AnalysisView]:
    card = AnalysisCard(4, 1, Card.ST, 58, False, 16, True)
    return {
        "values": AnalysisView("done", declarer=0, start_value=74, start_makes=True,
                               cards=(card,), deciding=0),
        "outcome": AnalysisView("done", detail="outcome", declarer=0, start_makes=False,
                                cards=(replace(card, value=None, makes=True, lost=None),),
                                deciding=0),
        "caught": AnalysisView("done", null=True, declarer=1, start_makes=True, cards=(
            AnalysisCard(2, 1, Card.HA, None, False, None, True),), deciding=0),
        "escaped": AnalysisView("done", null=True, declarer=1, start_makes=False, cards=(
            AnalysisCard(3, 2, Card.C7, None, True, None, True),), deciding=0),
        "discard": AnalysisView("done", declarer=2, start_value=55, start_makes=False,
                                best_makes=True, best_discard=(Card.SA, Card.ST),
                                cards=(replace(card, turned=False),)),
        "steady": AnalysisView("done", declarer=2, start_value=90, start_makes=True,
                               cards=(replace(card, turned=False, lost=0),)),
        "pending": AnalysisView("pending"),
    }


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_sentence_in_every_language(lang: str) -> None:
    tr = translator(lang)
    sentences = {k: analysis_sentence(a, NAMES.__getitem__, tr) for k, a in views().items()}
    assert len(set(sentences.values())) == len(sentences)  # each case says something else
    for k, text in sentences.items():
        assert text and "{" not in text and "}" not in text, (k, text)
    assert "74" in sentences["values"] and "Ben" in sentences["values"]
    assert tr.card(Card.ST) in sentences["values"]
    assert tr.card(Card.HA) in sentences["caught"] and "Ben" in sentences["caught"]
    assert tr.card(Card.SA) in sentences["discard"]
    assert analysis_sentence(AnalysisView("none"), NAMES.__getitem__, tr) == ""
    if lang == "en":
        assert sentences["values"] == ("With open cards the declarer makes 74; Ben's 10 of "
                                       "spades in trick 4 gave the game away")
        assert sentences["caught"].endswith("let the declarer be caught")
        assert sentences["escaped"].endswith("let the declarer escape")


def layout(view, size=(800, 480), ui: UiState | None = None):
    pygame.font.init()
    frame = Frame(size, Renderer().fonts)
    SceneBuilder(frame, view, translator(view.language), ui or UiState()).build()
    return frame.elements


@pytest.fixture(scope="module")
def demo() -> dict[str, object]:
    return {lang: demo_view(lang) for lang in LANGUAGES}


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("size", [(800, 480), (1920, 1080)])
def test_result_line_and_trick_view_fit(demo: dict, lang: str, size: tuple[int, int]) -> None:
    view = demo[lang]
    a = view.analysis
    assert a is not None and a.state == "done" and len(a.cards) == 30
    els = layout(view, size)
    line = [e for e in els if e.role == "analysis-line"]
    assert len(line) == 1 and line[0].command == cmd.ShowAnalysis() and line[0].fits
    els = layout(view, size, UiState(show_analysis=True))
    roles = [e.role for e in els]
    assert roles.count("analysis-card") == 30
    assert roles.count("analysis-trick") == 10
    assert roles.count("analysis-lost-points") == sum(1 for c in a.cards if c.lost)
    framed = [e for e in els if e.role == "analysis-card" and e.selected]
    assert len(framed) == sum(1 for c in a.cards if c.turned) >= 1
    values = [e.text for e in els if e.role == "analysis-value"]
    assert values == [str(c.value) for c in a.cards]
    back = [e for e in els if e.role == "analysis-back"]
    assert back and back[0].command == cmd.ShowAnalysis()
    for e in els:
        if e.kind in ("text", "button") and e.text:
            assert e.fits, (lang, size, e.role, e.text)


def test_pending_shows_words_and_no_tap(demo: dict) -> None:
    view = replace(demo["de"], analysis=AnalysisView("pending"))
    line = [e for e in layout(view) if e.role == "analysis-line"]
    assert len(line) == 1 and line[0].command is None
    assert "berechnet" in line[0].text
    # the view cannot be opened while pending: the result stays
    els = layout(view, ui=UiState(show_analysis=True))
    assert not any(e.role == "analysis-card" for e in els)
    none = replace(demo["de"], analysis=AnalysisView("none"))
    assert not any(e.role == "analysis-line" for e in layout(none))


def test_a_tap_opens_and_closes_the_trick_view(demo: dict) -> None:
    k = Kiosk(idle_after=300).open((800, 480))
    try:
        pygame.event.clear()
        k.show(demo["en"])
        line = next(e for e in k.elements if e.role == "analysis-line")
        pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=line.rect.center,
                                             button=1, touch=False))
        assert k.wait_events(0.05) == []  # the kiosk's own business, nothing for the table
        assert sum(1 for e in k.elements if e.role == "analysis-card") == 30
        back = next(e for e in k.elements if e.role == "analysis-back")
        pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=back.rect.center,
                                             button=1, touch=False))
        assert k.wait_events(0.05) == []
        assert any(e.role == "analysis-line" for e in k.elements)
        assert not any(e.role == "analysis-card" for e in k.elements)
        # a new scene (the next deal) closes it for good
        pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=line.rect.center,
                                             button=1, touch=False))
        k.wait_events(0.05)
        k.show(replace(demo["en"], scene="sheet"))
        assert not k.ui.show_analysis
    finally:
        k.close()


def test_the_docs_screenshots_can_be_made_again(tmp_path: Path) -> None:
    written = write_screenshots(tmp_path, ("de",))
    assert [p.name for p in written] == ["analysis-result-de.png", "analysis-tricks-de.png"]
    for p in written:
        img = pygame.image.load(str(p))
        assert img.get_size() == (800, 480)

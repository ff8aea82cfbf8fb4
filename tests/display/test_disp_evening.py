"""An evening at the simulator's window as players meet it: taps, touches and keys posted into
the running kiosk (``tabletop.py``), through the real event loop, controller and computer
seats. The end of a series, the moments that must say something, and the small things a
person notices (the claim's levels, the skat in the hand, the sheet's dealer marks, Esc)."""

from __future__ import annotations

import pygame
from tabletop import Tabletop
from test_disp_table import play_until


def test_the_last_deal_is_a_result_like_any_other_then_the_series_end() -> None:
    """The last deal of a series shows its result (breakdown, analysis, undo) like every
    other; "End of the series" leads on to the summary; "New series" is not where Undo was
    and asks before it starts anything."""
    from firmware_host.screen.analysis import attach

    t = Tabletop(seed=1, games=2)
    attach(t.session, t.loop.post)
    try:
        play_until(t, lambda: t.view.scene == "result" and t.view.sheet.finished, 2000)
        assert t.one("result-breakdown").text and t.one("result-value").text
        assert t.find("analysis-line")                   # the open-card analysis, as ever
        assert not t.find("deal-next") and not t.find("new-series")
        undo = t.one("undo").rect
        t.tap("series-end")
        assert t.find("summary-head") and t.view.sheet.winner is not None
        assert t.view.players[t.view.sheet.winner] in t.one("summary-head").text
        assert len(t.find("summary-total")) == 3
        new = t.one("new-series")
        assert not new.rect.colliderect(undo) and t.one("undo").rect == undo
        t.tap_at(*undo.center)                            # a tap meant for Undo ...
        assert t.view.scene == "play" and t.table.phase == "play"  # ... undoes, nothing else
        play_until(t, lambda: t.view.scene == "result" and t.view.sheet.finished, 400)
        t.tap("series-end")
        t.tap("new-series", touch=True)                   # asks first
        assert t.view.scene == "result" and t.find("confirm-new-series")
        t.tap("confirm-cancel")
        assert t.view.scene == "result" and t.find("summary-head") and t.table.phase == "over"
        t.tap("series-back")                              # the result again
        assert t.find("result-breakdown") and t.find("series-end")
        t.key(pygame.K_SPACE)                             # Space goes on as the button does
        assert t.find("summary-head")
        t.key(pygame.K_SPACE)
        assert t.find("confirm-new-series") and t.table.phase == "over"
        t.key(pygame.K_y)
        assert t.view.scene == "deal" and t.view.sheet.rows == () and t.view.game_number == 1
    finally:
        t.close()


def test_the_series_end_and_the_questions_lay_out_cleanly(renderer) -> None:
    """The summary (three and four players, with a stake and Seeger-Fabian), the new-series
    and the quit questions, in every language at both sizes and on a 7-inch 1024x600."""
    from dataclasses import replace

    from test_disp_layout import check_layout

    from display.samples import extra_views
    from display.scenes import UiState
    from display.view import LANGUAGES

    problems = []
    for language in LANGUAGES:
        views = extra_views(language)
        for name in ("result-series-end", "result-series-end-four"):
            view = views[name]
            for ui in (UiState(series_end=True), UiState(series_end=True, confirm="new-series"),
                       UiState(confirm="quit"), UiState()):
                for size in ((800, 480), (1024, 600), (1920, 1080)):
                    elements = renderer.layout(replace(view, simulator=True), size, ui)
                    problems += [f"{language} {name} {ui} {size}: {p}"
                                 for p in check_layout(elements, size)]
    assert not problems, "\n".join(problems[:20])


def test_escape_asks_before_it_quits_the_table() -> None:
    """Esc mid-game opens a question (quit, or stay); Esc or "stay" closes it and play goes
    on; only the answer quits."""
    t = Tabletop(seed=1, games=None)
    try:
        play_until(t, lambda: t.anna_to_play())
        t.key(pygame.K_ESCAPE)
        assert not t.kiosk.closed and t.find("quit-confirm") and t.find("confirm-cancel")
        t.key(pygame.K_ESCAPE)                     # closes the question
        assert not t.kiosk.closed and not t.find("quit-confirm")
        t.key(pygame.K_ESCAPE)
        t.tap("confirm-cancel", touch=True)        # "stay"
        assert not t.kiosk.closed and not t.find("quit-confirm")
        t.tap(t.hand_card(t.legal_cards()[0]))     # play goes on as ever
        assert not t.anna_to_play() or t.view.play.trick.cards
        t.key(pygame.K_ESCAPE)
        t.tap("quit-confirm")
        assert t.kiosk.closed
    finally:
        t.close()

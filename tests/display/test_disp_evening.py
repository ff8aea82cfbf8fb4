"""An evening at the simulator's window as players meet it: taps, touches and keys posted into
the running kiosk (``tabletop.py``), through the real event loop, controller and computer
seats. The end of a series, the moments that must say something, and the small things a
person notices (the claim's levels, the skat in the hand, the sheet's dealer marks, Esc)."""

from __future__ import annotations

import pygame
import pytest
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


# ---- moments that must say something ---------------------------------------------------------

def hinted_table(seed: int, language: str = "en", **kw: object) -> Tabletop:
    """Anna and two computers at a table with hints on."""
    from dataclasses import replace

    from firmware_host.config import simulated_config

    cfg = simulated_config(computer_seats=(1, 2), series_length=None, seed=seed,
                           language=language)
    cfg = replace(cfg, table=replace(cfg.table, hints=True))
    return Tabletop(seed=seed, games=None, config=cfg, **kw)  # type: ignore[arg-type]


def anna_declares(t: Tabletop, also=lambda: True, steps: int = 800) -> bool:
    """Play (Anna bidding) until Anna is to play as declarer of a suit or grand game and
    ``also()`` holds; False when the deal ended otherwise."""
    play_until(t, lambda: (t.view.scene == "play" and t.view.play.declarer == 0
                           and t.view.play.contract[0] != "N" and t.anna_to_play() and also())
               or t.view.scene == "result", steps)
    return t.view.scene == "play"


def test_a_claim_the_computers_turn_down_is_said() -> None:
    """Anna claims the rest; a computer defender disagrees: the screen says so (who, and
    that play goes on with her cards open) instead of carrying on as if nothing happened."""
    for seed in (2, 3, 5, 6, 7, 8):
        t = Tabletop(seed=seed, games=None, bids=True, language="de")
        try:
            if not anna_declares(t, lambda t=t: bool(t.find("claim"))):
                continue
            t.tap("claim")
            t.tap("claim-simple", touch=True)
            t.settle()
            if t.view.scene != "play":
                continue                           # agreed: the game was scored as claimed
            from engine.actions import Disagree

            said_no = [a for a in t.table.game.actions if isinstance(a, Disagree)]
            assert said_no and t.view.play.waiting is None
            disagreed = t.table.deal.seats[said_no[-1].pos]
            assert disagreed in (1, 2) and t.view.play.to_act is not None
            text = t.one("news-text").text
            assert t.view.players[disagreed] in text and "Anna" in text
            assert "nicht einverstanden" in text
            return
        finally:
            t.close()
    pytest.fail("no seed gave a claim the computers disagreed with")


def test_a_refused_claim_level_is_said_in_the_tables_language() -> None:
    """The engine's reasons for a claim it does not take read in every language (no bare
    "not allowed")."""
    from display.i18n import translator
    from display.view import LANGUAGES, Fault
    from display.wording import fault_sentence

    reasons = ("Anna: the defenders already have a trick: schwarz cannot be claimed",
               "Anna: the defenders already have 34 points: schneider cannot be claimed",
               "Anna: a null game has no schneider or schwarz to claim")
    for language in LANGUAGES:
        tr = translator(language)
        for reason in reasons:
            said = fault_sentence(Fault("other", seat=0, detail=reason), tr, ("Anna", "B", "C"))
            assert said != tr("Not allowed") and ("34" in said or "34" not in reason), said


def test_the_turn_banner_goes_once_the_computers_have_moved() -> None:
    """Anna taps a card while Ben is to play: "It is Ben's turn"; once the computers have
    laid their cards the banner is gone (it was about a moment that has passed)."""
    t = Tabletop(seed=1, games=None, paced=True, language="en")
    now = [100.0]
    t.loop.clock = lambda: now[0]
    try:
        for _ in range(600):
            if t.anna_to_play() and not t.view.play.trick.cards and len(t.view.hands[0]) > 2:
                break
            if t.view.scene == "play" and not t.anna_to_play():
                now[0] += 2.0
                t.settle(0.0)
                continue
            t.act()
        t.tap(t.hand_card(t.legal_cards()[0]))
        now[0] += 0.5                               # not a double tap; before Ben's card
        t.tap(t.find("hand0")[0])
        assert "turn" in t.one("refusal-text").text
        for _ in range(3):
            now[0] += 2.0
            t.settle(0.0)
        assert t.anna_to_play() or t.view.play.trick.winner is not None
        assert t.view.refusal is None and not t.find("refusal")
    finally:
        t.close()


def test_the_last_trick_closes_when_the_next_card_is_laid() -> None:
    t = Tabletop(seed=1, games=None)
    try:
        play_until(t, lambda: t.anna_to_play() and t.view.play.last_trick is not None)
        t.tap("last-button")
        assert t.find("last-trick-panel")
        t.tap(t.hand_card(t.legal_cards()[0]))
        assert not t.find("last-trick-panel") and t.one("trick-card")
    finally:
        t.close()


def test_the_hint_banner_leaves_concede_free() -> None:
    """The hint's banner never lies over a button: Concede takes its tap with a hint shown."""
    for seed in (2, 3, 5, 6, 7, 8):
        t = hinted_table(seed, bids=True)
        try:
            if not anna_declares(t, lambda t=t: bool(t.find("concede")
                                                    and t.find("hint-button"))):
                continue
            t.tap("hint-button")
            banner = t.one("hint")
            assert banner.text.startswith("Hint for Anna")
            for button in (e for e in t.kiosk.elements if e.command is not None):
                assert not banner.rect.colliderect(button.rect), button.role
            t.tap("concede")
            assert t.find("confirm-declarer")         # the concede question opened
            return
        finally:
            t.close()
    pytest.fail("Anna declared in none of the seeds tried")


def test_the_hint_after_the_pickup_says_the_discard_first() -> None:
    """After taking the skat the table wants two discards before the declaration: the hint
    says which card to lay away (and the game it is meant for), not "declare"."""
    for seed in (2, 3, 4, 5):
        t = hinted_table(seed, bids=True)
        try:
            play_until(t, lambda t=t: (t.view.scene == "declaration" and t.view.turn == 0
                                       and t.view.declaration.skat_taken)
                       or t.view.scene in ("play", "result"))
            if t.view.scene != "declaration":
                continue
            for left in (2, 1):
                t.tap("hint-button")
                text = t.one("hint").text
                assert text.startswith("Hint for Anna: lay away") and "then declare" in text
                card = t.view.hint.card
                t.tap(t.hand_card(card))
                assert len(t.view.declaration.discards) == 3 - left
            t.tap("hint-button")
            assert t.one("hint").text.startswith("Hint for Anna: declare")
            return
        finally:
            t.close()
    pytest.fail("Anna took up the skat in none of the seeds tried")


def test_a_double_tap_lays_one_card_and_raises_no_banner() -> None:
    """A finger that comes down twice on Anna's hand lays one card; the second tap (on the
    card that slid under it) is not a card out of turn with a red banner."""
    t = Tabletop(seed=1, games=None, paced=True, language="en")
    now = [100.0]
    t.loop.clock = lambda: now[0]
    try:
        for _ in range(600):
            if t.anna_to_play() and len(t.view.hands[0]) > 2:
                break
            if t.view.scene == "play" and not t.anna_to_play():
                now[0] += 2.0
                t.settle(0.0)
                continue
            t.act()
        first = t.hand_card(t.legal_cards()[0])
        at = first.rect.center
        t.tap_at(*at, touch=True)
        now[0] += 0.15
        t.tap_at(*at, touch=True)                    # the same finger, again
        assert t.view.refusal is None and not t.find("refusal")
        assert first.card not in t.view.hands[0] and len(t.table.game.trick) >= 1
        now[0] += 0.3                                # past a double tap, before Ben's card
        t.tap(t.find("hand0")[0])                    # a second card: out of turn, said
        assert t.find("refusal")
    finally:
        t.close()


def test_a_tap_on_a_card_during_the_bidding_is_answered() -> None:
    """During the bidding a tap on a card says why no card is laid now."""
    t = Tabletop(seed=1, games=None, language="de")
    try:
        play_until(t, lambda: t.view.scene == "bidding")
        t.tap(t.find("hand0")[3], touch=True)
        assert "gereizt" in t.one("refusal-text").text
        assert t.view.scene == "bidding" and len(t.view.hands[0]) == 10
        t.tap("refusal")                             # a tap closes it; the bidding goes on
        assert not t.find("refusal") and t.find("press-pass")
    finally:
        t.close()


# ---- small things a person notices ------------------------------------------------------------

def test_no_shadow_is_left_behind_on_a_big_screen() -> None:
    """On a 1080p screen a button's shadow reaches 7 px below it: after every step of a deal
    (new scenes, buttons gone or moved) the screen is exactly a fresh drawing of the view, no
    stale shadow left by the partial redraw."""
    from display.render import render

    t = Tabletop(seed=1, games=None, size=(1920, 1080))
    try:
        for step in range(40):
            fresh = render(t.view, t.kiosk.size, t.kiosk.ui, t.kiosk.renderer)
            same = (pygame.image.tobytes(fresh, "RGB")
                    == pygame.image.tobytes(t.kiosk.screen, "RGB"))
            assert same, f"step {step}: {t.view.scene} differs from a fresh drawing"
            if t.view.scene == "result":
                break
            t.act()
    finally:
        t.close()


def test_the_bidding_history_reads_naturally_in_english() -> None:
    """"Ben passes", "Anna says yes", "Carla plays clubs": never "Ben pass"."""
    import re

    for seed in range(1, 12):
        t = Tabletop(seed=seed, games=None, bids=True, language="en")
        try:
            play_until(t, lambda t=t: t.view.scene not in ("deal", "bidding")
                       or any(c.what == "pass" for c in t.view.calls))
            if t.view.scene not in ("bidding", "declaration"):
                continue
            history = t.one("bid-history" if t.view.scene == "bidding"
                            else "decl-history").text
            passed = next(c.seat for c in t.view.calls if c.what == "pass")
            assert f"{t.view.players[passed]} passes" in history, history
            assert not re.search(r"\bpass\b", history), history
            return
        finally:
            t.close()
    pytest.fail("nobody passed where the history shows in the seeds tried")


def test_the_dealer_mark_sits_in_the_dealers_own_column() -> None:
    """On the sheet the dealer's mark sits by the dealer's own numbers (the right of the
    column), not by the column before it; four players, where the columns are narrow."""
    from firmware_host.config import simulated_config

    cfg = simulated_config(players=("Anna", "Ben", "Carla", "Dieter"), computer_seats=(1, 2, 3),
                           series_length=None, seed=3, language="en")
    t = Tabletop(seed=3, games=None, config=cfg)
    try:
        play_until(t, lambda: len(t.view.sheet.rows) >= 4 and t.view.scene == "deal", 3000)
        t.tap("sheet-button")
        heads = t.find("sheet-player")               # one per seat, in seat order
        rows = {r.number: r for r in t.view.sheet.rows}
        numbers = {e.rect.centery: int(e.text) for e in t.find("sheet-num")}
        marks = t.find("sheet-dealer")
        assert len(marks) == len(numbers) >= 4
        for mark in marks:
            dealer = rows[numbers[mark.rect.centery]].dealer
            head = heads[dealer].rect
            assert head.centerx <= mark.rect.centerx <= head.right, (dealer, mark.rect, head)
    finally:
        t.close()


def test_the_cards_taken_up_from_the_skat_are_marked_in_the_hand() -> None:
    """After the pick-up the two skat cards are marked (a gold edge) among the twelve, until
    they are laid away; no other card is."""
    from display.layout import GOLD
    from engine.cards import mask_cards

    for seed in (2, 3, 4, 5):
        t = Tabletop(seed=seed, games=None, bids=True)
        try:
            play_until(t, lambda t=t: (t.view.scene == "declaration" and t.view.turn == 0
                                       and t.view.declaration.skat_taken)
                       or t.view.scene in ("play", "result"))
            if t.view.scene != "declaration":
                continue
            skat = set(mask_cards(t.table.game.deal.skat))     # as dealt
            assert len(skat) == 2
            marked = {e.card for e in t.find("hand0") if e.selected}
            assert marked == skat
            for e in t.find("hand0"):
                if e.selected:   # the gold edge is on the screen, at the strip's left
                    x, y = e.rect.left + 1, e.rect.centery
                    assert t.kiosk.screen.get_at((x, y))[:3] == GOLD
            t.tap(t.hand_card(sorted(skat)[0]))          # one laid away: one stays marked
            assert {e.card for e in t.find("hand0") if e.selected} == {sorted(skat)[1]}
            return
        finally:
            t.close()
    pytest.fail("Anna took up the skat in none of the seeds tried")


def test_the_claim_dialog_offers_no_level_the_defenders_are_out_of() -> None:
    """Once the defenders have a trick, claiming schwarz is no choice (the table would only
    refuse it): the dialog offers the simple level (and schneider while it is open)."""
    for seed in range(2, 14):
        t = Tabletop(seed=seed, games=None, bids=True)
        try:
            if not anna_declares(t, lambda t=t: t.view.play.tricks[1] > 0
                                 and bool(t.find("claim"))):
                continue
            t.tap("claim")
            assert t.find("claim-simple") and t.find("confirm-cancel")
            assert not t.find("claim-schwarz")
            return
        finally:
            t.close()
    pytest.fail("the defenders took no trick against Anna with a claim button in sight")


def test_a_name_is_not_cut_for_the_turn_pill() -> None:
    """Four at the table on 800x480, Maximiliane to act: her name is shown whole, and the
    "to act" pill still says whose turn it is (beside the name when it fits, else below)."""
    from firmware_host.config import simulated_config

    players = ("Maximiliane", "Ben", "Carla", "Dieter")
    cfg = simulated_config(players=players, computer_seats=(1, 2, 3), series_length=None,
                           seed=3, language="en")
    t = Tabletop(seed=3, games=None, config=cfg)
    try:
        play_until(t, lambda: t.view.turn == 0 and t.view.scene in ("bidding", "play"), 3000)
        names = [e for e in t.find("seat-name")]
        assert names[0].text == "Maximiliane" and names[0].fits
        pill = t.one("turn")
        assert pill.text == "to act" and pill.fits
        for e in t.kiosk.elements:
            if e is not pill and e.layer == pill.layer and e.kind == "text":
                assert not e.rect.colliderect(pill.rect), e.role
    finally:
        t.close()

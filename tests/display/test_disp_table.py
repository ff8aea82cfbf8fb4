"""The simulator's window as a person meets it: taps posted into the running kiosk, through
the real event loop, controller and computer seats (see ``tabletop.py``)."""

from __future__ import annotations

import os
import subprocess
import sys

import pygame
import pytest
from tabletop import Tabletop

from display.kiosk import DisplayUnavailable, Kiosk


@pytest.fixture
def table():
    t = Tabletop(seed=1, games=2)
    yield t
    t.close()


def play_until(t: Tabletop, done, steps: int = 400) -> None:
    for _ in range(steps):
        if done():
            return
        t.act()
    raise AssertionError(f"not reached; the screen shows {t.view.scene}")


def anna_holds_an_illegal_card(t: Tabletop) -> bool:
    return t.anna_to_play() and len(t.legal_cards()) < len(t.view.hands[0])


def test_a_refused_card_can_be_laid_when_it_is_right() -> None:
    """Item 1: a card refused once is laid again later, when it is the card to play."""
    for seed in range(1, 30):
        t = Tabletop(seed=seed, games=None)
        try:
            play_until(t, lambda t=t: anna_holds_an_illegal_card(t) or t.view.scene == "result")
            if t.view.scene != "play":
                continue
            legal = t.legal_cards()
            wrong = next(c for c in t.view.hands[0] if c not in legal)
            t.tap(t.hand_card(wrong))
            assert t.view.refusal is not None and t.view.refusal.card == wrong
            assert wrong in t.view.hands[0]
            # Play on (other cards) until the refused card is a legal one, then lay it.
            for _ in range(60):
                if t.view.scene != "play":
                    break
                if t.anna_to_play() and wrong in t.legal_cards():
                    t.tap(t.hand_card(wrong))
                    assert t.view.refusal is None
                    assert wrong not in (t.view.hands[0] or ())
                    return
                if t.anna_to_play():
                    t.tap(t.hand_card(next(c for c in t.legal_cards() if c != wrong)))
                else:
                    t.act()
        finally:
            t.close()
    pytest.fail("no deal in 30 seeds let a refused card become legal")


def test_the_real_table_takes_a_refused_card_back() -> None:
    """Item 1 on the real table: the refused card is lifted off the reader (gone) and laid
    again later; nothing is left that keeps a legal card from being laid."""
    from firmware_host.table.inputs import TagGone, TagLaid

    t = Tabletop(seed=3, games=None)
    try:
        play_until(t, lambda: anna_holds_an_illegal_card(t))
        tags = t.table.config.card_tags()
        wrong = next(c for c in t.view.hands[0] if c not in t.legal_cards())
        t.loop.handle(TagLaid("centre", tags[wrong]))
        assert t.session.rejected and t.view.refusal.card == wrong
        t.loop.handle(TagGone("centre", tags[wrong]))     # the player takes it back
        assert not t.table.present.get("centre", set()) & {tags[wrong]}
        right = t.legal_cards()[0]
        t.loop.handle(TagLaid("centre", tags[right]))
        assert t.view.refusal is None and right not in (t.view.hands[0] or ())
    finally:
        t.close()


def test_a_whole_series_to_its_end_and_the_next(table: Tabletop) -> None:
    """Item 2: the result screen deals the next game; the series ends with its last result
    and then its summary, which offers a new series (asked first); every step by taps."""
    seen = set()
    for _ in range(2000):
        seen.add(table.view.scene)
        if table.view.scene == "result" and table.view.sheet.finished:
            break
        if table.view.scene == "result":
            assert table.one("deal-next").text
        table.act()
    assert table.view.scene == "result" and table.view.sheet.finished
    assert {"deal", "result"} <= seen
    table.tap("series-end")
    table.tap("new-series")
    table.tap("confirm-new-series")
    assert table.view.scene == "deal" and table.view.sheet.rows == ()
    assert table.view.deal.counted == 1


def test_space_deals_the_next_game(table: Tabletop) -> None:
    play_until(table, lambda: table.view.scene == "result")
    number = table.view.game_number
    table.key(pygame.K_SPACE)
    assert table.view.scene == "deal" and table.view.game_number == number + 1


def test_the_real_table_says_how_the_next_deal_starts() -> None:
    from display.render import Renderer
    from display.samples import sample_view

    elements = Renderer().layout(sample_view("result", "de"), (800, 480))
    hint = next(e for e in elements if e.role == "next-hint")
    assert "Kartengeber" in hint.text or "Karte" in hint.text


def test_a_tap_on_the_banner_closes_it_and_reaches_nothing_under_it() -> None:
    """Item 3: the red banner takes the taps on it; a tap closes it."""
    t = Tabletop(seed=2, games=None)
    try:
        play_until(t, lambda: anna_holds_an_illegal_card(t))
        wrong = next(c for c in t.view.hands[0] if c not in t.legal_cards())
        t.tap(t.hand_card(wrong))
        banner = t.one("refusal")
        inputs = len(t.table.stack)
        t.tap_at(banner.rect.right - 5, banner.rect.centery, touch=True)  # its right end
        assert len(t.table.stack) == inputs and t.table.phase == "play"
        assert not t.find("refusal") and t.view.refusal is not None
        t.tap(t.hand_card(t.legal_cards()[0]))   # the next card is laid as ever
        assert len(t.table.stack) > inputs
    finally:
        t.close()


def test_no_tap_on_a_banner_reaches_a_button_under_it() -> None:
    """Every sample screen with a banner, at three sizes: a tap on any point of the banner
    where a button lies under it makes no command."""
    from dataclasses import replace

    from display.samples import extra_views, sample_view

    kiosk = Kiosk().open((800, 480))
    checked = 0
    try:
        for size in ((800, 480), (1024, 600), (1920, 1080)):
            kiosk.screen = pygame.display.set_mode(size)
            kiosk._keys = []
            views = [v for v in extra_views("de").values() if v.refusal or v.prompt]
            views.append(replace(sample_view("play", "de", simulator=True),
                                 refusal=extra_views("de")["play-refused"].refusal))
            for view in views:
                kiosk.show(view)
                banners = [e for e in kiosk.elements if e.role in ("refusal", "prompt")]
                for banner in banners:
                    for el in [e for e in kiosk.elements if e.command is not None
                               and e.layer < banner.layer and e.rect.colliderect(banner.rect)]:
                        kiosk.ui = replace(kiosk.ui, hide_refusal=False)
                        kiosk.show(view)
                        x, y = banner.rect.clip(el.rect).center
                        pygame.event.post(pygame.event.Event(
                            pygame.MOUSEBUTTONDOWN, pos=(x, y), button=1, touch=False))
                        assert kiosk.wait_events(0.01) == [], (view.scene, el.role)
                        checked += 1
    finally:
        kiosk.close()
    assert checked > 0


@pytest.mark.parametrize("seed", [2, 3, 5])
def test_conceding_asks_first(seed: int) -> None:
    """Item 3: "Anna gives up: lost, -72?" - cancel plays on, yes ends the game."""
    table = Tabletop(seed=seed, games=None, bids=True)
    try:
        play_until(table, lambda: (table.view.scene == "play"
                                   and table.view.play.declarer == 0)
                   or table.view.scene == "result", 800)
        if table.view.scene == "play":
            check_concede(table)
            return
    finally:
        table.close()
    pytest.fail(f"Anna did not declare in the first deal of seed {seed}")


def check_concede(table: Tabletop) -> None:
    table.tap("concede")
    assert table.view.scene == "play" and table.find("confirm-declarer")
    lost = table.view.play.concede_values[0]
    assert f"{lost:+d}" in table.one("confirm-declarer").text
    table.tap("confirm-cancel")
    assert table.view.scene == "play" and not table.find("confirm-declarer")
    table.tap("concede")
    table.tap("confirm-declarer")
    assert table.view.scene == "result" and table.view.result.value == lost
    assert table.view.result.ending == "declarer-conceded"


def test_undo_takes_back_the_persons_card_and_the_computers_after_it(table: Tabletop) -> None:
    """Item 4: undo with computer seats reaches back to Anna's own last card."""
    play_until(table, lambda: table.anna_to_play() and table.view.play.trick.winner is None
               and not table.view.play.trick.cards)
    hand = table.view.hands[0]
    card = table.legal_cards()[0]
    table.tap(table.hand_card(card))
    assert card not in table.view.hands[0]
    table.tap("undo")
    assert table.view.hands[0] == hand and table.anna_to_play()
    # ... and the computer's cards can be laid again: the game goes on.
    table.tap(table.hand_card(card))
    assert card not in table.view.hands[0]
    assert table.view.prompt is None


def test_no_display_is_said_not_hidden() -> None:
    """Item 5: SDL's off-screen fallback is no window: the kiosk says so."""
    env_driver = os.environ.pop("SDL_VIDEODRIVER", None)
    display = os.environ.get("DISPLAY")
    os.environ["DISPLAY"] = ":97"
    try:
        with pytest.raises(DisplayUnavailable, match=r"no video device|no display"):
            Kiosk(size=(800, 480)).open(attempts=1)
    finally:
        pygame.display.quit()
        if env_driver is not None:
            os.environ["SDL_VIDEODRIVER"] = env_driver
        if display is None:
            os.environ.pop("DISPLAY", None)
        else:
            os.environ["DISPLAY"] = display


def test_simulate_without_a_display_falls_back_to_headless(tmp_path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "SDL_VIDEODRIVER"}
    env.update(DISPLAY=":97", XDG_DATA_HOME=str(tmp_path))
    out = subprocess.run([sys.executable, "-m", "firmware_host", "simulate", "--games", "1",
                          "--seed", "4"], env=env, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert "headless" in out.stderr and "Series over" in out.stdout


def test_a_complete_trick_stays_with_its_winner() -> None:
    """Item 6: the third card completes the trick; it stays, winner marked, for 1.5 s in
    the simulator before the computer leads."""
    t = Tabletop(seed=1, games=None, paced=True)
    now = [100.0]
    t.loop.clock = lambda: now[0]
    try:
        for _ in range(600):
            v = t.view
            if v.scene == "play" and len(v.play.trick.cards) == 2 and t.anna_to_play():
                break
            if v.scene == "play" and not t.anna_to_play():
                now[0] += 2.0
                t.settle(0.0)
                continue
            t.act()
        else:
            pytest.fail("Anna never completed a trick")
        t.tap(t.hand_card(t.legal_cards()[0]))
        trick = t.view.play.trick
        assert len(trick.cards) == 3 and trick.winner is not None
        assert t.one("trick-winner") and t.one("trick-taken")
        if trick.winner != 0:   # the computer leads only after the pause
            now[0] += 1.0
            t.settle(0.0)
            assert t.view.play.trick.winner is not None
            now[0] += 1.0
            t.settle(0.0)
            assert t.view.play.trick.winner is None and len(t.view.play.trick.cards) >= 1
    finally:
        t.close()


def test_the_bidding_is_shown_as_a_history() -> None:
    """Item 7: who said what, in order, on the bidding screen and in the seat panels."""
    t = Tabletop(seed=3, games=None, bids=True)
    try:
        play_until(t, lambda: (t.view.scene == "bidding" and len(t.view.calls) >= 2)
                   or t.view.scene not in ("deal", "bidding"))
        assert t.view.scene == "bidding"
        history = t.one("bid-history").text
        first = t.view.calls[0]
        assert t.view.players[first.seat] in history and str(first.value) in history
        said = [c for c in t.view.calls if c.what == "bid"][-1]
        panel = [e for e in t.kiosk.elements if e.role == "seat-role"][said.seat]
        assert str(said.value) in panel.text or "passe" in panel.text
        play_until(t, lambda: t.view.scene != "bidding")
        if t.view.scene == "declaration":
            assert t.one("decl-history").text
    finally:
        t.close()


def screen_equals_a_fresh_render(t: Tabletop) -> float:
    """Share of pixels where the kiosk's screen differs from drawing the view anew."""
    from display.render import render

    fresh = render(t.view, t.kiosk.size, t.kiosk.ui, t.kiosk.renderer)
    shown = t.kiosk.screen
    diff = sum(1 for x in range(0, fresh.get_width(), 4) for y in range(0, fresh.get_height(), 4)
               if fresh.get_at((x, y)) != shown.get_at((x, y)))
    return diff / ((fresh.get_width() // 4) * (fresh.get_height() // 4))


def test_style_and_language_changes_redraw_every_face(table: Tabletop) -> None:
    """Item 8: after a change of card style or language every face and index has the new
    look, and the style buttons (on the settings screen) go on answering."""
    play_until(table, lambda: table.anna_to_play())
    styles = []
    for style in ("four-colour", "german", "french", "four-colour"):
        table.tap("settings-button")
        table.tap(f"style-{style}")
        styles.append(table.view.card_style)
        table.tap("settings-back")
        assert screen_equals_a_fresh_render(table) < 0.002
    assert styles == ["four-colour", "german", "french", "four-colour"]
    table.tap("language")
    table.tap("pick-fr")
    assert table.view.language == "fr" and table.one("title").text == "Jeu de la carte"
    assert screen_equals_a_fresh_render(table) < 0.002
    table.key(pygame.K_c)
    assert table.view.card_style == "german"
    assert screen_equals_a_fresh_render(table) < 0.002


def test_make_run_speaks_german_unless_told_otherwise(monkeypatch) -> None:
    """Item 9: `make run` (simulate without a config) starts in German; LANG or the
    config's language say otherwise."""
    import argparse

    from firmware_host.tools.simulator import add_arguments, simulation_config

    p = argparse.ArgumentParser()
    add_arguments(p)
    for var in ("LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(var, raising=False)
    assert simulation_config(p.parse_args([])).table.language == "de"
    monkeypatch.setenv("LANG", "C.UTF-8")
    assert simulation_config(p.parse_args([])).table.language == "de"
    monkeypatch.setenv("LANG", "pl_PL.UTF-8")
    assert simulation_config(p.parse_args([])).table.language == "pl"
    monkeypatch.setenv("LC_ALL", "nl_NL.UTF-8")
    assert simulation_config(p.parse_args([])).table.language == "nl"
    t = Tabletop(seed=1, config=simulation_config(p.parse_args(["--seed", "1"])))
    try:
        assert t.one("title").text == "Geven" or t.view.language == "nl"
    finally:
        t.close()


def test_the_simulator_deals_by_its_seed() -> None:
    """Item 11: --seed works in the window: the same seed deals the same cards."""
    dealt = []
    for seed in (7, 7, 8):
        t = Tabletop(seed=seed, games=None)
        try:
            t.tap("deal-next")
            t.tap("deal-rest")
            dealt.append(list(t.table.deal.dealt))
        finally:
            t.close()
    assert len(dealt[0]) == 32 and dealt[0] == dealt[1] != dealt[2]


def test_the_series_is_kept_and_offered_again(tmp_path) -> None:
    """Item 11: the window's series lives in a journal; the next start offers to go on."""
    journal = tmp_path / "simulator.sqlite"
    t = Tabletop(seed=4, games=3, journal=journal, offer_resume=True)
    try:
        assert t.view.offer == ""          # nothing to resume on the very first start
        play_until(t, lambda: t.view.scene == "result")
        t.tap("deal-next")
        hands = t.view.hands
        number = t.view.game_number
    finally:
        t.close()                          # Esc / the window closed
    t = Tabletop(seed=4, games=3, journal=journal, offer_resume=True)
    try:
        assert t.view.offer == "resume" and t.find("resume-keep") and t.find("resume-new")
        t.tap_at(20, t.kiosk.size[1] - 20)  # a tap beside the question does nothing
        assert t.view.offer == "resume"
        t.tap("resume-keep")
        assert t.view.offer == "" and t.view.game_number == number and t.view.hands == hands
        assert len(t.view.sheet.rows) == 1
    finally:
        t.close()
    t = Tabletop(seed=4, games=3, journal=journal, offer_resume=True)
    try:
        assert t.view.offer == "resume"
        t.tap("resume-new")
        assert t.view.scene == "deal" and t.view.game_number == 1 and not t.view.sheet.rows
    finally:
        t.close()
    t = Tabletop(seed=4, games=3, journal=journal, offer_resume=True)
    try:
        assert t.view.offer == "" and t.view.game_number == 1
    finally:
        t.close()


def test_the_journal_lives_in_the_users_data_directory(monkeypatch, tmp_path) -> None:
    import argparse

    from firmware_host.tools.simulator import add_arguments, window_journal

    p = argparse.ArgumentParser()
    add_arguments(p)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert window_journal(p.parse_args([])) == str(tmp_path / "skat-table" / "simulator.sqlite")
    assert (tmp_path / "skat-table").is_dir()
    monkeypatch.setenv("XDG_DATA_HOME", "relative/dir")  # not absolute: ignored, as XDG says
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert window_journal(p.parse_args([])).startswith(str(tmp_path / "home" / ".local"))
    assert window_journal(p.parse_args(["--no-journal"])) is None
    assert window_journal(p.parse_args(["--journal", "x.sqlite"])) == "x.sqlite"

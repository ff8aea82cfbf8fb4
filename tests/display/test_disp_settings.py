"""The settings screen as a person meets it at the simulator's window: taps, touches and keys
posted into the running kiosk (see ``tabletop.py``) open it with the gear, choose the
computer's speed and level, the order of the hand, the card faces, the language, the sound
and the hints, and close it again; every choice is in force at once (the level from the next
deal on) and is still there when the table is started again from the same journal."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pygame
import pytest
from tabletop import Tabletop

from engine.cards import Card
from firmware_host.config import simulated_config
from firmware_host.series.settings import SPEEDS


def play_until(t: Tabletop, done, steps: int = 400) -> None:
    for _ in range(steps):
        if done():
            return
        t.act()
    raise AssertionError(f"not reached; the screen shows {t.view.scene}")


def choose(t: Tabletop, *roles: str, touch: bool = False) -> None:
    """Open the settings with the gear, tap each choice, close them with Back."""
    t.tap("settings-button", touch=touch)
    assert t.kiosk.ui.settings and t.find("settings-back")
    for role in roles:
        t.tap(role, touch=touch)
    t.tap("settings-back", touch=touch)
    assert not t.kiosk.ui.settings


def test_the_gear_opens_the_settings_over_the_game_and_back_closes_them() -> None:
    t = Tabletop(seed=1, games=None, language="en")
    try:
        play_until(t, t.anna_to_play)
        t.tap("settings-button", touch=True)
        roles = {e.role.split(" ")[0] for e in t.kiosk.elements}
        assert {"speed-normal", "trump-first", "suits-CSHD", "style-french",
                "settings-language", "sound-on", "hints-off", "settings-back"} <= roles
        # nothing of the game under them: no card to tap, no Undo, no Sheet
        assert not {"hand0", "undo", "sheet-button", "concede"} & roles
        assert t.one("speed-normal").selected and t.one("sound-on").selected
        t.tap("settings-button")          # the gear closes them again
        assert not t.kiosk.ui.settings and t.find("hand0")
        t.tap("settings-button")
        t.key(pygame.K_ESCAPE)            # and Escape
        assert not t.kiosk.ui.settings and t.view.scene == "play"
        t.tap("settings-button")
        targets = [e.role for e in t.kiosk.elements if e.command is not None]
        for _ in range(targets.index("speed-fast") + 1):  # every choice in the keyboard's reach
            t.key(pygame.K_TAB)
        t.key(pygame.K_RETURN)
        assert t.view.settings.speed == "fast" and t.kiosk.ui.settings
    finally:
        t.close()


def test_the_settings_stay_open_while_the_table_moves_on() -> None:
    """The computers play on under the settings (a new trick, a new scene): the screen
    stays where the finger is until it is closed."""
    t = Tabletop(seed=1, games=None, paced=True)
    now = [100.0]
    t.loop.clock = lambda: now[0]
    try:
        play_until(t, t.anna_to_play)
        t.tap(t.hand_card(t.legal_cards()[0]))
        t.tap("settings-button")
        before = len(t.table.game.trick) + 3 * len(t.table.game.tricks)
        now[0] += 3.0
        t.settle(0.0)
        assert len(t.table.game.trick) + 3 * len(t.table.game.tricks) > before
        assert t.kiosk.ui.settings and t.find("speed-slow")
    finally:
        t.close()


def laid(t: Tabletop) -> int:
    game = t.table.game
    return 3 * len(game.tricks) + len(game.trick)


def paced_until(t: Tabletop, now: list[float], done, steps: int = 2000) -> None:
    """Anna acts by taps; while a computer is to play, the loop's clock goes on."""
    for _ in range(steps):
        if done():
            return
        if t.view.scene == "play" and t.view.turn != 0:
            now[0] += 0.05
            t.settle(0.0)
        else:
            t.act()
    raise AssertionError(f"not reached; the screen shows {t.view.scene}")


def computers_wait(t: Tabletop, now: list[float]) -> tuple[float, float]:
    """Anna lays a card after which a computer is to play; how long (on the loop's clock)
    until that card comes, and the pause the table should keep for it."""
    for _ in range(30):
        paced_until(t, now, t.anna_to_play)
        t.tap(t.hand_card(t.legal_cards()[0]))
        if t.view.scene == "play" and t.table.seat_to_act() in (1, 2):
            break
    else:
        raise AssertionError("no computer card followed one of Anna's")
    game = t.table.game
    expected = t.loop.trick_pause if not game.trick and game.tricks else t.loop.pace
    after, waited = laid(t), 0.0
    while laid(t) == after:
        now[0] += 0.05
        waited += 0.05
        t.settle(0.0)
        assert waited < 6, "the computer never laid its card"
    return waited, expected


@pytest.mark.parametrize("speed", ["slow", "fast"])
def test_the_computer_plays_at_the_speed_chosen(speed: str) -> None:
    t = Tabletop(seed=1, games=None, paced=True)
    now = [100.0]
    t.loop.clock = lambda: now[0]
    try:
        choose(t, f"speed-{speed}", touch=True)
        assert t.view.settings.speed == speed
        assert (t.loop.pace, t.loop.trick_pause) == SPEEDS[speed]
        waits = [computers_wait(t, now) for _ in range(3)]
        for waited, expected in waits:
            assert expected in SPEEDS[speed]
            assert expected - 0.01 <= waited <= expected + 0.06, (waited, expected)
    finally:
        t.close()


def suit_runs(cards: list[Card]) -> str:
    """The suits of a hand's cards left to right (jacks left out), each run once."""
    out = ""
    for c in cards:
        if not c.is_jack and not out.endswith(str(c)[0]):
            out += str(c)[0]
    return out


def test_the_hand_follows_the_order_chosen() -> None:
    """In a suit game the trump suit follows the jacks; with "trump first" off it keeps its
    place, and the suits come in the order chosen (colours alternating: ♣ ♥ ♠ ♦)."""
    for seed in range(1, 40):
        t = Tabletop(seed=seed, games=None)
        try:
            play_until(t, lambda t=t: t.anna_to_play() or t.view.scene == "result")
            contract = t.view.play.contract if t.view.scene == "play" else ""
            trump = contract[:1]
            hand = [e.card for e in t.find("hand0")]
            suits = suit_runs(hand)
            chosen = "".join(s for s in "CHSD" if s in suits)
            if not trump or trump not in suits or chosen == suits:
                continue  # a suit game with trumps in Anna's hand, where the orders differ
            assert suits == trump + "".join(s for s in "CSHD" if s in suits and s != trump)
            jacks = [c for c in hand if c.is_jack]
            assert hand[:len(jacks)] == jacks
            choose(t, "trump-first", "suits-CHSD")
            assert not t.view.settings.trump_first and t.view.settings.suit_order == "CHSD"
            after = [e.card for e in t.find("hand0")]
            assert sorted(after) == sorted(hand) and after[:len(jacks)] == jacks
            assert suit_runs(after) == chosen
            # and a tap on a card still lays that card
            card = t.legal_cards()[0]
            t.tap(t.hand_card(card))
            assert card not in (t.view.hands[0] or ())
            return
        finally:
            t.close()
    pytest.fail("no deal where the orders differ")


def test_card_faces_and_language_on_the_settings_screen() -> None:
    t = Tabletop(seed=1, games=None, language="de")
    try:
        play_until(t, t.anna_to_play)
        t.tap("settings-button")
        assert t.one("style-french").selected
        t.tap("style-german")
        assert t.view.card_style == "german" and t.one("style-german").selected
        t.tap("settings-language")        # the picker over the settings
        t.tap("pick-en")
        assert t.view.language == "en" and t.one("title").text == "Settings"
        assert t.one("settings-language").text == "English"
        t.tap("settings-back")
        assert t.one("title").text == "Play"
    finally:
        t.close()


def test_hints_turned_on_on_the_kiosk() -> None:
    """A table whose config has no hints offers them once they are turned on there."""
    t = Tabletop(seed=1, games=None, bids=True)
    try:
        play_until(t, lambda: t.view.turn == 0 and t.view.scene in ("bidding", "play"))
        assert not t.find("hint-button")
        choose(t, "hints-on")
        assert t.session.hints_on and t.view.settings.hints
        t.tap("hint-button")
        assert t.view.hint is not None
        choose(t, "hints-off")
        assert not t.find("hint-button") and not t.session.hints_on
    finally:
        t.close()


def test_the_settings_survive_a_restart(tmp_path: Path) -> None:
    """Every choice made by taps is there again when the table starts from the same journal
    (the simulator closed and opened again; the table's power cut)."""
    journal = tmp_path / "journal.sqlite"
    t = Tabletop(seed=1, games=None, journal=journal, paced=True, language="de")
    try:
        play_until(t, t.anna_to_play)
        choose(t, "speed-slow", "trump-first", "suits-CHSD", "style-four-colour", "sound-off",
               "hints-on", touch=True)
        t.tap("language")
        t.tap("pick-fr")
        hand = [e.card for e in t.find("hand0")]
    finally:
        t.close()
    kept = json.loads((tmp_path / "journal.settings.json").read_text(encoding="utf-8"))
    assert kept == {"card_style": "four-colour", "hints": True, "language": "fr",
                    "sound": False, "speed": "slow", "suit_order": "CHSD",
                    "trump_first": False}
    again = Tabletop(seed=1, games=None, journal=journal, paced=True, language="de")
    try:
        v = again.view
        assert (v.language, v.card_style) == ("fr", "four-colour")
        assert v.settings == replace(v.settings, speed="slow", trump_first=False,
                                     suit_order="CHSD", sound=False, hints=True)
        assert (again.loop.pace, again.loop.trick_pause) == SPEEDS["slow"]
        assert again.session.hints_on and not again.loop.sound_on
        assert [e.card for e in again.find("hand0")] == hand  # the same order as before
        again.tap("settings-button")
        assert again.one("speed-slow").selected and again.one("suits-CHSD").selected
        assert not again.one("trump-first").selected and again.one("sound-off").selected
    finally:
        again.close()


def test_a_config_default_holds_until_a_choice_is_made(tmp_path: Path) -> None:
    """The config's language and card faces are the table's defaults; the kiosk's choice
    is kept beside the journal and wins until changed there."""
    cfg = simulated_config(computer_seats=(1, 2), series_length=None, seed=1, language="nl")
    cfg = replace(cfg, display={"deck_style": "german"})
    journal = tmp_path / "journal.sqlite"
    t = Tabletop(config=cfg, journal=journal)
    try:
        assert (t.view.language, t.view.card_style) == ("nl", "german")
        assert not (tmp_path / "journal.settings.json").exists()  # nothing chosen yet
        choose(t, "style-french")
    finally:
        t.close()
    again = Tabletop(config=cfg, journal=journal)
    try:
        assert (again.view.language, again.view.card_style) == ("nl", "french")
    finally:
        again.close()


def test_the_computers_level_chosen_by_touch_and_keys_plays_from_the_next_deal() -> None:
    """In the middle of a game the level chosen is framed and said for the next game; the
    computers of this game stay the club players they were; the next deal is the new
    level's."""
    t = Tabletop(seed=1, games=None, language="en")
    try:
        play_until(t, t.anna_to_play)
        t.tap("settings-button", touch=True)
        assert t.one("level-club").selected and t.find("level-expert")
        assert "Computer level" in {e.text for e in t.find("settings-label")}
        t.tap("level-expert", touch=True)
        s = t.view.settings
        assert (s.level, s.next_level) == ("club", "expert")
        expert = t.one("level-expert")
        assert expert.selected and expert.fill != t.one("level-club").fill  # framed only
        assert "Expert from the next game" in {e.text for e in t.find("settings-label")}
        targets = [e.role for e in t.kiosk.elements if e.command is not None]
        for _ in range(targets.index("level-beginner") + 1):
            t.key(pygame.K_TAB)
        t.key(pygame.K_RETURN)
        assert t.view.settings.next_level == "beginner"
        t.tap("settings-back")
        assert {p.name for p in t.session.players.values()} == {"club"}
        play_until(t, lambda: t.table.deal.number == 2 and t.view.scene == "bidding"
                   and t.view.turn == 0)
        assert {p.name for p in t.session.players.values()} == {"beginner"}
        assert (t.view.settings.level, t.view.settings.next_level) == ("beginner", "")
    finally:
        t.close()

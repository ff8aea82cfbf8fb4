"""The kiosk's sounds: made in code, played through pygame's mixer (SDL's dummy audio driver
here), silent and said once in the log where there is no audio device; in the simulator a
person at the window hears a card laid, a refusal, a trick taken and the game won or lost,
until the settings screen turns the sound off."""

from __future__ import annotations

import logging

import pygame
import pytest
from tabletop import Tabletop

from display.sound import SOUNDS, Chimes, encode, samples


@pytest.fixture(autouse=True)
def no_mixer_yet() -> None:
    """Each test starts where the table starts: no mixer opened (an earlier test in the same
    process may have left pygame's, which is one per process)."""
    pygame.mixer.quit()


def test_the_sounds_are_made_in_code() -> None:
    for name in SOUNDS:
        values = samples(name, 22050)
        assert 0.04 * 22050 <= len(values) <= 1.0 * 22050, name
        assert max(abs(v) for v in values) <= 1.0 and max(abs(v) for v in values) > 0.3
        assert abs(values[0]) < 0.05 and abs(values[-1]) < 0.05  # faded: no click at the ends
    assert len(encode([0.5, -0.5], -16, 2)) == 8          # 16 bit, two channels
    assert encode([0.0], 8, 1) == bytes([128])            # unsigned 8 bit: silence is 128
    assert len(encode([1.0], 32, 1)) == 4                 # 32 bit float


def test_the_mixer_plays_them() -> None:
    chimes = Chimes()
    try:
        assert chimes.play("won") and pygame.mixer.get_init() is not None
        assert pygame.mixer.get_busy()
        assert chimes.play("card") and chimes.played == ["won", "card"]
        assert not chimes.play("fanfare")  # no such sound: nothing, and no error
    finally:
        chimes.close()
    assert pygame.mixer.get_init() is None


def test_no_audio_device_stays_silent_and_says_so_once(
        caplog: pytest.LogCaptureFixture) -> None:
    tried = []

    def no_device() -> None:
        tried.append(1)
        raise pygame.error("ALSA: Couldn't open audio device: No such file or directory")

    chimes = Chimes(init=no_device)
    with caplog.at_level(logging.INFO):
        assert not chimes.play("card")
        assert not chimes.play("trick")
        assert not chimes.play("won")
    assert chimes.silent and tried == [1]
    said = [r for r in caplog.records if "no sound" in r.getMessage()]
    assert len(said) == 1 and "stays silent" in said[0].getMessage()
    chimes.close()


def heard(t: Tabletop) -> list[str]:
    return list(t.loop.chimes.played)


def test_a_person_at_the_simulator_hears_the_table() -> None:
    """Anna against two computers, taps only: a tap on a card during the bidding is refused
    (the refusal sounds), each card laid clicks, each trick taken chimes, and the end of the
    game sounds won or lost from Anna's side; after "Sound: off" on the settings screen the
    table is silent."""
    t = Tabletop(seed=3, games=None, bids=True)
    try:
        assert t.view.settings.sound  # on in the simulator until chosen otherwise
        for _ in range(60):
            if t.view.scene == "bidding" and t.view.turn == 0:
                break
            t.act()
        assert t.view.scene == "bidding"
        t.tap(t.find("hand0")[0])
        assert t.view.refusal is not None and heard(t)[-1:] == ["refused"]
        for _ in range(400):
            if t.view.scene == "result":
                break
            t.act()
        assert t.view.scene == "result"
        sounds = heard(t)
        assert sounds.count("card") >= 20 and sounds.count("trick") >= 9
        result = t.view.result
        anna_won = (result.won if result.declarer == 0 else not result.won)
        assert sounds[-1] == ("won" if anna_won else "lost")
        t.tap("settings-button")
        t.tap("sound-off")
        assert not t.view.settings.sound and t.one("sound-off").selected
        t.tap("settings-back")
        before = len(heard(t))
        for _ in range(80):
            if t.view.scene == "play" and len(t.table.game.tricks) >= 2:
                break
            t.act()
        assert t.view.scene == "play" and len(heard(t)) == before
    finally:
        t.close()

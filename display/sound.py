"""The kiosk's sounds: a card laid, a refusal, a trick taken, a game won or lost.

Short tones made in code when first needed (no sound files): a soft click for a card, a low
double buzz for a refusal, two rising notes for a trick, a rising major chord for a game won,
a falling figure for a game lost. They play through pygame's mixer, opened the first time a
sound is wanted, so a table that keeps its sounds off never opens an audio device. Without
one (a Pi with nothing on its audio jack, a server, SDL's dummy driver failing) the table stays
silent and says so once in the log: a sound is never worth stopping the table for.

>>> sorted(SOUNDS)
['card', 'lost', 'refused', 'trick', 'won']
>>> len(samples("card", 22050)) == round(0.045 * 22050)
True
"""

from __future__ import annotations

import array
import logging
import math
import random
from collections.abc import Callable

import pygame

log = logging.getLogger(__name__)

RATE = 22050      # samples per second asked of the mixer (it may give another)
VOLUME = 0.35     # of full scale: a kiosk in a living room, not a fairground
# Each sound as (frequency in Hz, or 0 for a click of noise; seconds; its loudness 0..1).
Note = tuple[float, float, float]
SOUNDS: dict[str, tuple[Note, ...]] = {
    "card": ((0.0, 0.045, 0.8),),
    "refused": ((196.0, 0.12, 0.9), (0.0, 0.05, 0.0), (185.0, 0.16, 0.9)),
    "trick": ((659.3, 0.07, 0.6), (880.0, 0.11, 0.6)),
    "won": ((523.3, 0.11, 0.7), (659.3, 0.11, 0.7), (784.0, 0.11, 0.7), (1046.5, 0.3, 0.7)),
    "lost": ((392.0, 0.16, 0.7), (370.0, 0.16, 0.7), (311.1, 0.4, 0.7)),
}


def samples(name: str, rate: int) -> list[float]:
    """The sound ``name`` as samples between -1 and 1 at ``rate`` per second: each note a
    sine with its overtone (a square buzz for the refusal), faded in and out so that it does
    not click; a click is a burst of noise that dies away at once."""
    out: list[float] = []
    noise = random.Random(7)  # the same click every time
    for freq, seconds, loud in SOUNDS[name]:
        n = round(seconds * rate)
        fade = max(1, min(n // 4, round(0.008 * rate)))
        for i in range(n):
            t = i / rate
            if freq == 0.0:
                value = noise.uniform(-1, 1) * math.exp(-t * 90)
            elif name == "refused":
                value = 0.6 if math.sin(2 * math.pi * freq * t) >= 0 else -0.6
            else:
                value = 0.8 * math.sin(2 * math.pi * freq * t) + 0.2 * math.sin(
                    4 * math.pi * freq * t)
            edge = min(1.0, i / fade, (n - 1 - i) / fade)
            out.append(value * loud * edge)
    return out


def encode(values: list[float], size: int, channels: int) -> bytes:
    """Samples as the mixer's raw format: ``size`` as ``pygame.mixer.get_init`` says it (-16:
    signed 16 bit, 8: unsigned 8 bit, 32: float ...), each sample on every channel."""
    codes = {-8: ("b", 127, 0), 8: ("B", 127, 128), -16: ("h", 32767, 0),
             16: ("H", 32767, 32768), -32: ("i", 2**31 - 1, 0), 32: ("f", 1.0, 0)}
    code, scale, offset = codes[size]
    data = array.array(code)
    for v in values:
        x = v * VOLUME * scale + offset
        sample = x if code == "f" else round(x)
        data.extend([sample] * channels)
    return data.tobytes()


class Chimes:
    """Plays the kiosk's sounds; silent (and said once in the log) where there is no audio.

    ``init`` opens the mixer (tests pass one that fails)."""

    def __init__(self, init: Callable[[], None] | None = None) -> None:
        self._init = init or (lambda: pygame.mixer.init(RATE, -16, 1, 512))
        self._sounds: dict[str, pygame.mixer.Sound] = {}
        self.silent = False   # no audio device: nothing is tried again
        self._opened = False  # this table opened the mixer (and closes it)
        self.played: list[str] = []  # the sounds played so far, the last 50 (tests, the log)

    def play(self, name: str) -> bool:
        """Play ``name`` (one of :data:`SOUNDS`) now; False when the table is silent."""
        if self.silent or name not in SOUNDS:
            return False
        try:
            sound = self._sound(name)
            sound.play()
        except Exception as exc:  # pygame.error, or a mixer in a state SDL refuses
            self.silent = True
            log.warning("no sound: %s (the table stays silent)", exc)
            return False
        self.played = [*self.played[-49:], name]
        return True

    def _sound(self, name: str) -> pygame.mixer.Sound:
        got = pygame.mixer.get_init()
        if got is None:
            self._init()
            self._opened = True
            got = pygame.mixer.get_init()
            if got is None:
                raise pygame.error("the mixer did not open")
            log.info("sound: the mixer plays at %d Hz, %d channel(s)", got[0], got[2])
            self._sounds = {}  # (any made before were for a mixer closed since)
        if not self._sounds:
            # Every sound made now (about 50 ms once), not in the middle of a later tap.
            rate, size, channels = got
            self._sounds = {n: pygame.mixer.Sound(buffer=encode(samples(n, rate), size,
                                                                 channels))
                            for n in SOUNDS}
        return self._sounds[name]

    def close(self) -> None:
        """Close the mixer if this table opened it."""
        self._sounds = {}
        if self._opened and pygame.mixer.get_init() is not None:
            pygame.mixer.quit()
        self._opened = False

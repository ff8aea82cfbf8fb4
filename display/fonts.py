"""The bundled DejaVu fonts (licence: ``display/fonts/LICENSE-DejaVu.txt``), loaded by size."""

from __future__ import annotations

from pathlib import Path

import pygame

FONT_DIR = Path(__file__).with_name("fonts")
FACES = {
    "sans": "DejaVuSans.ttf",
    "bold": "DejaVuSans-Bold.ttf",
    "cond": "DejaVuSansCondensed.ttf",
    "condbold": "DejaVuSansCondensed-Bold.ttf",
}


class Fonts:
    """``fonts.get("bold", 24)``: one ``pygame.font.Font`` per face and pixel size, kept."""

    def __init__(self) -> None:
        if not pygame.font.get_init():
            pygame.font.init()
        self._cache: dict[tuple[str, int], pygame.font.Font] = {}

    def get(self, face: str, px: int) -> pygame.font.Font:
        key = (face, max(4, int(px)))
        font = self._cache.get(key)
        if font is None:
            font = self._cache[key] = pygame.font.Font(str(FONT_DIR / FACES[face]), key[1])
        return font

    def size(self, face: str, px: int, text: str) -> tuple[int, int]:
        return self.get(face, px).size(text)

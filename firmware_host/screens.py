"""Screenshots of the kiosk after every accepted input (``replay --screenshot DIR``).

Renders the view off-screen with ``display.render.render`` (works headless with
``SDL_VIDEODRIVER=dummy``) and saves ``NNNN-scene.png`` files in order.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any


class ScreenshotWriter:
    """A session listener that saves one PNG per accepted or refused input."""

    def __init__(self, directory: Path, size: tuple[int, int]) -> None:
        os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
        import pygame

        from display.render import Renderer

        pygame.init()
        self.pygame = pygame
        self.directory = directory
        self.size = size
        self.renderer = Renderer()
        self.count = 0
        directory.mkdir(parents=True, exist_ok=True)

    def __call__(self, session: Any, inp: Any, out: Any) -> None:
        from display.render import render
        from firmware_host.viewmodel import build_view

        if out.status == "ignored":
            return
        view = build_view(session, out.refusal)
        self.count += 1
        surface = render(view, self.size, renderer=self.renderer)
        self.pygame.image.save(surface, str(self.directory / f"{self.count:04d}-{view.scene}.png"))

    def close(self) -> None:
        self.pygame.quit()

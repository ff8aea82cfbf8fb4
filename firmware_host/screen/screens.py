"""Screenshots of what the players saw (``replay --screenshot DIR``): one PNG per phase change.

A session listener builds the kiosk's view after every input the table did not ignore and
hands it to :class:`display.screenshots.PhaseShots`, which decides what is a new phase (a new
scene or deal, the skat taken up, each completed trick) and always keeps a refusal. Renders
off-screen (``SDL_VIDEODRIVER=dummy`` is fine) into ``NNN-scene.png`` files in order.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any


class ScreenshotWriter:
    """A session listener that saves one PNG per phase change and one per refusal."""

    def __init__(self, directory: Path, size: tuple[int, int]) -> None:
        os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
        # pygame greets on stdout when imported: `replay --json` must keep stdout pure JSON.
        os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
        import pygame

        from display.screenshots import PhaseShots

        pygame.init()
        self.pygame = pygame
        self.shots = PhaseShots(directory, size)

    @property
    def written(self) -> list[Path]:
        return self.shots.written

    def __call__(self, session: Any, inp: Any, out: Any) -> None:
        from firmware_host.screen.viewmodel import build_view

        if out.status == "ignored":
            return
        self.shots.add(build_view(session, out.refusal))

    def close(self) -> None:
        self.shots.flush()
        self.pygame.quit()

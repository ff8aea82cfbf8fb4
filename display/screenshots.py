"""Screenshots of what the players saw: one PNG per phase change, drawn off-screen.

``skat-table replay CONFIG SCRIPT --screenshot DIR`` feeds every view it makes to a
:class:`PhaseShots`; the files are numbered in order and named after the scene::

    shots = PhaseShots(Path("out"), size=(800, 480))
    for view in views:
        shots.add(view)          # writes out/001-deal.png, 002-bidding.png, ...
"""

from __future__ import annotations

from pathlib import Path

import pygame

from .render import Renderer, render
from .view import View


class PhaseShots:
    """Writes a PNG whenever the scene (or the deal number) changes; ``flush`` writes the
    last view too, so the final state is always on file."""

    def __init__(self, directory: Path | str, size: tuple[int, int] = (800, 480),
                 every_view: bool = False) -> None:
        self.directory = Path(directory)
        self.directory.mkdir(parents=True, exist_ok=True)
        self.size = size
        self.every_view = every_view
        self.renderer = Renderer()
        self.written: list[Path] = []
        self._last: View | None = None
        self._last_written: View | None = None

    def add(self, view: View) -> Path | None:
        last = self._last
        self._last = view
        changed = (last is None or view.scene != last.scene
                   or view.game_number != last.game_number)
        if changed or (self.every_view and view != last):
            return self._write(view)
        return None

    def flush(self) -> Path | None:
        if self._last is not None and self._last is not self._last_written:
            return self._write(self._last)
        return None

    def _write(self, view: View) -> Path:
        n = len(self.written) + 1
        path = self.directory / f"{n:03d}-{view.scene}.png"
        pygame.image.save(render(view, self.size, renderer=self.renderer), str(path))
        self.written.append(path)
        self._last_written = view
        return path

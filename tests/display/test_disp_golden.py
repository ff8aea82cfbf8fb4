"""A few screens compared with stored images, with a tolerance for font rasterisation.

After an intended change of the look, write new images with
``SKAT_UPDATE_GOLDEN=1 pytest tests/display/test_disp_golden.py`` and look at them before
committing.
"""

from __future__ import annotations

import os
from pathlib import Path

import pygame
import pytest

from display.render import Renderer, render
from display.samples import extra_views, sample_view
from display.view import View

GOLDEN = Path(__file__).with_name("golden")
CASES: dict[str, tuple[View, tuple[int, int]]] = {
    "play-de-french-800": (sample_view("play", "de", "french", simulator=True), (800, 480)),
    "declaration-en-german-800": (sample_view("declaration", "en", "german"), (800, 480)),
    "result-fr-fourcolour-800": (sample_view("result", "fr", "four-colour"), (800, 480)),
    "refused-pl-1080": (extra_views("pl")["play-refused"], (1920, 1080)),
}


def difference(a: pygame.Surface, b: pygame.Surface) -> float:
    """Share of pixels (sampled on a grid) whose colour differs by more than 48 in a channel."""
    w, h = a.get_size()
    step = max(1, w // 400)
    differ = total = 0
    for x in range(0, w, step):
        for y in range(0, h, step):
            ca, cb = a.get_at((x, y)), b.get_at((x, y))
            total += 1
            if max(abs(ca[i] - cb[i]) for i in range(3)) > 48:
                differ += 1
    return differ / total


@pytest.mark.parametrize("name", list(CASES))
def test_golden(renderer: Renderer, name: str) -> None:
    view, size = CASES[name]
    shot = render(view, size, renderer=renderer)
    path = GOLDEN / f"{name}.png"
    if os.environ.get("SKAT_UPDATE_GOLDEN"):
        GOLDEN.mkdir(exist_ok=True)
        pygame.image.save(shot, str(path))
    stored = pygame.image.load(str(path))
    assert stored.get_size() == size
    share = difference(shot, stored)
    assert share < 0.01, f"{name}: {share:.2%} of the screen differs from {path.name}"


def test_difference_notices_a_change(renderer: Renderer) -> None:
    """The comparison is not blind: another language is a different screen."""
    _view, size = CASES["play-de-french-800"]
    other = render(sample_view("play", "cs", "french", simulator=True), size, renderer=renderer)
    assert difference(other, pygame.image.load(str(GOLDEN / "play-de-french-800.png"))) > 0.002

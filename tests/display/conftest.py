"""Headless pygame for the display tests: the dummy video driver, one shared renderer."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame
import pytest

from display.render import Renderer


@pytest.fixture(scope="session")
def renderer() -> Renderer:
    pygame.font.init()
    return Renderer()

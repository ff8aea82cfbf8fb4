"""Suit symbols drawn as shapes: French (clubs, spades, hearts, diamonds) in two or four
colours, and German suits (acorns, leaves, hearts, bells).

Shapes are drawn four times larger and smoothly scaled down, which gives clean anti-aliased
edges at any size without image files. Geometry is in a unit square (0..1, y down).
"""

from __future__ import annotations

import math

import pygame

Colour = tuple[int, int, int]

BLACK: Colour = (24, 24, 28)
RED: Colour = (206, 28, 44)
GREEN: Colour = (22, 128, 60)
YELLOW: Colour = (238, 170, 0)  # the tournament deck's Karo: a deep yellow
ACORN_BROWN: Colour = (150, 92, 36)
ACORN_CUP: Colour = (96, 62, 26)
LEAF_GREEN: Colour = (46, 140, 48)
LEAF_DARK: Colour = (20, 84, 26)
BELL_GOLD: Colour = (236, 178, 20)
BELL_DARK: Colour = (150, 96, 10)
HEART_RED: Colour = (214, 30, 36)

# The main colour of each suit per card style: index letters and outlines use it.
SUIT_COLOURS: dict[str, dict[str, Colour]] = {
    "french": {"C": BLACK, "S": BLACK, "H": RED, "D": RED},
    "four-colour": {"C": BLACK, "S": GREEN, "H": RED, "D": YELLOW},
    "german": {"C": ACORN_BROWN, "S": LEAF_GREEN, "H": HEART_RED, "D": BELL_GOLD},
}

SUPERSAMPLE = 4


def _pts(points: list[tuple[float, float]], size: float) -> list[tuple[float, float]]:
    return [(x * size, y * size) for x, y in points]


def _circle(surf: pygame.Surface, colour: Colour, cx: float, cy: float, r: float,
            size: float) -> None:
    pygame.draw.circle(surf, colour, (cx * size, cy * size), r * size)


def _heart(surf: pygame.Surface, colour: Colour, size: float) -> None:
    _circle(surf, colour, 0.29, 0.33, 0.235, size)
    _circle(surf, colour, 0.71, 0.33, 0.235, size)
    pygame.draw.polygon(surf, colour, _pts(
        [(0.07, 0.42), (0.5, 0.96), (0.93, 0.42), (0.5, 0.3)], size))


def _diamond(surf: pygame.Surface, colour: Colour, size: float) -> None:
    # Slightly concave sides, like a printed diamond.
    pts = []
    corners = [(0.5, 0.02), (0.86, 0.5), (0.5, 0.98), (0.14, 0.5)]
    for i in range(4):
        (x0, y0), (x1, y1) = corners[i], corners[(i + 1) % 4]
        for k in range(8):
            t = k / 8
            x, y = x0 + (x1 - x0) * t, y0 + (y1 - y0) * t
            bend = 0.035 * math.sin(math.pi * t)
            x += (0.5 - x) * bend * 2
            y += (0.5 - y) * bend * 2
            pts.append((x, y))
    pygame.draw.polygon(surf, colour, _pts(pts, size))


def _stem(surf: pygame.Surface, colour: Colour, size: float) -> None:
    pygame.draw.polygon(surf, colour, _pts(
        [(0.5, 0.58), (0.6, 0.86), (0.7, 0.97), (0.3, 0.97), (0.4, 0.86)], size))


def _spade(surf: pygame.Surface, colour: Colour, size: float) -> None:
    _circle(surf, colour, 0.29, 0.6, 0.215, size)
    _circle(surf, colour, 0.71, 0.6, 0.215, size)
    pygame.draw.polygon(surf, colour, _pts(
        [(0.09, 0.53), (0.5, 0.03), (0.91, 0.53), (0.5, 0.74)], size))
    _stem(surf, colour, size)


def _club(surf: pygame.Surface, colour: Colour, size: float) -> None:
    _circle(surf, colour, 0.5, 0.26, 0.205, size)
    _circle(surf, colour, 0.27, 0.58, 0.205, size)
    _circle(surf, colour, 0.73, 0.58, 0.205, size)
    _circle(surf, colour, 0.5, 0.52, 0.14, size)
    _stem(surf, colour, size)


def _acorn(surf: pygame.Surface, size: float) -> None:
    pygame.draw.line(surf, ACORN_CUP, (0.5 * size, 0.3 * size), (0.6 * size, 0.04 * size),
                     max(1, int(0.07 * size)))
    nut = pygame.Rect(0, 0, 0.5 * size, 0.62 * size)
    nut.center = (int(0.5 * size), int(0.64 * size))
    pygame.draw.ellipse(surf, ACORN_BROWN, nut)
    tip = pygame.Rect(0, 0, 0.12 * size, 0.1 * size)
    tip.center = (int(0.5 * size), int(0.93 * size))
    pygame.draw.ellipse(surf, ACORN_CUP, tip)
    cup = pygame.Rect(0.2 * size, 0.24 * size, 0.6 * size, 0.3 * size)
    pygame.draw.ellipse(surf, ACORN_CUP, cup)
    pygame.draw.rect(surf, ACORN_CUP, (0.2 * size, 0.39 * size, 0.6 * size, 0.1 * size))
    # The cup's scales: a lattice of lighter dots.
    light = (176, 136, 70)
    r = max(1, int(0.022 * size))
    for row in range(3):
        y = (0.31 + 0.065 * row) * size
        for col in range(6):
            x = (0.27 + 0.092 * col + 0.046 * (row % 2)) * size
            if 0.22 * size < x < 0.78 * size:
                pygame.draw.circle(surf, light, (x, y), r)
    shine = pygame.Rect(0.36 * size, 0.58 * size, 0.08 * size, 0.2 * size)
    pygame.draw.ellipse(surf, (204, 150, 84), shine)


def _leaf(surf: pygame.Surface, size: float) -> None:
    # A pointed leaf (the German "Grün"), serrated edge, a stalk and veins.
    outline = []
    steps = 40
    for i in range(steps + 1):
        t = i / steps  # 0 at the tip, 1 at the base
        half = 0.44 * math.sin(math.pi * min(1.0, t * 1.08)) ** 0.8
        half *= 1 + 0.06 * math.sin(t * math.pi * 9)  # serration
        outline.append((0.5 + half, 0.04 + 0.74 * t))
    outline += [(1 - x, y) for x, y in reversed(outline)]
    pygame.draw.polygon(surf, LEAF_GREEN, _pts(outline, size))
    w = max(1, int(0.035 * size))
    pygame.draw.line(surf, LEAF_DARK, (0.5 * size, 0.1 * size), (0.5 * size, 0.97 * size), w)
    for k in range(4):
        y = (0.22 + 0.13 * k) * size
        for side in (-1, 1):
            pygame.draw.line(surf, LEAF_DARK, (0.5 * size, y + 0.08 * size),
                             ((0.5 + side * 0.26) * size, y), max(1, w // 2))


def _bell(surf: pygame.Surface, size: float) -> None:
    _circle(surf, BELL_DARK, 0.5, 0.13, 0.08, size)
    _circle(surf, BELL_DARK, 0.5, 0.54, 0.4, size)
    _circle(surf, BELL_GOLD, 0.5, 0.54, 0.36, size)
    pygame.draw.rect(surf, BELL_DARK, (0.13 * size, 0.42 * size, 0.74 * size, 0.09 * size))
    pygame.draw.circle(surf, (40, 28, 10), (0.5 * size, 0.74 * size), 0.065 * size)
    pygame.draw.line(surf, (40, 28, 10), (0.5 * size, 0.74 * size), (0.5 * size, 0.9 * size),
                     max(1, int(0.03 * size)))
    _circle(surf, (252, 226, 130), 0.37, 0.33, 0.07, size)


def _german_heart(surf: pygame.Surface, size: float) -> None:
    _heart(surf, HEART_RED, size)
    _circle(surf, (240, 110, 110), 0.28, 0.3, 0.08, size)


def draw_suit(letter: str, style: str, px: int) -> pygame.Surface:
    """A suit symbol ``px`` pixels square on a transparent surface."""
    px = max(4, int(px))
    big = px * SUPERSAMPLE
    surf = pygame.Surface((big, big), pygame.SRCALPHA)
    if style == "german":
        {"C": _acorn, "S": _leaf, "H": _german_heart, "D": _bell}[letter](surf, big)
    else:
        colour = SUIT_COLOURS[style][letter]
        {"C": _club, "S": _spade, "H": _heart, "D": _diamond}[letter](surf, colour, big)
    return pygame.transform.smoothscale(surf, (px, px))


class SuitCache:
    """Drawn suit symbols by (letter, style, size); drawing one costs a few milliseconds."""

    def __init__(self) -> None:
        self._cache: dict[tuple[str, str, int], pygame.Surface] = {}

    def get(self, letter: str, style: str, px: int) -> pygame.Surface:
        key = (letter, style, int(px))
        surf = self._cache.get(key)
        if surf is None:
            surf = self._cache[key] = draw_suit(letter, style, int(px))
        return surf

"""Is a screendump the kiosk? Compared with the project's own screenshots (docs/screenshots).

Every kiosk screen lies on the same dark green felt; the Linux text console (what the virtual
display shows before the kiosk takes it) is black with grey letters, and an unused display is
one colour. A frame is the kiosk's when at least a third of it is within reach of the felt
colours of the screenshots and it is not a single colour.

>>> felt_like((0, 40, 20), [(0, 32, 16)])
True
>>> felt_like((0, 0, 0), [(0, 32, 16)])
False
"""

from __future__ import annotations

import collections
import os
from functools import cache
from pathlib import Path

SHOTS = Path(__file__).resolve().parent.parent / "docs" / "screenshots"
REFERENCE = ("result-de.png", "bidding-history-de.png", "resume-de.png")
REACH = 24  # per channel


def _pygame():  # type: ignore[no-untyped-def]
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    import pygame

    return pygame


def colours(path: Path, step: int = 8) -> collections.Counter[tuple[int, int, int]]:
    """Colours of a grid of the picture's pixels, rounded to 16 per channel."""
    pg = _pygame()
    s = pg.image.load(str(path))
    w, h = s.get_size()
    c: collections.Counter[tuple[int, int, int]] = collections.Counter()
    for x in range(0, w, step):
        for y in range(0, h, step):
            r, g, b, *_ = s.get_at((x, y))
            c[(r // 16 * 16, g // 16 * 16, b // 16 * 16)] += 1
    return c


@cache
def felt() -> tuple[tuple[int, int, int], ...]:
    """The most common green colours of the reference screenshots: the felt."""
    out: list[tuple[int, int, int]] = []
    for name in REFERENCE:
        for (r, g, b), _ in colours(SHOTS / name).most_common(3):
            colour = (r, g, b)
            if g > r and g >= b and colour not in out:
                out.append(colour)
    return tuple(out)


def felt_like(colour: tuple[int, int, int], palette: list[tuple[int, int, int]] | tuple) -> bool:
    return any(all(abs(a - b) <= REACH for a, b in zip(colour, ref, strict=True))
               for ref in palette)


def felt_share(path: Path) -> float:
    c = colours(path)
    total = sum(c.values())
    palette = felt()
    return sum(n for col, n in c.items() if felt_like(col, palette)) / max(total, 1)


def is_kiosk(path: Path) -> bool:
    c = colours(path)
    if len(c) < 3:
        return False  # blank: one colour (or two)
    return felt_share(path) >= 0.33

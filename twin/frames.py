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


def share_changed(a: Path, b: Path, step: int = 4) -> float:
    """The share of a grid of pixels that differ (by more than a little) between two frames."""
    pg = _pygame()
    sa, sb = pg.image.load(str(a)), pg.image.load(str(b))
    if sa.get_size() != sb.get_size():
        return 1.0
    w, h = sa.get_size()
    differ = total = 0
    for x in range(0, w, step):
        for y in range(0, h, step):
            total += 1
            pa, pb = sa.get_at((x, y)), sb.get_at((x, y))
            differ += any(abs(pa[i] - pb[i]) > 24 for i in range(3))
    return differ / max(total, 1)


def tap_target(role: str, size: tuple[int, int] = (800, 480), scene: str = "deal",
               language: str = "de") -> tuple[int, int]:
    """The centre of the kiosk's control ``role`` on ``scene`` at ``size``, as the kiosk lays it
    out (the same code as in the twin, run here with SDL's dummy driver)."""
    _pygame()
    from display.kiosk import Kiosk
    from display.samples import sample_view

    kiosk = Kiosk(size=size).open()
    try:
        kiosk.show(sample_view(scene, language=language, computer=frozenset({0, 1, 2})))
        found = [e for e in kiosk.elements if e.role.split(" ")[0] == role]
        if not found:
            raise LookupError(f"no {role!r} on the {scene} screen")
        return found[0].rect.center
    finally:
        kiosk.close()

"""The "display" group of ``skat-table bench``: render time per scene at both sizes, idle CPU
share of a shown kiosk, time to the first frame of a fresh process."""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time

SIZES = ((800, 480), (1920, 1080))

_FIRST_FRAME = """
import time, os
t0 = float(os.environ["SKAT_BENCH_T0"])
from display.kiosk import Kiosk
from display.samples import sample_view
k = Kiosk().open((800, 480))
k.show(sample_view("play"))
print(k.first_frame_at is not None and time.time() - t0 or -1, flush=True)
k.close()
"""


def render_times(quick: bool = False) -> dict[str, float]:
    """Median milliseconds to lay out and draw each scene with a warm renderer (the kiosk's
    case: fonts and card faces made once); per size, the slowest scene."""
    import pygame

    from .render import Renderer
    from .samples import extra_views, sample_view
    from .view import SCENES

    pygame.font.init()
    renderer = Renderer()
    runs = 3 if quick else 15
    figures: dict[str, float] = {}
    views = {s: sample_view(s) for s in SCENES}
    views.update(extra_views())
    for w, h in SIZES:
        surface = pygame.Surface((w, h))
        worst = 0.0
        for name, view in views.items():
            renderer.draw(surface, view, renderer.layout(view, (w, h)))  # warm the caches
            times = []
            for _ in range(runs):
                t = time.perf_counter()
                renderer.draw(surface, view, renderer.layout(view, (w, h)))
                times.append((time.perf_counter() - t) * 1000)
            med = statistics.median(times)
            worst = max(worst, med)
            if not quick:
                figures[f"render_ms_{name}_{w}x{h}"] = round(med, 3)
        figures[f"render_ms_{w}x{h}"] = round(worst, 3)
    return figures


def card_laid_ms(quick: bool = False) -> dict[str, float]:
    """Median milliseconds from ``Kiosk.show`` of a view with one more card in the trick to
    the screen updated (layout, the partial redraw, the display update)."""
    from dataclasses import replace

    from engine.cards import Card

    from .kiosk import Kiosk
    from .samples import sample_view

    figures = {}
    runs = 5 if quick else 30
    for w, h in SIZES:
        kiosk = Kiosk(idle_after=0).open((w, h))
        before = sample_view("play", simulator=True)
        trick = before.play.trick  # type: ignore[union-attr]
        after = replace(before, play=replace(  # type: ignore[arg-type]
            before.play, to_act=0, trick=replace(trick, cards=(*trick.cards, (2, Card.C7)))))
        times = []
        for _ in range(runs):
            kiosk.show(before)
            t = time.perf_counter()
            kiosk.show(after)
            times.append((time.perf_counter() - t) * 1000)
        kiosk.close()
        figures[f"card_laid_ms_{w}x{h}"] = round(statistics.median(times), 3)
    return figures


def idle_cpu_share(seconds: float) -> float:
    """CPU time over wall time of a kiosk showing a scene and waiting for input."""
    from .kiosk import Kiosk
    from .samples import sample_view

    kiosk = Kiosk(idle_after=0).open((800, 480))
    kiosk.show(sample_view("play"))
    cpu0, t0 = time.process_time(), time.monotonic()
    while time.monotonic() - t0 < seconds:
        kiosk.wait_events(1.0)   # what the controller's loop does between inputs
    share = (time.process_time() - cpu0) / (time.monotonic() - t0)
    kiosk.close()
    return share


def first_frame_seconds(runs: int) -> float:
    """Seconds from starting a Python process to the kiosk's first frame (median)."""
    env = dict(os.environ)
    env.setdefault("SDL_VIDEODRIVER", "dummy")
    env.setdefault("SDL_AUDIODRIVER", "dummy")
    env["PYGAME_HIDE_SUPPORT_PROMPT"] = "1"
    results = []
    for _ in range(runs):
        env["SKAT_BENCH_T0"] = repr(time.time())
        out = subprocess.run([sys.executable, "-c", _FIRST_FRAME], env=env, capture_output=True,
                             text=True, check=True, timeout=60)
        results.append(float(out.stdout.strip().splitlines()[-1]))
    return statistics.median(results)


def bench(quick: bool = False) -> dict[str, float]:
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    figures = render_times(quick)
    figures.update(card_laid_ms(quick))
    figures["idle_cpu_share"] = round(idle_cpu_share(3.0 if quick else 30.0), 5)
    figures["first_frame_s"] = round(first_frame_seconds(1 if quick else 5), 3)
    return figures

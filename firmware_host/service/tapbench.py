"""The "kiosk" bench group: from a person's tap to the frame that shows it.

- ``input_to_frame_ms_p50`` / ``input_to_frame_ms_p99``: a synthetic tap (a mouse-button event
  posted into SDL's queue, as a touchscreen's driver posts it) on a legal card of the player's
  hand in the simulator's window at 800x480, until the next frame is presented: the kiosk
  reads the event, the event loop lays the card (controller, journal commit with its fsync,
  as the window journals its series), builds the view and the kiosk redraws the changed part
  of the screen. The computer's answer comes later (the window paces it) and is not counted.
  Percentiles over every tap of several deals.
"""

from __future__ import annotations

import os
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


class _Clock:
    """The loop's clock for the paced computer seats: moved on by hand between taps."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def tap_to_frame_times(taps: int, seed: int = 1) -> list[float]:
    """Milliseconds from each tap on a card to its frame, for ``taps`` taps."""
    import pygame

    from display.kiosk import Kiosk
    from firmware_host.config import simulated_config
    from firmware_host.service.runner import kiosk_loop, open_session

    cfg = simulated_config(computer_seats=(1, 2), series_length=None, seed=seed, language="de")
    times: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        kiosk = Kiosk(size=(800, 480), idle_after=0).open()
        session = open_session(cfg, Path(tmp) / "journal.sqlite")
        loop = kiosk_loop(cfg, session, kiosk, simulated=True, seed=seed)
        clock = _Clock()
        loop.clock = clock
        try:
            loop.computers()
            loop.refresh()
            for _ in range(20000):
                if len(times) >= taps:
                    break
                view = kiosk.view
                if view.scene == "play" and view.turn == 0 and view.prompt is None:
                    legal = set(session.table.game.legal_cards())
                    card = next(e for e in kiosk.elements
                                if e.role == "hand0" and e.card in legal)
                    frames = kiosk.frames
                    t0 = time.perf_counter()
                    pygame.event.post(pygame.event.Event(
                        pygame.MOUSEBUTTONDOWN, pos=card.rect.center, button=1, touch=False))
                    loop.serve_once(0.5, kiosk.wait_events)
                    t1 = time.perf_counter()
                    if kiosk.frames > frames:
                        times.append((t1 - t0) * 1000)
                    continue
                _step(loop, kiosk, clock)
        finally:
            kiosk.close()
            session.close()
    return times


def _step(loop: Any, kiosk: Any, clock: _Clock) -> None:
    """Anything but a card of Anna's: deal, pass, the next deal, or let the computer move."""
    import pygame

    view = kiosk.view
    roles = {e.role.split(" ")[0]: e for e in kiosk.elements if e.command is not None}
    target = None
    if view.scene == "deal":
        target = roles.get("deal-rest") or roles.get("deal-next")
    elif view.scene in ("result", "sheet"):
        target = roles.get("deal-next")
    elif view.scene == "bidding" and view.turn == 0:
        target = roles.get("press-pass")
    if target is not None:
        pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=target.rect.center,
                                             button=1, touch=False))
        loop.serve_once(0.05, kiosk.wait_events)
        return
    clock.now += 2.0  # past the pause: the computer lays its card
    loop.serve_once(0.0, kiosk.wait_events)


def bench(quick: bool = False) -> dict[str, float]:
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    times = tap_to_frame_times(8 if quick else 120)
    return {
        "input_to_frame_ms_p50": round(statistics.median(times), 3),
        "input_to_frame_ms_p99": round(_percentile(times, 0.99), 3),
    }

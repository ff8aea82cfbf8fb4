"""The result's confirmation at a club table: the declarer's opponents confirm it.

A club table with ``[club] confirm_results`` shows, under the result of a tournament game, a
button per player who confirms it (the declarer's opponents; in a Ramsch or a passed-in deal
the players whose score it does not change), in the style of the seating's seats: the name,
with ✓ once confirmed. A touch confirms for that player (a ``confirm`` press, journalled);
laying one's player tag on a reader does the same (firmware_host.clubside.clubdesk).
"""

from __future__ import annotations

from typing import Any

from . import commands as cmd
from .layout import GOLD, GOLD_DARK, MUTED, WON

# The height the block takes at the bottom of the result's panel (units of 800x480).
CONFIRM_H = 104.0


def confirm_block(sc: Any, x: float, y: float, w: float) -> None:
    """Draw the question and a button per player who confirms, from ``y`` down
    (:data:`CONFIRM_H` units) on the scene builder ``sc`` (display.scenes)."""
    f, _, r = sc.f, sc._, sc.v.result
    assert r is not None
    f.text(x, y, w, 46, _("To confirm: lay your player tag or touch your name"), size=18,
           colour=MUTED, align="left", role="result-confirm-ask", wrap=True)
    n = max(1, len(r.confirmers))
    gap = 8.0
    bw = (w - gap * (n - 1)) / n
    for i, seat in enumerate(r.confirmers):
        done = seat in r.confirmed
        mark = "✓ " if done else ""
        f.button(x + i * (bw + gap), y + 48, bw, CONFIRM_H - 50,
                 f"{mark}{sc.name(seat, 10 if n > 2 else None)}",
                 None if done else cmd.Press(seat, "confirm"), role=f"confirm-result{seat}",
                 fill=WON if done else GOLD, colour=GOLD_DARK, size=22, selected=done)

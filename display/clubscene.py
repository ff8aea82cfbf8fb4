"""The club on the kiosk: the link's status line and the tournament's seating to confirm.

A table of a club shows, in its top bar, where its games stand with the club ("club: offline
since 20:14, 3 games waiting"); when the club server seats players at the table, the scene
``seating`` names the tournament, the series and each seat's player, and asks each to confirm
by laying their player tag on their pad or touching their name.

>>> from display.i18n import translator
>>> from display.view import ClubLine
>>> club_line(ClubLine("offline", "20:14", 3), translator("en"))
'club: offline since 20:14, 3 games waiting'
>>> club_line(ClubLine("online"), translator("de"))
'Club: verbunden'
"""

from __future__ import annotations

from typing import Any

from . import commands as cmd
from .i18n import Translator
from .layout import GOLD, GOLD_DARK, MUTED, WON
from .view import ClubLine


def club_line(club: ClubLine, tr: Translator) -> str:
    """The status line in the table's language."""
    _ = tr
    if club.state == "online":
        if club.waiting:
            return tr.ngettext("club: connected, sending {n} game",
                               "club: connected, sending {n} games",
                               club.waiting).format(n=club.waiting)
        return _("club: connected")
    if club.state == "connecting":
        return _("club: connecting")
    if club.state == "refused":
        head = _("club: refused by the broker since {time}").format(time=club.since)
    else:
        head = _("club: offline since {time}").format(time=club.since)
    if not club.waiting:
        return head
    return tr.ngettext("{head}, {n} game waiting", "{head}, {n} games waiting",
                       club.waiting).format(head=head, n=club.waiting)


def scene_seating(sc: Any) -> None:
    """Draw the seating scene on the scene builder ``sc`` (display.scenes)."""
    f, _, v = sc.f, sc._, sc.v
    s = v.seating
    assert s is not None
    y = sc.top_bar(_("Seating"))
    f.text(30, y, f.W - 60, 40,
           _("{tournament}, series {series}: {games} games").format(
               tournament=s.tournament, series=s.series, games=s.games),
           size=26, face="bold", align="left", role="seating-title", ellipsize=True)
    f.text(30, y + 42, f.W - 60, 50,
           _("Lay your player tag on your pad or touch your name to confirm"),
           size=18, colour=MUTED, align="left", role="seating-ask", wrap=True)
    top = y + 98
    bottom = f.H - 10
    if v.club is not None:
        bottom -= 30
        f.text(30, bottom + 4, f.W - 60, 26, club_line(v.club, sc.tr), size=18, colour=MUTED,
               align="left", role="club-line")
    n = len(s.players)
    h = min(70.0, (bottom - top) / n - 8)
    for seat, (name, done) in enumerate(zip(s.players, s.confirmed, strict=True)):
        row = top + seat * (h + 8)
        mark = "✓ " if done else ""
        dealer = "  " + _("(deals first)") if seat == s.first_dealer else ""
        f.button(30, row, f.W - 60, h, f"{mark}{name}{dealer}",
                 None if done else cmd.ConfirmSeat(seat), role="seating-seat",
                 fill=WON if done else GOLD,
                 colour=GOLD_DARK, size=24, selected=done)

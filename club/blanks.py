"""Blank Spiellisten to print: the paper fallback of a table whose Pi or battery gives out.

One A4 page per table and series, laid out like the DSkV Spielliste: the seating (seat,
name, id), one numbered line per game of the series (as many as the tournament plays at a
table of that size: ``games_four`` at four, ``games_three`` at three), the dealer of each game
printed (the first dealer is seat 1, then clockwise, as the server counts), a column per
player for the declarer's value and running sum, a column to tick passed-in games, and at the
foot the rows of the Seeger-Fabian reckoning (points, won and lost games x 50, the others'
lost games x 40 or x 30, the result) and lines to sign. At a four-player table the dealer's
cell is shaded: the dealer sits out and cannot declare.

The director types such a list in afterwards on ``/director/list/S/T`` (same game numbers).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from fpdf.enums import XPos, YPos

from club.export import _Pdf
from club.i18n import translator

FIRST_DEALER = 0            # as club.service seats it: seat 0 deals game 1
PAGE_H = 297.0
BOTTOM = 14.0               # room for the page stamp
MAX_ROW_H = 7.0
MIN_ROW_H = 3.6             # below this a list goes on to a second page
HEAD_H = 9.0
FOOT_ROW_H = 5.5


@dataclass(frozen=True)
class BlankList:
    """What a blank list shows: the table's seating (id, name) by seat and its games due."""

    series: int
    table: str
    players: list[tuple[str, str]]
    games: int

    def dealer(self, game: int) -> int:
        """The seat that deals ``game`` (1-based), as the server and the tables count."""
        return (FIRST_DEALER + game - 1) % len(self.players)


def blank_lists(service: Any, series: int, table: str | None = None) -> list[BlankList]:
    """The blank lists of a series' tables (or of one table), in table order; empty when the
    series has not been drawn or has no such table."""
    names = service.players()
    cfg = service.config.tournament
    out = []
    for tid, pids in service.store.seating(series).items():
        if table is not None and tid != table:
            continue
        out.append(BlankList(series, tid, [(p, names.get(p, (p, ""))[0]) for p in pids],
                             cfg.games_for(len(pids))))
    return out


def blanks_pdf(service: Any, lists: list[BlankList]) -> bytes:
    """One PDF, one list per page (a long series goes on to a second page)."""
    t = service.config.tournament
    pdf = _Pdf(f"{service.config.club_name} · {t.name or t.id}",
               translator(service.config.language))
    pdf.set_margins(10, 10, 10)
    pdf.set_auto_page_break(False)
    for blank in lists:
        _one(pdf, blank)
    return bytes(pdf.output())


def _one(pdf: Any, b: BlankList) -> None:
    _ = pdf.tr
    n = len(b.players)
    pdf.add_page()
    pdf.font(15, True)
    pdf.cell(0, 8, pdf.text_(_("Score sheet · series %(series)s · table %(table)s")
                             % {"series": b.series, "table": b.table}),
             new_x=XPos.LMARGIN, new_y=YPos.NEXT)
    pdf.font(9)
    pdf.cell(0, 5, pdf.text_(_("%(games)s games · Seeger-Fabian · date: ______________")
                             % {"games": b.games}),
             new_x=XPos.LMARGIN, new_y=YPos.NEXT)
    pdf.multi_cell(0, 5, pdf.text_(_("Seats:") + " " + "   ".join(
        f"{seat + 1}. {name} ({pid})" for seat, (pid, name) in enumerate(b.players))
        + "   · " + _("%(name)s deals game 1") % {"name": b.players[b.dealer(1)][1]}),
        new_x=XPos.LMARGIN, new_y=YPos.NEXT)
    pdf.ln(1)
    width = 190.0
    no_w, dealer_w, passed_w = 9.0, 30.0, 20.0
    pw = (width - no_w - dealer_w - passed_w) / n
    foot_h = 5 * FOOT_ROW_H + 16.0
    head = [(_("No."), no_w), (_("Dealer"), dealer_w)]
    head += [(f"{s + 1}. {name}", pw) for s, (_pid, name) in enumerate(b.players)]
    head += [(_("passed in"), passed_w)]

    def header_row() -> None:
        # two lines per cell: a long name is wrapped, not cut
        pdf.set_fill_color(230, 238, 234)
        pdf.font(8, True)
        x0, y0 = pdf.get_x(), pdf.get_y()
        x = x0
        for text, w in head:
            pdf.rect(x, y0, w, HEAD_H, style="DF")
            lines = _two_lines(pdf, pdf.text_(text), w)
            top = y0 + (HEAD_H - 3.8 * len(lines)) / 2
            for i, line in enumerate(lines):
                pdf.set_xy(x, top + 3.8 * i)
                pdf.cell(w, 3.8, line, align="C")
            x += w
        pdf.set_xy(x0, y0 + HEAD_H)

    header_row()
    room = PAGE_H - BOTTOM - pdf.get_y() - foot_h
    one_page = room / b.games >= MIN_ROW_H
    h = min(MAX_ROW_H, room / b.games) if one_page else 5.0
    for game in range(1, b.games + 1):
        if not one_page and pdf.get_y() + h > PAGE_H - BOTTOM:
            pdf.add_page()
            header_row()
        dealer = b.dealer(game)
        pdf.font(8)
        pdf.cell(no_w, h, str(game), border=1, align="C", new_x=XPos.RIGHT, new_y=YPos.TOP)
        pdf.cell(dealer_w, h, pdf.fit(pdf.text_(b.players[dealer][1]), dealer_w), border=1,
                 new_x=XPos.RIGHT, new_y=YPos.TOP)
        for seat in range(n):
            out = n == 4 and seat == dealer   # the dealer sits out at four
            pdf.set_fill_color(215)
            pdf.cell(pw, h, "", border=1, fill=out, new_x=XPos.RIGHT, new_y=YPos.TOP)
        pdf.cell(passed_w, h, "", border=1, new_x=XPos.RIGHT, new_y=YPos.TOP)
        pdf.ln(h)
    if pdf.get_y() + foot_h > PAGE_H - BOTTOM + 1:
        pdf.add_page()
    pdf.ln(1)
    bonus = 40 if n == 3 else 30
    foot = (_("Points (game values)"), _("Won games × 50"), _("Lost games × 50"),
            # shorter than the score sheet's words: the column is narrow
            _("Lost by the others × %(bonus)s") % {"bonus": bonus},
            _("Seeger-Fabian (result)"))
    for label in foot:
        pdf.row([(label, no_w + dealer_w, "L")] + [("", pw, "R")] * n + [("", passed_w, "L")],
                h=FOOT_ROW_H, bold=label is foot[-1], size=7, border=1, names=(0,))
    pdf.ln(8)
    pdf.font(8)
    for _seat in b.players:
        pdf.cell(width / n, 4, "_" * 26, new_x=XPos.RIGHT, new_y=YPos.TOP)
    pdf.ln(4)
    for _pid, name in b.players:
        pdf.cell(width / n, 4, pdf.fit(pdf.text_(name), width / n),
                 new_x=XPos.RIGHT, new_y=YPos.TOP)
    pdf.ln(4)


def _two_lines(pdf: Any, text: str, w: float) -> list[str]:
    """``text`` in at most two lines that fit ``w`` mm (broken at spaces; the rest cut)."""
    if pdf.get_string_width(text) <= w - 2 * pdf.c_margin:
        return [text]
    words = text.split(" ")
    first = words[0]
    i = 1
    while i < len(words) and pdf.get_string_width(first + " " + words[i]) <= w - 2 * pdf.c_margin:
        first += " " + words[i]
        i += 1
    rest = " ".join(words[i:])
    return [pdf.fit(first, w)] + ([pdf.fit(rest, w)] if rest else [])

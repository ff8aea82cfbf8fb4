"""The statistics on the kiosk: each player over the finished series, and the archive of
those series (:class:`~display.view.StatsView`, made by the controller from its journal).

The screen is the kiosk's own, like the sheet overlay (``UiState.show_stats``): a
*Statistics* button on the score sheet and on a series' summary opens it, *Back* (or Esc)
returns to where it was opened. Two pages (``UiState.stats_page``): the players (those at
the table first) with series, games, won of declared, Seeger-Fabian points per series and
their best game; the series, latest first, with the day, the games and everybody's total.

>>> day("2026-12-12", "de"), day("2026-12-12", "en"), day("2026-12-12", "nl")
('12.12.2026', '2026-12-12', '12-12-2026')
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .layout import GOLD, GOLD_DARK, INK, LOST, MUTED, WON
from .view import PlayerLine, SeriesLine, StatsView
from .wording import short_name

ROW_H = 32.0
HEAD_H = 46.0   # a column's heading may take two lines
BUTTON_H = 56.0


@dataclass(frozen=True)
class ShowStats:
    """Kiosk-internal: open (or close again) the statistics; never sent on."""


@dataclass(frozen=True)
class StatsPage:
    """Kiosk-internal: the statistics' page, ``players`` or ``series``; never sent on."""

    page: str


def day(iso: str, language: str) -> str:
    """A day as the language writes it (``"2026-12-12"`` in; English keeps it so)."""
    year, month, date = iso.split("-")
    if language == "en":
        return iso
    sep = {"fr": "/", "es": "/", "nl": "-"}.get(language, ".")
    return f"{date}{sep}{month}{sep}{year}"


def stats_button(sc: Any, x: float, y: float, w: float, h: float, size: float = 18) -> None:
    """The way in: where the view has statistics (the controller keeps a journal)."""
    if sc.v.stats is None:
        return
    sc.f.button(x, y, w, h, sc._("Statistics"), ShowStats(), role="stats-button", size=size)


def stats_button_width(sc: Any) -> float:
    return float(sc.label_width(sc._("Statistics"), 18, 96.0))


def scene_statistics(sc: Any) -> None:
    """Draw the statistics on the scene builder ``sc`` (display.scenes)."""
    f, _, v = sc.f, sc._, sc.v
    st: StatsView = v.stats
    page = sc.ui.stats_page if sc.ui.stats_page in ("players", "series") else "players"
    sub = (sc.tr.ngettext("one finished series", "{n} finished series", st.count).format(
        n=st.count) if st.state == "done" else "")
    y = sc.top_bar(_("Statistics"), subtitle=sub, chrome=False)
    bottom = f.H - 8 - BUTTON_H
    f.panel(8, y, f.W - 16, bottom - 8 - y, role="stats-panel")
    x, w = 18.0, f.W - 36
    top, end = y + 6, bottom - 14
    if st.state != "done":
        f.text(x, top + 40, w, 60, _("The statistics are being gathered…"), size=24,
               colour=MUTED, role="stats-note", wrap=True)
    elif not st.players:
        f.text(x, top + 40, w, 90, _("No finished series yet: the statistics begin with the "
                                     "first series played to its end"), size=22,
               colour=MUTED, role="stats-note", wrap=True)
    elif page == "players":
        _players(sc, x, top, w, end, st.players)
    else:
        _series(sc, x, top, w, end, st.series, st.count)
    # The pages side by side on the left, Back on the right, where the summary's Back is.
    bw = max(sc.label_width(_("Players"), 20, 150.0), sc.label_width(_("Series"), 20, 150.0))
    for i, (label, name) in enumerate(((_("Players"), "players"), (_("Series"), "series"))):
        on = page == name
        f.button(8 + i * (bw + 8), bottom, bw, BUTTON_H, label, StatsPage(name),
                 role=f"stats-page-{name}" + (" on" if on else ""), size=20, selected=on,
                 fill=GOLD if on else (236, 232, 218), colour=GOLD_DARK if on else (20, 32, 26))
    back_w = sc.label_width(_("Back"), 22, 160.0)
    f.button(f.W - 8 - back_w, bottom, back_w, BUTTON_H, _("Back"), ShowStats(),
             role="stats-back", size=22)


def _players(sc: Any, x: float, top: float, w: float, end: float,
             players: tuple[PlayerLine, ...]) -> None:
    f, _ = sc.f, sc._
    # name, series, games, won of declared, Seeger-Fabian per series, best game
    shares = (0.2, 0.085, 0.105, 0.19, 0.19, 0.23)
    heads = (_("Player"), _("Series"), _("Games"), _("Won / declared"),
             _("Seeger-Fabian per series"), _("Best game"))
    cols = []
    cx = x
    for share in shares:
        cols.append((cx, w * share))
        cx += w * share
    for i, ((cx, cw), head) in enumerate(zip(cols, heads, strict=True)):
        f.text(cx + 2, top, cw - 4, HEAD_H, head, size=18, colour=MUTED,
               align="left" if i in (0, 5) else "right", role="stats-head", wrap=True)
    fit = max(0, int((end - top - HEAD_H) // ROW_H))
    shown = players[:fit]
    if len(players) > fit and fit:
        shown = players[:fit - 1]
    ry = top + HEAD_H
    for p in shown:
        share = f" · {round(100 * p.won / p.declared)} %" if p.declared else ""
        sf = "" if p.seeger_fabian is None else f"{p.seeger_fabian:+d}"
        if p.best_value is None:
            best = "–"
        else:
            game = (sc.tr.contract(p.best_contract, short=True) if p.best_contract
                    else _("Ramsch"))
            best = f"{game} {p.best_value:+d}"
        cells = (
            (short_name(p.name), "left", "bold", INK, "stats-name"),
            (str(p.series), "right", "sans", INK, "stats-series"),
            (str(p.games), "right", "sans", INK, "stats-games"),
            (f"{p.won}/{p.declared}{share}", "right", "sans", INK, "stats-won"),
            (sf, "right", "bold", WON if (p.seeger_fabian or 0) > 0 else (
                LOST if (p.seeger_fabian or 0) < 0 else INK), "stats-sf"),
            (best, "left", "sans", INK, "stats-best"),
        )
        for (cx, cw), (text, align, face, colour, role) in zip(cols, cells, strict=True):
            f.text(cx + 2, ry, cw - 4, ROW_H - 2, text, size=20, face=face, colour=colour,
                   align=align, role=role, ellipsize=True)
        ry += ROW_H
    if len(shown) < len(players):
        more = len(players) - len(shown)
        f.text(x, ry, w, ROW_H - 2, sc.tr.ngettext(
            "and {n} more player (skat-table stats lists everybody)",
            "and {n} more players (skat-table stats lists everybody)", more).format(n=more),
            size=18, colour=MUTED, align="left", role="stats-more", ellipsize=True)


def _series(sc: Any, x: float, top: float, w: float, end: float,
            series: tuple[SeriesLine, ...], count: int) -> None:
    f, _, v = sc.f, sc._, sc.v
    day_w, games_w = w * 0.16, w * 0.14
    f.text(x + 2, top, day_w - 4, HEAD_H, _("Day"), size=18, colour=MUTED, align="left",
           role="stats-head")
    f.text(x + day_w + 2, top, games_w - 4, HEAD_H, _("Games"), size=18, colour=MUTED,
           align="right", role="stats-head")
    f.text(x + day_w + games_w + 12, top, w - day_w - games_w - 14, HEAD_H,
           _("Totals (the winner in gold)"), size=18, colour=MUTED, align="left",
           role="stats-head", ellipsize=True)
    fit = max(0, int((end - top - HEAD_H) // ROW_H))
    shown = series[:fit]
    if count > len(shown) and fit:
        shown = series[:fit - 1]
    ry = top + HEAD_H
    for s in shown:
        f.text(x + 2, ry, day_w - 4, ROW_H - 2, day(s.day, v.language), size=20,
               align="left", role="stats-day", ellipsize=True)
        games = (str(s.games) if s.complete or s.length is None
                 else _("{n} of {total}").format(n=s.games, total=s.length))
        f.text(x + day_w + 2, ry, games_w - 4, ROW_H - 2, games, size=20, align="right",
               colour=INK if s.complete else MUTED, role="stats-played", ellipsize=True)
        px = x + day_w + games_w + 12
        cw = (x + w - px) / max(1, len(s.players))
        for seat, (name, score) in enumerate(zip(s.players, s.scores, strict=True)):
            colour = GOLD if seat == s.winner else INK
            value = "" if score is None else f"{score:+d}"
            vw = min(cw * 0.45, sc.label_width(value or "0", 20, 0) - 16) if value else 0.0
            f.text(px, ry, cw - vw - 8, ROW_H - 2, short_name(name), size=20, colour=colour,
                   align="left", role="stats-player", ellipsize=True)
            if value:
                f.text(px + cw - vw - 6, ry, vw, ROW_H - 2, value, size=20, face="bold",
                       colour=colour, align="right", role="stats-total")
            px += cw
        ry += ROW_H
    if count > len(shown):
        more = count - len(shown)
        f.text(x, ry, w, ROW_H - 2, sc.tr.ngettext(
            "and one earlier series (skat-table stats --series lists them all)",
            "and {n} earlier series (skat-table stats --series lists them all)", more).format(
            n=more), size=18, colour=MUTED, align="left", role="stats-more", ellipsize=True)

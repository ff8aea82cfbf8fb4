"""The lists a director hands out: the ranking and each table's Seeger-Fabian list as PDF
(fpdf2, laid out like the paper lists) and CSV, and every counted game as ISS records.

The PDFs use the DejaVu fonts that the project ships for the kiosk (``display/fonts``; the
files are read, nothing of ``display`` is imported), so any Unicode name prints; without them
the PDF falls back to a core font with the names transliterated.
"""

from __future__ import annotations

import csv
import io
import re
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from fpdf import FPDF
from fpdf.enums import XPos, YPos

from club.i18n import Translator, translator
from club.scoring import ScoredGame
from club.sheets import TableSheet
from engine.iss import PASSED, IssResult, parse_properties
from engine.series import seats_for

FONT_DIR = Path(__file__).resolve().parent.parent / "display" / "fonts"


# A spreadsheet takes a cell beginning with one of these for a formula: a player registered as
# '=HYPERLINK("http://x","click")' would become a link in the director's ranking.csv.
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def csv_cell(value: Any) -> Any:
    """A CSV cell a spreadsheet shows as text: a text that could start a formula gets a
    leading single quote (OWASP's advice); numbers are written as they are.

    >>> print(csv_cell('=HYPERLINK("http://x","click")'), csv_cell(" @SUM(A1)"), csv_cell(-96))
    '=HYPERLINK("http://x","click") ' @SUM(A1) -96
    >>> csv_cell("Anna Müller-Lüdenscheidt")
    'Anna Müller-Lüdenscheidt'
    """
    # leading blanks too: some spreadsheets drop them before looking for a formula
    if isinstance(value, str) and value.lstrip(" ").startswith(FORMULA_START):
        return "'" + value
    return value


class _Writer:
    """``csv.writer`` whose every cell goes through :func:`csv_cell`."""

    def __init__(self, out: io.StringIO) -> None:
        self._w = csv.writer(out)

    def writerow(self, row: list[Any]) -> None:
        self._w.writerow([csv_cell(v) for v in row])


def ranking_csv(service: Any) -> str:
    out = io.StringIO()
    w = _Writer(out)
    n = service.config.tournament.series
    w.writerow(["place", "id", "name", "club", *[f"series_{s}" for s in range(1, n + 1)],
                "total", "points", "won", "lost", "defender_bonus", "abreizgeld", "prize"])
    for r in service.ranking():
        w.writerow([r.place, r.player, r.name, r.club, *r.series, r.total, r.points, r.won,
                    r.lost, r.bonus, f"{r.abreizgeld:.2f}", f"{r.prize:.2f}"])
    return out.getvalue()


def sheet_csv(sheet: TableSheet) -> str:
    out = io.StringIO()
    w = _Writer(out)
    w.writerow(["game", "dealer", "declarer", "contract", "won", "value",
                *[f"{name} ({pid})" for pid, name in sheet.players], "note"])
    for line in sheet.lines:
        g = line.game
        w.writerow([g.game, sheet.players[g.dealer][1],
                    "" if g.declarer is None else sheet.players[g.declarer][1],
                    g.contract or "", "" if g.won is None else int(g.won), g.value,
                    *line.running,
                    "annulled" if g.annulled else ("corrected" if line.corrected else "")])
    for label, attr in (("points", "points"), ("won", "won"), ("lost", "lost"),
                        ("defender bonus", "bonus"), ("seeger-fabian", "sf")):
        w.writerow([label, "", "", "", "", "", *[getattr(s, attr) for s in sheet.sums], ""])
    return out.getvalue()


def games_iss(service: Any) -> str:
    """Every counted game's ISS record, one per line, in series/table/game order.

    Each record gets a header of its own in this tournament (FORMAT.md section 2): ``ID`` a
    number unique in the tournament (series, table, game: ``1012048`` is series 1, table 12,
    game 48), ``SE`` the table's session (series and table: ``1012``), ``DT`` when the table
    finished the game (UTC), ``CO`` the tournament, series, table and game in the club's
    language, ``P0``..``P2`` the registered names of forehand, middlehand and rearhand. ``R``
    is the result that counts: a game the director corrected is written with the corrected
    declarer, outcome and value, its ``CO`` saying so and what the play gave. Annulled games
    count nothing and are left out, as are games typed from a paper list (there is no play to
    record)."""
    _ = translator(service.config.language)
    received = {(r.game_id, r.revision): r.received_at for r in service.store.revisions()}
    names = service.players()
    lines = []
    for g in service.games():
        if g.annulled or not g.iss:
            continue
        lines.append(iss_line(service, g, _, names,
                              received.get((g.game_id, g.revision), "")) + "\n")
    return "".join(lines)


def iss_line(service: Any, g: ScoredGame, _: Translator,
             names: dict[str, tuple[str, str]], received_at: str = "") -> str:
    """One counted game as its ISS record in this tournament (see :func:`games_iss`)."""
    t = service.config.tournament
    props = dict(parse_properties(g.iss))
    seats = seats_for(g.dealer, g.n)
    table_no = _table_number(service, g)
    played = IssResult.parse(props["R"]) if "R" in props else None
    counted = counted_result(g, seats, played)
    comment = _("%(tournament)s, series %(series)s, table %(table)s, game %(game)s") % {
        "tournament": t.name or t.id, "series": g.series, "table": g.table, "game": g.game}
    if played is None or str(counted) != str(played):
        audit = service.store.corrections(g.game_id)
        comment += "; " + _("corrected by the director: %(reason)s") % {
            "reason": audit[-1].reason if audit else ""}
        if played is not None:
            comment += "; " + _("as played: %(result)s") % {"result": _short(played)}
    head = {
        "GM": "Skat", "PC": props.get("PC", "skat-table"), "CO": comment,
        "SE": f"{g.series}{table_no:03d}", "ID": f"{g.series}{table_no:03d}{g.game:03d}",
        "DT": iss_time(g.at) or iss_time(received_at),
        **{f"P{i}": names.get(g.players[s], (g.players[s], ""))[0] for i, s in enumerate(seats)},
        "R0": "", "R1": "", "R2": "",
    }
    if props.get("RU"):
        head["RU"] = props["RU"]
    text = "".join(f"{k}[{_iss_escape(v)}]" for k, v in head.items())
    return f"(;{text}MV[{_iss_escape(props.get('MV', ''))}]R[{counted}] ;)"


def counted_result(g: ScoredGame, seats: tuple[int, ...], played: IssResult | None
                   ) -> IssResult:
    """``R[...]`` for what the ranking counts: the play's own result when it is that, else
    the play's numbers with the counted declarer (as a position), outcome and value."""
    if g.declarer is None:
        return PASSED
    pos = seats.index(g.declarer)
    outcome = "win" if g.won else "loss"
    if played is None or played.passed:
        return IssResult(declarer=pos, outcome=outcome, value=g.value, resigned=False)
    if (played.declarer, played.outcome, played.value) == (pos, outcome, g.value):
        return played
    return replace(played, declarer=pos, outcome=outcome, value=g.value,
                   overbid=played.overbid and not g.won)


def iss_time(at: str) -> str:
    """An ISO 8601 time as ``DT`` writes it: ``2026-11-28/19:03:12/UTC`` ("" if none).

    >>> iss_time("2026-11-28T19:03:12.345Z"), iss_time("2026-11-28T20:03:12+01:00"), iss_time("")
    ('2026-11-28/19:03:12/UTC', '2026-11-28/19:03:12/UTC', '')
    """
    try:
        when = datetime.fromisoformat(at)
    except ValueError:
        return ""
    if when.tzinfo is not None:
        when = when.astimezone(UTC)
    return when.strftime("%Y-%m-%d/%H:%M:%S/UTC")


def _short(r: IssResult) -> str:
    return "passed" if r.passed else f"d:{r.declarer} {r.outcome} v:{r.value}"


def _iss_escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace("]", "\\]")


def _table_number(service: Any, g: ScoredGame) -> int:
    """The table's number (the draw numbers tables 1, 2, ...), else its place in the seating."""
    if g.table.isdigit():
        return int(g.table)
    return list(service.store.seating(g.series)).index(g.table) + 1


# A name is never cut: it is set smaller (down to NAME_MIN_PT on one line), else on two
# lines; only a name too long for two lines at WRAP_MIN_PT takes more.
NAME_MIN_PT = 7.0
WRAP_MIN_PT = 5.5


class _Pdf(FPDF):
    def __init__(self, title: str, tr: Translator, landscape: bool = False) -> None:
        super().__init__(orientation="L" if landscape else "P", unit="mm", format="A4")
        self.title_text = title
        self.tr = tr
        self.unicode = (FONT_DIR / "DejaVuSans.ttf").exists()
        if self.unicode:
            self.add_font("DejaVu", "", str(FONT_DIR / "DejaVuSans.ttf"))
            self.add_font("DejaVu", "B", str(FONT_DIR / "DejaVuSans-Bold.ttf"))
            self.family = "DejaVu"
        else:
            self.family = "Helvetica"
        self.set_auto_page_break(True, margin=15)
        self.set_margins(12, 12, 12)

    def text_(self, s: Any) -> str:
        s = str(s)
        if self.unicode:
            return s
        return s.encode("latin-1", "replace").decode("latin-1")

    def font(self, size: float, bold: bool = False) -> None:
        self.set_font(self.family, "B" if bold else "", size)

    def header(self) -> None:
        self.font(9)
        self.set_text_color(90)
        self.cell(0, 5, self.text_(self.title_text), new_x=XPos.LMARGIN, new_y=YPos.NEXT)
        self.set_text_color(0)

    def footer(self) -> None:
        self.set_y(-12)
        self.font(8)
        self.set_text_color(90)
        stamp = datetime.now().strftime("%Y-%m-%d %H:%M")
        _ = self.tr
        page = _("page %(page)s") % {"page": self.page_no()}
        self.cell(0, 5, self.text_(f"skat-table club · {stamp} · {page}"), align="C")
        self.set_text_color(0)

    def fit(self, text: str, w: float) -> str:
        """``text`` cut (with an ellipsis) to fit a cell ``w`` mm wide: for numbers and
        words of the list, never for a name (see :meth:`fitted`)."""
        room = w - 2 * self.c_margin
        if self.get_string_width(text) <= room:
            return text
        while text and self.get_string_width(text + "…") > room:
            text = text[:-1]
        return text + "…" if self.unicode else text

    def fitted(self, text: str, w: float, size: float, bold: bool = False
               ) -> tuple[float, list[str]]:
        """A name in a cell ``w`` mm wide, whole: ``(font size, lines)``. One line at
        ``size``, or smaller down to :data:`NAME_MIN_PT`; else two lines, from ``size`` down
        to :data:`WRAP_MIN_PT`; else as many lines as it takes at that size."""
        room = w - 2 * self.c_margin
        pt = size
        while pt >= NAME_MIN_PT:
            self.font(pt, bold)
            if self.get_string_width(text) <= room:
                return pt, [text]
            pt -= 0.5
        pt = min(size, 8.0)
        while True:
            self.font(pt, bold)
            lines = self._wrap(text, room)
            if len(lines) <= 2 or pt <= WRAP_MIN_PT:
                return pt, lines
            pt -= 0.5

    def _wrap(self, text: str, room: float) -> list[str]:
        """Greedy wrap at the current font, at spaces and after hyphens
        ("Hartmannsberger-" / "Schulze"); a part wider than a line is split."""
        # (piece, glued to the one before): a double name breaks after its hyphen
        pieces = [(part, i > 0) for word in text.split()
                  for i, part in enumerate(re.findall(r"[^-]+-?|-", word))]
        lines: list[str] = []
        line = ""
        for piece, glued in pieces:
            trial = line + piece if glued else (f"{line} {piece}" if line else piece)
            if self.get_string_width(trial) <= room:
                line = trial
                continue
            if line:
                lines.append(line)
            while self.get_string_width(piece) > room and len(piece) > 1:
                cut = len(piece) - 1
                while cut > 1 and self.get_string_width(piece[:cut]) > room:
                    cut -= 1
                lines.append(piece[:cut])
                piece = piece[cut:]
            line = piece
        if line:
            lines.append(line)
        return lines or [""]

    def row(self, cells: list[tuple[Any, float, str]], h: float = 6, bold: bool = False,
            size: float = 9, border: str = "B", fill: bool = False,
            names: tuple[int, ...] = ()) -> None:
        """One line of a list; the cells at the indices ``names`` hold names, set whole
        (smaller or on two lines, the row taller), the others cut to fit."""
        laid: list[tuple[float, list[str]]] = []
        for i, (text, w, _align) in enumerate(cells):
            t = self.text_(text)
            if i in names:
                laid.append(self.fitted(t, w, size, bold))
            else:
                self.font(size, bold)
                laid.append((size, [self.fit(t, w)]))
        line_h = {pt: pt * 0.3528 * 1.2 for pt, _ in laid}
        height = max([h] + [len(lines) * line_h[pt] + 1.0 for pt, lines in laid])
        if self.will_page_break(height):
            self.add_page()
        x, y = self.get_x(), self.get_y()
        for (_text, w, align), (pt, lines) in zip(cells, laid, strict=True):
            self.set_xy(x, y)
            self.cell(w, height, "", border=border, fill=fill)
            self.font(pt, bold)
            if len(lines) == 1:
                self.set_xy(x, y)
                self.cell(w, height, lines[0], align=align)
            else:
                top = y + (height - len(lines) * line_h[pt]) / 2
                for k, line in enumerate(lines):
                    self.set_xy(x, top + k * line_h[pt])
                    self.cell(w, line_h[pt], line, align=align)
            x += w
        self.set_xy(self.l_margin, y + height)


def ranking_pdf(service: Any) -> bytes:
    _ = translator(service.config.language)
    t = service.config.tournament
    title = f"{service.config.club_name} · {t.name or t.id}"
    pdf = _Pdf(title, _, landscape=t.series > 3)
    pdf.add_page()
    pdf.font(16, True)
    pdf.cell(0, 10, pdf.text_(f"{_('Ranking')} · {t.name or t.id}"),
             new_x=XPos.LMARGIN, new_y=YPos.NEXT)
    pdf.font(9)
    pdf.multi_cell(0, 5, pdf.text_(_(
        "Seeger-Fabian (Skatwettspielordnung 5): the game value, ±50 for each game won or "
        "lost, 40/30 to the defenders for each lost game. Equal totals share a place.")),
        new_x=XPos.LMARGIN, new_y=YPos.NEXT)
    pdf.ln(2)
    series_w = 14
    name_w = 34 + (87 if t.series > 3 else 0) - series_w * max(0, t.series - 3)
    cols: list[tuple[str, float, str]] = [(_("Place"), 11, "R"), (_("Name"), name_w, "L"),
                                          (_("Club"), 24, "L")]
    cols += [(_("S%(series)s") % {"series": s}, series_w, "R")
             for s in range(1, t.series + 1)]
    cols += [(_("Total"), 16, "R"), (_("won"), 12, "R"), (_("lost"), 12, "R"),
             (_("Abreizgeld"), 18, "R"), (_("Prize"), 16, "R")]
    pdf.set_fill_color(230, 238, 234)
    # the column heads are set whole too: "Miejsce" or "Abreizgeld" in an 11 mm column
    pdf.row([(c, w, a) for c, w, a in cols], bold=True, fill=True,
            names=tuple(range(len(cols))))
    for r in service.ranking():
        vals = [f"{r.place}.", r.name, r.club, *r.series, r.total, r.won, r.lost,
                f"{r.abreizgeld:.2f}", f"{r.prize:.2f}" if r.prize else ""]
        pdf.row([(v, w, a) for v, (_c, w, a) in zip(vals, cols, strict=True)], names=(1, 2))
    apart = service.not_ranked()
    if apart:
        pdf.ln(3)
        pdf.font(9)
        pdf.multi_cell(0, 5, pdf.text_(
            _("Not ranked (absent, or not seated in any series):") + " "
            + ", ".join(p["name"] for p in apart)), new_x=XPos.LMARGIN, new_y=YPos.NEXT)
    pool, prizes = service.prizes()
    if prizes:
        pdf.ln(3)
        pdf.font(9)
        pdf.multi_cell(0, 5, pdf.text_(
            _("Prize money %(pool)s:") % {"pool": f"{pool:.2f}"} + " "
            + ", ".join(f"{i}. {p:.2f}" for i, p in enumerate(prizes, 1))))
    # the prize list and the teams: sections of their own, when configured
    from club import prizes as prize_list
    from club import teams

    prize_list.pdf_section(pdf, service)
    teams.pdf_section(pdf, service)
    return bytes(pdf.output())


def sheet_pdf(service: Any, sheet: TableSheet) -> bytes:
    _ = translator(service.config.language)
    t = service.config.tournament
    n = len(sheet.players)
    title = f"{service.config.club_name} · {t.name or t.id}"
    pdf = _Pdf(title, _)
    pdf.add_page()
    pdf.font(15, True)
    pdf.cell(0, 9, pdf.text_(_("Score sheet of table %(table)s · series %(series)s")
                             % {"table": sheet.table, "series": sheet.series}),
             new_x=XPos.LMARGIN, new_y=YPos.NEXT)
    pdf.font(9)
    pdf.cell(0, 5, pdf.text_(_("%(games)s of %(due)s games") % {
        "games": len(sheet.lines), "due": sheet.games_due}),
        new_x=XPos.LMARGIN, new_y=YPos.NEXT)
    pdf.multi_cell(0, 5, pdf.text_(_("Players:") + " " + ", ".join(
        f"{seat + 1}. {name} ({pid})" for seat, (pid, name) in enumerate(sheet.players))),
        new_x=XPos.LMARGIN, new_y=YPos.NEXT)
    pdf.ln(2)
    pw = (186 - 10 - 24 - 40 - 16) / n
    head = [(_("No."), 10, "R"), (_("Dealer"), 24, "L"), (_("Game"), 40, "L")]
    head += [(name, pw, "R") for _pid, name in sheet.players] + [("", 16, "L")]
    pdf.set_fill_color(230, 238, 234)
    pdf.row(head, bold=True, fill=True, size=8, names=tuple(range(len(head))))
    for line in sheet.lines:
        g = line.game
        cells: list[tuple[Any, float, str]] = [
            (g.game, 10, "R"), (sheet.players[g.dealer][1], 24, "L"),
            (_.contract(g.contract, g.passed_in), 40, "L")]
        for s in range(n):
            text = f"{g.value:+d} = {line.running[s]}" if g.declarer == s else ""
            cells.append((text, pw, "R"))
        cells.append((_("annul.") if g.annulled else (_("corr.") if line.corrected else ""),
                      16, "L"))
        pdf.row(cells, h=5.2, size=8.5, names=(1,))
    pdf.ln(2)
    b = sheet.bonus_per_game
    for label, fn in (
        (_("Points (game values)"), lambda s: s.points),
        (_("Won games × 50"), lambda s: f"{s.won} · +{s.won * 50}"),
        (_("Lost games × 50"), lambda s: f"{s.lost} · -{s.lost * 50}"),
        (_("Others' lost games × %(bonus)s") % {"bonus": b},
         lambda s: f"{s.others_lost} · +{s.bonus}"),
        ("Seeger-Fabian", lambda s: s.sf),
    ):
        bold = label == "Seeger-Fabian"
        pdf.row([(label, 74, "L")] + [(fn(s), pw, "R") for s in sheet.sums] + [("", 16, "L")],
                bold=bold)
    pdf.ln(8)
    pdf.font(9)
    pdf.cell(0, 5, pdf.text_(_("Signatures:") + " " + "   ".join(
        "________________" for _s in range(n))))
    return bytes(pdf.output())

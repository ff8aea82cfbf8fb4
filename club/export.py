"""The lists a director hands out: the ranking and each table's Seeger-Fabian list as PDF
(fpdf2, laid out like the paper lists) and CSV, and every counted game as ISS records.

The PDFs use the DejaVu fonts that the project ships for the kiosk (``display/fonts``; the
files are read, nothing of ``display`` is imported), so any Unicode name prints; without them
the PDF falls back to a core font with the names transliterated.
"""

from __future__ import annotations

import csv
import io
from datetime import datetime
from pathlib import Path
from typing import Any

from fpdf import FPDF
from fpdf.enums import XPos, YPos

from club.sheets import TableSheet, contract_text

FONT_DIR = Path(__file__).resolve().parent.parent / "display" / "fonts"


def ranking_csv(service: Any) -> str:
    out = io.StringIO()
    w = csv.writer(out)
    n = service.config.tournament.series
    w.writerow(["place", "id", "name", "club", *[f"series_{s}" for s in range(1, n + 1)],
                "total", "points", "won", "lost", "defender_bonus", "abreizgeld", "prize"])
    for r in service.ranking():
        w.writerow([r.place, r.player, r.name, r.club, *r.series, r.total, r.points, r.won,
                    r.lost, r.bonus, f"{r.abreizgeld:.2f}", f"{r.prize:.2f}"])
    return out.getvalue()


def sheet_csv(sheet: TableSheet) -> str:
    out = io.StringIO()
    w = csv.writer(out)
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
    """Every counted game's ISS record, one per line, in series/table/game order; annulled
    games are left out, corrected ones are written as played (the record is the play)."""
    return "".join(g.iss.strip() + "\n" for g in service.games() if not g.annulled and g.iss)


class _Pdf(FPDF):
    def __init__(self, title: str, landscape: bool = False) -> None:
        super().__init__(orientation="L" if landscape else "P", unit="mm", format="A4")
        self.title_text = title
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
        self.cell(0, 5, self.text_(f"skat-table club · {stamp} · page {self.page_no()}"),
                  align="C")
        self.set_text_color(0)

    def fit(self, text: str, w: float) -> str:
        """``text`` cut (with an ellipsis) to fit a cell ``w`` mm wide."""
        room = w - 2 * self.c_margin
        if self.get_string_width(text) <= room:
            return text
        while text and self.get_string_width(text + "…") > room:
            text = text[:-1]
        return text + "…" if self.unicode else text

    def row(self, cells: list[tuple[Any, float, str]], h: float = 6, bold: bool = False,
            size: float = 9, border: str = "B", fill: bool = False) -> None:
        self.font(size, bold)
        for text, w, align in cells:
            self.cell(w, h, self.fit(self.text_(text), w), border=border, align=align,
                      fill=fill, new_x=XPos.RIGHT, new_y=YPos.TOP)
        self.ln(h)


def ranking_pdf(service: Any) -> bytes:
    t = service.config.tournament
    title = f"{service.config.club_name} · {t.name or t.id}"
    pdf = _Pdf(title, landscape=t.series > 3)
    pdf.add_page()
    pdf.font(16, True)
    pdf.cell(0, 10, pdf.text_(f"Rangliste / Ranking · {t.name or t.id}"),
             new_x=XPos.LMARGIN, new_y=YPos.NEXT)
    pdf.font(9)
    pdf.multi_cell(0, 5, pdf.text_("Seeger-Fabian (Skatwettspielordnung 5): Spielwert, ±50 je "
                                   "gewonnenem/verlorenem Spiel, 40/30 an die Gegner je "
                                   "verlorenem Spiel. Gleiche Punktzahl: gleicher Platz."),
                   new_x=XPos.LMARGIN, new_y=YPos.NEXT)
    pdf.ln(2)
    series_w = 14
    name_w = 34 + (87 if t.series > 3 else 0) - series_w * max(0, t.series - 3)
    cols: list[tuple[str, float, str]] = [("Platz", 11, "R"), ("Name", name_w, "L"),
                                          ("Verein", 24, "L")]
    cols += [(f"S{s}", series_w, "R") for s in range(1, t.series + 1)]
    cols += [("Gesamt", 16, "R"), ("gew.", 12, "R"), ("verl.", 12, "R"),
             ("Abreizg.", 18, "R"), ("Preis", 16, "R")]
    pdf.set_fill_color(230, 238, 234)
    pdf.row([(c, w, a) for c, w, a in cols], bold=True, fill=True)
    for r in service.ranking():
        vals = [f"{r.place}.", r.name, r.club, *r.series, r.total, r.won, r.lost,
                f"{r.abreizgeld:.2f}", f"{r.prize:.2f}" if r.prize else ""]
        pdf.row([(v, w, a) for v, (_, w, a) in zip(vals, cols, strict=True)])
    apart = service.not_ranked()
    if apart:
        pdf.ln(3)
        pdf.font(9)
        pdf.multi_cell(0, 5, pdf.text_(
            "Nicht gewertet (abwesend oder in keiner Serie gesetzt): "
            + ", ".join(p["name"] for p in apart)), new_x=XPos.LMARGIN, new_y=YPos.NEXT)
    pool, prizes = service.prizes()
    if prizes:
        pdf.ln(3)
        pdf.font(9)
        pdf.multi_cell(0, 5, pdf.text_(
            f"Preisgeld {pool:.2f}: " + ", ".join(f"{i}. {p:.2f}" for i, p in
                                                   enumerate(prizes, 1))))
    # the prize list and the teams: sections of their own, when configured
    from club import prizes as prize_list
    from club import teams

    prize_list.pdf_section(pdf, service)
    teams.pdf_section(pdf, service)
    return bytes(pdf.output())


def sheet_pdf(service: Any, sheet: TableSheet) -> bytes:
    t = service.config.tournament
    n = len(sheet.players)
    title = f"{service.config.club_name} · {t.name or t.id}"
    pdf = _Pdf(title)
    pdf.add_page()
    pdf.font(15, True)
    pdf.cell(0, 9, pdf.text_(f"Spielliste Tisch {sheet.table} · Serie {sheet.series}"),
             new_x=XPos.LMARGIN, new_y=YPos.NEXT)
    pdf.font(9)
    pdf.cell(0, 5, pdf.text_(f"{len(sheet.lines)} von {sheet.games_due} Spielen"),
             new_x=XPos.LMARGIN, new_y=YPos.NEXT)
    pdf.multi_cell(0, 5, pdf.text_("Spieler: " + ", ".join(
        f"{seat + 1}. {name} ({pid})" for seat, (pid, name) in enumerate(sheet.players))),
        new_x=XPos.LMARGIN, new_y=YPos.NEXT)
    pdf.ln(2)
    pw = (186 - 10 - 24 - 40 - 16) / n
    head = [("Nr.", 10, "R"), ("Geber", 24, "L"), ("Spiel", 40, "L")]
    head += [(name, pw, "R") for _, name in sheet.players] + [("", 16, "L")]
    pdf.set_fill_color(230, 238, 234)
    pdf.row(head, bold=True, fill=True, size=8)
    for line in sheet.lines:
        g = line.game
        cells: list[tuple[Any, float, str]] = [
            (g.game, 10, "R"), (sheet.players[g.dealer][1], 24, "L"),
            (contract_text(g.contract, g.passed_in), 40, "L")]
        for s in range(n):
            text = f"{g.value:+d} = {line.running[s]}" if g.declarer == s else ""
            cells.append((text, pw, "R"))
        cells.append(("annull." if g.annulled else ("korr." if line.corrected else ""), 16, "L"))
        pdf.row(cells, h=5.2, size=8.5)
    pdf.ln(2)
    b = sheet.bonus_per_game
    for label, fn in (
        ("Spielpunkte", lambda s: s.points),
        ("gewonnene Spiele × 50", lambda s: f"{s.won} · +{s.won * 50}"),
        ("verlorene Spiele × 50", lambda s: f"{s.lost} · -{s.lost * 50}"),
        (f"verlorene Spiele der anderen × {b}", lambda s: f"{s.others_lost} · +{s.bonus}"),
        ("Seeger-Fabian", lambda s: s.sf),
    ):
        bold = label == "Seeger-Fabian"
        pdf.row([(label, 74, "L")] + [(fn(s), pw, "R") for s in sheet.sums] + [("", 16, "L")],
                bold=bold)
    pdf.ln(8)
    pdf.font(9)
    pdf.cell(0, 5, pdf.text_("Unterschriften / signatures: " + "   ".join(
        "________________" for _ in range(n))))
    return bytes(pdf.output())

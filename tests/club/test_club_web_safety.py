"""The club server's pages and files against a hostile visitor: CSV cells a spreadsheet would
take for formulas, text put in a link's query string, framing and sniffing (the response
headers), and a session cookie copied before the director logged out."""

from __future__ import annotations

import csv
import io
from pathlib import Path

from test_club_core import make_service, play_series

from club import export
from club.sheets import table_sheet

NAMES = ['=HYPERLINK("http://x","click")', "+49 171 2345678", "-2+3", "@SUM(A1:A9)"]
CLUBS = ["=cmd|' /C calc'!A0", "@Verein", "-SC", "+SC"]


def test_csv_cells_that_a_spreadsheet_would_run_are_quoted(tmp_path: Path) -> None:
    svc = make_service(tmp_path, players=0)
    for i, (name, club) in enumerate(zip(NAMES, CLUBS, strict=True), 1):
        svc.register(f"p{i}", name, club)
    svc.draw_series()
    play_series(svc, 1, games=8)
    ranking = list(csv.reader(io.StringIO(export.ranking_csv(svc))))
    sheet = table_sheet(svc, 1, "1")
    assert sheet is not None
    lists = list(csv.reader(io.StringIO(export.sheet_csv(sheet))))
    assert {r[1]: (r[2], r[3]) for r in ranking[1:]} == {
        f"p{i}": ("'" + name, "'" + club)
        for i, (name, club) in enumerate(zip(NAMES, CLUBS, strict=True), 1)}
    assert [c for c in lists[0] if "(p" in c] == [f"'{NAMES[int(p[1:]) - 1]} ({p})"
                                                  for p in svc.store.seating(1)["1"]]
    for row in ranking + lists:
        for cell in row:
            if cell[:1] in ("=", "+", "@") or (cell[:1] == "-" and not cell[1:].isdigit()):
                raise AssertionError(f"a cell a spreadsheet would run: {cell!r} in {row}")
    # numbers stay numbers: a lost game's -2 x value is written as it is
    assert any(int(r[5]) < 0 for r in lists[1:9] if r[5])
    # the others OWASP names, and blanks before them (some spreadsheets drop those first)
    assert [export.csv_cell(t) for t in ("\tx", "\rx", "  =1+1", "a=b", "", -5)] == [
        "'\tx", "'\rx", "'  =1+1", "a=b", "", -5]

"""The lists a director hands out: long names printed whole in the ranking and the table's
list (PDF text read back with pdftotext), and the tournament's ISS file: a header of its own
for each game (a unique ID, the table's session, the time, a comment naming the tournament,
series and table) and the result that counts, corrections included, read back with the
engine's ISS parser and summed to the ranking."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from club import export
from club.config import ClubConfig
from club.service import ClubService
from club.sheets import table_sheet
from club.simtables import SimTable, encode, topic
from club.store import Store
from engine.iss import check_line, parse_properties, parse_record
from engine.series import seats_for, seeger_fabian_entries

LONG_NAMES = [
    "Wolfgang Hartmannsberger-Schulze",
    "Maximiliane Alexandra von Hohenzollern-Sigmaringen",
    "Anna-Katharina Müller-Lüdenscheidt",
    "Bartholomäus Zwiebelhuber",
    "Łukasz Grzegorz Brzęczyszczykiewicz",
    "Jo Li",
    "Friedrich-Wilhelm Oberstudiendirektor Kleinschmidt-Wagenknecht",
]


def service(tmp_path: Path, names: list[str], language: str = "de", **t: object
            ) -> ClubService:
    tournament = {"id": "herbst", "name": "Herbstpreisskat", "seed": "11", "entry_fee": "10",
                  "prize_shares": [50, 30, 20], **t}
    cfg = ClubConfig.from_dict({"club": {"id": "skc", "database": str(tmp_path / "c.db"),
                                         "language": language, "name": "Skatclub Kreuz Bube"},
                                "tournament": tournament})
    svc = ClubService(cfg, Store(cfg.database))
    for i, name in enumerate(names, 1):
        svc.register(f"p{i}", name, "Skatfreunde Hohenlimburg-Elsey 1952 e.V.")
    svc.register_done()
    return svc


def play(svc: ClubService, series: int, games: int, at: str = "") -> None:
    for tid, pids in svc.store.seating(series).items():
        sim = SimTable("herbst", series, tid, pids, seed=5, games=games)
        while not sim.finished:
            m = sim.play_one()
            m["at"] = at
            assert svc.handle(topic("skc", tid), encode(m)).kind == "counted"


def pdf_text(data: bytes, tmp: Path) -> str:
    """The PDF's text in drawing order, its white space made single spaces."""
    exe = shutil.which("pdftotext")
    if exe is None:
        pytest.fail("pdftotext is missing: install poppler-utils (tests/system-packages.sh)")
    (tmp / "x.pdf").write_bytes(data)
    subprocess.run([exe, "-raw", str(tmp / "x.pdf"), str(tmp / "x.txt")], check=True)
    text = " ".join((tmp / "x.txt").read_text(encoding="utf-8").split())
    return text.replace("- ", "-")             # a double name may break after its hyphen


@pytest.mark.parametrize("series", [3, 6])
def test_long_names_are_printed_whole(tmp_path: Path, series: int) -> None:
    """Every name, and the long club name, whole in the ranking PDF (portrait with three
    series, landscape with six) and in each table's list, none cut with an ellipsis."""
    svc = service(tmp_path, LONG_NAMES, series=series)
    svc.draw_series()
    play(svc, 1, games=3)
    ranking = pdf_text(export.ranking_pdf(svc), tmp_path)
    assert "…" not in ranking
    for name in [*LONG_NAMES, "Skatfreunde Hohenlimburg-Elsey 1952 e.V."]:
        assert name in ranking, f"{name!r} is not whole in the ranking: {ranking[:600]}"
    for table in svc.store.seating(1):
        sheet = table_sheet(svc, 1, table)
        assert sheet is not None
        text = pdf_text(export.sheet_pdf(svc, sheet), tmp_path)
        assert "…" not in text
        for _pid, name in sheet.players:
            assert name in text.replace(f"({_pid})", ""), name


def test_a_name_fits_its_cell_at_a_readable_size(tmp_path: Path) -> None:
    """A long name is set smaller (not below 7 pt) or on two lines (not below 5.5 pt); each
    line fits the column; a short one keeps the list's size."""
    from club.i18n import translator

    pdf = export._Pdf("t", translator("de"))
    pdf.add_page()
    assert pdf.fitted("Jo Li", 34, 9) == (9, ["Jo Li"])
    size, lines = pdf.fitted("Wolfgang Hartmann", 34, 9)       # once "Wolfgang Hartma…"
    assert export.NAME_MIN_PT <= size < 9 and lines == ["Wolfgang Hartmann"]
    # two lines; a name too long even for that takes a third, at the smallest size
    for name, most in (LONG_NAMES[1], 2), (LONG_NAMES[6], 3):
        size, lines = pdf.fitted(name, 34, 9)
        assert 2 <= len(lines) <= most and size >= export.WRAP_MIN_PT, (name, size, lines)
        assert " ".join(lines).replace("- ", "-") == name
        pdf.font(size)
        assert all(pdf.get_string_width(line) <= 34 - 2 * pdf.c_margin for line in lines)
    # a double name breaks after its hyphen, not inside a word
    size, lines = pdf.fitted("Hartmannsberger-Wagenknecht-Schulze", 34, 9)
    assert lines == ["Hartmannsberger-", "Wagenknecht-Schulze"], lines


ISS_LINE = re.compile(
    r"^\(;GM\[Skat\]PC\[[^\]]+\]CO\[(?:\\.|[^\]\\])+\]SE\[\d+\]ID\[\d+\]"
    r"DT\[\d{4}-\d\d-\d\d/\d\d:\d\d:\d\d/UTC\]P0\[[^\]]+\]P1\[[^\]]+\]P2\[[^\]]+\]"
    r"R0\[\]R1\[\]R2\[\]MV\[w [^\]]+\]R\[[^\]]+\] ;\)$")


def test_iss_export_one_record_per_game_with_the_counted_result(tmp_path: Path) -> None:
    svc = service(tmp_path, [f"Spieler {i}" for i in range(1, 8)], series=2)
    svc.draw_series()
    play(svc, 1, games=6, at="2026-11-28T19:03:12Z")
    svc.set_series_state(1, "closed")
    svc.draw_series()
    play(svc, 2, games=6)
    games = svc.games()
    # the director corrects three games: another declarer and value, a passed-in game, and
    # annuls one
    fixed, passed, annulled = games[1], games[8], games[15]
    decl = next(s for s in range(fixed.n) if s != fixed.declarer
                and not (fixed.n == 4 and s == fixed.dealer))
    svc.correct(fixed.game_id, "director", "Alleinspieler verwechselt", declarer=decl,
                won=False, value=-96)
    svc.correct(passed.game_id, "director", "war eingepasst", declarer=None, value=0)
    svc.correct(annulled.game_id, "director", "vergeben", annul=True)
    counted = {g.game_id: g for g in svc.games() if not g.annulled}

    text = export.games_iss(svc)
    lines = text.splitlines()
    assert len(lines) == len(counted) == len(games) - 1 and text.endswith("\n")
    ids = [dict(parse_properties(line))["ID"] for line in lines]
    assert len(set(ids)) == len(ids), "an ID repeats"
    totals: dict[str, int] = {}
    for line in lines:
        assert ISS_LINE.match(line), line
        props = parse_properties(line)
        assert [k for k, _ in props] == ["GM", "PC", "CO", "SE", "ID", "DT", "P0", "P1", "P2",
                                         "R0", "R1", "R2", "MV", "R"]
        p = dict(props)
        series, table, number = int(p["ID"][:-6]), str(int(p["ID"][-6:-3])), int(p["ID"][-3:])
        g = counted[f"herbst/{series}/{table}/{number}"]
        assert p["SE"] == p["ID"][:-3]
        assert p["CO"].startswith(f"Herbstpreisskat, Serie {series}, Tisch {table}, "
                                  f"Spiel {number}")
        if series == 1:
            assert p["DT"] == "2026-11-28/19:03:12/UTC"      # the table's own time
        seats = seats_for(g.dealer, g.n)
        names = svc.players()
        assert [p[f"P{i}"] for i in range(3)] == [names[g.players[s]][0] for s in seats]
        # read back with the engine's parser: the result is what the ranking counted
        record = parse_record(line)
        r = record.result
        assert r is not None
        scores = [0] * g.n
        if g.declarer is None:
            assert r.passed
        else:
            assert (seats[r.declarer], r.won, r.value) == (g.declarer, g.won, g.value)
            scores[g.declarer] = r.value
        sf = scores if g.declarer is None else seeger_fabian_entries(scores, g.declarer,
                                                                     r.won)
        assert list(sf) == list(g.sf)
        for seat, pid in enumerate(g.players):
            totals[pid] = totals.get(pid, 0) + sf[seat]
        if g.game_id in (fixed.game_id, passed.game_id):
            assert "korrigiert" in p["CO"] and "wie gespielt: " in p["CO"], p["CO"]
            assert check_line(line)[1], "a corrected result is not the play's own"
        else:
            assert "korrigiert" not in p["CO"]
            assert check_line(line)[1] == [], line        # the play replays to its R[...]
    assert totals == {r.player: r.total for r in svc.ranking()}
    co = dict(parse_properties(next(x for x in lines if f"Tisch {fixed.table}, Spiel "
                                    f"{fixed.game}" in x and f"Serie {fixed.series}" in x)))
    assert "Alleinspieler verwechselt" in co["CO"]


def test_iss_comment_in_the_clubs_language(tmp_path: Path) -> None:
    svc = service(tmp_path, [f"Player {i}" for i in range(1, 4)], language="en")
    svc.draw_series()
    play(svc, 1, games=2)
    first = dict(parse_properties(export.games_iss(svc).splitlines()[0]))
    assert first["CO"] == "Herbstpreisskat, series 1, table 1, game 1"
    assert first["ID"] == "1001001" and first["SE"] == "1001"

"""The archive of finished series and the players' statistics: counted from the journal as a
person counts them from the sheets (tests/archivekit.py), kept beside the journal and made
again only where a series changed, read on a connection of its own that checks what it
reads, made off the event loop, and exported by ``skat-table stats``."""

from __future__ import annotations

import contextlib
import csv
import io
import json
import sqlite3
import threading
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from archivekit import EXPECTED, SERIES_TOTALS, write_journal

from firmware_host.cli import main
from firmware_host.series.archive import ArchiveCache, ArchiveService, archive_of, mark_key
from firmware_host.series.journal import Journal, JournalError, read_series_entries


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_journal(tmp_path_factory.mktemp("archive") / "journal.sqlite")


@pytest.fixture
def journal_path(built: Path, tmp_path: Path) -> Path:
    """A copy of the built journal (its database and its second copy) for one test."""
    for suffix in ("", ".copy"):
        (tmp_path / ("journal.sqlite" + suffix)).write_bytes(
            Path(str(built) + suffix).read_bytes())
    return tmp_path / "journal.sqlite"


def figures(archive: Any) -> dict[str, tuple]:
    out = {}
    for name, p in archive.players().items():
        b = p.best
        out[name] = (p.series, p.games, p.declared, p.won, p.seeger_fabian,
                     None if b is None else (b.value, b.contract, b.series, b.number))
    return out


def test_the_statistics_are_those_counted_by_hand(journal_path: Path) -> None:
    """Four finished series (three played to their end, one broken off after a passed-in
    deal), one broken off before its first card and one still open: the players' figures
    and each series' totals are the ones counted from the sheets."""
    journal = Journal.open(journal_path, read_only=True)
    try:
        archive = archive_of(journal)
    finally:
        journal.close()
    assert figures(archive) == EXPECTED
    assert archive.unreadable == ()
    assert [s.series for s in archive.series] == [1, 2, 3, 4]
    for s in archive.series:
        assert (s.totals, s.seeger_fabian, len(s.deals), s.complete) == SERIES_TOTALS[s.series]
    assert [s.winner for s in archive.series] == [2, 1, 0, None]
    stats = archive.players()
    assert stats["Anna"].won_share == 0.8 and stats["Dieter"].won_share is None
    assert stats["Carla"].seeger_fabian_average == pytest.approx(-22.25)


def test_the_summaries_are_kept_beside_the_journal(journal_path: Path) -> None:
    """The first archive is made in the background and each summary kept in the journal's
    database; the next one (a restart) is read from there, playing nothing again."""
    journal = Journal.open(journal_path)
    service = ArchiveService(journal)
    try:
        service.refresh()
        assert service.wait(60)
        first = service.archive()
        assert first is not None and figures(first) == EXPECTED
        assert first.made == 5  # the one broken off before its first card too: shown never
    finally:
        service.close()
        journal.close()
    with sqlite3.connect(journal_path) as conn:
        kept = dict(conn.execute("SELECT series, mark FROM archive").fetchall())
    assert sorted(kept) == [1, 2, 3, 4, 5]
    journal = Journal.open(journal_path)
    service = ArchiveService(journal)
    try:
        assert {m.series: mark_key(m) for m in journal.series_marks() if m.finished} == kept
        service.refresh()
        assert service.wait(60)
        again = service.archive()
        assert again is not None and again.made == 0 and figures(again) == EXPECTED
    finally:
        service.close()
        journal.close()


def test_a_series_that_changed_after_its_end_is_summed_up_again(journal_path: Path) -> None:
    """An undo at a series' last result gives the series another last record: its kept
    summary no longer counts, and the archive follows the sheet as it is now."""
    from firmware_host.series.session import Session
    from firmware_host.table.inputs import Press, from_json

    journal = Journal.open(journal_path)
    service = ArchiveService(journal)
    try:
        service.refresh()
        assert service.wait(60)
        third = journal.series_marks()[2]
        # the undo goes into series 3 (Ben, Carla, Anna), as the table's live session would
        # journal it, after the series was finished
        session = Session(journal=journal, config=archive_config(3))
        session.series_id = 3
        for entry in journal.iter_entries(3):
            session.table.handle(from_json(entry.input), entry.source, live=False)
        assert session.table.phase == "over"
        assert session.submit(Press(2, "undo")).accepted
        assert journal.series_marks()[2].last > third.last
        service.refresh()
        assert service.wait(60)
        anna = service.archive().players()["Anna"]
        # Anna's game 3 (+156) is open again: its cards lie on the table, not on the sheet
        assert (anna.games, anna.declared, anna.won) == (14, 4, 3)
        assert anna.best is not None and anna.best.value == 66
    finally:
        service.close()
        journal.close()


def archive_config(series: int) -> Any:
    from archivekit import SERIES, config_of

    name, _, players = SERIES[series - 1]
    return config_of(name, players)


def test_reading_on_another_connection_checks_what_it_reads(journal_path: Path) -> None:
    """The worker's own connection verifies every record it reads against the chain, and the
    last against the mark the table verified: a record changed in the database is found."""
    journal = Journal.open(journal_path, read_only=True)
    marks = journal.series_marks()
    journal.close()
    first = marks[0]
    assert sum(1 for _ in read_series_entries(journal_path, first)) > 400
    with sqlite3.connect(journal_path) as conn:
        seq, payload = conn.execute("SELECT seq, payload FROM records WHERE seq = ?",
                                    (first.first + 5,)).fetchone()
        conn.execute("UPDATE records SET payload = ? WHERE seq = ?",
                     (bytes(payload).replace(b'"accepted"', b'"refused"'), seq))
    with pytest.raises(JournalError, match="does not verify"):
        list(read_series_entries(journal_path, first))
    # a mark the database does not reach (a record not committed yet) is not taken either
    with pytest.raises(JournalError, match="otherwise"):
        list(read_series_entries(journal_path, replace(marks[1], last_hash=b"\x00" * 32)))


def test_the_event_loop_never_waits_for_the_archive(journal_path: Path, monkeypatch) -> None:
    """While the archive is being made (held up here), the loop takes inputs and shows them;
    the screen says the statistics are being gathered, and shows them when the archive's
    thread posts that they are ready."""
    from firmware_host.config import simulated_config
    from firmware_host.series.archive import ARCHIVE_READY, attach
    from firmware_host.series.session import Session
    from firmware_host.service.runner import EventLoop
    from firmware_host.table.inputs import TagLaid

    gate = threading.Event()
    real = ArchiveService._run

    def held(self: ArchiveService, job: Any) -> Any:
        assert gate.wait(30)
        return real(self, job)

    monkeypatch.setattr(ArchiveService, "_run", held)
    journal = Journal.open(journal_path)
    config = simulated_config(computer_seats=(), series_length=2)
    session = Session(config, journal, new_series_after_last=True)
    session.resume()
    shown: list[Any] = []
    loop = EventLoop(session, show=shown.append)
    attach(session, loop.post)
    try:
        tag = next(iter(config.deck))
        loop.post(TagLaid("deal", tag))
        loop.serve_once(0.5)
        assert session.table.deal.cards_known() == 1  # taken while the archive waits
        assert shown[-1].stats is not None and shown[-1].stats.state == "pending"
        gate.set()
        assert session.archive.wait(60)
        loop.serve_once(1.0)  # the archive's ARCHIVE_READY
        assert shown[-1].stats.state == "done" and shown[-1].stats.count == 4
        anna = next(p for p in shown[-1].stats.players if p.name == "Anna")
        assert (anna.series, anna.games, anna.declared, anna.won, anna.seeger_fabian,
                anna.best_value, anna.best_contract) == (4, 15, 5, 4, 121, 156, "CH")
        assert ARCHIVE_READY == "archive-ready"
    finally:
        gate.set()
        session.close()


def test_closing_ends_a_summing_up_under_way(journal_path: Path) -> None:
    """The table shuts down while the archive is being made: its process is ended, the
    table does not wait for it."""
    import time

    journal = Journal.open(journal_path)
    service = ArchiveService(journal)
    try:
        service.refresh()
        for _ in range(500):
            if service._proc is not None:
                break
            time.sleep(0.01)
        proc = service._proc
        t0 = time.monotonic()
        service.close()
        assert time.monotonic() - t0 < 5
        assert proc is None or not proc.is_alive()
    finally:
        journal.close()


def test_the_cache_of_a_journal_opened_read_only_is_never_written(journal_path: Path) -> None:
    journal = Journal.open(journal_path, read_only=True)
    try:
        archive_of(journal)
    finally:
        journal.close()
    with sqlite3.connect(journal_path) as conn:
        tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master")}
    assert "archive" not in tables
    cache = ArchiveCache(str(journal_path), read_only=True)
    assert cache.load() == {}
    cache.close()


def run_cli(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(list(args))
    return status, out.getvalue(), err.getvalue()


def test_skat_table_stats_exports_the_players_and_the_series(journal_path: Path,
                                                             tmp_path: Path) -> None:
    status, text, err = run_cli("stats", "--journal", str(journal_path))
    assert status == 0, err
    lines = text.splitlines()
    assert lines[0] == "4 finished series"
    anna = next(line for line in lines if line.startswith("Anna"))
    assert anna.split()[:5] == ["Anna", "4", "15", "4/5", "(80"]
    assert "+121.0" in anna and "+156 CH (series 3, game 3)" in anna

    status, out, _ = run_cli("stats", "--journal", str(journal_path), "--format", "csv")
    rows = {r["name"]: r for r in csv.DictReader(io.StringIO(out))}
    assert set(rows) == set(EXPECTED)
    assert [rows["Ben"][k] for k in ("series", "games", "declared", "won", "won_percent",
                                     "seeger_fabian", "seeger_fabian_per_series",
                                     "best_value", "best_contract", "best_series",
                                     "best_game")] == [
        "4", "15", "7", "6", "85.7", "776", "194.0", "180", "CH", "3", "1"]
    assert rows["Dieter"]["won_percent"] == "" and rows["Dieter"]["best_value"] == ""

    status, out, _ = run_cli("stats", "--journal", str(journal_path), "--format", "csv",
                             "--series")
    seats = list(csv.DictReader(io.StringIO(out)))
    assert len(seats) == 3 + 4 + 3 + 3
    assert [(r["player"], r["total"], r["seeger_fabian"]) for r in seats if
            r["series"] == "2"] == [("Anna", "114", "244"), ("Ben", "246", "476"),
                                    ("Carla", "-72", "-72"), ("Dieter", "0", "30")]
    assert {r["complete"] for r in seats if r["series"] == "4"} == {"False"}

    target = tmp_path / "stats.json"
    status, _, err = run_cli("stats", "--journal", str(journal_path), "--format", "json",
                             "--out", str(target))
    assert status == 0 and "written to" in err
    data = json.loads(target.read_text(encoding="utf-8"))
    assert [p["name"] for p in data["players"]] == ["Anna", "Ben", "Carla", "Dieter"]
    assert data["players"][2]["seeger_fabian_per_series"] == -22.2
    assert [s["winner"] for s in data["series"]] == ["Carla", "Ben", "Ben", None]

    status, out, _ = run_cli("stats", "--journal", str(journal_path), "--series")
    assert "#2" in out and "Ben +476" in out and "1 game:" in out
    status, _, err = run_cli("stats", "--journal", str(tmp_path / "none.sqlite"))
    assert status == 1 and "no journal" in err

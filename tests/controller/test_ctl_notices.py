"""A loss report is journalled and shown until someone confirms it: a repaired journal's notice
(where the table was restored to, what was lost) is a record of the journal, so the kiosk
still shows it after the next restart (the journal opens clean then), until a person confirms
it on the kiosk (or a technician with ``skat-table notices --confirm``). A power cut between
the repair and the notice, or right after the notice, neither loses nor doubles it.
"""

from __future__ import annotations

import io
import os
import sqlite3
import subprocess
import sys
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest
from seriesplay import config, play, reopen, where_of

from firmware_host.series.journal import Journal, JournalError

ROOT = Path(__file__).resolve().parents[2]
LOST = 4  # the copy's line this many from its end is damaged, the database unreadable


def damage(path: Path) -> None:
    """Both files damaged: the database's header, and a flipped bit in the copy ``LOST``
    lines from its end: the verified prefix before it is restored, ``LOST`` records lost."""
    copy = Path(f"{path}.copy")
    lines = copy.read_bytes().splitlines(keepends=True)
    bad = lines[-LOST]
    bad = bad[:30] + (b"0" if bad[30:31] != b"0" else b"1") + bad[31:]
    copy.write_bytes(b"".join([*lines[:-LOST], bad, *lines[-LOST + 1:]]))
    data = path.read_bytes()
    path.write_bytes(b"\x5a" * 100 + data[100:])


def damaged_journal(tmp_path: Path) -> Path:
    path = tmp_path / "journal.sqlite"
    play(Journal.open(path), 4)
    damage(path)
    return path


def restored(notices: list) -> list:
    return [body for _, body in notices if body.get("what") == "recovery"]


# ---- a power cut around the notice -------------------------------------------------------------


def cut_at(path: Path, where: str) -> None:
    """Open the damaged journal and resume it in a child that dies (the power goes) at
    ``where``: in the repair (the copy rebuilt, the database not yet), before the session's
    notice is written, or right after it."""
    patch = {
        "repair": "Journal._rebuild_db = classmethod(lambda cls, *a: os._exit(9))\n",
        "before-notice": "Journal.add_notice = lambda self, body: os._exit(9)\n",
        "after-notice": (
            "real = Journal.add_notice\n"
            "def cut(self, body):\n"
            "    real(self, body)\n"
            "    os._exit(9)\n"
            "Journal.add_notice = cut\n"),
    }[where]
    script = (
        "import os, sys\n"
        "sys.path.insert(0, 'tests/controller')\n"
        "from firmware_host.series.journal import Journal\n"
        f"{patch}"
        "from seriesplay import reopen\n"
        f"reopen({str(path)!r})\n"
        "os._exit(0)\n")
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True,
                          text=True, timeout=120,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert done.returncode == 9, done.stderr


@pytest.mark.parametrize("where", ["repair", "before-notice", "after-notice"])
def test_a_power_cut_around_the_notice_neither_loses_nor_doubles_it(tmp_path: Path,
                                                                    where: str) -> None:
    path = damaged_journal(tmp_path)
    cut_at(path, where)
    owed = Path(f"{path}.notices")  # journal.NOTICES_SUFFIX
    if where == "before-notice":
        # The repair is complete, so the journal opens clean: the repair's facts are owed.
        j = Journal.open(path, read_only=True)
        assert j.problems == [] and j.open_notices() == []
        assert [o["lost"] for o in j.owed_notices()] == [LOST]
        j.close()
    session = reopen(path)
    try:
        notices = restored(session.journal.open_notices())
        # The first repair's report, with what it found: never lost ...
        assert [n["lost"] for n in notices].count(LOST) == 1, notices
        first = next(n for n in notices if n["lost"] == LOST)
        assert first["note"] == (f"journal damaged: restored to deal 4, bidding; the last {LOST} "
                                 "input(s) could not be recovered")
        assert first["deal"] == 4 and "line" in " ".join(first["details"])
        assert where_of(session)[0] == 4
        # ... and never twice. A power cut in the middle of the repair makes this start find
        # damage of its own (the database was not rebuilt): its report comes second.
        assert len(notices) == (2 if where == "repair" else 1), notices
        if where == "repair":
            assert notices[1]["lost"] == 0 and notices[1]["unproven"] == "unreadable"
        assert session.journal.owed_notices() == [] and not owed.exists()
    finally:
        session.close()
    session = reopen(path)  # and the next start adds none
    try:
        assert len(restored(session.journal.open_notices())) == len(notices)
    finally:
        session.close()


def storage_full(self: Journal, body: dict) -> int:
    raise JournalError("the storage is full")


@pytest.mark.parametrize("how", ["retry", "input"])
def test_a_notice_the_storage_refuses_is_shown_and_written_when_the_storage_works_again(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, how: str) -> None:
    """The storage refuses the notice: a standing storage fault, the notice shown from memory
    (number 0); written with the next write the storage takes: the event loop's retry every
    few seconds, or the next input taken."""
    import random

    from firmware_host.screen.viewmodel import build_view
    from firmware_host.series.session import Session
    from firmware_host.series.simulated import SimulatedTable

    path = damaged_journal(tmp_path)
    cfg = config()
    journal = Journal.open(path)
    real = Journal.add_notice
    monkeypatch.setattr(Journal, "add_notice", storage_full)
    session = Session(cfg, journal, computer_seats=cfg.computer.seats)
    session.resume()
    try:
        assert journal.open_notices() == [] and len(journal.owed_notices()) == 1
        assert [(seq, b["lost"]) for seq, b in session.notices()] == [(0, LOST)]
        fault = next(f for f in build_view(session).faults if f.kind == "journal-restored")
        assert fault.notice == 0 and fault.other_value == LOST
        assert session.storage == "full" and "full" in (session.journal_fault or "")
        monkeypatch.setattr(Journal, "add_notice", real)  # the storage works again
        if how == "retry":
            assert session.retry_storage()
        else:  # the computer seats wait for the storage: the next input that is saved
            seat = session.table.seat_to_act()
            assert seat is not None and session.computer_move() is None
            from firmware_host.table.inputs import Press

            assert session.submit(Press(seat, "pass"), "computer").accepted
        written = restored(journal.open_notices())
        assert [n["lost"] for n in written] == [LOST] and journal.owed_notices() == []
        assert written[0]["deal"] == 4  # where the repair left the table
        assert [seq for seq, _ in session.notices()] == [s for s, _ in journal.open_notices()]
        assert session.storage is None
        assert SimulatedTable(session, random.Random(1)).step()  # and play goes on
    finally:
        session.close()


def test_a_notice_not_yet_written_is_written_when_it_is_confirmed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Confirmed on the kiosk while the storage had not taken it yet (number 0): the notice
    is journalled first, then its confirmation; ``systemctl status`` says it until then."""
    from firmware_host.series.session import Session
    from firmware_host.service.runner import status_line

    path = damaged_journal(tmp_path)
    cfg = config()
    journal = Journal.open(path)
    real = Journal.add_notice
    monkeypatch.setattr(Journal, "add_notice", storage_full)
    session = Session(cfg, journal, computer_seats=cfg.computer.seats)
    session.resume()
    try:
        assert "LOSS REPORT: 1 to confirm" in status_line(session)
        assert session.confirm_notice(0) is False  # still refused: nothing confirmed
        assert [seq for seq, _ in session.notices()] == [0]
        monkeypatch.setattr(Journal, "add_notice", real)
        assert session.confirm_notice(0) is True
        assert session.notices() == [] and journal.open_notices() == []
        assert "LOSS REPORT" not in status_line(session)
    finally:
        session.close()
    again = Journal.open(path)
    try:
        assert again.open_notices() == [] and again.owed_notices() == []
        assert len(again._notices.bodies) == 1 and len(again._notices.confirmed) == 1
    finally:
        again.close()


def test_a_format_1_conversion_is_no_loss_report_unless_it_lost(tmp_path: Path) -> None:
    from test_ctl_journal_version import write_format1

    path = tmp_path / "journal.sqlite"
    write_format1(path, 3)
    session = reopen(path)
    try:
        assert any("converted" in p for p in session.problems)
        assert session.notices() == [] and session.journal.owed_notices() == []
    finally:
        session.close()
    path = tmp_path / "lost" / "journal.sqlite"
    path.parent.mkdir()
    write_format1(path, 3)
    conn = sqlite3.connect(path)
    conn.execute("UPDATE inputs SET crc = crc + 1 WHERE seq = (SELECT MAX(seq) FROM inputs)")
    conn.commit()
    conn.close()
    session = reopen(path)
    try:
        assert [b["lost"] for _, b in session.notices()] == [1]
    finally:
        session.close()


def test_an_unreadable_record_of_owed_repairs_is_itself_reported(tmp_path: Path) -> None:
    """The facts of a repair waiting for its notice are damaged: the table cannot say what
    that repair lost, and says so rather than nothing."""
    path = damaged_journal(tmp_path)
    cut_at(path, "before-notice")
    owed = Path(f"{path}.notices")  # journal.NOTICES_SUFFIX
    owed.write_bytes(owed.read_bytes().replace(b'"lost":4', b'"lost":0'))  # CRC mismatch
    session = reopen(path)
    try:
        notices = restored(session.journal.open_notices())
        assert len(notices) == 1 and notices[0]["lost"] is None
        assert notices[0]["note"].endswith("; later inputs may be lost")
        assert "cannot be read" not in notices[0]["note"]
        assert "journal.sqlite.notices" in notices[0]["details"][0]
        assert sorted(p.name for p in tmp_path.glob("journal.sqlite.notices.damaged-*"))
    finally:
        session.close()


# ---- for a technician: skat-table notices -------------------------------------------------------


def run(*args: str) -> tuple[int, str, str]:
    from firmware_host.cli import main

    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        status = main(["notices", *args])
    return status, out.getvalue(), err.getvalue()


def test_the_command_line_lists_and_confirms_notices(tmp_path: Path) -> None:
    path = damaged_journal(tmp_path)
    session = reopen(path)
    seq = session.journal.open_notices()[0][0]
    # While the table has the journal: listed (read-only), not confirmed (one writer).
    status, out, _ = run("--journal", str(path))
    assert status == 0 and out.startswith(f"#{seq}  ")
    assert f"restored to deal 4, bidding; the last {LOST} input(s) could not be recovered" in out
    status, _, err = run("--journal", str(path), "--confirm", str(seq))
    assert status == 1 and "in use by another skat-table process" in err
    session.close()
    status, _, err = run("--journal", str(path), "--confirm", str(seq + 1))
    assert status == 1 and f"no open notice #{seq + 1}" in err
    status, out, _ = run("--journal", str(path), "--confirm", str(seq))
    assert status == 0 and out == f"notice #{seq} confirmed\n"
    assert run("--journal", str(path)) == (0, "no open notices\n", "")
    session = reopen(path)
    try:
        assert session.notices() == []
    finally:
        session.close()


def test_the_command_line_lists_a_notice_still_owed(tmp_path: Path) -> None:
    path = damaged_journal(tmp_path)
    cut_at(path, "before-notice")
    status, out, _ = run("--journal", str(path))
    assert status == 0
    assert out.startswith(f"owed (the table writes it when it next starts): journal damaged; "
                          f"the last {LOST} input(s) could not be recovered"), out

"""The journal's format version.

- A journal written by a newer program is refused with one line (which format it has, which
  this program reads, update the program) and left exactly as it is; ``run``, ``replay
  --journal`` and ``simulate --journal`` say that line and never start a fresh series on it.
- A record kind or an input this version cannot read, in a journal of this version, is damage:
  the verified chain ends there and the loss is said.
- A format 1 journal (the SQLite tables ``meta``, ``series``, ``inputs`` of the first
  controller) written by that code is converted and resumes where it was, nothing lost.
- A format 2 journal (written by the code before checkpoints: the fixture
  ``journal_format2.tar.gz``) is read as it is and written on in format 3.
"""

from __future__ import annotations

import importlib.util
import io
import random
import subprocess
import sys
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from types import ModuleType

import pytest
from seriesplay import play, reopen, where_of

from firmware_host.cli import main
from firmware_host.series import journal as journal_mod
from firmware_host.series.journal import Journal, JournalTooNew

ROOT = Path(__file__).resolve().parents[2]
CONFIG = ROOT / "tests" / "data" / "configs" / "three-series.toml"
SCRIPT = ROOT / "tests" / "data" / "scripts" / "crash-three.jsonl"
FORMAT1 = ROOT / "tests" / "data" / "old" / "journal_format1.py"
FORMAT1_COMMIT = "9a1f381"  # the last commit whose firmware_host/journal.py wrote format 1
# A journal written by the format 2 code (commit 51fbdc6): simulated_config(series_length=None,
# seed=7), the simulated table's computer seats, three deals and 40 steps more.
FORMAT2 = ROOT / "tests" / "data" / "old" / "journal_format2.tar.gz"










def files(directory: Path) -> dict[str, bytes]:
    """Every file of the journal, byte for byte. Not the lock file (it only holds a pid) and
    not what SQLite's reader makes beside a WAL database (an index, an empty log)."""
    return {p.name: p.read_bytes() for p in sorted(directory.iterdir())
            if p.is_file() and not p.name.endswith((".lock", "-shm"))
            and not (p.name.endswith("-wal") and p.stat().st_size == 0)}


# ---- a newer journal --------------------------------------------------------------------------


def newer_journal(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A journal as a program of journal format 4 could leave it (same chain, newer number)."""
    with monkeypatch.context() as m:
        m.setattr(journal_mod, "SCHEMA_VERSION", 4)
        play(Journal.open(path), 3)


def test_a_newer_journal_is_refused_and_left_as_it_is(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "journal.sqlite"
    newer_journal(path, monkeypatch)
    before = files(tmp_path)
    with pytest.raises(JournalTooNew) as got:
        Journal.open(path)
    text = str(got.value)
    assert "journal format 4" in text and "reads format 3" in text, text
    assert "update skat-table" in text and "\n" not in text
    with pytest.raises(JournalTooNew):
        Journal.open(path, read_only=True)
    assert files(tmp_path) == before  # nothing moved aside, nothing rebuilt


@pytest.mark.parametrize("only", ["database", "copy"])
def test_a_newer_journal_is_refused_from_either_file_alone(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, only: str) -> None:
    """The database's header names the format too ("SkT4"); the copy alone says it in its
    first record. Neither is taken for damage and replaced."""
    import sqlite3

    path = tmp_path / "journal.sqlite"
    newer_journal(path, monkeypatch)
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA application_id = 1399542836")  # "SkT4"
    conn.close()
    gone = (".copy",) if only == "database" else ("", "-wal", "-shm")
    for suffix in gone:
        Path(f"{path}{suffix}").unlink(missing_ok=True)
    before = files(tmp_path)
    with pytest.raises(JournalTooNew, match="journal format 4"):
        Journal.open(path)
    assert files(tmp_path) == before


def test_a_flipped_bit_in_the_header_digit_is_damage_not_a_newer_journal(tmp_path: Path) -> None:
    """"SkT3" and "SkT7" are one bit apart: a database whose records are of this format is
    damaged, not newer, and comes back from its copy."""
    import sqlite3

    path = tmp_path / "journal.sqlite"
    where = play(Journal.open(path), 3)
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA application_id = 1399542839")  # "SkT7"
    conn.close()
    session = reopen(path)
    assert where_of(session) == where
    assert any("its header names journal format 7" in p for p in session.problems)
    session.close()


def test_the_commands_say_the_line_and_start_no_fresh_series(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    data = tmp_path / "data"
    data.mkdir()
    path = data / "journal.sqlite"
    newer_journal(path, monkeypatch)
    before = files(data)
    runs = {
        "replay": ["replay", str(CONFIG), str(SCRIPT), "--json", "--journal", str(path)],
        "simulate": ["simulate", "--headless", "--games", "1", "--seed", "4", "--journal",
                     str(path)],
        "run": ["run", "--config", str(CONFIG), "--data-dir", str(data), "--no-display"],
    }
    for name, argv in runs.items():
        err = io.StringIO()
        with redirect_stdout(io.StringIO()), redirect_stderr(err):
            status = main(argv)
        # run: exit 2 like a config error, so systemd does not start it again and again
        assert status == (2 if name == "run" else 1), (name, status, err.getvalue())
        assert "journal format 4" in err.getvalue(), (name, err.getvalue())
        assert "update skat-table" in err.getvalue(), name
        assert files(data) == before, name


# ---- damage inside a journal of this version ---------------------------------------------------


def test_a_record_kind_this_version_does_not_know_ends_the_chain(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    where = play(Journal.open(path), 5)
    j = Journal.open(path)
    kept = j.records
    sid = j.open_series()[0]  # type: ignore[index]
    j._write_record("snapshot", sid, {"deal": where[0]})
    j.append(sid, {"seat": 0, "press": "pass"}, "refused", reason="not now")
    j.close()
    session = reopen(path)
    again = session.journal
    assert again is not None and again.opened_with[0] == kept
    assert again.recovery is not None and again.recovery.lost == 2
    assert any("a kind this version does not know ('snapshot')" in p
               for p in again.problems), again.problems
    assert where_of(session) == where
    assert session.recovery_note is not None
    assert session.recovery_note.endswith("; the last 2 input(s) could not be recovered")
    session.close()


def test_an_input_this_version_cannot_read_ends_the_chain(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    where = play(Journal.open(path), 4)
    j = Journal.open(path)
    kept = j.records
    sid = j.open_series()[0]  # type: ignore[index]
    j.append(sid, {"seat": 1, "press": "grand-ouvert-hand"}, "accepted")
    j.append(sid, {"seat": 0, "press": "pass"}, "refused", reason="not now")
    j.close()
    session = reopen(path)
    assert session.journal is not None and session.journal.opened_with[0] == kept
    assert where_of(session) == where
    assert session.recovery_note is not None
    assert session.recovery_note.endswith("; the last 2 input(s) could not be recovered")
    assert any("cannot read" in p for p in session.problems), session.problems
    session.close()


# ---- format 2 (the journal before checkpoints) ---------------------------------------------------


def test_a_format_2_journal_resumes_where_it_was_and_goes_on_in_format_3(tmp_path: Path) -> None:
    import sqlite3
    import tarfile

    from firmware_host.config import simulated_config
    from firmware_host.series.session import Session
    from firmware_host.series.simulated import SimulatedTable

    with tarfile.open(FORMAT2) as tar:
        tar.extractall(tmp_path, filter="data")
    path = tmp_path / "journal.sqlite"
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA application_id").fetchone()[0] == 0x536B5432  # "SkT2"
    conn.close()
    cfg = simulated_config(series_length=None, seed=7)
    journal = Journal.open(path)
    assert journal.problems == [] and journal.recovery is None and journal.records == 376
    session = Session(cfg, journal, computer_seats=cfg.computer.seats)
    session.resume()
    assert not session.problems, session.problems
    t = session.table
    assert (t.deal.number, t.phase, list(t.totals())) == (4, "play", [0, 36, -69])
    sim = SimulatedTable(session, random.Random(8))
    while len(t.finished_deals) < 9:  # on over deal starts: checkpoints of format 3
        assert sim.step()
    where = where_of(session)
    session.close()
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA application_id").fetchone()[0] == journal_mod.APPLICATION_ID
    assert conn.execute("SELECT COUNT(*) FROM records WHERE instr(payload, CAST("
                        "'\"checkpoint\"' AS BLOB)) > 0").fetchone()[0] >= 5
    conn.close()
    again = reopen(path, cfg)
    assert where_of(again) == where and not again.problems
    again.close()


# ---- format 1 (the first controller's journal) --------------------------------------------------


def format1() -> ModuleType:
    """The first controller's journal.py, as it was committed (it wrote format 1)."""
    spec = importlib.util.spec_from_file_location("journal_format1", FORMAT1)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def test_the_format_1_writer_is_the_old_code_unchanged() -> None:
    got = subprocess.run(["git", "show", f"{FORMAT1_COMMIT}:firmware_host/journal.py"],
                         cwd=ROOT, capture_output=True)
    if got.returncode != 0:
        pytest.skip("no git history here (a shallow or exported tree)")
    assert got.stdout == FORMAT1.read_bytes()


def write_format1(path: Path, deals: int) -> tuple[tuple[int, int, str], list[tuple]]:
    """A series played to deal ``deals`` and journalled by the format 1 code, row by row as
    the first controller's session wrote it; where the table stood and every row."""
    mem = Journal.open(":memory:")
    where = play(mem, deals)
    old = format1().Journal.open(str(path))
    rows = []
    for sid, fingerprint, finished in mem.all_series():
        new = old.start_series(fingerprint)
        for e in mem.entries(sid):
            old.append(new, e.input, e.status, line=e.line, source=e.source, reason=e.reason,
                       at=e.at)
            rows.append((e.line, e.source, e.input, e.status, e.reason, e.at))
        if finished:
            old.finish_series(new)
    old.close()
    return where, rows


def test_a_format_1_journal_is_converted_and_resumes_where_it_was(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    where, rows = write_format1(path, 6)
    assert where[0] == 6
    session = reopen(path)
    assert where_of(session) == where  # the same deal, the same cards
    assert session.recovery_note is None  # nothing was damaged, nothing lost
    assert any("format 1" in p and "converted" in p for p in session.problems), session.problems
    assert session.journal is not None and session.series_id is not None
    got = [(e.line, e.source, e.input, e.status, e.reason, e.at)
           for e in session.journal.entries(session.series_id)]
    assert got[:len(rows)] == rows
    session.close()
    kept = sorted(p.name for p in tmp_path.glob("journal.sqlite.format1-*"))
    assert kept and kept[0].startswith("journal.sqlite.format1-")  # the old file, untouched
    again = Journal.open(path)
    assert again.problems == [] and again.recovery is None
    again.close()


def test_a_format_1_journal_with_a_torn_last_row_says_what_was_lost(tmp_path: Path) -> None:
    import sqlite3

    path = tmp_path / "journal.sqlite"
    write_format1(path, 3)
    conn = sqlite3.connect(path)
    conn.execute("UPDATE inputs SET crc = crc + 1 WHERE seq = (SELECT MAX(seq) FROM inputs)")
    conn.commit()
    conn.close()
    session = reopen(path)
    assert session.recovery_note is not None
    assert session.recovery_note.endswith("; the last 1 input(s) could not be recovered")
    session.close()


@pytest.mark.parametrize("cut_at", ["old-file-aside", "rebuilt-database"])
def test_a_power_cut_while_a_format_1_journal_is_converted_loses_nothing(
        tmp_path: Path, cut_at: str) -> None:
    """The power goes in the middle of the conversion: before the old file is moved aside
    (the new copy already written) or while the converted database is being written (the
    old file aside). The next start finds the same deal, with every input."""
    path = tmp_path / "journal.sqlite"
    where, rows = write_format1(path, 4)
    # the old file's move aside is the _aside call with "format1"; the converted database is
    # written through _connect
    target, when = (("_aside", "'format1' in args") if cut_at == "old-file-aside"
                    else ("_connect", "True"))
    cut = (
        "import os\n"
        "from firmware_host.series.journal import Journal\n"
        f"real = Journal.{target}\n"
        "def cut(*args):\n"
        f"    if {when}:\n"
        "        os._exit(9)  # the power goes here\n"
        "    return real(*args)\n"
        f"Journal.{target} = staticmethod(cut)\n"
        f"Journal.open({str(path)!r})\n"
    )
    done = subprocess.run([sys.executable, "-c", cut], cwd=ROOT, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 9, done.stderr
    session = reopen(path)
    try:
        assert where_of(session) == where
        assert session.journal is not None and session.series_id is not None
        got = [(e.line, e.source, e.input, e.status, e.reason, e.at)
               for e in session.journal.entries(session.series_id)]
        assert got[:len(rows)] == rows
    finally:
        session.close()

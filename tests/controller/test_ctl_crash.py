"""Crash safety: ``replay --journal`` killed with SIGKILL at 100 random moments (40 in
``make test``, 100 in ``make test-full``) and restarted from its journal ends exactly like an
uninterrupted run, and no accepted input is lost; a torn last record, a malformed file, a full
disk, a read-only file and an unwritable data directory are reported and lose nothing (what
the storage cannot save is refused, never shown).

The replays run in forked children of the test process (the modules are already imported, so a
run takes a fraction of a second) and are killed with a real SIGKILL.
"""

from __future__ import annotations

import io
import json
import os
import random
import signal
import sqlite3
import sys
import time
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest
from fullrun import size

from firmware_host.cli import main
from firmware_host.config import load_config
from firmware_host.series.journal import Journal, _read_copy, _read_db
from firmware_host.series.session import Session

ROOT = Path(__file__).resolve().parents[2]
CONFIG = ROOT / "tests" / "data" / "configs" / "three-series.toml"
SCRIPT = ROOT / "tests" / "data" / "scripts" / "crash-three.jsonl"  # three deals
KILLS = size(40, 100)

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="needs os.fork")


def start_replay(journal: Path, out: Path, script: Path = SCRIPT) -> int:
    pid = os.fork()
    if pid == 0:  # the child: one replay, then exit without running pytest's cleanup
        status = 70
        try:
            with open(out, "w", encoding="utf-8") as stdout, \
                    open(os.devnull, "w", encoding="utf-8") as stderr:
                sys.stdout, sys.stderr = stdout, stderr
                status = main(["replay", str(CONFIG), str(script), "--json",
                               "--journal", str(journal)])
                stdout.flush()
        finally:
            os._exit(status)
    return pid


def finish(pid: int) -> int:
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status)


def journal_rows(path: Path) -> list[tuple[int | None, str, str]]:
    j = Journal.open(path, read_only=True)  # a look only: the restart itself must repair
    try:
        series = j.all_series()
        if not series:
            return []  # killed before the series was started
        sid = series[0][0]
        return [(e.line, e.status, json.dumps(e.input, sort_keys=True))
                for e in j.iter_entries(sid)]
    finally:
        j.close()


def reference(tmp_path: Path) -> tuple[str, list[tuple[int | None, str, str]], float]:
    from firmware_host.cli import build_parser

    build_parser()  # import every command module once, before the forks, not in each child
    journal = tmp_path / "reference.sqlite"
    started = time.monotonic()
    assert finish(start_replay(journal, tmp_path / "reference.json")) == 0
    took = time.monotonic() - started
    return (tmp_path / "reference.json").read_text(encoding="utf-8"), journal_rows(journal), took


def boot_time(tmp_path: Path) -> float:
    """How long a replay takes to start and resume before it journals anything new."""
    journal = tmp_path / "boot.sqlite"
    one = tmp_path / "one.jsonl"
    one.write_text(SCRIPT.read_text(encoding="utf-8").splitlines()[0] + "\n", encoding="utf-8")
    assert finish(start_replay(journal, tmp_path / "boot.json")) == 0  # creates the journal
    started = time.monotonic()
    assert finish(start_replay(journal, tmp_path / "boot.json")) == 0
    return time.monotonic() - started


def repair_growth(tmp_path: Path) -> int:
    """How much the copy grows when a replay restarts with its database lost, before it
    journals anything new: the loss report (a notice record) the repair owes."""
    journal = tmp_path / "repair.sqlite"
    one = tmp_path / "one.jsonl"
    one.write_text(SCRIPT.read_text(encoding="utf-8").splitlines()[0] + "\n", encoding="utf-8")
    assert finish(start_replay(journal, tmp_path / "repair.json", one)) == 0
    for suffix in ("", "-wal", "-shm"):
        Path(f"{journal}{suffix}").unlink(missing_ok=True)
    before = copy_size(journal)
    assert finish(start_replay(journal, tmp_path / "repair.json", one)) == 0
    return copy_size(journal) - before


def copy_size(journal: Path) -> int:
    """How far a run has got: the size of the journal's append-only second copy (a stat from
    outside, without opening the journal, so the look cannot disturb the run)."""
    try:
        return os.stat(f"{journal}.copy").st_size
    except FileNotFoundError:
        return 0


def kill_when(pid: int, journal: Path, target: int, rng: random.Random,
              limit: float) -> int | None:
    """SIGKILL the run once its journal's copy has reached ``target`` bytes (then at a random
    instant within about a record's time, so that some kills land inside a write), or after
    ``limit`` seconds if it stalls. A run that ended by itself first gives its exit code."""
    deadline = time.monotonic() + limit
    while copy_size(journal) < target and time.monotonic() < deadline:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return os.waitstatus_to_exitcode(status)
        time.sleep(0.001)
    time.sleep(rng.uniform(0, 0.003))
    os.kill(pid, signal.SIGKILL)  # a child that has exited is a zombie until waited for
    return None


@pytest.mark.parametrize("lose", ["nothing", "one copy"])
def test_sigkill_at_100_random_moments(tmp_path: Path, lose: str) -> None:
    """``one copy``: after each kill the database (odd kills) or the second copy (even kills)
    is deleted as well, so every restart must come back from the other copy alone.

    The kill moments are drawn from the run's progress, not from the clock: a fifth of the
    lives are cut short while the replay starts and repairs its journal, the others once it
    has journalled a random few records more, so the kills fall all along the script however
    fast or loaded the machine is."""
    expected, rows, took = reference(tmp_path)
    boot = boot_time(tmp_path)
    total = copy_size(tmp_path / "reference.sqlite")
    # A restart after a lost file first journals the repair's loss report: the records a life
    # journals are counted after it.
    owed = repair_growth(tmp_path) if lose == "one copy" else 0
    assert len(json.loads(expected)["games"]) == 3
    rng = random.Random(20261129)
    kills = chains = 0
    killed_at: set[int] = set()  # journal lengths seen right after a kill

    def spread() -> bool:  # kills all along the script, not only at the start or the end
        return bool(killed_at) and min(killed_at) < len(rows) // 4 and \
            max(killed_at) > len(rows) * 2 // 3

    def enough() -> bool:  # a loaded machine slows the runs, not the kills: a few more then
        return kills >= KILLS and (spread() or kills >= 3 * KILLS)

    while not enough():
        chains += 1
        journal = tmp_path / f"chain{chains}.sqlite"
        out = tmp_path / f"chain{chains}.json"
        while True:
            pid = start_replay(journal, out)
            ended: int | None = None
            if rng.random() < 0.2:
                time.sleep(rng.uniform(0, boot))  # during the start and the journal's repair
                os.kill(pid, signal.SIGKILL)
            else:
                target = copy_size(journal) + owed + rng.randint(1, max(1, total // 12))
                ended = kill_when(pid, journal, target, rng, limit=10 * (boot + took))
            code = finish(pid) if ended is None else ended
            if code == 0:
                break  # it got to the end before the kill
            assert code == -signal.SIGKILL
            kills += 1
            if lose == "one copy":
                # Lose one file, but never the only one holding the latest records (a kill
                # during the restart's repair leaves the repaired file behind the other).
                in_db = len(_read_db(str(journal)).records)
                in_copy = len(_read_copy(f"{journal}.copy").records)
                if kills % 2 and in_copy >= in_db:
                    gone: tuple[str, ...] = ("", "-wal", "-shm")
                elif in_db >= in_copy:
                    gone = (".copy",)
                else:
                    gone = ()
                for suffix in gone:
                    Path(f"{journal}{suffix}").unlink(missing_ok=True)
            if journal.exists() or Path(f"{journal}.copy").exists():
                got = journal_rows(journal)
                # Everything journalled is what the uninterrupted run journalled, in order.
                assert got == rows[:len(got)]
                killed_at.add(len(got))
            if enough():
                pid = start_replay(journal, out)
                assert finish(pid) == 0
                break
        assert out.read_text(encoding="utf-8") == expected
        assert journal_rows(journal) == rows
    assert KILLS <= kills <= 3 * KILLS
    print(f"boot {boot:.3f} s, run {took:.3f} s; {chains} chains; kills after "
          f"{sorted(killed_at)} of {len(rows)} journal rows")
    # The kills fell all along the script, not only at the start or the end.
    assert len(killed_at) >= KILLS // 5 and spread()


def run_replay(journal: Path, script: Path = SCRIPT) -> tuple[dict, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        status = main(["replay", str(CONFIG), str(script), "--json", "--journal", str(journal)])
    assert status == 0, err.getvalue()
    return json.loads(out.getvalue()), err.getvalue()


def uninterrupted() -> dict:
    out = io.StringIO()
    with redirect_stdout(out), redirect_stderr(io.StringIO()):
        assert main(["replay", str(CONFIG), str(SCRIPT), "--json"]) == 0
    return json.loads(out.getvalue())


def test_a_torn_last_record_is_dropped_reported_and_redone(tmp_path: Path) -> None:
    journal = tmp_path / "j.sqlite"
    expected = uninterrupted()
    half = tmp_path / "half.jsonl"
    lines = SCRIPT.read_text(encoding="utf-8").splitlines(keepends=True)
    half.write_text("".join(lines[:100]), encoding="utf-8")
    run_replay(journal, half)
    # Tear the last record in both copies: the database row no longer matches its hash, the
    # copy's last line is cut short.
    conn = sqlite3.connect(journal)
    conn.execute("UPDATE records SET payload = substr(payload, 1, 9) WHERE seq = "
                 "(SELECT MAX(seq) FROM records)")
    conn.commit()
    conn.close()
    copy = Path(f"{journal}.copy")
    copy.write_bytes(copy.read_bytes()[:-7])
    got, err = run_replay(journal)
    assert "damaged" in err and "the last 1 input(s) could not be recovered" in err
    assert "resuming after line 99" in err
    assert got == expected
    assert list(tmp_path.glob("j.sqlite.damaged-*"))  # kept aside, never overwritten


def test_a_truncated_wal_loses_only_the_torn_tail(tmp_path: Path) -> None:
    journal = tmp_path / "j.sqlite"
    expected = uninterrupted()
    j = Journal.open(journal)
    session = Session(load_config(CONFIG), j, identity={"script": "replay"})
    session.resume()
    for number, text in enumerate(SCRIPT.read_text(encoding="utf-8").splitlines()[:120], 1):
        session.submit_text(text, line=number)
    # Copy the files as a power cut would leave them (no checkpoint), then cut the WAL short.
    saved = tmp_path / "cut.sqlite"
    saved.write_bytes(journal.read_bytes())
    wal = Path(str(journal) + "-wal").read_bytes()
    assert len(wal) > 10_000
    Path(str(saved) + "-wal").write_bytes(wal[: len(wal) - 3000])
    j.close()
    got, _ = run_replay(saved)
    assert got == expected


def test_a_malformed_journal_file_is_set_aside_and_salvaged(tmp_path: Path) -> None:
    journal = tmp_path / "j.sqlite"
    expected = uninterrupted()
    run_replay(journal)
    data = bytearray(journal.read_bytes())
    data[0:16] = b"this is no db..."  # the header is gone: SQLite calls it not a database
    journal.write_bytes(bytes(data))
    got, err = run_replay(journal)
    assert "damaged" in err and list(tmp_path.glob("j.sqlite.damaged-*"))
    assert got == expected  # nothing could be saved, so the script is played again from line 1


def test_a_full_disk_refuses_what_it_cannot_save_and_plays_on(tmp_path: Path) -> None:
    """SQLite's ``max_page_count`` fills the database up: each input it cannot save is taken
    back and refused (nothing shown that is not journalled); laid again once there is space,
    the series ends as the uninterrupted one did, and the journal holds exactly that."""
    from firmware_host.table.inputs import TagGone, TagLaid, parse_line
    from firmware_host.tools.replay import result_json

    expected = uninterrupted()
    journal = Journal.open(tmp_path / "j.sqlite")
    pages = journal._conn.execute("PRAGMA page_count").fetchone()[0]
    journal._conn.execute(f"PRAGMA max_page_count = {pages + 2}")
    session = Session(load_config(CONFIG), journal)
    session.resume()
    lines = SCRIPT.read_text(encoding="utf-8").splitlines()
    refused = 0
    for number, text in enumerate(lines, 1):
        before, stack = result_json(session), list(session.table.stack)
        out = session.submit_text(text, line=number)
        if out.refusal is None or out.refusal.kind != "storage":
            continue
        refused += 1
        assert session.storage == "full" and "full" in (session.journal_fault or "")
        assert out.refusal.reason.startswith("not saved: the storage is full")
        shown = result_json(session)
        assert {**shown, "rejected": before["rejected"]} == before  # nothing changed
        assert session.table.stack == stack
        journal._conn.execute("PRAGMA max_page_count = 1000000")  # space again
        inp = parse_line(text)
        if isinstance(inp, TagLaid):  # the card is picked up and laid again
            session.submit(TagGone(inp.zone, inp.tag))
        assert session.submit_text(text, line=number).status == "accepted"
        assert session.journal_fault is None and session.storage is None
        journal._conn.execute(f"PRAGMA max_page_count = "
                              f"{journal._conn.execute('PRAGMA page_count').fetchone()[0] + 2}")
    assert refused >= 3
    journal._conn.execute("PRAGMA max_page_count = 1000000")
    got = result_json(session)
    assert [r for r in got["rejected"] if not r["reason"].startswith("not saved")] == \
        expected["rejected"]
    assert {**got, "rejected": expected["rejected"]} == expected
    journal.close()
    resumed = Session(load_config(CONFIG), Journal.open(tmp_path / "j.sqlite"))
    resumed.resume(finished_too=True)
    assert resumed.problems == []
    assert result_json(resumed) == expected


def test_a_read_only_journal_refuses_every_input_and_says_so(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite"
    journal = Journal.open(path)
    session = Session(load_config(CONFIG), journal)
    session.resume()
    journal._conn.close()
    journal._conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True, isolation_level=None)
    out = session.submit_text(SCRIPT.read_text(encoding="utf-8").splitlines()[0], line=1)
    assert out.status == "refused" and out.refusal.kind == "storage"
    assert out.refusal.zone == "read-only" and "read-only" in out.refusal.reason
    assert session.table.deal.cards_known() == 0 and not session.table.stack
    assert session.journal_fault and "read-only" in session.journal_fault
    from firmware_host.screen.viewmodel import build_view

    view = build_view(session, out.refusal)
    assert [(f.kind, f.zone) for f in view.faults] == [("journal", "read-only")]
    assert (view.refusal.kind, view.refusal.zone) == ("storage", "read-only")


def test_an_unwritable_data_directory_is_reported(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a directory", encoding="utf-8")
    err = io.StringIO()
    with redirect_stdout(io.StringIO()), redirect_stderr(err):
        status = main(["replay", str(CONFIG), str(SCRIPT), "--json",
                       "--journal", str(blocker / "sub" / "j.sqlite")])
    assert status == 1
    assert "cannot create the data directory" in err.getvalue()
    assert "Traceback" not in err.getvalue()


@pytest.mark.parametrize("files", [("",), (".copy",), ("", ".copy")])
def test_the_truncate_reproduction_never_hangs(tmp_path: Path, files: tuple[str, ...]) -> None:
    """A hang found by attacking the journal: replay, ``truncate -s -100`` the journal, replay
    again. It hung (the salvage loop walked back to row 0); now it ends at once with the
    uninterrupted result, from the other copy, or from the longest verified prefix of both."""
    import subprocess

    journal = tmp_path / "j"
    args = [sys.executable, "-m", "firmware_host", "replay", str(CONFIG), str(SCRIPT), "--json",
            "--journal", str(journal)]
    first = subprocess.run(args, capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert first.returncode == 0, first.stderr
    for suffix in files:
        path = Path(f"{journal}{suffix}")
        os.truncate(path, path.stat().st_size - 100)
    again = subprocess.run(args, capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert again.returncode == 0, again.stderr
    assert json.loads(again.stdout) == json.loads(first.stdout)
    assert "Traceback" not in again.stderr
    if files == ("", ".copy"):
        assert "could not be recovered" in again.stderr or "record(s) verified" in again.stderr

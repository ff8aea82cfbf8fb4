"""The journal itself: the hash chain and its second copy, the lock, the series identity, the
outbox for the club link (written with the input that finishes a game, read from another
process while the table runs), and readers asked again after a restart.
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest

from firmware_host.cli import main
from firmware_host.config import load_config
from firmware_host.series.journal import (
    Journal,
    JournalError,
    JournalLocked,
    OutboxItem,
    read_outbox,
)
from firmware_host.series.session import Session
from firmware_host.table.inputs import Press, TagGone, TagLaid

ROOT = Path(__file__).resolve().parents[2]
CONFIG = ROOT / "tests" / "data" / "configs" / "three-series.toml"
SCRIPT = ROOT / "tests" / "data" / "scripts" / "crash-three.jsonl"  # three deals


def replay(journal: Path, script: Path = SCRIPT) -> tuple[int, dict | None, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        status = main(["replay", str(CONFIG), str(script), "--json", "--journal", str(journal)])
    return status, json.loads(out.getvalue()) if status == 0 else None, err.getvalue()


def test_every_record_is_in_both_copies_and_the_chain_verifies(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite"
    status, result, _ = replay(path)
    assert status == 0 and len(result["games"]) == 3
    copy = Path(f"{path}.copy").read_bytes().splitlines()
    j = Journal.open(path)
    assert j.records == len(copy) > 200
    assert j.problems == [] and j.recovery is None
    j.close()


def test_a_second_process_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite"
    first = Journal.open(path)
    with pytest.raises(JournalLocked, match="in use by another skat-table process"):
        Journal.open(path)
    # The replay command says so and fails instead of writing a second, wrong story.
    status, _, err = replay(path)
    assert status == 1 and "in use by another skat-table process" in err
    # Another process (not only another open in this one) is refused the same way.
    probe = subprocess.run(
        [sys.executable, "-c", "import sys; from firmware_host.series.journal import Journal\n"
         "try:\n Journal.open(sys.argv[1])\nexcept Exception as e:\n print(e); sys.exit(3)",
         str(path)], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert probe.returncode == 3 and "in use" in probe.stdout
    first.close()
    Journal.open(path).close()  # free again once the first has closed


def test_run_says_the_service_has_the_journal_and_exits(tmp_path: Path) -> None:
    data = tmp_path / "data"
    holder = Journal.open(data / "journal.sqlite")
    err = io.StringIO()
    with redirect_stdout(io.StringIO()), redirect_stderr(err):
        status = main(["run", "--config", str(CONFIG), "--data-dir", str(data), "--no-display"])
    holder.close()
    assert status == 1
    assert "in use by another skat-table process" in err.getvalue()
    assert "systemctl stop skat-table" in err.getvalue()


def test_another_script_on_the_journal_is_refused_not_mixed(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite"
    assert replay(path)[0] == 0
    other = tmp_path / "other.jsonl"
    lines = SCRIPT.read_text(encoding="utf-8").splitlines()
    other.write_text("\n".join(lines[:5] + lines[6:]) + "\n", encoding="utf-8")
    status, _, err = replay(path, other)
    assert status == 1 and "written by another script (line 6 differs)" in err
    # Another configuration is refused too.
    cfg = tmp_path / "four.toml"
    cfg.write_text(CONFIG.read_text(encoding="utf-8").replace(
        '"Carla"]', '"Carla", "Dora"]'), encoding="utf-8")
    err2 = io.StringIO()
    with redirect_stdout(io.StringIO()), redirect_stderr(err2):
        status = main(["replay", str(cfg), str(SCRIPT), "--json", "--journal", str(path)])
    assert status == 1 and "another configuration" in err2.getvalue()
    # A grown script (the same lines and more) resumes.
    assert replay(path)[0] == 0


def test_the_outbox_holds_each_finished_game_with_its_last_input(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite"
    status, result, _ = replay(path)
    assert status == 0
    rows = read_outbox(path)  # the table has closed; the same reader works while it runs
    assert [(r.game, r.revision) for r in rows] == [(1, 1), (2, 1), (3, 1)]
    j = Journal.open(path)
    for row in rows:
        assert row.payload["result"] == result["games"][row.game - 1]
        assert row.payload["iss"].startswith("(;GM[Skat]")
        assert row.payload["journal"] == j.journal_id and row.payload["series"] == 1
        entry = next(e for s, _, _ in j.all_series() for e in j.iter_entries(s)
                     if e.seq == row.seq)
        assert entry.status == "accepted"  # the very input that finished the game
    j.close()
    assert [r.game for r in read_outbox(path, after_seq=rows[0].seq)] == [2, 3]
    assert read_outbox(tmp_path / "none.sqlite") == []


def test_an_undo_that_reopens_a_game_publishes_it_again_as_the_next_revision(
        tmp_path: Path) -> None:
    cfg = load_config(CONFIG)
    path = tmp_path / "j.sqlite"
    session = Session(cfg, Journal.open(path))
    session.resume()
    lines = SCRIPT.read_text(encoding="utf-8").splitlines()
    number = 0
    for number, text in enumerate(lines, 1):
        session.submit_text(text, line=number)
        if session.table.finished_deals:
            break
    # While the table runs, another process reads the outbox (no lock taken).
    probe = subprocess.run(
        [sys.executable, "-c", "import sys; from firmware_host.series.journal import read_outbox\n"
         "print([(r.game, r.revision) for r in read_outbox(sys.argv[1])])", str(path)],
        capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert probe.stdout.strip() == "[(1, 1)]", probe.stderr
    last = lines[number - 1]
    assert session.submit(Press(0, "undo")).accepted
    assert not session.table.finished_deals
    session.submit_text(last, line=number)  # the same card again: the game ends again
    assert [(r.game, r.revision) for r in read_outbox(path)] == [(1, 1), (1, 2)]
    session.close()
    again = Session(cfg, Journal.open(path))  # the revisions survive a restart
    again.resume()
    assert again.journal.next_revision(again.series_id, 1) == 3
    again.close()


def test_a_damaged_outbox_record_is_reported_not_delivered(tmp_path: Path) -> None:
    import sqlite3

    path = tmp_path / "j.sqlite"
    j = Journal.open(path)
    s = j.start_series({})
    j.append(s, {"seat": 0, "press": "pass"}, "accepted",
             outbox=[OutboxItem(1, 1, {"game": 1, "result": "won"})])
    j.close()
    conn = sqlite3.connect(path)
    conn.execute("UPDATE records SET payload = replace(payload, 'won', 'wan')")
    conn.commit()
    conn.close()
    with pytest.raises(JournalError, match="outbox record #3 is damaged"):
        read_outbox(path)


def test_readers_are_asked_again_after_a_restart(tmp_path: Path) -> None:
    """A card that lay on a reader before a restart and was picked up during the outage is
    taken the first time it is laid again; one that still lies there is not refused."""
    from engine.cards import Card

    cfg = load_config(CONFIG)
    tags = cfg.card_tags()
    path = tmp_path / "j.sqlite"
    session = Session(cfg, Journal.open(path))
    session.resume()
    lines = SCRIPT.read_text(encoding="utf-8").splitlines()
    for number, text in enumerate(lines[:32], 1):  # the first deal: 32 cards
        session.submit_text(text, line=number)
    table = session.table
    assert table.phase == "bidding"
    # Someone lays a card on a seat pad during the bidding: refused, and it lies there.
    card = Card.parse("CJ")
    out = session.submit(TagLaid("seat0", tags[card]))
    assert out.status == "refused"
    assert session.submit(TagLaid("seat0", tags[card])).status == "ignored"  # still lies there
    session.close()

    again = Session(cfg, Journal.open(path))  # a restart: the readers report what lies now
    again.resume()
    # Still lying: read again, not refused a second time.
    assert again.submit(TagLaid("seat0", tags[card])).status == "ignored"
    again.submit(TagGone("seat0", tags[card]))
    again.close()

    third = Session(cfg, Journal.open(path))
    third.resume()
    assert third.problems == []  # the journalled restarts replay to the same statuses
    assert tags[card] not in third.table.stale.get("seat0", set())
    third.close()


def test_a_stale_tag_laid_again_is_taken_when_the_table_can_take_it(tmp_path: Path) -> None:
    cfg = load_config(CONFIG)
    path = tmp_path / "j.sqlite"
    session = Session(cfg, Journal.open(path))
    session.resume()
    first = json.loads(SCRIPT.read_text(encoding="utf-8").splitlines()[0])
    tag = first["tag"]
    assert session.submit(TagLaid("deal", tag)).accepted
    assert session.submit(Press(0, "undo")).accepted  # the card is taken back...
    assert session.submit(TagLaid("centre", tag)).status == "refused"  # ...and lies elsewhere
    session.close()
    # During the outage it is picked up from the centre and dealt again over the deal reader.
    again = Session(cfg, Journal.open(path))
    again.resume()
    assert again.table.stale.get("centre") == {tag}
    assert again.submit(TagLaid("deal", tag)).accepted
    again.close()
    # The restart is journalled: a second resume replays to the same table.
    third = Session(cfg, Journal.open(path))
    third.resume()
    assert len(third.table.deal.dealt) == 1 and third.problems == []
    third.close()


def test_the_numbers_of_lost_records_are_never_used_again(tmp_path: Path) -> None:
    """Both copies lost their last records: the journal comes back at the verified prefix and
    the next record is numbered after the highest one there was evidence of, so the club link
    (which acknowledges outbox items by number) never takes a new game for one it sent."""
    path = tmp_path / "j.sqlite"
    j = Journal.open(path)
    s = j.start_series({})
    for n in range(10):
        j.append(s, {"seat": 0, "press": "pass"}, "accepted", line=n + 1,
                 outbox=[OutboxItem(n + 1, 1, {"game": n + 1})] if n == 8 else ())
    j.close()
    assert [r.seq for r in read_outbox(path)] == [11]
    for suffix in ("", "-wal", "-shm"):  # the database is gone...
        Path(f"{path}{suffix}").unlink(missing_ok=True)
    copy = Path(f"{path}.copy")
    lines = copy.read_bytes().splitlines(keepends=True)
    bad = lines[8][:20] + (b"0" if lines[8][20:21] != b"0" else b"1") + lines[8][21:]
    copy.write_bytes(b"".join([*lines[:8], bad, *lines[9:]]))
    again = Journal.open(path)  # ...and the copy has a damaged line 4 records from its end
    assert again.opened_with[0] == 8 and again.recovery.lost == 4
    assert again.records == 12  # 8 verified, 4 numbers kept unused
    again.append(1, {"seat": 0, "press": "pass"}, "accepted", line=9,
                 outbox=[OutboxItem(9, 2, {"game": 9})])
    assert [r.seq for r in read_outbox(path, after_seq=11)] == [13]
    again.close()
    third = Journal.open(path)
    assert third.problems == [] and third.records == 13
    third.close()


def test_a_large_healthy_journal_read_slowly_is_not_taken_for_damaged(tmp_path: Path,
                                                                       monkeypatch) -> None:
    """On a slow card a healthy journal may take longer to read than the limit that catches a
    hang: it must open as it is (not moved aside, rebuilt and reported damaged at every
    start). Here each record takes 0.2 ms more to read and the limit is 0.3 s, so the whole read
    (about a second) is far past it while no single record is."""
    import random
    import time

    from firmware_host.config import simulated_config
    from firmware_host.series import journal as journal_module
    from firmware_host.series.simulated import SimulatedTable

    path = tmp_path / "journal.sqlite"
    cfg = simulated_config(series_length=None, seed=3)
    j = Journal.open(path)
    session = Session(cfg, j, computer_seats=cfg.computer.seats)
    session.resume()
    sim = SimulatedTable(session, random.Random(3))
    with j.batch():
        while len(session.table.finished_deals) < 40:
            assert sim.step()
    records = j.records
    j.close()
    assert records > 4000

    slow = journal_module._decode

    def decode_slowly(*args, **kwargs):  # type: ignore[no-untyped-def]
        time.sleep(0.0002)
        return slow(*args, **kwargs)

    monkeypatch.setattr(journal_module, "_decode", decode_slowly)
    monkeypatch.setattr(journal_module, "READ_STALL_S", 0.3, raising=False)
    monkeypatch.setattr(journal_module, "READ_DEADLINE_S", 0.3, raising=False)  # its old name
    t0 = time.monotonic()
    again = Journal.open(path)
    took = time.monotonic() - t0
    try:
        assert took > 2 * 0.3  # the read did outlast the limit
        assert again.problems == [] and again.recovery is None, again.problems
        assert again.records == records
    finally:
        again.close()
    assert not [p.name for p in tmp_path.iterdir() if "damaged" in p.name]


@pytest.mark.parametrize("fault", ["short-write", "sync"])
def test_a_full_card_under_the_copy_leaves_no_torn_line_behind(tmp_path: Path, monkeypatch,
                                                               fault: str) -> None:
    """Only the second copy's storage fails for a while (a full card: the write stops part way,
    then ENOSPC; or the sync fails): the input is kept in memory and written again once the
    copy takes it, after the last whole line, so the copy verifies to the end on the next
    open. Before, the torn part stayed in front of the rewritten backlog and the copy was
    damaged from that line on."""
    import errno
    import os

    path = tmp_path / "journal.sqlite"
    j = Journal.open(path)
    sid = j.start_series({"players": ["A", "B", "C"]})
    for n in range(5):
        j.append(sid, {"seat": 0, "press": "pass"}, "refused", line=n + 1, reason="not now")
    real_write, real_sync = os.write, os.fdatasync
    copy_fd = j._copy_fd
    calls = {"n": 0}

    def full_write(fd: int, data: bytes) -> int:
        if fd != copy_fd:
            return real_write(fd, data)
        calls["n"] += 1
        if calls["n"] == 1:
            return real_write(fd, data[: len(data) // 2])  # part of the line fits
        raise OSError(errno.ENOSPC, "No space left on device")

    def failing_sync(fd: int) -> None:
        if fd == copy_fd:
            raise OSError(errno.EIO, "Input/output error")
        real_sync(fd)

    if fault == "short-write":
        monkeypatch.setattr(os, "write", full_write)
    else:
        monkeypatch.setattr(os, "fdatasync", failing_sync)
    j.append(sid, {"seat": 1, "press": "pass"}, "refused", line=6, reason="not now")
    assert j.copy_fault and j.copy_fault.startswith("the journal's second copy")
    monkeypatch.undo()
    j.append(sid, {"seat": 2, "press": "pass"}, "refused", line=7, reason="not now")
    assert j.copy_fault is None
    records = j.records
    j.close()
    lines = (tmp_path / "journal.sqlite.copy").read_bytes().split(b"\n")
    assert lines[-1] == b"" and len(lines) - 1 == records  # whole lines, each once

    again = Journal.open(path)
    try:
        assert again.problems == [] and again.recovery is None, again.problems
        assert [e.line for e in again.entries(sid)] == [1, 2, 3, 4, 5, 6, 7]
    finally:
        again.close()


def test_a_power_cut_during_a_repair_loses_no_verified_record(tmp_path: Path) -> None:
    """The database verifies to record 60 and is damaged after it; the copy holds the first 30.
    Opening repairs both from the database's 60. The power goes at the worst moment: the
    damaged database already moved aside, its rebuilt successor not yet committed. The next
    start must still find all 60 (the copy is completed first), not the copy's 30."""
    import sqlite3

    path = tmp_path / "journal.sqlite"
    j = Journal.open(path)
    sid = j.start_series({"players": ["A", "B", "C"]})
    for n in range(60):
        j.append(sid, {"seat": n % 3, "press": "pass"}, "refused", line=n + 1, reason="no")
    total = j.records
    j.close()
    conn = sqlite3.connect(path)
    conn.execute("UPDATE records SET payload = payload || x'20' WHERE seq = ?", (total,))
    conn.commit()
    conn.close()
    copy = tmp_path / "journal.sqlite.copy"
    copy.write_bytes(b"".join(copy.read_bytes().splitlines(keepends=True)[:30]))

    cut = (
        "import os, sys\n"
        "from firmware_host.series.journal import Journal\n"
        "def cut(*args, **kwargs):\n"
        "    os._exit(9)  # the power goes while the rebuilt database is being written\n"
        "Journal._connect = staticmethod(cut)\n"
        f"Journal.open({str(path)!r})\n"
        "sys.exit(0)\n"
    )
    done = subprocess.run([sys.executable, "-c", cut], cwd=ROOT, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 9, done.stderr

    again = Journal.open(path)
    try:
        assert again.records == total - 1, again.problems  # all that verified
        assert [e.line for e in again.entries(sid)] == list(range(1, total - 2))
    finally:
        again.close()

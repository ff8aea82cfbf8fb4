"""Storage that fails loudly: nothing is shown that is not durably journalled.

When the storage does not take an input (full, read-only, failing), the table takes it back
and refuses it in the players' words with the ``storage`` buzzer pattern, keeps showing the
last saved state, and plays on by itself once the storage works again.

Most tests simulate the failure where it happens: SQLite's errors at the journal's connection
(the journal's own ``_conn``, wrapped) and ``OSError`` (ENOSPC 28, EROFS 30, EACCES 13, EIO 5)
at the ``os`` layer the second copy, the probe and the lock file go through. The last two are
the real thing and need root: a small tmpfs filled up, and a tmpfs remounted read-only.
"""

from __future__ import annotations

import errno
import io
import json
import os
import shutil
import sqlite3
import subprocess
from collections.abc import Iterator
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from typing import Any

import pytest
from seriesplay import config as series_config
from seriesplay import play, where_of

from firmware_host.cli import main
from firmware_host.config import load_config, simulated_config
from firmware_host.series.journal import Journal, JournalLocked, StorageError, storage_kind
from firmware_host.series.session import Session
from firmware_host.service.runner import STORAGE_RETRY_S, EventLoop, open_session
from firmware_host.table.inputs import Press, TagGone, TagLaid, parse_line
from firmware_host.tools.replay import result_json

ROOT = Path(__file__).resolve().parents[2]
CONFIG = ROOT / "tests" / "data" / "configs" / "three-series.toml"
SCRIPT = ROOT / "tests" / "data" / "scripts" / "crash-three.jsonl"  # three deals
LINES = SCRIPT.read_text(encoding="utf-8").splitlines()
MID_DEAL = 60  # the script's lines played before the storage fails: deal 1, in play

# How SQLite says each failure, and the errno the file system gives for it.
SQLITE_SAYS = {"full": ("database or disk is full", errno.ENOSPC),
               "read-only": ("attempt to write a readonly database", errno.EROFS),
               "failing": ("disk I/O error", errno.EIO)}


def uninterrupted() -> dict[str, Any]:
    out = io.StringIO()
    with redirect_stdout(out), redirect_stderr(io.StringIO()):
        assert main(["replay", str(CONFIG), str(SCRIPT), "--json"]) == 0
    return json.loads(out.getvalue())


class FailingConnection:
    """The journal's SQLite connection; while ``error`` is set, every write raises it as
    SQLite raises a full, read-only or failing disk (reads go through)."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn
        self.error: sqlite3.Error | None = None

    def execute(self, sql: str, *args: Any) -> Any:
        if self.error is not None and sql.split()[0].upper() in ("INSERT", "BEGIN", "COMMIT"):
            raise self.error
        return self.conn.execute(sql, *args)

    def executemany(self, sql: str, *args: Any) -> Any:
        if self.error is not None:
            raise self.error
        return self.conn.executemany(sql, *args)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.conn, name)


class Storage:
    """Turns a journal's storage off (``fail(kind)``) and on (``mend()``): SQLite's writes and
    the ``os`` writes of the copy and the probe fail with the kind's error."""

    def __init__(self, journal: Journal, monkeypatch: pytest.MonkeyPatch) -> None:
        self.conn = FailingConnection(journal._conn)
        journal._conn = self.conn  # type: ignore[assignment]
        self.monkeypatch = monkeypatch
        self.errno: int | None = None
        real_write, real_fsync = os.write, os.fsync

        def write(fd: int, data: Any) -> int:
            if self.errno is not None:
                raise OSError(self.errno, os.strerror(self.errno))
            return real_write(fd, data)

        def fsync(fd: int) -> None:
            if self.errno is not None:
                raise OSError(self.errno, os.strerror(self.errno))
            real_fsync(fd)

        monkeypatch.setattr(os, "write", write)
        monkeypatch.setattr(os, "fsync", fsync)

    def fail(self, kind: str) -> None:
        said, self.errno = SQLITE_SAYS[kind]
        self.conn.error = sqlite3.OperationalError(said)

    def mend(self) -> None:
        self.errno, self.conn.error = None, None


def stack_of(session: Session) -> list[tuple[str, str]]:
    return [(json.dumps(inp.to_json(), sort_keys=True), source)
            for inp, source in session.table.stack]


def killed_copy(path: Path, into: Path) -> Path:
    """The journal's files as a power cut leaves them (no close, no checkpoint), elsewhere."""
    into.mkdir()
    for suffix in ("", "-wal", ".copy"):
        if Path(f"{path}{suffix}").exists():
            shutil.copyfile(f"{path}{suffix}", into / f"{path.name}{suffix}")
    return into / path.name


def lay_again(session: Session, text: str, line: int) -> Any:
    """A refused card is picked up and laid again; a press is pressed again."""
    inp = parse_line(text)
    if isinstance(inp, TagLaid):
        session.submit(TagGone(inp.zone, inp.tag))
    return session.submit_text(text, line=line)


# ---- an input the storage cannot save ---------------------------------------------------------


@pytest.mark.parametrize("kind", ["full", "read-only", "failing"])
def test_an_input_the_storage_cannot_save_is_refused_and_nothing_is_lost(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kind: str) -> None:
    """Mid-deal the storage stops taking writes: the card is taken back and refused in the
    players' words, the table shows the last saved state, refusals are not journalled, the
    chain in memory stays where the disk is; a kill then loses nothing that was shown; once
    the storage works the fault clears by itself and the series ends as an uninterrupted one,
    its journal undamaged."""
    expected = uninterrupted()
    path = tmp_path / "journal.sqlite"
    journal = Journal.open(path)
    session = Session(load_config(CONFIG), journal)
    session.resume()
    for number, text in enumerate(LINES[:MID_DEAL], 1):
        session.submit_text(text, line=number)
    assert session.table.phase == "play"  # mid-deal: tricks are being played
    storage = Storage(journal, monkeypatch)
    shown, chain = stack_of(session), (journal.records, journal._last_hash)

    storage.fail(kind)
    out = session.submit_text(LINES[MID_DEAL], line=MID_DEAL + 1)
    assert out.status == "refused" and out.refusal is not None
    assert (out.refusal.kind, out.refusal.zone) == ("storage", kind)
    assert out.refusal.reason.startswith(f"not saved: the storage is {kind}.")
    assert "Pick the card up" in out.refusal.reason
    assert stack_of(session) == shown  # taken back: the last saved state is shown
    assert session.storage == kind
    assert session.journal_fault and session.journal_fault.startswith(
        {"full": "the storage is full", "read-only": "the storage is read-only",
         "failing": "the storage is failing"}[kind])
    assert (journal.records, journal._last_hash) == chain  # nothing of it in the chain
    # A refusal by the rules is not journalled either (there is no backlog that pretends).
    assert session.submit(Press(0, "skat")).refusal.kind not in (None, "storage")
    assert (journal.records, journal._last_hash) == chain
    assert session.retry_storage() is False and session.storage == kind
    assert session.computer_move() is None

    # A kill now: the journal holds exactly what was shown.
    dead = Session(load_config(CONFIG), Journal.open(killed_copy(path, tmp_path / "kill")))
    dead.resume()
    assert dead.problems == [] and stack_of(dead) == shown
    dead.close()

    storage.mend()
    assert session.retry_storage() is True  # by itself, before anyone lays a card again
    assert session.storage is None and session.journal_fault is None
    assert lay_again(session, LINES[MID_DEAL], MID_DEAL + 1).status == "accepted"
    for number, text in enumerate(LINES[MID_DEAL + 1:], MID_DEAL + 2):
        session.submit_text(text, line=number)
    got = result_json(session)
    extra = [r for r in got["rejected"] if r not in expected["rejected"]]  # said, not saved
    assert [(r["line"], r["reason"].startswith("not saved")) for r in extra] == [
        (MID_DEAL + 1, True), (None, False)]
    assert {**got, "rejected": expected["rejected"]} == expected
    session.close()
    again = Session(load_config(CONFIG), Journal.open(path))
    again.resume(finished_too=True)
    assert again.problems == [] and again.journal.recovery is None
    assert result_json(again) == expected
    again.close()


def test_the_chain_is_never_ahead_of_the_disk(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                              ) -> None:
    """A record SQLite refuses for a full disk leaves ``_next_seq``, the last hash and the
    series' entries as they were; with space again the next record takes its number, and
    reopening verifies both files to the end with no damage reported."""
    path = tmp_path / "journal.sqlite"
    j = Journal.open(path)
    sid = j.start_series({"players": ["A", "B", "C"]})
    for n in range(5):
        j.append(sid, {"seat": 0, "press": "pass"}, "accepted", line=n + 1)
    storage = Storage(j, monkeypatch)
    before = (j._next_seq, j._last_hash, len(j.entries(sid)))
    storage.fail("full")
    with pytest.raises(StorageError) as raised:
        j.append(sid, {"seat": 1, "press": "pass"}, "accepted", line=6)
    assert raised.value.kind == "full" and str(raised.value) == "the storage is full"
    with pytest.raises(StorageError):
        j.check_storage()
    assert (j._next_seq, j._last_hash, len(j.entries(sid))) == before
    assert j.copy_fault is None  # nothing went to the copy either
    storage.mend()
    j.check_storage()
    j.append(sid, {"seat": 2, "press": "pass"}, "accepted", line=7)
    assert j.records == before[0]
    j.close()
    again = Journal.open(path)
    try:
        assert again.problems == [] and again.recovery is None
        assert [e.line for e in again.entries(sid)] == [1, 2, 3, 4, 5, 7]
        lines = (tmp_path / "journal.sqlite.copy").read_bytes().split(b"\n")
        assert lines[-1] == b"" and len(lines) - 1 == again.records
    finally:
        again.close()


def test_an_undo_the_storage_cannot_save_is_taken_back(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """An undo drops inputs; taken back, they are there again, their cards lying where they
    lay (read again without being picked up, they change nothing)."""
    journal = Journal.open(tmp_path / "journal.sqlite")
    session = Session(load_config(CONFIG), journal)
    session.resume()
    for number, text in enumerate(LINES[:MID_DEAL], 1):
        session.submit_text(text, line=number)
    last = parse_line(LINES[MID_DEAL - 1])
    assert isinstance(last, TagLaid)
    shown, present = stack_of(session), {z: set(t) for z, t in session.table.present.items()}
    storage = Storage(journal, monkeypatch)
    storage.fail("full")
    out = session.submit(Press(0, "undo"))
    assert out.refusal is not None and out.refusal.kind == "storage"
    assert "Pick the card up" not in out.refusal.reason  # a press, not a card
    assert stack_of(session) == shown
    assert {z: set(t) for z, t in session.table.present.items()} == present
    storage.mend()
    assert session.submit(TagLaid(last.zone, last.tag)).status == "ignored"  # still lies there
    assert session.submit(Press(0, "undo")).status == "accepted"
    assert stack_of(session) == shown[:-1]


def test_the_second_copy_alone_failing_takes_the_input_and_mends_by_itself(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Only the copy's ``os.write`` fails (part of a line fits, then ENOSPC): the database holds
    the input durably, so it is taken; the standing fault says the second copy cannot be
    written. Once the card has room again, the loop's retry writes the waiting lines without any
    new input, whole and once; a kill before that loses nothing."""
    path = tmp_path / "journal.sqlite"
    journal = Journal.open(path)
    session = Session(load_config(CONFIG), journal)
    session.resume()
    loop = EventLoop(session)
    now = [1000.0]
    loop.clock = lambda: now[0]
    for number, text in enumerate(LINES[:MID_DEAL], 1):
        session.submit_text(text, line=number)
    real_write = os.write
    copy_fd = journal._copy_fd
    calls = {"n": 0}

    def full_card(fd: int, data: Any) -> int:
        if fd != copy_fd:
            return real_write(fd, data)
        calls["n"] += 1
        if calls["n"] == 1:
            return real_write(fd, data[: len(data) // 2])
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "write", full_card)
    for number in (MID_DEAL + 1, MID_DEAL + 2):
        assert session.submit_text(LINES[number - 1], line=number).status == "accepted"
    assert session.storage is None and session.journal_fault_kind == "copy"
    assert "second copy" in (session.journal_fault or "")
    from firmware_host.screen.viewmodel import build_view

    assert [(f.kind, f.zone) for f in build_view(session).faults] == [("journal", "copy")]
    shown = stack_of(session)
    dead = Session(load_config(CONFIG), Journal.open(killed_copy(path, tmp_path / "kill")))
    dead.resume()
    assert stack_of(dead) == shown  # the database has it
    dead.close()
    assert loop.retry_storage(force=True) is False and session.journal_fault_kind == "copy"
    monkeypatch.undo()
    now[0] += STORAGE_RETRY_S - 0.5
    loop.serve_once(0.0)
    assert session.journal_fault_kind == "copy"  # not yet: the retry waits its interval
    now[0] += 1.0
    loop.serve_once(0.0)
    assert session.journal_fault is None and journal.copy_fault is None
    records = journal.records
    session.close()
    lines = (tmp_path / "journal.sqlite.copy").read_bytes().split(b"\n")
    assert lines[-1] == b"" and len(lines) - 1 == records  # whole lines, each once
    again = Journal.open(path)
    assert again.problems == [] and again.recovery is None
    again.close()


# ---- the computer seats -------------------------------------------------------------------------


def test_a_computer_move_the_storage_cannot_save_is_taken_back(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A computer's bid that cannot be saved is taken back, and the computer waits; a card
    it chose is not prompted (no prompt shown that is not saved); with the storage back it
    is asked again."""
    from firmware_host.series.simulated import SimulatedTable

    config = simulated_config(computer_seats=(0, 1, 2), seed=5)
    journal = Journal.open(tmp_path / "journal.sqlite")
    session = Session(config, journal, computer_seats=config.computer.seats)
    session.resume()
    sim = SimulatedTable(session, __import__("random").Random(5))
    sim.step()  # the deal
    assert session.table.phase == "bidding"
    storage = Storage(journal, monkeypatch)
    shown, records = stack_of(session), journal.records
    storage.fail("full")
    assert session.computer_move() is None  # its bid could not be saved
    assert stack_of(session) == shown and journal.records == records
    assert session.computer_move() is None  # nothing is asked while the storage fails
    storage.mend()
    assert session.retry_storage() is True
    while session.table.phase != "play" or session.table.prompts:
        assert sim.step()
    shown, records = stack_of(session), journal.records
    storage.fail("failing")
    assert session.computer_move() is None
    assert session.table.prompts == {} and stack_of(session) == shown
    assert journal.records == records
    storage.mend()
    assert session.retry_storage() is True
    move = session.computer_move()
    assert move is not None and move.card is not None
    assert session.table.prompts == {move.seat: move.card}
    assert journal.records == records + 1  # the prompt, saved before it is shown


# ---- read-only storage when the table starts --------------------------------------------------


@pytest.mark.parametrize("err", [errno.EROFS, errno.EACCES])
def test_an_unwritable_journal_at_start_shows_the_saved_deal_and_plays_on(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, err: int) -> None:
    """``Journal.open`` fails with EROFS or EACCES (the lock file cannot be opened for
    writing): the table does not start a fresh series. It reads the journal read-only and
    shows the saved deal, refuses every input with the read-only words and the storage
    buzzer, and opens the journal for writing by itself once it can."""
    path = tmp_path / "data" / "journal.sqlite"
    where = play(Journal.open(path), 24)
    real_open = os.open

    def unwritable(file: Any, flags: int, *args: Any, **kwargs: Any) -> int:
        if str(file).endswith(".lock") and flags & (os.O_RDWR | os.O_WRONLY):
            raise OSError(err, os.strerror(err), str(file))
        return real_open(file, flags, *args, **kwargs)

    monkeypatch.setattr(os, "open", unwritable)
    session = open_session(series_config(), path)
    assert where_of(session) == where  # deal 25 stays deal 25, not a fresh deal 1
    assert session.journal is not None and session.journal.read_only
    assert session.storage == "read-only" and session.problems == []
    loop = EventLoop(session)
    sounds: list[str] = []
    loop.buzz = sounds.append
    now = [50.0]
    loop.clock = lambda: now[0]
    loop.computers()
    assert where_of(session) == where  # the computer seats wait too
    # a person's input (the computer plays every seat: undo, which anyone may press)
    out = loop.handle(Press(0, "undo"))
    assert out is not None and out.refusal is not None
    assert (out.refusal.kind, out.refusal.zone) == ("storage", "read-only")
    assert sounds == ["storage"] and where_of(session) == where
    assert loop.retry_storage(force=True) is False
    monkeypatch.undo()
    stack = len(session.table.stack)
    now[0] += STORAGE_RETRY_S
    loop.serve_once(0.0)  # the loop's own retry: no one did anything
    assert session.storage is None and session.journal_fault is None
    assert not session.journal.read_only
    assert loop.last_refusal is None  # the "not saved" banner goes with the fault
    assert len(session.table.stack) > stack  # the computer seats play on
    shown = where_of(session), stack_of(session)
    session.close()
    resumed = open_session(series_config(), path)
    assert (where_of(resumed), stack_of(resumed)) == shown
    resumed.close()


def test_a_new_journal_on_a_full_disk_waits_for_space(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """The first start on a full card: the journal's first record cannot be written. The table
    plays nothing unsaved: it says the storage is full (not "read-only", though the journal is
    read read-only meanwhile), refuses the first card, and starts the series once it can."""
    path = tmp_path / "data" / "journal.sqlite"
    real = Journal._write_record

    def full(self: Journal, *args: Any, **kwargs: Any) -> Any:
        if not self.read_only:
            raise StorageError("the storage is full", "full")
        return real(self, *args, **kwargs)

    monkeypatch.setattr(Journal, "_write_record", full)
    config = simulated_config(computer_seats=())
    session = open_session(config, path)
    assert session.storage == "full" and session.journal_fault_kind == "full"
    tag = next(iter(config.deck))
    out = session.submit(TagLaid("deal", tag))
    assert out.refusal is not None and out.refusal.zone == "full"
    assert session.storage == "full" and session.table.deal.cards_known() == 0
    monkeypatch.undo()
    session.submit(TagGone("deal", tag))
    assert session.submit(TagLaid("deal", tag)).status == "accepted"
    assert session.storage is None and not session.journal.read_only
    session.close()
    again = open_session(config, path)
    assert again.table.deal.cards_known() == 1 and again.problems == []
    again.close()


def test_a_locked_journal_still_stops_the_table(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    other = Journal.open(path)
    try:
        with pytest.raises(JournalLocked):
            open_session(series_config(), path)
    finally:
        other.close()


def test_replay_stops_where_the_journal_cannot_go_on(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """A replay whose journal stops taking writes stops there (exit 1), instead of going on
    with lines the journal does not hold; run again, it goes on from there."""
    expected = uninterrupted()
    journal = tmp_path / "journal.sqlite"
    real = Journal.append
    count = {"n": 0}

    def full_after_80(self: Journal, *args: Any, **kwargs: Any) -> None:
        count["n"] += 1
        if count["n"] > 80:
            raise StorageError("the storage is full", "full")
        real(self, *args, **kwargs)

    monkeypatch.setattr(Journal, "append", full_after_80)
    err = io.StringIO()
    with redirect_stdout(io.StringIO()), redirect_stderr(err):
        status = main(["replay", str(CONFIG), str(SCRIPT), "--json", "--journal", str(journal)])
    assert status == 1
    assert "stopped before line 81" in err.getvalue()
    monkeypatch.undo()
    out = io.StringIO()
    with redirect_stdout(out), redirect_stderr(io.StringIO()):
        assert main(["replay", str(CONFIG), str(SCRIPT), "--json",
                     "--journal", str(journal)]) == 0
    assert json.loads(out.getvalue()) == expected


# ---- what the players see and hear ---------------------------------------------------------------


def test_the_kiosk_and_the_buzzer_say_it() -> None:
    from display.i18n import translator
    from display.view import LANGUAGES, Fault
    from display.wording import fault_sentence, refusal_detail
    from drivers.gpio import BUZZ_PATTERNS

    en = translator("en")
    players = ("Anna", "Ben", "Carla")
    card = Fault("storage", card=next(iter(load_config(CONFIG).deck.values())), zone="full")
    press = Fault("storage", seat=1, zone="read-only")
    assert fault_sentence(card, en, players) == "Not saved: the storage is full"
    assert refusal_detail(card, en).startswith("Pick the card up.")
    assert fault_sentence(press, en, players) == "Not saved: the storage is read-only"
    assert refusal_detail(press, en) == ("The table goes on by itself when the storage "
                                         "works again")
    standing = {zone: fault_sentence(Fault("journal", zone=zone), en, players)
                for zone in ("full", "read-only", "failing", "copy", None)}
    assert standing["failing"] == ("The storage is failing: nothing is taken until it works "
                                   "again")
    assert standing["copy"].startswith("The journal's second copy cannot be written")
    assert standing[None] == "The journal cannot be written"
    for lang in LANGUAGES:
        if lang == "en":
            continue
        t = translator(lang)
        for fault in (card, press, *(Fault("journal", zone=z) for z in standing)):
            said = fault_sentence(fault, t, players)
            assert said and said != fault_sentence(fault, en, players), (lang, fault)
        assert refusal_detail(card, t) not in ("", refusal_detail(card, en))
    assert BUZZ_PATTERNS["storage"] not in (BUZZ_PATTERNS["refused"], BUZZ_PATTERNS["fault"])


def test_storage_kind_reads_the_error_and_the_file_system(tmp_path: Path) -> None:
    assert storage_kind(sqlite3.OperationalError("database or disk is full")) == "full"
    assert storage_kind(sqlite3.OperationalError("attempt to write a readonly database")) == \
        "read-only"
    assert storage_kind(OSError(errno.EACCES, "Permission denied")) == "read-only"
    assert storage_kind(OSError(errno.EIO, "Input/output error"), str(tmp_path / "j")) == \
        "failing"
    assert storage_kind(StorageError("anything", "full")) == "full"


# ---- the real thing (root): a tmpfs filled up, a tmpfs remounted read-only ---------------------


@pytest.fixture
def tmpfs(tmp_path: Path) -> Iterator[Path]:
    """A 6 MB tmpfs of its own, unmounted after the test; root only."""
    if os.geteuid() != 0:
        pytest.skip("needs root: mounts a tmpfs (fills it up, remounts it read-only); the "
                    "same logic runs without root in the simulated tests above")
    mnt = tmp_path / "mnt"
    mnt.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=6m,mode=0755", "tmpfs", str(mnt)],
                          capture_output=True, text=True)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.strip()}")
    try:
        yield mnt
    finally:
        subprocess.run(["umount", "-l", str(mnt)], capture_output=True)


def remount(mnt: Path, mode: str) -> None:
    subprocess.run(["mount", "-o", f"remount,{mode}", str(mnt)], check=True,
                   capture_output=True)


def test_a_read_only_tmpfs_at_start_shows_the_saved_deal_and_plays_on_after_remount_rw(
        tmpfs: Path) -> None:
    path = tmpfs / "data" / "journal.sqlite"
    where = play(Journal.open(path), 24)  # closed: nothing holds the file system
    remount(tmpfs, "ro")
    session = open_session(series_config(), path)
    assert where_of(session) == where  # not a fresh series
    assert session.journal is not None and session.journal.read_only
    assert session.storage == "read-only" and session.problems == []
    from firmware_host.screen.viewmodel import build_view

    assert [(f.kind, f.zone) for f in build_view(session).faults] == [("journal", "read-only")]
    loop = EventLoop(session)
    sounds: list[str] = []
    loop.buzz = sounds.append
    loop.computers()
    out = loop.handle(Press(0, "undo"))  # a person's input: undo, which anyone may press
    assert out is not None and out.refusal is not None and out.refusal.kind == "storage"
    assert "read-only" in out.refusal.reason and sounds == ["storage"]
    assert where_of(session) == where
    assert loop.retry_storage(force=True) is False and session.storage == "read-only"
    remount(tmpfs, "rw")
    records = Journal.open(path, read_only=True).records
    assert loop.retry_storage(force=True) is True
    assert not session.journal.read_only and session.problems == []
    assert session.journal.records > records  # the computer seats played on, journalled
    shown = where_of(session), stack_of(session)
    session.close()
    resumed = open_session(series_config(), path)
    assert resumed.problems == [] and (where_of(resumed), stack_of(resumed)) == shown
    resumed.close()


def fill(path: Path) -> None:
    """Fill the file system under ``path`` to the last byte."""
    with open(path, "wb", buffering=0) as f:
        for chunk in (1 << 16, 1 << 12, 1 << 9, 1):
            while True:
                try:
                    if f.write(bytes(chunk)) != chunk:
                        break
                except OSError as exc:
                    assert exc.errno == errno.ENOSPC
                    break


def test_a_full_tmpfs_mid_deal_refuses_the_card_and_plays_on_once_space_is_freed(
        tmpfs: Path, tmp_path: Path) -> None:
    """A real full disk mid-deal: the inputs the journal can still save are taken (the copy may
    fill up first: the database holds them), the first it cannot is refused and the table shows
    the last saved state; a kill then loses nothing that was shown; space freed, the table
    takes the card again with no other step, and the journal verifies undamaged."""
    expected = uninterrupted()
    path = tmpfs / "journal.sqlite"
    journal = Journal.open(path)
    session = Session(load_config(CONFIG), journal)
    session.resume()
    for number, text in enumerate(LINES[:MID_DEAL], 1):
        session.submit_text(text, line=number)
    filler = tmpfs / "filler"
    fill(filler)
    number = MID_DEAL
    while True:
        number += 1
        assert number <= len(LINES), "the full disk never refused an input"
        shown = stack_of(session)
        out = session.submit_text(LINES[number - 1], line=number)
        if out.refusal is not None and out.refusal.kind == "storage":
            break
    assert session.storage == "full" and out.refusal.zone == "full"
    assert stack_of(session) == shown
    dead_journal = Journal.open(killed_copy(path, tmp_path / "kill"))
    assert dead_journal.opened_with == (journal.records, journal._last_hash)
    dead = Session(load_config(CONFIG), dead_journal)
    dead.resume()
    assert stack_of(dead) == shown  # nothing shown was lost
    dead.close()
    assert session.retry_storage() is False
    filler.unlink()
    assert lay_again(session, LINES[number - 1], number).status == "accepted"
    assert session.storage is None and session.journal_fault is None
    for n, text in enumerate(LINES[number:], number + 1):
        session.submit_text(text, line=n)
    got = result_json(session)
    assert {**got, "rejected": expected["rejected"]} == expected
    session.close()
    again = Session(load_config(CONFIG), Journal.open(path))
    again.resume(finished_too=True)
    assert again.problems == [] and again.journal.recovery is None
    assert result_json(again) == expected
    again.close()

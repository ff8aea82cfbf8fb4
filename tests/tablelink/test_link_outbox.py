"""The link's reader of the controller's journal (JournalOutbox): nothing new is missed, and a
quiet journal is not opened on every poll."""

from __future__ import annotations

import time

from firmware_host.clubside.link.outbox import JournalOutbox
from firmware_host.series import journal as journal_module
from firmware_host.series.journal import Journal, OutboxItem


def _table(tmp_path):
    j = Journal.open(tmp_path / "journal.sqlite")
    return j, j.start_series({"players": ["A", "B", "C"]})


def _finish(j: Journal, series: int, game: int) -> None:
    j.append(series, {"seat": 0, "press": "pass"}, "accepted",
             outbox=[OutboxItem(game, 1, {"game": game})])


def test_a_commit_seen_in_the_wal_before_readers_see_it_is_found_without_another_write(
        tmp_path, monkeypatch) -> None:
    """SQLite writes a commit's pages to the WAL file, syncs, then publishes it to readers
    (the -shm index): a poll in between sees the WAL changed and reads nothing. The files do
    not change again, yet the game must be found (at the table: the evening's last game)."""
    j, series = _table(tmp_path)
    box = JournalOutbox(tmp_path / "journal.sqlite")
    assert box.read(0, 100) == []
    _finish(j, series, 1)
    real = journal_module.read_outbox
    calls = []

    def not_yet_visible_once(path, after_seq, limit):
        calls.append(after_seq)
        return [] if len(calls) == 1 else real(path, after_seq, limit)

    monkeypatch.setattr(journal_module, "read_outbox", not_yet_visible_once)
    assert box.read(0, 100) == []  # the poll that came too early
    deadline = time.monotonic() + 3
    rows: list = []
    while not rows and time.monotonic() < deadline:
        time.sleep(0.05)
        rows = box.read(0, 100)
    assert [r.game for r in rows] == [1]
    j.close()


def test_a_quiet_journal_is_not_opened_on_every_poll(tmp_path, monkeypatch) -> None:
    j, series = _table(tmp_path)
    _finish(j, series, 1)
    box = JournalOutbox(tmp_path / "journal.sqlite", settle=0.05, recheck=60)
    rows = box.read(0, 100)
    assert [r.game for r in rows] == [1]
    seq = rows[0].seq
    time.sleep(0.1)  # the files settle
    real = journal_module.read_outbox
    calls = []
    monkeypatch.setattr(journal_module, "read_outbox",
                        lambda *a: calls.append(a) or real(*a))
    for _ in range(10):
        assert box.read(seq, 100) == []
    assert len(calls) <= 2, calls
    _finish(j, series, 2)  # a new game is read at once
    assert [r.game for r in box.read(seq, 100)] == [2]
    j.close()

"""A repaired journal's loss report on the kiosk, driven by taps and keys through the
simulator's event loop: shown (opened by itself, a short pill in the top bar) after every
restart until someone confirms it there; an accepted input does not put it away.
"""

from __future__ import annotations

import json
import random
import sqlite3
from pathlib import Path

import pygame
from tabletop import Tabletop

from display import commands as cmd
from firmware_host.config import simulated_config
from firmware_host.series.journal import Journal
from firmware_host.series.session import Session
from firmware_host.series.simulated import SimulatedTable

LOST = 4  # the copy's line this many from its end is damaged, the database unreadable


def config():  # the computer plays every seat (the series of the journal's loss tests)
    return simulated_config(series_length=36, seed=36)


def damaged_journal(tmp_path: Path) -> Path:
    """A series played a few inputs into deal 4, then both files damaged: the database's
    header, and a flipped bit in the copy ``LOST`` lines from its end (restored up to it,
    ``LOST`` records lost)."""
    path = tmp_path / "journal.sqlite"
    cfg = config()
    session = Session(cfg, Journal.open(path), computer_seats=cfg.computer.seats)
    session.resume()
    sim = SimulatedTable(session, random.Random(36))
    with session.journal.batch():
        while len(session.table.finished_deals) < 3 and sim.step():
            pass
        for _ in range(7):
            sim.step()
    session.close()
    copy = Path(f"{path}.copy")
    lines = copy.read_bytes().splitlines(keepends=True)
    bad = lines[-LOST]
    bad = bad[:30] + (b"0" if bad[30:31] != b"0" else b"1") + bad[31:]
    copy.write_bytes(b"".join([*lines[:-LOST], bad, *lines[-LOST + 1:]]))
    data = path.read_bytes()
    path.write_bytes(b"\x5a" * 100 + data[100:])
    return path


def test_a_repaired_journals_notice_is_shown_after_restarts_until_confirmed_on_the_kiosk(
        tmp_path: Path) -> None:
    path = damaged_journal(tmp_path)
    t = Tabletop(journal=path, config=config())

    try:
        note = t.session.recovery_note
        assert note is not None and note.endswith(
            f"; the last {LOST} input(s) could not be recovered"), note
        journalled = t.session.journal.open_notices()
        assert len(journalled) == 1
        seq, body = journalled[0]
        assert body["note"] == note and body["lost"] == LOST and body["deal"] == 4
        fault = next(f for f in t.view.faults if f.kind == "journal-restored")
        assert fault.notice == seq and fault.other_value == LOST and fault.value == 4
        # The kiosk opens it by itself, the whole sentence; Later puts it off.
        assert t.kiosk.ui.confirm == "notice"
        assert t.one("notice-text").text == (
            f"Journal damaged: restored to game 4; the last {LOST} inputs are lost")
        assert t.one("notice-confirm").command == cmd.ConfirmNotice(seq)
        t.tap("confirm-cancel")
        assert not t.find("notice-confirm")
        from display.scenes import ShowNotice  # the kiosk's own command: opens the notice

        assert t.one("standing-fault").command == ShowNotice()
        # An accepted input no longer puts it away.
        before = t.session.journal.records
        t.act()
        assert t.session.journal.records > before
        assert any(f.notice == seq for f in t.view.faults)
    finally:
        t.close()
    again = Journal.open(path)  # repaired: it opens clean, and the notice is still open
    assert again.problems == [] and again.recovery is None
    assert [s for s, _ in again.open_notices()] == [seq] and again.owed_notices() == []
    again.close()
    t = Tabletop(journal=path, config=config())
    try:
        assert t.session.recovery_note is None  # nothing was repaired at this start
        assert any(f.kind == "journal-restored" and f.notice == seq for f in t.view.faults)
        assert t.kiosk.ui.confirm == "notice"  # not seen by this kiosk before: opens itself
        t.tap("confirm-cancel")
        t.tap("standing-fault")  # the pill opens it again
        t.tap("notice-confirm")  # confirmed on the kiosk: journalled, and gone
        assert not any(f.kind == "journal-restored" for f in t.view.faults)
        assert not t.find("notice-confirm") and not t.find("standing-fault")
        assert t.session.journal.open_notices() == []
    finally:
        t.close()
    again = Journal.open(path)
    assert again.problems == [] and again.open_notices() == []
    again.close()
    assert confirmations(path) == [{"confirms": seq, "by": "kiosk"}]
    t = Tabletop(journal=path, config=config())
    try:
        assert not any(f.kind == "journal-restored" for f in t.view.faults)
        assert t.kiosk.ui.confirm == ""
    finally:
        t.close()


def confirmations(path: Path) -> list[dict]:
    """The bodies of the journal's ``confirm`` records, as its database holds them."""
    conn = sqlite3.connect(path)
    try:
        payloads = [json.loads(p) for (p,) in conn.execute(
            "SELECT payload FROM records ORDER BY seq")]
    finally:
        conn.close()
    return [body for _, kind, _, body, _ in payloads if kind == "confirm"]


def test_keys_open_and_confirm_the_notice(tmp_path: Path) -> None:
    """I opens the notice, N and Esc put it off, Y confirms it."""
    path = damaged_journal(tmp_path)
    t = Tabletop(journal=path, config=config())
    try:
        assert t.kiosk.ui.confirm == "notice"
        t.key(pygame.K_n)
        assert t.kiosk.ui.confirm == ""
        t.key(pygame.K_i)
        assert t.kiosk.ui.confirm == "notice"
        t.key(pygame.K_ESCAPE)
        assert t.kiosk.ui.confirm == "" and not t.kiosk.closed
        t.key(pygame.K_i)
        t.key(pygame.K_y)
        assert t.session.journal.open_notices() == []
        assert not any(f.kind == "journal-restored" for f in t.view.faults)
    finally:
        t.close()

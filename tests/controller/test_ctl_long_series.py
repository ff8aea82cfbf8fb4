"""A series of any length: the live table keeps the last deals, the journal a checkpoint at
every deal's start, and resuming starts a few deals back.

- Resuming from the checkpoint ends where the uninterrupted table is, at every deal of a series
  played with undos (runs of them cross deal starts), and where a replay of every journalled
  input into a table that keeps everything ends.
- It replays a few deals' inputs, not the series'; the inputs before that are not held in
  memory, and the games of old deals are let go while their sheet entries stay.
- Undo reaches back to the start of the deal two before the current one, and says so beyond.
- A checkpoint the table cannot read is said, and the series is replayed from its first input.
"""

from __future__ import annotations

import random
from typing import Any

from firmware_host.config import simulated_config
from firmware_host.series import journal as journal_mod
from firmware_host.series.journal import Journal
from firmware_host.series.session import Session
from firmware_host.series.simulated import SimulatedTable
from firmware_host.table.controller import CHECKPOINTS
from firmware_host.table.inputs import Press
from firmware_host.table.results import result_json
from firmware_host.tools.export import rebuild


def state(session: Session) -> Any:
    t = session.table
    game = t.game
    return (t.phase, t.deal.number, [str(c) for c in t.deal.dealt],
            game.state_key() if game is not None else None, dict(t.prompts),
            result_json(session)["games"], tuple(t.totals()), t.series.bock_pending)


def resumed(journal: Journal, cfg: Any) -> Session:
    again = Session(cfg, journal, computer_seats=cfg.computer.seats)
    again.resume()
    return again


def play_with_undos(session: Session, deals: int, seed: int,
                    at_deal_end: Any = None) -> None:
    """The computer plays; now and then someone presses undo, sometimes many times over (back
    across a deal's start)."""
    rng = random.Random(seed)
    sim = SimulatedTable(session, rng)
    seen = 0
    while len(session.table.finished_deals) < deals:
        assert sim.step()
        roll = rng.random()
        if roll < 0.02:
            session.submit(Press(rng.randrange(3), "undo"))
        elif roll < 0.024:
            for _ in range(rng.randrange(5, 60)):
                session.submit(Press(0, "undo"))
        finished = len(session.table.finished_deals)
        if at_deal_end is not None and finished > seen and session.table.phase == "scored":
            seen = finished
            at_deal_end(finished)


def test_resuming_from_a_checkpoint_ends_where_the_table_was_at_every_deal() -> None:
    cfg = simulated_config(series_length=None, seed=11)
    journal = Journal.open(":memory:")
    session = Session(cfg, journal, computer_seats=cfg.computer.seats)
    session.resume()
    checked = []

    def check(deal: int) -> None:
        again = resumed(journal, cfg)
        assert state(again) == state(session), deal
        assert not again.problems, again.problems
        checked.append((deal, again.resumed))

    play_with_undos(session, 24, seed=11, at_deal_end=check)
    assert len(checked) >= 20
    # a few deals replayed, however long the series (about 100 to 200 inputs a deal here,
    # the undone ones included), not the series
    late = [n for deal, n in checked if deal > 10]
    assert max(late) < 1500, checked
    assert checked[-1][1] < len(journal.entries(session.series_id)) / 3, checked
    # the same as every journalled input replayed into a table that keeps everything
    full, _ = rebuild(journal, session.series_id)
    assert result_json(full)["games"] == result_json(session)["games"]
    assert full.table.game.state_key() == session.table.game.state_key()


def test_the_live_table_lets_go_of_old_inputs_and_games_but_not_of_the_sheet() -> None:
    cfg = simulated_config(series_length=None, seed=12)
    journal = Journal.open(":memory:")
    session = Session(cfg, journal, computer_seats=cfg.computer.seats)
    session.resume()
    play_with_undos(session, 20, seed=12)
    t = session.table
    assert len(t.finished_deals) == 20 and len(t.series.sheet) == 20
    kept = [d.number for d in t.finished_deals if d.game is not None]
    assert kept and len(kept) <= CHECKPOINTS + 1 and kept[-1] == 20, kept
    assert len(t.stack) < 400 < t.let_go + len(t.stack)
    held = journal._series[session.series_id].records  # the journal's inputs in memory
    assert 0 < len(held) < 1200
    assert len(journal.entries(session.series_id)) > 1500  # all of them, read again


def test_undo_reaches_back_two_deals_and_says_so_beyond() -> None:
    cfg = simulated_config(series_length=None, seed=13)
    session = Session(cfg, Journal.open(":memory:"), computer_seats=cfg.computer.seats)
    session.resume()
    sim = SimulatedTable(session, random.Random(13))
    while len(session.table.finished_deals) < 8:
        assert sim.step()
    while session.table.phase != "play":
        assert sim.step()
    now = session.table.deal.number
    while (out := session.submit(Press(0, "undo"))).accepted:
        pass
    assert out.refusal is not None
    floor = now - CHECKPOINTS + 1
    assert out.refusal.reason == f"undo goes back only to the start of deal {floor}"
    assert session.table.phase == "scored" and session.table.deal.number == floor - 1
    assert session.table.deal.game is not None  # the result that start shows, with its game


def test_a_checkpoint_that_cannot_be_read_is_said_and_the_series_is_replayed(
        monkeypatch: Any) -> None:
    cfg = simulated_config(series_length=None, seed=14)
    journal = Journal.open(":memory:")
    session = Session(cfg, journal, computer_seats=cfg.computer.seats)
    session.resume()
    play_with_undos(session, 12, seed=14)
    finished, after = journal.resume_point(session.series_id)
    broken = [dict(f) for f in finished]
    assert after > 0 and len(broken) >= 12 - journal_mod.RESUME_BACK - 1
    broken[3]["entry"] = {"number": "x"}
    monkeypatch.setattr(Journal, "resume_point", lambda self, series: (iter(broken), after))
    again = resumed(journal, cfg)
    assert any("checkpoint cannot be read" in p for p in again.problems), again.problems
    assert state(again) == state(session)


def test_the_inputs_opening_reads_without_a_parse_are_ones_this_version_reads() -> None:
    """Opening checks that this version can read every input; the common ones are told by
    their exact bytes (no JSON parse). Each so told must be one the full check passes, and
    near misses must go to the full check."""
    import json

    from firmware_host.series.journal import _input_problem, _plainly_readable

    cfg = simulated_config(series_length=None, seed=15)
    journal = Journal.open(":memory:")
    session = Session(cfg, journal, computer_seats=cfg.computer.seats)
    session.resume()
    play_with_undos(session, 6, seed=15)
    payloads = [bytes(p) for (p,) in journal._conn.execute("SELECT payload FROM records")]
    inputs = [p for p in payloads if b',"input",' in p[:24]]
    plain = [p for p in inputs if _plainly_readable(p)]
    assert len(plain) > 0.9 * len(inputs)
    for p in plain:
        assert _input_problem(json.loads(p)[3]) is None, p
    tag = next(p for p in plain if b'"tag":' in p and b'"accepted"' in p)
    prompt = next(p for p in plain if b'"prompt":' in p)
    press = next(p for p in plain if b'"press":' in p)
    misses = [
        tag.replace(b'"zone":"', b'"zone":"x'),  # no such zone
        tag.replace(b'"tag":"0', b'"tag":"G'),  # not hex
        tag.replace(b'"accepted"', b'"prompt"'),  # a card laid is no prompt
        tag.replace(b'"accepted"', b'"kept"'),  # no such status
        prompt.replace(b'"prompt"}', b'"accepted"}'),  # a prompt is not an input handled
        prompt.replace(b'"prompt":"', b'"prompt":"X'),  # no such card
        press.replace(b'"press":"', b'"press":"grand-'),  # a press a newer table knows
        press.replace(b'"seat":', b'"seat":9'),  # no such seat
    ]
    for p in misses:
        assert p not in payloads
        assert not _plainly_readable(p), p
        assert _input_problem(json.loads(p)[3]) is not None, p  # and rightly so


def test_the_sheet_of_a_long_series_shows_its_last_deals_and_counts_them_all() -> None:
    from firmware_host.screen.viewmodel import SHEET_ROWS, build_view

    cfg = simulated_config(series_length=None, seed=16)
    session = Session(cfg, Journal.open(":memory:"), computer_seats=cfg.computer.seats)
    session.resume()
    sim = SimulatedTable(session, random.Random(16))
    while len(session.table.finished_deals) < SHEET_ROWS + 10:
        assert sim.step()
    sheet = build_view(session).sheet
    assert sheet.played == SHEET_ROWS + 10 and len(sheet.rows) == SHEET_ROWS
    assert [r.number for r in sheet.rows] == list(range(11, SHEET_ROWS + 11))
    assert sheet.rows[-1].totals == tuple(session.table.totals()) == sheet.totals
    running = [0] * 3
    for entry in session.table.series.sheet[:11]:
        running = [a + b for a, b in zip(running, entry.scores, strict=True)]
    assert sheet.rows[0].totals == tuple(running)


def test_the_live_table_keeps_the_last_refusals_not_all_of_them() -> None:
    from firmware_host.series.session import REJECTIONS_KEPT
    from firmware_host.table.inputs import TagGone, TagLaid

    cfg = simulated_config(series_length=None, seed=17)
    live = Session(cfg, Journal.open(":memory:"))
    replay = Session(cfg, identity={"script": "x"})
    for session in (live, replay):
        for n in range(3 * REJECTIONS_KEPT):
            tag = f"{n:014x}"
            assert session.submit(TagLaid("deal", tag)).status == "refused"
            session.submit(TagGone("deal", tag))
    assert REJECTIONS_KEPT <= len(live.rejected) <= 2 * REJECTIONS_KEPT
    assert live.rejected[-1].reason == f"tag {3 * REJECTIONS_KEPT - 1:014x} is not a card of " \
        "this table's deck"
    assert len(replay.rejected) == 3 * REJECTIONS_KEPT  # a replay's result lists them all


def test_a_batch_the_storage_refuses_at_its_commit_says_so_and_changes_nothing(
        tmp_path: Any) -> None:
    """The numbers of lost records are written in one batch when a repaired journal opens;
    on a full card its commit fails: a JournalError (the opening goes on), not SQLite's own
    error, and the chain stays as it was."""
    import pytest

    from firmware_host.series.journal import JournalError

    journal = Journal.open(tmp_path / "j.sqlite")
    before = (journal.records, journal._last_hash)
    pages = journal._conn.execute("PRAGMA page_count").fetchone()[0]
    journal._conn.execute(f"PRAGMA max_page_count = {pages}")
    with pytest.raises(JournalError, match="full"), journal.batch():
        for _ in range(2000):
            journal._write_record("lost", 0, {})
    assert (journal.records, journal._last_hash) == before
    journal._conn.execute("PRAGMA max_page_count = 100000")
    sid = journal.start_series({})
    journal.close()
    again = Journal.open(tmp_path / "j.sqlite")
    assert again.problems == [] and again.open_series()[0] == sid
    again.close()

"""The open-card analysis at the table: computed on a worker thread after each finished deal,
kept in the journal's database, and written by ``skat-table export`` beside the ISS records."""

from __future__ import annotations

import contextlib
import io
import json
import threading
from pathlib import Path

from engine.iss import parse_record
from engine.players.analysis import Analysis
from engine.players.solver import HAVE_C
from firmware_host.cli import main
from firmware_host.config import load_config
from firmware_host.screen import analysis as fa
from firmware_host.screen.analysis import AnalysisService, AnalysisStore, Outcome, game_key
from firmware_host.series.journal import Journal
from firmware_host.series.session import Session

ROOT = Path(__file__).resolve().parents[2]
CONFIG = ROOT / "tests" / "data" / "configs" / "three-series.toml"
SCRIPT = ROOT / "tests" / "data" / "scripts" / "series-three.jsonl"


def run_cli(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(list(args))
    return status, out.getvalue(), err.getvalue()


def play_script(session: Session, lines: list[str]) -> None:
    for n, line in enumerate(lines, 1):
        session.submit_text(line, line=n)


def test_every_finished_deal_is_analysed_in_the_background_and_kept(tmp_path: Path) -> None:
    journal_path = tmp_path / "journal.sqlite"
    session = Session(load_config(CONFIG), Journal.open(journal_path))
    session.resume()
    ready = threading.Event()
    service = AnalysisService(AnalysisStore(str(journal_path)), notify=ready.set)
    session.listeners.append(service)
    play_script(session, SCRIPT.read_text(encoding="utf-8").splitlines())
    assert service.wait(120)
    assert ready.is_set()
    # The live table lets the games of old deals go: the same script replayed keeps them all.
    replayed = Session(load_config(CONFIG), identity={"script": "the same"})
    play_script(replayed, SCRIPT.read_text(encoding="utf-8").splitlines())
    deals = replayed.table.finished_deals
    assert len(deals) == len(session.table.finished_deals) > 3
    assert any(d.game is None for d in session.table.finished_deals)
    for d in deals:
        out = service.get(session.series_id, d.number)
        assert out is not None and out.key == game_key(d.game)
        if d.result.passed_in:
            assert out.state == "none"
            continue
        assert out.state == "done"
        a = out.analysis
        assert a.contract == str(d.game.contract) and a.won == d.result.won
        assert a.detail == ("values" if HAVE_C else "outcome")
        kept = service.store.get(session.series_id, d.number)
        assert kept is not None and Analysis.from_json(kept[1]) == a
    service.close()
    session.close()
    # the analyses outlive the process, and the journal still opens and verifies
    j = Journal.open(journal_path)
    assert j.problems == []
    j.close()
    again = AnalysisService(AnalysisStore(str(journal_path)))
    session = Session(load_config(CONFIG), Journal.open(journal_path))
    session.resume()
    again(session, None, None)  # as after a restart: read back, nothing queued
    assert again._thread is None
    assert all(again.get(session.series_id, d.number).state in ("done", "none")
               for d in session.table.finished_deals)
    again.close()
    session.close()


def test_the_table_does_not_wait_for_the_analysis(monkeypatch: object) -> None:
    """The listener returns while the worker is still busy (held here on an event), and the
    game goes on; the result arrives afterwards."""
    release = threading.Event()
    real = fa.analyse_game

    def slow(game: object, detail: str | None = None) -> Outcome:
        release.wait(30)
        return real(game, detail)

    monkeypatch.setattr(fa, "analyse_game", slow)  # type: ignore[attr-defined]
    session = Session(load_config(CONFIG), Journal.open(":memory:"))
    session.resume()
    service = AnalysisService()
    session.listeners.append(service)
    lines = SCRIPT.read_text(encoding="utf-8").splitlines()
    play_script(session, lines)
    finished = session.table.finished_deals
    assert len(finished) >= 2  # the next deals were played while the first one waited
    assert service.get(session.series_id, finished[0].number).state == "pending"
    release.set()
    assert service.wait(120)
    assert service.get(session.series_id, finished[0].number).state in ("done", "none")
    service.close()


def test_an_undone_game_is_analysed_again() -> None:
    session = Session(load_config(CONFIG), Journal.open(":memory:"))
    session.resume()
    service = AnalysisService()
    session.listeners.append(service)
    lines = SCRIPT.read_text(encoding="utf-8").splitlines()
    n = 0
    for n, line in enumerate(lines, 1):
        session.submit_text(line, line=n)
        if session.table.finished_deals and not session.table.finished_deals[0].result.passed_in:
            break
    assert service.wait(60)
    d = session.table.finished_deals[0]
    first = service.get(session.series_id, d.number)
    assert first is not None and first.state == "done"
    session.submit_text(json.dumps({"seat": 0, "press": "undo"}), line=n + 1)
    assert not session.table.finished_deals  # the last card is back in play
    session.submit_text(lines[n - 1], line=n + 2)  # laid again: the same game
    assert service.wait(60)
    assert service.get(session.series_id, d.number).key == first.key


def test_export_writes_the_analysis_beside_the_iss_records(tmp_path: Path) -> None:
    journal = tmp_path / "j.sqlite"
    status, _, err = run_cli("replay", str(CONFIG), str(SCRIPT), "--journal", str(journal),
                             "--json")
    assert status == 0, err
    status, _, err = run_cli("export", "--journal", str(journal), "--iss",
                             str(tmp_path / "games.iss"))
    assert status == 0, err
    side = tmp_path / "games.analysis.json"
    assert f"written to {side}" in err
    data = json.loads(side.read_text(encoding="utf-8"))
    records = (tmp_path / "games.iss").read_text(encoding="utf-8").splitlines()
    assert data["open_cards"] is True and len(data["games"]) == len(records)
    for g, line in zip(data["games"], records, strict=True):
        rec = parse_record(line)
        assert rec.get("ID") == g["id"]
        if g["analysis"] is None:
            assert g["reason"]
            continue
        a = Analysis.from_json(g["analysis"])
        cards = [m for _, m in rec.moves if len(m) == 2 and m[0] in "CSHD" and m[1] in "789TJQKA"]
        assert [str(s.card) for s in a.steps] == cards  # the same game, card by card
        assert len(g["names"]) == 3 and a.declarer in (0, 1, 2)
    # --analysis names the file; --no-analysis writes none
    status, _, _ = run_cli("export", "--journal", str(journal), "--iss", str(tmp_path / "b.iss"),
                           "--no-analysis")
    assert status == 0 and not (tmp_path / "b.analysis.json").exists()
    status, out, _ = run_cli("export", "--journal", str(journal), "--iss",
                             str(tmp_path / "c.iss"), "--analysis", "-")
    assert status == 0 and json.loads(out)["games"] == data["games"]


def test_the_store_survives_bad_paths_and_reads_nothing_it_did_not_write(tmp_path: Path) -> None:
    store = AnalysisStore(str(tmp_path / "missing-dir" / "j.sqlite"))
    store.put(1, 1, "k", {"a": 1})  # not kept, no exception
    assert store.get(1, 1) is None
    ro = AnalysisStore.read_only(str(tmp_path / "nothing.sqlite"))
    assert ro.get(1, 1) is None
    assert not (tmp_path / "nothing.sqlite").exists()


def test_attach_wires_a_live_session_and_the_event_loop(tmp_path: Path) -> None:
    from firmware_host.screen.analysis import ANALYSIS_READY, attach
    from firmware_host.service.runner import EventLoop

    journal_path = tmp_path / "journal.sqlite"
    session = Session(load_config(CONFIG), Journal.open(journal_path))
    session.resume()
    loop = EventLoop(session)
    service = attach(session, loop.post)
    assert session.analyses is service and service in session.listeners
    assert service.store is not None
    lines = SCRIPT.read_text(encoding="utf-8").splitlines()
    play_script(session, lines[:80])
    assert session.table.finished_deals and service.wait(60)
    assert loop.queue.get(timeout=5) == ANALYSIS_READY
    assert loop.handle(ANALYSIS_READY) is None  # only a redraw
    session.close()  # ends the worker too
    assert service._thread is None


def test_the_result_view_carries_the_analysis() -> None:
    from display.analysis import AnalysisView
    from firmware_host.screen.viewmodel import build_view

    session = Session(load_config(CONFIG), Journal.open(":memory:"))
    session.resume()
    assert build_view(session).analysis is None  # nothing analysed, nothing said
    release = threading.Event()
    service = AnalysisService()
    real = service._work

    def held() -> None:
        release.wait(30)
        real()

    service._work = held  # type: ignore[method-assign]
    session.analyses = service
    session.listeners.append(service)
    lines = SCRIPT.read_text(encoding="utf-8").splitlines()
    for n, line in enumerate(lines, 1):
        session.submit_text(line, line=n)
        deals = session.table.finished_deals
        if session.table.phase == "scored" and not deals[-1].result.passed_in:
            break
    view = build_view(session)
    assert view.scene == "result" and view.analysis == AnalysisView("pending")
    release.set()
    assert service.wait(60)
    view = build_view(session)
    a = view.analysis
    d = session.table.finished_deals[-1]
    assert a.state == "done" and a.declarer == d.seats[d.game.declarer]
    assert {c.seat for c in a.cards} == set(d.seats)
    assert len(a.cards) == sum(len(t.cards) for t in d.game.tricks) + len(d.game.trick)
    service.close()

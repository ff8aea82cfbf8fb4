"""The "archive" bench group: what the statistics of many finished series cost the table.

A journal with N finished series of 36 deals (one series played by the rule players, its
inputs journalled again as N series, in one batch: the records are those of a played series
without its checkpoints, which the archive does not read), then:

- ``archive_series_ms``: one series summed up: read on a connection of its own, every
  record verified, played again (the median over the series);
- ``archive_cold_N_s``: the whole archive in its process, nothing kept yet (the first start
  after an update, or a repaired journal), its summaries written beside the journal;
  ``archive_cold_N_dealing_s`` the same while cards are dealt at the table without a pause;
- ``archive_warm_N_ms``: the archive again from the summaries kept (every later start);
- ``archive_kept_kb_per_series``: what a summary takes in the journal's database;
- ``archive_input_p50_ms`` / ``archive_input_p99_ms``: a card dealt at the table (journal
  fsync included) while the cold archive is being made, and ``archive_input_idle_p50_ms`` /
  ``_p99_ms`` the same right after, with nothing else at work: what making the archive
  costs the table.

N is 100 (``quick``: 4); ``SKAT_BENCH_ARCHIVE_SERIES`` chooses another.
"""

from __future__ import annotations

import os
import random
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

SERIES = 100
QUICK_SERIES = 4


def build(path: Path, n: int, seed: int = 36) -> int:
    """A journal of ``n`` finished series of 36 deals at ``path``; returns its records."""
    from firmware_host.config import simulated_config
    from firmware_host.series.journal import Journal
    from firmware_host.series.session import Session
    from firmware_host.series.simulated import SimulatedTable

    cfg = simulated_config(series_length=36, seed=seed)
    journal = Journal.open(path)
    session = Session(cfg, journal, computer_seats=cfg.computer.seats)
    session.resume()
    sim = SimulatedTable(session, random.Random(seed))
    with journal.batch():
        while sim.step():
            pass
    played = list(journal.iter_entries(session.series_id or 0))
    fingerprint = session.fingerprint()
    with journal.batch():
        for _ in range(n - 1):
            sid = journal.start_series(fingerprint, {"table": "live"})
            for e in played:
                journal.append(sid, e.input, e.status, line=e.line, source=e.source,
                               durable=False)
            journal.finish_series(sid)
    records = journal.records
    journal.close()
    return records


def _card_latencies(session: Any, until: Any, least: int) -> list[float]:
    """Deal cards and take them back, timing each card, until ``until()`` (and at least
    ``least`` cards)."""
    from engine.deal import Deal
    from firmware_host.table.inputs import Press, TagLaid

    tags = session.config.card_tags()
    took: list[float] = []
    rng = random.Random(5)
    while len(took) < least or not until():
        cards = Deal.random(rng).dealt_order()[:8]
        for card in cards:
            t0 = time.perf_counter()
            out = session.submit(TagLaid("deal", tags[card]))
            took.append(time.perf_counter() - t0)
            assert out.accepted, out
        for _ in cards:
            session.submit(Press(0, "undo"))
    return took


def _p(values: list[float], q: float) -> float:
    values = sorted(values)
    return 1000 * values[min(len(values) - 1, int(q * len(values)))]


def _made(journal: Any) -> tuple[float, Any]:
    """The archive of ``journal`` by a fresh service: seconds, and the archive."""
    from firmware_host.series.archive import ArchiveService

    service = ArchiveService(journal)
    t0 = time.perf_counter()
    service.refresh()
    assert service.wait(900)
    took = time.perf_counter() - t0
    archive = service.archive()
    service.close()
    return took, archive


def measure(path: Path, n: int) -> dict[str, float]:
    import sqlite3

    from firmware_host.config import simulated_config
    from firmware_host.series.archive import ArchiveService, summarise
    from firmware_host.series.journal import Journal, read_series_entries
    from firmware_host.series.session import Session

    journal = Journal.open(path)
    marks = [m for m in journal.series_marks() if m.finished]
    took = []
    for mark in marks[:min(len(marks), 9)]:
        t0 = time.perf_counter()
        summary = summarise(mark, read_series_entries(path, mark))
        took.append(time.perf_counter() - t0)
        assert len(summary.deals) == 36
    cold, archive = _made(journal)  # nothing kept yet
    assert archive is not None and archive.made == n and len(archive.series) == n
    warm, archive = _made(journal)  # from what was kept
    assert archive is not None and archive.made == 0
    with sqlite3.connect(path) as conn:
        kept = conn.execute("SELECT sum(length(summary)) FROM archive").fetchone()[0]
        conn.execute("DELETE FROM archive")  # cold again, with the table at work beside it

    # a table at work beside the archive: a fresh series of the same journal
    cfg = simulated_config(computer_seats=(), series_length=36, seed=7)
    session = Session(cfg, journal)
    session.resume()
    service = ArchiveService(journal)
    t0 = time.perf_counter()
    service.refresh()
    busy = _card_latencies(session, lambda: not service.pending, 50)
    assert service.wait(900)
    cold_busy = time.perf_counter() - t0
    service.close()
    idle = _card_latencies(session, lambda: True, max(200, len(busy)))  # the same, alone
    journal.close()
    return {
        "archive_series_ms": round(1000 * statistics.median(took), 1),
        f"archive_cold_{n}_s": round(cold, 3),
        f"archive_warm_{n}_ms": round(1000 * warm, 1),
        f"archive_cold_{n}_dealing_s": round(cold_busy, 3),
        "archive_kept_kb_per_series": round(kept / n / 1024, 2),
        "archive_input_p50_ms": round(_p(busy, 0.5), 3),
        "archive_input_p99_ms": round(_p(busy, 0.99), 3),
        "archive_input_idle_p50_ms": round(_p(idle, 0.5), 3),
        "archive_input_idle_p99_ms": round(_p(idle, 0.99), 3),
    }


def bench(quick: bool = False) -> dict[str, Any]:
    chosen = os.environ.get("SKAT_BENCH_ARCHIVE_SERIES", "").strip()
    n = int(chosen) if chosen else (QUICK_SERIES if quick else SERIES)
    with tempfile.TemporaryDirectory(prefix="skat-bench-archive-") as tmp:
        path = Path(tmp) / "journal.sqlite"
        records = build(path, n)
        figures: dict[str, Any] = measure(path, n)
        figures[f"archive_records_{n}"] = float(records)
    return figures

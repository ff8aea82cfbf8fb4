"""The "controller" bench group: input-to-state latency with the journal's fsync on, and the
time to resume a 36-deal series from its journal.

- ``input_latency_p50_ms`` / ``input_latency_p99_ms``: from a table-script line handed to the
  session to the new screen's view model being ready: the controller decides, the journal
  commits (WAL, ``synchronous=FULL``, so an fsync), the view is built. No drawing: the display
  group measures that. Every line of a three-player series, on a journal in a temporary
  directory; medians over runs of each run's percentile.
- ``input_latency_no_journal_p50_ms`` / ``..._p99_ms``: the same without the journal, i.e. what
  the controller and the view model cost; the difference is the storage's fsync.
- ``resume_36_games_s``: opening a journal that holds a finished 36-deal series played by the
  computer (about 2,700 inputs) and replaying it into a fresh controller, as after a power cut.
"""

from __future__ import annotations

import random
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
SERIES_SCRIPT = ROOT / "tests" / "data" / "scripts" / "series-three.jsonl"
SERIES_CONFIG = ROOT / "tests" / "data" / "configs" / "three-series.toml"


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    k = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return ordered[k]


def _script_lines() -> list[str]:
    if SERIES_SCRIPT.exists():
        return SERIES_SCRIPT.read_text(encoding="utf-8").splitlines()
    return _simulated_lines(6)


def _simulated_lines(deals: int) -> list[str]:
    import json

    from firmware_host.config import simulated_config
    from firmware_host.series.session import Session
    from firmware_host.series.simulated import SimulatedTable

    cfg = simulated_config(series_length=deals)
    lines: list[dict[str, Any]] = []
    session = Session(cfg, computer_seats=cfg.computer.seats)
    sim = SimulatedTable(session, random.Random(1), lines.append)
    while sim.step():
        pass
    return [json.dumps(x) for x in lines]


def input_latency(runs: int, journalled: bool = True) -> tuple[float, float, int]:
    """Median p50 and p99 (ms) over ``runs`` runs of the series script; inputs per run.

    ``journalled=False`` leaves the journal out: what the controller itself costs.
    """
    from firmware_host.config import load_config, simulated_config
    from firmware_host.screen.viewmodel import build_view
    from firmware_host.series.journal import Journal
    from firmware_host.series.session import Session

    lines = _script_lines()
    cfg = load_config(SERIES_CONFIG) if SERIES_SCRIPT.exists() else simulated_config(
        series_length=6)
    p50s, p99s = [], []
    for _ in range(runs):
        with tempfile.TemporaryDirectory(prefix="skat-bench-") as tmp:
            journal = Journal.open(Path(tmp) / "journal.sqlite") if journalled else None
            session = Session(cfg, journal)
            session.resume()
            times = []
            for number, text in enumerate(lines, 1):
                t0 = time.perf_counter()
                out = session.submit_text(text, line=number)
                build_view(session, out.refusal)
                times.append((time.perf_counter() - t0) * 1000)
            if journal is not None:
                journal.close()
        p50s.append(_percentile(times, 0.50))
        p99s.append(_percentile(times, 0.99))
    return statistics.median(p50s), statistics.median(p99s), len(lines)


def journal_of_series(path: Path, deals: int, seed: int = 36, open_series: bool = False) -> int:
    """Play a series with computer seats into a journal at ``path``; return its inputs.

    ``open_series``: a series of no fixed length, left open after ``deals`` games (the journal
    bench deals on and undoes in it)."""
    from firmware_host.config import simulated_config
    from firmware_host.series.journal import Journal
    from firmware_host.series.session import Session
    from firmware_host.series.simulated import SimulatedTable

    cfg = simulated_config(series_length=None if open_series else deals, seed=seed)
    journal = Journal.open(path)
    session = Session(cfg, journal, computer_seats=cfg.computer.seats)
    session.resume()
    sim = SimulatedTable(session, random.Random(seed))
    with journal.batch():  # one commit: building the bench input need not be crash-safe
        while len(session.table.finished_deals) < deals and sim.step():
            pass
    count = sum(1 for _ in journal.iter_entries(session.series_id or 0))
    journal.close()
    return count


def resume_time(path: Path, runs: int) -> float:
    from firmware_host.config import simulated_config
    from firmware_host.series.journal import Journal
    from firmware_host.series.session import Session

    cfg = simulated_config(series_length=36, seed=36)
    took = []
    for _ in range(runs):
        t0 = time.perf_counter()
        journal = Journal.open(path)
        session = Session(cfg, journal, computer_seats=cfg.computer.seats)
        session.resume(finished_too=True)
        took.append(time.perf_counter() - t0)
        assert len(session.table.finished_deals) == 36
        journal.close()
    return statistics.median(took)


def bench(quick: bool = False) -> dict[str, float]:
    runs = 1 if quick else 7
    p50, p99, inputs = input_latency(runs)
    bare50, bare99, _ = input_latency(runs, journalled=False)
    with tempfile.TemporaryDirectory(prefix="skat-bench-") as tmp:
        path = Path(tmp) / "journal.sqlite"
        journalled = journal_of_series(path, 36)
        resume = resume_time(path, 1 if quick else 5)
    return {
        "input_latency_p50_ms": round(p50, 3),
        "input_latency_p99_ms": round(p99, 3),
        "input_latency_inputs": float(inputs),
        "input_latency_no_journal_p50_ms": round(bare50, 3),
        "input_latency_no_journal_p99_ms": round(bare99, 3),
        "resume_36_games_s": round(resume, 4),
        "resume_36_games_inputs": float(journalled),
    }

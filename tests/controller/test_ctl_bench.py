"""The controller's bench group runs and reports its figures (no timed assertions here)."""

from __future__ import annotations

from firmware_host.series.latency import bench


def test_controller_bench_quick_reports_every_key() -> None:
    figures = bench(quick=True)
    for key in ("input_latency_p50_ms", "input_latency_p99_ms", "resume_36_games_s",
                "input_latency_no_journal_p99_ms"):
        assert figures[key] > 0, key
    assert figures["input_latency_p50_ms"] <= figures["input_latency_p99_ms"]
    assert figures["resume_36_games_inputs"] > 36 * 30  # a real series: dozens of inputs a deal

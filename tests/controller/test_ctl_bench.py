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


def test_journal_bench_quick_reports_every_key_for_each_length() -> None:
    """A 20-game series built, opened, resumed, dealt on and undone into its last game: every
    figure reported, each positive, the records those of a real series."""
    from firmware_host.series.journalbench import QUICK_LENGTHS
    from firmware_host.series.journalbench import bench as journal_bench

    figures = journal_bench(quick=True)
    for games in QUICK_LENGTHS:
        for key in ("open", "resume", "undo_across_deal"):
            assert figures[f"journal_{key}_{games}_s"] > 0, key
        assert figures[f"journal_card_{games}_ms"] > 0
        assert figures[f"journal_deal_start_{games}_ms"] > 0
        assert figures[f"journal_rss_{games}_mb"] > 10
        assert figures[f"journal_records_{games}"] > games * 30
        assert figures[f"journal_open_{games}_s"] <= figures[f"journal_resume_{games}_s"]


def test_archive_bench_quick_reports_every_key() -> None:
    """Four finished series summed up cold and from what is kept, a card dealt meanwhile:
    every figure reported and positive, the kept archive cheaper than the cold one."""
    from firmware_host.series.archivebench import QUICK_SERIES
    from firmware_host.series.archivebench import bench as archive_bench

    figures = archive_bench(quick=True)
    n = QUICK_SERIES
    for key in ("archive_series_ms", f"archive_cold_{n}_s", f"archive_warm_{n}_ms",
                f"archive_cold_{n}_dealing_s",
                "archive_kept_kb_per_series", "archive_input_p50_ms", "archive_input_p99_ms",
                "archive_input_idle_p50_ms", "archive_input_idle_p99_ms"):
        assert figures[key] > 0, key
    assert figures[f"archive_records_{n}"] > n * 36 * 30
    assert figures[f"archive_warm_{n}_ms"] < 1000 * figures[f"archive_cold_{n}_s"]

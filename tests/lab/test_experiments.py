"""The strength lab's record of measured runs parses, holds together, and its generated
summary (lab/experiments.md) is the one the record gives."""

from __future__ import annotations

import pytest

from lab import experiments


@pytest.fixture(scope="module")
def runs() -> list[experiments.Run]:
    return experiments.load()


def test_every_row_has_the_required_fields(runs: list[experiments.Run]) -> None:
    assert runs
    for run in runs:
        for name in experiments.REQUIRED:
            assert run.fields[name].strip(), f"line {run.line}: {name} is empty"
        assert run.kind in experiments.KINDS
        assert run.mode in experiments.MODES
        assert run.value is not None or run.kind == "pairs", f"line {run.line}: no result"


def test_every_interval_holds_its_point_estimate(runs: list[experiments.Run]) -> None:
    for run in runs:
        if run.interval is not None:
            low, high = run.interval
            assert run.value is not None and low <= run.value <= high, run.figure()


def test_games_are_six_seatings_of_each_deal(runs: list[experiments.Run]) -> None:
    for run in runs:
        if run.deals and run.games:
            assert int(run.games) == 6 * int(run.deals), f"line {run.line}"
        if run.kind == "pairs":
            assert not run.games, f"line {run.line}: pairs counts seats, not games"


def test_the_record_has_no_problems(runs: list[experiments.Run]) -> None:
    assert experiments.problems(runs) == []


def test_the_checker_finds_what_is_wrong() -> None:
    row = dict.fromkeys(experiments.FIELDS, "")
    row.update(a="pimc", b="xskat", mode="full", kind="duel", result="+5.0", low="+6.0",
               high="+9.0", deals="100", games="500")
    found = experiments.problems([experiments.Run(line=2, fields=row)])
    assert any("outside" in p for p in found)
    assert any("six seatings" in p for p in found)


def test_the_summary_is_up_to_date(runs: list[experiments.Run]) -> None:
    committed = experiments.SUMMARY.read_text(encoding="utf-8")
    assert committed == experiments.summary(runs), "run: python -m lab.experiments"

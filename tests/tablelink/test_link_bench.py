"""The club bench group runs and gives its two figures (no timing is asserted here)."""

from __future__ import annotations

import math

import pytest

from firmware_host.bench import GROUPS


@pytest.mark.full  # make bench's own code at its quick size, with a broker: about 3 s
def test_club_bench_quick_gives_both_keys() -> None:
    from firmware_host.clubside.link.bench import bench

    assert GROUPS["club"] == "firmware_host.clubside.link.bench:bench"
    figures = bench(quick=True)
    assert figures["club_publish_p99_ms"] > 0 and math.isfinite(figures["club_publish_p99_ms"])
    assert figures["club_backlog_drain_games_per_s"] > 0
    assert figures["club_bench_broker_is_mosquitto"] in (0.0, 1.0)

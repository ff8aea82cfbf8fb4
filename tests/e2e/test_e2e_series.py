"""Whole series at three and four players, recorded by the simulator as table scripts.

The sheet is checked against DESIGN.md independently of the controller: the dealer rotates,
at four the dealer sits out and scores nothing, the totals are the column sums, and
Seeger-Fabian is value +50 per won and -50 per lost game to the declarer, +40 (three) or +30
(four) to each other player per lost game.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from e2e_script import SCRIPTS, Script, config, replay, replay_process

SERIES = [
    ("three-series.toml", "series-three.jsonl", 3, 1, 6),
    ("four-sf.toml", "series-four-sf.jsonl", 4, 0, 8),
]


def seeger_fabian(games: list[dict[str, Any]], n: int) -> list[int]:
    sf = [0] * n
    for g in games:
        if g["declarer"] is None:
            continue
        sf[g["declarer"]] += g["value"] + (50 if g["won"] else -50)
        if not g["won"]:
            for seat in range(n):
                if seat != g["declarer"]:
                    sf[seat] += 40 if n == 3 else 30
    return sf


@pytest.mark.parametrize(("cfg", "script", "n", "first_dealer", "length"), SERIES)
def test_whole_series(cfg: str, script: str, n: int, first_dealer: int, length: int) -> None:
    out = replay(config(cfg), SCRIPTS / script)
    games = out["games"]
    assert out["rejected"] == [] and out["phase"] == "over"
    assert [g["number"] for g in games] == list(range(1, length + 1))
    assert [g["dealer"] for g in games] == [(first_dealer + i) % n for i in range(length)]
    played = [g for g in games if not g["passed_in"]]
    assert len(played) >= length // 2  # the simulated players do play
    for g in games:
        assert len(g["scores"]) == n
        if g["passed_in"]:
            assert g["scores"] == [0] * n and g["value"] == 0
            continue
        assert g["declarer"] != g["dealer"] or n == 3
        assert g["scores"][g["dealer"]] == 0 or g["dealer"] == g["declarer"]
        assert g["scores"][g["declarer"]] == g["value"]
        assert (g["value"] > 0) == g["won"]
        if not g["won"]:
            assert g["value"] % 2 == 0
        assert 0 <= g["points"] <= 120 and 0 <= g["tricks"] <= 10
    assert out["totals"] == [sum(g["scores"][s] for g in games) for s in range(n)]
    if n == 4:
        assert out["seeger_fabian"] == seeger_fabian(games, n)
    else:
        assert "seeger_fabian" not in out


def test_after_the_series_everything_is_refused(tmp_path: Path) -> None:
    s = Script()
    s.lines = (SCRIPTS / "series-three.jsonl").read_text(encoding="utf-8").splitlines()
    first = s.lines[0]
    s.raw(first).press(0, "bid").press(1, "undo")
    out = replay(config("three-series.toml"), s.write(tmp_path / "after.jsonl"))
    n = len(s.lines)
    assert [r["line"] for r in out["rejected"]] == [n - 2, n - 1]
    assert all("series is over" in r["reason"] for r in out["rejected"])
    # undo is still possible: the last card of the series is taken back
    assert out["phase"] == "play" and len(out["games"]) == 5


GAME_KEYS = {"number", "dealer", "declarer", "contract", "bid", "won", "value", "points",
             "tricks", "matadors", "schneider", "schwarz", "overbid", "passed_in", "scores"}


def test_replay_process_prints_only_json_on_stdout() -> None:
    proc = replay_process(config("four-sf.toml"), SCRIPTS / "series-four-sf.jsonl", "--json")
    out = json.loads(proc.stdout)
    assert set(out) == {"games", "totals", "seeger_fabian", "rejected", "phase"}
    assert out["phase"] == "over"
    for game in out["games"]:  # every key DESIGN.md names, with its type
        assert set(game) >= GAME_KEYS, GAME_KEYS - set(game)
        assert isinstance(game["value"], int) and isinstance(game["scores"], list)
        assert game["contract"] is None or isinstance(game["contract"], str)


def test_replay_without_json_prints_a_readable_log() -> None:
    proc = replay_process(config("three-series.toml"), SCRIPTS / "series-three.jsonl")
    assert "=== Deal 1: Ben deals ===" in proc.stdout
    assert "trick 10" in proc.stdout and "total" in proc.stdout
    assert "phase: over" in proc.stdout

"""Money at the end of a series: ``[table] stake`` and ``cap`` from the config reach the
series, ``replay --json`` (an extra ``settlement`` key, only with a stake), the readable sheet
(replay and the headless simulator) and the kiosk's score sheet.

``stake-three.jsonl`` (``three-stake.toml``: 0.05 per point, a game counts at most 160), sums
by hand:

- deal 1, Carla deals: Anna plays clubs hand, schwarz, with 11: hand 13, schneider 14,
  schwarz 15, x 12 = +180 (counts +160);
- deal 2, Anna deals: Ben takes the skat, declares clubs with 9 and concedes at once: game 10
  x 12 = 120, lost: -240 (counts -160);
- deal 3, Ben deals: Carla plays clubs hand with 11, Anna concedes for the defenders: hand 13
  x 12 = +156 (under the cap).

Settlement points 160, -160, 156 (total 156); each seat gets (3 x points - 156) x 0.05:
Anna 16.20, Ben -31.80, Carla 15.60. Pairwise: Ben pays Anna 320 x 0.05 = 16.00, Ben pays
Carla 316 x 0.05 = 15.80, Carla pays Anna 4 x 0.05 = 0.20.
"""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

from e2e_script import SCRIPTS, config, replay

from firmware_host.cli import main

SCRIPT = SCRIPTS / "stake-three.jsonl"
STAKE = config("three-stake.toml")
DESIGN_KEYS = {"games", "totals", "rejected", "phase"}


def test_replay_json_settles_with_the_stake_and_the_cap() -> None:
    out = replay(STAKE, SCRIPT)
    assert out["rejected"] == [] and out["phase"] == "over"
    assert [g["value"] for g in out["games"]] == [180, -240, 156]
    assert out["totals"] == [180, -240, 156]
    assert set(out) == DESIGN_KEYS | {"settlement"}
    assert out["settlement"] == {
        "stake": "0.05", "cap": 160, "points": [160, -160, 156],
        "amounts": ["16.20", "-31.80", "15.60"],
        "payments": [{"payer": 1, "payee": 0, "amount": "16.00"},
                     {"payer": 1, "payee": 2, "amount": "15.80"},
                     {"payer": 2, "payee": 0, "amount": "0.20"}]}


def test_no_stake_no_settlement_key() -> None:
    out = replay(config("three.toml"), SCRIPT)
    assert set(out) == DESIGN_KEYS and out["totals"] == [180, -240, 156]


def test_the_readable_sheet_says_who_pays_whom() -> None:
    log = io.StringIO()
    with contextlib.redirect_stdout(log):
        assert main(["replay", str(STAKE), str(SCRIPT)]) == 0
    text = log.getvalue()
    assert "settlement (0.05 per point, a game counts at most 160):" in text
    for line in ("Ben pays Anna 16.00", "Ben pays Carla 15.80", "Carla pays Anna 0.20"):
        assert line in text, line
    money = [line for line in text.splitlines() if line.strip().startswith("money")][-1]
    assert money.split()[1:] == ["+16.20", "-31.80", "+15.60"]


def test_the_headless_simulator_prints_the_settlement(tmp_path: Path) -> None:
    log = io.StringIO()
    with contextlib.redirect_stdout(log), contextlib.redirect_stderr(io.StringIO()):
        assert main(["simulate", "--headless", "--config", str(STAKE), "--games", "2",
                     "--seed", "3"]) == 0
    text = log.getvalue()
    assert "Series over after 2 deals" in text
    assert "settlement (0.05 per point, a game counts at most 160):" in text


def test_the_kiosk_sheet_shows_the_settlement_at_the_end() -> None:
    from display.render import Renderer
    from display.scenes import UiState
    from firmware_host.config import load_config
    from firmware_host.screen.viewmodel import build_view
    from firmware_host.series.session import Session

    session = Session(load_config(STAKE))
    lines = SCRIPT.read_text(encoding="utf-8").splitlines()
    for number, text in enumerate(lines[:-1], start=1):
        assert session.submit_text(text, line=number).accepted
        assert build_view(session).sheet.settlement is None  # only once the series is over
    assert session.submit_text(lines[-1], line=len(lines)).accepted
    view = build_view(session)
    # the last deal's result first; the sheet (its overlay) and the series' summary settle
    assert view.scene == "result" and view.sheet.finished
    assert view.sheet.settlement == (16.2, -31.8, 15.6)
    texts = [e.text for e in Renderer().layout(view, (800, 480), UiState(show_sheet=True))
             if e.role == "sheet-settlement"]
    assert texts == ["+16,20", "-31,80", "+15,60"]  # the table's language is German
    summary = [e.text for e in Renderer().layout(view, (800, 480), UiState(series_end=True))
               if e.role == "summary-money"]
    assert sorted(summary) == ["+15,60", "+16,20", "-31,80"]

"""The strength harness, the duel command and the players' bench group (small runs only:
the long strength runs are made with ``skat-table duel``, not in tests)."""

from __future__ import annotations

import json

import pytest

from engine.contract import Contract
from engine.deal import Deal
from engine.game import Phase
from engine.players.strength import (
    SEATINGS,
    DuelSettings,
    bootstrap_ci,
    fixed_start,
    run_duel,
    seeger_fabian,
)
from engine.scoring import GameResult
from firmware_host.cli import main


def test_every_player_sits_alone_at_every_position() -> None:
    assert len(set(SEATINGS)) == 6
    for who in "AB":
        alone = {s.index(who) for s in SEATINGS if s.count(who) == 1}
        assert alone == {0, 1, 2}


def test_seeger_fabian_points() -> None:
    won = GameResult(declarer=1, contract=Contract.parse("C"), bid=18, won=True, value=24,
                     position_values=(0, 24, 0))
    assert seeger_fabian(won) == (0, 74, 0)
    lost = GameResult(declarer=2, contract=Contract.parse("N"), bid=23, won=False,
                      value=-46, position_values=(0, 0, -46))
    assert seeger_fabian(lost) == (40, 40, -96)
    passed = GameResult(declarer=None, contract=None, bid=0, won=False, value=0,
                        passed_in=True)
    assert seeger_fabian(passed) == (0, 0, 0)


def test_bootstrap_interval_covers_the_mean_and_narrows_with_more_data() -> None:
    few = [float(x % 7 - 3) for x in range(20)]
    many = few * 25
    lo1, hi1 = bootstrap_ci(few, 500, seed=1)
    lo2, hi2 = bootstrap_ci(many, 500, seed=1)
    mean = sum(few) / len(few)
    assert lo1 <= mean <= hi1 and lo2 <= mean <= hi2
    assert hi2 - lo2 < hi1 - lo1


def test_rule_beats_random_on_a_few_deals() -> None:
    r = run_duel(DuelSettings(a="rule", b="random", deals=12, seed=5))
    assert r.games == 72
    assert r.ci_low > 0  # random bids and plays so badly that a dozen deals show it
    assert r.decision_times["rule"] and r.decision_times["random"]


def test_fixed_contract_mode_keeps_the_rule_players_declaration() -> None:
    settings = DuelSettings(a="random", b="rule", deals=3, seed=2, fixed_contract=True)
    r = run_duel(settings)
    assert len(r.per_deal) == 3
    g = fixed_start(Deal.shuffled(11), 11)
    assert g is None or (g.phase == Phase.PLAY and g.contract is not None)


def test_duel_command_prints_json(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["duel", "--a", "rule", "--b", "random", "--deals", "2", "--json", "--quiet"])
    assert code == 0
    out = json.loads(capsys.readouterr().out)
    assert out["deals"] == 2 and out["games"] == 12
    assert len(out["ci95"]) == 2
    assert "rule_decision_s" in out


@pytest.mark.parametrize("args, message", [
    (["--deals", "0"], "--deals"),
    (["--budget", "-1"], "--budget"),
    (["--worlds", "0"], "--worlds"),
    (["--jobs", "0"], "--jobs"),
])
def test_duel_command_refuses_bad_settings(args: list[str], message: str,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["duel", *args]) == 2
    assert message in capsys.readouterr().err


def test_players_bench_group_reports_its_figures() -> None:
    from engine.players.bench import bench

    figures = bench(quick=True)
    for key in ("solver_median_ms", "solver_python_median_ms", "decision_p95_s",
                "solver_c_core"):
        assert key in figures
    assert figures["solver_median_ms"] > 0
    assert figures["decision_p95_s"] >= figures["decision_p50_s"] > 0

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
    by_kind = out["rule_decision_s"]["by_kind"]
    assert by_kind["card"]["n"] > 0 and by_kind["bid"]["n"] > 0
    assert sum(k["n"] for k in by_kind.values()) == out["rule_decision_s"]["n"]


def test_duel_command_prints_the_decision_times_of_each_kind(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["duel", "--a", "rule", "--b", "random", "--deals", "1", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "rule decision time" in out
    assert "  card " in out and "  bid " in out


def test_every_kind_of_decision_is_told_apart() -> None:
    from engine.actions import Declare, Discard, Kontra, Pass, Push, TakeSkat
    from engine.contract import Contract
    from engine.game import Game, Rules
    from engine.players.base import SeatView
    from engine.players.strength import decision_kind

    g = Game(Deal.shuffled(3), Rules(kontra_re=True))
    assert decision_kind(SeatView.of(g, 1)) == "bid"
    g.push(Pass(1))
    assert decision_kind(SeatView.of(g, 2)) == "bid"
    g.push(Pass(2))
    g.push(next(a for a in g.legal_actions() if a.kind == "bid"))  # forehand bids 18
    assert decision_kind(SeatView.of(g, 0)) == "skat"
    g.push(TakeSkat(0))
    v = SeatView.of(g, 0)
    assert any(isinstance(a, Declare) for a in v.legal)
    assert decision_kind(v) == "contract"
    g.push(Declare(0, Contract.parse("G")))
    v = SeatView.of(g, 0)
    assert all(isinstance(a, Discard) for a in v.legal) and decision_kind(v) == "discard"
    for _ in range(2):
        g.push(next(x for x in g.legal_actions() if isinstance(x, Discard)))
    assert g.phase == Phase.PLAY
    # the first card, where forehand (the declarer) plays and the defenders may say Kontra
    assert decision_kind(SeatView.of(g, 0)) == "card"
    assert any(isinstance(a, Kontra) for a in SeatView.of(g, 1).legal)
    r = Game(Deal.shuffled(1), Rules(ramsch=True, schieberamsch=True))
    for pos in (1, 2, 0):
        r.push(Pass(pos))
    assert decision_kind(SeatView.of(r, 0)) == "push"
    r.push(Push(0))
    assert decision_kind(SeatView.of(r, 0)) == "push"



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


@pytest.mark.full  # make bench's own code at its quick size: about 7 s
def test_players_bench_group_reports_its_figures() -> None:
    from engine.players.bench import bench

    figures = bench(quick=True)
    for key in ("solver_median_ms", "solver_python_median_ms", "decision_p95_s",
                "solver_c_core", "solver_null_median_ms", "solver_suit_median_ms"):
        assert key in figures
    assert figures["solver_median_ms"] > 0
    assert figures["solver_null_median_ms"] > 0 and figures["solver_suit_median_ms"] > 0
    assert figures["decision_p95_s"] >= figures["decision_p50_s"] > 0
    # every kind of decision is in: the bidding, the contract, the doubling, the pushes
    for kind in ("bid", "contract", "double", "push", "card"):
        assert figures[f"decision_{kind}_max_s"] >= figures[f"decision_{kind}_p95_s"] > 0
    assert figures["decision_max_s"] == max(v for k, v in figures.items()
                                            if k.startswith("decision_") and k.endswith("_max_s")
                                            and k != "decision_max_s")
    # the first trick's worlds, without the cards racing and with (every decision solves
    # at least one world: the first may overrun the budget)
    assert figures["card_first_trick_decisions"] >= 3
    assert figures["card_first_trick_worlds_median"] >= 1
    assert figures["card_first_trick_worlds_race_median"] >= 1


def _result(declarer: int | None, contract: str | None, bid: int, won: bool, points: int | None,
            overbid: bool = False) -> GameResult:
    return GameResult(declarer=declarer, contract=Contract.parse(contract) if contract else None,
                      bid=bid, won=won, value=0, points=points, overbid=overbid,
                      passed_in=declarer is None)


def test_statistics_count_each_kind_of_game_for_the_right_type() -> None:
    from engine.players.strength import SideStats, tally

    games = [
        # (result, seating, limits)
        (_result(0, "G", 48, True, 95), ("A", "B", "B"), (72, 18, 20)),   # A grand, B schneidered
        (_result(1, "N", 23, False, 0), ("A", "B", "B"), (None, 23, None)),  # B null lost
        (_result(2, "C", 36, False, 70, overbid=True), ("B", "A", "A"), (None, 20, 24)),  # overbid
        (_result(0, "S", 22, False, 25), ("B", "A", "A"), (18, None, None)),  # B schneidered
        (_result(None, None, 0, False, None), ("A", "A", "B"), (None, None, None)),  # passed in
        (_result(1, "NO", 46, True, 0), ("A", "A", "B"), (None, None, None)),  # A null won
        (_result(2, "D", 18, True, 90), ("A", "A", "B"), (None, None, 27)),  # 2 A seats schneidered
    ]
    total = {"A": SideStats(), "B": SideStats()}
    for r, seating, limits in games:
        for who, st in tally(r, seating, limits).items():
            total[who].merge(st)
    a, b = total["A"], total["B"]
    assert (a.seats, b.seats) == (12, 9)
    assert (a.declared, b.declared) == (3, 3)
    assert (a.won, b.won) == (2, 1)
    assert (a.grand, a.grand_won, b.grand) == (1, 1, 0)
    assert (a.null, a.null_won, b.null, b.null_won) == (1, 1, 1, 0)
    assert (a.overbid_lost, b.overbid_lost) == (1, 0)
    assert (a.schneidered_declarer, b.schneidered_declarer) == (0, 1)
    # game 1: two B defenders at 25 points; game 7: two A defenders at 30
    assert (a.schneidered_defender, b.schneidered_defender) == (2, 2)
    assert (a.bid_sum, b.bid_sum) == (48 + 36 + 46, 23 + 22 + 18)
    assert (a.limits, a.limit_sum, b.limits, b.limit_sum) == (2, 72 + 24, 3, 23 + 18 + 27)
    assert a.declared_share == 3 / 12 and b.won_share == 1 / 3
    assert a.grand_share == 1 / 3 and b.null_won_share == 0.0 and a.null_won_share == 1.0
    assert a.mean_bid == (48 + 36 + 46) / 3 and b.mean_limit == (23 + 18 + 27) / 3
    assert SideStats().won_share is None and SideStats().mean_limit is None


def test_a_null_or_a_near_schneider_game_is_not_counted_as_schneider() -> None:
    from engine.players.strength import tally

    t = tally(_result(0, "N", 23, False, 0), ("A", "B", "B"))
    assert t["A"].schneidered_declarer == 0 and t["B"].schneidered_defender == 0
    t = tally(_result(0, "H", 20, False, 31), ("A", "B", "B"))
    assert t["A"].schneidered_declarer == 0
    t = tally(_result(0, "H", 20, True, 89), ("A", "B", "B"))
    assert t["B"].schneidered_defender == 0


def test_duel_statistics_add_up_over_a_run(capsys: pytest.CaptureFixture[str]) -> None:
    r = run_duel(DuelSettings(a="rule", b="random", deals=3, seed=4))
    a, b = r.stats["A"], r.stats["B"]
    assert a.seats == b.seats == 27  # nine seat-games of each type per deal
    # the rule player tells its bid limit, and never declares above it
    assert a.limits == a.declared and a.bid_sum <= a.limit_sum
    assert b.limits == 0
    code = main(["duel", "--a", "rule", "--b", "random", "--deals", "3", "--seed", "4",
                 "--json", "--quiet"])
    assert code == 0
    out = json.loads(capsys.readouterr().out)
    assert out["stats"]["A"]["player"] == "rule" and out["stats"]["B"]["player"] == "random"
    assert out["stats"]["A"]["declared"] == a.declared
    assert out["stats"]["B"]["overbid_lost"] == b.overbid_lost
    assert main(["duel", "--a", "rule", "--b", "random", "--deals", "1", "--quiet"]) == 0
    text = capsys.readouterr().out
    assert "grand (share of declared)" in text and "overbid and lost" in text


def test_duel_command_refuses_an_unknown_player(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["duel", "--a", "kermit", "--deals", "1"]) == 2
    assert "--a" in capsys.readouterr().err


def test_the_games_file_adds_up_to_the_duels_figure(
        tmp_path: object, capsys: pytest.CaptureFixture[str]) -> None:
    """``duel --games`` writes every game; paired by lone seat, the classes of
    ``lab.duelgames`` add up to the duel's own A - B per game."""
    from pathlib import Path

    from lab import duelgames

    path = Path(str(tmp_path)) / "games.jsonl"
    assert main(["duel", "--a", "rule", "--b", "random", "--deals", "3", "--seed", "5",
                 "--games", str(path), "--json", "--quiet"]) == 0
    out = json.loads(capsys.readouterr().out)
    records = [json.loads(line) for line in path.read_text().splitlines()]
    assert len(records) == 18 and {r["seating"] for r in records} == {
        "".join(s) for s in SEATINGS}
    for r in records:
        assert r["diff"] == pytest.approx(
            sum(r["sf"][i] for i in range(3) if r["seating"][i] == "A")
            / r["seating"].count("A")
            - sum(r["sf"][i] for i in range(3) if r["seating"][i] == "B")
            / r["seating"].count("B"))
    w = duelgames.where(records)
    assert w.deals == 3 and sum(int(n) for n, _ in w.classes.values()) == 9
    assert w.total() == pytest.approx(out["diff_per_game"], abs=0.006)
    assert duelgames.main([str(path)]) == 0
    assert f"A - B per game {out['diff_per_game']:+.2f}" in capsys.readouterr().out
    # a Ramsch has no declarer: its pairs are told apart from a deal all passed
    assert main(["duel", "--a", "rule", "--b", "random", "--deals", "1", "--ramsch",
                 "--games", str(path), "--quiet"]) == 0
    ramsch = duelgames.where(json.loads(line) for line in path.read_text().splitlines())
    assert list(ramsch.classes) == [("ramsch", "ramsch")]
    capsys.readouterr()
    # a file that is not one, and a file that cannot be written, say so and stop
    bad = Path(str(tmp_path)) / "bad.jsonl"
    bad.write_text('{"seating": "ABB"}\nnot json\n')
    assert duelgames.main([str(bad)]) == 2
    assert "not a duel's games file" in capsys.readouterr().err
    bad.write_text('{"seating": "ABB"}\n')
    assert duelgames.main([str(bad)]) == 2
    assert "not a duel's games file" in capsys.readouterr().err
    assert main(["duel", "--a", "rule", "--b", "random", "--deals", "1", "--quiet",
                 "--games", str(tmp_path)]) == 2
    assert "cannot write the games" in capsys.readouterr().err


def test_duelopen_finds_whose_cards_turned_the_games(
        tmp_path: object, capsys: pytest.CaptureFixture[str]) -> None:
    """``duel --games`` keeps each game's actions; ``lab.duelopen`` solves them
    with open cards. With the rule players' contracts, random card play throws away made
    games and the rule player's hardly any; the first lead's verdict is the solver's."""
    from pathlib import Path

    from engine.cards import mask_points
    from engine.game import Game
    from engine.players.analysis import first_lead, goal_of
    from engine.players.solver import Solver
    from engine.trick import matadors
    from lab import duelopen

    path = Path(str(tmp_path)) / "games.jsonl"
    assert main(["duel", "--a", "rule", "--b", "random", "--deals", "3", "--seed", "5",
                 "--fixed-contract", "--games", str(path), "--quiet"]) == 0
    capsys.readouterr()
    records = [json.loads(line) for line in path.read_text().splitlines()]
    checked = [duelopen.check(r) for r in records]
    assert all(c is not None for c in checked) and len(checked) == 18
    t = duelopen.tally(c for c in checked if c is not None)
    assert sum(sum(s.declared.values()) for s in t.values()) == 18
    assert t["A"].defended == t["B"].defended == 18
    assert t["B"].games_thrown > t["A"].games_thrown
    assert t["B"].declarer_turns > 3 * max(1, t["A"].declarer_turns)
    for side in t.values():
        assert sum(side.declarer_by_trick) == side.declarer_turns
        assert sum(side.defence_by_trick) == side.defence_turns
    # the verdict at the first lead, asked of a fresh solver on the replayed game
    for r, c in zip(records, checked, strict=True):
        g0 = first_lead(Game.from_json(r["game"]))
        assert g0.contract is not None and g0.declarer is not None
        goal = goal_of(g0.contract, g0.bid, matadors(g0.declarer_cards(), g0.contract.game))
        if goal not in ("61", "90"):
            continue
        s = Solver(int(g0.contract.game), g0.declarer)
        need = int(goal) - mask_points(g0.skat)
        assert c is not None and c.made == s.reaches(list(g0.hands), 0, [], need), r
    assert duelopen.main([str(path), "--a", "rule", "--b", "random"]) == 0
    out = capsys.readouterr().out
    assert "18 declared games solved" in out and "rule" in out.splitlines()[1]
    # spread over processes: the same report
    assert duelopen.main([str(path), "--a", "rule", "--b", "random", "--jobs", "2"]) == 0
    assert capsys.readouterr().out == out
    assert duelopen.main([str(path), "--jobs", "0"]) == 2
    assert "--jobs must be 1 or more" in capsys.readouterr().err
    # a file from before the games kept their cards, and a game that does not replay
    old = Path(str(tmp_path)) / "old.jsonl"
    old.write_text(json.dumps({k: v for k, v in records[0].items() if k != "game"}) + "\n")
    assert duelopen.main([str(old)]) == 2
    assert "line 1: a game without its cards" in capsys.readouterr().err
    broken = dict(records[0])
    broken["game"] = dict(records[0]["game"], actions=records[0]["game"]["actions"][::-1])
    old.write_text(json.dumps(broken) + "\n")
    assert duelopen.main([str(old)]) == 2
    assert "is illegal" in capsys.readouterr().err


@pytest.mark.full  # two duels with worker processes, about 7 s (make test starts workers too)
def test_duel_workers_spread_the_worlds_and_keep_the_games(
        tmp_path: object, capsys: pytest.CaptureFixture[str]) -> None:
    """``duel --workers 2`` seats PIMC with two processes, as a table with cores does;
    at fixed worlds the games are the same as with one (world i is the same deal)."""
    from pathlib import Path

    files = []
    for workers in (1, 2):
        path = Path(str(tmp_path)) / f"w{workers}.jsonl"
        assert main(["duel", "--a", "pimc", "--b", "rule", "--deals", "1", "--seed", "3",
                     "--worlds", "6", "--workers", str(workers), "--games", str(path),
                     "--quiet"]) == 0
        files.append([json.loads(line) for line in path.read_text().splitlines()])
    capsys.readouterr()
    assert len(files[0]) == 6 and files[0] == files[1]
    assert main(["duel", "--deals", "1", "--workers", "0"]) == 2
    assert "--workers must be at least 1" in capsys.readouterr().err
    assert main(["duel", "--deals", "1", "--workers", "2", "--jobs", "2"]) == 2
    assert "use it with --jobs 1" in capsys.readouterr().err


@pytest.mark.full  # nine PIMC seats with two worker processes each: about 5 s
def test_duel_starts_each_pimc_seats_workers_before_its_first_timed_decision(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A duel seats new players every game; their worker processes must start when the seat
    is set up (as the table's ``warm_up``), not in the first timed decision, which they
    carried past the budget (p95 0.28 s at 0.2 s before this)."""
    from engine.players import strength
    from engine.players.pimc import PimcPlayer
    from engine.players.strength import DuelSettings, play_deal

    make = strength.make_player
    started_by: list[tuple[object, bool]] = []  # each PIMC seat: pool running at first choice

    def seat(name: str, **kw: object) -> object:
        p = make(name, **kw)  # type: ignore[arg-type]
        if isinstance(p, PimcPlayer):
            choose = p.choose

            def first_choose(view: object) -> object:
                if not any(s is p for s, _ in started_by):
                    started_by.append((p, p._pool is not None))
                return choose(view)  # type: ignore[arg-type]

            p.choose = first_choose  # type: ignore[method-assign]
        return p

    monkeypatch.setattr(strength, "make_player", seat)
    play_deal(DuelSettings(a="pimc", b="rule", worlds=4, workers=2, deals=1), 0, 3)
    started = [ok for _, ok in started_by]
    assert len(started) == 9  # A sits once in three seatings and twice in three
    assert all(started)


def test_two_runs_on_the_same_deals_compare_deal_by_deal(
        tmp_path: object, capsys: pytest.CaptureFixture[str]) -> None:
    """``duelgames A --paired B``: each run's own figure on the common deals agrees with
    the duel's, and the paired mean is their difference (a run against itself: zero)."""
    from pathlib import Path

    from lab import duelgames

    figures, paths = [], []
    for a, deals in (("rule", 3), ("random", 2)):
        path = Path(str(tmp_path)) / f"{a}.jsonl"
        assert main(["duel", "--a", a, "--b", "rule-2025", "--deals", str(deals), "--seed",
                     "5", "--games", str(path), "--json", "--quiet"]) == 0
        figures.append(json.loads(capsys.readouterr().out)["diff_per_game"])
        paths.append(str(path))
    rule = duelgames.read_games(paths[0])
    two = [r for r in rule if r["deal_seed"] in {g["deal_seed"] for g in
                                                duelgames.read_games(paths[1])}]
    r = duelgames.paired(duelgames.read_games(paths[0]), duelgames.read_games(paths[1]))
    assert r.deals == 2  # the common deals
    assert r.this == pytest.approx(sum(duelgames.deal_scores(two).values()) / 2)
    assert r.other == pytest.approx(figures[1], abs=0.006)
    assert r.mean == pytest.approx(r.this - r.other)
    assert r.low <= r.mean <= r.high
    same = duelgames.paired(rule, rule)
    assert (same.deals, same.differ, same.mean) == (3, 0, 0.0)
    assert duelgames.main([paths[0], "--paired", paths[1]]) == 0
    assert f"paired {r.mean:+.2f}" in capsys.readouterr().out
    other = Path(str(tmp_path)) / "other.jsonl"
    assert main(["duel", "--a", "rule", "--b", "random", "--deals", "1", "--seed", "99",
                 "--games", str(other), "--quiet"]) == 0
    capsys.readouterr()
    assert duelgames.main([paths[0], "--paired", str(other)]) == 2
    assert "no deal in common" in capsys.readouterr().err

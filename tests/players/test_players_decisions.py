"""Card-play decision quality (engine.players.decisions, ``skat-table decisions``)."""

from __future__ import annotations

import json

from engine.actions import Action, Play
from engine.game import Phase
from engine.players.base import SeatView
from engine.players.decisions import Position, judge, record, true_results
from engine.players.rule import RulePlayer


def _positions() -> list[Position]:
    return record(range(20, 24), lambda s, p, seat: RulePlayer(s + p), seats=(1,))


def test_record_keeps_the_seats_card_decisions_with_a_choice() -> None:
    ps = _positions()
    assert ps
    for p in ps:
        g = p.game()
        assert p.pos == 1 and g.phase == Phase.PLAY and g.to_act == 1
        assert sum(isinstance(a, Play) for a in g.legal_actions()) > 1


class _ByTruth:
    """Lays a card the real deal says is right (or wrong, ``worst``)."""

    def __init__(self, p: Position, worst: bool) -> None:
        self.results = true_results(p) or {}
        self.worst = worst

    def choose(self, view: SeatView) -> Action:
        wanted = not self.worst
        card = next((c for c, ok in self.results.items() if ok == wanted),
                    next(iter(self.results), None))
        return next(a for a in view.legal if isinstance(a, Play) and a.card == card)


def test_judge_counts_the_cards_that_give_the_goal_away() -> None:
    ps = _positions()
    r = judge(ps, {"right": lambda p: _ByTruth(p, False), "wrong": lambda p: _ByTruth(p, True)})
    assert r.positions == len(ps) and r.critical > 0
    assert r.players["right"].errors == 0
    assert r.players["wrong"].errors == r.critical == r.players["wrong"].decisions
    assert r.better["right"]["wrong"] == r.critical and r.better["wrong"]["right"] == 0
    assert sum(d for d, _ in r.players["wrong"].by_role.values()) == r.critical


def test_every_wrong_card_is_listed_with_the_right_ones() -> None:
    ps = _positions()
    r = judge(ps, {"right": lambda p: _ByTruth(p, False), "wrong": lambda p: _ByTruth(p, True)})
    assert len(r.errors) == r.players["wrong"].errors > 0
    for e in r.errors:
        truth = true_results(e.position)
        assert e.player == "wrong" and truth is not None and e.card is not None
        assert not truth[e.card] and set(e.right) == {c for c, ok in truth.items() if ok}
        assert e.describe().startswith(f"wrong: deal {e.position.deal_seed}, ")


def test_the_truth_is_solved_past_the_players_node_budget() -> None:
    """A node budget of one would leave every position unjudged; the truth lifts it (and
    the players' solver keeps its budget afterwards)."""
    from engine.players.worlds import _solver

    p = next(p for p in _positions() if (true_results(p) or {}) and len(
        set((true_results(p) or {}).values())) > 1)
    view = p.view()
    solver = _solver(int(view.game_type), view.declarer)  # type: ignore[arg-type]
    before = solver.max_nodes
    solver.max_nodes = 1
    try:
        assert true_results(p) is not None and solver.max_nodes == 1
    finally:
        solver.max_nodes = before


def test_the_decisions_command_prints_errors_per_player(capsys) -> None:  # type: ignore[no-untyped-def]
    from firmware_host.cli import main

    assert main(["decisions", "--judge", "rule,rule-2025", "--deals", "2", "--seed", "5",
                 "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["positions"] > 0 and set(out["players"]) == {"rule", "rule-2025"}
    assert out["players"]["rule"]["decisions"] == out["critical"]
    assert "errors" not in out
    assert main(["decisions", "--judge", "rule", "--deals", "2", "--seed", "5", "--list"]) == 0
    text = capsys.readouterr().out
    wrong = [line for line in text.splitlines() if line.startswith("  rule: deal ")]
    assert f"rule: {len(wrong)} errors in " in text and "wrong cards:" in text


def test_the_decisions_command_judges_pimc_at_a_time_budget(capsys) -> None:  # type: ignore[no-untyped-def]
    from firmware_host.cli import main

    assert main(["decisions", "--judge", "pimc,pimc+race", "--deals", "1", "--seed", "5",
                 "--budget", "0.02"]) == 0
    text = capsys.readouterr().out
    assert "0.02 s per PIMC decision" in text and "pimc+race: " in text
    assert main(["decisions", "--budget", "0"]) == 2
    assert "--budget must be positive" in capsys.readouterr().err


def test_the_decisions_command_refuses_an_unknown_player(capsys) -> None:  # type: ignore[no-untyped-def]
    from firmware_host.cli import main

    assert main(["decisions", "--judge", "kermit"]) == 2
    assert "unknown computer player" in capsys.readouterr().err

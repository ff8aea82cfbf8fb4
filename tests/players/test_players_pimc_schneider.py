"""PIMC's card decision asks the schneider question only between the cards that lead on the
goal (engine.players.pimc.PimcPlayer._solve): it costs as much as the goal again, and most
decisions do not need it."""

from __future__ import annotations

from fullrun import size

from engine.actions import Bid, Declare, Pass, Play
from engine.cards import parse_cards
from engine.contract import Contract
from engine.deal import Deal
from engine.game import Game
from engine.players import pimc
from engine.players.base import SeatView
from engine.players.pimc import PimcPlayer
from engine.players.strength import fixed_start


def _game(hands: tuple[str, str, str, str], contract: str = "GH") -> Game:
    g = Game(Deal.from_positions(*(parse_cards(h) for h in hands)))
    for a in (Pass(1), Pass(2), Bid(0, 18), Declare(0, Contract.parse(contract))):
        g.push(a)
    return g


def _goals_asked(monkeypatch, view: SeatView, budget: float | None = None
                 ) -> tuple[list[int], int]:
    """The goals (points) the player's worlds were asked about, and the card laid."""
    asked: list[int] = []
    outcome = pimc._outcome

    def counting(k, solver, hands, skat, card, goal):  # type: ignore[no-untyped-def]
        asked.append(goal)
        return outcome(k, solver, hands, skat, card, goal)

    monkeypatch.setattr(pimc, "_outcome", counting)
    p = (PimcPlayer(seed=3, worlds=12, workers=1) if budget is None
         else PimcPlayer(seed=3, budget=budget, workers=1))
    action = p.choose(view)
    assert isinstance(action, Play)
    return asked, int(action.card)


def _decided() -> SeatView:
    """Forehand to lead against rearhand's spade game (deal 0 as the duel starts it): with
    the player's twelve worlds one card (D9) keeps the defence's goal in 11 of them,
    every other card in fewer, and in 8 worlds the card does not matter."""
    g = fixed_start(Deal.shuffled(0), 0)
    assert g is not None and g.declarer == 2 and g.to_act == 0
    return SeatView.of(g, 0)


def test_no_schneider_question_when_one_card_leads(monkeypatch) -> None:
    asked, _ = _goals_asked(monkeypatch, _decided())
    assert len(asked) >= 12 * 9 and set(asked) == {61}


def test_the_schneider_question_decides_between_cards_that_tie(monkeypatch) -> None:
    # the declarer wins every world whatever he leads: only schneider tells the cards apart
    g = _game(("CJ SJ HJ DJ CA CT CK SA ST HA", "C7 C8 C9 S7 S8 S9 H7 H8 H9 D7",
               "CQ SQ SK HT HK HQ DA DT DK DQ", "D8 D9"))
    asked, _ = _goals_asked(monkeypatch, SeatView.of(g, 0))
    assert 61 in asked and 90 in asked


def test_at_a_budget_both_rounds_give_a_card(monkeypatch) -> None:
    # the goal round, then the schneider round between the leaders (or more worlds), with
    # the worlds spread over two processes or in this one
    for workers in (1, 2):
        p = PimcPlayer(seed=3, budget=0.3, workers=workers)
        p.warm_up()  # the worker processes start before the decision, as at the table
        try:
            v = _decided()
            action = p.choose(v)
            assert action in v.legal and p.last_worlds >= 1
        finally:
            p.close()
    g = _game(("CJ SJ HJ DJ CA CT CK SA ST HA", "C7 C8 C9 S7 S8 S9 H7 H8 H9 D7",
               "CQ SQ SK HT HK HQ DA DT DK DQ", "D8 D9"))
    asked, _ = _goals_asked(monkeypatch, SeatView.of(g, 0), budget=0.3)
    assert asked[0] == 61


def test_a_dead_worker_process_costs_one_decision_its_speed_not_the_table_its_player() -> None:
    """A worker killed (on a Pi, by the out-of-memory killer) broke the process pool for
    good: every later decision raised BrokenProcessPool and the computer seat never moved
    again. Now the decision is solved in this process (at fixed worlds: the same card as
    with one process) and the next one starts new workers."""
    import os
    import signal
    import time

    view = _decided()
    alone = PimcPlayer(seed=3, worlds=12, workers=1).choose(view)
    p = PimcPlayer(seed=3, worlds=12, workers=2)
    p.warm_up()
    try:
        for round_ in range(1, size(1, 2) + 1):  # killed while idle between decisions
            pool = p._pool
            assert pool is not None
            victim = next(iter(pool._processes))  # type: ignore[attr-defined]
            os.kill(victim, signal.SIGKILL)
            for _ in range(100):  # until the pool has noticed
                if pool._broken:  # type: ignore[attr-defined]
                    break
                time.sleep(0.05)
            assert p.choose(view) == alone
            assert p.pool_failures == round_
            assert p.choose(view) == alone  # on new workers
            assert p._pool is not None and p._pool is not pool
            assert p.pool_failures == round_
    finally:
        p.close()

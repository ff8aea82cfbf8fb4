"""PIMC's cards race at a time budget (engine.players.pimc.run_worlds, race=True): a card
clearly behind after a few worlds is not solved in the later ones, so the cards still in
the race get more worlds. The race may only drop cards: the cards left are judged on the
same worlds, with the same answers, as without it."""

from __future__ import annotations

from engine.actions import Bid, Declare, Pass, Play
from engine.cards import parse_cards
from engine.contract import Contract
from engine.deal import Deal
from engine.game import Game
from engine.players import make_player, pimc
from engine.players.base import SeatView
from engine.players.pimc import PimcPlayer, knowledge_of, race_margin, run_worlds
from engine.players.strength import fixed_start


def _opening_lead() -> SeatView:
    """Forehand to lead against rearhand's spade game (deal 0 as the duel starts it)."""
    g = fixed_start(Deal.shuffled(0), 0)
    assert g is not None and g.declarer == 2 and g.to_act == 0
    return SeatView.of(g, 0)


def test_the_race_drops_only_cards_clearly_behind_and_keeps_their_worlds() -> None:
    view = _opening_lead()
    legal = [int(a.card) for a in view.legal if isinstance(a, Play)]
    k = knowledge_of(view, legal, 3)
    raced = run_worlds(k, range(30), None, race=True)
    assert 1 <= len(raced.live) < len(legal)  # the race dropped cards here
    worlds = [i for i, _ in raced.reached]
    plain = run_worlds(k, worlds, None)  # every card in the same worlds
    assert plain.solved == len(worlds) == raced.solved
    every = {i: m for i, m in plain.reached}
    # the cards left: the same answer in every world, so the same worlds won
    left = sum(1 << j for j in raced.live)
    for i, m in raced.reached:
        assert m & left == every[i] & left
    assert [raced.wins[j] for j in raced.live] == [plain.wins[j] for j in raced.live]
    # the race replayed from the plain answers: a card goes when it trails the best by more
    # than the margin, from the second world on
    me_decl = k.me == k.declarer
    live = list(range(len(legal)))
    wins = [0] * len(legal)
    for n, i in enumerate(worlds, 1):
        for j in live:
            wins[j] += bool(every[i] >> j & 1) == me_decl
        if n >= pimc.RACE_MIN_WORLDS and len(live) > 1:
            best = max(wins[j] for j in live)
            live = [j for j in live if best - wins[j] <= race_margin(n)]
    assert tuple(live) == raced.live


def test_a_race_with_one_card_left_ends_the_batch(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    # here five cards stay within the margin for hundreds of worlds; with no margin only
    # the cards level with the best stay, and soon one is left
    monkeypatch.setattr(pimc, "RACE_MARGIN", 0.0)
    monkeypatch.setattr(pimc, "RACE_SHARE", 0.0)
    view = _opening_lead()
    legal = [int(a.card) for a in view.legal if isinstance(a, Play)]
    k = knowledge_of(view, legal, 3)
    raced = run_worlds(k, range(400), None, race=True)
    assert len(raced.live) == 1
    assert raced.next is not None and raced.solved < 400
    assert raced.next == raced.reached[-1][0] + 1


def _tied() -> SeatView:
    # the declarer wins every world whatever he leads: only schneider tells the cards apart
    g = Game(Deal.from_positions(*(parse_cards(h) for h in (
        "CJ SJ HJ DJ CA CT CK SA ST HA", "C7 C8 C9 S7 S8 S9 H7 H8 H9 D7",
        "CQ SQ SK HT HK HQ DA DT DK DQ", "D8 D9"))))
    for a in (Pass(1), Pass(2), Bid(0, 18), Declare(0, Contract.parse("GH"))):
        g.push(a)
    return SeatView.of(g, 0)


def _goals(monkeypatch, p: PimcPlayer) -> set[int]:  # type: ignore[no-untyped-def]
    asked: list[int] = []
    outcome = pimc._outcome

    def counting(k, solver, hands, skat, card, goal):  # type: ignore[no-untyped-def]
        asked.append(goal)
        return outcome(k, solver, hands, skat, card, goal)

    monkeypatch.setattr(pimc, "_outcome", counting)
    view = _tied()
    assert p.choose(view) in view.legal
    monkeypatch.setattr(pimc, "_outcome", outcome)
    return set(asked)


def test_the_schneider_question_waits_for_enough_goal_worlds(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    p = PimcPlayer(seed=3, budget=0.3, workers=1, race=True)
    assert p.schneider_min == pimc.SCHNEIDER_MIN_WORLDS
    p.schneider_min = 10**9  # never enough worlds: the whole budget goes to the goal
    assert _goals(monkeypatch, p) == {61}
    p.schneider_min = 0
    assert _goals(monkeypatch, p) == {61, 90}


def test_pimc_race_is_a_harness_player_and_pimc_does_not_race() -> None:
    p = make_player("pimc+race", budget=0.2, workers=1)
    assert isinstance(p, PimcPlayer) and p.race and p.schneider_min == pimc.SCHNEIDER_MIN_WORLDS
    assert p.name == "pimc+race"
    q = make_player("pimc", budget=0.2, workers=1)
    assert isinstance(q, PimcPlayer) and not q.race and q.schneider_min == 0

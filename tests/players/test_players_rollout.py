"""Playouts of sampled worlds (engine.players.rollout): a world is a real game the engine
referees, each seat plays it from its own view, and PIMC's ``rollout`` modes choose the
first trick's card by them."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine.actions import Bid, Declare, Discard, Pass, Play, TakeSkat
from engine.cards import Card
from engine.contract import Contract, GameType
from engine.deal import Deal
from engine.game import Game, Phase
from engine.players import make_player
from engine.players.base import SeatView
from engine.players.pimc import PimcPlayer, knowledge_of
from engine.players.rollout import playout, playout_wins, world_game
from engine.players.rule import RulePlayer
from engine.players.strength import fixed_start
from engine.players.table import play_game


def _started(seed: int, cards: int) -> Game:
    """Deal ``seed`` with the rule players' contract (seed 100 + s: forehand's null ouvert
    after a pick-up) and their first ``cards`` cards."""
    if seed >= 100:
        g = Game(Deal.shuffled(seed - 100))
        g.push(Pass(1))
        g.push(Pass(2))
        g.push(Bid(0, 18))
        g.push(TakeSkat(0))
        for c in sorted(Card(c) for c in range(32) if g.hands[0] >> c & 1)[-2:]:
            g.push(Discard(0, c))
        g.push(Declare(0, Contract.parse("NO")))
    else:
        g = fixed_start(Deal.shuffled(seed), 0)
    assert g is not None
    rule = RulePlayer(5)
    for _ in range(cards):
        g.push(rule.choose(SeatView.of(g, g.to_act)))
    return g


@pytest.mark.parametrize(("seed", "cards"), [(0, 0), (1, 1), (2, 2), (3, 4), (4, 0), (11, 5),
                                                   (100, 0), (101, 2)])
def test_the_world_of_the_real_hands_is_the_real_game(seed: int, cards: int) -> None:
    g = _started(seed, cards)
    view = SeatView.of(g, g.to_act)
    w = world_game(view, list(g.hands), g.skat)
    assert w.phase == Phase.PLAY
    assert (w.hands, w.skat, w.contract, w.to_act, w.trick, w.won) == (
        g.hands, g.skat, g.contract, g.to_act, g.trick, g.won)
    # every seat sees in the world what it sees at the real table (the declarer's picked-up
    # skat aside: nobody else knows it)
    for pos in range(3):
        a, b = SeatView.of(w, pos), SeatView.of(g, pos)
        assert (a.hand, a.voids, a.tricks, a.trick, a.unknown) == (
            b.hand, b.voids, b.tricks, b.trick, b.unknown)


class _Seen(RulePlayer):
    """A rule player that notes the views of its card decisions with a choice."""

    def __init__(self, seed: int, seen: list[SeatView]) -> None:
        super().__init__(seed)
        self.seen = seen

    def card(self, view: SeatView, legal: int) -> int:
        if legal.bit_count() > 1:
            # (the declarer's picked-up skat is not dealt in a world: nobody else knows it)
            self.seen.append(replace(view, legal=(), skat_original=0))
        return super().card(view, legal)


@pytest.mark.parametrize("seed", [0, 1, 2, 3, 4, 6, 7, 11, 100, 102])
def test_a_playout_is_the_game_the_rule_players_would_play(seed: int) -> None:
    g = _started(seed, 1)
    me = g.to_act
    view = SeatView.of(g, me)
    seen: list[SeatView] = []
    players = [_Seen(10 + p, seen) for p in range(3)]
    card = int(next(a for a in view.legal if isinstance(a, Play)).card)
    w = world_game(view, list(g.hands), g.skat)
    before = w.state_key()
    reached = playout(w, card, players, me)
    assert w.state_key() == before  # the world is left as it was
    # the same game played to its end by the table loop
    real = g.copy()
    real.push(Play(me, Card(card)))
    in_playout = list(seen)
    seen.clear()
    play_game(real.deal, players, start=real)
    # each seat decided from the view the table would have given it (the playout stops
    # when the goal is settled)
    assert in_playout and in_playout == seen[:len(in_playout)]
    d = real.declarer
    if real.game_type == GameType.NULL:
        assert reached == ((real.ntricks[d] == 0) == (me == d))
        return
    points = sum(Card(c).points for c in range(32) if (real.won[d] | real.skat) >> c & 1)
    goal = 90 if real.contract.schneider else 61
    assert reached == ((points >= goal) == (me == d))


def test_pure_rollout_plays_the_card_with_the_most_playout_wins() -> None:
    g = fixed_start(Deal.shuffled(0), 0)
    assert g is not None
    view = SeatView.of(g, 0)
    legal = [int(a.card) for a in view.legal if isinstance(a, Play)]
    p = PimcPlayer(seed=3, worlds=12, workers=1, rollout="pure", long_ace=True)
    card = int(p.choose(view).card)  # type: ignore[attr-defined]
    k = knowledge_of(view, legal, 3)
    wins, n = playout_wins(view, k, range(12))
    assert n == 12 and p.last_worlds == 12
    assert wins[legal.index(card)] == max(wins)
    # from the second trick on it is PIMC again
    assert PimcPlayer(seed=3, worlds=4, workers=1, rollout="pure").rollout_cards == 3


def test_rollout_at_a_budget_keeps_the_deadline() -> None:
    import time

    g = fixed_start(Deal.shuffled(0), 0)
    assert g is not None
    view = SeatView.of(g, 0)
    p = make_player("pimc+rollout", seed=1, budget=0.2, workers=1)
    t0 = time.monotonic()
    assert isinstance(p.choose(view), Play)
    assert time.monotonic() - t0 < 0.2 * 3 + 0.1  # the first world may overrun, not more


def test_unknown_rollout_mode() -> None:
    with pytest.raises(ValueError, match="rollout must be one of"):
        PimcPlayer(rollout="kermit")

"""PIMC's score of a card in one world: the goal, then schneider, then the margin."""

from __future__ import annotations

import time

import pytest

from engine.cards import parse_mask
from engine.contract import GameType
from engine.players import pimc
from engine.players.pimc import Knowledge, _solver, _world_scores

# Diamonds, the declarer (rearhand) to lead at trick 7 with 47 card points and C9 CT in
# the skat: every card makes 61, none 90; only the jack of hearts makes 76.
HANDS = [parse_mask("CJ CQ H7 H8"), parse_mask("SJ HT HQ HK"), parse_mask("SK H9 HJ HA")]
SKAT = parse_mask("C9 CT")
CARDS = ("SK", "H9", "HJ", "HA")


def _knowledge(me: int) -> Knowledge:
    cands = tuple(parse_mask(c).bit_length() - 1 for c in CARDS)
    return Knowledge(
        me=me, declarer=2, game=int(GameType.DIAMONDS), hand_game=False, schneider=False,
        schwarz=False, ouvert=False, bid=18, known=(0, 0, 0), sizes=(4, 4, 4), skat=SKAT,
        unknown=0, voids=(0, 0, 0), played_by=(0, 0, 0), trick=(), leader=2,
        declarer_points=47, said=(0, 0, 0), candidates=cands, seed="t")


def test_the_margin_orders_cards_the_goal_and_schneider_do_not() -> None:
    k = _knowledge(2)
    scores = _world_scores(k, _solver(k.game, 2), list(HANDS), SKAT)
    assert scores[2] == pytest.approx(1 + pimc.MARGIN_WEIGHT)
    assert scores[0] == scores[1] == scores[3] == 1.0
    assert max(range(4), key=lambda i: scores[i]) == CARDS.index("HJ")


def test_without_the_margin_the_cards_tie(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pimc, "MARGIN_WEIGHT", 0.0)
    k = _knowledge(2)
    assert set(_world_scores(k, _solver(k.game, 2), list(HANDS), SKAT)) == {1.0}


def test_margins_stop_at_their_deadline_and_the_wins_stand() -> None:
    # the first world of a decision may overrun the deadline for its wins, not for margins
    k = _knowledge(2)
    scores = _world_scores(k, _solver(k.game, 2), list(HANDS), SKAT,
                           margin_until=time.monotonic() - 1)
    assert scores == [1.0, 1.0, 1.0, 1.0]

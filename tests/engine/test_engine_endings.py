"""Endings other than the tenth trick: ISS aborts (timeout, leave, resign), penalties, and the
result's JSON form."""

from __future__ import annotations

import pytest
from engine_helpers import game_from_tokens, random_game

from engine.actions import Abort, ActionError, IllegalAction, Play
from engine.cards import Card
from engine.scoring import GameResult

DEAL = ("C9.SQ.CA.S8.SJ.DT.CJ.SK.DK.D9.DJ.S7.H8.D8.HQ.HJ.S9.D7.C8.HK."
        "ST.DQ.CT.HA.HT.CQ.H7.CK.DA.H9.C7.SA")
START = "1 p 2 p 0 18 0 s 0 S 0 C9 0 C7"


def test_timeout_in_the_bidding_is_a_penalty_for_the_culprit() -> None:
    g = game_from_tokens(DEAL, "1 p")
    g.push(Abort(2, "timeout"))
    r = g.result
    assert r is not None and r.declarer is None and r.contract is None
    assert (r.value, r.ending, r.penalties, r.aborted_by, r.passed_in) == (
        0, "timeout", (0, 0, 1), 2, False)


def test_defender_leaving_before_the_declaration_costs_both_defenders() -> None:
    g = game_from_tokens(DEAL, "1 p 2 p 0 18")
    g.push(Abort(1, "leave"))
    assert g.result is not None and g.result.penalties == (0, 1, 1)
    g = game_from_tokens(DEAL, "1 p 2 p 0 18 0 s")
    g.push(Abort(0, "timeout"))
    assert g.result is not None and g.result.penalties == (1, 0, 0) and g.result.declarer == 0


def test_defender_timeout_credits_the_declarer_with_everything_not_taken() -> None:
    # trick 1 to the declarer (SJ S7 ST), then forehand leads CJ and middlehand times out
    g = game_from_tokens(DEAL, START + " 0 SJ 1 S7 2 ST 0 CJ")
    g.push(Abort(1, "timeout"))
    r = g.result
    assert r is not None and r.ending == "timeout" and r.aborted_by == 1
    assert (r.won, r.points, r.tricks, r.schneider, r.schwarz) == (True, 120, 10, True, True)
    assert (r.matadors, r.multiplier, r.value) == (2, 5, 55)  # with 2, game 3, schn. 4, schw. 5


def test_defender_resign_after_a_defender_trick_keeps_that_trick_with_them() -> None:
    g = game_from_tokens(DEAL, START + " 0 SJ 1 S7 2 ST 0 CJ 1 S9 2 H7 0 S8 1 DJ 2 CT")
    assert g.tricks[-1].winner == 1
    g.push(Abort(2, "resign"))
    r = g.result
    assert r is not None and (r.points, r.tricks, r.schneider, r.schwarz) == (108, 9, True, False)


def test_declarer_timeout_scores_his_points_so_far_with_the_skat() -> None:
    g = game_from_tokens(DEAL, START + " 0 SJ 1 S7 2 ST 0 CJ")
    g.push(Abort(0, "timeout"))
    r = g.result
    assert r is not None and (r.won, r.points, r.tricks) == (False, 12, 1)
    # declarer below 31 after a trick: schneidered; with 2, game 3, schneider 4: -2 x 44
    assert (r.schneider, r.value) == (True, -88)


def test_null_abort_loses_for_the_side_that_aborts() -> None:
    g = game_from_tokens(DEAL, "1 p 2 p 0 18 0 s 0 N 0 C9 0 C7 0 S8")
    h = g.copy()
    g.push(Abort(0, "leave"))
    assert g.result is not None and (g.result.won, g.result.value) == (False, -46)
    h.push(Abort(2, "leave"))
    assert h.result is not None and (h.result.won, h.result.value) == (True, 23)


def test_nothing_after_the_end() -> None:
    g = game_from_tokens(DEAL, "1 p 2 p 0 p")
    with pytest.raises(IllegalAction, match="the game is over"):
        g.push(Abort(1, "timeout"))
    with pytest.raises(IllegalAction, match="no card can be laid now: the game is over"):
        g.push(Play(0, Card.C9))


def test_bad_abort_reason() -> None:
    with pytest.raises(ActionError, match="abort reason 'nap'"):
        Abort(0, "nap")  # type: ignore[arg-type]


def test_result_json_round_trip() -> None:
    import random

    for seed in range(30):
        r = random_game(random.Random(seed)).result
        assert r is not None
        assert GameResult.from_json(r.to_json()) == r

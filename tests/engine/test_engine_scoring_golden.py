"""Golden values for every threshold of DESIGN.md "Rules", on the scoring functions and
through whole games."""

from __future__ import annotations

import pytest
from engine_helpers import find_playout, game_from_tokens

from engine.actions import Bid, Concede, Declare, IllegalAction, Pass, Play
from engine.cards import Card
from engine.contract import Contract
from engine.deal import Deal
from engine.game import Game, Phase
from engine.scoring import GameResult, score_null, score_suit_grand


def sg(contract: str, bid: int, m: int, points: int, tricks: int, ending: str = "played",
       kontra: int = 1, trick_done: bool = True) -> GameResult:
    return score_suit_grand(Contract.parse(contract), bid, m, points, tricks, ending, 0,
                            kontra, trick_done)


# --- 60/61, 30/31, 89/90 -------------------------------------------------------------------

def test_61_wins_60_loses() -> None:
    assert sg("C", 18, 1, 61, 5).value == 24
    r = sg("C", 18, 1, 60, 5)
    assert (r.won, r.value, r.schneider) == (False, -48, False)


def test_90_is_schneider_89_is_not() -> None:
    r = sg("G", 18, 1, 90, 7)
    assert (r.won, r.schneider, r.multiplier, r.value) == (True, True, 3, 72)
    r = sg("G", 18, 1, 89, 7)
    assert (r.won, r.schneider, r.multiplier, r.value) == (True, False, 2, 48)


def test_declarer_with_30_is_schneider_31_is_not() -> None:
    r = sg("H", 18, -2, 30, 2)
    assert (r.won, r.schneider, r.multiplier, r.value) == (False, True, 4, -80)
    r = sg("H", 18, -2, 31, 2)
    assert (r.won, r.schneider, r.multiplier, r.value) == (False, False, 3, -60)


def test_schwarz_is_no_trick_and_a_zero_point_trick_prevents_it() -> None:
    r = sg("G", 18, 2, 120, 10)
    assert (r.schneider, r.schwarz, r.multiplier, r.value) == (True, True, 5, 120)
    r = sg("G", 18, 2, 120, 9)  # the defenders took one trick of 0 points
    assert (r.schneider, r.schwarz, r.multiplier) == (True, False, 4)
    r = sg("S", 18, 1, 0, 0)   # declarer schwarz: no trick, the skat is no trick
    assert (r.won, r.schneider, r.schwarz, r.multiplier, r.value) == (False, True, True, 4, -88)


def test_schneider_announced_needs_90() -> None:
    r = sg("CHS", 18, 1, 90, 8)
    assert (r.won, r.multiplier, r.value) == (True, 5, 60)   # 1+1 hand schneider announced
    r = sg("CHS", 18, 1, 89, 8)   # missed: the announced levels still count, doubled
    assert (r.won, r.multiplier, r.value) == (False, 5, -120)


def test_missed_schwarz_announced_counts_all_its_levels() -> None:
    r = sg("GHZ", 18, 2, 115, 9, ending="schwarz-lost")
    # with 2, game 3, hand 4, schneider 5, announced 6, schwarz 7, announced 8
    assert (r.won, r.multiplier, r.value) == (False, 8, -384)
    assert [b[0] for b in r.breakdown] == [
        "with", "game", "hand", "schneider", "schneider_announced", "schwarz",
        "schwarz_announced"]


def test_lost_ouvert() -> None:
    r = sg("CO", 18, 1, 13, 0, ending="schwarz-lost")  # ISS 13577
    # announced levels count; ISS does not report them as "reached" against the declarer
    assert (r.won, r.multiplier, r.value, r.schneider, r.schwarz) == (False, 8, -192, False, False)


# --- overbid ------------------------------------------------------------------------------

def test_overbid_loses_even_with_61_and_is_valued_at_the_next_multiple() -> None:
    r = sg("D", 36, -1, 75, 7)  # ISS 8650652: reached 18, bid 36
    assert (r.won, r.overbid, r.multiplier, r.value) == (False, True, 4, -72)
    r = sg("H", 33, 1, 70, 7)  # reached 20, bid 33: smallest multiple of 10 reaching 33 is 40
    assert (r.overbid, r.value) == (True, -80)


def test_overbid_rescued_by_schneider() -> None:
    r = sg("S", 33, 1, 90, 8)  # 11 x (1+1+schneider) = 33 reaches the bid
    assert (r.won, r.overbid, r.value) == (True, False, 33)
    r = sg("S", 33, 1, 89, 8)
    assert (r.won, r.overbid, r.value) == (False, True, -66)


def test_kontra_re_double_but_do_not_count_toward_the_bid() -> None:
    r = sg("C", 18, 1, 70, 6, kontra=2)
    assert (r.won, r.value, r.kontra) == (True, 48, 2)
    assert r.breakdown[-1] == ("kontra", 2)
    r = sg("C", 18, 1, 50, 6, kontra=4)
    assert (r.won, r.value) == (False, -192)
    r = sg("D", 36, 1, 80, 6, kontra=4)   # 18 x 4 = 72 would "reach" 36: still overbid
    assert (r.overbid, r.value) == (True, -288)


@pytest.mark.parametrize("text, value", [("N", 23), ("NH", 35), ("NO", 46), ("NOH", 59)])
def test_null_values_won_and_lost(text: str, value: int) -> None:
    c = Contract.parse(text)
    assert score_null(c, 18, True, 0, 0, "played", 0).value == value
    assert score_null(c, 18, False, 10, 1, "null-trick", 0).value == -2 * value
    assert score_null(c, 18, True, 0, 0, "played", 0, kontra=2).value == 2 * value


# --- through whole games -------------------------------------------------------------------

# Forehand holds all four jacks and the aces and tens of clubs and spades; hand grand.
ZERO_DEAL = Deal.from_positions(
    [Card.CJ, Card.SJ, Card.HJ, Card.DJ, Card.CA, Card.CT, Card.SA, Card.ST, Card.HA, Card.D7],
    [Card.C7, Card.C8, Card.C9, Card.CQ, Card.CK, Card.S7, Card.S8, Card.S9, Card.SQ, Card.SK],
    [Card.H7, Card.H8, Card.H9, Card.HT, Card.HK, Card.HQ, Card.D8, Card.D9, Card.DQ, Card.DK],
    [Card.DA, Card.DT],
)
ZERO_PLAY = ("0 CJ 1 CK 2 HK 0 SJ 1 CQ 2 HQ 0 HJ 1 SK 2 HT 0 DJ 1 SQ 2 DK 0 CA 1 C9 2 DQ "
             "0 CT 1 C8 2 H9 0 SA 1 S9 2 H8 0 ST 1 S8 2 H7 0 HA 1 C7 2 D9 0 D7 1 S7 2 D8")


def test_a_zero_point_trick_prevents_schwarz_in_a_game() -> None:
    g = game_from_tokens(ZERO_DEAL.to_iss(), "1 p 2 p 0 18 0 GH " + ZERO_PLAY)
    r = g.result
    assert r is not None
    assert (r.points, r.tricks, r.schneider, r.schwarz) == (120, 9, True, False)
    assert (r.matadors, r.multiplier, r.value) == (4, 7, 168)  # with 4, game 5, hand 6, schn. 7


def test_schwarz_announced_lost_by_a_zero_point_trick_ends_the_game_there() -> None:
    g = game_from_tokens(ZERO_DEAL.to_iss(), "1 p 2 p 0 18 0 GHZ " + ZERO_PLAY)
    r = g.result
    assert r is not None and r.ending == "schwarz-lost" and len(g.tricks) == 10
    # with 4, game 5, hand 6, schneider 7, announced 8, schwarz 9, announced 10; lost
    assert (r.won, r.multiplier, r.value) == (False, 10, -480)


# SJ lies in the skat: forehand (HJ DJ, no CJ SJ) thinks "without 2" but is "without 1".
OVERBID_DEAL = Deal.from_positions(
    [Card.HJ, Card.DJ, Card.CA, Card.CT, Card.CK, Card.SA, Card.ST, Card.HA, Card.HT, Card.DA],
    [Card.CJ, Card.C7, Card.C8, Card.C9, Card.S7, Card.S8, Card.S9, Card.H7, Card.H8, Card.D7],
    [Card.CQ, Card.SQ, Card.SK, Card.HQ, Card.HK, Card.H9, Card.D8, Card.D9, Card.DQ, Card.DK],
    [Card.SJ, Card.DT],
)


def test_hand_game_overbid_by_a_jack_in_the_skat() -> None:
    g = game_from_tokens(OVERBID_DEAL.to_iss(), "1 p 2 p 0 96 0 GH")
    g2 = find_playout(g, lambda r: 61 <= r.points < 90)
    r = g2.result
    assert r is not None and r.matadors == -1
    assert (r.won, r.overbid, r.value) == (False, True, -192)  # -2 x 96


def test_hand_game_with_a_jack_in_the_skat_rescued_by_schneider() -> None:
    g = game_from_tokens(OVERBID_DEAL.to_iss(), "1 p 2 p 0 96 0 GH")
    r = find_playout(g, lambda r: r.points >= 90 and r.tricks < 10).result
    assert r is not None and (r.won, r.overbid, r.value) == (True, False, 96)


def test_declarer_concedes_loses_at_the_simple_level_plus_announced() -> None:
    g = game_from_tokens(OVERBID_DEAL.to_iss(), "1 p 2 p 0 18 0 GHS 0 CA 1 C7 2 CQ")
    g.push(Concede(0))
    r = g.result
    assert r is not None and r.ending == "declarer-conceded"
    assert (r.points, r.tricks) == (26, 1)  # CA CQ C7 + the skat SJ DT
    # without 1, game 2, hand 3, schneider 4, announced 5: 24 x 5, lost
    assert (r.won, r.multiplier, r.value, r.schneider) == (False, 5, -240, False)


def test_defenders_concede_declarer_wins_at_the_level_his_bid_needs() -> None:
    g = game_from_tokens(OVERBID_DEAL.to_iss(), "1 p 2 p 0 96 0 GH")
    g.push(Concede(2))
    r = g.result
    assert r is not None and r.ending == "defenders-conceded"
    # without 1, game 2, hand 3 = 72 < 96: the bid needs schneider (96)
    assert (r.won, r.multiplier, r.value, r.schneider, r.schwarz) == (True, 4, 96, True, False)
    g = game_from_tokens(OVERBID_DEAL.to_iss(), "1 p 2 p 0 18 0 GH 0 HJ")
    g.push(Concede(1))
    assert g.result is not None and (g.result.won, g.result.value) == (True, 72)


def test_null_lost_at_the_declarers_first_trick() -> None:
    # ISS 25: null ouvert hand, declarer takes the first trick with CT
    deal = ("CJ.S7.H8.SA.DA.CQ.DK.CK.C8.D8.D9.HK.HA.SQ.CT.S8.HJ.SJ.DT.ST."
            "H9.S9.HQ.SK.HT.CA.C9.C7.D7.DQ.H7.DJ")
    g = game_from_tokens(deal, "1 18 0 p 2 p 1 NOH 0 C8 1 CT 2 C9")
    r = g.result
    assert r is not None and g.phase == Phase.FINISHED
    assert (r.ending, r.won, r.value, r.points, r.tricks, r.matadors) == (
        "null-trick", False, -118, 12, 1, 0)


def test_null_won_when_the_declarer_takes_no_trick() -> None:
    deal = ("CJ.S7.H8.SA.DA.CQ.DK.CK.C8.D8.D9.HK.HA.SQ.CT.S8.HJ.SJ.DT.ST."
            "H9.S9.HQ.SK.HT.CA.C9.C7.D7.DQ.H7.DJ")
    g = game_from_tokens(deal, "1 18 0 p 2 p 1 s 1 N 1 CT 1 HA")
    r = find_playout(g, lambda r: r.won).result
    assert r is not None and (r.value, r.tricks, r.ending) == (23, 0, "played")


def test_kontra_and_re_in_a_game() -> None:
    from engine.actions import Kontra, Re
    from engine.game import Rules

    rules = Rules(kontra_re=True)
    g = game_from_tokens(ZERO_DEAL.to_iss(), "1 p 2 p 0 18 0 GH", rules)
    assert Kontra(1) in g.legal_actions() and Kontra(2) in g.legal_actions()
    with pytest.raises(IllegalAction, match="only a defender"):
        g.push(Kontra(0))
    with pytest.raises(IllegalAction, match="nobody has said Kontra"):
        g.push(Re(0))
    g.push(Kontra(2))
    assert g.legal_actions()[-1] == Re(0)
    g.push(Re(0))
    for w in ZERO_PLAY.split()[1::2]:
        g.push(Play(g.to_act, Card.parse(w)))  # type: ignore[arg-type]
    r = g.result
    assert r is not None and (r.kontra, r.value) == (4, 168 * 4)
    g2 = game_from_tokens(ZERO_DEAL.to_iss(), "1 p 2 p 0 18 0 GH 0 CJ", rules)
    with pytest.raises(IllegalAction, match="before the first card"):
        g2.push(Kontra(1))
    g3 = game_from_tokens(ZERO_DEAL.to_iss(), "1 p 2 p 0 18 0 GH")
    with pytest.raises(IllegalAction, match="not played at this table"):
        g3.push(Kontra(1))


def test_forehand_opening_after_two_passes_and_declaring() -> None:
    g = Game(ZERO_DEAL)
    for a in (Pass(1), Pass(2), Bid(0, 18), Declare(0, Contract.parse("GH"))):
        g.push(a)
    assert g.phase == Phase.PLAY and g.contract == Contract.parse("GH")


def test_fast_result_builder_makes_the_same_object() -> None:
    """The slot-filling builder used on the hot path gives exactly what GameResult() gives."""
    from engine.scoring import _build_result

    kw = dict(declarer=1, contract=Contract.parse("GH"), bid=48, won=False, value=-240,
              base_value=24, multiplier=5, points=59, tricks=4, matadors=-2, schneider=False,
              schwarz=False, overbid=False, ending="played", kontra=2,
              breakdown=(("without", 2), ("game", 3)), position_values=(0, -240, 0))
    fast, slow = _build_result(**kw), GameResult(**kw)  # type: ignore[arg-type]
    assert type(fast) is GameResult and fast == slow and repr(fast) == repr(slow)
    assert fast.to_json() == slow.to_json() and hash(fast.contract) == hash(slow.contract)
    with pytest.raises(AttributeError):
        fast.value = 0  # type: ignore[misc]

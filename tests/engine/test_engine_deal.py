"""Deals: the ISkO dealing pattern, ISS strings, shuffles, and clear errors."""

from __future__ import annotations

import pytest

from engine.cards import ALL_CARDS, Card, mask_to_str, parse_mask
from engine.deal import DEAL_PATTERN, SKAT, Deal, DealError

ISS = ("C9.SQ.CA.S8.SJ.DT.CJ.SK.DK.D9.DJ.S7.H8.D8.HQ.HJ.S9.D7.C8.HK."
       "ST.DQ.CT.HA.HT.CQ.H7.CK.DA.H9.C7.SA")


def test_pattern_is_3_skat2_4_3() -> None:
    assert list(DEAL_PATTERN[:11]) == [0, 0, 0, 1, 1, 1, 2, 2, 2, SKAT, SKAT]
    assert list(DEAL_PATTERN[11:23]) == [0] * 4 + [1] * 4 + [2] * 4
    assert list(DEAL_PATTERN[23:]) == [0] * 3 + [1] * 3 + [2] * 3


def test_from_dealt_order() -> None:
    d = Deal.from_dealt_order(list(ALL_CARDS))
    # cards 1-3 to forehand, 10-11 to the skat, 12-15 and 24-26 to forehand again
    assert mask_to_str(d.hands[0]) == "C7 C8 C9 ST SJ SQ SK HA D7 D8"
    assert mask_to_str(d.hands[1]) == "CT CJ CQ SA H7 H8 H9 D9 DT DJ"
    assert d.skat == parse_mask("S8 S9")
    assert Deal.from_dealt_order(d.dealt_order()) == d


def test_iss_round_trip() -> None:
    d = Deal.from_iss(ISS)
    assert d.hands[0] == parse_mask("C9 SQ CA S8 SJ DT CJ SK DK D9")
    assert d.skat == parse_mask("C7 SA")
    assert Deal.from_iss(d.to_iss()) == d


def test_shuffled_is_reproducible_and_complete() -> None:
    assert Deal.shuffled(5) == Deal.shuffled(5)
    assert Deal.shuffled(5) != Deal.shuffled(6)
    d = Deal.shuffled("x")
    assert d.hands[0] | d.hands[1] | d.hands[2] | d.skat == 0xFFFFFFFF


@pytest.mark.parametrize(
    "cards, message",
    [(list(ALL_CARDS)[:31], "32 cards, got 31"),
     ([*list(ALL_CARDS)[:31], Card.C7], "C7 dealt twice"),
     ([*list(ALL_CARDS)[:31], "XX"], "not a card")],
)
def test_bad_dealt_order(cards: list, message: str) -> None:
    with pytest.raises(DealError, match=message):
        Deal.from_dealt_order(cards)


def test_bad_iss_deal() -> None:
    with pytest.raises(DealError, match="32 cards"):
        Deal.from_iss("CJ.SJ")
    with pytest.raises(DealError, match="dealt twice"):
        Deal.from_iss(ISS.replace("SA", "C9"))
    with pytest.raises(DealError, match="not a card"):
        Deal.from_iss(ISS.replace("SA", "ZZ"))

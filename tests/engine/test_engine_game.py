"""A whole game through Game: bidding, skat, declaration, play, result; messages; undo."""

from __future__ import annotations

import pytest
from engine_helpers import game_from_tokens

from engine.actions import (
    Bid,
    Concede,
    Declare,
    Discard,
    Hold,
    IllegalAction,
    Pass,
    Play,
    TakeSkat,
)
from engine.cards import Card, parse_mask
from engine.contract import Contract
from engine.deal import Deal
from engine.game import Game, Phase

# ISS record 6326040: spades after pick-up, won with exactly 61.
DEAL1 = ("C9.SQ.CA.S8.SJ.DT.CJ.SK.DK.D9.DJ.S7.H8.D8.HQ.HJ.S9.D7.C8.HK."
         "ST.DQ.CT.HA.HT.CQ.H7.CK.DA.H9.C7.SA")
AFTER_LEAD = "1 p 2 p 0 18 0 s 0 S 0 C9 0 C7 0 SJ 1 S7"
MOVES1 = ("1 p 2 p 0 18 0 s 0 S 0 C9 0 C7 0 SJ 1 S7 2 ST 0 CJ 1 S9 2 H7 0 S8 1 DJ 2 CT "
          "1 HQ 2 HA 0 SA 0 SQ 1 HJ 2 HT 1 HK 2 H9 0 SK 0 CA 1 C8 2 CQ 0 D9 1 D8 2 DQ "
          "2 DA 0 DK 1 D7 2 CK 0 DT 1 H8")


def test_full_game_won_with_61() -> None:
    g = game_from_tokens(DEAL1, MOVES1)
    assert g.phase == Phase.FINISHED and g.to_act is None
    r = g.result
    assert r is not None
    assert (r.declarer, r.won, r.value, r.matadors, r.points, r.tricks) == (0, True, 33, 2, 61, 5)
    assert (r.schneider, r.schwarz, r.overbid, r.ending) == (False, False, False, "played")
    assert r.breakdown == (("with", 2), ("game", 3))
    assert r.position_values == (33, 0, 0)
    assert len(g.tricks) == 10
    assert sum(g.points(p) for p in range(3)) + 0 == 120  # discards C9 C7 are worth 0


def test_phases_and_views_along_the_way() -> None:
    g = game_from_tokens(DEAL1, "1 p 2 p 0 18")
    assert g.phase == Phase.SKAT and g.declarer == 0 and g.skat == parse_mask("C7 SA")
    g.push(TakeSkat(0))
    assert g.phase == Phase.DISCARD and g.hand(0).bit_count() == 12 and g.skat == 0
    g.push(Discard(0, Card.C9))
    g.push(Declare(0, Contract.parse("S")))
    assert g.phase == Phase.DISCARD
    g.push(Discard(0, Card.C7))
    assert g.phase == Phase.PLAY and g.to_act == 0 and g.skat == parse_mask("C9 C7")
    assert g.contract == Contract.parse("S") and g.skat_taken
    g.push(Play(0, Card.SJ))
    assert g.trick == (Card.SJ,) and g.to_act == 1 and g.trick_leader == 0
    assert g.legal_cards() == [Card.HJ, Card.DJ, Card.S9, Card.S7]


@pytest.mark.parametrize(
    "moves, action, message",
    [(AFTER_LEAD, Play(2, Card.CT), "rearhand must follow trumps: holds ST"),
     (AFTER_LEAD, Play(1, Card.S9), "it is rearhand's turn, not middlehand's"),
     (AFTER_LEAD, Play(2, Card.SA), "rearhand does not hold SA"),
     ("1 p 2 p 0 18", Play(0, Card.SJ), "no card can be laid now"),
     ("1 p 2 p 0 18", Declare(0, Contract.parse("S")), "take it up first"),
     ("1 p 2 p 0 18", Declare(1, Contract.parse("SH")), "forehand's turn, not middlehand's"),
     ("1 p 2 p 0 18 0 s", Declare(0, Contract.parse("SH")), "hand game is no longer possible"),
     ("1 p 2 p 0 18 0 s", Declare(0, Contract.parse("GS")), "schneider can only be announced"),
     ("1 p 2 p 0 18 0 s", Discard(0, Card.DJ), "forehand does not hold DJ"),
     ("1 p 2 p 0 18 0 s 0 C9 0 C7", Discard(0, Card.SA), "two cards are already in the skat"),
     ("1 p 2 p 0 18", TakeSkat(1), "forehand's turn, not middlehand's"),
     ("1 p 2 p 0 18", Bid(0, 20), "not now: the skat"),
     ("1 p 2 p 0 18", Concede(0), "during play only")],
)
def test_illegal_actions_say_why_and_change_nothing(moves: str, action: object,
                                                    message: str) -> None:
    g = game_from_tokens(DEAL1, moves)
    before = g.state_key()
    n = len(g.actions)
    with pytest.raises(IllegalAction, match=message):
        g.push(action)  # type: ignore[arg-type]
    assert g.state_key() == before and len(g.actions) == n


def test_must_follow_trumps_names_the_cards() -> None:
    # in spades HJ and DJ are trumps: middlehand must follow with them, not with HK
    g2 = game_from_tokens(DEAL1, "1 p 2 p 0 18 0 s 0 S 0 C9 0 C7 0 SQ")
    with pytest.raises(IllegalAction, match=r"middlehand must follow trumps: holds HJ, DJ, S9, S7"):
        g2.push(Play(1, Card.HK))


def test_null_jack_follows_its_suit() -> None:
    g = game_from_tokens(DEAL1, "1 p 2 p 0 18 0 s 0 N 0 C9 0 C7 0 SJ")
    with pytest.raises(IllegalAction, match="middlehand must follow spades: holds S9, S7"):
        g.push(Play(1, Card.DJ))
    g = game_from_tokens(DEAL1, "1 p 2 p 0 18 0 s 0 N 0 C9 0 C7 0 S8")
    assert g.legal_cards() == [Card.S9, Card.S7]  # SJ is a spade only in suit games


def test_plain_suit_lead_jack_is_not_that_suit() -> None:
    # grand: a heart is led; middlehand's HJ is a trump, so he must follow with HK, HQ, H8
    g = game_from_tokens(DEAL1, "1 p 2 p 0 18 0 s 0 G 0 C9 0 C7 0 DK 1 D8 2 DA 2 HA 0 SJ")
    with pytest.raises(IllegalAction, match="middlehand must follow hearts: holds HK, HQ, H8"):
        g.push(Play(1, Card.HJ))


def test_null_below_the_bid_is_refused() -> None:
    g = game_from_tokens(DEAL1, "1 p 2 p 0 24 0 s")
    with pytest.raises(IllegalAction, match="worth 23, less than the bid 24"):
        g.push(Declare(0, Contract.parse("N")))
    g.push(Declare(0, Contract.parse("NO")))


def test_pop_undoes_back_to_the_deal() -> None:
    g = game_from_tokens(DEAL1, MOVES1)
    fresh = Game(Deal.from_iss(DEAL1))
    states = []
    replay = Game(Deal.from_iss(DEAL1))
    for a in g.actions:
        states.append(replay.state_key())
        replay.push(a)
    while g.actions:
        g.pop()
        assert g.state_key() == states[len(g.actions)]
    assert g.state_key() == fresh.state_key()
    with pytest.raises(IllegalAction, match="nothing to undo"):
        g.pop()


def test_json_round_trip() -> None:
    g = game_from_tokens(DEAL1, MOVES1[:80])
    h = Game.from_json(g.to_json())
    assert h.state_key() == g.state_key() and h.actions == g.actions
    assert Game.from_json(game_from_tokens(DEAL1, MOVES1).to_json()).result == \
        game_from_tokens(DEAL1, MOVES1).result


def test_json_with_an_illegal_action_says_which() -> None:
    d = game_from_tokens(DEAL1, "1 p 2 p").to_json()
    d["actions"].append({"type": "hold", "pos": 0})
    with pytest.raises(IllegalAction, match=r"action 3 .* is illegal: forehand must bid or pass"):
        Game.from_json(d)


def test_copy_is_independent() -> None:
    g = game_from_tokens(DEAL1, MOVES1[:80])
    h = g.copy()
    h.push(h.legal_actions()[0])
    assert len(h.actions) == len(g.actions) + 1
    h.pop()
    assert h.state_key() == g.state_key()


def test_forehand_alone_may_open() -> None:
    g = Game(Deal.from_iss(DEAL1))
    g.push(Pass(1))
    g.push(Pass(2))
    assert g.to_act == 0 and Bid(0, 18) in g.legal_actions() and Pass(0) in g.legal_actions()
    assert Hold(0) not in g.legal_actions()

"""The bidding: who says, who hears, ties, jumps, and passing in."""

from __future__ import annotations

import pytest

from engine.actions import Bid, Hold, IllegalAction, Pass
from engine.bidding import START, Bidding, reachable_states
from engine.deal import Deal
from engine.game import ISKO, Game, Phase, Rules


def play_bids(tokens: str, rules: Rules = ISKO) -> Game:
    """ISS-style bidding: "1 18 0 y 1 p 2 p" (position, then a value, y or p)."""
    g = Game(Deal.shuffled(1), rules)
    t = tokens.split()
    for pos, word in zip(t[0::2], t[1::2], strict=True):
        p = int(pos)
        g.push(Hold(p) if word == "y" else Pass(p) if word == "p" else Bid(p, int(word)))
    return g


@pytest.mark.parametrize(
    "tokens, declarer, bid",
    [("1 p 2 p 0 18", 0, 18),
     ("1 18 0 p 2 p", 1, 18),
     ("1 p 2 18 0 p", 2, 18),
     ("1 18 0 y 1 20 0 p 2 22 1 y 2 36 1 p", 2, 36),
     ("1 p 2 18 0 y 2 48 0 y 2 p", 0, 48),
     ("1 18 0 y 1 p 2 p", 0, 18),
     ("1 p 2 p 0 23", 0, 23)],
)
def test_bidding_sequences(tokens: str, declarer: int, bid: int) -> None:
    g = play_bids(tokens)
    assert g.phase == Phase.SKAT
    assert (g.declarer, g.bid, g.to_act) == (declarer, bid, declarer)


def test_middlehand_speaks_first_to_forehand() -> None:
    g = Game(Deal.shuffled(1))
    assert (g.to_act, g.bidder, g.listener, g.bid, g.next_bid) == (1, 1, 0, 0, 18)
    g.push(Bid(1, 18))
    assert (g.to_act, g.bid, g.next_bid) == (0, 18, 20)


def test_rearhand_bids_to_the_survivor() -> None:
    g = play_bids("1 18 0 p")
    assert (g.to_act, g.bidder, g.listener, g.bid) == (2, 2, 1, 18)
    assert g.passed == frozenset({0})


def test_jump_bid_and_tie_goes_to_the_listener() -> None:
    g = play_bids("1 48 0 y 1 p")  # forehand held 48: middlehand cannot win by saying it again
    assert g.bid == 48 and g.to_act == 2
    with pytest.raises(IllegalAction, match="48 is not higher than the current bid 48"):
        g.push(Bid(2, 48))


def test_all_passed_is_passed_in() -> None:
    g = play_bids("1 p 2 p 0 p")
    assert g.phase == Phase.FINISHED
    assert g.result is not None and g.result.passed_in and g.result.value == 0


@pytest.mark.parametrize(
    "tokens, action, message",
    [("", Bid(0, 18), "middlehand's turn to speak, not forehand's"),
     ("", Hold(1), "must bid or pass"),
     ("1 18", Bid(0, 20), "asked to hold 18 or pass"),
     ("1 18 0 y", Bid(1, 21), "21 is not a value that can be bid .the next legal value is 22"),
     ("1 20 0 y", Bid(1, 18), "18 is not higher than the current bid 20"),
     ("1 20 0 y", Bid(1, 300), "300 is not a value"),
     ("1 p 2 p 0 p", Bid(0, 18), "the game is over")],
)
def test_illegal_bids_are_refused_and_change_nothing(tokens: str, action: object,
                                                     message: str) -> None:
    g = play_bids(tokens) if tokens else Game(Deal.shuffled(1))
    before = g.state_key()
    with pytest.raises(IllegalAction, match=message):
        g.push(action)  # type: ignore[arg-type]
    assert g.state_key() == before


def test_legal_bids_listed() -> None:
    g = Game(Deal.shuffled(1))
    acts = g.legal_actions()
    assert acts[0] == Bid(1, 18) and acts[-1] == Pass(1) and len(acts) == 64
    g.push(Bid(1, 18))
    assert g.legal_actions() == [Hold(0), Pass(0)]


def test_every_link_is_the_checked_call() -> None:
    """The links tight loops follow are exactly what after_bid/after_hold/after_pass give."""
    states = reachable_states()
    assert START in states and len(states) == len(set(states))
    for b in states:
        if b.done:
            assert b.on_pass is None and b.on_hold is None and b.raises == ()
            continue
        p = b.to_act
        assert b.after_pass(p) is b.on_pass
        if p == b.bidder:
            assert b.on_hold is None
            assert tuple(s.bid for s in b.raises) == b.legal_bids()
            assert all(b.after_bid(p, s.bid) is s for s in b.raises)
        else:
            assert b.raises == () and b.after_hold(p) is b.on_hold
            with pytest.raises(IllegalAction, match="not to bid"):
                b.after_bid(p, 264)


def test_a_state_built_by_hand_follows_the_same_rules() -> None:
    b = Bidding(bid=20, bidder=2, listener=1, to_act=2, passed=frozenset({0}))
    after = b.after_bid(2, 22).after_pass(1)
    assert (after.done, after.declarer, after.bid) == (True, 2, 22)
    assert after is START.raises[1].on_pass.raises[0].on_pass
    assert Bidding(bid=17, to_act=0).after_hold(0).to_act == 1  # unreachable, still by the rules

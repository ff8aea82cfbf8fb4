"""PIMC's opening lead as a defender: not the ace of a side suit he holds four or more cards
of (engine.players.pimc.long_ace_lead). The position is one of the first trick's critical
defence positions of the decision record (rule player against XSkat, ``skat-table decisions
--seed 1600``) where PIMC before the rule led the ace and gave the game away."""

from __future__ import annotations

from fullrun import size

from engine.actions import Bid, Declare, Discard, Pass, Play, TakeSkat
from engine.cards import Card, parse_cards
from engine.contract import Contract
from engine.players import make_player
from engine.players.base import SeatView
from engine.players.decisions import Position, true_results
from engine.players.pimc import PimcPlayer, long_ace_lead


def _mask(text: str) -> int:
    return sum(1 << c for c in parse_cards(text))

# XSkat in rearhand took the skat, laid away ST and DK and plays clubs: with the four
# jacks and three more trumps he is void in spades, so forehand's SA is ruffed.
POSITION = Position(1600004816, (
    Pass(1), Bid(2, 18), Pass(0), TakeSkat(2), Discard(2, Card.DK), Discard(2, Card.ST),
    Declare(2, Contract.parse("C"))), 0)


def _lead(player: PimcPlayer) -> int:
    action = player.choose(POSITION.view())
    assert isinstance(action, Play)
    return int(action.card)


def test_the_position_is_the_recorded_one() -> None:
    g = POSITION.game()
    assert g.hands[0] == _mask("C8 CT CK S7 SQ SK SA D8 DQ DA")
    assert g.hands[2] == _mask("C7 C9 CJ CQ SJ H8 HJ HK D7 DJ")
    assert g.to_act == 0 and g.declarer == 2 and g.skat == _mask("ST DK")


def test_the_long_ace_is_not_led_and_the_lead_keeps_the_game() -> None:
    truth = true_results(POSITION)  # the real deal, solved exactly
    assert truth is not None
    assert not truth[Card.SA]  # the ace of the four spades gives the game away
    for seed in (1600004816 * 7 + 7, 1, 2)[:size(1, 3)]:
        before = _lead(PimcPlayer(seed=seed, worlds=12, workers=1, long_ace=True))
        now = _lead(PimcPlayer(seed=seed, worlds=12, workers=1))
        assert before == Card.SA  # what the worlds alone choose
        assert now != Card.SA and truth[now]


def test_only_a_defenders_opening_lead_of_a_long_side_ace() -> None:
    v = POSITION.view()
    assert long_ace_lead(v, Card.SA)  # four spades
    assert not long_ace_lead(v, Card.DA)  # three diamonds
    assert not long_ace_lead(v, Card.S7)  # not an ace
    # the declarer's own lead, a later trick, a follow: the rule does not apply
    g = POSITION.game()
    g.push(Play(0, Card.DA))
    assert not long_ace_lead(SeatView.of(g, 1), Card.HA)


def test_the_harness_name_keeps_the_player_before() -> None:
    p = make_player("pimc+longace", seed=1, worlds=2, workers=1)
    assert isinstance(p, PimcPlayer) and p.long_ace and p.name == "pimc+longace"
    assert not PimcPlayer(seed=1, worlds=2, workers=1).long_ace

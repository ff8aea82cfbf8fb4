"""The computer's reasons: the game a bid limit was counted on ("with/without N", hand,
grand, null), why a game was declared, why Kontra or Re; and that a bid limit is given only
once no person can use it in the bidding."""

from __future__ import annotations

import pytest

from engine.actions import Bid, Declare, Hold, Kontra, Pass, Re
from engine.cards import parse_mask
from engine.contract import Contract
from engine.deal import Deal
from engine.game import Game, Rules
from engine.players import evaluate as ev
from engine.players.reasons import (
    BidNote,
    counted_game,
    double_reason,
    game_reason,
    limit_reason,
    table_reasons,
)
from engine.players.rule import RulePlayer

CLUBS, SPADES, HEARTS, GRAND, NULL = 0, 1, 2, 4, 5


@pytest.mark.parametrize(("cards", "limit", "game", "matadors", "hand"), [
    ("C9 CJ CK SJ SQ SK HA D7 DT DJ", 36, CLUBS, 2, False),        # clubs with 2
    ("SJ HJ SA ST S9 S8 S7 HA D7 D8", 22, SPADES, -1, False),      # spades without 1
    ("SJ HJ SA ST S9 S8 S7 HA D7 D8", 33, SPADES, -1, True),       # the same, hand
    ("CJ SJ HJ DJ CA CT SA ST H7 D7", 120, GRAND, 4, False),        # grand with 4
    ("C7 C8 C9 S7 S8 H7 H8 H9 D7 D8", 23, NULL, None, False),      # null
    ("C7 C8 C9 S7 S8 H7 H8 H9 D7 D8", 35, NULL, None, True),       # null hand
])
def test_a_bid_limit_names_the_game_it_was_counted_on(cards: str, limit: int, game: int,
                                                      matadors: int | None,
                                                      hand: bool) -> None:
    r = limit_reason(1, parse_mask(cards), limit, passed_at=None)
    assert (r.kind, r.game, r.matadors, r.hand, r.limit) == ("limit", game, matadors, hand,
                                                               limit)


def test_nothing_to_bid_and_a_limit_short_of_any_value() -> None:
    weak = parse_mask("C7 S8 S9 HQ H9 D7 D8 DK CT SK")
    assert limit_reason(2, weak, 0, passed_at=18).game is None
    # 18 bid on a hand nearly safe (the opening bid): not diamonds "with 1" (worth 18, with
    # one diamond), but the best counted game that reaches it
    hand = parse_mask("CJ CA CT C9 C8 S7 S8 H7 HK D7")
    g, is_hand = counted_game(hand, 18)
    assert not is_hand and g != 3 and ev.game_value(hand, g) >= 18
    assert ev.suit_strength(hand, g) == max(ev.suit_strength(hand, s) for s in range(4))


def test_the_rule_players_own_limits_are_named_by_a_game_worth_them() -> None:
    """Whatever the limit, the game named is worth it at the level named (or, for a null,
    the null is): the reason never names a game the limit could not come from."""
    import random

    rng = random.Random(5)
    p = RulePlayer()
    checked = 0
    for _ in range(300):
        cards = rng.sample(range(32), 10)
        hand = sum(1 << c for c in cards)
        limit = p.bid_limit(hand, False)
        if not limit:
            continue
        r = limit_reason(1, hand, limit)
        if r.game == NULL:
            assert limit in (23, 35, 46, 59)
        else:
            level = abs(r.matadors) + 1 + r.hand
            assert ev.BASE_VALUES[r.game] * level >= limit or ev.BASE_VALUES[r.game] * 2 == limit
        checked += 1
    assert checked > 30


def test_why_a_game_was_declared() -> None:
    grand = game_reason(0, parse_mask("CJ SJ HJ CA C9 C8 SA S7 H7 D7"), Contract.parse("G"))
    assert (grand.jacks, grand.aces, grand.trumps) == (3, 2, None)
    hearts = game_reason(0, parse_mask("HJ DJ HA HT HK H9 H8 SA C7 D8"), Contract.parse("H"))
    assert (hearts.trumps, hearts.aces, hearts.hand) == (7, 1, False)
    assert game_reason(0, parse_mask("HJ DJ HA HT HK H9 H8 SA C7 D8"),
                       Contract.parse("HH")).hand
    null = game_reason(0, parse_mask("C7 C9 CJ S7 S9 H7 H8 D7 D8 D9"), Contract.parse("N"))
    assert null.unsafe == 0
    risky = game_reason(0, parse_mask("C7 C9 CJ S8 S9 H7 H8 D7 D8 D9"), Contract.parse("N"))
    assert risky.unsafe == 1


def test_why_kontra_and_re() -> None:
    k = double_reason(1, parse_mask("HJ DJ C7 SA S7 S8 H7 H8 D9 DA"), Contract.parse("C"),
                      "kontra")
    assert (k.call, k.game, k.trumps, k.aces) == ("kontra", CLUBS, 3, 2)
    re = double_reason(0, parse_mask("CJ SJ CA CT CK C9 C8 HA D7 D8"), Contract.parse("C"),
                       "re")
    assert (re.call, re.trumps, re.aces) == ("re", 7, 1)
    null = double_reason(1, parse_mask("HJ DJ C7 SA S7 S8 H7 H8 D9 DA"), Contract.parse("N"),
                         "kontra")
    assert (null.trumps, null.aces, null.unsafe) == (None, None, None)


FORE = parse_mask("CJ SJ CA CT CK C9 C8 HA D7 D8")
MIDDLE = parse_mask("HJ DJ C7 SA S7 S8 H7 H8 D9 DA")
SKAT = parse_mask("S9 H9")


def game() -> Game:
    rest = [c for c in range(32) if not (FORE | MIDDLE | SKAT) >> c & 1]
    assert len(rest) == 10
    return Game(Deal((FORE, MIDDLE, sum(1 << c for c in rest)), SKAT),
                Rules(kontra_re=True))


def test_a_bid_limit_waits_until_no_person_can_use_it() -> None:
    notes = {1: BidNote(18, 20), 2: BidNote(0, 20)}
    g = game()
    g.push(Bid(1, 18))
    g.push(Hold(0))
    g.push(Pass(1))
    # middlehand (a computer) is out, but rearhand, a person, still bids: nothing yet
    assert table_reasons(g, (1,), notes) == ()
    # with both others computers, the person in forehand is still in: nothing either
    assert table_reasons(g, (1, 2), notes) == ()
    g.push(Pass(2))  # the bidding is over: forehand has it at 18
    shown = table_reasons(g, (1, 2), notes)
    assert [(r.pos, r.kind, r.passed_at) for r in shown] == [(1, "limit", 20),
                                                             (2, "limit", 20)]


def test_only_computers_left_in_the_bidding_may_hear_it() -> None:
    g = game()
    g.push(Bid(1, 18))
    g.push(Pass(0))  # the person in forehand is out
    notes = {1: BidNote(22, 20)}
    # middlehand (a computer) is still in: its own limit is not shown while it bids
    assert table_reasons(g, (1, 2), notes) == ()


def test_the_computer_declarer_and_its_kontra_and_re() -> None:
    g = game()
    g.push(Bid(1, 18))
    g.push(Hold(0))
    g.push(Pass(1))
    g.push(Pass(2))
    notes = {0: BidNote(48, 20), 1: BidNote(18, 20)}
    assert [r.kind for r in table_reasons(g, (0, 1), notes)] == ["limit", "limit"]
    g.push(Declare(0, Contract.parse("CH")))
    g.push(Kontra(1))
    g.push(Re(0))
    shown = table_reasons(g, (0, 1), notes)
    kinds = [(r.pos, r.kind, r.call) for r in shown]
    assert kinds == [(0, "limit", None), (1, "limit", None), (0, "game", None),
                     (1, "double", "kontra"), (0, "double", "re")]
    winner = shown[0]
    assert (winner.passed_at, winner.game, winner.matadors) == (None, GRAND, 2)
    declared = shown[2]
    assert (declared.contract, declared.trumps, declared.aces, declared.hand) == (
        "CH", 7, 1, True)
    assert (shown[3].trumps, shown[3].aces) == (3, 2)
    # a person's declaration and doubling have no reason
    assert [r.kind for r in table_reasons(g, (2,), {})] == []

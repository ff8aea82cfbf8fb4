"""Hand evaluation: the numbers the rule player and PIMC bid and declare with."""

from __future__ import annotations

import random

from engine.cards import JACKS, mask_points, parse_mask
from engine.players import evaluate as ev
from engine.players.rule import choose_game
from engine.trick import TRUMPS
from engine.trick import matadors as engine_matadors


def test_matadors_and_trumps_are_the_engines() -> None:
    rng = random.Random(1)
    for _ in range(200):
        cards = rng.getrandbits(32)
        for g in range(6):
            assert ev.matadors(cards, g) == engine_matadors(cards, g)
            assert ev.trump_mask(g) == TRUMPS[g]


def test_strong_hands_bid_higher_than_weak_ones() -> None:
    strong = parse_mask("CJ SJ HJ DJ CA CT CK SA ST HA")
    weak = parse_mask("C7 C8 S9 SQ H8 HK D7 D9 DQ HQ")
    assert ev.bid_limit(strong) >= 96  # grand with four: 24 x 5
    assert ev.bid_limit(weak) == 0
    assert ev.best_contract(strong).game == ev.GRAND


def test_null_hands_are_recognised() -> None:
    safe = parse_mask("C7 C9 S7 S9 SJ H7 H8 D7 D8 D9")
    unsafe = parse_mask("CA CK SA SK HA HK DA DK DQ CQ")
    assert ev.null_strength(safe) == 10
    assert ev.null_strength(unsafe) < 8.5


def test_discard_keeps_ten_cards_and_the_trumps() -> None:
    rng = random.Random(2)
    for _ in range(200):
        cards = list(range(32))
        rng.shuffle(cards)
        twelve = sum(1 << c for c in cards[:12])
        for g in range(6):
            away = ev.discard(twelve, g)
            assert away.bit_count() == 2 and away & twelve == away
            side = twelve & ~TRUMPS[g]
            if g < ev.NULL and side.bit_count() >= 2:
                assert away & TRUMPS[g] == 0  # trumps stay while side cards can go
            if g < ev.NULL and side.bit_count() >= 2:
                assert away & JACKS == 0


def test_discard_puts_away_a_lone_ten() -> None:
    twelve = parse_mask("CJ SJ HJ HA HT HK HQ H9 H8 ST CA C7")
    away = ev.discard(twelve, 2)  # hearts
    assert mask_points(away) >= 10  # the lone spade ten is the catchable card


def test_the_declared_game_reaches_the_bid_when_any_does() -> None:
    cards = parse_mask("CJ SJ CA CT CK C9 C8 SA HA H7 D7 D8")
    # clubs with 2 = 36; spades/hearts/diamonds do not reach; grand with 2 (72) does
    assert choose_game(cards, bid=36, style=ev.Style.legacy()) == 0
    g = choose_game(cards, bid=36)
    assert g in (0, ev.GRAND)
    assert ev.game_value(cards, g) >= 36

"""Card-play inference (engine.players.clues) and the declarer's hand weight of PIMC's
sampler (``pimc+infer``)."""

from __future__ import annotations

import random
import statistics

from engine.actions import Play
from engine.cards import Card, mask_to_str, parse_mask
from engine.contract import GameType
from engine.deal import Deal
from engine.players import evaluate as ev
from engine.players import make_player
from engine.players.base import SeatView
from engine.players.clues import CARD_MISFIT, DISCARD_FIT, clue_weight, discard_weight, trick_clues
from engine.players.rule import RulePlayer
from engine.players.strength import fixed_start
from engine.players.worlds import declarer_fit, knowledge_of, sample_world

ALL = 0xFFFFFFFF


def _clues(trick: tuple[Card, ...], game: GameType, declarer: int, leader: int = 0,
           unknown: int = ALL) -> list[tuple[int, str, str]]:
    return [(p, mask_to_str(m), k)
            for p, m, k in trick_clues((trick,), (leader,), game, declarer, unknown)]


def test_a_follower_who_loses_gives_the_fewest_points() -> None:
    # the declarer (0) leads the king of spades; 1 follows with the queen and loses: he
    # held no seven, eight or nine of spades (the ten and ace would have taken it)
    got = _clues((Card.SK, Card.SQ), GameType.HEARTS, declarer=0)
    assert got == [(1, "S7 S8 S9", "lowest")]


def test_nobody_lets_the_other_side_keep_a_fat_trick() -> None:
    got = _clues((Card.CT, Card.C7, Card.C8), GameType.HEARTS, declarer=0)
    assert (1, "CA", "fat") in got and (2, "CA", "fat") in got
    # void in clubs and not trumping a fat trick: no trump that beats it
    got = _clues((Card.CT, Card.C7, Card.D7), GameType.HEARTS, declarer=0)
    fat = [m for p, m, k in got if p == 2 and k == "fat"]
    assert fat and set(fat[0].split()) == {"CJ", "SJ", "HJ", "DJ", "H7", "H8", "H9", "HQ",
                                           "HK", "HT", "HA"}


def test_a_defender_gives_his_partners_trick_a_ten() -> None:
    # 1 leads the ace of diamonds, the declarer (2) follows, 0 lays the seven: no ten of
    # diamonds with him (the ace is on the table)
    got = _clues((Card.DA, Card.D8, Card.D7), GameType.CLUBS, declarer=2, leader=1,
                 unknown=ALL & ~parse_mask("DA D8 D7"))
    assert (0, "DT", "schmier") in got


def test_a_defender_leads_his_ace_first() -> None:
    assert _clues((Card.HK,), GameType.CLUBS, declarer=0, leader=1) == [(1, "HA", "lead")]
    assert _clues((Card.HK,), GameType.CLUBS, declarer=1, leader=1) == []  # the declarer
    assert _clues((Card.CK,), GameType.CLUBS, declarer=0, leader=1) == []  # a trump


def test_no_clue_in_null_from_skipped_seats_or_about_known_cards() -> None:
    assert _clues((Card.SK, Card.SQ), GameType.NULL, declarer=0) == []
    assert trick_clues(((Card.SK, Card.SQ),), (0,), GameType.HEARTS, 0, ALL, skip=(1,)) == ()
    # the cards this seat can see are no clue
    assert _clues((Card.SK, Card.SQ), GameType.HEARTS, 0,
                  unknown=ALL & ~parse_mask("S7 S8 S9")) == []


def test_a_clue_the_player_contradicted_later_is_dropped() -> None:
    # 1 gave the queen, and later laid the seven of spades: he does not play by that habit
    tricks = ((Card.SK, Card.SQ, Card.S8), (Card.HA, Card.S7, Card.H7))
    got = trick_clues(tricks, (0, 0), GameType.HEARTS, 0, ALL)
    assert not [c for c in got if c[0] == 1 and c[2] == "lowest"]


def test_clue_weight_multiplies_per_clue_contradicted() -> None:
    clues = ((1, parse_mask("CA"), "fat"), (2, parse_mask("S7"), "lowest"))
    assert clue_weight([0, 0, 0], clues) == 1.0
    assert clue_weight([0, parse_mask("CA"), parse_mask("S7 S8")], clues) == (
        CARD_MISFIT["fat"] * CARD_MISFIT["lowest"])


def _defender_view() -> SeatView:
    """A defender's view after three tricks of a rule players' suit game."""
    for seed in range(40):
        g = fixed_start(Deal.shuffled(seed), seed)
        if g is None or int(g.contract.game) > 3 or g.contract.hand:  # type: ignore[union-attr]
            continue
        players = [RulePlayer(seed + p) for p in range(3)]
        while len(g.tricks) < 3:
            g.push(players[g.to_act].choose(SeatView.of(g, g.to_act)))  # type: ignore[index]
        me = (g.declarer + 1) % 3  # type: ignore[operator]
        if g.to_act == me:
            return SeatView.of(g, me)
    raise AssertionError("no suit game found")


def test_the_declarer_weight_prefers_hands_that_declare_the_game() -> None:
    v = _defender_view()
    legal = [int(a.card) for a in v.legal if isinstance(a, Play)]
    k = knowledge_of(v, legal, 1, inference=True)
    weak = parse_mask("S7 S8 H7 H8 D7 D8 C7 C8 S9 H9")  # no trump worth the name
    strong = ev.trump_mask(k.game) | parse_mask("SA HA DA")
    hands = [0, 0, 0]
    hands[k.declarer] = weak
    w_weak = declarer_fit(k, hands)
    hands[k.declarer] = strong & ~k.played_by[k.declarer]
    assert w_weak < 0.1 and declarer_fit(k, hands) == 1.0


def test_inference_gives_the_declarer_stronger_hands_in_the_worlds() -> None:
    v = _defender_view()
    legal = [int(a.card) for a in v.legal if isinstance(a, Play)]
    margins = {}
    for infer in (False, True):
        k = knowledge_of(v, legal, 1, inference=infer)
        assert bool(k.weigh_declarer) == infer
        rng = random.Random(5)
        d = k.declarer
        margins[infer] = statistics.fmean(
            ev.suit_strength(sample_world(k, rng)[0][d] | k.played_by[d], k.game)
            for _ in range(60))
    assert margins[True] > margins[False] + 1.0


def test_pimc_infer_is_a_harness_player() -> None:
    p = make_player("pimc+infer", worlds=2, workers=1)
    assert p.name == "pimc+infer" and p.inference  # type: ignore[attr-defined]
    assert not make_player("pimc", worlds=2, workers=1).inference  # type: ignore[attr-defined]
    d = make_player("pimc+discard", worlds=2, workers=1)
    assert d.name == "pimc+discard" and d.discard  # type: ignore[attr-defined]
    assert not make_player("pimc", worlds=2, workers=1).discard  # type: ignore[attr-defined]


def test_the_discard_weight_keeps_trumps_and_aces_with_the_declarer() -> None:
    ten = parse_mask("CJ SJ HJ CA CT CK CQ C9 HA HK")  # clubs; hearts: ace and king
    void_spades = discard_weight(parse_mask("ST S7"), ten, GameType.CLUBS)
    beside = discard_weight(parse_mask("HT H7"), ten, GameType.CLUBS)
    assert void_spades == 0.9 and beside == DISCARD_FIT["ten"][2] * DISCARD_FIT["low"][2]
    assert discard_weight(parse_mask("DJ S7"), ten, GameType.CLUBS) < 0.01
    assert discard_weight(parse_mask("DA S7"), ten, GameType.CLUBS) < 0.05


def test_the_discard_puts_no_trumps_in_a_defenders_sampled_skat() -> None:
    v = _defender_view()
    assert v.skat_taken
    legal = [int(a.card) for a in v.legal if isinstance(a, Play)]
    trumps = ev.trump_mask(int(v.game_type))  # type: ignore[arg-type]
    in_skat = {}
    for discard in (False, True):
        k = knowledge_of(v, legal, 1, discard=discard)
        assert k.weigh_discard == discard
        rng = random.Random(5)
        worlds = [sample_world(k, rng) for _ in range(100)]
        in_skat[discard] = sum((skat & trumps).bit_count() for _, skat in worlds)
        for hands, skat in worlds:  # the declarer keeps his voids; every card has one place
            d = k.declarer
            assert not hands[d] & k.voids[d]
            assert hands[0] | hands[1] | hands[2] | skat | v.played == ALL
    assert in_skat[False] >= 10 and in_skat[True] <= in_skat[False] // 5


def test_no_discard_weight_for_the_declarer_or_a_hand_game() -> None:
    v = _defender_view()
    legal = [int(a.card) for a in v.legal if isinstance(a, Play)]
    assert knowledge_of(v, legal, 1, discard=True).weigh_discard
    g = fixed_start(Deal.shuffled(0), 0)
    assert g is not None
    d = g.declarer
    assert d is not None
    vd = SeatView.of(g, d)
    assert not knowledge_of(vd, [0], 1, discard=True).weigh_discard

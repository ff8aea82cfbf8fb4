"""Hints for learners: the computer player's own choice from the seat's own view, never the
open cards, with a reason only where it is true."""

from __future__ import annotations

import random

import pytest

from engine.actions import Declare, Play, TakeSkat
from engine.cards import RANK_POINTS, Rank
from engine.deal import Deal
from engine.game import Game, Phase
from engine.players.base import SeatView
from engine.players.hints import REASONS, HintError, hint
from engine.players.rule import RulePlayer
from engine.trick import TRUMPS, trick_winner


def positions(count: int, seed: int):
    """Random points of rule-played games (every phase), with the game there."""
    rng = random.Random(seed)
    out = []
    s = seed
    while len(out) < count:
        g = Game(Deal.shuffled(s))
        s += 1
        stop = rng.randrange(1, 45)
        while g.result is None and len(g.actions) < stop:
            g.push(RulePlayer(0).choose(SeatView.of(g, g.to_act)))
        if g.result is None and g.to_act is not None:
            out.append(g)
    return out


def test_the_hint_is_the_computer_players_choice_and_legal() -> None:
    for g in positions(150, seed=1):
        h = hint(g, g.to_act)
        assert h.action in g.legal_actions()
        assert h.action == RulePlayer(0).choose(SeatView.of(g, g.to_act))
        assert h.reason is None or h.reason in REASONS


def test_reasons_are_true_of_the_card() -> None:
    seen = set()
    for g in positions(400, seed=2):
        h = hint(g, g.to_act)
        seen.add(h.reason)
        if not isinstance(h.action, Play):
            continue
        c = int(h.action.card)
        gt = int(g.game_type)
        trumps = TRUMPS[gt]
        pos = g.to_act
        if h.reason == "draw-trumps":
            assert pos == g.declarer and not g.trick and trumps >> c & 1
        elif h.reason == "cash-ace":
            assert not g.trick and c & 7 == Rank.ACE and not trumps >> c & 1
        elif h.reason == "take-trick":
            cards = [*map(int, g.trick), c]
            assert (g.trick_leader + trick_winner(cards, gt)) % 3 == pos
        elif h.reason == "give-points":
            assert RANK_POINTS[c & 7] >= 10 and len(g.trick) == 2
        elif h.reason == "cheapest":
            legal = [int(a.card) for a in g.legal_actions() if isinstance(a, Play)]
            assert RANK_POINTS[c & 7] == min(RANK_POINTS[x & 7] for x in legal)
        elif h.reason == "keep-guard":
            lead = int(g.trick[0])
            assert not any(a.card == lead for a in g.legal_actions() if isinstance(a, Play))
    assert {"draw-trumps", "take-trick", "cheapest", "worth", "too-weak"} <= seen


def test_the_hint_does_not_see_the_other_hands() -> None:
    """At the first lead of a hand game, every deal of the cards the seat has not seen to the
    other hands and the skat gives the same hint (the declarer's view: the defenders'
    hands swapped; a defender's: all unseen cards dealt again)."""
    rng = random.Random(5)
    checked = 0
    s = 0
    while checked < 25:
        s += 1
        g = Game(Deal.shuffled(s))
        while g.result is None and g.phase != Phase.PLAY:
            a = RulePlayer(0).choose(SeatView.of(g, g.to_act))
            if isinstance(a, TakeSkat):  # hand games only: nobody has seen the skat
                hand = [x for x in g.legal_actions()
                        if isinstance(x, Declare) and x.contract.hand and not x.contract.ouvert]
                a = hand[0]
            g.push(a)
        if g.result is not None:
            continue
        pos = g.to_act
        h = hint(g, pos)
        hands = list(g.deal.hands)
        unseen = [c for c in range(32) if not hands[pos] >> c & 1]
        rng.shuffle(unseen)
        others = [p for p in range(3) if p != pos]
        new = list(hands)
        new[others[0]] = sum(1 << c for c in unseen[:10])
        new[others[1]] = sum(1 << c for c in unseen[10:20])
        skat = sum(1 << c for c in unseen[20:])
        g2 = Game(Deal(hands=tuple(new), skat=skat))
        g2.replay(list(g.actions))
        assert SeatView.of(g2, pos).hand == SeatView.of(g, pos).hand
        assert hint(g2, pos) == h
        checked += 1


def test_no_hint_out_of_turn_or_after_the_game() -> None:
    g = Game(Deal.shuffled(3))
    with pytest.raises(HintError, match="turn"):
        hint(g, (g.to_act + 1) % 3)
    while g.result is None:
        g.push(RulePlayer(0).choose(SeatView.of(g, g.to_act)))
    with pytest.raises(HintError, match="over"):
        hint(g, 0)


def test_the_bidding_reason_carries_the_limit_the_player_bid_by() -> None:
    from engine.actions import Bid, Hold, Pass

    checked = 0
    for s in range(200):
        g = Game(Deal.shuffled(s))
        while g.phase == Phase.BIDDING:
            h = hint(g, g.to_act)
            bid = h.action.value if isinstance(h.action, Bid) else g.bid
            if isinstance(h.action, Bid | Hold):
                assert h.reason == "worth" and h.value is not None and h.value >= bid
                checked += 1
            elif isinstance(h.action, Pass):
                assert h.reason == "too-weak" and h.value is not None
                assert h.value < (g.next_bid or 0) or g.bid >= h.value
            g.push(h.action)
    assert checked > 50

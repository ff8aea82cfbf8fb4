"""Playouts of sampled worlds: a card judged by imperfect-information play, not double-dummy.

PIMC solves each sampled world double-dummy, as if the partner and the declarer saw every
card; on the first trick that is where its errors are (docs/players.md, "Limits"). Furtak
and Buro's *imperfect-information Monte Carlo* (IIMC; "Recursive Monte Carlo Search for
Imperfect Information Games", IEEE CIG 2013, measured on Skat) values a world instead by
playing it out with every seat deciding from its own information with a fast policy. Here
the policy is the rule player (:class:`~engine.players.rule.RulePlayer`), and the world is a
real :class:`~engine.game.Game` (:func:`world_game`): the engine referees the playout and
every seat's :class:`~engine.players.base.SeatView` of it is what that seat would see at the
table in that world.

>>> from engine.deal import Deal
>>> from engine.game import Game
>>> from engine.players.base import SeatView
>>> from engine.players.rule import RulePlayer
>>> g = Game(Deal.shuffled(3))
>>> rule = RulePlayer(1)
>>> while g.phase != "play" and g.result is None:
...     g.push(rule.choose(SeatView.of(g, g.to_act)))
>>> view = SeatView.of(g, g.to_act)
>>> w = world_game(view, list(g.hands), g.skat)
>>> w.hands == g.hands and w.contract == g.contract and w.to_act == g.to_act
True
>>> card = int(next(a for a in view.legal if a.kind == "play").card)
>>> playout(w, card, [RulePlayer(0)] * 3, view.pos) in (True, False)
True
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence

from engine.actions import Declare, Discard, Play, TakeSkat
from engine.cards import Card, mask_points
from engine.contract import GameType
from engine.deal import Deal
from engine.game import Game, Phase
from engine.players.base import SeatView
from engine.players.rule import RulePlayer
from engine.players.worlds import Knowledge, sample_world
from engine.trick import FOLLOW


def world_game(view: SeatView, hands: Sequence[int], skat: int) -> Game:
    """The game of ``view`` as it would stand in a world where the hands now are ``hands``
    and the skat (the declarer's discards, or the untouched skat of a hand game) ``skat``.

    The world's deal gives each position its hand and the cards it laid; the declarer who
    took the skat is dealt his present cards and picks up and lays away ``skat`` (the
    cards he really picked up are unknown to the others, and no card-play decision depends
    on them). Bidding, contract and the cards laid are replayed through the engine.
    """
    d = view.declarer
    if d is None or view.contract is None:
        raise ValueError("a world needs a declared game")
    played = [0, 0, 0]
    plays: list[Play] = []
    for t in view.tricks:
        for i, c in enumerate(t.cards):
            p = (t.leader + i) % 3
            played[p] |= 1 << int(c)
            plays.append(Play(p, Card(int(c))))
    for i, c in enumerate(view.trick):
        p = (view.trick_leader + i) % 3
        played[p] |= 1 << c
        plays.append(Play(p, Card(c)))
    dealt = tuple(hands[p] | played[p] for p in range(3))
    g = Game(Deal((dealt[0], dealt[1], dealt[2]), skat), view.rules)
    for a in view.bidding:
        g.push(a)
    if view.skat_taken:
        g.push(TakeSkat(d))
        for c in range(32):
            if skat >> c & 1:
                g.push(Discard(d, Card(c)))
    g.push(Declare(d, view.contract))
    for a in plays:
        g.push(a)
    return g


def playout(game: Game, card: int, players: Sequence[RulePlayer], me: int,
            goal: int | None = None) -> bool:
    """Does ``me``'s side reach its goal when ``me`` lays ``card`` in ``game`` (a world,
    left as it was) and every seat then plays on with ``players[p]``, deciding from its
    own :class:`SeatView` of the world (as ``SeatView.of`` builds it, but for ``legal``,
    which the rule player's card play takes as a mask)?

    The goal is the contract's (61, or 90 with schneider announced, every trick with
    schwarz; the null declarer takes no trick), or ``goal`` points for the declarer. The
    playout stops as soon as the goal is settled.
    """
    d = game.declarer
    contract = game.contract
    if d is None or contract is None:
        raise ValueError("a playout needs a declared game")
    g = game.copy()
    follow = FOLLOW[g.game_type]
    # each seat's view is its view at the start with what changes in play replaced (the
    # full SeatView.of took half of a playout's time); voids are kept as the cards fall
    base = [SeatView.of(g, p) for p in range(3)]
    voids = list(base[0].voids)
    if g.trick and not follow[g.trick[0]] >> card & 1:
        voids[me] |= follow[g.trick[0]]
    g.push(Play(me, Card(card)))
    null = g.game_type == GameType.NULL
    all_tricks = contract.schwarz and goal is None
    need = goal if goal is not None else 90 if contract.schneider else 61
    skat_points = 0 if null else mask_points(g.skat)
    while g.phase == Phase.PLAY:
        if not g.trick:  # a trick was completed: is the goal settled?
            if null:
                if g.ntricks[d]:
                    break
            elif all_tricks:
                if len(g.tricks) > g.ntricks[d]:
                    break
            else:
                mine = mask_points(g.won[d]) + skat_points
                theirs = sum(mask_points(g.won[p]) for p in range(3) if p != d)
                if mine >= need or 120 - theirs < need:
                    break
        pos = g.to_act
        assert pos is not None
        legal = g._legal_mask()
        if legal.bit_count() > 1:
            h = g.hands
            # dataclasses.replace without its checks (a fifth of a playout's time)
            view = object.__new__(SeatView)
            view.__dict__.update(base[pos].__dict__)
            view.__dict__.update(
                to_act=pos, hand=h[pos], tricks=g.tricks, trick=tuple(int(x) for x in g.trick),
                trick_leader=g.trick_leader, won=g.won, voids=(voids[0], voids[1], voids[2]),
                hand_sizes=(h[0].bit_count(), h[1].bit_count(), h[2].bit_count()), legal=(),
                open_hand=None if base[pos].open_hand is None else h[d])
            c = players[pos].card(view, legal)
        else:
            c = legal.bit_length() - 1
        if g.trick and not follow[g.trick[0]] >> c & 1:
            voids[pos] |= follow[g.trick[0]]
        g.push(Play(pos, Card(c)))
    if null:
        reached = not g.ntricks[d]
    elif all_tricks:
        reached = g.ntricks[d] == len(g.tricks)
    else:
        reached = mask_points(g.won[d]) + skat_points >= need
    return reached == (me == d)


def playout_scores(view: SeatView, hands: Sequence[int], skat: int, cards: Sequence[int],
                   seed: int = 0) -> list[bool]:
    """For each of ``cards``: does this seat's side reach its goal in the world
    (``hands``, ``skat``) when the card is laid and the rule players play the rest?"""
    g = world_game(view, hands, skat)
    players = [RulePlayer(seed + p) for p in range(3)]
    return [playout(g, c, players, view.pos) for c in cards]


def playout_wins(view: SeatView, k: Knowledge, indices: Sequence[int],
                 deadline: float | None = None) -> tuple[list[int], int]:
    """The worlds (by index, sampled as PIMC samples them) in which each candidate of ``k``
    reaches this seat's goal when played out by the rule players, and the number of worlds
    played out (fewer than ``indices`` when ``deadline`` passed; the first is always
    played out)."""
    wins = [0] * len(k.candidates)
    n = 0
    for i in indices:
        if n and deadline is not None and time.monotonic() >= deadline:
            break
        hands, skat = sample_world(k, random.Random(f"{k.seed}:{i}"))
        for j, r in enumerate(playout_scores(view, hands, skat, k.candidates, seed=i)):
            wins[j] += r
        n += 1
    return wins, n

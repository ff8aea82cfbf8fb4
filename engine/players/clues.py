"""Card-play inference: what the cards a player laid say about the cards he still holds.

PIMC samples the hidden hands uniformly among those that fit the hard facts (cards played,
suits shown void, the bidding). Players do not lay cards at random, though, and a few habits
hold for nearly every sensible player (XSkat's, the rule player's, people's):

- ``lowest``: a player who follows suit to a trick the other side holds, and does not take
  it, gives the fewest points he can. If he laid a king, he probably held no seven, eight,
  nine or queen of that suit that would have lost as well.
- ``fat``: a player who lets the other side keep a trick already worth 10 points or more,
  when he could have taken it (a higher card of the suit, or a trump when void), is rare: a
  defender who did not lay the ace on the declarer's ten probably has no ace there.
- ``schmier``: a defender last to a trick his partner holds gives it a ten or an ace of the
  suit if he has one (when void: a ten of another plain suit, ``schmier-void``).
- ``lead``: a defender who leads a plain suit with another card than its ace has no ace.

Each observation becomes a *clue* ``(pos, cards, kind)``: a world where ``pos`` holds any of
``cards`` now fits his play less. The sampler weighs such a world by ``CARD_MISFIT[kind]``
for each clue it contradicts (:func:`clue_weight`). A clue whose cards the player is known to
have held (he laid one later) is dropped: his play was not of this kind. Null has no points,
so no clue is taken there.

Calibration (XSkat's play, 300 games of the position record of docs/players.md): of the
``lowest`` clues about defenders 15 % were wrong in the real deal against 49 % in uniformly
sampled worlds; ``lead`` 13 % against 39 %; ``fat``, ``schmier`` and ``lowest`` about the
declarer never (against 17-48 %). The weights are those likelihood ratios, rounded.

>>> from engine.cards import Card, mask_to_str, parse_mask
>>> from engine.contract import GameType
>>> t = ((Card.HT, Card.H9, Card.H7),)          # leader 0 leads the ten of hearts
>>> clues = trick_clues(t, (0,), GameType.CLUBS, declarer=0, unknown=parse_mask("HA HK"))
>>> [(p, mask_to_str(m), kind) for p, m, kind in clues]   # nobody took it with the ace
[(1, 'HA', 'fat'), (2, 'HA', 'fat')]
>>> clue_weight([0, parse_mask("HA"), 0], clues)  # a world where 1 holds it: misfit
0.05
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.cards import RANK_POINTS
from engine.contract import GameType
from engine.trick import FOLLOW, TRUMPS, trick_winner

TENS = 0x08080808
TENS_ACES = 0x88888888

# A world weighs this much for each clue of a kind it contradicts.
CARD_MISFIT = {"lead": 0.25, "lowest": 0.2, "fat": 0.05, "schmier": 0.05, "schmier-void": 0.05}
# A trick the other side holds is "fat" from this many points (an ace or a ten in it).
FAT_TRICK = 10

__all__ = ["CARD_MISFIT", "FAT_TRICK", "clue_weight", "trick_clues"]


def trick_clues(tricks: Sequence[Sequence[int]], leaders: Sequence[int], game: int,
                declarer: int, unknown: int, skip: Sequence[int] = ()
                ) -> tuple[tuple[int, int, str], ...]:
    """The clues of these tricks (finished ones and the one on the table), for the cards in
    ``unknown`` (those the seat cannot see); players in ``skip`` (this seat, an open hand)
    give none.

    >>> from engine.cards import Card, mask_to_str, parse_mask
    >>> t = ((Card.CA, Card.CK, Card.C7),)   # 0 leads the ace; 1 gives a king, 2 a seven
    >>> [(p, mask_to_str(m), kind) for p, m, kind in trick_clues(
    ...     t, (0,), GameType.HEARTS, 0, parse_mask("C8 C9 CQ"))]
    [(1, 'C8 C9 CQ', 'lowest')]
    """
    if game == GameType.NULL:
        return ()
    played = [0, 0, 0]
    for t, leader in zip(tricks, leaders, strict=True):
        for i, c in enumerate(t):
            played[(leader + i) % 3] |= 1 << c
    out = []
    for t, leader in zip(tricks, leaders, strict=True):
        for i in range(len(t)):
            p = (leader + i) % 3
            if p in skip:
                continue
            for kind, cards in _clues(t[:i], t[i], i, leader, p, game, declarer):
                if cards and not cards & played[p]:
                    cards &= unknown
                    if cards:
                        out.append((p, cards, kind))
    return tuple(out)


def _clues(before: Sequence[int], card: int, i: int, leader: int, p: int, game: int,
           declarer: int) -> list[tuple[str, int]]:
    """The kinds of clue ``card`` gives and the cards ``p`` would probably have laid
    instead."""
    out = []
    if i == 0:
        # a defender who leads a plain suit with another card than its ace has no ace
        ace = (card & ~7) | 7
        if p != declarer and card != ace and not TRUMPS[game] >> card & 1:
            out.append(("lead", 1 << ace))
        return out
    w = trick_winner(before, game)
    holder = (leader + w) % 3
    now = (*before, card)
    took = trick_winner(now, game) == i
    follow = FOLLOW[game][before[0]]
    points = RANK_POINTS[card & 7]
    if (holder == declarer) == (p == declarer):
        # his own side holds the trick: last to play, a defender gives it a ten or ace
        if i == 2 and not took and p != declarer and points < 10:
            if follow >> card & 1:
                out.append(("schmier", follow & ~TRUMPS[game] & TENS_ACES))
            elif not TRUMPS[game] >> card & 1:
                out.append(("schmier-void", ~TRUMPS[game] & TENS & 0xFFFFFFFF))
        return out
    if took:
        return out  # he took it (for now)
    alt = 0
    if sum(RANK_POINTS[c & 7] for c in before) >= FAT_TRICK:
        # he could have taken a fat trick: with a card of the suit, or a trump when void
        options = follow if follow >> card & 1 else ~follow & 0xFFFFFFFF
        for c in range(32):
            if options >> c & 1 and c != card and trick_winner((*before, c), game) == i:
                alt |= 1 << c
        out.append(("fat", alt))
    if follow >> card & 1:
        # he followed and lost: a card of the suit with fewer points would have lost too
        alt = 0
        for c in range(32):
            if (follow >> c & 1 and RANK_POINTS[c & 7] < points
                    and trick_winner((*before, c), game) != i):
                alt |= 1 << c
        out.append(("lowest", alt))
    return out


def clue_weight(hands: Sequence[int], clues: Sequence[tuple[int, int, str]]) -> float:
    """The product of ``CARD_MISFIT[kind]`` over the clues these hands contradict."""
    w = 1.0
    for p, cards, kind in clues:
        if hands[p] & cards:
            w *= CARD_MISFIT[kind]
    return w

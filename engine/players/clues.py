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

The declarer's discard is a clue of its own (``pimc+discard``): a defender's sampled worlds
put jacks and trumps in a picked-up skat that declarers keep; :func:`repick_skat` redraws the
skat by :data:`DISCARD_FIT` (:func:`discard_weight`). Measured, it makes the worlds like the
real deals but does not change the decisions (docs/players.md, "Card play, decision by
decision"), so ``pimc`` does not use it.

Calibration (XSkat's play, 300 games of the position record of ``skat-table decisions``): of
the ``lowest`` clues about defenders 15 % were wrong in the real deal against 49 % in
uniformly sampled worlds; ``lead`` 13 % against 39 %; ``fat``, ``schmier`` and ``lowest``
about the declarer never (against 17-48 %). The weights are those likelihood ratios,
rounded.

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

from collections.abc import Callable, Sequence

from engine.cards import RANK_POINTS
from engine.contract import GameType
from engine.trick import FOLLOW, TRUMPS, trick_winner

TENS = 0x08080808
TENS_ACES = 0x88888888

# A world weighs this much for each clue of a kind it contradicts.
CARD_MISFIT = {"lead": 0.25, "lowest": 0.2, "fat": 0.05, "schmier": 0.05, "schmier-void": 0.05}
# A trick the other side holds is "fat" from this many points (an ace or a ten in it).
FAT_TRICK = 10

# The declarer's discard (a defender's view of a game whose declarer took the skat): each
# card a world puts in the skat weighs this much, by its kind and by how many other cards of
# its suit the declarer holds in that world (his ten cards after the discard, played ones
# included; 0, 1, 2 or more). Measured on XSkat's discards (408 pick-up games, 816 cards, of
# deal seeds 1000-1700 of ``skat-table decisions``, against 20 uniformly sampled worlds each):
# real against sampled skat cards, jacks 0 against 82, other trumps 0 against 150, aces 6
# against 74; tens where the declarer is left void 129 against 26.5, with one more of the
# suit 41 against 21, two or more 31 against 46; kings and queens 202 / 47, 60 / 47, 35 / 87;
# sevens to nines 222 / 50, 75 / 61, 15 / 123. The weights are those likelihood ratios
# divided by the largest (4.9), rounded; a jack or trump is kept possible (people do discard
# one now and then, XSkat never did here).
DISCARD_FIT = {
    "ten": (1.0, 0.4, 0.14), "QK": (0.9, 0.26, 0.08), "low": (0.9, 0.25, 0.025),
    "ace": (0.02, 0.02, 0.02), "trump": (0.005, 0.005, 0.005),
}

__all__ = ["CARD_MISFIT", "DISCARD_FIT", "FAT_TRICK", "clue_weight", "discard_weight",
           "repick_skat", "trick_clues"]


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


def discard_weight(skat: int, ten: int, game: int) -> float:
    """How likely a declarer who holds ``ten`` (his cards after the discard, played ones
    included) put ``skat`` away in a ``game`` (a suit game or grand), as a weight: the
    product of :data:`DISCARD_FIT` over the two cards.

    Declarers keep their trumps and aces and lay away the cards of short suits, to be void
    there: a world that puts a jack in a picked-up skat is far less likely than the uniform
    sampler makes it.

    >>> from engine.cards import parse_mask
    >>> ten = parse_mask("CJ SJ HJ DJ CA CT CK CQ C9 HA")   # clubs; hearts: the ace only
    >>> discard_weight(parse_mask("ST S7"), ten, GameType.CLUBS)   # void in spades: likely
    0.9
    >>> discard_weight(parse_mask("HT H7"), ten, GameType.CLUBS)   # beside the HA
    0.1
    >>> discard_weight(parse_mask("C7 DT"), ten, GameType.CLUBS) < 0.01   # a trump
    True
    """
    w = 1.0
    trumps = TRUMPS[game]
    for c in range(32):
        if not skat >> c & 1:
            continue
        rank = c & 7
        if trumps >> c & 1:
            w *= DISCARD_FIT["trump"][0]
            continue
        kind = {7: "ace", 3: "ten", 5: "QK", 6: "QK"}.get(rank, "low")
        others = (ten & ~trumps & (0xFF << (c & ~7))).bit_count()
        w *= DISCARD_FIT[kind][min(others, 2)]
    return w


def repick_skat(union: int, forced: int, played: int, game: int, pick: Callable[
        [Sequence[int], Sequence[float]], int]) -> int:
    """A skat drawn from ``union`` (the declarer's hidden cards and the skat of a sampled
    world) with the chance :func:`discard_weight` gives each pair; ``forced``: cards of
    the union that must lie in the skat (suits the declarer showed void in); ``played``:
    the declarer's cards laid so far. ``pick(options, weights)`` draws one option.

    The declarer's twelve cards stay those of the world (so his bid still fits), only
    which two of them he laid away changes: a step of Gibbs sampling toward the discards
    declarers make, at the cost of one pass over the pairs (at most 66).

    >>> from engine.cards import mask_to_str, parse_mask
    >>> union = parse_mask("CJ CA CK C9 HA HK S8 DT D7")   # clubs
    >>> best = lambda options, weights: options[weights.index(max(weights))]
    >>> mask_to_str(repick_skat(union, 0, 0, GameType.CLUBS, best))  # void in diamonds
    'D7 DT'
    >>> mask_to_str(repick_skat(union, parse_mask("HK"), 0, GameType.CLUBS, best))
    'S8 HK'
    """
    trumps = TRUMPS[game]
    held = union | played
    # for each plain card: its kind's weights, by the declarer's other cards of its suit
    count = {}
    cards = []
    for c in range(32):
        if union >> c & 1 and not forced >> c & 1:
            cards.append(c)
    for c in (*cards, *[c for c in range(32) if forced >> c & 1]):
        if not trumps >> c & 1:
            count[c] = (held & ~trumps & (0xFF << (c & ~7))).bit_count() - 1

    def factor(c: int, others: int) -> float:
        if trumps >> c & 1:
            return DISCARD_FIT["trump"][0]
        kind = {7: "ace", 3: "ten", 5: "QK", 6: "QK"}.get(c & 7, "low")
        return DISCARD_FIT[kind][min(others, 2)]

    fixed = [c for c in range(32) if forced >> c & 1]
    options: list[int] = []
    weights: list[float] = []
    if len(fixed) >= 2:
        return forced
    if len(fixed) == 1:
        a = fixed[0]
        for b in cards:
            same = not trumps >> a & 1 and not trumps >> b & 1 and a >> 3 == b >> 3
            wa = factor(a, count.get(a, 0) - same)
            options.append(1 << a | 1 << b)
            weights.append(wa * factor(b, count.get(b, 0) - same))
    else:
        for i, a in enumerate(cards):
            for b in cards[i + 1:]:
                same = not trumps >> a & 1 and not trumps >> b & 1 and a >> 3 == b >> 3
                options.append(1 << a | 1 << b)
                weights.append(factor(a, count.get(a, 0) - same)
                               * factor(b, count.get(b, 0) - same))
    return pick(options, weights)

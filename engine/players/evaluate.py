"""Hand evaluation: how strong is a hand for each contract, and what would it declare?

The numbers are the classic rule-of-thumb counts of Skat players, made precise: trumps and
jacks, aces and guarded tens, and losers in the side suits. They decide the rule player's
bidding, skat and contract, give the PIMC player its bidding limits, and pick the contracts
of the solver benchmark's "biddable deals".

>>> from engine.cards import parse_mask
>>> hand = parse_mask("CJ SJ HJ CA CT CK C9 C8 SA HA")
>>> best = best_contract(hand)
>>> best.game, best.game_value
(0, 48)
>>> suit_strength(hand, 0) > 9
True
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from engine.cards import JACKS, RANK_POINTS, SUIT_MASKS
from engine.trick import MATADOR_ORDER, TRUMPS
from engine.trick import matadors as trick_matadors

GRAND = 4
NULL = 5
BASE_VALUES = (12, 11, 10, 9, 24)
SKAT_WORTH = 2.5  # what a skat adds to a hand, in strength units (about a trick and a half)
NULL_VALUES = {(False, False): 23, (True, False): 35, (False, True): 46, (True, True): 59}
ACE, TEN, KING, QUEEN, JACK = 7, 3, 6, 5, 4


def trump_mask(game: int) -> int:
    """The trumps of a game type (none in null): the engine's, ``engine.trick.TRUMPS``."""
    return TRUMPS[game]


def matador_order(game: int) -> list[int]:
    """The trumps from the highest down, as engine card indices (the engine's order)."""
    return list(MATADOR_ORDER[game])


def matadors(cards: int, game: int) -> int:
    """'With' (positive) or 'without' (negative) how many: ``engine.trick.matadors``.

    >>> from engine.cards import parse_mask
    >>> matadors(parse_mask("CJ SJ DJ"), 4), matadors(parse_mask("HJ"), 4)
    (2, -2)
    """
    return trick_matadors(cards, game)


def side_mask(game: int) -> int:
    """The cards that are not trump."""
    return 0xFFFFFFFF & ~trump_mask(game)


def suit_strength(hand: int, game: int) -> float:
    """A count of tricks-and-control for a suit or grand game; about 9 makes a safe game.

    Each trump counts 1, the two black jacks a further 0.5 each; each side ace 1, a ten
    guarded by its ace 0.75, a ten with one other card 0.25; a side suit with no ace costs
    0.5 per card beyond the first (losers), a void in a side suit is worth 0.5 with 5 trumps.
    """
    trumps = hand & trump_mask(game)
    n_trumps = trumps.bit_count()
    score = float(n_trumps)
    score += 0.5 * ((hand >> 4) & 1) + 0.5 * ((hand >> 12) & 1)
    for s in range(4):
        if s == game:
            continue
        suit = hand & SUIT_MASKS[s] & ~JACKS
        n = suit.bit_count()
        has_ace = bool(suit >> (8 * s + ACE) & 1)
        has_ten = bool(suit >> (8 * s + TEN) & 1)
        if n == 0:
            score += 0.5 if n_trumps >= 5 else 0.0
            continue
        if has_ace:
            score += 1.0
            if has_ten:
                score += 0.75
        elif has_ten and n >= 2:
            score += 0.25
        if not has_ace:
            score -= 0.5 * (n - 1) if game < GRAND else 0.6 * n
    if game == GRAND:
        # In grand the jacks are all the trumps: without two of them nothing works.
        jacks = (hand & JACKS).bit_count()
        score += 1.0 * jacks - (2.0 if jacks < 2 else 0.0)
    return score


def null_strength(hand: int) -> float:
    """How safe a hand is for null: 10 is a sure null, below about 8.5 it loses.

    A suit is safe when its low cards can always duck: the lowest is the 7, the next at most
    the 9, the next at most the jack (each card no more than two ranks above the previous
    one in null order). A suit that breaks this costs 2, or 3 when its lowest card is above
    the 8 (the opponents can lead under it at once).
    """
    score = 10.0
    for s in range(4):
        ranks = [r for r in range(8) if hand >> (8 * s + r) & 1]  # null order is rank order
        if any(r > 2 * k for k, r in enumerate(ranks)):
            score -= 3.0 if ranks[0] > 1 else 2.0
    return score


@dataclass(frozen=True)
class Estimate:
    """A contract worth considering: its game type, strength and value if played plainly."""

    game: int
    strength: float
    game_value: int
    hand: bool = False

    @property
    def safe(self) -> bool:
        return self.strength >= (9.0 if self.game < NULL else 8.5)


def game_value(cards: int, game: int, hand: bool = False) -> int:
    """The plain value of a suit or grand game (no schneider) on these cards (12 with skat)."""
    if game == NULL:
        return NULL_VALUES[(hand, False)]
    m = abs(matadors(cards, game))
    return BASE_VALUES[game] * (m + 1 + (1 if hand else 0))


def estimates(hand: int) -> list[Estimate]:
    """Every game type scored for a 10-card hand, strongest first."""
    out = [Estimate(g, suit_strength(hand, g), game_value(hand, g)) for g in range(5)]
    out.append(Estimate(NULL, null_strength(hand), NULL_VALUES[(False, False)]))
    out.sort(key=lambda e: (e.strength - (0.0 if e.game < NULL else 0.5), e.game_value),
             reverse=True)
    return out


def best_contract(hand: int) -> Estimate:
    """The contract the hand would most like to play."""
    return estimates(hand)[0]


def bid_limit(hand: int, bonus: float = 0.0) -> int:
    """The highest bid this hand should hold (0 to pass): the best value among safe games.

    The skat is expected to add about SKAT_WORTH strength, so a game a little below safe
    is still bid; ``bonus`` shifts the boldness.
    """
    best = 0
    for e in estimates(hand):
        need = 9.0 if e.game < NULL else 8.5
        if e.strength + SKAT_WORTH + bonus >= need:
            best = max(best, e.game_value)
    return best


def discard(cards: int, game: int) -> int:
    """The cards to put away (a mask) so that ten remain, for the game type declared.

    Suit and grand: put away points the opponents could catch (tens without the ace, kings
    and queens of short suits), make a side suit void where possible, keep the trumps.
    Null: keep the suits whose low cards can always duck.
    """
    n = cards.bit_count() - 10
    if n <= 0:
        return 0
    if game == NULL:
        return _best_set(cards, [c for c in range(32) if cards >> c & 1], n, null_strength)
    trumps = trump_mask(game)
    side = [c for c in range(32) if cards >> c & 1 and not (trumps >> c & 1)]
    if len(side) < n:  # nearly all trumps: put away the lowest trumps as well
        order = matador_order(game)
        rest = sorted((c for c in range(32) if cards >> c & 1 and trumps >> c & 1),
                      key=order.index, reverse=True)
        side += rest[: n - len(side)]
    return _best_set(cards, side, n, lambda m: suit_strength(m, game))


def _best_set(cards: int, candidates: list[int], n: int, score_of: Callable[[int], float]) -> int:
    best_mask, best_score = 0, 0.0
    groups: list[tuple[int, ...]]
    if n == 1:
        groups = [(a,) for a in candidates]
    else:
        groups = [(a, b) for i, a in enumerate(candidates) for b in candidates[i + 1:]]
    for group in groups:
        m = 0
        for c in group:
            m |= 1 << c
        # points put away count for the declarer: a small bonus breaks ties toward them
        score = score_of(cards & ~m) + 0.04 * sum(RANK_POINTS[c & 7] for c in group)
        if not best_mask or score > best_score:
            best_mask, best_score = m, score
    return best_mask

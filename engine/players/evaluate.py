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

from dataclasses import dataclass

from engine.cards import JACKS, RANK_POINTS, SUIT_MASKS

GRAND = 4
NULL = 5
BASE_VALUES = (12, 11, 10, 9, 24)
NULL_VALUES = {(False, False): 23, (True, False): 35, (False, True): 46, (True, True): 59}
ACE, TEN, KING, QUEEN, JACK = 7, 3, 6, 5, 4
_JACK_ORDER = (4, 12, 20, 28)  # CJ SJ HJ DJ: the top of every trump suit
# Trump order below the jacks: A T K Q 9 8 7, as rank indices.
_TRUMP_RANKS = (7, 3, 6, 5, 2, 1, 0)


def trump_mask(game: int) -> int:
    """The trumps of a game type (no trumps in null)."""
    if game == NULL:
        return 0
    if game == GRAND:
        return JACKS
    return JACKS | SUIT_MASKS[game]


def matador_order(game: int) -> list[int]:
    """The trumps from the highest down, as engine card indices."""
    order = list(_JACK_ORDER)
    if game < GRAND:
        order += [8 * game + r for r in _TRUMP_RANKS]
    return order


def matadors(cards: int, game: int) -> int:
    """'With' (positive) or 'without' (negative) how many, counted on the cards given.

    >>> from engine.cards import parse_mask
    >>> matadors(parse_mask("CJ SJ DJ"), 4), matadors(parse_mask("HJ"), 4)
    (2, -2)
    """
    order = matador_order(game)
    holds = (cards >> order[0]) & 1
    n = 0
    for c in order:
        if ((cards >> c) & 1) != holds:
            break
        n += 1
    return n if holds else -n


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
    """How safe a hand is for null: 10 is a sure null, below about 8 it loses.

    A suit is safe when its low cards can always duck: the 7, then a card no more than two
    ranks above the previous low card. Each unsafe card costs.
    """
    score = 10.0
    for s in range(4):
        ranks = [r for r in range(8) if hand >> (8 * s + r) & 1]  # null order is rank order
        if not ranks:
            continue
        # ranks the opponents hold below each of our cards: we are safe while for the k-th
        # lowest card of ours at most k lower cards of the suit are out
        for k, r in enumerate(ranks):
            lower_out = r - k
            if lower_out > k + 1:
                score -= 1.5 if k == 0 else 1.0
                break
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

    The skat is expected to add about a trick (1.5 strength), so a game a little below safe
    is still bid; ``bonus`` shifts the boldness.
    """
    best = 0
    for e in estimates(hand):
        need = 9.0 if e.game < NULL else 8.5
        if e.strength + 1.5 + bonus >= need:
            best = max(best, e.game_value)
    return best


def discard(cards12: int, game: int) -> int:
    """The two cards to put away for a suit or grand game (a mask of two cards).

    Put away the points that the opponents could catch (tens without the ace, kings and
    queens of short suits), and make a side suit void where that is possible.
    """
    if game == NULL:
        return _null_discard(cards12)
    candidates = [c for c in range(32) if cards12 >> c & 1 and not (trump_mask(game) >> c & 1)]
    if len(candidates) < 2:
        candidates = [c for c in range(32) if cards12 >> c & 1 and (c & 7) != JACK]
        candidates.sort(key=lambda c: _trump_keep(c, game))
        return (1 << candidates[0]) | (1 << candidates[1])
    return _best_pair(cards12, candidates, game)


def _trump_keep(card: int, game: int) -> int:
    order = matador_order(game)
    return -order.index(card) if card in order else 0


def _best_pair(cards12: int, candidates: list[int], game: int) -> int:
    best_mask, best_score = 0, None
    for i, a in enumerate(candidates):
        for b in candidates[i + 1:]:
            pair = (1 << a) | (1 << b)
            rest = cards12 & ~pair
            score = suit_strength(rest, game) + 0.04 * (RANK_POINTS[a & 7] + RANK_POINTS[b & 7])
            if best_score is None or score > best_score:
                best_mask, best_score = pair, score
    return best_mask


def _null_discard(cards12: int) -> int:
    cards = [c for c in range(32) if cards12 >> c & 1]
    best_mask, best_score = 0, None
    for i, a in enumerate(cards):
        for b in cards[i + 1:]:
            pair = (1 << a) | (1 << b)
            score = null_strength(cards12 & ~pair) + 0.01 * ((a & 7) + (b & 7))
            if best_score is None or score > best_score:
                best_mask, best_score = pair, score
    return best_mask

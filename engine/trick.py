"""The hot path of play: legal cards, trick winners, matadors, all as table lookups on masks.

These are the only copies of the follow-suit and trick-taking rules: ``Game``, the benchmark
and the computer players all call them.

>>> from engine.cards import parse_mask, Card
>>> from engine.contract import GameType
>>> hand = parse_mask("CJ HK H9 SA")
>>> mask_to_str(legal_mask(hand, Card.HA, GameType.CLUBS))   # hearts led: follow hearts
'H9 HK'
>>> mask_to_str(legal_mask(hand, Card.DJ, GameType.CLUBS))   # a jack is a trump
'CJ'
>>> mask_to_str(legal_mask(hand, Card.HJ, GameType.NULL))    # in null the jack is a heart
'H9 HK'
>>> trick_winner([Card.HA, Card.H7, Card.DJ], GameType.GRAND)
2
>>> matadors(parse_mask("CJ SJ DJ CA"), GameType.CLUBS)
2
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.cards import JACKS, SUIT_MASKS, Card, mask_to_str
from engine.contract import GameType

__all__ = [
    "BEATS", "FOLLOW", "POWER", "TRUMPS", "Trick", "follow_suit_name", "legal_mask",
    "mask_to_str", "matadors", "trick_winner",
]

# Order of the ranks 7 8 9 T J Q K A within a suit outside null (A T K Q 9 8 7; jacks apart).
_PLAIN_ORDER = (0, 1, 2, 5, -1, 3, 4, 6)


def _trumps(game: int) -> int:
    if game <= GameType.DIAMONDS:
        return JACKS | SUIT_MASKS[game]
    if game in (GameType.GRAND, GameType.RAMSCH):
        return JACKS
    return 0


def _power(game: int, card: int) -> int:
    """Strength of a card within its own following group (trumps above everything)."""
    suit, rank = card >> 3, card & 7
    if game == GameType.NULL:
        return rank  # A K Q J T 9 8 7 is exactly the index order
    if rank == 4:
        return 100 + (3 - suit)  # CJ > SJ > HJ > DJ
    if game <= GameType.DIAMONDS and suit == game:
        return 50 + _PLAIN_ORDER[rank]
    return _PLAIN_ORDER[rank]


TRUMPS: tuple[int, ...] = tuple(_trumps(g) for g in range(7))
POWER: tuple[tuple[int, ...], ...] = tuple(
    tuple(_power(g, c) for c in range(32)) for g in range(7)
)
# FOLLOW[game][lead]: the cards that follow the lead card (trumps or its plain suit).
FOLLOW: tuple[tuple[int, ...], ...] = tuple(
    tuple(
        TRUMPS[g] if TRUMPS[g] >> c & 1 else SUIT_MASKS[c >> 3] & ~TRUMPS[g]
        for c in range(32)
    )
    for g in range(7)
)


def _beats(game: int, a: int) -> int:
    """Mask of the cards that take a trick currently won by card ``a``."""
    trumps = TRUMPS[game]
    power = POWER[game]
    out = 0
    for b in range(32):
        if b == a:
            continue
        if trumps >> a & 1:
            wins = bool(trumps >> b & 1) and power[b] > power[a]
        else:
            # a card that is winning without being a trump is the lead's suit, so only a
            # trump or a higher card of that plain suit takes it
            wins = bool(trumps >> b & 1) or (
                FOLLOW[game][a] >> b & 1 == 1 and power[b] > power[a]
            )
        if wins:
            out |= 1 << b
    return out


BEATS: tuple[tuple[int, ...], ...] = tuple(
    tuple(_beats(g, a) for a in range(32)) for g in range(7)
)


def legal_mask(hand: int, lead: int | None, game: int) -> int:
    """The cards of ``hand`` that may be laid to a trick led by ``lead`` (None: leading)."""
    if lead is None:
        return hand
    f = hand & FOLLOW[game][lead]
    return f or hand


def trick_winner(cards: Sequence[int], game: int) -> int:
    """Index (0..2) in the trick of the card that takes it."""
    beats = BEATS[game]
    w = 0
    best = cards[0]
    for i in range(1, len(cards)):
        c = cards[i]
        if beats[best] >> c & 1:
            w = i
            best = c
    return w


# Trump order from the top, for counting matadors.
def _matador_order(game: int) -> tuple[int, ...]:
    jacks = (Card.CJ, Card.SJ, Card.HJ, Card.DJ)
    if game <= GameType.DIAMONDS:
        base = 8 * game
        return (*jacks, *(base + r for r in (7, 3, 6, 5, 2, 1, 0)))
    if game in (GameType.GRAND, GameType.RAMSCH):
        return jacks
    return ()


MATADOR_ORDER: tuple[tuple[int, ...], ...] = tuple(_matador_order(g) for g in range(7))


def matadors(cards_mask: int, game: int) -> int:
    """Matadors of a declarer's 12 cards: +n "with n", -n "without n"; 0 in null.

    >>> from engine.cards import parse_mask
    >>> matadors(parse_mask("SJ HJ"), GameType.GRAND)
    -1
    """
    order = MATADOR_ORDER[game]
    if not order:
        return 0
    with_top = cards_mask >> order[0] & 1
    n = 0
    for c in order:
        if (cards_mask >> c & 1) != with_top:
            break
        n += 1
    return n if with_top else -n


def follow_suit_name(lead: int, game: int) -> str:
    """What a player must follow with: ``"trumps"`` or the suit's name."""
    if TRUMPS[game] >> lead & 1:
        return "trumps"
    return ("clubs", "spades", "hearts", "diamonds")[lead >> 3]


def by_power(mask: int, game: int) -> list[Card]:
    """The cards of a mask, strongest first, as a player sorts them for this game."""
    power = POWER[game]
    trumps = TRUMPS[game]
    cards = [Card(c) for c in range(32) if mask >> c & 1]
    cards.sort(
        key=lambda c: (1, power[c], 0) if trumps >> c & 1 else (0, -(c >> 3), power[c]),
        reverse=True,
    )
    return cards


@dataclass(frozen=True, slots=True)
class Trick:
    """A completed trick: who led, the cards in the order laid, who took it (positions)."""

    leader: int
    cards: tuple[Card, ...]
    winner: int

    @property
    def mask(self) -> int:
        m = 0
        for c in self.cards:
            m |= 1 << c
        return m


# Building a Trick through the frozen dataclass __init__ costs an object.__setattr__ per field;
# Game lays ten per game, so it fills the three slots directly (the same object, all slots
# set, as the constructor would make it).
_NEW = object.__new__
_SET_LEADER = Trick.leader.__set__  # type: ignore[attr-defined]
_SET_CARDS = Trick.cards.__set__  # type: ignore[attr-defined]
_SET_WINNER = Trick.winner.__set__  # type: ignore[attr-defined]


def new_trick(leader: int, cards: tuple[Card, ...], winner: int) -> Trick:
    """``Trick(leader, cards, winner)``, built faster (for the hot path of play).

    >>> new_trick(0, (Card.CJ, Card.C7, Card.C8), 0) == Trick(0, (Card.CJ, Card.C7, Card.C8), 0)
    True
    """
    t = _NEW(Trick)
    _SET_LEADER(t, leader)
    _SET_CARDS(t, cards)
    _SET_WINNER(t, winner)
    return t

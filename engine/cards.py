"""Cards in ISS notation, and sets of cards as 32-bit masks.

A card is a :class:`Card` (an ``IntEnum``, so it is also the index of its bit)
written with two letters as in ISS records: suit ``C S H D`` then rank
``7 8 9 T J Q K A``.

>>> Card.parse("CJ")
<Card.CJ: 4>
>>> str(Card.HT)
'HT'
>>> Card.HT.points
10
>>> mask_to_str(cards_mask([Card.CJ, Card.DA]))
'CJ DA'

Bit layout: ``index = 8 * suit + rank`` with suits in the order clubs, spades,
hearts, diamonds and ranks 7..A, so each suit is one byte of the mask and the
four jacks are ``JACKS = 0x10101010``. Everything that rules need (following
suit, trick winners, points) is then a few mask operations.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Iterator

SUIT_LETTERS = "CSHD"
RANK_LETTERS = "789TJQKA"


class Suit(enum.IntEnum):
    """The four suits in their Skat ranking order (clubs highest)."""

    CLUBS = 0
    SPADES = 1
    HEARTS = 2
    DIAMONDS = 3

    @property
    def letter(self) -> str:
        return SUIT_LETTERS[self]

    @property
    def mask(self) -> int:
        return 0xFF << (8 * self)

    @classmethod
    def parse(cls, text: str) -> Suit:
        try:
            return cls(SUIT_LETTERS.index(text.strip().upper()))
        except ValueError:
            raise CardError(f"unknown suit {text!r}: use one of C S H D") from None


class Rank(enum.IntEnum):
    SEVEN = 0
    EIGHT = 1
    NINE = 2
    TEN = 3
    JACK = 4
    QUEEN = 5
    KING = 6
    ACE = 7

    @property
    def letter(self) -> str:
        return RANK_LETTERS[self]


RANK_POINTS = (0, 0, 0, 10, 2, 3, 4, 11)


class CardError(ValueError):
    """A card or set of cards written wrongly."""


class Card(enum.IntEnum):
    """One of the 32 cards; its value is its bit index in a card mask."""

    C7 = 0
    C8 = 1
    C9 = 2
    CT = 3
    CJ = 4
    CQ = 5
    CK = 6
    CA = 7
    S7 = 8
    S8 = 9
    S9 = 10
    ST = 11
    SJ = 12
    SQ = 13
    SK = 14
    SA = 15
    H7 = 16
    H8 = 17
    H9 = 18
    HT = 19
    HJ = 20
    HQ = 21
    HK = 22
    HA = 23
    D7 = 24
    D8 = 25
    D9 = 26
    DT = 27
    DJ = 28
    DQ = 29
    DK = 30
    DA = 31

    def __str__(self) -> str:
        return self.name

    @property
    def suit(self) -> Suit:
        return Suit(self >> 3)

    @property
    def rank(self) -> Rank:
        return Rank(self & 7)

    @property
    def points(self) -> int:
        return RANK_POINTS[self & 7]

    @property
    def bit(self) -> int:
        return 1 << self

    @property
    def is_jack(self) -> bool:
        return (self & 7) == Rank.JACK

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse ``"CJ"``, ``"ht"`` or ``"H10"``; raise :class:`CardError` otherwise."""
        t = text.strip().upper()
        if len(t) == 3 and t[1:] == "10":
            t = t[0] + "T"
        if len(t) == 2 and t[0] in SUIT_LETTERS and t[1] in RANK_LETTERS:
            return cls(8 * SUIT_LETTERS.index(t[0]) + RANK_LETTERS.index(t[1]))
        raise CardError(
            f"{text!r} is not a card: write suit C S H D and rank 7 8 9 T J Q K A, e.g. CJ"
        )


ALL_CARDS: tuple[Card, ...] = tuple(Card)
FULL_DECK = 0xFFFFFFFF
JACKS = 0x10101010
SUIT_MASKS = (0xFF, 0xFF00, 0xFF0000, 0xFF000000)

# Points of every possible byte (one suit's cards), so the points of a mask are four lookups.
_BYTE_POINTS = tuple(
    sum(RANK_POINTS[r] for r in range(8) if b >> r & 1) for b in range(256)
)


def mask_points(mask: int) -> int:
    """Card points in a mask.

    >>> mask_points(FULL_DECK)
    120
    """
    bp = _BYTE_POINTS
    return bp[mask & 0xFF] + bp[mask >> 8 & 0xFF] + bp[mask >> 16 & 0xFF] + bp[mask >> 24 & 0xFF]


def cards_mask(cards: Iterable[int]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def mask_cards(mask: int) -> list[Card]:
    """The cards of a mask in index order (clubs first, low to high)."""
    out = []
    while mask:
        low = mask & -mask
        out.append(ALL_CARDS[low.bit_length() - 1])
        mask ^= low
    return out


def iter_bits(mask: int) -> Iterator[int]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def popcount(mask: int) -> int:
    return mask.bit_count()


def parse_cards(text: str | Iterable[str]) -> list[Card]:
    """Parse ``"CJ SJ HA"`` or ``"CJ.SJ.HA"`` or a list of card names."""
    if isinstance(text, str):
        parts = text.replace(".", " ").replace(",", " ").split()
    else:
        parts = list(text)
    return [Card.parse(p) for p in parts]


def parse_mask(text: str | Iterable[str]) -> int:
    cards = parse_cards(text)
    m = cards_mask(cards)
    if m.bit_count() != len(cards):
        raise CardError(f"a card is named twice in {text!r}")
    return m


def mask_to_str(mask: int, sep: str = " ") -> str:
    return sep.join(c.name for c in mask_cards(mask))


# Names for the display. German uses the French-suited tournament names (Kreuz, Pik, Herz,
# Karo) by default; the German-suited deck's names (Eichel, Grün, Rot, Schellen) go with it.
SUIT_NAMES = {
    "en": ("clubs", "spades", "hearts", "diamonds"),
    "de": ("Kreuz", "Pik", "Herz", "Karo"),
    "de-german-suits": ("Eichel", "Grün", "Rot", "Schellen"),
}
RANK_NAMES = {
    "en": ("7", "8", "9", "10", "jack", "queen", "king", "ace"),
    "de": ("7", "8", "9", "10", "Bube", "Dame", "König", "Ass"),
    "de-german-suits": ("7", "8", "9", "10", "Unter", "Ober", "König", "Daus"),
}


def card_name(card: Card, language: str = "en") -> str:
    """A card's name in words.

    >>> card_name(Card.CJ, "de")
    'Kreuz Bube'
    >>> card_name(Card.HT, "en")
    '10 of hearts'
    """
    suits = SUIT_NAMES.get(language, SUIT_NAMES["en"])
    ranks = RANK_NAMES.get(language, RANK_NAMES["en"])
    if language.startswith("de"):
        return f"{suits[card.suit]} {ranks[card.rank]}"
    return f"{ranks[card.rank]} of {suits[card.suit]}"

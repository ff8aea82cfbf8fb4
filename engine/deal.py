"""A deal: the three hands (by position) and the skat, as card masks.

Positions are ISS positions: 0 forehand, 1 middlehand, 2 rearhand.

>>> d = Deal.shuffled(7)
>>> [h.bit_count() for h in d.hands], d.skat.bit_count()
([10, 10, 10], 2)
>>> Deal.from_iss(d.to_iss()) == d
True
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from engine.cards import ALL_CARDS, FULL_DECK, Card, CardError, mask_cards, parse_cards

SKAT = 3
# Who receives card n of a deal the ISkO way: 3 to each player starting with forehand, 2 to
# the skat, then 4 each, then 3 each.
DEAL_PATTERN: tuple[int, ...] = (
    (0,) * 3 + (1,) * 3 + (2,) * 3 + (SKAT,) * 2 + (0,) * 4 + (1,) * 4 + (2,) * 4
    + (0,) * 3 + (1,) * 3 + (2,) * 3
)
POSITION_NAMES = ("forehand", "middlehand", "rearhand")


class DealError(ValueError):
    """A deal that is not 32 different cards in 10/10/10/2; the message names the fault."""


@dataclass(frozen=True, slots=True)
class Deal:
    """Three hands of ten cards (masks, by position) and a skat of two."""

    hands: tuple[int, int, int]
    skat: int

    def __post_init__(self) -> None:
        hands = tuple(self.hands)
        if len(hands) != 3:
            raise DealError("a deal has three hands")
        object.__setattr__(self, "hands", hands)
        seen = 0
        for pos, h in enumerate(hands):
            if h.bit_count() != 10:
                raise DealError(f"{POSITION_NAMES[pos]} has {h.bit_count()} cards, not 10")
            if seen & h:
                raise DealError(f"{_names(seen & h)} dealt twice")
            seen |= h
        if self.skat.bit_count() != 2:
            raise DealError(f"the skat has {self.skat.bit_count()} cards, not 2")
        if seen & self.skat:
            raise DealError(f"{_names(seen & self.skat)} dealt twice")
        if (seen | self.skat) != FULL_DECK:
            raise DealError(f"{_names(FULL_DECK & ~(seen | self.skat))} missing")

    @classmethod
    def from_dealt_order(cls, cards: Sequence[Card | int | str]) -> Deal:
        """The deal from the 32 cards in the order they were dealt (see ``DEAL_PATTERN``)."""
        parsed = _cards(cards)
        if len(parsed) != 32:
            raise DealError(f"a deal has 32 cards, got {len(parsed)}")
        masks = [0, 0, 0, 0]
        for card, who in zip(parsed, DEAL_PATTERN, strict=True):
            if masks[0] & (1 << card) or masks[1] & (1 << card) or masks[2] & (1 << card) \
                    or masks[3] & (1 << card):
                raise DealError(f"{ALL_CARDS[card]} dealt twice")
            masks[who] |= 1 << card
        return cls((masks[0], masks[1], masks[2]), masks[3])

    @classmethod
    def from_iss(cls, text: str) -> Deal:
        """An ISS deal string: forehand's 10 cards, middlehand's, rearhand's, then the skat.

        >>> Deal.from_iss("x")
        Traceback (most recent call last):
        ...
        engine.deal.DealError: an ISS deal has 32 cards, got 1
        """
        parts = text.replace("|", ".").replace(" ", ".").split(".")
        parts = [p for p in parts if p]
        if len(parts) != 32:
            raise DealError(f"an ISS deal has 32 cards, got {len(parts)}")
        try:
            cards = parse_cards(parts)
        except CardError as exc:
            raise DealError(str(exc)) from None
        return cls.from_positions(cards[0:10], cards[10:20], cards[20:30], cards[30:32])

    @classmethod
    def from_positions(cls, fore: Iterable[int], middle: Iterable[int], rear: Iterable[int],
                       skat: Iterable[int]) -> Deal:
        groups = [list(fore), list(middle), list(rear), list(skat)]
        masks = []
        for g in groups:
            m = 0
            for c in g:
                if m & (1 << c):
                    raise DealError(f"{ALL_CARDS[c]} dealt twice")
                m |= 1 << c
            masks.append(m)
        return cls((masks[0], masks[1], masks[2]), masks[3])

    def to_iss(self) -> str:
        """The ISS deal string (each hand in card order)."""
        cards = []
        for m in (*self.hands, self.skat):
            cards += [c.name for c in mask_cards(m)]
        return ".".join(cards)

    def dealt_order(self) -> list[Card]:
        """One order in which this deal could have been dealt the ISkO way."""
        pools = [mask_cards(h) for h in self.hands] + [mask_cards(self.skat)]
        return [pools[who].pop(0) for who in DEAL_PATTERN]

    @classmethod
    def random(cls, rng: random.Random) -> Deal:
        cards = list(range(32))
        rng.shuffle(cards)
        return cls.from_positions(cards[0:10], cards[10:20], cards[20:30], cards[30:32])

    @classmethod
    def shuffled(cls, seed: int | str | None = None) -> Deal:
        """A shuffled deal; the same seed gives the same deal."""
        return cls.random(random.Random(seed))


def _cards(cards: Sequence[Card | int | str]) -> list[int]:
    out = []
    for c in cards:
        if isinstance(c, str):
            try:
                out.append(int(Card.parse(c)))
            except CardError as exc:
                raise DealError(str(exc)) from None
        else:
            if not 0 <= int(c) < 32:
                raise DealError(f"{c!r} is not a card")
            out.append(int(c))
    return out


def _names(mask: int) -> str:
    return ", ".join(c.name for c in mask_cards(mask))

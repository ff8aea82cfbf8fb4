"""Game types, contracts (what the declarer announces) and the legal bid values.

A contract is written in ISS notation: the game type letter (``C S H D G N``) followed by
modifiers ``H`` (hand), ``O`` (ouvert), ``S`` (schneider announced), ``Z`` (schwarz
announced), in any order.

>>> str(Contract.parse("CHS"))
'CHS'
>>> c = Contract.parse("GO")
>>> (c.hand, c.schneider, c.schwarz, c.ouvert)
(True, True, True, True)
>>> str(Contract.parse("SZH"))
'SHZ'
>>> Contract.parse("NOH").null_value
59
>>> next_bid(None), next_bid(18), next_bid(23)
(18, 20, 24)
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from engine.cards import Suit


class ContractError(ValueError):
    """A contract written wrongly, or one the rules do not allow; the message says why."""


class GameType(enum.IntEnum):
    """The kind of game. The four suit games have the value of their :class:`Suit`."""

    CLUBS = 0
    SPADES = 1
    HEARTS = 2
    DIAMONDS = 3
    GRAND = 4
    NULL = 5
    RAMSCH = 6  # house rule: played when all pass

    @property
    def letter(self) -> str:
        return "CSHDGNR"[self]

    @property
    def base_value(self) -> int | None:
        """12 11 10 9 for the suits, 24 for grand; None for null and Ramsch."""
        return _BASE_VALUES[self]

    @property
    def trump_suit(self) -> Suit | None:
        return Suit(self) if self <= GameType.DIAMONDS else None

    @property
    def is_suit(self) -> bool:
        return self <= GameType.DIAMONDS

    @classmethod
    def parse(cls, letter: str) -> GameType:
        t = letter.strip().upper()
        if len(t) == 1 and t in "CSHDGNR":
            return cls("CSHDGNR".index(t))
        raise ContractError(
            f"{letter!r} is not a game: use C S H D (suits), G (grand) or N (null)"
        )


_BASE_VALUES = (12, 11, 10, 9, 24, None, None)
_NAMES = ("clubs", "spades", "hearts", "diamonds", "grand", "null", "Ramsch")


@dataclass(frozen=True, slots=True)
class Contract:
    """What the declarer plays.

    For suit and grand games ``ouvert`` implies hand, schneider and schwarz announced, and
    schwarz announced implies schneider announced; the constructor fills those in, so
    ``Contract(GameType.GRAND, ouvert=True) == Contract.parse("GO")``.
    """

    game: GameType
    hand: bool = False
    schneider: bool = False
    schwarz: bool = False
    ouvert: bool = False

    def __post_init__(self) -> None:
        # checked here so that every contract is one that ISS notation can write and read back
        g = self.game
        if type(g) is bool or not isinstance(g, int) or not 0 <= g <= GameType.RAMSCH:
            raise ContractError(f"a game is a GameType such as GameType.GRAND, not {g!r}")
        for name in ("hand", "schneider", "schwarz", "ouvert"):
            if type(getattr(self, name)) is not bool:
                raise ContractError(f"{name} is True or False, not {getattr(self, name)!r}")
        object.__setattr__(self, "game", GameType(g))
        if self.game == GameType.NULL and (self.schneider or self.schwarz):
            raise ContractError("schneider and schwarz cannot be announced in a null game")
        if self.game == GameType.RAMSCH and (self.hand or self.schneider or self.schwarz
                                             or self.ouvert):
            raise ContractError("Ramsch has no hand, schneider, schwarz or ouvert")
        if self.game <= GameType.GRAND:
            if self.ouvert:
                object.__setattr__(self, "hand", True)
                object.__setattr__(self, "schwarz", True)
            if self.schwarz:
                object.__setattr__(self, "schneider", True)

    @classmethod
    def parse(cls, text: str) -> Contract:
        """Read ISS notation (``"G"``, ``"CH"``, ``"SHS"``, ``"CHZ"``, ``"NOH"``, ``"GO"``).

        >>> Contract.parse("dhz")
        Contract(game=<GameType.DIAMONDS: 3>, hand=True, schneider=True, schwarz=True, ouvert=False)
        """
        t = text.strip().upper()
        if not t:
            raise ContractError("no contract given: write e.g. G, CH or NOH")
        game = GameType.parse(t[0])
        mods = t[1:]
        for m in mods:
            if m not in "HOSZ":
                raise ContractError(
                    f"{text!r}: {m!r} is not a modifier (H hand, O ouvert, S schneider, Z schwarz)"
                )
            if mods.count(m) > 1:
                raise ContractError(f"{text!r}: modifier {m} is written twice")
        if game == GameType.NULL and ("S" in mods or "Z" in mods):
            raise ContractError("schneider and schwarz cannot be announced in a null game")
        return cls(game, hand="H" in mods, schneider="S" in mods, schwarz="Z" in mods,
                   ouvert="O" in mods)

    def __str__(self) -> str:
        g = self.game
        if g == GameType.NULL:
            return "N" + ("O" if self.ouvert else "") + ("H" if self.hand else "")
        if g == GameType.RAMSCH:
            return "R"
        if self.ouvert:
            return g.letter + "O"
        s = g.letter + ("H" if self.hand else "")
        if self.schwarz:
            return s + "Z"  # Z implies S, as ISS writes it ("CHZ")
        return s + ("S" if self.schneider else "")

    @property
    def null_value(self) -> int | None:
        """23 null, 35 null hand, 46 null ouvert, 59 null ouvert hand; None otherwise."""
        if self.game != GameType.NULL:
            return None
        return (23, 35, 46, 59)[self.hand + 2 * self.ouvert]

    @property
    def name(self) -> str:
        """English words for logs and messages, e.g. ``"clubs hand schneider announced"``."""
        words = [_NAMES[self.game]]
        if self.ouvert:
            words.append("ouvert")
        if self.hand and not (self.ouvert and self.game <= GameType.GRAND):
            words.append("hand")
        if self.schwarz and not self.ouvert:
            words.append("schwarz announced")
        elif self.schneider and not self.ouvert:
            words.append("schneider announced")
        return " ".join(words)

    def check(self, skat_taken: bool) -> None:
        """Raise :class:`ContractError` if this contract may not be declared.

        >>> Contract.parse("CS").check(skat_taken=True)
        Traceback (most recent call last):
        ...
        engine.contract.ContractError: schneider can only be announced in a hand game
        """
        if self.game == GameType.RAMSCH:
            raise ContractError("Ramsch is not declared: it is played when all pass")
        if self.game == GameType.NULL and (self.schneider or self.schwarz):
            raise ContractError("schneider and schwarz cannot be announced in a null game")
        if self.game != GameType.NULL:
            if self.ouvert and skat_taken:
                raise ContractError(
                    "an open suit or grand game is always hand: not possible after taking the skat"
                )
            if self.schneider and not self.hand:
                raise ContractError("schneider can only be announced in a hand game")
        if skat_taken and self.hand:
            raise ContractError("the skat was taken up: a hand game is no longer possible")
        if not skat_taken and not self.hand:
            raise ContractError(
                "the skat is still down: take it up first, or declare a hand game"
            )


def _bid_values() -> tuple[int, ...]:
    values = {b * k for b in (9, 10, 11, 12) for k in range(1, 19)}
    values |= {24 * k for k in range(1, 12)}
    values |= {23, 35, 46, 59}
    return tuple(sorted(v for v in values if 18 <= v <= 264))


BID_VALUES: tuple[int, ...] = _bid_values()
_BID_SET = frozenset(BID_VALUES)


def is_bid_value(value: int) -> bool:
    return value in _BID_SET


def next_bid(value: int | None) -> int | None:
    """The smallest legal bid above ``value`` (18 when no bid yet); None above 264."""
    if not value:
        return BID_VALUES[0]
    for v in BID_VALUES:
        if v > value:
            return v
    return None

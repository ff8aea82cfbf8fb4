"""What players do, as small frozen values: a game is its deal plus a list of these.

Every action names its actor by position (0 forehand, 1 middlehand, 2 rearhand) and turns into
a JSON object and back.

>>> a = Play(1, Card.HK)
>>> a.to_json()
{'type': 'play', 'pos': 1, 'card': 'HK'}
>>> action_from_json(a.to_json()) == a
True
>>> str(action_from_json({"type": "declare", "pos": 0, "contract": "CHS"}).contract)
'CHS'

A value of the wrong type is refused when the action is made, so nothing can enter a game
that would not come back from its JSON:

>>> Bid(1, 18.0)
Traceback (most recent call last):
...
engine.actions.IllegalAction: a bid is a whole number such as 18, not 18.0
>>> Play(0, "SK")
Traceback (most recent call last):
...
engine.actions.IllegalAction: a card is a Card such as Card.SK, not 'SK'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, Literal

from engine.cards import Card, CardError
from engine.contract import Contract, ContractError


class IllegalAction(ValueError):
    """An action the rules do not allow now; the message says why in a player's words."""


class ActionError(IllegalAction):
    """An action written wrongly (JSON from a journal, a script or a test)."""


POSITION_NAMES = ("forehand", "middlehand", "rearhand")
ABORT_REASONS = ("timeout", "leave", "resign")


def _check_pos(pos: object) -> None:
    if type(pos) is not int or not 0 <= pos <= 2:
        raise IllegalAction(
            f"a position is 0 (forehand), 1 (middlehand) or 2 (rearhand), not {pos!r}"
        )


def _check_card(card: object) -> None:
    if type(card) is not Card:
        hint = f"Card.{card}" if isinstance(card, str) and card in Card.__members__ else "Card.CJ"
        raise IllegalAction(f"a card is a Card such as {hint}, not {card!r}")


@dataclass(frozen=True, slots=True)
class Action:
    """Base of all actions: ``pos`` is the actor's position (checked when it is made: a
    wrong type or value raises :class:`IllegalAction`)."""

    pos: int
    kind: ClassVar[str] = ""

    def __post_init__(self) -> None:
        _check_pos(self.pos)

    def to_json(self) -> dict[str, Any]:
        return {"type": self.kind, "pos": self.pos}


@dataclass(frozen=True, slots=True)
class Bid(Action):
    """Say a value (the bidder; forehand after both others passed)."""

    value: int
    kind: ClassVar[str] = "bid"

    def __post_init__(self) -> None:
        _check_pos(self.pos)
        if type(self.value) is not int:
            raise IllegalAction(f"a bid is a whole number such as 18, not {self.value!r}")

    def to_json(self) -> dict[str, Any]:
        return {"type": "bid", "pos": self.pos, "value": self.value}


@dataclass(frozen=True, slots=True)
class Hold(Action):
    """"Yes": the listener holds the value said."""

    kind: ClassVar[str] = "hold"


@dataclass(frozen=True, slots=True)
class Pass(Action):
    """Pass in the bidding (or, in Schieberamsch, pass the skat on without taking it)."""

    kind: ClassVar[str] = "pass"


@dataclass(frozen=True, slots=True)
class TakeSkat(Action):
    """The declarer takes up the skat (then two ``Discard`` and a ``Declare``)."""

    kind: ClassVar[str] = "skat"


@dataclass(frozen=True, slots=True)
class Discard(Action):
    """Lay one card into the skat (after a pick-up or a Schieberamsch push)."""

    card: Card
    kind: ClassVar[str] = "discard"

    def __post_init__(self) -> None:
        _check_pos(self.pos)
        _check_card(self.card)

    def to_json(self) -> dict[str, Any]:
        return {"type": "discard", "pos": self.pos, "card": str(self.card)}


@dataclass(frozen=True, slots=True)
class Declare(Action):
    """Announce the contract."""

    contract: Contract
    kind: ClassVar[str] = "declare"

    def __post_init__(self) -> None:
        _check_pos(self.pos)
        if type(self.contract) is not Contract:
            raise IllegalAction(
                f"a contract is a Contract such as Contract.parse('GH'), not {self.contract!r}"
            )

    def to_json(self) -> dict[str, Any]:
        return {"type": "declare", "pos": self.pos, "contract": str(self.contract)}


@dataclass(frozen=True, slots=True)
class Play(Action):
    """Lay a card to the trick."""

    card: Card
    kind: ClassVar[str] = "play"

    def __post_init__(self) -> None:
        _check_pos(self.pos)
        _check_card(self.card)

    def to_json(self) -> dict[str, Any]:
        return {"type": "play", "pos": self.pos, "card": str(self.card)}


@dataclass(frozen=True, slots=True)
class Concede(Action):
    """Give up: the declarer loses at once; a defender gives up for both defenders."""

    kind: ClassVar[str] = "concede"


@dataclass(frozen=True, slots=True)
class Kontra(Action):
    """House rule: a defender doubles the game."""

    kind: ClassVar[str] = "kontra"


@dataclass(frozen=True, slots=True)
class Re(Action):
    """House rule: the declarer answers a Kontra and doubles again."""

    kind: ClassVar[str] = "re"


@dataclass(frozen=True, slots=True)
class Push(Action):
    """Schieberamsch: take the skat (then push two cards on with two ``Discard``)."""

    kind: ClassVar[str] = "push"


@dataclass(frozen=True, slots=True)
class Abort(Action):
    """ISS endings: ``reason`` is ``"timeout"``, ``"leave"`` or ``"resign"``."""

    reason: Literal["timeout", "leave", "resign"] = "timeout"
    kind: ClassVar[str] = "abort"

    def __post_init__(self) -> None:
        _check_pos(self.pos)
        if type(self.reason) is not str or self.reason not in ABORT_REASONS:
            raise ActionError(f"abort reason {self.reason!r} is not one of {ABORT_REASONS}")

    def to_json(self) -> dict[str, Any]:
        return {"type": "abort", "pos": self.pos, "reason": self.reason}


CLAIM_LEVELS = ("", "schneider", "schwarz")


@dataclass(frozen=True, slots=True)
class Claim(Action):
    """Show the cards and claim the rest (ISkO 4.4.4, 4.4.5).

    By the declarer: he lays his cards open and claims every remaining trick, at the simple
    level or at ``level`` (``"schneider"`` or ``"schwarz"``, said when he shows); the defenders
    answer with ``Agree``/``Disagree``. By a defender: the rest for the defenders, decided at
    once (``level`` stays ``""``).
    """

    level: str = ""
    kind: ClassVar[str] = "claim"

    def __post_init__(self) -> None:
        _check_pos(self.pos)
        if type(self.level) is not str or self.level not in CLAIM_LEVELS:
            raise IllegalAction(
                f"a claim is for the simple level (''), 'schneider' or 'schwarz', not "
                f"{self.level!r}"
            )

    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {"type": "claim", "pos": self.pos}
        if self.level:
            d["level"] = self.level
        return d


@dataclass(frozen=True, slots=True)
class Agree(Action):
    """A defender accepts the declarer's claim (both must: then it is scored as claimed)."""

    kind: ClassVar[str] = "agree"


@dataclass(frozen=True, slots=True)
class Disagree(Action):
    """A defender disputes the declarer's claim: play goes on with his cards open."""

    kind: ClassVar[str] = "disagree"


@dataclass(frozen=True, slots=True)
class Violation(Action):
    """Under ``Rules(isko_violations=True)``: ``pos`` laid ``card`` out of turn or without
    following suit (ISkO 4.1.3, 4.1.4, 4.2.3). The innocent party then chooses: ``Enforce``
    (the game ends, the offending party loses) or ``PlayOn`` (the card is taken back, 4.1.6)."""

    card: Card
    kind: ClassVar[str] = "violation"

    def __post_init__(self) -> None:
        _check_pos(self.pos)
        _check_card(self.card)

    def to_json(self) -> dict[str, Any]:
        return {"type": "violation", "pos": self.pos, "card": str(self.card)}


@dataclass(frozen=True, slots=True)
class Enforce(Action):
    """The innocent party ends the game after a violation: the offending party loses."""

    kind: ClassVar[str] = "enforce"


@dataclass(frozen=True, slots=True)
class PlayOn(Action):
    """The innocent party demands that play go on, the offending card taken back (4.1.6)."""

    kind: ClassVar[str] = "play-on"


_KINDS: dict[str, type[Action]] = {
    cls.kind: cls
    for cls in (Bid, Hold, Pass, TakeSkat, Discard, Declare, Play, Concede, Kontra, Re, Push,
                Abort, Claim, Agree, Disagree, Violation, Enforce, PlayOn)
}


def action_from_json(d: dict[str, Any]) -> Action:
    """The action written by ``to_json``; :class:`ActionError` says what is wrong."""
    try:
        kind = d["type"]
        cls = _KINDS[kind]
        pos = d["pos"]
    except (KeyError, TypeError):
        raise ActionError(f"not an action: {d!r}") from None
    if not isinstance(pos, int) or isinstance(pos, bool) or not 0 <= pos <= 2:
        raise ActionError(f"position {pos!r} is not 0, 1 or 2")
    try:
        if cls is Bid:
            value = d["value"]
            if not isinstance(value, int) or isinstance(value, bool):
                raise ActionError(f"bid value {value!r} is not a whole number")
            return Bid(pos, value)
        if cls is Claim:
            return Claim(pos, _text(d.get("level", ""), "claim level"))
        if cls in (Discard, Play, Violation):
            return cls(pos, Card.parse(_text(d["card"], "card")))  # type: ignore[call-arg]
        if cls is Declare:
            return Declare(pos, Contract.parse(_text(d["contract"], "contract")))
        if cls is Abort:
            return Abort(pos, d.get("reason", "timeout"))
    except KeyError as exc:
        raise ActionError(f"{kind} action without {exc.args[0]!r}: {d!r}") from None
    except (CardError, ContractError) as exc:
        raise ActionError(str(exc)) from None
    return cls(pos)


def _text(value: object, what: str) -> str:
    if not isinstance(value, str):
        raise ActionError(f"a {what} is written as text, not {value!r}")
    return value


def describe(action: Action) -> str:
    """The action in words, e.g. ``"middlehand plays HK"``."""
    who = POSITION_NAMES[action.pos]
    if isinstance(action, Bid):
        return f"{who} bids {action.value}"
    if isinstance(action, Hold):
        return f"{who} holds"
    if isinstance(action, Pass):
        return f"{who} passes"
    if isinstance(action, TakeSkat):
        return f"{who} takes up the skat"
    if isinstance(action, Discard):
        return f"{who} discards {action.card}"
    if isinstance(action, Declare):
        return f"{who} declares {action.contract.name}"
    if isinstance(action, Play):
        return f"{who} plays {action.card}"
    if isinstance(action, Abort):
        return f"{who}: {action.reason}"
    if isinstance(action, Claim):
        return f"{who} claims the rest" + (f" ({action.level})" if action.level else "")
    if isinstance(action, Violation):
        return f"{who} lays {action.card} against the rules"
    if isinstance(action, PlayOn):
        return f"{who}: play on"
    return f"{who}: {action.kind}"

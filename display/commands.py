"""Commands: what a touch, a click or a key on the kiosk asks the controller to do.

The kiosk turns input events into these values and hands them to the controller, which treats
them exactly like the corresponding table-script lines (a press, a declaration, a card laid in
the simulator). They are plain frozen dataclasses; :func:`to_script` gives the table-script
line a command stands for, where there is one.

>>> from engine.cards import Card
>>> to_script(Press(1, "bid", 20))
{'seat': 1, 'press': 'bid', 'value': 20}
>>> to_script(Declare(0, "CH"))
{'seat': 0, 'declare': 'CH'}
>>> to_script(LayCard(2, Card.SA))
{'zone': 'seat2', 'card': 'SA'}
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from engine.cards import Card

PressName = Literal["bid", "yes", "pass", "skat", "undo", "concede", "kontra", "re", "claim",
                    "agree", "disagree", "enforce", "play-on", "confirm"]
PRESSES: tuple[PressName, ...] = ("bid", "yes", "pass", "skat", "undo", "concede", "kontra", "re",
                                  "claim", "agree", "disagree", "enforce", "play-on", "confirm")


class CommandError(ValueError):
    """A command built with a value it cannot have."""


@dataclass(frozen=True)
class ConfirmSeat:
    """A player touched their name on the club's seating: that seat is confirmed."""

    seat: int


@dataclass(frozen=True)
class LayCard:
    """Simulator: the card is laid on that seat's pad (or, in the deal, dealt)."""

    seat: int
    card: Card


@dataclass(frozen=True)
class DealNext:
    """Simulator: deal the next card of the shuffled deck over the deal reader."""


@dataclass(frozen=True)
class DealRest:
    """Simulator: deal every card still to deal in this deal."""


@dataclass(frozen=True)
class Press:
    """A seat's button: bid (``value`` None = the next legal value), yes, pass, skat, ..."""

    seat: int
    press: PressName
    value: int | None = None

    # "claim" only: "" the simple level (chosen), "schneider" or "schwarz" said when he shows;
    # None: not chosen yet (the kiosk asks first)
    level: str | None = None

    def __post_init__(self) -> None:
        if self.press not in PRESSES:
            raise CommandError(f"unknown press {self.press!r}: use one of {', '.join(PRESSES)}")
        if self.level is not None and (self.press != "claim"
                                       or self.level not in ("", "schneider", "schwarz")):
            raise CommandError(f"a level goes with a claim only: {self.press!r} {self.level!r}")


@dataclass(frozen=True)
class Declare:
    """The declarer announces a contract in ISS notation (``"G"``, ``"CHS"``, ``"NO"``)."""

    seat: int
    contract: str


@dataclass(frozen=True)
class SetLanguage:
    code: str


@dataclass(frozen=True)
class SetCardStyle:
    style: str


@dataclass(frozen=True)
class ChangeSetting:
    """A choice on the settings screen: ``name`` is one of :data:`SETTINGS` (the language and
    the card faces have their own commands). The controller keeps it across restarts."""

    name: str
    value: str | bool

    def __post_init__(self) -> None:
        if self.name not in SETTINGS:
            raise CommandError(f"unknown setting {self.name!r}: use one of {', '.join(SETTINGS)}")


# What ChangeSetting may change: the computer's pace ("slow", "normal", "fast"), the hand's
# order (trump first: True/False; the suits: "CSHD" or "CHSD"), the sounds and the hints
# (True/False), the computer's level ("beginner", "club", "expert": from the next deal on).
# A new setting (the misplay guard) is added here and in SettingsView.
SETTINGS: tuple[str, ...] = ("speed", "trump_first", "suit_order", "sound", "hints", "level")


@dataclass(frozen=True)
class ShowLastTrick:
    """Show (or hide again) the last trick. The kiosk toggles it itself; the controller may
    ignore the command or log it."""


@dataclass(frozen=True)
class ShowSheet:
    """Show (or hide again) the score sheet over the current scene; handled like
    :class:`ShowLastTrick`."""


@dataclass(frozen=True)
class AskHint:
    """The person at ``seat`` asks what the computer would do (tables with hints on)."""

    seat: int


@dataclass(frozen=True)
class ShowAnalysis:
    """Open (or close again) the trick-by-trick view of the open-card analysis on the result
    screen; handled by the kiosk like :class:`ShowLastTrick`."""


@dataclass(frozen=True)
class Resume:
    """The answer to the start screen's question about an unfinished series: go on with it
    (``keep``) or start a new one."""

    keep: bool


@dataclass(frozen=True)
class ConfirmNotice:
    """Someone at the table has read a loss report (a repaired journal: what was lost):
    ``seq`` is its number in the journal (0: the one the storage has not taken yet)."""

    seq: int


@dataclass(frozen=True)
class Quit:
    """Window closed or Escape in the simulator."""


Command = (
    LayCard | DealNext | DealRest | Press | Declare | SetLanguage | SetCardStyle | ChangeSetting
    | ShowLastTrick | ShowSheet | ShowAnalysis | Resume | AskHint | Quit | ConfirmSeat
    | ConfirmNotice
)


def to_script(command: Command) -> dict | None:
    """The table-script line a command stands for, or None for display-only commands.

    A simulator card names the card rather than a tag; the simulator maps it to the deck's UID.
    """
    match command:
        case Press(seat, press, value, level):
            line: dict = {"seat": seat, "press": press}
            if value is not None:
                line["value"] = value
            if level:
                line["level"] = level
            return line
        case Declare(seat, contract):
            return {"seat": seat, "declare": contract}
        case LayCard(seat, card):
            return {"zone": f"seat{seat}", "card": str(card)}
    return None

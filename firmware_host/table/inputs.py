"""What the table can be told: tags laid and gone, button presses, declarations.

Each input is a small frozen value that reads and writes one table-script line (DESIGN.md,
"Table script"). Readers, GPIO buttons, the touchscreen, the simulator and scripts all produce
these; the controller is the only thing that interprets them.

>>> parse_line('{"zone": "centre", "tag": "04A224B2C94F80"}')
TagLaid(zone='centre', tag='04a224b2c94f80')
>>> parse_line('{"seat": 1, "press": "bid", "value": 20}').to_json()
{'seat': 1, 'press': 'bid', 'value': 20}
>>> parse_line('{"seat": 9, "press": "bid"}')
Traceback (most recent call last):
...
firmware_host.table.inputs.ScriptError: "seat" must be a table seat 0..3, not 9
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

ZONES = ("deal", "centre", "skat", "seat0", "seat1", "seat2", "seat3")
PRESSES = ("bid", "yes", "pass", "skat", "undo", "concede", "kontra", "re", "claim", "agree",
           "disagree", "enforce", "play-on", "confirm")
CLAIM_LEVELS = ("schneider", "schwarz")
_HEX = re.compile(r"^[0-9a-f]{2,40}$")


class ScriptError(ValueError):
    """A table-script line that does not say anything the table understands."""


def shown(value: Any, limit: int = 40) -> str:
    """A value quoted in a refusal: its repr (lone surrogates and control characters
    escaped), cut to ``limit`` characters, so a huge value is never repeated in full.

    >>> shown("ab")
    "'ab'"
    >>> shown("x" * 100, 10)
    "'xxxxxxxx... (93 more characters)"
    """
    text = repr(value)
    if len(text) > limit:
        text = f"{text[:limit - 1]}... ({len(text) - limit + 1} more characters)"
    return text


def _encodable(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate from a "\ud800" escape
        return False
    return True


@dataclass(frozen=True)
class TagLaid:
    """A debounced read: the tag lies on the zone's reader."""

    zone: str
    tag: str

    def to_json(self) -> dict[str, Any]:
        return {"zone": self.zone, "tag": self.tag}


@dataclass(frozen=True)
class TagGone:
    """The tag has left the zone's reader (never refused)."""

    zone: str
    tag: str

    def to_json(self) -> dict[str, Any]:
        return {"zone": self.zone, "tag": self.tag, "gone": True}


@dataclass(frozen=True)
class Press:
    """A seat's button: ``bid`` (``value`` None: the next legal value), ``yes``, ``pass``..."""

    seat: int
    press: str
    value: int | None = None
    level: str | None = None  # "claim" only: "schneider" or "schwarz" said with the claim

    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {"seat": self.seat, "press": self.press}
        if self.value is not None:
            d["value"] = self.value
        if self.level is not None:
            d["level"] = self.level
        return d


@dataclass(frozen=True)
class DeclareInput:
    """The declarer's contract in ISS notation, e.g. ``"G"`` or ``"CHS"``."""

    seat: int
    contract: str

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "declare": self.contract}


Input = TagLaid | TagGone | Press | DeclareInput


def parse_line(text: str) -> Input:
    """One table-script line (a JSON object) as an input; :class:`ScriptError` says why not."""
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ScriptError(f"not a JSON object: {exc.msg}") from None
    except (ValueError, RecursionError) as exc:  # absurd numbers, absurd nesting
        raise ScriptError(f"not a JSON object the table can read: {exc}") from None
    return from_json(obj)


def from_json(obj: Any) -> Input:
    if not isinstance(obj, dict):
        raise ScriptError("a table-script line must be a JSON object")
    if "zone" in obj or "tag" in obj:
        zone, tag = obj.get("zone"), obj.get("tag")
        if zone not in ZONES:
            raise ScriptError(f'"zone" must be one of {", ".join(ZONES)}, not {shown(zone)}')
        if not isinstance(tag, str) or not _HEX.match(tag.strip().lower()):
            raise ScriptError(f'"tag" must be the UID in hex, not {shown(tag)}')
        tag = tag.strip().lower()
        gone = obj.get("gone", False)
        if not isinstance(gone, bool):
            raise ScriptError(f'"gone" must be true or false, not {shown(gone)}')
        return TagGone(zone, tag) if gone else TagLaid(zone, tag)
    seat = obj.get("seat")
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat <= 3:
        raise ScriptError(f'"seat" must be a table seat 0..3, not {shown(seat)}')
    if "declare" in obj:
        contract = obj["declare"]
        text = contract.strip().upper() if isinstance(contract, str) else ""
        # Checked as it is kept: "ß".upper() is "SS", so the length is that of the result.
        if not text or len(text) > 12 or not _encodable(text):
            raise ScriptError(
                f'"declare" must be a contract such as "G" or "CH", not {shown(contract)}')
        return DeclareInput(seat, text)
    press = obj.get("press")
    if press not in PRESSES:
        raise ScriptError(f'"press" must be one of {", ".join(PRESSES)}, not {shown(press)}')
    value = obj.get("value")
    if value is not None:
        if press != "bid":
            raise ScriptError(f'only "bid" takes a "value", not {shown(press)}')
        if not isinstance(value, int) or isinstance(value, bool) or not -9999 <= value <= 9999:
            raise ScriptError(f'"value" must be a whole number, not {shown(value)}')
    level = obj.get("level")
    if level is not None:
        if press != "claim":
            raise ScriptError(f'only "claim" takes a "level", not {shown(press)}')
        if level not in CLAIM_LEVELS:
            raise ScriptError(f'"level" must be "schneider" or "schwarz", not {shown(level)}')
    return Press(seat, press, value, level)


def to_line(inp: Input) -> str:
    return json.dumps(inp.to_json(), ensure_ascii=False)

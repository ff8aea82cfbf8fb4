"""Hints for learners on the kiosk: the "Hint" button for the person to act and the banner with
the computer's suggestion and its reason, in the players' language.

The controller offers the button only where the table's config turns hints on (never at a
club table, where tournaments are played) and only to a person, never to a computer seat; the
suggestion comes from ``engine.players.hints`` (that seat's own knowledge only).

>>> from display.i18n import translator
>>> h = HintView(seat=1, kind="play", card=Card.CA, reason="cash-ace")
>>> hint_sentence(h, lambda seat: "Ben", translator("en"))
'Hint for Ben: play ace of clubs — cash the ace'
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engine.cards import Card

from .i18n import Translator

KINDS = ("play", "bid", "hold", "pass", "skat", "declare", "discard")


@dataclass(frozen=True)
class HintView:
    """What the computer would do for ``seat`` (table seat): ``kind`` one of :data:`KINDS`,
    with its ``card``, ``value`` (bid) or ``contract`` (ISS notation); ``reason`` a key of
    ``engine.players.hints.REASONS`` or None, ``reason_value`` the number it speaks of."""

    seat: int
    kind: str
    card: Card | None = None
    value: int | None = None
    contract: str | None = None
    reason: str | None = None
    reason_value: int | None = None


def from_hint(seat: int, h: Any) -> HintView:
    """The view of an ``engine.players.hints.Hint`` for table seat ``seat``."""
    from engine.actions import Bid, Declare, Discard, Hold, Pass, Play, TakeSkat

    a = h.action
    base = {"seat": seat, "reason": h.reason, "reason_value": h.value}
    if isinstance(a, Play):
        return HintView(kind="play", card=Card(a.card), **base)
    if isinstance(a, Discard):
        then = getattr(h, "then", None)  # the game the discard is meant for
        return HintView(kind="discard", card=Card(a.card), contract=str(then.contract)
                        if isinstance(then, Declare) else None, **base)
    if isinstance(a, Bid):
        return HintView(kind="bid", value=a.value, **base)
    if isinstance(a, Hold):
        return HintView(kind="hold", **base)
    if isinstance(a, Pass):
        return HintView(kind="pass", **base)
    if isinstance(a, TakeSkat):
        return HintView(kind="skat", **base)
    if isinstance(a, Declare):
        return HintView(kind="declare", contract=str(a.contract), **base)
    raise ValueError(f"no hint wording for {a!r}")


def hint_sentence(h: HintView, name_of: Callable[[int], str], tr: Translator) -> str:
    _ = tr
    what = {
        "play": lambda: _("play {card}").format(card=tr.card(h.card)),  # type: ignore[arg-type]
        "discard": lambda: (_("lay away {card}, then declare {contract}").format(
            card=tr.card(h.card), contract=tr.contract(h.contract))  # type: ignore[arg-type]
            if h.contract else _("lay away {card}").format(card=tr.card(h.card))),  # type: ignore[arg-type]
        "bid": lambda: _("bid {value}").format(value=h.value),
        "hold": lambda: _("say yes"),
        "pass": lambda: _("pass"),
        "skat": lambda: _("take the skat"),
        "declare": lambda: _("declare {contract}").format(contract=tr.contract(h.contract or "")),
    }[h.kind]()
    text = _("Hint for {name}: {what}").format(name=name_of(h.seat), what=what)
    reason = reason_words(h, tr)
    return f"{text} — {reason}" if reason else text


def reason_words(h: HintView, tr: Translator) -> str:
    _ = tr
    r = h.reason
    if r is None:
        return ""
    if r == "worth":
        return _("the hand is worth up to {value}").format(value=h.reason_value)
    if r == "too-weak":
        if h.reason_value and h.reason_value >= 18:
            return _("the hand is worth only {value}").format(value=h.reason_value)
        return _("the hand is too weak to bid")
    words = {
        "draw-trumps": _("draw trumps"),
        "cash-ace": _("cash the ace"),
        "take-trick": _("take the trick"),
        "give-points": _("give your partner points"),
        "cheapest": _("throw the cheapest card, the trick is lost"),
        "keep-guard": _("keep the ten guarded"),
        "hand-game": _("strong enough without the skat"),
        "skat": _("no safe hand game"),
        "catchable": _("points the defenders could catch"),
        "void": _("makes a void"),
        "best-game": _("the strongest game for these cards"),
    }
    return words.get(r, "")


def hint_button(b: Any, right: float, top: float, height: float) -> float:
    """The top bar's "Hint" button ending at ``right``; returns its left edge (or ``right``
    when there is no hint to ask for)."""
    from . import commands as cmd

    v = b.v
    if v.hint_seat is None or v.hint is not None or v.scene not in (
            "bidding", "declaration", "play"):
        return right
    label = b._("Hint")
    w = b.label_width(label, 18, 80.0)
    b.f.button(right - w, top, w, height, label, cmd.AskHint(v.hint_seat), role="hint-button",
               size=18)
    return right - w


def hint_banner(b: Any, y: float) -> None:
    """The suggestion under the top bar (until the next input), in the widest stretch of
    its row that hides no button: a banner over "Concede" would take the tap meant for it."""
    from .layout import GOLD, GOLD_DARK

    v = b.v
    if v.hint is None:
        return
    f = b.f
    h, gap = 56.0, 6.0
    row = f.r(8, y, f.W - 16, h)
    blocked = sorted((e.rect.left, e.rect.right) for e in f.elements
                     if e.command is not None and e.layer < 3 and e.rect.colliderect(row))
    left, right, at = row.left, row.left, row.left
    for lo, hi in [*blocked, (row.right, row.right)]:
        if lo - at > right - left:
            left, right = at, lo
        at = max(at, hi)
    x0 = left / f.scale + (gap if left > row.left else 0.0)
    x1 = right / f.scale - (gap if right < row.right else 0.0)
    f.text(x0, y, x1 - x0, h, hint_sentence(v.hint, b.name, b.tr), size=20, face="bold",
           colour=GOLD_DARK, fill=GOLD, role="hint", wrap=True, layer=3)

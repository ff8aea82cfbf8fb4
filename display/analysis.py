"""The open-card analysis on the kiosk: one sentence on the result screen, and a tap away the
trick-by-trick view (the value after each card; cards that lost points and the card that
turned the game marked).

The values come from the controller (``firmware_host.screen.analysis``, which runs
``engine.players.analysis`` in the background): :class:`AnalysisView` holds them by table
seat. The screen always says that this is an analysis with all cards open, never what a player
could have known.

>>> from display.i18n import translator
>>> a = AnalysisView("done", declarer=0, start_value=74, start_makes=True, cards=(
...     AnalysisCard(4, 1, Card.ST, 58, False, 16, True),), deciding=0)
>>> analysis_sentence(a, lambda seat: ["Anna", "Ben", "Carla"][seat], translator("en"))
"With open cards the declarer makes 74; Ben's 10 of spades in trick 4 gave the game away"
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engine.cards import Card

from .i18n import Translator


@dataclass(frozen=True)
class AnalysisCard:
    """One card of the play: who laid it (table seat), the double-dummy value after it (the
    card points the declarer can force; None in null or when only the outcome is known),
    whether the declarer then makes his game, how many points it gave away, and whether it
    is the first card that turned the game against its side."""

    trick: int
    seat: int
    card: Card
    value: int | None
    makes: bool | None
    lost: int | None = None
    turned: bool = False


@dataclass(frozen=True)
class AnalysisView:
    """The analysis of the game on the result screen.

    ``state``: ``"pending"`` (being worked out), ``"done"``, or ``"none"`` (nothing to show:
    passed in, Ramsch). ``detail``: ``"values"`` or ``"outcome"`` (no values: the table has no
    fast solver). ``best_makes``: after a pick-up, whether some discard makes the game
    (``best_discard`` one that does); None for a hand game or when undecided.
    ``deciding``: index in ``cards`` of the card that decided the game as it ended.
    """

    state: str
    detail: str = "values"
    null: bool = False
    declarer: int | None = None
    start_value: int | None = None
    start_makes: bool | None = None
    best_makes: bool | None = None
    best_discard: tuple[Card, ...] = ()
    cards: tuple[AnalysisCard, ...] = ()
    deciding: int | None = None
    won: bool | None = None


def from_analysis(a: Any, seats: tuple[int, int, int]) -> AnalysisView:
    """The view of an :class:`engine.players.analysis.Analysis` (positions) at the table
    (``seats``: table seats of forehand, middlehand, rearhand). Every card after which the
    result changed is marked ``turned``."""
    cards = []
    for s in a.steps:
        before = a.before(s.index).makes
        cards.append(AnalysisCard(
            trick=s.trick, seat=seats[s.pos], card=s.card, value=s.after.value,
            makes=s.after.makes, lost=a.lost(s.index),
            turned=before is not None and s.after.makes is not None
            and before != s.after.makes))
    deciding = a.deciding()
    bd = a.best_discard
    return AnalysisView(
        state="done", detail=a.detail, null=a.is_null, declarer=seats[a.declarer],
        start_value=a.start.value, start_makes=a.start.makes,
        best_makes=None if bd is None else bd.makes,
        best_discard=() if bd is None or bd.discard is None else tuple(bd.discard),
        cards=tuple(cards), deciding=None if deciding is None else deciding.index,
        won=a.won)


def analysis_sentence(a: AnalysisView, name_of: Callable[[int], str], tr: Translator) -> str:
    """One sentence in the players' language, labelled as open-card analysis."""
    _ = tr
    if a.state == "pending":
        return _("Open-card analysis: being worked out…")
    if a.state != "done":
        return ""
    if a.null:
        head = (_("With open cards the null is made") if a.start_makes
                else _("With open cards the null is lost"))
    elif a.detail == "values" and a.start_value is not None:
        head = _("With open cards the declarer makes {points}").format(points=a.start_value)
    else:
        head = (_("With open cards the declarer makes the game") if a.start_makes
                else _("With open cards the declarer cannot make the game"))
    tail = ""
    if a.deciding is not None and 0 <= a.deciding < len(a.cards):
        d = a.cards[a.deciding]
        words = {"name": name_of(d.seat), "card": tr.card(d.card), "trick": d.trick}
        if a.null:
            tail = (_("{name}'s {card} in trick {trick} let the declarer escape") if d.makes
                    else _("{name}'s {card} in trick {trick} let the declarer be caught"))
        else:
            tail = _("{name}'s {card} in trick {trick} gave the game away")
        tail = tail.format(**words)
    elif a.start_makes is False and a.best_makes and a.best_discard:
        tail = _("laying away {cards} would have made it").format(
            cards=", ".join(tr.card(c) for c in a.best_discard))
    elif a.cards:
        tail = _("no card changed the outcome")
    return f"{head}; {tail}" if tail else head


def result_line(b: Any, x: float, y: float, w: float, h: float, command: Any) -> None:
    """The sentence on the result screen (``b`` the scene builder): a tap opens the
    trick-by-trick view (``command``); while it is being worked out, only the words."""
    from .layout import GOLD, MUTED

    a = b.v.analysis
    text = analysis_sentence(a, b.name, b.tr)
    if not text:
        return
    if a.state == "done":
        b.f.button(x, y, w, h, text, command, role="analysis-line", size=18,
                   face="sans", wrap=True, fill=(22, 70, 50), colour=GOLD)
    else:
        b.f.text(x, y, w, h, text, size=18, colour=MUTED, role="analysis-line", wrap=True)


def analysis_scene(b: Any, back: Any) -> None:
    """The trick-by-trick view: ten tricks in two rows of five, each headed by its number and
    who led it, the cards in the order laid; under each card its value (or ✓/✗ for the
    outcome only); a card that gave points away on red with how many, every card after which
    the result changed framed in gold."""
    from .layout import ALERT, ALERT_INK, INK, LOST, MUTED, WON

    f, _, v = b.f, b._, b.v
    a: AnalysisView = v.analysis
    y = b.top_bar(_("Open cards"))
    text = analysis_sentence(a, b.name, b.tr)
    f.text(8, y + 2, f.W - 16, 66, text, size=20, face="bold", role="analysis-sentence",
           wrap=True)
    y += 70
    cols = 5
    gap = 6.0
    block_w = (f.W - 16 - gap * (cols - 1)) / cols
    legend_h = 70.0
    head_h, value_h = 22.0, 22.0
    avail = f.H - y - legend_h - 8
    # The three cards of a trick overlap like a fanned hand (each strip shows its whole
    # index), so that on the 7-inch screen they are as big as the height allows, not as
    # narrow as three side by side would be; the points a card gave away lie on its foot.
    ch = min(120.0, (avail - gap) / 2 - head_h - value_h)
    cw = ch / 1.5
    step = min(cw + 4, (block_w - 4 - cw) / 2)
    block_h = head_h + ch + value_h
    by_trick: dict[int, list[AnalysisCard]] = {}
    for c in a.cards:
        by_trick.setdefault(c.trick, []).append(c)
    for t in range(1, 11):
        row, col = divmod(t - 1, cols)
        bx = 8 + col * (block_w + gap)
        by = y + row * (block_h + gap)
        f.panel(bx, by, block_w, block_h, role="analysis-trick")
        cards = by_trick.get(t, [])
        head = str(t) + (f" · {b.name(cards[0].seat, limit=8)}" if cards else "")
        f.text(bx + 2, by + 1, block_w - 4, head_h - 1, head, size=18, colour=MUTED,
               role="analysis-trick-head")
        x0 = bx + (block_w - 2 * step - cw) / 2
        for i, c in enumerate(cards[:3]):
            cx = x0 + i * step
            cy = by + head_h
            # (a hair less than the step, as in a fanned hand: strips must not touch)
            strip = cw if i == min(len(cards), 3) - 1 else step - 1e-6
            card = f.card(cx, cy, cw, ch, c.card, role="analysis-card", visible_w=strip)
            card.selected = c.turned  # framed in gold: the card after which the result changed
            if a.detail == "values" and c.value is not None:
                label, colour = str(c.value), INK
                if c.makes is not None:
                    colour = WON if c.makes else LOST
            else:
                label = "" if c.makes is None else ("✓" if c.makes else "✗")
                colour = INK if c.makes is None else (WON if c.makes else LOST)
            f.text(cx, cy + ch + 1, strip, value_h - 1, label, size=18, face="bold",
                   colour=colour, role="analysis-value")
            if c.lost:
                f.text(cx + 0.5, cy + ch - 23, min(strip - 1, 48.0), 21, f"−{c.lost}", size=18,
                       face="bold", colour=ALERT_INK, fill=ALERT, role="analysis-lost-points",
                       layer=3)
    if a.detail == "values":
        legend = ". ".join((_("Value: the card points the declarer can force with all cards "
                              "open"), _("Red: the card gave points away (how many)"),
                            _("Gold frame: the card that turned the game")))
    else:
        legend = ". ".join((_("Outcome only (this table has no fast solver): ✓ the declarer "
                              "makes the game, ✗ he does not"),
                            _("Gold frame: the card that turned the game")))
    bw = 120.0
    ly = f.H - legend_h - 4
    f.text(8, ly, f.W - bw - 24, legend_h, legend, size=18, colour=MUTED, align="left",
           role="analysis-legend", wrap=True)
    f.button(f.W - bw - 8, ly + legend_h - 52, bw, 52, _("Back"), back, role="analysis-back")

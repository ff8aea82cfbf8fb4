"""Layout: a scene is a list of :class:`Element` boxes on a logical canvas scaled to the screen.

The logical canvas is 480 units high and as wide as the screen's aspect ratio asks (800 units
at 800x480, 853 at 1920x1080; a 4:3 screen gets 800 units and a taller canvas); one unit is
``height / 480`` pixels (``width / 800`` on screens narrower than 5:3). Boxes are placed in units
and converted to pixels at once, so every text and card face is drawn at its final size (sharp
at every resolution) rather than scaled afterwards.

Texts are fitted when laid out: the largest size not above the asked one at which the text fits
its box. Tests check the result: every text fits at a readable size, and no two content boxes
overlap (panels are backgrounds and may hold content).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from dataclasses import dataclass

import pygame

from engine.cards import Card

from .commands import Command
from .fonts import Fonts

Colour = tuple[int, int, int]

FELT: Colour = (18, 78, 52)
FELT_DARK: Colour = (12, 56, 38)
PANEL: Colour = (10, 44, 30)
INK: Colour = (244, 241, 230)
MUTED: Colour = (170, 196, 180)
GOLD: Colour = (255, 196, 48)
GOLD_DARK: Colour = (60, 44, 6)
ALERT: Colour = (196, 36, 40)
ALERT_INK: Colour = (255, 246, 240)
BUTTON: Colour = (236, 232, 218)
BUTTON_INK: Colour = (20, 32, 26)
WON: Colour = (70, 190, 110)
LOST: Colour = (236, 84, 76)
CHOSEN: Colour = (80, 200, 255)  # the keyboard's focus ring, and a hand card chosen by a tap

LOGICAL_HEIGHT = 480
LOGICAL_WIDTH = 800
MIN_TEXT_UNITS = 18  # the smallest text on any screen: 18 px at 800x480 (7-inch), ~40 at 1080p


@dataclass
class Element:
    """One box on the screen. ``layer`` 0 is background (panels); content is layer 1 and must
    not overlap other content; layer 2 floats above (banners, overlays)."""

    kind: str                         # panel, text, button, card, back, suit, slot, bar
    rect: pygame.Rect
    role: str = ""                    # what it is, for tests and focus: "turn", "trump", ...
    text: str = ""
    face: str = "sans"
    px: int = 0                       # fitted font size in pixels (texts and buttons)
    min_px: int = 0                   # the smallest size this text may take
    colour: Colour = INK
    fill: Colour | None = None
    align: str = "center"
    layer: int = 1
    card: Card | None = None
    suit: str | None = None           # for "suit" icons: C S H D (a button: one, or a row
                                      # of them, "CSHD")
    command: Command | None = None
    selected: bool = False
    draw_rect: pygame.Rect | None = None  # a fanned card is drawn larger than its visible strip
    radius: int = 0
    fits: bool = True
    lines: tuple[str, ...] = ()       # a wrapped text's lines (empty: one line, ``text``)
    raised: int = 0                   # a hand card chosen to be laid: drawn this many px up


class Frame:
    """Builds the element list of one screen. Coordinates are logical units."""

    def __init__(self, size: tuple[int, int], fonts: Fonts) -> None:
        self.size = size
        self.fonts = fonts
        # Landscape screens wider than 5:3 get a wider canvas; narrower ones (4:3) a taller
        # one, so the canvas is always at least 800 x 480 units.
        self.scale = min(size[1] / LOGICAL_HEIGHT, size[0] / LOGICAL_WIDTH)
        self.W = size[0] / self.scale
        self.H = size[1] / self.scale
        self.elements: list[Element] = []

    def r(self, x: float, y: float, w: float, h: float) -> pygame.Rect:
        s = self.scale
        left, top = round(x * s), round(y * s)
        return pygame.Rect(left, top, round((x + w) * s) - left, round((y + h) * s) - top)

    def px(self, units: float) -> int:
        return max(1, round(units * self.scale))

    def fit(self, text: str, face: str, rect: pygame.Rect, want: int,
            min_px: int) -> tuple[int, bool]:
        """The largest size <= ``want`` at which ``text`` fits ``rect`` (with a little air)."""
        px = want
        avail_w = rect.width - max(2, rect.height // 8)
        while px > min_px:
            w, h = self.fonts.size(face, px, text)
            if w <= avail_w and h <= rect.height:
                return px, True
            px = max(min_px, int(px * 0.92))
        w, h = self.fonts.size(face, px, text)
        return px, w <= avail_w and h <= rect.height

    def fit_wrapped(self, text: str, face: str, rect: pygame.Rect, want: int,
                    min_px: int) -> tuple[int, tuple[str, ...], bool]:
        """Like :meth:`fit`, breaking the text into lines at spaces where that helps."""
        avail_w = rect.width - max(2, rect.height // 16)
        px = want
        while True:
            font = self.fonts.get(face, px)
            lines = wrap_words(text, lambda s, f=font: f.size(s)[0], avail_w)
            tall = len(lines) * font.get_linesize()
            wide = max(font.size(line)[0] for line in lines)
            ok = tall <= rect.height and wide <= avail_w
            if ok or px <= min_px:
                return px, tuple(lines), ok
            px = max(min_px, int(px * 0.92))

    def add(self, el: Element) -> Element:
        self.elements.append(el)
        return el

    def panel(self, x: float, y: float, w: float, h: float, fill: Colour = PANEL,
              role: str = "panel", radius: float = 10, selected: bool = False,
              outline: Colour | None = None, layer: int = 0) -> Element:
        return self.add(Element("panel", self.r(x, y, w, h), role=role, fill=fill, layer=layer,
                                radius=self.px(radius), selected=selected,
                                colour=outline or GOLD))

    def text(self, x: float, y: float, w: float, h: float, text: str, size: float = 20,
             face: str = "sans", colour: Colour = INK, align: str = "center",
             role: str = "text", min_units: float = MIN_TEXT_UNITS, layer: int = 1,
             fill: Colour | None = None, wrap: bool = False,
             ellipsize: bool = False) -> Element:
        """A text fitted to its box; ``wrap`` breaks it into lines, ``ellipsize`` (for names)
        cuts it with "…" when even the smallest size is too wide."""
        rect = self.r(x, y, w, h)
        min_px = self.px(min_units)
        text = printable(text)
        lines: tuple[str, ...] = ()
        if wrap:
            px, lines, fits = self.fit_wrapped(text, face, rect, self.px(size), min_px)
            if len(lines) == 1:
                lines = ()
        else:
            px, fits = self.fit(text, face, rect, self.px(size), min_px)
            while not fits and ellipsize and len(text) > 1:
                text = text[:-2].rstrip() + "…"
                px, fits = self.fit(text, face, rect, min_px, min_px)
        return self.add(Element("text", rect, role=role, text=text, face=face, px=px,
                                min_px=min_px, colour=colour, align=align, layer=layer,
                                fits=fits, fill=fill, lines=lines))

    def button(self, x: float, y: float, w: float, h: float, label: str,
               command: Command | None, role: str = "button", size: float = 20,
               fill: Colour = BUTTON, colour: Colour = BUTTON_INK, selected: bool = False,
               face: str = "bold", layer: int = 1, suit: str | None = None,
               wrap: bool = False) -> Element:
        rect = self.r(x, y, w, h)
        min_px = self.px(MIN_TEXT_UNITS)
        label = printable(label)
        label_rect = rect.inflate(-self.px(8), -self.px(4))
        if suit:
            label_rect.width -= rect.height
        lines: tuple[str, ...] = ()
        if label and wrap:
            px, lines, fits = self.fit_wrapped(label, face, label_rect, self.px(size), min_px)
            lines = lines if len(lines) > 1 else ()
        elif label:
            px, fits = self.fit(label, face, label_rect, self.px(size), min_px)
        else:
            px, fits = 0, True
        return self.add(Element("button", rect, role=role, text=label, face=face, px=px,
                                min_px=min_px, colour=colour, fill=fill, command=command,
                                selected=selected, radius=self.px(8), layer=layer, fits=fits,
                                suit=suit, lines=lines))

    def card(self, x: float, y: float, w: float, h: float, card: Card | None,
             role: str = "card", command: Command | None = None,
             visible_w: float | None = None, layer: int = 1,
             visible_h: float | None = None) -> Element:
        """A card face (``card`` None: a back). ``visible_w`` and ``visible_h``: only that
        part shows, from the top left (a fan; the first of two rows)."""
        full = self.r(x, y, w, h)
        rect = (self.r(x, y, visible_w if visible_w is not None else w,
                       visible_h if visible_h is not None else h)
                if visible_w is not None or visible_h is not None else full)
        return self.add(Element("card" if card is not None else "back", rect, role=role,
                                card=card, command=command, draw_rect=full, layer=layer))

    def slot(self, x: float, y: float, w: float, h: float, role: str = "slot",
             layer: int = 1) -> Element:
        return self.add(Element("slot", self.r(x, y, w, h), role=role, radius=self.px(8),
                                layer=layer))

    def suit_icon(self, x: float, y: float, size: float, suit: str, role: str = "suit") -> Element:
        return self.add(Element("suit", self.r(x, y, size, size), role=role, suit=suit))

    def bar(self, x: float, y: float, w: float, h: float, fraction: float,
            role: str = "progress") -> Element:
        return self.add(Element("bar", self.r(x, y, w, h), role=role,
                                text=f"{max(0.0, min(1.0, fraction)):.4f}", radius=self.px(h / 2)))


def wrap_words(text: str, width_of: Callable[[str], int], avail: int) -> list[str]:
    """Greedy line breaking at spaces; a word longer than a line stays whole (and the fit
    check then reports it)."""
    lines: list[str] = []
    current = ""
    for word in text.split(" "):
        trial = f"{current} {word}" if current else word
        if current and width_of(trial) > avail:
            lines.append(current)
            current = word
        else:
            current = trial
    lines.append(current)
    return lines


def printable(text: str) -> str:
    """The text without control characters (a NUL in an engine message or a player's name
    would make the font refuse the whole string); line breaks become spaces."""
    return "".join(" " if c in "\n\r\t" else c for c in text
                   if c in "\n\r\t" or unicodedata.category(c) != "Cc")

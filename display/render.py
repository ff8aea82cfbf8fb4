"""Drawing: a view becomes its element list (``layout``), the elements become pixels.

``render(view, size)`` is the pure entry point used for screenshots and tests; the kiosk keeps
one :class:`Renderer` so that fonts, suit symbols and card faces are made once.
"""

from __future__ import annotations

import pygame

from .cards import CardFaces
from .fonts import Fonts
from .i18n import Translator
from .layout import BUTTON_INK, CHOSEN, FELT, GOLD, INK, Element, Frame
from .scenes import SceneBuilder, UiState
from .suits import SuitCache
from .view import View


class Renderer:
    """Lays out and draws views; keeps fonts, translations and card faces between frames."""

    def __init__(self) -> None:
        if not pygame.font.get_init():
            pygame.font.init()
        self.fonts = Fonts()
        self.suits = SuitCache()
        self.faces = CardFaces(self.fonts, self.suits)
        self._translators: dict[tuple[str, bool], Translator] = {}

    def translator(self, view: View) -> Translator:
        key = (view.language, view.card_style == "german")
        tr = self._translators.get(key)
        if tr is None:
            tr = self._translators[key] = Translator(*key)
        return tr

    def layout(self, view: View, size: tuple[int, int],
               ui: UiState | None = None) -> list[Element]:
        frame = Frame(size, self.fonts)
        SceneBuilder(frame, view, self.translator(view), ui or UiState()).build()
        return frame.elements

    def draw(self, surface: pygame.Surface, view: View, elements: list[Element],
             focus: int | None = None, area: pygame.Rect | None = None) -> None:
        """Draw the elements; with ``area``, only that part of the surface is touched."""
        surface.set_clip(area)
        surface.fill(FELT)
        letters = self.translator(view).rank_letters
        # Content in layer order, so banners (layer 2) float above the scene and a loss
        # report to confirm (layers 4 and 5) above every other question.
        for layer in (0, 1, 2, 3, 4, 5):
            for el in elements:
                if el.layer == layer and (area is None
                                          or area.colliderect(el.draw_rect or el.rect)):
                    self.draw_element(surface, el, view.card_style, letters)
        if focus is not None:
            actionable = [e for e in elements if e.command is not None]
            if 0 <= focus < len(actionable):
                rect = actionable[focus].rect.inflate(6, 6)
                pygame.draw.rect(surface, (80, 200, 255), rect, width=max(2, rect.h // 16),
                                 border_radius=8)
        surface.set_clip(None)

    def draw_element(self, surface: pygame.Surface, el: Element, style: str,
                     letters: tuple[str, ...]) -> None:
        kind = el.kind
        if kind == "panel":
            pygame.draw.rect(surface, el.fill or (0, 0, 0), el.rect, border_radius=el.radius)
            if el.selected:
                pygame.draw.rect(surface, el.colour, el.rect, width=max(2, el.rect.h // 40),
                                 border_radius=el.radius)
        elif kind == "text":
            if el.fill is not None:
                pygame.draw.rect(surface, el.fill, el.rect,
                                 border_radius=min(el.rect.h // 3, el.rect.w // 8))
            self.blit_text(surface, el)
        elif kind == "button":
            fill = el.fill or (200, 200, 200)
            shadow = el.rect.move(0, max(1, el.rect.h // 16))
            pygame.draw.rect(surface, (0, 0, 0, 60), shadow, border_radius=el.radius)
            pygame.draw.rect(surface, fill, el.rect, border_radius=el.radius)
            if el.selected:
                pygame.draw.rect(surface, GOLD if fill != GOLD else BUTTON_INK, el.rect,
                                 width=max(2, el.rect.h // 14), border_radius=el.radius)
            if el.suit and len(el.suit) > 1:  # a row of suits (the settings' suit order)
                px = int(min(el.rect.h * 0.56, el.rect.w * 0.8 / len(el.suit)))
                step = el.rect.w / len(el.suit)
                for i, suit in enumerate(el.suit):
                    icon = self.suits.get(suit, style, px)
                    centre = (round(el.rect.left + step * (i + 0.5)), el.rect.centery)
                    surface.blit(icon, icon.get_rect(center=centre))
            elif el.suit:
                px = int(el.rect.h * (0.62 if el.text else 0.7))
                icon = self.suits.get(el.suit, style, px)
                centre = ((el.rect.left + el.rect.h // 2, el.rect.centery) if el.text
                          else el.rect.center)
                surface.blit(icon, icon.get_rect(center=centre))
            if el.text:
                self.blit_text(surface, el)
        elif kind == "card" and el.card is not None:
            rect = el.draw_rect or el.rect
            surface.blit(self.faces.face(el.card, style, rect.size, letters), rect.topleft)
            if el.raised:  # chosen by a first tap: lifted, in a frame of the focus blue
                shown = el.rect.move(0, -el.raised)
                pygame.draw.rect(surface, CHOSEN, shown, width=max(3, el.rect.h // 20),
                                 border_radius=max(3, rect.w // 12))
            elif el.selected:  # a card taken up from the skat: a gold frame around the part
                # that shows (a fanned card's neighbour covers everything right of its strip);
                # no tint, which would cost the index its contrast
                pygame.draw.rect(surface, GOLD, el.rect, width=max(3, el.rect.h // 24),
                                 border_radius=max(3, rect.w // 12))
            if el.role == "refused-card":  # crossed out
                width = max(2, rect.w // 16)
                shade = pygame.Surface(rect.size, pygame.SRCALPHA)
                shade.fill((0, 0, 0, 30))
                surface.blit(shade, rect.topleft)
                inner = rect.inflate(-rect.w // 6, -rect.w // 6)
                pygame.draw.line(surface, (120, 0, 0), inner.topleft, inner.bottomright, width)
                pygame.draw.line(surface, (120, 0, 0), inner.topright, inner.bottomleft, width)
        elif kind == "back":
            rect = el.draw_rect or el.rect
            surface.blit(self.faces.back(rect.size), rect.topleft)
        elif kind == "slot":
            colour = GOLD if "turn" in el.role else (90, 140, 112)
            width = max(2, el.rect.w // 30) * (2 if "turn" in el.role else 1)
            pygame.draw.rect(surface, colour, el.rect, width=width, border_radius=el.radius)
        elif kind == "suit" and el.suit:
            icon = self.suits.get(el.suit, style, el.rect.h)
            bg = el.rect.inflate(el.rect.h // 5, el.rect.h // 5)
            pygame.draw.ellipse(surface, (250, 249, 242), bg)
            surface.blit(icon, icon.get_rect(center=el.rect.center))
        elif kind == "bar":
            fraction = float(el.text or 0)
            pygame.draw.rect(surface, (8, 36, 24), el.rect, border_radius=el.radius)
            done = el.rect.copy()
            done.width = round(el.rect.width * fraction)
            if done.width:
                pygame.draw.rect(surface, GOLD, done, border_radius=el.radius)

    def blit_text(self, surface: pygame.Surface, el: Element) -> None:
        if el.fits:
            self._blit_text(surface, el)
            return
        # A text too long for its box even at the smallest size (a word longer than the
        # box: a device path) is cut at the box, never drawn over its neighbours.
        clip = surface.get_clip()
        surface.set_clip(el.rect.clip(clip))
        try:
            self._blit_text(surface, el)
        finally:
            surface.set_clip(clip)

    def _blit_text(self, surface: pygame.Surface, el: Element) -> None:
        font = self.fonts.get(el.face, el.px)
        if el.lines:
            step = font.get_linesize()
            top = el.rect.centery - step * len(el.lines) // 2
            for i, line in enumerate(el.lines):
                img = font.render(line, True, el.colour)
                r = img.get_rect(top=top + i * step)
                if el.align == "left":
                    r.left = el.rect.left + 2
                elif el.align == "right":
                    r.right = el.rect.right - 2
                else:
                    r.centerx = el.rect.centerx
                surface.blit(img, r)
            return
        img = font.render(el.text, True, el.colour if el.kind == "text" else el.colour or INK)
        rect = img.get_rect()
        box = el.rect
        if el.kind == "button" and el.suit:
            box = box.copy()
            box.left += box.h
            box.width -= box.h
        pad = max(2, box.h // 16)
        if el.align == "left":
            rect.midleft = (box.left + pad, box.centery)
        elif el.align == "right":
            rect.midright = (box.right - pad, box.centery)
        else:
            rect.center = box.center
        surface.blit(img, rect)


def render(view: View, size: tuple[int, int], ui: UiState | None = None,
           renderer: Renderer | None = None) -> pygame.Surface:
    """The screen a view makes at ``size``, drawn off-screen (no window needed)."""
    renderer = renderer or Renderer()
    surface = pygame.Surface(size)
    renderer.draw(surface, view, renderer.layout(view, size, ui))
    return surface

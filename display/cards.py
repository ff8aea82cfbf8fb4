"""Card faces drawn in code, at any size: corner indices, pips, court panels, card backs.

A face is drawn once per (card, style, size, index letters) and kept, so a redraw only blits.

Pip layouts follow printed decks: 7, 8, 9, 10 in two or three columns; the ace one big pip;
jack, queen and king a framed panel with the index letter and the suit. Below a height of
about 90 pixels pips would be unreadable, so small cards show one large suit symbol instead.
"""

from __future__ import annotations

import pygame

from engine.cards import Card

from .fonts import Fonts
from .suits import SUIT_COLOURS, SuitCache

FACE = (252, 251, 246)
EDGE = (150, 150, 140)
BACK = (28, 58, 120)
BACK_LINE = (64, 98, 168)

# Pip centres (x, y in 0..1 of the pip area) for the number cards.
PIPS: dict[int, list[tuple[float, float]]] = {
    0: [(0.06, 0.0), (0.94, 0.0), (0.5, 0.25), (0.06, 0.5), (0.94, 0.5), (0.06, 1.0), (0.94, 1.0)],
    1: [(0.06, 0.0), (0.94, 0.0), (0.5, 0.25), (0.06, 0.5), (0.94, 0.5), (0.5, 0.75), (0.06, 1.0),
        (0.94, 1.0)],
    2: [(0.06, 0.0), (0.94, 0.0), (0.06, 0.333), (0.94, 0.333), (0.5, 0.5), (0.06, 0.667),
        (0.94, 0.667), (0.06, 1.0), (0.94, 1.0)],
    3: [(0.06, 0.0), (0.94, 0.0), (0.5, 0.167), (0.06, 0.333), (0.94, 0.333), (0.06, 0.667),
        (0.94, 0.667), (0.5, 0.833), (0.06, 1.0), (0.94, 1.0)],
}


def corner_radius(w: int) -> int:
    return max(3, w // 12)


def corner_px(h: int, letter: str) -> tuple[int, int]:
    """The corner index's font size and suit symbol size on a card ``h`` pixels high.

    A big card keeps the printed proportions (letter 17 %, symbol 11 % of the height). A
    small one is mostly seen as a strip of a fanned hand, where the index is all that shows:
    from 150 px down to 90 px the index grows to letter 24 % and symbol 18 %, so that on the
    7-inch screen a jack of spades is not read as a jack of clubs (a 7 px symbol was).
    """
    boost = min(1.0, max(0.0, (150 - h) / 60))
    share = (0.17 if len(letter) == 1 else 0.15) + 0.07 * boost
    return max(8, int(h * share)), max(5, int(h * (0.11 + 0.07 * boost)))


def index_width(fonts: Fonts, w: int, h: int, letter: str = "10") -> int:
    """Pixels from a card's left edge to the right of its corner index (as :class:`CardFaces`
    draws it): the strip of a fanned card must show at least this much."""
    idx_px, pip_px = corner_px(h, letter)
    return max(2, int(w * 0.05)) + max(fonts.size("condbold", idx_px, letter)[0], pip_px)


class CardFaces:
    """Draws and keeps card faces. ``faces.face(Card.HT, "german", (80, 120), letters)``."""

    def __init__(self, fonts: Fonts, suits: SuitCache | None = None) -> None:
        self.fonts = fonts
        self.suits = suits or SuitCache()
        self._cache: dict[tuple, pygame.Surface] = {}

    def face(self, card: Card, style: str, size: tuple[int, int],
             letters: tuple[str, ...]) -> pygame.Surface:
        key = (card, style, size, letters)
        surf = self._cache.get(key)
        if surf is None:
            surf = self._cache[key] = self._draw(card, style, size, letters)
        return surf

    def back(self, size: tuple[int, int]) -> pygame.Surface:
        key = ("back", size)
        surf = self._cache.get(key)
        if surf is None:
            surf = self._cache[key] = self._draw_back(size)
        return surf

    def _draw_back(self, size: tuple[int, int]) -> pygame.Surface:
        w = size[0]
        surf = pygame.Surface(size, pygame.SRCALPHA)
        r = corner_radius(w)
        pygame.draw.rect(surf, FACE, surf.get_rect(), border_radius=r)
        inner = surf.get_rect().inflate(-max(4, w // 10), -max(4, w // 10))
        pygame.draw.rect(surf, BACK, inner, border_radius=max(2, r // 2))
        step = max(4, w // 8)
        clip = surf.get_clip()
        surf.set_clip(inner)
        for x in range(inner.left - inner.height, inner.right, step):
            pygame.draw.line(surf, BACK_LINE, (x, inner.bottom), (x + inner.height, inner.top))
            pygame.draw.line(surf, BACK_LINE, (x, inner.top), (x + inner.height, inner.bottom))
        surf.set_clip(clip)
        pygame.draw.rect(surf, EDGE, surf.get_rect(), width=1, border_radius=r)
        return surf

    def _draw(self, card: Card, style: str, size: tuple[int, int],
              letters: tuple[str, ...]) -> pygame.Surface:
        w, h = size
        suit = card.name[0]
        colour = SUIT_COLOURS[style][suit]
        surf = pygame.Surface(size, pygame.SRCALPHA)
        r = corner_radius(w)
        pygame.draw.rect(surf, FACE, surf.get_rect(), border_radius=r)
        pygame.draw.rect(surf, EDGE, surf.get_rect(), width=1, border_radius=r)

        # Corner index: rank letter over a small suit, top left and (turned) bottom right.
        letter = letters[card.rank]
        idx_px, pip_px = corner_px(h, letter)
        font = self.fonts.get("condbold", idx_px)
        text = font.render(letter, True, colour if style != "german" else (30, 30, 30))
        small = self.suits.get(suit, style, pip_px)
        col_w = max(text.get_width(), pip_px)
        corner = pygame.Surface((col_w, text.get_height() + pip_px), pygame.SRCALPHA)
        corner.blit(text, ((col_w - text.get_width()) // 2, 0))
        corner.blit(small, ((col_w - pip_px) // 2, text.get_height() - max(1, idx_px // 8)))
        pad = max(2, int(w * 0.05))
        surf.blit(corner, (pad, pad))
        surf.blit(pygame.transform.rotate(corner, 180),
                  (w - pad - corner.get_width(), h - pad - corner.get_height()))

        # The centre, clear of the indices.
        left = pad + col_w + max(1, pad // 2)
        area = pygame.Rect(left, pad, w - 2 * left, h - 2 * pad)
        rank = card.rank
        if rank >= 4 and rank <= 6:
            self._court(surf, area, suit, style, letter, colour, rank - 4)
        elif rank == 7 or h < 90:
            px = int(min(area.width * 0.9, area.height * 0.55))
            big = self.suits.get(suit, style, px)
            surf.blit(big, big.get_rect(center=area.center))
        else:
            self._pips(surf, area, suit, style, rank)
        return surf

    def _pips(self, surf: pygame.Surface, area: pygame.Rect, suit: str, style: str,
              rank: int) -> None:
        px = int(min(area.width * 0.36, area.height * 0.2))
        pip = self.suits.get(suit, style, px)
        turned = pygame.transform.rotate(pip, 180)
        inner = area.inflate(-px, -px)
        for fx, fy in PIPS[rank]:
            x = inner.left + fx * inner.width
            y = inner.top + fy * inner.height
            img = turned if fy > 0.55 else pip
            surf.blit(img, img.get_rect(center=(round(x), round(y))))

    def _bust(self, w: int, h: int, court: int, suit: str, style: str,
              colour: tuple[int, int, int]) -> pygame.Surface:
        """Half a court card: 0 jack (cap and feather), 1 queen (hair and tiara), 2 king
        (crown and beard), drawn 3x larger and scaled down."""
        k = 3
        big = pygame.Surface((w * k, h * k), pygame.SRCALPHA)
        W, H = w * k, h * k

        def pt(x: float, y: float) -> tuple[float, float]:
            return (x * W, y * H)

        skin, gold, dark = (246, 214, 178), (232, 178, 36), (60, 40, 30)
        light = tuple(min(255, c + (255 - c) // 2) for c in colour)
        # Shoulders and robe in the suit's colour, a white collar, a gold trim.
        pygame.draw.polygon(big, colour, [pt(0.04, 1.0), pt(0.22, 0.76), pt(0.78, 0.76),
                                          pt(0.96, 1.0)])
        pygame.draw.polygon(big, light, [pt(0.38, 0.76), pt(0.5, 0.94), pt(0.62, 0.76)])
        pygame.draw.line(big, gold, pt(0.5, 0.94), pt(0.5, 1.0), max(1, W // 40))
        hr = min(W * 0.21, H * 0.22)
        head = pt(0.5, 0.5)
        if court == 1:  # the queen's hair falls behind her head
            pygame.draw.ellipse(big, dark, pygame.Rect(head[0] - hr * 1.35, head[1] - hr * 1.2,
                                                      hr * 2.7, hr * 2.6))
        pygame.draw.circle(big, skin, head, hr)
        eye = max(1, int(hr * 0.12))
        for dx in (-0.38, 0.38):
            pygame.draw.circle(big, dark, (head[0] + dx * hr, head[1] - 0.05 * hr), eye)
        if court == 2:  # the king's beard
            pygame.draw.polygon(big, (150, 110, 80), [
                (head[0] - hr * 0.8, head[1] + hr * 0.3), (head[0], head[1] + hr * 1.5),
                (head[0] + hr * 0.8, head[1] + hr * 0.3)])
        else:
            pygame.draw.arc(big, (170, 60, 60), pygame.Rect(head[0] - hr * 0.4,
                            head[1] + hr * 0.1, hr * 0.8, hr * 0.5), 3.5, 5.9,
                            max(1, int(hr * 0.1)))
        top = head[1] - hr
        if court == 2:  # crown
            pts = [(head[0] - hr, top + hr * 0.1)]
            for i in range(5):
                x = head[0] - hr + i * hr / 2
                pts += [(x, top - hr * (0.7 if i % 2 == 0 else 0.35)), (x + hr / 4, top - hr * 0.3)]
            pts += [(head[0] + hr, top - hr * 0.7), (head[0] + hr, top + hr * 0.1)]
            pygame.draw.polygon(big, gold, pts)
        elif court == 1:  # tiara
            pygame.draw.polygon(big, gold, [(head[0] - hr * 0.7, top + hr * 0.15),
                                            (head[0], top - hr * 0.45),
                                            (head[0] + hr * 0.7, top + hr * 0.15)])
            pygame.draw.circle(big, colour, (head[0], top - hr * 0.05), hr * 0.16)
        else:  # cap with a feather
            cap = pygame.Rect(head[0] - hr * 1.1, top - hr * 0.5, hr * 2.2, hr * 1.1)
            pygame.draw.ellipse(big, colour, cap)
            pygame.draw.rect(big, gold, (head[0] - hr * 1.05, top + hr * 0.05, hr * 2.1,
                                         hr * 0.22))
            pygame.draw.line(big, gold, (head[0] + hr * 0.5, top - hr * 0.3),
                             (head[0] + hr * 1.5, top - hr * 1.0), max(1, int(hr * 0.18)))
        out = pygame.transform.smoothscale(big, (w, h))
        pip_px = max(6, int(min(w * 0.3, h * 0.3)))
        pip = self.suits.get(suit, style, pip_px)
        out.blit(pip, (max(1, w // 20), max(1, h // 16)))
        return out

    def _court(self, surf: pygame.Surface, area: pygame.Rect, suit: str, style: str,
               letter: str, colour: tuple[int, int, int], court: int) -> None:
        frame = area.inflate(-max(2, area.width // 14), -max(2, area.height // 20))
        tint = tuple(255 - (255 - c) // 9 for c in colour)
        pygame.draw.rect(surf, tint, frame, border_radius=max(2, frame.width // 10))
        pygame.draw.rect(surf, colour, frame, width=max(1, frame.width // 30),
                         border_radius=max(2, frame.width // 10))
        # Mirrored halves, as on a double-headed court card: a bust with the rank's headwear
        # (crown, tiara, cap) and the suit, then the same turned. Small cards keep the letter.
        hw, hh = frame.width, frame.height // 2
        if hw < 2 or hh < 2:  # a card too small for a picture: the corner index says it
            return
        if hh >= 40:
            half = self._bust(hw, hh, court, suit, style, colour)
        else:
            half = pygame.Surface((hw, hh), pygame.SRCALPHA)
            l_px = max(8, int(min(frame.height * 0.3, frame.width * 0.62)))
            text = self.fonts.get("bold", l_px).render(letter, True, colour)
            s_px = max(5, int(min(frame.height * 0.17, frame.width * 0.36)))
            pip = self.suits.get(suit, style, s_px)
            gap = max(1, frame.height // 60)
            total = text.get_height() + s_px - gap
            top = max(0, (hh - total) // 2)
            half.blit(text, text.get_rect(midtop=(hw // 2, top)))
            half.blit(pip, pip.get_rect(midtop=(hw // 2, top + text.get_height() - gap * 3)))
        surf.blit(half, frame.topleft)
        surf.blit(pygame.transform.rotate(half, 180), (frame.left, frame.centery))
        pygame.draw.line(surf, colour, (frame.left + frame.width // 8, frame.centery),
                         (frame.right - frame.width // 8, frame.centery), 1)

"""Card faces and suit symbols: the right colour for each suit in each style, any size."""

from __future__ import annotations

import colorsys

import pygame
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from display.cards import CardFaces
from display.fonts import Fonts
from display.suits import draw_suit
from engine.cards import Card

# What a player expects to see, as a hue class of the symbol's dominant ink.
EXPECTED = {
    "french": {"C": "black", "S": "black", "H": "red", "D": "red"},
    "four-colour": {"C": "black", "S": "green", "H": "red", "D": "yellow"},
    "german": {"C": "brown", "S": "green", "H": "red", "D": "yellow"},
}


def ink_class(surface: pygame.Surface) -> str:
    """Classify the opaque pixels of a symbol by their mean colour."""
    w, h = surface.get_size()
    total = [0, 0, 0]
    n = 0
    for x in range(0, w, 2):
        for y in range(0, h, 2):
            r, g, b, a = surface.get_at((x, y))
            if a > 200:
                total[0] += r
                total[1] += g
                total[2] += b
                n += 1
    assert n > 0, "the symbol has no opaque pixels"
    r, g, b = (c / n / 255 for c in total)
    hue, light, sat = colorsys.rgb_to_hls(r, g, b)
    hue *= 360
    if light < 0.2 or sat < 0.25:
        return "black"
    if hue < 15 or hue > 340:
        return "red"
    if hue < 36:
        return "brown" if light < 0.4 else "orange"
    if hue < 65:
        return "yellow"
    if 80 < hue < 170:
        return "green"
    return f"hue {hue:.0f}"


@pytest.mark.parametrize("style", list(EXPECTED))
@pytest.mark.parametrize("suit", "CSHD")
def test_suit_colours(style: str, suit: str) -> None:
    pygame.init()
    assert ink_class(draw_suit(suit, style, 96)) == EXPECTED[style][suit]


def test_german_suits_are_different_shapes_from_french() -> None:
    """Acorns and bells are not clubs and diamonds in another colour: their silhouettes
    differ (compared as masks)."""
    for suit in "CSD":
        french = pygame.mask.from_surface(draw_suit(suit, "french", 64))
        german = pygame.mask.from_surface(draw_suit(suit, "german", 64))
        common = french.overlap_area(german, (0, 0))
        assert common < 0.85 * max(french.count(), german.count()), suit


@pytest.fixture(scope="module")
def faces() -> CardFaces:
    pygame.font.init()
    return CardFaces(Fonts())


LETTERS = ("7", "8", "9", "10", "B", "D", "K", "A")


@settings(max_examples=40, deadline=None)
@given(card=st.sampled_from(list(Card)), style=st.sampled_from(list(EXPECTED)),
       width=st.integers(min_value=20, max_value=320))
def test_face_any_size(faces: CardFaces, card: Card, style: str, width: int) -> None:
    size = (width, int(width * 1.5))
    face = faces.face(card, style, size, LETTERS)
    assert face.get_size() == size
    # The corner index carries the suit's ink: the top-left quarter is not blank.
    corner = face.subsurface((0, 0, max(1, width // 3), max(1, size[1] // 4)))
    assert pygame.mask.from_threshold(corner, (252, 251, 246, 255), (12, 12, 12, 255)).count() \
        < corner.get_width() * corner.get_height()


def test_faces_differ_between_cards(faces: CardFaces) -> None:
    seen = set()
    for card in Card:
        face = faces.face(card, "french", (90, 135), LETTERS)
        seen.add(pygame.image.tobytes(face, "RGBA"))
    assert len(seen) == 32


def test_faces_are_kept(faces: CardFaces) -> None:
    a = faces.face(Card.HA, "german", (60, 90), LETTERS)
    assert faces.face(Card.HA, "german", (60, 90), LETTERS) is a
    assert faces.back((60, 90)) is faces.back((60, 90))

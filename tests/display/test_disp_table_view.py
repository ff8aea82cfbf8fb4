"""The trick on the table: each card at the place of the one who laid it, as players sit round
a real table. The person nearest the screen (the one who plays in the simulator) at the front,
the next in the play's order (clockwise, to their left) at the back left, the third at the back
right; names beside the places, the declarer's said. Played in the running kiosk with taps."""

from __future__ import annotations

from dataclasses import replace

import pytest
from tabletop import Tabletop
from test_disp_layout import check_layout
from test_disp_table import play_until

from display.layout import Element
from display.samples import extra_views, sample_view
from display.view import LANGUAGES, TrickView


def places(elements: list[Element], trick: str = "trick") -> dict[int, Element]:
    """Each seat's place in the trick (or the last trick): its card, or the empty slot."""
    out = {}
    for e in elements:
        kind, *marks = e.role.split(" ")
        if kind in (f"{trick}-card", f"{trick}-slot"):
            out[int(next(m for m in marks if m.startswith("seat"))[4:])] = e
    return out


def test_the_card_a_person_taps_lies_at_their_place_at_the_front() -> None:
    """Anna plays against two computers: her card lands at the front of the table, Ben (to
    her left, next in the play's order) lays his at the back left, Carla at the back right."""
    t = Tabletop(seed=3, games=None)
    try:
        play_until(t, t.anna_to_play, 400)
        legal = t.legal_cards()
        t.tap(t.hand_card(legal[0]))
        t.settle()
        assert t.view.scene == "play"
        trick = "trick"
        if legal[0] not in dict(t.view.play.trick.cards).values():
            # the computers answered at once and the trick was taken: it is the last trick
            t.tap("last-button")
            trick = "last"
        spots = places(t.kiosk.elements, trick)
        assert set(spots) == {0, 1, 2}
        anna, ben, carla = spots[0], spots[1], spots[2]
        mine = [e for e in t.find(f"{trick}-card") if e.card == legal[0]]
        assert mine and mine[0] is anna, "Anna's card is not at her place"
        assert anna.rect.top > max(ben.rect.top, carla.rect.top)      # the front: lower
        assert ben.rect.right <= anna.rect.centerx <= carla.rect.left  # Ben left, Carla right
        assert ben.rect.top == carla.rect.top
    finally:
        t.close()


def test_the_seat_a_person_plays_is_at_the_front_whichever_it_is(renderer) -> None:
    """In the simulator the person may play any seat: with Anna and Carla played by the
    computer, Ben sits at the front, Carla (to his left) at the back left, Anna at the back
    right; at a table of four the dealer, out of the deal, has no place in the trick."""
    view = sample_view("play", "en")
    view = replace(view, computer=frozenset({0, 2}), simulator=True)
    els = renderer.layout(view, (800, 480))
    spots = places(els)
    assert spots[1].rect.top > max(spots[0].rect.top, spots[2].rect.top)
    assert spots[2].rect.centerx < spots[1].rect.centerx < spots[0].rect.centerx
    four = extra_views("en")["play-four"]
    els = renderer.layout(four, (800, 480))
    named = {e.text.split(" ")[0] for e in els if e.role == "trick-name"}
    assert four.dealer is not None and four.players[four.dealer] not in named
    assert len(named) == 3 and len(places(els)) == 3
    assert four.dealer not in places(els)


def test_the_declarer_is_said_at_his_place_and_nobody_in_a_ramsch(renderer) -> None:
    view = sample_view("play", "en")
    els = renderer.layout(view, (800, 480))
    (mark,) = [e for e in els if e.role == "trick-declarer"]
    declarer = view.players[view.play.declarer]
    (name,) = [e for e in els if e.role == "trick-name" and e.text.startswith(declarer)]
    assert mark.text == "declarer"
    # beside the name, or (the front place, where the name goes under the back left card)
    # on the other side of the same card
    assert abs(mark.rect.top - name.rect.bottom) <= 4 or abs(mark.rect.top - name.rect.top) <= 4
    ramsch = replace(view, play=replace(view.play, contract="R"))
    assert not [e for e in renderer.layout(ramsch, (800, 480)) if e.role == "trick-declarer"]


@pytest.mark.parametrize("size", [(800, 480), (1024, 600), (1280, 800), (1920, 1080)])
def test_every_trick_on_the_table_lays_out_cleanly(renderer, size: tuple[int, int]) -> None:
    """Empty, half and complete tricks, each seat at the front, with and without hands, in
    every language: the names fit, nothing overlaps."""
    problems = []
    for language in LANGUAGES:
        base = sample_view("play", language)
        p = base.play
        for front in range(3):
            computer = frozenset(s for s in range(3) if s != front)
            for cards in range(4):
                laid = ((0, p.trick.cards[0][1]), (1, p.trick.cards[1][1]),
                        (2, base.hands[2][0]))[:cards]
                trick = TrickView(leader=0, cards=laid, winner=1 if cards == 3 else None)
                for simulator in (True, False):
                    v = replace(base, computer=computer, simulator=simulator, prompt=None,
                                play=replace(p, trick=trick, to_act=cards % 3))
                    problems += [f"{language} front {front} {cards} cards sim {simulator}: {x}"
                                 for x in check_layout(renderer.layout(v, size), size)]
    assert not problems, "\n".join(problems[:20])


@pytest.mark.parametrize("scene", ["deal", "bidding", "play"])
def test_a_seat_line_says_the_dealer_where_nothing_else_does_and_is_never_cut(
        renderer, scene: str) -> None:
    """At three the dealer is rearhand: the line says "Rearhand" (and what the seat said),
    not "dealer" besides, and is never cut at 800x480 in any language, whoever declares; at
    four the dealer, out of the deal, is called the dealer."""
    from display.i18n import Translator

    for language in LANGUAGES:
        view = sample_view(scene, language)
        rear = view.positions[2]
        assert view.dealer == rear
        if view.play is not None:   # the rearhand declares: the longest line
            view = replace(view, play=replace(view.play, declarer=rear))
        els = renderer.layout(view, (800, 480))
        lines = [e.text for e in els if e.role == "seat-role"]
        assert not [t for t in lines if t.endswith("…")], (language, lines)
        dealer = Translator(language)("dealer")
        assert dealer not in lines[rear].split(" · "), (language, lines)
    four = extra_views("en")[f"{scene}-four"]
    els = renderer.layout(four, (800, 480))
    lines = [e.text for e in els if e.role == "seat-role"]
    assert "dealer" in lines[four.dealer].split(" · "), lines


@pytest.mark.parametrize("size", [(800, 480), (1024, 600)])
def test_a_trick_with_little_room_is_laid_in_a_row(renderer, size) -> None:
    """The last trick over the play, shown while a prompt takes the space under it (a view
    the fuzz test found: the simulator's room for hands kept, a prompt shown): too little
    height for the names beside the places, so the cards go in a row with a name over each
    (before, the names ran into the title and the slots). Every language."""
    from display.view import Prompt

    problems = []
    for language in LANGUAGES:
        base = sample_view("play", language)
        view = replace(base, simulator=True, hands=((), (), ()),
                       prompt=Prompt(seat=0, press="bid"),
                       play=replace(base.play, trick=TrickView(leader=0, cards=()),
                                    last_trick=TrickView(leader=0, cards=(), winner=0),
                                    show_last_trick=True))
        els = renderer.layout(view, size)
        assert len(places(els, "last")) == 3
        problems += [f"{language}: {p}" for p in check_layout(els, size)]
    assert not problems, "\n".join(problems[:10])

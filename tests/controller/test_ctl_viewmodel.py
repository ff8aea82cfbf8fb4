"""The view model reads the engine by position and shows table seats: Ramsch results and the
bidding's holder, with a dealer whose seats differ from the positions."""

from __future__ import annotations

import random
from dataclasses import replace

from engine.actions import Play
from engine.cards import Card, parse_cards
from engine.deal import Deal
from firmware_host.config import simulated_config
from firmware_host.screen.viewmodel import build_view
from firmware_host.series.session import Session
from firmware_host.table.inputs import Press, TagGone, TagLaid

# Forehand holds every jack and the clubs; middlehand the spades; rearhand the rest.
DEAL = Deal.from_positions(parse_cards("CJ SJ HJ DJ CA CT CK CQ C9 HA"),
                           parse_cards("SA ST SK SQ S9 S8 S7 HT HK C8"),
                           parse_cards("HQ H9 H8 H7 DA DT DK DQ D9 D8"), parse_cards("C7 D7"))


def session(house: dict[str, bool] | None = None, deal: Deal = DEAL) -> Session:
    cfg = simulated_config(computer_seats=(), series_length=None)
    # Ben deals: Carla (seat 2) is forehand, Anna (0) middlehand, Ben (1) rearhand.
    table = replace(cfg.table, first_dealer=1, rules="pub" if house else "isko")
    s = Session(replace(cfg, table=table, house=house or {}))
    tags = cfg.card_tags()
    for card in deal.dealt_order():
        assert s.submit(TagLaid("deal", tags[card])).accepted
    return s


def test_bidding_holder_is_the_seat_that_holds_the_value() -> None:
    s = session()
    assert s.submit(Press(0, "bid")).accepted           # Anna (middlehand) says 18
    view = build_view(s).bidding
    assert (view.bidder, view.listener, view.value, view.holder) == (0, 2, 18, 0)
    assert s.submit(Press(2, "yes")).accepted           # Carla (forehand) holds 18
    view = build_view(s).bidding
    assert (view.value, view.holder, view.to_act) == (18, 2, 0)
    assert s.submit(Press(0, "pass")).accepted          # Ben (rearhand) now says to Carla
    view = build_view(s).bidding
    assert (view.bidder, view.listener, view.holder, view.passed) == (1, 2, 2, frozenset({0}))


def test_ramsch_result_names_the_loser_and_the_points_by_seat() -> None:
    # A deal of spread-out cards: nobody takes every trick, one seat loses with the most.
    s = session({"ramsch": True}, Deal.random(random.Random(3)))
    for seat in (0, 1, 2):                               # middle, rear, fore: all pass
        assert s.submit(Press(seat, "pass")).accepted
    tags = s.config.card_tags()
    game = s.table.game
    while s.table.phase == "play":
        # Each plays its lowest legal card: the points spread over all three.
        play = min((act for act in game.legal_actions() if isinstance(act, Play)),
                   key=lambda act: (act.card.points, act.card))
        assert s.submit(TagLaid("centre", tags[play.card])).accepted
    result = s.table.finished_deals[-1].result
    view = build_view(s)
    assert view.scene == "result" and view.result.declarer is None
    seats = (2, 0, 1)                                    # positions -> table seats
    expected = [0, 0, 0]
    for pos, points in enumerate(result.ramsch_points):
        expected[seats[pos]] = points
    assert view.result.ramsch_points == tuple(expected) and sum(expected) == 120
    assert sum(1 for p in expected if p) >= 2
    assert result.losers and view.result.losers == tuple(seats[p] for p in result.losers)
    worst = max(expected)
    assert all(expected[seat] == worst for seat in view.result.losers)


def test_schieberamsch_shows_the_pushing_scene_step_by_step() -> None:
    """Each decision from forehand on: who decides, take and push or pass it on, the pushes
    and the doubling, the cards laid back (drawn only in the simulator); then the play."""
    s = session({"ramsch": True, "schieberamsch": True})
    for seat in (0, 1, 2):                               # middle, rear, fore: all pass
        assert s.submit(Press(seat, "pass")).accepted
    tags = s.config.card_tags()
    view = build_view(s)
    assert view.scene == "pushing" and view.turn == 2
    assert view.pushing.to_act == 2 and not view.pushing.taken                # Carla, forehand
    assert (view.pushing.pushes, view.pushing.factor, view.pushing.decided) == (0, 1, ())
    assert view.pushing.jacks is False
    assert s.submit(Press(2, "skat")).accepted           # Carla takes the skat (C7 D7)
    view = build_view(s)
    assert view.pushing.taken and (view.pushing.pushes, view.pushing.factor) == (1, 2)
    assert view.pushing.laid == 0
    assert s.submit(TagLaid("skat", tags[Card.C7])).accepted
    view, sim = build_view(s), build_view(s, simulator=True)
    assert view.pushing.laid == 1 and view.pushing.laid_cards == ()     # a shared screen
    assert sim.pushing.laid_cards == (Card.C7,)
    assert s.submit(TagLaid("skat", tags[Card.D7])).accepted
    view = build_view(s)
    assert (view.pushing.to_act, view.pushing.taken, view.pushing.laid) == (0, False, 0)
    assert view.pushing.decided == ((2, True),)
    assert s.submit(Press(0, "pass")).accepted           # Anna passes it on
    view = build_view(s)
    assert view.pushing.to_act == 1 and view.pushing.decided == ((2, True), (0, False))
    assert s.submit(Press(1, "skat")).accepted           # Ben takes it: pushed twice
    assert build_view(s).pushing.factor == 4
    for card in (Card.C7, Card.D7):                      # Ben picks them up and lays them back
        s.submit(TagGone("skat", tags[card]))
    for card in (Card.C7, Card.D7):
        assert s.submit(TagLaid("skat", tags[card])).accepted
    view = build_view(s)
    assert view.scene == "play" and view.play.contract == "R"

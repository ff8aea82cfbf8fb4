"""The table's side of the club (firmware_host.clubside.clubdesk) in the real event loop: a seating
from the link is shown, each seat confirms (player tag or touch), the series starts with the
tournament's players, games and first dealer; a player tag is never a card; the status line."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from display import commands as cmd
from drivers import events as ev
from engine.cards import Card
from firmware_host.clubside.clubdesk import ClubDesk
from firmware_host.clubside.clubfiles import LinkStatus, read_json, write_json
from firmware_host.clubside.playertags import PlayerTags
from firmware_host.config import load_config
from firmware_host.series.journal import Journal, read_outbox
from firmware_host.series.session import Session
from firmware_host.service.runner import EventLoop

CONFIGS = Path(__file__).resolve().parents[1] / "data" / "configs"
DORA, EMIL = "04d0a0000000aa", "04e0a0000000bb"
SEATING = {"tournament": "herbst", "series": 2, "games": 36, "first_dealer": 1,
           "players": [{"seat": 0, "id": "p17", "name": "Dora"},
                       {"seat": 1, "id": "p4", "name": "Emil"},
                       {"seat": 2, "id": None, "name": "Gast"}]}


def table(tmp: Path):
    config = load_config(CONFIGS / "three.toml")
    session = Session(config, Journal.open(tmp / "journal.sqlite"))
    session.resume()
    views: list = []
    loop = EventLoop(session, show=views.append)
    loop.club = ClubDesk(tmp / "club", PlayerTags({"p17": DORA, "p4": EMIL}))
    return session, loop, views


def lay(loop: EventLoop, zone: str, uid: str) -> None:
    loop.handle(ev.TagLaid(zone, uid, time.monotonic()))
    loop.handle(ev.TagGone(zone, uid, time.monotonic()))


def test_seating_confirmed_by_tags_and_touch_starts_the_tournament_series(tmp_path) -> None:
    session, loop, views = table(tmp_path)
    club = tmp_path / "club"
    write_json(club / "status.json", LinkStatus("offline", 0.0, 3).to_json())
    write_json(club / "seating.json", {**SEATING, "received": 1.0})
    loop.serve_once(0.01)
    v = views[-1]
    assert v.scene == "seating" and v.seating.players == ("Dora", "Emil", "Gast")
    assert v.seating.confirmed == (False, False, False)
    assert v.club.state == "offline" and v.club.waiting == 3
    lay(loop, "seat0", DORA)                      # Dora on her own pad
    loop.handle(cmd.ConfirmSeat(2))               # the guest touches her name
    assert views[-1].seating.confirmed == (True, False, True)
    assert session.seating is None, "not before every seat confirmed"
    lay(loop, "deal", EMIL)                       # Emil's tag on the deal reader: his seat
    assert session.seating is not None and session.table.names == ("Dora", "Emil", "Gast")
    assert session.config.table.series_length == 36 and session.table.deal.dealer == 1
    assert views[-1].scene == "deal"
    state = read_json(club / "table.json")
    assert state == {"state": "playing", "tournament": "herbst", "series": "2", "game": 1}

    # A player tag during the deal is never a card: nothing is journalled for the game.
    tags = session.config.card_tags()
    cards = list(Card)
    for card in cards[:5]:
        lay(loop, "deal", tags[card])
    before = session.table.deal.cards_known()
    lay(loop, "deal", DORA)
    assert session.table.deal.cards_known() == before == 5
    assert "player tag of p17" in views[-1].refusal.detail
    for card in cards[5:]:
        lay(loop, "deal", tags[card])
    while session.table.phase == "bidding":
        loop.handle(cmd.Press(session.table.seat_to_act(), "pass"))
    rows = read_outbox(tmp_path / "journal.sqlite")
    assert [r.payload["club"]["players"] for r in rows] == [["p17", "p4", "Gast"]]
    # The same seating again (the link reconnected) asks nobody again.
    write_json(club / "seating.json", {**SEATING, "received": 2.0})
    loop.serve_once(0.01)
    assert views[-1].scene != "seating"
    session.close()


def test_a_broken_or_foreign_seating_file_changes_nothing(tmp_path) -> None:
    session, loop, views = table(tmp_path)
    club = tmp_path / "club"
    club.mkdir()
    (club / "seating.json").write_text("{not json")
    loop.serve_once(0.01)
    (club / "seating.json").write_text(json.dumps({**SEATING, "players": SEATING["players"]
                                                   + [{"seat": 3, "id": "p9", "name": "V"}],
                                                   "first_dealer": 7}))
    loop.serve_once(0.01)
    assert loop.club.pending is None and session.seating is None
    assert all(v.scene != "seating" for v in views)
    session.close()


def test_a_seating_waits_for_the_end_of_the_game(tmp_path) -> None:
    session, loop, views = table(tmp_path)
    tags = session.config.card_tags()
    lay(loop, "deal", tags[Card.CJ])              # a deal has begun
    write_json(tmp_path / "club" / "seating.json", SEATING)
    loop.serve_once(0.01)
    assert loop.club.pending is not None and views[-1].scene == "deal"
    loop.handle(cmd.ConfirmSeat(0))
    assert not loop.club.confirmed and session.seating is None
    session.close()


@pytest.mark.parametrize("zone", ["deal", "centre", "skat", "seat1", "seat2"])
def test_a_player_tag_on_any_reader_confirms_that_players_own_seat(tmp_path, zone) -> None:
    """Emil sits at seat 1 (the seating's second seat): his tag confirms seat 1 wherever it is
    laid (the deal reader, the centre, the skat, his own pad); on another seat's pad too,
    with a note that he sits elsewhere. The tag is never taken for a card."""
    session, loop, views = table(tmp_path)
    write_json(tmp_path / "club" / "seating.json", {**SEATING, "received": 1.0})
    loop.serve_once(0.01)
    lay(loop, zone, EMIL)
    v = views[-1]
    assert v.scene == "seating" and v.seating.confirmed == (False, True, False)
    if zone == "seat2":
        assert v.note == "player p4 sits at seat 2, not here"
    else:
        assert v.note is None or "not here" not in v.note
    assert session.table.deal.cards_known() == 0 and v.refusal is None
    lay(loop, "deal", DORA)                        # Dora on the deal reader: seat 0
    assert views[-1].seating.confirmed == (True, True, False)
    session.close()


def test_a_result_confirmed_by_player_tags_and_a_strangers_tag_refused(tmp_path) -> None:
    """With [club] confirm_results, the declarer's opponents confirm a game's result by laying
    their player tags (on any reader): the game goes to the outbox only once both have; the
    tag of a club member who does not play at this table is refused in words and confirms
    nothing."""
    from dataclasses import replace

    from firmware_host.clubside.clubconfig import parse_club

    config = load_config(CONFIGS / "three.toml")
    config = replace(config, club=parse_club({"broker": "mqtt://127.0.0.1:1883", "club": "c1",
                                              "table": "7", "password_file": "pw",
                                              "confirm_results": True}))
    session = Session(config, Journal.open(tmp_path / "journal.sqlite"))
    session.resume()
    views: list = []
    loop = EventLoop(session, show=views.append)
    stranger = "04f0a0000000cc"
    loop.club = ClubDesk(tmp_path / "club", PlayerTags({"p17": DORA, "p4": EMIL,
                                                        "p99": stranger}))
    # Gast (seat 2) declares, so that Dora and Emil, who have tags, are the opponents.
    seating = {**SEATING, "games": 2, "first_dealer": 1, "received": 1.0}
    write_json(tmp_path / "club" / "seating.json", seating)
    loop.serve_once(0.01)
    lay(loop, "seat0", DORA)
    lay(loop, "seat1", EMIL)
    loop.handle(cmd.ConfirmSeat(2))
    assert session.seating is not None
    tags = session.config.card_tags()
    for card in Card:
        lay(loop, "deal", tags[card])
    t = session.table
    while t.phase == "bidding":   # Dora and Emil pass, Gast (forehand) plays for 18
        seat = t.seat_to_act()
        loop.handle(cmd.Press(seat, "bid", 18) if seat == 2 else cmd.Press(seat, "pass"))
    assert t.deal.seats[t.game.declarer] == 2
    loop.handle(cmd.Declare(2, "GH"))
    while t.phase == "play":
        seat = t.seat_to_act()
        lay(loop, f"seat{seat}", tags[t.game.legal_cards()[0]])
    assert session.awaiting_confirmation() is not None   # the game is over, unconfirmed
    journal = tmp_path / "journal.sqlite"
    assert read_outbox(journal) == []
    lay(loop, "centre", stranger)                       # p99 plays elsewhere tonight
    assert "p99 does not play at this table" in views[-1].refusal.detail
    lay(loop, "deal", DORA)
    assert read_outbox(journal) == []                   # one of two
    lay(loop, "seat1", EMIL)
    rows = read_outbox(journal)
    assert len(rows) == 1 and rows[0].payload["confirmed_by"] == ["p17", "p4"]
    session.close()

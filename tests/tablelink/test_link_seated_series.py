"""A series started from the club's seating: its players, games and first dealer; each game's
outbox item carries the tournament's ids; a restart resumes it seated; the link's message."""

from __future__ import annotations

from pathlib import Path

from engine.cards import Card
from firmware_host.clubside.clubconfig import parse_club
from firmware_host.clubside.link.messages import game_message
from firmware_host.clubside.seating import parse_seating
from firmware_host.config import load_config
from firmware_host.series.journal import Journal, read_outbox
from firmware_host.series.session import Session
from firmware_host.table.inputs import Press, TagLaid

CONFIGS = Path(__file__).resolve().parents[1] / "data" / "configs"
SEATING = {"tournament": "herbst", "series": 2, "games": 36, "first_dealer": 1,
           "players": [{"seat": 0, "id": "p17", "name": "Dora"},
                       {"seat": 1, "id": "p4", "name": "Emil"},
                       {"seat": 2, "id": None, "name": "Gast"}]}


def play_passed_in_deal(session: Session) -> None:
    tags = session.config.card_tags()
    for card in Card:
        assert session.submit(TagLaid("deal", tags[card])).accepted
    while session.table.phase == "bidding":
        assert session.submit(Press(session.table.seat_to_act(), "pass")).accepted


def test_a_seated_series_and_its_outbox(tmp_path) -> None:
    config = load_config(CONFIGS / "three.toml")
    path = tmp_path / "journal.sqlite"
    session = Session(config, Journal.open(path))
    session.resume()
    seating = parse_seating(SEATING)
    session.start_seated_series(seating)
    assert session.table.names == ("Dora", "Emil", "Gast")
    assert session.config.table.series_length == 36
    assert session.config.table.first_dealer == 1
    play_passed_in_deal(session)
    rows = read_outbox(path)
    assert len(rows) == 1
    payload = rows[0].payload
    assert payload["club"] == {"tournament": "herbst", "series": "2",
                               "players": ["p17", "p4", "Gast"]}
    assert payload["players"] == ["Dora", "Emil", "Gast"] and payload["dealer"] == 1
    session.close()

    # After a power cut the table is in the same seated series.
    again = Session(config, Journal.open(path))
    again.resume()
    assert again.seating == seating and again.table.names == ("Dora", "Emil", "Gast")
    assert len(again.table.finished_deals) == 1
    again.close()

    club = parse_club({"broker": "mqtt://127.0.0.1:1883", "club": "c1", "table": "7",
                       "password_file": "pw"})
    msg = game_message(club, series=rows[0].series, game=rows[0].game,
                       revision=rows[0].revision, payload=payload)
    assert msg["id"] == "herbst/2/7/1"
    assert (msg["tournament"], msg["series"], msg["players"]) == ("herbst", "2",
                                                                 ["p17", "p4", "Gast"])
    assert msg["result"]["passed_in"] is True


def test_a_new_series_after_a_seated_one_is_the_tables_own(tmp_path) -> None:
    config = load_config(CONFIGS / "three.toml")
    session = Session(config, Journal.open(tmp_path / "j.sqlite"))
    session.resume()
    session.start_seated_series(parse_seating(SEATING))
    session.start_new_series()
    assert session.seating is None and session.table.names == config.table.players
    session.close()

"""The declarer's opponents confirm a club game's result ([club] confirm_results): journalled
presses refused in the players' words, kept across a power cut; the game's outbox item waits
for the confirmations or the next deal's first card; the series' last game is released."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from engine.cards import Card
from firmware_host.clubside.clubconfig import parse_club
from firmware_host.clubside.link.messages import game_message
from firmware_host.clubside.seating import parse_seating
from firmware_host.config import load_config
from firmware_host.configerror import ConfigError
from firmware_host.series.journal import Journal, read_outbox
from firmware_host.series.session import Session
from firmware_host.table.inputs import DeclareInput, Press, TagLaid

CONFIGS = Path(__file__).resolve().parents[1] / "data" / "configs"
CLUB = {"broker": "mqtt://127.0.0.1:1883", "club": "c1", "table": "7", "password_file": "pw"}
SEATING = {"tournament": "herbst", "series": 2, "games": 2, "first_dealer": 1,
           "players": [{"seat": 0, "id": "p17", "name": "Dora"},
                       {"seat": 1, "id": "p4", "name": "Emil"},
                       {"seat": 2, "id": None, "name": "Gast"}]}


def confirming_config(on: bool = True):
    config = load_config(CONFIGS / "three.toml")
    return replace(config, club=parse_club(dict(CLUB, confirm_results=on)))


def seated(path: Path, on: bool = True) -> Session:
    session = Session(confirming_config(on), Journal.open(path))
    session.resume()
    session.start_seated_series(parse_seating(SEATING))
    return session


def play_game(s: Session) -> int:
    """Deal, Emil-or-whoever bids 18 and plays a grand hand; the declarer's seat."""
    tags = s.config.card_tags()
    for card in Card:
        assert s.submit(TagLaid("deal", tags[card])).accepted
    t = s.table
    assert s.submit(Press(t.seat_to_act(), "pass")).accepted
    assert s.submit(Press(t.seat_to_act(), "bid", 18)).accepted
    while t.phase == "bidding":
        assert s.submit(Press(t.seat_to_act(), "pass")).accepted
    declarer = t.deal.seats[t.game.declarer]
    assert s.submit(DeclareInput(declarer, "GH")).accepted
    while t.phase == "play":
        seat = t.seat_to_act()
        assert s.submit(TagLaid(f"seat{seat}", tags[t.game.legal_cards()[0]])).accepted
    return declarer


def test_the_config_key_is_checked() -> None:
    assert parse_club(CLUB).confirm_results is False
    assert parse_club(dict(CLUB, confirm_results=True)).confirm_results is True
    with pytest.raises(ConfigError, match=r"\[club\] confirm_results.*true or false"):
        parse_club(dict(CLUB, confirm_results="yes"))


def test_opponents_confirm_across_a_power_cut_and_then_it_is_sent(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite"
    s = seated(path)
    declarer = play_game(s)
    first, second = [seat for seat in range(3) if seat != declarer]
    assert read_outbox(path) == []                      # never before it is confirmed
    out = s.submit(Press(declarer, "confirm"))
    assert out.refusal.kind == "confirm-not-opponent"
    assert out.refusal.reason.startswith(f"{s.table.name(declarer)} does not confirm this game")
    assert s.submit(Press(first, "confirm")).accepted
    assert s.submit(Press(first, "confirm")).refusal.reason == (
        f"{s.table.name(first)} has already confirmed this game")
    assert read_outbox(path) == []
    s.close()                                           # the power cut
    again = Session(confirming_config(), Journal.open(path))
    again.resume()
    assert again.table.deals[-1].confirmed == (first,) and again.table.confirming
    assert again.submit(Press(second, "confirm")).accepted
    rows = read_outbox(path)
    ids = {0: "p17", 1: "p4", 2: "Gast"}
    assert len(rows) == 1 and rows[0].payload["confirmed_by"] == [ids[first], ids[second]]
    msg = game_message(parse_club(CLUB), series=rows[0].series, game=rows[0].game,
                       revision=rows[0].revision, payload=rows[0].payload)
    assert msg["confirmed_by"] == [ids[first], ids[second]]
    again.close()


def test_the_next_deal_sends_it_unconfirmed_and_the_last_is_released(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite"
    s = seated(path)
    declarer = play_game(s)
    opponent = next(seat for seat in range(3) if seat != declarer)
    assert s.submit(Press(opponent, "confirm")).accepted   # one of two: not yet sent
    assert read_outbox(path) == []
    tags = s.config.card_tags()
    assert s.submit(TagLaid("deal", tags[Card.CJ])).accepted   # the next deal starts
    rows = read_outbox(path)
    assert [(r.game, r.payload["confirmed_by"]) for r in rows] == [(1, [])]
    assert s.submit(Press(opponent, "confirm")).refusal.kind == "confirm-not-now"
    for card in [c for c in Card if c != Card.CJ]:
        assert s.submit(TagLaid("deal", tags[card])).accepted
    while s.table.phase == "bidding":
        assert s.submit(Press(s.table.seat_to_act(), "pass")).accepted
    assert s.table.stage == "over" and len(read_outbox(path)) == 1  # the last one waits
    assert s.release_unconfirmed()
    rows = read_outbox(path)
    assert [(r.game, r.payload["confirmed_by"]) for r in rows] == [(1, []), (2, [])]
    s.close()


def test_a_table_that_does_not_ask_sends_at_once(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite"
    s = seated(path, on=False)
    declarer = play_game(s)
    rows = read_outbox(path)
    assert len(rows) == 1 and "confirmed_by" not in rows[0].payload
    assert s.submit(Press((declarer + 1) % 3, "confirm")).refusal.kind == "confirm-off"
    s.close()


def test_the_last_game_left_unconfirmed_is_sent_after_two_minutes(tmp_path: Path) -> None:
    """At the series' end nobody confirms: the club desk sends the last game unconfirmed once
    it has waited RELEASE_SECONDS, not a moment before (the table must not stall the
    evening, nor send a game its opponents may still be reading)."""
    from firmware_host.clubside.clubdesk import RELEASE_SECONDS, ClubDesk

    path = tmp_path / "j.sqlite"
    s = seated(path)
    tags = s.config.card_tags()
    play_game(s)
    for card in Card:                                   # the second and last deal: passed in
        assert s.submit(TagLaid("deal", tags[card])).accepted
    while s.table.phase == "bidding":
        assert s.submit(Press(s.table.seat_to_act(), "pass")).accepted
    assert s.table.stage == "over"
    sent = len(read_outbox(path))
    clock = [1000.0]
    desk = ClubDesk(tmp_path / "club", now=lambda: clock[0])
    desk.poll(s)                                        # the wait starts
    clock[0] += RELEASE_SECONDS - 1
    desk.poll(s)
    assert len(read_outbox(path)) == sent               # not yet
    clock[0] += 2
    assert desk.poll(s)
    rows = read_outbox(path)
    assert len(rows) == sent + 1 and rows[-1].game == 2 and rows[-1].payload["confirmed_by"] == []
    s.close()

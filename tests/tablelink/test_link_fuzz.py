"""Malformed seating and status payloads: a clear log line, nothing applied, the link runs on."""

from __future__ import annotations

import contextlib
import json
import logging
import time

import pytest
from brokers import connect
from hypothesis import given, settings
from hypothesis import strategies as st
from linkkit import FAST, MemoryOutbox, club_config

from firmware_host.clubside.clubfiles import TableState, read_json, write_json
from firmware_host.clubside.link.messages import StatusPayloadError, parse_status
from firmware_host.clubside.link.service import Link
from firmware_host.clubside.seating import MAX_SEATING_BYTES, SeatingError, parse_seating

GOOD = {"tournament": "herbst", "series": 2, "games": 36, "first_dealer": 1,
        "players": [{"seat": 0, "id": "p1", "name": "Anna"},
                    {"seat": 1, "id": "p2", "name": "Ben"},
                    {"seat": 2, "id": None, "name": "Gast"}]}

BAD = [
    b"", b"{", b"null", b"[]", b'"seating"', b"\xff\xfe\x00", b"{}" * 10,
    b"[" * 100_000 + b"]" * 100_000,                              # nested far too deep
    json.dumps({**GOOD, "players": "Anna, Ben, Carla"}).encode(),  # wrong type
    json.dumps({**GOOD, "games": "36"}).encode(),
    json.dumps({**GOOD, "games": True}).encode(),
    json.dumps({**GOOD, "first_dealer": 3}).encode(),
    json.dumps({**GOOD, "tournament": "a/b/#"}).encode(),
    json.dumps({**GOOD, "players": GOOD["players"][:2]}).encode(),  # two players
    json.dumps({**GOOD, "players": [*GOOD["players"][:2], {"seat": 1, "id": "p3",
                                                           "name": "C"}]}).encode(),
    json.dumps({**GOOD, "players": [*GOOD["players"][:2], {"seat": 2}]}).encode(),  # nobody
    json.dumps({**GOOD, "players": [*GOOD["players"][:2], {"seat": 2, "id": "p1",
                                                           "name": "Twin"}]}).encode(),
    json.dumps({**GOOD, "players": [*GOOD["players"][:2], {"seat": 2, "id": 7,
                                                           "name": "X"}]}).encode(),
    json.dumps({**GOOD, "players": [*GOOD["players"][:2], {"seat": 2, "name": "a\u202eb"}]}
               ).encode(),
    json.dumps({**GOOD, "players": [*GOOD["players"][:2], {"seat": 2, "name": "x" * 500}]}
               ).encode(),
    json.dumps({**GOOD, "pad": "x" * (MAX_SEATING_BYTES + 1)}).encode(),  # huge
    b"x" * 1_000_000,
]


@pytest.mark.parametrize("data", BAD, ids=range(len(BAD)))
def test_bad_seatings_are_refused_with_a_reason(data: bytes) -> None:
    with pytest.raises(SeatingError) as err:
        parse_seating(data)
    assert str(err.value).startswith("seating: ") and len(str(err.value)) < 300


@settings(max_examples=300, deadline=None)
@given(st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(),
                    lambda c: st.lists(c, max_size=5) | st.dictionaries(st.text(max_size=8), c,
                                                                        max_size=6),
                    max_leaves=30))
def test_any_json_is_a_seating_or_a_seating_error(obj) -> None:
    for candidate in (obj, {**GOOD, "players": obj}, {**GOOD, "series": obj},
                      {**GOOD, "players": [*GOOD["players"][:2], obj]}):
        try:
            seating = parse_seating(json.dumps(candidate).encode())
        except SeatingError:
            continue
        assert len(seating.players) in (3, 4)


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=300))
def test_any_bytes_are_a_status_or_a_status_error(data: bytes) -> None:
    with contextlib.suppress(StatusPayloadError):
        assert parse_status(data)["state"] in ("idle", "playing", "offline")


def test_table_state_file_garbage_is_ignored() -> None:
    for obj in (None, {}, {"state": "dancing"}, {"state": "idle", "game": "7"},
                {"state": "idle", "tournament": 5}, {"state": "playing", "game": -1}):
        assert TableState.from_json(obj) is None


def test_the_link_survives_a_storm_of_bad_payloads(mqtt_broker, tmp_path, caplog) -> None:
    caplog.set_level(logging.INFO, logger="skat-table.link")
    spool = tmp_path / "spool"
    outbox = MemoryOutbox()
    link = Link(club_config(mqtt_broker, "t1"), outbox, spool, FAST)

    def turn(n: int = 10) -> None:
        for _ in range(n):
            link.run_once(0.02)

    deadline = time.monotonic() + 10
    while not link.online and time.monotonic() < deadline:
        turn(1)
    server = connect(mqtt_broker, "server")
    seating_topic, status_topic = "skat/c1/table/t1/seating", "skat/c1/table/t1/status"
    server.publish(seating_topic, json.dumps(GOOD).encode(), qos=1,
                   retain=True).wait_for_publish(5)
    turn(20)
    applied = read_json(spool / "seating.json")
    assert applied is not None and applied["tournament"] == "herbst"
    for data in BAD:
        server.publish(seating_topic, data, qos=1).wait_for_publish(5)
        server.publish(status_topic, data[:300_000], qos=1).wait_for_publish(5)
        turn(3)
    write_json(spool / "table.json", {"state": "dancing"})  # the controller's file, broken
    outbox.add(1)
    turn(40)
    assert read_json(spool / "seating.json") == applied, "a bad seating changed the table"
    assert link.seating_problems >= len(BAD) - 1  # the empty one is "withdrawn", not wrong
    assert link.online and link.published == 1, "the link stopped working"
    lines = [r.getMessage() for r in caplog.records]
    assert any("seating from the club server not applied: seating: \"games\"" in x
               for x in lines)
    assert any("is not a table state" in x for x in lines)
    assert any("status topic is not a status" in x for x in lines)
    server.disconnect()
    link.close()

"""The club's broker killed with SIGKILL: what it acknowledged but had not saved is sent again.

Mosquitto acknowledges a QoS 1 game (PUBACK) when it has it in memory and saves its state
every ``autosave_interval`` (1 s here, as docs/club-link.md asks of a club). Killed with
SIGKILL while the club server is away, it loses the games it queued for the server since its
last save, although each table was told "acknowledged". The link answers a lost connection by
sending again what was acknowledged in the ``resend_seconds`` before the broker last answered;
the server keeps one copy by ``id`` and ``revision`` (DESIGN.md "Club": a repeat changes
nothing). Checked here with real links over real journals and a real Mosquitto, restarted on
the same port: every game arrives, first arrivals in per-table order, repeats byte-identical.
"""

from __future__ import annotations

import dataclasses
import json
import os
import time
from collections import defaultdict

import pytest
from brokers import Recorder, club_spec
from linkkit import FAST, JournalTable, club_config, start_link

from firmware_host.clubside.link.outbox import JournalOutbox

TABLES = ("t1", "t2", "t3", "t4")
# SKAT_CLUB_RESEND=0 shows what happens without the resend (games lost: the test fails).
OPTIONS = dataclasses.replace(FAST, resend_window=float(os.environ.get("SKAT_CLUB_RESEND",
                                                                        "10")))


def _first_arrivals(rec: Recorder) -> tuple[dict[str, list[int]], int]:
    """Per table, the games in the order of their first arrival; and how many repeats."""
    first: dict[str, bytes] = {}
    order: dict[str, list[int]] = defaultdict(list)
    repeats = 0
    for m in rec.messages:
        msg = json.loads(m.payload)
        key = f"{msg['id']}#{msg['revision']}"
        if key in first:
            assert m.payload == first[key], f"a repeat of {key} differs"
            repeats += 1
            continue
        first[key] = m.payload
        order[msg["table"]].append(msg["game"])
    return order, repeats


def _wait_acked(links: dict, games: int, timeout: float = 20) -> None:
    deadline = time.monotonic() + timeout
    while any(lt.link.ledger.cursor < games or lt.link.waiting for lt in links.values()):
        assert time.monotonic() < deadline, {t: lt.link.waiting for t, lt in links.items()}
        time.sleep(0.005)


def test_broker_sigkilled_while_the_server_is_away_loses_nothing(broker_factory, tmp_path,
                                                                  request) -> None:
    broker = broker_factory(club_spec("c1", TABLES))
    if not broker.persistent:
        # Not strict: the links' resend may still bring everything to a server that
        # subscribes again before they reconnect.
        request.applymarker(pytest.mark.xfail(strict=False, reason=(
            f"{broker.kind} keeps no sessions across a restart: the club server's queue is "
            "gone with it; the club's broker is Mosquitto with persistence")))
    rec = Recorder(broker, "server", "skat/c1/table/+/game", client_id="club-server",
                   clean=False)
    subscribed = time.time()
    tables = {t: JournalTable(tmp_path / t / "journal.sqlite") for t in TABLES}
    links = {t: start_link(club_config(broker, t), JournalOutbox(tmp_path / t / "journal.sqlite"),
                           tmp_path / t / "club", OPTIONS) for t in TABLES}
    try:
        # 1. Games 1-10 of every table reach the server.
        for g in range(1, 11):
            for t in TABLES:
                tables[t].add(g)
        assert rec.wait_for(lambda ms: len(ms) >= 40, 20)
        # A club's broker has long saved the server's session. Killed before its first save,
        # it would come back without it, and what the links send again before the server
        # subscribes anew would reach nobody (a race the test is not about; seen under load).
        broker.wait_saved(subscribed)
        # 2. The server goes away; the broker queues for its session and saves every second.
        rec.pause()
        for g in range(11, 21):
            for t in TABLES:
                tables[t].add(g)
            time.sleep(0.12)
        # 3. A burst the broker acknowledges and cannot have saved yet: then SIGKILL.
        for g in range(21, 26):
            for t in TABLES:
                tables[t].add(g)
        _wait_acked(links, 25)
        broker.kill()
        # 4. Back on the same port, with what it had saved; the server returns.
        time.sleep(0.3)
        broker.start()
        rec.resume()
        for g in range(26, 31):
            for t in TABLES:
                tables[t].add(g)
        expected = {t: list(range(1, 31)) for t in TABLES}
        arrived = rec.wait_for(lambda ms: _first_arrivals(rec)[0] == expected or None, 30)
        # A str, not the dict: pytest would cut a long repr and hide which game was missing.
        assert arrived, "games missing or out of order after 30 s: " + str(
            {t: got for t, got in _first_arrivals(rec)[0].items() if got != expected[t]})
        resent = {t: lt.link.resent for t, lt in links.items()}
        _wait_acked(links, 30)
    finally:
        for lt in links.values():
            lt.stop()
        for table in tables.values():
            table.close()
        rec.close()
    order, repeats = _first_arrivals(rec)
    assert order == expected, "a game was lost or came out of order"
    # Each link sent again what the broker had acknowledged in the 10 s before it died.
    assert all(n >= 15 for n in resent.values()) or OPTIONS.resend_window == 0, resent
    print(f"broker SIGKILLed: {len(TABLES) * 30} games arrived, 0 lost, {repeats} repeats "
          f"(identical, dropped by id); sent again: {resent}")


def test_the_resend_survives_a_link_restarted_before_it_could_resend(mqtt_broker,
                                                                     tmp_path) -> None:
    """A connection lost, then the link stopped before it reconnected: the next link sends
    those games again (the time to resend from is kept in link.sqlite), and only then forgets
    it. A link stopped cleanly while connected resends nothing."""
    from linkkit import MemoryOutbox

    from firmware_host.clubside.link.ledger import Ledger
    from firmware_host.clubside.link.service import Link

    rec = Recorder(mqtt_broker, "server", "skat/c1/table/+/game")
    outbox = MemoryOutbox()
    for g in (1, 2, 3):
        outbox.add(g)
    spool = tmp_path / "spool"

    def run(link: Link, until, timeout: float = 10) -> None:
        deadline = time.monotonic() + timeout
        while not until():
            assert time.monotonic() < deadline, (link.state, link.detail, link.waiting)
            link.run_once(0.02)

    link = Link(club_config(mqtt_broker, "t1"), outbox, spool, OPTIONS)
    run(link, lambda: link.ledger.cursor == 3)
    assert link.ledger.resend_since is None
    link._conn.client.socket().close()  # the connection breaks (as when the broker dies)
    run(link, lambda: not link.online)
    assert link.ledger.resend_since is not None
    link.close(goodbye=False)            # ... and the link stops before it is back
    assert Ledger.open(spool / "link.sqlite").resend_since is not None
    link = Link(club_config(mqtt_broker, "t1"), outbox, spool, OPTIONS)
    run(link, lambda: link.resent == 3 and link.waiting == 0)
    assert link.ledger.resend_since is None, "forgotten once acknowledged again"
    assert rec.wait_for(lambda ms: len(ms) >= 6, 10)
    link.close()
    link = Link(club_config(mqtt_broker, "t1"), outbox, spool, OPTIONS)
    run(link, lambda: link.online)
    for _ in range(20):
        link.run_once(0.02)
    assert link.resent == 0
    link.close()
    time.sleep(0.2)
    rec.close()
    assert [json.loads(m.payload)["game"] for m in rec.messages] == [1, 2, 3, 1, 2, 3]

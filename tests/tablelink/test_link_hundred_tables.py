"""A club evening: a hundred tables (real link code, scripted controllers) into one broker.

Every table plays a series (48 games by default) while a subscriber (the club server, a
persistent session) records what arrives. During the run ten links are killed with SIGKILL and
restarted; the club server goes away and, while it is away, the broker is killed with SIGKILL
(losing what it acknowledged since its last save) and restarted on the same port, then the
server comes back; later the broker is stopped cleanly (SIGTERM) and restarted; and one table
is offline (its network closed) for the first half. Every game must arrive, first arrivals in
per-table order; a repeat (a game sent again because its acknowledgement was lost with a
killed link, or because the broker crashed after acknowledging it) must be byte-identical, so
that by ``id`` it changes nothing.

Size: ``SKAT_CLUB_SIM_TABLES`` (100) x ``SKAT_CLUB_SIM_GAMES`` (48), played over
``SKAT_CLUB_SIM_SECONDS`` (8); ``make test`` plays a short form of 25 tables x 16 games with
four links killed, ``make test-full`` the hundred with ten. The links run in two farm processes
of 45 and ten processes of one (the ones killed; in the short form 11 and 10, and four of one);
the controllers are one thread of this test writing every table's
journal (real journals: each game's outbox item in the record of its last input).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections import defaultdict
from pathlib import Path

import pytest
from brokers import Recorder, club_spec
from fullrun import size
from linkkit import JournalTable, TcpForwarder

HERE = Path(__file__).resolve().parent
TABLES = int(os.environ.get("SKAT_CLUB_SIM_TABLES", size(25, 100)))
GAMES = int(os.environ.get("SKAT_CLUB_SIM_GAMES", size(16, 48)))
SECONDS = float(os.environ.get("SKAT_CLUB_SIM_SECONDS", "8"))
KILLED = size(4, 10)


def _farm(tmp: Path, name: str, tables: list[dict], club: str) -> subprocess.Popen:
    """Start a farm process; :func:`_ready` waits until its links run."""
    spec = tmp / f"{name}.json"
    spec.write_text(json.dumps({"club": club, "tables": tables, "options": {
        "poll_interval": 0.2, "backoff_min": 0.2, "backoff_max": 1.0, "connect_timeout": 3,
        "status_every": 0.5}}))
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(HERE.parent.parent),
                                                        os.environ.get("PYTHONPATH", "")])}
    return subprocess.Popen([sys.executable, str(HERE / "linkfarm.py"), str(spec)],
                            stdout=subprocess.PIPE, stderr=(tmp / f"{name}.log").open("wb"),
                            env=env)


def _ready(procs: list[subprocess.Popen]) -> None:
    for proc in procs:
        assert proc.stdout is not None
        assert proc.stdout.readline().strip() == b"ready", "a link farm did not start"


def test_hundred_tables_lose_nothing_through_kills_restarts_and_an_offline_half(
        broker_factory, tmp_path_factory, record_property, request) -> None:
    # The tables' files on tmpfs where there is one: a hundred controllers' fsyncs on one
    # disk are not what this test is about (the journal's own tests are).
    shm = Path("/dev/shm")
    if shm.is_dir() and os.access(shm, os.W_OK):
        import tempfile

        tmp_path = Path(tempfile.mkdtemp(prefix="skat-club-sim-", dir=shm))
    else:
        tmp_path = tmp_path_factory.mktemp("club-sim")
    names = [f"t{i:03d}" for i in range(1, TABLES + 1)]
    broker = broker_factory(club_spec("c1", names))
    if broker.kind == "amqtt":
        request.applymarker(pytest.mark.xfail(strict=False, reason=(
            "amqtt 0.12 loses messages it acknowledged when clients subscribe while it "
            "broadcasts (RuntimeError: dictionary changed size during iteration); Mosquitto "
            "is the production broker")))
    rec = Recorder(broker, "server", "skat/c1/table/+/game", client_id="club-server",
                   clean=False)
    offline = names[-1]
    cable = TcpForwarder(broker.port)
    for t in names:
        (tmp_path / t).mkdir(exist_ok=True)
    outboxes = {t: JournalTable(tmp_path / t / "journal.sqlite") for t in names}

    def entry(t: str) -> dict:
        port = cable.port if t == offline else broker.port
        return {"table": t, "url": f"mqtt://127.0.0.1:{port}",
                "password_file": str(broker.password_file(t)),
                "outbox": str(tmp_path / t / "journal.sqlite"), "spool": str(tmp_path / t)}

    killable = names[:KILLED]
    rest = names[KILLED:]
    half = (len(rest) + 1) // 2
    farms = [_farm(tmp_path, "farm-a", [entry(t) for t in rest[:half]], "c1"),
             _farm(tmp_path, "farm-b", [entry(t) for t in rest[half:]], "c1")]
    singles = {t: _farm(tmp_path, f"single-{t}", [entry(t)], "c1") for t in killable}
    _ready([*farms, *singles.values()])

    # The controllers: every table finishes a game every SECONDS/GAMES seconds.
    done = threading.Event()

    def controllers() -> None:
        for g in range(1, GAMES + 1):
            for t in names:
                outboxes[t].add(g, tournament="herbst", series="1")
            time.sleep(SECONDS / GAMES)
        done.set()

    writer = threading.Thread(target=controllers, daemon=True)
    t0 = time.monotonic()
    writer.start()
    events = []
    try:
        time.sleep(SECONDS * 0.25)
        for proc in singles.values():
            proc.send_signal(signal.SIGKILL)
            proc.wait(10)
        events.append(f"{time.monotonic() - t0:.1f}s: {KILLED} links SIGKILLed")
        time.sleep(0.5)
        for t in killable:
            singles[t] = _farm(tmp_path, f"single-{t}-2", [entry(t)], "c1")
        _ready(list(singles.values()))
        events.append(f"{time.monotonic() - t0:.1f}s: restarted")
        time.sleep(max(0.0, SECONDS * 0.3 - (time.monotonic() - t0)))
        if broker.persistent:
            rec.pause()
            events.append(f"{time.monotonic() - t0:.1f}s: club server away")
            time.sleep(SECONDS * 0.1)
            broker.kill()
            events.append(f"{time.monotonic() - t0:.1f}s: broker SIGKILLed")
            time.sleep(0.5)
            broker.start()
            rec.resume()
            events.append(f"{time.monotonic() - t0:.1f}s: broker restarted, server back")
        else:  # said in the report: amqtt forgets the server's session when it restarts
            events.append(f"NO broker restart: {broker.kind} keeps no sessions across one")
        time.sleep(max(0.0, SECONDS * 0.5 - (time.monotonic() - t0)))
        status = json.loads((tmp_path / offline / "status.json").read_text())
        assert status["state"] == "offline" and status["waiting"] > 0, status
        cable.open()
        events.append(f"{time.monotonic() - t0:.1f}s: table {offline} back online "
                      f"({status['waiting']} games waiting)")
        if broker.persistent:
            time.sleep(max(0.0, SECONDS * 0.65 - (time.monotonic() - t0)))
            broker.stop()
            events.append(f"{time.monotonic() - t0:.1f}s: broker stopped (SIGTERM)")
            time.sleep(0.5)
            broker.start()
            events.append(f"{time.monotonic() - t0:.1f}s: broker restarted")
        assert done.wait(SECONDS * 4 + 30), "the controllers did not finish"
        expected = TABLES * GAMES
        rec.wait_for(lambda ms: len({json.loads(m.payload)["id"] for m in ms}) >= expected,
                     120)
        events.append(f"{time.monotonic() - t0:.1f}s: all arrived")
    finally:
        writer.join(SECONDS * 4 + 30)
        for proc in [*farms, *singles.values()]:
            proc.send_signal(signal.SIGTERM)
        for proc in [*farms, *singles.values()]:
            try:
                proc.wait(15)
            except subprocess.TimeoutExpired:
                proc.kill()
        cable.close()
        rec.close()
        for box in outboxes.values():
            box.close()
        if str(tmp_path).startswith("/dev/shm/"):
            import shutil

            shutil.rmtree(tmp_path, ignore_errors=True)

    first: dict[str, bytes] = {}
    order: dict[str, list[int]] = defaultdict(list)
    repeats = 0
    for m in rec.messages:
        msg = json.loads(m.payload)
        if msg["id"] in first:
            repeats += 1
            assert m.payload == first[msg["id"]], f"a repeat of {msg['id']} differs"
            continue
        first[msg["id"]] = m.payload
        order[msg["table"]].append(msg["game"])
    missing = {t: sorted(set(range(1, GAMES + 1)) - set(order[t])) for t in names}
    missing = {t: g for t, g in missing.items() if g}
    assert not missing, f"games lost: {missing}"
    assert len(first) == TABLES * GAMES
    for t in names:
        assert order[t] == list(range(1, GAMES + 1)), f"table {t} out of order: {order[t]}"
    summary = (f"{TABLES} tables x {GAMES} games on {broker.kind}: {len(first)} games arrived, "
               f"0 lost, {repeats} transport repeats (identical, dropped by id); "
               + "; ".join(events))
    record_property("club_sim", summary)
    print(summary)

"""The real server process and a real broker: no message a table publishes stops the server.

A 60 KB nest of brackets on a table's game topic used to make the server exit (it could not
store the message, so it did not acknowledge it, so the broker handed it over again after every
restart). Now it is refused, acknowledged, and the server stays up across a restart; then
malformed payloads of every shape go the same way, each one in the refused list, and the
table's real game still counts.
"""

from __future__ import annotations

import copy
import json
import sqlite3
import time
from pathlib import Path
from typing import Any

from brokers import club_spec, connect
from clubkit import Director, ServerProcess, write_config

from club.simtables import SimTable, encode, topic


def _refused(server: ServerProcess) -> list[str]:
    db = sqlite3.connect(server.config.parent / "club.db")
    try:
        return [r[0] for r in db.execute("SELECT reason FROM rejected ORDER BY seq")]
    finally:
        db.close()


def _wait(cond: Any, timeout: float, what: str, server: ServerProcess) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        assert server.proc is not None and server.proc.poll() is None, \
            f"the server stopped: {server.log.read_text()[-3000:]}"
        value = cond()
        if value:
            return value
        time.sleep(0.2)
    raise AssertionError(f"timed out waiting for {what}")


def _shapes(m: dict[str, Any]) -> list[bytes]:
    """Malformed payloads of every shape: not JSON, not an object, too large, too deep, and
    each field of the message and of its result with a value of the wrong type or range."""
    raw = [b"", b"null", b"\xff\xfe", b"{", b"[]", b'"x"', b"1e999", b"NaN",
           b'{"a":' * 10000 + b"1" + b"}" * 10000,
           b"{" + b" " * 70_000 + b"}",
           encode(m).replace(b'"revision": 1', b'"revision": 1' + b"0" * 5000),
           encode(m).replace(b'"at": ""', b'"at": "\\ud800"'),
           encode(dict(m, result=dict(m["result"], scores=[[[[[[1]]]]]])))]
    out = list(raw)
    bad_values: list[Any] = [[1], {"a": 1}, 10**30, "x" * 10_000, -99, 1.5]
    for key in m:
        for bad in bad_values:
            out.append(encode(dict(copy.deepcopy(m), **{key: bad})))
    for key in m["result"]:
        for bad in bad_values:
            d = copy.deepcopy(m)
            d["result"][key] = bad
            out.append(encode(d))
    return out


def test_no_message_stops_the_server(tmp_path: Path, broker_factory: Any) -> None:
    broker = broker_factory(club_spec("c1", ["1"]))
    server = ServerProcess(write_config(tmp_path / "srv", broker)).start()
    try:
        director = Director(server.base).login()
        director.import_players(3)
        director.draw()
        db = sqlite3.connect(server.config.parent / "club.db")
        pids = [r[0] for r in db.execute("SELECT player FROM seats ORDER BY seat")]
        db.close()
        table = connect(broker, "1")
        # the evening's message: table 7's 60 KB of brackets, here table 1's
        table.publish(topic("c1", "1"), b"[" * 30000 + b"]" * 30000, qos=1).wait_for_publish(10)
        _wait(lambda: len(_refused(server)) == 1, 30, "the refusal", server)
        assert "nested too deeply" in _refused(server)[0]
        # a restart: the broker has nothing to hand over again (it was acknowledged)
        server.stop()
        server.start()
        time.sleep(2)
        _wait(lambda: server.standings(), 10, "the restarted server", server)
        assert len(_refused(server)) == 1

        shapes = _shapes(SimTable("herbst", 1, "1", pids, seed=8).play_one())
        sim = SimTable("herbst", 1, "1", pids, seed=8)
        for payload in shapes:
            table.publish(topic("c1", "1"), payload, qos=1).wait_for_publish(10)
        table.publish(topic("c1", "1"), encode(sim.play_one()), qos=1).wait_for_publish(10)
        _wait(lambda: server.standings()["games"] == 1, 60, "the real game", server)
        _wait(lambda: len(_refused(server)) == 1 + len(shapes), 30, "every refusal", server)
        table.loop_stop()
        table.disconnect()
        log = server.log.read_text()
        assert "could not store" not in log and "Traceback" not in log, log[-3000:]
        want = dict(zip(sim.players, sim.series.seeger_fabian, strict=True))
        assert {r["id"]: r["total"] for r in server.standings()["ranking"]} == want
        assert json.loads(Director(server.base).get("/api/standings"))["games"] == 1
    finally:
        server.kill()

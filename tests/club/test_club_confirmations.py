"""Who confirmed a game at the table: kept, shown on the game's page and the table's list,
the unconfirmed ones listed for the director; a malformed ``confirmed_by`` refused and kept
(a real server and a real broker)."""

from __future__ import annotations

import html
from pathlib import Path
from typing import Any

from brokers import Recorder, club_spec, connect
from clubkit import Director, ServerProcess, seating_from_broker, write_config
from clubkit import wait_until as _wait

from club.simtables import SimTable, encode, topic


def test_confirmations_are_kept_shown_and_listed(tmp_path: Path, broker_factory: Any) -> None:
    broker = broker_factory(club_spec("c1", ["1"]))
    server = ServerProcess(write_config(tmp_path / "srv", broker)).start()
    try:
        director = Director(server.base).login()
        director.import_players(3)
        watcher = Recorder(broker, "watcher", "skat/c1/table/+/seating")
        director.draw()
        seating = seating_from_broker(watcher, "c1", 1, 1)
        watcher.close()
        pids = seating["1"]
        sim = SimTable("herbst", 1, "1", pids, seed=3, games=4)
        games = [sim.play_one() for _ in range(4)]
        games[0]["confirmed_by"] = [pids[1], pids[2]]   # both opponents confirmed
        games[1]["confirmed_by"] = []                   # the next deal started first
        # games[2]: a table that does not ask (or an older one): no field, counted as ever
        bad = dict(games[3], confirmed_by=[pids[0], "stranger"])
        client = connect(broker, "1")
        for m in (*games[:3], bad):
            client.publish(topic("c1", "1"), encode(m), qos=1).wait_for_publish(10)
        _wait(lambda: server.standings()["games"] == 3, 30, "three games counted")
        page = _wait(lambda: "stranger" in (p := director.get("/director")) and p, 30,
                     "the refused message on the director's page")
        assert html.unescape(page).count('"confirmed_by" must be a list of at most 3 of the '
                                         "game's players, each once") == 1
        assert 'id="unconfirmed"' in page and games[1]["id"] in page.split(
            'id="unconfirmed"')[1].split("</table>")[0]
        assert games[0]["id"] not in page.split('id="unconfirmed"')[1].split("</table>")[0]
        names = {pid: director.get(f"/players/{pid}").split("<h1>")[1].split("<")[0].strip()
                 for pid in pids[1:]}
        first = director.get(f"/games/{games[0]['id']}")
        assert f"confirmed by {names[pids[1]]}, {names[pids[2]]}" in html.unescape(first)
        assert "not confirmed" in director.get(f"/games/{games[1]['id']}")
        third = director.get(f"/games/{games[2]['id']}")
        assert 'id="confirmation"' not in third
        table = director.get("/tables/1/1")
        rows = table.split("<tbody>")[1].split("</tbody>")[0].split("<tr")
        marked = [r for r in rows if "unconfirmed" in r]
        assert len(marked) == 1 and 'data-game="2"' in marked[0]
        # the fourth game (its malformed field) never counted, and the store says who
        # confirmed, kept across a restart
        server.stop()
        server.start()
        assert server.standings()["games"] == 3
        assert "confirmed by" in Director(server.base).login().get(
            f"/games/{games[0]['id']}")
        client.loop_stop()
        client.disconnect()
    finally:
        server.kill()

"""``skat-table bench --only club-server``: a tournament's games from simulated tables through
a real broker into the real server process, and how soon each is on the ranking page.

A local Mosquitto is started on a free loopback port (the embedded amqtt broker when Mosquitto
is not installed; the figure ``club_bench_broker_mosquitto`` says which). Tables x games
(200 x 48 as a federation event; ``--quick``: 20 x 12) are published at ``RATE`` games a second
over all tables, about 40 times the pace of a real 200-table tournament (48 games in 2 h 15).
A spectator's page is modelled exactly as ``live.js`` works: it listens to ``/events`` and
fetches the ranking again after each notice; a game counts as visible when the first ranking
fetch that started after the notice naming it has arrived.

Figures: ``club_ingest_to_page_p99_ms`` and ``_p50_ms`` (message published to ranking
shown), ``club_ingest_games_per_s`` (games stored and counted per second while the tables
published), ``club_ranking_matches_engine`` (1 when every player's Seeger-Fabian total equals
the engine's own series scoring of the same games) and ``club_games_lost`` (should be 0).
"""

from __future__ import annotations

import http.client
import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from club.config import ClubConfig
from club.service import ClubService
from club.simtables import SimTable, encode, topic
from club.store import Store

RATE = 50.0


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _mosquitto() -> str | None:
    for d in ("/usr/sbin", "/usr/local/sbin", "/sbin"):
        if os.access(f"{d}/mosquitto", os.X_OK):
            return f"{d}/mosquitto"
    return shutil.which("mosquitto")


class _Page(threading.Thread):
    """A spectator's ranking page: SSE notices, then a fetch of the ranking."""

    def __init__(self, port: int) -> None:
        super().__init__(daemon=True)
        self.port = port
        self.visible: dict[str, float] = {}
        self.stop = False

    def run(self) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=120)
        conn.request("GET", "/events")
        resp = conn.getresponse()
        page = http.client.HTTPConnection("127.0.0.1", self.port, timeout=120)
        event, data = "", ""
        while not self.stop:
            line = resp.readline().decode("utf-8")
            if not line:
                return
            line = line.rstrip("\n")
            if line.startswith("event:"):
                event = line[6:].strip()
            elif line.startswith("data:"):
                data = line[5:].strip()
            elif line == "" and event:
                if event == "changed":
                    ids = json.loads(data).get("ids", [])
                    page.request("GET", "/", headers={"X-Fragment": "1"})
                    page.getresponse().read()
                    now = time.monotonic()
                    for i in ids:
                        self.visible.setdefault(i, now)
                event, data = "", ""


def run(tables: int, games: int, rate: float = RATE) -> dict[str, float]:
    import paho.mqtt.client as mqtt

    tmp = Path(tempfile.mkdtemp(prefix="club-bench-"))
    procs: list[subprocess.Popen[bytes]] = []
    try:
        mport, wport = _free_port(), _free_port()
        exe = _mosquitto()
        if exe:
            (tmp / "m.conf").write_text(
                f"listener {mport} 127.0.0.1\nallow_anonymous true\npersistence false\n"
                "max_queued_messages 0\nmax_inflight_messages 0\n")
            procs.append(subprocess.Popen([exe, "-c", str(tmp / "m.conf")],
                                          stdout=subprocess.DEVNULL,
                                          stderr=subprocess.DEVNULL))
            broker = f'url = "mqtt://127.0.0.1:{mport}"'
        else:
            broker = f'listen = "127.0.0.1:{mport}"'
        (tmp / "club.toml").write_text(
            f'[club]\nid = "bench"\ndatabase = "club.db"\n[broker]\n{broker}\n'
            f'[web]\nport = {wport}\n[tournament]\nid = "t"\nseed = "1"\n'
            f"games_three = {games}\ngames_four = {games}\n")
        cfg = ClubConfig.from_dict({"club": {"id": "bench", "database": str(tmp / "club.db")},
                                    "tournament": {"id": "t", "seed": "1"}})
        players = 4 * tables - min(3, tables - 1) if tables > 1 else 3
        store = Store(cfg.database)
        svc = ClubService(cfg, store)
        store.add_players([(f"p{i}", f"Player {i}", "", None) for i in range(1, players + 1)])
        svc.draw_series()
        seating = store.seating(1)
        store.close()
        sims = {t: SimTable("t", 1, t, p, seed=3, games=games) for t, p in seating.items()}
        messages = [(t, sims[t].play_one()) for _ in range(games) for t in sims]
        procs.append(subprocess.Popen(
            [sys.executable, "-m", "firmware_host", "club", "serve", "--config",
             str(tmp / "club.toml")], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        _wait_http(wport)
        page = _Page(wport)
        page.start()
        client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="bench-tables")
        client.max_inflight_messages_set(0)
        client.max_queued_messages_set(0)
        client.connect("127.0.0.1", mport)
        client.loop_start()
        sent: dict[str, float] = {}
        t0 = time.monotonic()
        for k, (t, m) in enumerate(messages):
            due = t0 + k / rate
            delay = due - time.monotonic()
            if delay > 0:
                time.sleep(delay)
            sent[m["id"]] = time.monotonic()
            client.publish(topic("bench", t), encode(m), qos=1)
        total = len(messages)
        deadline = time.monotonic() + 120
        st: dict[str, Any] = {}
        while time.monotonic() < deadline:
            st = _standings(wport)
            if st.get("games") == total and len(page.visible) >= total:
                break
            time.sleep(0.2)
        elapsed = time.monotonic() - t0
        client.loop_stop()
        client.disconnect()
        page.stop = True
        lat = sorted((page.visible[i] - s) * 1000 for i, s in sent.items()
                     if i in page.visible)
        want = {pid: sim.series.seeger_fabian[seat]
                for sim in sims.values() for seat, pid in enumerate(sim.players)}
        got = {r["id"]: r["total"] for r in st.get("ranking", [])}
        return {
            "club_ingest_to_page_p99_ms": lat[min(len(lat) - 1, int(len(lat) * 0.99))]
            if lat else float("inf"),
            "club_ingest_to_page_p50_ms": statistics.median(lat) if lat else float("inf"),
            "club_ingest_games_per_s": st.get("games", 0) / elapsed,
            "club_ranking_matches_engine": float(got == want),
            "club_games_lost": float(total - st.get("games", 0)),
            "club_bench_games": float(total),
            "club_bench_broker_mosquitto": float(bool(exe)),
        }
    finally:
        for p in reversed(procs):
            p.kill()
            p.wait(10)
        shutil.rmtree(tmp, ignore_errors=True)


def _wait_http(port: int, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            _standings(port)
            return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError("the club server did not start")


def _standings(port: int) -> dict[str, Any]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    conn.request("GET", "/api/standings")
    return json.loads(conn.getresponse().read())


def bench(quick: bool = False) -> dict[str, float]:
    if quick:
        return run(20, 12)
    return run(200, 48)

"""End to end, as at a club: the real controller writes its journal, the real ``skat-table
link`` process carries the games to a real Mosquitto, and the kiosk shows the link's state.

- The controller is ``skat-table simulate --headless --journal FILE`` (the table's Session on
  simulated hardware, computer players): each finished game's outbox item is written with its
  last input. The link is ``skat-table link --config FILE`` in its own process. It is killed
  with SIGKILL after the first game arrived, the next series is played while it is dead, and
  it is started again: every game of the journal's outbox arrives, once by ``id``, first
  arrivals in the journal's order, each with the result the controller journalled.
- A link that cannot reach its broker: ``status.json`` says offline with the games waiting,
  and the kiosk's event loop (the wiring of ``skat-table run``) shows "club: offline since
  HH:MM, 3 games waiting".
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

from brokers import Recorder, club_spec

from firmware_host.clubside.link.ledger import Ledger
from firmware_host.series.journal import read_outbox

ROOT = Path(__file__).resolve().parents[2]
CONFIGS = ROOT / "tests" / "data" / "configs"
ENV = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy",
       "GPIOZERO_PIN_FACTORY": "mock"}


def _config(tmp: Path, broker_url: str, password_file: Path) -> Path:
    """The table's config (three players, its deck) with its ``[club]`` section."""
    cfg = tmp / "config.toml"
    cfg.write_text((CONFIGS / "three.toml").read_text(encoding="utf-8")
                   + f'\n[club]\nbroker = "{broker_url}"\nclub = "c1"\ntable = "t7"\n'
                   f'password_file = "{password_file}"\n', encoding="utf-8")
    return cfg


def _simulate(config: Path, journal: Path, games: int, seed: int) -> None:
    """The controller plays a series of ``games`` into ``journal``."""
    out = subprocess.run([sys.executable, "-m", "firmware_host", "simulate", "--headless",
                          "--config", str(config), "--games", str(games), "--seed", str(seed),
                          "--journal", str(journal)],
                         cwd=ROOT, env=ENV, capture_output=True, text=True, timeout=180)
    assert out.returncode == 0, out.stderr
    assert f"Series over after {games} deals" in out.stdout, out.stdout[-500:]


def _link(config: Path, data: Path) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "firmware_host", "link", "--config",
                             str(config), "--data-dir", str(data)],
                            cwd=ROOT, env=ENV, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)


def _stop(proc: subprocess.Popen) -> str:
    proc.send_signal(signal.SIGTERM)
    try:
        _, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 0, err
    assert "Traceback" not in err, err
    return err


def test_link_killed_mid_evening_every_journalled_game_arrives_once(broker_factory,
                                                                    tmp_path) -> None:
    broker = broker_factory(club_spec("c1", ["t7"]))
    rec = Recorder(broker, "server", "skat/c1/table/t7/game", client_id="club-server",
                   clean=False)
    data = tmp_path / "data"
    journal = data / "journal.sqlite"
    config = _config(tmp_path, broker.url(), broker.password_file("t7"))
    _simulate(config, journal, 6, seed=11)           # the first series, before the link runs
    link = _link(config, data)
    try:
        assert rec.wait_for(lambda ms: len(ms) >= 1, 60), "the link delivered nothing"
        link.send_signal(signal.SIGKILL)             # kill -9, whatever it was doing
        link.wait(10)
        arrived_before = len(rec.messages)
        _simulate(config, journal, 6, seed=12)       # the next series while it is dead
        link = _link(config, data)
        rows = read_outbox(journal, 0, 1000)
        assert len(rows) == 12
        journal_id = rows[0].payload["journal"][:8]
        expected = [f"home/{journal_id}-{r.series}/t7/{r.game}" for r in rows]
        got = rec.wait_for(lambda ms: (ids := {json.loads(m.payload)["id"] for m in ms})
                           >= set(expected) and ids, 60)
        assert got, f"not every game arrived: {len(rec.messages)} messages"
        time.sleep(0.3)  # a late repeat would show now
        _stop(link)
    finally:
        if link.poll() is None:
            link.kill()
            link.wait()
        rec.close()
    first: dict[str, bytes] = {}
    order, repeats = [], 0
    for m in rec.messages:
        msg = json.loads(m.payload)
        if msg["id"] in first:
            assert m.payload == first[msg["id"]], f"a repeat of {msg['id']} differs"
            repeats += 1
            continue
        first[msg["id"]] = m.payload
        order.append(msg["id"])
    assert order == expected, "lost, foreign or out of order"
    for row, key in zip(rows, expected, strict=True):
        msg = json.loads(first[key])
        assert (msg["revision"], msg["result"], msg["dealer"]) == (
            row.revision, row.payload["result"], row.payload["dealer"])
        assert msg["tournament"] is None and msg["players"] == ["Anna", "Ben", "Carla"]
    ledger = Ledger.open(data / "club" / "link.sqlite")
    assert (ledger.count(), ledger.cursor) == (12, rows[-1].seq)
    ledger.close()
    print(f"link SIGKILLed after {arrived_before} of 6 games arrived; 12/12 games arrived, "
          f"{repeats} repeats (identical)")


def test_a_link_that_cannot_reach_its_broker_is_the_kiosks_status_line(tmp_path) -> None:
    from display.clubscene import club_line
    from display.i18n import translator
    from firmware_host.config import load_config
    from firmware_host.series.journal import Journal
    from firmware_host.series.session import Session
    from firmware_host.service.runner import EventLoop, club_desk

    # A port that refuses connections and that nobody else can take while the test runs.
    closed = socket.socket()
    closed.bind(("127.0.0.1", 0))
    port = closed.getsockname()[1]
    (tmp_path / "pw").write_text("secret\n")
    data = tmp_path / "data"
    journal = data / "journal.sqlite"
    config = _config(tmp_path, f"mqtt://127.0.0.1:{port}", tmp_path / "pw")
    _simulate(config, journal, 3, seed=5)
    link = _link(config, data)
    try:
        status = data / "club" / "status.json"
        deadline = time.monotonic() + 60
        st: dict = {}
        while time.monotonic() < deadline:
            st = json.loads(status.read_text()) if status.exists() else {}
            if st.get("state") == "offline" and st.get("waiting") == 3:
                break
            assert link.poll() is None, link.communicate()
            time.sleep(0.05)
        assert st.get("state") == "offline" and st.get("waiting") == 3, st
        assert "cannot reach 127.0.0.1" in st["detail"]
        # The controller's side, wired as `skat-table run` wires it.
        cfg = load_config(config)
        session = Session(cfg, Journal.open(journal))
        session.resume()
        views: list = []
        loop = EventLoop(session, show=views.append)
        loop.club = club_desk(cfg, data)
        loop.serve_once(0.01)
        since = time.strftime("%H:%M", time.localtime(st["since"]))
        assert views and views[-1].club is not None
        assert club_line(views[-1].club, translator("en")) == (
            f"club: offline since {since}, 3 games waiting")
        assert club_line(views[-1].club, translator("de")).startswith(
            f"Club: offline seit {since}")
        session.close()
        err = _stop(link)
    finally:
        if link.poll() is None:
            link.kill()
            link.wait()
        closed.close()
    assert "offline" in err and f"cannot reach 127.0.0.1:{port}" in err

"""``skat-table club rehearse`` as a director runs it: the real server process, a real
Mosquitto with a user per table, the rehearsal's tables behind real links (the link's code,
real journals), the director's work over HTTP.

- Short form (``make test``): 3 tables (10 players: 4+3+3, one more registered and absent),
  one series of 5 games a table: every game sent is counted, once; the printed report names
  games, time and ingest-to-page; the server's own standings say the same, with each total
  the engine's; the absent player is not ranked.
- Bad input is one line and exit status 2, nothing registered: tables that do not fit the
  players, a missing table password, a server that is not running, a wrong director
  password, a server whose tournament has begun.
- Full form (``make test-full``): the evening that was run by hand, 12 tables, 45 of 48
  players present, two series of 48/36 games (1,080 games).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from brokers import club_spec
from clubkit import PASSWORD, ROOT, ServerProcess, write_config


def _rehearse(config: Path, broker, tmp: Path, *args: str,
              timeout: float = 600) -> subprocess.CompletedProcess[str]:
    pw = tmp / "director.password"
    pw.write_text(PASSWORD + "\n", encoding="utf-8")
    return subprocess.run(
        [sys.executable, "-m", "firmware_host", "club", "rehearse", "--server-config",
         str(config), "--table-passwords", str(broker.directory / "secrets"),
         "--director-password-file", str(pw), "--broker", broker.url(), *args],
        cwd=ROOT, capture_output=True, text=True, timeout=timeout,
        env=dict(os.environ, PYTHONUNBUFFERED="1"))


def _broker_for(broker_factory, tables: int):
    broker = broker_factory(club_spec("c1", [str(t) for t in range(1, tables + 1)]))
    for t in range(1, tables + 1):
        broker.password_file(str(t))  # secrets/T.password, as install-club.sh lays them out
    return broker


def test_a_short_rehearsal_counts_every_game_it_sends(broker_factory, tmp_path: Path,
                                                     record_property) -> None:
    broker = _broker_for(broker_factory, 3)
    # the server speaks German, as a club's does unless told: the rehearsal reads its words
    config = write_config(tmp_path / "server", broker, series=1,
                          extra="games_three = 5\ngames_four = 5\n", language="de")
    server = ServerProcess(config).start()
    try:
        done = _rehearse(config, broker, tmp_path, "--tables", "3", "--players", "10",
                         "--absent", "1", "--series", "1", "--game-seconds", "0.05")
        out = done.stdout
        assert done.returncode == 0, (out, done.stderr)
        assert "games sent 15, counted 15" in out, out
        assert re.search(r"elapsed \d+\.\d s", out), out
        m = re.search(r"ingest to page: p50 (\d+) ms, p99 (\d+) ms, max \d+ ms \((\d+) games\)",
                      out)
        assert m and int(m.group(3)) == 15, out
        assert 0 <= int(m.group(1)) <= int(m.group(2)) < 30_000
        assert "every player's total equals the engine's" in out and "rehearsal passed" in out
        assert "Traceback" not in done.stderr
        # The server's own view, asked independently.
        st = server.standings()
        assert st["games"] == 15
        assert len(st["ranking"]) == 10 and [p["id"] for p in st["not_ranked"]] == ["r11"]
        record_property("rehearsal", out.strip().replace("\n", "; "))
    finally:
        server.stop()


def test_bad_input_is_one_line_and_changes_nothing(broker_factory, tmp_path: Path) -> None:
    broker = _broker_for(broker_factory, 2)
    config = write_config(tmp_path / "server", broker, series=1,
                          extra="games_three = 2\ngames_four = 2\n")

    def refused(*args: str, password_dir: Path | None = None) -> str:
        done = _rehearse(config, broker, tmp_path, *args, timeout=120)
        assert done.returncode == 2, (done.stdout, done.stderr)
        lines = done.stderr.strip().splitlines()
        assert len(lines) == 1 and "Traceback" not in done.stderr, done.stderr
        return lines[0]

    # Before any server runs: the plan is checked first.
    assert "7 players sit at 2 tables, not 3" in refused("--tables", "3", "--players", "7")
    assert "5 players cannot sit" in refused("--tables", "2", "--players", "5")
    assert "has 1 series" in refused("--tables", "2", "--players", "8", "--series", "2")
    assert "3.password" in refused("--tables", "3", "--players", "12")
    assert "cannot reach the club server" in refused("--tables", "2", "--players", "8")
    server = ServerProcess(config).start()
    try:
        wrong = tmp_path / "wrong.password"
        wrong.write_text("not the password\n", encoding="utf-8")
        done = subprocess.run(
            [sys.executable, "-m", "firmware_host", "club", "rehearse", "--server-config",
             str(config), "--table-passwords", str(broker.directory / "secrets"),
             "--director-password-file", str(wrong), "--tables", "2", "--players", "8"],
            cwd=ROOT, capture_output=True, text=True, timeout=120)
        assert done.returncode == 2 and "Wrong password" in done.stderr, done.stderr
        assert server.standings()["ranking"] == []  # nothing registered
        # A server whose tournament has begun (a player registered) is not rehearsed on.
        from clubkit import Director

        Director(server.base).login().import_players(1)
        line = refused("--tables", "2", "--players", "8")
        assert "has begun" in line and "a config of its own" in line, line
    finally:
        server.stop()


@pytest.mark.full
def test_the_evening_rehearsed_twelve_tables_two_series(broker_factory, tmp_path: Path,
                                                       record_property) -> None:
    broker = _broker_for(broker_factory, 12)
    config = write_config(tmp_path / "server", broker, series=2)
    server = ServerProcess(config).start()
    try:
        done = _rehearse(config, broker, tmp_path, "--tables", "12", "--players", "45",
                         "--absent", "3", "--series", "2", "--game-seconds", "0.1",
                         timeout=1800)
        out = done.stdout
        assert done.returncode == 0, (out, done.stderr)
        assert "games sent 1080, counted 1080" in out, out
        assert "rehearsal passed" in out
        st = server.standings()
        assert st["games"] == 1080 and len(st["ranking"]) == 45 and len(st["not_ranked"]) == 3
        record_property("rehearsal", out.strip().replace("\n", "; "))
        print(out)
        (tmp_path / "report.json").write_text(json.dumps({"stdout": out}), encoding="utf-8")
    finally:
        server.stop()

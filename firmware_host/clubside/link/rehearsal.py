"""The tables of a rehearsal (``skat-table club rehearse``): simulated tables, real links.

    python -m firmware_host.clubside.link.rehearsal SPEC.json

``skat-table club rehearse`` (``club/rehearse.py``) starts this process; the club server's
package never imports the table's code, so the table side of a rehearsal lives here, with the
link. Each table of ``SPEC.json`` (``{"club", "broker", "ca_file", "dir", "game_seconds",
"seed", "tables": [{"table", "password_file"}]}``) gets:

- a real :class:`Link` on a thread (the code ``skat-table link`` runs: its own MQTT client
  with the table's account, its ledger, the retained status and last will), reading a real
  journal through :class:`JournalOutbox`, as on a table;
- a scripted controller: when the link has written a new seating (``club/seating.json``, as
  the club server sent it), it plays the seating's games with the engine
  (``club.simtables.SimTable``: random legal Skat) and writes each finished game into the
  journal with its outbox item, one every ``game_seconds``.

It reports on stdout, one JSON object a line: ``ready``; ``game`` (table, series, game, id and
``at``, the epoch time its journal record was committed: the table finished it and the link
may publish it); ``done`` (a table's series played, with each player's Seeger-Fabian total by
the engine); ``error``. It runs until SIGTERM or its stdin closes.
"""

from __future__ import annotations

import json
import signal
import sys
import threading
import time
from pathlib import Path
from typing import Any

from club.simtables import SimTable
from firmware_host.clubside.clubconfig import parse_club
from firmware_host.clubside.clubfiles import SEATING_FILE, read_json
from firmware_host.clubside.link.outbox import JournalOutbox
from firmware_host.clubside.link.service import Link, LinkOptions
from firmware_host.clubside.seating import Seating, SeatingError, parse_seating
from firmware_host.series.journal import Journal, OutboxItem

OPTIONS = LinkOptions(poll_interval=0.05, backoff_min=0.2, backoff_max=2.0,
                      connect_timeout=5.0, status_every=0.5)
_out = threading.Lock()


def emit(event: str, **fields: Any) -> None:
    with _out:
        sys.stdout.write(json.dumps({"event": event, **fields}) + "\n")
        sys.stdout.flush()


class RehearsalTable:
    """One table: its link on a thread and a controller that plays each new seating."""

    def __init__(self, spec: dict[str, Any], table: dict[str, Any], stop: threading.Event
                 ) -> None:
        self.table = str(table["table"])
        self.stop = stop
        self.game_seconds = float(spec.get("game_seconds", 0.5))
        self.seed = spec.get("seed", "rehearsal")
        self.dir = Path(spec["dir"]) / self.table
        self.spool = self.dir / "club"
        self.spool.mkdir(parents=True, exist_ok=True)
        self.journal_path = self.dir / "journal.sqlite"
        section = {"broker": spec["broker"], "club": spec["club"], "table": self.table,
                   "password_file": str(table["password_file"])}
        if spec.get("ca_file"):
            section["ca_file"] = str(spec["ca_file"])
        self.config = parse_club(section)
        self.link = Link(self.config, JournalOutbox(self.journal_path), self.spool, OPTIONS)
        self.threads = [threading.Thread(target=self.link.run, args=(stop.is_set, 0.05),
                                         name=f"link-{self.table}", daemon=True),
                        threading.Thread(target=self._play, name=f"table-{self.table}",
                                         daemon=True)]

    def start(self) -> None:
        for t in self.threads:
            t.start()

    def join(self) -> None:
        for t in self.threads:
            t.join(10)

    def _play(self) -> None:
        journal = Journal.open(self.journal_path)
        played: set[tuple[str, str]] = set()
        try:
            while not self.stop.is_set():
                seating = self._seating()
                if seating is not None and (seating.tournament, seating.series) not in played:
                    played.add((seating.tournament, seating.series))
                    self._series(journal, seating)
                self.stop.wait(0.05)
        except Exception as exc:  # said on stdout: the director's rehearsal reports it
            emit("error", table=self.table, text=f"{type(exc).__name__}: {exc}")
        finally:
            journal.close()

    def _seating(self) -> Seating | None:
        data = read_json(self.spool / SEATING_FILE)
        if data is None:
            return None
        try:
            return parse_seating(data)
        except SeatingError:
            return None  # the link checked it before writing it; a half-read file is retried

    def _series(self, journal: Journal, seating: Seating) -> None:
        players = sorted(seating.players, key=lambda p: p.seat)
        ids = [p.id or p.name for p in players]
        names = [p.name for p in players]
        number = int(seating.series) if seating.series.isdigit() else 1
        sim = SimTable(seating.tournament, number, self.table, ids, seed=self.seed,
                       games=seating.games)
        jseries = journal.start_series({"players": names}, {"table": "rehearsal"})
        club = {"tournament": seating.tournament, "series": seating.series, "players": ids}
        while not sim.finished and not self.stop.is_set():
            m = sim.play_one()
            payload = {"journal": "rehearsal", "series": jseries, "game": m["game"],
                       "revision": 1, "players": names, "dealer": m["dealer"],
                       "result": m["result"], "iss": m["iss"], "at": time.time(),
                       "club": club}
            journal.append(jseries, {"seat": 0, "press": "pass"}, "accepted",
                           outbox=[OutboxItem(m["game"], 1, payload)])
            emit("game", table=self.table, series=seating.series, game=m["game"],
                 id=f"{seating.tournament}/{seating.series}/{self.table}/{m['game']}",
                 at=time.time())
            self.stop.wait(self.game_seconds)
        if sim.finished:
            totals = {pid: sim.series.seeger_fabian[seat] for seat, pid in enumerate(ids)}
            emit("done", table=self.table, series=seating.series, games=seating.games,
                 totals=totals)


def main(path: str) -> int:
    spec = json.loads(Path(path).read_text(encoding="utf-8"))
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *a: stop.set())
    tables = [RehearsalTable(spec, t, stop) for t in spec["tables"]]
    for t in tables:
        t.start()
    emit("ready", tables=len(tables))

    def stdin_closed() -> None:
        sys.stdin.read()
        stop.set()

    threading.Thread(target=stdin_closed, daemon=True).start()
    stop.wait()
    for t in tables:
        t.join()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))

"""Helpers for the link tests: an outbox in memory, a link on a thread, a game payload."""

from __future__ import annotations

import contextlib
import threading
from pathlib import Path
from typing import Any

from firmware_host.clubside.clubconfig import ClubConfig, parse_club
from firmware_host.clubside.link.outbox import OutboxRow
from firmware_host.clubside.link.service import Link, LinkOptions

FAST = LinkOptions(poll_interval=0.05, backoff_min=0.1, backoff_max=0.5, connect_timeout=2,
                   status_every=0.05)


class MemoryOutbox:
    """The journal's outbox as a list (the real one: firmware_host.series.journal.read_outbox)."""

    def __init__(self) -> None:
        self.rows: list[OutboxRow] = []
        self._lock = threading.Lock()

    def add(self, game: int, revision: int = 1, series: int = 1, **extra: Any) -> OutboxRow:
        with self._lock:
            seq = (self.rows[-1].seq if self.rows else 0) + 1
            row = OutboxRow(seq, 0, series, game, revision, payload(game, revision, **extra))
            self.rows.append(row)
            return row

    def read(self, after_seq: int, limit: int) -> list[OutboxRow]:
        with self._lock:
            return [r for r in self.rows if r.seq > after_seq][:limit]


def payload(game: int, revision: int = 1, tournament: str | None = "herbst",
            series: str = "1", **extra: Any) -> dict[str, Any]:
    p: dict[str, Any] = {
        "journal": "jrnl0001", "series": 1, "game": game, "revision": revision,
        "players": ["Anna", "Ben", "Carla"], "dealer": (game - 1) % 3,
        "result": {"number": game, "value": 24 * revision}, "iss": None, "at": 1_700_000_000,
    }
    if tournament is not None:
        p["club"] = {"tournament": tournament, "series": series, "players": ["p1", "p2", "p3"]}
    p.update(extra)
    return p


def club_config(broker: Any, table: str, *, user: str | None = None, tls: bool = False,
                club: str = "c1", password_file: Path | None = None,
                url: str | None = None, ca_file: Path | None = None) -> ClubConfig:
    user = user or table
    sec = {"broker": url or broker.url(tls=tls), "club": club, "table": table,
           "username": user,
           "password_file": str(password_file or broker.password_file(user))}
    if tls:
        sec["ca_file"] = str(ca_file or broker.ca_file)
    return parse_club(sec)


class LinkThread:
    """A :class:`Link` running on a thread until :meth:`stop`."""

    def __init__(self, link: Link) -> None:
        self.link = link
        self._stop = threading.Event()
        self.errors: list[BaseException] = []
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        try:
            self.link.run(self._stop.is_set, tick=0.05)
        except BaseException as exc:
            self.errors.append(exc)
            raise

    def stop(self) -> None:
        self._stop.set()
        self.thread.join(10)
        assert not self.thread.is_alive(), "the link did not stop"
        assert not self.errors, self.errors


def start_link(cfg: ClubConfig, source: Any, spool: Path,
               options: LinkOptions = FAST) -> LinkThread:
    return LinkThread(Link(cfg, source, spool, options))


class JournalTable:
    """A scripted controller: a real journal whose every game finishes at once, its outbox
    item written with the game's last input (what the controller's session does)."""

    def __init__(self, path: Path) -> None:
        from firmware_host.series.journal import Journal

        self.path = Path(path)
        self.journal = Journal.open(self.path)
        self.series = self.journal.start_series({"players": ["Anna", "Ben", "Carla"]})

    def add(self, game: int, revision: int = 1, **extra: Any) -> None:
        from firmware_host.series.journal import OutboxItem

        self.journal.append(self.series, {"seat": 0, "press": "pass"}, "accepted",
                            outbox=[OutboxItem(game, revision, payload(game, revision,
                                                                       **extra))])

    def close(self) -> None:
        self.journal.close()


class TcpForwarder:
    """A network cable for one table: closed (connection refused) until :meth:`open`, then
    forwarding every connection to ``127.0.0.1:target``."""

    def __init__(self, target: int) -> None:
        import socket

        self.target = target
        # Bound now but not listening: connections are refused, and no other process can take
        # the port before the cable is plugged in (a port given back and bound again later was).
        self._server: Any = socket.socket()
        self._server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self._server.bind(("127.0.0.1", 0))
        self.port = self._server.getsockname()[1]
        self._stop = threading.Event()
        self._threads: list[threading.Thread] = []

    def open(self) -> None:
        self._server.listen()
        self._server.settimeout(0.2)
        t = threading.Thread(target=self._accept, daemon=True)
        t.start()
        self._threads.append(t)

    def _accept(self) -> None:
        import socket

        while not self._stop.is_set():
            try:
                client, _ = self._server.accept()
            except (TimeoutError, OSError):
                continue
            try:
                upstream = socket.create_connection(("127.0.0.1", self.target), timeout=2)
            except OSError:
                client.close()
                continue
            for a, b in ((client, upstream), (upstream, client)):
                t = threading.Thread(target=self._pipe, args=(a, b), daemon=True)
                t.start()

    def _pipe(self, a: Any, b: Any) -> None:
        a.settimeout(0.5)
        try:
            while not self._stop.is_set():
                try:
                    data = a.recv(65536)
                except TimeoutError:
                    continue
                if not data:
                    break
                b.sendall(data)
        except OSError:
            pass
        finally:
            for s in (a, b):
                with contextlib.suppress(OSError):
                    s.shutdown(2)

    def close(self) -> None:
        self._stop.set()
        if self._server is not None:
            self._server.close()

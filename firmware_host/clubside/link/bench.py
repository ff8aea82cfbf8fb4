"""``skat-table bench --only club``: the club link's figures, on loopback against a real broker.

- ``club_publish_p99_ms``: a game finished (its outbox item written) to the broker's
  acknowledgement of it, 99th percentile over games finished one at a time;
- ``club_backlog_drain_games_per_s``: a table back after being offline with 1,000 games
  waiting (300 with ``--quick``): games acknowledged per second, from the connection on.

The broker is Mosquitto started here on a free loopback port (anonymous, no persistence);
where Mosquitto is not installed, amqtt in-process. The games are the controller's own: a real
journal (``firmware_host.series.journal``) in a temporary directory, each game finished by
``Journal.append(..., outbox=[OutboxItem])`` (the record of its last input, committed with
fsync as at the table), and the link reads them as it does at the table, through
:class:`~firmware_host.clubside.link.outbox.JournalOutbox` (``read_outbox``, read-only, polled every
50 ms). The clock starts when the append has returned (the game is finished and durable) and
stops when the link sees the broker's PUBACK.
"""

from __future__ import annotations

import contextlib
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from firmware_host.clubside.clubconfig import parse_club
from firmware_host.clubside.link.outbox import JournalOutbox
from firmware_host.clubside.link.service import Link, LinkOptions
from firmware_host.series.journal import Journal, OutboxItem


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _wait_port(port: int, alive: Any, timeout: float = 10) -> None:
    deadline = time.monotonic() + timeout
    while True:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            if not alive() or time.monotonic() > deadline:
                raise RuntimeError(f"bench club: no broker on port {port}") from None
            time.sleep(0.02)


@contextlib.contextmanager
def _broker(directory: Path) -> Iterator[tuple[int, str]]:
    binary = shutil.which("mosquitto") or next(
        (p for p in ("/usr/sbin/mosquitto", "/usr/local/sbin/mosquitto") if Path(p).exists()),
        None)
    port = _free_port()
    if binary:
        import os

        conf = directory / "mosquitto.conf"
        conf.write_text(f"listener {port} 127.0.0.1\nallow_anonymous true\n"
                        "persistence false\nmax_inflight_messages 0\nlog_dest none\n"
                        + ("user root\n" if os.geteuid() == 0 else ""))
        proc = subprocess.Popen([binary, "-c", str(conf)], stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL)
        try:
            _wait_port(port, lambda: proc.poll() is None)
            yield port, "mosquitto"
        finally:
            proc.terminate()
            proc.wait(10)
        return
    try:
        import asyncio

        from amqtt.broker import Broker
    except ImportError:
        raise RuntimeError("bench club needs a broker: apt-get install mosquitto "
                           "(or pip install amqtt)") from None
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    cfg = {"listeners": {"default": {"type": "tcp", "bind": f"127.0.0.1:{port}"}},
           "plugins": {"amqtt.plugins.authentication.AnonymousAuthPlugin":
                       {"allow_anonymous": True}}}
    holder: dict[str, Any] = {}

    async def start() -> None:
        holder["b"] = Broker(cfg)
        await holder["b"].start()

    asyncio.run_coroutine_threadsafe(start(), loop).result(20)
    try:
        yield port, "amqtt"
    finally:
        asyncio.run_coroutine_threadsafe(holder["b"].shutdown(), loop).result(20)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(10)


class _Table:
    """A controller's journal: each game finished by the record of its last input with the
    game's outbox item; the link reads it with :class:`JournalOutbox`."""

    def __init__(self, directory: Path) -> None:
        self.path = directory / "journal.sqlite"
        self.journal = Journal.open(self.path)
        self._series = self.journal.start_series({"players": ["A", "B", "C"]})
        self.finished_at: dict[int, float] = {}

    def finish(self, game: int) -> None:
        payload = {"journal": "bench", "series": 1, "game": game, "revision": 1,
                   "players": ["A", "B", "C"], "dealer": game % 3,
                   "result": {"number": game, "value": 24, "won": True}, "iss": None,
                   "at": time.time(), "club": {"tournament": "bench", "series": "1",
                                               "players": ["p1", "p2", "p3"]}}
        self.journal.append(self._series, {"seat": 0, "press": "pass"}, "accepted",
                            outbox=[OutboxItem(game, 1, payload)])
        self.finished_at[game] = time.perf_counter()

    def outbox(self) -> JournalOutbox:
        return JournalOutbox(self.path)

    def close(self) -> None:
        self.journal.close()


def _link(port: int, directory: Path, outbox: JournalOutbox, poll: float) -> Link:
    pw = directory / "pw"
    pw.write_text("x\n")
    cfg = parse_club({"broker": f"mqtt://127.0.0.1:{port}", "club": "bench", "table": "1",
                      "password_file": str(pw)})
    return Link(cfg, outbox, directory / "club",
                LinkOptions(poll_interval=poll, backoff_min=0.1, backoff_max=0.5,
                            status_every=1.0))


def _run_until(link: Link, done: Any, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while not done() and time.monotonic() < deadline:
        link.run_once(0.005)


def publish_latencies(port: int, directory: Path, games: int) -> list[float]:
    """Milliseconds from a game's outbox item to its PUBACK, one game at a time."""
    table = _Table(directory)
    link = _link(port, directory, table.outbox(), LinkOptions.poll_interval)
    acked: dict[int, float] = {}
    link.on_acked = lambda gid, rev: acked.setdefault(int(gid.rsplit("/", 1)[1]),
                                                      time.perf_counter())
    _run_until(link, lambda: link.online, 10)
    stop = threading.Event()

    def turn() -> None:
        while not stop.is_set():
            link.run_once(0.005)

    runner = threading.Thread(target=turn, daemon=True)
    runner.start()
    try:
        for g in range(1, games + 1):
            table.finish(g)
            deadline = time.monotonic() + 5
            while g not in acked and time.monotonic() < deadline:
                time.sleep(0.001)
            time.sleep(0.01)
    finally:
        stop.set()
        runner.join(10)
        link.close(goodbye=False)
        table.close()
    if len(acked) < games:
        raise RuntimeError(f"bench club: only {len(acked)} of {games} games were acknowledged")
    return [(acked[g] - table.finished_at[g]) * 1000 for g in acked]


def drain_rate(port: int, directory: Path, games: int) -> float:
    """Games per second acknowledged by a link that finds ``games`` waiting."""
    table = _Table(directory)
    for g in range(1, games + 1):
        table.finish(g)
    link = _link(port, directory, table.outbox(), 0.05)
    _run_until(link, lambda: link.online, 10)
    t0 = time.perf_counter()
    _run_until(link, lambda: link.published >= games and not link.waiting, 120)
    elapsed = time.perf_counter() - t0
    n = link.published
    link.close(goodbye=False)
    table.close()
    if n < games:
        raise RuntimeError(f"bench club: only {n} of {games} games were acknowledged")
    return games / elapsed


def bench(quick: bool = False) -> dict[str, float]:
    runs = 1 if quick else 3
    with tempfile.TemporaryDirectory(prefix="skat-bench-club-") as tmp:
        root = Path(tmp)
        with _broker(root) as (port, kind):
            p99s, rates = [], []
            for i in range(runs):
                lat = publish_latencies(port, _fresh(root, f"p{i}"), 40 if quick else 200)
                p99s.append(_percentile(lat, 99))
                rates.append(drain_rate(port, _fresh(root, f"d{i}"), 300 if quick else 1000))
    for name, values in (("club_publish_p99_ms", p99s),
                         ("club_backlog_drain_games_per_s", rates)):
        print(f"bench club: {name} runs: {', '.join(f'{v:.1f}' for v in values)}",
              file=sys.stderr)
    return {"club_publish_p99_ms": round(statistics.median(p99s), 2),
            "club_backlog_drain_games_per_s": round(statistics.median(rates), 1),
            "club_bench_broker_is_mosquitto": 1.0 if kind == "mosquitto" else 0.0}


def _fresh(root: Path, name: str) -> Path:
    d = root / name
    d.mkdir()
    return d


def _percentile(values: list[float], q: float) -> float:
    s = sorted(values)
    if not s:
        return float("nan")
    k = min(len(s) - 1, max(0, round(q / 100 * (len(s) - 1))))
    return s[k]

"""``skat-table club rehearse``: an evening before the evening, into a running club server.

    skat-table club rehearse --server-config club.toml --tables 12 --players 45 --absent 3 \\
        --series 2 --table-passwords /etc/skat-club/tables

The director's side is done as the director does it, over HTTP: log in, import the players
(``Rehearsal 01`` ...; ``--absent`` more, marked absent), draw each series, close it when its
games are in. The tables are simulated tables behind real links: a process of the table's
code (``firmware_host.clubside.link.rehearsal``; this package never imports the table's) runs
one real link per table with the table's broker account, takes the seating the server
publishes, and plays the seating's games with the engine into a real journal, one game per
table every ``--game-seconds``. A spectator's ranking page is modelled as ``live.js`` works
(``/events``, then the ranking fetched again).

Printed at the end: the games sent and counted, the time, and ingest-to-page: from the moment
a table's journal holds a game (the link publishes it from there) to the moment the ranking
page, fetched after the server's notice naming that game, has it (p50 and p99). And whether
every player's total equals the engine's own Seeger-Fabian scoring of the games played. Exit
status 0 when everything sent was counted and every total agrees, 1 when not, 2 when the
rehearsal cannot start (the message says why).

Run it against a server of its own (a config with another database and tournament id): it
registers players and draws series, and refuses a server whose tournament has begun.
"""

from __future__ import annotations

import argparse
import getpass
import html
import http.client
import http.cookiejar
import json
import math
import os
import queue
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from club.config import ClubConfig, ClubConfigError, load_config
from club.i18n import translator
from club.tournament import TournamentError, table_sizes

TABLE_SIDE = "firmware_host.clubside.link.rehearsal"
DEFAULT_PASSWORDS = "/etc/skat-club/tables"


class RehearsalError(Exception):
    """The rehearsal cannot start or go on; the message says why, in the director's words."""


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--server-config", required=True, metavar="FILE",
                   help="the running server's club.toml (its club, tournament, web port, broker)")
    p.add_argument("--tables", type=int, required=True, help="how many tables play")
    p.add_argument("--players", type=int, default=None,
                   help="players present (default: four at every table)")
    p.add_argument("--absent", type=int, default=0, help="players registered but absent")
    p.add_argument("--series", type=int, default=1, help="series to play (default 1)")
    p.add_argument("--broker", default=None, metavar="URL",
                   help="the broker the tables use (default: the server config's)")
    p.add_argument("--ca-file", default=None, help="the broker's CA, for mqtts://")
    p.add_argument("--server", default=None, metavar="URL",
                   help="the server's address (default: from the config's [web])")
    p.add_argument("--table-passwords", default=DEFAULT_PASSWORDS, metavar="DIR",
                   help=f"the tables' broker passwords as T.password (default {DEFAULT_PASSWORDS})")
    p.add_argument("--director-password-file", default=None, metavar="FILE",
                   help="the director's password (default: asked for)")
    p.add_argument("--game-seconds", type=float, default=0.5,
                   help="each table finishes a game this often (default 0.5 s)")
    p.add_argument("--work-dir", default=None, metavar="DIR",
                   help="where the tables' journals go (default: a temporary directory)")


@dataclass
class Plan:
    config: ClubConfig
    base: str
    broker: str
    tables: int
    sizes: list[int]
    players: int
    absent: int
    series: int
    passwords: dict[str, Path]
    game_seconds: float
    ca_file: str | None = None


@dataclass
class Outcome:
    sent: int = 0
    counted: int = 0
    elapsed: float = 0.0
    latencies_ms: list[float] = field(default_factory=list)
    not_seen: int = 0
    page_error: str = ""
    totals_agree: bool = False
    differing: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return (self.sent > 0 and self.counted == self.sent and self.totals_agree
                and not self.errors)


def plan(args: argparse.Namespace) -> Plan:
    """Check the command line and the server's config; :class:`RehearsalError` if wrong."""
    try:
        config = load_config(args.server_config)
    except ClubConfigError as exc:
        raise RehearsalError(f"the server config: {exc}") from None
    if args.tables < 1:
        raise RehearsalError("--tables: at least one table")
    players = args.players if args.players is not None else 4 * args.tables
    if args.absent < 0:
        raise RehearsalError("--absent: zero or more players")
    try:
        sizes = table_sizes(players)
    except TournamentError as exc:
        raise RehearsalError(str(exc)) from None
    if len(sizes) != args.tables:
        raise RehearsalError(
            f"{players} players sit at {len(sizes)} tables, not {args.tables} (as few tables "
            f"as possible, tables of four first): give --tables {len(sizes)} or other --players")
    if not 1 <= args.series <= config.tournament.series:
        raise RehearsalError(f"--series: the server's tournament has "
                             f"{config.tournament.series} series; rehearse 1 to that many")
    if args.game_seconds < 0:
        raise RehearsalError("--game-seconds: zero or more")
    broker = args.broker or config.broker.url
    if broker is None:  # the embedded broker: anonymous, any password will do
        host, port = config.broker.host_port
        broker = f"mqtt://{'127.0.0.1' if host in ('', '0.0.0.0') else host}:{port}"
    if not re.match(r"^mqtts?://[^/]+$", broker):
        raise RehearsalError(f"--broker: {broker!r} must look like mqtt://host:1883")
    directory = Path(args.table_passwords)
    passwords = {str(t): directory / f"{t}.password" for t in range(1, args.tables + 1)}
    missing = [str(p) for p in passwords.values() if not os.access(p, os.R_OK)]
    if missing and config.broker.url is not None:
        raise RehearsalError(
            f"the tables' broker passwords: cannot read {', '.join(missing[:3])}"
            + (f" and {len(missing) - 3} more" if len(missing) > 3 else "")
            + " (install-club.sh writes them to /etc/skat-club/tables; --table-passwords DIR)")
    host = config.web.host if config.web.host not in ("", "0.0.0.0", "::") else "127.0.0.1"
    base = (args.server or f"http://{host}:{config.web.port}").rstrip("/")
    return Plan(config, base, broker, args.tables, sizes, players, args.absent, args.series,
                passwords, args.game_seconds, args.ca_file)


class Director:
    """The director's browser, without the browser: a cookie jar and each form's CSRF token."""

    def __init__(self, base: str) -> None:
        self.base = base
        jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))

    def get(self, path: str) -> str:
        try:
            with self.opener.open(self.base + path, timeout=30) as r:
                return str(r.read().decode("utf-8"))
        except urllib.error.HTTPError as exc:
            raise RehearsalError(f"the server answered {exc.code} to {path}") from None
        except OSError as exc:
            raise RehearsalError(f"cannot reach the club server at {self.base} ({exc}): is "
                                 "skat-table club serve running?") from None

    def post(self, path: str, fields: dict[str, str], form: str = "/director") -> str:
        m = re.search(r'name="csrf" value="([^"]+)"', self.get(form))
        if not m:
            raise RehearsalError(f"the server's page {form} has no form to post")
        body = urllib.parse.urlencode({**fields, "csrf": m.group(1)}).encode()
        try:
            with self.opener.open(self.base + path, data=body, timeout=60) as r:
                return str(r.read().decode("utf-8"))
        except urllib.error.HTTPError as exc:
            text = exc.read().decode("utf-8", "replace")
            said = re.search(r'class="error"[^>]*>([^<]+)<', text)
            raise RehearsalError(f"the server refused {path} ({exc.code}"
                                 + (f": {said.group(1).strip()}" if said else "") + ")") from None

    def login(self, password: str) -> None:
        try:
            page = self.post("/director/login", {"password": password}, "/director/login")
        except RehearsalError as exc:
            raise RehearsalError(f"the director's login: {exc}") from None
        if "/director/logout" not in page:
            raise RehearsalError("the director's login did not open the director's page")

    def info(self, page: str) -> str:
        m = re.search(r'class="(?:info|error)"[^>]*>([^<]+)<', page)
        return m.group(1).strip() if m else ""


class PageWatcher(threading.Thread):
    """A spectator's ranking page: after each notice on ``/events`` it fetches the ranking
    again (``X-Fragment: 1``, as ``live.js``); a game is on the page from the end of the first
    fetch after the notice naming it (epoch seconds, to compare with the tables' clocks)."""

    def __init__(self, base: str) -> None:
        super().__init__(daemon=True, name="ranking-page")
        parts = urllib.parse.urlsplit(base)
        self.host, self.port = parts.hostname or "127.0.0.1", parts.port or 80
        self.visible: dict[str, float] = {}
        self.connected = threading.Event()
        self.stopping = False
        self.error = ""

    def run(self) -> None:
        # A lost connection is taken up again, as the browser's EventSource does.
        while not self.stopping:
            self._watch()
            time.sleep(0.5)

    def _watch(self) -> None:
        try:
            events = http.client.HTTPConnection(self.host, self.port, timeout=3600)
            events.request("GET", "/events")
            stream = events.getresponse()
            self.connected.set()
            kind, data = "", ""
            while not self.stopping:
                line = stream.readline().decode("utf-8")
                if not line:
                    return
                line = line.rstrip("\n")
                if line.startswith("event:"):
                    kind = line[6:].strip()
                elif line.startswith("data:"):
                    data = line[5:].strip()
                elif line == "" and kind:
                    if kind == "changed":
                        ids = json.loads(data).get("ids", [])
                        # A connection of its own each time: the server closes one left idle
                        # for 5 s (a browser opens another without a word; http.client fails)
                        page = http.client.HTTPConnection(self.host, self.port, timeout=120)
                        try:
                            page.request("GET", "/", headers={"X-Fragment": "1"})
                            page.getresponse().read()
                        finally:
                            page.close()
                        now = time.time()
                        for i in ids:
                            self.visible.setdefault(i, now)
                    kind, data = "", ""
        except (OSError, ValueError, http.client.HTTPException) as exc:
            self.error = f"{type(exc).__name__}: {exc}"
        finally:
            self.connected.set()


class Tables:
    """The table-side process and what it reports."""

    def __init__(self, p: Plan, work: Path) -> None:
        spec = {"club": p.config.club_id, "broker": p.broker, "ca_file": p.ca_file,
                "dir": str(work), "game_seconds": p.game_seconds,
                "seed": p.config.tournament.id,
                "tables": [{"table": t, "password_file": str(self._password(t, pf, work))}
                           for t, pf in p.passwords.items()]}
        (work / "tables.json").write_text(json.dumps(spec), encoding="utf-8")
        self.events: queue.Queue[dict[str, Any]] = queue.Queue()
        self.games: dict[str, float] = {}
        self.done: dict[tuple[str, str], dict[str, int]] = {}
        self.errors: list[str] = []
        self.log = work / "tables.log"
        with open(self.log, "wb") as log:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", TABLE_SIDE, str(work / "tables.json")],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=log,
                env=dict(os.environ, PYTHONUNBUFFERED="1"))
        threading.Thread(target=self._read, daemon=True, name="tables-reader").start()

    @staticmethod
    def _password(table: str, path: Path, work: Path) -> Path:
        if os.access(path, os.R_OK):
            return path
        stand_in = work / f"{table}.password"  # the embedded broker takes any password
        stand_in.write_text("rehearsal\n", encoding="utf-8")
        stand_in.chmod(0o600)
        return stand_in

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for raw in self.proc.stdout:
            try:
                event = json.loads(raw)
            except ValueError:
                continue
            if event.get("event") == "game":
                self.games[event["id"]] = float(event["at"])
            elif event.get("event") == "done":
                self.done[(event["table"], str(event["series"]))] = event["totals"]
            elif event.get("event") == "error":
                self.errors.append(f"table {event.get('table')}: {event.get('text')}")
            self.events.put(event)
        self.events.put({"event": "exit"})

    def wait_ready(self, timeout: float = 120) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                event = self.events.get(timeout=0.5)
            except queue.Empty:
                continue
            if event["event"] == "ready":
                return
            if event["event"] == "exit":
                break
        raise RehearsalError(f"the simulated tables did not start: {self.tail()}")

    def wait_series(self, series: int, tables: int, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while sum(s == str(series) for _, s in self.done) < tables:
            if self.proc.poll() is not None:
                raise RehearsalError(f"the simulated tables stopped: {self.tail()}")
            if time.monotonic() > deadline:
                waiting = sorted({t for t in map(str, range(1, tables + 1))}
                                 - {t for t, s in self.done if s == str(series)}, key=int)
                raise RehearsalError(
                    f"series {series}: tables {', '.join(waiting)} did not finish within "
                    f"{timeout:.0f} s (no seating from the server? see {self.log})")
            time.sleep(0.1)

    def tail(self) -> str:
        text = self.log.read_text(encoding="utf-8", errors="replace") if self.log.exists() else ""
        return text.strip()[-600:] or "(nothing logged)"

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)


def standings(base: str) -> dict[str, Any]:
    with urllib.request.urlopen(base + "/api/standings", timeout=30) as r:
        return dict(json.loads(r.read()))


def rehearse(p: Plan, director_password: str, work: Path, say: Any = print) -> Outcome:
    """Run the rehearsal of ``p`` (the server already running); what it found."""
    director = Director(p.base)
    director.login(director_password)
    before = standings(p.base)
    if before.get("games") or before.get("ranking") or before.get("not_ranked"):
        raise RehearsalError(
            f"the server's tournament {p.config.tournament.id} has begun "
            f"({before.get('games', 0)} games, "
            f"{len(before.get('ranking', [])) + len(before.get('not_ranked', []))} players): "
            "rehearse with a config of its own (another database and tournament id)")
    registered = p.players + p.absent
    rows = [f"r{i:02d},Rehearsal {i:02d},rehearsal" for i in range(1, registered + 1)]
    page = director.post("/director/import", {"csv": "id,name,club\n" + "\n".join(rows)})
    # the server's own words, in the club's language (German unless the config says)
    _ = translator(p.config.language)
    imported = _.ngettext("%(num)s player imported.", "%(num)s players imported.",
                          registered) % {"num": registered}
    if imported not in html.unescape(page):
        raise RehearsalError(f"importing the players: {director.info(page) or 'refused'}")
    for i in range(p.players + 1, registered + 1):
        director.post("/director/present", {"id": f"r{i:02d}", "present": "0"})
    out = Outcome()
    tables = Tables(p, work)
    watcher = PageWatcher(p.base)
    try:
        tables.wait_ready()
        watcher.start()
        watcher.connected.wait(30)
        games_per_series = sum(p.config.tournament.games_for(n) for n in p.sizes)
        t0 = time.monotonic()
        for s in range(1, p.series + 1):
            page = director.post("/director/draw", {"method": "draw" if s == 1 else ""})
            seated = _("Series %(series)s is seated.") % {"series": s}
            if seated not in html.unescape(page):
                raise RehearsalError(f"drawing series {s}: {director.info(page) or 'refused'}")
            say(f"series {s}: seated, {p.tables} tables playing")
            longest = max(p.config.tournament.games_for(n) for n in p.sizes)
            tables.wait_series(s, p.tables, timeout=longest * (p.game_seconds + 1) * 3 + 120)
            _wait_counted(p.base, s * games_per_series, timeout=120)
            director.post("/director/close", {"series": str(s)})
            got = standings(p.base).get("games", 0)
            say(f"series {s}: {s * games_per_series} games sent so far, {got} counted; closed")
        out.elapsed = time.monotonic() - t0
        time.sleep(0.5)  # the last notice's page fetch
    finally:
        watcher.stopping = True
        tables.stop()
    final = standings(p.base)
    out.sent = len(tables.games)
    out.counted = int(final.get("games", 0))
    out.errors = list(tables.errors)
    out.page_error = watcher.error
    for gid, at in tables.games.items():
        if gid in watcher.visible:
            out.latencies_ms.append((watcher.visible[gid] - at) * 1000)
        else:
            out.not_seen += 1
    want: dict[str, int] = {}
    for totals in tables.done.values():
        for pid, total in totals.items():
            want[pid] = want.get(pid, 0) + int(total)
    got = {r["id"]: r["total"] for r in final.get("ranking", [])}
    out.differing = sorted(pid for pid in set(want) | set(got) if want.get(pid) != got.get(pid))
    out.totals_agree = bool(want) and not out.differing
    return out


def _wait_counted(base: str, games: int, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while standings(base).get("games", 0) < games and time.monotonic() < deadline:
        time.sleep(0.2)


def percentile(values: list[float], q: float) -> float:
    """The ``q`` quantile (nearest rank).

    >>> percentile([float(i) for i in range(1, 101)], 0.99)
    99.0
    """
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))]


def report(p: Plan, out: Outcome) -> list[str]:
    fours = sum(n == 4 for n in p.sizes)
    lines = [f"rehearsal: {p.tables} tables ({fours} of four, {p.tables - fours} of three), "
             f"{p.players} players present" + (f", {p.absent} absent" if p.absent else "")
             + f", {p.series} series, a game per table every {p.game_seconds:g} s",
             f"games sent {out.sent}, counted {out.counted}"
             + ("" if out.counted == out.sent else f": {out.sent - out.counted} NOT counted "
                "(see the director's page: refused or held)"),
             f"elapsed {out.elapsed:.1f} s"]
    if out.latencies_ms:
        lines.append(f"ingest to page: p50 {statistics.median(out.latencies_ms):.0f} ms, "
                     f"p99 {percentile(out.latencies_ms, 0.99):.0f} ms, max "
                     f"{max(out.latencies_ms):.0f} ms ({len(out.latencies_ms)} games)"
                     + (f"; {out.not_seen} never seen on the page" if out.not_seen else ""))
    else:
        lines.append("ingest to page: not measured (no game was seen on the ranking page"
                     + (f": {out.page_error})" if out.page_error else ")"))
    lines.append("ranking: every player's total equals the engine's" if out.totals_agree else
                 f"ranking: {len(out.differing)} players' totals differ from the engine's: "
                 + ", ".join(out.differing[:10]))
    lines += [f"error: {e}" for e in out.errors]
    lines.append("rehearsal passed" if out.ok else "rehearsal FAILED")
    return lines


def _director_password(args: argparse.Namespace) -> str:
    if args.director_password_file:
        try:
            return Path(args.director_password_file).read_text(encoding="utf-8").strip()
        except OSError as exc:
            raise RehearsalError(f"--director-password-file: {exc.strerror or exc}") from None
    if sys.stdin.isatty():
        return getpass.getpass("director password: ")
    return sys.stdin.readline().rstrip("\n")


def cmd_rehearse(args: argparse.Namespace) -> int:
    try:
        p = plan(args)
        password = _director_password(args)
    except RehearsalError as exc:
        print(f"skat-table club rehearse: {exc}", file=sys.stderr)
        return 2
    work = (Path(args.work_dir) if args.work_dir
            else Path(tempfile.mkdtemp(prefix="skat-rehearsal-")))
    work.mkdir(parents=True, exist_ok=True)
    try:
        out = rehearse(p, password, work, say=lambda text: print(text, flush=True))
    except RehearsalError as exc:
        print(f"skat-table club rehearse: {exc}", file=sys.stderr)
        return 2
    finally:
        if not args.work_dir:
            shutil.rmtree(work, ignore_errors=True)
    for line in report(p, out):
        print(line)
    return 0 if out.ok else 1

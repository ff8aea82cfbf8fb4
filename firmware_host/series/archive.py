"""The archive of finished series, and each player's statistics across them.

Everything is derived from the journal, the one source of truth: a finished series is played
again from its inputs into a table of its own (as ``skat-table export`` rebuilds one), and
what its sheet booked is kept as a :class:`SeriesSummary`: per deal the seats that held
cards, the declarer, the contract, won or lost, the value and every seat's entry, standard
and Seeger-Fabian. :func:`player_stats` sums the summaries up by player name.

A replay costs about 0.1 s for a series of 36 deals on the development machine (more on a
Pi), so the summaries are kept beside the journal, in a table of its database (``archive``:
the series, the mark of its last record, the summary as JSON), as the open-card analyses
are: not chained (derived data: a rebuilt or repaired journal drops the table and the
summaries are made again), and a summary counts only while its mark is the series' mark. An
undo after a series' last deal gives the series another last record, hence another mark:
it is summed up again.

:class:`ArchiveService` keeps the archive for the kiosk: a session listener that notices a
series finishing (or a finished series changing), and a process of its own (started and
waited for by a thread of the table) that reads the journal on a connection of its own
(:func:`~firmware_host.series.journal.read_series_entries`), plays again only what the cache
does not hold and keeps what it made; then :data:`ARCHIVE_READY` is posted to the event
loop, which never waits for it.

What the statistics count (docs/controller.md, "The archive and the statistics"):

- a player's **series**: the finished series they sat in with at least one deal scored;
- **games**: the scored deals in which they held cards (a passed-in deal is no game; a Ramsch
  is one);
- **declared**: the games they played as declarer; **won** of those, and the share in %;
- **Seeger-Fabian points per series**: the sum of their Seeger-Fabian entries (whatever
  scoring the table kept) over their series, divided by the number of series;
- **best game**: their highest positive entry on any sheet (a Ramsch's winner by Durchmarsch
  counts), with the contract, the series and the game's number.

A seat the table never credits (the computer of a duel) counts for nobody.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import sqlite3
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from firmware_host.series.journal import Entry, Journal, JournalError, SeriesMark

log = logging.getLogger("skat-table")

# The summaries' JSON layout: a cached summary of another format is made again.
ARCHIVE_FORMAT = 1
ARCHIVE_READY = "archive-ready"  # the event the worker posts to the event loop: redraw
SERIES_SHOWN = 20  # the latest series a view carries (a screen shows no more than ten)

_SCHEMA = """
CREATE TABLE IF NOT EXISTS archive (
    series INTEGER PRIMARY KEY,
    mark TEXT NOT NULL,
    summary TEXT NOT NULL,
    at REAL NOT NULL
);
"""


def mark_key(mark: SeriesMark) -> str:
    """What a summary was made from: the format, the series' last record and its hash."""
    return f"{ARCHIVE_FORMAT}:{mark.last}:{mark.last_hash.hex()}"


@dataclass(frozen=True)
class DealLine:
    """One scored deal as the sheet booked it; seats are table seats."""

    number: int
    seats: tuple[int, ...]          # the seats that held cards: fore-, middle-, rearhand
    declarer: int | None            # None: passed in, or a Ramsch
    contract: str | None            # ISS notation; None: passed in, or a Ramsch
    won: bool | None
    value: int                      # the value booked (signed, as on the sheet)
    passed_in: bool
    scores: tuple[int, ...]         # each seat's entry, standard sheet
    seeger_fabian: tuple[int, ...]  # each seat's entry, Seeger-Fabian

    def to_json(self) -> list[Any]:
        return [self.number, list(self.seats), self.declarer, self.contract, self.won,
                self.value, self.passed_in, list(self.scores), list(self.seeger_fabian)]

    @classmethod
    def from_json(cls, d: Sequence[Any]) -> DealLine:
        number, seats, declarer, contract, won, value, passed_in, scores, sf = d
        return cls(int(number), tuple(int(s) for s in seats),
                   None if declarer is None else int(declarer),
                   None if contract is None else str(contract),
                   None if won is None else bool(won), int(value), bool(passed_in),
                   tuple(int(x) for x in scores), tuple(int(x) for x in sf))


@dataclass(frozen=True)
class SeriesSummary:
    """A finished series: who sat where, when it was played, and every scored deal."""

    series: int                     # its number in the journal
    players: tuple[str, ...]        # names by table seat
    started: float                  # time of its first input, of its last (seconds, UTC)
    ended: float
    scoring: str                    # "standard" or "seeger-fabian": how the table ranked
    length: int | None              # deals it was to have; None: open
    complete: bool                  # played to its end (else broken off for a new one)
    uncredited: tuple[int, ...] = ()  # seats never scored (the computer of a duel)
    deals: tuple[DealLine, ...] = ()

    @property
    def credited(self) -> tuple[int, ...]:
        return tuple(s for s in range(len(self.players)) if s not in self.uncredited)

    @property
    def totals(self) -> tuple[int, ...]:
        return tuple(sum(d.scores[s] for d in self.deals) for s in range(len(self.players)))

    @property
    def seeger_fabian(self) -> tuple[int, ...]:
        return tuple(sum(d.seeger_fabian[s] for d in self.deals)
                     for s in range(len(self.players)))

    @property
    def scores(self) -> tuple[int, ...]:
        """The totals the table ranked by (its scoring)."""
        return self.seeger_fabian if self.scoring == "seeger-fabian" else self.totals

    @property
    def winner(self) -> int | None:
        """The one credited seat in the lead; None on a tie."""
        scores = self.scores
        best = max((scores[s] for s in self.credited), default=0)
        leaders = [s for s in self.credited if scores[s] == best]
        return leaders[0] if len(leaders) == 1 else None

    def to_json(self) -> dict[str, Any]:
        return {"format": ARCHIVE_FORMAT, "series": self.series, "players": list(self.players),
                "started": self.started, "ended": self.ended, "scoring": self.scoring,
                "length": self.length, "complete": self.complete,
                "uncredited": list(self.uncredited),
                "deals": [d.to_json() for d in self.deals]}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> SeriesSummary:
        """The summary :meth:`to_json` wrote; ``ValueError`` when ``d`` is not one (of this
        format)."""
        try:
            if d.get("format") != ARCHIVE_FORMAT:
                raise ValueError(f"format {d.get('format')!r}")
            return cls(int(d["series"]), tuple(str(p) for p in d["players"]),
                       float(d["started"]), float(d["ended"]), str(d["scoring"]),
                       None if d["length"] is None else int(d["length"]), bool(d["complete"]),
                       tuple(int(s) for s in d["uncredited"]),
                       tuple(DealLine.from_json(x) for x in d["deals"]))
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise ValueError(f"not a series summary: {exc}") from None


@dataclass(frozen=True)
class BestGame:
    """A player's best game: the entry, the contract (None: a Ramsch), where and when."""

    value: int
    contract: str | None
    series: int
    number: int
    ended: float


@dataclass(frozen=True)
class PlayerStats:
    """One player's statistics over the archive (see the module docstring)."""

    name: str
    series: int = 0
    games: int = 0
    declared: int = 0
    won: int = 0
    seeger_fabian: int = 0          # the sum over their series
    best: BestGame | None = None

    @property
    def won_share(self) -> float | None:
        """Won of declared, 0..1; None when they declared none."""
        return self.won / self.declared if self.declared else None

    @property
    def seeger_fabian_average(self) -> float | None:
        """Seeger-Fabian points per series; None without a series."""
        return self.seeger_fabian / self.series if self.series else None


def player_stats(summaries: Iterable[SeriesSummary]) -> dict[str, PlayerStats]:
    """Every player's statistics, by name (exactly as the config wrote it).

    >>> deal = DealLine(1, (0, 1, 2), 0, "G", True, 72, False, (72, 0, 0), (122, 0, 0))
    >>> s = SeriesSummary(1, ("Anna", "Ben", "Carla"), 0.0, 0.0, "standard", 1, True,
    ...                   deals=(deal,))
    >>> a = player_stats([s])["Anna"]
    >>> a.games, a.declared, a.won, a.seeger_fabian_average, a.best.value
    (1, 1, 1, 122.0, 72)
    """
    out: dict[str, dict[str, Any]] = {}
    for s in summaries:
        if not s.deals:
            continue
        sf = s.seeger_fabian
        for seat in s.credited:
            name = s.players[seat]
            p = out.setdefault(name, {"name": name, "series": 0, "games": 0, "declared": 0,
                                      "won": 0, "seeger_fabian": 0, "best": None})
            p["series"] += 1
            p["seeger_fabian"] += sf[seat]
            for d in s.deals:
                if d.passed_in or seat not in d.seats:
                    continue
                p["games"] += 1
                if d.declarer == seat:
                    p["declared"] += 1
                    p["won"] += bool(d.won)
                entry = d.scores[seat]
                best = p["best"]
                if entry > 0 and (best is None or entry > best.value):
                    contract = d.contract if d.declarer is not None else None
                    p["best"] = BestGame(entry, contract, s.series, d.number, s.ended)
    return {name: PlayerStats(**p) for name, p in out.items()}


@dataclass(frozen=True)
class Archive:
    """The finished series (oldest first), those that could not be read now, and how many
    summaries were made (played again) rather than taken as they were kept."""

    series: tuple[SeriesSummary, ...] = ()
    unreadable: tuple[int, ...] = ()
    made: int = 0

    def players(self) -> dict[str, PlayerStats]:
        return player_stats(self.series)


# ---- summing a series up -----------------------------------------------------------------


def summarise(mark: SeriesMark, entries: Iterable[Entry]) -> SeriesSummary:
    """Play the series ``mark`` names again from its journalled inputs and sum it up.

    The inputs are taken as the table decided them (as resuming does): an input the session
    refused without asking the table (a press for a computer seat) is never taken now, and a
    restart forgets what lay on the readers. ``ValueError`` when the series' config cannot be
    read."""
    from firmware_host.config import ConfigError, config_from_fingerprint
    from firmware_host.table.controller import Table
    from firmware_host.table.inputs import ScriptError, from_json

    try:
        config = config_from_fingerprint(mark.config)
    except (ConfigError, KeyError, TypeError, ValueError) as exc:
        raise ValueError(f"series {mark.series}: its config cannot be read: {exc}") from None
    # bounded as the table that wrote it was: undo reaches back as far as it did then
    table = Table(config, bounded=bool(mark.identity.get("table")))
    table.confirming = mark.config.get("confirm_results") is True  # as the session had it
    started = ended = 0.0
    for entry in entries:
        started = started or entry.at
        ended = entry.at
        if entry.status == "restart":
            table.forget_present()
            continue
        if entry.status in ("prompt", "declined", "released") or "raw" in entry.input:
            continue  # the computer's suggestion or answer; a line nobody could read
        try:
            inp = from_json(entry.input)
        except ScriptError:
            continue
        before = table.mark(inp)
        out = table.handle(inp, entry.source, live=False)  # type: ignore[arg-type]
        if out.accepted and entry.status != "accepted":
            table.retract(before)  # the session refused it before the table saw it
    deals = []
    for e in table.series.sheet:
        r = e.result
        played = not e.passed_in and r is not None and r.contract is not None
        deals.append(DealLine(
            e.number, tuple(e.seats), e.declarer,
            str(r.contract) if played and e.declarer is not None else None,
            e.won if e.declarer is not None else None, e.value, e.passed_in,
            tuple(e.scores), tuple(e.seeger_fabian)))
    return SeriesSummary(
        mark.series, tuple(config.table.players), started, ended, config.table.scoring,
        config.table.series_length, table.phase == "over",
        tuple(config.computer.uncredited), tuple(deals))


# ---- the cache beside the journal --------------------------------------------------------


class ArchiveCache:
    """The ``archive`` table in the journal's SQLite file: each finished series' summary with
    the mark it was made from. A failure to read or write is logged and forgotten: the
    summary is made again."""

    def __init__(self, path: str, read_only: bool = False) -> None:
        self.path = path
        self.read_only = read_only  # reads what is there, writes nothing, creates nothing
        self._conn: sqlite3.Connection | None = None
        try:
            if read_only:
                if os.path.exists(path):
                    self._conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=5,
                                                 check_same_thread=False)
            else:
                conn = sqlite3.connect(path, timeout=5, isolation_level=None,
                                       check_same_thread=False)
                # A summary is made again when it is lost: it is worth no fsync of its own
                # (the journal's next input syncs the log it sits in anyway).
                conn.execute("PRAGMA synchronous=NORMAL")
                conn.executescript(_SCHEMA)
                self._conn = conn
        except sqlite3.Error as exc:
            log.warning("the archive's summaries are not kept: %s", exc)

    def load(self) -> dict[int, tuple[str, SeriesSummary]]:
        """Every summary kept: series -> (mark key, summary)."""
        if self._conn is None:
            return {}
        try:
            rows = self._conn.execute("SELECT series, mark, summary FROM archive").fetchall()
        except sqlite3.Error:
            return {}  # no table yet (a journal the table has not summed up), or unreadable
        out = {}
        for series, key, text in rows:
            try:
                out[int(series)] = (str(key), SeriesSummary.from_json(json.loads(text)))
            except ValueError:
                continue  # another format, or damaged: made again
        return out

    def put(self, key: str, summary: SeriesSummary) -> None:
        if self._conn is None or self.read_only:
            return
        try:
            self._conn.execute("INSERT OR REPLACE INTO archive VALUES (?, ?, ?, ?)",
                               (summary.series, key, json.dumps(
                                   summary.to_json(), ensure_ascii=False,
                                   separators=(",", ":")), time.time()))
        except sqlite3.Error as exc:
            log.warning("the summary of series %s is not kept: %s", summary.series, exc)

    def close(self) -> None:
        if self._conn is not None:
            with contextlib.suppress(sqlite3.Error):
                self._conn.close()
            self._conn = None


def build_archive(marks: Iterable[SeriesMark],
                  entries_of: Callable[[SeriesMark], Iterable[Entry]],
                  cache: ArchiveCache | None = None) -> Archive:
    """The archive of the finished series among ``marks``: each summary from the cache when
    its mark is the series' mark, else made now from ``entries_of(mark)`` (and kept in the
    cache). A series that cannot be read is left out and named in ``unreadable``; a
    finished series without a scored deal is left out."""
    kept = cache.load() if cache is not None else {}
    summaries = []
    unreadable = []
    made = 0
    for mark in marks:
        if not mark.finished:
            continue
        key = mark_key(mark)
        have = kept.get(mark.series)
        if have is not None and have[0] == key:
            summary = have[1]
        else:
            try:
                summary = summarise(mark, entries_of(mark))
            except (JournalError, ValueError) as exc:
                log.warning("archive: series %s cannot be read: %s", mark.series, exc)
                unreadable.append(mark.series)
                continue
            made += 1
            if cache is not None:
                cache.put(key, summary)
        if summary.deals:
            summaries.append(summary)
    return Archive(tuple(summaries), tuple(unreadable), made)


def archive_of(journal: Journal, read_only_cache: bool = True) -> Archive:
    """The archive of an open journal, on the caller's thread (``skat-table stats``): the
    summaries kept beside it where they still fit, the rest made now (and, unless
    ``read_only_cache``, kept)."""
    path = str(journal.path)
    cache = None if path == ":memory:" else ArchiveCache(path, read_only=read_only_cache)
    try:
        return build_archive(journal.series_marks(),
                             lambda m: journal.iter_entries(m.series), cache)
    finally:
        if cache is not None:
            cache.close()


# ---- for the kiosk -------------------------------------------------------------------------


def _context() -> Any:
    """How the summing-up process starts: forkserver, not fork (the controller has reader
    and GPIO threads, and forking a threaded process can copy a lock another thread holds),
    or spawn where there is no forkserver."""
    import multiprocessing

    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")


def _sum_up(path: str, marks: list[SeriesMark], conn: Any) -> None:
    """In a process of its own: the archive of ``marks`` from the journal at ``path``, the
    new summaries kept beside it; sent back on ``conn`` (None when it failed)."""
    from firmware_host.series.journal import read_series_entries

    with contextlib.suppress(OSError, AttributeError):
        os.nice(10)  # the table's own process comes first
    result = None
    cache = ArchiveCache(path)
    try:
        result = build_archive(marks, lambda m: read_series_entries(path, m), cache)
    except Exception:  # the archive is never worth a table fault
        log.exception("archive: cannot sum up the finished series")
    finally:
        cache.close()
    with contextlib.suppress(OSError, ValueError):
        conn.send(result)
        conn.close()


@dataclass
class _Job:
    marks: list[SeriesMark]
    path: str


@dataclass(eq=False)
class ArchiveService:
    """Keeps the archive for the kiosk (see the module docstring): call it after each input
    (a session listener); :meth:`archive` is the latest result, None until the first.

    The summing-up is pure Python and plays whole series again: in a thread it would hold
    the interpreter's lock against the event loop for seconds (a card laid took up to 80 ms
    then, against 1 ms), so a thread of the table only waits for a process of its own
    (``_sum_up``), which reads the journal on its own connection and writes the summaries
    it made beside it."""

    journal: Journal | None
    notify: Callable[[], None] | None = None
    _seen: Any = None
    _result: Archive | None = None
    _job: _Job | None = None
    _busy: bool = False
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _wake: threading.Condition | None = None
    _thread: threading.Thread | None = None
    _proc: Any = None
    _closed: bool = False
    _views: dict[Any, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self._wake = threading.Condition(self._lock)

    # ---- the event loop's thread ----------------------------------------------------------

    def __call__(self, session: Any, inp: Any, out: Any) -> None:
        """Session listener: a series finished, a finished one got another record, or
        another series began (the last one may have been closed): the archive is made
        again. Cheap otherwise: one look at the current series."""
        journal = session.journal
        if journal is not self.journal:
            self.journal = journal  # the session opened its journal again (the storage)
        sid = session.series_id
        state = (sid, journal.series_state(sid) if journal is not None and sid else None)
        if state != self._seen:
            finished_before = self._seen is not None and self._seen[1] is not None \
                and self._seen[1][0]
            changed_series = self._seen is None or self._seen[0] != sid
            self._seen = state
            now_finished = state[1] is not None and state[1][0]
            if changed_series or now_finished or finished_before:
                self.refresh()

    def refresh(self) -> None:
        """Make the archive again from the journal's series as they are now, in the
        background (or here, for a journal in memory, which no other connection can read)."""
        journal = self.journal
        if journal is None or self._closed:
            return
        marks = [m for m in journal.series_marks() if m.finished]
        path = str(journal.path)
        if path == ":memory:":
            self._result = build_archive(marks, lambda m: journal.iter_entries(m.series))
            return
        with self._lock:
            self._job = _Job(marks, path)
            assert self._wake is not None
            self._wake.notify()
        self._start()

    def archive(self) -> Archive | None:
        with self._lock:
            return self._result

    @property
    def pending(self) -> bool:
        """There is something to sum up, or it is being summed up."""
        with self._lock:
            return self._job is not None or self._busy

    def wait(self, timeout: float = 60.0) -> bool:
        """Until nothing is pending (tests, the bench)."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if not self.pending:
                return True
            time.sleep(0.01)
        return False

    def view(self, names: Sequence[str]) -> Any:
        """The kiosk's :class:`display.view.StatsView`: the players at the table now first
        (by Seeger-Fabian points per series), then the others by games played; the latest
        series first. The same object while nothing changed (views are compared often)."""
        result = self.archive()
        key = (id(result), tuple(names))
        got = self._views.get(key)
        if got is None:
            got = stats_view(result, names)
            self._views = {key: got}
        return got

    def close(self) -> None:
        """Stop: a summing-up under way is ended (what it kept stays kept)."""
        with self._lock:
            self._closed = True
            self._job = None
            assert self._wake is not None
            self._wake.notify()
            proc = self._proc
        if proc is not None and proc.is_alive():
            proc.terminate()
        if self._thread is not None:
            self._thread.join(timeout=10)
            self._thread = None

    # ---- the waiting thread ---------------------------------------------------------------

    def _start(self) -> None:
        if self._thread is None and not self._closed:
            self._thread = threading.Thread(target=self._work, name="archive", daemon=True)
            self._thread.start()

    def _work(self) -> None:
        while True:
            with self._lock:
                assert self._wake is not None
                while self._job is None and not self._closed:
                    self._wake.wait()
                if self._closed:
                    return
                job, self._job, self._busy = self._job, None, True
            assert job is not None
            try:
                result = self._run(job)
            except Exception:  # the archive is never worth a table fault
                log.exception("archive: cannot sum up the finished series")
                result = None
            with self._lock:
                self._busy = False
                if result is None or self._job is not None or self._closed:
                    continue  # a newer job follows (or none is wanted)
                self._result = result
            if self.notify is not None:
                try:
                    self.notify()
                except Exception:
                    log.exception("cannot tell the table that the archive is ready")

    def _run(self, job: _Job) -> Archive | None:
        """One job in a process of its own; None when it did not finish."""
        ctx = _context()
        receive, send = ctx.Pipe(duplex=False)
        proc = ctx.Process(target=_sum_up, args=(job.path, job.marks, send),
                           name="skat-table-archive", daemon=True)
        with self._lock:
            if self._closed:
                return None
            proc.start()
            self._proc = proc
        send.close()  # the child's end: a child that dies ends the wait below
        try:
            result: Archive | None = receive.recv()
        except (EOFError, OSError):
            result = None
        finally:
            receive.close()
            proc.join(timeout=10)
            with self._lock:
                self._proc = None
        return result


def stats_view(archive: Archive | None, names: Sequence[str] = ()) -> Any:
    """The kiosk's view of an archive (None: still being made)."""
    from display.view import PlayerLine, SeriesLine, StatsView

    if archive is None:
        return StatsView(state="pending")
    stats = archive.players()
    here = [stats[n] for n in dict.fromkeys(names) if n in stats]
    here.sort(key=lambda p: -(p.seeger_fabian_average or 0.0))
    others = sorted((p for n, p in stats.items() if n not in set(names)),
                    key=lambda p: (-p.games, p.name))
    players = tuple(
        PlayerLine(p.name, p.series, p.games, p.declared, p.won,
                   None if p.seeger_fabian_average is None else round(p.seeger_fabian_average),
                   None if p.best is None else p.best.value,
                   None if p.best is None else p.best.contract)
        for p in here + others)
    series = tuple(
        SeriesLine(s.series, time.strftime("%Y-%m-%d", time.localtime(s.ended)), s.players,
                   tuple(s.scores[i] if i in s.credited else None
                         for i in range(len(s.players))),
                   len(s.deals), s.length, s.winner, s.complete)
        for s in reversed(archive.series[-SERIES_SHOWN:]))
    return StatsView(state="done", players=players, series=series, count=len(archive.series))


def attach(session: Any, post: Callable[[Any], None] | None = None) -> ArchiveService:
    """Give a live session its archive: made (from the summaries kept beside the journal)
    at once on the worker, and again whenever a series finishes; ``post(ARCHIVE_READY)``
    when it is ready."""
    service = ArchiveService(session.journal,
                             None if post is None else (lambda: post(ARCHIVE_READY)))
    session.archive = service
    session.listeners.append(service)
    try:
        service(session, None, None)  # the first look makes it
    except Exception:  # never a reason for the table not to start
        log.exception("cannot make the archive of finished series")
    return service

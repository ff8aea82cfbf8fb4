"""The open-card analysis of every finished game, in the background, and where it is kept.

:mod:`engine.players.analysis` is pure and takes from a few hundredths of a second to a few
seconds a game (much more without the C core), so the table never waits for it:

- :class:`AnalysisService` is a session listener: when an input finishes a deal, it copies the
  game and hands it to one worker thread (the C search releases the GIL, so the event loop,
  the readers and the kiosk run on meanwhile; the thread also asks the OS for a lower
  priority). When the analysis is done it calls ``notify`` (the event loop's ``post``), and
  the next screen shows it. A deal reopened by an undo and finished again is analysed again
  (results are keyed on the game's actions).
- :class:`AnalysisStore` keeps the results in the journal's database, in a table of their own
  (``analyses``: series, game, key, the analysis JSON, time). The journal's hash chain holds
  only the table's inputs; an analysis is derived data, recomputed from the game when it is
  missing (a rebuilt or repaired journal drops this table), so it is not chained.
  ``skat-table export`` reads it from there, or computes what is missing.

>>> store = AnalysisStore(":memory:")
>>> store.put(1, 3, "k", {"goal": "61"})
>>> store.get(1, 3)
('k', {'goal': '61'})
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import os
import queue
import sqlite3
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

log = logging.getLogger("skat-table")

_SCHEMA = """
CREATE TABLE IF NOT EXISTS analyses (
    series INTEGER NOT NULL,
    game INTEGER NOT NULL,
    key TEXT NOT NULL,
    analysis TEXT NOT NULL,
    at REAL NOT NULL,
    PRIMARY KEY (series, game)
);
"""


def game_key(game: Any) -> str:
    """What identifies one finished game: its deal and every action (an undo changes it)."""
    blob = json.dumps(game.to_json(), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(blob.encode()).hexdigest()[:24]


class AnalysisStore:
    """The ``analyses`` table in the journal's SQLite file (or in memory: ``":memory:"``).

    A failure to write is logged and forgotten: an analysis is never worth a table fault.
    """

    def __init__(self, path: str) -> None:
        self.path = path
        self._lock = threading.Lock()
        self._conn: sqlite3.Connection | None = None
        try:
            conn = sqlite3.connect(path, timeout=5, check_same_thread=False,
                                   isolation_level=None)
            if path != ":memory:":
                conn.execute("PRAGMA journal_mode=WAL")
            conn.executescript(_SCHEMA)
            self._conn = conn
        except sqlite3.Error as exc:
            log.warning("analyses are not kept: %s", exc)

    @classmethod
    def read_only(cls, path: str) -> AnalysisStore:
        """For the export: reads what is there, writes nothing, creates nothing."""
        store = cls.__new__(cls)
        store.path = path
        store._lock = threading.Lock()
        store._conn = None
        if os.path.exists(path):
            with contextlib.suppress(sqlite3.Error):
                store._conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=5,
                                              check_same_thread=False)
        return store

    def put(self, series: int, game: int, key: str, analysis: dict[str, Any]) -> None:
        if self._conn is None:
            return
        with self._lock:
            try:
                self._conn.execute(
                    "INSERT OR REPLACE INTO analyses VALUES (?, ?, ?, ?, ?)",
                    (series, game, key, json.dumps(analysis, separators=(",", ":")),
                     time.time()))
            except sqlite3.Error as exc:
                log.warning("analysis of game %s not kept: %s", game, exc)

    def get(self, series: int, game: int) -> tuple[str, dict[str, Any]] | None:
        """``(key, analysis JSON)`` of a game, or None."""
        if self._conn is None:
            return None
        with self._lock:
            try:
                row = self._conn.execute(
                    "SELECT key, analysis FROM analyses WHERE series = ? AND game = ?",
                    (series, game)).fetchone()
            except sqlite3.Error:
                return None
        if row is None:
            return None
        try:
            return str(row[0]), json.loads(row[1])
        except ValueError:
            return None

    def close(self) -> None:
        if self._conn is not None:
            with contextlib.suppress(sqlite3.Error):
                self._conn.close()
            self._conn = None


@dataclass(frozen=True)
class Outcome:
    """Where one game's analysis stands: ``state`` "pending", "done" (``analysis`` set) or
    "none" (nothing to analyse: passed in, Ramsch, no contract in play; or it failed:
    ``reason``)."""

    state: str
    key: str
    analysis: Any = None  # engine.players.analysis.Analysis
    reason: str = ""


def analyse_game(game: Any, detail: str | None = None) -> Outcome:
    """The analysis of one game now (on the caller's thread), as an :class:`Outcome`."""
    from engine.players.analysis import AnalysisError, analyse

    key = game_key(game)
    result = game.result
    if result is None or result.passed_in or game.is_ramsch:
        return Outcome("none", key, reason="no declarer's game was played")
    try:
        return Outcome("done", key, analyse(game, detail=detail))
    except AnalysisError as exc:
        return Outcome("none", key, reason=str(exc))


class AnalysisService:
    """Analyses each finished deal on a worker thread; see the module docstring.

    ``store`` keeps the results (None: in memory only); ``notify()`` is called from the worker
    when a result is ready; ``detail`` as in :func:`engine.players.analysis.analyse`.
    """

    def __init__(self, store: AnalysisStore | None = None,
                 notify: Callable[[], None] | None = None, detail: str | None = None) -> None:
        self.store = store
        self.notify = notify
        self.detail = detail
        self._results: dict[tuple[int, int], Outcome] = {}
        self._lock = threading.Lock()
        self._queue: queue.Queue[Any] = queue.Queue()
        self._thread: threading.Thread | None = None
        self._closed = False

    # ---- the session's side (the event loop's thread) -------------------------------------

    def __call__(self, session: Any, inp: Any, out: Any) -> None:
        """Session listener: queue every finished deal not analysed in its present form."""
        series = session.series_id or 0
        deals = session.table.finished_deals
        recent = []  # the deals that still hold their game (a long series lets old ones go)
        for i in range(len(deals) - 1, -1, -1):
            if deals[i].game is None:
                break
            recent.append(deals[i])
        for d in reversed(recent):
            if d.result is None:
                continue
            key = game_key(d.game)
            with self._lock:
                known = self._results.get((series, d.number))
                if known is not None and known.key == key:
                    continue
            stored = self.store.get(series, d.number) if self.store is not None else None
            if stored is not None and stored[0] == key:
                self._set(series, d.number, self._from_json(key, stored[1]))
                continue
            from engine.game import Game

            copy = Game.from_json(d.game.to_json())  # the worker never sees the live object
            self._set(series, d.number, Outcome("pending", key))
            self._start()
            self._queue.put((series, d.number, key, copy))

    def get(self, series: int | None, number: int) -> Outcome | None:
        with self._lock:
            return self._results.get((series or 0, number))

    def wait(self, timeout: float = 60.0) -> bool:
        """Until every queued game is analysed (tests, the simulator's headless run)."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            with self._lock:
                if not any(o.state == "pending" for o in self._results.values()):
                    return True
            time.sleep(0.01)
        return False

    def close(self) -> None:
        self._closed = True
        if self._thread is not None:
            self._queue.put(None)
            self._thread.join(timeout=10)
            self._thread = None
        if self.store is not None:
            self.store.close()

    # ---- the worker --------------------------------------------------------------------

    def _set(self, series: int, number: int, outcome: Outcome) -> None:
        with self._lock:
            self._results[(series, number)] = outcome

    @staticmethod
    def _from_json(key: str, d: dict[str, Any]) -> Outcome:
        from engine.players.analysis import Analysis, AnalysisError

        if d.get("none"):
            return Outcome("none", key, reason=str(d.get("reason", "")))
        try:
            return Outcome("done", key, Analysis.from_json(d))
        except AnalysisError as exc:
            return Outcome("none", key, reason=str(exc))

    def _start(self) -> None:
        if self._thread is None and not self._closed:
            self._thread = threading.Thread(target=self._work, name="analysis", daemon=True)
            self._thread.start()

    def _work(self) -> None:
        # Best effort: a lower priority for this thread alone (Linux: threads are tasks).
        with contextlib.suppress(OSError, AttributeError):
            os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), 10)
        while True:
            item = self._queue.get()
            if item is None:
                return
            series, number, key, game = item
            with self._lock:
                current = self._results.get((series, number))
            if current is None or current.key != key:
                continue  # undone and finished again meanwhile: a newer job follows
            try:
                outcome = analyse_game(game, self.detail)
            except Exception as exc:  # an analysis must never take the table down
                log.exception("analysis of game %s failed", number)
                outcome = Outcome("none", key, reason=f"the analysis failed: {exc}")
            with self._lock:
                current = self._results.get((series, number))
                if current is None or current.key != key:
                    continue
                self._results[(series, number)] = outcome
            if self.store is not None:
                self.store.put(series, number, key, outcome.analysis.to_json()
                               if outcome.analysis is not None
                               else {"none": True, "reason": outcome.reason})
            if self.notify is not None:
                try:
                    self.notify()
                except Exception:
                    log.exception("cannot tell the table that an analysis is ready")


ANALYSIS_READY = "analysis-ready"  # the event the worker posts to the event loop: redraw


def attach(session: Any, post: Callable[[Any], None] | None = None,
           detail: str | None = None) -> AnalysisService:
    """Give a live session its analysis worker: results kept beside the journal (when there
    is one), ``post(ANALYSIS_READY)`` when one is ready, the deals already finished (after a
    restart) read back or queued now."""
    path = getattr(session.journal, "path", None) if session.journal is not None else None
    store = AnalysisStore(str(path)) if path and str(path) != ":memory:" else None
    service = AnalysisService(store, None if post is None else (lambda: post(ANALYSIS_READY)),
                              detail)
    session.analyses = service
    session.listeners.append(service)
    try:
        service(session, None, None)
    except Exception:  # never a reason for the table not to start
        log.exception("cannot queue the finished deals for analysis")
    return service


def view_of(session: Any, d: Any) -> Any:
    """The kiosk's :class:`display.analysis.AnalysisView` of finished deal ``d`` (table
    seats), or None when the session analyses nothing or the deal has nothing to analyse."""
    service = getattr(session, "analyses", None)
    if service is None or d is None or d.result is None or d.result.passed_in:
        return None
    from display.analysis import AnalysisView, from_analysis

    out = service.get(session.series_id, d.number)
    if out is None or out.state == "none":
        return None
    if out.state == "pending" or out.analysis is None:
        return AnalysisView("pending")
    return from_analysis(out.analysis, tuple(d.seats))

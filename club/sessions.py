"""The director's sessions, kept on the server: a login starts one, a logout ends it, and a
session cookie counts only while its session is on record.

Starlette's session is a signed cookie: on its own, a copy of it (from a shared laptop, a
proxy's log) would stay good for the cookie's whole lifetime, logout or not. So each login
gets a random session id, stored (as its SHA-256, so the database does not hold usable ids)
in the club database with the time it began; the cookie carries the id, and every request
whose cookie says "director" is checked against the record. Logout deletes the record, so a
copied cookie is refused at once; a restart keeps the records (the director stays logged in).

The short notes a director's form leaves for the page it leads to ("12 players imported",
the reason a correction was refused) are kept here too, per session, and shown once: never
taken from the address bar, where anyone could write a link that makes the director's page
say anything.

>>> from club.store import Store
>>> s = DirectorSessions(Store(":memory:"), clock=lambda: 1000.0)
>>> sid = s.start("10.0.0.7")
>>> s.alive(sid), s.alive("forged"), s.alive(None)
(True, False, False)
>>> s.note(sid, "info", "Series 1 is seated.")
>>> s.take_notes(sid), s.take_notes(sid)
({'info': 'Series 1 is seated.'}, {})
>>> s.end(sid)
>>> s.alive(sid)
False
"""

from __future__ import annotations

import hashlib
import secrets
import threading
import time
from collections.abc import Callable
from typing import Any

from starlette.types import ASGIApp, Receive, Scope, Send

from club.store import Store

SCHEMA = """CREATE TABLE IF NOT EXISTS director_sessions (
    id_hash TEXT PRIMARY KEY, started REAL NOT NULL, address TEXT NOT NULL)"""

NOTE_KINDS = ("error", "info")
MAX_NOTE = 4000          # a note is a sentence or a list of refused import rows, not a file


def _hash(sid: str) -> str:
    return hashlib.sha256(sid.encode("utf-8")).hexdigest()


class DirectorSessions:
    """The director's open sessions (in the store) and each one's notes for its next page
    (in memory: a note lost in a restart is a note the director did not need). Thread-safe."""

    def __init__(self, store: Store, max_age: float = 12 * 3600,
                 clock: Callable[[], float] = time.time) -> None:
        self.store = store
        self.max_age = max_age
        self.clock = clock
        self._notes: dict[str, dict[str, str]] = {}
        self._lock = threading.Lock()
        with store.transaction() as db:
            db.execute(SCHEMA)

    def start(self, address: str) -> str:
        """A new session for a good login; the id goes into the cookie."""
        sid = secrets.token_urlsafe(32)
        now = self.clock()
        with self.store.transaction() as db:
            # sessions past the cookie's lifetime are dead anyway: drop them here
            db.execute("DELETE FROM director_sessions WHERE started < ?", (now - self.max_age,))
            db.execute("INSERT INTO director_sessions (id_hash, started, address) "
                       "VALUES (?, ?, ?)", (_hash(sid), now, address))
        return sid

    def alive(self, sid: Any) -> bool:
        """Whether ``sid`` (from a cookie: anything) is an open session."""
        if not isinstance(sid, str) or not sid:
            return False
        with self.store.transaction() as db:
            row = db.execute("SELECT started FROM director_sessions WHERE id_hash = ?",
                             (_hash(sid),)).fetchone()
        return row is not None and float(row[0]) >= self.clock() - self.max_age

    def end(self, sid: Any) -> None:
        """Logout: the session's record goes, and any cookie holding it is refused."""
        if not isinstance(sid, str) or not sid:
            return
        with self.store.transaction() as db:
            db.execute("DELETE FROM director_sessions WHERE id_hash = ?", (_hash(sid),))
        with self._lock:
            self._notes.pop(sid, None)

    def note(self, sid: Any, kind: str, text: str) -> None:
        """Leave ``text`` for the session's next page (``kind`` "error" or "info")."""
        if not isinstance(sid, str) or kind not in NOTE_KINDS or not text:
            return
        if len(text) > MAX_NOTE:
            text = text[:MAX_NOTE - 1] + "…"
        with self._lock:
            self._notes.setdefault(sid, {})[kind] = text

    def take_notes(self, sid: Any) -> dict[str, str]:
        """The notes left for this session, once: the next page shows them, a reload not."""
        if not isinstance(sid, str):
            return {}
        with self._lock:
            return self._notes.pop(sid, {})


class DirectorSessionCheck:
    """ASGI middleware, inside Starlette's ``SessionMiddleware``: a cookie that says
    "director" but whose session is not on record (logged out, or from before the record
    was kept) is emptied before any page sees it, so the request is a spectator's."""

    def __init__(self, app: ASGIApp, sessions: DirectorSessions) -> None:
        self.app = app
        self.sessions = sessions

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            session = scope.get("session")
            if session and session.get("director") and not self.sessions.alive(
                    session.get("sid")):
                session.clear()
        await self.app(scope, receive, send)

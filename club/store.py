"""The results store: SQLite in WAL mode, ``synchronous=FULL``, one file per club server.

Every game message is stored (every revision, as received) before the broker is told it
arrived; refused messages are stored too, with the reason, for the director's eyes. The
director's corrections are an append-only audit (who, when, why, before and after), and so are
the directors' other steps (``audit``: draws, redraws, Close, Reopen, directors added and
removed). Nothing is ever updated in place except the players, the seating (a series drawn
again before any game), the directors, each table's last status and a refused message's note
of what became of it later (counted when its series was reopened, or chosen by the director).
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

SCHEMA = """
CREATE TABLE IF NOT EXISTS settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS players (
    id TEXT PRIMARY KEY, name TEXT NOT NULL, club TEXT NOT NULL DEFAULT '',
    tag TEXT, present INTEGER NOT NULL DEFAULT 1, registered_at TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS series (
    number INTEGER PRIMARY KEY, state TEXT NOT NULL, method TEXT NOT NULL,
    seed TEXT NOT NULL, drawn_at TEXT NOT NULL, closed_at TEXT);
CREATE TABLE IF NOT EXISTS seats (
    series INTEGER NOT NULL, table_id TEXT NOT NULL, seat INTEGER NOT NULL,
    player TEXT NOT NULL, PRIMARY KEY (series, table_id, seat));
CREATE TABLE IF NOT EXISTS revisions (
    seq INTEGER PRIMARY KEY AUTOINCREMENT, game_id TEXT NOT NULL, revision INTEGER NOT NULL,
    series INTEGER NOT NULL, table_id TEXT NOT NULL, game INTEGER NOT NULL,
    payload TEXT NOT NULL, scored TEXT NOT NULL, received_at TEXT NOT NULL,
    UNIQUE (game_id, revision));
CREATE TABLE IF NOT EXISTS rejected (
    seq INTEGER PRIMARY KEY AUTOINCREMENT, topic TEXT NOT NULL, payload BLOB NOT NULL,
    reason TEXT NOT NULL, received_at TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS corrections (
    seq INTEGER PRIMARY KEY AUTOINCREMENT, game_id TEXT NOT NULL, kind TEXT NOT NULL,
    who TEXT NOT NULL, at TEXT NOT NULL, reason TEXT NOT NULL,
    before TEXT NOT NULL, after TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS table_status (
    table_id TEXT PRIMARY KEY, payload TEXT NOT NULL, received_at TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS revisions_game ON revisions (game_id);
CREATE TABLE IF NOT EXISTS logins (
    seq INTEGER PRIMARY KEY AUTOINCREMENT, at REAL NOT NULL, address TEXT NOT NULL,
    ok INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS logins_address ON logins (address, at);
CREATE TABLE IF NOT EXISTS audit (
    seq INTEGER PRIMARY KEY AUTOINCREMENT, at TEXT NOT NULL, who TEXT NOT NULL,
    action TEXT NOT NULL, detail TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS directors (
    name TEXT PRIMARY KEY, password_hash TEXT NOT NULL, added_at TEXT NOT NULL,
    added_by TEXT NOT NULL);
"""

# --- teams and the director's prize awards (club/teams.py, club/prizes.py) ---------------------
# Their own block, run on every open: a database from before gets the tables, empty.
TEAM_PRIZE_SCHEMA = """
CREATE TABLE IF NOT EXISTS team_members (
    player TEXT PRIMARY KEY, team TEXT NOT NULL, set_at TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS prize_awards (
    prize TEXT PRIMARY KEY, player TEXT NOT NULL, who TEXT NOT NULL, at TEXT NOT NULL,
    reason TEXT NOT NULL DEFAULT '');
"""

# Columns added since the first databases were written: a database from before gets them on
# open (SQLite's ALTER TABLE ADD COLUMN keeps every row, with the default).
LATER_COLUMNS = (
    ("rejected", "game_id", "TEXT"),            # the game a refused game message was about
    ("rejected", "series", "INTEGER"),
    ("rejected", "code", "TEXT NOT NULL DEFAULT ''"),   # "closed", "conflict" or ""
    ("rejected", "resolved", "TEXT"),           # what became of it later, or NULL
    ("corrections", "detail", "TEXT NOT NULL DEFAULT ''"),  # e.g. which version was chosen
    ("seats", "name", "TEXT"),                  # the player's name the seating went out with
    ("revisions", "deal", "TEXT"),              # the 32 cards' distribution (club.forgery)
    ("logins", "name", "TEXT"),                 # the director named at the login
    # who confirmed the result at the table (a JSON list; '[]' nobody), NULL: not asked
    ("revisions", "confirmed_by", "TEXT"),
)


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


class StoreError(ValueError):
    """The database cannot be opened or is not a club database."""


@dataclass(frozen=True)
class Revision:
    seq: int
    game_id: str
    revision: int
    series: int
    table_id: str
    game: int
    payload: dict[str, Any]
    scored: dict[str, Any]
    received_at: str


@dataclass(frozen=True)
class Correction:
    seq: int
    game_id: str
    kind: str
    who: str
    at: str
    reason: str
    before: dict[str, Any]
    after: dict[str, Any]
    detail: str = ""


class Store:
    """One SQLite connection shared by the MQTT thread and the web handlers (a lock keeps
    them apart; each write is its own committed transaction)."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        try:
            self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.executescript(SCHEMA)
            self._db.executescript(TEAM_PRIZE_SCHEMA)
            for table, column, decl in LATER_COLUMNS:
                have = {r[1] for r in self._db.execute(f"PRAGMA table_info({table})")}
                if column not in have:
                    self._db.execute(f"ALTER TABLE {table} ADD COLUMN {column} {decl}")
            self._db.execute("CREATE INDEX IF NOT EXISTS rejected_game ON rejected (game_id)")
            self._db.execute("CREATE INDEX IF NOT EXISTS revisions_deal ON revisions (deal)")
            self._db.execute("CREATE INDEX IF NOT EXISTS revisions_table ON revisions "
                             "(series, table_id)")
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"{self.path}: not a club database ({exc})") from None
        self._lock = threading.RLock()
        self._depth = 0      # open transactions and savepoints, outermost first

    def close(self) -> None:
        with self._lock:
            self._db.close()

    @contextmanager
    def batch(self) -> Iterator[None]:
        """One transaction (one fsync) for several writes: the subscriber stores a burst of
        messages this way and acknowledges them after the commit."""
        with self.transaction():
            yield

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """A transaction, or, inside one, a savepoint: an exception undoes exactly the writes
        made within (one message of a batch is undone, the others stay)."""
        with self._lock:
            outer = self._depth == 0
            name = f"sp{self._depth}"
            self._db.execute("BEGIN IMMEDIATE" if outer else f"SAVEPOINT {name}")
            self._depth += 1
            try:
                yield self._db
            except BaseException:
                self._depth -= 1
                if outer:
                    self._db.execute("ROLLBACK")
                else:
                    self._db.execute(f"ROLLBACK TO {name}")
                    self._db.execute(f"RELEASE {name}")
                raise
            self._depth -= 1
            self._db.execute("COMMIT" if outer else f"RELEASE {name}")

    def _all(self, sql: str, args: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        with self._lock:
            return self._db.execute(sql, args).fetchall()

    # --- settings ----------------------------------------------------------------------------

    def setting(self, key: str) -> str | None:
        rows = self._all("SELECT value FROM settings WHERE key = ?", (key,))
        return rows[0][0] if rows else None

    def set_setting(self, key: str, value: str) -> None:
        with self.transaction() as db:
            db.execute("INSERT OR REPLACE INTO settings VALUES (?, ?)", (key, value))

    # --- teams and prize awards (club/teams.py, club/prizes.py) -----------------------------

    def set_teams(self, teams: dict[str, str]) -> None:
        """Player id -> team name; an empty name takes the player out of his team."""
        at = now()
        with self.transaction() as db:
            for pid, team in teams.items():
                if team:
                    db.execute("INSERT OR REPLACE INTO team_members VALUES (?, ?, ?)",
                               (pid, team, at))
                else:
                    db.execute("DELETE FROM team_members WHERE player = ?", (pid,))

    def teams(self) -> dict[str, str]:
        return dict(self._all("SELECT player, team FROM team_members ORDER BY team, player"))

    def set_award(self, prize: str, player: str | None, who: str, reason: str = "") -> None:
        """The director gives a prize to a player (None: takes it back)."""
        with self.transaction() as db:
            if player is None:
                db.execute("DELETE FROM prize_awards WHERE prize = ?", (prize,))
            else:
                db.execute("INSERT OR REPLACE INTO prize_awards VALUES (?, ?, ?, ?, ?)",
                           (prize, player, who, now(), reason))

    def awards(self) -> dict[str, dict[str, str]]:
        return {r[0]: dict(player=r[1], who=r[2], at=r[3], reason=r[4]) for r in
                self._all("SELECT prize, player, who, at, reason FROM prize_awards")}

    # --- players -----------------------------------------------------------------------------

    def add_players(self, players: list[tuple[str, str, str, str | None]]) -> None:
        """Register or update ``(id, name, club, tag)``."""
        at = now()
        with self.transaction() as db:
            for pid, name, club, tag in players:
                db.execute(
                    "INSERT INTO players (id, name, club, tag, present, registered_at) "
                    "VALUES (?, ?, ?, ?, 1, ?) ON CONFLICT (id) DO UPDATE SET "
                    "name = excluded.name, club = excluded.club, tag = excluded.tag",
                    (pid, name, club, tag, at))

    def set_present(self, pid: str, present: bool) -> None:
        with self.transaction() as db:
            db.execute("UPDATE players SET present = ? WHERE id = ?", (int(present), pid))

    def players(self) -> list[dict[str, Any]]:
        rows = self._all("SELECT id, name, club, tag, present FROM players ORDER BY name, id")
        return [dict(id=r[0], name=r[1], club=r[2], tag=r[3], present=bool(r[4])) for r in rows]

    # --- series and seating ------------------------------------------------------------------

    def add_series(self, number: int, method: str, seed: str,
                   tables: dict[str, list[str]], names: dict[str, str] | None = None) -> None:
        """A drawn series; ``names``: each player's name as the seating goes out with it."""
        with self.transaction() as db:
            db.execute("INSERT INTO series VALUES (?, 'running', ?, ?, ?, NULL)",
                       (number, method, seed, now()))
            self._seat(db, number, tables, names or {})

    def redraw_series(self, number: int, method: str, seed: str,
                      tables: dict[str, list[str]], names: dict[str, str]) -> None:
        """A series drawn again (no table has started it): its seats replaced."""
        with self.transaction() as db:
            db.execute("UPDATE series SET method = ?, seed = ?, drawn_at = ? WHERE number = ?",
                       (method, seed, now(), number))
            db.execute("DELETE FROM seats WHERE series = ?", (number,))
            self._seat(db, number, tables, names)

    @staticmethod
    def _seat(db: sqlite3.Connection, number: int, tables: dict[str, list[str]],
              names: dict[str, str]) -> None:
        for table_id, pids in tables.items():
            for seat, pid in enumerate(pids):
                db.execute("INSERT INTO seats (series, table_id, seat, player, name) "
                           "VALUES (?, ?, ?, ?, ?)", (number, table_id, seat, pid,
                                                      names.get(pid)))

    def set_series_state(self, number: int, state: str) -> None:
        with self.transaction() as db:
            db.execute("UPDATE series SET state = ?, closed_at = ? WHERE number = ?",
                       (state, now() if state == "closed" else None, number))

    def series(self) -> list[dict[str, Any]]:
        rows = self._all("SELECT number, state, method, seed, drawn_at, closed_at FROM series "
                         "ORDER BY number")
        return [dict(number=r[0], state=r[1], method=r[2], seed=r[3], drawn_at=r[4],
                     closed_at=r[5]) for r in rows]

    def seating(self, series: int) -> dict[str, list[str]]:
        out: dict[str, list[str]] = {}
        for table_id, _seat, pid in self._all(
                "SELECT table_id, seat, player FROM seats WHERE series = ? "
                "ORDER BY CAST(table_id AS INTEGER), table_id, seat", (series,)):
            out.setdefault(table_id, []).append(pid)
        return out

    def seat_names(self, series: int) -> dict[str, str]:
        """The players' names as the series' seating went out (a series drawn before they
        were kept: none)."""
        return {r[0]: r[1] for r in self._all(
            "SELECT player, name FROM seats WHERE series = ? AND name IS NOT NULL", (series,))}

    def player_names(self, pids: Sequence[str], series: int) -> dict[str, tuple[str, str]]:
        """Per player: the name ``series``' seating went out with ('' if not kept) and the
        name now."""
        marks = ",".join("?" * len(pids))
        rows = self._all(
            f"SELECT p.id, COALESCE(s.name, ''), p.name FROM players p LEFT JOIN seats s ON "
            f"s.player = p.id AND s.series = ? WHERE p.id IN ({marks})", (series, *pids))
        return {r[0]: (r[1], r[2]) for r in rows}

    # --- game revisions ----------------------------------------------------------------------

    def add_revision(self, game_id: str, revision: int, series: int, table_id: str, game: int,
                     payload: dict[str, Any], scored: dict[str, Any],
                     deal: str | None = None,
                     confirmed_by: tuple[str, ...] | None = None) -> bool:
        """Store one revision; False when this (id, revision) is already stored."""
        with self.transaction() as db:
            cur = db.execute(
                "INSERT OR IGNORE INTO revisions (game_id, revision, series, table_id, game, "
                "payload, scored, received_at, deal, confirmed_by) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (game_id, revision, series, table_id, game,
                 json.dumps(payload, ensure_ascii=False, sort_keys=True),
                 json.dumps(scored, ensure_ascii=False), now(), deal,
                 None if confirmed_by is None else json.dumps(list(confirmed_by))))
            return cur.rowcount == 1

    def confirmations(self, series: int | None = None,
                      game_id: str | None = None) -> dict[str, list[str] | None]:
        """Per game, who confirmed its newest revision at the table ([] nobody; None the
        table did not ask)."""
        where, args = [], []
        if series is not None:
            where.append("series = ?")
            args.append(series)
        if game_id is not None:
            where.append("game_id = ?")
            args.append(game_id)
        rows = self._all("SELECT game_id, confirmed_by FROM revisions "
                         + ("WHERE " + " AND ".join(where) + " " if where else "")
                         + "ORDER BY game_id, revision", tuple(args))
        return {r[0]: None if r[1] is None else json.loads(r[1]) for r in rows}

    def deal_seen(self, deal: str, other_than: str) -> tuple[str, str] | None:
        """The first stored game other than ``other_than`` with this deal: (id, received)."""
        rows = self._all("SELECT game_id, received_at FROM revisions WHERE deal = ? AND "
                         "game_id != ? ORDER BY seq LIMIT 1", (deal, other_than))
        return (rows[0][0], rows[0][1]) if rows else None

    def revisions_without_deal(self) -> list[tuple[int, str]]:
        """(seq, ISS record) of revisions stored before deals were kept."""
        rows = self._all("SELECT seq, payload FROM revisions WHERE deal IS NULL")
        return [(r[0], str(json.loads(r[1]).get("iss", ""))) for r in rows]

    def set_deals(self, deals: list[tuple[int, str]]) -> None:
        with self.transaction() as db:
            db.executemany("UPDATE revisions SET deal = ? WHERE seq = ?",
                           [(d, seq) for seq, d in deals])

    def last_game_received(self, series: int) -> dict[str, tuple[int, str]]:
        """Per table: the highest game number received in ``series`` and when the newest
        game message of that table arrived."""
        rows = self._all("SELECT table_id, MAX(game), MAX(received_at) FROM revisions "
                         "WHERE series = ? GROUP BY table_id", (series,))
        return {r[0]: (int(r[1]), str(r[2])) for r in rows}

    def revision(self, game_id: str, revision: int) -> Revision | None:
        rows = self._all(_REV + "WHERE game_id = ? AND revision = ?", (game_id, revision))
        return _revision(rows[0]) if rows else None

    def revisions(self, game_id: str | None = None) -> list[Revision]:
        if game_id is None:
            return [_revision(r) for r in self._all(_REV + "ORDER BY seq")]
        return [_revision(r) for r in
                self._all(_REV + "WHERE game_id = ? ORDER BY revision", (game_id,))]

    # --- refused messages --------------------------------------------------------------------

    def add_rejected(self, topic: str, payload: bytes, reason: str, *, code: str = "",
                     game_id: str | None = None, series: int | None = None) -> int:
        with self.transaction() as db:
            cur = db.execute(
                "INSERT INTO rejected (topic, payload, reason, received_at, code, game_id, "
                "series) VALUES (?, ?, ?, ?, ?, ?, ?)",
                (topic, payload, reason, now(), code, game_id, series))
            return int(cur.lastrowid or 0)

    def resolve_rejected(self, seq: int, note: str) -> None:
        """Note what became of a refused message later (it stays in the list)."""
        with self.transaction() as db:
            db.execute("UPDATE rejected SET resolved = ? WHERE seq = ?", (note, seq))

    def rejected(self, limit: int = 500, *, game_id: str | None = None,
                 series: int | None = None, code: str | None = None,
                 unresolved: bool = False) -> list[dict[str, Any]]:
        """Refused messages, newest first (``series``/``code`` given: oldest first, the order
        in which they arrived)."""
        where, args = [], []
        for column, value in (("game_id", game_id), ("series", series), ("code", code)):
            if value is not None:
                where.append(f"{column} = ?")
                args.append(value)
        if unresolved:
            where.append("resolved IS NULL")
        order = "ASC" if series is not None or code is not None else "DESC"
        rows = self._all(_REJ + (f"WHERE {' AND '.join(where)} " if where else "")
                         + f"ORDER BY seq {order} LIMIT ?", (*args, limit))
        return [_rejected(r) for r in rows]

    def rejected_one(self, seq: int) -> dict[str, Any] | None:
        rows = self._all(_REJ + "WHERE seq = ?", (seq,))
        return _rejected(rows[0]) if rows else None

    def rejected_count(self) -> int:
        return int(self._all("SELECT COUNT(*) FROM rejected")[0][0])

    # --- corrections -------------------------------------------------------------------------

    def add_correction(self, game_id: str, kind: str, who: str, reason: str,
                       before: dict[str, Any], after: dict[str, Any],
                       detail: str = "") -> Correction:
        at = now()
        with self.transaction() as db:
            cur = db.execute(
                "INSERT INTO corrections (game_id, kind, who, at, reason, before, after, "
                "detail) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (game_id, kind, who, at, reason, json.dumps(before, ensure_ascii=False),
                 json.dumps(after, ensure_ascii=False), detail))
            seq = int(cur.lastrowid or 0)
        return Correction(seq, game_id, kind, who, at, reason, before, after, detail)

    def corrections(self, game_id: str | None = None) -> list[Correction]:
        sql = "SELECT seq, game_id, kind, who, at, reason, before, after, detail FROM corrections "
        rows = (self._all(sql + "ORDER BY seq") if game_id is None else
                self._all(sql + "WHERE game_id = ? ORDER BY seq", (game_id,)))
        return [Correction(r[0], r[1], r[2], r[3], r[4], r[5], json.loads(r[6]),
                           json.loads(r[7]), r[8]) for r in rows]

    # --- the director's logins ---------------------------------------------------------------

    def add_login(self, at: float, address: str, ok: bool, name: str = "") -> None:
        with self.transaction() as db:
            db.execute("INSERT INTO logins (at, address, ok, name) VALUES (?, ?, ?, ?)",
                       (at, address, int(ok), name))

    def login_failures(self, address: str, since: float, name: str = "") -> list[float]:
        """When ``address`` gave a wrong password for director ``name`` after ``since`` and
        after that director's last good login there, oldest first."""
        rows = self._all(
            "SELECT at FROM logins WHERE address = ? AND name = ? AND ok = 0 AND at > ? AND "
            "at > COALESCE((SELECT MAX(at) FROM logins WHERE address = ? AND name = ? AND "
            "ok = 1), 0) ORDER BY at", (address, name, since, address, name))
        return [float(r[0]) for r in rows]

    def name_old_logins(self, name: str) -> None:
        """Attempts stored before directors had names were the first director's."""
        with self.transaction() as db:
            db.execute("UPDATE logins SET name = ? WHERE name IS NULL", (name,))

    def logins(self, limit: int = 20, ok: bool | None = None) -> list[dict[str, Any]]:
        rows = self._all("SELECT at, address, ok, name FROM logins "
                         + ("" if ok is None else f"WHERE ok = {int(ok)} ")
                         + "ORDER BY seq DESC LIMIT ?", (limit,))
        return [dict(at=datetime.fromtimestamp(r[0], UTC).isoformat(timespec="seconds")
                     .replace("+00:00", "Z"), address=r[1], ok=bool(r[2]), name=r[3] or "")
                for r in rows]

    # --- the directors and what they did -----------------------------------------------------

    def add_director(self, name: str, password_hash: str, by: str) -> bool:
        """False when a director of that name exists."""
        with self.transaction() as db:
            cur = db.execute("INSERT OR IGNORE INTO directors VALUES (?, ?, ?, ?)",
                             (name, password_hash, now(), by))
            return cur.rowcount == 1

    def set_director_hash(self, name: str, password_hash: str) -> None:
        with self.transaction() as db:
            db.execute("UPDATE directors SET password_hash = ? WHERE name = ?",
                       (password_hash, name))

    def remove_director(self, name: str) -> bool:
        with self.transaction() as db:
            return db.execute("DELETE FROM directors WHERE name = ?", (name,)).rowcount == 1

    def directors(self) -> list[dict[str, Any]]:
        rows = self._all("SELECT name, password_hash, added_at, added_by FROM directors "
                         "ORDER BY name")
        return [dict(name=r[0], password_hash=r[1], added_at=r[2], added_by=r[3])
                for r in rows]

    def add_audit(self, who: str, action: str, detail: str) -> None:
        """A director's step that is not about one game (drawing, closing, directors)."""
        with self.transaction() as db:
            db.execute("INSERT INTO audit (at, who, action, detail) VALUES (?, ?, ?, ?)",
                       (now(), who, action, detail))

    def audit(self, limit: int = 200) -> list[dict[str, Any]]:
        """Newest first."""
        rows = self._all("SELECT at, who, action, detail FROM audit ORDER BY seq DESC "
                         "LIMIT ?", (limit,))
        return [dict(at=r[0], who=r[1], action=r[2], detail=r[3]) for r in rows]

    # --- table status ------------------------------------------------------------------------

    def set_status(self, table_id: str, payload: dict[str, Any]) -> None:
        """A table's newest status. The same status again (the broker hands the retained one
        out on every subscription) keeps the time it first arrived: it is no newer than the
        games that came after it."""
        with self.transaction() as db:
            db.execute("INSERT INTO table_status VALUES (?, ?, ?) ON CONFLICT (table_id) DO "
                       "UPDATE SET payload = excluded.payload, received_at = "
                       "excluded.received_at WHERE payload != excluded.payload",
                       (table_id, json.dumps(payload, ensure_ascii=False), now()))

    def statuses(self) -> dict[str, dict[str, Any]]:
        return {r[0]: dict(json.loads(r[1]), received_at=r[2])
                for r in self._all("SELECT table_id, payload, received_at FROM table_status")}


_REV = ("SELECT seq, game_id, revision, series, table_id, game, payload, scored, received_at "
        "FROM revisions ")


_REJ = ("SELECT seq, topic, payload, reason, received_at, code, game_id, series, resolved "
        "FROM rejected ")


def _rejected(r: tuple[Any, ...]) -> dict[str, Any]:
    return dict(seq=r[0], topic=r[1], payload=bytes(r[2]).decode("utf-8", "replace"),
                raw=bytes(r[2]), reason=r[3], received_at=r[4], code=r[5], game_id=r[6],
                series=r[7], resolved=r[8])


def _revision(r: tuple[Any, ...]) -> Revision:
    return Revision(r[0], r[1], r[2], r[3], r[4], r[5], json.loads(r[6]), json.loads(r[7]), r[8])

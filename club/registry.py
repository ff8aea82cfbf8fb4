"""The club's member registry: one SQLite file across evenings (``[club] registry`` in the
config), holding the members (name, club, optional player-tag UID) and each imported evening's
results, from which :mod:`club.season` builds the season ranking.

A finished tournament is imported with ``skat-table club season import`` (or the director's
button on ``/season``). Each player taking part is found again among the members: by his tag
first; else by his name (spaces and case do not matter), and by name and club when several
members share the name; else he becomes a new member. A member found by name who has no tag
yet gets the player's tag. Importing the same tournament again replaces its results (never
counted twice).
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

SCHEMA = """
CREATE TABLE IF NOT EXISTS members (
    id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL, club TEXT NOT NULL DEFAULT '',
    tag TEXT UNIQUE, added_at TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS evenings (
    tournament TEXT PRIMARY KEY, name TEXT NOT NULL, season TEXT NOT NULL, date TEXT NOT NULL,
    series INTEGER NOT NULL, games INTEGER NOT NULL, imported_at TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS results (
    tournament TEXT NOT NULL, member INTEGER NOT NULL, player TEXT NOT NULL,
    place INTEGER NOT NULL, total INTEGER NOT NULL, series TEXT NOT NULL,
    won INTEGER NOT NULL, lost INTEGER NOT NULL, PRIMARY KEY (tournament, member));
"""


class RegistryError(ValueError):
    """An import or a look-up that cannot be done as asked; the message says why."""


@dataclass(frozen=True)
class Member:
    id: int
    name: str
    club: str = ""
    tag: str | None = None


@dataclass(frozen=True)
class Result:
    """One player's evening as the registry keeps it: his place, Seeger-Fabian total and the
    results of the series he was seated in (series he sat out are left out)."""

    player: str
    name: str
    club: str
    tag: str | None
    place: int
    total: int
    series: tuple[int, ...]
    won: int = 0
    lost: int = 0


@dataclass(frozen=True)
class Evening:
    tournament: str
    name: str
    season: str
    date: str
    series: int
    games: int


def norm(name: str) -> str:
    """A name as compared: case and spaces do not matter.

    >>> norm("  Anna   LEHMANN "), norm("Jürgen") == norm("JÜRGEN")
    ('anna lehmann', True)
    """
    return " ".join(name.split()).casefold()


class Registry:
    """The member registry file; safe to share between threads (one lock)."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        try:
            self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.executescript(SCHEMA)
        except sqlite3.DatabaseError as exc:
            raise RegistryError(f"{self.path}: not a member registry ({exc})") from None
        self._lock = threading.RLock()

    def close(self) -> None:
        with self._lock:
            self._db.close()

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    def _all(self, sql: str, args: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        with self._lock:
            return self._db.execute(sql, args).fetchall()

    # --- members -----------------------------------------------------------------------------

    def members(self) -> list[Member]:
        return [Member(*r) for r in
                self._all("SELECT id, name, club, tag FROM members ORDER BY name, id")]

    def member(self, member_id: int) -> Member | None:
        rows = self._all("SELECT id, name, club, tag FROM members WHERE id = ?", (member_id,))
        return Member(*rows[0]) if rows else None

    def add_member(self, name: str, club: str = "", tag: str | None = None) -> Member:
        if not name.strip():
            raise RegistryError("a member needs a name")
        with self._transaction() as db:
            return self._add(db, name, club, tag)

    def _add(self, db: sqlite3.Connection, name: str, club: str, tag: str | None) -> Member:
        try:
            cur = db.execute("INSERT INTO members (name, club, tag, added_at) VALUES "
                             "(?, ?, ?, ?)", (" ".join(name.split()), club.strip(), tag,
                                              _now()))
        except sqlite3.IntegrityError:
            raise RegistryError(f"tag {tag} belongs to another member") from None
        return Member(int(cur.lastrowid or 0), " ".join(name.split()), club.strip(), tag)

    def find(self, name: str, club: str = "", tag: str | None = None) -> Member | None:
        """The member a player is: by tag, else by name (and club when several members share
        the name). None: nobody of that name. Several of that name and club: raises."""
        if tag:
            rows = self._all("SELECT id, name, club, tag FROM members WHERE tag = ?", (tag,))
            if rows:
                return Member(*rows[0])
        same = [m for m in self.members() if norm(m.name) == norm(name)]
        if len(same) > 1:
            same = [m for m in same if norm(m.club) == norm(club)]
        if len(same) > 1:
            raise RegistryError(
                f"{len(same)} members are called {name!r} (member ids "
                f"{', '.join(str(m.id) for m in same)}): give the player his tag, or say "
                "which member he is with --link PLAYER=MEMBER")
        return same[0] if same else None

    # --- evenings ----------------------------------------------------------------------------

    def import_evening(self, evening: Evening, results: Iterable[Result],
                       links: dict[str, int] | None = None) -> tuple[int, int, bool]:
        """Store an evening's results, finding each player among the members (``links``:
        player id -> member id, where the director said who is who). Returns (results, new
        members, replaced: the evening was there before). Nothing is stored if any player
        cannot be found unambiguously."""
        links = links or {}
        results = list(results)
        with self._transaction() as db:
            replaced = bool(db.execute("SELECT 1 FROM evenings WHERE tournament = ?",
                                       (evening.tournament,)).fetchall())
            db.execute("DELETE FROM results WHERE tournament = ?", (evening.tournament,))
            db.execute("INSERT OR REPLACE INTO evenings VALUES (?, ?, ?, ?, ?, ?, ?)",
                       (evening.tournament, evening.name, evening.season, evening.date,
                        evening.series, evening.games, _now()))
            new = 0
            taken: dict[int, str] = {}
            for r in results:
                if r.player in links:
                    m = self.member(links[r.player])
                    if m is None:
                        raise RegistryError(f"--link {r.player}={links[r.player]}: there is "
                                            f"no member {links[r.player]}")
                else:
                    m = self._listed(r) or self.find(r.name, r.club, r.tag)
                if m is None:
                    m = self._add(db, r.name, r.club, r.tag)
                    new += 1
                elif r.tag and not m.tag:
                    db.execute("UPDATE members SET tag = ? WHERE id = ?", (r.tag, m.id))
                if m.id in taken:
                    raise RegistryError(
                        f"players {taken[m.id]} and {r.player} ({r.name}) would both be member "
                        f"{m.id} ({m.name}): give them their tags, or link one with --link "
                        f"{r.player}=MEMBER")
                taken[m.id] = r.player
                db.execute("INSERT INTO results VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                           (evening.tournament, m.id, r.player, r.place, r.total,
                            json.dumps(list(r.series)), r.won, r.lost))
        return len(results), new, replaced

    def _listed(self, r: Result) -> Member | None:
        """The member a player id ``m17`` names (the ids 'season members' writes), if his
        name is that member's."""
        if r.player[:1] == "m" and r.player[1:].isdigit() and len(r.player) < 12:
            m = self.member(int(r.player[1:]))
            if m is not None and norm(m.name) == norm(r.name):
                return m
        return None

    def evenings(self, season: str | None = None) -> list[Evening]:
        sql = "SELECT tournament, name, season, date, series, games FROM evenings "
        rows = (self._all(sql + "ORDER BY date, tournament") if season is None else
                self._all(sql + "WHERE season = ? ORDER BY date, tournament", (season,)))
        return [Evening(*r) for r in rows]

    def seasons(self) -> list[str]:
        return [r[0] for r in self._all("SELECT DISTINCT season FROM evenings ORDER BY season")]

    def results(self, season: str) -> list[tuple[str, Member, int, int, tuple[int, ...]]]:
        """(tournament, member, place, total, series results) of every result of a season."""
        rows = self._all(
            "SELECT r.tournament, m.id, m.name, m.club, m.tag, r.place, r.total, r.series "
            "FROM results r JOIN members m ON m.id = r.member JOIN evenings e "
            "ON e.tournament = r.tournament WHERE e.season = ? ORDER BY e.date, r.tournament, "
            "r.place", (season,))
        return [(r[0], Member(r[1], r[2], r[3], r[4]), r[5], r[6], tuple(json.loads(r[7])))
                for r in rows]


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")

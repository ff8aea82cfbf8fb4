"""The club server's state: what the tables sent, what the director decided, the standings.

:meth:`ClubService.handle` takes one MQTT message (topic and raw payload) and returns only
after it is stored (the caller acknowledges it to the broker afterwards). A message that cannot
be counted is stored in ``rejected`` with the reason and a log line; it never raises for what
a message holds: only a failing store raises (the subscriber then stops without acknowledging,
and the broker keeps the message).

Revisions: a game ``id`` is ``TOURNAMENT/SERIES/TABLE/GAME``. The same ``(id, revision)`` again
changes nothing; a higher revision replaces the counted one, a lower one arriving late is kept
and shown but does not count. A director's correction or annulment stays in force over any
table revision (the table's revisions are still stored and shown beside it).

Progress: a table's games count in its own order. Game N counts once games 1..N-1 of that
table's list are there (from the table or entered by the director); a game further ahead is
stored and **held**, and counts when the table gets there. So a game published under a number
the table has not reached (a copied record, a wrong journal) changes no ranking while the
table is behind it, and when the table's own game of that number arrives with other content,
the director sees both and chooses one (:meth:`ClubService.choose`).
"""

from __future__ import annotations

import json
import logging
import secrets
import sqlite3
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from decimal import Decimal
from typing import Any

from club.config import ClubConfig
from club.forgery import backfill, check_record, deal_key
from club.messages import MAX_PAYLOAD, GameMessage, PayloadError, game_message, parse_json, show
from club.messages import status_message as read_status
from club.scoring import (
    GameCheckError,
    Row,
    ScoredGame,
    Standings,
    check_claim,
    director_score,
    engine_result,
    prize_list,
    score_from_engine,
)
from club.store import Store, now
from club.tournament import (
    TournamentError,
    by_standing,
    check_player_id,
    draw,
    met_before,
    table_sizes,
)

log = logging.getLogger("club")

FIRST_DEALER = 0
Key = tuple[int, str]          # (series, table): one table's list


@dataclass(frozen=True)
class Outcome:
    """What became of one message: ``counted``, ``held`` (stored, ahead of the table's
    progress: counts when the table gets there), ``kept`` (stored, not counted: an older
    revision, or a game the director has corrected), ``duplicate``, ``status`` or
    ``rejected`` (with the reason)."""

    kind: str
    reason: str = ""
    game_id: str = ""


@dataclass(frozen=True)
class PaperLine:
    """One line of a paper list as the director types it: the game's number, the declarer's
    seat (None: passed in), the value as written (+value won, -2 x value lost) and, when the
    list says it, the game played in ISS notation (``C``, ``G``, ``NO``, ...)."""

    game: int
    declarer: int | None
    value: int
    contract: str | None = None


class ClubService:
    """Everything the web pages and the MQTT side share; thread-safe (one lock)."""

    def __init__(self, config: ClubConfig, store: Store) -> None:
        self.config = config
        self.store = store
        self.lock = threading.RLock()
        self.listeners: list[Callable[[int, list[str]], None]] = []
        self.publish: Callable[[str, dict[str, Any], bool], None] | None = None
        self.version = 0
        self._games: dict[str, ScoredGame] = {}       # what counts, per game id
        self._table: dict[str, ScoredGame] = {}       # the table's highest revision per id
        self._table_rev: dict[str, int] = {}          # that revision's number
        self._director: dict[str, ScoredGame] = {}    # the director's version, in force
        self._arrived: dict[Key, dict[int, str]] = {}  # game number -> id, per table list
        self._progress: dict[Key, int] = {}           # games 1..progress are all there
        self._standings = Standings()
        self._ranking_cache: tuple[int, list[Row]] | None = None
        self._series: dict[int, str] = {}             # series number -> state
        self._seating: dict[int, dict[str, list[str]]] = {}
        backfill(store)
        self._load()

    # --- start-up ----------------------------------------------------------------------------

    def _load(self) -> None:
        """Rebuild the counted games and the standings from the store (after any restart, and
        after a message that failed half-way). What counts does not depend on the order the
        messages arrived in: each game's highest table revision or the director's last
        version, for the games within each table's progress."""
        self._games, self._table, self._table_rev, self._director = {}, {}, {}, {}
        self._arrived, self._progress = {}, {}
        self._standings = Standings()
        self._load_series()
        for rev in self.store.revisions():
            if rev.revision > self._table_rev.get(rev.game_id, 0):
                self._table_rev[rev.game_id] = rev.revision
                self._table[rev.game_id] = ScoredGame(**_tuples(rev.scored))
        for c in self.store.corrections():
            self._director[c.game_id] = ScoredGame(**_tuples(c.after))
        for g in [*self._table.values(), *self._director.values()]:
            self._arrived.setdefault((g.series, g.table), {})[g.game] = g.game_id
        for key in self._arrived:
            self._advance(key)
        self.version = len(self._games) + len(self._director)

    def _load_series(self) -> None:
        self._series = {s["number"]: s["state"] for s in self.store.series()}
        self._seating = {n: self.store.seating(n) for n in self._series}

    def _version(self, gid: str) -> ScoredGame | None:
        """The version of a game that counts once it is within its table's progress."""
        return self._director.get(gid) or self._table.get(gid)

    def _advance(self, key: Key) -> list[str]:
        """Count the games that the table's progress now reaches; returns their ids."""
        arrived = self._arrived.get(key, {})
        p = self._progress.get(key, 0)
        released = []
        while p + 1 in arrived:
            p += 1
            gid = arrived[p]
            g = self._version(gid)
            if g is not None and gid not in self._games:
                self._games[gid] = g
                self._standings.count(g)
                released.append(gid)
        self._progress[key] = p
        return released

    def handle_batch(self, messages: list[tuple[str, bytes]]) -> list[Outcome]:
        """Store several messages in one transaction; returns once they are committed. If
        the commit fails nothing of the batch is kept, in the store or in memory."""
        with self.lock:
            try:
                with self.store.batch():
                    return [self.handle(t, p) for t, p in messages]
            except BaseException:
                self._load()
                self._changed([])
                raise

    @property
    def secret(self) -> str:
        """The session cookie's signing key, made once and kept in the database."""
        s = self.store.setting("session_secret")
        if s is None:
            s = secrets.token_urlsafe(32)
            self.store.set_setting("session_secret", s)
        return s

    def _changed(self, ids: list[str]) -> None:
        self.version += 1
        self._ranking_cache = None
        for listener in list(self.listeners):
            try:
                listener(self.version, ids)
            except Exception:  # a page that went away must not stop the ingest
                log.exception("club: a listener failed")

    # --- messages from the tables ------------------------------------------------------------

    def handle(self, topic: str, payload: bytes) -> Outcome:
        """Store one message from the broker; returns once it is on disk.

        Whatever the message holds, it is counted, held, kept or refused: a check that fails
        in a way nobody foresaw is a refusal too (logged with its traceback), its half-made
        changes undone. Only the store failing (``sqlite3.OperationalError``: the disk is
        full or gone) raises, so that the message is not acknowledged."""
        with self.lock:
            try:
                with self.store.transaction():
                    return self._handle(topic, payload)
            except sqlite3.OperationalError:
                raise
            except Exception as exc:
                log.exception("club: a message on %s could not be checked", topic)
                self._load()      # undo in memory what the savepoint undid on disk
                return self._reject(topic, payload[:MAX_PAYLOAD],
                                    f"could not be checked ({type(exc).__name__}: "
                                    f"{show(str(exc))})")

    def _handle(self, topic: str, payload: bytes) -> Outcome:
        prefix = f"skat/{self.config.club_id}/table/"
        parts = topic.split("/")
        if not topic.startswith(prefix) or len(parts) != 5:
            return self._reject(topic, payload[:4096], f"not a table topic of club "
                                f"{self.config.club_id}")
        table, kind = parts[3], parts[4]
        try:
            data = parse_json(payload)
        except PayloadError as exc:
            return self._reject(topic, payload[:4096] if len(payload) > MAX_PAYLOAD else payload,
                                str(exc))
        if kind == "status":
            return self._status(topic, payload, table, data)
        if kind == "game":
            return self._game(topic, payload, table, data)
        return self._reject(topic, payload, f"unknown message kind {show(kind)}")

    def _reject(self, topic: str, payload: bytes, reason: str, *, code: str = "",
                game_id: str | None = None, series: int | None = None) -> Outcome:
        # a reason quotes what it can of the message: make sure SQLite can store it as text
        reason = reason.encode("utf-8", "backslashreplace").decode("utf-8")[:2000]
        log.warning("club: refused a message on %s: %s", topic, reason)
        self.store.add_rejected(topic, payload, reason, code=code, game_id=game_id,
                                series=series)
        self._changed([])
        return Outcome("rejected", reason, game_id or "")

    def _status(self, topic: str, payload: bytes, table: str, d: dict[str, Any]) -> Outcome:
        try:
            status = read_status(d, table)
        except PayloadError as exc:
            return self._reject(topic, payload, f"status: {exc}")
        self.store.set_status(table, status)
        self._changed([])
        return Outcome("status")

    def _game(self, topic: str, payload: bytes, table: str, d: dict[str, Any]) -> Outcome:
        try:
            m = game_message(d)
        except PayloadError as exc:
            return self._reject(topic, payload, str(exc))
        try:
            g = self._check(table, m)
        except (GameCheckError, TournamentError) as exc:
            t = self.config.tournament.id
            own = m.id == f"{t}/{m.series}/{table}/{m.game}"   # linked to its game's page
            return self._reject(topic, payload, str(exc), code=getattr(exc, "code", ""),
                                game_id=m.id if own else None, series=m.series)
        existing = self.store.revision(g.game_id, g.revision)
        if existing is not None:
            if existing.payload == json.loads(json.dumps(d, sort_keys=True)):
                return Outcome("duplicate", game_id=g.game_id)
            return self._reject(
                topic, payload, f"{g.game_id} revision {g.revision} was received before with "
                "other content: the director can choose one version on the game's page",
                code="conflict", game_id=g.game_id, series=g.series)
        self.store.add_revision(g.game_id, g.revision, g.series, g.table, g.game, d,
                                g.to_json(), deal_key(m.iss), confirmed_by=m.confirmed_by)
        gid = g.game_id
        top = g.revision > self._table_rev.get(gid, 0)
        if top:
            self._table_rev[gid] = g.revision
            self._table[gid] = g
        if gid in self._games:
            if not top:
                self._changed([gid])
                return Outcome("kept", "an older revision arrived late", gid)
            if gid in self._director:
                self._changed([gid])
                return Outcome("kept", "the director's correction stays in force", gid)
            old = self._games[gid]
            self._games[gid] = g
            self._standings.count(g, old)
            self._changed([gid])
            return Outcome("counted", game_id=gid)
        key = (g.series, g.table)
        self._arrived.setdefault(key, {})[g.game] = gid
        released = self._advance(key)
        self._changed(released or [gid])
        if gid in self._games:
            if gid in self._director:
                return Outcome("kept", "the director's correction stays in force", gid)
            return Outcome("counted", game_id=gid)
        return Outcome("held", self.held_reason(gid), gid)

    def held_reason(self, gid: str) -> str:
        """Why a stored game does not count yet."""
        g = self._version(gid)
        if g is None:
            return ""
        waiting = self._progress.get((g.series, g.table), 0) + 1
        return (f"game {g.game} is ahead of table {g.table}'s list: it counts once game "
                f"{waiting} is there")

    def _check(self, table: str, m: GameMessage, *, allow_closed: bool = False) -> ScoredGame:
        t = self.config.tournament
        gid = m.id
        if m.tournament is None:
            raise GameCheckError(f"{gid}: a game without a tournament (a home game at a "
                                 "club table) is not counted")
        if m.tournament != t.id:
            raise GameCheckError(f"{gid}: tournament {show(m.tournament)} is not "
                                 f"this server's tournament {t.id!r}")
        if m.table != table:
            raise GameCheckError(f"{gid}: table {show(m.table)} sent on table {table}'s topic")
        if gid != f"{t.id}/{m.series}/{table}/{m.game}":
            raise GameCheckError(f"id {show(gid)} should be {t.id}/{m.series}/{table}/{m.game}")
        if m.series not in self._series:
            raise GameCheckError(f"{gid}: series {m.series} has not been drawn")
        if self._series[m.series] == "closed" and not allow_closed:
            raise GameCheckError(f"{gid}: series {m.series} is closed (Reopen counts it)",
                                 code="closed")
        seating = self._seating[m.series]
        if table not in seating:
            raise GameCheckError(f"{gid}: there is no table {table} in series {m.series}")
        if list(m.players) != seating[table]:
            raise GameCheckError(f"{gid}: table {table} claims players {list(m.players)!r}, "
                                 f"but series {m.series} seats {seating[table]!r} there")
        n = len(seating[table])
        if not 1 <= m.game <= t.games_for(n):
            raise GameCheckError(f"{gid}: game {m.game} is outside 1..{t.games_for(n)}")
        dealer = (FIRST_DEALER + m.game - 1) % n
        if m.dealer != dealer:
            raise GameCheckError(f"{gid}: seat {m.dealer} cannot deal game {m.game}; "
                                 f"seat {dealer} does")
        result, seats = engine_result(m.iss, m.dealer, n)
        # a table's credentials could publish any game that replays: it must be this
        # table's deal, played by the players seated there
        check_record(self.store, gid, table, seats, seating[table], m.iss)
        base = dict(game_id=gid, series=m.series, table=table, game=m.game,
                    revision=m.revision, players=m.players, dealer=m.dealer, at=m.at,
                    iss=m.iss)
        fields_, scores, sf = score_from_engine(base, result, seats, n)
        g = ScoredGame(**fields_, scores=scores, sf=sf)
        diffs = check_claim(m.result, g)
        if diffs:
            raise GameCheckError(f"{gid}: the table's result disagrees with the engine: "
                                 + "; ".join(diffs))
        return g

    # --- the director ------------------------------------------------------------------------

    def register(self, pid: str, name: str, club: str = "", tag: str | None = None) -> None:
        check_player_id(pid)
        if not name.strip():
            raise TournamentError("a player needs a name")
        self.store.add_players([(pid, name.strip(), club.strip(), tag or None)])
        with self.lock:
            self._changed([])

    def register_done(self) -> None:
        """Players were imported or marked present straight in the store: refresh the pages."""
        with self.lock:
            self._changed([])

    def draw_series(self, method: str | None = None, who: str = "director") -> int:
        """Seat the next series and publish each table's seating (retained)."""
        with self.lock:
            series = self.store.series()
            if any(s["state"] != "closed" for s in series):
                raise TournamentError("close the running series before drawing the next one")
            number = len(series) + 1
            if number > self.config.tournament.series:
                raise TournamentError(
                    f"the tournament has {self.config.tournament.series} series")
            if method is None:
                method = "draw" if number == 1 else self.config.tournament.later_series
            base_seed = self.config.tournament.seed or secrets.token_hex(8)
            present, tables, seed = self._seat_present(number, method, f"{base_seed}/{number}")
            with self.store.transaction():
                self.store.add_series(number, method, seed, tables, self._names())
                self.store.add_audit(who, "draw", f"series {number} drawn ({method}, seed "
                                     f"{seed}): {len(present)} players at {len(tables)} tables")
            self._load_series()
            self._changed([])
        self.publish_seating(number)
        return number

    def _seat_present(self, number: int, method: str, seed: str
                      ) -> tuple[list[str], dict[str, list[str]], str]:
        """The players present, seated for series ``number``, and the seed recorded."""
        present = [p["id"] for p in self.store.players() if p["present"]]
        table_sizes(len(present))
        if method == "draw":
            # a later series keeps apart those who already shared a table
            return present, draw(present, seed, met_before(
                self.store.seating(n) for n in range(1, number))), seed
        if method == "standing":
            return present, by_standing(self._standing_order(present)), "-"
        raise TournamentError(f"unknown seating method {method!r}")

    def _names(self) -> dict[str, str]:
        return {p["id"]: p["name"] for p in self.store.players()}

    def started_tables(self, number: int) -> list[str]:
        """The tables of whose series ``number`` a game is stored (from the table, or entered
        by the director)."""
        with self.lock:
            return sorted({g.table for g in [*self._table.values(), *self._director.values()]
                           if g.series == number}, key=_num)

    def redraw_series(self, number: int, who: str, reason: str) -> list[str]:
        """Seat series ``number`` again (the same method, a new drawing's seed) with the players
        present now: a late arrival, or one who left, before any table started it. Only the
        last series drawn, running, with no game stored. Audited with who, when, why and who
        is seated or no longer seated now; the new seating is published (retained). Returns
        the tables of the old seating that the new one leaves empty."""
        if not reason.strip():
            raise TournamentError("say why: drawing a series again needs a reason")
        with self.lock:
            series = {s["number"]: s for s in self.store.series()}
            if number not in series:
                raise TournamentError(f"series {number} has not been drawn")
            if number != max(series):
                raise TournamentError(f"series {max(series)} is drawn already: only the last "
                                      "series can be drawn again")
            if series[number]["state"] != "running":
                raise TournamentError(f"series {number} is closed: it cannot be drawn again")
            started = self.started_tables(number)
            if started:
                raise TournamentError(
                    f"series {number} has started (games of table {', '.join(started)} are "
                    "in): it cannot be drawn again; seat a late arrival in the next series")
            method, old_seed = series[number]["method"], series[number]["seed"]
            base = self.config.tournament.seed or secrets.token_hex(8)
            first = f"{base}/{number}"
            # each drawing of the series its own seed, recorded: 42/1, 42/1/2, 42/1/3 ...
            tail = old_seed[len(first) + 1:] if old_seed.startswith(first + "/") else "1"
            drawing = int(tail) + 1 if tail.isdigit() else 2
            present, tables, seed = self._seat_present(number, method, f"{first}/{drawing}")
            old = self._seating[number]
            before = {p for ps in old.values() for p in ps}
            came = sorted(set(present) - before)
            left = sorted(before - set(present))
            detail = (f"series {number} drawn again ({method}, seed {seed}): "
                      f"{len(present)} players at {len(tables)} tables"
                      + (f"; seated now: {', '.join(came)}" if came else "")
                      + (f"; no longer seated: {', '.join(left)}" if left else "")
                      + f"; why: {reason.strip()}")
            with self.store.transaction():
                self.store.redraw_series(number, method, seed, tables, self._names())
                self.store.add_audit(who, "redraw", detail)
            log.info("club: %s by %s", detail, who)
            self._load_series()
            self._changed([])
        self.publish_seating(number)
        return sorted(set(old) - set(tables), key=_num)

    def _standing_order(self, present: Sequence[str]) -> list[str]:
        """The present players best first. One who played no series yet (a late arrival) is
        not in the ranking: he stands with 0, after those ranked with 0 or more."""
        here = set(present)
        ranked = [(r.player, r.total) for r in self.ranking() if r.player in here]
        seen = {p for p, _ in ranked}
        late = sorted(p for p in present if p not in seen)
        cut = next((i for i, (_, total) in enumerate(ranked) if total < 0), len(ranked))
        return [p for p, _ in ranked[:cut]] + late + [p for p, _ in ranked[cut:]]

    def publish_seating(self, series: int) -> None:
        if self.publish is None:
            return
        # the names the seating was drawn with: the tables write them into their records
        names = {**self._names(), **self.store.seat_names(series)}
        t = self.config.tournament
        for table, pids in self.store.seating(series).items():
            self.publish(
                f"skat/{self.config.club_id}/table/{table}/seating",
                {"tournament": t.id, "series": series, "games": t.games_for(len(pids)),
                 "first_dealer": FIRST_DEALER,
                 "players": [{"seat": s, "id": p, "name": names.get(p, p)}
                             for s, p in enumerate(pids)]},
                True)

    def set_series_state(self, number: int, state: str,
                         who: str = "director") -> list[Outcome]:
        """Close or reopen a series. Reopening checks again, in the order they arrived, the
        games refused because the series was closed (a Close before a table's last games
        were in): they count now as if they had just arrived. Returns what became of them."""
        if state not in ("running", "closed"):
            raise TournamentError(f"unknown series state {state!r}")
        with self.lock:
            if number not in self._series:
                raise TournamentError(f"series {number} has not been drawn")
            was = self._series[number]
            outcomes: list[Outcome] = []
            with self.store.transaction():
                self.store.set_series_state(number, state)
                if state != was:
                    self.store.add_audit(who, "close" if state == "closed" else "reopen",
                                         f"series {number} "
                                         + ("closed" if state == "closed" else "reopened"))
                self._load_series()
                if state == "running" and was == "closed":
                    for row in self.store.rejected(10**9, series=number, code="closed",
                                                   unresolved=True):
                        out = self.handle(row["topic"], row["raw"])
                        outcomes.append(out)
                        note = (f"checked again when series {number} was reopened "
                                f"({now()}): {out.kind}")
                        if out.kind == "rejected":
                            note += ", see the newer entry"
                        self.store.resolve_rejected(row["seq"], note)
            self._changed([])
            return outcomes

    def correct(self, game_id: str, who: str, reason: str, *, declarer: int | None = None,
                won: bool | None = None, value: int = 0, annul: bool = False,
                restore: bool = False, contract: str | None = None) -> None:
        """The director corrects, annuls or restores (the table's last revision) a game. A
        game that never arrived is entered with its result (as from the paper list)."""
        if not reason.strip():
            raise TournamentError("say why: a correction needs a reason")
        with self.lock:
            old = self._version(game_id)
            if old is None:
                if annul or restore:
                    raise TournamentError(
                        f"game {game_id} has not arrived: there is nothing to "
                        f"{'annul' if annul else 'restore'}; enter its result instead")
                self._enter(game_id, who, reason, declarer, won, value, contract)
                return
            detail = ""
            if restore:
                if game_id not in self._table:
                    raise TournamentError(f"the table never sent {game_id}: there is no "
                                          "table result to restore")
                new = self._table[game_id]
                kind = "restore"
            elif annul:
                new = ScoredGame(**dict(_tuples(old.to_json()), annulled=True,
                                        source="director"))
                kind = "annul"
            else:
                new = director_score(old, declarer, won, value, contract)
                new = ScoredGame(**dict(_tuples(new.to_json()), annulled=False))
                kind = "correct"
            self._set_director(game_id, kind, who, reason, old, new, detail)

    def _enter(self, game_id: str, who: str, reason: str, declarer: int | None,
               won: bool | None, value: int, contract: str | None) -> None:
        """A game that never arrived, entered from its game page: one line of paper."""
        g = self.blank_game(game_id)
        if declarer is not None and won is not None and value and (value > 0) != won:
            raise GameCheckError(f"{value} is written for a {'lost' if value < 0 else 'won'} "
                                 "game: a won game is +value, a lost one -2 x value")
        self.enter_paper(g.series, g.table, [PaperLine(g.game, declarer, value, contract)],
                         who, reason)

    def blank_game(self, game_id: str) -> ScoredGame:
        """A game of a seated table that has not arrived, before its result is known."""
        parts = game_id.split("/")
        t = self.config.tournament
        if (len(parts) != 4 or parts[0] != t.id or not parts[1].isascii()
                or not parts[1].isdigit() or not parts[3].isascii() or not parts[3].isdigit()
                or len(parts[1]) > 6 or len(parts[3]) > 6):
            raise TournamentError(f"{game_id} is not a game of tournament {t.id}")
        series, table, game = int(parts[1]), parts[2], int(parts[3])
        seating = self._seating.get(series, {}).get(table)
        if seating is None:
            raise TournamentError(f"there is no table {table} in series {series}")
        n = len(seating)
        if not 1 <= game <= t.games_for(n):
            raise TournamentError(f"table {table} plays games 1..{t.games_for(n)}")
        return ScoredGame(game_id, series, table, game, 0, tuple(seating),
                          (FIRST_DEALER + game - 1) % n, None, None, None, None, 0, None,
                          None, None, False, False, False, True, (0,) * n, (0,) * n,
                          at=now(), source="paper")

    def enter_paper(self, series: int, table: str, lines: Sequence[PaperLine], who: str,
                    reason: str, sf_totals: Sequence[int | None] | None = None) -> list[str]:
        """The director types games of a table's paper list (a table that fell back to paper:
        a dead Pi, a flat battery). Each line is checked as a published game is: the players
        are the table's seating, the declarer one of them (not the dealer who sits out at
        four), the value one the rules can give (for the game played, if the list says it);
        the Seeger-Fabian entries are computed as for any game. ``sf_totals`` (per seat, None
        where not given): the Seeger-Fabian sums at the list's foot, compared with what the
        table's games give once these are entered. All lines are entered or none; each gets
        an audit entry (who, when, why). Returns the game ids."""
        if not reason.strip():
            raise TournamentError("say why: games entered from paper need a reason")
        if not lines:
            raise TournamentError("no game was filled in")
        with self.lock:
            seating = self._seating.get(series, {}).get(table)
            if seating is None:
                raise TournamentError(f"there is no table {table} in series {series}")
            t = self.config.tournament
            new: list[ScoredGame] = []
            seen: set[int] = set()
            for line in lines:
                gid = f"{t.id}/{series}/{table}/{line.game}"
                if line.game in seen:
                    raise TournamentError(f"game {line.game} is filled in twice")
                seen.add(line.game)
                if self._version(gid) is not None:
                    raise TournamentError(f"game {line.game} has arrived from the table: "
                                          "correct it on its own page")
                blank = self.blank_game(gid)
                won = None if line.declarer is None else line.value > 0
                try:
                    g = director_score(blank, line.declarer, won, line.value, line.contract)
                except GameCheckError as exc:
                    raise GameCheckError(f"game {line.game}: {exc}") from None
                new.append(replace(g, source="paper"))
            if sf_totals is not None:
                self._check_sums(series, table, seating, new, sf_totals)
            with self.store.transaction():
                for g in new:
                    self._set_director(g.game_id, "paper", who, reason, None, g, "")
            return [g.game_id for g in new]

    def _check_sums(self, series: int, table: str, seating: list[str],
                    new: list[ScoredGame], sf_totals: Sequence[int | None]) -> None:
        games = {g.game_id: g for g in new}
        for gid in self._arrived.get((series, table), {}).values():
            g = self._version(gid)
            if g is not None:
                games.setdefault(gid, g)
        names = self.players()
        wrong = []
        for seat, want in enumerate(sf_totals):
            if want is None or seat >= len(seating):
                continue
            got = sum(g.sf[seat] for g in games.values() if not g.annulled)
            if got != want:
                name = names.get(seating[seat], (seating[seat], ""))[0]
                wrong.append(f"{name}: the list says {want}, its games give {got}")
        if wrong:
            raise TournamentError("the Seeger-Fabian sums do not agree (a line typed wrong?): "
                                  + "; ".join(wrong))

    def choose(self, game_id: str, who: str, reason: str, *, revision: int | None = None,
               refused: int | None = None) -> None:
        """The director settles a conflict (a game received twice with other content) by
        choosing one version: a stored table revision, or a refused message of this game. The
        chosen version is checked again as a published game (the series may be closed by
        now) and counts, with an audit entry saying who chose which, when and why."""
        if not reason.strip():
            raise TournamentError("say why: choosing a version needs a reason")
        with self.lock:
            if revision is not None:
                rev = self.store.revision(game_id, revision)
                if rev is None:
                    raise TournamentError(f"{game_id} has no revision {revision}")
                new = ScoredGame(**_tuples(rev.scored))
                detail = f"revision {revision} as received at {rev.received_at}"
            elif refused is not None:
                row = self.store.rejected_one(refused)
                if row is None or row["game_id"] != game_id:
                    raise TournamentError(f"refused message {refused} is not about {game_id}")
                try:
                    m = game_message(parse_json(row["raw"]))
                    new = self._check(row["topic"].split("/")[3], m, allow_closed=True)
                except (PayloadError, GameCheckError) as exc:
                    raise TournamentError(f"that version cannot count: {exc}") from None
                detail = f"refused message {refused} as received at {row['received_at']}"
            else:
                raise TournamentError("choose a revision or a refused message")
            if new.game_id != game_id:
                raise TournamentError(f"that version is not {game_id}")
            old = self._version(game_id)
            with self.store.transaction():
                self._set_director(game_id, "choose", who, reason, old,
                                   replace(new, source="director"), detail)
                if refused is not None:
                    self.store.resolve_rejected(refused, f"chosen by {who} at {now()}")

    def _set_director(self, gid: str, kind: str, who: str, reason: str,
                      old: ScoredGame | None, new: ScoredGame, detail: str) -> None:
        """Record the director's version (the audit entry first) and count it."""
        self.store.add_correction(gid, kind, who, reason.strip(),
                                  old.to_json() if old else {}, new.to_json(), detail)
        self._director[gid] = new
        counted = self._games.get(gid)
        if counted is not None:
            self._games[gid] = new
            self._standings.count(new, counted)
            self._changed([gid])
            return
        key = (new.series, new.table)
        self._arrived.setdefault(key, {})[new.game] = gid
        self._changed(self._advance(key) or [gid])

    # --- views -------------------------------------------------------------------------------

    def players(self) -> dict[str, tuple[str, str]]:
        return {p["id"]: (p["name"], p["club"]) for p in self.store.players()}

    def participants(self) -> set[str]:
        """The players who take part: seated in a series (a player who left after playing
        one still counts); before the first draw, those marked present."""
        with self.lock:
            seated = {p for tables in self._seating.values() for ps in tables.values()
                      for p in ps}
        if seated:
            return seated
        return {p["id"] for p in self.store.players() if p["present"]}

    def prizes(self) -> tuple[Decimal, list[Decimal]]:
        """The pool: the entry fee of each player taking part (not of the registered: an
        absent player paid nothing, one registered after the end played nothing)."""
        t = self.config.tournament
        pool = t.entry_fee * len(self.participants())
        if self.config.abreizgeld.to_prizes:
            pool += sum((r.abreizgeld for r in self._raw_ranking()), Decimal(0))
        return pool, prize_list(pool, t.prize_shares)

    def _raw_ranking(self, prizes: list[Decimal] | None = None) -> list[Row]:
        t = self.config.tournament
        taking_part = self.participants()
        players = {pid: v for pid, v in self.players().items() if pid in taking_part}
        return self._standings.ranking(players, t.series, self.config.abreizgeld,
                                       t.tie_break, prizes or [])

    def ranking(self) -> list[Row]:
        with self.lock:
            if self._ranking_cache and self._ranking_cache[0] == self.version:
                return self._ranking_cache[1]
            rows = self._raw_ranking(self.prizes()[1])
            self._ranking_cache = (self.version, rows)
            return rows

    def not_ranked(self) -> list[dict[str, Any]]:
        """Registered players the ranking leaves out (absent, or registered after the draws),
        by name: listed apart, never ranked with 0 above players with a negative total."""
        ranked = {r.player for r in self.ranking()}
        return [p for p in self.store.players() if p["id"] not in ranked]

    def games(self, series: int | None = None, table: str | None = None,
              player: str | None = None) -> list[ScoredGame]:
        with self.lock:
            out = [g for g in self._games.values()
                   if (series is None or g.series == series)
                   and (table is None or g.table == table)
                   and (player is None or player in g.players)]
        out.sort(key=lambda g: (g.series, _num(g.table), g.game))
        return out

    def game(self, game_id: str) -> ScoredGame | None:
        """The counted version of a game (None: not counted, or not there)."""
        with self.lock:
            return self._games.get(game_id)

    def game_state(self, game_id: str) -> tuple[ScoredGame | None, str]:
        """A game's version and whether it is ``counted``, ``held`` or ``missing``."""
        with self.lock:
            if game_id in self._games:
                return self._games[game_id], "counted"
            g = self._version(game_id)
            return g, "missing" if g is None else "held"

    def held(self, series: int | None = None, table: str | None = None) -> list[ScoredGame]:
        """Games stored but ahead of their table's progress, in table and game order."""
        out = []
        with self.lock:
            for (s, t), arrived in self._arrived.items():
                if (series is not None and s != series) or (table is not None and t != table):
                    continue
                p = self._progress.get((s, t), 0)
                out += [g for n, gid in arrived.items()
                        if n > p and (g := self._version(gid)) is not None]
        return sorted(out, key=lambda g: (g.series, _num(g.table), g.game))

    def progress(self, series: int, table: str) -> int:
        """The table's games 1..this are all there."""
        with self.lock:
            return self._progress.get((series, table), 0)

    def is_corrected(self, game_id: str) -> bool:
        return game_id in self._director

    def current_series(self) -> int | None:
        s = self.store.series()
        return s[-1]["number"] if s else None

    def standings_message(self) -> dict[str, Any]:
        """The retained ``skat/CLUB/tournament/ID/standings`` payload."""
        rows = self.ranking()
        with self.lock:
            counted = len(self._games)
        return {"tournament": self.config.tournament.id, "version": self.version, "at": now(),
                "games": counted,
                "ranking": [{"place": r.place, "id": r.player, "name": r.name,
                             "series": list(r.series), "total": r.total, "won": r.won,
                             "lost": r.lost} for r in rows],
                "not_ranked": [{"id": p["id"], "name": p["name"]} for p in self.not_ranked()]}


def _tuples(d: dict[str, Any]) -> dict[str, Any]:
    return {k: tuple(v) if isinstance(v, list) else v for k, v in d.items()}


def _num(table: str) -> tuple[int, str]:
    return (int(table), "") if table.isdigit() else (10**9, table)

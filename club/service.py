"""The club server's state: what the tables sent, what the director decided, the standings.

:meth:`ClubService.handle` takes one MQTT message (topic and raw payload) and returns only
after it is stored (the caller acknowledges it to the broker afterwards). A message that cannot
be counted is stored in ``rejected`` with the reason and a log line; it never raises.

Revisions: a game ``id`` is ``TOURNAMENT/SERIES/TABLE/GAME``. The same ``(id, revision)`` again
changes nothing; a higher revision replaces the counted one, a lower one arriving late is kept
and shown but does not count. A director's correction or annulment stays in force over any
table revision (the table's revisions are still stored and shown beside it).
"""

from __future__ import annotations

import json
import logging
import secrets
import threading
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from club.config import ClubConfig
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
from club.tournament import TournamentError, by_standing, check_player_id, draw, table_sizes

log = logging.getLogger("club")

MAX_PAYLOAD = 64 * 1024
FIRST_DEALER = 0


@dataclass(frozen=True)
class Outcome:
    """What became of one message: ``counted``, ``kept`` (stored, not counted: an older
    revision, or a game the director has corrected), ``duplicate``, ``status`` or
    ``rejected`` (with the reason)."""

    kind: str
    reason: str = ""
    game_id: str = ""


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
        self._table_rev: dict[str, int] = {}          # highest table revision per game id
        self._corrected: set[str] = set()
        self._standings = Standings()
        self._ranking_cache: tuple[int, list[Row]] | None = None
        self._series: dict[int, str] = {}             # series number -> state
        self._seating: dict[int, dict[str, list[str]]] = {}
        self._load()

    # --- start-up ----------------------------------------------------------------------------

    def _load(self) -> None:
        """Rebuild the counted games and the standings from the store (after any restart)."""
        self._games, self._table_rev, self._corrected = {}, {}, set()
        self._standings = Standings()
        self._load_series()
        for rev in self.store.revisions():
            if rev.revision > self._table_rev.get(rev.game_id, 0):
                self._table_rev[rev.game_id] = rev.revision
                self._games[rev.game_id] = ScoredGame(**_tuples(rev.scored))
        for c in self.store.corrections():
            self._games[c.game_id] = ScoredGame(**_tuples(c.after))
            self._corrected.add(c.game_id)
        for g in self._games.values():
            self._standings.count(g)
        self.version = len(self._games) + len(self._corrected)

    def _load_series(self) -> None:
        self._series = {s["number"]: s["state"] for s in self.store.series()}
        self._seating = {n: self.store.seating(n) for n in self._series}

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
        """Store one message from the broker; returns once it is on disk."""
        prefix = f"skat/{self.config.club_id}/table/"
        parts = topic.split("/")
        if not topic.startswith(prefix) or len(parts) != 5:
            return self._reject(topic, payload, f"not a table topic of club "
                                f"{self.config.club_id}")
        table, kind = parts[3], parts[4]
        if len(payload) > MAX_PAYLOAD:
            return self._reject(topic, payload[:4096],
                                f"message of {len(payload)} bytes is too large")
        try:
            data = json.loads(payload.decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError) as exc:
            return self._reject(topic, payload, f"not UTF-8 JSON: {exc}")
        if not isinstance(data, dict):
            return self._reject(topic, payload, "the message is not a JSON object")
        if kind == "status":
            return self._status(topic, payload, table, data)
        if kind == "game":
            with self.lock:
                return self._game(topic, payload, table, data)
        return self._reject(topic, payload, f"unknown message kind {kind!r}")

    def _reject(self, topic: str, payload: bytes, reason: str) -> Outcome:
        log.warning("club: refused a message on %s: %s", topic, reason)
        self.store.add_rejected(topic, payload, reason)
        with self.lock:
            self._changed([])
        return Outcome("rejected", reason)

    def _status(self, topic: str, payload: bytes, table: str, d: dict[str, Any]) -> Outcome:
        state = d.get("state")
        if state not in ("idle", "playing", "offline") or str(d.get("table")) != table:
            return self._reject(topic, payload,
                                "a status needs state idle/playing/offline and its own table")
        self.store.set_status(table, {k: d.get(k) for k in
                                      ("table", "state", "tournament", "series", "game", "at")})
        with self.lock:
            self._changed([])
        return Outcome("status")

    def _game(self, topic: str, payload: bytes, table: str, d: dict[str, Any]) -> Outcome:
        try:
            g = self._check(table, d)
        except (GameCheckError, TournamentError) as exc:
            return self._reject(topic, payload, str(exc))
        existing = self.store.revision(g.game_id, g.revision)
        if existing is not None:
            if existing.payload == json.loads(json.dumps(d, sort_keys=True)):
                return Outcome("duplicate", game_id=g.game_id)
            return self._reject(topic, payload, f"{g.game_id} revision {g.revision} was "
                                "received before with other content")
        self.store.add_revision(g.game_id, g.revision, g.series, g.table, g.game, d,
                                g.to_json())
        if g.revision < self._table_rev.get(g.game_id, 0):
            self._changed([g.game_id])
            return Outcome("kept", "an older revision arrived late", g.game_id)
        self._table_rev[g.game_id] = g.revision
        if g.game_id in self._corrected:
            self._changed([g.game_id])
            return Outcome("kept", "the director's correction stays in force", g.game_id)
        old = self._games.get(g.game_id)
        self._games[g.game_id] = g
        self._standings.count(g, old)
        self._changed([g.game_id])
        return Outcome("counted", game_id=g.game_id)

    def _check(self, table: str, d: dict[str, Any]) -> ScoredGame:
        t = self.config.tournament
        gid = d.get("id")
        if not isinstance(gid, str):
            raise GameCheckError("the game has no id")
        if d.get("tournament") is None:
            raise GameCheckError(f"{gid}: a game without a tournament (a home game at a "
                                 "club table) is not counted")
        if d.get("tournament") != t.id:
            raise GameCheckError(f"{gid}: tournament {d.get('tournament')!r} is not "
                                 f"this server's tournament {t.id!r}")
        rev, series, game, dealer = (_whole(d.get(k))
                                     for k in ("revision", "series", "game", "dealer"))
        for name, v in (("revision", rev), ("series", series), ("game", game),
                        ("dealer", dealer)):
            if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v < 10_000:
                raise GameCheckError(f"{gid}: {name} {v!r} is not a small whole number")
        assert isinstance(rev, int) and isinstance(series, int)
        assert isinstance(game, int) and isinstance(dealer, int)
        if rev < 1:
            raise GameCheckError(f"{gid}: revisions count from 1, not {rev}")
        if str(d.get("table")) != table:
            raise GameCheckError(f"{gid}: table {d.get('table')!r} sent on table {table}'s topic")
        if gid != f"{t.id}/{series}/{table}/{game}":
            raise GameCheckError(f"id {gid!r} should be {t.id}/{series}/{table}/{game}")
        if series not in self._series:
            raise GameCheckError(f"{gid}: series {series} has not been drawn")
        if self._series[series] == "closed":
            raise GameCheckError(f"{gid}: series {series} is closed")
        seating = self._seating[series]
        if table not in seating:
            raise GameCheckError(f"{gid}: there is no table {table} in series {series}")
        players = d.get("players")
        if players != seating[table]:
            raise GameCheckError(f"{gid}: table {table} claims players {players!r}, "
                                 f"but series {series} seats {seating[table]!r} there")
        n = len(seating[table])
        if not 1 <= game <= t.games_for(n):
            raise GameCheckError(f"{gid}: game {game} is outside 1..{t.games_for(n)}")
        if dealer != (FIRST_DEALER + game - 1) % n:
            raise GameCheckError(f"{gid}: seat {dealer} cannot deal game {game}; "
                                 f"seat {(FIRST_DEALER + game - 1) % n} does")
        claim = d.get("result")
        iss = d.get("iss")
        if not isinstance(claim, dict) or not isinstance(iss, str):
            raise GameCheckError(f"{gid}: a game needs its result and its ISS record")
        result, seats = engine_result(iss, dealer, n)
        base = dict(game_id=gid, series=series, table=table, game=game, revision=rev,
                    players=tuple(players), dealer=dealer, at=str(d.get("at", ""))[:40],
                    iss=iss)
        fields_, scores, sf = score_from_engine(base, result, seats, n)
        g = ScoredGame(**fields_, scores=scores, sf=sf)
        diffs = check_claim(claim, g)
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

    def draw_series(self, method: str | None = None) -> int:
        """Seat the next series and publish each table's seating (retained)."""
        with self.lock:
            series = self.store.series()
            if any(s["state"] != "closed" for s in series):
                raise TournamentError("close the running series before drawing the next one")
            number = len(series) + 1
            if number > self.config.tournament.series:
                raise TournamentError(
                    f"the tournament has {self.config.tournament.series} series")
            present = [p["id"] for p in self.store.players() if p["present"]]
            table_sizes(len(present))
            if method is None:
                method = "draw" if number == 1 else self.config.tournament.later_series
            base_seed = self.config.tournament.seed or secrets.token_hex(8)
            seed = f"{base_seed}/{number}"
            if method == "draw":
                tables = draw(present, seed)
            elif method == "standing":
                here = set(present)
                ranked = [r.player for r in self.ranking() if r.player in here]
                tables = by_standing(ranked)
                seed = "-"
            else:
                raise TournamentError(f"unknown seating method {method!r}")
            self.store.add_series(number, method, seed, tables)
            self._load_series()
            self._changed([])
        self.publish_seating(number)
        return number

    def publish_seating(self, series: int) -> None:
        if self.publish is None:
            return
        names = {p["id"]: p["name"] for p in self.store.players()}
        t = self.config.tournament
        for table, pids in self.store.seating(series).items():
            self.publish(
                f"skat/{self.config.club_id}/table/{table}/seating",
                {"tournament": t.id, "series": series, "games": t.games_for(len(pids)),
                 "first_dealer": FIRST_DEALER,
                 "players": [{"seat": s, "id": p, "name": names.get(p, p)}
                             for s, p in enumerate(pids)]},
                True)

    def set_series_state(self, number: int, state: str) -> None:
        if state not in ("running", "closed"):
            raise TournamentError(f"unknown series state {state!r}")
        with self.lock:
            if number not in {s["number"] for s in self.store.series()}:
                raise TournamentError(f"series {number} has not been drawn")
            self.store.set_series_state(number, state)
            self._load_series()
            self._changed([])

    def correct(self, game_id: str, who: str, reason: str, *, declarer: int | None = None,
                won: bool | None = None, value: int = 0, annul: bool = False,
                restore: bool = False) -> None:
        """The director corrects, annuls or restores (the table's last revision) a game."""
        if not reason.strip():
            raise TournamentError("say why: a correction needs a reason")
        with self.lock:
            old = self._games.get(game_id)
            if old is None:
                raise TournamentError(f"there is no game {game_id}")
            if restore:
                rev = self.store.revision(game_id, self._table_rev[game_id])
                assert rev is not None
                new = ScoredGame(**_tuples(rev.scored))
                kind = "restore"
            elif annul:
                new = ScoredGame(**dict(_tuples(old.to_json()), annulled=True,
                                        source="director"))
                kind = "annul"
            else:
                new = director_score(old, declarer, won, value)
                new = ScoredGame(**dict(_tuples(new.to_json()), annulled=False))
                kind = "correct"
            self.store.add_correction(game_id, kind, who, reason.strip(), old.to_json(),
                                      new.to_json())
            self._corrected.add(game_id)
            self._games[game_id] = new
            self._standings.count(new, old)
            self._changed([game_id])

    # --- views -------------------------------------------------------------------------------

    def players(self) -> dict[str, tuple[str, str]]:
        return {p["id"]: (p["name"], p["club"]) for p in self.store.players()}

    def prizes(self) -> tuple[Decimal, list[Decimal]]:
        t = self.config.tournament
        entrants = len(self.store.players())
        pool = t.entry_fee * entrants
        if self.config.abreizgeld.to_prizes:
            pool += sum((r.abreizgeld for r in self._raw_ranking()), Decimal(0))
        return pool, prize_list(pool, t.prize_shares)

    def _raw_ranking(self, prizes: list[Decimal] | None = None) -> list[Row]:
        t = self.config.tournament
        return self._standings.ranking(self.players(), t.series, self.config.abreizgeld,
                                       t.tie_break, prizes or [])

    def ranking(self) -> list[Row]:
        with self.lock:
            if self._ranking_cache and self._ranking_cache[0] == self.version:
                return self._ranking_cache[1]
            rows = self._raw_ranking(self.prizes()[1])
            self._ranking_cache = (self.version, rows)
            return rows

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
        with self.lock:
            return self._games.get(game_id)

    def is_corrected(self, game_id: str) -> bool:
        return game_id in self._corrected

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
                             "lost": r.lost} for r in rows]}


def _whole(v: Any) -> Any:
    """A number as the link may write it (``2`` or ``"2"``); anything else unchanged."""
    if isinstance(v, str) and v.isdigit() and len(v) < 6:
        return int(v)
    return v


def _tuples(d: dict[str, Any]) -> dict[str, Any]:
    return {k: tuple(v) if isinstance(v, list) else v for k, v in d.items()}


def _num(table: str) -> tuple[int, str]:
    return (int(table), "") if table.isdigit() else (10**9, table)

"""The table's side of the club: the link's status, the seating to confirm, player tags.

The controller opens no socket; ``skat-table link`` writes ``status.json`` and
``seating.json`` in ``DATA_DIR/club/`` (:mod:`firmware_host.clubside.clubfiles`) and the event loop
polls them once a tick (a ``stat``, nothing more while nothing changes). :class:`ClubDesk`
turns them into what the kiosk shows (:meth:`decorate`: the status line, and the seating
scene) and writes ``table.json`` (what the table is doing) for the link's retained status.

A new seating is shown when no game is in progress: tournament, series and each seat's player.
Each seat confirms by laying their player tag on their pad (or anywhere, when the table has no
pads) or by touching their name; when every seat has confirmed, the session starts the series
with the tournament's players, games and first dealer (:meth:`Session.start_seated_series`).
A player tag is never passed to the game: laid at any other time it is answered with a note.

Where the declarer's opponents confirm each result (``[club] confirm_results``), a player tag
laid while a result waits confirms it for its player (a journalled ``confirm`` press, refused
in the players' words where it makes no sense). The last game of a series has no next deal
to send it on: left unconfirmed for :data:`RELEASE_SECONDS`, it is sent marked unconfirmed.
"""

from __future__ import annotations

import logging
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

from firmware_host.clubside.clubfiles import (
    SEATING_FILE,
    STATUS_FILE,
    TABLE_FILE,
    LinkStatus,
    TableState,
    mtime,
    read_json,
    write_json,
)
from firmware_host.clubside.playertags import PlayerTags
from firmware_host.clubside.seating import Seating, SeatingError, parse_seating, seated_config
from firmware_host.table.inputs import TagGone, TagLaid

log = logging.getLogger("skat-table")
BUSY = ("bidding", "skat", "discard", "declaration", "pushing", "play")
# The series' last result waits this long for its confirmations before it is sent without
# them (the players may have left; the club's evening must not wait for them).
RELEASE_SECONDS = 120.0


class ClubDesk:
    def __init__(self, spool: Path, tags: PlayerTags | None = None,
                 clock: Any = time.localtime, now: Any = time.monotonic) -> None:
        self.spool = Path(spool)
        self.tags = tags or PlayerTags()
        self.clock = clock
        self.status: LinkStatus | None = None
        self.pending: Seating | None = None
        self.confirmed: set[int] = set()
        self.note: str | None = None
        self.banner: str | None = None  # a player tag laid where a card was expected
        self._seen: dict[str, float | None] = {}
        self._table_written: TableState | None = None
        self.now = now
        self.outcome: Any = None  # a player tag's confirmation of a result: see take_outcome
        self._last_waits_since: float | None = None

    # ---- polling ---------------------------------------------------------------------------

    def poll(self, session: Any) -> bool:
        """Look at the link's files; True when what the kiosk shows changed."""
        changed = False
        if self._changed(STATUS_FILE):
            self.status = LinkStatus.read(self.spool / STATUS_FILE)
            changed = True
        if self._changed(SEATING_FILE):
            changed |= self._new_seating(session)
        self._start_if_confirmed(session)
        changed |= self._release_last(session)
        self._write_table(session)
        return changed

    def _release_last(self, session: Any) -> bool:
        """The series' last result still unconfirmed after :data:`RELEASE_SECONDS`: sent
        marked unconfirmed. True when it was."""
        waiting = getattr(session, "awaiting_confirmation", lambda: None)()
        if waiting is None or session.table.stage != "over":
            self._last_waits_since = None
            return False
        now = self.now()
        if self._last_waits_since is None:
            self._last_waits_since = now
            return False
        if now - self._last_waits_since < RELEASE_SECONDS:
            return False
        if session.release_unconfirmed():
            log.info("club: game %s was not confirmed: sent unconfirmed", waiting.number)
            return True
        return False

    def _changed(self, name: str) -> bool:
        m = mtime(self.spool / name)
        if self._seen.get(name, -1.0) == m:
            return False
        self._seen[name] = m
        return m is not None

    def _new_seating(self, session: Any) -> bool:
        raw = read_json(self.spool / SEATING_FILE)
        if raw is None:
            log.warning("club: %s is not a seating; ignored", self.spool / SEATING_FILE)
            return False
        raw.pop("received", None)
        try:
            seating = parse_seating(raw)
            seated_config(session.base_config, seating)
        except SeatingError as exc:
            log.warning("club: the seating cannot be used at this table: %s", exc)
            return False
        if seating == session.seating or seating == self.pending:
            return False  # the series already runs with it, or it waits for confirmation
        if len(seating.players) != session.base_config.n_players and \
                session.base_config.computer.seats:
            log.warning("club: a seating of %d players for a table with computer seats",
                        len(seating.players))
            return False
        log.info("club: seating for %s series %s: %s", seating.tournament, seating.series,
                 ", ".join(seating.names))
        self.pending, self.confirmed = seating, set()
        return True

    @staticmethod
    def between_games(session: Any) -> bool:
        table = session.table
        if table.phase in ("scored", "over"):
            return True
        return table.phase == "dealing" and (not table.deals or table.deal.cards_known() == 0)

    # ---- inputs ----------------------------------------------------------------------------

    def intercept(self, inp: Any, session: Any) -> bool:
        """Take the inputs that belong to the club; True when ``inp`` was one of them."""
        from display import commands as c
        from drivers import events as ev

        if isinstance(inp, c.ConfirmSeat):
            self.confirm(inp.seat, session)
            return True
        if isinstance(inp, ev.TagLaid | ev.TagGone):
            inp = (TagLaid if isinstance(inp, ev.TagLaid) else TagGone)(inp.zone, inp.uid)
        if isinstance(inp, TagGone) and self.tags.player_for(inp.tag) is not None:
            return True
        if not isinstance(inp, TagLaid):
            return False
        pid = self.tags.player_for(inp.tag)
        if pid is None:
            return False
        seats = self._seats_of(pid)
        if self.pending is None and getattr(session, "awaiting_confirmation",
                                            lambda: None)() is not None:
            self._confirm_result(pid, inp.zone, session)
            return True
        if self.pending is not None and self.between_games(session) and seats:
            zone_seat = int(inp.zone[4:]) if inp.zone.startswith("seat") else None
            seat = zone_seat if zone_seat in seats else seats[0]
            if zone_seat is not None and zone_seat not in seats:
                self.note = f"player {pid} sits at seat {seats[0] + 1}, not here"
            self.confirm(seat, session)
        else:
            self.banner = f"the player tag of {pid} is not a card"
            log.info("club: %s (laid on %s)", self.banner, inp.zone)
        return True

    def _confirm_result(self, pid: str, zone: str, session: Any) -> None:
        """A player tag laid while a result waits: its player confirms it (a journalled press;
        the session refuses it when that player is not one who confirms, or did already)."""
        from firmware_host.table.controller import Outcome, Refusal
        from firmware_host.table.inputs import Press

        seated = session.seating.players if session.seating is not None else ()
        seat = next((p.seat for p in seated if p.id == pid), None)
        if seat is None:
            self.outcome = Outcome("refused", Refusal(
                "confirm-stranger", f"the player tag of {pid}: {pid} does not play at this "
                "table", zone=zone))
            log.info("club: %s", self.outcome.refusal.reason)
            return
        self.outcome = session.submit(Press(seat, "confirm"))

    def take_outcome(self) -> Any:
        """What the last player tag's confirmation came to (the kiosk shows a refusal), once."""
        out, self.outcome = self.outcome, None
        return out

    def _seats_of(self, pid: str) -> list[int]:
        if self.pending is None:
            return []
        return [p.seat for p in self.pending.players if p.id == pid]

    def confirm(self, seat: int, session: Any) -> None:
        if self.pending is None or not 0 <= seat < len(self.pending.players):
            return
        if not self.between_games(session):
            self.note = "the new seating starts after this game"
            return
        self.confirmed.add(seat)
        self._start_if_confirmed(session)

    def _start_if_confirmed(self, session: Any) -> None:
        seating = self.pending
        if seating is None or len(self.confirmed) < len(seating.players):
            return
        if not self.between_games(session):
            return
        session.start_seated_series(seating)
        log.info("club: series %s of %s started with %s", seating.series, seating.tournament,
                 ", ".join(seating.names))
        self.pending, self.confirmed, self.note = None, set(), None
        self._write_table(session)

    # ---- what the link publishes -------------------------------------------------------------

    def _write_table(self, session: Any) -> None:
        s = session.seating
        table = session.table
        over = table.phase == "over"
        game = None
        if s is not None and table.deals:
            game = table.deal.number
        state = TableState("playing" if s is not None and not over else "idle",
                           s.tournament if s else None, s.series if s else None, game)
        if state == self._table_written:
            return
        try:
            write_json(self.spool / TABLE_FILE, state.to_json())
        except OSError as exc:
            log.warning("club: cannot write %s: %s", self.spool / TABLE_FILE, exc)
            return
        self._table_written = state

    # ---- what the kiosk shows ----------------------------------------------------------------

    def decorate(self, view: Any, session: Any) -> Any:
        """The view with the status line, and the seating scene while one waits."""
        from display.view import ClubLine, SeatingView

        changes: dict[str, Any] = {}
        if self.status is not None:
            since = time.strftime("%H:%M", self.clock(self.status.since))
            changes["club"] = ClubLine(self.status.state, since, self.status.waiting)
        if self.pending is not None and self.between_games(session) and view.scene not in (
                "fault", "enrol"):
            p = self.pending
            changes["seating"] = SeatingView(
                p.tournament, p.series, p.games, p.first_dealer, p.names,
                tuple(i in self.confirmed for i in range(len(p.players))))
            changes["scene"] = "seating"
            changes["players"] = p.names
            changes["hands"] = ()
        if self.note:
            changes["note"] = self.note
        if self.banner:
            from display.view import Fault

            changes["refusal"] = Fault("foreign-tag", detail=self.banner)
        return replace(view, **changes) if changes else view

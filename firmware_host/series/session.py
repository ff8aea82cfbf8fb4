"""A table session: the controller, its journal, its computer seats and whoever watches it.

:meth:`Session.submit` is the one door for inputs: the controller decides, the journal writes
the input and the decision (before anything is shown), then the listeners are told.

Nothing is shown that is not durably journalled: when the storage does not take an input
the table accepted (full, read-only, failing), the input is taken back (:meth:`Table.retract`)
and refused with a reason in the players' words ("not saved: the storage is full. Pick the card
up; ..."); an input refused or ignored anyway is simply not journalled. The storage is then a
standing fault (:attr:`Session.storage`, :attr:`Session.journal_fault`), the computer seats
wait, and :meth:`Session.retry_storage` (every few seconds from the event loop, and each input
by itself) clears it when the storage takes writes again: play goes on from the last saved
state. A journal that could not be opened for writing is read read-only (the last saved state
is shown) and opened again at :attr:`Session.journal_path` once it can be.

On start, :meth:`Session.resume` feeds an unfinished series' journal back into the controller,
so the table is exactly where it was. A journal repaired on opening owes a loss report: the
session journals it as a notice (where the table was restored to, what was lost), shown until
someone confirms it (:meth:`Session.notices`, :meth:`Session.confirm_notice`).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from engine.cards import Card
from firmware_host.clubside.seating import Seating, SeatingError, parse_seating, seated_config
from firmware_host.config import Config
from firmware_host.series.journal import (
    OPENED_READ_ONLY,
    Journal,
    JournalError,
    OutboxItem,
    SeriesMismatch,
    storage_kind,
)
from firmware_host.series.levelchoice import LevelChange, choose, fixed_by, level_for
from firmware_host.table.computers import Move, Player, ask, make_player, to_move
from firmware_host.table.controller import DealState, Outcome, Refusal, Table, confirmers
from firmware_host.table.inputs import Input, Press, ScriptError, TagLaid, from_json, parse_line

RAW_KEPT = 500  # characters of an unreadable line kept in the journal
REJECTIONS_KEPT = 1000
# The storage's trouble (see journal.storage_kind) in the players' words.
STORAGE_WORDS = {"full": "the storage is full", "read-only": "the storage is read-only",
                 "failing": "the storage is failing"}
Listener = Callable[["Session", Input | None, Outcome], None]
log = logging.getLogger("skat-table")


@dataclass
class Rejection:
    """One refused input: its script line (None for a live input) and the reason."""

    line: int | None
    reason: str
    refusal: Refusal | None = None


@dataclass
class Session:
    """The controller with its journal, computer seats and listeners.

    >>> from firmware_host.config import simulated_config
    >>> s = Session(simulated_config(computer_seats=()), Journal.open(":memory:"))
    >>> s.resume()
    0
    >>> s.submit_text('{"seat": 0, "press": "pass"}', line=1).status
    'refused'
    >>> [(r.line, r.reason) for r in s.rejected]
    [(1, 'the cards are still being dealt (0 of 32)')]
    """
    config: Config
    journal: Journal | None = None
    computer_seats: tuple[int, ...] = ()
    listeners: list[Listener] = field(default_factory=list)
    # The live table (run, the simulator's window): the first card dealt after the last deal of
    # a series starts the next series. A replay stops at the end of its series.
    new_series_after_last: bool = False
    # What the journal's series must have been started by: the live table, or one script
    # (``{"script": <sha256>}``): a journal is never resumed by something else.
    identity: dict[str, Any] = field(default_factory=lambda: {"table": "live"})
    # The open-card analysis of finished deals (firmware_host.screen.analysis.AnalysisService), on
    # a worker thread; None where nobody looks at it (replay, export, tests).
    analyses: Any = None
    # The archive of finished series and the players' statistics
    # (firmware_host.series.archive.ArchiveService), on a worker thread; None where nobody
    # looks at it.
    archive: Any = None
    # Where the journal lives (the live table): a journal that could not be opened for writing
    # (then read-only, or None) is opened there again once the storage takes writes.
    journal_path: str | None = None

    def __post_init__(self) -> None:
        # The table's own config, and the club seating the current series was started from
        # (None: the table's own players). See start_seated_series.
        self.base_config = self.config
        self.seating: Seating | None = None
        # Whether the opponents confirm each result (see confirms): as the journalled series
        # was started (None: as the config says now).
        self._journalled_confirms: bool | None = None
        # The finished deals of this series sent to the club unconfirmed at the series' end
        # (journalled "released"; see release_unconfirmed).
        self._released: set[int] = set()
        self.table = self._new_table()
        self.series_id: int | None = None
        self.rejected: list[Rejection] = []
        self.problems: list[str] = []  # journal trouble found on opening, for the display/log
        # The storage does not take writes: "full", "read-only" or "failing" (inputs are
        # refused until retry_storage or a write succeeds); None while it works.
        self.storage: str | None = None
        # The standing fault in words (the storage, or the journal's second copy), or None.
        self.journal_fault: str | None = None
        # After a damaged journal was repaired at this start: what was restored and what was
        # lost, in words (the log). The kiosk shows the journalled notice (see notices()).
        self.recovery_note: str | None = None
        # Loss reports the storage has not taken yet: shown all the same, written with the next
        # write the storage takes (see _write_notices, _storage_works).
        self._unwritten_notices: list[dict[str, Any]] = []
        # The hint shown now: (table seat, engine.players.hints.Hint); see ask_hint.
        self.hint: tuple[int, Any] | None = None
        # Hints turned on or off on the kiosk's settings screen (None: as the config says);
        # see hints_on and firmware_host.series.settings.
        self.hints_chosen: bool | None = None
        # Each computer's last bidding decision, by (deal number, position): what its bid
        # limit's reason is made from (engine.players.reasons; see reasons_now).
        self.bid_notes: dict[tuple[int, int], Any] = {}
        # The computer's level chosen on the kiosk (levelchoice.LevelChange; None: the
        # config's), and the level (or the config's player) ``players`` play at: a new deal
        # gets its level's players before their first decision (see _players_for_deal).
        self.level_change: LevelChange | None = None
        self.players_level = self.config.computer.player
        self.players: dict[int, Player] = self._make_players(self.players_level)
        self.resumed = 0
        # Kontra/Re out of turn: (deal number, position, doubling level, contract) already
        # asked. A "no" is journalled ("declined"), so a restart asks nobody twice: see
        # resume(). The contract is in the key: after an undo another one may be declared.
        self._doubling_asked: set[tuple[int, int, int, str]] = set()

    def _new_table(self) -> Table:
        """The live table is bounded: it keeps the last deals' inputs and games, and the
        journal a checkpoint at every deal's start, so that a series of any length resumes
        and undoes as fast as a short one. A replayed script keeps everything."""
        table = Table(self.config, bounded=bool(self.identity.get("table")))
        table.computers = frozenset(self.computer_seats)
        table.confirming = self.confirms
        return table

    @property
    def confirms(self) -> bool:
        """The declarer's opponents confirm each result before it is sent: a tournament
        series (a club seating) at a table with ``[club] confirm_results``, or a journalled
        series that was started so (it keeps its rule when the config changes)."""
        if self.seating is None:
            return False
        if self._journalled_confirms is not None:
            return self._journalled_confirms
        club = getattr(self.base_config, "club", None)
        return bool(club is not None and club.confirm_results)

    def _reject(self, rejection: Rejection) -> None:
        """One more refusal of the series (a replay's result lists them all); the live table
        keeps the last :data:`REJECTIONS_KEPT` (a foreign tag lying on a reader all year)."""
        self.rejected.append(rejection)
        if self.table.bounded and len(self.rejected) > 2 * REJECTIONS_KEPT:
            del self.rejected[:-REJECTIONS_KEPT]

    def _make_players(self, name: str) -> dict[int, Player]:
        """A player of level (or config name) ``name`` for each computer seat."""
        computer = self.config.computer
        return {seat: make_player(name, computer.seed + seat, computer.budget_ms,
                                  never_declare=seat in computer.uncredited)
                for seat in self.computer_seats}

    def computer_level(self, ahead: int = 0) -> str:
        """The level the computer seats play the current deal at (``ahead`` 1: the next
        deal): the kiosk's choice where the config leaves it to the table, else the
        config's level or player."""
        configured = self.config.computer.player
        if fixed_by(self.config):
            return configured
        return level_for(self.level_change, configured, self.series_id or 0,
                         self.table.deal.number + ahead)

    def level_chosen(self, level: str) -> LevelChange:
        """The kiosk's level change when ``level`` is chosen now: it plays from the next deal
        on, or from this one if not a card of it is dealt yet (no computer has decided)."""
        d = self.table.deal
        begun = self.table.stage != "dealing" or bool(d.dealt)
        return choose(self.level_change, self.config.computer.player, level,
                      self.series_id or 0, d.number if begun else d.number - 1)

    def _players_for_deal(self) -> None:
        """The deal under way is played by its level's players: rebuilt (the old ones'
        workers ended) when its level is not theirs. Only a new deal has another level: a
        change on the kiosk plays from the next deal on (levelchoice.choose)."""
        level = self.computer_level()
        if level == self.players_level or not self.players:
            return
        old, self.players = self.players, self._make_players(level)
        self.players_level = level
        log.info("computer: the seats play at %s from deal %d on", level,
                 self.table.deal.number)
        for player in old.values():
            close = getattr(player, "close", None)
            if close is not None:
                close()

    def warm_up_players(self) -> None:
        """Start the computer players' worker processes now (a live table), so the first
        decision at the table does not pay for them."""
        for player in self.players.values():
            warm_up = getattr(player, "warm_up", None)
            if warm_up is not None:
                warm_up()

    def close(self) -> None:
        """End the computer players' workers and the analysis worker; close the journal."""
        if self.analyses is not None:
            self.analyses.close()
        if self.archive is not None:
            self.archive.close()
        for player in self.players.values():
            close = getattr(player, "close", None)
            if close is not None:
                close()
        if self.journal is not None:
            self.journal.close()

    # ---- journal -------------------------------------------------------------------------

    def fingerprint(self) -> dict[str, Any]:
        """What a journalled series must match to be resumed with this config."""
        t = self.config.table
        return {
            "players": list(t.players), "first_dealer": t.first_dealer, "rules": t.rules,
            "scoring": t.scoring, "series_length": t.series_length, "deal_mode": t.deal_mode,
            "house": {k: list(v) if isinstance(v, tuple) else v
                      for k, v in sorted(self.config.house.items())},
            "deck": {uid: str(card) for uid, card in sorted(self.config.deck.items())},
            "uncredited": list(self.config.computer.uncredited),
            # only when not the default, so that journals written before the key still match
            **({"violations": t.violations} if t.violations != "refuse" else {}),
            **({"club": self.seating.to_json()} if self.seating is not None else {}),
            **({"confirm_results": True} if self.confirms else {}),
        }

    def resume(self, finished_too: bool = False, strict: bool = False) -> int:
        """Continue the journal's unfinished series (or start one); return inputs replayed.

        ``finished_too`` (replay): continue the latest series even when it is over, so a
        script run again on its journal ends as it did. ``strict`` (replay): a series of
        another configuration or another script raises :class:`SeriesMismatch` instead of
        starting a new series next to it.
        """
        if self.journal is None:
            return 0
        self.problems.extend(self.journal.problems)
        found = (self.journal.latest_series() if finished_too
                 else self.journal.open_series())
        if found is not None:
            self._seat_from(found[1])
            other = self.journal.series_identity(found[0])
            if found[1] != self.fingerprint():
                self._seat(None)
                if strict:
                    raise SeriesMismatch(
                        f"the journal {self.journal.path} holds a series played with another "
                        "configuration: use another journal file")
                self.problems.append(
                    f"an unfinished series (#{found[0]}) was played with another "
                    "configuration; a new series starts")
                found = None
            elif other != self.identity:
                if strict:
                    raise SeriesMismatch(
                        f"the journal {self.journal.path} belongs to {_identity_words(other)}, "
                        f"not to {_identity_words(self.identity)}: use another journal file")
                self.problems.append(
                    f"the unfinished series #{found[0]} belongs to {_identity_words(other)}; "
                    "a new series starts")
                found = None
        if found is None:
            if self.seating is not None:
                self._seat(None)
            try:
                self.series_id = self.journal.start_series(self.fingerprint(), self.identity)
            except JournalError as exc:
                self.storage_failed(exc)
            self._note_recovery()
            return 0
        self.series_id = found[0]
        count = 0
        for entry in self.journal.iter_entries(self.series_id, self._restore_checkpoint()):
            count += 1
            if entry.status == "prompt":
                self.table.prompts[entry.input["seat"]] = Card.parse(entry.input["prompt"])
                continue
            if entry.status == "restart":
                self.table.forget_present()
                continue
            if entry.status == "released":  # the series' last game, sent unconfirmed
                self._released.add(entry.input["release"])
                continue
            if entry.status == "declined":  # a computer seat said no Kontra/Re: asked
                i = entry.input
                self._doubling_asked.add((i["deal"], i["position"], i["level"],
                                          i["contract"]))
                continue
            if "raw" in entry.input:
                self._reject(Rejection(entry.line, entry.reason or ""))
                continue
            try:
                inp = from_json(entry.input)
            except ScriptError as exc:  # cannot happen for a verified record; never fatal
                self.problems.append(f"journal record #{entry.seq} is unreadable: {exc}")
                continue
            if entry.status == "refused" and self._for_a_computer(inp, entry.source):
                out = Outcome("refused", self._for_a_computer(inp, entry.source))
            else:  # as it was decided: an input accepted before a rule that would refuse it
                # now (a journal written by an older version) is taken as it was
                out = self.table.handle(inp, entry.source,  # type: ignore[arg-type]
                                        live=entry.status != "accepted")
            if out.status != entry.status:
                self.problems.append(
                    f"journal record #{entry.seq} was {entry.status} but is now {out.status}")
            if out.refusal is not None:
                self._reject(Rejection(entry.line, out.refusal.reason, out.refusal))
        self.resumed = count
        if self.identity.get("table") and any(self.table.present.values()):
            # What lay on the readers before the restart is not remembered as lying now: the
            # readers are asked again (they report what lies when they start). Journalled, so
            # the next resume replays the same. A script (replay) is its own reader stream.
            self.table.forget_present()
            self._write({"restart": True}, "restart", {"source": "table"})
        self._note_recovery()
        return count

    def _restore_checkpoint(self) -> int:
        """A bounded table resumes from the journal's checkpoint a few deals back: the
        finished deals before it are put in place, and the record after which the inputs to
        replay follow is returned (0: replay the series from its first input)."""
        point = (self.journal.resume_point(self.series_id)
                 if self.journal is not None and self.series_id is not None
                 and self.table.bounded else None)
        if point is None:
            return 0
        summaries, after = point
        try:
            self.table.restore([DealState.from_summary(d) for d in summaries])
        except (ValueError, TypeError) as exc:  # a verified record; never fatal
            self.problems.append(f"the journal's checkpoint cannot be read ({exc}): the "
                                 "series is replayed from its first input")
            self.table = self._new_table()
            return 0
        return after

    def _note_recovery(self) -> None:
        """After a repaired journal: where the table was restored to and what was lost; and
        the notice of every repair that owes one (this start's, or one a power cut kept from
        being written), journalled with those words."""
        rec = self.journal.recovery if self.journal is not None else None
        if rec is not None:
            self.recovery_note = (f"journal damaged: restored to {position_words(self.table)}"
                                  f"{loss_words(rec.lost, rec.unproven)}")
            self.problems.append(self.recovery_note)
        self._owe_notices()

    # ---- loss reports ----------------------------------------------------------------------

    def _owe_notices(self) -> None:
        """A notice for each repair the journal owes one: the words and where the table
        stands now (after the replay: where the repair left it)."""
        if self.journal is None:
            return
        current = self.journal.recovery.id if self.journal.recovery is not None else None
        for facts in self.journal.owed_notices():
            where = position_words(self.table)
            lost, unproven = facts.get("lost"), facts.get("unproven")
            note = f"journal damaged: restored to {where}{loss_words(lost, unproven)}"
            if facts.get("repair") != current:
                self.problems.append(f"{note} (a repair at an earlier start: its notice is "
                                     "written now)")
            self._unwritten_notices.append({
                "what": "recovery", "repair": facts.get("repair"),
                "deal": self.table.deal.number, "where": where, "lost": lost,
                "unproven": unproven, "details": list(facts.get("details") or ()),
                "aside": list(facts.get("aside") or ()), "kept": facts.get("kept"),
                "note": note, "at": time.time()})
        self._write_notices()

    def _write_notices(self) -> list[int]:
        """Journal the loss reports not written yet; their numbers. Storage that fails keeps
        them (shown from memory) for the next write it takes (see _storage_works)."""
        written: list[int] = []
        if self.journal is None:
            return written
        while self._unwritten_notices:
            try:
                written.append(self.journal.add_notice(self._unwritten_notices[0]))
            except JournalError as exc:
                self.storage_failed(exc)
                break
            self._unwritten_notices.pop(0)
        return written

    def notices(self) -> list[tuple[int, dict[str, Any]]]:
        """Every loss report nobody has confirmed, oldest first: (its journal number, body);
        number 0 for one the storage has not taken yet."""
        journalled = self.journal.open_notices() if self.journal is not None else []
        return journalled + [(0, dict(b)) for b in self._unwritten_notices]

    def confirm_notice(self, seq: int, by: str = "kiosk") -> bool:
        """Someone read loss report ``seq`` (0: the oldest not journalled yet, written
        first): journalled, and it is no longer shown. False when nothing was confirmed (no
        such open notice, or the storage refused)."""
        if self.journal is None:
            return False
        if seq == 0:
            written = self._write_notices()
            if not written:
                return False
            seq = written[0]
        try:
            return self.journal.confirm_notice(seq, by)
        except JournalError as exc:
            self.storage_failed(exc)
            return False

    def _seat(self, seating: Seating | None, confirms: bool | None = None) -> None:
        """Play with ``seating``'s players, games and first dealer (None: the table's own);
        ``confirms``: as a journalled series was started (None: as the config says)."""
        self.seating = seating
        self._journalled_confirms = confirms
        self._released = set()
        self.config = self.base_config if seating is None else seated_config(
            self.base_config, seating)
        self.table = self._new_table()

    def _seat_from(self, fingerprint: dict[str, Any]) -> None:
        """A journalled series that was started from a club seating is resumed with it."""
        club = fingerprint.get("club")
        if not isinstance(club, dict):
            return
        try:
            self._seat(parse_seating(club), confirms=fingerprint.get("confirm_results") is True)
        except SeatingError as exc:  # a verified record; never fatal
            self.problems.append(f"the series' club seating cannot be read: {exc}")

    def start_seated_series(self, seating: Seating) -> None:
        """Every seat confirmed the club's seating: a new series with its players, its number
        of games and its first dealer; each finished game carries the tournament's ids."""
        self.release_unconfirmed()
        self._seat(seating)
        self._begin_series()

    def start_new_series(self, abandon: bool = False) -> None:
        """The series is over and a card is dealt: a new series at the same table, with the
        table's own players (a tournament's series is not played twice).

        ``abandon``: the players chose not to go on with an unfinished series (the simulator's
        start screen): it is closed in the journal, so it is not offered again."""
        if abandon and self.journal is not None and self.series_id is not None:
            try:
                self.journal.finish_series(self.series_id)
            except JournalError as exc:  # the choice cannot be saved: the series goes on
                self.storage_failed(exc)
                return
        self.release_unconfirmed()
        self._seat(None)
        self._begin_series()

    def _begin_series(self) -> None:
        """A fresh start for the seats just set: no refusals pending, a new series journalled."""
        self.rejected = []
        self.series_id = None  # until the journal has it: the first input writes it then
        if self.journal is not None:
            try:
                self.series_id = self.journal.start_series(self.fingerprint(), self.identity)
            except JournalError as exc:
                self.storage_failed(exc)

    def last_line(self) -> int:
        if self.journal is None or self.series_id is None:
            return 0
        return self.journal.last_line(self.series_id)

    def _write(self, row: dict[str, Any], status: str, extra: dict[str, Any]) -> bool:
        """Journal one row; False when the storage did not take it (the fault is set).

        Without a journal (no path given) nothing is written and everything is taken; a
        journal that could not be opened at all takes nothing."""
        if self.journal is None:
            return self.storage is None
        try:
            if self.series_id is None:  # the storage failed when the series began
                self.series_id = self.journal.start_series(self.fingerprint(), self.identity)
            # What changed the table must be on disk before it is shown; the rest may ride on
            # the next fsync.
            self.journal.append(self.series_id, row, status,
                                durable=status in ("accepted", "prompt", "declined"), **extra)
        except JournalError as exc:
            self.storage_failed(exc)
            return False
        self._storage_works()
        self._finish_if_over()
        return True

    def _finish_if_over(self) -> None:
        if self.journal is None or self.series_id is None or self.table.stage != "over":
            return
        if self.awaiting_confirmation() is not None:
            return  # the last game waits for its confirmations: resumed with them after a cut
        try:
            self.journal.finish_series(self.series_id)
        except JournalError as exc:  # written with the next write that works
            self.storage_failed(exc)

    def _checkpoint(self) -> bool:
        """The input just handled started a deal: the deal before it, for resuming from here
        (see Journal.checkpoint). Written before the input, as the state it starts from;
        False when the storage did not take it (the input is then not saved either)."""
        deals = self.table.deals
        try:
            self.journal.checkpoint(self.series_id, deals[-1].number,  # type: ignore[union-attr]
                                    deals[-2].summary_json())
        except JournalError as exc:
            self.storage_failed(exc)
            return False
        return True

    def _outbox(self, finished_before: int, deals_before: int = 0,
                inp: Input | None = None) -> list[OutboxItem]:
        """The game this input finished (also again after an undo reopened it), for the club:
        written with the input, in the same transaction (docs/club-link.md, "The contract").

        Where the opponents confirm results (:attr:`confirms`) a finished game waits: it is
        written with the confirmation that completes it, or with the first card of the next
        deal (then marked unconfirmed: a table never stalls), never before."""
        deals = self.table.finished_deals
        if self.journal is None or self.series_id is None or not deals:
            return []
        if not self.table.confirming:
            return [self._item(deals[-1])] if len(deals) > finished_before else []
        started = len(self.table.deals) > deals_before and self.table.stage != "scored"
        if started and not confirmed(deals[-1]):
            return [self._item(deals[-1])]
        if isinstance(inp, Press) and inp.press == "confirm" and confirmed(deals[-1]):
            return [self._item(deals[-1])]
        return []

    def _item(self, d: DealState) -> OutboxItem:
        revision = self.journal.next_revision(self.series_id, d.number)  # type: ignore[union-attr,arg-type]
        return OutboxItem(d.number, revision, game_payload(self, d, revision))

    def awaiting_confirmation(self) -> DealState | None:
        """The finished deal whose result waits for its opponents' confirmations now (the
        result is on the screen), or None."""
        table = self.table
        if not table.confirming or table.stage not in ("scored", "over") \
                or not table.finished_deals:
            return None
        d = table.finished_deals[-1]
        if confirmed(d) or d.number in self._released:
            return None
        return d

    def release_unconfirmed(self) -> bool:
        """The series is over and its last game still waits for confirmations: it is sent
        marked unconfirmed (a "released" journal row with its outbox item), and the series is
        finished. Called when the table goes on to another series, and by the club desk when
        nobody confirmed for a while at the series' end. True when a game was released."""
        d = self.awaiting_confirmation()
        if d is None or self.table.stage != "over" or self.journal is None \
                or self.series_id is None:
            return False
        self._released.add(d.number)
        if not self._write({"release": d.number}, "released",
                           {"source": "table", "outbox": [self._item(d)]}):
            self._released.discard(d.number)
            return False
        return True

    def storage_failed(self, exc: BaseException) -> None:
        """The storage did not take a write (or the journal could not be opened for writing):
        a standing fault until a write works again."""
        if self.storage is not None and str(exc) == OPENED_READ_ONLY:
            return  # the journal is read-only for the standing fault, which says why
        path = self.journal_path or (self.journal.path if self.journal is not None else None)
        self.storage = storage_kind(exc, path)
        words, detail = STORAGE_WORDS[self.storage], str(exc)
        fault = f"{words}: nothing is taken until it works again" + (
            f"; {detail}" if detail and detail != words else "")
        if fault != self.journal_fault:
            log.error("journal: %s", fault)
        self.journal_fault = fault

    def _storage_works(self) -> None:
        """A write went through: the fault is gone (but for a second copy still failing)."""
        if self.storage is not None:
            log.info("journal: the storage works again; the table goes on")
        self.storage = None
        copy = self.journal.copy_fault if self.journal is not None else None
        self.journal_fault = (f"{copy} (the game is saved in the journal's database)"
                              if copy else None)
        if self._unwritten_notices:  # a loss report the storage refused: written now
            self._write_notices()

    @property
    def journal_fault_kind(self) -> str | None:
        """What the standing fault is about: the :attr:`storage` ("full", "read-only",
        "failing"), "copy" (only the second copy cannot be written), or None."""
        if self.journal_fault is None:
            return None
        return self.storage or "copy"

    def retry_storage(self) -> bool:
        """After a storage fault: does the storage take writes again? True when it does: the
        fault is gone and play goes on from the last saved state (the table already shows it:
        what could not be saved was taken back). A journal that could not be opened for
        writing is opened again and the series resumed from it.

        Called every few seconds by the event loop; :meth:`submit` tries by itself."""
        if self.journal_fault is None:
            return False
        if self._reopen():
            return self.storage is None
        if self.journal is None:
            return False
        try:
            self.journal.check_storage()
            if self.series_id is None:
                self.series_id = self.journal.start_series(self.fingerprint(), self.identity)
        except JournalError as exc:
            if self.storage is not None:  # a second copy alone failing refuses no input
                self.storage_failed(exc)
            return False
        self._storage_works()
        self._finish_if_over()
        return self.storage is None

    def _reopen(self) -> bool:
        """A journal opened read-only (or not at all) because it could not be written is
        opened for writing, repaired if need be, and the series resumed from it. True when
        that was tried (whether or not it worked)."""
        if self.journal_path is None or (self.journal is not None
                                         and not self.journal.read_only):
            return False
        try:
            journal = Journal.open(self.journal_path)
        except JournalError as exc:  # still read-only; or locked, too new: said the same way
            self.storage_failed(exc)
            return True
        old, self.journal = self.journal, journal
        if old is not None:
            old.close()
        log.info("journal: %s opened for writing; the series is resumed from it",
                 self.journal_path)
        self.storage, self.journal_fault = None, None
        self._seat(None)
        self.series_id = None
        self.rejected, self.problems = [], []
        self.recovery_note, self.hint = None, None
        self._unwritten_notices = []  # resume owes them again, from the journal just opened
        self._doubling_asked = set()
        self.resume()
        for problem in self.problems:
            log.warning("journal: %s", problem)
        if self.storage is None:
            self._storage_works()
        return True

    def _storage_refusal(self, inp: Input) -> Refusal:
        """Why an input the table would take is refused: the storage cannot save it."""
        words = STORAGE_WORDS[self.storage or "failing"]
        if isinstance(inp, TagLaid):
            return Refusal("storage", f"not saved: {words}. Pick the card up; the table goes "
                           "on when the storage works again",
                           card=self.config.deck.get(inp.tag), zone=self.storage)
        return Refusal("storage", f"not saved: {words}. The table goes on when the storage "
                       "works again", seat=getattr(inp, "seat", None), zone=self.storage)

    # ---- inputs --------------------------------------------------------------------------

    def submit(self, inp: Input, source: str = "table", line: int | None = None) -> Outcome:
        """Decide, journal, tell. An accepted input the journal cannot save is taken back
        and refused (kind ``storage``): nothing is shown that is not journalled."""
        if self.storage is not None:
            self._reopen()  # a journal that could not be written may be opened now
        if self.new_series_after_last and self.table.phase == "over" and isinstance(
                inp, TagLaid) and inp.zone == self.table._deal_zone(inp.zone):
            self.start_new_series()
        finished_before = len(self.table.finished_deals)
        deals_before = len(self.table.deals)
        mark = self.table.mark(inp)
        for_computer = self._for_a_computer(inp, source)
        out = (Outcome("refused", for_computer) if for_computer is not None
               else self.table.handle(inp, source))  # type: ignore[arg-type]
        extra: dict[str, Any] = {"line": line, "source": source}
        saved = True
        if (out.accepted and self.table.bounded and len(self.table.deals) > deals_before
                and self.journal is not None and self.series_id is not None):
            saved = self._checkpoint()
        if out.refusal is not None:
            extra["reason"] = out.refusal.reason
        elif out.accepted:
            outbox = self._outbox(finished_before, deals_before, inp)
            if outbox:
                extra["outbox"] = outbox
        if saved:
            saved = self._write(inp.to_json(), out.status, extra)
        if not saved and out.accepted:
            self.table.retract(mark)
            out = Outcome("refused", self._storage_refusal(inp))
        if out.refusal is not None:
            self._reject(Rejection(line, out.refusal.reason, out.refusal))
        elif out.accepted:
            self.hint = None  # a hint answers one decision only
        self._tell(inp, out)
        return out

    def _for_a_computer(self, inp: Input, source: str) -> Refusal | None:
        """A computer seat decides for itself: nobody else bids, declares, concedes, claims,
        doubles or answers for it (undo stays anyone's)."""
        seat = getattr(inp, "seat", None)
        if source == "computer" or seat not in self.players or getattr(
                inp, "press", None) == "undo":
            return None
        return Refusal("computer-seat", f"{self.table.name(seat)} is played by the computer: "
                       "it decides for itself", seat=seat)

    def submit_text(self, text: str, source: str = "script", line: int | None = None) -> Outcome:
        """One table-script line as text; one the table cannot read is refused, not fatal."""
        try:
            inp = parse_line(text)
        except ScriptError as exc:
            return self.refuse_line(text, f"not a table-script line: {exc}", source, line)
        return self.submit(inp, source, line)

    def refuse_line(self, text: str | bytes, reason: str, source: str = "script",
                    line: int | None = None) -> Outcome:
        """A line the table cannot read: refused, journalled (cut to :data:`RAW_KEPT`
        characters: a 100 MB line costs no more than a short one), never fatal."""
        out = Outcome("refused", Refusal("other", reason))
        self._reject(Rejection(line, reason, out.refusal))
        self._write({"raw": clip(text, RAW_KEPT)}, "refused",
                    {"line": line, "source": source, "reason": reason})
        self._tell(None, out)
        return out

    def submit_json(self, obj: Any, source: str = "script", line: int | None = None,
                    raw: str | None = None) -> Outcome:
        """A table-script line; one that says nothing the table knows is refused, not fatal."""
        try:
            inp = from_json(obj)
        except ScriptError as exc:
            return self.refuse_line(raw if raw is not None else clip(obj, RAW_KEPT),
                                    f"not a table-script line: {exc}", source, line)
        return self.submit(inp, source, line)

    def _tell(self, inp: Input | None, out: Outcome) -> None:
        for listener in self.listeners:
            try:
                listener(self, inp, out)
            except BrokenPipeError:  # the reader of our output went away (| head): stop
                raise
            except Exception:  # a log or a screen that fails must not stop the table
                log.exception("listener %r failed on %r", listener, inp)

    # ---- hints for learners ----------------------------------------------------------------

    @property
    def hints_on(self) -> bool:
        """The table offers hints: ``[table] hints = true`` or turned on on the kiosk
        (:attr:`hints_chosen`), and never at a club table (the config refuses that pair: a
        club plays tournaments, where hints are always off)."""
        chosen = self.config.table.hints if self.hints_chosen is None else self.hints_chosen
        return chosen and self.config.club is None

    def hint_seat(self) -> int | None:
        """The person who may ask for a hint now: the seat to act, if it is not a computer's."""
        if not self.hints_on:
            return None
        seat = self.table.seat_to_act()
        if seat is None or seat in self.players:
            return None
        return seat

    def ask_hint(self, seat: int) -> Any:
        """What the computer player would do for ``seat`` now, from that seat's own knowledge
        (``engine.players.hints``); shown until the next accepted input. Not journalled: it
        changes nothing at the table. None when no hint may be given now."""
        if seat != self.hint_seat():
            return None
        from dataclasses import replace

        from engine.actions import Declare
        from engine.players.hints import HintError, hint

        d = self.table.deal
        game = self.table.game
        try:
            h = hint(game, d.seats.index(seat))
            if isinstance(h.action, Declare) and game.hands[h.action.pos].bit_count() > 10:
                # The table takes the discards first (the screen asks for them, a declaration
                # waits for them): say the discard, and the game it is meant for.
                trial = game.copy()
                trial.push(h.action)
                h = replace(hint(trial, h.action.pos), then=h.action)
        except HintError:
            return None
        self.hint = (seat, h)
        return h

    # ---- computer seats ------------------------------------------------------------------

    def computer_move(self) -> Move | None:
        """If a computer seat is to act: send its press, or prompt its card. None otherwise,
        and None while the storage cannot save its move (it is asked again once it can)."""
        if self.storage is not None:
            return None
        self._players_for_deal()
        # a claim or a violation waiting for a computer seat's answer (ISkO 4.4.4, 4.1.6)
        for waiting in self.table.waiting_seats():
            if waiting in self.players:
                answer = self.table.computer_answer(waiting)
                if answer is not None:
                    if _not_saved(self.submit(answer, "computer")):
                        return None
                    return Move(waiting, input=answer)
        doubling = self._computer_doubling()
        if doubling is not None:
            return doubling
        seat = self.table.seat_to_act()
        if seat is None or seat not in self.players or seat in self.table.prompts:
            return None
        from engine.players.reasons import asked_value

        bidding = self.table.game.phase == "bidding"
        asked = asked_value(self.table.game) if bidding else 0
        move = to_move(self._decide(seat), seat)
        if bidding:
            self._note_bid(seat, asked)
        if move.card is not None:
            self.table.prompts[seat] = move.card
            if not self._write({"seat": seat, "prompt": str(move.card)}, "prompt",
                               {"source": "computer"}):
                del self.table.prompts[seat]  # not saved: not shown
                return None
        elif move.input is not None and _not_saved(self.submit(move.input, "computer")):
            return None
        return move

    def _note_bid(self, seat: int, asked: int) -> None:
        """Keep the limit the seat's player just bid by (this deal's only)."""
        from engine.players.reasons import BidNote

        limit = getattr(self.players[seat], "last_bid_limit", None)
        if not isinstance(limit, int):
            return  # a player without a limit (random, the duel's partner): no reason
        d = self.table.deal
        self.bid_notes = {k: n for k, n in self.bid_notes.items() if k[0] == d.number}
        self.bid_notes[(d.number, d.seats.index(seat))] = BidNote(limit, asked)

    @property
    def reasons_on(self) -> bool:
        """The kiosk says why a computer bid, declared or doubled: ``[computer] reasons``
        (on, but off at a club table unless the config turns it on)."""
        return bool(self.config.computer.reasons)

    def reasons_now(self) -> tuple[tuple[int, Any], ...]:
        """The computers' reasons the table may show now, as (table seat,
        ``engine.players.reasons.Reason``): none when reasons are off."""
        from engine.players.reasons import table_reasons

        d = self.table.deal
        game = d.game if d is not None else None
        if not self.reasons_on or game is None or not self.players:
            return ()
        computers = [p for p in range(3) if d.seats[p] in self.players]
        notes = {pos: n for (number, pos), n in self.bid_notes.items() if number == d.number}
        return tuple((d.seats[r.pos], r) for r in table_reasons(game, computers, notes))

    def _decide(self, seat: int) -> Any:
        """The seat's player's action; if the player fails (a bug, a worker process gone),
        the rule player decides this once, so the table never waits on a computer that
        cannot answer."""
        try:
            return ask(self.players[seat], self.table.game)
        except Exception:
            log.exception("the computer player of seat %d failed: the rule player decides", seat)
            computer = self.config.computer
            stand_in = make_player("rule", computer.seed + seat, computer.budget_ms,
                                   never_declare=seat in computer.uncredited)
            return ask(stand_in, self.table.game)

    def _computer_doubling(self) -> Move | None:
        """Before the first card anyone may say Kontra (and the declarer then Re), not only
        the seat to lay it: a computer seat not to act is asked once per doubling level
        (through its player's ``double``; the seat to act decides in its own move).

        Once means once per game, restarts included: a "yes" is an accepted input, a "no"
        is journalled as ``declined`` (deal, position, level, contract), and resuming rebuilds
        the seats asked from the journal, so a seat that said no is not asked again (it might
        answer otherwise: under a time budget its worlds differ). A contract declared anew
        after an undo is a new question."""
        from engine.actions import Kontra, Re
        from engine.game import Phase
        from engine.players import SeatView

        game = self.table.game
        if (game is None or self.table.stage != "game" or not game.rules.kontra_re
                or game.phase != Phase.PLAY or game.tricks or game.trick):
            return None
        d = self.table.deal
        for act in game.legal_actions():
            if not isinstance(act, Kontra | Re) or act.pos == game.to_act:
                continue
            seat = d.seats[act.pos]
            key = (d.number, act.pos, game.kontra, str(game.contract))
            if seat not in self.players or key in self._doubling_asked:
                continue
            self._doubling_asked.add(key)
            double = getattr(self.players[seat], "double", None)
            try:
                action = double(SeatView.of(game, act.pos)) if double is not None else None
            except Exception:  # as in _decide: a failing player must not stop the table
                log.exception("the computer player of seat %d failed on %s: it says no",
                              seat, act.kind)
                action = None
            if action is not None:
                move = to_move(action, seat)
                if _not_saved(self.submit(move.input, "computer")):  # type: ignore[arg-type]
                    self._doubling_asked.discard(key)  # asked again once it can be saved
                    return None
                return move
            if double is not None and not self._write(
                    {"seat": seat, "declined": act.kind, "deal": d.number, "position": act.pos,
                     "level": game.kontra, "contract": str(game.contract)}, "declined",
                    {"source": "computer"}):
                self._doubling_asked.discard(key)
                return None
        return None


def confirmed(d: DealState) -> bool:
    """Every seat that confirms ``d``'s result has confirmed it."""
    return set(confirmers(d)) <= set(d.confirmed)


def _not_saved(out: Outcome) -> bool:
    """The input was refused because the storage cannot save it."""
    return out.refusal is not None and out.refusal.kind == "storage"


def clip(value: Any, limit: int) -> str:
    """Text for a message or the journal, at most ``limit`` characters (and a count of the rest).

    >>> clip("x" * 1000, 10)
    'xxxxxxxxxx... (990 more characters)'
    >>> clip(b"\\xff", 10)
    "b'\\\\xff'"
    """
    text = value if isinstance(value, str) else repr(value)
    if len(text) > limit:
        text = f"{text[:limit]}... ({len(text) - limit} more characters)"
    return text


def loss_words(lost: int | None, unproven: str | None) -> str:
    """What a repair lost, as the end of its note (docs/controller.md, the journal).

    >>> loss_words(4, None)
    '; the last 4 input(s) could not be recovered'
    >>> loss_words(0, None)
    '; nothing was lost'
    """
    if lost:
        return f"; the last {lost} input(s) could not be recovered"
    if lost is None:
        return "; later inputs may be lost"
    if unproven == "missing":
        return "; the other copy is missing, later inputs may be lost"
    if unproven == "unreadable":
        return "; the other copy cannot be read, later inputs may be lost"
    return "; nothing was lost"  # both files read to their ends: the verified records prove it


def _identity_words(identity: dict[str, Any]) -> str:
    if "script" in identity:
        return "a replayed script (skat-table replay)"
    if identity.get("table"):
        return "the live table"
    return "another session"


def position_words(table: Table) -> str:
    """Where the table stands, in words: "deal 12, trick 3", "deal 4, bidding"."""
    d = table.deal
    phase = table.phase
    if phase in ("scored", "over"):
        last = table.finished_deals[-1] if table.finished_deals else d
        return f"the end of deal {last.number}"
    if phase == "dealing":
        return f"deal {d.number}, card {d.cards_known()} of 32 dealt"
    if phase == "play":
        return f"deal {d.number}, trick {len(table.game.tricks) + 1}"
    return f"deal {d.number}, {phase}"


def game_payload(session: Session, d: Any, revision: int) -> dict[str, Any]:
    """The outbox payload of a finished deal: the club's "game" message without the ids only
    the link knows (tournament, table): ``journal`` and ``series`` identify it here."""
    import time

    from firmware_host.table.results import deal_json

    table = session.table
    names = [table.name(s) for s in d.seats]
    iss = None
    try:
        from engine.iss import game_to_record

        props = {"GM": "Skat", "PC": "skat-table", "CO": "", "SE": str(session.series_id),
                 "ID": str(d.number), "DT": "", "P0": names[0], "P1": names[1], "P2": names[2],
                 "R0": "", "R1": "", "R2": ""}
        iss = game_to_record(d.game, names, props)
    except Exception as exc:  # the club still gets the result; the record says why not
        log.warning("deal %s: no ISS record: %s", d.number, exc)
    return {
        "journal": session.journal.journal_id if session.journal is not None else "",
        "series": session.series_id, "game": d.number, "revision": revision,
        "players": list(table.names), "seats": list(d.seats), "dealer": d.dealer,
        "result": deal_json(d), "iss": iss, "at": time.time(),
        # who confirmed the result ([]: sent unconfirmed); absent where nobody confirms
        # (all of those who confirm it, or nobody: a game sent before they all confirmed)
        **({"confirmed_by": [_player_id(session.seating.players[s]) for s in d.confirmed]
                            if confirmed(d) else []}
           if table.confirming and session.seating is not None else {}),
        **({"club": {"tournament": session.seating.tournament,
                     "series": session.seating.series,
                     "players": [_player_id(p) for p in session.seating.players]}}
           if session.seating is not None else {}),
    }


def _player_id(p: Any) -> str:
    """A seated player as the club knows them: the id, or a guest's name."""
    return p.id if p.id is not None else p.name

"""A table session: the controller, its journal, its computer seats and whoever watches it.

:meth:`Session.submit` is the one door for inputs: the controller decides, the journal writes
the input and the decision (before anything is shown), then the listeners are told. A journal
that cannot be written (full disk, read-only file system) is a standing fault the display
shows; rows not yet written are kept and written as soon as the storage works again, and the
table plays on.

On start, :meth:`Session.resume` feeds an unfinished series' journal back into the controller,
so the table is exactly where it was.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from engine.cards import Card
from firmware_host.computers import Move, Player, ask, make_player, to_move
from firmware_host.config import Config
from firmware_host.controller import Outcome, Refusal, Table
from firmware_host.inputs import Input, ScriptError, TagLaid, from_json, parse_line
from firmware_host.journal import Journal, JournalError

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

    def __post_init__(self) -> None:
        self.table = Table(self.config)
        self.series_id: int | None = None
        self.rejected: list[Rejection] = []
        self.problems: list[str] = []  # journal trouble found on opening, for the display/log
        self.journal_fault: str | None = None
        self._pending: list[tuple[dict[str, Any], str, dict[str, Any]]] = []
        computer = self.config.computer
        self.players: dict[int, Player] = {
            seat: make_player(computer.player, computer.seed + seat, computer.budget_ms,
                              never_declare=seat in computer.uncredited)
            for seat in self.computer_seats
        }
        self.resumed = 0

    def warm_up_players(self) -> None:
        """Start the computer players' worker processes now (a live table), so the first
        decision at the table does not pay for them."""
        for player in self.players.values():
            warm_up = getattr(player, "warm_up", None)
            if warm_up is not None:
                warm_up()

    def close(self) -> None:
        """End the computer players' workers and close the journal."""
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
        }

    def resume(self, finished_too: bool = False) -> int:
        """Continue the journal's unfinished series (or start one); return inputs replayed.

        ``finished_too`` (replay): continue the latest series even when it is over, so a
        script run again on its journal ends as it did.
        """
        if self.journal is None:
            return 0
        self.problems.extend(self.journal.problems)
        found = (self.journal.latest_series() if finished_too
                 else self.journal.open_series())
        if found is not None and found[1] != self.fingerprint():
            self.problems.append(
                f"an unfinished series (#{found[0]}) was played with another configuration; "
                "a new series starts")
            found = None
        if found is None:
            try:
                self.series_id = self.journal.start_series(self.fingerprint())
            except JournalError as exc:
                self._journal_failed(str(exc))
            return 0
        self.series_id = found[0]
        count = 0
        for entry in self.journal.iter_entries(self.series_id):
            count += 1
            if entry.status == "prompt":
                self.table.prompts[entry.input["seat"]] = Card.parse(entry.input["prompt"])
                continue
            if "raw" in entry.input:
                self.rejected.append(Rejection(entry.line, entry.reason or ""))
                continue
            inp = from_json(entry.input)
            out = self.table.handle(inp, entry.source)  # type: ignore[arg-type]
            if out.status != entry.status:
                self.problems.append(
                    f"journal record #{entry.seq} was {entry.status} but is now {out.status}")
            if out.refusal is not None:
                self.rejected.append(Rejection(entry.line, out.refusal.reason, out.refusal))
        self.resumed = count
        return count

    def start_new_series(self) -> None:
        """The series is over and a card is dealt: a new series at the same table."""
        self.table = Table(self.config)
        self.rejected = []
        if self.journal is not None:
            try:
                self.series_id = self.journal.start_series(self.fingerprint())
            except JournalError as exc:
                self._journal_failed(str(exc))

    def last_line(self) -> int:
        if self.journal is None or self.series_id is None:
            return 0
        return self.journal.last_line(self.series_id)

    def _write(self, row: dict[str, Any], status: str, extra: dict[str, Any]) -> None:
        if self.journal is None:
            return
        self._pending.append((row, status, extra))
        try:
            if self.series_id is None:  # the storage failed when the series began
                self.series_id = self.journal.start_series(self.fingerprint())
            while self._pending:
                r, s, e = self._pending[0]
                # What changed the table must be on disk before it is shown; the rest may
                # ride on the next fsync.
                self.journal.append(self.series_id, r, s, durable=s in ("accepted", "prompt"),
                                    **e)
                self._pending.pop(0)
            if self.table.stage == "over":
                self.journal.finish_series(self.series_id)
            self.journal_fault = None
        except JournalError as exc:
            self._journal_failed(str(exc))

    def _journal_failed(self, why: str) -> None:
        self.journal_fault = (
            f"{why}: the game goes on, but a power cut now would lose it "
            f"({len(self._pending)} input(s) waiting to be saved)")

    # ---- inputs --------------------------------------------------------------------------

    def submit(self, inp: Input, source: str = "table", line: int | None = None) -> Outcome:
        if self.new_series_after_last and self.table.phase == "over" and isinstance(
                inp, TagLaid) and inp.zone == self.table._deal_zone(inp.zone):
            self.start_new_series()
        out = self.table.handle(inp, source)  # type: ignore[arg-type]
        extra: dict[str, Any] = {"line": line, "source": source}
        if out.refusal is not None:
            extra["reason"] = out.refusal.reason
            self.rejected.append(Rejection(line, out.refusal.reason, out.refusal))
        self._write(inp.to_json(), out.status, extra)
        self._tell(inp, out)
        return out

    def submit_text(self, text: str, source: str = "script", line: int | None = None) -> Outcome:
        """One table-script line as text; one the table cannot read is refused, not fatal."""
        try:
            inp = parse_line(text)
        except ScriptError as exc:
            reason = f"not a table-script line: {exc}"
            out = Outcome("refused", Refusal("other", reason))
            self.rejected.append(Rejection(line, reason, out.refusal))
            self._write({"raw": text}, "refused", {"line": line, "source": source,
                                                   "reason": reason})
            self._tell(None, out)
            return out
        return self.submit(inp, source, line)

    def submit_json(self, obj: Any, source: str = "script", line: int | None = None,
                    raw: str | None = None) -> Outcome:
        """A table-script line; one that says nothing the table knows is refused, not fatal."""
        try:
            inp = from_json(obj)
        except ScriptError as exc:
            reason = f"not a table-script line: {exc}"
            out = Outcome("refused", Refusal("other", reason))
            self.rejected.append(Rejection(line, reason, out.refusal))
            self._write({"raw": raw if raw is not None else repr(obj)}, "refused",
                        {"line": line, "source": source, "reason": reason})
            self._tell(None, out)
            return out
        return self.submit(inp, source, line)

    def _tell(self, inp: Input | None, out: Outcome) -> None:
        for listener in self.listeners:
            try:
                listener(self, inp, out)
            except BrokenPipeError:  # the reader of our output went away (| head): stop
                raise
            except Exception:  # a log or a screen that fails must not stop the table
                log.exception("listener %r failed on %r", listener, inp)

    # ---- computer seats ------------------------------------------------------------------

    def computer_move(self) -> Move | None:
        """If a computer seat is to act: send its press, or prompt its card. None otherwise."""
        seat = self.table.seat_to_act()
        if seat is None or seat not in self.players or seat in self.table.prompts:
            return None
        move = to_move(ask(self.players[seat], self.table.game), seat)
        if move.card is not None:
            self.table.prompts[seat] = move.card
            self._write({"seat": seat, "prompt": str(move.card)}, "prompt",
                        {"source": "computer"})
        elif move.input is not None:
            self.submit(move.input, "computer")
        return move

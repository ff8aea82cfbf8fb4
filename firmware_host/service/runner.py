"""``skat-table run``: the table on its hardware, and the event loop every front end shares.

One thread owns the engine: :class:`EventLoop`. Reader pollers, GPIO callbacks, the kiosk and
scripts only :meth:`EventLoop.post` events to its queue. The loop turns each event into a table
input, hands it to the session (which journals it before anything is shown), lets the computer
seats move, shows the new screen, and pings the systemd watchdog each time round.
"""

from __future__ import annotations

import argparse
import contextlib
import logging
import queue
import signal
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from firmware_host.service.sdnotify import Notifier
from firmware_host.table.inputs import DeclareInput, Input, Press, TagGone, TagLaid

if TYPE_CHECKING:  # the command table imports this module: keep the engine out of it
    from firmware_host.table.controller import Outcome

log = logging.getLogger("skat-table")
DEFAULT_DATA_DIR = Path("/var/lib/skat-table")
STOP = object()
# While the storage does not take writes, the loop tries it again this often (seconds).
STORAGE_RETRY_S = 5.0


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--config", metavar="FILE", default="/etc/skat-table/config.toml",
                   help="the table's config (default /etc/skat-table/config.toml)")
    p.add_argument("--data-dir", metavar="DIR",
                   help="where the journal lives (default: [journal] data_dir, or "
                        f"{DEFAULT_DATA_DIR})")
    p.add_argument("--no-display", action="store_true",
                   help="run without the kiosk (readers and buttons only, log to stderr)")


class EventLoop:
    """Owns the session; everything else posts events (see the module docstring)."""

    def __init__(self, session: Any, *, show: Callable[[Any], None] | None = None,
                 notifier: Notifier | None = None, simulator: Any = None,
                 beep: Callable[[], None] | None = None) -> None:
        self.session = session
        self.show = show
        self.notifier = notifier or Notifier(None)
        self.simulator = simulator
        self.beep = beep
        # The buzzer by pattern (drivers.gpio.TableIO.buzz): "storage" for an input the storage
        # could not save; without it, ``beep`` sounds every refusal alike.
        self.buzz: Callable[[str], None] | None = None
        self._storage_retry_at = 0.0
        # Hardware that could not be started (start_hardware): name -> a try that returns
        # True once it runs; tried every HARDWARE_RETRY_S while it fails.
        self.hardware_retries: dict[str, Callable[[], bool]] = {}
        self._hardware_retry_at = 0.0
        # SimpleQueue, not Queue: the SIGTERM handler puts STOP on it, and Queue.put from a
        # handler that interrupts Queue.get in the same thread waits forever on Queue's own
        # (non-reentrant) lock; SimpleQueue.put is reentrant.
        self.queue: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self.reader_faults: dict[str, str] = {}
        # Why the real table's screen is not showing (firmware_host.service.tablescreen).
        self.screen_fault: str | None = None
        # What was chosen on the kiosk's settings screen (firmware_host.series.settings:
        # KioskSettings), kept in ``settings_file`` when there is one; see use_settings.
        self.settings: Any = None
        self.settings_file: Any = None
        # The kiosk's sounds (display.sound.Chimes): played while the sound setting is on.
        self.chimes: Any = None
        self.last_refusal: Any = None
        self.running = False
        self.waker: Callable[[], None] | None = None
        self.lights: Any = None  # drivers.gpio.TableIO when the table has buttons and lights
        self.club: Any = None    # firmware_host.clubside.clubdesk.ClubDesk at a table of a club
        # The simulator's window paces the computer's cards so a person can follow them: a
        # card every ``pace`` seconds, a completed trick stays ``trick_pause`` seconds (or until
        # the person leads). 0 (tests, the real table) lays them at once.
        self.pace = 0.0
        self.trick_pause = 0.0
        self.clock: Callable[[], float] = time.monotonic
        self._due: float | None = None
        self._card_at = -1e9
        # The game (deal, contract, doubling) whose first card waits while a person may still
        # say Kontra or Re, and since when (see _doubling_left).
        self._doubling: tuple[Any, ...] | None = None
        self._doubling_at = 0.0
        # Cards laid so far (anybody's), and the last card a person's tap laid in the
        # simulator: (seat, when, cards laid then). A second tap of that seat within
        # DOUBLE_TAP_S, nothing laid since, is the finger's double tap, not a second card.
        self._laid = 0
        self._tapped: tuple[int, float, int] | None = None
        self.offer = ""  # "resume": the start screen asks whether to go on with the series

    # Drivers accept anything with put() as their event sink.
    def post(self, event: Any) -> None:
        self.queue.put(event)
        if self.waker is not None:
            self.waker()

    put = post

    def stop(self) -> None:
        self.queue.put(STOP)

    def to_input(self, event: Any) -> Input | None:
        """A driver event or kiosk command as a table input; None when it is not one."""
        from drivers import events as ev

        table = self.session.table
        if isinstance(event, TagLaid | TagGone | Press | DeclareInput):
            return event
        if isinstance(event, ev.TagLaid):
            return TagLaid(event.zone, event.uid)
        if isinstance(event, ev.TagGone):
            return TagGone(event.zone, event.uid)
        if isinstance(event, ev.ButtonHold):
            return Press(event.seat, "undo")
        if isinstance(event, ev.ButtonPress):
            if event.button == "pass":
                return Press(event.seat, "pass")
            if event.button == "undo":
                return Press(event.seat, "undo")
            # One "bid/yes" button: the seat that hears says yes, the seat that says bids.
            game = table.game
            if table.phase == "bidding" and game.bid > 0 and game.listener is not None \
                    and table.deal.seats[game.listener] == event.seat:
                return Press(event.seat, "yes")
            return Press(event.seat, "bid")
        return self._command(event)

    def _command(self, event: Any) -> Input | None:
        from display import commands as c

        table = self.session.table
        tags = table.config.card_tags()
        if isinstance(event, c.Press):
            return Press(event.seat, event.press, event.value,
                         getattr(event, "level", None) or None)
        if isinstance(event, c.Declare):
            return DeclareInput(event.seat, event.contract)
        if isinstance(event, c.LayCard):
            # A click on a card: discarding or pushing lays it on the skat, else on the pad.
            zone = "skat" if table.phase in ("discard", "pushing") else f"seat{event.seat}"
            return TagLaid(zone, tags[event.card])
        if isinstance(event, c.DealNext) and self.simulator is not None:
            card = self.simulator.next_card()
            return None if card is None else TagLaid("deal", tags[card])
        if isinstance(event, c.DealRest) and self.simulator is not None:
            self._deal_rest()
        if isinstance(event, c.AskHint):
            self.session.ask_hint(event.seat)
        if isinstance(event, c.ConfirmNotice) and self.session.confirm_notice(event.seq):
            log.info("journal: a loss report was confirmed on the kiosk")  # then it is gone
        if isinstance(event, c.SetLanguage):
            self.change_setting("language", event.code)
        elif isinstance(event, c.SetCardStyle):
            self.change_setting("card_style", event.style)
        elif isinstance(event, c.ChangeSetting):
            self.change_setting(event.name, event.value)
        elif isinstance(event, c.Quit):
            self.stop()
        elif isinstance(event, c.Resume):
            self.offer = ""
            if not event.keep:
                self.session.start_new_series(abandon=True)
                self.last_refusal = None
            self.computers()
        return None

    def handle(self, event: Any) -> Outcome | None:
        """Process one event on the loop's thread."""
        from drivers import events as ev

        out = None
        if isinstance(event, ev.ReaderFault):
            self.reader_faults[event.zone or event.reader] = event.message
            log.warning("%s", event)
        elif isinstance(event, ev.ReaderBack):
            self.reader_faults.pop(event.zone or event.reader, None)
            log.info("reader %s works again", event.reader)
        elif isinstance(event, ev.TagUnreadable):
            # The reader works; a sticker answers but cannot be read. Said once, like a refusal.
            from firmware_host.table.controller import Refusal

            text = unreadable_message(event.zone, self.session.table.names)
            log.info("%s (reader %s)", text, event.reader)
            self.last_refusal = Refusal("other", text, zone=event.zone)
            self.sound("refused")
        elif self.club is not None and self.club.intercept(event, self.session):
            # a player tag or a seat confirming the club's seating: never a card; a player
            # tag confirming a result is a journalled press, refused as any other
            out = self.club.take_outcome()
            if out is not None:
                self.last_refusal = out.refusal
                if out.refusal is not None:
                    self.sound("refused")
        else:
            if self.club is not None:
                self.club.banner = None
            inp = self.to_input(event)
            if inp is not None:
                out = self.session.submit(inp)
                if out.accepted and isinstance(inp, TagLaid):
                    self._card_at = self.clock()
                    self._laid += 1
                double = self._double_tap(event, out)
                if not double:  # a double tap's second card is no news: no red banner
                    self.last_refusal = out.refusal
                if out.refusal is not None and not double:
                    self.sound("storage" if out.refusal.kind == "storage" else "refused")
                if out.refusal is not None and self.simulator is not None \
                        and isinstance(inp, TagLaid):
                    # In the simulator a click is a card laid and, when refused, taken back
                    # at once (as a player takes a refused card off the reader): it can be
                    # laid again later, when it is the right card.
                    self.session.submit(TagGone(inp.zone, inp.tag))
            # After any command (a whole deal dealt at once, too) the computer seats move.
            self.computers()
        self.refresh()
        return out

    def _double_tap(self, event: Any, out: Outcome) -> bool:
        """Whether ``event`` is the second tap of a person's double tap on a hand: a card
        refused right after the same seat's card was laid by a tap, nothing laid since (the
        finger came down twice; the second tap hit the card next to the one laid)."""
        from display import commands as c

        if not isinstance(event, c.LayCard):
            return False
        now = self.clock()
        if out.accepted:
            self._tapped = (event.seat, now, self._laid)
            return False
        return (out.refusal is not None and out.refusal.kind != "storage"
                and self._tapped is not None and self._tapped[0] == event.seat
                and now - self._tapped[1] < DOUBLE_TAP_S and self._laid == self._tapped[2])

    def sound(self, pattern: str) -> None:
        """A buzzer pattern (drivers.gpio.BUZZ_PATTERNS): ``refused`` is ``beep``; another
        pattern is ``buzz``, or ``beep`` where there is no ``buzz``. The kiosk's refusal
        sound too, when its sounds are on."""
        try:
            if self.buzz is not None and (pattern != "refused" or self.beep is None):
                self.buzz(pattern)
            elif self.beep is not None:
                self.beep()
        except Exception:  # a buzzer is not worth stopping the table for
            log.exception("cannot sound the buzzer")
        self.cue("refused")

    # ---- the kiosk's settings and sounds ---------------------------------------------------

    def use_settings(self, file: Any) -> None:
        """Take the settings kept in ``file`` (a ``SettingsFile``) and keep every later
        choice there."""
        self.settings_file = file
        self.settings = file.load()
        self._apply_settings("speed", "hints", "level")

    def chosen(self, name: str) -> Any:
        """What the kiosk chose for setting ``name``, or None (the default holds)."""
        return getattr(self.settings, name, None)

    def change_setting(self, name: str, value: Any) -> None:
        """A choice on the kiosk: in force at once, and kept (when there is a settings
        file) for the next start."""
        from firmware_host.series.settings import KioskSettings, SettingError

        current = self.settings if self.settings is not None else KioskSettings()
        try:
            new = (self._level_setting(current, value) if name == "level"
                   else current.changed(name, value))
        except SettingError as exc:  # a command from an older or newer kiosk: said, no more
            log.warning("settings: %s", exc)
            return
        if new == current:
            return
        self.settings = new
        log.info("settings: %s is now %r", name, value)
        if self.settings_file is not None:
            self.settings_file.save(new)  # (a failure is said in the log; the choice holds)
        self._apply_settings(name)

    def _level_setting(self, current: Any, level: Any) -> Any:
        """The settings with the computer's level ``level`` chosen: from the next deal on
        (firmware_host.series.levelchoice). :class:`SettingError` where the config keeps the
        level (a club table, a player named in the config) or no seat is the computer's: the
        settings screen offers no choice there and says why; a command that comes anyway
        is said in the log."""
        from firmware_host.series.levelchoice import fixed_by
        from firmware_host.series.settings import SettingError

        session = self.session
        why = {"club": "a club table plays at the level its config sets",
               "config": "the table's config chooses the computer player",
               }.get(fixed_by(session.config)) if session.players else (
            "no seat at this table is played by the computer")
        if why:
            raise SettingError(f"the computer's level stays {session.computer_level()!r}: "
                               f"{why}")
        current.changed("level", level)  # (the value checked before the deal is asked)
        return current.with_level(session.level_chosen(level))

    def _apply_settings(self, *names: str) -> None:
        """Put the settings ``names`` in force where the loop keeps them (the rest are read
        when the screen is built)."""
        from firmware_host.series.settings import SPEEDS

        # (on the table a person lays the computer's cards: no pace)
        if "speed" in names and self.simulator is not None:
            self.pace, self.trick_pause = SPEEDS[self.chosen("speed") or "normal"]
        if "hints" in names and hasattr(self.session, "hints_chosen"):
            self.session.hints_chosen = self.chosen("hints")
        if "level" in names and hasattr(self.session, "level_change"):
            self.session.level_change = getattr(self.settings, "level_change", None)

    @property
    def sound_on(self) -> bool:
        """The kiosk's sounds: as chosen, else on in the simulator and off on the table
        (where the buzzer says a refusal)."""
        chosen = self.chosen("sound")
        return self.simulator is not None if chosen is None else bool(chosen)

    def cue(self, name: str) -> None:
        """Play the kiosk's sound ``name`` if the sounds are on."""
        if self.chimes is None or not self.sound_on:
            return
        try:
            self.chimes.play(name)
        except Exception:  # a sound is not worth stopping the table for
            log.exception("cannot play the sound %s", name)

    def settings_view(self) -> Any:
        """The settings as the kiosk shows them (display.view.SettingsView)."""
        from display.view import SettingsView

        session = self.session
        return SettingsView(
            speed=self.chosen("speed") or "normal",
            trump_first=self.chosen("trump_first") is not False,
            suit_order=self.chosen("suit_order") or "CSHD", sound=self.sound_on,
            hints=bool(getattr(session, "hints_on", False)),
            speed_applies=self.simulator is not None,
            hints_allowed=getattr(getattr(session, "config", None), "club", None) is None,
            **self._level_view())

    def _level_view(self) -> dict[str, str]:
        """The settings screen's computer level: the one in force, the one chosen for the
        next deal (when it differs), and why it cannot be chosen (nothing: no computer)."""
        from firmware_host.series.levelchoice import fixed_by

        session = self.session
        if not getattr(session, "players", None) or not hasattr(session, "computer_level"):
            return {}
        level, next_level = session.computer_level(), session.computer_level(1)
        return {"level": level, "next_level": next_level if next_level != level else "",
                "level_fixed": fixed_by(session.config)}

    def retry_storage(self, force: bool = False) -> bool:
        """While the storage fails (the session's journal fault): try it again every
        :data:`STORAGE_RETRY_S` seconds (or now: ``force``); when it works, the computer seats
        move again and the screen says so. True when the storage works again."""
        if self.session.journal_fault is None:
            return False
        now = self.clock()
        if not force and now < self._storage_retry_at:
            return False
        self._storage_retry_at = now + STORAGE_RETRY_S
        if not self.session.retry_storage():
            if self.session.storage is not None:
                self.refresh()  # the fault's words may have changed
            return False
        if self.last_refusal is not None and self.last_refusal.kind == "storage":
            self.last_refusal = None  # its banner said to wait for this
        self.computers()
        self.refresh()
        return True

    def computers(self) -> None:
        """Let computer seats press and declare until a person (or a laid card) is needed.

        In the simulator the simulated hardware also lays the computer's cards; on the real
        table a person does, prompted on the screen.
        """
        self._due = None
        if self.offer:  # the start screen asks first whether the series goes on
            return
        for _ in range(400):
            table = self.session.table
            if self.simulator is not None and table.phase == "play":
                wait = self._pause_left(table)
                if wait > 0:
                    self._due = self.clock() + wait
                    return
            move = self.session.computer_move()
            if move is None:
                return
            if move.card is not None:
                if self.simulator is None:
                    return
                zone = "centre" if table.phase == "play" else "skat"
                tag = table.config.card_tags()[move.card]
                # The computer's own move: an undo reaches back over it to the person's.
                if self.session.submit(TagLaid(zone, tag), "computer").accepted:
                    self._card_at = self.clock()
                    self._laid += 1
                    self.last_refusal = None  # the table moved on: the banner is stale
            elif move.input is not None:
                # A computer seat bid, declared, doubled or answered: a refusal said before
                # ("it is Carla's turn") is about a moment that has passed.
                self.last_refusal = None

    def _pause_left(self, table: Any) -> float:
        """How long the simulator waits before the computer lays its next card."""
        if not (self.pace or self.trick_pause) or table.seat_to_act() not in \
                self.session.players:
            return 0.0
        game = table.game
        pause = self.trick_pause if not game.trick and game.tricks else self.pace
        return max(self._card_at + pause - self.clock(), self._doubling_left(table))

    def _doubling_left(self, table: Any) -> float:
        """Before the first card a person who may say Kontra (a defender) or Re (the declarer,
        after a Kontra) gets :data:`DOUBLING_WINDOW_S` to say it before a computer leads."""
        game, d = table.game, table.deal
        if (not getattr(game.rules, "kontra_re", False) or game.is_ramsch or game.tricks
                or game.trick or game.kontra >= 4 or game.declarer is None):
            return 0.0
        declarer = d.seats[game.declarer]
        people = [s for s in d.seats if s not in self.session.players]
        if not (any(s != declarer for s in people) if game.kontra == 1
                else declarer in people):
            return 0.0
        key = (d.number, str(game.contract), game.kontra)
        if key != self._doubling:
            self._doubling, self._doubling_at = key, self.clock()
        return self._doubling_at + DOUBLING_WINDOW_S - self.clock()

    def _deal_rest(self) -> None:
        """Simulator: deal every card still to deal in this deal."""
        tags = self.session.table.config.card_tags()
        for _ in range(32):
            card = self.simulator.next_card()
            if card is None:
                return
            out = self.session.submit(TagLaid("deal", tags[card]))
            self.last_refusal = out.refusal
            if not out.accepted or self.session.table.phase != "dealing":
                return

    def refresh(self) -> None:
        if self.show is not None:
            from dataclasses import replace

            from firmware_host.screen.viewmodel import build_view

            view = build_view(self.session, self.last_refusal,
                              simulator=self.simulator is not None,
                              reader_faults=self.reader_faults,
                              language=self.chosen("language"),
                              card_style=self.chosen("card_style"),
                              settings=self.settings_view())
            if self.club is not None:
                view = self.club.decorate(view, self.session)
            self.show(replace(view, offer=self.offer) if self.offer else view)
        self.notifier.status(status_line(self.session, self.reader_faults, self.screen_fault))
        if self.lights is not None:
            self._show_lights()

    def _show_lights(self) -> None:
        """The seat to act lights up; forehand flashes; the status light shows trouble."""
        table = self.session.table
        forehand = table.deal.seats[0] if table.game is not None else None
        try:
            self.lights.show_turn(table.seat_to_act(), forehand)
            self.lights.show_status(bool(self.reader_faults or self.session.journal_fault
                                         or self.screen_fault))
        except Exception:  # a light is not worth stopping the table for
            log.exception("cannot set the seat lights")

    def run(self, stop: threading.Event | None = None,
            wait: Callable[[float], list[Any]] | None = None, tick: float = 1.0) -> None:
        """Serve events until :meth:`stop` (or ``stop`` is set).

        ``wait(timeout)``, when given, blocks in the kiosk for touch and clicks and returns its
        commands; :attr:`waker` (the kiosk's ``notify``) cuts that wait short when a reader or
        button thread posts an event.
        """
        self.running = True
        self.computers()
        self.refresh()
        self.notifier.ready(status_line(self.session, self.reader_faults, self.screen_fault))
        interval = min(tick, self.notifier.ping_every or tick)
        try:
            while stop is None or not stop.is_set():
                if not self.serve_once(interval, wait):
                    return
        finally:
            self.running = False
            self.notifier.stopping("the table is shutting down")

    def serve_once(self, interval: float,
                   wait: Callable[[float], list[Any]] | None = None) -> bool:
        """Wait for events (at most ``interval`` s, less when a paced computer card is due)
        and handle them; False when asked to stop."""
        if self._due is not None:
            interval = max(0.0, min(interval, self._due - self.clock()))
        events = self._next_events(interval, wait)
        self.notifier.watchdog()
        if self.club is not None:
            try:
                if self.club.poll(self.session):
                    self.refresh()
            except Exception:  # the club is never worth stopping the table for
                log.exception("club: cannot read the link's files")
        for event in events:
            if event is STOP:
                return False
            try:
                self.handle(event)
            except Exception:  # one bad event must not stop the table
                log.exception("event %r failed", event)
        if self._due is not None and self.clock() >= self._due:
            try:
                self.computers()
                self.refresh()
            except Exception:
                log.exception("the computer's move failed")
        try:
            self.retry_storage()
        except Exception:
            log.exception("the journal's storage cannot be tried again")
        self.retry_hardware()
        return True

    def add_hardware_retry(self, name: str, attempt: Callable[[], bool]) -> None:
        """``attempt`` (which failed just now) is tried again in HARDWARE_RETRY_S seconds."""
        self.hardware_retries[name] = attempt
        self._hardware_retry_at = self.clock() + HARDWARE_RETRY_S

    def retry_hardware(self, force: bool = False) -> None:
        """Try again what could not be started (the buttons when the GPIO chip was not yet
        the table's at boot, say): every :data:`HARDWARE_RETRY_S` seconds, or now."""
        if not self.hardware_retries:
            return
        now = self.clock()
        if not force and now < self._hardware_retry_at:
            return
        self._hardware_retry_at = now + HARDWARE_RETRY_S
        for name, attempt in list(self.hardware_retries.items()):
            try:
                started = attempt()
            except Exception:
                log.exception("%s: trying again failed", name)
                started = False
            if started:
                del self.hardware_retries[name]
                self.reader_faults.pop(name, None)
                log.info("%s: started on a later try", name)
                self.refresh()

    def _next_events(self, interval: float,
                     wait: Callable[[float], list[Any]] | None) -> list[Any]:
        events: list[Any] = []
        if wait is None:
            with contextlib.suppress(queue.Empty):
                events.append(self.queue.get(timeout=interval))
        elif self.queue.empty():
            events += wait(interval)
        while True:
            try:
                events.append(self.queue.get_nowait())
            except queue.Empty:
                return events


def unreadable_message(zone: str, names: Any) -> str:
    """What the players are told when a card on ``zone`` answers but cannot be read.

    >>> unreadable_message("seat1", ("Anna", "Ben", "Carla"))
    "a card on Ben's pad cannot be read: move it a little"
    >>> unreadable_message("centre", ("Anna", "Ben", "Carla"))
    'a card in the centre cannot be read: move it a little'
    """
    where = {"centre": "in the centre", "deal": "on the deal reader",
             "skat": "on the skat reader"}.get(zone)
    if where is None and zone.startswith("seat") and zone[4:].isdigit():
        seat = int(zone[4:])
        where = f"on {names[seat]}'s pad" if seat < len(names) else f"on {zone}"
    return f"a card {where or 'on ' + zone} cannot be read: move it a little"


def status_line(session: Any, faults: dict[str, str] | None = None,
                screen: str | None = None) -> str:
    """One line for ``systemctl status``: where the table stands and what is wrong
    (``screen``: why the screen is not showing)."""
    table = session.table
    d = table.deal
    phase = table.phase
    text = f"deal {d.number}, {table.name(d.dealer)} deals: {phase}"
    if phase == "dealing":
        text += f" ({d.cards_known()}/32 cards)"
    seat = table.seat_to_act()
    if seat is not None:
        text += f", {table.name(seat)} to act"
    if faults:
        text += "; READER DOWN: " + ", ".join(sorted(faults))
    if session.journal_fault:
        text += "; JOURNAL: " + session.journal_fault
    notices = getattr(session, "notices", None)
    waiting = len(notices()) if notices is not None else 0
    if waiting:  # what a repaired journal lost, until someone confirms it
        text += f"; LOSS REPORT: {waiting} to confirm on the kiosk (skat-table notices)"
    if screen:
        text += "; SCREEN DOWN: " + screen
    return text


def open_session(config: Any, journal_path: Path | None) -> Any:
    """The session with its journal (resumed).

    A journal another process has, or one of a newer format, is raised: the caller says so
    and exits (the table must not start a fresh series beside a journal it could not use). A
    journal the storage does not let it open for writing (read-only, full, failing) is read
    read-only: the table shows the last saved state, refuses every input as not saved, and
    opens it for writing once it can (``Session.retry_storage``). Without a journal path
    nothing is saved and nothing is refused for it."""
    from firmware_host.series.journal import Journal, JournalError, JournalLocked, JournalTooNew
    from firmware_host.series.session import Session

    journal = None
    fault = None
    if journal_path is not None:
        try:
            journal = Journal.open(journal_path)
        except (JournalLocked, JournalTooNew):
            raise  # the caller says so and exits: it must not play on beside that journal
        except JournalError as exc:
            fault = exc
            try:
                journal = Journal.open(journal_path, read_only=True)
            except JournalTooNew:
                raise
            except JournalError as again:  # not even readable: the table waits for it
                log.error("journal: cannot read %s either: %s", journal_path, again)
    session = Session(config, journal, computer_seats=config.computer.seats,
                      new_series_after_last=True,
                      journal_path=str(journal_path) if journal_path is not None else None)
    if fault is not None:
        session.storage_failed(fault)  # before resume: nothing is written on the way
    session.resume()
    for problem in session.problems:
        log.warning("journal: %s", problem)
    return session


def _open_or_say(config: Any, journal_path: Path | None) -> Any:
    """:func:`open_session`, or the exit status after saying why the journal cannot be used:
    another process has it (1), or a newer skat-table wrote it (2, as for a config error:
    systemd does not start the service again and again for what only an update mends)."""
    from firmware_host.series.journal import JournalLocked, JournalTooNew

    try:
        return open_session(config, journal_path)
    except JournalTooNew as exc:
        print(f"skat-table: {exc}", file=sys.stderr)
        return 2
    except JournalLocked as exc:
        print(f"skat-table: {exc}", file=sys.stderr)
        return 1


def start_hardware(config: Any, loop: EventLoop, **factories: Any) -> list[Callable[[], None]]:
    """Start the readers and the buttons, lights and buzzer the config names; return what
    closes them. The drivers post their events to the loop's queue from their own threads.

    ``factories`` (``spi_factory``, ``pin_factory``, ``clock``) go to the drivers: tests pass
    the emulated MFRC522 rig and gpiozero's mock pins.
    """
    closers: list[Callable[[], None]] = []
    real = [r for r in config.readers if r.get("type", r.get("kind")) not in ("scripted",
                                                                              "simulated")]
    # Hardware that cannot be opened is a standing fault on the screen, not a dead table: the
    # touchscreen still works, and a person can still play with it.
    if real:
        from drivers.readerset import build_readers

        try:
            readers = build_readers(real, loop.post, **factories)
            readers.start()
        except Exception as exc:
            log.exception("the readers cannot be started")
            loop.reader_faults["readers"] = f"the readers cannot be started: {exc}"
        else:
            closers.append(readers.close)
    if config.gpio:
        from drivers.gpio import TableIO

        def buttons() -> bool:
            try:
                io = TableIO.from_config(config.gpio, loop.post,
                                         pin_factory=factories.get("pin_factory"))
            except Exception as exc:
                if "buttons" not in loop.reader_faults:
                    log.exception("the buttons cannot be started (tried again every %.0f s)",
                                  HARDWARE_RETRY_S)
                loop.reader_faults["buttons"] = (f"the buttons and lights cannot be started: "
                                                 f"{exc}")
                return False
            loop.beep = io.beep
            loop.buzz = io.buzz
            loop.lights = io
            closers.append(io.close)  # the list the caller closes at the end
            return True

        if not buttons():
            loop.add_hardware_retry("buttons", buttons)
    return closers


# Hardware that could not be started is tried again this often (seconds).
HARDWARE_RETRY_S = 10.0
# The simulator's computer waits this long before its first card while a person may still
# say Kontra or Re (saying it, or the first card laid, ends the wait).
DOUBLING_WINDOW_S = 5.0
# A second tap on a hand this soon after one that laid a card is the same finger's double
# tap (touch screens report one often enough), not a card meant to be laid.
DOUBLE_TAP_S = 0.4


def cmd_run(args: argparse.Namespace) -> int:
    from firmware_host.config import ConfigError, load_config

    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(message)s", stream=sys.stderr)
    try:
        config = load_config(args.config)
    except ConfigError as exc:
        print(f"skat-table: config error: {exc}", file=sys.stderr)
        return 2
    data_dir = Path(args.data_dir) if args.data_dir else (config.data_dir or DEFAULT_DATA_DIR)
    if args.no_display:
        return run_headless_table(config, data_dir)
    return run_table(config, data_dir)


def club_desk(config: Any, data_dir: Path) -> Any:
    """The club's side of the table when the config has ``[club]`` (else None)."""
    if getattr(config, "club", None) is None:
        return None
    from firmware_host.clubside.clubdesk import ClubDesk
    from firmware_host.clubside.clubfiles import club_dir
    from firmware_host.clubside.playertags import PlayerTagError, load_player_tags

    tags = None
    if config.club.player_tags is not None:
        try:
            tags = load_player_tags(config.club.player_tags)
        except PlayerTagError as exc:  # the table plays on; seats confirm by touch
            log.error("club: %s", exc)
    return ClubDesk(club_dir(data_dir), tags)


def run_headless_table(config: Any, data_dir: Path) -> int:
    from firmware_host.table.gamelog import GameLog

    notifier = Notifier.from_environment()
    notifier.starting("reading the journal")
    session = _open_or_say(config, data_dir / "journal.sqlite")
    if isinstance(session, int):
        return session
    notifier.starting("the computer players")
    session.warm_up_players()
    session.listeners.append(GameLog(log.info, symbols=False, show_hands=False))
    loop = EventLoop(session, notifier=notifier)
    from firmware_host.screen.analysis import attach

    attach(session, loop.post)  # kept in the journal's database for export and the club
    loop.club = club_desk(config, data_dir)
    notifier.starting("the readers and buttons")
    closers = start_hardware(config, loop)
    _stop_on_signals(loop)
    try:
        loop.run()
    finally:
        for close in closers:
            close()
        session.close()
    return 0


def run_table(config: Any, data_dir: Path, *, open_screen: Callable[[int], Any] | None = None,
              notifier: Notifier | None = None, **factories: Any) -> int:
    """``skat-table run``: the table on its hardware with the kiosk, and without it while the
    screen cannot be opened (:mod:`firmware_host.service.tablescreen`): the readers and
    buttons start first, whatever the screen does.

    ``open_screen(attempts)`` opens the kiosk (default :func:`open_kiosk`); ``factories`` go
    to :func:`start_hardware` (tests: the emulated readers and gpiozero's mock pins)."""
    from firmware_host.service.tablescreen import TableScreen

    notifier = notifier or Notifier.from_environment()
    notifier.starting("reading the journal")
    session = _open_or_say(config, data_dir / "journal.sqlite")
    if isinstance(session, int):
        return session
    notifier.starting("the computer players")
    session.warm_up_players()
    loop = EventLoop(session, notifier=notifier)
    from firmware_host.screen.analysis import attach

    attach(session, loop.post)  # kept in the journal's database for export and the club
    from firmware_host.series.archive import attach as keep_archive

    keep_archive(session, loop.post)  # the statistics on the kiosk, made off the loop
    loop.club = club_desk(config, data_dir)
    notifier.starting("the readers and buttons")
    closers = start_hardware(config, loop, **factories)
    closers.append(attach_settings(loop, session))
    screen = TableScreen(loop, open_screen or (lambda n: open_kiosk(config, False, n)))
    try:
        notifier.starting("the screen")
        screen.start()
        _stop_on_signals(loop)
        loop.run(stop=screen.stop, wait=screen.wait)
    finally:
        for close in closers:
            close()
        screen.close()
        session.close()
    return 0


def _stop_on_signals(loop: EventLoop) -> None:
    def stop(signum: int, frame: Any) -> None:
        loop.stop()

    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, stop)
        signal.signal(signal.SIGINT, stop)


class DealingSimulator:
    """The simulator's dealer: a shuffled deck, one card per click.

    The deck goes on from the cards the table already has for this deal (after a resume or an
    undo too), so the next card is always one that has not been dealt.
    """

    def __init__(self, session: Any, seed: int | None = None) -> None:
        import random

        self.session = session
        self.rng = random.Random(seed)
        self._order: list[Any] = []

    def next_card(self) -> Any:
        """The next card to deal, or None when nothing is to be dealt now. After a scored
        deal (or the last of a series) it is the first card of a new shuffle."""
        from engine.cards import Card
        from engine.deal import Deal

        table = self.session.table
        phase = table.phase
        if phase in ("scored", "over"):
            self._order = Deal.random(self.rng).dealt_order()
            return self._order[0]
        if phase != "dealing":
            return None
        dealt = list(table.deal.dealt)
        if len(dealt) >= 32:
            return None
        if len(self._order) != 32 or self._order[:len(dealt)] != dealt:
            rest = [c for c in Card if c not in dealt]
            self.rng.shuffle(rest)
            self._order = dealt + rest
        return self._order[len(dealt)]


def open_kiosk(config: Any, simulated: bool, attempts: int | None = None) -> Any:
    """The kiosk with its window open; raises ``DisplayUnavailable``. The table retries a
    display that is not there yet (a TV switched on late); a desktop simulator does not."""
    from display.kiosk import Kiosk

    size = config.display.get("size")
    kiosk = Kiosk(size=tuple(size) if size else None,
                  fullscreen=bool(config.display.get("fullscreen", not simulated)),
                  driver=config.display.get("driver"),
                  idle_after=float(config.display.get("idle_after", 300.0)),
                  rotate=config.display.get("rotate"),
                  # the guard against misplays: on in the simulator unless the config says
                  # otherwise (there a slip of the finger lays a card; on the table a card is
                  # laid by hand on a reader, and the hands are not shown to tap)
                  tap_twice=bool(config.display.get("tap_twice", simulated)))
    kiosk.open(attempts=attempts or (1 if simulated else 8))
    return kiosk


def kiosk_loop(config: Any, session: Any, kiosk: Any, simulated: bool,
               seed: int | None = None, offer_resume: bool = False) -> EventLoop:
    """The event loop of a kiosk: in the simulator with a dealer and paced computer cards;
    ``offer_resume``: a series resumed from the journal is offered first (go on, or anew)."""
    sim = DealingSimulator(session, seed) if simulated else None
    loop = EventLoop(session, show=kiosk.show, notifier=Notifier.from_environment(),
                     simulator=sim)
    loop.waker = kiosk.notify
    attach_settings(loop, session)  # (the simulator's pace is the computer's speed)
    if offer_resume and session.resumed and session.table.phase != "over":
        loop.offer = "resume"
    return loop


def attach_settings(loop: EventLoop, session: Any) -> Callable[[], None]:
    """The kiosk's settings, kept beside the session's journal, and its sounds: the loop
    applies the settings kept from last time and plays a sound for each card, trick and
    result while the sound setting is on. Returns what closes the sounds."""
    from firmware_host.series.settings import SettingsFile, settings_path
    from firmware_host.service.cues import SoundCues

    loop.use_settings(SettingsFile(settings_path(getattr(session, "journal_path", None))))
    try:
        from display.sound import Chimes
    except ImportError as exc:  # a table without pygame has no kiosk and no sound
        log.info("no sound: %s", exc)
        return lambda: None
    loop.chimes = Chimes()
    session.listeners.append(SoundCues(session, loop.cue))
    return loop.chimes.close


def run_kiosk(config: Any, simulated: bool, journal_path: str | None,
              seed: int | None = None, kiosk: Any = None, offer_resume: bool = False) -> int:
    """The pygame kiosk (a window in the simulator, full screen on the table)."""
    try:
        from display.kiosk import DisplayUnavailable
    except ImportError as exc:
        print(f"skat-table: the kiosk display is not available ({exc}); "
              "use --headless / --no-display", file=sys.stderr)
        return 1
    if kiosk is None:
        try:
            kiosk = open_kiosk(config, simulated)
        except DisplayUnavailable as exc:
            print(f"skat-table: no display: {exc}", file=sys.stderr)
            return 1
    session = _open_or_say(config, Path(journal_path) if journal_path else None)
    if isinstance(session, int):
        kiosk.close()
        return session
    session.warm_up_players()
    loop = kiosk_loop(config, session, kiosk, simulated, seed, offer_resume)
    from firmware_host.screen.analysis import attach

    attach(session, loop.post)
    from firmware_host.series.archive import attach as keep_archive

    keep_archive(session, loop.post)  # the statistics on the kiosk, made off the loop
    if journal_path:
        loop.club = club_desk(config, Path(journal_path).parent)
    closers = [] if simulated else start_hardware(config, loop)
    if loop.chimes is not None:
        closers.append(loop.chimes.close)
    _stop_on_signals(loop)
    stop = threading.Event()

    def wait(timeout: float) -> list[Any]:
        commands = kiosk.wait_events(timeout)
        if kiosk.closed:
            stop.set()
        return commands

    try:
        loop.run(stop=stop, wait=wait)
    finally:
        for close in closers:
            close()
        kiosk.close()
        session.close()
    return 0

"""The kiosk window: shows views, turns touch, mouse and keys into commands.

The controller owns the loop::

    kiosk = Kiosk().open(fullscreen=True)
    while True:
        kiosk.show(view)                       # redraws only what changed
        for command in kiosk.wait_events(1.0):  # blocks on pygame.event.wait, no busy loop
            ...

``wait_events`` sleeps until an input arrives or the timeout passes (the controller's watchdog
and clock): in ``pygame.event.wait`` on X11 and Wayland, in ``select`` on the input devices
elsewhere (KMSDRM on the Pi: :mod:`display.inputwatch`), so an idle table costs no CPU. After
``idle_after`` seconds without input or a new view the kiosk shows its idle screen; any touch,
click, key or new view wakes it (the waking touch itself does nothing else).
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pygame

from . import commands as cmd
from .inputwatch import InputWatch
from .layout import Element
from .render import Renderer
from .scenes import (
    AskFirst,
    CloseDialog,
    OpenSettings,
    ShowNotice,
    ShowSeriesEnd,
    ToggleModifier,
    UiState,
)
from .statsscene import ShowStats, StatsPage
from .view import CARD_STYLES, LANGUAGES, View

log = logging.getLogger(__name__)

WINDOW_SIZE = (1024, 600)
POLL_STEP = 0.02           # after kernel input SDL has not turned into an event yet, look again
INPUT_GRACE = 0.1          # ... for this long, then sleep on the devices again
BLOCKING_DRIVERS = {"x11", "wayland", "windows", "cocoa"}
HIDDEN_DRIVERS = {"offscreen", "dummy"}  # SDL draws, but nothing is seen
WAKE_EVENT = pygame.event.custom_type()


class DisplayUnavailable(RuntimeError):
    """No display could be opened even after retrying (no HDMI, no DRM device, no $DISPLAY)."""


class Kiosk:
    """The full-screen (or windowed) table display.

    ``on_command``, if given, is called with each command as well as it being returned from
    :meth:`wait_events`.
    """

    def __init__(self, on_command: Callable[[cmd.Command], None] | None = None,
                 idle_after: float = 300.0, clock: Callable[[], float] = time.monotonic,
                 wall_clock: Callable[[], str] = lambda: time.strftime("%H:%M"),
                 size: tuple[int, int] | None = None, fullscreen: bool = False,
                 driver: str | None = None, input_dir: str = "/dev/input",
                 rotate: int | None = None, tap_twice: bool = False) -> None:
        self.on_command = on_command
        # The guard against misplays (the simulator's hands): a tap on a hand card chooses
        # it (drawn raised and framed), a second tap on it lays it, a tap on another card
        # chooses that one. Keys lay at once: a digit is never a slip of the finger.
        self.tap_twice = tap_twice
        self._driver = driver                # SDL video driver, e.g. "kmsdrm" or "wayland"
        self._want_size = tuple(size) if size else None
        self._want_fullscreen = fullscreen
        self._fullscreen = fullscreen
        # How far the picture is turned clockwise on the panel (see rotation_for); the scenes
        # are laid out on an upright canvas and turned as they are put on the screen.
        self._want_rotate = rotate
        self.rotation = 0
        self._canvas: pygame.Surface | None = None
        self.closed = False                  # the window was closed (or Quit asked for)
        self.idle_after = idle_after
        self._now = clock
        self._wall = wall_clock
        self.renderer = Renderer()
        self.screen: pygame.Surface | None = None
        self.view: View | None = None
        self.ui = UiState()
        self.elements: list[Element] = []
        self._keys: list[tuple] = []
        self._last_activity = clock()
        self._idle = False
        self._clock_text = ""
        self._drawn_focus: int | None = None
        self._watch: InputWatch | None = None
        self.input_dir = input_dir
        self._blocking_driver = False
        self._notices_seen: set[int] = set()  # loss reports already opened by themselves
        self.frames = 0                      # full or partial redraws done (for tests/bench)
        self.first_frame_at: float | None = None

    # ------------------------------------------------------------------ lifetime
    def open(self, size: tuple[int, int] | None = None, fullscreen: bool | None = None,
             attempts: int = 8, first_delay: float = 0.5, max_delay: float = 8.0,
             sleep: Callable[[float], None] = time.sleep) -> Kiosk:
        """Open the window (or the whole screen), retrying with back-off when the display is
        not there yet (a TV switched on after the Pi, KMSDRM not ready at boot).

        ``show`` and ``wait_events`` open it themselves with the constructor's size and
        fullscreen if nobody did."""
        size = size or self._want_size  # type: ignore[assignment]
        fullscreen = self._want_fullscreen if fullscreen is None else fullscreen
        # Touch screens also send synthetic mouse events; we take the finger events only.
        os.environ.setdefault("SDL_TOUCH_MOUSE_EVENTS", "0")
        if self._driver:  # the config's choice; otherwise SDL tries X11, Wayland, KMSDRM
            os.environ["SDL_VIDEODRIVER"] = self._driver
        delay = first_delay
        for attempt in range(1, attempts + 1):
            try:
                pygame.display.init()
                if fullscreen:
                    self.screen = pygame.display.set_mode((0, 0), pygame.FULLSCREEN)
                    pygame.mouse.set_visible(False)
                else:
                    # A window may be resized: the layout follows the new size.
                    self.screen = pygame.display.set_mode(size or WINDOW_SIZE, pygame.RESIZABLE)
                self._fullscreen = fullscreen
                self._fit_screen()
                got = pygame.display.get_driver()
                if got in HIDDEN_DRIVERS and not self._driver and os.environ.get(
                        "SDL_VIDEODRIVER", "").lower() != got:
                    # SDL falls back to drawing off-screen when X11/Wayland/KMSDRM fail: a
                    # window no one sees is no display.
                    raise pygame.error(f"no video device (SDL fell back to its {got} driver)")
                pygame.display.set_caption("Skat")
                self._blocking_driver = pygame.display.get_driver() in BLOCKING_DRIVERS
                break
            except pygame.error as exc:
                pygame.display.quit()
                log.warning("display not available (attempt %d of %d): %s", attempt, attempts,
                            exc)
                if attempt == attempts:
                    raise DisplayUnavailable(
                        f"no display after {attempts} attempts: {exc}") from exc
                sleep(delay)
                delay = min(max_delay, delay * 2)
        pygame.event.set_blocked([pygame.MOUSEMOTION, pygame.FINGERMOTION,
                                  pygame.MOUSEWHEEL, pygame.JOYAXISMOTION])
        return self

    def close(self) -> None:
        if self._watch is not None:
            self._watch.close()
            self._watch = None
        pygame.display.quit()
        self.screen = None
        self.closed = True

    @property
    def size(self) -> tuple[int, int]:
        """The size the scenes are laid out for: the screen's, or turned with it."""
        return self.canvas.get_size()

    @property
    def canvas(self) -> pygame.Surface:
        """What the scenes are drawn on: the screen itself, or an upright picture of it."""
        assert self.screen is not None, "open() the kiosk first"
        return self._canvas if self._canvas is not None else self.screen

    def _fit_screen(self) -> None:
        """After the screen was opened or resized: turn the picture or not (rotation_for)."""
        assert self.screen is not None
        w, h = self.screen.get_size()
        self.rotation = rotation_for((w, h), self._fullscreen, self._want_rotate)
        self._canvas = (None if self.rotation == 0 else
                        pygame.Surface((h, w) if self.rotation in (90, 270) else (w, h)))
        self._keys = []

    def _present(self, rects: list[pygame.Rect] | None) -> None:
        """Put what was drawn on the screen: the whole of it, or only ``rects``."""
        if self._canvas is None:
            if rects is None:
                pygame.display.flip()
            else:
                pygame.display.update(rects)
            return
        assert self.screen is not None
        whole = self._canvas.get_rect()
        shown = []
        for rect in rects if rects is not None else [whole]:
            rect = rect.clip(whole)
            if rect.w and rect.h:
                turned = pygame.transform.rotate(self._canvas.subsurface(rect), -self.rotation)
                dest = self._screen_rect(rect)
                self.screen.blit(turned, dest.topleft)
                shown.append(dest)
        if rects is None:
            pygame.display.flip()
        else:
            pygame.display.update(shown)

    def _screen_rect(self, rect: pygame.Rect) -> pygame.Rect:
        """Where a rectangle of the upright canvas lies on the turned screen."""
        cw, ch = self.size
        if self.rotation == 90:
            return pygame.Rect(ch - rect.y - rect.h, rect.x, rect.h, rect.w)
        if self.rotation == 270:
            return pygame.Rect(rect.y, cw - rect.x - rect.w, rect.h, rect.w)
        if self.rotation == 180:
            return pygame.Rect(cw - rect.x - rect.w, ch - rect.y - rect.h, rect.w, rect.h)
        return pygame.Rect(rect)

    def screen_point(self, x: int, y: int) -> tuple[int, int]:
        """Where a point of the upright canvas (an element's centre) is on the screen."""
        return self._screen_rect(pygame.Rect(x, y, 1, 1)).topleft

    def _canvas_point(self, x: int, y: int) -> tuple[int, int]:
        """Where a point of the screen (a touch, a click) lies on the upright canvas."""
        cw, ch = self.size
        if self.rotation == 90:
            return y, ch - 1 - x
        if self.rotation == 270:
            return cw - 1 - y, x
        if self.rotation == 180:
            return cw - 1 - x, ch - 1 - y
        return x, y

    # ------------------------------------------------------------------ drawing
    def show(self, view: View) -> None:
        """Show a view; only the boxes that differ from the screen are redrawn."""
        if self.screen is None:
            self.open()
        if view != self.view:
            if self.view is None or view.scene != self.view.scene:
                # A loss report stays open over a new scene: it waits for its answer.
                keep = self.ui.confirm if self.ui.confirm == "notice" else ""
                self.ui = replace(self.ui, draft=frozenset(), focus=None, show_sheet=False,
                                  show_last_trick=False, picker=False, confirm=keep,
                                  show_analysis=False, series_end=False, show_stats=False,
                                  chosen=None)
            elif (self.ui.show_last_trick and view.play is not None
                  and self.view.play is not None and view.play.trick != self.view.play.trick):
                # A card was laid: the table moved on, the trick in the middle is the news
                # (the last trick, opened for a look, must not hide the next lead).
                self.ui = replace(self.ui, show_last_trick=False)
            self._open_notices(view)
            if self.ui.chosen is not None and not _holds(view, *self.ui.chosen):
                self.ui = replace(self.ui, chosen=None)  # laid (a key), or the deal moved on
            if self.view is None or view.refusal != self.view.refusal:
                self.ui = replace(self.ui, hide_refusal=False)
            if self.view is not None and (view.language, view.card_style) != (
                    self.view.language, self.view.card_style):
                self._keys = []  # every face, index and word changes: draw it all anew
            self.view = view
            self._wake()
        self._redraw()

    def _open_notices(self, view: View) -> None:
        """A loss report not shown before opens by itself (the top bar's pill opens it
        again); the dialog closes when none is left to confirm."""
        notices = {f.notice for f in view.faults if f.notice is not None}
        if notices - self._notices_seen:
            self._notices_seen |= notices
            # (over the settings too: the report is what the table must say first)
            self.ui = replace(self.ui, confirm="notice", focus=None, settings=False,
                              picker=False)
        elif not notices and self.ui.confirm == "notice":
            self.ui = replace(self.ui, confirm="", focus=None)

    def _wake(self) -> None:
        self._last_activity = self._now()
        if self._idle:
            self._idle = False

    def _shown_view(self) -> View | None:
        if self.view is None:
            return None
        if self._idle:
            return replace(self.view, scene="idle", refusal=None, prompt=None)
        return self.view

    def _redraw(self, full: bool = False) -> None:
        view = self._shown_view()
        if view is None or self.screen is None:
            return
        ui = replace(self.ui, clock=self._clock_text if self._idle else "")
        try:
            elements = self.renderer.layout(view, self.size, ui)
        except Exception:  # a view the scenes cannot draw must not take the table down
            log.exception("cannot lay out scene %s", view.scene)
            return
        keys = [_key(e) for e in elements]
        focus_moved = self.ui.focus != self._drawn_focus
        if keys == self._keys and not full and not focus_moved:
            self.elements = elements  # the same look, but the commands may be new ones
            return
        self._drawn_focus = self.ui.focus
        dirty = None
        if not (full or focus_moved or not self._keys):
            dirty = _dirty(self._keys, self._elements_rects(), keys, elements)
        self.elements = elements
        self._keys = keys
        if dirty is None or len(dirty) > 24:
            self.renderer.draw(self.canvas, view, elements, self.ui.focus)
            self._present(None)
        else:
            for rect in dirty:
                self.renderer.draw(self.canvas, view, elements, self.ui.focus, area=rect)
            self._present(dirty)
        self.frames += 1
        if self.first_frame_at is None:
            self.first_frame_at = time.perf_counter()

    def _elements_rects(self) -> list[pygame.Rect]:
        return [_ink(e) for e in self.elements]

    def screenshot(self, path: str | Path) -> Path:
        """Save what the screen shows now as a PNG."""
        assert self.screen is not None, "open() the kiosk first"
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        pygame.image.save(self.screen, str(path))
        return path

    # ------------------------------------------------------------------ input
    def wait_events(self, timeout: float) -> list[cmd.Command]:
        """Block until input arrives or ``timeout`` seconds pass; return the commands."""
        if self.screen is None:
            self.open()
        wait = timeout
        if self.view is not None and not self._idle and self.idle_after > 0:
            wait = min(wait, max(0.0, self._last_activity + self.idle_after - self._now()))
        elif self._idle:
            wait = min(wait, 60.0 - time.time() % 60 + 0.05)  # the idle clock's next minute
        events = self._block(wait)
        out: list[cmd.Command] = []
        for event in events:
            out += self.handle(event)
        self._check_idle()
        if any(isinstance(c, cmd.Quit) for c in out):
            self.closed = True
        for command in out:
            if self.on_command is not None:
                self.on_command(command)
        return out

    poll = wait_events

    def notify(self) -> None:
        """Wake a blocked :meth:`wait_events` at once; safe to call from any thread (a reader
        thread after queueing a card for the controller)."""
        if self._blocking_driver:
            pygame.event.post(pygame.event.Event(WAKE_EVENT))
        else:
            self._input_watch().wake()

    def _input_watch(self) -> InputWatch:
        if self._watch is None:
            self._watch = InputWatch(self.input_dir)
        return self._watch

    def _block(self, wait: float) -> list[pygame.event.Event]:
        """Sleep until input or ``wait`` seconds. SDL blocks for real on X11 and Wayland; on
        KMSDRM (the Pi without a desktop) and headless drivers its wait polls every
        millisecond, so there we sleep in ``select`` on the input devices and a wake-up pipe."""
        if self._blocking_driver:
            first = pygame.event.wait(max(1, int(wait * 1000)))
            events = [first] if first.type != pygame.NOEVENT else []
            return events + pygame.event.get()
        watch = self._input_watch()
        deadline = time.monotonic() + wait
        grace_until = 0.0
        while True:
            events = pygame.event.get()
            if events:
                return events
            now = time.monotonic()
            remaining = deadline - now
            if remaining <= 0:
                return []
            # A device had input that SDL has not made an event of yet: look again shortly.
            step = min(remaining, POLL_STEP) if now < grace_until else remaining
            woke = watch.wait(step)
            if woke == "woken":
                return pygame.event.get()
            if woke == "input":
                grace_until = time.monotonic() + INPUT_GRACE

    def _check_idle(self) -> None:
        if self.view is None or self.idle_after <= 0:
            return
        if not self._idle and self._now() - self._last_activity >= self.idle_after:
            self._idle = True
            self._clock_text = self._wall()
            self._redraw()
        elif self._idle and self._wall() != self._clock_text:
            self._clock_text = self._wall()
            self._redraw()

    def handle(self, event: pygame.event.Event) -> list[cmd.Command]:
        """One pygame event -> the commands it makes (often none)."""
        t = event.type
        if t == pygame.QUIT:
            return [cmd.Quit()]
        if t in (pygame.WINDOWEXPOSED, pygame.VIDEOEXPOSE, pygame.WINDOWSIZECHANGED,
                 pygame.VIDEORESIZE):
            self.screen = pygame.display.get_surface() or self.screen
            self._fit_screen()
            self._redraw(full=True)
            return []
        if t == pygame.FINGERDOWN:
            # A touch is where it is on the panel: on a turned picture, turned back.
            w, h = self.screen.get_size() if self.screen is not None else self.size
            return self._tap(*self._canvas_point(int(event.x * w), int(event.y * h)))
        if t == pygame.MOUSEBUTTONDOWN:
            if getattr(event, "touch", False) or event.button != 1:
                return []  # the mouse twin of a finger event, or a wheel/right click
            return self._tap(*self._canvas_point(*event.pos))
        if t == pygame.KEYDOWN:
            return self._key(event)
        return []

    def _tap(self, x: int, y: int) -> list[cmd.Command]:
        if self._wake_from_idle():
            return []
        for el in sorted(self.elements, key=lambda e: -e.layer):
            if not el.rect.collidepoint(x, y):
                continue
            if el.command is not None:
                if self.tap_twice and isinstance(el.command, cmd.LayCard):
                    return self._choose(el.command)
                return self._activate(el)
            if el.layer >= 2:
                # A banner or a dialog takes the taps on it (never the button under it); a
                # tap on the red banner closes it.
                if el.role == "refusal":
                    self._set_ui(hide_refusal=True)
                return []
        return []

    def _choose(self, c: cmd.LayCard) -> list[cmd.Command]:
        """A tap on a hand card with the guard on: the first chooses it, the second lays it."""
        if self.ui.chosen != (c.seat, c.card):
            self._set_ui(chosen=(c.seat, c.card))
            return []
        self._set_ui(chosen=None)
        return [c]

    def _wake_from_idle(self) -> bool:
        was = self._idle
        self._wake()
        if was:
            self._keys = []
            self._redraw(full=True)
        return was

    def _activate(self, el: Element) -> list[cmd.Command]:
        c = el.command
        if isinstance(c, ToggleModifier):
            draft = set(self.ui.draft) ^ {c.modifier}
            if c.modifier == "Z" and "Z" in draft:
                draft.add("S")      # schwarz announced includes schneider
            if c.modifier == "O" and "O" in draft:
                draft -= {"S", "Z"}  # ouvert already means both
            elif c.modifier in "SZ":
                draft.discard("O")
            self._set_ui(draft=frozenset(draft))
            return []
        if isinstance(c, OpenSettings):
            self._set_ui(settings=not self.ui.settings, picker=False, focus=None)
            return []
        if isinstance(c, cmd.SetLanguage) and el.role in ("language", "settings-language"):
            self._set_ui(picker=not self.ui.picker)
            return []
        if isinstance(c, cmd.SetLanguage):
            self._set_ui(picker=False)
            return [c]
        if isinstance(c, cmd.ShowSheet):
            self._set_ui(show_sheet=not self.ui.show_sheet, focus=None)
            return [c]
        if isinstance(c, cmd.ShowLastTrick):
            self._set_ui(show_last_trick=not self.ui.show_last_trick)
            return [c]
        if isinstance(c, cmd.ShowAnalysis):
            self._set_ui(show_analysis=not self.ui.show_analysis, focus=None)
            return []
        if isinstance(c, CloseDialog):
            self._set_ui(confirm="", focus=None)
            return []
        if isinstance(c, ShowNotice):
            self._set_ui(confirm="notice", focus=None)
            return []
        if isinstance(c, ShowSeriesEnd):
            self._set_ui(series_end=not self.ui.series_end, focus=None)
            return []
        if isinstance(c, ShowStats):
            self._set_ui(show_stats=not self.ui.show_stats, picker=False, focus=None)
            return []
        if isinstance(c, StatsPage):
            self._set_ui(stats_page=c.page, focus=None)
            return []
        if isinstance(c, AskFirst):
            self._set_ui(confirm=c.what, focus=None)
            return []
        if isinstance(c, cmd.Quit | cmd.DealNext) and self.ui.confirm in ("quit", "new-series"):
            self._set_ui(confirm="", focus=None)  # the answer to the question: it closes
        if isinstance(c, cmd.Press) and c.press == "concede" and self.ui.confirm != "concede":
            self._set_ui(confirm="concede", focus=None)  # asked first: see the dialog
            return []
        if isinstance(c, cmd.Press) and c.press == "concede":
            self._set_ui(confirm="", focus=None)
        if isinstance(c, cmd.Press) and c.press == "claim" and c.level is None:
            self._set_ui(confirm="claim", focus=None)  # which level: see the dialog
            return []
        if isinstance(c, cmd.Press) and c.press == "claim":
            self._set_ui(confirm="", focus=None)
        if isinstance(c, cmd.Declare):
            self._set_ui(draft=frozenset())
        return [c] if c is not None else []

    def _set_ui(self, **changes: object) -> None:
        self.ui = replace(self.ui, **changes)  # type: ignore[arg-type]
        self._redraw()

    def _actionable(self) -> list[Element]:
        """The tap targets a key may reach: those of an open dialog only, else all."""
        top = max((e.layer for e in self.elements if e.role == "modal"), default=None)
        return [e for e in self.elements
                if e.command is not None and (top is None or e.layer > top)]

    def _key(self, event: pygame.event.Event) -> list[cmd.Command]:
        if self._wake_from_idle():
            return []
        key = event.key
        view = self.view
        actionable = self._actionable()
        if key in (pygame.K_TAB, pygame.K_RIGHT, pygame.K_DOWN, pygame.K_LEFT, pygame.K_UP):
            if not actionable:
                return []
            back = key in (pygame.K_LEFT, pygame.K_UP) or (
                key == pygame.K_TAB and event.mod & pygame.KMOD_SHIFT)
            cur = self.ui.focus
            nxt = (0 if not back else len(actionable) - 1) if cur is None else (
                (cur + (-1 if back else 1)) % len(actionable))
            self._set_ui(focus=nxt)
            return []
        if key in (pygame.K_RETURN, pygame.K_KP_ENTER) or (
                key == pygame.K_SPACE and self.ui.focus is not None):
            if self.ui.focus is not None and self.ui.focus < len(actionable):
                return self._activate(actionable[self.ui.focus])
            return []
        if key == pygame.K_ESCAPE:
            if self.ui.show_stats:  # what lies over the statistics first, then they
                if self.ui.picker:
                    self._set_ui(picker=False, focus=None)
                elif self.ui.settings:
                    self._set_ui(settings=False, focus=None)
                else:  # back to where they were opened
                    self._set_ui(show_stats=False, focus=None)
                return []
            if self.ui.picker or self.ui.show_sheet or self.ui.confirm or self.ui.show_analysis:
                self._set_ui(picker=False, show_sheet=False, confirm="", focus=None,
                             show_analysis=False)
                return []
            if self.ui.settings:  # (a picker opened from the settings goes back to them)
                self._set_ui(settings=False, focus=None)
                return []
            if self.ui.series_end:
                self._set_ui(series_end=False, focus=None)
                return []
            if view is None or view.offer:  # nothing under way yet: the start's question
                return [cmd.Quit()]
            # Asked first: a key next to the digits must not end the table mid-game.
            self._set_ui(confirm="quit", focus=None)
            return []
        if view is None:
            return []
        return self._shortcut(key, view, actionable)

    def _shortcut(self, key: int, view: View, actionable: list[Element]) -> list[cmd.Command]:
        """Single keys for the simulator: every on-screen action also has a letter."""
        by_role = {e.role.split(" ")[0]: e for e in actionable}
        letters = {
            pygame.K_b: "press-bid", pygame.K_y: "press-yes", pygame.K_j: "press-yes",
            pygame.K_p: "press-pass", pygame.K_k: "press-skat", pygame.K_u: "undo",
            pygame.K_BACKSPACE: "undo", pygame.K_t: "last-button", pygame.K_s: "sheet-button",
            pygame.K_a: "concede", pygame.K_SPACE: "deal-next", pygame.K_d: "deal-next",
            pygame.K_x: "kontra", pygame.K_r: "re", pygame.K_n: "confirm-cancel",
            pygame.K_i: "standing-fault",  # a loss report to read: opens it
            pygame.K_h: "stats-back" if self.ui.show_stats else "stats-button",
        }
        if self.ui.confirm == "notice":
            letters = {pygame.K_n: "confirm-cancel", pygame.K_y: "notice-confirm"}
        elif self.ui.confirm == "quit":
            letters = {pygame.K_n: "confirm-cancel", pygame.K_y: "quit-confirm",
                       pygame.K_j: "quit-confirm"}
        elif self.ui.confirm == "new-series":
            letters = {pygame.K_n: "confirm-cancel", pygame.K_y: "confirm-new-series",
                       pygame.K_j: "confirm-new-series"}
        elif self.ui.confirm:
            letters = {pygame.K_n: "confirm-cancel"}
        if key == pygame.K_l:
            nxt = LANGUAGES[(LANGUAGES.index(view.language) + 1) % len(LANGUAGES)]
            return [cmd.SetLanguage(nxt)]
        if key == pygame.K_c:
            nxt = CARD_STYLES[(CARD_STYLES.index(view.card_style) + 1) % len(CARD_STYLES)]
            return [cmd.SetCardStyle(nxt)]
        if key in letters and letters[key] in by_role:
            return self._activate(by_role[letters[key]])
        if key in (pygame.K_SPACE, pygame.K_d) and not self.ui.confirm:
            # Space goes on as "Next deal" does: at a series' end to its summary, there to
            # a new series (which asks first).
            for role in ("series-end", "new-series"):
                if role in by_role:
                    return self._activate(by_role[role])
        decl = view.declaration
        discarding = decl is not None and decl.skat_taken and len(decl.discards) < 2
        if view.scene == "declaration" and not discarding:  # digits lay the discards first
            games = {pygame.K_1: "C", pygame.K_2: "S", pygame.K_3: "H", pygame.K_4: "D",
                     pygame.K_5: "G", pygame.K_6: "N", pygame.K_g: "G", pygame.K_n: "N"}
            mods = {pygame.K_F1: "S", pygame.K_F2: "Z", pygame.K_F3: "O", pygame.K_o: "O"}
            if key in games and f"declare-{games[key]}" in by_role:
                return self._activate(by_role[f"declare-{games[key]}"])
            if key in mods and f"mod-{mods[key]}" in by_role:
                return self._activate(by_role[f"mod-{mods[key]}"])
        digits = [pygame.K_1, pygame.K_2, pygame.K_3, pygame.K_4, pygame.K_5, pygame.K_6,
                  pygame.K_7, pygame.K_8, pygame.K_9, pygame.K_0, pygame.K_MINUS,
                  pygame.K_EQUALS]
        # (every name's button, confirmed or not: a name keeps its key once the other has
        # confirmed)
        confirms = [e for e in self.elements if e.role.startswith("confirm-result")]
        if key in digits and confirms and view.scene == "result":
            # A club's result to confirm: 1, 2, 3 touch the first, second, third name.
            i = digits.index(key)
            if i < len(confirms) and confirms[i] in actionable:
                return self._activate(confirms[i])
            return []
        if key in digits and view.turn is not None:
            # The n-th card of the hand of the seat to act (simulator: lay it).
            hand = [e for e in actionable if e.role == f"hand{view.turn}"]
            i = digits.index(key)
            if i < len(hand):
                return self._activate(hand[i])
        return []


def _holds(view: View, seat: int, card: object) -> bool:
    """Whether ``seat``'s hand on ``view`` still holds ``card`` (a card chosen to be laid)."""
    hand = view.hands[seat] if seat < len(view.hands) else None
    return bool(hand) and card in hand  # type: ignore[operator]


def rotation_for(size: tuple[int, int], fullscreen: bool, rotate: int | None) -> int:
    """How far the picture is turned clockwise on the panel: ``rotate`` as the config says
    (0, 90, 180, 270), or when it says nothing 90 on a full screen taller than wide. The
    table's scenes are made for a landscape screen; a panel that is portrait by default
    (the Raspberry Pi Touch Display 2, 720x1280) is mounted across the table and its
    picture turned, touches turned back. A window is never turned by itself.

    >>> rotation_for((720, 1280), True, None), rotation_for((720, 1280), False, None)
    (90, 0)
    >>> rotation_for((1280, 720), True, 270)
    270
    """
    if rotate is not None:
        return rotate % 360
    w, h = size
    return 90 if fullscreen and h > w else 0


def _key(e: Element) -> tuple:
    return (e.kind, tuple(e.rect), e.role, e.text, e.px, e.colour, e.fill, e.card, e.suit,
            e.selected, tuple(e.draw_rect) if e.draw_rect else None, e.layer, e.raised)


def _ink(e: Element) -> pygame.Rect:
    """Where an element's pixels may lie: its box, and what the renderer draws beyond it (a
    button's shadow below it, the disc behind a suit symbol), so that a partial redraw
    leaves nothing of it behind when it goes (a big screen's shadow is 7 px deep)."""
    rect = e.draw_rect or e.rect
    if e.kind == "button":
        return rect.union(rect.move(0, max(1, e.rect.h // 16)))
    if e.kind == "suit":
        return rect.inflate(rect.h // 5 + 2, rect.h // 5 + 2)
    return rect


def _dirty(old_keys: list[tuple], old_rects: list[pygame.Rect], new_keys: list[tuple],
           new: list[Element]) -> list[pygame.Rect]:
    """Rectangles where the old and new element lists differ."""
    old_set, new_set = set(old_keys), set(new_keys)
    rects = [r for k, r in zip(old_keys, old_rects, strict=True) if k not in new_set]
    rects += [_ink(e) for k, e in zip(new_keys, new, strict=True) if k not in old_set]
    merged: list[pygame.Rect] = []
    for r in rects:
        r = r.inflate(8, 8)  # focus rings and button shadows reach a little outside
        for m in merged:
            if m.colliderect(r):
                m.union_ip(r)
                break
        else:
            merged.append(r)
    return merged

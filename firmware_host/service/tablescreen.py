"""The real table's screen: the kiosk when it opens, and a table that plays on without it.

A screen that cannot be opened (no display connected, KMSDRM or EGL failing, a Mesa driver
missing) must not take the table down: the readers and buttons work without it. So
``skat-table run`` plays on without the screen: the game log goes to stderr (journald:
``journalctl -u skat-table``), the status line (``systemctl status``) ends in
``SCREEN DOWN: <why>``, the buzzer sounds its ``screen`` pattern once and the status light
(``[gpio] led``) flashes. The screen is tried again after :data:`RETRY_FIRST_S` seconds, then
half as often each time, at least every :data:`RETRY_MAX_S` seconds; when it opens, the kiosk
shows the table where it stands and the game log stops. A kiosk that cannot even be loaded
(pygame missing: an ``ImportError``) is not tried again, and the log says so.
"""

from __future__ import annotations

import contextlib
import logging
import queue
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

log = logging.getLogger("skat-table")

# At start, the kiosk's own retries (about 1.5 s of back-off) before the table plays on
# without it; then the loop tries once more after RETRY_FIRST_S, doubling to RETRY_MAX_S.
FIRST_ATTEMPTS = 3
RETRY_FIRST_S = 10.0
RETRY_MAX_S = 120.0
# The cause as the status line shows it (systemctl status cuts long lines).
FAULT_CHARS = 120


def fault_text(exc: BaseException) -> str:
    """One line of at most :data:`FAULT_CHARS` characters saying why the screen failed.

    >>> from display.kiosk import DisplayUnavailable
    >>> fault_text(DisplayUnavailable("no display after 3 attempts: kmsdrm not available"))
    'no display after 3 attempts: kmsdrm not available'
    >>> fault_text(ImportError("No module named 'pygame'"))
    "the kiosk cannot be loaded: No module named 'pygame'"
    """
    text = " ".join(str(exc).split()) or type(exc).__name__
    if isinstance(exc, ImportError):
        text = f"the kiosk cannot be loaded: {text}"
    return text if len(text) <= FAULT_CHARS else text[:FAULT_CHARS - 3] + "..."


@contextlib.contextmanager
def _quiet(name: str) -> Iterator[None]:
    """The kiosk logs a warning per failed attempt: a retry every two minutes says it once."""
    logger = logging.getLogger(name)
    level = logger.level
    logger.setLevel(logging.ERROR)
    try:
        yield
    finally:
        logger.setLevel(level)


class TableScreen:
    """The screen of an :class:`~firmware_host.service.runner.EventLoop` on the real table.

    ``open_screen(attempts)`` returns an opened kiosk (``show``, ``wait_events``, ``notify``,
    ``close``, ``closed``) or raises. :meth:`wait` is the loop's ``wait``: the kiosk's input
    while it is open, else the loop's queue, with a new try at the screen when one is due.
    """

    def __init__(self, loop: Any, open_screen: Callable[[int], Any], *,
                 clock: Callable[[], float] = time.monotonic,
                 first_attempts: int | None = None, retry_first: float | None = None,
                 retry_max: float | None = None) -> None:
        self.loop = loop
        self._open = open_screen
        self.clock = clock
        self.first_attempts = first_attempts or FIRST_ATTEMPTS
        self.retry_first = RETRY_FIRST_S if retry_first is None else retry_first
        self.retry_max = RETRY_MAX_S if retry_max is None else retry_max
        self.kiosk: Any = None
        self.stop = threading.Event()  # set when the kiosk's window is closed (Quit)
        self.retry_at: float | None = None  # None: no try is due (open, or never again)
        self.tries = 0
        self._delay = self.retry_first
        self._game_log: Any = None

    def start(self) -> bool:
        """Open the screen (the kiosk retries a little by itself); True when it opened."""
        return self._try(self.first_attempts)

    def _try(self, attempts: int) -> bool:
        self.tries += 1
        try:
            kiosk = self._open(attempts)
        except ImportError as exc:
            self._down(exc, again=False)
        except Exception as exc:  # DisplayUnavailable, and whatever else stops it
            self._down(exc, again=True)
        else:
            self._up(kiosk)
            return True
        return False

    def _down(self, exc: BaseException, again: bool) -> None:
        loop = self.loop
        text = fault_text(exc)
        first = loop.screen_fault is None
        if again:
            self.retry_at = self.clock() + self._delay
            when = f"tries it again in {self._delay:.0f} s"
            self._delay = min(self.retry_max, self._delay * 2)
        else:
            self.retry_at = None
            when = "will not try it again: reinstall (sudo systemd/install.sh)"
        if first:
            log.error("the screen cannot be opened: %s. The table plays on without it (cards, "
                      "buttons, this game log); it %s, then at least every %.0f s",
                      text, when, self.retry_max,
                      exc_info=not isinstance(exc, ImportError | RuntimeError))
            loop.screen_fault = text
            self._log_the_game()
            loop.sound("screen")
            if loop.running:
                loop.refresh()
        elif text != loop.screen_fault:
            log.error("the screen still cannot be opened: %s; it %s", text, when)
            loop.screen_fault = text
            loop.refresh()
        else:
            log.info("the screen still cannot be opened; it %s", when)

    def _up(self, kiosk: Any) -> None:
        loop = self.loop
        self.kiosk = kiosk
        self.retry_at = None
        self._delay = self.retry_first
        loop.show = kiosk.show
        loop.waker = kiosk.notify
        if loop.screen_fault is not None:
            log.warning("the screen works again (after %d tries): the kiosk shows the table",
                        self.tries)
            loop.screen_fault = None
        if self._game_log is not None:
            with contextlib.suppress(ValueError):
                loop.session.listeners.remove(self._game_log)
            self._game_log = None
        if loop.running:
            loop.refresh()

    def _log_the_game(self) -> None:
        """Without a screen the game is told in the log, as ``run --no-display`` does."""
        if self._game_log is None:
            from firmware_host.table.gamelog import GameLog

            self._game_log = GameLog(log.info, symbols=False, show_hands=False)
            self.loop.session.listeners.append(self._game_log)

    def wait(self, timeout: float) -> list[Any]:
        """Block for input at most ``timeout`` seconds; the loop's ``wait``."""
        if self.kiosk is not None:
            commands = self.kiosk.wait_events(timeout)
            if self.kiosk.closed:
                self.stop.set()
            return commands
        if self.retry_at is not None and self.clock() >= self.retry_at:
            with _quiet("display.kiosk"):
                opened = self._try(1)
            if opened:
                return []
        limit = timeout
        if self.retry_at is not None:
            limit = max(0.0, min(timeout, self.retry_at - self.clock()))
        try:
            return [self.loop.queue.get(timeout=limit)]
        except queue.Empty:
            return []

    def close(self) -> None:
        if self.kiosk is not None:
            self.kiosk.close()

"""Clocks the readers run on: real time on the table, virtual time in fast tests.

The MFRC522 driver waits on the chip's own timer by sleeping on a clock; the emulated chip
reads the same clock to decide what its registers say. With :class:`VirtualClock` a sleep
advances time at once, so a test of 1000 polls takes milliseconds yet follows the chip's timing.

>>> c = VirtualClock()
>>> c.sleep(0.015); round(c.now(), 6)
0.015
"""

from __future__ import annotations

import threading
import time
from typing import Protocol


class Clock(Protocol):
    def now(self) -> float: ...

    def sleep(self, seconds: float) -> None: ...


class RealClock:
    """``time.monotonic`` and ``time.sleep``."""

    def now(self) -> float:
        return time.monotonic()

    def sleep(self, seconds: float) -> None:
        if seconds > 0:
            time.sleep(seconds)


class VirtualClock:
    """Time that passes only when someone sleeps (thread-safe, so one poller may share it)."""

    def __init__(self, start: float = 0.0) -> None:
        self._t = start
        self._lock = threading.Lock()
        self.slept = 0.0

    def now(self) -> float:
        with self._lock:
            return self._t

    def sleep(self, seconds: float) -> None:
        if seconds > 0:
            with self._lock:
                self._t += seconds
                self.slept += seconds

    def advance(self, seconds: float) -> None:
        self.sleep(seconds)

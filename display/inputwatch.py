"""Sleep until the kernel has input for the screen, where SDL itself cannot block.

SDL's wait blocks for real only on X11 and Wayland; on KMSDRM (the Pi without a desktop) and
the headless drivers it polls every millisecond. The kiosk sleeps in ``select`` instead, on
the evdev devices (``/dev/input/event*``) that SDL reads too (the kernel gives every reader of
a device its own copy of each event) and on a wake-up pipe for other threads; when a device
has something, SDL's queue is pumped. An idle table then costs nothing and a touch is
answered at once. Devices plugged in later (a touchscreen switched on after the Pi) are picked
up at the next wait; one that goes away is dropped.
"""

from __future__ import annotations

import contextlib
import errno
import os
import select
from typing import Literal

Wakeup = Literal["input", "woken", "timeout"]


class InputWatch:
    """Evdev devices of ``directory`` plus a wake-up pipe, waited on with ``select``."""

    def __init__(self, directory: str = "/dev/input") -> None:
        self.directory = directory
        self._devices: dict[str, int] = {}
        self._names: frozenset[str] = frozenset()
        self._wake_r, self._wake_w = os.pipe()
        os.set_blocking(self._wake_r, False)
        os.set_blocking(self._wake_w, False)

    @property
    def devices(self) -> tuple[str, ...]:
        """The device files being watched now."""
        return tuple(sorted(self._devices))

    def wake(self) -> None:
        """End a :meth:`wait` at once; safe from any thread."""
        with contextlib.suppress(BlockingIOError):  # a full pipe has woken it already
            os.write(self._wake_w, b"\0")

    def wait(self, timeout: float) -> Wakeup:
        """Sleep until a device has input, :meth:`wake` is called, or ``timeout`` seconds."""
        self._refresh()
        fds = [self._wake_r, *self._devices.values()]
        ready, _, _ = select.select(fds, [], [], max(0.0, timeout))
        woken = self._wake_r in ready
        if woken:
            self._drain(self._wake_r)
        had_input = False
        for name, fd in list(self._devices.items()):
            if fd in ready:
                had_input = True
                if not self._drain(fd):
                    self._forget(name)
        if woken:
            return "woken"
        return "input" if had_input else "timeout"

    def close(self) -> None:
        for name in list(self._devices):
            self._forget(name)
        for fd in (self._wake_r, self._wake_w):
            with contextlib.suppress(OSError):
                os.close(fd)

    def _refresh(self) -> None:
        try:
            names = frozenset(n for n in os.listdir(self.directory) if n.startswith("event"))
        except OSError:  # no /dev/input at all: a container, a headless test machine
            names = frozenset()
        if names == self._names:
            return
        self._names = names
        for name in set(self._devices) - names:
            self._forget(name)
        for name in names - set(self._devices):
            path = os.path.join(self.directory, name)
            try:
                self._devices[name] = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
            except OSError:  # no permission (not in group input) or gone again: SDL can't either
                continue

    def _drain(self, fd: int) -> bool:
        """Read what is waiting (our copy only); False when the device has gone."""
        while True:
            try:
                if not os.read(fd, 4096):
                    return fd == self._wake_r  # end of file: an unplugged device
            except BlockingIOError:
                return True
            except OSError as exc:
                if exc.errno == errno.EINTR:
                    continue
                return False

    def _forget(self, name: str) -> None:
        fd = self._devices.pop(name, None)
        if fd is not None:
            with contextlib.suppress(OSError):
                os.close(fd)

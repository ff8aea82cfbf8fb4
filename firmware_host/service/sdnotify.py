"""The systemd notify protocol with the standard library: READY, STATUS, WATCHDOG, STOPPING.

systemd passes ``NOTIFY_SOCKET`` (a path, or ``@name`` for the abstract namespace) to a
``Type=notify`` service and ``WATCHDOG_USEC`` when ``WatchdogSec=`` is set. Outside systemd
every call is a no-op, so the controller calls these unconditionally.

>>> n = Notifier.from_environment({})
>>> n.enabled, n.ready()
(False, False)
"""

from __future__ import annotations

import os
import socket
import time
from collections.abc import Mapping

# Time each step of the start may take (seconds): see Notifier.starting.
STARTUP_STEP_S = 90.0


class Notifier:
    """Sends ``sd_notify`` datagrams; watchdog pings are rate-limited to half the interval."""

    def __init__(self, address: str | None, watchdog_usec: int | None = None) -> None:
        self.address = address
        self.watchdog_interval = watchdog_usec / 1e6 if watchdog_usec else None
        self._last_ping = 0.0
        self._sock: socket.socket | None = None

    @classmethod
    def from_environment(cls, env: Mapping[str, str] | None = None) -> Notifier:
        env = os.environ if env is None else env
        address = env.get("NOTIFY_SOCKET") or None
        watchdog = None
        raw = env.get("WATCHDOG_USEC")
        pid = env.get("WATCHDOG_PID")
        if raw and raw.isdigit() and (not pid or pid == str(os.getpid())):
            watchdog = int(raw)
        return cls(address, watchdog)

    @property
    def enabled(self) -> bool:
        return self.address is not None

    def send(self, *fields: str) -> bool:
        """One datagram of ``KEY=value`` lines; False when not under systemd or on failure."""
        if self.address is None:
            return False
        addr = self.address
        if addr.startswith("@"):
            addr = "\0" + addr[1:]
        try:
            if self._sock is None:
                self._sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC)
            self._sock.sendto("\n".join(fields).encode("utf-8"), addr)
        except OSError:
            return False
        return True

    def ready(self, status: str | None = None) -> bool:
        fields = ["READY=1"]
        if status:
            fields.append(f"STATUS={status}")
        return self.send(*fields)

    def status(self, text: str) -> bool:
        return self.send(f"STATUS={text}")

    def starting(self, what: str, seconds: float = STARTUP_STEP_S) -> bool:
        """A step of the start begins: systemd gives it ``seconds`` more (EXTEND_TIMEOUT_USEC)
        and shows ``starting: what``. A start that makes progress is never killed by the
        unit's TimeoutStartSec on a slow or busy machine (a long journal on an SD card, the
        twin under emulation); one that hangs in a step still is, after that step's time."""
        return self.send(f"EXTEND_TIMEOUT_USEC={round(seconds * 1_000_000)}",
                         f"STATUS=starting: {what}")

    def stopping(self, status: str | None = None) -> bool:
        return self.send("STOPPING=1", *([f"STATUS={status}"] if status else []))

    @property
    def ping_every(self) -> float | None:
        """How often the main loop must come round to keep the watchdog happy."""
        return None if self.watchdog_interval is None else self.watchdog_interval / 2

    def watchdog(self, now: float | None = None) -> bool:
        """Ping the watchdog if half its interval has passed since the last ping."""
        if self.watchdog_interval is None:
            return False
        now = time.monotonic() if now is None else now
        if now - self._last_ping < self.watchdog_interval / 2:
            return False
        self._last_ping = now
        return self.send("WATCHDOG=1")

    def close(self) -> None:
        if self._sock is not None:
            self._sock.close()
            self._sock = None

"""The director's login: wrong passwords counted and locked out per client address, each one
logged and kept for the director's page; the password hash in a worker thread, one at a time.

Without a limit a script tried about 20 passwords a second, and the right one after 100
wrong ones was accepted; the scrypt hash ran on the event loop, so 8 threads of guesses
slowed every page. Now the first ``FREE_FAILURES`` wrong passwords from an address (in
``WINDOW`` seconds, since its last good login) cost nothing more; then the address is locked,
``FIRST_LOCK`` seconds after its last failure, doubling with each further failure up to
``MAX_LOCK``. A locked address gets no password checked at all, the right one neither. The
attempts are stored (``logins``), so a restart does not open the door again.

>>> g = LoginGuard(Store(":memory:"), clock=lambda: 1000.0)
>>> for _ in range(5):
...     g.begin("10.0.0.9")
...     g.finish("10.0.0.9", False)
0
0
0
0
0
>>> g.begin("10.0.0.9"), g.begin("10.0.0.7")
(60, 0)
"""

from __future__ import annotations

import logging
import math
import threading
import time
from collections import Counter
from collections.abc import Callable

from club.config import check_password
from club.store import Store

log = logging.getLogger("club")

FREE_FAILURES = 5
WINDOW = 15 * 60
FIRST_LOCK = 60
MAX_LOCK = 15 * 60
MAX_PASSWORD = 1024       # scrypt takes any length; a megabyte of "password" is no password


class LoginGuard:
    """Counts the director's login attempts per client address (thread-safe)."""

    def __init__(self, store: Store, clock: Callable[[], float] = time.time) -> None:
        self.store = store
        self.clock = clock
        self._lock = threading.Lock()
        self._hashing = threading.Lock()     # one scrypt at a time: a CPU core at most
        self._pending: Counter[str] = Counter()

    def _locked_for(self, address: str, extra: int = 0) -> int:
        now = self.clock()
        failures = self.store.login_failures(address, since=now - WINDOW)
        n = len(failures) + extra
        if n < FREE_FAILURES:
            return 0
        if len(failures) < FREE_FAILURES:
            return 1      # attempts under way would pass the limit: the next one waits for them
        lock = min(MAX_LOCK, FIRST_LOCK * 2 ** (len(failures) - FREE_FAILURES))
        return max(0, math.ceil(failures[-1] + lock - now))

    def begin(self, address: str) -> int:
        """0: check this attempt (call :meth:`finish` after); otherwise the seconds the address
        stays locked (nothing is checked)."""
        with self._lock:
            wait = self._locked_for(address, self._pending[address])
            if wait:
                log.warning("club: director login from %s refused unchecked: locked for %d s",
                            address, wait)
                return wait
            self._pending[address] += 1
            return 0

    def check(self, stored_hash: str | None, password: str) -> bool:
        """The password against the configured hash (run it in a worker thread)."""
        if stored_hash is None or len(password) > MAX_PASSWORD:
            return False
        with self._hashing:
            return check_password(stored_hash, password)

    def finish(self, address: str, ok: bool) -> None:
        with self._lock:
            self._pending[address] -= 1
            if self._pending[address] <= 0:
                del self._pending[address]
            self.store.add_login(self.clock(), address, ok)
            if not ok:
                n = len(self.store.login_failures(address, since=self.clock() - WINDOW))
                log.warning("club: wrong director password from %s (%d in %d min)%s", address,
                            n, WINDOW // 60, "; locked" if n >= FREE_FAILURES else "")

    def recent_failures(self, limit: int = 20) -> list[dict[str, object]]:
        """The last wrong passwords (for the director's page), newest first."""
        return self.store.logins(limit, ok=False)

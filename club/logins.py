"""The directors' login: wrong passwords counted and locked out per client address and director
name, each one logged and kept for the director's page; the password hash in a worker thread,
one at a time.

Without a limit a script tried about 20 passwords a second, and the right one after 100
wrong ones was accepted; the scrypt hash ran on the event loop, so 8 threads of guesses
slowed every page. Now the first ``FREE_FAILURES`` wrong passwords from an address (in
``WINDOW`` seconds, since its last good login) cost nothing more; then the address is locked,
``FIRST_LOCK`` seconds after its last failure, doubling with each further failure up to
``MAX_LOCK``. A locked address gets no password checked at all, the right one neither. Each
director has their own count: two directors at the same laptop do not lock each other out (a
name that is no director's counts as one more, ``UNKNOWN``, so that made-up names buy no more
guesses). The attempts are stored (``logins``), so a restart does not open the door again.

>>> g = LoginGuard(Store(":memory:"), clock=lambda: 1000.0)
>>> for _ in range(5):
...     g.begin("10.0.0.9")
...     g.finish("10.0.0.9", False)
0
0
0
0
0
>>> g.begin("10.0.0.9"), g.begin("10.0.0.7"), g.begin("10.0.0.9", "Anna")
(60, 0, 0)
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
UNKNOWN = "(no such director)"
# checked when the name is no director's, so that an unknown name takes as long as a known one
_NO_HASH = ("scrypt$16384$8$1$AAAAAAAAAAAAAAAAAAAAAA==$"
            "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=")


class LoginGuard:
    """Counts the director's login attempts per client address (thread-safe)."""

    def __init__(self, store: Store, clock: Callable[[], float] = time.time) -> None:
        self.store = store
        self.clock = clock
        self._lock = threading.Lock()
        self._hashing = threading.Lock()     # one scrypt at a time: a CPU core at most
        self._pending: Counter[tuple[str, str]] = Counter()

    def _locked_for(self, address: str, name: str, extra: int = 0) -> int:
        now = self.clock()
        failures = self.store.login_failures(address, since=now - WINDOW, name=name)
        n = len(failures) + extra
        if n < FREE_FAILURES:
            return 0
        if len(failures) < FREE_FAILURES:
            return 1      # attempts under way would pass the limit: the next one waits for them
        lock = min(MAX_LOCK, FIRST_LOCK * 2 ** (len(failures) - FREE_FAILURES))
        return max(0, math.ceil(failures[-1] + lock - now))

    def begin(self, address: str, name: str = "") -> int:
        """0: check this attempt (call :meth:`finish` after); otherwise the seconds the address
        stays locked for director ``name`` (nothing is checked)."""
        with self._lock:
            wait = self._locked_for(address, name, self._pending[address, name])
            if wait:
                log.warning("club: director login from %s refused unchecked: locked for %d s%s",
                            address, wait, f" (director {name})" if name else "")
                return wait
            self._pending[address, name] += 1
            return 0

    def check(self, stored_hash: str | None, password: str) -> bool:
        """The password against the director's hash (run it in a worker thread). No hash (no
        such director): a hash is checked all the same, and the answer is no."""
        if len(password) > MAX_PASSWORD:
            return False
        with self._hashing:
            ok = check_password(stored_hash or _NO_HASH, password)
        return ok and stored_hash is not None

    def finish(self, address: str, ok: bool, name: str = "") -> None:
        with self._lock:
            self._pending[address, name] -= 1
            if self._pending[address, name] <= 0:
                del self._pending[address, name]
            self.store.add_login(self.clock(), address, ok, name)
            if not ok:
                n = len(self.store.login_failures(address, since=self.clock() - WINDOW,
                                                  name=name))
                log.warning("club: wrong director password from %s (%d in %d min%s)%s",
                            address, n, WINDOW // 60, f", director {name}" if name else "",
                            "; locked" if n >= FREE_FAILURES else "")

    def recent_failures(self, limit: int = 20) -> list[dict[str, object]]:
        """The last wrong passwords (for the director's page), newest first."""
        return self.store.logins(limit, ok=False)

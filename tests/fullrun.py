"""Whether this is the full run (``make test-full`` sets ``SKAT_TEST_FULL=1``).

``make test`` leaves out the tests marked ``full`` (``tests/conftest.py``) and runs the short
form of some others; in the full run they take their full size::

    from fullrun import FULL, size
    KILLS = size(40, 100)  # 40 in make test, 100 in make test-full
"""

from __future__ import annotations

import os

FULL = os.environ.get("SKAT_TEST_FULL", "") not in ("", "0")


def size(short: int, full: int) -> int:
    """``short`` in ``make test``, ``full`` in ``make test-full``."""
    return full if FULL else short

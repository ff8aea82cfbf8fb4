"""The one gpiozero pin factory the table's devices share, created once under a lock.

A gpiozero device built without ``pin_factory`` calls ``Device.ensure_pin_factory()``, which
creates the default factory (lgpio on a Pi) when ``Device.pin_factory`` is None, with no lock:
two threads building their first devices at once (the reader poller opening a reader with a
reset pin while the main thread sets up the buttons) can each create a factory: each opens
the GPIO chip, a pin reserved on one is not seen by the other, and the one overwritten is never
closed (gpiozero closes ``Device.pin_factory`` at exit). Every
device in ``drivers`` is built with :func:`pin_factory` instead, which creates the default
one once and hands the same one to every thread.

>>> from gpiozero.pins.mock import MockFactory
>>> mine = MockFactory()
>>> pin_factory(mine) is mine
True
"""

from __future__ import annotations

import threading
from typing import Any

_lock = threading.Lock()


def pin_factory(given: Any = None) -> Any:
    """``given`` if it is a factory, else gpiozero's default factory (``Device.pin_factory``),
    created by the first caller while any other waits."""
    if given is not None:
        return given
    from gpiozero import Device  # imported when a device is built, as everywhere in drivers

    with _lock:
        if Device.pin_factory is None:
            Device.ensure_pin_factory()
        return Device.pin_factory

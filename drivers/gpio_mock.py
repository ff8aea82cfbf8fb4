"""A gpiozero mock pin that honours ``bounce_time``, for tests and the simulator.

gpiozero's ``MockPin`` accepts a bounce time but ignores it, while the pin factories of the
Pi filter bounces (the native factory drops an edge that comes within ``bounce`` seconds of the
last one it reported; lgpio uses the kernel's debounce). :class:`BouncingMockPin` does what the
native factory does, so a test can show that a bouncing contact gives one press.

>>> from gpiozero import Button
>>> factory = mock_factory()
>>> button = Button(5, bounce_time=0.05, pin_factory=factory)
>>> presses = []
>>> button.when_pressed = lambda: presses.append(1)
>>> for _ in range(3):  # a contact bouncing for a millisecond
...     button.pin.drive_low(); button.pin.drive_high()
>>> button.pin.drive_low()
>>> len(presses)
1
>>> button.close()
"""

from __future__ import annotations

from typing import Any

from gpiozero.pins.mock import MockFactory, MockPin


class BouncingMockPin(MockPin):
    """A :class:`MockPin` whose edge events are filtered by the pin's bounce time."""

    def __init__(self, factory: Any, info: Any) -> None:
        super().__init__(factory, info)
        self._last_call: float | None = None

    def _call_when_changed(self) -> None:
        ticks = self._last_change
        if self._bounce is None or self._last_call is None or ticks - self._last_call > (
            self._bounce
        ):
            self._last_call = ticks
            super()._call_when_changed()


def mock_factory() -> MockFactory:
    """A ``MockFactory`` whose pins debounce like the Pi's."""
    return MockFactory(pin_class=BouncingMockPin)

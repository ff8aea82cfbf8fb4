"""Buttons, turn lights and buzzer of the table, on gpiozero (so any pin factory works: lgpio
on a Pi 5, MockFactory in tests).

Per seat: a ``bid`` button (bid / yes), a ``pass`` button, optionally an ``undo`` button, and
a turn light. A short press is posted as :class:`ButtonPress` when the button is released; a
press held ``hold_time`` seconds (1 s by default) is posted as :class:`ButtonHold` instead (the
long press: undo), so a long press never also bids. Debouncing is gpiozero's ``bounce_time``;
holds are its ``when_held``. An optional status light (``led``) is steady while all is well
and flashes while a reader is down (:meth:`TableIO.show_status`).

Turn lights (:meth:`TableIO.show_turn`): the seat to act is lit steadily; forehand, like the
"green flag" of the rule texts, flashes briefly every 1.5 s while another seat acts; when
forehand is to act the light is on with a short dark blink.

Buzzer patterns (:data:`BUZZ_PATTERNS`): ``refused`` (three short beeps: a card or press the
rules refuse), ``fault`` (two long beeps: a reader stopped working), ``storage`` (four
medium beeps: a card or press not taken because the storage cannot save it: full,
read-only or failing), ``trick`` (one click: a trick was taken), ``screen`` (three long
beeps: the screen cannot be opened and the table plays on without it).

Config (``[gpio]``; pins are BCM numbers or gpiozero pin names)::

    buzzer = 27
    bounce_time = 0.02          # seconds, optional
    hold_time = 1.0             # seconds, optional
    seats = [{bid = 5, pass = 6, light = 13}, {bid = 12, pass = 26, light = 22}, ...]
    # or one table per seat: [gpio.seat0] bid = 5, pass = 6, light = 13 (undo = .. optional)
    # led = 14                  # status light, optional

(The pins of ``docs/hardware.md`` leave SPI0 and SPI1 with three chip selects free.)

>>> from gpiozero.pins.mock import MockFactory
>>> events = []
>>> io = TableIO([{"bid": 5, "pass": 6, "light": 13}], events.append, buzzer=27,
...              pin_factory=MockFactory())
>>> io.press(0, "bid")
>>> events
[ButtonPress(seat=0, button='bid')]
>>> io.close()
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from drivers.events import ButtonHold, ButtonPress, Event, EventSink, as_callback, guarded
from drivers.pins import pin_factory as shared_pin_factory
from drivers.quoting import quoted

log = logging.getLogger(__name__)

BUTTONS = ("bid", "pass")
OPTIONAL_BUTTONS = ("undo",)  # a seat may have its own undo button besides the long press


@dataclass(frozen=True, slots=True)
class Beep:
    """A buzzer pattern: ``count`` beeps of ``on`` seconds with ``off`` seconds between."""

    on: float
    off: float
    count: int


BUZZ_PATTERNS: dict[str, Beep] = {
    "refused": Beep(0.08, 0.08, 3),
    "fault": Beep(0.5, 0.25, 2),
    "storage": Beep(0.25, 0.12, 4),
    "trick": Beep(0.04, 0.0, 1),
    "screen": Beep(1.0, 0.3, 3),
}

# (on, off) seconds of the turn light: to act, forehand waiting, forehand to act.
LIGHT_TO_ACT = None  # steady
LIGHT_FOREHAND = (0.1, 1.4)
LIGHT_FOREHAND_TO_ACT = (1.4, 0.1)


class GpioConfigError(ValueError):
    """A ``[gpio]`` setting that cannot work; the message names the key."""


def _pin(value: object, where: str) -> int | str:
    if isinstance(value, bool) or not isinstance(value, int | str) or value == "":
        raise GpioConfigError(f"{where} must be a GPIO number (e.g. 17) or pin name, "
                              f"not {quoted(value)}")
    return value


class TableIO:
    """The seats' buttons and lights and the buzzer, posting button events to ``on_event``."""

    def __init__(
        self,
        seats: Sequence[Mapping[str, Any]],
        on_event: EventSink,
        *,
        buzzer: int | str | None = None,
        status_led: int | str | None = None,
        pin_factory: Any = None,
        bounce_time: float | None = 0.02,
        hold_time: float = 1.0,
    ) -> None:
        from gpiozero import LED, Button, Buzzer
        from gpiozero.exc import PinInvalidPin

        pin_factory = shared_pin_factory(pin_factory)  # gpiozero's own default is not locked

        if len(seats) > 4:
            raise GpioConfigError(f"gpio.seats lists {len(seats)} seats; a table has at most 4")
        # gpiozero calls back from its own threads: a failing receiver must not kill them.
        self._post: Callable[[Event], None] = guarded(as_callback(on_event), log)
        used: dict[str, str] = {}

        def claim(value: object, where: str) -> int | str:
            pin = _pin(value, where)
            if str(pin) in used:
                raise GpioConfigError(f"{where}: pin {quoted(pin)} is already used by "
                                      f"{used[str(pin)]}")
            used[str(pin)] = where
            return pin

        def device(cls: Any, value: object, where: str, **options: Any) -> Any:
            pin = claim(value, where)
            try:
                return cls(pin, pin_factory=pin_factory, **options)
            except PinInvalidPin:
                # gpiozero's message repeats the whole name and not the key it came from
                raise GpioConfigError(f"{where}: {quoted(pin)} is not a valid pin (a GPIO "
                                      "number, e.g. 17, or a name, e.g. \"GPIO17\")") from None

        self._devices: list[Any] = []
        self.buttons: dict[tuple[int, str], Any] = {}
        self.lights: list[Any] = []
        self._light_state: list[object] = []
        self._held: set[tuple[int, str]] = set()
        self._lock = threading.Lock()
        try:
            for seat, pins in enumerate(seats):
                for name in BUTTONS + OPTIONAL_BUTTONS:
                    if name not in pins:
                        if name in OPTIONAL_BUTTONS:
                            continue
                        raise GpioConfigError(f"gpio.seats[{seat}].{name} is missing")
                    button = device(
                        Button, pins[name], f"gpio.seats[{seat}].{name}", pull_up=True,
                        bounce_time=bounce_time, hold_time=hold_time,
                    )
                    button.when_held = self._handler(seat, name, "held")
                    button.when_released = self._handler(seat, name, "released")
                    button.when_pressed = self._handler(seat, name, "pressed")
                    self.buttons[(seat, name)] = button
                    self._devices.append(button)
                if pins.get("light") is not None:
                    led = device(LED, pins["light"], f"gpio.seats[{seat}].light")
                    self._devices.append(led)
                    self.lights.append(led)
                else:
                    self.lights.append(None)
                self._light_state.append(None)
            self.buzzer = None
            if buzzer is not None:
                self.buzzer = device(Buzzer, buzzer, "gpio.buzzer")
                self._devices.append(self.buzzer)
            self.status_led = None
            if status_led is not None:
                self.status_led = device(LED, status_led, "gpio.led")
                self._devices.append(self.status_led)
                self.status_led.on()
        except BaseException:
            self.close()
            raise

    @classmethod
    def from_config(cls, table: Any, on_event: EventSink, *,
                    pin_factory: Any = None) -> TableIO:
        """From the ``[gpio]`` table: ``seats = [{bid, pass, light, undo}, ...]`` or one
        ``[gpio.seat<N>]`` table per seat; ``buzzer``; ``led`` (a status light);
        ``bounce_time``; ``hold_time``.

        A parsed config object with attributes ``seat_buttons`` (one mapping per seat),
        ``buzzer`` and ``led`` is taken as well.
        """
        if not isinstance(table, Mapping):
            if not hasattr(table, "seat_buttons"):
                raise GpioConfigError("gpio: expected the [gpio] table")
            table = {
                "seats": [dict(s) for s in table.seat_buttons],
                **{k: getattr(table, k) for k in ("buzzer", "led", "bounce_time", "hold_time")
                   if getattr(table, k, None) is not None},
            }
        seat_tables = sorted(k for k in table if k.startswith("seat") and k[4:].isdigit())
        if seat_tables and "seats" in table:
            raise GpioConfigError("gpio: give seats = [...] or [gpio.seat0] tables, not both")
        if seat_tables:
            numbers = sorted(int(k[4:]) for k in seat_tables)
            if numbers != list(range(len(numbers))):
                raise GpioConfigError(f"gpio: seat tables must be seat0..seat{len(numbers) - 1}")
            seats = [table[f"seat{n}"] for n in numbers]
            for n, seat in zip(numbers, seats, strict=True):
                if not isinstance(seat, Mapping):
                    raise GpioConfigError(f"gpio.seat{n} must be a table of pins "
                                          f"(bid = .., pass = ..), not {quoted(seat)}")
        else:
            seats = table.get("seats", [])
        if isinstance(seats, str | bytes) or not isinstance(seats, Sequence) or not all(
            isinstance(s, Mapping) for s in seats
        ):
            raise GpioConfigError("gpio.seats must be a list of {bid = .., pass = .., light = ..}")
        for key in ("bounce_time", "hold_time"):
            value = table.get(key)
            if value is not None and (
                isinstance(value, bool) or not isinstance(value, int | float) or value < 0
            ):
                raise GpioConfigError(
                    f"gpio.{key} must be seconds (a number from 0), not {quoted(value)}"
                )
        return cls(
            seats, on_event, buzzer=table.get("buzzer"), status_led=table.get("led"),
            pin_factory=pin_factory, bounce_time=table.get("bounce_time", 0.02),
            hold_time=table.get("hold_time", 1.0),
        )

    def _handler(self, seat: int, button: str, what: str) -> Callable[[], None]:
        key = (seat, button)

        def handle() -> None:
            with self._lock:
                if what == "pressed":
                    self._held.discard(key)
                    return
                if what == "held":
                    self._held.add(key)
                    event: Event = ButtonHold(seat, button)
                elif key in self._held:
                    self._held.discard(key)
                    return  # the release that ends a hold is no press
                else:
                    event = ButtonPress(seat, button)
            self._post(event)

        return handle

    # -- outputs -------------------------------------------------------------------------------
    def show_turn(self, to_act: int | None, forehand: int | None = None) -> None:
        """Light the seat to act; show forehand distinctly (see the module docstring)."""
        for seat, led in enumerate(self.lights):
            if led is None:
                continue
            if seat == to_act and seat == forehand:
                state: object = LIGHT_FOREHAND_TO_ACT
            elif seat == to_act:
                state = "on"
            elif seat == forehand:
                state = LIGHT_FOREHAND
            else:
                state = "off"
            if state == self._light_state[seat]:
                continue  # re-blinking on every refresh would restart the flash
            self._light_state[seat] = state
            if isinstance(state, tuple):
                led.blink(*state)
            elif state == "on":
                led.on()
            else:
                led.off()

    def show_status(self, fault: bool) -> None:
        """The status light: steady while all is well, flashing fast while a reader is down."""
        if self.status_led is not None:
            if fault:
                self.status_led.blink(0.15, 0.15)
            else:
                self.status_led.on()

    def buzz(self, pattern: str, wait: bool = False) -> None:
        """Sound a pattern of :data:`BUZZ_PATTERNS`; in the background unless ``wait``."""
        beep = BUZZ_PATTERNS.get(pattern)
        if beep is None:
            raise ValueError(
                f"no buzzer pattern {quoted(pattern)}: use one of {', '.join(BUZZ_PATTERNS)}"
            )
        if self.buzzer is not None:
            self.buzzer.beep(beep.on, beep.off, n=beep.count, background=not wait)

    def beep(self, pattern: str = "refused") -> None:
        """The controller's hook for a refused input (any pattern may be named)."""
        self.buzz(pattern)

    # -- for the simulator and tests --------------------------------------------------------------
    def press(self, seat: int, button: str, duration: float | None = None) -> None:
        """Press a button for ``duration`` seconds (default: just past the bounce time) and
        release it, as a finger would; only with a mock pin factory."""
        device = self.buttons[(seat, button)]
        if duration is None:
            duration = 2 * (device.pin.bounce or 0.0)
        device.pin.drive_low()
        time.sleep(duration)
        device.pin.drive_high()

    def close(self) -> None:
        for device in reversed(self._devices):
            device.close()
        self._devices = []

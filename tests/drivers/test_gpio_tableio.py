"""Buttons, lights and buzzer with gpiozero's MockFactory (pins that debounce like the Pi's)."""

from __future__ import annotations

import queue
import time

import pytest

from drivers.events import ButtonHold, ButtonPress
from drivers.gpio import BUZZ_PATTERNS, GpioConfigError, TableIO
from drivers.gpio_mock import mock_factory

SEATS = [{"bid": 5, "pass": 6, "light": 13}, {"bid": 19, "pass": 26, "light": 12},
         {"bid": 20, "pass": 21, "light": 16}]


@pytest.fixture
def io():
    events: queue.Queue = queue.Queue()
    # hold_time well above a short press's 30-50 ms: on a loaded 2-core machine a sleep of 30 ms
    # took over 300 ms once, and the press became a hold
    table = TableIO(SEATS, events, buzzer=18, pin_factory=mock_factory(),
                    bounce_time=0.02, hold_time=1.0)
    yield table, events
    table.close()


def take(events: queue.Queue) -> list:
    out = []
    while not events.empty():
        out.append(events.get_nowait())
    return out


def test_a_press_is_one_event_on_release(io) -> None:
    table, events = io
    pin = table.buttons[(1, "pass")].pin
    pin.drive_low()
    assert take(events) == []  # not yet: it might become a long press
    time.sleep(0.03)
    pin.drive_high()
    assert take(events) == [ButtonPress(1, "pass")]
    table.press(2, "bid")
    assert take(events) == [ButtonPress(2, "bid")]


def test_a_bouncing_contact_gives_one_press(io) -> None:
    table, events = io
    pin = table.buttons[(0, "bid")].pin
    for _ in range(5):  # a millisecond of chatter as the contact closes
        pin.drive_low()
        pin.drive_high()
    pin.drive_low()
    time.sleep(0.05)
    for _ in range(5):  # and as it opens
        pin.drive_high()
        pin.drive_low()
    pin.drive_high()
    time.sleep(0.05)
    assert take(events) == [ButtonPress(0, "bid")]


def test_a_long_press_is_a_hold_and_no_press(io) -> None:
    table, events = io
    pin = table.buttons[(0, "pass")].pin
    pin.drive_low()
    assert events.get(timeout=5) == ButtonHold(0, "pass")
    pin.drive_high()
    time.sleep(0.05)
    assert take(events) == []
    table.press(0, "pass")  # the next short press is a press again
    assert take(events) == [ButtonPress(0, "pass")]


def _toggles(led, count: int, timeout: float = 5.0) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if len(led.pin.states) >= count:
            return True
        time.sleep(0.01)
    return False


def test_turn_lights(io) -> None:
    table, _ = io
    for led in table.lights:
        led.pin.clear_states()
    table.show_turn(to_act=1, forehand=2)
    assert table.lights[1].is_lit and not table.lights[0].is_lit
    assert _toggles(table.lights[2], 3)  # forehand flashes, the others do not
    assert len(table.lights[0].pin.states) == 1
    table.show_turn(to_act=2, forehand=2)
    assert not table.lights[1].is_lit
    table.lights[2].pin.clear_states()
    assert _toggles(table.lights[2], 3)
    table.show_turn(None)
    assert not any(led.is_lit for led in table.lights)


@pytest.mark.parametrize("pattern", sorted(BUZZ_PATTERNS))
def test_buzzer_patterns_are_distinct(io, pattern: str) -> None:
    table, _ = io
    pin = table.buzzer.pin
    pin.clear_states()
    table.buzz(pattern, wait=True)
    ons = [s for s in pin.states if s.state]
    assert len(ons) == BUZZ_PATTERNS[pattern].count
    assert not pin.state
    with pytest.raises(ValueError, match="no buzzer pattern 'tune'"):
        table.buzz("tune")


def test_patterns_differ_in_count_or_length() -> None:
    shapes = {(b.count, b.on) for b in BUZZ_PATTERNS.values()}
    assert len(shapes) == len(BUZZ_PATTERNS)


@pytest.mark.parametrize(
    ("config", "message"),
    [
        ({"seats": [{"bid": 5, "pass": 5}]}, r"gpio.seats\[0\].pass: pin 5 is already"),
        ({"seats": [{"bid": 5}]}, r"gpio.seats\[0\].pass is missing"),
        ({"seats": [{"bid": 5, "pass": True}]}, "must be a GPIO number"),
        ({"seats": [{"bid": 5, "pass": 6}], "buzzer": 6}, "gpio.buzzer: pin 6 is already"),
        ({"seats": "5,6"}, "must be a list"),
        ({"seats": [], "hold_time": -1}, "gpio.hold_time must be seconds"),
        ({"seats": [{"bid": i, "pass": i + 10} for i in range(5)]}, "at most 4"),
    ],
)
def test_bad_gpio_config_is_refused_with_the_key(config: dict, message: str) -> None:
    with pytest.raises(GpioConfigError, match=message):
        TableIO.from_config(config, lambda e: None, pin_factory=mock_factory())


def test_from_config_builds_seats_and_buzzer() -> None:
    events: list = []
    table = TableIO.from_config({"seats": SEATS, "buzzer": 18, "bounce_time": 0.01},
                                events.append, pin_factory=mock_factory())
    try:
        assert len(table.lights) == 3 and table.buzzer is not None
        table.press(2, "pass")
        assert events == [ButtonPress(2, "pass")]
    finally:
        table.close()


def test_seat_tables_undo_button_status_light_and_beep_hook() -> None:
    events: list = []
    table = TableIO.from_config(
        {"seat0": {"bid": 5, "pass": 6, "undo": 16}, "seat1": {"bid": 12, "pass": 26},
         "buzzer": 27, "led": 14},
        events.append, pin_factory=mock_factory())
    try:
        table.press(0, "undo")
        assert events == [ButtonPress(0, "undo")]
        assert table.status_led.is_lit
        table.status_led.pin.clear_states()
        table.show_status(fault=True)
        assert _toggles(table.status_led, 3)
        table.show_status(fault=False)
        assert table.status_led.is_lit
        table.buzzer.pin.clear_states()
        table.beep()
        assert _toggles(table.buzzer, 2)
    finally:
        table.close()
    with pytest.raises(GpioConfigError, match="not both"):
        TableIO.from_config({"seats": [], "seat0": {"bid": 1, "pass": 2}}, events.append,
                            pin_factory=mock_factory())
    with pytest.raises(GpioConfigError, match=r"seat0\.\.seat1"):
        TableIO.from_config({"seat0": {"bid": 1, "pass": 2}, "seat2": {"bid": 3, "pass": 4}},
                            events.append, pin_factory=mock_factory())


def test_repeating_the_same_turn_does_not_restart_the_flash(io) -> None:
    table, _ = io
    table.show_turn(to_act=0, forehand=1)
    thread = table.lights[1]._blink_thread
    table.show_turn(to_act=0, forehand=1)
    assert table.lights[1]._blink_thread is thread


def test_from_a_parsed_config_object() -> None:
    from dataclasses import dataclass

    @dataclass
    class Gpio:
        seat_buttons: tuple = ({"bid": 5, "pass": 6}, {"bid": 12, "pass": 26, "undo": 16})
        buzzer: int | None = 27
        led: int | None = None

    events: list = []
    table = TableIO.from_config(Gpio(), events.append, pin_factory=mock_factory())
    try:
        table.press(1, "undo")
        assert events == [ButtonPress(1, "undo")] and table.buzzer is not None
    finally:
        table.close()
    with pytest.raises(GpioConfigError, match="expected the"):
        TableIO.from_config(42, events.append, pin_factory=mock_factory())


def test_two_threads_building_their_first_devices_get_one_pin_factory(monkeypatch) -> None:
    """The poller thread opens a reader with a reset pin while the main thread builds the
    buttons, neither naming a factory: gpiozero makes its default one without a lock, so both
    made one (two factories on the GPIO chip, one never closed). Now it is made once."""
    import threading

    from gpiozero import Device

    from drivers.clock import VirtualClock
    from drivers.mfrc522 import MFRC522
    from drivers.mfrc522_emu import EmulatedRig

    made = []

    def slow_default():  # what opening the GPIO chip takes on a Pi, and a little more
        time.sleep(0.05)
        made.append(mock_factory())
        return made[-1]

    monkeypatch.setattr(Device, "_default_pin_factory", staticmethod(slow_default))
    monkeypatch.setattr(Device, "pin_factory", None)
    clock = VirtualClock()
    rig = EmulatedRig(clock)
    rig.add_reader(0, 0)
    reader = MFRC522(0, 0, reset_pin=4, clock=clock, spi_factory=rig.spidev)
    built: dict[str, object] = {}
    start = threading.Barrier(2)

    def buttons() -> None:
        start.wait()
        built["io"] = TableIO(SEATS[:1], lambda e: None)

    def readers() -> None:
        start.wait()
        reader.open()

    threads = [threading.Thread(target=buttons), threading.Thread(target=readers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(5)
    try:
        assert len(made) == 1
        io = built["io"]
        assert io.buttons[(0, "bid")].pin_factory is made[0]  # type: ignore[attr-defined]
        assert reader._reset_device.pin_factory is made[0]
    finally:
        if "io" in built:
            built["io"].close()  # type: ignore[attr-defined]
        reader.close()
        for factory in made:
            factory.close()

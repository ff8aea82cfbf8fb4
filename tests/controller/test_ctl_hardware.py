"""The table on simulated hardware: emulated MFRC522 readers on the SPI bus and gpiozero mock
pins, wired by ``start_hardware`` from a config, feeding the event loop from the drivers'
threads, exactly as on the Pi.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import replace

import pytest

from firmware_host.config import parse_config, simulated_config
from firmware_host.series.session import Session
from firmware_host.service.runner import EventLoop, start_hardware

pytest.importorskip("gpiozero")


def wait_for(condition: Callable[[], bool], what: str, limit: float = 20.0) -> None:
    deadline = time.monotonic() + limit
    while not condition():
        if time.monotonic() > deadline:
            pytest.fail(f"gave up waiting for {what}")
        time.sleep(0.01)


def test_readers_and_buttons_drive_the_table() -> None:
    from drivers.clock import RealClock
    from drivers.gpio_mock import mock_factory
    from drivers.mfrc522_emu import EmulatedRig, EmulatedTag

    base = simulated_config(computer_seats=())
    raw = {
        "table": {"players": list(base.table.players), "first_dealer": 2},
        "readers": [{"type": "mfrc522", "zone": "deal", "spi_device": 0},
                    {"type": "mfrc522", "zone": "centre", "spi_device": 1}],
        "gpio": {"seat0": {"bid": 5, "pass": 6}, "seat1": {"bid": 13, "pass": 19},
                 "seat2": {"bid": 20, "pass": 21}, "buzzer": 18},
    }
    config = replace(parse_config(raw, deck_required=False), deck=base.deck)
    clock = RealClock()
    rig = EmulatedRig(clock)
    deal_chip = rig.add_reader(0, 0)
    rig.add_reader(0, 1)
    beeps: list[str] = []
    session = Session(config)
    loop = EventLoop(session)
    closers = start_hardware(config, loop, spi_factory=rig.spidev, clock=clock,
                             pin_factory=mock_factory())
    assert loop.lights is not None
    io = loop.lights
    loop.beep = lambda: beeps.append("refused")
    stop = threading.Event()
    thread = threading.Thread(target=loop.run, kwargs={"stop": stop, "tick": 0.05})
    thread.start()
    try:
        tags = config.card_tags()
        order = sorted(tags, key=int)[:3]
        for n, card in enumerate(order, 1):
            deal_chip.lay(EmulatedTag.from_hex(tags[card]))
            wait_for(lambda n=n: len(session.table.deal.dealt) == n, f"card {n} dealt")
        assert session.table.deal.dealt == order
        deal_chip.lay(EmulatedTag.from_hex("04ffeeddccbbaa"))  # a tag of no deck
        wait_for(lambda: len(session.rejected) == 1, "the foreign tag refused")
        assert "not a card of this table's deck" in session.rejected[0].reason
        io.press(1, "pass")  # a button while the cards are being dealt
        wait_for(lambda: len(session.rejected) == 2, "the early press refused")
        assert session.rejected[1].reason.startswith("the cards are still being dealt")
        assert beeps == ["refused", "refused"]
    finally:
        loop.stop()
        thread.join(timeout=10)
        for close in closers:
            close()
    assert not thread.is_alive()


def test_one_bid_button_holds_for_the_listener() -> None:
    from drivers.events import ButtonHold, ButtonPress
    from engine.deal import Deal

    config = simulated_config(computer_seats=())
    session = Session(config)
    loop = EventLoop(session)
    tags = config.card_tags()
    from firmware_host.table.inputs import TagLaid

    for card in Deal.shuffled(3).dealt_order():
        loop.handle(TagLaid("deal", tags[card]))
    # Carla deals: Ben (middlehand) says to Anna (forehand).
    loop.handle(ButtonPress(1, "bid"))
    assert session.table.game.bid == 18
    loop.handle(ButtonPress(0, "bid"))  # Anna hears: her bid button means "yes"
    assert session.table.game.bid == 18 and session.rejected == []
    loop.handle(ButtonPress(1, "bid"))
    assert session.table.game.bid == 20
    loop.handle(ButtonHold(2, "pass"))  # a long press: undo
    assert session.table.game.bid == 18


def test_buttons_that_cannot_start_at_boot_are_tried_again() -> None:
    """The GPIO chip not yet the table's when it starts (udev gives it to the gpio group a
    moment later: the twin saw "READER DOWN: buttons" until the next restart): the fault is
    said, the buttons are tried again every HARDWARE_RETRY_S, and once they start the fault
    goes and a press reaches the table."""
    from drivers.gpio_mock import mock_factory
    from firmware_host.service import runner

    base = simulated_config(computer_seats=())
    raw = {"table": {"players": list(base.table.players), "first_dealer": 2},
           "gpio": {"seat0": {"bid": 5, "pass": 6}, "seat1": {"bid": 13, "pass": 19},
                    "seat2": {"bid": 20, "pass": 21}}}
    config = replace(parse_config(raw, deck_required=False), deck=base.deck)
    real = mock_factory()

    class NotYet:  # the chip's permission comes later: the first tries are refused
        tries = 0

        def __getattr__(self, name: str) -> object:
            return getattr(real, name)

        def pin(self, spec: object) -> object:
            if NotYet.tries < 2:
                raise PermissionError(13, "Permission denied", "/dev/gpiochip0")
            return real.pin(spec)

        def reserve_pins(self, *args: object) -> None:
            NotYet.tries += 1
            if NotYet.tries <= 2:
                raise PermissionError(13, "Permission denied", "/dev/gpiochip0")
            real.reserve_pins(*args)

    now = [0.0]
    loop = EventLoop(Session(config))
    loop.clock = lambda: now[0]
    closers = start_hardware(config, loop, pin_factory=NotYet())
    try:
        assert "buttons" in loop.reader_faults and loop.lights is None
        assert "Permission denied" in loop.reader_faults["buttons"]
        loop.retry_hardware()                      # too soon: no try
        assert NotYet.tries == 1
        now[0] += runner.HARDWARE_RETRY_S
        loop.retry_hardware()                      # refused again
        assert NotYet.tries == 2 and "buttons" in loop.reader_faults
        now[0] += runner.HARDWARE_RETRY_S
        loop.retry_hardware()                      # the chip is the table's now
        assert "buttons" not in loop.reader_faults and loop.lights is not None
        assert not loop.hardware_retries
        loop.lights.press(0, "pass")
        event = loop.queue.get(timeout=5)
        assert getattr(event, "button", None) == "pass" and event.seat == 0
    finally:
        for close in closers:
            close()

"""The kiosk's sleep where SDL cannot block (KMSDRM): select on the input devices.

Named pipes stand in for evdev devices: like them, they become readable when the kernel has
something, each reader drains its own copy, and they can appear and vanish.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from display.inputwatch import InputWatch


@pytest.fixture
def devices(tmp_path: Path) -> Iterator[tuple[Path, InputWatch, list[int]]]:
    watch = InputWatch(str(tmp_path))
    writers: list[int] = []
    yield tmp_path, watch, writers
    watch.close()
    for fd in writers:
        os.close(fd)


def plug(directory: Path, name: str, writers: list[int]) -> int:
    path = directory / name
    os.mkfifo(path)
    fd = os.open(path, os.O_RDWR | os.O_NONBLOCK)  # a writer that keeps the pipe open
    writers.append(fd)
    return fd


def test_sleeps_until_the_timeout_without_devices(devices) -> None:
    _, watch, _ = devices
    started = time.monotonic()
    assert watch.wait(0.05) == "timeout"
    assert time.monotonic() - started >= 0.04
    assert watch.devices == ()


def test_input_on_a_device_ends_the_wait_and_is_drained(devices) -> None:
    directory, watch, writers = devices
    touch = plug(directory, "event0", writers)
    plug(directory, "mouse0", writers)  # not an evdev event device: not watched
    assert watch.wait(0) == "timeout" and watch.devices == ("event0",)
    os.write(touch, b"x" * 48)  # two input_event structs
    assert watch.wait(5.0) == "input"
    assert watch.wait(0) == "timeout"  # our copy was read: no busy wake-ups afterwards


def test_wake_from_another_thread(devices) -> None:
    _, watch, _ = devices
    threading.Timer(0.05, watch.wake).start()
    started = time.monotonic()
    assert watch.wait(30.0) == "woken"
    assert time.monotonic() - started < 10


def test_devices_plugged_in_later_and_unplugged(devices) -> None:
    directory, watch, writers = devices
    assert watch.wait(0) == "timeout"
    screen = plug(directory, "event3", writers)  # the touchscreen switched on after the Pi
    os.write(screen, b"y" * 24)
    assert watch.wait(5.0) == "input" and watch.devices == ("event3",)
    (directory / "event3").unlink()
    assert watch.wait(0) == "timeout" and watch.devices == ()


def test_a_device_it_may_not_read_is_left_out(devices) -> None:
    directory, watch, writers = devices
    plug(directory, "event1", writers)
    if os.geteuid() == 0:
        pytest.skip("root may read any device")
    os.chmod(directory / "event1", 0)
    assert watch.wait(0) == "timeout" and watch.devices == ()

"""A table whose screen cannot be opened still plays: ``skat-table run`` starts the readers
and buttons, says what is wrong (the log, the ``STATUS=`` of ``systemctl status``, the
buzzer's ``screen`` pattern, the status light), tells the game in the log and tries the
screen again now and then; when it opens, the kiosk takes over.

Before this, a kiosk that could not open (EGL failing on Raspberry Pi OS Lite without Mesa's
DRI driver, KMSDRM not there) made ``run`` exit 1 after about 31 s of retries, before any
reader or button was started, and systemd restarted it for ever.
"""

from __future__ import annotations

import itertools
import logging
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from firmware_host.config import parse_config, simulated_config
from firmware_host.series.session import Session
from firmware_host.service import tablescreen
from firmware_host.service.runner import EventLoop, run_table, status_line
from firmware_host.service.sdnotify import Notifier
from firmware_host.service.tablescreen import TableScreen

ROOT = Path(__file__).resolve().parents[2]


def wait_for(condition: Callable[[], bool], what: str, limit: float = 20.0) -> None:
    deadline = time.monotonic() + limit
    while not condition():
        if time.monotonic() > deadline:
            pytest.fail(f"gave up waiting for {what}")
        time.sleep(0.01)


class FakeKiosk:
    """What the loop needs of a kiosk: views shown, input waited for, closed by a person."""

    def __init__(self) -> None:
        self.views: list[Any] = []
        self.closed = False
        self._wake = threading.Event()

    def show(self, view: Any) -> None:
        self.views.append(view)

    def wait_events(self, timeout: float) -> list[Any]:
        self._wake.wait(timeout)
        self._wake.clear()
        return []

    def notify(self) -> None:
        self._wake.set()

    def close(self) -> None:
        self.closed = True
        self._wake.set()


class Statuses:
    """The notify socket: every STATUS= the table sent, read in the background."""

    def __init__(self, path: str) -> None:
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.sock.bind(path)
        self.sock.settimeout(0.2)
        self.lines: list[str] = []
        self.extend: list[str] = []  # EXTEND_TIMEOUT_USEC= values, before READY=1 only
        self.ready = False
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()

    def _read(self) -> None:
        while not self._stop.is_set():
            try:
                data = self.sock.recv(4096).decode("utf-8")
            except (TimeoutError, OSError):
                continue
            for line in data.split("\n"):
                if line == "READY=1":
                    self.ready = True
                elif line.startswith("EXTEND_TIMEOUT_USEC=") and not self.ready:
                    self.extend.append(line.split("=", 1)[1])
                elif line.startswith("STATUS="):
                    self.lines.append(line[len("STATUS="):])

    def close(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5)
        self.sock.close()


def test_status_line_says_the_screen_is_down() -> None:
    session = Session(simulated_config(computer_seats=()))
    line = status_line(session, {}, "no display after 3 attempts: kmsdrm not available")
    assert line == ("deal 1, Carla deals: dealing (0/32 cards); SCREEN DOWN: no display after "
                    "3 attempts: kmsdrm not available")
    assert "SCREEN" not in status_line(session, {})


def test_readers_and_buttons_work_while_the_screen_is_down(tmp_path: Path, monkeypatch,
                                                           caplog) -> None:
    pytest.importorskip("gpiozero")
    from display.kiosk import DisplayUnavailable
    from drivers.clock import RealClock
    from drivers.gpio import TableIO
    from drivers.gpio_mock import mock_factory
    from drivers.mfrc522_emu import EmulatedRig, EmulatedTag

    base = simulated_config(computer_seats=())
    raw = {
        "table": {"players": list(base.table.players), "first_dealer": 2},
        "readers": [{"type": "mfrc522", "zone": "deal", "spi_device": 0}],
        "gpio": {"seat0": {"bid": 5, "pass": 6}, "seat1": {"bid": 13, "pass": 19},
                 "seat2": {"bid": 20, "pass": 21}, "buzzer": 18, "led": 14},
    }
    config = replace(parse_config(raw, deck_required=False), deck=base.deck)
    clock = RealClock()
    rig = EmulatedRig(clock)
    deal_chip = rig.add_reader(0, 0)
    buzzed: list[str] = []
    real_buzz = TableIO.buzz

    def buzz(self: TableIO, pattern: str, *args: Any, **kwargs: Any) -> Any:
        buzzed.append(pattern)
        return real_buzz(self, pattern, *args, **kwargs)

    monkeypatch.setattr(TableIO, "buzz", buzz)
    light: list[bool] = []  # the status light: flashing (True) or steady (False)
    real_show_status = TableIO.show_status

    def show_status(self: TableIO, fault: bool) -> None:
        light.append(fault)
        real_show_status(self, fault)

    monkeypatch.setattr(TableIO, "show_status", show_status)
    ios: list[TableIO] = []
    real_from_config = TableIO.from_config.__func__  # type: ignore[attr-defined]

    def from_config(cls: type, *args: Any, **kwargs: Any) -> TableIO:
        io = real_from_config(cls, *args, **kwargs)
        ios.append(io)
        return io

    monkeypatch.setattr(TableIO, "from_config", classmethod(from_config))
    # The screen is tried again quickly here (10 s, doubling, on the table).
    monkeypatch.setattr(tablescreen, "RETRY_FIRST_S", 0.3)
    kiosk = FakeKiosk()
    tries: list[int] = []
    screen_back = threading.Event()

    def open_screen(attempts: int) -> FakeKiosk:
        tries.append(attempts)
        if not screen_back.is_set():
            raise DisplayUnavailable(f"no display after {attempts} attempts: "
                                     "Could not initialize EGL")
        return kiosk

    statuses = Statuses(str(tmp_path / "notify"))
    notifier = Notifier(str(tmp_path / "notify"))
    caplog.set_level(logging.INFO, logger="skat-table")
    done: list[int] = []
    thread = threading.Thread(
        target=lambda: done.append(run_table(config, tmp_path / "data", open_screen=open_screen,
                                             notifier=notifier, spi_factory=rig.spidev,
                                             clock=clock, pin_factory=mock_factory())),
        daemon=True)
    thread.start()
    try:
        wait_for(lambda: statuses.ready, "READY=1 with the screen down")
        assert tries[0] == tablescreen.FIRST_ATTEMPTS
        wait_for(lambda: any("SCREEN DOWN: no display after" in s for s in statuses.lines),
                 "the status line to say the screen is down")
        assert "Could not initialize EGL" in statuses.lines[-1]
        assert "the screen cannot be opened" in caplog.text
        assert "plays on without it" in caplog.text
        assert buzzed == ["screen"]
        io = ios[0]
        assert light[-1] is True  # the status light flashes
        # The readers work: cards dealt over the deal reader reach the table.
        tags = config.card_tags()
        for n, card in enumerate(sorted(tags, key=int)[:3], 1):
            deal_chip.lay(EmulatedTag.from_hex(tags[card]))
            wait_for(lambda n=n: f"dealing ({n}/32 cards)" in statuses.lines[-1],
                     f"card {n} dealt")
        assert "SCREEN DOWN" in statuses.lines[-1]
        # The buttons work: a press while dealing is refused, told in the log and buzzed.
        io.press(1, "pass")
        wait_for(lambda: "refused: the cards are still being dealt" in caplog.text,
                 "the early press refused, in the game log")
        wait_for(lambda: buzzed == ["screen", "refused"], "the refusal's buzz")
        wait_for(lambda: len(tries) >= 3, "the screen tried again")
        assert tries[1:3] == [1, 1]
        # The screen comes back: the kiosk shows the table as it stands, the status is clean.
        screen_back.set()
        wait_for(lambda: kiosk.views, "the kiosk to show the table")
        wait_for(lambda: "SCREEN" not in statuses.lines[-1], "a status without SCREEN DOWN")
        assert "dealing (3/32 cards)" in statuses.lines[-1]
        assert "the screen works again" in caplog.text
        wait_for(lambda: light[-1] is False, "the status light steady again")
        kiosk.close()  # a person closes the window: the table stops
        thread.join(timeout=20)
        assert not thread.is_alive() and done == [0]
    finally:
        kiosk.close()
        statuses.close()
        thread.join(timeout=20)


def test_a_kiosk_that_cannot_be_loaded_is_not_tried_again(caplog) -> None:
    loop = EventLoop(Session(simulated_config(computer_seats=())))
    tries: list[int] = []

    def open_screen(attempts: int) -> Any:
        tries.append(attempts)
        raise ImportError("No module named 'pygame'")

    now = [0.0]
    screen = TableScreen(loop, open_screen, clock=lambda: now[0], retry_first=1.0)
    caplog.set_level(logging.INFO, logger="skat-table")
    assert not screen.start()
    assert loop.screen_fault == "the kiosk cannot be loaded: No module named 'pygame'"
    assert "will not try it again" in caplog.text
    now[0] = 1e6
    assert screen.wait(0.01) == [] and tries == [tablescreen.FIRST_ATTEMPTS]


def test_the_screen_is_tried_ever_less_often() -> None:
    from display.kiosk import DisplayUnavailable

    loop = EventLoop(Session(simulated_config(computer_seats=())))
    now = [0.0]
    tries: list[float] = []

    def open_screen(attempts: int) -> Any:
        tries.append(now[0])
        raise DisplayUnavailable("no display after 1 attempts: kmsdrm not available")

    screen = TableScreen(loop, open_screen, clock=lambda: now[0], retry_first=10.0,
                         retry_max=120.0)
    screen.start()
    for _ in range(2000):
        now[0] += 1.0
        screen.wait(0.0)
    gaps = [b - a for a, b in itertools.pairwise(tries)]
    assert gaps[:5] == [10.0, 20.0, 40.0, 80.0, 120.0] and set(gaps[5:]) == {120.0}
    assert loop.screen_fault == "no display after 1 attempts: kmsdrm not available"


def test_run_without_a_screen_gets_ready_and_stops(tmp_path: Path) -> None:
    """``skat-table run`` as systemd starts it, on a machine where the kiosk cannot open
    (KMSDRM without a DRM device): READY within seconds, ``SCREEN DOWN`` in its status,
    watchdog pings, the cause in the log, a clean stop on SIGTERM. Before, it retried for
    about 31 s and exited 1 without READY."""
    config = tmp_path / "table.toml"
    config.write_text((ROOT / "tests" / "data" / "configs" / "three.toml").read_text(
        encoding="utf-8"), encoding="utf-8")
    statuses = Statuses(str(tmp_path / "notify"))
    env = dict(os.environ, NOTIFY_SOCKET=str(tmp_path / "notify"), WATCHDOG_USEC="2000000",
               SDL_VIDEODRIVER="kmsdrm")
    started = time.monotonic()
    proc = subprocess.Popen(
        [sys.executable, "-m", "firmware_host", "run", "--config", str(config),
         "--data-dir", str(tmp_path / "data")],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = started + 20
        while not statuses.ready and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.05)
        if not statuses.ready:
            proc.kill()
            _, err = proc.communicate()
            pytest.fail(f"no READY=1 (exit {proc.returncode}); the table said: {err[-2000:]}")
        assert time.monotonic() - started < 15
        assert any("SCREEN DOWN: " in s and "kmsdrm not available" in s
                   for s in statuses.lines), statuses.lines
        # Each step of the start asked systemd for its own time and said what it does: a
        # slow start that makes progress is not killed by TimeoutStartSec.
        starting = [s for s in statuses.lines if s.startswith("starting: ")]
        assert starting[:2] == ["starting: reading the journal",
                                "starting: the computer players"], statuses.lines
        assert "starting: the screen" in starting
        assert len(statuses.extend) == len(starting) and set(statuses.extend) == {"90000000"}
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=30) == 0
        err = proc.stderr.read() if proc.stderr else ""
        assert "the screen cannot be opened" in err and "plays on without it" in err, err
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        statuses.close()

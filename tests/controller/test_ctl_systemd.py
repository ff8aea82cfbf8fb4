"""systemd: the notify protocol against a real datagram socket, the unit checked by
``systemd-analyze verify`` (where it exists) and for the options the design asks for, the
install script's syntax, and the event loop's watchdog pings and STATUS lines.
"""

from __future__ import annotations

import configparser
import shutil
import socket
import subprocess
import threading
from pathlib import Path

import pytest

from firmware_host.service.sdnotify import Notifier

ROOT = Path(__file__).resolve().parents[2]
UNIT = ROOT / "systemd" / "skat-table.service"


@pytest.fixture
def notify_socket(tmp_path: Path):
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    path = str(tmp_path / "notify")
    sock.bind(path)
    sock.settimeout(5)
    yield sock, path
    sock.close()


def received(sock: socket.socket) -> list[str]:
    return sock.recv(4096).decode("utf-8").split("\n")


def test_ready_status_watchdog_stopping_reach_the_socket(notify_socket) -> None:
    sock, path = notify_socket
    n = Notifier.from_environment({"NOTIFY_SOCKET": path, "WATCHDOG_USEC": "2000000"})
    assert n.enabled and n.ping_every == 1.0
    assert n.ready("deal 1, Carla deals: dealing")
    assert received(sock) == ["READY=1", "STATUS=deal 1, Carla deals: dealing"]
    assert n.status("deal 1: bidding")
    assert received(sock) == ["STATUS=deal 1: bidding"]
    assert n.watchdog(now=100.0)
    assert received(sock) == ["WATCHDOG=1"]
    assert not n.watchdog(now=100.5)  # within half the interval: no second ping
    assert n.watchdog(now=101.1)
    assert received(sock) == ["WATCHDOG=1"]
    assert n.stopping("bye")
    assert received(sock) == ["STOPPING=1", "STATUS=bye"]
    n.close()


def test_abstract_socket_address() -> None:
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    name = f"skat-table-test-{id(sock)}"
    sock.bind("\0" + name)
    sock.settimeout(5)
    try:
        assert Notifier(f"@{name}").ready()
        assert received(sock) == ["READY=1"]
    finally:
        sock.close()


def test_outside_systemd_nothing_is_sent(tmp_path: Path) -> None:
    n = Notifier.from_environment({})
    assert not n.enabled and not n.ready() and not n.watchdog() and n.ping_every is None
    # A watchdog meant for another process is not ours.
    n = Notifier.from_environment({"NOTIFY_SOCKET": str(tmp_path / "x"), "WATCHDOG_USEC": "1000",
                                   "WATCHDOG_PID": "1"})
    assert n.watchdog_interval is None
    # A socket that went away is a False, never an exception.
    assert not Notifier(str(tmp_path / "gone")).ready()


def test_event_loop_pings_and_reports_status(notify_socket) -> None:
    from firmware_host.config import simulated_config
    from firmware_host.series.session import Session
    from firmware_host.service.runner import EventLoop
    from firmware_host.table.inputs import Press

    sock, path = notify_socket
    notifier = Notifier(path, watchdog_usec=50_000)
    loop = EventLoop(Session(simulated_config(computer_seats=())), notifier=notifier)
    stop = threading.Event()
    thread = threading.Thread(target=loop.run, kwargs={"stop": stop, "tick": 0.01})
    thread.start()
    try:
        messages = [received(sock) for _ in range(4)]
        assert ["STATUS=deal 1, Carla deals: dealing (0/32 cards)"] in messages
        assert any(m[0] == "READY=1" for m in messages)
        assert ["WATCHDOG=1"] in messages
        loop.post(Press(0, "bid"))  # refused: still dealing; the loop goes on
        for _ in range(20):
            if received(sock) == ["WATCHDOG=1"]:
                break
        else:
            pytest.fail("no watchdog ping after an input")
    finally:
        loop.stop()
        thread.join(timeout=10)
    assert not thread.is_alive()
    assert loop.session.rejected[0].reason.startswith("the cards are still being dealt")


def unit() -> configparser.RawConfigParser:
    parser = configparser.RawConfigParser(strict=False, interpolation=None)
    parser.optionxform = str  # type: ignore[assignment,method-assign]
    parser.read(UNIT, encoding="utf-8")
    return parser


def test_unit_has_what_the_design_asks_for() -> None:
    s = unit()["Service"]
    assert s["Type"] == "notify" and s["Restart"] == "on-failure"
    assert s["WatchdogSec"] and s["User"] == "skat"
    assert set(s["SupplementaryGroups"].split()) >= {"video", "render", "input", "spi", "gpio"}
    for key in ("NoNewPrivileges", "PrivateTmp", "ProtectHome"):
        assert s[key] == "yes", key
    assert s["ProtectSystem"] == "strict"
    assert s["ReadWritePaths"] == "/var/lib/skat-table"
    assert "--data-dir /var/lib/skat-table" in s["ExecStart"]
    assert s["RestartPreventExitStatus"] == "2"  # a wrong config is not restarted in a loop


def verify(text: str, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    # verify checks that ExecStart exists and the user resolves: stand in for the Pi's.
    text = text.replace("/opt/skat-table/venv/bin/skat-table", shutil.which("true") or "/bin/true")
    text = text.replace("User=skat", "User=root").replace("Group=skat", "Group=root")
    path = tmp_path / "skat-table.service"
    path.write_text(text, encoding="utf-8")
    return subprocess.run(["systemd-analyze", "verify", str(path)], capture_output=True,
                          text=True, timeout=60)


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="no systemd-analyze here")
def test_systemd_analyze_verify(tmp_path: Path) -> None:
    text = UNIT.read_text(encoding="utf-8")
    proc = verify(text, tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "skat-table.service" not in proc.stderr, proc.stderr
    # The check can fail: a broken unit is caught.
    broken = verify(text.replace("Type=notify", "Type=notifyish"), tmp_path)
    assert "notifyish" in broken.stderr


def test_install_script_is_valid_shell() -> None:
    script = ROOT / "systemd" / "install.sh"
    proc = subprocess.run(["sh", "-n", str(script)], capture_output=True, text=True, timeout=30)
    assert proc.returncode == 0, proc.stderr
    text = script.read_text(encoding="utf-8")
    assert "[pi]" in text and "dtparam=spi=on" in text and "/opt/skat-table" in text


def test_example_config_is_valid() -> None:
    import tomllib

    from firmware_host.config import parse_config

    raw = tomllib.loads((ROOT / "systemd" / "config.example.toml").read_text(encoding="utf-8"))
    raw.pop("deck")  # names the enrolled deck file, which only the table has
    cfg = parse_config(raw, deck_required=False)
    assert cfg.readers and cfg.gpio["buzzer"] == 27
    # The wiring of README.md: no button, light or buzzer on a pin of SPI0 or SPI1 (with
    # dtoverlay=spi1-3cs), where the readers are.
    spi_pins = {7, 8, 9, 10, 11, 16, 17, 18, 19, 20, 21}
    pins = [cfg.gpio["buzzer"]]
    pins += [pin for seat in ("seat0", "seat1", "seat2") for pin in raw["gpio"][seat].values()]
    assert len(pins) == 10 and not spi_pins & set(pins), pins


def test_run_under_a_notify_socket_until_sigterm(tmp_path: Path) -> None:
    """``skat-table run --no-display`` as systemd starts it: READY with a readable STATUS,
    watchdog pings, and a clean STOPPING on SIGTERM."""
    import os
    import signal
    import sys

    config = tmp_path / "table.toml"
    text = (ROOT / "tests" / "data" / "configs" / "three.toml").read_text(encoding="utf-8")
    config.write_text(text, encoding="utf-8")
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    path = str(tmp_path / "notify")
    sock.bind(path)
    sock.settimeout(30)
    env = dict(os.environ, NOTIFY_SOCKET=path, WATCHDOG_USEC="400000")
    proc = subprocess.Popen(
        [sys.executable, "-m", "firmware_host", "run", "--config", str(config),
         "--data-dir", str(tmp_path / "data"), "--no-display"],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        # the steps of the start (EXTEND_TIMEOUT_USEC with their STATUS), the STATUS of the
        # first screen, READY
        messages = []
        while not messages or messages[-1][0] != "READY=1":
            messages.append(received(sock))
            assert len(messages) < 20, messages
        ready = messages[-1]
        assert ready[1] == "STATUS=deal 1, Carla deals: dealing (0/32 cards)"
        for _ in range(10):
            if received(sock) == ["WATCHDOG=1"]:
                break
        else:
            proc.kill()
            pytest.fail(f"no watchdog ping; the table said: {proc.communicate()[1]}")
        proc.send_signal(signal.SIGTERM)
        for _ in range(20):
            message = received(sock)
            if message[0] == "STOPPING=1":
                break
        else:
            proc.kill()
            pytest.fail(f"no STOPPING=1; the table said: {proc.communicate()[1]}")
        assert proc.wait(timeout=30) == 0, proc.stderr.read() if proc.stderr else ""
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        sock.close()
    assert (tmp_path / "data" / "journal.sqlite").exists()


def test_a_stop_signal_at_any_moment_of_the_loop_stops_it() -> None:
    """systemd's SIGTERM may land anywhere in the loop, also inside its queue's ``get``: it
    once deadlocked there (the handler's ``put`` waited on the lock ``get`` held), so the
    table neither stopped nor pinged its watchdog. Every line of a turn is tried, in a child
    process so that a hang fails the test instead of hanging the suite."""
    import sys

    try:
        done = subprocess.run([sys.executable, str(Path(__file__).with_name("signal_turns.py"))],
                              cwd=ROOT, capture_output=True, text=True, timeout=60)
    except subprocess.TimeoutExpired as e:
        pytest.fail(f"the loop hung after a stop signal: {e.stdout!r} {e.stderr!r}")
    assert done.returncode == 0, done.stdout + done.stderr
    assert ": 0 did not stop" in done.stdout

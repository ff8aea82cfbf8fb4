"""``systemd/install.sh`` on a fresh image, run here in a sandbox (``installsandbox.py``: a
private mount namespace, overlays, fake apt-get, udevadm, systemctl and a python3 of any
version), and its decisions (``systemd/install-lib.sh``) with a fake python and config.txt
files:

- the package lists are updated before anything is installed, and Mesa's EGL and DRI driver
  are installed (without them the kiosk's EGL fails on Raspberry Pi OS Lite);
- Python 3.11/3.12 install lgpio's wheel; 3.13/3.14 (Debian trixie) build it from its pinned
  source with swig, its C library linked in; older and newer Pythons are refused before
  anything changes, saying what to do;
- the USB serial drivers are loaded before the unit starts (its DeviceAllow=char-ttyUSB and
  char-ttyACM match only drivers loaded then);
- udev has handled the trigger (``udevadm settle``) before the unit starts, and where a
  touchscreen is there the unit waits for it at boot (a drop-in), where none is, not;
- the SPI check asks for what the config's readers need: SPI1's ``dtoverlay=spi1-3cs`` too.

What only a real system shows (udev making the name, systemd's device unit, the modules
loading, pip building lgpio on arm64 under 3.13) the twin checks.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from installsandbox import run_install, sandbox_works

ROOT = Path(__file__).resolve().parents[2]
LIB = ROOT / "systemd" / "install-lib.sh"
TOUCH_UNIT = "dev-skat\\x2dtable-touch.device"

sandbox = pytest.mark.skipif(sandbox_works() is not None, reason=f"{sandbox_works()}")

SPI1_CONFIG = """\
    [table]
    players = ["Anna", "Ben", "Carla"]
    first_dealer = 2
    [[readers]]
    type = "mfrc522"
    zone = "deal"
    spi_bus = 0
    spi_device = 0
    [[readers]]
    type = "mfrc522"
    zone = "centre"
    chip_select = 4
    [deck]
    deck = "deck.toml"
"""


def lib(call: str, tmp_path: Path,
        python_version: str | None = None) -> subprocess.CompletedProcess[str]:
    """``call`` in sh after sourcing install-lib.sh; ``python_version``: a fake python3."""
    fake = tmp_path / "python-fake"
    if python_version is not None:
        fake.write_text(f"#!/bin/sh\necho {python_version}\n", encoding="utf-8")
    else:
        fake.write_text("#!/bin/sh\nexit 127\n", encoding="utf-8")
    fake.chmod(0o755)
    return subprocess.run(["sh", "-c", f'. "{LIB}"; {call}', "sh", str(fake)],
                          capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize(("version", "extra", "source"), [
    ("3.11", "", "0"), ("3.12", "", "0"), ("3.13", "swig", "1"), ("3.14", "swig", "1")])
def test_the_python_plan(version: str, extra: str, source: str, tmp_path: Path) -> None:
    done = lib('skat_python_plan "$1" && echo "$SKAT_PY_VERSION|$SKAT_APT_EXTRA|'
               '$SKAT_LGPIO_SOURCE"', tmp_path, version)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == f"{version}|{extra}|{source}"


@pytest.mark.parametrize("version", ["3.9", "3.10", "3.15", "4.0"])
def test_other_pythons_are_refused_saying_what_to_do(version: str, tmp_path: Path) -> None:
    done = lib('skat_python_plan "$1"', tmp_path, version)
    assert done.returncode == 1 and done.stdout == ""
    assert f"is {version}" in done.stderr and "3.11 to 3.14" in done.stderr
    assert "sudo PYTHON=python3.11 systemd/install.sh" in done.stderr


def test_a_python_that_does_not_run_is_refused(tmp_path: Path) -> None:
    done = lib('skat_python_plan "$1"', tmp_path, None)
    assert done.returncode == 1 and "cannot run" in done.stderr


def test_mesa_is_among_the_packages(tmp_path: Path) -> None:
    done = lib('echo "$SKAT_APT_PACKAGES"', tmp_path)
    packages = done.stdout.split()
    for package in ("libegl-mesa0", "libgl1-mesa-dri", "libegl1", "libgbm1", "libgles2",
                    "python3-venv", "python3-dev", "gcc"):
        assert package in packages, package


@pytest.mark.parametrize(("lines", "state"), [
    ("dtparam=spi=on\ndtoverlay=spi1-3cs\n", "1 3"),
    ("dtparam=i2c_arm=on,spi=on\ndtoverlay=spi1-3cs,cs0_pin=18\n", "1 3"),
    ("  dtparam=spi\r\ndtoverlay=spi1-2cs\r\n", "1 2"),
    ("dtparam=spi=on\n#dtoverlay=spi1-3cs\n", "1 0"),
    ("dtparam=spi=on\ndtparam=spi=off\ndtoverlay=spi1-1cs\n", "0 1"),
    ("dtoverlay=spi0-2cs\n", "1 0"),
    ("dtoverlay=vc4-kms-v3d\n", "0 0"),
])
def test_the_spi_state_of_a_config_txt(lines: str, state: str, tmp_path: Path) -> None:
    txt = tmp_path / "config.txt"
    txt.write_text(lines, encoding="utf-8")
    assert lib(f'skat_spi_state "{txt}"', tmp_path).stdout.strip() == state


def test_the_spi_report_asks_for_spi1_where_the_readers_need_it(tmp_path: Path) -> None:
    txt = tmp_path / "config.txt"
    txt.write_text("[all]\ndtparam=spi=on\n", encoding="utf-8")
    done = lib(f'skat_spi_report "{txt}" "1 3"', tmp_path)
    assert done.returncode == 1
    assert "dtoverlay=spi1-3cs" in done.stdout and "dtparam=spi=on" not in done.stdout
    assert "SPI is on" not in done.stdout
    assert lib(f'skat_spi_report "{txt}" "1 0"', tmp_path).returncode == 0
    txt.write_text("dtparam=spi=on\ndtoverlay=spi1-2cs\n", encoding="utf-8")
    done = lib(f'skat_spi_report "{txt}" "1 3"', tmp_path)
    assert done.returncode == 1 and "instead of the dtoverlay=spi1-2cs" in done.stdout
    txt.write_text("dtparam=spi=on\ndtoverlay=spi1-3cs\n", encoding="utf-8")
    done = lib(f'skat_spi_report "{txt}" "1 3"', tmp_path)
    assert done.returncode == 0 and "SPI is on" in done.stdout
    done = lib(f'skat_spi_report "{tmp_path / "none.txt"}" "1 3"', tmp_path)
    assert "dtparam=spi=on" in done.stdout and "dtoverlay=spi1-3cs" in done.stdout


def test_the_spi_needs_of_a_config(tmp_path: Path) -> None:
    import sys
    import textwrap

    config = tmp_path / "config.toml"
    config.write_text(textwrap.dedent(SPI1_CONFIG), encoding="utf-8")
    assert lib(f'skat_spi_needs {sys.executable} "{config}"', tmp_path).stdout.split() == \
        ["1", "3"]
    example = ROOT / "systemd" / "config.example.toml"
    assert lib(f'skat_spi_needs {sys.executable} "{example}"', tmp_path).stdout.split() == \
        ["1", "0"]
    # A config it cannot read: the readers of docs/hardware.md.
    assert lib(f'skat_spi_needs {sys.executable} "{tmp_path / "none"}"',
               tmp_path).stdout.split() == ["1", "3"]


@sandbox
def test_a_fresh_bookworm_install(tmp_path: Path) -> None:
    """Python 3.11, a touchscreen, readers on SPI0 and SPI1, config.txt with SPI0 only."""
    done = run_install(tmp_path, "3.11", touch=True, files={
        "/etc/skat-table/config.toml": SPI1_CONFIG,
        "/boot/firmware/config.txt": "dtparam=audio=on\ndtparam=spi=on\n"})
    assert done.returncode == 0, done.stderr
    calls = done.calls
    # apt: the lists first, then the packages, Mesa's EGL and DRI driver among them.
    update, install = done.index("apt-get update"), done.index("apt-get install")
    assert 0 <= update < install, calls
    packages = calls[install].split()
    assert {"libegl-mesa0", "libgl1-mesa-dri", "libegl1", "libgbm1", "libgles2"} <= set(packages)
    assert "swig" not in packages
    # The USB serial drivers are loaded before the unit starts.
    restart = done.index("systemctl restart skat-table.service")
    assert 0 <= done.index("modprobe -a usbserial cdc_acm") < restart
    assert done.wrote("/etc/modules-load.d/skat-table.conf").read_text() == \
        "usbserial\ncdc_acm\n"
    # udev handled the trigger before the unit starts; the touchscreen's drop-ins are there.
    assert 0 <= done.index("udevadm trigger") < done.index("udevadm settle") < restart
    rules = done.wrote("/etc/udev/rules.d/70-skat-table.rules").read_text()
    assert 'SYMLINK+="skat-table/touch", TAG+="systemd"' in rules
    dropin = done.wrote("/etc/systemd/system/skat-table.service.d/touch.conf").read_text()
    assert f"Wants={TOUCH_UNIT}" in dropin and f"After={TOUCH_UNIT}" in dropin
    timeout = done.wrote(f"/etc/systemd/system/{TOUCH_UNIT}.d/timeout.conf").read_text()
    assert "JobRunningTimeoutSec=15s" in timeout
    assert "the table waits for it at boot" in done.stdout
    assert done.index("systemctl daemon-reload") < restart
    # lgpio from its wheel: pip without PYPI.
    pips = [c for c in calls if c.startswith("pip ")]
    assert len(pips) == 3 and all(c.endswith("PYPI=") for c in pips), pips
    # The command on PATH, for sudo too (docs/bring-up.md).
    link = done.wrote("/usr/local/bin/skat-table")
    assert link.is_symlink() and str(link.readlink()) == "/opt/skat-table/venv/bin/skat-table"
    # SPI: the config has a reader on SPI1 CE2, config.txt has SPI0 only.
    assert "SPI is on" not in done.stdout
    assert "Add to /boot/firmware/config.txt and reboot" in done.stdout
    assert "dtoverlay=spi1-3cs" in done.stdout


@sandbox
def test_a_fresh_trixie_install_builds_lgpio(tmp_path: Path) -> None:
    """Python 3.13 (Debian trixie, no lgpio wheel), no touchscreen (any earlier drop-in goes)."""
    done = run_install(tmp_path, "3.13", touch=False, files={
        "/etc/systemd/system/skat-table.service.d/touch.conf": "[Unit]\n",
        f"/etc/systemd/system/{TOUCH_UNIT}.d/timeout.conf": "[Unit]\n",
        "/boot/firmware/config.txt": "dtparam=spi=on\ndtoverlay=spi1-3cs\n"})
    assert done.returncode == 0, done.stderr
    install = done.calls[done.index("apt-get install")].split()
    assert "swig" in install and "libgl1-mesa-dri" in install
    pips = [c for c in done.calls if c.startswith("pip ")]
    pi = next(c for c in pips if "requirements-pi.txt" in c)
    assert pi.endswith("PYPI=1") and "--require-hashes" in pi
    assert next(c for c in pips if "requirements-build.txt" in c).endswith("PYPI=")
    assert pips[-1].endswith("PYPI=")  # the package itself: PYPI is lgpio's switch only
    assert not done.wrote("/etc/systemd/system/skat-table.service.d/touch.conf").exists()
    assert not done.wrote(f"/etc/systemd/system/{TOUCH_UNIT}.d/timeout.conf").exists()
    assert "no touchscreen found" in done.stdout
    assert "SPI is on in /boot/firmware/config.txt" in done.stdout  # the example: SPI0


@sandbox
@pytest.mark.parametrize("version", ["3.10", "3.15"])
def test_a_python_it_cannot_use_changes_nothing(version: str, tmp_path: Path) -> None:
    done = run_install(tmp_path, version)
    assert done.returncode == 1
    assert f"is {version}" in done.stderr and "sudo PYTHON=python3.11" in done.stderr
    assert done.calls == []
    assert not any(p.is_file() for p in done.top.rglob("*"))


def test_the_touch_unit_name_is_systemds() -> None:
    import shutil

    if shutil.which("systemd-escape") is None:
        pytest.skip("no systemd-escape here")
    name = subprocess.run(["systemd-escape", "--path", "--suffix=device", "/dev/skat-table/touch"],
                          capture_output=True, text=True, timeout=30).stdout.strip()
    assert name == TOUCH_UNIT
    for path in ("systemd/install.sh", "systemd/skat-table-touch.conf"):
        assert TOUCH_UNIT in (ROOT / path).read_text(encoding="utf-8"), path


def _verify(tmp_path: Path, dropin: str) -> subprocess.CompletedProcess[str]:
    """``systemd-analyze verify`` of the unit with ``dropin`` in its .d directory (verify reads
    drop-ins beside the file); ExecStart and the user stand in for the Pi's."""
    import shutil

    text = (ROOT / "systemd" / "skat-table.service").read_text(encoding="utf-8")
    text = text.replace("/opt/skat-table/venv/bin/skat-table", shutil.which("true") or "/bin/true")
    text = text.replace("User=skat", "User=root").replace("Group=skat", "Group=root")
    (tmp_path / "skat-table.service").write_text(text, encoding="utf-8")
    (tmp_path / "skat-table.service.d").mkdir(exist_ok=True)
    (tmp_path / "skat-table.service.d" / "touch.conf").write_text(dropin, encoding="utf-8")
    return subprocess.run(["systemd-analyze", "verify", str(tmp_path / "skat-table.service")],
                          capture_output=True, text=True, timeout=60)


def test_the_touchscreen_gets_a_device_unit_and_the_unit_waits_for_it(tmp_path: Path) -> None:
    """The udev rule tags the name for systemd (a device unit); the drop-in install.sh adds
    where a touchscreen is there orders the unit after it, and verifies cleanly; the device's
    timeout is a [Unit] key systemd knows."""
    import shutil

    rules = (ROOT / "systemd" / "70-skat-table.rules").read_text(encoding="utf-8")
    rule = [line for line in rules.splitlines() if line and not line.startswith("#")
            and "INPUT" in line]
    assert rule == ['SUBSYSTEM=="input", KERNEL=="event*", ENV{ID_INPUT_TOUCHSCREEN}=="1", '
                    'SYMLINK+="skat-table/touch", TAG+="systemd", '
                    'ENV{SYSTEMD_WANTS}+="skat-table-touch-plugged.service"']
    dropin = (ROOT / "systemd" / "skat-table-touch.conf").read_text(encoding="utf-8")
    settings = [line for line in dropin.splitlines() if line and not line.startswith("#")]
    assert settings == ["[Unit]", f"Wants={TOUCH_UNIT}", f"After={TOUCH_UNIT}"]
    timeout = (ROOT / "systemd" / "touch-device-timeout.conf").read_text(encoding="utf-8")
    assert "[Unit]\nJobRunningTimeoutSec=15s\n" in timeout
    if shutil.which("systemd-analyze") is None:
        pytest.skip("no systemd-analyze here")
    done = _verify(tmp_path, dropin)
    assert done.returncode == 0 and "touch.conf" not in done.stderr, done.stderr
    done = _verify(tmp_path, timeout)  # the key, in a [Unit] systemd reads here
    assert done.returncode == 0 and "touch.conf" not in done.stderr, done.stderr
    done = _verify(tmp_path, dropin.replace("Wants=", "Wantz="))  # the check sees the drop-in
    assert "touch.conf" in done.stderr and "Wantz" in done.stderr


@sandbox
def test_a_second_install_builds_nothing_and_leaves_the_table_running(tmp_path: Path) -> None:
    """The same checkout installed twice: the second run runs no pip (the C core and spidev
    are not compiled again) and does not restart the running table; it only starts it."""
    done = run_install(tmp_path, "3.11", touch=True, runs=2)
    assert done.returncode == 0, done.stderr
    second = done.calls[done.index("--- run 2"):]
    first = done.calls[:done.index("--- run 2")]
    assert [c for c in first if c.startswith("pip ")], first
    assert "systemctl restart skat-table.service" in first
    assert not [c for c in second if c.startswith("pip ")], second
    assert "systemctl restart skat-table.service" not in second, second
    assert "systemctl start skat-table.service" in second
    assert "nothing changed: the table runs on as it is" in done.stdout
    assert "the package is installed as it is" in done.stdout
    assert done.wrote("/etc/systemd/system/skat-table-touch-plugged.service").exists()
    # what pip built in the source copy is gone: a third run finds the copy as the checkout
    # (an overlay marks a removed directory with a whiteout, a character device)
    assert not done.wrote("/opt/skat-table/src/build").is_dir()
    assert not done.wrote("/opt/skat-table/src/skat_table.egg-info").is_dir()


@sandbox
def test_an_install_over_another_version_rebuilds_and_restarts(tmp_path: Path) -> None:
    """A stamp of another source (an older checkout): the package is built and the table
    restarted."""
    done = run_install(tmp_path, "3.11", files={
        "/opt/skat-table/installed.sha256": "0" * 64 + "\n",
        "/opt/skat-table/venv/bin/skat-table": "#!/bin/sh\n"})
    assert done.returncode == 0, done.stderr
    assert [c for c in done.calls if c.startswith("pip ")]
    assert "systemctl restart skat-table.service" in done.calls


FAKE_SYSTEMCTL = """#!/bin/sh
echo "systemctl $*" >> "$FAKE_LOG"
case "$*" in
    *is-active*)
        n=$(cat "$FAKE_COUNT" 2>/dev/null || echo 0); echo $((n + 1)) > "$FAKE_COUNT"
        if [ "$n" -lt "$FAKE_ACTIVATING" ]; then state=activating; else state=$FAKE_STATE; fi
        case "$*" in *-q*) [ "$state" = active ] ;; *) echo "$state"; [ "$state" = active ] ;; esac
        exit $? ;;
    *ExecMainStartTimestampMonotonic*) echo "$FAKE_STARTED" ;;
    *ActiveEnterTimestampMonotonic*) echo "$FAKE_PLUGGED" ;;
esac
"""


@pytest.mark.parametrize(("state", "activating", "started", "plugged", "restarted"), [
    ("active", 0, 5_000_000, 9_000_000, True),    # the touchscreen came after the table
    ("active", 0, 9_000_000, 5_000_000, False),   # at boot: the table waited for it
    ("active", 2, 5_000_000, 9_000_000, True),    # plugged in while the table was starting
    ("inactive", 0, 5_000_000, 9_000_000, False),  # no table running: it reads it at start
    ("failed", 0, 0, 9_000_000, False),
])
def test_a_touchscreen_plugged_in_later_restarts_the_table_once(
        state: str, activating: int, started: int, plugged: int, restarted: bool,
        tmp_path: Path) -> None:
    fake = tmp_path / "bin"
    fake.mkdir()
    (fake / "systemctl").write_text(FAKE_SYSTEMCTL, encoding="utf-8")
    (fake / "systemctl").chmod(0o755)
    (fake / "sleep").write_text("#!/bin/sh\n", encoding="utf-8")  # no waiting in the test
    (fake / "sleep").chmod(0o755)
    log = tmp_path / "calls.log"
    env = {"PATH": f"{fake}:/usr/bin:/bin", "FAKE_LOG": str(log),
           "FAKE_COUNT": str(tmp_path / "count"), "FAKE_STATE": state,
           "FAKE_ACTIVATING": str(activating), "FAKE_STARTED": str(started),
           "FAKE_PLUGGED": str(plugged)}
    done = subprocess.run(["sh", str(ROOT / "systemd" / "touch-plugged.sh")], env=env,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    calls = log.read_text(encoding="utf-8").splitlines()
    assert ("systemctl restart skat-table.service" in calls) == restarted, calls
    assert ("plugged in after the table started" in done.stdout) == restarted
    unit = (ROOT / "systemd" / "skat-table-touch-plugged.service").read_text(encoding="utf-8")
    assert "ExecStart=/bin/sh /opt/skat-table/src/systemd/touch-plugged.sh" in unit


def test_the_gpio_and_spi_devices_belong_to_the_tables_groups() -> None:
    """On a plain Debian /dev/gpiochip* and /dev/spidev* are root's alone (the twin saw the
    buttons fail with it): the rules give them to the groups the unit's user is in."""
    rules = (ROOT / "systemd" / "70-skat-table.rules").read_text(encoding="utf-8")
    assert 'SUBSYSTEM=="gpio", KERNEL=="gpiochip*", GROUP="gpio", MODE="0660"' in rules
    assert 'SUBSYSTEM=="spidev", KERNEL=="spidev*", GROUP="spi", MODE="0660"' in rules
    unit = (ROOT / "systemd" / "skat-table.service").read_text(encoding="utf-8")
    groups = next(line for line in unit.splitlines() if line.startswith("SupplementaryGroups="))
    assert {"gpio", "spi"} <= set(groups.split("=", 1)[1].split())
    install = (ROOT / "systemd" / "install.sh").read_text(encoding="utf-8")
    assert "--subsystem-match=gpio" in install and "--subsystem-match=spidev" in install

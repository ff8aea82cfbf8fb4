"""The service as installed on a Pi can open every device the table needs.

systemd turns ``DeviceAllow=char-NAME`` into the majors whose name in ``/proc/devices``
matches NAME (a glob, ``fnmatch``), when the unit starts; a NAME that matches nothing allows
nothing, and with ``DevicePolicy=closed`` the open fails with EPERM. The names are checked
against ``/proc/devices`` of Raspberry Pi OS Bookworm on a Pi 4 and a Pi 5
(``tests/data/proc-devices``). Also: lgpio's notify FIFO needs a writable directory under
``ProtectSystem=strict``, the documentation the unit names exists, the install script brings
what KMSDRM loads at run time, and gpiozero is new enough for a Pi 5.
"""

from __future__ import annotations

import fnmatch
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
UNIT = ROOT / "systemd" / "skat-table.service"
DEVICES = ROOT / "tests" / "data" / "proc-devices"
BOARDS = ["bookworm-pi4.txt", "bookworm-pi5.txt"]
PREFIX = "/opt/skat-table/src/"

# Major numbers the table opens, and what it opens through them.
NEEDED = {
    153: "/dev/spidev*.* (the MFRC522 readers)",
    226: "/dev/dri/card* (the kiosk, KMSDRM)",
    188: "/dev/ttyUSB* (reader boards)",
    166: "/dev/ttyACM* (reader boards)",
}


def unit_lines(text: str | None = None) -> list[tuple[str, str, str]]:
    """(section, key, value) of every setting, repeated keys kept (configparser would merge)."""
    text = UNIT.read_text(encoding="utf-8") if text is None else text
    section, out = "", []
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("["):
            section = line.strip("[]")
            continue
        key, _, value = line.partition("=")
        out.append((section, key.strip(), value.strip()))
    return out


def settings(key: str, text: str | None = None) -> list[str]:
    return [v for _, k, v in unit_lines(text) if k == key]


def char_devices(board: str) -> dict[int, list[str]]:
    """major -> names of the ``Character devices:`` part of a ``/proc/devices`` listing."""
    majors: dict[int, list[str]] = {}
    part = None
    for line in (DEVICES / board).read_text(encoding="utf-8").splitlines():
        if line.endswith(":"):
            part = line
            continue
        if part == "Character devices:" and line.strip():
            number, name = line.split(None, 1)
            majors.setdefault(int(number), []).append(name)
    return majors


def allowed_majors(board: str, text: str | None = None) -> tuple[set[int], list[str]]:
    """What systemd would allow on ``board``: the majors, and the char- names matching none."""
    majors = char_devices(board)
    allowed: set[int] = set()
    unmatched = []
    for value in settings("DeviceAllow", text):
        spec = value.split()[0]
        if not spec.startswith("char-"):
            continue
        name = spec[len("char-"):]
        hits = {m for m, names in majors.items() if any(fnmatch.fnmatchcase(n, name)
                                                       for n in names)}
        if not hits:
            unmatched.append(spec)
        allowed |= hits
    return allowed, unmatched


@pytest.mark.parametrize("board", BOARDS)
def test_every_char_name_of_the_unit_matches_a_major_of_bookworm(board: str) -> None:
    _, unmatched = allowed_majors(board)
    assert not unmatched, f"{board}: {unmatched} match no name in /proc/devices"


@pytest.mark.parametrize("board", BOARDS)
def test_every_device_the_table_opens_is_allowed(board: str) -> None:
    assert "closed" in settings("DevicePolicy")
    allowed, _ = allowed_majors(board)
    if any(v.split()[0].startswith("/dev/input/") for v in settings("DeviceAllow")):
        allowed.add(13)  # input devices allowed one by one (an allow list of paths) is fine
    missing = {m: what for m, what in NEEDED.items() if m not in allowed}
    assert not missing, f"{board}: not allowed: {missing}"
    # Input devices: only the touchscreen, by the name install.sh's udev rule gives it (a
    # keyboard plugged in must not be readable), never the whole class.
    assert 13 not in allowed and "/dev/skat-table/touch r" in settings("DeviceAllow")
    gpiochip = next(m for m, names in char_devices(board).items() if "gpiochip" in names)
    assert gpiochip in allowed  # lgpio: buttons, lights, buzzer, reset pins


def test_the_check_catches_the_name_spidev() -> None:
    """``char-spidev`` (the unit before this test) allows no SPI device at all."""
    text = UNIT.read_text(encoding="utf-8").replace("char-spi ", "char-spidev ")
    allowed, unmatched = allowed_majors(BOARDS[0], text)
    assert unmatched == ["char-spidev"] and 153 not in allowed


def _writable_dirs() -> set[str]:
    dirs = set()
    for value in settings("ReadWritePaths"):
        dirs |= {p.lstrip("-") for p in value.split()}
    dirs |= {f"/var/lib/{d}" for v in settings("StateDirectory") for d in v.split()}
    dirs |= {f"/run/{d}" for v in settings("RuntimeDirectory") for d in v.split()}
    return dirs


def _inside(path: str, dirs: set[str]) -> bool:
    return any(path == d or path.startswith(d.rstrip("/") + "/") for d in dirs)


def test_lgpio_finds_a_writable_directory_under_protect_system_strict() -> None:
    assert settings("ProtectSystem") == ["strict"]
    writable = _writable_dirs()
    env = dict(item.split("=", 1) for v in settings("Environment") for item in v.split())
    workdir = settings("WorkingDirectory")
    # lgpio uses $LG_WD, else the working directory (systemd's default: "/", read-only).
    where = env.get("LG_WD") or (workdir[-1].lstrip("-") if workdir else "/")
    assert _inside(where, writable), f"lgpio's FIFO would go to {where}, not writable"
    assert workdir and _inside(workdir[-1].lstrip("-"), writable)


def test_the_documentation_the_unit_names_exists() -> None:
    docs = [d for v in settings("Documentation") for d in v.split()]
    assert docs
    for doc in docs:
        assert doc.startswith("file:" + PREFIX), doc  # install.sh copies the source there
        assert (ROOT / doc[len("file:" + PREFIX):]).is_file(), doc


def test_no_ordering_on_udev_settle() -> None:
    """``After=systemd-udev-settle.service`` without ``Wants=`` orders against a unit nothing
    starts (and udev-settle is deprecated): it must not be there to look as if it waited."""
    for key in ("After", "Wants", "Requires"):
        assert not any("udev-settle" in v for v in settings(key)), key


def test_install_script_brings_what_kmsdrm_and_the_boards_need() -> None:
    text = "".join((ROOT / "systemd" / name).read_text(encoding="utf-8")
                   for name in ("install.sh", "install-lib.sh"))
    for package in ("libgbm1", "libegl1", "libgles2", "libegl-mesa0", "libgl1-mesa-dri"):
        assert package in text, package
    assert "modules-load.d" in text and "cdc_acm" in text and "usbserial" in text


def test_gpiozero_is_new_enough_for_a_pi_5() -> None:
    deps = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    spec = next(d for d in deps["project"]["dependencies"] if d.startswith("gpiozero"))
    assert spec.replace(" ", "") == "gpiozero>=2.0.1.post1"


def test_the_installed_gpiozero_meets_it() -> None:
    from importlib.metadata import version

    packaging_version = pytest.importorskip("packaging.version")
    assert packaging_version.Version(version("gpiozero")) >= packaging_version.Version(
        "2.0.1.post1")


def test_the_config_directory_has_the_mode_install_sh_gives_it() -> None:
    """systemd warns at every start when ConfigurationDirectoryMode (default 0755) is not the
    directory's mode; install.sh makes /etc/skat-table 0750 (seen in the twin's journal)."""
    import re

    install = (ROOT / "systemd" / "install.sh").read_text(encoding="utf-8")
    made = re.search(r"install -d -m (\d+) .*/etc/skat-table\s*$", install, re.M)
    assert made is not None
    unit = UNIT.read_text(encoding="utf-8")
    assert re.search(rf"^ConfigurationDirectoryMode={made.group(1)}$", unit, re.M), unit

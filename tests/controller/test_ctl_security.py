"""The service's security: the only input device it may read is the
touchscreen, its dependencies are installed from hash-pinned requirements, and the table runs
with memory that is never both writable and executable (``MemoryDenyWriteExecute=yes``),
checked here under the kernel's own equivalent, ``prctl(PR_SET_MDWE)``.
"""

from __future__ import annotations

import ctypes
import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
UNIT = ROOT / "systemd" / "skat-table.service"
INSTALL = ROOT / "systemd" / "install.sh"
CONFIG = ROOT / "tests" / "data" / "configs" / "three-series.toml"
SCRIPT = ROOT / "tests" / "data" / "scripts" / "crash-three.jsonl"


def unit_settings(key: str) -> list[str]:
    out = []
    for raw in UNIT.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if line and not line.startswith(("#", ";")) and "=" in line:
            k, _, v = line.partition("=")
            if k.strip() == key:
                out.append(v.strip())
    return out


def test_only_the_touchscreen_may_be_read() -> None:
    allowed = [v.split()[0] for v in unit_settings("DeviceAllow")]
    assert "char-input" not in allowed  # every keyboard, mouse, barcode reader...
    assert "/dev/skat-table/touch" in allowed
    rules = (ROOT / "systemd" / "70-skat-table.rules").read_text(encoding="utf-8")
    assert 'ENV{ID_INPUT_TOUCHSCREEN}=="1", SYMLINK+="skat-table/touch"' in rules
    assert "/etc/udev/rules.d/70-skat-table.rules" in INSTALL.read_text(encoding="utf-8")
    assert "closed" in unit_settings("DevicePolicy")


def test_memory_deny_write_execute_is_on() -> None:
    assert unit_settings("MemoryDenyWriteExecute") == ["yes"]


def _requirements(name: str) -> dict[str, tuple[str, list[str]]]:
    """name -> (pinned version, hashes) of a pip-compile'd requirements file."""
    text = (ROOT / "systemd" / name).read_text(encoding="utf-8")
    out: dict[str, tuple[str, list[str]]] = {}
    for block in re.split(r"\n(?=[A-Za-z])", text):
        m = re.match(r"([A-Za-z0-9_.-]+)==(\S+)", block)
        if m:
            out[m.group(1).lower().replace("_", "-")] = (
                m.group(2), re.findall(r"--hash=sha256:([0-9a-f]{64})", block))
    return out


def test_install_uses_only_hash_pinned_requirements() -> None:
    text = INSTALL.read_text(encoding="utf-8")
    installs = [line for line in text.splitlines()
                if "pip install" in line or line.startswith("$PIP")]
    assert installs, "install.sh installs nothing with pip?"
    for line in installs:
        assert ("--require-hashes" in line or line.startswith("$PIP")
                or "--no-deps --no-build-isolation" in line), line
    assert "--upgrade pip" not in text
    for name in ("requirements-build.txt", "requirements-pi.txt"):
        pins = _requirements(name)
        assert pins, name
        for package, (version, hashes) in pins.items():
            assert hashes, f"{name}: {package}=={version} has no hash"


def test_the_pins_cover_what_pyproject_asks_for() -> None:
    from packaging.requirements import Requirement

    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    pins = _requirements("requirements-pi.txt") | _requirements("requirements-build.txt")
    wanted = [*project["project"]["dependencies"],
              *project["project"]["optional-dependencies"]["pi"],
              *project["build-system"]["requires"]]
    for spec in wanted:
        req = Requirement(spec)
        name = req.name.lower().replace("_", "-")
        assert name in pins, f"{spec} is not pinned in systemd/requirements-*.txt"
        assert req.specifier.contains(pins[name][0], prereleases=True), (spec, pins[name][0])


PR_SET_MDWE, PR_MDWE_REFUSE_EXEC_GAIN = 65, 1


def _mdwe_works() -> bool:
    """Whether this kernel has PR_SET_MDWE (Linux 6.3+); tried in a child, as it is for life."""
    code = ("import ctypes, mmap, sys\n"
            "libc = ctypes.CDLL(None, use_errno=True)\n"
            "if libc.prctl(65, 1, 0, 0, 0) != 0: sys.exit(3)\n"
            "try:\n mmap.mmap(-1, 4096, prot=7)\nexcept OSError: sys.exit(0)\nsys.exit(4)\n")
    return subprocess.run([sys.executable, "-c", code], timeout=60).returncode == 0


@pytest.mark.skipif(not hasattr(ctypes, "CDLL") or sys.platform != "linux",
                    reason="PR_SET_MDWE is Linux's")
def test_the_table_runs_with_memory_deny_write_execute(tmp_path: Path) -> None:
    """What the service does, in a process that may never map writable+executable memory:
    replay a script with the journal, draw every phase on the kiosk (pygame, offscreen), let
    the PIMC computer player (the C solver) decide, and simulate a headless series."""
    if not _mdwe_works():
        pytest.skip("the kernel has no PR_SET_MDWE (Linux 6.3+)")
    cfg = tmp_path / "pimc.toml"
    cfg.write_text(CONFIG.read_text(encoding="utf-8").split("[deck]")[0]
                   + '[computer]\nplayer = "pimc"\nbudget_ms = 50\n[deck]'
                   + CONFIG.read_text(encoding="utf-8").split("[deck]")[1], encoding="utf-8")
    code = f"""
import ctypes, sys
libc = ctypes.CDLL(None, use_errno=True)
assert libc.prctl({PR_SET_MDWE}, {PR_MDWE_REFUSE_EXEC_GAIN}, 0, 0, 0) == 0
from firmware_host.cli import main
assert main(["replay", {str(CONFIG)!r}, {str(SCRIPT)!r}, "--json", "--journal",
             {str(tmp_path / "j.sqlite")!r}, "--screenshot", {str(tmp_path / "shots")!r}]) == 0
assert main(["simulate", "--config", {str(cfg)!r}, "--headless", "--games", "1",
             "--seed", "3"]) == 0
from engine.players.solver import HAVE_C
print("MDWE-RUN-OK", HAVE_C)
"""
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy",
               GPIOZERO_PIN_FACTORY="mock")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=ROOT, env=env, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    from engine.players.solver import HAVE_C

    # The C solver too, where it is built (as on the Pi: install.sh builds it).
    assert done.stdout.strip().splitlines()[-1] == f"MDWE-RUN-OK {HAVE_C}"
    assert "Series over after 1 deals" in done.stdout
    assert len(list((tmp_path / "shots").glob("*.png"))) > 10

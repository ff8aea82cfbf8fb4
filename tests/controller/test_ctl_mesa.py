"""The unit keeps ``MemoryDenyWriteExecute=yes``: on a Pi 4/5, Mesa's v3d driver runs shaders
on the GPU and maps nothing writable and executable. The JIT in reach is Mesa's software
fallback, llvmpipe (used when v3d cannot be: the kiosk then draws through kms_swrast): under
that rule it dies, before Python could fall back to running without the screen. The unit
therefore asks for softpipe (``GALLIUM_DRIVER``), which interprets its shaders.

Shown here on Mesa's software path (EGL surfaceless, ``LIBGL_ALWAYS_SOFTWARE``) under the
kernel's ``PR_SET_MDWE``: with the unit's environment a triangle is drawn; with llvmpipe the
process dies (the reason for the environment still holds). The twin shows the same on a
screen: QEMU's virtio-gpu has no 3D under TCG, so Mesa takes its software path there.
"""

from __future__ import annotations

import ctypes.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
UNIT = ROOT / "systemd" / "skat-table.service"
PROBE = Path(__file__).with_name("eglprobe.py")
DRAWN = "PIXEL 255 128 64 255"


def unit_environment() -> dict[str, str]:
    env: dict[str, str] = {}
    for raw in UNIT.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if line.startswith("Environment="):
            for item in line[len("Environment="):].split():
                key, _, value = item.partition("=")
                env[key] = value
    return env


def probe(mdwe: bool, **extra: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("GALLIUM_DRIVER", "DRAW_USE_LLVM")}
    env.update(extra, LIBGL_ALWAYS_SOFTWARE="1", MDWE="1" if mdwe else "0")
    return subprocess.run([sys.executable, str(PROBE)], capture_output=True, text=True,
                          env=env, timeout=120)


@pytest.fixture(scope="module")
def mesa() -> str:
    """The renderer Mesa's software path picks by itself; skips where there is no Mesa EGL
    or no PR_SET_MDWE (Linux 6.3+)."""
    if sys.platform != "linux" or ctypes.util.find_library("EGL") is None:
        pytest.skip("no libEGL here (tests/system-packages.sh installs Mesa's)")
    plain = probe(False)
    if plain.returncode != 0 or DRAWN not in plain.stdout:
        pytest.skip(f"Mesa's EGL cannot draw here: {plain.stdout} {plain.stderr[-500:]}")
    mdwe = probe(True, GALLIUM_DRIVER="softpipe")
    if "NO-MDWE" in mdwe.stdout:
        pytest.skip("the kernel has no PR_SET_MDWE (Linux 6.3+)")
    return plain.stdout.splitlines()[0]


def test_the_unit_draws_under_memory_deny_write_execute(mesa: str) -> None:
    assert "MemoryDenyWriteExecute=yes" in UNIT.read_text(encoding="utf-8").splitlines()
    env = {k: v for k, v in unit_environment().items() if k.startswith(("GALLIUM_", "DRAW_"))}
    done = probe(True, **env)
    assert done.returncode == 0, (env, done.returncode, done.stdout, done.stderr[-2000:])
    assert DRAWN in done.stdout and "RENDERER softpipe" in done.stdout


def test_llvmpipe_dies_under_memory_deny_write_execute(mesa: str) -> None:
    """Why the unit names softpipe: llvmpipe compiles its shaders to machine code at run time."""
    if "llvmpipe" not in mesa:
        pytest.skip(f"this Mesa has no llvmpipe ({mesa})")
    done = probe(True, GALLIUM_DRIVER="llvmpipe")
    assert done.returncode != 0 and DRAWN not in done.stdout, done.stdout
    assert probe(False, GALLIUM_DRIVER="llvmpipe").returncode == 0  # it draws without the rule

"""The layout rules of DESIGN.md, checked on the source: who may import whom.

engine/ imports the standard library only; drivers/ and display/ never import each other;
nothing imports Pi-only modules at module level. The controller (firmware_host/) opens no
socket: no network module anywhere in it (the club traffic is the link/ process), and the one
socket module import, the systemd notify datagram (AF_UNIX), is in sdnotify.py only.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("engine", "drivers", "display", "firmware_host", "club", "link")
NETWORK = {"paho", "ssl", "amqtt", "http", "urllib", "asyncio", "aiohttp", "websockets",
           "requests", "link", "club"}
FORBIDDEN = {
    "engine": {"drivers", "display", "firmware_host", "pygame", "serial", "gpiozero", "spidev"},
    "drivers": {"display", "firmware_host", "pygame"},
    "display": {"drivers", "firmware_host", "serial", "gpiozero", "spidev"},
    "firmware_host": NETWORK,
    # the club server scores with the engine and never touches the table's hardware
    "club": {"drivers", "display", "firmware_host", "pygame", "serial", "gpiozero", "spidev"},
    "link": {"display", "drivers", "pygame", "serial", "gpiozero", "spidev"},
}
PI_ONLY = {"RPi", "spidev", "lgpio", "smbus", "smbus2"}


def _imports(tree: ast.AST, top_level_only: bool) -> list[tuple[int, str]]:
    """(line, top-level module) of the imports; with top_level_only, only module-level ones."""
    nodes = tree.body if top_level_only else list(ast.walk(tree))  # type: ignore[attr-defined]
    found = []
    for node in nodes:
        if isinstance(node, ast.Import):
            found += [(node.lineno, a.name.split(".")[0]) for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.append((node.lineno, node.module.split(".")[0]))
    return found


def _sources(package: str) -> list[Path]:
    return sorted((ROOT / package).rglob("*.py"))


@pytest.mark.parametrize("package", PACKAGES)
def test_package_imports_only_what_it_may(package: str) -> None:
    bad = []
    for path in _sources(package):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for line, module in _imports(tree, top_level_only=False):
            if module in FORBIDDEN[package]:
                bad.append(f"{path.relative_to(ROOT)}:{line} imports {module}")
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize("package", PACKAGES)
def test_no_pi_only_module_at_import_time(package: str) -> None:
    bad = []
    for path in _sources(package):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for line, module in _imports(tree, top_level_only=True):
            if module in PI_ONLY:
                bad.append(f"{path.relative_to(ROOT)}:{line} imports {module} at module level")
    assert not bad, "\n".join(bad)


def test_packages_import_on_a_pc_without_pi_modules() -> None:
    """Import every module of the project in a fresh interpreter and check no Pi module loaded."""
    code = (
        "import importlib, pkgutil, sys\n"
        f"for pkg in {PACKAGES!r}:\n"
        "    m = importlib.import_module(pkg)\n"
        "    for info in pkgutil.walk_packages(m.__path__, pkg + '.'):\n"
        "        if info.name.endswith('__main__'):\n"
        "            continue\n"
        "        importlib.import_module(info.name)\n"
        f"loaded = sorted(n for n in sys.modules if n.split('.')[0] in {sorted(PI_ONLY)!r})\n"
        "print(','.join(loaded))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "", f"Pi-only modules imported: {out.stdout.strip()}"


def test_cli_help_lists_every_command() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "firmware_host", "--help"],
        cwd=ROOT, capture_output=True, text=True, timeout=60,
    )
    assert out.returncode == 0, out.stderr
    for name in ("run", "simulate", "enroll", "replay", "iss-check", "export", "bench", "duel",
                 "club", "link"):
        assert name in out.stdout


def test_controller_opens_no_socket() -> None:
    """``socket`` only in sdnotify.py, and there only for AF_UNIX (systemd's notify socket)."""
    bad = []
    for path in _sources("firmware_host"):
        text = path.read_text(encoding="utf-8")
        tree = ast.parse(text, filename=str(path))
        for line, module in _imports(tree, top_level_only=False):
            if module == "socket" and path.name != "sdnotify.py":
                bad.append(f"{path.relative_to(ROOT)}:{line} imports socket")
        if path.name == "sdnotify.py":
            families = {n.attr for n in ast.walk(tree)
                        if isinstance(n, ast.Attribute) and n.attr.startswith("AF_")}
            assert families <= {"AF_UNIX"}, families
    assert not bad, "\n".join(bad)

"""The layout rules of DESIGN.md and the README's layout table, checked on the source: who may
import whom.

engine/ imports the standard library only; drivers/ and display/ never import each other;
nothing imports Pi-only modules at module level. The controller's rooms (firmware_host/table,
series, screen, service, tools, clubside) stand on floors and import only from their own
floor and below. The strength lab (lab/) is apart from what ships to the Pi: nothing the table
runs imports it (the command line names ``skat-table duel`` and ``decisions`` as text), and
install.sh leaves the folder out. The controller opens no socket: no network
module anywhere in its modules, i.e. in ``firmware_host`` except ``firmware_host/clubside/link``;
the one socket module import, the systemd notify datagram (AF_UNIX), is in sdnotify.py only.
The club traffic is the link's, ``firmware_host/clubside/link``, its own process: the rest of
``firmware_host`` never imports it; the command line names it as text and imports it only to
run ``skat-table link`` (and the bench its ``club`` group). A running ``skat-table run`` has
neither the link nor paho nor ssl loaded (checked in a child process).
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LINK = "firmware_host.clubside.link"
# Areas of the source: a package, or the controller (firmware_host without its link) and the
# link (firmware_host/clubside/link) separately.
PACKAGES = ("engine", "drivers", "display", "controller", "link", "club", "lab")
NETWORK = {"socket", "ssl", "paho", "amqtt", "http", "urllib", "asyncio", "aiohttp",
           "websockets", "requests", "socketserver", "smtplib", "ftplib", "xmlrpc", "club",
           "link", LINK}
FORBIDDEN = {
    "engine": {"drivers", "display", "firmware_host", "pygame", "serial", "gpiozero", "spidev"},
    "drivers": {"display", "firmware_host", "pygame"},
    "display": {"drivers", "firmware_host", "serial", "gpiozero", "spidev"},
    "controller": NETWORK,
    # the club server scores with the engine and never touches the table's hardware
    "club": {"drivers", "display", "firmware_host", "pygame", "serial", "gpiozero", "spidev"},
    # the link reads the journal and the club files of firmware_host, never the hardware
    "link": {"display", "drivers", "pygame", "serial", "gpiozero", "spidev"},
    # the lab measures the engine's players; it never touches the table
    "lab": {"drivers", "display", "firmware_host", "pygame", "serial", "gpiozero", "spidev"},
}
# Nothing the Pi runs imports the lab.
for _area in ("engine", "drivers", "display", "controller", "link", "club"):
    FORBIDDEN[_area] = FORBIDDEN[_area] | {"lab"}
# The controller's rooms by floor: a module imports from its own floor and those below only.
# The club side stands beside the table: the config reads its [club] section, the club desk
# reads the table's inputs. The link is its own process (its rules above).
FLOORS = {
    "firmware_host.configerror": 0,
    "firmware_host.config": 1, "firmware_host.table": 1, "firmware_host.clubside": 1,
    "firmware_host.screen": 2,
    "firmware_host.series": 3,
    "firmware_host.service": 4,
    "firmware_host.tools": 5, "firmware_host.cli": 5, "firmware_host.bench": 5,
    "firmware_host.__main__": 5,
}
# Modules of the controller that may name the link as text, for importlib when that command
# runs: the command table and the bench's table of groups.
DISPATCH = {"firmware_host/cli.py", "firmware_host/bench.py"}
# The lab's commands, named as text in the command table, imported only when they run.
LAB_COMMANDS = {"duel": "lab.duel", "decisions": "lab.decisions"}
PI_ONLY = {"RPi", "spidev", "lgpio", "smbus", "smbus2"}


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imported(path: Path, node: ast.Import | ast.ImportFrom) -> list[str]:
    """The full names a statement imports: ``from firmware_host import link`` and ``from .
    import link`` (in firmware_host) both give ``firmware_host.clubside.link``."""
    if isinstance(node, ast.Import):
        return [a.name for a in node.names]
    base = node.module or ""
    if node.level:
        package = _module_name(path).split(".")
        if path.name != "__init__.py":
            package = package[:-1]
        package = package[: len(package) - node.level + 1]
        base = ".".join(p for p in [*package, base] if p)
    return [base, *(f"{base}.{a.name}" for a in node.names)]


def _imports(path: Path, tree: ast.AST, top_level_only: bool) -> list[tuple[int, str]]:
    """(line, module) of the imports, each module as its full name and every package above it
    (``a.b.c`` gives ``a``, ``a.b`` and ``a.b.c``); with top_level_only, only module-level
    ones."""
    nodes = tree.body if top_level_only else list(ast.walk(tree))  # type: ignore[attr-defined]
    found = []
    for node in nodes:
        if isinstance(node, ast.Import | ast.ImportFrom):
            for name in _imported(path, node):
                parts = name.split(".")
                found += [(node.lineno, ".".join(parts[:i])) for i in range(1, len(parts) + 1)]
    return found


def _sources(area: str) -> list[Path]:
    if area == "controller":
        return [p for p in sorted((ROOT / "firmware_host").rglob("*.py"))
                if (ROOT / "firmware_host" / "clubside" / "link") not in p.parents]
    if area == "link":
        return sorted((ROOT / "firmware_host" / "clubside" / "link").rglob("*.py"))
    return sorted((ROOT / area).rglob("*.py"))


def test_the_areas_cover_every_source_file() -> None:
    every = {p for d in ("engine", "drivers", "display", "firmware_host", "club", "lab")
             for p in (ROOT / d).rglob("*.py")}
    covered = [p for area in PACKAGES for p in _sources(area)]
    assert len(covered) == len(set(covered)) and set(covered) == every
    assert _sources("link") and (ROOT / "link").exists() is False


@pytest.mark.parametrize("package", PACKAGES)
def test_package_imports_only_what_it_may(package: str) -> None:
    bad = []
    for path in _sources(package):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for line, module in _imports(path, tree, top_level_only=False):
            if module == "socket" and path.name == "sdnotify.py" and package == "controller":
                continue  # systemd's notify datagram: AF_UNIX only (checked below)
            if module in FORBIDDEN[package]:
                bad.append(f"{path.relative_to(ROOT)}:{line} imports {module}")
    assert not bad, "\n".join(bad)


def _floor(module: str) -> int | None:
    for room, floor in FLOORS.items():
        if module == room or module.startswith(room + "."):
            return floor
    return None


def test_every_module_of_the_controller_stands_on_a_floor() -> None:
    lost = [p.relative_to(ROOT).as_posix() for p in _sources("controller")
            if _module_name(p) != "firmware_host" and _floor(_module_name(p)) is None]
    assert not lost, f"give these a room in FLOORS: {lost}"


def test_the_controller_rooms_import_only_from_their_floor_and_below() -> None:
    bad = []
    for path in _sources("controller"):
        name = _module_name(path)
        here = _floor(name)
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for line, module in _imports(path, tree, top_level_only=False):
            there = _floor(module)
            if here is not None and there is not None and there > here:
                bad.append(f"{path.relative_to(ROOT)}:{line} ({name}, floor {here}) imports "
                           f"{module} (floor {there})")
    assert not bad, "\n".join(bad)


def test_nothing_the_table_runs_names_the_lab_except_to_dispatch_its_commands() -> None:
    """``importlib.import_module("lab...")`` would pull the lab into the Pi's process: the lab's
    module names appear as text only in the command table, for ``duel`` and ``decisions``."""
    bad = []
    for area in ("engine", "drivers", "display", "controller", "link", "club"):
        for path in _sources(area):
            rel = path.relative_to(ROOT).as_posix()
            tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
            for node in ast.walk(tree):
                if (isinstance(node, ast.Constant) and isinstance(node.value, str)
                        and (node.value == "lab" or node.value.startswith("lab."))
                        and rel != "firmware_host/cli.py"):
                    bad.append(f"{rel}:{node.lineno} names {node.value!r}")
    assert not bad, "\n".join(bad)
    from firmware_host.cli import COMMANDS

    assert {n: COMMANDS[n][0] for n in LAB_COMMANDS} == LAB_COMMANDS
    assert [n for n, (module, _, _) in COMMANDS.items() if module.startswith("lab.")] == list(
        LAB_COMMANDS)


def test_the_command_line_without_the_lab_says_so_in_one_line() -> None:
    """On the Pi the lab is not installed: ``--help`` still lists every command and ``skat-table
    duel`` says where the lab lives, with exit status 2, instead of a traceback."""
    hide = "import sys; sys.modules['lab'] = None; from firmware_host.cli import main; "
    out = subprocess.run([sys.executable, "-c", hide + "sys.exit(main(['--help']))"],
                         cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert "duel" in out.stdout and "decisions" in out.stdout
    for command in LAB_COMMANDS:
        out = subprocess.run([sys.executable, "-c", hide + f"sys.exit(main([{command!r}]))"],
                             cwd=ROOT, capture_output=True, text=True, timeout=60)
        assert out.returncode == 2, (out.stdout, out.stderr)
        assert "Traceback" not in out.stderr
        lines = out.stderr.strip().splitlines()
        assert len(lines) == 1 and "strength lab" in lines[0] and "lab/" in lines[0], lines


def test_the_pi_install_leaves_the_lab_out(tmp_path: Path) -> None:
    """install.sh and install-club.sh copy the source with install-lib.sh's
    skat_copy_source, which leaves lab/ out both ways it can copy (rsync, or tar where rsync
    is missing), so the package pip builds on the Pi holds the table and not the lab."""
    import shutil

    for name in ("install.sh", "install-club.sh"):
        script = (ROOT / "systemd" / name).read_text(encoding="utf-8")
        assert 'skat_copy_source "$SRC" "$PREFIX/src"' in script, name
    src = tmp_path / "src"
    for d in ("lab/anchor", "firmware_host/table", "engine"):
        (src / d).mkdir(parents=True)
        (src / d / "x.py").write_text("")
    lib = ROOT / "systemd" / "install-lib.sh"
    for tool in ("rsync", "tar"):
        if shutil.which(tool) is None:
            continue
        # a PATH with the tools the copy needs: rsync only in the first round
        bin_dir = tmp_path / f"bin-{tool}"
        bin_dir.mkdir()
        for need in {"tar", "mkdir", tool}:
            (bin_dir / need).symlink_to(shutil.which(need))
        dest = tmp_path / f"p-{tool}" / "src"
        copy = f'. "{lib}" && skat_copy_source "$SRC" "$DEST"'
        subprocess.run([shutil.which("bash") or "/bin/bash", "-c", copy], check=True, timeout=60,
                       env={"SRC": str(src), "DEST": str(dest), "PATH": str(bin_dir)})
        assert (dest / "firmware_host" / "table" / "x.py").exists(), tool
        assert not (dest / "lab").exists(), tool


@pytest.mark.parametrize("package", PACKAGES)
def test_no_pi_only_module_at_import_time(package: str) -> None:
    bad = []
    for path in _sources(package):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for line, module in _imports(path, tree, top_level_only=True):
            if module in PI_ONLY:
                bad.append(f"{path.relative_to(ROOT)}:{line} imports {module} at module level")
    assert not bad, "\n".join(bad)


def test_packages_import_on_a_pc_without_pi_modules() -> None:
    """Import every module of the project in a fresh interpreter and check no Pi module loaded."""
    code = (
        "import importlib, pkgutil, sys\n"
        f"for pkg in {('engine', 'drivers', 'display', 'firmware_host', 'club', 'lab')!r}:\n"
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
    for path in _sources("controller"):
        text = path.read_text(encoding="utf-8")
        tree = ast.parse(text, filename=str(path))
        for line, module in _imports(path, tree, top_level_only=False):
            if module == "socket" and path.name != "sdnotify.py":
                bad.append(f"{path.relative_to(ROOT)}:{line} imports socket")
        if path.name == "sdnotify.py":
            families = {n.attr for n in ast.walk(tree)
                        if isinstance(n, ast.Attribute) and n.attr.startswith("AF_")}
            assert families <= {"AF_UNIX"}, families
    assert not bad, "\n".join(bad)


def test_the_controller_names_the_link_only_to_dispatch_its_command() -> None:
    """No ``importlib.import_module("firmware_host.clubside.link...")`` hidden in the
    controller: the link's module names appear as text only in the command table and the bench's
    groups."""
    bad = []
    for path in _sources("controller"):
        rel = path.relative_to(ROOT).as_posix()
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if (isinstance(node, ast.Constant) and isinstance(node.value, str)
                    and node.value.startswith(LINK) and rel not in DISPATCH):
                bad.append(f"{rel}:{node.lineno} names {node.value!r}")
    assert not bad, "\n".join(bad)
    from firmware_host.cli import COMMANDS

    assert COMMANDS["link"][0] == f"{LINK}.command"


# What the controller process must never have loaded: the club link and the network.
NOT_IN_THE_CONTROLLER = ("firmware_host.clubside.link", "paho", "ssl", "amqtt", "http.client",
                         "asyncio", "urllib.request")
WATCH = f"""
import atexit, os, sys
def _report():
    bad = sorted(m for m in sys.modules
                 if any(m == n or m.startswith(n + ".") for n in {NOT_IN_THE_CONTROLLER!r}))
    with open(os.environ["SKAT_MODULES_OUT"], "w") as f:
        f.write("loaded: " + ",".join(bad) + "\\n")
        f.write("count: %d\\n" % len(sys.modules))
atexit.register(_report)
from firmware_host.cli import main
sys.exit(main(sys.argv[1:]))
"""


def test_skat_table_run_never_loads_the_link_nor_a_network_library(tmp_path: Path) -> None:
    """``skat-table run --no-display`` at a club table (its config has ``[club]``, so the
    kiosk's club desk runs) until SIGTERM: at exit, neither ``firmware_host.clubside.link`` nor
    paho, ssl, asyncio or an HTTP client was ever imported in that process. ``skat-table link`` in
    the same way loads them (so the check can see them)."""
    import os
    import signal
    import socket
    import time

    config = tmp_path / "table.toml"
    (tmp_path / "pw").write_text("secret\n")
    config.write_text((ROOT / "tests" / "data" / "configs" / "three.toml").read_text()
                      + '\n[club]\nbroker = "mqtt://127.0.0.1:9"\nclub = "c1"\n'
                      f'table = "7"\npassword_file = "{tmp_path / "pw"}"\n')
    data = tmp_path / "data"
    notify = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    notify.bind(str(tmp_path / "notify"))
    notify.settimeout(30)
    out = {}
    try:
        for command in ("run", "link"):
            out[command] = tmp_path / f"{command}.modules"
            argv = [command, "--config", str(config), "--data-dir", str(data)]
            if command == "run":
                argv.append("--no-display")
            env = dict(os.environ, SKAT_MODULES_OUT=str(out[command]),
                       NOTIFY_SOCKET=str(tmp_path / "notify"))
            proc = subprocess.Popen([sys.executable, "-c", WATCH, *argv], cwd=ROOT, env=env,
                                    stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            try:
                if command == "run":
                    while b"READY=1" not in notify.recv(4096):  # the table is up
                        pass
                    time.sleep(0.5)  # a few turns of the event loop with the club desk
                else:
                    status = data / "club" / "status.json"
                    deadline = time.monotonic() + 30
                    while not status.exists() and time.monotonic() < deadline:
                        time.sleep(0.05)
                    assert status.exists(), "the link wrote no status"
                proc.send_signal(signal.SIGTERM)
                _, err = proc.communicate(timeout=30)
            finally:
                if proc.poll() is None:
                    proc.kill()
                    proc.wait()
            assert proc.returncode == 0, err
    finally:
        notify.close()
    run = out["run"].read_text()
    assert run.startswith("loaded: \n"), f"skat-table run loaded {run}"
    link = out["link"].read_text().splitlines()[0]
    assert "firmware_host.clubside.link.service" in link and "paho" in link and "ssl" in link, link

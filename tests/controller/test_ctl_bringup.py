"""docs/bring-up.md's commands, in order, run as written where they can run without a Pi
(``tests/bringup_doc.py`` takes them from the document, so the two cannot drift apart).

The machine is set up as ``install.sh`` leaves a Pi: ``/etc/skat-table/config.toml`` (the
example config) readable by root and the service's group only (file 0640, directory 0750,
in a private mount namespace with an overlay on ``/etc``), ``skat-table`` on the PATH, and
``spidev`` answered by emulated MFRC522 readers with a card on each. A command with ``sudo``
runs as root; one without as an unprivileged user (``nobody``), as the person's own shell
would; the PC soak (``.venv/bin/python``) in this checkout. Passes, seconds and deals are cut
(``--quick``). The rest (systemd, journald, /proc and /run of a running table) the twin runs.
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))
from bringup_doc import DOC, Command, commands  # noqa: E402

NOBODY = 65534


def sandbox_works() -> str | None:
    if os.geteuid() != 0:
        return "needs root (a mount namespace, root-owned files, another user)"
    for tool in ("unshare", "setpriv"):
        if shutil.which(tool) is None:
            return f"no {tool} here"
    probe = subprocess.run(["unshare", "-m", "--propagation", "private", "sh", "-c",
                            "mount -t tmpfs none /mnt"], capture_output=True, timeout=30)
    return None if probe.returncode == 0 else "no mount namespaces here"


class Table:
    """The installed table's files and commands, in a temporary directory."""

    def __init__(self, tmp: Path) -> None:
        self.tmp = tmp
        self.bin = tmp / "bin"
        self.bin.mkdir()
        self.home = tmp / "home"
        self.home.mkdir(mode=0o777)
        self.home.chmod(0o777)
        self.upper = tmp / "etc-up"
        (tmp / "etc-work").mkdir()
        etc = self.upper / "skat-table"
        etc.mkdir(parents=True)
        config = etc / "config.toml"
        shutil.copyfile(ROOT / "systemd" / "config.example.toml", config)
        os.chown(etc, 0, 0)
        os.chown(config, 0, 0)
        etc.chmod(0o750)    # install.sh: root:skat 0750 and 0640; here the group is root's
        config.chmod(0o640)
        fakespi = Path(__file__).with_name("fakespi")
        # skat-table as install.sh links it, over this checkout. The unprivileged user cannot
        # reach this machine's venv (under /root here): Debian's python3 runs the probe.
        wrapper = self.bin / "skat-table"
        wrapper.write_text(
            "#!/bin/sh\n"
            f'if [ "$(id -u)" = 0 ]; then py={shlex.quote(sys.executable)}; '
            "else py=/usr/bin/python3; fi\n"
            f"PYTHONPATH={shlex.quote(f'{fakespi}:{ROOT}')} exec \"$py\" -m firmware_host \"$@\"\n",
            encoding="utf-8")
        wrapper.chmod(0o755)

    def run(self, command: Command) -> subprocess.CompletedProcess[str]:
        text = command.quick()
        env = {"PATH": f"{self.bin}:/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin",
               "HOME": str(self.home), "LANG": "C.UTF-8", "SDL_VIDEODRIVER": "dummy",
               "SDL_AUDIODRIVER": "dummy", "PYTHONDONTWRITEBYTECODE": "1"}
        if command.program == ".venv/bin/python":  # on the PC, in a checkout
            text = text.replace(".venv/bin/python", shlex.quote(sys.executable), 1)
            env["PYTHONPATH"] = str(ROOT)
            return subprocess.run(["sh", "-c", text], cwd=ROOT, env=env, capture_output=True,
                                  text=True, timeout=300)
        if command.sudo:  # root; sudo itself is not needed (nor installed) here
            run = ["sh", "-c", text[len("sudo"):].lstrip()]
        else:
            run = ["setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups",
                   "sh", "-c", text]
        mount = (f"mount -t overlay overlay -o lowerdir=/etc,upperdir={self.upper},"
                 f"workdir={self.tmp / 'etc-work'} /etc && exec \"$@\"")
        return subprocess.run(["unshare", "-m", "--propagation", "private", "sh", "-c", mount,
                               "sh", *run], cwd=self.home, env=env, capture_output=True,
                              text=True, timeout=300)


def test_the_commands_are_found() -> None:
    found = commands(DOC.read_text(encoding="utf-8"))
    steps = {c.step for c in found}
    assert {"1", "2", "3", "4", "5", "6", "7", "9"} <= steps, steps
    here = [c for c in found if c.where == "here"]
    assert len(here) >= 8 and all(c.step for c in found)
    # Every command names real paths, no "..." to fill in.
    assert not [c.text for c in found if "..." in c.text]


@pytest.fixture
def table() -> Iterator[Table]:
    """A table in a directory the unprivileged user can reach (pytest's own temporary
    directories are private to root)."""
    if sandbox_works() is not None:
        pytest.skip(f"{sandbox_works()}")
    base = Path(tempfile.mkdtemp(prefix="skat-bringup-", dir="/tmp"))
    base.chmod(0o755)
    try:
        yield Table(base)
    finally:
        shutil.rmtree(base, ignore_errors=True)


def test_the_commands_run_as_written(table: Table) -> None:
    ran = []
    for command in commands(DOC.read_text(encoding="utf-8")):
        if command.where != "here":
            continue
        done = table.run(command)
        ran.append(command.text)
        assert done.returncode == 0, (
            f"docs/bring-up.md line {command.line} (step {command.step}) failed with exit "
            f"{done.returncode}: {command.text}\n{done.stdout[-1500:]}\n{done.stderr[-1500:]}")
        if command.program == "skat-table":
            assert "DEAD" not in done.stdout, done.stdout
            assert "MFRC522 v2.0" in done.stdout, done.stdout
        if "--config" in command.words:  # every reader of the installed config
            assert "(deal)" in done.stdout and "(centre)" in done.stdout, done.stdout
    assert len(ran) >= 8


def test_the_config_is_not_for_everyone(table: Table) -> None:
    """The check can fail: the probe without sudo cannot read the config (exit 2)."""
    done = table.run(Command("2", "skat-table probe --config /etc/skat-table/config.toml", 0))
    assert done.returncode == 2 and "Permission denied" in done.stderr, (done.stdout,
                                                                         done.stderr)

"""The twin's steps, each usable alone (the tests in tests/twin call them one by one) and all
together (``python -m twin``, ``make twin``):

1. :meth:`Twin.image` the cached Debian image (built once by twin/image.sh);
2. :meth:`Twin.boot` a fresh "new Pi" from it, up to a login;
3. :meth:`Twin.install` the checkout (a git bundle of HEAD, cloned in the VM) with
   ``sudo systemd/install.sh``, as the README says; then again, which must change nothing;
4. :meth:`Twin.configure` the reader board's /dev/serial/by-path name into the config, and
   power off and on;
5. :meth:`Twin.ready` the unit reaches READY, the kiosk's first frame (QMP screendump);
6. :meth:`Twin.play_deal` a whole deal over the USB serial board, compared with a replay of
   the exported journal on the host;
7. :meth:`Twin.touch` a USB tablet plugged in while the table runs, then tapped;
   :meth:`Twin.gpio` the turn lights, a button and the buzzer on gpio-sim lines;
8. :meth:`Twin.bring_up` the commands of docs/bring-up.md as written;
9. :meth:`Twin.no_display` a boot without a display device;
10. :meth:`Twin.worn_card` EIO on every read and write of the disk during play;
11. :meth:`Twin.power_cuts` SIGKILL to QEMU mid-play, boot again, nothing shown is lost.

Every figure goes into :attr:`Twin.figures` (and ``figures.json`` in the work directory);
:func:`figures_table` prints them.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import random
import shlex
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from twin.board import TwinBoard
from twin.image import build_seconds, cache_root, ensure_image
from twin.table import CONFIG_PATH, TableDriver, config_toml, durable, replay_config
from twin.vm import VM, VMError

ROOT = Path(__file__).resolve().parent.parent
UNIT = "skat-table.service"
TABLET = "QEMU QEMU USB Tablet"
TABLET_RULE = "/etc/udev/rules.d/69-twin-touch.rules"
# What a second install.sh must leave as it was: everything it writes (pip's caches and the
# byte code Python writes when it runs are not the install's).
STATE_CMD = (
    "sudo find /opt/skat-table /etc/skat-table /etc/systemd/system/skat-table.service "
    "/etc/systemd/system/skat-table-link.service /etc/udev/rules.d/70-skat-table.rules "
    "/etc/modules-load.d/skat-table.conf /var/lib/skat-table -xdev "
    "\\( -name __pycache__ -prune \\) -o \\( -type f -o -type l \\) -printf '%p %m %u %g %s\\n' "
    "| sort; sudo /opt/skat-table/venv/bin/python -m pip freeze; "
    "getent passwd skat; id skat; "
    "systemctl is-enabled skat-table.service skat-table-link.service || true")


def log(msg: str) -> None:
    print(f"[twin {time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


class Twin:
    def __init__(self, arch: str | None = None, work: Path | None = None) -> None:
        self.arch = arch or os.environ.get("TWIN_ARCH", "arm64")
        self.work = Path(work or os.environ.get("TWIN_WORK") or
                         tempfile.mkdtemp(prefix="skat-twin-", dir="/var/tmp"))
        self.work.mkdir(parents=True, exist_ok=True)
        self.figures: dict[str, Any] = {"arch": self.arch}
        self.findings: list[str] = []  # what went wrong in the VM, with its evidence
        self.vm: VM | None = None
        self.board: TwinBoard | None = None
        self.driver: TableDriver | None = None
        self.port: str | None = None
        self.deals = 0
        self.has_gpio = False

    # -- bookkeeping ---------------------------------------------------------------------------
    def figure(self, key: str, value: Any) -> None:
        self.figures[key] = value
        (self.work / "figures.json").write_text(json.dumps(self.figures, indent=2) + "\n")
        log(f"{key}: {value}")

    def finding(self, text: str) -> None:
        self.findings.append(text)
        with open(self.work / "findings.txt", "a") as f:
            f.write(text.rstrip() + "\n\n")
        log("FINDING: " + text.splitlines()[0])

    # -- 1. image ------------------------------------------------------------------------------
    def image(self) -> Path:
        folder, seconds, cached = ensure_image(self.arch, self.work / "image-build.log")
        self.figure("image build (s)", round(build_seconds(folder) or seconds))
        self.figure("image from cache", cached)
        self.image_dir = folder
        return folder

    # -- 2. boot -------------------------------------------------------------------------------
    def boot(self) -> float:
        self.board = TwinBoard(self.work)
        tty = self.board.plug()
        self.vm = VM(self.image_dir, self.work / "vm", arch=self.arch, board_tty=tty)
        self.vm.fresh_disk()
        t0 = self.power_on()
        t1 = self.vm.wait_ssh()
        self.figure("boot to login, new Pi (s)", round(t1 - t0, 1))
        return t1 - t0

    def power_on(self) -> float:
        assert self.vm is not None and self.board is not None
        self.board.power_on()
        return self.vm.start()

    def power_cut(self) -> None:
        assert self.vm is not None and self.board is not None
        self.vm.kill()
        self.board.power_off()

    # -- 3. install ----------------------------------------------------------------------------
    def wheelhouse(self) -> Path:
        """The pinned requirements' files for the VM's platform, downloaded on the host once
        (``pip download --platform``) and cached by the requirement files' hash."""
        reqs = [ROOT / "systemd" / f"requirements-{n}.txt" for n in ("build", "pi")]
        key = hashlib.sha256(self.arch.encode() + b"".join(p.read_bytes() for p in reqs))
        out = cache_root() / f"wheels-{self.arch}-{key.hexdigest()[:16]}"
        if (out / "done").exists():
            return out
        machine = {"arm64": "aarch64", "amd64": "x86_64"}[self.arch]
        # bookworm's glibc is 2.36: every manylinux up to it (lgpio's wheel is 2_34)
        platforms = [f"manylinux_2_{minor}_{machine}" for minor in range(17, 37)]
        platforms += [f"manylinux2014_{machine}", f"linux_{machine}"]
        for req in reqs:
            subprocess.run([sys.executable, "-m", "pip", "download", "--quiet", "--dest",
                            str(out), *[a for p in platforms for a in ("--platform", p)],
                            "--python-version", "3.11", "--implementation", "cp", "--abi",
                            "cp311", "--no-deps", "-r", str(req)], check=True)
        (out / "done").write_text("")
        return out

    def offer_wheels(self) -> None:
        """Give the VM's pip the wheelhouse as its only index (/etc/pip.conf): the VM's own
        https to PyPI fails where the network's TLS goes through a proxy with its own CA (as
        on the machine the twin was built on). TWIN_PIP=pypi lets the VM use PyPI itself."""
        if os.environ.get("TWIN_PIP", "wheelhouse") == "pypi":
            self.figure("pip source", "PyPI from the VM")
            return
        vm = self.vm
        assert vm is not None
        house = self.wheelhouse()
        files = sorted(p.name for p in house.iterdir() if p.name != "done")
        tar = subprocess.run(["tar", "-C", str(house), "-cf", "-", *files], check=True,
                             capture_output=True).stdout
        vm.ssh("sudo mkdir -p /var/cache/skat-table-wheels && "
               "sudo tar -C /var/cache/skat-table-wheels -xf -", input=tar)
        vm.ssh("printf '[global]\\nno-index = true\\nfind-links = /var/cache/skat-table-wheels\\n'"
               " | sudo tee /etc/pip.conf >/dev/null")
        self.figure("pip source", f"wheelhouse from the host ({len(files)} files: "
                    + ", ".join(f for f in files if f.endswith(".tar.gz")) + " built in the VM)")

    def install(self) -> float:
        vm = self.vm
        assert vm is not None
        self.offer_wheels()
        bundle = self.work / "skat-table.bundle"
        subprocess.run(["git", "-C", str(ROOT), "bundle", "create", str(bundle), "HEAD"],
                       check=True, capture_output=True)
        head = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"],
                              check=True, capture_output=True, text=True).stdout.strip()
        self.figure("commit installed", head)
        vm.put(bundle, "/home/pi/skat-table.bundle")
        vm.ssh("git clone -q /home/pi/skat-table.bundle /home/pi/skat-table")
        t0 = time.monotonic()
        r = vm.ssh("cd /home/pi/skat-table && sudo systemd/install.sh", check=False,
                   timeout=3600)
        seconds = time.monotonic() - t0
        (self.work / "install-1.log").write_bytes(r.stdout + b"\n--- stderr ---\n" + r.stderr)
        self.figure("install.sh (s)", round(seconds))
        if r.returncode != 0:
            self.finding(f"install.sh exited {r.returncode} in the VM:\n"
                         + (r.stdout + r.stderr).decode(errors="replace")[-3000:])
            raise VMError(f"install.sh failed (exit {r.returncode}); see {self.work}/install-1.log")
        return seconds

    def install_again(self) -> list[str]:
        """install.sh once more: returns what changed (empty: nothing)."""
        vm = self.vm
        assert vm is not None
        before = vm.out(STATE_CMD)
        inv_before = vm.out(f"systemctl show -p InvocationID --value {UNIT}").strip()
        # A table not running (right after the first install it fails for want of a deck) is
        # started again by install.sh: that is no restart of a running table.
        running = vm.out(f"systemctl is-active {UNIT} || true").strip() == "active"
        t0 = time.monotonic()
        r = vm.ssh("cd /home/pi/skat-table && sudo systemd/install.sh", check=False, timeout=3600)
        self.figure("install.sh again (s)", round(time.monotonic() - t0))
        (self.work / "install-2.log").write_bytes(r.stdout + b"\n--- stderr ---\n" + r.stderr)
        after = vm.out(STATE_CMD)
        inv_after = vm.out(f"systemctl show -p InvocationID --value {UNIT}").strip()
        b, a = set(before.splitlines()), set(after.splitlines())
        changed = sorted({f"- {x}" for x in b - a} | {f"+ {x}" for x in a - b})
        if r.returncode != 0:
            changed.append(f"exit status {r.returncode}")
        if running and inv_before != inv_after:
            changed.append("the running table was restarted (a new InvocationID)")
        built = b"the package is installed as it is" in r.stdout
        self.figure("second install: package built again", not built)
        if not built:
            changed.append("the package was built and installed again")
        self.figure("second install changes", len(changed))
        (self.work / "install-diff.txt").write_text("\n".join(changed) + "\n")
        return changed

    # -- 4. configure --------------------------------------------------------------------------
    def by_path(self) -> str:
        """The board's /dev/serial/by-path name, as `python -m drivers.probe --ports` lists."""
        vm = self.vm
        assert vm is not None
        for _ in range(60):
            out = vm.ssh("ls /dev/serial/by-path/ 2>/dev/null", check=False).stdout.decode()
            names = [n for n in out.split() if n]
            if names:
                return "/dev/serial/by-path/" + names[0]
            time.sleep(2)
        raise VMError("no /dev/serial/by-path/ name for the USB serial board: "
                      + vm.out("lsusb; ls -l /dev/ttyUSB* 2>&1; lsmod | grep -i ftdi || true"))

    def configure(self, display: bool = True) -> str:
        vm = self.vm
        assert vm is not None
        self.port = self.by_path()
        self.figure("board port", self.port)
        from twin import gpio

        t0 = time.monotonic()
        header = ""
        try:
            folder = gpio.module(self.arch, self.image_dir, self.work / "gpiosim-build.log")
        except (subprocess.CalledProcessError, OSError) as exc:
            self.finding(f"no gpio-sim module for the twin's kernel ({exc}); the table runs "
                         f"without [gpio]: see {self.work}/gpiosim-build.log")
        else:
            self.figure("gpio-sim module", f"{folder.name} ({round(time.monotonic() - t0)} s)")
            gpio.install(vm, folder)
            header = gpio.gpio_toml()
            self.has_gpio = True
        text = config_toml(self.port, display=display, gpio=header)
        vm.ssh(f"sudo tee {CONFIG_PATH} >/dev/null", input=text.encode())
        # QEMU's tablet is no touchscreen to udev: the twin names it as install.sh's rule names
        # a touchscreen, with that rule's own actions (its line, matched by the tablet's name).
        rule = vm.out("cat /etc/udev/rules.d/70-skat-table.rules")
        line = next(x for x in rule.splitlines() if x.startswith("SUBSYSTEM=="))
        twin_rule = line.replace('ENV{ID_INPUT_TOUCHSCREEN}=="1"', f'ATTRS{{name}}=="{TABLET}"')
        vm.ssh(f"sudo tee {TABLET_RULE} >/dev/null",
               input=(f"# written by the twin: QEMU's USB tablet as the touchscreen\n"
                      f"{twin_rule}\n").encode())
        vm.ssh("sudo systemctl daemon-reload")
        return self.port

    def restart_vm(self, clean: bool = True) -> float:
        """Power off (cleanly, or a power cut) and on; returns the power-on time."""
        vm = self.vm
        assert vm is not None
        if clean:
            vm.shutdown()
            self.board.power_off()  # type: ignore[union-attr]
        else:
            self.power_cut()
        return self.power_on()

    # -- 5. ready ------------------------------------------------------------------------------
    def unit(self) -> dict[str, str]:
        out = self.vm.out(  # type: ignore[union-attr]
            f"systemctl show -p ActiveState,SubState,StatusText,NRestarts,WatchdogUSec,"
            f"ExecMainStatus,InvocationID {UNIT}", timeout=60)
        return dict(line.split("=", 1) for line in out.splitlines() if "=" in line)

    def wait_ready(self, t0: float, timeout: float = 900) -> float:
        """Wait until the unit is active with a status line (READY=1 sent); seconds from t0."""
        vm = self.vm
        assert vm is not None
        try:
            vm.wait_ssh(min(timeout, 600))
        except VMError as exc:
            if "no login" not in str(exc):
                raise
            # Once in a few dozen boots under TCG the guest came to its login prompt and its
            # sshd never answered (twin-gpio's job still running on the console): the table's
            # state cannot be seen. Said as a finding, with the boot's own journal, and the
            # power cut and switched on again, as a person would.
            self.finding("a boot whose ssh never answered; power cut and switched on again. "
                         "Its console:\n" + str(exc)[-2500:])
            self.power_cut()
            t0 = self.power_on()
            vm.wait_ssh(timeout)
            # (in the boot seen since, sshd listened 2 s after the header was up and the
            # table started: the network's side is asked for too)
            self.finding("that boot's journal (the network, ssh, twin-gpio, the table):\n"
                         + vm.out("sudo journalctl -b -1 --no-pager -o short-monotonic "
                                  "-u systemd-networkd -u ssh -u twin-gpio "
                                  f"-u {UNIT} 2>&1 | tail -80 || true"))
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            u = self.unit()
            if u.get("ActiveState") == "active" and u.get("StatusText"):
                return time.monotonic() - t0
            time.sleep(1)
        raise VMError(f"{UNIT} not READY: {self.unit()}\n"
                      + vm.out(f"sudo journalctl -b -u {UNIT} --no-pager | tail -40"))

    def first_frame(self, t0: float, timeout: float = 600) -> tuple[float, Path]:
        """Poll the display until the kiosk shows (see :func:`twin.frames.is_kiosk`)."""
        from twin.frames import is_kiosk

        vm = self.vm
        assert vm is not None
        end = time.monotonic() + timeout
        n = 0
        last = None
        while time.monotonic() < end:
            path = self.work / f"frame-{vm.boots}-{n % 2}.png"
            with contextlib.suppress(VMError, OSError):
                vm.screendump(path)
                last = path
                if is_kiosk(path):
                    seconds = time.monotonic() - t0
                    final = self.work / f"first-frame-boot{vm.boots}.png"
                    path.replace(final)
                    return seconds, final
            n += 1
            time.sleep(1)
        raise VMError(f"no kiosk frame in {timeout} s (last: {last})")

    def ready(self) -> dict[str, Any]:
        """Power cycle into the configured table; measure READY and the first frame."""
        t0 = self.restart_vm(clean=True)
        seconds, frame = self.first_frame(t0)
        self.figure("boot to first frame (s)", round(seconds, 1))
        self.figure("first frame", str(frame))
        ready = self.wait_ready(t0)
        self.figure("boot to READY (s)", round(ready, 1))
        vm = self.vm
        assert vm is not None
        score = vm.out(f"systemd-analyze security {UNIT} --no-pager | tail -1").strip()
        self.figure("systemd-analyze security", score)
        # The watchdog: two intervals (WatchdogSec=20s) with the table idle, no restart.
        time.sleep(45)
        u = self.unit()
        dog = vm.out(f"sudo journalctl -b -u {UNIT} --no-pager | grep -ci watchdog || true").strip()
        self.figure("watchdog", f"WatchdogUSec={u.get('WatchdogUSec')}, NRestarts="
                    f"{u.get('NRestarts')}, watchdog lines in the log: {dog}")
        self.figure("status after boot", u.get("StatusText"))
        return u

    # -- 6. a deal -----------------------------------------------------------------------------
    def table(self) -> TableDriver:
        if self.driver is None:
            self.driver = TableDriver(self.vm, self.board, log=log)
        return self.driver

    def play_deal(self) -> int:
        """Deal a shuffled deck and lay what the computers ask for until the deal is scored."""
        drv = self.table()
        t0 = time.monotonic()
        laid = drv.play(until_scored=True)
        self.deals += 1
        self.figure(f"deal {self.deals}: cards laid (dealt and played)", laid)
        self.figure(f"deal {self.deals}: dealt, bid and played (s)", round(time.monotonic() - t0))
        return laid

    def compare_with_host(self) -> dict[str, Any]:
        """Export the twin's journal, replay its script on the host, compare."""
        vm = self.vm
        assert vm is not None
        vm.ssh("sudo /opt/skat-table/venv/bin/skat-table export --data-dir /var/lib/skat-table "
               "--script /tmp/twin.jsonl --iss /tmp/twin.iss --no-analysis && "
               "sudo chmod a+r /tmp/twin.jsonl /tmp/twin.iss", timeout=600)
        script = self.work / "twin.jsonl"
        iss = self.work / "twin.iss"
        vm.get("/tmp/twin.jsonl", script)
        vm.get("/tmp/twin.iss", iss)
        cfg = self.work / "replay.toml"
        cfg.write_text(replay_config())
        # The twin's own replay of its export (arm64, the VM's Python) and the host's.
        vm.put(cfg, "/tmp/replay.toml")
        guest = json.loads(vm.out("/opt/skat-table/venv/bin/skat-table replay /tmp/replay.toml "
                                  "/tmp/twin.jsonl --json 2>/dev/null", timeout=600))
        host_journal = self.work / "host-journal.sqlite"
        for stale in host_journal.parent.glob(host_journal.name + "*"):
            stale.unlink()   # the journal and its copy and lock from a step before
        replayed = subprocess.run(
            [sys.executable, "-m", "firmware_host", "replay", str(cfg), str(script), "--json",
             "--journal", str(host_journal)], cwd=ROOT, capture_output=True, text=True)
        if replayed.returncode != 0:
            raise VMError(f"the host's replay of the twin's script exited "
                          f"{replayed.returncode}:\n{replayed.stderr[-3000:]}")
        host = json.loads(replayed.stdout)
        host_iss = self.work / "host.iss"
        subprocess.run([sys.executable, "-m", "firmware_host", "export", "--journal",
                        str(host_journal), "--iss", str(host_iss), "--no-analysis"],
                       cwd=ROOT, check=True, capture_output=True)
        # What the board laid, in order, against the script's tag lines.
        lines = [json.loads(x) for x in script.read_text().splitlines() if x.strip()]
        tags_in_script = [(x["zone"], x["tag"]) for x in lines if "tag" in x and not x.get("gone")]
        drv = self.table()
        out = {
            "games": len(host["games"]),
            "guest replay == host replay": guest == host,
            "ISS twin == ISS host": _iss_games(iss) == _iss_games(host_iss),
            "cards laid == cards in the journal": tags_in_script == drv.board.laid,
            "refused": len(host["rejected"]),
        }
        (self.work / "compare.json").write_text(json.dumps({"summary": out, "host": host,
                                                            "guest": guest}, indent=2))
        self.figure("journal vs host replay", out)
        return out

    # -- a touchscreen plugged in while the table runs ---------------------------------------
    def wait_restarted(self, before: str, timeout: float = 300) -> float:
        """Wait until the unit runs under another InvocationID than ``before``, READY."""
        t0 = time.monotonic()
        end = t0 + timeout
        while time.monotonic() < end:
            u = self.unit()
            if u.get("InvocationID") != before and u.get("ActiveState") == "active" \
                    and u.get("StatusText"):
                return time.monotonic() - t0
            time.sleep(1)
        raise VMError(f"{UNIT} was not restarted in {timeout} s: {self.unit()}")

    def touch(self) -> dict[str, Any]:
        """QEMU's USB tablet plugged in after the table started: udev names it
        /dev/skat-table/touch (the twin's rule, install.sh's actions), the plugged-in service
        restarts the table, whose DeviceAllow now names it, and a tap on the language button
        (found by the kiosk's own layout) opens the language picker; a second tap closes it."""
        from twin.frames import is_kiosk, share_changed, tap_target

        vm = self.vm
        assert vm is not None
        before = self.unit().get("InvocationID", "")
        t0 = time.monotonic()
        vm.plug_tablet()
        vm.touch = True  # and at every power-on from now on
        end = t0 + 120
        while vm.ssh("test -L /dev/skat-table/touch", check=False).returncode != 0:
            if time.monotonic() > end:
                raise VMError("udev did not name the tablet /dev/skat-table/touch: " + vm.out(
                    "cat /proc/bus/input/devices; ls -l /dev/input/ /dev/skat-table/ || true"))
            time.sleep(1)
        restarted = self.wait_restarted(before)
        said = vm.out("sudo journalctl -b -u skat-table-touch-plugged --no-pager -o cat | "
                      "grep -i 'plugged in' || true").strip()
        self.figure("touch: plugged in to READY again (s)", round(time.monotonic() - t0, 1))
        self.figure("touch: the plugged-in service said", said)
        x, y = tap_target("language")
        frames = []
        end = time.monotonic() + 180
        shot = self.work / "touch-0.png"
        while True:  # the kiosk's frame after the restart
            with contextlib.suppress(VMError, OSError):
                vm.screendump(shot)
                if is_kiosk(shot):
                    break
            if time.monotonic() > end:
                raise VMError("no kiosk frame after the restart for the touchscreen")
            time.sleep(1)
        # A person taps a screen that has settled: after the restart the reader board's
        # pill can still be on it for a moment (at one run, under load, the frame changed
        # by 4 % in the 3 s after the tap: the pill went, and the picker did not open)
        before = self.settled_frame(self.work / "touch-before.png", end)
        frames.append(before)
        taps = 0
        opened = 0.0
        while taps < 2 and opened <= 0.02:
            vm.tap(x, y, 800, 480)
            taps += 1
            time.sleep(3)
            tapped = vm.screendump(self.work / f"touch-tapped-{taps}.png")
            opened = share_changed(before, tapped)
        frames.append(tapped)
        vm.tap(x, y, 800, 480)
        time.sleep(3)
        frames.append(vm.screendump(self.work / "touch-tapped-again.png"))
        closed = share_changed(frames[0], frames[2])
        out = {"restart after plug-in (s)": round(restarted, 1), "tap at": [x, y],
               "taps until the picker opened": taps if opened > 0.02 else None,
               "frame changed by the tap": round(opened, 3),
               "frame changed after the second tap": round(closed, 3)}
        self.figure("touch", out)
        return out

    def settled_frame(self, path: Path, end: float) -> Path:
        """The kiosk's frame once two screendumps a second apart are the same (or at
        ``end``, the last one)."""
        from twin.frames import share_changed

        vm = self.vm
        assert vm is not None
        last = vm.screendump(path.with_suffix(".prev.png"))
        while True:
            time.sleep(1)
            now = vm.screendump(path)
            if share_changed(last, now) < 0.001 or time.monotonic() > end:
                return now
            last = vm.screendump(path.with_suffix(".prev.png"))

    # -- GPIO: buttons, lights and buzzer on the kernel's GPIO character device --------------
    def gpio(self) -> dict[str, Any]:
        """During play, the turn light of the seat to act is on (read from the gpio-sim line
        the table drives through lgpio), and a press of a button (the line pulled down and up
        again) reaches the table: it is journalled (a computer's seat: refused, in the
        players' words) and the buzzer sounds."""
        from twin.gpio import SEATS, Header

        vm = self.vm
        drv = self.table()
        assert vm is not None
        if not self.has_gpio:
            raise VMError("the twin has no GPIO header (no gpio-sim module): see the findings")
        header = Header(vm)
        self.figure("gpio header", f"{header.device} {header.chip}")
        while True:  # to the play: a seat to act
            drv.poll()
            if drv.phase() == "play" and " to act" in drv.watch.status:
                break
            drv.play(cards=1)
        names = ["Anna", "Ben", "Carla"]
        for _ in range(5):
            # The lights sampled while one seat is to act throughout: a computer's decision
            # that needs no card (its Kontra declined) can pass the turn on mid-sampling, and
            # the status read before the samples then names the one before.
            actor = drv.watch.status.split(", ")[-1].split(" to act")[0].split(";")[0]
            lights = header.values([s["light"] for s in SEATS])
            drv.poll()
            if drv.watch.status.split(", ")[-1].split(" to act")[0].split(";")[0] == actor:
                break
        seat = names.index(actor)
        lit = {names[i]: round(sum(v) / max(1, len(v)), 2)
               for i, v in enumerate(lights.values())}
        before = len(drv.watch.records)
        presser = (seat + 1) % 3

        def press() -> None:
            header.press(SEATS[presser]["bid"])

        buzz = header.buzzer_during(press)

        def pressed(_new: list) -> Any:
            for _, kind, body in drv.watch.records[before:]:
                inp = body.get("input", {})
                if kind == "input" and inp.get("press") == "bid" and inp.get("seat") == presser:
                    return body
            return None

        record = drv.wait_for(pressed, "the bid button's press in the journal", 60)
        out = {"to act": actor, "lights on (share of samples)": lit,
               "pressed": f"{names[presser]}'s bid button", "journal": record,
               "buzzer samples on/all": f"{sum(buzz)}/{len(buzz)}"}
        self.figure("gpio", out)
        return out

    # -- docs/bring-up.md, as written --------------------------------------------------------
    def bring_up(self) -> list[dict[str, Any]]:
        """Each command of docs/bring-up.md in order, in the VM's checkout, exactly as the doc
        shows it but for the test's cuts (``tests/bringup_doc.py --quick``); a command that
        follows the journal (``-f``) or watches runs 20 s. The table runs again afterwards."""
        vm = self.vm
        assert vm is not None
        listing = vm.out("cd /home/pi/skat-table && python3 tests/bringup_doc.py --quick")
        results = []
        for row in listing.splitlines():
            step, _where, command = row.split("\t", 2)
            if command.startswith(".venv/"):
                continue  # run in a checkout on a PC (docs/bring-up.md says so), not on the Pi
            t0 = time.monotonic()
            r = vm.ssh(f"cd /home/pi && timeout -k 5 60 sh -c {shlex.quote(command)}",
                       check=False, timeout=120)
            text = (r.stdout + r.stderr).decode("utf-8", "replace")
            results.append({"step": step, "command": command, "exit": r.returncode,
                            "seconds": round(time.monotonic() - t0, 1),
                            "output": text[-1500:]})
        vm.ssh("sudo systemctl start skat-table", check=False)
        (self.work / "bring-up.json").write_text(json.dumps(results, indent=2))
        denied = [r["command"] for r in results
                  if "Permission denied" in r["output"] or "permission denied" in r["output"]]
        self.figure("bring-up commands run", len(results))
        self.figure("bring-up exits", {r["command"][:60]: r["exit"] for r in results})
        if denied:
            self.finding("bring-up: permission denied for " + "; ".join(denied))
        return results

    # -- no screen -----------------------------------------------------------------------------
    def no_display(self, idle: float = 60) -> dict[str, Any]:
        """The twin without a display device: the table reads cards, says the screen is
        missing, and is not restarted; then the display is back."""
        vm = self.vm
        assert vm is not None and self.board is not None
        vm.shutdown()
        self.board.power_off()
        vm.display = False
        try:
            t0 = self.power_on()
            ready = self.wait_ready(t0)
            drv = self.table()
            drv.watch = type(drv.watch)()
            drv.poll()
            status = drv.watch.status
            laid = drv.play(cards=3)
            time.sleep(idle)
            u = self.unit()
            said = vm.out(f"sudo journalctl -b -u {UNIT} --no-pager -o cat | grep -i screen | "
                          "head -3 || true").strip()
        finally:
            vm.shutdown()
            self.board.power_off()
            vm.display = True
        t1 = self.power_on()
        self.wait_ready(t1)
        self.table().poll()
        out = {"boot to READY (s)": round(ready, 1), "status": status,
               "cards taken without a screen": laid, "NRestarts": u.get("NRestarts"),
               "ActiveState": u.get("ActiveState"), "log": said}
        self.figure("no display", out)
        return out

    # -- a worn SD card ------------------------------------------------------------------------
    def worn_card(self, seconds: float = 40) -> dict[str, Any]:
        """Every read and write of the disk fails for a while during play (blkdebug): the
        table says so (status line, screen), takes no card it cannot save, and after "a new
        card with the old data" (the power cut, the disk answering again) it resumes with
        every record it had saved."""
        vm = self.vm
        drv = self.table()
        assert vm is not None and self.board is not None
        drv.play(cards=2)
        drv.poll()
        seen = list(drv.watch.records)
        nxt = None
        while nxt is None:
            drv.poll()
            nxt = drv.next_card()
            time.sleep(0.3)
        vm.wear()
        t0 = time.monotonic()
        if nxt[0] == "deal":
            drv.order_started = True
        self.board.lay(nxt[0], drv.tags[nxt[1]])
        statuses: list[str] = []
        shot = None
        while time.monotonic() - t0 < seconds:
            r = vm.ssh(f"systemctl show -p StatusText --value {UNIT}", check=False, timeout=20)
            text = r.stdout.decode("utf-8", "replace").strip()
            if text and text not in statuses:
                statuses.append(text)
            if shot is None and any("JOURNAL:" in x for x in statuses):
                time.sleep(2)
                shot = vm.screendump(self.work / "worn-card.png")
            time.sleep(2)
        if shot is None:
            shot = vm.screendump(self.work / "worn-card.png")
        errors = vm.qmp("query-blockstats")
        back = self.back_after_cut(seen, nxt, "the card laid during the errors")
        failed = sum(int(d.get("stats", {}).get("failed_wr_operations", 0)) +
                     int(d.get("stats", {}).get("failed_rd_operations", 0)) +
                     int(d.get("stats", {}).get("failed_flush_operations", 0))
                     for d in errors if isinstance(d, dict))  # type: ignore[union-attr]
        out = {"statuses during the errors": statuses, "I/O errors injected": failed,
               "boot to READY on the new card (s)": back["boot to READY (s)"],
               "lost": back["lost"], "lost records": back["lost records"],
               "not durable, gone": back["not durable, gone"],
               "card laid during the errors, after": back["card"], "frame": str(shot)}
        self.figure("worn SD card", out)
        return out

    # -- 7. power cuts -------------------------------------------------------------------------
    def cut_mid_play(self, rng: random.Random, early: bool = False) -> dict[str, Any]:
        """Lay the next card and cut the power a random moment after (every other cut within
        0.15 s, mostly before the card is saved; the others within 1.5 s); boot again: every
        journal record seen before is there, byte for byte, and the card that lay on the
        reader through the cut is taken (saved before the cut, it is "ignored" when the board
        lists it again at SYNC; not saved, it is "accepted" after the boot)."""
        drv = self.table()
        vm = self.vm
        assert vm is not None and self.board is not None
        drv.poll()
        seen = list(drv.watch.records)
        status_before = drv.watch.status
        nxt = None
        end = time.monotonic() + 300
        while nxt is None and time.monotonic() < end:
            nxt = drv.next_card()
            if nxt is None:
                time.sleep(0.3)
                drv.poll()
        if nxt is not None:
            if nxt[0] == "deal":
                drv.order_started = True
            self.board.lay(nxt[0], drv.tags[nxt[1]])
            time.sleep(rng.uniform(0.0, 0.15 if early else 1.5))
        back = self.back_after_cut(seen, nxt, "the card laid through the cut")
        fsck = vm.out("sudo journalctl -b -k --no-pager | grep -ciE 'recovery complete|"
                      "orphan|fsck' || true").strip()
        return {"boot to READY (s)": back["boot to READY (s)"], "records before": len(seen),
                "lost": back["lost"], "lost records": back["lost records"],
                "not durable, gone": back["not durable, gone"],
                "status before": status_before,
                "status after": drv.watch.status, "card through the cut": back["card"],
                "ext4 recovery lines": int(fsck or 0)}

    def back_after_cut(self, seen: list, card: tuple[str, str] | None,
                       what: str) -> dict[str, Any]:
        """The power cut and the boot after it: the journal read again from its first line
        and held against the records ``seen`` before; the ``card`` that lay on the reader
        through the cut waited for (taken, or "ignored" when it was saved before) and lifted."""
        drv = self.table()
        assert self.board is not None
        self.power_cut()
        ready = self.wait_ready(self.power_on())
        drv.watch = type(drv.watch)()
        drv.poll()
        after = {r[0]: r for r in drv.watch.records}
        gone = [r for r in seen if after.get(r[0]) != r]
        answer = None
        if card is not None:
            uid = drv.tags[card[1]]
            answer = drv.wait_for(lambda _new: drv._answered(card[0], uid)(drv.watch.records),
                                  what, 120)
            self.board.lift(card[0], uid)
        lost = [r for r in gone if durable(r)]
        return {"boot to READY (s)": round(ready, 1), "lost": len(lost),
                "lost records": [r[:2] for r in lost],
                "not durable, gone": [r[:2] for r in gone if not durable(r)], "card": answer}

    def power_cuts(self, count: int, seed: int = 100) -> dict[str, Any]:
        """``count`` power cuts, each after a random few cards (1-8: dealt, discarded or
        played) of an ongoing series; then the deal is played to its end."""
        rng = random.Random(seed)
        drv = self.table()
        results = []
        for i in range(count):
            drv.play(cards=rng.randrange(1, 9))
            r = self.cut_mid_play(rng, early=i % 2 == 0)
            results.append(r)
            log(f"power cut {i + 1}/{count}: {r}")
            (self.work / "cuts.json").write_text(json.dumps(results, indent=2))
        self.play_deal()
        survived = sum(1 for r in results if r["lost"] == 0)
        self.figure("power cuts survived", f"{survived}/{count}")
        self.figure("inputs lost in cuts", sum(r["lost"] for r in results))
        cards = [r["card through the cut"] for r in results]
        self.figure("card through the cut: saved before / taken after the boot",
                    f"{cards.count('ignored')} / {cards.count('accepted')}")
        boots = sorted(r["boot to READY (s)"] for r in results)
        self.figure("boot to READY after a cut, median (s)", boots[len(boots) // 2])
        return {"survived": survived, "lost": sum(r["lost"] for r in results),
                "results": results}

    def close(self) -> None:
        if self.vm is not None:
            self.vm.kill()
        if self.board is not None:
            with contextlib.suppress(Exception):
                self.board.close()


def _iss_games(path: Path) -> list[str]:
    """The ISS records without their date/time fields (the twin and the host play at other
    times)."""
    import re

    text = path.read_text()
    return [re.sub(r"(DT|ID)\[[^\]]*\]", "", line) for line in text.splitlines() if line.strip()]


def figures_table(figures: dict[str, Any]) -> str:
    rows = [(str(k), v if isinstance(v, str) else json.dumps(v)) for k, v in figures.items()]
    width = max(len(k) for k, _ in rows)
    return "\n".join(f"  {k.ljust(width)}  {v}" for k, v in rows)


def main(argv: list[str] | None = None) -> int:
    import argparse

    p = argparse.ArgumentParser(prog="python -m twin", description=__doc__.split("\n\n")[0])
    p.add_argument("--arch", default=os.environ.get("TWIN_ARCH", "arm64"))
    p.add_argument("--work", default=os.environ.get("TWIN_WORK"))
    p.add_argument("--cuts", type=int, default=int(os.environ.get("TWIN_CUTS", "1")))
    p.add_argument("--image-only", action="store_true")
    args = p.parse_args(argv)
    twin = Twin(args.arch, Path(args.work) if args.work else None)
    log(f"work directory {twin.work}")
    status = 0
    try:
        twin.image()
        if args.image_only:
            return 0
        twin.boot()
        twin.install()
        changes = twin.install_again()
        if changes:
            twin.finding("a second install.sh changed:\n" + "\n".join(changes[:40]))
        twin.configure()
        twin.ready()
        twin.play_deal()
        twin.compare_with_host()
        twin.touch()
        twin.gpio()
        twin.bring_up()
        twin.no_display()
        twin.worn_card()
        twin.power_cuts(args.cuts)
        twin.compare_with_host()
    except Exception as exc:
        status = 1
        log(f"FAILED: {exc}")
        twin.finding(f"the run stopped: {exc}")
    finally:
        twin.close()
        print("\nskat-table twin: figures\n" + figures_table(twin.figures))
        if twin.findings:
            print(f"\nfindings ({twin.work}/findings.txt):")
            for f in twin.findings:
                print("  - " + f.splitlines()[0])
    return status


if __name__ == "__main__":
    raise SystemExit(main())


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
7. :meth:`Twin.power_cuts` SIGKILL to QEMU mid-play, boot again, nothing shown is lost.

Every figure goes into :attr:`Twin.figures` (and ``figures.json`` in the work directory);
:func:`figures_table` prints them.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from twin.board import TwinBoard
from twin.image import build_seconds, cache_root, ensure_image
from twin.table import CONFIG_PATH, TableDriver, config_toml, replay_config, shuffled_order
from twin.vm import VM, VMError

ROOT = Path(__file__).resolve().parent.parent
UNIT = "skat-table.service"
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


# The VM's display has no GPU: Mesa renders in software. Its default, llvmpipe, compiles
# shaders to machine code, which the unit's MemoryDenyWriteExecute=yes forbids: the table
# dies of SIGSEGV before its first line of log, again and again (docs/twin.md, "Findings").
# softpipe interprets instead. And SDL's KMSDRM window surface stays black on QEMU's displays
# unless SDL draws it through GLES2. The Pi's V3D needs neither; the unit itself is unchanged.
DROPIN = "/etc/systemd/system/skat-table.service.d/twin-display.conf"
DISPLAY_DROPIN = """# written by the twin (twin/run.py): QEMU's display has no GPU
[Service]
Environment=GALLIUM_DRIVER=softpipe
Environment=SDL_FRAMEBUFFER_ACCELERATION=opengles2
"""


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
        self.deals: list[list[str]] = []

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
        if inv_before != inv_after:
            changed.append("the running table was restarted (a new InvocationID)")
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
        text = config_toml(self.port, display=display)
        vm.ssh(f"sudo tee {CONFIG_PATH} >/dev/null", input=text.encode())
        if os.environ.get("TWIN_DISPLAY_DROPIN", "1") != "0":
            vm.ssh(f"sudo mkdir -p {DROPIN.rsplit('/', 1)[0]} && sudo tee {DROPIN} >/dev/null",
                   input=DISPLAY_DROPIN.encode())
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
        vm.wait_ssh(timeout)
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            u = self.unit()
            if u.get("ActiveState") == "active" and u.get("StatusText"):
                return time.monotonic() - t0
            time.sleep(1)
        raise VMError(f"{UNIT} not READY: {self.unit()}\n"
                      + vm.out(f"journalctl -b -u {UNIT} --no-pager | tail -40"))

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
        dog = vm.out(f"journalctl -b -u {UNIT} --no-pager | grep -ci watchdog || true").strip()
        self.figure("watchdog", f"WatchdogUSec={u.get('WatchdogUSec')}, NRestarts="
                    f"{u.get('NRestarts')}, watchdog lines in the log: {dog}")
        self.figure("status after boot", u.get("StatusText"))
        return u

    # -- 6. a deal -----------------------------------------------------------------------------
    def table(self) -> TableDriver:
        if self.driver is None:
            self.driver = TableDriver(self.vm, self.board, log=log)
        return self.driver

    def play_deal(self, seed: int, cut_at: int | None = None) -> dict[str, Any]:
        """Deal and play one deal; ``cut_at``: a power cut after that many computer cards."""
        drv = self.table()
        order = shuffled_order(seed)
        self.deals.append(order)
        t0 = time.monotonic()
        drv.poll()
        drv.deal(order)
        self.figure(f"deal {len(self.deals)}: dealt 32 cards (s)", round(time.monotonic() - t0))
        result: dict[str, Any] = {}

        def hook(n: int) -> bool:
            if cut_at is not None and n == cut_at and not result:
                result.update(self.cut_mid_play())
                self.figure(f"deal {len(self.deals)}: power cut", result)
                return True
            return False

        t1 = time.monotonic()
        laid = drv.play_out(on_card=hook)
        self.figure(f"deal {len(self.deals)}: bid and played, cards laid", laid)
        self.figure(f"deal {len(self.deals)}: play (s)", round(time.monotonic() - t1))
        return result

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
        with contextlib.suppress(FileNotFoundError):
            host_journal.unlink()
        host = json.loads(subprocess.run(
            [sys.executable, "-m", "firmware_host", "replay", str(cfg), str(script), "--json",
             "--journal", str(host_journal)], cwd=ROOT, check=True, capture_output=True,
            text=True).stdout)
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

    # -- 7. power cuts -------------------------------------------------------------------------
    def cut_mid_play(self) -> dict[str, Any]:
        """Lay the prompted card and cut the power a random moment after; boot, compare."""
        drv = self.table()
        vm = self.vm
        assert vm is not None and self.board is not None
        drv.poll()
        seen = [r for r in drv.watch.records if r[1] == "input"]
        status_before = drv.watch.status
        shown = self.work / f"before-cut-{vm.boots}.png"
        vm.screendump(shown)
        prompt = drv.pending_prompt()
        in_flight = None
        if prompt is not None:
            zone = drv.zone_for_prompt()
            in_flight = (zone, drv.tags[prompt[1]])
            self.board.lay(*in_flight)
            time.sleep(random.Random(len(seen)).uniform(0.0, 1.5))
        self.power_cut()
        t0 = self.power_on()
        ready = self.wait_ready(t0)
        # Read the journal again from its first line: every input seen before must be there.
        drv.watch = type(drv.watch)()
        drv.poll()
        after = {(r[0]): r for r in drv.watch.records}
        lost = [r for r in seen if after.get(r[0]) != r]
        answer = None
        if in_flight is not None:  # the card lay through the cut: the table has it now
            # (saved before the cut, it is "ignored" when the board lists it again at SYNC)
            def taken(new: list) -> Any:
                return drv._answered(*in_flight)(drv.watch.records)

            answer = drv.wait_for(taken, "the card laid through the cut", 120)
            self.board.lift(*in_flight)
        status_after = drv.watch.status
        frame = self.work / f"after-cut-{vm.boots}.png"
        vm.screendump(frame)
        return {"boot to READY after cut (s)": round(ready, 1), "lost": len(lost),
                "status before": status_before, "status after": status_after,
                "card through the cut": answer}

    def power_cuts(self, count: int, seed: int = 100) -> dict[str, Any]:
        """``count`` deals, each with a power cut after a random number of laid cards."""
        rng = random.Random(seed)
        results = []
        for i in range(count):
            r = self.play_deal(seed + i, cut_at=rng.randrange(0, 20))
            results.append(r)
        survived = sum(1 for r in results if r and r["lost"] == 0)
        lost = sum(r.get("lost", 0) for r in results)
        self.figure("power cuts survived", f"{survived}/{count}")
        self.figure("inputs lost in cuts", lost)
        (self.work / "cuts.json").write_text(json.dumps(results, indent=2))
        return {"survived": survived, "lost": lost, "results": results}

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
        twin.play_deal(seed=1)
        twin.compare_with_host()
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


"""One twin VM: QEMU (TCG) booting the cached Debian image, driven from outside.

The VM's disk is a qcow2 overlay on the cached image (``rootfs.img`` stays untouched), so a
run starts from a fresh "new Pi" and a power cut (:meth:`VM.kill`, SIGKILL to QEMU) loses what
the guest had not written, as on the table. The host reaches the guest by

- ssh (QEMU's user network forwards a local port to the guest's 22): :meth:`VM.ssh`;
- QMP (a unix socket): :meth:`VM.qmp` (``screendump``, ``input-send-event``, ...);
- the serial console, written to ``console.log`` (the kernel's and systemd's messages);
- a USB serial adapter (QEMU's ``usb-serial``, an FTDI) whose other end is a host tty: the
  reader board simulator (``twin.board``).
"""

from __future__ import annotations

import contextlib
import json
import os
import shlex
import signal
import socket
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path

ARCHES = {
    "arm64": {
        "qemu": "qemu-system-aarch64",
        "machine": ["-M", "virt", "-cpu", "cortex-a72"],
        "display": ["-device", "virtio-gpu-pci,xres=800,yres=480"],
    },
    "amd64": {
        "qemu": "qemu-system-x86_64",
        "machine": ["-M", "q35", "-cpu", "max"],
        "display": ["-device", "virtio-vga,xres=800,yres=480"],
    },
}


class VMError(RuntimeError):
    pass


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def dt_nodes(dts: str, compatible: str) -> list[str]:
    """The names of the root's child nodes in a decompiled device tree whose compatible
    starts with ``compatible``.
    """
    names: list[str] = []
    name = None
    for line in dts.splitlines():
        if line.startswith("\t") and not line.startswith("\t\t") and line.endswith(" {"):
            name = line.strip()[:-2]
        elif line.startswith("\t\tcompatible = ") and name is not None:
            if line.strip().removeprefix("compatible = ").strip('"').startswith(compatible):
                names.append(name)
        elif line == "\t};":
            name = None
    return names


@dataclass
class VM:
    """A VM over ``image`` (a directory of twin/image.sh's output) with its state in ``work``."""

    image: Path
    work: Path
    arch: str = "arm64"
    memory_mb: int = 2048
    cpus: int = 2
    display: bool = True
    board_tty: str | None = None  # a host tty: the usb-serial adapter's other end
    touch: bool = False           # a USB touchscreen-like tablet for input-send-event
    # The board revision the device tree gives (/proc/device-tree/system/linux,revision), as a
    # Pi's firmware does: gpiozero names the header's pins by it. A Pi 4 B (arm64 only).
    revision: int | None = 0xC03114
    extra: list[str] = field(default_factory=list)
    ssh_port: int = 0
    proc: subprocess.Popen | None = None
    boots: int = 0

    def __post_init__(self) -> None:
        self.work.mkdir(parents=True, exist_ok=True)
        self.disk = self.work / "disk.qcow2"
        self.qmp_path = self.work / "qmp.sock"
        self.console = self.work / "console.log"
        self.key = self.image / "id_ed25519"
        self.ssh_port = self.ssh_port or free_port()
        self._control = self.work / "ssh.ctl"

    # -- disk ------------------------------------------------------------------------------
    def fresh_disk(self) -> None:
        """A new overlay on the cached image: the Pi as it comes out of the box."""
        with contextlib.suppress(FileNotFoundError):
            self.disk.unlink()
        subprocess.run(["qemu-img", "create", "-q", "-f", "qcow2", "-F", "raw", "-b",
                        str((self.image / "rootfs.img").resolve()), str(self.disk)], check=True)

    # -- power -----------------------------------------------------------------------------
    def command(self) -> list[str]:
        a = ARCHES[self.arch]
        cmdline = (self.image / "cmdline").read_text().strip()
        base = (self.image / "rootfs.img").resolve()
        cmd = [a["qemu"], *a["machine"], "-accel", "tcg,thread=multi", "-smp", str(self.cpus),
               "-m", str(self.memory_mb),
               "-kernel", str(self.image / "vmlinuz"), "-initrd", str(self.image / "initrd.img"),
               "-append", cmdline,
               # The disk as a chain of named nodes (the cached image read-only below the
               # overlay), so that a worn card can be put between the overlay and its file
               # while the VM runs (:meth:`wear`). Writeback cache: a power cut loses what the
               # guest had not flushed, as on the table.
               "-blockdev", f"driver=file,node-name=base-file,filename={base},read-only=on",
               "-blockdev", "driver=raw,node-name=base,file=base-file,read-only=on",
               "-blockdev", f"driver=file,node-name=root-file,filename={self.disk}",
               "-blockdev", "driver=qcow2,node-name=root,file=root-file,backing=base",
               "-device", "virtio-blk-pci,drive=root",
               "-netdev", f"user,id=net0,hostfwd=tcp:127.0.0.1:{self.ssh_port}-:22",
               "-device", "virtio-net-pci,netdev=net0",
               "-device", "virtio-rng-pci",
               "-qmp", f"unix:{self.qmp_path},server=on,wait=off",
               "-serial", f"file:{self.console}",
               "-display", "none", "-monitor", "none",
               "-device", "qemu-xhci,id=xhci"]
        if self.display:
            cmd += a["display"]
        if self.board_tty:
            cmd += ["-chardev", f"serial,id=board0,path={self.board_tty}",
                    "-device", "usb-serial,chardev=board0,bus=xhci.0,port=1"]
        if self.touch:
            cmd += ["-device", "usb-tablet,id=tablet,bus=xhci.0,port=2"]
        if self.arch == "arm64" and self.revision is not None:
            cmd += ["-dtb", str(self.board_dtb())]
        return cmd + self.extra

    def board_dtb(self) -> Path:
        """QEMU's own device tree for this machine with a ``/system`` node that says which Pi
        it is, as the Pi's firmware writes it (made once per work directory)."""
        out = self.work / "board.dtb"
        if out.exists():
            return out
        raw = self.work / "virt.dtb"
        # the tree depends on the machine, CPUs and memory (PCI devices are probed, and QEMU
        # writes /chosen, the kernel's command line and initrd, at every boot)
        a = ARCHES[self.arch]
        machine = list(a["machine"])
        machine[machine.index("-M") + 1] += f",dumpdtb={raw}"
        subprocess.run([a["qemu"], *machine, "-smp", str(self.cpus), "-m", str(self.memory_mb),
                        "-accel", "tcg", "-display", "none"], check=True, capture_output=True,
                       timeout=120)
        dts = subprocess.run(["dtc", "-q", "-I", "dtb", "-O", "dts", str(raw)], check=True,
                             capture_output=True, text=True).stdout
        end = dts.rstrip().rindex("};")
        node = f"\tsystem {{\n\t\tlinux,revision = <{self.revision:#010x}>;\n\t}};\n"
        # A Pi has no PL061: left in, it takes the number gpiochip0 at boot and, at some boots,
        # keeps it after its unbind, so the header came up as gpiochip1 (the power button's
        # gpio-keys node goes with it; the twin powers off through systemd)
        drop = "".join(f"\t/delete-node/ {name};\n" for name in dt_nodes(dts, "arm,pl061"))
        drop += "".join(f"\t/delete-node/ {name};\n" for name in dt_nodes(dts, "gpio-keys"))
        tail = f"\n/ {{\n{drop}}};\n" if drop else ""
        subprocess.run(["dtc", "-q", "-I", "dts", "-O", "dtb", "-o", str(out), "-"],
                       input=dts[:end] + node + dts[end:] + tail, check=True, text=True,
                       capture_output=True)
        return out

    def start(self) -> float:
        """Power on; returns the time.monotonic() of power-on."""
        if self.proc is not None and self.proc.poll() is None:
            raise VMError("the VM runs already")
        if not self.disk.exists():
            self.fresh_disk()
        with contextlib.suppress(FileNotFoundError):
            self.qmp_path.unlink()
        self._forget_ssh()
        log = open(self.work / "qemu.log", "ab")  # noqa: SIM115 (the child keeps it)
        self.proc = subprocess.Popen(self.command(), stdout=log, stderr=log,
                                     stdin=subprocess.DEVNULL, start_new_session=True)
        self.boots += 1
        return time.monotonic()

    def kill(self) -> None:
        """The power cut: SIGKILL to QEMU, nothing flushed."""
        if self.proc is not None and self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGKILL)
            self.proc.wait()
        self.proc = None
        self._forget_ssh()

    def shutdown(self, timeout: float = 120) -> None:
        """A clean power-off (systemctl poweroff), else the power cut."""
        if self.proc is None:
            return
        with contextlib.suppress(Exception):
            self.ssh("sudo systemctl poweroff", check=False, timeout=20)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.proc.wait(timeout)
        self.kill()

    def reboot(self, timeout: float = 600) -> float:
        """``sudo reboot`` in the guest; QEMU runs on (the guest's reset). Returns the time
        the reboot was asked for; wait with :meth:`wait_ssh`."""
        t = time.monotonic()
        self.ssh("sudo systemctl reboot", check=False, timeout=20)
        self._forget_ssh()
        # The old sshd is gone once a connection fails.
        end = t + 120
        while time.monotonic() < end:
            r = self.ssh("true", check=False, timeout=10, quiet=True)
            if r.returncode != 0:
                break
            time.sleep(1)
        self._forget_ssh()
        return t

    # -- ssh -------------------------------------------------------------------------------
    def _ssh_base(self) -> list[str]:
        return ["ssh", "-i", str(self.key), "-p", str(self.ssh_port),
                "-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null",
                "-o", "LogLevel=ERROR", "-o", "ConnectTimeout=10",
                "-o", "ServerAliveInterval=5", "-o", "ServerAliveCountMax=3",
                "-o", "ControlMaster=auto", "-o", f"ControlPath={self._control}",
                "-o", "ControlPersist=600", "pi@127.0.0.1"]

    def _forget_ssh(self) -> None:
        if self._control.exists():
            subprocess.run(["ssh", "-o", f"ControlPath={self._control}", "-O", "exit",
                            "pi@127.0.0.1"], capture_output=True, timeout=10, check=False)
            with contextlib.suppress(FileNotFoundError):
                self._control.unlink()

    def ssh(self, command: str, check: bool = True, timeout: float = 600,
            input: bytes | None = None, quiet: bool = False) -> subprocess.CompletedProcess:
        """Run ``command`` (a shell line) as pi in the guest."""
        try:
            r = subprocess.run([*self._ssh_base(), command], capture_output=True,
                               timeout=timeout, input=input)
        except subprocess.TimeoutExpired as exc:
            if check:
                raise VMError(f"ssh {command!r}: no answer in {timeout} s") from exc
            return subprocess.CompletedProcess(command, 255, b"", b"timeout")
        r.stdout_text = r.stdout.decode("utf-8", "replace")  # type: ignore[attr-defined]
        if check and r.returncode != 0:
            raise VMError(f"ssh {command!r} exited {r.returncode}:\n"
                          f"{r.stdout.decode(errors='replace')}{r.stderr.decode(errors='replace')}")
        return r

    def out(self, command: str, timeout: float = 600) -> str:
        return self.ssh(command, timeout=timeout).stdout.decode("utf-8", "replace")

    def put(self, local: Path, remote: str) -> None:
        with open(local, "rb") as f:
            self.ssh(f"cat > {shlex.quote(remote)}", input=f.read())

    def get(self, remote: str, local: Path, sudo: bool = False) -> None:
        local.write_bytes(self.ssh(("sudo " if sudo else "") + f"cat {shlex.quote(remote)}")
                          .stdout)

    def wait_ssh(self, timeout: float = 900) -> float:
        """Wait until ssh answers and ``systemctl is-system-running --wait`` has said; return
        the time.monotonic() then. Raises when QEMU died or the time is up."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if self.proc is None or self.proc.poll() is not None:
                raise VMError(f"QEMU exited ({self.work / 'qemu.log'}):\n" + self.tail_log())
            r = self.ssh("systemctl is-system-running --wait", check=False, timeout=300,
                         quiet=True)
            if r.returncode in (0, 1) and r.stdout.strip():
                return time.monotonic()
            time.sleep(2)
        raise VMError(f"no login after {timeout} s; console:\n" + self.tail_console())

    def tail_console(self, lines: int = 40) -> str:
        try:
            return "\n".join(self.console.read_text(errors="replace").splitlines()[-lines:])
        except FileNotFoundError:
            return "(no console log)"

    def tail_log(self) -> str:
        try:
            return (self.work / "qemu.log").read_text(errors="replace")[-2000:]
        except FileNotFoundError:
            return ""

    # -- QMP -------------------------------------------------------------------------------
    def qmp(self, command: str, **arguments: object) -> object:
        """One QMP command on a fresh connection; returns its ``return``."""
        with socket.socket(socket.AF_UNIX) as s:
            s.settimeout(60)
            s.connect(str(self.qmp_path))
            f = s.makefile("rwb")
            json.loads(f.readline())  # greeting
            f.write(b'{"execute": "qmp_capabilities"}\n')
            f.flush()
            self._answer(f)
            msg: dict[str, object] = {"execute": command}
            if arguments:
                msg["arguments"] = arguments
            f.write(json.dumps(msg).encode() + b"\n")
            f.flush()
            return self._answer(f)

    @staticmethod
    def _answer(f: object) -> object:
        while True:
            line = f.readline()  # type: ignore[attr-defined]
            if not line:
                raise VMError("QMP closed")
            reply = json.loads(line)
            if "return" in reply:
                return reply["return"]
            if "error" in reply:
                raise VMError(f"QMP: {reply['error']}")

    # -- a worn SD card ----------------------------------------------------------------------
    def wear(self) -> None:
        """From now on every read and write of the disk fails with EIO (QEMU's blkdebug put
        between the overlay and its file), as a worn-out SD card's."""
        self.qmp("blockdev-add", driver="blkdebug", **{"node-name": "worn", "image": "root-file",
                 "inject-error": [{"event": "none", "errno": 5, "iotype": t}
                                  for t in ("read", "write", "flush")]})
        self.qmp("blockdev-reopen", options=[{"driver": "qcow2", "node-name": "root",
                                              "file": "worn", "backing": "base"}])

    def mend(self) -> None:
        """The disk answers again (:meth:`wear` undone)."""
        self.qmp("blockdev-reopen", options=[{"driver": "qcow2", "node-name": "root",
                                              "file": "root-file", "backing": "base"}])
        self.qmp("blockdev-del", **{"node-name": "worn"})

    # -- a touchscreen -----------------------------------------------------------------------
    def plug_tablet(self) -> None:
        """QEMU's USB tablet (absolute pointer) plugged in while the VM runs."""
        self.qmp("device_add", driver="usb-tablet", id="tablet", bus="xhci.0", port="2")

    def tap(self, x: int, y: int, width: int, height: int) -> None:
        """A tap at pixel (x, y) of a width x height screen: the tablet moves there and its
        button goes down and up. (To the console's pointer, not to the device by name: a
        device plugged in while QEMU runs is bound to no console.)"""
        def axis(name: str, value: int, size: int) -> dict[str, object]:
            return {"type": "abs", "data": {"axis": name,
                                            "value": round(value * 0x7FFF / max(1, size - 1))}}

        self.qmp("input-send-event", events=[axis("x", x, width), axis("y", y, height)])
        time.sleep(0.1)
        self.qmp("input-send-event",
                 events=[{"type": "btn", "data": {"down": True, "button": "left"}}])
        time.sleep(0.15)
        self.qmp("input-send-event",
                 events=[{"type": "btn", "data": {"down": False, "button": "left"}}])

    def screendump(self, path: Path) -> Path:
        self.qmp("screendump", filename=str(path), format="png")
        return path

"""The Pi's GPIO header in the twin: a gpio-sim chip as /dev/gpiochip0.

QEMU's ``virt`` board has no GPIO header (its one PL061 has eight lines, one of them the power
button), and Debian's kernel has no gpio-sim. ``twin/gpiosim.sh`` builds gpio-sim for the
image's kernel (cached like the image); the twin loads it at every boot before the table
(``twin-gpio.service``) and makes one bank of 28 lines, as the Pi's header has GPIO 0-27. The
board's device tree leaves the PL061 out (``twin.vm.VM.board_dtb``), so the header is
gpiochip0 as on a Pi. The table's
buttons, lights and buzzer then run on the real path: gpiozero -> lgpio -> /dev/gpiochip0 ->
the kernel's GPIO character device -> gpio-sim. gpio-sim's sysfs side is the outside world: a
button is pressed by pulling its line down (``pull``), a light is read from its line
(``value``).

The twin's adaptations, outside what install.sh installs: ``twin-gpio.service`` (the header;
on a Pi the board has it), a drop-in that orders the table after it, and the device tree's
``/system/linux,revision`` (``twin.vm.VM.board_dtb``: gpiozero names the pins by the board's
revision, which the firmware of a Pi writes there; a Pi 4 B's is given).

>>> sim_path("gpio-sim.0", "gpiochip0", 5, "pull")
'/sys/devices/platform/gpio-sim.0/gpiochip0/sim_gpio5/pull'
"""

from __future__ import annotations

import hashlib
import shlex
import subprocess
import time
from pathlib import Path
from typing import Any

from twin.image import cache_root

HERE = Path(__file__).resolve().parent
SCRIPT = HERE / "gpiosim.sh"
LINES = 28  # GPIO 0-27 of the Pi's header
# The pins of docs/hardware.md: bid, pass and turn light per seat, and the buzzer.
SEATS = ({"bid": 5, "pass": 6, "light": 13}, {"bid": 12, "pass": 26, "light": 22},
         {"bid": 23, "pass": 24, "light": 25})
BUZZER = 27

SETUP = f"""#!/bin/sh
# written by the twin (twin/gpio.py): the Pi's GPIO header as a gpio-sim chip, gpiochip0
set -eu
modprobe configfs
mountpoint -q /sys/kernel/config || mount -t configfs configfs /sys/kernel/config
modprobe gpio_sim_twin
c=/sys/kernel/config/gpio-sim/header
if [ ! -e "$c/live" ]; then
    mkdir "$c" "$c/bank0"
    echo {LINES} > "$c/bank0/num_lines"
    echo pi-header > "$c/bank0/label"
    echo 1 > "$c/live"
fi
chip=$(cat "$c/bank0/chip_name")
if [ "$chip" != gpiochip0 ]; then
    echo "header: $chip, not gpiochip0: another GPIO chip holds the number" >&2
    exit 1
fi
# udev gives the chip to the gpio group (install.sh's rule) before the table starts
udevadm settle --timeout=30 || true
echo "header: $(cat "$c/dev_name") $(cat "$c/bank0/chip_name")"
"""

UNIT = """# written by the twin (twin/gpio.py)
[Unit]
Description=twin: the Pi's GPIO header (a gpio-sim chip as gpiochip0)
After=systemd-modules-load.service sys-kernel-config.mount
Before=skat-table.service

[Service]
Type=oneshot
RemainAfterExit=yes
# (a header that does not come up in two minutes must not hold the boot: the table then
# fails to start, which the twin reports)
TimeoutStartSec=120
ExecStart=/bin/sh /usr/local/sbin/twin-gpio

[Install]
WantedBy=multi-user.target
"""

DROPIN = """# written by the twin (twin/gpio.py): the header is there before the table starts
[Unit]
Requires=twin-gpio.service
After=twin-gpio.service
"""


def sim_path(device: str, chip: str, line: int, attribute: str) -> str:
    return f"/sys/devices/platform/{device}/{chip}/sim_gpio{line}/{attribute}"


def module(arch: str, image: Path, log: Path | None = None) -> Path:
    """The built module's folder (gpio_sim_twin.ko), from the cache or built now (root)."""
    key = hashlib.sha256(arch.encode() + image.name.encode() + SCRIPT.read_bytes())
    out = cache_root() / f"gpiosim-{arch}-{key.hexdigest()[:16]}"
    if (out / "gpio_sim_twin.ko").exists():
        return out
    sink = open(log, "ab") if log else None  # noqa: SIM115
    try:
        subprocess.run(["sh", str(SCRIPT), arch, str(image), str(out)], check=True,
                       stdout=sink, stderr=subprocess.STDOUT if sink else None)
    finally:
        if sink:
            sink.close()
    return out


def install(vm: Any, folder: Path) -> None:
    """The module, the header's unit and the table's drop-in into the VM."""
    release = (folder / "kernel-release").read_text().strip()
    vm.put(folder / "gpio_sim_twin.ko", "/tmp/gpio_sim_twin.ko")
    vm.ssh(f"sudo install -D -m 0644 /tmp/gpio_sim_twin.ko "
           f"/lib/modules/{release}/extra/gpio_sim_twin.ko && sudo depmod -a {release}")
    vm.ssh("sudo tee /usr/local/sbin/twin-gpio >/dev/null", input=SETUP.encode())
    vm.ssh("sudo tee /etc/systemd/system/twin-gpio.service >/dev/null", input=UNIT.encode())
    vm.ssh("sudo mkdir -p /etc/systemd/system/skat-table.service.d && "
           "sudo tee /etc/systemd/system/skat-table.service.d/twin-gpio.conf >/dev/null",
           input=DROPIN.encode())
    vm.ssh("sudo systemctl daemon-reload && sudo systemctl enable -q twin-gpio.service")


class Header:
    """The outside of the twin's GPIO header: press buttons, read lights."""

    def __init__(self, vm: Any) -> None:
        self.vm = vm
        out = vm.out("cat /sys/kernel/config/gpio-sim/header/dev_name "
                     "/sys/kernel/config/gpio-sim/header/bank0/chip_name").split()
        self.device, self.chip = out[0], out[1]

    def press(self, line: int, seconds: float = 0.3) -> None:
        """A finger on the button: the line pulled down, then up again."""
        pull = sim_path(self.device, self.chip, line, "pull")
        # one shell in the VM times the press: two sudo calls around the sleep took over a
        # second under emulation, a long press (undo)
        self.vm.ssh(f"sudo sh -c 'echo pull-down > {pull}; sleep {seconds}; "
                    f"echo pull-up > {pull}'")

    def values(self, lines: list[int], seconds: float = 2.0, every: float = 0.05
               ) -> dict[int, list[int]]:
        """Samples of the lines' levels (the table drives them) over ``seconds``."""
        reads = " ".join(sim_path(self.device, self.chip, n, "value") for n in lines)
        count = max(1, round(seconds / every))
        out = self.vm.out(f"for i in $(seq {count}); do cat {reads} | tr '\\n' ' '; echo; "
                          f"sleep {every}; done")
        samples: dict[int, list[int]] = {n: [] for n in lines}
        for row in out.splitlines():
            values = row.split()
            if len(values) == len(lines):
                for n, v in zip(lines, values, strict=True):
                    samples[n].append(int(v))
        return samples

    def buzzer_during(self, action: Any, seconds: float = 3.0) -> list[int]:
        """The buzzer line sampled in the VM (every ~10 ms) while ``action`` runs here."""
        value = sim_path(self.device, self.chip, BUZZER, "value")
        # Bash builtins only (the clock, the read, a read with a timeout as the pause): a
        # loop that forks cat, date and sleep managed 5 samples in 3 s under TCG.
        proc = subprocess.Popen(
            [*self.vm._ssh_base(), "bash -c " + shlex.quote(
                f"end=$(( ${{EPOCHREALTIME/./}} + {int(seconds * 1e6)} )); exec 9<> <(:); "
                f"while (( ${{EPOCHREALTIME/./}} < end )); do read -r v < {value}; "
                "echo $v; read -t 0.01 -u 9; done")],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        time.sleep(0.5)
        action()
        out, _ = proc.communicate(timeout=seconds + 60)
        return [int(x) for x in out.split()]


def gpio_toml() -> str:
    """The twin table's [gpio]: the pins of docs/hardware.md."""
    seats = ", ".join("{" + ", ".join(f"{k} = {v}" for k, v in s.items()) + "}" for s in SEATS)
    return f"[gpio]\nbuzzer = {BUZZER}\nseats = [{seats}]\n"

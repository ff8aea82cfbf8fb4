"""``systemd/install.sh`` run for real, as root, in a sandbox: a private mount namespace with
overlays on ``/etc``, ``/opt``, ``/var/lib``, ``/usr/local/bin``, ``/boot`` and ``/dev`` (so what
it writes lands in a temporary directory, never on this machine), and fake commands for what
would change the system or needs a Pi: ``apt-get``, ``modprobe``, ``udevadm``, ``systemctl``,
``systemd-analyze``, ``groupadd``/``useradd``/``usermod``, ``install``'s owner options, and a
``python3`` that says it is the version asked for (``-m venv`` and ``-m pip`` are recorded, not
run; other code runs under this machine's Python with that ``sys.version_info``).

Every fake records its command line, in order, in ``calls``. The fake ``udevadm settle`` makes
``/dev/skat-table/touch`` when the run asks for a touchscreen: udev names it only once it has
handled the trigger's events, as on the Pi.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import textwrap
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
INSTALL = ROOT / "systemd" / "install.sh"
OVERLAID = ("/etc", "/opt", "/var/lib", "/usr/local/bin", "/boot", "/dev")

FAKE_PYTHON = '''#!/bin/sh
# A python3 of version $FAKE_PY_VERSION ("" : one that does not run).
[ -n "$FAKE_PY_VERSION" ] || exit 127
if [ "$1" = -m ] && [ "$2" = venv ]; then
    echo "python3 $*" >> "$FAKE_LOG"
    mkdir -p "$3/bin" && cp "$0" "$3/bin/python" && exit 0
fi
if [ "$1" = -m ] && [ "$2" = pip ]; then
    echo "pip $* PYPI=${PYPI-}" >> "$FAKE_LOG"
    # the venv's command appears once the package is installed; pip (setuptools) builds a
    # package from a directory in that directory: build/ and an .egg-info are left there
    printf '#!/bin/sh\n' > "$(dirname "$0")/skat-table" && chmod 755 "$(dirname "$0")/skat-table"
    for last; do :; done
    if [ -d "$last" ]; then
        mkdir -p "$last/build/lib" "$last/skat_table.egg-info"
        echo "built $(date +%s%N)" > "$last/build/lib/built.txt"
        echo "Name: skat-table" > "$last/skat_table.egg-info/PKG-INFO"
    fi
    exit 0
fi
if [ "$1" = -c ]; then
    FAKE_CODE=$2; export FAKE_CODE; shift 2
    exec /usr/bin/python3 -c "
import os, sys
class V(tuple):
    major = property(lambda s: s[0]); minor = property(lambda s: s[1])
sys.version_info = V(tuple(int(p) for p in os.environ['FAKE_PY_VERSION'].split('.'))
                     + (0, 'final', 0))
exec(compile(os.environ.pop('FAKE_CODE'), '-c', 'exec'))
" "$@"
fi
exec /usr/bin/python3 "$@"
'''

RECORD = '''#!/bin/sh
echo "$(basename "$0") $*" >> "$FAKE_LOG"
'''

FAKE_UDEVADM = RECORD + '''if [ "$1" = settle ] && [ "${FAKE_TOUCH-}" = 1 ]; then
    mkdir -p /dev/skat-table && ln -sfn ../null /dev/skat-table/touch
fi
'''

FAKE_INSTALL = '''#!/bin/sh
# install(1) without -o/-g: the sandbox has no user skat.
args=""
while [ $# -gt 0 ]; do
    case "$1" in
        -o|-g) shift 2 ;;
        *) args="$args $(printf '%s' "$1" | sed "s/'/'\\\\''/g; s/^/'/; s/$/'/")"; shift ;;
    esac
done
eval "exec /usr/bin/install $args"
'''


@dataclass
class Installed:
    returncode: int
    stdout: str
    stderr: str
    calls: list[str]
    top: Path  # the overlays' upper directories: top / "etc" is what install.sh wrote in /etc

    def wrote(self, path: str) -> Path:
        """Where ``path`` (absolute, inside an overlaid directory) landed."""
        for base in OVERLAID:
            if path.startswith(base + "/"):
                return self.top / base.strip("/").replace("/", "-") / path[len(base) + 1:]
        raise ValueError(path)

    def index(self, prefix: str) -> int:
        """The position of the first call starting with ``prefix`` (-1: none)."""
        return next((i for i, c in enumerate(self.calls) if c.startswith(prefix)), -1)


def sandbox_works() -> str | None:
    """None where the sandbox can run here, else why not."""
    if os.geteuid() != 0:
        return "needs root (mount namespaces and overlays)"
    if shutil.which("unshare") is None:
        return "no unshare"
    probe = subprocess.run(["unshare", "-m", "--propagation", "private", "sh", "-c",
                            "mount -t tmpfs none /mnt"], capture_output=True, timeout=30)
    return None if probe.returncode == 0 else "no mount namespaces here"


def run_install(tmp: Path, python: str = "3.11", *, touch: bool = False,
                files: dict[str, str] | None = None, script: Path = INSTALL,
                runs: int = 1) -> Installed:
    """Run ``script`` (install.sh) in the sandbox with a python3 of version ``python``;
    ``files`` are there before it runs (absolute paths in the overlaid directories). With
    ``runs`` > 1 it runs again on what the run before left; each run after the first starts
    with a ``--- run N`` line in ``calls``."""
    tmp.mkdir(parents=True, exist_ok=True)
    fake = tmp / "bin"
    fake.mkdir()
    log = tmp / "calls.log"
    log.write_text("", encoding="utf-8")
    for name in ("apt-get", "modprobe", "systemctl", "systemd-analyze", "groupadd", "useradd",
                 "usermod"):
        (fake / name).write_text(RECORD, encoding="utf-8")
    (fake / "udevadm").write_text(FAKE_UDEVADM, encoding="utf-8")
    (fake / "install").write_text(FAKE_INSTALL, encoding="utf-8")
    (fake / "python3").write_text(FAKE_PYTHON, encoding="utf-8")
    for path in fake.iterdir():
        path.chmod(0o755)
    top = tmp / "top"
    mounts = []
    for base in OVERLAID:
        name = base.strip("/").replace("/", "-")
        (top / name).mkdir(parents=True)
        (tmp / "work" / name).mkdir(parents=True)
        mounts.append(f"mount -t overlay overlay -o lowerdir={base},upperdir={top / name},"
                      f"workdir={tmp / 'work' / name} {base}")
    result = Installed(0, "", "", [], top)
    result.wrote("/etc/udev/rules.d").mkdir(parents=True)  # as on the Pi: udev is installed
    for path, text in (files or {}).items():
        target = result.wrote(path)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(textwrap.dedent(text), encoding="utf-8")
    wrapper = tmp / "sandbox.sh"
    again = "".join(f'echo "--- run {n}" >> "$FAKE_LOG"\nsh {script}\n'
                    for n in range(2, runs + 1))
    wrapper.write_text("set -e\n" + "\n".join(mounts) + f"\nsh {script}\n{again}",
                       encoding="utf-8")
    env = {"PATH": f"{fake}:/usr/sbin:/usr/bin:/sbin:/bin", "FAKE_LOG": str(log),
           "FAKE_PY_VERSION": python, "FAKE_TOUCH": "1" if touch else "0", "LANG": "C.UTF-8",
           "HOME": str(tmp)}
    done = subprocess.run(["unshare", "-m", "--propagation", "private", "sh", str(wrapper)],
                          capture_output=True, text=True, env=env, timeout=300)
    result.returncode, result.stdout, result.stderr = done.returncode, done.stdout, done.stderr
    result.calls = log.read_text(encoding="utf-8").splitlines()
    return result

"""The twin's image, built once by ``twin/image.sh`` and then taken from the cache.

The cache directory holds one folder per architecture and build-input hash: the hash covers
the lines of ``image.sh`` that do something (comments and blank lines left out, so a reworded
comment does not rebuild the image) and the architecture. A folder is complete when its
``done`` file exists; a build interrupted half-way leaves none and is built again.

>>> key = input_hash("arm64", "set -eu\\n# a comment\\necho x\\n")
>>> key == input_hash("arm64", "set -eu\\n\\necho x   \\n# another comment\\n")
True
>>> key == input_hash("amd64", "set -eu\\necho x\\n")
False
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import subprocess
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
SCRIPT = HERE / "image.sh"


def cache_root() -> Path:
    """``$TWIN_CACHE``, else /var/cache/skat-table-twin for root, else ~/.cache/skat-table-twin."""
    if os.environ.get("TWIN_CACHE"):
        return Path(os.environ["TWIN_CACHE"])
    if os.geteuid() == 0:
        return Path("/var/cache/skat-table-twin")
    return Path.home() / ".cache" / "skat-table-twin"


def input_hash(arch: str, script: str) -> str:
    lines = [line.rstrip() for line in script.splitlines()]
    meaningful = [line for line in lines if line.strip() and not line.lstrip().startswith("#")]
    h = hashlib.sha256(arch.encode() + b"\0" + "\n".join(meaningful).encode())
    return h.hexdigest()[:16]


def image_dir(arch: str) -> Path:
    return cache_root() / f"{arch}-{input_hash(arch, SCRIPT.read_text())}"


def ensure_image(arch: str, log: Path | None = None) -> tuple[Path, float, bool]:
    """The image folder for ``arch``: (folder, seconds spent, True if it came from the cache).
    Builds it (as root) when the cache has none; concurrent callers wait for one build."""
    out = image_dir(arch)
    if (out / "done").exists():
        return out, 0.0, True
    if os.geteuid() != 0:
        raise SystemExit(f"twin: no cached {arch} image in {out}; building one needs root "
                         f"(sudo make twin, or sudo twin/image.sh {arch} {out})")
    out.mkdir(parents=True, exist_ok=True)
    t0 = time.monotonic()
    with open(out.parent / f".{out.name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if (out / "done").exists():
            return out, time.monotonic() - t0, True
        sink = open(log, "ab") if log else None  # noqa: SIM115
        try:
            subprocess.run(["sh", str(SCRIPT), arch, str(out)], check=True,
                           stdout=sink, stderr=subprocess.STDOUT if sink else None)
        finally:
            if sink:
                sink.close()
        seconds = time.monotonic() - t0
        (out / "done").write_text(f"{seconds:.0f}\n")
    return out, seconds, False


def build_seconds(folder: Path) -> float | None:
    """How long the cached image took to build (its ``done`` file), or None."""
    try:
        return float((folder / "done").read_text().split()[0])
    except (FileNotFoundError, ValueError, IndexError):
        return None

"""The files through which the table and its club link talk: no socket, only a directory.

The controller runs with ``PrivateNetwork=yes`` and opens no socket; ``skat-table link`` (its
own service, same user) carries the club traffic. They share ``DATA_DIR/club/``:

``status.json`` (the link writes it)
    The link's connection for the kiosk's status line: ``{"state": "online" | "connecting" |
    "offline" | "refused", "since": <epoch s>, "waiting": <games not yet acknowledged>,
    "broker": "host:port", "detail": <why, in English, for the log>, "at": <epoch s>}``.
``seating.json`` (the link writes it)
    The last valid seating the club server sent (``firmware_host.clubside.seating``), plus
    ``"received": <epoch s>``. A new file (another tournament, series or players) is a new
    seating for the kiosk to confirm.
``table.json`` (the controller writes it)
    What the table is doing, for the retained status the link publishes: ``{"state": "idle" |
    "playing", "tournament", "series", "game"}``.
``link.sqlite`` (the link's own)
    Its record of which outbox games the broker acknowledged.

Every file is written whole to a temporary name, fsync'd and renamed over the old one, so a
reader sees the old or the new content, never half of each. A reader that finds a file
missing, too large or malformed gets None (and the link logs a line); it never raises.

>>> import tempfile
>>> d = Path(tempfile.mkdtemp())
>>> write_json(d / "status.json", {"state": "offline", "since": 0, "waiting": 3})
>>> LinkStatus.read(d / "status.json").waiting
3
>>> read_json(d / "missing.json") is None
True
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

CLUB_DIR = "club"
STATUS_FILE = "status.json"
SEATING_FILE = "seating.json"
TABLE_FILE = "table.json"
LEDGER_FILE = "link.sqlite"
MAX_FILE_BYTES = 64 * 1024
LINK_STATES = ("online", "connecting", "offline", "refused")
TABLE_STATES = ("idle", "playing")


def club_dir(data_dir: str | Path) -> Path:
    return Path(data_dir) / CLUB_DIR


def write_json(path: Path, obj: Any) -> None:
    """Write ``obj`` as JSON to ``path`` atomically (temporary file, fsync, rename)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    data = json.dumps(obj, ensure_ascii=False, sort_keys=True).encode("utf-8")
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    with contextlib.suppress(OSError):  # the rename itself durable (not everywhere possible)
        dfd = os.open(path.parent, os.O_RDONLY)
        try:
            os.fsync(dfd)
        finally:
            os.close(dfd)


def read_json(path: Path, max_bytes: int = MAX_FILE_BYTES) -> dict[str, Any] | None:
    """The JSON object in ``path``; None when it is missing, too large or not an object."""
    try:
        with open(path, "rb") as f:
            data = f.read(max_bytes + 1)
    except OSError:
        return None
    if len(data) > max_bytes:
        return None
    try:
        obj = json.loads(data.decode("utf-8"))
    except (ValueError, RecursionError):
        return None
    return obj if isinstance(obj, dict) else None


def mtime(path: Path) -> float | None:
    """When ``path`` last changed (None: not there); the controller polls this, cheaply."""
    try:
        return path.stat().st_mtime_ns / 1e9
    except OSError:
        return None


def _number(value: Any, default: float = 0.0) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or value != value:
        return default
    return float(value)


@dataclass(frozen=True)
class LinkStatus:
    """The link's connection as the kiosk shows it (``status.json``)."""

    state: str
    since: float
    waiting: int
    broker: str = ""
    detail: str = ""
    at: float = 0.0

    def to_json(self) -> dict[str, Any]:
        return {"state": self.state, "since": self.since, "waiting": self.waiting,
                "broker": self.broker, "detail": self.detail, "at": self.at}

    @classmethod
    def from_json(cls, obj: dict[str, Any] | None) -> LinkStatus | None:
        if not obj or obj.get("state") not in LINK_STATES:
            return None
        waiting = obj.get("waiting")
        if isinstance(waiting, bool) or not isinstance(waiting, int) or waiting < 0:
            waiting = 0
        detail = obj.get("detail") if isinstance(obj.get("detail"), str) else ""
        broker = obj.get("broker") if isinstance(obj.get("broker"), str) else ""
        return cls(obj["state"], _number(obj.get("since")), waiting, broker[:200],
                   detail[:300], _number(obj.get("at")))

    @classmethod
    def read(cls, path: Path) -> LinkStatus | None:
        return cls.from_json(read_json(path))

    def line(self, clock: Any = time.localtime) -> str:
        """The status line in English (the kiosk shows it translated: display.clubscene).

        >>> LinkStatus("offline", 0, 3).line(time.gmtime)
        'club: offline since 00:00, 3 games waiting'
        >>> LinkStatus("online", 0, 0).line()
        'club: connected'
        """
        since = time.strftime("%H:%M", clock(self.since))
        waiting = (f", {self.waiting} game{'s' if self.waiting != 1 else ''} waiting"
                   if self.waiting else "")
        if self.state == "online":
            return "club: connected" + (f", sending {self.waiting}" if self.waiting else "")
        if self.state == "refused":
            return f"club: the broker refuses this table since {since}{waiting}"
        if self.state == "connecting":
            return f"club: connecting{waiting}"
        return f"club: offline since {since}{waiting}"


@dataclass(frozen=True)
class TableState:
    """What the controller tells the link about the table (``table.json``)."""

    state: str = "idle"
    tournament: str | None = None
    series: str | None = None
    game: int | None = None

    def to_json(self) -> dict[str, Any]:
        return {"state": self.state, "tournament": self.tournament, "series": self.series,
                "game": self.game}

    @classmethod
    def from_json(cls, obj: dict[str, Any] | None) -> TableState | None:
        """None when ``obj`` is not a table state (the link then logs it and keeps the last)."""
        if not obj or obj.get("state") not in TABLE_STATES:
            return None
        t, s, g = obj.get("tournament"), obj.get("series"), obj.get("game")
        if t is not None and (not isinstance(t, str) or len(t) > 64):
            return None
        if s is not None and (not isinstance(s, str) or len(s) > 64):
            return None
        if g is not None and (isinstance(g, bool) or not isinstance(g, int) or not
                              0 <= g < 10_000):
            return None
        return cls(obj["state"], t, s, g)

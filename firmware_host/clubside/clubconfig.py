"""The ``[club]`` section of the table's config: how the table reaches its club's broker.

The controller never opens a socket: this section is read by ``skat-table link`` (its own
process, see ``firmware_host/clubside/link/``), and checked by the controller too so that a mistake
is one clear line wherever the config is loaded. The password lives in its own file, never in
the config.

>>> c = parse_club({"broker": "mqtts://club.example:8883", "club": "skc-nord", "table": "7",
...                 "password_file": "/etc/skat-table/club.password"})
>>> (c.scheme, c.host, c.port, c.tls, c.username)
('mqtts', 'club.example', 8883, True, '7')
>>> c.topic("game")
'skat/skc-nord/table/7/game'
>>> parse_club({"broker": "http://x", "club": "c", "table": "1", "password_file": "p"})
Traceback (most recent call last):
...
firmware_host.configerror.ConfigError: [club] broker: 'http://x' is not mqtt://HOST:PORT or mqtts://HOST:PORT
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from drivers.quoting import quoted
from firmware_host.configerror import ConfigError

# An id that is one MQTT topic level and one part of a game id: no '/', '+', '#', no spaces.
ID_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$")
BROKER_RE = re.compile(r"^(mqtts?)://(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+)(?::(\d{1,5}))?/?$")
DEFAULT_PORTS = {"mqtt": 1883, "mqtts": 8883}
KEYS = {"broker", "club", "table", "username", "password_file", "ca_file", "keepalive",
        "player_tags", "resend_seconds", "confirm_results"}
SWITCHES = {"confirm_results": False}  # true or false, and the default
NUMBERS = {"keepalive": (5, 3600, 30), "resend_seconds": (0, 86400, 10)}  # (least, most, default)


@dataclass(frozen=True)
class ClubConfig:
    """Where the club's broker is and who this table is there."""

    broker: str
    scheme: str
    host: str
    port: int
    club: str
    table: str
    username: str
    password_file: Path
    ca_file: Path | None = None
    keepalive: int = 30
    player_tags: Path | None = None  # skat-table enroll --players: player id -> tag UID
    # After a lost connection, the games the broker acknowledged in the last this many seconds
    # before it last answered are sent again: a broker that crashed loses what it acknowledged
    # since it last saved (Mosquitto: autosave_interval). docs/club-link.md, "The broker".
    resend_seconds: int = 10
    # The declarer's opponents confirm each tournament game's result on the kiosk before it
    # is sent (docs/club-link.md, "Confirming a result").
    confirm_results: bool = False

    @property
    def tls(self) -> bool:
        return self.scheme == "mqtts"

    def topic(self, leaf: str) -> str:
        """``skat/CLUB/table/T/<leaf>`` (docs/club-link.md)."""
        return f"skat/{self.club}/table/{self.table}/{leaf}"


def _error(key: str, problem: str) -> Exception:
    return ConfigError(f"[club] {key}", problem)


def parse_club(sec: Mapping[str, Any], base_dir: Path | None = None) -> ClubConfig:
    """Check ``[club]`` key by key; raise ``ConfigError`` naming the key."""
    for key in sec:
        if key not in KEYS:
            raise _error(key, f"unknown key; known: {', '.join(sorted(KEYS))}")
    for key in ("broker", "club", "table", "password_file"):
        if key not in sec:
            raise _error(key, "missing" + {
                "broker": ': the club\'s broker, e.g. "mqtts://club.local:8883"',
                "club": ': the club id, e.g. "skc-nord"',
                "table": ': this table\'s id at the club, e.g. "7"',
                "password_file": ": a file holding this table's broker password "
                                 "(never the password itself in the config)",
            }[key])
    values = {}
    for key in sec:
        if key in NUMBERS or key in SWITCHES:
            continue
        value = sec[key]
        if not isinstance(value, str) or not value.strip():
            raise _error(key, f"must be text in quotes, not {quoted(value)}")
        values[key] = value.strip()
    m = BROKER_RE.match(values["broker"])
    if not m:
        raise _error("broker", f"{quoted(values['broker'])} is not mqtt://HOST:PORT or "
                     "mqtts://HOST:PORT")
    scheme, host, port_text = m.group(1), m.group(2).strip("[]"), m.group(3)
    port = int(port_text) if port_text else DEFAULT_PORTS[scheme]
    if not 1 <= port <= 65535:
        raise _error("broker", f"port {port} is not 1..65535")
    for key in ("club", "table"):
        if not ID_RE.match(values[key]):
            raise _error(key, f"{quoted(values[key])}: use letters, digits, '.', '_' or '-' "
                         "(at most 64; no '/', '+', '#' or spaces)")
    username = values.get("username", values["table"])

    def path(key: str) -> Path:
        p = Path(values[key])
        return p if p.is_absolute() or base_dir is None else base_dir / p

    ca_file = path("ca_file") if "ca_file" in values else None
    if ca_file is not None and scheme != "mqtts":
        raise _error("ca_file", "a CA file is for TLS: write the broker as mqtts://HOST:PORT")
    numbers = {}
    for key, (least, most, default) in NUMBERS.items():
        value = sec.get(key, default)
        if isinstance(value, bool) or not isinstance(value, int) or not least <= value <= most:
            raise _error(key, f"must be whole seconds from {least} to {most}, not {quoted(value)}")
        numbers[key] = value
    switches = {}
    for key, default in SWITCHES.items():
        value = sec.get(key, default)
        if not isinstance(value, bool):
            raise _error(key, f"must be true or false, not {quoted(value)}")
        switches[key] = value
    keepalive = numbers["keepalive"]
    return ClubConfig(broker=values["broker"], scheme=scheme, host=host, port=port,
                      club=values["club"], table=values["table"], username=username,
                      password_file=path("password_file"), ca_file=ca_file, keepalive=keepalive,
                      player_tags=path("player_tags") if "player_tags" in values else None,
                      resend_seconds=numbers["resend_seconds"],
                      confirm_results=switches["confirm_results"])

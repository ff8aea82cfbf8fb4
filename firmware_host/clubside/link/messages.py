"""The club messages the link sends and reads (docs/club-link.md: topics and payloads).

>>> from firmware_host.clubside.clubconfig import parse_club
>>> cfg = parse_club({"broker": "mqtt://127.0.0.1:1883", "club": "c1", "table": "7",
...                   "password_file": "pw"})
>>> payload = {"journal": "j", "series": 1, "game": 3, "revision": 1, "players": ["A", "B", "C"],
...            "dealer": 2, "result": {"value": 24}, "iss": None, "at": 0,
...            "club": {"tournament": "herbst", "series": "2", "players": ["p1", "p2", "p3"]}}
>>> m = game_message(cfg, series=1, game=3, revision=1, payload=payload)
>>> m["id"], m["players"], m["at"]
('herbst/2/7/3', ['p1', 'p2', 'p3'], '1970-01-01T00:00:00Z')
"""

from __future__ import annotations

import datetime
import json
from collections.abc import Mapping
from typing import Any

from firmware_host.clubside.clubconfig import ClubConfig
from firmware_host.clubside.clubfiles import TableState

MAX_STATUS_BYTES = 4096
HOME = "home"  # the tournament part of the id of a game played without a club seating


def iso(t: Any) -> str:
    """Epoch seconds as ISO 8601 UTC; text is passed through."""
    if isinstance(t, str):
        return t
    if isinstance(t, bool) or not isinstance(t, int | float):
        t = 0
    return datetime.datetime.fromtimestamp(float(t), datetime.UTC).strftime(
        "%Y-%m-%dT%H:%M:%SZ")


def game_message(cfg: ClubConfig, *, series: int, game: int, revision: int,
                 payload: Mapping[str, Any]) -> dict[str, Any]:
    """The ``.../game`` message of one outbox item.

    The journal's payload holds the deal (``result``, ``iss``, ``dealer``, ``players`` by
    name) and, when the series was started from a club seating, ``club``: the tournament, its
    series and the players' club ids by seat. A series without a seating (a home game at a
    club table) is published as tournament ``None`` under ``home/<journal>-<series>``.
    """
    club = payload.get("club") if isinstance(payload.get("club"), Mapping) else {}
    tournament = club.get("tournament") if isinstance(club.get("tournament"), str) else None
    t_series = club.get("series")
    if tournament is None or not isinstance(t_series, str | int):
        journal = str(payload.get("journal") or "")[:8] or "table"
        t_series = f"{journal}-{series}"
    players = club.get("players") if isinstance(club.get("players"), list) else None
    if players is None:
        players = list(payload.get("players") or [])
    return {
        "id": f"{tournament or HOME}/{t_series}/{cfg.table}/{game}",
        "revision": revision,
        "tournament": tournament,
        "series": t_series,
        "table": cfg.table,
        "game": game,
        "players": players,
        "dealer": payload.get("dealer"),
        "result": payload.get("result"),
        "iss": payload.get("iss"),
        "at": iso(payload.get("at")),
        # who confirmed the result at the table ([]: nobody; absent: the table does not ask)
        **({"confirmed_by": list(payload["confirmed_by"])}
           if isinstance(payload.get("confirmed_by"), list) else {}),
    }


def status_message(cfg: ClubConfig, state: str, table: TableState, at: float) -> dict[str, Any]:
    """The retained ``.../status`` message (also the last will, with state ``offline``)."""
    return {"table": cfg.table, "state": state, "tournament": table.tournament,
            "series": table.series, "game": table.game, "at": iso(at)}


def encode(obj: Any) -> bytes:
    return json.dumps(obj, ensure_ascii=False, sort_keys=True, separators=(",", ":")).encode()


class StatusPayloadError(ValueError):
    """A message on the table's status topic that is not a status."""


def parse_status(data: bytes) -> dict[str, Any]:
    """Check a status message read back from the broker (ours, or a stale last will)."""
    if len(data) > MAX_STATUS_BYTES:
        raise StatusPayloadError(f"status: {len(data)} bytes is too long")
    try:
        obj = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise StatusPayloadError(f"status: not JSON text ({str(exc)[:80]})") from None
    if not isinstance(obj, dict):
        raise StatusPayloadError("status: not a JSON object")
    if obj.get("state") not in ("idle", "playing", "offline"):
        raise StatusPayloadError(f"status: unknown state {repr(obj.get('state'))[:40]}")
    if not isinstance(obj.get("table"), str):
        raise StatusPayloadError("status: no table id")
    return obj

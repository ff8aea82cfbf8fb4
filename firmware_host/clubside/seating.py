"""A tournament's seating for this table (docs/club-link.md, topic ``.../seating``).

The club server publishes it; ``skat-table link`` checks it with :func:`parse_seating` and
hands a valid one to the controller (the spool file of :mod:`firmware_host.clubside.clubfiles`),
which checks it again before the kiosk asks each seat to confirm. Anything malformed is a
:class:`SeatingError` that says what was wrong, and nothing is applied.

>>> s = parse_seating(b'{"tournament": "herbst", "series": 2, "games": 36, "first_dealer": 0,'
...                   b' "players": [{"seat": 0, "id": "p1", "name": "Anna"},'
...                   b' {"seat": 1, "id": "p2", "name": "Ben"},'
...                   b' {"seat": 2, "id": null, "name": "Gast"}]}')
>>> s.tournament, s.series, s.games, [p.name for p in s.players]
('herbst', '2', 36, ['Anna', 'Ben', 'Gast'])
>>> parse_seating(b'{"tournament": "herbst"}')
Traceback (most recent call last):
...
firmware_host.clubside.seating.SeatingError: seating: "series" is missing
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

MAX_SEATING_BYTES = 16 * 1024  # four players' names and ids fit many times over
ID_RE = re.compile(r"^[A-Za-z0-9_.:-]{1,64}$")  # the club server's ids (tournament, player)
MAX_NAME = 40
MAX_GAMES = 96


class SeatingError(ValueError):
    """A seating message that cannot be used; the message says what was wrong."""

    def __init__(self, problem: str) -> None:
        super().__init__(f"seating: {problem}")
        self.problem = problem


@dataclass(frozen=True)
class SeatedPlayer:
    """A player at a table seat: ``id`` is the club's player id (None for a guest)."""

    seat: int
    id: str | None
    name: str


@dataclass(frozen=True)
class Seating:
    tournament: str
    series: str
    games: int
    first_dealer: int
    players: tuple[SeatedPlayer, ...]

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(p.name for p in self.players)

    @property
    def ids(self) -> tuple[str | None, ...]:
        return tuple(p.id for p in self.players)

    def to_json(self) -> dict[str, Any]:
        return {"tournament": self.tournament, "series": self.series, "games": self.games,
                "first_dealer": self.first_dealer,
                "players": [{"seat": p.seat, "id": p.id, "name": p.name} for p in self.players]}


def parse_seating(data: bytes | str | Mapping[str, Any]) -> Seating:
    """Check a seating message (raw bytes, text or parsed JSON) field by field."""
    obj: Any = data
    if isinstance(data, bytes | bytearray):
        if len(data) > MAX_SEATING_BYTES:
            raise SeatingError(f"{len(data)} bytes is too long (at most {MAX_SEATING_BYTES})")
        try:
            obj = bytes(data).decode("utf-8")
        except UnicodeDecodeError:
            raise SeatingError("not UTF-8 text") from None
    if isinstance(obj, str):
        if len(obj) > MAX_SEATING_BYTES:
            raise SeatingError(f"{len(obj)} characters is too long")
        try:
            obj = json.loads(obj)
        except RecursionError:
            raise SeatingError("nested too deeply to be a seating") from None
        except ValueError as exc:
            raise SeatingError(f"not JSON ({exc})") from None
    if not isinstance(obj, Mapping):
        raise SeatingError(f"must be a JSON object, not {type(obj).__name__}")
    for key in ("tournament", "series", "games", "first_dealer", "players"):
        if key not in obj:
            raise SeatingError(f'"{key}" is missing')
    tournament = _id(obj["tournament"], "tournament")
    series = obj["series"]
    if isinstance(series, int) and not isinstance(series, bool) and 0 <= series < 10**9:
        series = str(series)
    series = _id(series, "series")
    games = _int(obj["games"], "games", 1, MAX_GAMES)
    raw_players = obj["players"]
    if not isinstance(raw_players, list) or len(raw_players) not in (3, 4):
        raise SeatingError('"players" must be a list of 3 or 4 players')
    n = len(raw_players)
    first_dealer = _int(obj["first_dealer"], "first_dealer", 0, n - 1)
    players: dict[int, SeatedPlayer] = {}
    for i, raw in enumerate(raw_players):
        where = f"players[{i}]"
        if not isinstance(raw, Mapping):
            raise SeatingError(f"{where} must be an object with seat, id and name")
        seat = _int(raw.get("seat"), f"{where}.seat", 0, n - 1)
        if seat in players:
            raise SeatingError(f"seat {seat} is given twice")
        pid = raw.get("id")
        if pid is not None:
            pid = _id(pid, f"{where}.id")
        name = raw.get("name")
        if name is None and pid is not None:
            name = pid
        if not isinstance(name, str):
            raise SeatingError(f"{where}: a player needs a name (a guest) or an id")
        name = _name(name, where)
        players[seat] = SeatedPlayer(seat, pid, name)
    ids = [p.id for p in players.values() if p.id is not None]
    if len(set(ids)) != len(ids):
        raise SeatingError("a player id is seated twice")
    names = [p.name for p in players.values()]
    if len(set(names)) != len(names):
        raise SeatingError("two players have the same name")
    return Seating(tournament, series, games, first_dealer,
                   tuple(players[s] for s in range(n)))


def _id(value: Any, key: str) -> str:
    if not isinstance(value, str) or not ID_RE.match(value):
        shown = repr(value)[:40]
        raise SeatingError(f'"{key}" must be an id of letters, digits, "_", ".", ":" or "-" '
                           f"(at most 64), not {shown}")
    return value


def _int(value: Any, key: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise SeatingError(f'"{key}" must be a whole number {low}..{high}, not '
                           f"{repr(value)[:40]}")
    return value


def _name(value: str, where: str) -> str:
    name = unicodedata.normalize("NFC", value).strip()
    if not name or len(name) > MAX_NAME:
        raise SeatingError(f"{where}: a name has 1 to {MAX_NAME} characters")
    if any(unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp")
           for ch in name):
        raise SeatingError(f"{where}: the name holds control or unassigned characters")
    return name


def seated_config(config: Any, seating: Seating) -> Any:
    """The table's config with the seating's players, number of games and first dealer."""
    from dataclasses import replace

    if len(seating.players) != len(config.table.players) and config.computer.seats:
        raise SeatingError("this table has computer seats for "
                           f"{len(config.table.players)} players")
    table = replace(config.table, players=seating.names, first_dealer=seating.first_dealer,
                    series_length=seating.games)
    return replace(config, table=table)

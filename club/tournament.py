"""Players and seating: tables of three and four built from the number present, series 1 by
drawing lots (seeded, the seed recorded), later series by standing or drawn again.

>>> table_sizes(7), table_sizes(9), table_sizes(14)
([4, 3], [3, 3, 3], [4, 4, 3, 3])
>>> draw(["a", "b", "c", "d", "e", "f", "g"], seed="s1")
{'1': ['f', 'd', 'b', 'c'], '2': ['a', 'g', 'e']}
>>> by_standing(["a", "b", "c", "d", "e", "f", "g"])
{'1': ['a', 'b', 'c', 'd'], '2': ['e', 'f', 'g']}
"""

from __future__ import annotations

import csv
import io
import random
import re
from collections.abc import Sequence
from dataclasses import dataclass

_ID = re.compile(r"^[A-Za-z0-9_.:-]{1,64}$")


class TournamentError(ValueError):
    """A tournament step that cannot be taken as asked; the message says why."""


def table_sizes(players: int) -> list[int]:
    """Tables of four first, then of three, as few tables as possible (ISkO tables have 3 or
    4 players): 3, 4, 6, 7, 8 and every number from 6 on work; 1, 2 and 5 do not."""
    tables = -(-players // 4)
    fours = players - 3 * tables
    if players < 3 or fours < 0:
        raise TournamentError(
            f"{players} players cannot sit at tables of three and four: "
            "register or remove a player")
    return [4] * fours + [3] * (tables - fours)


def _fill(order: Sequence[str]) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    i = 0
    for number, size in enumerate(table_sizes(len(order)), start=1):
        out[str(number)] = list(order[i:i + size])
        i += size
    return out


def draw(players: Sequence[str], seed: str) -> dict[str, list[str]]:
    """Seats by drawing lots: the same seed and players give the same tables."""
    order = sorted(players)
    random.Random(seed).shuffle(order)
    return _fill(order)


def by_standing(ranked: Sequence[str]) -> dict[str, list[str]]:
    """Seats by standing: the best at table 1, and so on (``ranked`` best first)."""
    return _fill(list(ranked))


@dataclass(frozen=True)
class PlayerRow:
    id: str
    name: str
    club: str = ""
    tag: str | None = None


def parse_players_csv(text: str) -> tuple[list[PlayerRow], list[str]]:
    """Players from CSV with a header naming ``id``, ``name`` and optionally ``club`` and
    ``tag`` (``,`` or ``;`` separated). Returns the good rows and one message per bad row.

    >>> rows, errors = parse_players_csv("id;name;club\\n17;Anna Lehmann;SC Kreuz\\n;Ben;\\n")
    >>> [r.name for r in rows], errors
    (['Anna Lehmann'], ['line 3: a player needs an id'])
    """
    try:
        dialect = csv.Sniffer().sniff(text.splitlines()[0] if text else ",", delimiters=",;\t")
    except csv.Error:
        dialect = csv.excel
    reader = csv.DictReader(io.StringIO(text), dialect=dialect)
    fields = [f.strip().lower() for f in reader.fieldnames or []]
    if "id" not in fields or "name" not in fields:
        return [], ["the first line must name the columns, at least id and name"]
    reader.fieldnames = fields
    rows, errors, seen = [], [], set()
    for line, rec in enumerate(reader, start=2):
        pid = (rec.get("id") or "").strip()
        name = (rec.get("name") or "").strip()
        if not pid:
            errors.append(f"line {line}: a player needs an id")
        elif not _ID.match(pid):
            errors.append(f"line {line}: id {pid!r} may hold letters, digits, '-', '_', '.', ':'")
        elif not name or len(name) > 80:
            errors.append(f"line {line}: player {pid} needs a name (80 characters at most)")
        elif pid in seen:
            errors.append(f"line {line}: id {pid} appears twice")
        else:
            seen.add(pid)
            tag = (rec.get("tag") or "").strip().lower() or None
            rows.append(PlayerRow(pid, name, (rec.get("club") or "").strip(), tag))
    return rows, errors


def check_player_id(pid: str) -> str:
    if not _ID.match(pid):
        raise TournamentError(f"player id {pid!r} may hold letters, digits, '-', '_', '.', ':'")
    return pid

"""Players and seating: tables of three and four built from the number present, series 1 by
drawing lots (seeded, the seed recorded), later series by standing or drawn again. A later
series drawn again keeps apart, as far as the sizes allow, players who already shared a table.

>>> table_sizes(7), table_sizes(9), table_sizes(14)
([4, 3], [3, 3, 3], [4, 4, 3, 3])
>>> draw(["a", "b", "c", "d", "e", "f", "g"], seed="s1")
{'1': ['f', 'd', 'b', 'c'], '2': ['a', 'g', 'e']}
>>> by_standing(["a", "b", "c", "d", "e", "f", "g"])
{'1': ['a', 'b', 'c', 'd'], '2': ['e', 'f', 'g']}
>>> met = met_before([{'1': ['a', 'b', 'c', 'd'], '2': ['e', 'f', 'g', 'h']}])
>>> second = draw(["a", "b", "c", "d", "e", "f", "g", "h"], seed="s2", met=met)
>>> repeat_pairings(second, met)      # two of each table: the fewest 8 players can do
4
"""

from __future__ import annotations

import csv
import io
import random
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
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


Pair = tuple[str, str]          # two player ids, in sorted order

# How hard a later draw looks for fewer repeat pairings: rounds of shaking the tables up
# after the exchanges stopped helping. Counted, not timed, so that a seed gives the same
# tables on any machine; 45 players reach 0 repeats within a few rounds.
SEARCH_ROUNDS = 60


def pair(a: str, b: str) -> Pair:
    return (a, b) if a < b else (b, a)


def met_before(seatings: Iterable[Mapping[str, Sequence[str]]]) -> Counter[Pair]:
    """How often each two players shared a table in the given series."""
    met: Counter[Pair] = Counter()
    for tables in seatings:
        for pids in tables.values():
            for i, a in enumerate(pids):
                for b in pids[i + 1:]:
                    met[pair(a, b)] += 1
    return met


def repeat_pairings(tables: Mapping[str, Sequence[str]], met: Mapping[Pair, int]) -> int:
    """The pairs of players seated together in ``tables`` who already shared a table."""
    return sum(1 for pids in tables.values() for i, a in enumerate(pids)
               for b in pids[i + 1:] if met.get(pair(a, b), 0))


def draw(players: Sequence[str], seed: str,
         met: Mapping[Pair, int] | None = None) -> dict[str, list[str]]:
    """Seats by drawing lots: the same seed, players and history give the same tables.

    ``met`` (from :func:`met_before`, for a later series): the lots are drawn as for the
    first series, then players are exchanged between tables while that lowers the number of
    pairs who meet again (a pair that met twice before weighs twice). Without a repeat in the
    lots nothing is exchanged, so series 1 is drawn exactly as before."""
    order = sorted(players)
    rng = random.Random(seed)
    rng.shuffle(order)
    tables = _fill(order)
    if met:
        _fewer_repeats(tables, met, rng)
    return tables


def _fewer_repeats(tables: dict[str, list[str]], met: Mapping[Pair, int],
                   rng: random.Random) -> None:
    """Exchange players between tables (in place, table sizes kept) towards the fewest
    repeat pairings: the best exchange for a player who meets someone again, while one helps;
    then a few random exchanges to leave that local best, and again; the best seen is kept."""
    groups = list(tables.values())
    where = {p: i for i, ps in enumerate(groups) for p in ps}

    def cost(p: str, g: int, without: str) -> int:
        return sum(met.get(pair(p, q), 0) for q in groups[g] if q != p and q != without)

    def total() -> int:
        return sum(met.get(pair(a, b), 0) for ps in groups
                   for i, a in enumerate(ps) for b in ps[i + 1:])

    def swap(p: str, q: str) -> None:
        gp, gq = where[p], where[q]
        groups[gp][groups[gp].index(p)] = q
        groups[gq][groups[gq].index(q)] = p
        where[p], where[q] = gq, gp

    everyone = list(where)
    best, best_cost = [list(ps) for ps in groups], total()
    for _round in range(SEARCH_ROUNDS):
        improved = True
        while improved and best_cost:
            improved = False
            stuck = [p for p in everyone if cost(p, where[p], p)]
            rng.shuffle(stuck)
            for p in stuck:
                gp = where[p]
                here = cost(p, gp, p)
                if not here:
                    continue     # an exchange made earlier in this pass helped already
                choice, gain = None, 0
                for q in everyone:
                    gq = where[q]
                    if gq == gp:
                        continue
                    delta = (cost(p, gq, q) + cost(q, gp, p)) - (here + cost(q, gq, q))
                    if delta < gain:
                        choice, gain = q, delta
                if choice is not None:
                    swap(p, choice)
                    improved = True
        now = total()
        if now < best_cost:
            best, best_cost = [list(ps) for ps in groups], now
        if not best_cost:
            break
        # shake: a few players who meet someone again change places with anyone
        stuck = [p for p in everyone if cost(p, where[p], p)]
        for p in rng.sample(stuck, min(len(stuck), 3)):
            q = rng.choice(everyone)
            if where[q] != where[p]:
                swap(p, q)
    for key, ps in zip(tables, best, strict=True):
        tables[key] = ps


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

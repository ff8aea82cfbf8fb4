"""Games a table's credentials could forge, told apart from the games the table played.

A table's MQTT user may publish any game that replays in the engine. Two things a forged
game cannot easily get right are checked before it counts:

- **who played it**: the ISS record names forehand, middlehand and rearhand (``P0``..``P2``).
  They must be the players the series seats there for that deal (the dealer's left hand
  first; at four the dealer sits out): each named by id, by the name the seating went out
  with, or by their name now. A record of another table, or of a home game, names others.
- **the deal**: 32 cards dealt at random repeat by chance about once in 10^15 deals. A deal
  (the three hands in any order, and the skat) stored before under another game id, at
  another table or an earlier game of the same table, is a copied record. Revisions of the
  same game (an undo at the table) share their deal, of course.

>>> rec = "(;GM[Skat]P0[anna]P1[ben]P2[carla]MV[w " + ".".join(
...     ["CJ", "SJ", "HJ", "DJ", "CA", "CT", "CK", "CQ", "C9", "C8",
...      "C7", "SA", "ST", "SK", "SQ", "S9", "S8", "S7", "HA", "HT",
...      "HK", "HQ", "H9", "H8", "H7", "DA", "DT", "DK", "DQ", "D9", "D8", "D7"]) + "];)"
>>> record_players(rec)
('anna', 'ben', 'carla')
>>> names_problem(rec, (1, 2, 0), ["carla", "anna", "ben"], {}, "3")
>>> print(names_problem(rec, (1, 2, 0), ["dora", "anna", "ben"], {"dora": ["Dora"]}, "3"))
the ISS record names carla as rearhand, where Dora (dora) sits (seat 1 of table 3)
>>> deal_key(rec) == deal_key(rec.replace("P0[anna]", "P0[dora]")), deal_key("(;x;)")
(True, None)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache

from club.scoring import GameCheckError
from club.store import Store
from engine.iss import IssError, parse_record

POSITIONS = ("forehand", "middlehand", "rearhand")


@lru_cache(maxsize=1024)
def _parsed(iss: str) -> tuple[tuple[str, str, str], str] | None:
    """The record's players and its deal key, read once per record (the check and the store
    both ask)."""
    try:
        record = parse_record(iss)
    except IssError:
        return None
    hands = sorted(record.deal.hands)
    return record.players, f"{hands[0]:x}.{hands[1]:x}.{hands[2]:x}/{record.deal.skat:x}"


def deal_key(iss: str) -> str | None:
    """The deal of an ISS record as stored and compared: the three hands (in any order: a
    copy with the hands handed round is the same deal) and the skat. None: no readable
    record."""
    parsed = _parsed(iss)
    return None if parsed is None else parsed[1]


def record_players(iss: str) -> tuple[str, str, str] | None:
    parsed = _parsed(iss)
    return None if parsed is None else parsed[0]


def names_problem(iss: str, seats: Sequence[int], seated: Sequence[str],
                  names: Mapping[str, Sequence[str]], table: str) -> str | None:
    """Why the record's players are not who sits there (None: they are). ``seats``: the
    table seats of forehand, middlehand and rearhand; ``seated``: the seating's player ids
    by seat; ``names``: per player id, the names that player may be written with."""
    players = record_players(iss)
    if players is None:
        return "the ISS record cannot be read"
    wrong = []
    for pos, (written, seat) in enumerate(zip(players, seats, strict=True)):
        pid = seated[seat]
        accepted = {pid, *names.get(pid, ())}
        if written.strip() not in accepted:
            who = next(iter(names.get(pid, ())), "")
            sits = f"{who} ({pid})" if who and who != pid else pid
            shown = repr(written) if written != written.strip() or not written else written
            wrong.append(f"{shown} as {POSITIONS[pos]}, where {sits} sits (seat {seat + 1} "
                         f"of table {table})")
    if not wrong:
        return None
    return "the ISS record names " + "; ".join(wrong)


def check_record(store: Store, gid: str, table: str, seats: Sequence[int],
                 seated: Sequence[str], iss: str) -> None:
    """Refuse (:class:`GameCheckError`) a record whose deal another game has, or whose
    players are not the ones seated there. The deal first: a copied record of another table
    names that table's players too, and where it was copied from says more."""
    key = deal_key(iss)
    if key is None:
        return        # the engine's replay has refused it already
    seen = store.deal_seen(key, gid)
    if seen is not None:
        other, received = seen
        parts = other.split("/")
        where = (f"game {parts[3]} of table {parts[2]} in series {parts[1]}"
                 if len(parts) == 4 else other)
        raise GameCheckError(f"{gid}: the same deal (all 32 cards) was received before as "
                             f"{where} ({other}, at {received}): a copied record",
                             code="copied")
    names = {pid: [n for n in (drawn, now) if n]
             for pid, (drawn, now) in store.player_names(seated, _series(gid)).items()}
    problem = names_problem(iss, seats, seated, names, table)
    if problem:
        raise GameCheckError(f"{gid}: {problem}", code="players")


def _series(gid: str) -> int:
    parts = gid.split("/")
    return int(parts[1]) if len(parts) == 4 and parts[1].isdigit() else 0


def backfill(store: Store) -> int:
    """Keep the deal of revisions stored before deals were kept (a database from before)."""
    rows = store.revisions_without_deal()
    if rows:
        store.set_deals([(seq, deal_key(iss) or "") for seq, iss in rows])
    return len(rows)

"""Player tags: a club membership tag (or any NFC tag) that says who sits at a seat.

``skat-table enroll --players p17 p4 ...`` asks for each player's tag in turn and stores
``player id = "tag UID"`` in a file (``players.toml``), as ``enroll`` does for a deck's cards;
the config names it with ``[club] player_tags = "players.toml"``. When the club seats players
at the table, a player confirms by laying their tag on their pad. A player tag is never taken
for a card: a tag that is a card of a deck is refused at enrolment, and on the table a player
tag goes to the seating or is answered "this is a player tag", never to the game.

>>> tags = PlayerTags({"p17": "04a224b2c94f80"})
>>> tags.player_for("04A224B2C94F80"), tags.player_for("deadbeef")
('p17', None)
"""

from __future__ import annotations

import os
import re
import tomllib
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path

from firmware_host.clubside.seating import ID_RE

UID_RE = re.compile(r"^(?:[0-9a-f]{8}|[0-9a-f]{14}|[0-9a-f]{20})$")


class PlayerTagError(ValueError):
    """A player tag file or a tag that cannot be used; the message says why."""


class PlayerTags:
    """Player id <-> tag UID, both ways unique."""

    def __init__(self, by_player: Mapping[str, str] | None = None) -> None:
        self.by_player: dict[str, str] = {}
        self.by_uid: dict[str, str] = {}
        for pid, uid in (by_player or {}).items():
            self.add(pid, uid)

    def add(self, pid: str, uid: str) -> None:
        uid = uid.strip().lower()
        if not ID_RE.match(pid):
            raise PlayerTagError(f"{pid!r} is not a player id (letters, digits, _ . : -)")
        if not UID_RE.match(uid):
            raise PlayerTagError(f"{uid!r} is not a tag UID (8, 14 or 20 hex digits)")
        if uid in self.by_uid and self.by_uid[uid] != pid:
            raise PlayerTagError(f"tag {uid} is already {self.by_uid[uid]}'s player tag")
        old = self.by_player.get(pid)
        if old is not None:
            self.by_uid.pop(old, None)
        self.by_player[pid] = uid
        self.by_uid[uid] = pid

    def player_for(self, uid: str) -> str | None:
        return self.by_uid.get(uid.strip().lower())

    def __len__(self) -> int:
        return len(self.by_player)

    def to_toml(self) -> str:
        lines = ["# skat-table player tags: club player id = tag UID (skat-table enroll "
                 "--players)", "[players]"]
        lines += [f'"{pid}" = "{uid}"' for pid, uid in self.by_player.items()]
        return "\n".join(lines) + "\n"

    def save(self, path: Path) -> None:
        tmp = path.with_name(f".{path.name}.tmp")
        tmp.write_text(self.to_toml(), encoding="utf-8")
        os.replace(tmp, path)


def load_player_tags(path: str | Path) -> PlayerTags:
    path = Path(path)
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise PlayerTagError(f"no such player tag file {path}") from None
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise PlayerTagError(f"cannot read the player tag file {path}: {exc}") from None
    table = raw.get("players", {})
    if not isinstance(table, Mapping) or not all(isinstance(v, str) for v in table.values()):
        raise PlayerTagError(f"{path}: [players] must map player ids to tag UIDs")
    try:
        return PlayerTags(table)
    except PlayerTagError as exc:
        raise PlayerTagError(f"{path}: {exc}") from None


def enrol_players(ids: Iterable[str], out: Path, uids: Iterator[str], card_uids: set[str],
                  say: object = print) -> int:
    """Ask for each player's tag in turn (``uids``: the tags laid, ``undo`` takes one back);
    save after each. A card's tag or another player's tag is refused. Returns the exit status."""
    tell = say if callable(say) else print
    tags = load_player_tags(out) if out.exists() else PlayerTags()
    todo = [p for p in ids if p not in tags.by_player]
    for pid in ids:
        if not ID_RE.match(pid):
            tell(f"skat-table: {pid!r} is not a player id (letters, digits, _ . : -)")
            return 2
    done: list[str] = []
    while todo:
        pid = todo[0]
        tell(f"  lay {pid}'s player tag ...")
        try:
            uid = next(uids).strip().lower()
        except StopIteration:
            tell(f"skat-table: input ended with {len(todo)} player(s) left; run again to go on")
            return 1
        if uid == "undo":
            if done:
                last = done.pop()
                tags.by_uid.pop(tags.by_player.pop(last), None)
                todo.insert(0, last)
                tags.save(out)
                tell(f"  took back {last}'s tag")
            continue
        if uid in card_uids:
            tell(f"  refused: tag {uid} is a card of a deck, not a player tag")
            continue
        try:
            tags.add(pid, uid)
        except PlayerTagError as exc:
            tell(f"  refused: {exc}")
            continue
        tags.save(out)
        done.append(todo.pop(0))
        tell(f"  {pid} = {uid}")
    tell(f"player tags complete: {out} ({len(tags)} players)")
    return 0

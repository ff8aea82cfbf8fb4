"""The tables' payloads, read field by field before anything else looks at them.

Every field has a type and a range. What the server later compares (the seating, the engine's
score) is checked in :mod:`club.service`; this module only makes sure that what it compares
is of a known shape, so that no payload can make the server raise instead of refusing it: a
number of 5,000 digits, ``"game": "²"``, ``"scores": 5``, 30,000 nested brackets or a lone
UTF-16 surrogate escape are each a :class:`PayloadError` with a reason a director can read.

Fields the server does not know are accepted when they are plain values (null, true/false, a
number, a text of at most 200 characters), so that a newer table can add one without its
games being refused; a list or an object there is refused.

>>> parse_json(b'[' * 30000 + b']' * 30000)
Traceback (most recent call last):
...
club.messages.PayloadError: not JSON: nested too deeply
>>> d = parse_json(b'{"id": "t/1/2/3", "revision": 1, "game": "\\xc2\\xb2"}')
>>> whole(d, "game", 1, 999)
Traceback (most recent call last):
...
club.messages.PayloadError: "game" must be a whole number 1..999, not the text '²'
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from typing import Any

MAX_PAYLOAD = 64 * 1024
MAX_DEPTH = 4          # the game message, its result, the scores: three levels and a margin
MAX_TEXT = 200         # ids, names, contracts, times: far more than any real one needs
MAX_ISS = 8192         # an ISS record of a whole game is about 700 characters
MAX_VALUE = 1000       # a game value on the list: the largest lost overbid is -2 x 270
MAX_GAMES = 999        # the config allows 200 games a series; the config's own limit applies
MAX_SERIES = 99
MAX_REVISION = 9999
TABLE_STATES = ("idle", "playing", "offline")


class PayloadError(ValueError):
    """A payload that is not of the documented shape; the message says which field and why."""


def show(v: Any) -> str:
    """A short description of a value for a refusal reason: never the whole value, and never
    ``str()`` of a huge number (Python refuses to write one of more than 4,300 digits).

    >>> show(10 ** 5000), show([1, 2]), show(None), show("²")
    ('a number of 5001 digits', 'a list', 'null', "the text '²'")
    >>> show("x" * 100)
    "the text 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx…'"
    """
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        if abs(v) >= 10 ** 12:
            # bit_length gives the size without converting the number to text
            return f"a number of {int(abs(v).bit_length() * math.log10(2)) + 1} digits"
        return str(v)
    if isinstance(v, float):
        return repr(v)[:30]
    if isinstance(v, str):
        text = v[:30] + ("…" if len(v) > 30 else "")
        return "the text " + repr(text)   # repr escapes a lone surrogate: safe to store
    if isinstance(v, list):
        return "a list"
    if isinstance(v, dict):
        return "an object"
    return type(v).__name__


def parse_json(payload: bytes) -> dict[str, Any]:
    """The payload as a JSON object: at most 64 KiB of UTF-8, nested at most 4 deep."""
    if len(payload) > MAX_PAYLOAD:
        raise PayloadError(f"message of {len(payload)} bytes is too large")
    try:
        text = payload.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise PayloadError(f"not UTF-8 JSON: {exc}") from None
    try:
        data = json.loads(text)
    except RecursionError:
        raise PayloadError("not JSON: nested too deeply") from None
    except ValueError as exc:
        # JSONDecodeError, and Python's refusal to read a number of more than 4,300 digits
        raise PayloadError(f"not JSON: {str(exc)[:120]}") from None
    if not isinstance(data, dict):
        raise PayloadError(f"the message is not a JSON object but {show(data)}")
    if _depth(data) > MAX_DEPTH:
        raise PayloadError(f"the message is nested more than {MAX_DEPTH} levels deep")
    return data


def _depth(v: Any) -> int:
    """How deep lists and objects nest (iteratively: no recursion limit to hit)."""
    deepest = 0
    stack: list[tuple[Any, int]] = [(v, 1)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, dict):
            deepest = max(deepest, level)
            stack.extend((x, level + 1) for x in item.values())
        elif isinstance(item, list):
            deepest = max(deepest, level)
            stack.extend((x, level + 1) for x in item)
    return deepest


def _where(key: str, within: str) -> str:
    return f'"{within}.{key}"' if within else f'"{key}"'


def text(d: dict[str, Any], key: str, *, limit: int = MAX_TEXT, optional: bool = False,
         within: str = "") -> str | None:
    """A text of 1..limit characters (a whole number is taken as its digits); None when
    ``optional`` and the field is missing, null or empty."""
    v = d.get(key)
    if optional and (v is None or v == ""):
        return None
    if isinstance(v, int) and not isinstance(v, bool) and 0 <= v < 10 ** 9:
        v = str(v)
    if not isinstance(v, str) or not 1 <= len(v) <= limit:
        raise PayloadError(f"{_where(key, within)} must be a text of 1..{limit} characters, "
                           f"not {show(v)}")
    _unicode(v, key, within)
    return v


def _unicode(v: str, key: str, within: str) -> None:
    # JSON may escape a lone UTF-16 surrogate ("\ud800"): valid JSON, but no character, and
    # SQLite cannot store it as text
    try:
        v.encode("utf-8")
    except UnicodeEncodeError:
        raise PayloadError(f"{_where(key, within)} holds an escape that is no character "
                           "(a lone surrogate)") from None


def whole(d: dict[str, Any], key: str, lo: int, hi: int, *, optional: bool = False,
          within: str = "") -> int | None:
    """A whole number lo..hi; its ASCII digits as text are accepted (the link writes the
    seating's series as it came). None when ``optional`` and missing or null."""
    v = d.get(key)
    if v is None and optional:
        return None
    n = v
    if isinstance(v, str) and v.isascii() and v.isdigit() and len(v) <= 6:
        n = int(v)
    if isinstance(n, bool) or not isinstance(n, int) or not lo <= n <= hi:
        raise PayloadError(f"{_where(key, within)} must be a whole number {lo}..{hi}, "
                           f"not {show(v)}")
    return n


def flag(d: dict[str, Any], key: str, *, optional: bool = False, within: str = "") -> bool | None:
    v = d.get(key)
    if v is None and optional:
        return None
    if not isinstance(v, bool):
        raise PayloadError(f"{_where(key, within)} must be true or false, not {show(v)}")
    return v


def _extras(d: dict[str, Any], known: set[str], within: str = "") -> None:
    """Fields the server does not know: plain values only."""
    for key, v in d.items():
        if key in known:
            continue
        if len(key) > 64:
            raise PayloadError(f"a field name of {len(key)} characters is too long")
        _unicode(key, "?", within)
        if v is None or isinstance(v, bool):
            continue
        if isinstance(v, int) and abs(v) < 10 ** 12:
            continue
        if isinstance(v, float) and math.isfinite(v):
            continue
        if isinstance(v, str) and len(v) <= MAX_TEXT:
            _unicode(v, key, within)
            continue
        raise PayloadError(f"unknown field {_where(key, within)} must be a plain value, "
                           f"not {show(v)}")


@dataclass(frozen=True)
class Claim:
    """The table's own result of the deal (a ``replay --json`` games entry), typed."""

    declarer: int | None
    contract: str | None
    won: bool | None
    value: int
    passed_in: bool
    scores: tuple[int, ...] | None


@dataclass(frozen=True)
class GameMessage:
    """A ``.../game`` payload whose every field has its type and range."""

    id: str
    revision: int
    tournament: str | None
    series: int
    table: str
    game: int
    players: tuple[str, ...]
    dealer: int
    result: Claim
    iss: str
    at: str
    # the players who confirmed the result at the table; [] not confirmed; None: the table
    # does not ask for confirmations (or was built before they were asked)
    confirmed_by: tuple[str, ...] | None = None


GAME_FIELDS = {"id", "revision", "tournament", "series", "table", "game", "players", "dealer",
               "result", "iss", "at", "confirmed_by"}
RESULT_FIELDS = {"number", "dealer", "declarer", "contract", "bid", "won", "value", "points",
                 "tricks", "matadors", "schneider", "schwarz", "overbid", "passed_in",
                 "scores"}


def game_message(d: dict[str, Any]) -> GameMessage:
    """Read a game payload (already a JSON object) field by field.

    >>> m = game_message({"id": "h/1/3/1", "revision": "2", "tournament": "h", "series": 1,
    ...     "table": 3, "game": 1, "players": ["a", "b", "c"], "dealer": 0, "iss": "(;)",
    ...     "result": {"declarer": None, "value": 0, "passed_in": True, "scores": [0, 0, 0]}})
    >>> m.revision, m.table, m.result.scores
    (2, '3', (0, 0, 0))
    """
    gid = text(d, "id")
    assert gid is not None
    revision = whole(d, "revision", 1, MAX_REVISION)
    tournament = text(d, "tournament", limit=64, optional=True)
    if tournament is None:
        # before the other fields: a home game's series is the journal's own text
        raise PayloadError(f"{gid}: a game without a tournament (a home game at a club table) "
                           "is not counted")
    series = whole(d, "series", 1, MAX_SERIES)
    table = text(d, "table", limit=64)
    game = whole(d, "game", 1, MAX_GAMES)
    players = d.get("players")
    if (not isinstance(players, list) or len(players) not in (3, 4)
            or not all(isinstance(p, str) and 1 <= len(p) <= 64 for p in players)):
        raise PayloadError(f'"players" must be a list of 3 or 4 player ids, not {show(players)}')
    for p in players:
        _unicode(p, "players", "")
    dealer = whole(d, "dealer", 0, 3)
    result = d.get("result")
    if not isinstance(result, dict):
        raise PayloadError(f'"result" must be an object, not {show(result)}')
    iss = text(d, "iss", limit=MAX_ISS)
    at = d.get("at", "")
    if at is None:
        at = ""
    if not isinstance(at, str) or len(at) > 64:
        raise PayloadError(f'"at" must be a text of at most 64 characters, not {show(at)}')
    _unicode(at, "at", "")
    confirmed_by = _confirmed_by(d.get("confirmed_by"), players)
    _extras(d, GAME_FIELDS)
    assert revision is not None and series is not None and table is not None
    assert game is not None and dealer is not None and iss is not None
    return GameMessage(gid, revision, tournament, series, table, game, tuple(players), dealer,
                       claim(result, len(players)), iss, at, confirmed_by)


def _confirmed_by(v: Any, players: list[str]) -> tuple[str, ...] | None:
    """``confirmed_by``: absent or null (a table that does not ask), or a list of at most
    three of the game's players, each once (those who confirmed the result at the table).

    >>> _confirmed_by(["b", "c"], ["a", "b", "c"])
    ('b', 'c')
    >>> try:
    ...     _confirmed_by(["b", "b"], ["a", "b", "c"])
    ... except PayloadError as exc:
    ...     "must be a list of at most 3 of the game's players, each once" in str(exc)
    True
    """
    if v is None:
        return None
    if (not isinstance(v, list) or len(v) > 3 or len(set(map(repr, v))) != len(v)
            or not all(isinstance(p, str) and p in players for p in v)):
        raise PayloadError('"confirmed_by" must be a list of at most 3 of the game\'s players, '
                           f"each once, not {show(v)}")
    return tuple(v)


def claim(r: dict[str, Any], n: int) -> Claim:
    """The ``result`` object: what the engine's result will be compared with."""
    w = "result"
    whole(r, "number", 1, MAX_GAMES, optional=True, within=w)
    whole(r, "dealer", 0, 3, optional=True, within=w)
    declarer = whole(r, "declarer", 0, n - 1, optional=True, within=w)
    contract = text(r, "contract", limit=16, optional=True, within=w)
    whole(r, "bid", 0, 264, optional=True, within=w)
    won = flag(r, "won", optional=True, within=w)
    value = r.get("value")
    if isinstance(value, bool) or not isinstance(value, int) or abs(value) > MAX_VALUE:
        raise PayloadError(f'"result.value" must be a whole number -{MAX_VALUE}..{MAX_VALUE}, '
                           f"not {show(value)}")
    whole(r, "points", 0, 120, optional=True, within=w)
    whole(r, "tricks", 0, 10, optional=True, within=w)
    m = r.get("matadors")
    if m is not None and (isinstance(m, bool) or not isinstance(m, int) or abs(m) > 11):
        raise PayloadError(f'"result.matadors" must be a whole number -11..11, not {show(m)}')
    for key in ("schneider", "schwarz", "overbid"):
        flag(r, key, optional=True, within=w)
    passed_in = bool(flag(r, "passed_in", optional=True, within=w))
    scores = r.get("scores")
    if scores is not None and (
            not isinstance(scores, list) or len(scores) != n
            or not all(isinstance(s, int) and not isinstance(s, bool) and abs(s) <= MAX_VALUE
                       for s in scores)):
        raise PayloadError(f'"result.scores" must be a list of {n} whole numbers '
                           f"-{MAX_VALUE}..{MAX_VALUE}, one per seat, not {show(scores)}")
    _extras(r, RESULT_FIELDS, w)
    return Claim(declarer, contract, won, value, passed_in,
                 None if scores is None else tuple(scores))


def status_message(d: dict[str, Any], table: str) -> dict[str, Any]:
    """A ``.../status`` payload: what the tables page shows, and nothing else.

    >>> status_message({"table": "3", "state": "playing", "series": "1", "game": 4}, "3")
    {'table': '3', 'state': 'playing', 'tournament': None, 'series': '1', 'game': 4, 'at': None}
    """
    state = d.get("state")
    if state not in TABLE_STATES:
        raise PayloadError(f'"state" must be idle, playing or offline, not {show(state)}')
    own = text(d, "table", limit=64)
    if own != table:
        raise PayloadError(f"a status for table {show(own)} sent on table {table}'s topic")
    out = {"table": own, "state": state,
           "tournament": text(d, "tournament", limit=64, optional=True),
           "series": text(d, "series", limit=64, optional=True),
           "game": whole(d, "game", 0, 9999, optional=True),
           "at": text(d, "at", limit=64, optional=True)}
    _extras(d, set(out))
    return out

"""``club.toml``: the club server's configuration, read once at start.

>>> cfg = ClubConfig.from_dict({"club": {"id": "skc"}, "tournament": {"id": "herbst"}})
>>> cfg.club_id, cfg.tournament.id, cfg.broker.url, cfg.web.port, cfg.language
('skc', 'herbst', None, 8080, 'de')
>>> ClubConfig.from_dict({"club": {"id": "a/b"}, "tournament": {"id": "t"}})
Traceback (most recent call last):
...
club.config.ClubConfigError: [club] id: 'a/b' may hold letters, digits, '-', '_' and '.' only
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
import secrets
import tomllib
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from club.i18n import LANGUAGES
from club.prizes import PrizeRules, parse_prizes
from club.teams import TeamRule, parse_teams

_ID = re.compile(r"^[A-Za-z0-9_.-]{1,64}$")
TIE_BREAKS = {
    "won-minus-lost": "more games won minus games lost",
    "last-series": "the better Seeger-Fabian result in the last series played",
}


class ClubConfigError(ValueError):
    """A wrong club config: the message names the key."""


@dataclass(frozen=True)
class BrokerConfig:
    """Where the tables' messages come from. ``url`` None: start the embedded broker."""

    url: str | None = None
    username: str | None = None
    password: str | None = None
    listen: str = "127.0.0.1:1883"
    client_id: str = ""

    @property
    def host_port(self) -> tuple[str, int]:
        if self.url is None:
            host, _, port = self.listen.rpartition(":")
            return host or "127.0.0.1", int(port)
        parts = urlsplit(self.url)
        default = 8883 if parts.scheme == "mqtts" else 1883
        return parts.hostname or "127.0.0.1", parts.port or default

    @property
    def tls(self) -> bool:
        return self.url is not None and self.url.startswith("mqtts://")


@dataclass(frozen=True)
class WebConfig:
    host: str = "127.0.0.1"
    port: int = 8080
    secure_cookies: bool = False


@dataclass(frozen=True)
class Abreizgeld:
    """Money for lost games, per series list: ``per_lost`` each, ``then`` from the
    ``from_lost``-th lost game of the list on (DSkV practice: 0.50, from the fourth 1.00).

    >>> Abreizgeld().amount(5)
    Decimal('3.50')
    """

    per_lost: Decimal = Decimal("0.50")
    from_lost: int = 4
    then: Decimal = Decimal("1.00")
    to_prizes: bool = False

    def amount(self, lost: int) -> Decimal:
        early = min(lost, self.from_lost - 1)
        return self.per_lost * early + self.then * max(0, lost - early)


@dataclass(frozen=True)
class TournamentConfig:
    id: str
    name: str = ""
    series: int = 3
    games_three: int = 36
    games_four: int = 48
    seed: str | None = None
    later_series: str = "standing"
    entry_fee: Decimal = Decimal("0")
    prize_shares: tuple[Decimal, ...] = ()
    tie_break: tuple[str, ...] = ()

    def games_for(self, players: int) -> int:
        return self.games_four if players == 4 else self.games_three


@dataclass(frozen=True)
class ClubConfig:
    club_id: str
    club_name: str
    database: Path
    tournament: TournamentConfig
    broker: BrokerConfig = field(default_factory=BrokerConfig)
    web: WebConfig = field(default_factory=WebConfig)
    director_hash: str | None = None
    director_name: str = "director"     # the first director, whose password is the hash above
    abreizgeld: Abreizgeld = field(default_factory=Abreizgeld)
    language: str = "de"
    # the director's tools beyond the evening: member registry, teams, prizes beyond shares
    registry: Path | None = None
    teams: TeamRule = field(default_factory=TeamRule)
    prize_rules: PrizeRules = field(default_factory=PrizeRules)

    @classmethod
    def from_dict(cls, d: dict[str, Any], base: Path | None = None) -> ClubConfig:
        base = base or Path.cwd()
        club = _table(d, "club")
        club_id = _ident(club, "club", "id")
        db = Path(_str(club, "club", "database", "club.db"))
        language = _str(club, "club", "language", "de")
        if language not in LANGUAGES:
            raise ClubConfigError(f"[club] language: {language!r} is not one of the club's "
                                  f"languages ({', '.join(LANGUAGES)})")
        broker_d = _table(d, "broker", required=False)
        password = None
        if "password_file" in broker_d:
            pf = base / _str(broker_d, "broker", "password_file")
            try:
                password = pf.read_text(encoding="utf-8").strip()
            except OSError as exc:
                raise ClubConfigError(f"[broker] password_file: cannot read {pf}: {exc}") from None
        url = broker_d.get("url")
        if url is not None:
            url = _str(broker_d, "broker", "url")
            parts = urlsplit(url)
            if parts.scheme not in ("mqtt", "mqtts") or not parts.hostname:
                raise ClubConfigError(
                    f"[broker] url: {url!r} must look like mqtt://host:1883 or mqtts://host:8883"
                )
        listen = _str(broker_d, "broker", "listen", "127.0.0.1:1883")
        if not re.match(r"^[^:]*:\d{1,5}$", listen):
            raise ClubConfigError(f"[broker] listen: {listen!r} must be host:port")
        broker = BrokerConfig(
            url=url,
            username=broker_d.get("username"),
            password=password,
            listen=listen,
            client_id=_str(broker_d, "broker", "client_id", f"skat-club-{club_id}"),
        )
        web_d = _table(d, "web", required=False)
        port = web_d.get("port", 8080)
        if not isinstance(port, int) or not 0 <= port < 65536:
            raise ClubConfigError(f"[web] port: {port!r} is not a port number")
        web = WebConfig(
            host=_str(web_d, "web", "host", "127.0.0.1"),
            port=port,
            secure_cookies=bool(web_d.get("secure_cookies", False)),
        )
        director = _table(d, "director", required=False)
        dhash = director.get("password_hash")
        if dhash is not None:
            try:
                _parse_hash(str(dhash))
            except ValueError:
                raise ClubConfigError(
                    "[director] password_hash: not a hash written by "
                    "'skat-table club hash-password'"
                ) from None
        dname = _str(director, "director", "name", "director").strip()
        if not 1 <= len(dname) <= 40 or not dname.isprintable():
            raise ClubConfigError("[director] name: 1..40 printable characters")
        t = _table(d, "tournament")
        shares = tuple(_money(t, "tournament", "prize_shares", s) for s in
                       t.get("prize_shares", []))
        if sum(shares) > 100:
            raise ClubConfigError("[tournament] prize_shares: the shares add up to more than 100 %")
        tie_break = tuple(str(x) for x in t.get("tie_break", []))
        for name in tie_break:
            if name not in TIE_BREAKS:
                raise ClubConfigError(
                    f"[tournament] tie_break: unknown rule {name!r}; use {', '.join(TIE_BREAKS)}"
                )
        later = _str(t, "tournament", "later_series", "standing")
        if later not in ("standing", "draw"):
            raise ClubConfigError("[tournament] later_series: use 'standing' or 'draw'")
        tournament = TournamentConfig(
            id=_ident(t, "tournament", "id"),
            name=_str(t, "tournament", "name", ""),
            series=_int(t, "tournament", "series", 3, 1, 20),
            games_three=_int(t, "tournament", "games_three", 36, 1, 200),
            games_four=_int(t, "tournament", "games_four", 48, 1, 200),
            seed=None if t.get("seed") is None else str(t["seed"]),
            later_series=later,
            entry_fee=_money(t, "tournament", "entry_fee", t.get("entry_fee", "0")),
            prize_shares=shares,
            tie_break=tie_break,
        )
        a = _table(d, "abreizgeld", required=False)
        abreiz = Abreizgeld(
            per_lost=_money(a, "abreizgeld", "per_lost", a.get("per_lost", "0.50")),
            from_lost=_int(a, "abreizgeld", "from", 4, 1, 1000),
            then=_money(a, "abreizgeld", "then", a.get("then", "1.00")),
            to_prizes=bool(a.get("to_prizes", False)),
        )
        registry = club.get("registry")
        if registry is not None:
            registry = Path(_str(club, "club", "registry"))
            registry = registry if registry.is_absolute() else base / registry
        try:
            teams = parse_teams(_table(d, "teams", required=False))
            prize_rules = parse_prizes(d.get("prizes", []))
        except ValueError as exc:
            raise ClubConfigError(str(exc)) from None
        return cls(
            club_id=club_id,
            club_name=_str(club, "club", "name", club_id),
            database=db if db.is_absolute() else base / db,
            tournament=tournament,
            broker=broker,
            web=web,
            director_hash=None if dhash is None else str(dhash),
            director_name=dname,
            abreizgeld=abreiz,
            language=language,
            registry=registry,
            teams=teams,
            prize_rules=prize_rules,
        )


def load_config(path: str | Path) -> ClubConfig:
    """Read ``club.toml``; a wrong file raises :class:`ClubConfigError` naming the key."""
    p = Path(path)
    try:
        data = tomllib.loads(p.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ClubConfigError(f"cannot read {p}: {exc.strerror or exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise ClubConfigError(f"{p} is not valid TOML: {exc}") from None
    return ClubConfig.from_dict(data, base=p.resolve().parent)


def _table(d: dict[str, Any], name: str, required: bool = True) -> dict[str, Any]:
    v = d.get(name)
    if v is None:
        if required:
            raise ClubConfigError(f"[{name}] is missing")
        return {}
    if not isinstance(v, dict):
        raise ClubConfigError(f"[{name}] must be a table")
    return v


def _str(d: dict[str, Any], table: str, key: str, default: str | None = None) -> str:
    v = d.get(key, default)
    if not isinstance(v, str):
        raise ClubConfigError(f"[{table}] {key}: expected text, not {v!r}")
    return v


def _ident(d: dict[str, Any], table: str, key: str) -> str:
    if key not in d:
        raise ClubConfigError(f"[{table}] {key} is missing")
    v = _str(d, table, key)
    if not _ID.match(v):
        raise ClubConfigError(
            f"[{table}] {key}: {v!r} may hold letters, digits, '-', '_' and '.' only"
        )
    return v


def _int(d: dict[str, Any], table: str, key: str, default: int, lo: int, hi: int) -> int:
    v = d.get(key, default)
    if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
        raise ClubConfigError(f"[{table}] {key}: expected a whole number {lo}..{hi}, not {v!r}")
    return v


def _money(d: dict[str, Any], table: str, key: str, v: Any) -> Decimal:
    try:
        m = Decimal(str(v))
    except (InvalidOperation, ValueError):
        raise ClubConfigError(f"[{table}] {key}: {v!r} is not an amount") from None
    if not m.is_finite() or m < 0:
        raise ClubConfigError(f"[{table}] {key}: {v!r} must be zero or more")
    return m


# --- the director's password ---------------------------------------------------------------

_SCRYPT = (2**14, 8, 1)


def hash_password(password: str, salt: bytes | None = None) -> str:
    """A scrypt hash for ``[director] password_hash``.

    >>> h = hash_password("geheim", salt=b"0123456789abcdef")
    >>> h.startswith("scrypt$16384$8$1$"), check_password(h, "geheim"), check_password(h, "x")
    (True, True, False)
    """
    salt = salt if salt is not None else secrets.token_bytes(16)
    n, r, p = _SCRYPT
    digest = hashlib.scrypt(password.encode("utf-8"), salt=salt, n=n, r=r, p=p, dklen=32)
    b64 = base64.b64encode
    return f"scrypt${n}${r}${p}${b64(salt).decode()}${b64(digest).decode()}"


def _parse_hash(text: str) -> tuple[int, int, int, bytes, bytes]:
    kind, n, r, p, salt, digest = text.split("$")
    if kind != "scrypt":
        raise ValueError(kind)
    return int(n), int(r), int(p), base64.b64decode(salt), base64.b64decode(digest)


def check_password(stored: str, password: str) -> bool:
    try:
        n, r, p, salt, digest = _parse_hash(stored)
    except ValueError:
        return False
    got = hashlib.scrypt(password.encode("utf-8"), salt=salt, n=n, r=r, p=p,
                         dklen=len(digest), maxmem=128 * n * r * p + 2**20)
    return hmac.compare_digest(got, digest)

"""The season ranking across evenings, and ``skat-table club season``.

An evening is imported into the member registry (:mod:`club.registry`) once it is finished
(every series drawn is closed). The season ranking sums, per member, the Seeger-Fabian totals
of the season's evenings: the total, the evenings played, the series played and the average
per series (total / series played), and each evening's result. Equal totals share a place.

    skat-table club season import --config club.toml [--season 2026] [--link p17=4]
    skat-table club season ranking --config club.toml [--season 2026]
    skat-table club season members --config club.toml      # a players CSV for the next evening

Kept light at module level (the CLI imports it to build its parser).
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class SeasonRow:
    place: int
    member: int
    name: str
    club: str
    total: int
    evenings: int
    series: int
    by_evening: dict[str, int] = field(default_factory=dict)

    @property
    def average(self) -> float:
        """Seeger-Fabian per series played."""
        return self.total / self.series if self.series else 0.0


def season_ranking(registry: Any, season: str) -> list[SeasonRow]:
    """The members who played an evening of ``season``, best total first."""
    sums: dict[int, dict[str, Any]] = {}
    for tournament, m, _place, total, series in registry.results(season):
        s = sums.setdefault(m.id, dict(member=m, total=0, series=0, by={}))
        s["total"] += total
        s["series"] += len(series)
        s["by"][tournament] = total
    rows = sorted(sums.values(), key=lambda s: (-s["total"], s["member"].name.casefold(),
                                                s["member"].id))
    out, place, prev = [], 0, None
    for i, s in enumerate(rows):
        if s["total"] != prev:
            place, prev = i + 1, s["total"]
        m = s["member"]
        out.append(SeasonRow(place, m.id, m.name, m.club, s["total"], len(s["by"]),
                             s["series"], dict(s["by"])))
    return out


def unfinished(service: Any) -> str:
    """Why the evening cannot be imported yet (empty: it can)."""
    series = service.store.series()
    if not series:
        return "no series has been drawn: there is nothing to import"
    running = [s["number"] for s in series if s["state"] != "closed"]
    if running:
        return (f"series {running[0]} is still running: close it first (the season counts "
                "finished evenings only)")
    return ""


def evening_of(service: Any, season: str | None = None) -> tuple[Any, list[Any]]:
    """The finished evening the service holds, as the registry stores it: (Evening, results
    of the players taking part). Raises ``RegistryError`` if it is not finished."""
    from club.registry import Evening, RegistryError, Result

    why = unfinished(service)
    if why:
        raise RegistryError(why)
    series = service.store.series()
    date = series[0]["drawn_at"][:10]
    seated = {s["number"]: {p for ps in service.store.seating(s["number"]).values()
                            for p in ps} for s in series}
    players = {p["id"]: p for p in service.store.players()}
    results = []
    for r in service.ranking():
        played = tuple(v for n, v in enumerate(r.series, start=1) if r.player in
                       seated.get(n, ()))
        tag = players.get(r.player, {}).get("tag")
        results.append(Result(r.player, r.name, r.club, tag, r.place, r.total, played,
                              r.won, r.lost))
    t = service.config.tournament
    evening = Evening(t.id, t.name or t.id, season or date[:4], date, len(series),
                      len(service.games()))
    return evening, results


def import_evening(service: Any, registry: Any, season: str | None = None,
                   links: dict[str, int] | None = None) -> str:
    """Import the service's finished evening; returns what was done, in a sentence."""
    evening, results = evening_of(service, season)
    count, new, replaced = registry.import_evening(evening, results, links)
    return (f"{evening.name} ({evening.date}) {'imported again' if replaced else 'imported'} "
            f"into season {evening.season}: {count} players, {new} new members")


# --- the command ------------------------------------------------------------------------------


def add_season_arguments(sub: Any) -> None:
    season = sub.add_parser("season", help="the member registry and the season ranking")
    ssub = season.add_subparsers(dest="season_command", metavar="ACTION")
    imp = ssub.add_parser("import", help="import this config's finished tournament")
    imp.add_argument("--config", required=True, help="the club's TOML config (club.toml)")
    imp.add_argument("--season", help="the season's name (default: the evening's year)")
    imp.add_argument("--link", action="append", default=[], metavar="PLAYER=MEMBER",
                     help="the tournament's player PLAYER is the registry's member MEMBER")
    imp.add_argument("--registry", help="the registry file (default: [club] registry)")
    rank = ssub.add_parser("ranking", help="print the season ranking")
    rank.add_argument("--config", required=True)
    rank.add_argument("--season", help="default: the newest season")
    rank.add_argument("--registry")
    mem = ssub.add_parser("members", help="print the members as a players CSV")
    mem.add_argument("--config", required=True)
    mem.add_argument("--registry")


def cmd_season(args: argparse.Namespace) -> int:
    from club.config import ClubConfigError, load_config
    from club.registry import Registry, RegistryError

    try:
        config = load_config(args.config)
    except ClubConfigError as exc:
        print(f"skat-table: config error: {exc}", file=sys.stderr)
        return 2
    path = args.registry or config.registry
    if path is None:
        print("skat-table club season: no member registry: set [club] registry = "
              "\"members.db\" in the config, or say --registry FILE", file=sys.stderr)
        return 2
    try:
        registry = Registry(path)
    except RegistryError as exc:
        print(f"skat-table club season: {exc}", file=sys.stderr)
        return 2
    try:
        if args.season_command == "import":
            return _import(config, registry, args)
        if args.season_command == "ranking":
            return _ranking(registry, args.season)
        if args.season_command == "members":
            return _members(registry)
        print("skat-table club season: say import, ranking or members", file=sys.stderr)
        return 2
    finally:
        registry.close()


def _import(config: Any, registry: Any, args: argparse.Namespace) -> int:
    from club.registry import RegistryError
    from club.service import ClubService
    from club.store import Store, StoreError

    links = {}
    for text in args.link:
        player, sep, member = text.partition("=")
        if not sep or not member.strip().isdigit():
            print(f"skat-table club season: --link {text!r}: say PLAYER=MEMBER (a member "
                  "number, as 'season members' shows them)", file=sys.stderr)
            return 2
        links[player.strip()] = int(member)
    if not config.database.exists():
        print(f"skat-table club season: {config.database} does not exist: nothing to import",
              file=sys.stderr)
        return 2
    try:
        store = Store(config.database)
    except StoreError as exc:
        print(f"skat-table club season: {exc}", file=sys.stderr)
        return 2
    try:
        print(import_evening(ClubService(config, store), registry, args.season, links))
    except RegistryError as exc:
        print(f"skat-table club season: {exc}", file=sys.stderr)
        return 1
    finally:
        store.close()
    return 0


def _ranking(registry: Any, season: str | None) -> int:
    seasons = registry.seasons()
    if not seasons:
        print("skat-table club season: no evening has been imported yet", file=sys.stderr)
        return 1
    season = season or seasons[-1]
    if season not in seasons:
        print(f"skat-table club season: no season {season!r}; there are {', '.join(seasons)}",
              file=sys.stderr)
        return 1
    evenings = registry.evenings(season)
    print(f"Season {season}: {len(evenings)} evenings")
    print(f"{'place':>5}  {'name':<32} {'evenings':>8} {'series':>6} {'total':>7} "
          f"{'per series':>10}")
    for r in season_ranking(registry, season):
        print(f"{r.place:>4}.  {r.name[:32]:<32} {r.evenings:>8} {r.series:>6} {r.total:>7} "
              f"{r.average:>10.1f}")
    return 0


def _members(registry: Any) -> int:
    import csv

    w = csv.writer(sys.stdout, lineterminator="\n")
    w.writerow(["id", "name", "club", "tag"])
    for m in registry.members():
        w.writerow([f"m{m.id}", m.name, m.club, m.tag or ""])
    return 0

"""``skat-table stats``: the archive of finished series and each player's statistics, as the
kiosk shows them, for a spreadsheet or another program.

The journal is opened read-only (also while the table runs, as ``export`` does); the
summaries the table keeps beside it are used where they still fit the series, the rest are
made now and not written (firmware_host.series.archive). ``--format`` ``text`` (a table),
``csv`` (one row per player, or with ``--series`` one per series and seat) or ``json``
(players and series together).
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import sys
import time
from pathlib import Path
from typing import Any

PLAYER_FIELDS = ("name", "series", "games", "declared", "won", "won_percent",
                 "seeger_fabian", "seeger_fabian_per_series", "best_value", "best_contract",
                 "best_series", "best_game", "best_day")
SERIES_FIELDS = ("series", "started", "ended", "games", "length", "complete", "scoring",
                 "seat", "player", "total", "seeger_fabian", "winner")


def add_arguments(p: argparse.ArgumentParser) -> None:
    where = p.add_mutually_exclusive_group()
    where.add_argument("--journal", metavar="FILE", help="the journal file")
    where.add_argument("--data-dir", metavar="DIR",
                       help="the table's data directory (default /var/lib/skat-table)")
    p.add_argument("--format", choices=("text", "csv", "json"), default="text",
                   help="a table for reading (default), CSV, or JSON (players and series)")
    p.add_argument("--series", action="store_true",
                   help="the finished series (one per line; in CSV one row per seat) instead "
                        "of the players")
    p.add_argument("--out", metavar="FILE", help="write to FILE instead of stdout")


def _day(t: float) -> str:
    return time.strftime("%Y-%m-%d", time.localtime(t))


def _stamp(t: float) -> str:
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(t))


def player_rows(archive: Any) -> list[dict[str, Any]]:
    """Every player, most games first (then by name): the figures of the kiosk's page."""
    stats = sorted(archive.players().values(), key=lambda p: (-p.games, p.name))
    rows = []
    for p in stats:
        best = p.best
        share, average = p.won_share, p.seeger_fabian_average
        rows.append({
            "name": p.name, "series": p.series, "games": p.games, "declared": p.declared,
            "won": p.won, "won_percent": None if share is None else round(100 * share, 1),
            "seeger_fabian": p.seeger_fabian,
            "seeger_fabian_per_series": None if average is None else round(average, 1),
            "best_value": None if best is None else best.value,
            "best_contract": None if best is None else (best.contract or "Ramsch"),
            "best_series": None if best is None else best.series,
            "best_game": None if best is None else best.number,
            "best_day": None if best is None else _day(best.ended)})
    return rows


def series_rows(archive: Any) -> list[dict[str, Any]]:
    """Every finished series, oldest first, with everybody's totals."""
    out = []
    for s in archive.series:
        totals, sf, winner = s.totals, s.seeger_fabian, s.winner
        out.append({
            "series": s.series, "started": _stamp(s.started), "ended": _stamp(s.ended),
            "games": len(s.deals), "length": s.length, "complete": s.complete,
            "scoring": s.scoring,
            "players": [{"seat": seat, "player": name,
                         "total": totals[seat] if seat in s.credited else None,
                         "seeger_fabian": sf[seat] if seat in s.credited else None}
                        for seat, name in enumerate(s.players)],
            "winner": None if winner is None else s.players[winner]})
    return out


def _text(value: Any) -> str:
    return "" if value is None else str(value)


def render(archive: Any, fmt: str, series: bool) -> str:
    players, lines = player_rows(archive), series_rows(archive)
    if fmt == "json":
        return json.dumps({"players": players, "series": lines,
                           "unreadable": list(archive.unreadable)},
                          ensure_ascii=False, indent=1) + "\n"
    if fmt == "csv":
        buf = io.StringIO()
        if series:
            w = csv.DictWriter(buf, SERIES_FIELDS, lineterminator="\n")
            w.writeheader()
            for s in lines:
                for p in s["players"]:
                    w.writerow({**{k: s[k] for k in SERIES_FIELDS if k in s},
                                **p, "winner": _text(s["winner"])})
        else:
            w = csv.DictWriter(buf, PLAYER_FIELDS, lineterminator="\n")
            w.writeheader()
            for p in players:
                w.writerow({k: _text(v) for k, v in p.items()})
        return buf.getvalue()
    if series:
        out = [f"{len(lines)} finished series"]
        for s in lines:
            games = "game" if s["games"] == 1 else "games"
            played = (f"{s['games']} {games}" if s["complete"] or s["length"] is None
                      else f"{s['games']} of {s['length']} {games}")
            scores = ", ".join(f"{p['player']} {p['total']:+d}" for p in s["players"]
                               if p["total"] is not None)
            if s["scoring"] == "seeger-fabian":
                scores = ", ".join(f"{p['player']} {p['seeger_fabian']:+d}"
                                   for p in s["players"] if p["seeger_fabian"] is not None)
            won = f"; {s['winner']} wins" if s["winner"] else "; a tie"
            out.append(f"#{s['series']}  {s['ended']}  {played}: {scores}{won}")
        return "\n".join(out) + "\n"
    head = ("player", "series", "games", "won/declared", "S-F per series", "best game")
    rows = [head]
    for p in players:
        won = f"{p['won']}/{p['declared']}" + (
            f" ({p['won_percent']:.0f} %)" if p["won_percent"] is not None else "")
        sf = ("" if p["seeger_fabian_per_series"] is None
              else f"{p['seeger_fabian_per_series']:+.1f}")
        best = ("" if p["best_value"] is None else
                f"{p['best_value']:+d} {p['best_contract']} (series {p['best_series']}, "
                f"game {p['best_game']})")
        rows.append((p["name"], str(p["series"]), str(p["games"]), won, sf, best))
    widths = [max(len(r[i]) for r in rows) for i in range(len(head))]
    lines_out = [f"{len(archive.series)} finished series"]
    for r in rows:
        cells = [r[0].ljust(widths[0])] + [r[i].rjust(widths[i]) for i in range(1, 5)]
        lines_out.append("  ".join([*cells, r[5]]).rstrip())
    return "\n".join(lines_out) + "\n"


def cmd_stats(args: argparse.Namespace) -> int:
    from firmware_host.series.archive import archive_of
    from firmware_host.tools.export import open_journal_arg

    journal = open_journal_arg(args)
    if journal is None:
        return 1
    try:
        archive = archive_of(journal)
    finally:
        journal.close()
    for series in archive.unreadable:
        print(f"skat-table: series {series} cannot be read: it is left out", file=sys.stderr)
    text = render(archive, args.format, args.series)
    if args.out:
        Path(args.out).write_text(text, encoding="utf-8")
        print(f"{'series' if args.series else 'players'} written to {args.out}",
              file=sys.stderr)
    else:
        sys.stdout.write(text)
    return 0

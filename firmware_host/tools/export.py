"""``skat-table export``: a journalled series as ISS game records and as a table script.

The journal keeps the configuration a series was played with, so the export needs only the
journal: the series is rebuilt from its inputs, each finished game is written as one ISS record
(``engine.iss.game_to_record``) and every input as a table-script line that ``replay`` plays
again. Beside the ISS records goes a JSON sidecar with the open-card analysis of each game
(:func:`analysis_sidecar`): ``games.iss`` gets ``games.analysis.json``.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any


def add_arguments(p: argparse.ArgumentParser) -> None:
    where = p.add_mutually_exclusive_group()
    where.add_argument("--journal", metavar="FILE", help="the journal file")
    where.add_argument("--data-dir", metavar="DIR",
                       help="the table's data directory (default /var/lib/skat-table)")
    p.add_argument("--series", type=int, metavar="N",
                   help="which series (default: the latest); --list shows them")
    p.add_argument("--list", action="store_true", help="list the journalled series")
    p.add_argument("--iss", metavar="FILE", help="write the games as ISS records ('-': stdout)")
    p.add_argument("--script", metavar="FILE", help="write the inputs as a table script")
    p.add_argument("--analysis", metavar="FILE",
                   help="write the open-card analysis of each game as JSON (default: beside "
                        "the --iss file, as NAME.analysis.json)")
    p.add_argument("--no-analysis", action="store_true",
                   help="write no analysis sidecar")


def sidecar_path(iss: str) -> Path:
    """``games.iss`` -> ``games.analysis.json`` (beside the ISS records)."""
    p = Path(iss)
    return p.with_name(p.stem + ".analysis.json") if p.suffix else p.with_name(
        p.name + ".analysis.json")


def analysis_sidecar(session: Any, series_id: int, store: Any = None) -> dict[str, Any]:
    """The open-card analysis of every finished game of the series: the one the table kept
    in the journal's ``analyses`` table when it is there and still fits the game, else
    computed now. Positions in ``analysis`` are forehand 0, middlehand 1, rearhand 2;
    ``seats`` and ``names`` map them to the table."""
    from firmware_host.screen.analysis import AnalysisService, analyse_game, game_key

    table = session.table
    games = []
    for d in table.finished_deals:
        entry: dict[str, Any] = {"game": d.number, "id": str(d.number),
                                 "seats": list(d.seats),
                                 "names": [table.name(s) for s in d.seats]}
        key = game_key(d.game) if d.game is not None else ""
        kept = store.get(series_id, d.number) if store is not None else None
        if kept is not None and kept[0] == key:
            outcome = AnalysisService._from_json(key, kept[1])
        elif d.game is None:
            outcome = None
        else:
            outcome = analyse_game(d.game)
        if outcome is not None and outcome.analysis is not None:
            entry["analysis"] = outcome.analysis.to_json()
        else:
            entry["analysis"] = None
            entry["reason"] = outcome.reason if outcome is not None else "no cards were dealt"
        games.append(entry)
    return {"series": series_id, "players": list(table.names), "open_cards": True,
            "games": games}


def rebuild(journal: Any, series_id: int) -> tuple[Any, list[str]]:
    """The session of a journalled series (no journal attached) and its script lines: every
    input as it came, unreadable lines included (a bug report wants them too)."""
    from firmware_host.config import config_from_fingerprint
    from firmware_host.series.session import Session
    from firmware_host.table.inputs import from_json

    fp = next(cfg for sid, cfg, _ in journal.all_series() if sid == series_id)
    # not the live table's identity: an export keeps every game (the live table lets old
    # ones go)
    session = Session(config_from_fingerprint(fp), identity={"export": True})
    session.table.confirming = fp.get("confirm_results") is True  # as the live table had it
    lines: list[str] = []
    for entry in journal.iter_entries(series_id):
        if entry.status in ("prompt", "restart", "declined", "released"):
            continue  # the computer's suggestion or answer, not something the table was told
        if "raw" in entry.input:
            lines.append(str(entry.input["raw"]))
            continue
        lines.append(json.dumps(entry.input, ensure_ascii=False))
        session.table.handle(from_json(entry.input), entry.source)  # type: ignore[arg-type]
    return session, lines


def iss_records(session: Any, series_id: int) -> list[str]:
    from engine.iss import IssError, game_to_record

    table = session.table
    out = []
    for d in table.finished_deals:
        names = [table.name(s) for s in d.seats]
        props = {"GM": "Skat", "PC": "skat-table", "CO": "", "SE": str(series_id),
                 "ID": str(d.number), "DT": "", "P0": names[0], "P1": names[1], "P2": names[2],
                 "R0": "", "R1": "", "R2": ""}
        try:
            out.append(game_to_record(d.game, names, props))
        except IssError as exc:
            print(f"skat-table: deal {d.number} is not written: {exc}", file=sys.stderr)
    return out


def open_journal_arg(args: argparse.Namespace, read_only: bool = True) -> Any:
    """The journal ``--journal FILE`` or ``--data-dir DIR`` names (the table's data directory by
    default), its problems said on stderr; None when it cannot be opened (said why)."""
    from firmware_host.series.journal import Journal, JournalError
    from firmware_host.service.runner import DEFAULT_DATA_DIR

    path = Path(args.journal) if args.journal else (
        Path(args.data_dir or DEFAULT_DATA_DIR) / "journal.sqlite")
    if not path.exists():
        print(f"skat-table: no journal at {path}", file=sys.stderr)
        return None
    try:
        journal = Journal.open(path, read_only=read_only)
    except JournalError as exc:  # in use by the table (writing), newer, unreadable
        print(f"skat-table: {exc}", file=sys.stderr)
        return None
    for problem in journal.problems:
        print(f"skat-table: journal: {problem}", file=sys.stderr)
    return journal


def cmd_export(args: argparse.Namespace) -> int:
    journal = open_journal_arg(args)
    if journal is None:
        return 1
    series = journal.all_series()
    if args.list:
        for sid, fp, finished in series:
            count = sum(1 for _ in journal.iter_entries(sid))
            state = "finished" if finished else "open"
            print(f"{sid}: {', '.join(fp['players'])} ({state}, {count} inputs)")
        return 0
    if not series:
        print("skat-table: the journal holds no series", file=sys.stderr)
        return 1
    sid = args.series if args.series is not None else series[-1][0]
    if sid not in {s[0] for s in series}:
        print(f"skat-table: no series {sid} in the journal (--list shows them)", file=sys.stderr)
        return 1
    session, lines = rebuild(journal, sid)
    records = iss_records(session, sid)
    if args.script:
        Path(args.script).write_text("".join(line + "\n" for line in lines), encoding="utf-8")
        print(f"{len(lines)} inputs written to {args.script}", file=sys.stderr)
    if args.iss and args.iss != "-":
        Path(args.iss).write_text("".join(r + "\n" for r in records), encoding="utf-8")
        print(f"{len(records)} games written to {args.iss}", file=sys.stderr)
    elif args.iss == "-" or not args.script:
        for r in records:
            print(r)
    target = args.analysis or (sidecar_path(args.iss) if args.iss and args.iss != "-" else None)
    if target is not None and not args.no_analysis:
        from firmware_host.screen.analysis import AnalysisStore

        store = AnalysisStore.read_only(journal.path)
        try:
            data = analysis_sidecar(session, sid, store)
        finally:
            store.close()
        text = json.dumps(data, ensure_ascii=False, indent=1)
        if str(target) == "-":
            print(text)
        else:
            Path(target).write_text(text + "\n", encoding="utf-8")
            done = sum(1 for g in data["games"] if g["analysis"] is not None)
            print(f"open-card analysis of {done} games written to {target}", file=sys.stderr)
    return 0

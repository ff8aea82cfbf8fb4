"""``skat-table replay CONFIG SCRIPT``: play a table script through the simulated hardware.

With ``--json`` stdout holds one JSON object (DESIGN.md, "Contracts"): ``games``, ``totals``,
``seeger_fabian`` (when the config scores Seeger-Fabian), ``rejected`` and ``phase``. Without
it, a readable log and the score sheet. ``--journal FILE`` journals every line as the real
table does; run again after a crash with the same FILE, the replay resumes after the last
journalled line and ends exactly as an uninterrupted run. ``--screenshot DIR`` renders the
kiosk into DIR at every phase change and every refusal (needs pygame; headless is fine).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from firmware_host.table.results import result_json


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("config", help="the table's TOML config ([table] and [deck] suffice)")
    p.add_argument("script", help="the table script: one JSON object per line")
    p.add_argument("--json", action="store_true",
                   help="print only the result as one JSON object (logs go to stderr)")
    p.add_argument("--journal", metavar="FILE",
                   help="journal as the table does; resume from FILE after a crash")
    p.add_argument("--screenshot", metavar="DIR",
                   help="save a PNG of the kiosk at every phase change and refusal into DIR")
    p.add_argument("--size", default="800x480", help="screenshot size WxH (default 800x480)")
    p.add_argument("-v", "--verbose", action="store_true", help="log every input")


def script_lines(data: bytes) -> list[str | bytes]:
    r"""A table script's lines: split at ``\n`` only (a form feed, NEL or U+2028 inside a line
    is part of it and shifts no line number), a UTF-8 byte-order mark dropped, a line that is
    not UTF-8 kept as bytes (refused with its number).

    >>> script_lines(b'\xef\xbb\xbf{"a": 1}\r\n{"b": "\xe2\x80\xa8"}\n\xff\n')
    ['{"a": 1}', '{"b": "\u2028"}', b'\xff']
    """
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    out: list[str | bytes] = []
    parts = data.split(b"\n")
    if parts and parts[-1] == b"":
        parts.pop()
    for raw in parts:
        raw = raw.removesuffix(b"\r")
        try:
            out.append(raw.decode("utf-8"))
        except UnicodeDecodeError:
            out.append(raw)
    return out


def other_script(session: Any, lines: list[str | bytes]) -> str:
    """Why the journalled lines are not this script's first lines ("" when they are)."""
    from firmware_host.series.session import RAW_KEPT, clip
    from firmware_host.table.inputs import ScriptError, parse_line

    if session.journal is None or session.series_id is None:
        return ""
    for entry in session.journal.iter_entries(session.series_id):
        if entry.line is None or entry.source != "script":
            continue
        if entry.line > len(lines):
            return f"line {entry.line} is journalled, the script has {len(lines)} lines"
        text = lines[entry.line - 1]
        if "raw" in entry.input:
            same = entry.input["raw"] == clip(text, RAW_KEPT)
        else:
            try:
                same = isinstance(text, str) and parse_line(text).to_json() == entry.input
            except ScriptError:
                same = False
        if not same:
            return f"line {entry.line} differs"
    return ""


def cmd_replay(args: argparse.Namespace) -> int:
    from firmware_host.config import ConfigError, load_config
    from firmware_host.series.journal import Journal, JournalError
    from firmware_host.series.session import Session
    from firmware_host.table.gamelog import GameLog

    try:
        config = load_config(args.config)
    except ConfigError as exc:
        print(f"skat-table: config error: {exc}", file=sys.stderr)
        return 2
    try:
        data = Path(args.script).read_bytes()
    except (OSError, ValueError) as exc:
        print(f"skat-table: cannot read the script {args.script}: {exc}", file=sys.stderr)
        return 2
    lines = script_lines(data)
    identity = {"script": "replay"}
    log_out = sys.stderr if args.json else sys.stdout

    def write(text: str) -> None:
        print(text, file=log_out)

    journal = None
    if args.journal:
        try:
            journal = Journal.open(args.journal)
        except JournalError as exc:
            print(f"skat-table: {exc}", file=sys.stderr)
            return 1
    session = Session(config, journal, identity=identity)
    try:
        session.resume(finished_too=True, strict=True)
    except JournalError as exc:
        print(f"skat-table: {exc}", file=sys.stderr)
        session.close()
        return 1
    for problem in session.problems:
        print(f"skat-table: journal: {problem}", file=sys.stderr)
    other = other_script(session, lines)
    if other:
        print(f"skat-table: the journal {args.journal} was written by another script "
              f"({other}): use another journal file", file=sys.stderr)
        session.close()
        return 1
    skip = session.last_line()
    if skip:
        print(f"skat-table: resuming after line {skip} ({session.resumed} journalled inputs)",
              file=sys.stderr)
    if not args.json or args.verbose:
        session.listeners.append(GameLog(write, verbose=args.verbose))
    shots = _screenshots(args, session) if args.screenshot else None
    warned = None
    for number, text in enumerate(lines, start=1):
        if number <= skip or (isinstance(text, str) and not text.strip()):
            continue
        if isinstance(text, bytes):
            session.refuse_line(text, "the line is not UTF-8 text", line=number)
        else:
            out = session.submit_text(text, line=number)
            if out.refusal is not None and out.refusal.kind == "storage":
                # Not journalled, so not played: the replay stops where the journal does, and
                # run again with the same journal it goes on from there.
                print(f"skat-table: journal: {session.journal_fault}: stopped before line "
                      f"{number}; run the replay again when the storage works",
                      file=sys.stderr)
                session.close()
                return 1
        if session.journal_fault and session.journal_fault != warned:
            warned = session.journal_fault
            print(f"skat-table: journal: {warned}", file=sys.stderr)
    if shots is not None:
        shots.close()
    result = result_json(session)
    if args.json:
        print(json.dumps(result, ensure_ascii=False))
    else:
        from firmware_host.table.gamelog import sheet_text

        write("")
        write(f"phase: {result['phase']}; {len(result['rejected'])} line(s) refused")
        for r in result["rejected"]:
            write(f"  line {r['line']}: {r['reason']}")
        write(sheet_text(session.table))
    session.close()
    return 0


def _screenshots(args: argparse.Namespace, session: Any) -> Any:
    from firmware_host.screen.screens import ScreenshotWriter

    try:
        w, h = (int(x) for x in args.size.lower().split("x"))
    except ValueError:
        raise SystemExit(f"skat-table: --size must be WxH, e.g. 800x480, not {args.size!r}") \
            from None
    writer = ScreenshotWriter(Path(args.screenshot), (w, h))
    session.listeners.append(writer)
    return writer

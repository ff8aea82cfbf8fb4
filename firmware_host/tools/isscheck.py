"""``skat-table iss-check FILE...``: replay ISS game records and compare with the server.

One line per record that disagrees (a record that cannot be read or replayed disagrees, with
the reason), then ``N records: A agree, D disagree``. Exit status 0 when all agree, 1 when any
disagrees (or no record was found), 2 when a file cannot be read. Files are read line by line,
so a whole monthly ISS archive can be checked; ``.bz2`` and ``.gz`` files are read as they are,
and ``-`` reads standard input.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from typing import IO


def _open(name: str) -> IO[str]:
    if name == "-":
        return sys.stdin
    if name.endswith(".bz2"):
        import bz2

        return bz2.open(name, "rt", encoding="utf-8-sig", errors="replace")
    if name.endswith(".gz"):
        import gzip

        return gzip.open(name, "rt", encoding="utf-8-sig", errors="replace")
    return open(name, encoding="utf-8-sig", errors="replace")


def _lines(name: str) -> Iterator[tuple[int, str]]:
    f = _open(name)
    try:
        yield from enumerate(f, 1)
    finally:
        if f is not sys.stdin:
            f.close()


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("files", nargs="+", metavar="FILE", help="ISS record files (one game a line)")
    p.add_argument(
        "-v", "--verbose", action="store_true", help="also print a line for each record that agrees"
    )


def cmd_iss_check(args: argparse.Namespace) -> int:
    from engine.iss import check_line

    agree = disagree = 0
    unreadable = False
    for name in args.files:
        try:
            for number, line in _lines(name):
                if not line.strip():
                    continue
                record, problems = check_line(line)
                label = record.label if record is not None else "record"
                if problems:
                    disagree += 1
                    print(f"{name}:{number}: {label}: {'; '.join(problems)}", flush=True)
                else:
                    agree += 1
                    if args.verbose:
                        print(f"{name}:{number}: {label}: agrees")
        except (OSError, EOFError) as exc:  # missing, unreadable, or a damaged archive
            reason = getattr(exc, "strerror", None) or str(exc)
            print(f"{name}: cannot read it: {reason}", file=sys.stderr)
            unreadable = True
    total = agree + disagree
    print(f"{total} records: {agree} agree, {disagree} disagree")
    if unreadable:
        return 2
    if total == 0:
        print("no records found in the files given", file=sys.stderr)
        return 1
    return 1 if disagree else 0

"""``skat-table iss-check FILE...``: replay ISS game records and compare with the server.

One line per record that disagrees (a record that cannot be read or replayed disagrees, with
the reason), then ``N records: A agree, D disagree``. Exit status 0 when all agree, 1 when any
disagrees (or no record was found), 2 when a file cannot be read.
"""

from __future__ import annotations

import argparse
import sys


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
            with open(name, encoding="utf-8", errors="replace") as f:
                lines = f.read().splitlines()
        except OSError as exc:
            print(f"{name}: cannot read it: {exc.strerror or exc}", file=sys.stderr)
            unreadable = True
            continue
        for number, line in enumerate(lines, 1):
            if not line.strip():
                continue
            record, problems = check_line(line)
            label = record.label if record is not None else "record"
            if problems:
                disagree += 1
                print(f"{name}:{number}: {label}: {'; '.join(problems)}")
            else:
                agree += 1
                if args.verbose:
                    print(f"{name}:{number}: {label}: agrees")
    total = agree + disagree
    print(f"{total} records: {agree} agree, {disagree} disagree")
    if unreadable:
        return 2
    if total == 0:
        print("no records found in the files given", file=sys.stderr)
        return 1
    return 1 if disagree else 0

"""``skat-table notices``: the journal's loss reports nobody has confirmed yet, and ``--confirm
SEQ`` for a technician without the kiosk.

A repaired journal's notice ("journal damaged: restored to deal 12, trick 3; the last 4
input(s) could not be recovered") stays on the kiosk until someone confirms it there; this
command lists the same notices (read-only: it may run while the table does) and confirms one
(a ``confirm`` record: the journal has one writer, so the table service must be stopped).
A repair whose notice the table has not written yet (it writes it, with the table's position,
when it next starts) is listed as owed.
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any


def add_arguments(p: argparse.ArgumentParser) -> None:
    where = p.add_mutually_exclusive_group()
    where.add_argument("--journal", metavar="FILE", help="the journal file")
    where.add_argument("--data-dir", metavar="DIR",
                       help="the table's data directory (default /var/lib/skat-table)")
    p.add_argument("--confirm", type=int, metavar="SEQ",
                   help="confirm open notice SEQ (the number the list shows); writes the "
                        "journal, so stop the table service first")


def notice_lines(seq: int, body: dict[str, Any]) -> list[str]:
    """One notice as the list shows it: its number, when, the sentence, then what the repair
    found and the files it set aside.

    >>> for line in notice_lines(41, {"note": "journal damaged: restored to deal 2, bidding; "
    ...                               "nothing was lost", "at": 0,
    ...                               "details": ["the journal's second copy was empty"]}):
    ...     print(line)
    #41  1970-01-01 00:00 UTC  journal damaged: restored to deal 2, bidding; nothing was lost
          the journal's second copy was empty
    """
    at = body.get("at")
    when = (time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(at))
            if isinstance(at, int | float) else "")
    lines = [f"#{seq}  {when}  {body.get('note') or body}"]
    lines += [f"      {d}" for d in body.get("details") or ()]
    if body.get("aside"):
        lines.append(f"      kept aside: {', '.join(body['aside'])}")
    return lines


def cmd_notices(args: argparse.Namespace) -> int:
    from firmware_host.series.journal import JournalError
    from firmware_host.series.session import loss_words
    from firmware_host.tools.export import open_journal_arg

    journal = open_journal_arg(args, read_only=args.confirm is None)
    if journal is None:
        return 1
    try:
        if args.confirm is not None:
            try:
                done = journal.confirm_notice(args.confirm, "cli")
            except JournalError as exc:
                print(f"skat-table: {exc}", file=sys.stderr)
                return 1
            if not done:
                print(f"skat-table: no open notice #{args.confirm} (the list shows them)",
                      file=sys.stderr)
                return 1
            print(f"notice #{args.confirm} confirmed")
            return 0
        notices, owed = journal.open_notices(), journal.owed_notices()
        for seq, body in notices:
            print("\n".join(notice_lines(seq, body)))
        for facts in owed:
            print("owed (the table writes it when it next starts): journal damaged"
                  f"{loss_words(facts.get('lost'), facts.get('unproven'))}")
            for d in facts.get("details") or ():
                print(f"      {d}")
        if not notices and not owed:
            print("no open notices")
        return 0
    finally:
        journal.close()

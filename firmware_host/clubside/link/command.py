"""``skat-table link --config FILE``: run the table's club link until stopped (SIGTERM).

The config is the table's own (``/etc/skat-table/config.toml``); the link needs its ``[club]``
section and finds the journal in the data directory (``--data-dir``, else ``[journal]
data_dir``, else ``/var/lib/skat-table``). A wrong config is one line and exit status 2; an
unreachable or refusing broker is never an exit: the link retries and says so in
``DATA_DIR/club/status.json``, which the kiosk shows.
"""

from __future__ import annotations

import argparse
import logging
import signal
import sys
from pathlib import Path
from typing import Any

DEFAULT_CONFIG = "/etc/skat-table/config.toml"
DEFAULT_DATA_DIR = Path("/var/lib/skat-table")


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--config", metavar="FILE", default=DEFAULT_CONFIG,
                   help=f"the table's config with its [club] section (default {DEFAULT_CONFIG})")
    p.add_argument("--data-dir", metavar="DIR",
                   help="where the table's journal lives (default: [journal] data_dir, or "
                        f"{DEFAULT_DATA_DIR})")
    p.add_argument("-v", "--verbose", action="store_true", help="log every step")


def cmd_link(args: argparse.Namespace) -> int:
    from firmware_host.config import ConfigError, load_config

    logging.basicConfig(level=logging.DEBUG if args.verbose else logging.INFO,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
                        stream=sys.stderr)
    if not args.verbose:
        logging.getLogger("skat-table.link.mqtt").setLevel(logging.WARNING)
    try:
        config = load_config(args.config, deck_required=False)
    except ConfigError as exc:
        print(f"skat-table link: {exc}", file=sys.stderr)
        return 2
    if config.club is None:
        print(f"skat-table link: {args.config}: [club]: this section is missing (broker, "
              "club, table, password_file)", file=sys.stderr)
        return 2
    data_dir = Path(args.data_dir) if args.data_dir else (config.data_dir or DEFAULT_DATA_DIR)
    return run_link(config.club, data_dir)


def run_link(club: Any, data_dir: Path) -> int:
    from firmware_host.clubside.clubfiles import club_dir
    from firmware_host.clubside.link.ledger import LedgerError
    from firmware_host.clubside.link.outbox import JournalOutbox
    from firmware_host.clubside.link.service import Link

    stopping = []

    def stop(signum: int, frame: Any) -> None:
        stopping.append(signum)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    try:
        link = Link(club, JournalOutbox(data_dir / "journal.sqlite"), club_dir(data_dir))
    except (LedgerError, OSError) as exc:
        print(f"skat-table link: {exc}", file=sys.stderr)
        return 1
    logging.getLogger("skat-table.link").info(
        "club link for table %s of club %s to %s", club.table, club.club, club.broker)
    link.run(lambda: bool(stopping))
    return 0

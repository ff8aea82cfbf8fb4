"""``skat-table club``: ``serve --config club.toml`` runs the club server; ``hash-password``
prints the ``[director] password_hash`` for a password read from the terminal or stdin;
``rehearse`` plays an evening of simulated tables into a running server (``club/rehearse.py``).

Kept light at module level (the CLI imports it to build its parser)."""

from __future__ import annotations

import argparse
import sys


def add_arguments(p: argparse.ArgumentParser) -> None:
    sub = p.add_subparsers(dest="club_command", metavar="ACTION")
    serve = sub.add_parser("serve", help="run the club server (broker link, store, web pages)")
    serve.add_argument("--config", required=True, help="the club's TOML config (club.toml)")
    hp = sub.add_parser("hash-password", help="print a [director] password_hash")
    hp.add_argument("--stdin", action="store_true", help="read the password from stdin")
    from club.season import add_season_arguments

    add_season_arguments(sub)

    from club.rehearse import add_arguments as rehearse_arguments

    rehearse_arguments(sub.add_parser(
        "rehearse", help="an evening before the evening: simulated tables through real links "
                         "into a running server"))


def cmd_club(args: argparse.Namespace) -> int:
    if args.club_command == "hash-password":
        from club.config import hash_password

        if args.stdin or not sys.stdin.isatty():
            password = sys.stdin.readline().rstrip("\n")
        else:
            import getpass

            password = getpass.getpass("director password: ")
        if len(password) < 8:
            print("skat-club: use a password of at least 8 characters", file=sys.stderr)
            return 2
        print(hash_password(password))
        return 0
    if args.club_command == "season":
        from club.season import cmd_season

        return cmd_season(args)
    if args.club_command == "serve":
        from club.config import ClubConfigError, load_config

        try:
            config = load_config(args.config)
        except ClubConfigError as exc:
            print(f"skat-table: config error: {exc}", file=sys.stderr)
            return 2
        from club.server import run

        return run(config)
    if args.club_command == "rehearse":
        from club.rehearse import cmd_rehearse

        return cmd_rehearse(args)
    print("skat-table club: say 'serve --config club.toml', 'hash-password' or 'rehearse'",
          file=sys.stderr)
    return 2

"""``skat-table``: the command line of the table controller.

Each sub-command lives in its own module with ``add_arguments(parser)`` and ``cmd_NAME(args)``.
Only the module of the command being run is imported (``skat-table run`` never loads the club
link, ``firmware_host.clubside.link``, nor its network library); ``build_parser()`` without a name
imports them all. Command modules keep their module level light: pygame, the drivers and
anything slow are imported inside the ``cmd_`` function.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Callable, Sequence
from typing import Any

# name -> (module, function, one-line help). The function takes the parsed arguments and
# returns the exit status.
COMMANDS: dict[str, tuple[str, str, str]] = {
    "run": (
        "firmware_host.service.runner",
        "cmd_run",
        "run the table on its real hardware (the kiosk)",
    ),
    "simulate": (
        "firmware_host.tools.simulator",
        "cmd_simulate",
        "the same table on simulated hardware (a window, or headless with a printed log)",
    ),
    "enroll": (
        "firmware_host.tools.enroll",
        "cmd_enroll",
        "enrol a deck: lay each card on a reader",
    ),
    "replay": (
        "firmware_host.tools.replay",
        "cmd_replay",
        "play a table script through the simulated hardware",
    ),
    "iss-check": (
        "firmware_host.tools.isscheck",
        "cmd_iss_check",
        "replay ISS game records and compare with the server's results",
    ),
    "export": (
        "firmware_host.tools.export",
        "cmd_export",
        "write a journalled series as ISS records and as a table script",
    ),
    "stats": (
        "firmware_host.tools.stats",
        "cmd_stats",
        "the archive of finished series and each player's statistics (text, CSV or JSON)",
    ),
    "notices": (
        "firmware_host.tools.notices",
        "cmd_notices",
        "the journal's loss reports nobody has confirmed yet; --confirm SEQ confirms one",
    ),
    "club": ("club.cli", "cmd_club", "the club server: a tournament across many tables, live"),
    "bench": ("firmware_host.bench", "cmd_bench", "measure speed and resource use"),
    "link": (
        "firmware_host.clubside.link.command",
        "cmd_link",
        "the table's club link: publish finished games to the club's broker, take the seating",
    ),
    "probe": (
        "drivers.probe",
        "cmd_probe",
        "bring-up: each MFRC522 reader's chip, gain, SPI integrity, read rate and errors",
    ),
    "duel": (
        "lab.duel",
        "cmd_duel",
        "strength harness: computer players against each other on duplicate deals",
    ),
    "decisions": (
        "lab.decisions",
        "cmd_decisions",
        "card-play decision quality: each card against the best one in the real deal",
    ),
}


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The whole command line; with ``only``, the arguments of that command alone are added
    (the others keep their name and help, so ``--help`` still lists every command)."""
    parser = argparse.ArgumentParser(
        prog="skat-table",
        description="Controller of a physical Skat table (ISkO rules, RFID cards, kiosk display).",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, (module, func, help_text) in COMMANDS.items():
        p = sub.add_parser(name, help=help_text, description=help_text)
        if only is None or name == only:
            _add_arguments(module, p)
        p.set_defaults(_handler=(module, func))
    return parser


def _add_arguments(module: str, p: argparse.ArgumentParser) -> None:
    """Each command module defines ``add_arguments(parser)`` next to its ``cmd_`` function."""
    mod = _command_module(module)
    if mod is None:
        return
    adder: Callable[[argparse.ArgumentParser], None] | None = getattr(mod, "add_arguments", None)
    if adder is not None:
        adder(p)


def main(argv: Sequence[str] | None = None) -> int:
    words = list(sys.argv[1:] if argv is None else argv)
    chosen = words[0] if words and words[0] in COMMANDS else ""
    parser = build_parser(chosen)
    args = parser.parse_args(words)
    if not getattr(args, "_handler", None):
        parser.print_help()
        return 2
    module, func = args._handler
    mod = _command_module(module)
    if mod is None:
        print(f"skat-table: {args.command} is part of the strength lab (lab/), which the table's "
              "install leaves out: run it from a checkout of the source (make run sets one up)",
              file=sys.stderr)
        return 2
    handler = getattr(mod, func)
    try:
        return int(handler(args) or 0)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        _quiet_stdout()
        return 0


def _command_module(module: str) -> Any:
    """The command's module; None for a command of the strength lab where the lab is not
    installed (the Pi's install leaves it out)."""
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as exc:
        if module.startswith("lab.") and exc.name in ("lab", module):
            return None
        raise


def _quiet_stdout() -> None:
    """Output piped into ``head`` and cut short: send the rest nowhere, so the interpreter's
    last flush at exit raises no second error."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())


if __name__ == "__main__":
    sys.exit(main())

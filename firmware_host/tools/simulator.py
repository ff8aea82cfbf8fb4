"""``skat-table simulate``: the same table on simulated hardware.

Headless (no ``DISPLAY``/``WAYLAND_DISPLAY``, or ``--headless``): the computer takes every
seat, a simulated dealer deals shuffled cards over the deal reader, the computer's cards are
"laid" on the centre and skat readers, and a readable log of the series is printed: the deal,
the bidding, the contract, each trick, the result with its breakdown and the score sheet.
Everything goes through the same controller, journal and table-script inputs as the real table;
``--script FILE`` keeps the session as a table script that ``replay`` plays again.

With a display: the kiosk in a window; clicks on cards stand for cards laid on readers.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from firmware_host.series.simulated import SimulatedTable


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--config", metavar="FILE", help="a table config (default: a made-up table)")
    p.add_argument("--games", type=int, default=None,
                   help="deals in the series (default 6 headless, or the config's length)")
    p.add_argument("--seed", type=int, default=None, help="shuffle seed (default: random)")
    p.add_argument("--players", default=None,
                   help="comma-separated names of 3 or 4 players (default Anna,Ben,Carla)")
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("--headless", action="store_true", help="no window even if one is possible")
    mode.add_argument("--window", action="store_true", help="open the kiosk window")
    p.add_argument("--script", metavar="FILE", help="write the session as a table script")
    p.add_argument("--journal", metavar="FILE",
                   help="journal the session (resumes if unfinished); in the window by "
                        "default $XDG_DATA_HOME/skat-table/simulator.sqlite")
    p.add_argument("--no-journal", action="store_true",
                   help="the window keeps no journal (the series ends with the window)")
    p.add_argument("--ascii", action="store_true", help="write cards as CJ, HT instead of ♣J, ♥10")
    p.add_argument("-v", "--verbose", action="store_true", help="log every card of the deal too")
    p.add_argument("--harsh", action="store_true",
                   help="headless, every card laid on emulated MFRC522 readers under harsh radio"
                        " (stacked stickers, noise, cut-off answers; docs/hardware.md)")


def data_home() -> Path:
    """The user's data directory (XDG Base Directory): ``$XDG_DATA_HOME`` or
    ``~/.local/share``."""
    xdg = os.environ.get("XDG_DATA_HOME", "")
    return Path(xdg) if os.path.isabs(xdg) else Path.home() / ".local" / "share"


def window_journal(args: argparse.Namespace) -> str | None:
    """Where the simulator's window keeps its series: ``--journal``, else a file in the
    user's data directory, so a series closed with the window goes on at the next start."""
    if args.journal:
        return str(args.journal)
    if args.no_journal:
        return None
    path = data_home() / "skat-table" / "simulator.sqlite"
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        print(f"skat-table simulate: cannot keep the series in {path.parent} ({exc}); "
              "it ends with the window", file=sys.stderr)
        return None
    return str(path)


def language_from_environment(environ: Mapping[str, str] | None = None) -> str:
    """The players' language as the environment says it (``LC_ALL``, ``LC_MESSAGES``,
    ``LANG``), if the kiosk speaks it; German (the design's first language) otherwise.

    >>> language_from_environment({"LANG": "fr_FR.UTF-8"})
    'fr'
    >>> language_from_environment({"LC_ALL": "C.UTF-8", "LANG": "pl_PL.UTF-8"})
    'de'
    >>> language_from_environment({})
    'de'
    """
    from display.view import LANGUAGES

    env = os.environ if environ is None else environ
    for var in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(var, "")
        if value:
            code = value.split(".")[0].split("_")[0].lower()
            if code in ("nn", "no"):
                code = "nb"
            return code if code in LANGUAGES else "de"
    return "de"


def has_display() -> bool:
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def simulation_config(args: argparse.Namespace) -> Any:
    from firmware_host.config import load_config, simulated_config

    if args.config:
        # The simulator lays made-up tags: a config written to try rules needs no enrolled
        # deck (one it has is used as it is).
        config = load_config(args.config, deck_required=False)
        if not config.deck:
            from dataclasses import replace

            config = replace(config, deck=simulated_config().deck)
        return config
    players = ("Anna", "Ben", "Carla")
    if args.players:
        players = tuple(p.strip() for p in args.players.split(",") if p.strip())
    seed = args.seed if args.seed is not None else 0
    return simulated_config(players=players, computer_seats=tuple(range(len(players))),
                            series_length=args.games or 6, seed=seed,
                            language=language_from_environment())


def cmd_simulate(args: argparse.Namespace) -> int:
    from firmware_host.config import ConfigError

    try:
        config = simulation_config(args)
    except ConfigError as exc:
        print(f"skat-table: config error: {exc}", file=sys.stderr)
        return 2
    if args.harsh and args.window:
        print("skat-table simulate: --harsh runs headless (the readers are emulated in virtual"
              " time)", file=sys.stderr)
    if not args.harsh and (args.window or (has_display() and not args.headless)):
        from dataclasses import replace

        from display.kiosk import DisplayUnavailable
        from firmware_host.service.runner import open_kiosk, run_kiosk

        if not args.config:  # in the window a person plays seat 0 against the computer
            config = replace(config, computer=replace(config.computer, seats=(1, 2)))
        try:
            kiosk = open_kiosk(config, simulated=True)
        except DisplayUnavailable as exc:
            if args.window:
                print(f"skat-table: no window can be opened: {exc}", file=sys.stderr)
                return 1
            print(f"skat-table simulate: no window can be opened ({exc}); "
                  "running headless instead", file=sys.stderr)
            return run_headless(config, args)
        journal = window_journal(args)
        if journal:
            print(f"skat-table simulate: the series is kept in {journal}", file=sys.stderr)
        return run_kiosk(config, simulated=True, journal_path=journal, seed=args.seed,
                         kiosk=kiosk, offer_resume=True)
    return run_headless(config, args)


def run_headless(config: Any, args: argparse.Namespace) -> int:
    import json

    from firmware_host.series.journal import Journal, JournalError
    from firmware_host.series.session import Session
    from firmware_host.table.gamelog import GameLog

    if not config.computer.seats or len(config.computer.seats) < config.n_players:
        # Headless there is no one to press buttons: the computer takes every seat.
        from dataclasses import replace

        config = replace(config, computer=replace(
            config.computer, seats=tuple(range(config.n_players))))
    if config.table.series_length is None or args.games:
        from dataclasses import replace

        config = replace(config, table=replace(config.table, series_length=args.games or 6))
    journal = None
    if args.journal:
        try:
            journal = Journal.open(args.journal)
        except JournalError as exc:
            print(f"skat-table: {exc}", file=sys.stderr)
            return 1
    session = Session(config, journal, computer_seats=config.computer.seats)
    session.resume()
    for problem in session.problems:
        print(f"journal: {problem}", file=sys.stderr)
    session.listeners.append(GameLog(print, symbols=not args.ascii, verbose=args.verbose))
    seed = args.seed if args.seed is not None else random.randrange(1 << 30)
    lines: list[dict[str, Any]] = []
    sim = SimulatedTable(session, random.Random(seed), lines.append)
    if args.harsh:
        from firmware_host.tools.radiotable import RadioTable, radio_zones

        try:
            zones = radio_zones(config)
        except ValueError as exc:
            print(f"skat-table: --harsh: {exc}", file=sys.stderr)
            return 2
        sim.radio = RadioTable(config.card_tags(), sim._send, zones=zones, seed=seed)
    names = ", ".join(config.table.players)
    print(f"skat-table simulate: {names}; {config.table.series_length} deals, seed {seed}"
          f"{'; harsh radio' if args.harsh else ''}")
    steps = 0
    while sim.step():
        steps += 1
        if steps > 100_000:  # a bug, not a long game: a series has a few thousand inputs
            print("skat-table: the simulation does not advance", file=sys.stderr)
            return 1
    table = session.table
    sf = table.config.table.scoring == "seeger-fabian"
    totals = table.seeger_fabian() if sf else table.totals()
    best = max(totals)
    winners = [table.name(s) for s, t in enumerate(totals) if t == best]
    print("")
    print(f"Series over after {len(table.finished_deals)} deals: "
          f"{' and '.join(winners)} {'win' if len(winners) > 1 else 'wins'} with {best} points"
          f"{' (Seeger-Fabian)' if sf else ''}.")
    if args.script:
        Path(args.script).write_text(
            "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines),
            encoding="utf-8")
        print(f"table script written to {args.script} ({len(lines)} lines)")
    session.close()
    if sim.radio is not None:
        report = sim.radio.finish(len(table.finished_deals))
        print(f"readers: {report.summary()}")
        for problem in report.problems:
            print(f"readers: {problem}", file=sys.stderr)
        return 1 if report.problems else 0
    return 0

"""``skat-table bench``: every speed and resource figure of the project in one place.

Each package contributes a group: a function ``bench(quick: bool) -> dict[str, float]`` named
in ``GROUPS``. ``--json`` prints one JSON object of all figures; ``--only NAME`` runs one group.
Figures are medians over several runs, as the machines are shared and noisy.
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
from typing import Any

# group -> "module:function"
GROUPS: dict[str, str] = {
    "engine": "engine.bench:bench",
    "iss": "engine.iss_bench:bench",
    "readers": "drivers.bench:bench",
    "controller": "firmware_host.series.latency:bench",
    "journal": "firmware_host.series.journalbench:bench",
    "archive": "firmware_host.series.archivebench:bench",
    "display": "display.bench:bench",
    "kiosk": "firmware_host.service.tapbench:bench",
    "players": "engine.players.bench:bench",
    "analysis": "engine.players.analysis_bench:bench",
    "club": "firmware_host.clubside.link.bench:bench",
    "club-server": "club.bench:bench",
}


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--json", action="store_true", help="print one JSON object of all figures")
    p.add_argument(
        "--only", choices=sorted(GROUPS), metavar="NAME",
        help=f"run one group only: {', '.join(sorted(GROUPS))}",
    )
    p.add_argument("--quick", action="store_true", help="short runs (for tests; figures rough)")


def _load(spec: str) -> Any:
    module, func = spec.split(":")
    return getattr(importlib.import_module(module), func)


def run_groups(only: str | None = None, quick: bool = False) -> dict[str, float]:
    figures: dict[str, float] = {}
    for name, spec in GROUPS.items():
        if only and name != only:
            continue
        func = _load(spec)
        print(f"bench: {name} ...", file=sys.stderr, flush=True)
        figures.update(func(quick=quick))
    return figures


def cmd_bench(args: argparse.Namespace) -> int:
    figures = run_groups(args.only, args.quick)
    if args.json:
        print(json.dumps(figures, indent=2, sort_keys=True))
    else:
        width = max((len(k) for k in figures), default=0)
        for key in sorted(figures):
            value = figures[key]
            text = f"{value:,.4g}" if isinstance(value, float) else str(value)
            print(f"{key:<{width}}  {text}")
    return 0

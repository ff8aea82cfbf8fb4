"""The strength lab's record of measured runs, and the summary generated from it.

``lab/experiments.csv`` holds one row per measured run: when it was recorded, the code, the
two players, the budget, the mode, the deal seeds, deals and games, the result with its 95 %
bootstrap interval, and a few words. ``python -m lab.experiments`` writes
``lab/experiments.md`` from it (a short summary: each duel comparison's latest and best, the
paired changes that gained); ``--check`` only compares and exits 1 when the summary is out of date.

Kinds of row (the ``kind`` field):

- ``duel``: ``skat-table duel``, A - B in Seeger-Fabian points per game, duplicate deals
  with all six seatings (games = 6 x deals);
- ``paired``: two duel runs on the same deals compared deal by deal (A's run minus B's,
  per game; ``python -m lab.duelgames FILE --paired OTHER`` or the per-deal lines);
- ``pairs``: ``python -m lab.pairs``: one seat played by a new and an old version against
  two XSkat seats, new minus old per seat (the old text sometimes gave only the sum).

>>> number("+11.61"), number("-0.07"), number("")
(11.61, -0.07, None)
"""

from __future__ import annotations

import argparse
import csv
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
RECORD = HERE / "experiments.csv"
SUMMARY = HERE / "experiments.md"

FIELDS = ("date", "commit", "a", "b", "variant", "budget", "mode", "seeds", "deals", "games",
          "result", "low", "high", "kind", "note")
REQUIRED = ("a", "b", "mode", "kind")
KINDS = {
    "duel": "A - B per game, `skat-table duel` (duplicate deals, all six seatings)",
    "paired": "two duel runs on the same deals, A's minus B's per game, deal by deal",
    "pairs": "`python -m lab.pairs`: one seat, new minus old per seat, against two XSkat seats",
}
MODES = ("full", "fixed", "ramsch", "schieberamsch", "kontra_re")


def base(player: str) -> str:
    """A player without its variant: ``pimc+infer`` is ``pimc``.

    >>> base("pimc+infer+nodes1500k"), base("rule-2025")
    ('pimc', 'rule-2025')
    """
    return player.split("+", 1)[0]


def number(text: str) -> float | None:
    """A figure of the record (``+1.6``, ``-0.07``), None for an empty field."""
    text = text.strip()
    return float(text) if text else None


@dataclass(frozen=True)
class Run:
    """One row of the record (the fields as written, the figures parsed)."""

    line: int
    fields: dict[str, str]

    def __getattr__(self, name: str) -> str:
        try:
            return self.__dict__["fields"][name]
        except KeyError:
            raise AttributeError(name) from None

    @property
    def value(self) -> float | None:
        return number(self.fields["result"])

    @property
    def interval(self) -> tuple[float, float] | None:
        low, high = number(self.fields["low"]), number(self.fields["high"])
        return None if low is None or high is None else (low, high)

    @property
    def comparison(self) -> tuple[str, str, str, str, str]:
        """What the run compares: kind, A, B, budget, mode; a player's variants (``pimc+infer``)
        and code versions count as the player (``pimc``), seeds aside."""
        f = self.fields
        return (f["kind"], base(f["a"]), base(f["b"]), f["budget"], f["mode"])

    def figure(self) -> str:
        """The result as the docs write it: ``+11.61 [+9.40, +13.65]``."""
        f = self.fields
        if not f["result"]:
            return ""
        return f"{f['result']} [{f['low']}, {f['high']}]" if self.interval else f["result"]


def load(path: Path = RECORD) -> list[Run]:
    """The record's rows, in the file's order; a header other than FIELDS is refused."""
    with path.open(encoding="utf-8", newline="") as handle:
        reader = csv.DictReader(handle)
        if tuple(reader.fieldnames or ()) != FIELDS:
            raise ValueError(f"{path}: header must be {','.join(FIELDS)}")
        return [Run(line=i + 2, fields=dict(row)) for i, row in enumerate(reader)]


def problems(runs: Iterable[Run]) -> list[str]:
    """What is wrong with the record (empty when nothing is)."""
    found = []
    for run in runs:
        where = f"line {run.line}"
        f = run.fields
        if any(v is None for v in f.values()) or None in f:
            found.append(f"{where}: {len(FIELDS)} fields expected")
            continue
        for name in REQUIRED:
            if not f[name].strip():
                found.append(f"{where}: {name} is empty")
        if f["kind"] not in KINDS:
            found.append(f"{where}: kind {f['kind']!r} is not one of {', '.join(KINDS)}")
        if f["mode"] not in MODES:
            found.append(f"{where}: mode {f['mode']!r} is not one of {', '.join(MODES)}")
        try:
            value, interval = run.value, run.interval
            deals, games = number(f["deals"]), number(f["games"])
        except ValueError as exc:
            found.append(f"{where}: {exc}")
            continue
        if value is None and f["kind"] != "pairs":
            found.append(f"{where}: no result")
        if (number(f["low"]) is None) != (number(f["high"]) is None):
            found.append(f"{where}: an interval needs both ends")
        if interval and value is not None and not interval[0] <= value <= interval[1]:
            found.append(f"{where}: {value} lies outside [{interval[0]}, {interval[1]}]")
        if deals is not None and games is not None and games != 6 * deals:
            found.append(f"{where}: {games:g} games for {deals:g} deals (six seatings each)")
    return found


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def _order(runs: Sequence[Run]) -> list[Run]:
    """By the day recorded (undated rows first), then the record's order."""
    return sorted(runs, key=lambda r: (r.date, r.line))


def summary(runs: Sequence[Run]) -> str:
    """The short markdown summary of the record (what ``lab/experiments.md`` holds): each duel
    comparison's latest and best run, and the paired changes that gained beyond their noise.
    The rows themselves are the record's."""
    groups: dict[tuple[str, ...], list[Run]] = {}
    for run in runs:
        if run.kind == "duel":
            groups.setdefault(run.comparison, []).append(run)
    changes = [r for r in runs if r.kind != "duel"]
    gained = [r for r in changes if r.interval and r.interval[0] > 0]
    out = [
        "# Strength experiments: summary",
        "",
        "Generated by `python -m lab.experiments` from [experiments.csv](experiments.csv), "
        "which holds every run with its settings, seeds and commit; do not edit (`--check` "
        "tells whether it is up to date). Figures are Seeger-Fabian points with the 95 % "
        "bootstrap interval; the players as named at the run's commit (the rule player of a "
        "run before the 2025 work is today's `rule-2025`). What the figures mean and the "
        "current ones: [docs/players.md](../docs/players.md).",
        "",
        f"{len(runs)} runs: "
        + ", ".join(f"{sum(r.kind == k for r in runs)} {k}" for k in KINDS) + ".",
        "",
        "| kind | means |",
        "| --- | --- |",
        *(f"| {kind} | {means} |" for kind, means in KINDS.items()),
        "",
        "## Duels, per comparison",
        "",
        "The latest run (by the day it was recorded, then the record's order) and the best; "
        "a player's variants (options, code versions) count as the player.",
        "",
        "| A | B | budget | mode | runs | latest | latest: seeds; deals; commit | best |",
        "| --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for key, group in sorted(groups.items()):
        ordered = _order(group)
        latest = ordered[-1]
        scored = [r for r in ordered if r.value is not None]
        best = max(scored, key=lambda r: r.value or 0.0) if scored else None
        _, a, b, budget, mode = key
        best_text = f"{best.figure()} ({_cell(best.a)}, {best.commit})" if best else ""
        out.append(
            f"| {_cell(a)} | {_cell(b)} | {budget} | {mode} | {len(group)} "
            f"| {latest.figure()} | {_cell(latest.seeds)}; {latest.deals}; {latest.commit} "
            f"| {best_text} |")
    out += [
        "",
        "## Changes measured paired",
        "",
        f"{len(changes)} runs compared two versions on the same deals (kinds paired and "
        f"pairs); {len(gained)} gained with the whole interval above zero:",
        "",
        "| date | commit | change (A vs B) | budget | seeds | result |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for run in _order(gained):
        out.append(f"| {run.date} | {run.commit} | {_cell(run.a)} vs {_cell(run.b)} "
                   f"| {run.budget} | {_cell(run.seeds)} | {run.figure()} |")
    return "\n".join(out) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m lab.experiments",
        description="Check the strength lab's record and write (or compare) its summary.")
    parser.add_argument("--record", type=Path, default=RECORD, help="the CSV record")
    parser.add_argument("--out", type=Path, default=SUMMARY, help="the markdown summary")
    parser.add_argument("--check", action="store_true",
                        help="write nothing; exit 1 when the summary is not the record's")
    args = parser.parse_args(argv)
    runs = load(args.record)
    wrong = problems(runs)
    for line in wrong:
        print(f"{args.record}: {line}", file=sys.stderr)
    if wrong:
        return 1
    text = summary(runs)
    if args.check:
        current = args.out.read_text(encoding="utf-8") if args.out.exists() else ""
        if current != text:
            print(f"{args.out} is out of date: run python -m lab.experiments", file=sys.stderr)
            return 1
        print(f"{args.out}: up to date ({len(runs)} runs)")
        return 0
    args.out.write_text(text, encoding="utf-8")
    print(f"{args.out}: {len(runs)} runs")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

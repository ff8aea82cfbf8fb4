"""The strength lab's record of measured runs, and the summary generated from it.

``lab/experiments.csv`` holds one row per measured run: when it was recorded, the code, the
two players, the budget, the mode, the deal seeds, deals and games, the result with its 95 %
bootstrap interval, and a few words. ``python -m lab.experiments`` writes
``lab/experiments.md`` from it (runs per comparison, the latest and the best of each, every
row); ``--check`` only compares and exits 1 when the summary is out of date.

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
        """What the run compares: kind, A, B, budget, mode (variants and seeds aside)."""
        f = self.fields
        return (f["kind"], f["a"], f["b"], f["budget"], f["mode"])

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
    """The markdown summary of the record (what ``lab/experiments.md`` holds)."""
    groups: dict[tuple[str, ...], list[Run]] = {}
    for run in runs:
        groups.setdefault(run.comparison, []).append(run)
    out = [
        "# Strength experiments: summary",
        "",
        "Generated by `python -m lab.experiments` from [experiments.csv](experiments.csv); "
        "do not edit (`--check` tells whether it is up to date). Figures are Seeger-Fabian "
        "points with the 95 % bootstrap interval; the players as named at the run's commit "
        "(the rule player of a run before the 2025 work is today's `rule-2025`). What the "
        "figures mean and the current ones: [docs/players.md](../docs/players.md).",
        "",
        f"{len(runs)} runs, {len(groups)} comparisons.",
        "",
        "| kind | means |",
        "| --- | --- |",
        *(f"| {kind} | {means} |" for kind, means in KINDS.items()),
        "",
        "## Per comparison",
        "",
        "The latest run (by the day it was recorded, then the record's order) and the best; "
        "variants of a player (options, code versions) count as the same comparison.",
        "",
        "| kind | A | B | budget | mode | runs | latest | latest: seeds, deals, commit "
        "| best | best: seeds, commit |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for key, group in sorted(groups.items()):
        ordered = _order(group)
        latest = ordered[-1]
        scored = [r for r in ordered if r.value is not None]
        best = max(scored, key=lambda r: r.value or 0.0) if scored else None
        kind, a, b, budget, mode = key
        out.append(
            f"| {kind} | {_cell(a)} | {_cell(b)} | {budget} | {mode} | {len(group)} "
            f"| {latest.figure()} | {_cell(latest.seeds)}; {latest.deals}; {latest.commit} "
            f"| {best.figure() if best else ''} "
            f"| {_cell(best.seeds) + '; ' + best.commit if best else ''} |")
    out += [
        "",
        "## Every run",
        "",
        "| date | commit | A | B | variant | budget | mode | seeds | deals (games) | result "
        "| kind | note |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for run in runs:
        games = f" ({run.games})" if run.games else ""
        out.append(
            f"| {run.date} | {run.commit} | {_cell(run.a)} | {_cell(run.b)} "
            f"| {_cell(run.variant)} | {run.budget} | {run.mode} | {_cell(run.seeds)} "
            f"| {run.deals}{games} | {run.figure()} | {run.kind} | {_cell(run.note)} |")
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

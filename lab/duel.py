"""``skat-table duel``: computer players against each other on duplicate deals.

    skat-table duel --a pimc --b rule --deals 200 --budget 0.2 --jobs 2
    skat-table duel --a rule --b random --deals 2000
    skat-table duel --a pimc --b rule --fixed-contract --deals 200 --json

Each deal is played in all six seatings of the two players; the result is A's Seeger-Fabian
points per game minus B's, with a 95% bootstrap confidence interval over deals, and the
decision times (p50/p95/max) of each player. ``--fixed-contract`` keeps the rule player's
bidding and declaration in every seating, so only the card play is compared.
``pimc-2025`` is PIMC with the 2025 bidding and contract choice (the evaluation's);
``oracle`` sees every card (the ceiling; never a seat at a real table).
``xskat`` is XSkat 4.0's computer player (2004, the strength anchor), built from the XSkat
source the user gives (``--xskat-src DIR`` or ``XSKAT_SRC``); its own result of every game
is compared with our engine's (the cross-check line):

    skat-table duel --a rule --b xskat --xskat-src ~/src/xskat-4.0 --deals 300
"""

from __future__ import annotations

import argparse
import json
import sys

XSKAT = "xskat"


def _player_names() -> tuple[str, ...]:
    from engine.players import HARNESS_NAMES, PLAYER_NAMES

    return (*PLAYER_NAMES, *HARNESS_NAMES, XSKAT)


# (label, SideStats attribute, format): the per-version statistics, in the order printed
STAT_ROWS = (
    ("seat-games", "seats", "n"),
    ("declared (share of seat-games)", "declared_share", "%"),
    ("won (share of declared)", "won_share", "%"),
    ("grand (share of declared)", "grand_share", "%"),
    ("  grand won", "grand_won_share", "%"),
    ("null (share of declared)", "null_share", "%"),
    ("  null won", "null_won_share", "%"),
    ("lost schneider as declarer (games)", "schneidered_declarer", "n"),
    ("lost schneider as defender (seats)", "schneidered_defender", "n"),
    ("overbid and lost (games)", "overbid_lost", "n"),
    ("mean bid when declaring", "mean_bid", "f"),
    ("mean bid limit when declaring", "mean_limit", "f"),
)


def stats_table(report: object) -> list[str]:
    """The per-version statistics as text lines (A's and B's column)."""
    s = report.settings  # type: ignore[attr-defined]
    stats = report.stats  # type: ignore[attr-defined]
    names = (f"A {s.a}", f"B {s.b}")
    width = max(len(r[0]) for r in STAT_ROWS)
    lines = [f"{'':{width}}  {names[0]:>14}  {names[1]:>14}"]
    for label, attr, fmt in STAT_ROWS:
        cells = []
        for who in ("A", "B"):
            st = stats[who]
            v = getattr(st, attr)
            if v is None:
                cells.append("-")
            elif fmt == "%":
                num, den = {
                    "declared_share": (st.declared, st.seats),
                    "won_share": (st.won, st.declared),
                    "grand_share": (st.grand, st.declared),
                    "grand_won_share": (st.grand_won, st.grand),
                    "null_share": (st.null, st.declared),
                    "null_won_share": (st.null_won, st.null),
                }[attr]
                cells.append(f"{100 * v:.1f}% ({num}/{den})")
            elif fmt == "f":
                cells.append(f"{v:.1f}")
            else:
                cells.append(str(v))
        lines.append(f"{label:{width}}  {cells[0]:>14}  {cells[1]:>14}")
    return lines


def add_arguments(p: argparse.ArgumentParser) -> None:
    names = ", ".join(_player_names())
    p.add_argument("--a", default="pimc", help=f"player A (default pimc; one of {names})")
    p.add_argument("--b", default="rule", help=f"player B (default rule; one of {names})")
    p.add_argument("--deals", type=int, default=100, help="number of deals (x6 games)")
    p.add_argument("--seed", type=int, default=0, help="first deal seed (default 0)")
    p.add_argument("--budget", type=float, default=1.0,
                   help="PIMC seconds per decision (default 1.0)")
    p.add_argument("--worlds", type=int, default=None,
                   help="PIMC: a fixed number of worlds per decision instead of a time budget")
    p.add_argument("--fixed-contract", action="store_true",
                   help="rule-player bidding and contract in every seating: card play only")
    p.add_argument("--rules", default="",
                   help="house rules, comma-separated (kontra_re, ramsch, schieberamsch, "
                        "schieberamsch_jacks, ...; default: plain ISkO)")
    p.add_argument("--ramsch", action="store_true",
                   help="every deal is played as a Ramsch (all pass): Ramsch play only")
    p.add_argument("--jobs", type=int, default=1,
                   help="deals played in parallel processes (default 1)")
    p.add_argument("--workers", type=int, default=1,
                   help="processes each PIMC seat spreads its worlds over, as a table "
                        "does with its cores (default 1; with --jobs 1)")
    p.add_argument("--xskat-src", default=None, metavar="DIR",
                   help="player xskat: an unpacked XSkat 4.0 source tree (default $XSKAT_SRC)")
    p.add_argument("--xskat-timeout", type=float, default=20.0, metavar="S",
                   help="player xskat: seconds one XSkat answer may take (default 20)")
    p.add_argument("--json", action="store_true", help="print the result as one JSON object")
    p.add_argument("--games", default=None, metavar="FILE",
                   help="write every game to FILE, one JSON object a line (seating, "
                        "declarer, contract, result, Seeger-Fabian points), as it ends")
    p.add_argument("--quiet", action="store_true", help="no progress lines on stderr")


def _check(args: argparse.Namespace) -> str | None:
    if args.deals < 1:
        return f"--deals must be at least 1, not {args.deals}"
    if args.budget <= 0:
        return f"--budget must be a positive number of seconds, not {args.budget}"
    if args.worlds is not None and args.worlds < 1:
        return f"--worlds must be at least 1, not {args.worlds}"
    if args.jobs < 1:
        return f"--jobs must be at least 1, not {args.jobs}"
    if args.ramsch and args.fixed_contract:
        return "--ramsch and --fixed-contract exclude each other (a Ramsch has no contract)"
    from engine.game import Rules, RulesError

    try:
        Rules.from_names(_rule_names(args))
    except RulesError as exc:
        return f"--rules: {exc}"
    from engine.players import PlayerError, make_player

    if args.workers < 1:
        return f"--workers must be at least 1, not {args.workers}"
    if args.workers > 1 and args.jobs > 1:
        return "--workers spreads one game's worlds over processes: use it with --jobs 1"
    if XSKAT in (args.a, args.b):
        if args.fixed_contract or args.ramsch or _rule_names(args):
            return ("xskat plays plain ISkO games only: no --fixed-contract, --ramsch or "
                    "--rules with it")
        if args.xskat_timeout <= 0:
            return f"--xskat-timeout must be a positive number of seconds, not {args.xskat_timeout}"
    for flag, name in (("--a", args.a), ("--b", args.b)):
        if name == XSKAT:
            continue
        try:
            make_player(name, workers=1)
        except PlayerError as e:
            return f"{flag}: {e}"
    return None


def _rule_names(args: argparse.Namespace) -> tuple[str, ...]:
    return tuple(n.strip() for n in args.rules.split(",") if n.strip())


def cmd_duel(args: argparse.Namespace) -> int:
    problem = _check(args)
    if problem:
        print(f"skat-table duel: {problem}", file=sys.stderr)
        return 2
    from engine.players.strength import DealOutcome, DuelSettings, run_duel

    outside = None
    if XSKAT in (args.a, args.b):
        from lab.anchor.xskat import XSkatPlayers, XSkatSourceError, build, find_source

        try:
            binary = build(find_source(args.xskat_src))
        except XSkatSourceError as exc:
            print(f"skat-table duel: {exc}", file=sys.stderr)
            return 2
        outside = XSkatPlayers(str(binary), timeout=args.xskat_timeout)
    settings = DuelSettings(
        a=args.a, b=args.b, deals=args.deals, seed=args.seed, budget=args.budget,
        worlds=args.worlds, fixed_contract=args.fixed_contract, jobs=args.jobs,
        rules=_rule_names(args), ramsch_only=args.ramsch, outside=outside,
        workers=args.workers, keep_games=args.games is not None,
    )
    total = 0.0
    try:
        # closed in the ``finally`` after the run: the progress callback writes to it
        games = open(args.games, "w", encoding="utf-8") if args.games else None  # noqa: SIM115
    except OSError as exc:
        print(f"skat-table duel: cannot write the games to {args.games}: {exc.strerror}",
              file=sys.stderr)
        return 2

    def progress(done: int, o: DealOutcome) -> None:
        nonlocal total
        total += o.diff
        if games is not None:
            for g in o.games:
                games.write(json.dumps(g) + "\n")
            games.flush()
        if not args.quiet:
            print(f"deal {done}/{args.deals}: {o.diff:+.1f} (running mean {total / done:+.2f}) "
                  f"{' '.join(o.contracts)}", file=sys.stderr, flush=True)

    try:
        report = run_duel(settings, progress)
    except ValueError as exc:
        from lab.anchor.xskat import XSkatError

        if not isinstance(exc, XSkatError):
            raise
        print(f"skat-table duel: stopped: {exc}", file=sys.stderr)
        return 1
    finally:
        if games is not None:
            games.close()
    if args.json:
        print(json.dumps(report.to_json(), indent=2))
        return 0
    s = report.settings
    mode = "fixed contract (card play only)" if s.fixed_contract else "full game"
    if s.ramsch_only:
        mode = "Ramsch only (all pass)"
    if s.rules:
        mode += f", house rules {', '.join(s.rules)}"
    print(f"{s.a} vs {s.b}, {mode}: {len(report.per_deal)} deals, {report.games} games, "
          f"seed {s.seed}, {report.seconds:.0f} s")
    if any(n.startswith("pimc") for n in (s.a, s.b)):
        budget = f"{s.worlds} worlds" if s.worlds else f"{s.budget:g} s"
        print(f"PIMC budget per decision: {budget}")
    print(f"Seeger-Fabian points per game: {s.a} {report.a_per_game:+.1f}, "
          f"{s.b} {report.b_per_game:+.1f}")
    print(f"{s.a} - {s.b}: {report.mean:+.2f} per game, 95% CI "
          f"[{report.ci_low:+.2f}, {report.ci_high:+.2f}]"
          + ("  (clear of zero)" if report.ci_low > 0 or report.ci_high < 0 else ""))
    for name in sorted(report.decision_times):
        p50, p95, mx = report.percentiles(name)
        n = len(report.decision_times[name])
        print(f"{name} decision time: p50 {p50:.3f} s, p95 {p95:.3f} s, max {mx:.3f} s "
              f"({n} decisions)")
        for kind in report.kinds(name):
            p50, p95, mx = report.percentiles(name, kind)
            n = len(report.kind_times[name][kind])
            print(f"  {kind:<8} p50 {p50:.3f} s, p95 {p95:.3f} s, max {mx:.3f} s "
                  f"({n} decisions)")
    if report.checks:
        c = report.checks
        print(f"XSkat's own results against our engine's: {sum(c.values())} games, "
              f"{c.get('agree', 0)} agree, {c.get('disagree', 0)} disagree, "
              f"{c.get('unchecked', 0)} not comparable")
        for note in report.notes:
            print(f"  {note}")
    print()
    for line in stats_table(report):
        print(line)
    return 0

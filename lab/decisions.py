"""``skat-table decisions``: card-play decision quality on recorded positions.

    skat-table decisions --judge pimc,pimc+infer --deals 100 --seed 1000 --worlds 12
    skat-table decisions --judge pimc --opponent xskat --xskat-src ~/src/xskat-4.0 --deals 100
    skat-table decisions --judge pimc --deals 20 --list     # and every wrong card

The recorded player (``--player``, default ``rule``) plays each deal three times, once at
each position, against two ``--opponent`` players (``xskat``: XSkat 4.0's computer players,
as in ``skat-table duel``); every card decision of its seat with a choice is a position.
Each judged player lays a card at every position where the card decides the seat's goal in
the real deal (double-dummy), and errs when its card gives that goal away
(:mod:`engine.players.decisions`). The deals are those of ``skat-table duel --seed S``.
PIMC players solve ``--worlds`` worlds per decision (so runs repeat exactly, whatever the
load), or with ``--budget S`` decide in S seconds as at the table (then the load decides the
worlds; the judged players take their turns position by position, so it hits all alike).
"""

from __future__ import annotations

import argparse
import json
import sys

from lab.duel import XSKAT


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--judge", default="pimc",
                   help="players judged, comma-separated (default pimc)")
    p.add_argument("--player", default="rule",
                   help="the player whose games are recorded (default rule)")
    p.add_argument("--opponent", default="rule",
                   help="the two other seats: a player name or xskat (default rule)")
    p.add_argument("--deals", type=int, default=20, help="number of deals (x3 games)")
    p.add_argument("--seed", type=int, default=0, help="deal seeds as duel's --seed")
    p.add_argument("--worlds", type=int, default=12,
                   help="PIMC: worlds per decision (default 12)")
    p.add_argument("--budget", type=float, default=None, metavar="S",
                   help="PIMC: seconds per decision instead of --worlds (the load decides "
                   "the worlds; the judged players alternate position by position)")
    p.add_argument("--xskat-src", default=None, metavar="DIR",
                   help="opponent xskat: an unpacked XSkat 4.0 source tree (default $XSKAT_SRC)")
    p.add_argument("--list", action="store_true",
                   help="also print every wrong card (deal, seat, trick, the right cards)")
    p.add_argument("--json", action="store_true", help="print the result as one JSON object")


def cmd_decisions(args: argparse.Namespace) -> int:
    from engine.game import Rules
    from engine.players import PlayerError, make_player
    from engine.players.decisions import Position, judge, record

    if args.deals < 1 or args.worlds < 1:
        print("skat-table decisions: --deals and --worlds must be at least 1", file=sys.stderr)
        return 2
    if args.budget is not None and not args.budget > 0:
        print("skat-table decisions: --budget must be positive seconds", file=sys.stderr)
        return 2
    names = [n.strip() for n in args.judge.split(",") if n.strip()]
    try:
        for n in (*names, args.player, *([] if args.opponent == XSKAT else [args.opponent])):
            make_player(n, workers=1)
    except PlayerError as e:
        print(f"skat-table decisions: {e}", file=sys.stderr)
        return 2
    table = None
    if args.opponent == XSKAT:
        from lab.anchor.xskat import XSkatPlayers, XSkatSourceError, build, find_source

        try:
            binary = build(find_source(args.xskat_src))
        except XSkatSourceError as exc:
            print(f"skat-table decisions: {exc}", file=sys.stderr)
            return 2
        xs = XSkatPlayers(str(binary))

        def table(deal, seat, ds):  # type: ignore[no-untyped-def]
            t = xs.table(deal, tuple(p for p in range(3) if p != seat), ds * 31 + seat, Rules())
            seated = [make_player(args.player, seed=ds + p, workers=1) if p == seat
                      else t.player(p) for p in range(3)]
            return seated, t.observe, t.close

    seeds = [args.seed * 1_000_003 + i for i in range(args.deals)]
    positions = record(
        seeds,
        lambda ds, p, seat: make_player(args.player if p == seat else args.opponent,
                                        seed=ds + p, workers=1),
        table=table,
    )

    # a PIMC decision's pace: a time budget, or a fixed number of worlds
    pace = {"budget": args.budget} if args.budget is not None else {"worlds": args.worlds}

    def maker(name: str):  # type: ignore[no-untyped-def]
        def make(p: Position):  # type: ignore[no-untyped-def]
            return make_player(name, seed=p.deal_seed * 7 + len(p.actions), workers=1,
                               **pace)
        return make

    report = judge(positions, {n: maker(n) for n in names})
    if args.json:
        print(json.dumps({
            "positions": report.positions, "critical": report.critical,
            "unsolved": report.unsolved,
            "players": {n: {"decisions": j.decisions, "errors": j.errors,
                            "by_role": j.by_role} for n, j in report.players.items()},
            "better": report.better,
            **({"errors": [e.describe() for e in report.errors]} if args.list else {}),
        }, indent=2))
        return 0
    print(f"{report.positions} positions ({args.player} against {args.opponent}, {args.deals} "
          f"deals from seed {args.seed}), {report.critical} critical, {report.unsolved} "
          f"unsolved; " + (f"{args.budget} s" if args.budget is not None
                            else f"{args.worlds} worlds") + " per PIMC decision")
    for n, j in report.players.items():
        share = 100 * j.errors / j.decisions if j.decisions else 0.0
        roles = ", ".join(f"{r} {e}/{d}" for r, (d, e) in sorted(j.by_role.items()))
        print(f"  {n}: {j.errors} errors in {j.decisions} ({share:.1f} %): {roles}")
    for a, row in report.better.items():
        for b, count in row.items():
            if a < b:
                print(f"  {a} right where {b} erred: {count}; the other way: "
                      f"{report.better[b][a]}")
    if args.list:
        print("wrong cards:")
        for e in report.errors:
            print(f"  {e.describe()}")
    return 0

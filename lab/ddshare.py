"""The contract search's double-dummy share of a computer player's declarations, set against
their real results against XSkat.

    python -m lab.ddshare --player pimc --seed 1000 --deals 100 --budget 0.2 \\
        --worlds 24 --xskat-src ~/src/xskat-4.0

For every deal of the seed (``skat-table duel``'s deal seeds) and every position, one seat
is played by ``--player`` and the two others by XSkat (``skat-table duel --b xskat``),
the whole game. Each game the player declared is solved as the contract search would see
it (:func:`engine.players.ddshare.dd_share`: ``--worlds`` sampled worlds with the declarer's
cards, contract and discard), and counted by game type and share bin with its result at the
table. Prints one line per declaration and the table (the measurement behind
``declaring.CALIB_SUIT``; docs/players.md, "Measuring strength").
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m lab.ddshare", description=__doc__
                                .split("\n\n")[0])
    p.add_argument("--player", default="pimc")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--deals", type=int, default=100)
    p.add_argument("--budget", type=float, default=0.2)
    p.add_argument("--play-worlds", type=int, default=None,
                   help="the player's fixed worlds instead of --budget")
    p.add_argument("--worlds", type=int, default=24, help="worlds solved per declaration")
    p.add_argument("--minutes", type=float, default=None, help="stop after this long")
    p.add_argument("--xskat-src", default=None, metavar="DIR")
    args = p.parse_args(argv)

    from engine.deal import Deal
    from engine.game import Game, Rules
    from engine.players import make_player
    from engine.players.base import SeatView
    from engine.players.ddshare import ShareTable, dd_share
    from engine.players.declaring import Solvers
    from engine.players.strength import DuelSettings, deal_seeds
    from lab.anchor.xskat import XSkatPlayers, XSkatSourceError, build, find_source

    try:
        xs = XSkatPlayers(str(build(find_source(args.xskat_src))))
    except XSkatSourceError as e:
        print(f"ddshare: {e}", file=sys.stderr)
        return 2
    end = time.monotonic() + 60 * args.minutes if args.minutes else None
    table = ShareTable()
    solvers = Solvers()
    done = declared = 0
    for s in deal_seeds(DuelSettings(args.player, "xskat", args.deals, args.seed)):
        if end is not None and time.monotonic() > end:
            break
        done += 1
        deal = Deal.shuffled(s)
        for pos in range(3):
            seed = s * 31 + pos
            t = xs.table(deal, tuple(q for q in range(3) if q != pos), seed, Rules())
            try:
                players = [t.player(q) if q != pos else make_player(
                    args.player, seed=seed + pos, budget=args.budget,
                    worlds=args.play_worlds, workers=1) for q in range(3)]
                g = Game(deal, Rules())
                while g.result is None:
                    q = g.to_act
                    assert q is not None
                    a = players[q].choose(SeatView.of(g, q))
                    g.push(a)
                    t.observe(q, a, 0.0)
            finally:
                t.close()
            r = g.result
            if r.declarer != pos or r.contract is None or r.passed_in:
                continue
            declared += 1
            share = dd_share(g, args.worlds, seed, solvers)
            table.add(int(r.contract.game), share, bool(r.won))
            print(f"deal {s} pos {pos}: {r.contract} at {r.bid} "
                  f"{'won' if r.won else 'lost'} {r.points} | share {share:.3f}", flush=True)
    print(f"deals {done}, games {3 * done}, declared by {args.player} {declared}")
    print("\n".join(table.lines()))
    return 0


if __name__ == "__main__":
    sys.exit(main())

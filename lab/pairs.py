"""Paired games of two versions of one computer player against XSkat, where they differ.

    python -m lab.pairs --new pimc+nullcheck --old pimc --seed 931 --deals 400 \\
        --budget 0.2 --min-null 5 --minutes 15 --xskat-src ~/src/xskat-4.0

A cheap, targeted strength harness for a change in the choices before play: for every deal
of the seed (``skat-table duel``'s deal seeds) and every position, one seat is played by
``--new`` and, in a second game with the same seeds, by ``--old``; the two other seats are
XSkat's (``skat-table duel --b xskat``). Each game is first played up to the first card;
only when the two versions did something different before it are both games played out,
and compared as the duel counts them: the seat's Seeger-Fabian points minus the mean of the
two XSkat seats' (a lost game costs its declarer's seat the 40 each defender gets too, and
a defender gains from the declarer's loss what the declarer loses). The seat's own points
alone, the measure of this harness before, are printed beside it. With ``--worlds`` (fixed
worlds) identical choices give identical games, so the games skipped differ by nothing;
under ``--budget`` the choices also differ by the time the machine gave each search.
``--min-null`` plays only seats whose ten cards have at least this null strength
(``evaluate.null_strength``). Prints one line per game played out and a summary: games,
those that differed, new minus old in all (the duel's measure, and the seat's own points),
and the null games each version declared (won); then new minus old per seat in the duel's
measure (a seat not played out counts 0) with a 95 % bootstrap interval over the seats, the
seats the new version scored more and less on, and the differing seats split by the pair of
contracts the seat played (``kind``: suit, grand, null, "-hand", or defend).

``--pool LOG...`` reads the output of several runs (other seeds, or the other budget) and
prints the same summary over all their seats together:

    python -m lab.pairs --pool calib930.log calib950.log calib1300.log
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field


def kind(contract: str | None, declarer: int | None, pos: int) -> str:
    """What the seat at ``pos`` played: ``defend`` (another declared, or nobody), else the
    kind of its contract.

    >>> kind("GH", 1, 1), kind("SHS", 0, 0), kind("NO", 2, 2), kind("C", 0, 1)
    ('grand-hand', 'suit-hand', 'null', 'defend')
    """
    if contract is None or declarer != pos:
        return "defend"
    base = game_kind(contract)
    return base + "-hand" if base != "null" and "H" in contract[1:] else base


def game_kind(contract: str) -> str:
    """``null``, ``grand`` or ``suit``: the kind of game a contract's notation names.

    >>> game_kind("NO"), game_kind("GH"), game_kind("SHS")
    ('null', 'grand', 'suit')
    """
    return "null" if contract.startswith("N") else "grand" if contract.startswith("G") \
        else "suit"


@dataclass
class Tally:
    """New minus old per seat (0 for the seats not played out) and by contract pair."""

    seats: int = 0
    diffs: list[float] = field(default_factory=list)
    pairs: dict[tuple[str, str], list[float]] = field(default_factory=dict)

    def add(self, diff: float, new: str, old: str) -> None:
        self.diffs.append(diff)
        cell = self.pairs.setdefault((new, old), [0, 0])
        cell[0] += 1
        cell[1] += diff

    def lines(self, seed: int) -> list[str]:
        """The per-seat summary and the split, worst pair first.

        >>> t = Tally(seats=4)
        >>> t.add(+100, "suit", "defend"); t.add(-40, "grand", "suit")
        >>> lines = t.lines(1)
        >>> lines[0].split(" [")[0], lines[0].split("); ")[1]
        ('per seat +15.00', 'up 1 (+100), down 1 (-40), equal 0')
        >>> [line.split()[1:4:2] + line.split()[-1:] for line in lines[1:]]
        [['grand', 'suit', '-40'], ['suit', 'defend', '+100']]
        """
        from engine.players.strength import bootstrap_ci

        values = [float(d) for d in self.diffs] + [0.0] * (self.seats - len(self.diffs))
        lo, hi = bootstrap_ci(values, 2000, seed)
        mean = sum(values) / len(values) if values else 0.0
        up = [d for d in self.diffs if d > 0]
        down = [d for d in self.diffs if d < 0]
        out = [f"per seat {mean:+.2f} [{lo:+.2f}, {hi:+.2f}] (95 % bootstrap over "
               f"{self.seats} seats); up {len(up)} ({sum(up):+.0f}), down {len(down)} "
               f"({sum(down):+.0f}), equal {len(self.diffs) - len(up) - len(down)}"]
        for (new, old), (n, v) in sorted(self.pairs.items(), key=lambda kv: kv[1][1]):
            out.append(f"  new {new:10s} old {old:10s} {int(n):4d} seats {v:+6.0f}")
        return out


GAME_LINE = re.compile(r"deal \d+ pos (\d): new (\S+) by (\S+) (?:won|lost) \S+ \| "
                       r"old (\S+) by (\S+) (?:won|lost) \S+ \| new-old ([+-]?[\d.]+) ")
SUMMARY_LINE = re.compile(r"^deals (\d+), seats (\d+), differing (\d+)", re.MULTILINE)


class PoolError(ValueError):
    """A log that is not the whole output of one ``pairs`` run."""


def pool(logs: Sequence[tuple[str, str]]) -> Tally:
    """The seats of several runs' outputs ``(name, text)`` in one tally.

    >>> log = ("deal 930002819 pos 0: new C by 0 won +74 | old N by 0 won +73 | "
    ...        "new-old +1.0 (seat alone +1)\\n"
    ...        "deals 1, seats 3, differing 1, new-old +1 in all (the seat's own points +1)\\n")
    >>> t = pool([("a", log), ("b", log)])
    >>> t.seats, t.diffs, t.pairs
    (6, [1.0, 1.0], {('suit', 'null'): [2, 2.0]})
    >>> pool([("c.log", "deal 1 pos 0: ...")])
    Traceback (most recent call last):
    ...
    lab.pairs.PoolError: c.log has no summary line (deals N, seats N, differing N): \
is the run finished?
    """
    t = Tally()
    for name, text in logs:
        summary = SUMMARY_LINE.search(text)
        if summary is None:
            raise PoolError(f"{name} has no summary line (deals N, seats N, differing N): "
                            "is the run finished?")
        found = GAME_LINE.findall(text)
        if len(found) != int(summary.group(3)):
            raise PoolError(f"{name} names {len(found)} games played out, its summary "
                            f"{summary.group(3)}")
        t.seats += int(summary.group(2))
        for pos, new, new_by, old, old_by, diff in found:
            t.add(float(diff), _logged_kind(new, new_by, pos), _logged_kind(old, old_by, pos))
    return t


def _logged_kind(contract: str, declarer: str, pos: str) -> str:
    """:func:`kind` of a game line's ``C by 0`` (``None by None``: all passed)."""
    return kind(None if contract == "None" else contract,
                None if declarer == "None" else int(declarer), int(pos))


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m lab.pairs", description=__doc__
                                .split("\n\n")[0])
    p.add_argument("--new", default="pimc+nullcheck")
    p.add_argument("--old", default="pimc")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--deals", type=int, default=100)
    p.add_argument("--budget", type=float, default=0.2)
    p.add_argument("--worlds", type=int, default=None)
    p.add_argument("--min-null", type=float, default=None)
    p.add_argument("--minutes", type=float, default=None, help="stop after this long")
    p.add_argument("--xskat-src", default=None, metavar="DIR")
    p.add_argument("--pool", nargs="+", default=None, metavar="LOG",
                   help="no games: the summary over the seats of these runs' outputs")
    args = p.parse_args(argv)
    if args.pool:
        try:
            logs = []
            for name in args.pool:
                with open(name, encoding="utf-8") as f:
                    logs.append((name, f.read()))
            t = pool(logs)
        except OSError as e:
            print(f"pairs: cannot read {e.filename}: {e.strerror}", file=sys.stderr)
            return 2
        except PoolError as e:
            print(f"pairs: {e}", file=sys.stderr)
            return 2
        print(f"{len(logs)} runs, seats {t.seats}, differing {len(t.diffs)}, new-old "
              f"{sum(t.diffs):+.0f} in all")
        print("\n".join(t.lines(args.seed)))
        return 0

    from engine.contract import GameType
    from engine.deal import Deal
    from engine.game import Game, Phase, Rules
    from engine.players import evaluate as ev
    from engine.players import make_player
    from engine.players.base import SeatView
    from engine.players.strength import (
        DuelSettings,
        deal_seeds,
        seating_difference,
        seeger_fabian,
    )
    from lab.anchor.xskat import XSkatPlayers, XSkatSourceError, build, find_source

    try:
        xs = XSkatPlayers(str(build(find_source(args.xskat_src))))
    except XSkatSourceError as e:
        print(f"pairs: {e}", file=sys.stderr)
        return 2
    end = time.monotonic() + 60 * args.minutes if args.minutes else None

    def start(name: str, deal: Deal, pos: int, seed: int) -> tuple:
        table = xs.table(deal, tuple(q for q in range(3) if q != pos), seed, Rules())
        players = [table.player(q) if q != pos else make_player(
            name, seed=seed + pos, budget=args.budget, worlds=args.worlds, workers=1)
            for q in range(3)]
        g = Game(deal, Rules())
        return g, table, players, play(g, table, players, until_cards=True)

    def play(g: Game, table: object, players: list, until_cards: bool = False) -> list:
        """Play on (to the first card with ``until_cards``, else to the end): the actions."""
        actions = []
        while g.result is None and not (until_cards and g.phase == Phase.PLAY):
            q = g.to_act
            a = players[q].choose(SeatView.of(g, q))
            g.push(a)
            table.observe(q, a, 0.0)  # type: ignore[attr-defined]
            actions.append(a)
        return actions

    total = own_total = 0.0
    games = differ = done = 0
    tally = Tally()
    nulls = {"new": [0, 0], "old": [0, 0]}
    for s in deal_seeds(DuelSettings(args.new, args.old, args.deals, args.seed)):
        if end is not None and time.monotonic() > end:
            break
        done += 1
        deal = Deal.shuffled(s)
        for pos in range(3):
            if args.min_null is not None and ev.null_strength(deal.hands[pos]) < args.min_null:
                continue
            seed = s * 31 + pos
            runs = [start(args.new, deal, pos, seed), start(args.old, deal, pos, seed)]
            games += 1
            try:
                if runs[0][3] == runs[1][3]:
                    continue
                differ += 1
                for g, t, ps, _ in runs:
                    play(g, t, ps)
                ends = [g for g, _, _, _ in runs]
            finally:
                for _, t, _, _ in runs:
                    t.close()
            sfs = [seeger_fabian(g.result) for g in ends]  # type: ignore[arg-type]
            sf = [t[pos] for t in sfs]
            alone = "".join("A" if q == pos else "B" for q in range(3))
            rel = [seating_difference(t, alone) for t in sfs]
            total += rel[0] - rel[1]
            own_total += sf[0] - sf[1]
            tally.add(rel[0] - rel[1], *(
                kind(str(g.result.contract) if g.result.contract is not None  # type: ignore[union-attr]
                     else None, g.result.declarer, pos) for g in ends))  # type: ignore[union-attr]
            for key, g in zip(("new", "old"), ends, strict=True):
                r = g.result
                if r is not None and r.contract is not None and r.declarer == pos \
                        and r.contract.game == GameType.NULL:
                    nulls[key][0] += 1
                    nulls[key][1] += r.won
            print(f"deal {s} pos {pos}: " + " | ".join(
                f"{key} {g.result.contract} by {g.result.declarer} "  # type: ignore[union-attr]
                f"{'won' if g.result.won else 'lost'} {v:+d}"  # type: ignore[union-attr]
                for key, g, v in zip(("new", "old"), ends, sf, strict=True))
                + f" | new-old {rel[0] - rel[1]:+.1f} (seat alone {sf[0] - sf[1]:+d})",
                flush=True)
    print(f"deals {done}, seats {games}, differing {differ}, new-old {total:+.0f} in all "
          f"(the seat's own points {own_total:+.0f}); "
          f"nulls declared (won): new {nulls['new'][0]} ({nulls['new'][1]}), "
          f"old {nulls['old'][0]} ({nulls['old'][1]})")
    tally.seats = games
    print("\n".join(tally.lines(args.seed)))
    return 0


if __name__ == "__main__":
    sys.exit(main())

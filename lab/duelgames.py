"""Where a duel's points came from: ``python -m lab.duelgames GAMES.jsonl``.

``skat-table duel --games FILE`` writes every game of a run, one JSON object a line
(:func:`engine.players.strength.game_record`). A duel's figure is the mean over deals of the
six seatings' scores; this pairs the seating where A sits alone at a position with the one
where B sits alone there (same cards, same position, the other player around it) and sorts
the pairs by what the lone seat did in each: declared (and what, won or lost), defended (against
what, won or lost by the declarer), or all passed.
Each class's share of the duel's figure is printed, so the classes add up to the duel's
"A - B per game":

    python -m lab.duelgames duel930.jsonl

``--paired OTHER`` compares two runs on the same deals instead (two versions of a player, or
one at two budgets, each against the same B): each deal's score (the mean of its six
seatings) in this run minus the other's, over the deals both played in full, with a 95 %
bootstrap interval, and how many deals' scores differ:

    python -m lab.duelgames duel930-w2.jsonl --paired duel930-w1.jsonl

(The pairs are the duplicate comparison the duel's score is made of: in the A-alone
seating the score is A's points minus the mean of B's two seats, in the B-alone one the
mean of A's two seats minus B's.)
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from lab.pairs import game_kind

# the seating with A alone at position p, and the one with B alone there
ALONE = {0: ("ABB", "BAA"), 1: ("BAB", "ABA"), 2: ("BBA", "AAB")}


def role(record: dict[str, object], pos: int) -> str:
    """What the seat at ``pos`` did in a game: ``suit``/``grand``/``null`` (declared it,
    with ``+`` or ``-`` for won or lost), ``vs`` the same of another seat's game it
    defended against, ``ramsch`` (all passed and a Ramsch was played), or ``passed``
    (nobody played).

    >>> role({"declarer": 1, "contract": "GH", "won": True}, 1)
    'grand+'
    >>> role({"declarer": 1, "contract": "C", "won": False}, 0), role({"declarer": None}, 2)
    ('vs suit-', 'passed')
    >>> role({"declarer": None, "contract": "R"}, 0)
    'ramsch'
    """
    d = record.get("declarer")
    if d is None:
        # all passed: a Ramsch where the house rules play one, else nothing
        return "ramsch" if str(record.get("contract") or "").startswith("R") else "passed"
    game = game_kind(str(record.get("contract") or "")) + ("+" if record.get("won") else "-")
    return game if d == pos else "vs " + game


def declared(role_: str) -> bool:
    """Did the lone seat declare (a :func:`role` of its own game)?

    >>> declared("null+"), declared("vs suit-"), declared("passed"), declared("ramsch")
    (True, False, False, False)
    """
    return role_.endswith(("+", "-")) and not role_.startswith("vs ")


@dataclass
class Where:
    """The classes of a run: (A's role, B's role) -> [pairs, sum of the two scores]."""

    deals: int
    classes: dict[tuple[str, str], list[float]]

    def share(self, key: tuple[str, str]) -> float:
        """A class's part of the duel's figure (A - B per game)."""
        return self.classes[key][1] / (6 * self.deals) if self.deals else 0.0

    def total(self) -> float:
        return sum(self.share(k) for k in self.classes)


def where(records: Iterable[dict[str, object]]) -> Where:
    """Pair the games of a run (:data:`ALONE`) and sort the pairs by the lone seat's roles.

    >>> g = [{"deal_seed": 1, "seating": s, "declarer": 0, "contract": "C", "won": True,
    ...       "diff": 30.0 if s[0] == "A" and s.count("A") == 1 else 0.0} for s in
    ...      ("ABB", "BAB", "BBA", "BAA", "ABA", "AAB")]
    >>> w = where(g)
    >>> w.classes[("suit+", "suit+")], w.total()
    ([1, 30.0], 5.0)
    """
    by_deal: dict[object, dict[str, dict[str, object]]] = defaultdict(dict)
    for r in records:
        by_deal[r["deal_seed"]][str(r["seating"])] = r
    classes: dict[tuple[str, str], list[float]] = defaultdict(lambda: [0, 0.0])
    deals = 0
    for games in by_deal.values():
        if len(games) != 6:
            continue  # a deal cut short: its pairs would not add up to its score
        deals += 1
        for pos, (a_alone, b_alone) in ALONE.items():
            ga, gb = games[a_alone], games[b_alone]
            c = classes[(role(ga, pos), role(gb, pos))]
            c[0] += 1
            c[1] += float(ga["diff"]) + float(gb["diff"])  # type: ignore[arg-type]
    return Where(deals, dict(classes))


def report(w: Where, top: int = 30) -> list[str]:
    """The classes, largest part of the figure (either sign) first."""
    lines = [f"{w.deals} deals; A - B per game {w.total():+.2f}, by what the lone seat did "
             f"(A alone / B alone at the same position and cards):",
             f"{'A alone':>10} {'B alone':>10} {'pairs':>6} {'per pair':>9} {'per game':>9}"]
    keys = sorted(w.classes, key=lambda k: -abs(w.classes[k][1]))
    for k in keys[:top]:
        n, s = w.classes[k]
        lines.append(f"{k[0]:>10} {k[1]:>10} {int(n):>6} {s / n:>+9.1f} {w.share(k):>+9.2f}")
    if len(keys) > top:
        rest = sum(w.share(k) for k in keys[top:])
        lines.append(f"{'the rest':>21} {len(keys) - top:>6} {'':>9} {rest:>+9.2f}")
    return lines


def coarse(w: Where) -> list[str]:
    """The same pairs in four classes: both lone seats declared, only A's, only B's,
    neither (both defended or all passed).

    >>> w = Where(1, {("suit+", "vs suit+"): [2, 60.0], ("suit-", "grand+"): [1, -30.0]})
    >>> [line.split()[-1] for line in coarse(w)[1:]]
    ['-5.00', '+10.00', '+0.00', '+0.00']
    """
    groups = {"both declared": 0.0, "only A declared": 0.0, "only B declared": 0.0,
              "neither declared": 0.0}
    counts = dict.fromkeys(groups, 0)
    for (a, b), (n, _) in w.classes.items():
        da, db = declared(a), declared(b)
        key = ("both declared" if da and db else "only A declared" if da
               else "only B declared" if db else "neither declared")
        groups[key] += w.share((a, b))
        counts[key] += int(n)
    return ["by whether the lone seat declared:"] + [
        f"{k:>21} {counts[k]:>6} {'':>9} {v:>+9.2f}" for k, v in groups.items()]


def deal_scores(records: Iterable[dict[str, object]]) -> dict[object, float]:
    """Each deal's score (the duel's A - B: the mean of its six seatings' ``diff``), for the
    deals played in full.

    >>> deal_scores([{"deal_seed": 7, "seating": s, "diff": d} for s, d in
    ...              zip(("ABB", "BAB", "BBA", "BAA", "ABA", "AAB"), (6, 0, 0, 6, 0, 0))])
    {7: 2.0}
    """
    by_deal: dict[object, dict[str, float]] = defaultdict(dict)
    for r in records:
        by_deal[r["deal_seed"]][str(r["seating"])] = float(r["diff"])  # type: ignore[arg-type]
    return {d: sum(g.values()) / 6 for d, g in by_deal.items() if len(g) == 6}


@dataclass
class Paired:
    """This run minus another on the deals both played in full."""

    deals: int
    differ: int
    mean: float
    low: float
    high: float
    this: float   # this run's figure on those deals
    other: float  # the other's


def paired(this: Iterable[dict[str, object]], other: Iterable[dict[str, object]],
           seed: int = 0) -> Paired:
    """Deal by deal: this run's score minus the other's (see :func:`deal_scores`).

    >>> a = [{"deal_seed": d, "seating": s, "diff": float(d)} for d in (1, 2)
    ...      for s in ("ABB", "BAB", "BBA", "BAA", "ABA", "AAB")]
    >>> b = [dict(r, diff=0.0) if r["deal_seed"] == 1 else r for r in a]
    >>> p = paired(a, b)
    >>> p.deals, p.differ, p.mean, p.this, p.other
    (2, 1, 0.5, 1.5, 1.0)
    """
    from engine.players.strength import bootstrap_ci

    mine, theirs = deal_scores(this), deal_scores(other)
    common = [d for d in mine if d in theirs]
    diffs = [mine[d] - theirs[d] for d in common]
    if not diffs:
        return Paired(0, 0, 0.0, 0.0, 0.0, 0.0, 0.0)
    low, high = bootstrap_ci(diffs, 2000, seed)
    n = len(diffs)
    return Paired(n, sum(1 for x in diffs if x), sum(diffs) / n, low, high,
                  sum(mine[d] for d in common) / n, sum(theirs[d] for d in common) / n)


class GamesFileError(ValueError):
    """A games file that cannot be read, or is not one (the message says which line)."""


def read_games(path: str) -> list[dict[str, object]]:
    """The records of a ``skat-table duel --games`` file; :class:`GamesFileError` if it
    cannot be read or a line is not a JSON object."""
    try:
        with open(path, encoding="utf-8") as f:
            records = [json.loads(line) for line in f if line.strip()]
    except OSError as exc:
        raise GamesFileError(f"cannot read {path}: {exc.strerror}") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        where_ = f"line {exc.lineno}: {exc.msg}" if isinstance(exc, json.JSONDecodeError) \
            else "not text"
        raise GamesFileError(f"{path} is not a duel's games file ({where_})") from None
    if not all(isinstance(r, dict) for r in records):
        raise GamesFileError(f"{path} is not a duel's games file (a line is not a game)")
    return records


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m lab.duelgames",
                                description="where a duel's points came from")
    p.add_argument("games", help="the file of skat-table duel --games")
    p.add_argument("--top", type=int, default=30, help="classes shown (default 30)")
    p.add_argument("--paired", metavar="OTHER",
                   help="instead: this run minus OTHER (a games file of the same deals), "
                        "deal by deal, with a 95%% bootstrap interval")
    args = p.parse_args(argv)
    try:
        records = read_games(args.games)
        other = read_games(args.paired) if args.paired else None
    except GamesFileError as exc:
        print(f"duelgames: {exc}", file=sys.stderr)
        return 2
    if other is not None:
        try:
            r = paired(records, other)
        except (KeyError, TypeError, ValueError) as exc:
            print(f"duelgames: not a duel's games file (a game without {exc})", file=sys.stderr)
            return 2
        if not r.deals:
            print(f"duelgames: {args.games} and {args.paired} have no deal in common",
                  file=sys.stderr)
            return 2
        print(f"{r.deals} deals in both ({r.differ} scored differently): "
              f"{args.games} {r.this:+.2f}, {args.paired} {r.other:+.2f} per game; "
              f"paired {r.mean:+.2f} [{r.low:+.2f}, {r.high:+.2f}]")
        return 0
    try:
        w = where(records)
    except (KeyError, TypeError, ValueError) as exc:
        print(f"duelgames: {args.games} is not a duel's games file (a game without {exc})",
              file=sys.stderr)
        return 2
    print("\n".join(report(w, args.top) + coarse(w)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

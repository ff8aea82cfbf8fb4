"""Which cards turned a duel's games: ``python -m lab.duelopen GAMES.jsonl``.

``skat-table duel --games FILE`` keeps each game's deal and actions. This solves every
declared game of the file with all cards open (:func:`engine.players.analysis.analyse`,
made or not only) and counts, for A and for B:

- as declarer: the games declared, how many were made with best play on both sides at the
  first lead (with the discard laid), how many of those were won and how many of the others
  (the defence let them through); the cards of the declarer that turned a made game into a
  lost one (his errors with open cards); after a pick-up not made, whether another discard
  would have made it;
- as defender: the seat-games defended and the defender's cards that turned a game the
  declarer had lost into one he makes (the defence's errors with open cards).

An error with open cards is not always a mistake at the table (the cards are hidden
there), but the two players meet the same deals, so their rates compare.

    python -m lab.duelopen duel930.jsonl --jobs 2
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

from engine.game import Game
from engine.players.analysis import DECLARER, OUTCOME, AnalysisError, analyse
from lab.duelgames import GamesFileError, read_games
from lab.pairs import game_kind

# a question past this many nodes is left undecided (a few proofs take tens of millions)
MAX_NODES = 5_000_000
KINDS = ("suit", "grand", "null")


@dataclass(frozen=True)
class Checked:
    """One declared game with open cards: the declarer's player (``A``/``B``) and game kind,
    made at the first lead (None: undecided), won at the table, the defenders' players,
    after a pick-up not made whether another discard makes it (None: not a pick-up, made,
    or undecided), the tricks (1 to 10) of the declarer's turning cards, and the player and
    trick of each defender's turning card."""

    declarer: str
    kind: str
    made: bool | None
    won: bool
    defenders: tuple[str, str]
    other_discard: bool | None
    declarer_turns: tuple[int, ...] = ()
    defence_turns: tuple[tuple[str, int], ...] = ()


def check(record: dict[str, object], max_nodes: int = MAX_NODES) -> Checked | None:
    """Solve one record's game with open cards (None: no declarer's game was played).

    Raises :class:`ValueError` for a record without its game (a file written before the
    duel kept the actions) or whose actions do not replay.
    """
    if record.get("declarer") is None:
        return None
    data = record.get("game")
    if not isinstance(data, dict):
        raise ValueError("a game without its cards: the file was written before "
                         "skat-table duel --games kept them; run the duel again")
    game = Game.from_json(data)
    seating = str(record["seating"])
    try:
        a = analyse(game, detail=OUTCOME, max_nodes=max_nodes)
    except AnalysisError:
        return None  # ended before the first card (a concession), nothing to solve
    declarer_turns: list[int] = []
    defence_turns: list[tuple[str, int]] = []
    for s in a.steps:
        before, after = a.before(s.index).makes, s.after.makes
        if before is None or after is None or before == after:
            continue
        if a.side_of(s.pos) == DECLARER:
            declarer_turns.append(s.trick)
        else:
            defence_turns.append((seating[s.pos], s.trick))
    bd = a.best_discard
    other = None
    if bd is not None and a.start.makes is False:
        other = bd.makes
    d = a.declarer
    return Checked(seating[d], game_kind(a.contract), a.start.makes, bool(record["won"]),
                   (seating[(d + 1) % 3], seating[(d + 2) % 3]), other,
                   tuple(declarer_turns), tuple(defence_turns))


@dataclass
class Side:
    """What one player's games showed with open cards."""

    declared: dict[str, int] = field(default_factory=lambda: dict.fromkeys(KINDS, 0))
    made: dict[str, int] = field(default_factory=lambda: dict.fromkeys(KINDS, 0))
    made_won: dict[str, int] = field(default_factory=lambda: dict.fromkeys(KINDS, 0))
    lost_won: dict[str, int] = field(default_factory=lambda: dict.fromkeys(KINDS, 0))
    undecided: int = 0
    games_thrown: int = 0  # made at the first lead, lost at the table
    pickups_not_made: int = 0
    other_discard: int = 0
    defended: int = 0
    # turning cards by trick: the first, the second and third, the fourth to the last
    declarer_by_trick: list[int] = field(default_factory=lambda: [0, 0, 0])
    defence_by_trick: list[int] = field(default_factory=lambda: [0, 0, 0])

    @property
    def declarer_turns(self) -> int:
        return sum(self.declarer_by_trick)

    @property
    def defence_turns(self) -> int:
        return sum(self.defence_by_trick)


def trick_bucket(trick: int) -> int:
    """0 for the first trick, 1 for the second and third, 2 for the rest.

    >>> [trick_bucket(t) for t in (1, 2, 3, 4, 10)]
    [0, 1, 1, 2, 2]
    """
    return 0 if trick == 1 else 1 if trick <= 3 else 2


def tally(checked: Iterable[Checked]) -> dict[str, Side]:
    """Add up checked games per player.

    >>> t = tally([Checked("A", "suit", True, False, ("B", "B"), None, (5,)),
    ...            Checked("B", "suit", False, True, ("A", "B"), True, (), (("A", 1),))])
    >>> t["A"].games_thrown, t["A"].defence_turns, t["B"].lost_won["suit"], t["B"].defended
    (1, 1, 1, 3)
    >>> t["A"].declarer_by_trick, t["A"].defence_by_trick
    ([0, 0, 1], [1, 0, 0])
    """
    out = {"A": Side(), "B": Side()}
    for c in checked:
        s = out[c.declarer]
        s.declared[c.kind] += 1
        if c.made is None:
            s.undecided += 1
        elif c.made:
            s.made[c.kind] += 1
            s.made_won[c.kind] += c.won
            s.games_thrown += not c.won
        else:
            s.lost_won[c.kind] += c.won
            if c.other_discard is not None:
                s.pickups_not_made += 1
                s.other_discard += c.other_discard
        for trick in c.declarer_turns:
            s.declarer_by_trick[trick_bucket(trick)] += 1
        for who in c.defenders:
            out[who].defended += 1
        for who, trick in c.defence_turns:
            out[who].defence_by_trick[trick_bucket(trick)] += 1
    return out


def _share(n: int, d: int) -> str:
    return f"{n}/{d} ({n / d:.0%})" if d else "0/0"


def report(t: dict[str, Side], names: tuple[str, str] = ("A", "B")) -> list[str]:
    """The figures side by side."""
    a, b = t["A"], t["B"]
    rows: list[tuple[str, str, str]] = []

    def row(label: str, cell: Callable[[Side], str]) -> None:
        rows.append((label, cell(a), cell(b)))

    for kind in KINDS:
        if not (a.declared[kind] or b.declared[kind]):
            continue
        row(f"{kind}: declared", lambda s, k=kind: str(s.declared[k]))
        row("  made with open cards", lambda s, k=kind: _share(s.made[k], s.declared[k]))
        row("  of those won at the table",
            lambda s, k=kind: _share(s.made_won[k], s.made[k]))
        row("  not made, won at the table",
            lambda s, k=kind: _share(s.lost_won[k], s.declared[k] - s.made[k]))
    row("declarer: made games lost", lambda s: str(s.games_thrown))
    row("declarer: his cards that turned it", lambda s: (
        f"{s.declarer_turns} ({s.declarer_turns / max(1, sum(s.declared.values())):.2f} a game)"))
    row("  in trick 1 / 2-3 / 4-10", lambda s: "/".join(map(str, s.declarer_by_trick)))
    row("pick-ups not made: another discard makes it",
        lambda s: _share(s.other_discard, s.pickups_not_made))
    row("defender: seat-games", lambda s: str(s.defended))
    row("defender: his cards that turned it", lambda s: (
        f"{s.defence_turns} ({s.defence_turns / max(1, s.defended):.2f} a seat-game)"))
    row("  in trick 1 / 2-3 / 4-10", lambda s: "/".join(map(str, s.defence_by_trick)))
    if a.undecided or b.undecided:
        rows.append(("undecided at the first lead (node budget)", str(a.undecided),
                     str(b.undecided)))
    width = max(len(r[0]) for r in rows)
    cols = [max(len(names[0]), *(len(r[1]) for r in rows)),
            max(len(names[1]), *(len(r[2]) for r in rows))]
    lines = [f"{'':<{width}}  {names[0]:>{cols[0]}}  {names[1]:>{cols[1]}}"]
    lines += [f"{r[0]:<{width}}  {r[1]:>{cols[0]}}  {r[2]:>{cols[1]}}" for r in rows]
    return lines


def _check_line(args: tuple[int, dict[str, object]]) -> tuple[int, Checked | None, str | None]:
    i, record = args
    try:
        return i, check(record), None
    except (KeyError, TypeError) as exc:
        return i, None, f"not a duel's game (no {exc})"
    except ValueError as exc:
        return i, None, str(exc)


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m lab.duelopen",
                                description="a duel's games solved with open cards: "
                                            "whose cards turned them")
    p.add_argument("games", help="the file of skat-table duel --games")
    p.add_argument("--jobs", type=int, default=1, help="processes (default 1)")
    p.add_argument("--a", default="A", help="A's name in the table")
    p.add_argument("--b", default="B", help="B's name in the table")
    args = p.parse_args(argv)
    if args.jobs < 1:
        print("duelopen: --jobs must be 1 or more", file=sys.stderr)
        return 2
    try:
        records = read_games(args.games)
    except GamesFileError as exc:
        print(f"duelopen: {exc}", file=sys.stderr)
        return 2
    checked: list[Checked] = []
    work = list(enumerate(records, 1))
    if args.jobs > 1:
        with ProcessPoolExecutor(args.jobs) as pool:
            results = list(pool.map(_check_line, work, chunksize=4))
    else:
        results = [_check_line(w) for w in work]
    for i, c, error in results:
        if error is not None:
            print(f"duelopen: {args.games} line {i}: {error}", file=sys.stderr)
            return 2
        if c is not None:
            checked.append(c)
    print(f"{len(records)} games, {len(checked)} declared games solved with open cards")
    print("\n".join(report(tally(checked), (args.a, args.b))))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

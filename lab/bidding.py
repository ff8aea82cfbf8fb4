"""Bidding as a club player judges it: computer-only games counted for what goes wrong.

    python -m lab.bidding --player club --deals 10000 --seed 4000
    python -m lab.bidding --player xskat --xskat-src ~/src/xskat-4.0 --deals 10000 --seed 4000

Every deal is played once with all three seats the same player (a level, a player name or
``xskat``), and the games are counted:

- ``overbid_lost``: games lost because the declared game's value fell below the bid;
- ``conceded_early``: games the declarer conceded before the first card was laid;
- ``jackless_over``: suit games declared from ten cards without a jack and bid above twice
  the suit's base value (the skat can bring the club jack, and the game is then worth
  "with 1": two times the base);
- ``suit_over3``: suit games bid above three times their base value.

Each is given per 1,000 games. The same ``--seed`` gives the same deals for every player,
so two runs compare the players on the same cards.
"""

from __future__ import annotations

import argparse
import json
import sys
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, field
from typing import Any

from engine.actions import Concede, Play
from engine.cards import JACKS
from engine.contract import GameType
from engine.deal import Deal
from engine.game import Game
from engine.players.evaluate import BASE_VALUES

XSKAT = "xskat"


@dataclass
class BiddingCount:
    """The counts of one run (``add`` one game at a time)."""

    games: int = 0
    declared: int = 0
    won: int = 0
    overbid_lost: int = 0
    conceded_early: int = 0
    jackless_over: int = 0
    suit_over3: int = 0
    bid_sum: int = 0
    examples: list[str] = field(default_factory=list)

    def add(self, game: Game, seed: int) -> None:
        self.games += 1
        r = game.result
        if r is None or r.passed_in or game.contract is None or game.declarer is None:
            return
        self.declared += 1
        self.won += bool(r.won)
        self.bid_sum += game.bid
        gt = int(game.contract.game)
        first_card = next((i for i, a in enumerate(game.actions) if isinstance(a, Play)), None)
        conceded = next((i for i, a in enumerate(game.actions) if isinstance(a, Concede)), None)
        what = []
        if r.overbid and not r.won:
            self.overbid_lost += 1
            what.append("overbid")
        if conceded is not None and (first_card is None or conceded < first_card):
            self.conceded_early += 1
            what.append("conceded before the first card")
        if gt < GameType.GRAND:
            base = BASE_VALUES[gt]
            if game.bid > 3 * base:
                self.suit_over3 += 1
            if not game.deal.hands[game.declarer] & JACKS and game.bid > 2 * base:
                self.jackless_over += 1
                what.append("jackless above twice the base")
        if what and len(self.examples) < 12:
            self.examples.append(f"deal seed {seed}: {game.contract} bid {game.bid}, "
                                 f"{'won' if r.won else 'lost'}: {', '.join(what)}")

    def merge(self, other: BiddingCount) -> None:
        for k, v in asdict(other).items():
            if k == "examples":
                self.examples.extend(v[: max(0, 12 - len(self.examples))])
            else:
                setattr(self, k, getattr(self, k) + v)

    def per_1000(self, n: int) -> float:
        return 1000 * n / self.games if self.games else 0.0

    def summary(self) -> dict[str, Any]:
        return {
            "games": self.games, "declared": self.declared,
            "won_share": round(self.won / self.declared, 4) if self.declared else None,
            "mean_bid": round(self.bid_sum / self.declared, 2) if self.declared else None,
            **{f"{k}_per_1000": round(self.per_1000(getattr(self, k)), 2)
               for k in ("overbid_lost", "conceded_early", "jackless_over", "suit_over3")},
            **{k: getattr(self, k) for k in ("overbid_lost", "conceded_early", "jackless_over",
                                             "suit_over3")},
            "examples": list(self.examples),
        }


def deal_seed(seed: int, i: int) -> int:
    return seed * 1_000_003 + i


class FirstTrick:
    """``player`` to the end of the first trick, then ``rest`` (everything the bidding
    figures count is decided by then: the bid, the contract, a concession before the
    first card; the rest of the play is the rule player's, which is fast)."""

    def __init__(self, player: Any, rest: Any) -> None:
        self.player = player
        self.rest = rest
        self.name = getattr(player, "name", "player")

    @property
    def last_bid_limit(self) -> int | None:
        return getattr(self.player, "last_bid_limit", None)

    def choose(self, view: Any) -> Any:
        return (self.rest if view.tricks else self.player).choose(view)

    def close(self) -> None:
        close = getattr(self.player, "close", None)
        if close is not None:
            close()


def play_one(player: str, seed: int, budget: float, worlds: int | None,
             xskat: str | None, first_trick: bool = False) -> Game:
    """One deal played by three seats of ``player`` (``xskat``: XSkat's own three);
    ``first_trick``: the player only to the end of the first trick (:class:`FirstTrick`)."""
    from engine.players import make_player
    from engine.players.table import play_game

    deal = Deal.shuffled(seed)
    if player == XSKAT:
        from lab.anchor.xskat import XSkatTable

        assert xskat is not None
        table = XSkatTable(xskat, deal, (0, 1, 2), seed)
        try:
            game = play_game(deal, [table.player(p) for p in range(3)],
                             on_decision=table.observe)
            table.finish(game)
        finally:
            table.close()
        return game
    players = []
    for pos in range(3):
        p = make_player(player, seed=seed * 3 + pos, budget=budget, worlds=worlds, workers=1)
        if first_trick:
            p = FirstTrick(p, make_player("rule", seed=seed * 3 + pos))
        players.append(p)
    try:
        return play_game(deal, players)
    finally:
        for p in players:
            close = getattr(p, "close", None)
            if close is not None:
                close()


Chunk = tuple[str, int, int, int, float, "int | None", "str | None", bool]


def _chunk(args: Chunk) -> BiddingCount:
    player, seed, start, stop, budget, worlds, xskat, first_trick = args
    count = BiddingCount()
    for i in range(start, stop):
        s = deal_seed(seed, i)
        count.add(play_one(player, s, budget, worlds, xskat, first_trick), s)
    return count


def run(player: str, deals: int, seed: int, jobs: int = 1, budget: float = 1.0,
        worlds: int | None = None, xskat: str | None = None,
        first_trick: bool = False) -> BiddingCount:
    step = max(1, min(250, deals // max(1, jobs * 4)))
    parts: list[Chunk] = [(player, seed, i, min(deals, i + step), budget, worlds, xskat,
                           first_trick) for i in range(0, deals, step)]
    total = BiddingCount()
    if jobs <= 1:
        for p in parts:
            total.merge(_chunk(p))
        return total
    with ProcessPoolExecutor(jobs) as pool:
        for c in pool.map(_chunk, parts):
            total.merge(c)
    return total


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m lab.bidding", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--player", default="club",
                    help="a level (beginner, club, expert), a player name, or xskat")
    ap.add_argument("--deals", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--budget", type=float, default=1.0,
                    help="PIMC's seconds a decision (a level has its own: LEVEL/N for "
                         "1/N of it)")
    ap.add_argument("--worlds", type=int, default=None)
    ap.add_argument("--xskat-src", default=None)
    ap.add_argument("--first-trick", action="store_true",
                    help="the player to the end of the first trick, the rule player after "
                         "(the bidding figures are decided by then; for slow players)")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args(argv)
    xskat = None
    if a.player == XSKAT:
        from lab.anchor.xskat import XSkatSourceError, build, find_source

        try:
            xskat = str(build(find_source(a.xskat_src)))
        except XSkatSourceError as exc:
            print(f"lab.bidding: {exc}", file=sys.stderr)
            return 2
    count = run(a.player, a.deals, a.seed, a.jobs, a.budget, a.worlds, xskat, a.first_trick)
    out = {"player": a.player, "seed": a.seed, "budget": a.budget,
           "first_trick": a.first_trick, **count.summary()}
    if a.json:
        print(json.dumps(out))
    else:
        for k, v in out.items():
            if k != "examples":
                print(f"{k:24} {v}")
        for e in count.examples:
            print("  " + e)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Bench group ``iss``: how many ISS records per second are checked (read, replayed through the
engine, compared with ``R``), and how many games per second are written as records.

The corpus is the 37 server records of ``tests/data`` (when the source tree is at hand) plus
random legal games exported as records, 100 records in all, the same every run. Figures are
medians over several runs.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable
from pathlib import Path

from engine.actions import Bid, Pass, TakeSkat
from engine.deal import Deal
from engine.game import Game, Phase
from engine.iss import check_line, game_to_record

CORPUS_SIZE = 100
_DATA = Path(__file__).resolve().parent.parent / "tests" / "data"


def random_game(rng: random.Random) -> Game:
    """A random legal game (low bids, mostly picked-up skats), played to its end."""
    game = Game(Deal.random(rng))
    while game.result is None:
        actions = game.legal_actions()
        if game.phase == Phase.BIDDING and rng.random() < 0.35:
            action = next(a for a in actions if isinstance(a, Pass))
        elif game.phase == Phase.BIDDING:
            action = rng.choice([a for a in actions if isinstance(a, Bid)][:3] or actions)
        elif game.phase == Phase.SKAT and rng.random() < 0.7:
            action = next(a for a in actions if isinstance(a, TakeSkat))
        else:
            action = rng.choice(actions)
        game.push(action)
    return game


def corpus(size: int = CORPUS_SIZE, seed: int = 2026) -> tuple[list[str], list[Game]]:
    """``size`` record lines (server records first) and the random games exported among them."""
    lines: list[str] = []
    for name in ("games-a.sgf", "games-b.sgf"):
        path = _DATA / name
        if path.exists():
            lines += [ln for ln in path.read_text(encoding="utf-8").splitlines() if ln.strip()]
    rng = random.Random(seed)
    games = [random_game(rng) for _ in range(max(0, size - len(lines)))]
    lines += [game_to_record(g, ("a", "b", "c"), {"ID": str(i)}) for i, g in enumerate(games)]
    return lines[:size], games


def _rate(work: Callable[[], int], runs: int) -> float:
    rates = []
    for _ in range(runs):
        start = time.perf_counter()
        done = work()
        rates.append(done / (time.perf_counter() - start))
    return statistics.median(rates)


def bench(quick: bool = False) -> dict[str, float]:
    lines, games = corpus()
    repeats = 1 if quick else 5
    runs = 3 if quick else 7

    def check_all() -> int:
        for _ in range(repeats):
            for line in lines:
                _, problems = check_line(line)
                if problems:
                    raise RuntimeError(f"bench corpus record disagrees: {problems}")
        return repeats * len(lines)

    def export_all() -> int:
        for _ in range(repeats):
            for g in games:
                game_to_record(g)
        return repeats * len(games)

    return {
        "iss_records_per_s": round(_rate(check_all, runs), 1),
        "iss_export_per_s": round(_rate(export_all, runs), 1),
    }


if __name__ == "__main__":
    print(bench())

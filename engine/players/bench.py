"""The "players" group of ``skat-table bench``: solver speed and PIMC decision times.

- ``solver_median_ms``: the double-dummy solver's win/loss answer for the declarer on
  biddable deals (the rule players bid, take the skat and declare; the solver then answers
  from the first lead whether the declarer makes his contract), median time per deal: 3 runs
  of 40 deals, the median of the runs' medians. With the C core when it is built
  (``solver_c_core`` 1), and the pure-Python search alone on the same deals as
  ``solver_python_median_ms``.
- ``solver_null_median_ms`` and ``solver_suit_median_ms``: the same answer, null and trump
  games (suits and grand) apart: 3 runs of 40 deals each that the rule players declare
  null (the deals are dealt one after another from a fixed seed and every other deal is
  skipped; about one declared game in fourteen is a null), and 3 runs of the first 40 of
  the deals above that they declare as a trump game; the median of the runs' medians.
- ``decision_p50_s`` / ``decision_p95_s`` / ``decision_max_s``: the PIMC player's card and
  declaration decisions at the default budget (1 s) against two rule players.
"""

from __future__ import annotations

import statistics
import time

from engine.cards import mask_points
from engine.contract import GameType
from engine.deal import Deal
from engine.game import Game, Phase
from engine.players.pimc import DEFAULT_BUDGET, PimcPlayer
from engine.players.rule import RulePlayer
from engine.players.solver import HAVE_C, Solver
from engine.players.strength import Timed, fixed_start, quantile
from engine.players.table import play_game


def biddable_positions(count: int, seed: int = 0) -> list[Game]:
    """Games at their first lead, declared by the rule players (passed-in deals skipped)."""
    out = []
    s = seed
    while len(out) < count:
        g = fixed_start(Deal.shuffled(s), s)
        s += 1
        if g is not None and g.game_type in tuple(GameType)[:6]:
            out.append(g)
    return out


def declared_positions(count: int, seed: int, null: bool) -> list[Game]:
    """Games at their first lead that the rule players declared null (``null``) or as a
    trump game (suits and grand), dealt from ``seed`` on; other deals are skipped."""
    out = []
    s = seed
    while len(out) < count:
        g = fixed_start(Deal.shuffled(s), s)
        s += 1
        if g is not None and (g.game_type == GameType.NULL) == null:
            out.append(g)
    return out


def declarer_wins(game: Game, use_c: bool | None = None) -> tuple[bool, float]:
    """The solver's answer for the declarer at the first lead, and its time in seconds."""
    d = game.declarer
    assert d is not None and game.contract is not None
    s = Solver(int(game.game_type), d, use_c=use_c)
    t0 = time.perf_counter()
    if game.game_type == GameType.NULL:
        won = s.null_won(game.hands, 0, ())
    elif game.contract.schwarz:
        won = s.takes_all(game.hands, 0, ())
    else:
        goal = 90 if game.contract.schneider else 61
        won = s.reaches(game.hands, 0, (), goal - mask_points(game.skat))
    return won, time.perf_counter() - t0


def solver_median_ms(games: list[Game], use_c: bool | None = None) -> float:
    return 1000 * statistics.median(declarer_wins(g, use_c)[1] for g in games)


def decision_times(games: int, budget: float, seed: int = 0) -> list[float]:
    """PIMC decision times at forehand against two rule players: card play and declaration
    decisions that had a real choice (bidding is the evaluation's, instant)."""
    times: list[float] = []
    with PimcPlayer(seed=seed, budget=budget) as pimc:
        pimc.warm_up()
        s = seed
        played = 0
        while played < games:
            mine: list[float] = []
            timed = Timed(pimc, mine, phases=(Phase.PLAY, Phase.DISCARD))
            g = play_game(Deal.shuffled(10_000 + s), [timed, RulePlayer(s), RulePlayer(s + 1)])
            s += 1
            if g.result is None or g.result.passed_in:
                continue
            times += mine
            played += 1
    return times


def bench(quick: bool = False) -> dict[str, float]:
    runs = 1 if quick else 3
    n_deals = 6 if quick else 40
    medians, py_medians, null_medians, suit_medians = [], [], [], []
    for r in range(runs):
        games = biddable_positions(n_deals, seed=1000 * r)
        medians.append(solver_median_ms(games))
        # the pure-Python search on the same deals (about a minute in all)
        py_medians.append(solver_median_ms(games, use_c=False))
        suit_medians.append(solver_median_ms(declared_positions(n_deals, 1000 * r, null=False)))
        null_medians.append(
            solver_median_ms(declared_positions(n_deals, 100_000 + 10_000 * r, null=True)))
    figures: dict[str, float] = {
        "solver_median_ms": statistics.median(medians),
        "solver_python_median_ms": statistics.median(py_medians),
        "solver_null_median_ms": statistics.median(null_medians),
        "solver_suit_median_ms": statistics.median(suit_medians),
        "solver_c_core": 1.0 if HAVE_C else 0.0,
    }
    budget = 0.05 if quick else DEFAULT_BUDGET
    t = sorted(decision_times(1 if quick else 3, budget))
    if t:
        figures["decision_p50_s"] = quantile(t, 0.5)
        figures["decision_p95_s"] = quantile(t, 0.95)
        figures["decision_max_s"] = t[-1]
    figures["decision_budget_s"] = budget
    return figures

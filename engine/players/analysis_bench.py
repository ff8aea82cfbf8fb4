"""The "analysis" group of ``skat-table bench``: the open-card analysis of whole games.

Games are played by three rule players (bidding, pick-up, discard, declaration, all ten
tricks; passed-in deals skipped), then each is analysed as a table does after the result:

- ``analysis_game_p50_s`` / ``analysis_game_p95_s`` / ``analysis_game_max_s``: the whole
  analysis (value after every card, first lead, best discard after a pick-up) with the C
  core, as the table pays it: its worker lives as long as the controller, so the solver's
  per-game-type tables are built before the first game is timed (they are kept by the
  process); ``analysis_c_core`` is 1 when the C core is built (else these figures are the
  pure-Python ones); ``analysis_workers`` is the number of threads they used
  (:func:`engine.players.analysis.default_workers`: one per core, at most three), and
  ``analysis_one_worker_game_p95_s`` the p95 on one thread;
- ``analysis_tables_build_s``: building those tables for all six game types, once per
  process (the first analysis after a start pays it);
- ``analysis_python_game_p95_s``: the pure-Python fallback as a table without the C core
  runs it (:func:`engine.players.analysis.default_detail`: the outcome only);
  ``analysis_python_values_game_p95_s``: the pure-Python search asked for every value (5 games;
  what the fallback does not do, because it is too slow for a Pi).
"""

from __future__ import annotations

import time

from engine.deal import Deal
from engine.game import Game
from engine.players.analysis import OUTCOME, VALUES, analyse, default_workers
from engine.players.rule import RulePlayer
from engine.players.solver import HAVE_C, tables
from engine.players.strength import quantile
from engine.players.table import play_game


def played_games(count: int, seed: int = 0) -> list[Game]:
    """Whole games of three rule players (passed-in deals skipped)."""
    out = []
    s = seed
    while len(out) < count:
        g = play_game(Deal.shuffled(50_000 + s), [RulePlayer(s), RulePlayer(s + 1),
                                                  RulePlayer(s + 2)])
        s += 1
        if g.result is not None and not g.result.passed_in and not g.is_ramsch:
            out.append(g)
    return out


def analysis_times(games: list[Game], detail: str, use_c: bool | None,
                   workers: int | None = None) -> list[float]:
    times = []
    for g in games:
        t0 = time.perf_counter()
        analyse(g, detail=detail, use_c=use_c, workers=workers)
        times.append(time.perf_counter() - t0)
    return sorted(times)


def tables_build_s() -> float:
    """Seconds to build the solver's tables of every game type in a fresh process."""
    import subprocess
    import sys

    code = ("import time; from engine.players.solver import tables; t = time.perf_counter(); "
            "[tables(g) for g in range(6)]; print(time.perf_counter() - t)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    return float(out.stdout)


def bench(quick: bool = False) -> dict[str, float]:
    games = played_games(4 if quick else 40, seed=0)
    for game_type in range(6):  # as in the table's long-lived worker (see above)
        tables(game_type)
    t = analysis_times(games, VALUES, use_c=None)
    figures = {
        "analysis_tables_build_s": tables_build_s(),
        "analysis_game_p50_s": quantile(t, 0.5),
        "analysis_game_p95_s": quantile(t, 0.95),
        "analysis_game_max_s": t[-1],
        "analysis_c_core": 1.0 if HAVE_C else 0.0,
        "analysis_games": float(len(games)),
        "analysis_workers": float(default_workers()),
        "analysis_one_worker_game_p95_s": quantile(
            analysis_times(games, VALUES, use_c=None, workers=1), 0.95),
    }
    # quick (the tests): the pure-Python figures on the shortest game only; a full game's
    # values take tens of seconds in pure Python
    py_games = [min(games, key=lambda g: len(g.actions))] if quick else games[:20]
    tp = analysis_times(py_games, OUTCOME, use_c=False)
    figures["analysis_python_game_p95_s"] = quantile(tp, 0.95)
    tv = analysis_times(py_games[:5], VALUES, use_c=False)
    figures["analysis_python_values_game_p95_s"] = quantile(tv, 0.95)
    return figures

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
- ``decision_p50_s`` / ``decision_p95_s`` / ``decision_max_s``: every decision of the PIMC
  player with a real choice at the default budget (1 s) against two rule players: three
  whole games at forehand (:func:`decision_times`), and the decisions before the first card
  of ``BEFORE_PLAY_DEALS`` deals at each position under Kontra/Re, with a Schieberamsch's
  pushes (:func:`before_play_times`); ``decision_count`` of them.
  ``decision_KIND_p95_s`` / ``decision_KIND_max_s`` for each kind of decision (``bid``,
  ``skat``, ``contract``, ``discard``, ``push``, ``double``, ``card``: see
  :func:`engine.players.strength.decision_kind`).
- ``card_first_trick_worlds_median`` / ``card_first_trick_worlds_race_median``: the worlds
  PIMC solves per card decision of the first trick at ``FIRST_TRICK_BUDGET`` (0.2 s) in one
  process, ``pimc`` and ``pimc+race`` (the cards racing), the two alternating decision by
  decision so that the load hits both alike, each on a fresh transposition table
  (:func:`first_trick_worlds`); ``card_first_trick_decisions`` of them. The first trick is
  where worlds are scarce (docs/players.md, "Limits").
"""

from __future__ import annotations

import itertools
import statistics
import time
from collections.abc import Iterable, Iterator

from engine.actions import Play, TakeSkat
from engine.cards import mask_points
from engine.contract import GameType
from engine.deal import Deal
from engine.game import Game, Phase, Rules
from engine.players.base import SeatView
from engine.players.pimc import DEFAULT_BUDGET, PimcPlayer, clear_solvers
from engine.players.rule import RulePlayer
from engine.players.solver import HAVE_C, Solver
from engine.players.strength import KINDS, Timed, fixed_start, quantile, ramsch_start
from engine.players.table import play_game

# Deals of the decisions before play (each at the three positions, and a Schieberamsch).
BEFORE_PLAY_DEALS = 8
# The first trick's worlds: this budget, these deals (each decision of the first trick with
# a choice, by whoever has it; the rule players bid, declare and lay the other cards).
FIRST_TRICK_BUDGET = 0.2
FIRST_TRICK_DEALS = 12


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


def decision_times(games: int, budget: float, seed: int = 0) -> dict[str, list[float]]:
    """PIMC decision times by kind (:func:`~engine.players.strength.decision_kind`) at
    forehand against two rule players, whole games: every decision with a real choice."""
    kinds: dict[str, list[float]] = {}
    with PimcPlayer(seed=seed, budget=budget) as pimc:
        pimc.warm_up()
        s = seed
        played = 0
        while played < games:
            mine: dict[str, list[float]] = {}
            timed = Timed(pimc, [], kinds=mine)
            g = play_game(Deal.shuffled(10_000 + s), [timed, RulePlayer(s), RulePlayer(s + 1)])
            s += 1
            if g.result is None or g.result.passed_in:
                continue
            for kind, t in mine.items():
                kinds.setdefault(kind, []).extend(t)
            played += 1
    return kinds


def level_decision_times(level: str, games: int, seed: int = 0) -> list[float]:
    """Decision times of a level's player as a table seats it (its budget, every core) at
    forehand against two rule players, whole games: every decision with a real choice."""
    from engine.players import make_player

    player = make_player(level, seed=seed)
    warm_up = getattr(player, "warm_up", None)
    if warm_up is not None:
        warm_up()
    times: list[float] = []
    try:
        s = seed
        played = 0
        while played < games:
            mine: list[float] = []
            timed = Timed(player, mine)
            g = play_game(Deal.shuffled(10_000 + s), [timed, RulePlayer(s), RulePlayer(s + 1)])
            s += 1
            if g.result is None or g.result.passed_in:
                continue
            times.extend(mine)
            played += 1
    finally:
        close = getattr(player, "close", None)
        if close is not None:
            close()
    return times


def before_play_times(deals: int, budget: float, seed: int = 0) -> dict[str, list[float]]:
    """PIMC's decisions before the first card, by kind, at every position against two rule
    players, under Kontra/Re (``deals`` deals, each at the three positions): the bidding,
    hand or skat, the contract search, and at the first card the doubling (asked out of
    turn, or with the card when PIMC lays it). Then the next all-pass deal's Schieberamsch
    pushes at the same position. The cards are not played (``decision_times`` does that)."""
    kinds: dict[str, list[float]] = {}
    doubling = Rules(kontra_re=True)
    pushing = Rules(ramsch=True, schieberamsch=True)
    with PimcPlayer(seed=seed, budget=budget) as pimc:
        pimc.warm_up()
        for i in range(deals):
            for pos in range(3):
                timed = Timed(pimc, [], kinds=kinds)
                players: list[Timed | RulePlayer] = [RulePlayer(seed + i * 3 + p)
                                                     for p in range(3)]
                players[pos] = timed
                g = Game(Deal.shuffled(20_000 + seed + i), doubling)
                while g.result is None and g.phase != Phase.PLAY:
                    p = g.to_act
                    assert p is not None
                    g.push(players[p].choose(SeatView.of(g, p)))
                if g.result is None:
                    if g.to_act == pos:
                        timed.choose(SeatView.of(g, pos))
                    elif any(a.kind == "kontra" and a.pos == pos for a in g.legal_actions()):
                        timed.double(SeatView.of(g, pos))
                g = ramsch_start(Deal.shuffled(30_000 + seed + i), pushing)
                while g.phase == Phase.PUSHING:
                    p = g.to_act
                    assert p is not None
                    g.push(players[p].choose(SeatView.of(g, p)))
    return kinds


def first_trick_worlds(deals: int = FIRST_TRICK_DEALS, budget: float = FIRST_TRICK_BUDGET,
                       seed: int = 40_000) -> dict[str, list[int]]:
    """Worlds solved per first-trick card decision, by ``pimc`` and ``pimc+race`` at
    ``budget`` seconds (``workers=1``), on the same decisions, taking turns.

    >>> w = first_trick_worlds(deals=1, budget=0.02)
    >>> len(w["pimc"]) == len(w["pimc+race"]) >= 1
    True
    """
    out: dict[str, list[int]] = {"pimc": [], "pimc+race": []}
    s = seed
    done = 0
    while done < deals:
        g = fixed_start(Deal.shuffled(s), s)
        s += 1
        if g is None or g.contract is None or g.contract.game == GameType.NULL:
            continue
        done += 1
        rule = [RulePlayer(s + p) for p in range(3)]
        for _ in range(3):
            p = g.to_act
            assert p is not None
            view = SeatView.of(g, p)
            if sum(isinstance(a, Play) for a in view.legal) > 1:
                for name, race in (("pimc", False), ("pimc+race", True)):
                    clear_solvers()  # the same worlds: neither on the other's table
                    player = PimcPlayer(seed=s, budget=budget, workers=1, race=race)
                    player.choose(view)
                    out[name].append(player.last_worlds)
            g.push(rule[p].choose(view))
    return out


def rule_pickups(seeds: Iterable[int]) -> Iterator[tuple[Game, RulePlayer]]:
    """The pick-ups of the rule players' bidding: for each deal seed whose bidding ends with
    a declarer who takes the skat, the game just after he took it, and his rule player.

    >>> g, rule = next(rule_pickups(range(20_000, 20_100)))
    >>> v = SeatView.of(g, g.declarer)
    >>> (v.hand | v.skat).bit_count(), v.skat_original.bit_count(), isinstance(rule, RulePlayer)
    (12, 2, True)
    """
    for s in seeds:
        g = Game(Deal.shuffled(s))
        rule = [RulePlayer(s + p) for p in range(3)]
        while g.result is None and g.phase == Phase.BIDDING:
            p = g.to_act
            assert p is not None
            g.push(rule[p].choose(SeatView.of(g, p)))
        if g.result is not None or g.phase != Phase.SKAT or g.declarer is None:
            continue
        g.push(TakeSkat(g.declarer))
        yield g, rule[g.declarer]


def contract_limits(decisions: int = 40, seed: int = 20_000, budget: float = DEFAULT_BUDGET,
                    truth: bool = False, quick: bool = False) -> dict[str, float]:
    """What the node budget costs the contract search: ``decisions`` pick-ups (the rule
    players bid deals from ``seed`` on, the declarer takes the skat), each decided by
    :meth:`Declaring.plan` at ``budget`` seconds in this process. Counts the decisions with
    a question past the node budget, those questions and their share of the search's time,
    and the worlds solved per decision (median). With ``truth`` every question past the
    budget is solved again without one (seconds each), and the answers the evaluation gave
    for them are checked: ``won61``/``q61`` won of the 61 questions, ``right61`` taken
    right with ``GUESS_WON``, ``right61_plus1`` with the first threshold (+1); the same
    for 90 (``made90``, ``q90``, ``right90``; before, 90 past the budget counted as not made).
    ``searched``: the decisions with more than one candidate (the others need no search),
    ``fallbacks`` those of them that solved fewer than ``MIN_WORLDS`` worlds (the first
    choice decided); ``quick``: ``Declaring(quick=True)``.
    """
    from engine.players import evaluate as ev
    from engine.players.declaring import GUESS_SCHNEIDER, GUESS_WON, MIN_WORLDS, Declaring

    player = Declaring(seed=1, budget=budget, quick=quick)
    solvers = player.solvers
    solvers.kept = []
    worlds: list[int] = []
    with_hits = searched = fallbacks = 0
    for g, _ in rule_pickups(itertools.count(seed)):
        if len(worlds) >= decisions:
            break
        v = SeatView.of(g, g.declarer)
        before = solvers.past_budget
        last, player.last_worlds = player.last_worlds, -1
        player.plan(v.hand | v.skat, v.bid, v.pos, v.bidding, v.skat_original)
        if player.last_worlds < 0:  # one candidate: no search
            player.last_worlds = last
        else:
            searched += 1
            fallbacks += player.last_worlds < MIN_WORLDS
        worlds.append(player.last_worlds)
        with_hits += solvers.past_budget > before
    out = {
        "decisions": float(decisions), "decisions_past_budget": float(with_hits),
        "questions": float(solvers.questions), "past_budget": float(solvers.past_budget),
        "past_budget_share_of_time": solvers.past_budget_seconds / max(solvers.seconds, 1e-9),
        "worlds_median": float(statistics.median(worlds)),
        "searched": float(searched), "fallbacks": float(fallbacks),
    }
    if truth:
        tally = dict.fromkeys(("q61", "won61", "right61", "right61_plus1", "q90", "made90",
                               "right90"), 0.0)
        for game, pos, hands, need in solvers.kept:
            if need == 0:
                continue  # null: counted as lost, never declared on a guess
            margin = ev.suit_strength(hands[pos], game) - 9.0
            won = Solver(game, pos).reaches(hands, 0, (), need)
            if need > 61:  # 90 less the skat's points: the schneider question
                tally["q90"] += 1
                tally["made90"] += won
                tally["right90"] += won == (margin >= GUESS_SCHNEIDER)
            else:
                tally["q61"] += 1
                tally["won61"] += won
                tally["right61"] += won == (margin >= GUESS_WON)
                tally["right61_plus1"] += won == (margin >= 1.0)
        out.update(tally)
    return out


def decision_figures(kinds: dict[str, list[float]]) -> dict[str, float]:
    """``decision_p50_s``/``_p95_s``/``_max_s`` over every decision, and
    ``decision_KIND_p95_s``/``_max_s`` for each kind.

    >>> f = decision_figures({"card": [0.5, 0.9], "bid": [0.1]})
    >>> f["decision_max_s"], f["decision_bid_p95_s"], f["decision_count"]
    (0.9, 0.1, 3.0)
    """
    every = sorted(t for ts in kinds.values() for t in ts)
    if not every:
        return {}
    out = {"decision_p50_s": quantile(every, 0.5), "decision_p95_s": quantile(every, 0.95),
           "decision_max_s": every[-1], "decision_count": float(len(every))}
    for kind in KINDS:
        t = sorted(kinds.get(kind, []))
        if t:
            out[f"decision_{kind}_p95_s"] = quantile(t, 0.95)
            out[f"decision_{kind}_max_s"] = t[-1]
    return out


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
    kinds = decision_times(1 if quick else 3, budget)
    for kind, t in before_play_times(2 if quick else BEFORE_PLAY_DEALS, budget).items():
        kinds.setdefault(kind, []).extend(t)
    figures.update(decision_figures(kinds))
    figures["decision_budget_s"] = budget
    first = first_trick_worlds(3 if quick else FIRST_TRICK_DEALS,
                               0.1 if quick else FIRST_TRICK_BUDGET)
    figures["card_first_trick_worlds_median"] = float(statistics.median(first["pimc"]))
    figures["card_first_trick_worlds_race_median"] = float(
        statistics.median(first["pimc+race"]))
    figures["card_first_trick_decisions"] = float(len(first["pimc"]))
    from engine.players.levels import LEVELS

    for name, level in LEVELS.items():
        t = sorted(level_decision_times(name, 1 if quick else 3))
        if t:
            figures[f"level_{name}_decision_p95_s"] = quantile(t, 0.95)
            figures[f"level_{name}_decision_max_s"] = t[-1]
        figures[f"level_{name}_budget_s"] = level.budget_s
    return figures

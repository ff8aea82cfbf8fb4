"""The open-card analysis ("could I have won?") against plain minimax and the solver.

The oracles know nothing of the analysis: a memoised minimax written only with the engine's
``legal_mask``/``trick_winner`` on endgames of up to five tricks, and, on whole games, a fresh
solver asked about the position the engine's own ``Game`` reaches after each card.
"""

from __future__ import annotations

import functools
import itertools
import random

import pytest
from fullrun import size
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.actions import Play
from engine.cards import RANK_POINTS, Card, mask_points
from engine.contract import GameType
from engine.deal import Deal
from engine.game import Game
from engine.players.analysis import (
    DECLARER,
    DEFENDERS,
    OUTCOME,
    VALUES,
    Analyser,
    Analysis,
    AnalysisError,
    BestDiscard,
    Point,
    Position,
    Step,
    _discards,
    analyse,
    discard_choices,
    first_lead,
    goal_of,
)
from engine.players.analysis_bench import played_games
from engine.players.base import RandomPlayer
from engine.players.rule import RulePlayer
from engine.players.solver import HAVE_C, Solver
from engine.players.table import play_game
from engine.trick import legal_mask, matadors, trick_winner

NULL = 5
C_MODES = [False, True] if HAVE_C else [False]


@functools.cache
def minimax(hands: tuple[int, int, int], leader: int, trick: tuple[int, ...], game: int,
            declarer: int, tricks: bool) -> int:
    """The declarer's card points (or tricks) from here with best play: he maximises them,
    the defenders minimise them (in null the roles swap: only tricks count)."""
    if not trick and not any(hands):
        return 0
    pos = (leader + len(trick)) % 3
    maxer = (pos == declarer) != (game == NULL)
    best = None
    m = legal_mask(hands[pos], trick[0] if trick else None, game)
    for c in range(32):
        if not m >> c & 1:
            continue
        h = list(hands)
        h[pos] &= ~(1 << c)
        t = (*trick, c)
        if len(t) == 3:
            winner = (leader + trick_winner(t, game)) % 3
            gain = 0
            if winner == declarer:
                gain = 1 if tricks else sum(RANK_POINTS[x & 7] for x in t)
            v = gain + minimax(tuple(h), winner, (), game, declarer, tricks)  # type: ignore[arg-type]
        else:
            v = minimax(tuple(h), leader, t, game, declarer, tricks)  # type: ignore[arg-type]
        if best is None or (v > best if maxer else v < best):
            best = v
    assert best is not None
    return best


def random_endgame(rng: random.Random, max_tricks: int) -> tuple[Position, int, int, list[int]]:
    """A random position of up to ``max_tricks`` tricks (a trick possibly begun) and a random
    legal way of playing it out."""
    n = rng.randint(1, max_tricks)
    cards = list(range(32))
    rng.shuffle(cards)
    hands = [sum(1 << c for c in cards[p * n:(p + 1) * n]) for p in range(3)]
    game = rng.randrange(6)
    declarer = rng.randrange(3)
    p = Position(hands, rng.randrange(3), [])
    for _ in range(rng.randint(0, 2)):
        pos = p.to_play
        m = legal_mask(p.hands[pos], p.trick[0] if p.trick else None, game)
        c = rng.choice([c for c in range(32) if m >> c & 1])
        p.hands[pos] &= ~(1 << c)
        p.trick.append(c)
    # the rest played at random, legally
    line = []
    q = p.copy()
    while q.trick or any(q.hands):
        pos = q.to_play
        m = legal_mask(q.hands[pos], q.trick[0] if q.trick else None, game)
        c = rng.choice([c for c in range(32) if m >> c & 1])
        line.append(c)
        q.lay(c, game, declarer)
    return p, game, declarer, line


def exact(p: Position, game: int, declarer: int, tricks: bool) -> int:
    return minimax(tuple(p.hands), p.leader, tuple(p.trick), game, declarer, tricks)  # type: ignore[arg-type]


@pytest.mark.parametrize("use_c", C_MODES)
def test_trace_equals_minimax_on_random_endgames(use_c: bool) -> None:
    """After every card of random lines through random endgames of up to five tricks: the
    value, and whether the goal is made (61 points, every trick, no trick in null)."""
    rng = random.Random(151)
    checked = 0
    for _ in range(160):
        p, game, declarer, line = random_endgame(rng, max_tricks=5)
        if game == NULL:
            goal = "null"
        else:
            goal = rng.choice(["61", "all"])
            # points taken earlier in the game: put the 61 within reach of this endgame
            p.taken = 61 - rng.randint(0, max(0, p.left()))
        an = Analyser(game, declarer, goal, VALUES, use_c=use_c)
        first, steps = an.trace(p, line)
        assert [s.card for s in steps] == [Card(c) for c in line]
        q = p.copy()
        points = [first] + [s.after for s in steps]
        for i, pt in enumerate(points):
            if i:
                q.lay(line[i - 1], game, declarer)
            if game == NULL:
                assert pt.value is None
                assert pt.makes == (q.declarer_tricks == 0
                                    and exact(q, game, declarer, True) == 0)
            else:
                v = q.taken + exact(q, game, declarer, False)
                assert pt.value == v, (p, game, declarer, line, i)
                if goal == "61":
                    assert pt.makes == (v >= 61)
                else:
                    left = (sum(h.bit_count() for h in q.hands) + len(q.trick)) // 3
                    assert pt.makes == (q.defender_tricks == 0
                                        and exact(q, game, declarer, True) == left)
            checked += 1
    assert checked > 1000


def test_losing_cards_and_direction_on_endgames() -> None:
    """A card never improves the double-dummy value for the other side, and the points a
    card lost are exactly the drop in its own side's value."""
    rng = random.Random(9)
    for _ in range(60):
        p, game, declarer, line = random_endgame(rng, max_tricks=4)
        if game == NULL:
            continue
        an = Analyser(game, declarer, "61", VALUES)
        first, steps = an.trace(p, line)
        a = Analysis(str(GameType(game).letter), declarer, "61", VALUES, first, None,
                     tuple(steps))
        for s in steps:
            b, v = a.before(s.index).value, s.after.value
            assert b is not None and v is not None
            if s.pos == declarer:
                assert v <= b
                assert a.lost(s.index) == b - v
            else:
                assert v >= b
                assert a.lost(s.index) == v - b
        assert sum(n for _, n in a.losing_cards()) == sum(
            abs(s.after.value - a.before(s.index).value) for s in steps)  # type: ignore[operator]


def rule_games(count: int, seed: int) -> list[Game]:
    out = []
    s = seed
    while len(out) < count:
        g = play_game(Deal.shuffled(s), [RulePlayer(s), RulePlayer(s + 1), RulePlayer(s + 2)])
        s += 1
        if g.result is not None and not g.result.passed_in:
            out.append(g)
    return out


def solver_point(game: Game, plays: int, goal: str) -> Point:
    """The solver's own answer, from the engine's position after ``plays`` cards."""
    g = first_lead(game)
    cards = [a.card for a in game.actions if isinstance(a, Play)]
    for c in cards[:plays]:
        g.push(Play(g.to_act, c))  # type: ignore[arg-type]
    d = g.declarer
    assert d is not None
    gt = int(g.game_type)
    s = Solver(gt, d)
    over = not g.trick and not any(g.hands)
    if gt == NULL:
        if g.won[d] or (g.result is not None and not g.result.won):
            return Point(None, False)
        return Point(None, True if over else s.null_won(g.hands, g.trick_leader, g.trick))
    taken = mask_points(g.won[d]) + mask_points(first_lead(game).skat)
    value = taken + (0 if over else s.max_points(g.hands, g.trick_leader, g.trick))
    if goal == "all":
        lost = any(t.winner != d for t in g.tricks)
        makes = not lost and (over or s.takes_all(g.hands, g.trick_leader, g.trick))
    elif goal == "none":
        makes = False
    else:
        makes = value >= int(goal)
    return Point(value, makes)


def test_whole_games_agree_with_the_solver() -> None:
    """Rule players' games: the value and the outcome at the first lead and after every card
    are the solver's answers for the engine's own position there."""
    for g in rule_games(4, seed=40):
        a = analyse(g)
        assert a.detail == (VALUES if HAVE_C else OUTCOME)
        assert a.won == g.result.won and a.points == g.result.points  # type: ignore[union-attr]
        plays = [x.card for x in g.actions if isinstance(x, Play)]
        assert [s.card for s in a.steps] == plays
        for i in range(len(plays) + 1):
            want = solver_point(g, i, a.goal)
            got = a.before(i) if i < len(plays) else a.steps[-1].after
            if a.detail == VALUES:
                assert got == want, (g.deal.to_iss(), i)
            else:
                assert got.makes == want.makes


@pytest.mark.parametrize("use_c", C_MODES)
def test_the_values_do_not_depend_on_the_first_guess(use_c: bool) -> None:
    """The first lead's value is searched from a guess (the points the declarer took): any
    guess, even a wild or an impossible one, gives the exact value of the minimax."""
    rng = random.Random(606)
    checked = 0
    while checked < size(40, 80):
        p, game, declarer, _ = random_endgame(rng, max_tricks=4)
        if game == NULL:
            continue
        want = exact(p, game, declarer, tricks=False)
        for guess in (None, want, want + 1, -40, 500, rng.randint(0, 120)):
            an = Analyser(game, declarer, "61", use_c=use_c)
            assert an.value(p, guess=guess) == want, (p, game, declarer, guess)
        checked += 1


def test_a_played_game_gives_the_same_analysis_whatever_the_guess() -> None:
    """analyse() starts the first lead's search at the points taken in the game; the
    whole analysis is the same as one started from the middle or from a wrong result."""
    import dataclasses

    for g in rule_games(2, seed=12):
        a = analyse(g)
        wrong = dataclasses.replace(g.result, points=0)  # type: ignore[type-var]
        g.result = wrong
        b = analyse(g)
        g.result = dataclasses.replace(wrong, points=None)
        c = analyse(g)
        assert a.start == b.start == c.start
        assert a.steps == b.steps == c.steps
        assert a.best_discard == b.best_discard == c.best_discard


@pytest.mark.parametrize("use_c", C_MODES)
def test_the_trace_solved_backwards_is_the_trace(use_c: bool) -> None:
    """trace_back (each value bounded by the one after it, for the threads of analyse) gives
    the steps of the forward trace on random endgames: values and outcomes, every goal."""
    rng = random.Random(808)
    checked = 0
    for _ in range(size(60, 120)):
        p, game, declarer, line = random_endgame(rng, max_tricks=4)
        goal = "null" if game == NULL else rng.choice(["61", "all"])
        if game != NULL:
            p.taken = 61 - rng.randint(0, max(0, p.left()))
        _, forward = Analyser(game, declarer, goal, VALUES, use_c=use_c).trace(p, line)
        back = Analyser(game, declarer, goal, VALUES, use_c=use_c).trace_back(p, line)
        assert back == forward, (p, game, declarer, line)
        checked += len(back)
    assert checked > 300


def test_workers_give_the_same_analysis() -> None:
    """analyse() with its parts in threads (the trace backwards beside the first lead, the
    best discard beside both) answers as on one thread: a pick-up made with another
    discard, one no discard saves, and a null game."""
    games = rule_games(2, seed=700) + rule_games(1, seed=68)
    assert games[0].skat_taken and games[2].game_type == GameType.NULL
    for g in games:
        one = analyse(g, workers=1)
        assert one.best_discard is not None
        for workers in (2, 3):
            assert analyse(g, workers=workers) == one, (g.deal.to_iss(), workers)
    first = analyse(games[0], workers=1)
    assert first.start.makes is False and first.best_discard.makes is True  # type: ignore[union-attr]


def test_the_parts_beside_run_on_daemon_threads(monkeypatch: pytest.MonkeyPatch) -> None:
    """A table shutting down does not wait for an analysis: the trace and the discard run
    on daemon threads (not this one), and an error there reaches the caller."""
    import threading

    seen = []
    real = Analyser.trace_back

    def trace_back(self: Analyser, *args: object) -> object:
        seen.append(threading.current_thread())
        return real(self, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(Analyser, "trace_back", trace_back)
    g = rule_games(1, seed=700)[0]
    analyse(g, workers=2)
    assert len(seen) == 1 and seen[0] is not threading.current_thread() and seen[0].daemon

    def broken(self: Analyser, *args: object) -> object:
        raise AnalysisError("the trace broke")

    monkeypatch.setattr(Analyser, "trace_back", broken)
    with pytest.raises(AnalysisError, match="the trace broke"):
        analyse(g, workers=3)


@pytest.mark.parametrize("workers", [0, -1, 1.5, True, "2"])
def test_workers_must_be_a_positive_whole_number(workers: object) -> None:
    g = rule_games(1, seed=11)[0]
    with pytest.raises(AnalysisError, match="workers must be a whole number"):
        analyse(g, workers=workers)  # type: ignore[arg-type]


def test_outcome_only_agrees_with_full_values() -> None:
    for g in rule_games(3, seed=7):
        full = analyse(g, detail=VALUES)
        quick = analyse(g, detail=OUTCOME, use_c=False)
        assert quick.detail == OUTCOME and quick.start.value is None
        assert [s.after.makes for s in quick.steps] == [s.after.makes for s in full.steps]
        assert quick.start.makes == full.start.makes
        for side in (DECLARER, DEFENDERS):
            assert quick.turned(side) == (
                None if full.turned(side) is None
                else Step(full.turned(side).index, full.turned(side).trick,  # type: ignore[union-attr]
                          full.turned(side).pos, full.turned(side).card,  # type: ignore[union-attr]
                          Point(None, full.turned(side).after.makes)))  # type: ignore[union-attr]


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6))
def test_first_card_that_changed_the_outcome_is_the_first(seed: int) -> None:
    """Random players (so that mistakes happen): for each side, no earlier card of that
    side turned the solver's result against it, and the reported card did; recomputed
    from scratch at every point with a fresh solver."""
    g = play_game(Deal.shuffled(seed), [RandomPlayer(seed), RandomPlayer(seed + 1),
                                        RandomPlayer(seed + 2)])
    try:
        a = analyse(g, best_discard=False)
    except AnalysisError:
        assert g.result is None or g.result.passed_in or g.is_ramsch or not any(
            isinstance(x, Play) for x in g.actions)
        return
    makes = [solver_point(g, i, a.goal).makes for i in range(len(a.steps) + 1)]
    for side in (DECLARER, DEFENDERS):
        bad = side == DECLARER  # the declarer loses when "makes" turns True -> False
        t = a.turned(side)
        first = None
        for s in a.steps:
            if a.side_of(s.pos) == side and makes[s.index] == bad and makes[s.index + 1] != bad:
                first = s.index
                break
        assert (t.index if t else None) == first
        # and a side's card never turns the result in the other side's favour... against
        # itself only: a flip is always by the side it hurts
        for s in a.steps:
            if makes[s.index] != makes[s.index + 1]:
                hurt = DECLARER if makes[s.index] else DEFENDERS
                assert a.side_of(s.pos) == hurt


def test_turned_on_made_up_sequences() -> None:
    """``turned`` reads the flips: the declarer's first True->False, the defenders' first
    False->True; flips back and forth are seen in order."""
    seq = [True, True, False, True, False, False, True]
    pos = [0, 1, 2, 1, 0, 2]  # who laid the card after point i
    steps = tuple(Step(i, i // 3 + 1, pos[i], Card(i), Point(None, seq[i + 1]))
                  for i in range(6))
    a = Analysis("C", 1, "61", OUTCOME, Point(None, seq[0]), None, steps)
    assert a.turned(DECLARER).index == 1  # type: ignore[union-attr]
    assert a.turned(DEFENDERS).index == 2  # type: ignore[union-attr]
    assert a.deciding().index == 5  # type: ignore[union-attr]
    with pytest.raises(AnalysisError, match="side must be"):
        a.turned("kibitz")


def null_game(seed: int) -> Game:
    """A null hand by forehand (the others pass), played out by random players. The deal is
    turned so that forehand holds a hand with which the null can be made, when one of the
    three hands can (random hands are seldom null hands)."""
    from engine.actions import Bid, Declare, Pass
    from engine.contract import Contract

    deal = Deal.shuffled(seed)
    h = deal.hands
    for p in range(3):
        hands = (h[p], h[(p + 1) % 3], h[(p + 2) % 3])
        if Solver(NULL, 0).null_won(hands, 0, ()):
            deal = Deal(hands=hands, skat=deal.skat)
            break
    g = Game(deal)
    for a in (Pass(1), Pass(2), Bid(0, 18), Declare(0, Contract.parse("NH"))):
        g.push(a)
    return play_game(g.deal, [RandomPlayer(seed), RandomPlayer(seed + 1),
                              RandomPlayer(seed + 2)], start=g)


def test_null_caught_or_escaped() -> None:
    """In null the result turns only against the side that lays the card: the declarer's
    card that lets him be caught, a defender's card that lets him escape; the last point
    is the game's result."""
    caught_seen = 0
    for seed in (111, 135, 144, 157, 0, 1, 2, 3):  # the first four: a null can be made
        g = null_game(seed)
        assert g.result is not None
        a = analyse(g)
        assert a.goal == "null" and a.best_discard is None
        assert all(s.after.value is None for s in a.steps)
        final = a.steps[-1].after.makes
        assert final == g.result.won
        caught = a.turned(DECLARER)
        if caught is not None:
            assert caught.pos == a.declarer and a.before(caught.index).makes
            caught_seen += 1
        escape = a.turned(DEFENDERS)
        if escape is not None:
            assert escape.pos != a.declarer and a.before(escape.index).makes is False
        if not g.result.won and a.start.makes:
            assert caught is not None and a.deciding() is not None
    assert caught_seen >= 1


def makes_with(g0: Game, x: int, y: int) -> bool:
    """Does the declarer make 61 from the first lead with ``x`` and ``y`` in the skat?"""
    d = g0.declarer
    assert d is not None
    twelve = g0.hands[d] | g0.skat
    h = list(g0.hands)
    h[d] = twelve & ~(1 << x | 1 << y)
    return Solver(int(g0.game_type), d).reaches(h, 0, (), 61 - mask_points(1 << x | 1 << y))


def test_best_discard_really_makes_it() -> None:
    """A pick-up game the declarer could not make with his discard: the best discard found
    makes it (checked with a fresh solver), or no pair of cards does."""
    found = 0
    for g in rule_games(40, seed=500):
        if not g.skat_taken or g.game_type == GameType.NULL:
            continue
        a = analyse(g)
        assert a.best_discard is not None
        if a.start.makes:
            assert a.best_discard.makes is True
            continue
        if a.goal != "61":
            continue
        bd = a.best_discard
        assert bd.makes is not None
        g0 = first_lead(g)
        if bd.makes:
            assert bd.discard is not None and makes_with(g0, *bd.discard)
        else:
            d = g0.declarer
            twelve = g0.hands[d] | g0.skat  # type: ignore[index]
            cards = [c for c in range(32) if twelve >> c & 1]
            assert not any(makes_with(g0, x, y) for x, y in itertools.combinations(cards, 2))
        found += 1
        if found >= size(1, 3):
            break
    assert found >= 1


def discard_value(s: Solver, hands: list[int], twelve: int, x: int, y: int) -> int:
    h = [twelve & ~(1 << x | 1 << y), hands[1], hands[2]]
    return mask_points(1 << x | 1 << y) + s.max_points(h, 0, ())


def test_discard_kinds_cover_every_pair() -> None:
    """Every pair of the twelve cards is worth what one kept pair is (interchangeable cards
    change nothing), checked through the solver's exact value."""
    rng = random.Random(3)
    for _ in range(2):
        cards = list(range(32))
        rng.shuffle(cards)
        hands = [sum(1 << c for c in cards[i * 10:(i + 1) * 10]) for i in range(3)]
        skat = (1 << cards[30]) | (1 << cards[31])
        game = rng.choice([0, 4])
        twelve = hands[0] | skat
        kinds = discard_choices(game, twelve, hands[1] | hands[2])
        assert len(set(kinds)) == len(kinds) <= 66
        s = Solver(game, 0)  # one table for all: valid across positions of one game type
        kept = {discard_value(s, hands, twelve, x, y) for x, y in kinds}
        for x, y in rng.sample(list(itertools.combinations(
                [c for c in range(32) if twelve >> c & 1], 2)), 5):
            assert discard_value(s, hands, twelve, x, y) in kept


def test_goal_follows_the_bid_and_announcements() -> None:
    from engine.contract import Contract

    assert goal_of(Contract.parse("G"), 18, 1) == "61"
    assert goal_of(Contract.parse("GHS"), 18, 1) == "90"
    assert goal_of(Contract.parse("GHZ"), 18, 1) == "all"
    assert goal_of(Contract.parse("D"), 27, 1) == "90"  # with 1, game 2, schneider 3: 27
    assert goal_of(Contract.parse("D"), 36, 1) == "all"
    assert goal_of(Contract.parse("D"), 120, 1) == "none"
    assert goal_of(Contract.parse("N"), 23, 0) == "null"


def test_json_round_trip_and_refusals() -> None:
    g = rule_games(1, seed=11)[0]
    a = analyse(g)
    d = a.to_json()
    assert Analysis.from_json(d) == a
    assert d["turned"][DECLARER] == (a.turned(DECLARER).index if a.turned(DECLARER) else None)
    assert len(d["cards"]) == len(a.steps)
    with pytest.raises(AnalysisError, match="version"):
        Analysis.from_json({**d, "version": 99})
    with pytest.raises(AnalysisError, match="not an analysis record"):
        Analysis.from_json({"version": 1, "contract": "G"})


def test_games_without_a_contract_in_play_are_refused() -> None:
    from engine.actions import Pass

    g = Game(Deal.shuffled(1))
    g.push(Pass(1))
    g.push(Pass(2))
    g.push(Pass(0))
    assert g.result is not None and g.result.passed_in
    with pytest.raises(AnalysisError, match="no declarer's contract"):
        analyse(g)
    with pytest.raises(AnalysisError, match="does not fit"):
        Analyser(4, 0, "null")


def test_matadors_are_the_engines() -> None:
    g = rule_games(1, seed=3)[0]
    g0 = first_lead(g)
    a = analyse(g)
    gt = int(g0.game_type)
    if gt != NULL:
        assert a.goal == goal_of(g0.contract, g0.bid, matadors(g0.declarer_cards(), gt))  # type: ignore[arg-type]


@pytest.mark.full  # make bench's own code at its quick size: about 5 s
def test_analysis_bench_group_through_the_cli(capsys: pytest.CaptureFixture[str]) -> None:
    import json

    from firmware_host.cli import main

    assert main(["bench", "--only", "analysis", "--quick", "--json"]) == 0
    figures = json.loads(capsys.readouterr().out)
    for key in ("analysis_game_p50_s", "analysis_game_p95_s", "analysis_game_max_s",
                "analysis_python_game_p95_s", "analysis_python_values_game_p95_s",
                "analysis_c_core", "analysis_tables_build_s", "analysis_workers",
                "analysis_one_worker_game_p95_s"):
        assert key in figures
    assert figures["analysis_workers"] >= 1 and figures["analysis_one_worker_game_p95_s"] > 0
    assert 0 < figures["analysis_tables_build_s"] < 5
    assert figures["analysis_game_max_s"] >= figures["analysis_game_p95_s"] > 0
    assert figures["analysis_c_core"] == (1.0 if HAVE_C else 0.0)


@pytest.mark.parametrize("workers", [1, 2, 3])
def test_a_node_budget_leaves_points_undecided_on_any_number_of_threads(workers: int) -> None:
    """Questions past ``max_nodes`` are None and the analysis says it is incomplete; the
    threads sharing the first lead's questions all come back (none waits for ever)."""
    g = rule_games(1, seed=700)[0]
    full = analyse(g, workers=1)
    a = analyse(g, max_nodes=2000, workers=workers)
    assert not a.complete and a.start == Point(None, None)
    assert a.steps[-1].after == full.steps[-1].after  # the last trick is cheap
    known = [s.after for s in a.steps if s.after.value is not None]
    assert known and all(p in [s.after for s in full.steps] for p in known)


def test_threads_keep_the_first_discard_that_makes_it() -> None:
    """Two bench games lost with the actual discard that several other discards win (the
    first of them the 20th and the 11th tried): every number of threads names the same one,
    the first in the order one thread tries them, and it makes the game."""
    games = played_games(33, seed=0)
    for g, first in ((games[3], 19), (games[32], 10)):
        one = analyse(g, workers=1)
        assert one.start.makes is False and one.best_discard is not None
        g0 = first_lead(g)
        assert g0.contract is not None and g0.declarer is not None
        an = Analyser(int(g0.contract.game), g0.declarer, one.goal)
        tries = _discards(an, g0)
        assert one.best_discard == BestDiscard(True, tries[first][0])
        assert [an.makes(p) for _, p in tries[:first + 1]] == [False] * first + [True]
        for workers in (2, 3):
            assert analyse(g, workers=workers).best_discard == one.best_discard

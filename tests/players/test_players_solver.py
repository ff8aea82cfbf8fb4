"""The double-dummy solver against plain minimax on the engine's own rules, and the C core
against the pure-Python search.

The oracle below knows nothing of the solver's tables, internal card order, pruning or
transposition table: it plays every legal card (``engine.trick.legal_mask``), scores tricks
with ``engine.trick.trick_winner`` and takes the max/min. Equal values on thousands of random
endgames show the solver searches the same game as the engine referees.
"""

from __future__ import annotations

import contextlib
import random

import pytest
from fullrun import size

from engine.actions import Bid, Declare, Hold, Pass, Play
from engine.cards import RANK_POINTS, Card, mask_points, parse_mask
from engine.contract import Contract, GameType
from engine.deal import Deal
from engine.game import Game, Phase
from engine.players.solver import (
    HAVE_C,
    HAVE_C_VALUE,
    SearchLimitReached,
    Solver,
    SolverError,
    tables,
)
from engine.trick import legal_mask, trick_winner

NULL = 5


def minimax(hands: list[int], leader: int, trick: list[int], game: int, declarer: int) -> int:
    """Declarer's card points (suit/grand) or tricks (null) from here with best play."""
    if not trick and not any(hands):
        return 0
    pos = (leader + len(trick)) % 3
    lead = trick[0] if trick else None
    maxer = (pos == declarer) != (game == NULL)
    best = None
    m = legal_mask(hands[pos], lead, game)
    for c in range(32):
        if not m >> c & 1:
            continue
        h = list(hands)
        h[pos] &= ~(1 << c)
        t = [*trick, c]
        if len(t) == 3:
            winner = (leader + trick_winner(t, game)) % 3
            gain = 0
            if winner == declarer:
                gain = 1 if game == NULL else sum(RANK_POINTS[x & 7] for x in t)
            v = gain + minimax(h, winner, [], game, declarer)
        else:
            v = minimax(h, leader, t, game, declarer)
        if best is None or (v > best if maxer else v < best):
            best = v
    assert best is not None
    return best


def random_endgame(rng: random.Random, max_tricks: int
                   ) -> tuple[list[int], int, list[int], int, int]:
    """Random hands of n cards each, a trick in progress of 0..2 legal cards."""
    n = rng.randint(1, max_tricks)
    cards = list(range(32))
    rng.shuffle(cards)
    hands = [sum(1 << c for c in cards[p * n:(p + 1) * n]) for p in range(3)]
    game = rng.randrange(6)
    declarer = rng.randrange(3)
    leader = rng.randrange(3)
    trick: list[int] = []
    for i in range(rng.randint(0, 2)):
        pos = (leader + i) % 3
        m = legal_mask(hands[pos], trick[0] if trick else None, game)
        choice = rng.choice([c for c in range(32) if m >> c & 1])
        hands[pos] &= ~(1 << choice)
        trick.append(choice)
    return hands, leader, trick, game, declarer


@pytest.mark.parametrize("use_c", [False, True] if HAVE_C else [False])
def test_solver_equals_minimax_on_random_endgames(use_c: bool) -> None:
    rng = random.Random(20261129)
    checked = 0
    for _ in range(1500):
        hands, leader, trick, game, declarer = random_endgame(rng, max_tricks=3)
        exact = minimax(hands, leader, trick, game, declarer)
        s = Solver(game, declarer, use_c=use_c, tt_entries=1 << 12)
        if game == NULL:
            assert s.null_won(hands, leader, trick) == (exact == 0)
        else:
            assert s.max_points(hands, leader, trick) == exact, (hands, leader, trick, game)
            everything = mask_points(hands[0] | hands[1] | hands[2]) + sum(
                RANK_POINTS[c & 7] for c in trick)
            if s.takes_all(hands, leader, trick):
                assert exact == everything
        checked += 1
    assert checked == 1500


@pytest.mark.parametrize("use_c", [False, True] if HAVE_C else [False])
def test_one_solver_answers_every_threshold_of_many_positions_like_minimax(use_c: bool
                                                                           ) -> None:
    """PIMC keeps one solver per game and declarer and asks it, world after world, for the
    goal and then the goal plus or minus a margin, schneider, schwarz: the bounds its table
    keeps from one threshold (and one position) must hold for every other. One solver per
    (game, declarer) across all positions, thresholds in random order, a small table (entries
    overwritten; the same hands with another leader), checked against plain minimax."""
    rng = random.Random(20261201)
    solvers: dict[tuple[int, int], Solver] = {}
    answers = 0
    worlds = []
    for _ in range(size(100, 200)):
        hands, leader, trick, game, declarer = random_endgame(rng, max_tricks=4)
        worlds.append((hands, leader, trick, game, declarer))
        for _ in range(2):  # another world of PIMC's: two hands swap cards, as sampled
            a, b = rng.sample(range(3), 2)
            ca = [c for c in range(32) if hands[a] >> c & 1]
            cb = [c for c in range(32) if hands[b] >> c & 1]
            if ca and cb:
                x, y = rng.choice(ca), rng.choice(cb)
                hands = list(hands)
                hands[a] ^= 1 << x | 1 << y
                hands[b] ^= 1 << x | 1 << y
            worlds.append((hands, leader, trick, game, declarer))
        if not trick:  # the same cards, another hand to lead
            worlds.append((hands, (leader + 1) % 3, trick, game, declarer))
    for hands, leader, trick, game, declarer in worlds:
        s = solvers.setdefault((game, declarer),
                               Solver(game, declarer, use_c=use_c, tt_entries=1 << 10))
        exact = minimax(hands, leader, trick, game, declarer)
        if game == NULL:
            assert s.null_won(hands, leader, trick) == (exact == 0)
            answers += 1
            continue
        everything = mask_points(hands[0] | hands[1] | hands[2]) + sum(
            RANK_POINTS[c & 7] for c in trick)
        needs = [exact - 15, exact - 1, exact, exact + 1, exact + 15,
                 *rng.sample(range(1, 61), 4)]
        rng.shuffle(needs)
        for need in needs:
            assert s.reaches(hands, leader, trick, need) == (exact >= need), (
                hands, leader, trick, game, declarer, need, exact)
            answers += 1
        if s.takes_all(hands, leader, trick):  # the tricks table, between the points
            assert exact == everything
    assert answers > size(1500, 3000), answers


@pytest.mark.skipif(not HAVE_C, reason="the C core is not built")
def test_c_core_answers_like_python_on_larger_positions() -> None:
    """Identical answers of both searches on thousands of 4- and 5-trick positions, at
    thresholds around the value (the hardest windows) and for null and schwarz."""
    rng = random.Random(7)
    answers = 0
    for _ in range(800):
        hands, leader, trick, game, declarer = random_endgame(rng, max_tricks=5)
        if sum(h.bit_count() for h in hands) < 9:
            continue
        py = Solver(game, declarer, use_c=False)
        c = Solver(game, declarer, use_c=True, tt_entries=1 << 12)
        if game == NULL:
            assert py.null_won(hands, leader, trick) == c.null_won(hands, leader, trick)
            answers += 1
            continue
        value = c.max_points(hands, leader, trick)
        for need in (value - 3, value, value + 1, 31, 61):
            assert py.reaches(hands, leader, trick, need) == c.reaches(hands, leader, trick,
                                                                       need)
            answers += 1
        assert py.takes_all(hands, leader, trick) == c.takes_all(hands, leader, trick)
        assert py.takes_any(hands, leader, trick) == c.takes_any(hands, leader, trick)
        answers += 2
    assert answers > 2000, answers


@pytest.mark.skipif(not HAVE_C, reason="the C core is not built")
def test_c_core_keeps_the_bound_it_proved_for_later_questions() -> None:
    """The C search is fail-soft: asked for 15 points, it proves the 22 of the first two
    tricks it found (the club ace, then the spade ace) and keeps that, so the question for
    22 is answered by the table in one node (PIMC asks each world's goal, then the
    schneider question, on one table)."""
    hands = [parse_mask("CA CT SA"), parse_mask("C7 C8 S7"), parse_mask("C9 CK S8")]
    s = Solver(GameType.GRAND, 0)
    assert s.reaches(hands, 0, (), 15)
    before = s.nodes
    assert s.reaches(hands, 0, (), 22)
    assert s.nodes - before == 1
    before = s.nodes
    assert s.reaches(hands, 0, (), 23)
    assert s.nodes - before > 1  # beyond the bound: searched
    assert s.max_points(hands, 0, ()) == 36
    assert not s.reaches(hands, 0, (), 37)


@pytest.mark.parametrize("use_c", [False, True] if HAVE_C else [False])
def test_bounds_hold_and_every_value_search_is_exact(use_c: bool) -> None:
    """``bound`` is fail-soft (``v >= need``: the value is at least ``v``; ``v < need``: at
    most ``v``; C core and Python), tricks in progress included; ``value_within`` finds the
    exact value from any guess inside any known range, on one solver whose table the
    earlier questions filled; all against plain minimax."""
    rng = random.Random(20261206)
    solvers: dict[tuple[int, int], Solver] = {}
    tight = checked = 0
    while checked < size(300, 600):
        hands, leader, trick, game, declarer = random_endgame(rng, max_tricks=4)
        if game == NULL:
            continue
        s = solvers.setdefault((game, declarer),
                               Solver(game, declarer, use_c=use_c, tt_entries=1 << 10))
        value = minimax(hands, leader, trick, game, declarer)
        everything = mask_points(hands[0] | hands[1] | hands[2]) + sum(
            RANK_POINTS[c & 7] for c in trick)
        for need in (value - 7, value, value + 1, value + 9, rng.randint(1, everything + 1)):
            v = s.bound(hands, leader, trick, need)
            if v >= need:
                assert value >= v, (hands, leader, trick, game, declarer, need, v)
            else:
                assert value <= v, (hands, leader, trick, game, declarer, need, v)
            tight += v not in (need, need - 1)
        lo = rng.randint(0, value)
        hi = rng.randint(value, everything)
        guess = rng.choice([None, value, value + 1, lo, hi, rng.randint(-5, everything + 5)])
        assert s.value_within(hands, leader, trick, lo, hi, guess) == value
        assert s.max_points(hands, leader, trick, guess=guess) == value
        checked += 1
    if use_c and HAVE_C_VALUE:  # the C core's bounds are often tighter than the question
        assert tight > checked // 4, (tight, checked)


@pytest.mark.skipif(not HAVE_C_VALUE, reason="the C core is not built")
def test_c_bound_steps_past_what_was_asked() -> None:
    """Asked for 15 points, the C search proves the 22 of the first two tricks (the club
    ace, then the spade ace) and says so; asked for 60, it says 36 at most."""
    hands = [parse_mask("CA CT SA"), parse_mask("C7 C8 S7"), parse_mask("C9 CK S8")]
    s = Solver(GameType.GRAND, 0)
    assert s.bound(hands, 0, (), 15) == 22
    assert 36 <= s.bound(hands, 0, (), 60) < 60
    assert Solver(GameType.GRAND, 0, use_c=False).bound(hands, 0, (), 15) == 15


def test_tables_follow_the_engine_rules() -> None:
    t = tables(2)  # hearts: jacks on top, then A T K Q 9 8 7 of hearts
    order = [str(Card(t.to_engine[i])) for i in range(32)]
    assert order[-11:] == ["H7", "H8", "H9", "HQ", "HK", "HT", "HA", "DJ", "HJ", "SJ", "CJ"]
    n = tables(NULL)
    assert [str(Card(n.to_engine[i])) for i in range(8)] == [
        "C7", "C8", "C9", "CT", "CJ", "CQ", "CK", "CA"]


def test_a_full_deal_is_solved_and_consistent() -> None:
    hands = (
        parse_mask("CJ SJ HJ CA CT CK C9 SA ST HA"),
        parse_mask("DJ C8 C7 SK SQ S9 HK HQ H9 DA"),
        parse_mask("CQ S8 S7 HT H8 H7 DT DK DQ D9"),
    )
    s = Solver(0, 0)
    value = s.max_points(hands, 0, ())
    assert s.reaches(hands, 0, (), value)
    assert not s.reaches(hands, 0, (), value + 1)
    assert value >= 90  # a strong clubs hand with the lead


def test_bad_positions_are_refused_with_a_reason() -> None:
    s = Solver(4, 0)
    with pytest.raises(SolverError, match="do not fit"):
        s.reaches((parse_mask("CJ SJ"), parse_mask("HJ"), parse_mask("DJ")), 0, (), 10)
    with pytest.raises(SolverError, match="null"):
        Solver(NULL, 0).reaches((1, 2, 4), 0, (), 1)
    with pytest.raises(SolverError):
        Solver(9, 0)
    with pytest.raises(SolverError):
        Solver(0, 3)


@pytest.mark.parametrize("use_c", [False, True] if HAVE_C else [False])
def test_node_budget_stops_the_search(use_c: bool) -> None:
    rng = random.Random(3)
    cards = list(range(32))
    rng.shuffle(cards)
    hands = [sum(1 << c for c in cards[p * 10:(p + 1) * 10]) for p in range(3)]
    s = Solver(4, 0, use_c=use_c, max_nodes=5)
    with pytest.raises(SearchLimitReached):
        for need in range(1, 121):
            s.reaches(hands, 0, (), need)


@pytest.mark.parametrize("use_c", [False, True] if HAVE_C else [False])
def test_a_deadline_stops_the_search_inside(use_c: bool) -> None:
    """``until``: a question stops at its deadline in the middle of a search (a decision's
    time holds even for a position of millions of nodes), and the solver's table is sound
    afterwards."""
    import time

    from engine.players.solver import SearchTimedOut

    d = Deal.shuffled(74)  # a grand from forehand: 2.4 million nodes (C core) to prove
    s = Solver(4, 0, use_c=use_c)
    with pytest.raises(SearchTimedOut), s.until(time.monotonic() + 0.02):
        s.reaches(d.hands, 0, (), 61 - mask_points(d.skat))
    assert 0 < s.nodes < 2_000_000  # it searched, and stopped long before the end
    assert s.deadline is None  # the deadline holds only inside the with
    with pytest.raises(SearchTimedOut), s.until(time.monotonic() - 1):
        s.reaches(d.hands, 0, (), 1)
    rng = random.Random(12)
    for _ in range(30):  # questions cut short leave nothing false in the table
        cards = list(range(32))
        rng.shuffle(cards)
        hands = [sum(1 << c for c in cards[p * 5:(p + 1) * 5]) for p in range(3)]
        need = rng.randint(20, 60)
        with contextlib.suppress(SearchTimedOut), s.until(time.monotonic() + 1e-5):
            s.reaches(hands, 1, (), need)
        assert s.reaches(hands, 1, (), need) == Solver(4, 0, use_c=use_c).reaches(
            hands, 1, (), need)


# ---------------------------------------------------------------------- null's own search

def null_position(rng: random.Random, n: int, low: float) -> tuple[list[int], int]:
    """Hands of n cards each; the declarer (returned) gets low cards when ``low`` > 0 (random
    hands are seldom null hands, so without a bias nearly every null is lost)."""
    cards = list(range(32))
    rng.shuffle(cards)
    cards.sort(key=lambda c: rng.random() + low * (c & 7) / 7)
    hands = [sum(1 << c for c in cards[p * n:(p + 1) * n]) for p in range(3)]
    declarer = rng.randrange(3)
    hands[0], hands[declarer] = hands[declarer], hands[0]
    return hands, declarer


def start_trick(rng: random.Random, hands: list[int], leader: int) -> list[int]:
    """0..2 random legal null cards of the current trick (taken from ``hands``)."""
    trick: list[int] = []
    for i in range(rng.randint(0, 2)):
        pos = (leader + i) % 3
        m = legal_mask(hands[pos], trick[0] if trick else None, NULL)
        choice = rng.choice([c for c in range(32) if m >> c & 1])
        hands[pos] &= ~(1 << choice)
        trick.append(choice)
    return trick


@pytest.mark.parametrize("use_c", [False, True] if HAVE_C else [False])
def test_null_equals_minimax_on_random_null_endgames(use_c: bool) -> None:
    """Null alone, every declarer and leader, tricks in progress, up to four tricks: the
    answer is plain minimax's (the declarer escapes exactly when his best is no trick)."""
    rng = random.Random(20261201)
    seen = {True: 0, False: 0}
    for i in range(900):
        n = 4 if i % 9 == 0 else rng.randint(1, 3)
        hands, declarer = null_position(rng, n, rng.choice([0.0, 0.6, 1.2]))
        leader = rng.randrange(3)
        trick = start_trick(rng, hands, leader)
        exact = minimax(hands, leader, trick, NULL, declarer) == 0
        s = Solver(NULL, declarer, use_c=use_c, tt_entries=1 << 10)
        assert s.null_won(hands, leader, trick) == exact, (hands, leader, trick, declarer)
        seen[exact] += 1
    assert min(seen.values()) > 200, seen


@pytest.mark.parametrize("use_c", [False, True] if HAVE_C else [False])
def test_null_own_search_answers_like_the_general_search_on_larger_endgames(use_c: bool
                                                                            ) -> None:
    """Five to seven tricks: null's own search (C core or Python) answers as the general
    search does (a different algorithm: no null rules at all), C and Python."""
    rng = random.Random(12)
    seen = {True: 0, False: 0}
    for _ in range(160):
        hands, declarer = null_position(rng, rng.randint(5, 7), rng.uniform(0.3, 1.5))
        leader = rng.randrange(3)
        trick = start_trick(rng, hands, leader)
        own = Solver(NULL, declarer, use_c=use_c, tt_entries=1 << 12)
        answer = own.null_won(hands, leader, trick)
        py = Solver(NULL, declarer, use_c=False, null_search=False)
        assert py.null_won(hands, leader, trick) == answer, (hands, leader, trick, declarer)
        if HAVE_C:
            general = Solver(NULL, declarer, null_search=False, tt_entries=1 << 14)
            assert general.null_won(hands, leader, trick) == answer
        seen[answer] += 1
    assert min(seen.values()) > 30, seen


def null_game_at_first_lead(deal: Deal, declarer: int, contract: str) -> Game:
    """A null hand game (``NH`` or ouvert ``NOH``) by ``declarer``, the others passing."""
    g = Game(deal)
    while g.phase != Phase.PLAY:
        pos = g.to_act
        actions = g.legal_actions()
        if pos == declarer:
            bid = next((a for a in actions if isinstance(a, Bid | Hold)), None)
            g.push(bid if bid is not None else Declare(declarer, Contract.parse(contract)))
        else:
            g.push(next(a for a in actions if isinstance(a, Pass)))
    return g


@pytest.mark.skipif(not HAVE_C, reason="the C core is not built")
def test_null_whole_hands_from_the_first_lead() -> None:
    """Whole null games (hand and ouvert) declared by each position, from the first lead
    and with the first trick begun: null's own search answers as the general search does
    (which explodes on some of them: those are skipped, at most a quarter)."""
    rng = random.Random(5)
    seen = {True: 0, False: 0}
    skipped = 0
    for i in range(48):
        hands, _ = null_position(rng, 10, rng.uniform(0.3, 1.5))
        declarer = i % 3
        low = min(range(3), key=lambda p: sum(c & 7 for c in range(32) if hands[p] >> c & 1))
        hands[low], hands[declarer] = hands[declarer], hands[low]
        skat = ((1 << 32) - 1) & ~(hands[0] | hands[1] | hands[2])
        g = null_game_at_first_lead(Deal(hands=(hands[0], hands[1], hands[2]), skat=skat),
                                    declarer, "NOH" if i % 2 else "NH")
        for _ in range(rng.randint(0, 2)):
            g.push(Play(g.to_act, rng.choice(g.legal_cards())))
        assert g.game_type == GameType.NULL and g.declarer == declarer
        trick = [int(c) for c in g.trick]
        answer = Solver(NULL, declarer).null_won(g.hands, g.trick_leader, trick)
        py = Solver(NULL, declarer, use_c=False)
        assert py.null_won(g.hands, g.trick_leader, trick) == answer, i
        general = Solver(NULL, declarer, null_search=False, max_nodes=1_000_000)
        try:
            assert general.null_won(g.hands, g.trick_leader, trick) == answer, i
        except SearchLimitReached:
            skipped += 1
            continue
        seen[answer] += 1
    assert skipped <= 12 and min(seen.values()) > 8, (skipped, seen)


@pytest.mark.parametrize("use_c", [False, True] if HAVE_C else [False])
def test_null_search_budget_and_reuse(use_c: bool) -> None:
    """The node budget stops null's own search too, and one solver's table serves many
    positions (its entries hold whole positions, so no answer leaks into another)."""
    rng = random.Random(8)
    hands, declarer = null_position(rng, 10, 0.8)
    with pytest.raises(SearchLimitReached):
        for leader in (0, 1, 2):
            Solver(NULL, declarer, use_c=use_c, max_nodes=1).null_won(hands, leader, ())
    shared = Solver(NULL, 0, use_c=use_c, tt_entries=1 << 8)
    for _ in range(150):
        hands, _ = null_position(rng, rng.randint(3, 6), rng.uniform(0.3, 1.5))
        leader = rng.randrange(3)
        fresh = Solver(NULL, 0, use_c=use_c, tt_entries=1 << 12).null_won(hands, leader, ())
        assert shared.null_won(hands, leader, ()) == fresh
    shared.clear()
    assert shared.null_won(hands, leader, ()) == fresh


@pytest.mark.skipif(not HAVE_C, reason="the C core is not built")
def test_null_c_and_python_search_the_same_tree() -> None:
    """The Python null search is the C one rule for rule: with a table large enough for no
    entry to be overwritten, both visit the same number of trick-level nodes."""
    rng = random.Random(99)
    for _ in range(40):
        hands, declarer = null_position(rng, rng.randint(6, 10), rng.uniform(0.3, 1.5))
        c = Solver(NULL, declarer, tt_entries=1 << 20)
        py = Solver(NULL, declarer, use_c=False)
        assert c.null_won(hands, 0, ()) == py.null_won(hands, 0, ())
        assert c.nodes == py.nodes, (hands, declarer)

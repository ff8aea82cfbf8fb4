"""Several threads asking one position's value: the questions they share
(:class:`ValueQuestions`), the C search's stop flag and a table shared between threads."""

from __future__ import annotations

import random
import threading
import time

import pytest

from engine.players.solver import (
    HAVE_C,
    SearchLimitReached,
    SearchStopped,
    Solver,
    SolverError,
)
from engine.players.value_questions import VARIANTS, ValueQuestions

needs_c = pytest.mark.skipif(not HAVE_C, reason="the C solver core is not built")

# the first lead of a grand (declarer in rearhand) whose value question at 64 points takes
# tens of millions of nodes with a small table: long enough to be stopped while it runs
HARD_GRAND = (4, 2, (17508518, 3865068800, 277910105), 64)


def oracle(value: int, rng: random.Random | None = None):
    """A fake solver of a position worth ``value``: a fail-soft bound for every question
    (with ``rng``, sometimes tighter than need, always true)."""

    def bound(need: int) -> int:
        if value >= need:
            return value if rng and rng.random() < 0.3 else need
        return value if rng and rng.random() < 0.3 else need - 1

    return bound


def sequential_needs(lo: int, hi: int, guess: int | None, value: int) -> list[int]:
    """The questions :meth:`Solver.value_within` asks for a position worth ``value``."""
    s = Solver(0, 0)
    asked: list[int] = []
    answer = oracle(value)

    def root(hands, leader, trick, need, tricks, value=False):  # type: ignore[no-untyped-def]
        asked.append(need)
        return answer(need)

    s._root = root  # type: ignore[method-assign]
    assert s.value_within((), 0, (), lo, hi, guess) == value
    return asked


def test_one_thread_asks_what_the_sequential_search_asks() -> None:
    rng = random.Random(5)
    for _ in range(300):
        lo = rng.randrange(0, 60)
        hi = rng.randrange(lo, 121)
        value = rng.randint(lo, hi)
        guess = rng.choice([None, rng.randint(lo, hi)])
        q = ValueQuestions(lo, hi, guess)
        asked = []
        answer = oracle(value)

        def ask(need: int, stop: bytearray, variant: int, asked: list[int] = asked,
                answer=answer) -> int:  # type: ignore[no-untyped-def]
            assert variant == 0
            asked.append(need)
            return answer(need)

        q.work(ask)
        assert q.done and q.value == value
        assert asked == sequential_needs(lo, hi, guess, value), (lo, hi, guess, value)


@pytest.mark.parametrize("threads", [2, 3, 4])
def test_threads_share_each_question_and_the_first_answer_stops_the_rest(threads: int) -> None:
    """Every thread searches the question of the moment, each in its own order; the first
    answer settles it and stops the others; the value is found whatever the timing."""
    rng = random.Random(threads)
    stopped = 0
    variants: set[int] = set()
    lock = threading.Lock()
    for _ in range(60):
        value = rng.randint(0, 120)
        q = ValueQuestions(0, 120, rng.choice([None, rng.randint(0, 120)]))
        answer = oracle(value, random.Random(rng.random()))
        delays = random.Random(rng.random())

        def ask(need: int, stop: bytearray, variant: int,  # type: ignore[no-untyped-def]
                answer=answer, delays=delays) -> int:
            nonlocal stopped
            with lock:
                variants.add(variant)
                deadline = time.monotonic() + delays.random() * 0.003
            while time.monotonic() < deadline:
                if stop[0]:
                    with lock:
                        stopped += 1
                    raise SearchStopped("stopped")
                time.sleep(0.0002)
            return answer(need)

        workers = [threading.Thread(target=q.work, args=(ask,)) for _ in range(threads)]
        for w in workers:
            w.start()
        for w in workers:
            w.join(10)
            assert not w.is_alive(), "a thread still asks"
        assert q.value == value
    assert stopped > 0  # answers stopped the other threads on the same question
    assert variants == set(VARIANTS[:threads])


def thread_on_a_question(q: ValueQuestions) -> threading.Thread:
    """A thread asking ``q``'s question of the moment until it is told to stop."""
    started = threading.Event()

    def slow(need: int, stop: bytearray, variant: int) -> int:
        started.set()
        while not stop[0]:
            time.sleep(0.001)
        raise SearchStopped("stopped")

    other = threading.Thread(target=q.work, args=(slow,))
    other.start()
    assert started.wait(5)
    return other


def test_a_question_past_its_budget_leaves_the_value_unknown_and_stops_the_others() -> None:
    q = ValueQuestions(0, 120, 60)
    other = thread_on_a_question(q)

    def out_of_nodes(need: int, stop: bytearray, variant: int) -> int:
        raise SearchLimitReached("100 nodes searched, no answer")

    q.work(out_of_nodes)
    other.join(5)
    assert not other.is_alive() and q.failed and q.done and q.value is None


def test_an_error_in_one_thread_reaches_it_and_stops_the_others() -> None:
    q = ValueQuestions(0, 120)
    other = thread_on_a_question(q)

    def broken(need: int, stop: bytearray, variant: int) -> int:
        raise RuntimeError("the solver broke")

    with pytest.raises(RuntimeError, match="the solver broke"):
        q.work(broken)
    other.join(5)
    assert not other.is_alive() and q.failed


def test_what_is_known_from_elsewhere_narrows_and_asks_at_the_edge() -> None:
    q = ValueQuestions(0, 120, 80)
    first = q.take()
    assert first is not None and first[0] == 80
    q.narrow(hi=70, ask=70)  # the guess is answered: its threads are stopped
    assert first[1][0] == 1 and q.hi == 70
    nxt = q.take()
    assert nxt is not None and nxt[0] == 70 and nxt[1][0] == 0
    q.give(80, 75)  # a late answer to the stopped question is still a fact
    assert (q.lo, q.hi) == (0, 70)
    q.give(70, 70)
    assert q.value == 70 and q.take() is None
    with pytest.raises(ValueError, match="empty range"):
        ValueQuestions(5, 4)


@needs_c
def test_the_stop_flag_stops_a_running_search() -> None:
    game, declarer, hands, need = HARD_GRAND
    s = Solver(game, declarer, tt_entries=1 << 10)
    s.stop = bytearray(1)
    s.stop[0] = 1
    with pytest.raises(SearchStopped):
        s.bound(hands, 0, (), need)

    s = Solver(game, declarer, tt_entries=1 << 10)
    s.stop = bytearray(1)
    caught: list[BaseException] = []

    def run() -> None:
        try:
            s.bound(hands, 0, (), need)
        except BaseException as exc:
            caught.append(exc)

    t = threading.Thread(target=run)
    t0 = time.monotonic()
    t.start()
    time.sleep(0.1)
    s.stop[0] = 1
    t.join(10)
    assert not t.is_alive() and time.monotonic() - t0 < 5
    assert len(caught) == 1 and isinstance(caught[0], SearchStopped)
    assert s.nodes > 0
    # a question past its node budget is not a stopped one
    s = Solver(game, declarer, tt_entries=1 << 10, max_nodes=1000)
    s.stop = bytearray(1)
    with pytest.raises(SearchLimitReached) as info:
        s.bound(hands, 0, (), need)
    assert not isinstance(info.value, SearchStopped)


@needs_c
def test_solvers_on_threads_sharing_one_table_answer_as_alone() -> None:
    """Four threads ask values of random positions of one game type and declarer, all on
    one small table (entries overwritten all the time, by several threads at once); each
    answer equals a lone solver's."""
    rng = random.Random(11)
    game, declarer = 0, 1
    positions = []
    for _ in range(24):
        cards = rng.sample(range(32), 21)
        hands = (sum(1 << c for c in cards[:7]), sum(1 << c for c in cards[7:14]),
                 sum(1 << c for c in cards[14:]))
        positions.append((hands, rng.randrange(3)))
    expected = [Solver(game, declarer).max_points(h, leader, ()) for h, leader in positions]
    table = bytearray(16 * (1 << 12))
    got: dict[int, int] = {}
    errors: list[BaseException] = []

    def run(k: int) -> None:
        s = Solver(game, declarer, tt_entries=1 << 12, tt=table)
        try:
            for i in range(k, len(positions) + k):
                i %= len(positions)
                h, leader = positions[i]
                v = s.max_points(h, leader, ())
                assert got.setdefault(i, v) == v
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(k * 6,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert not errors
    assert [got[i] for i in range(len(positions))] == expected
    with pytest.raises(SolverError, match="shared table"):
        Solver(game, declarer, tt_entries=1 << 12, tt=bytearray(100))
    assert Solver(game, declarer, use_c=False).table is None
    assert len(Solver(game, declarer, tt_entries=1 << 12, tt=table).table or b"") == len(table)


@needs_c
@pytest.mark.parametrize("variant", [1, 2, 3, 4, 7])
def test_every_search_order_gives_the_same_answers(variant: int) -> None:
    """The root searched in another order (the second thread's start) proves the same
    bounds: the exact values of random positions, each from an empty table."""
    rng = random.Random(variant)
    for _ in range(15):
        cards = rng.sample(range(32), 24)
        hands = (sum(1 << c for c in cards[:8]), sum(1 << c for c in cards[8:16]),
                 sum(1 << c for c in cards[16:]))
        game, declarer, leader = rng.randrange(5), rng.randrange(3), rng.randrange(3)
        plain = Solver(game, declarer).max_points(hands, leader, ())
        other = Solver(game, declarer)
        other.variant = variant
        assert other.max_points(hands, leader, ()) == plain

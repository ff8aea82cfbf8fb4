"""A double-dummy solver for Skat: every hand open, who wins with best play on both sides?

The solver answers one yes/no question at a time (a *null window*): can the declarer's side
reach ``need`` more card points (suit and grand), take every remaining trick (schwarz), or, in
null, can the defenders force the declarer to take a trick? A yes/no search cuts far more than a
search for the exact value, and it is all the player needs: 61, 90, all tricks, any trick.

>>> from engine.cards import parse_mask
>>> s = Solver(game=4, declarer=0)  # grand, forehand declares
>>> hands = (parse_mask("CJ SJ"), parse_mask("HJ DJ"), parse_mask("CA CT"))
>>> s.reaches(hands, leader=0, trick=(), need=29)  # CJ, SJ draw the jacks; CT, CA fall
True
>>> s.reaches(hands, leader=0, trick=(), need=30)
False
>>> s.max_points(hands, leader=0, trick=())
29

Speed comes from:

- an internal card order per game type in which each following group (a suit, or the
  trumps) is one run of bits in increasing strength, so the cards between two others are one
  mask; following suit and trick winners are the tables of :mod:`engine.trick` (the one copy
  of the rules) translated into that order;
- one function call per trick (the three cards are nested loops, not recursion);
- a transposition table keyed on the cards still held and the leader, holding the bounds
  found so far on what the declarer can still win (so later windows reuse earlier searches;
  the C core prefetches the entries of a trick's children before it searches the first);
- equivalent cards pruned: two cards of one hand with no outstanding card between them and
  the same points are interchangeable, so only one is searched (exact, not a heuristic);
- move ordering: win a trick cheaply, or give a partner's trick the most points;
- in null a search of its own (C core and Python): quick exits (a card the declarer cannot
  duck, every suit safe), a transposition table keyed on the order of the cards still out
  per suit with the suits interchangeable, and null's move ordering (duck with the highest
  card that still ducks; force him with low leads). See ``docs/players.md``, "The
  double-dummy solver".

Positions are 0, 1, 2 (forehand, middlehand, rearhand); ``game`` is the integer value of
``engine.contract.GameType`` (0..3 suits, 4 grand, 5 null); hands are card masks as in
:mod:`engine.cards`.
"""

from __future__ import annotations

import contextlib
import struct
import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any, NoReturn

from engine.cards import RANK_POINTS
from engine.trick import BEATS, FOLLOW, POWER, TRUMPS

try:  # the C core, built by setup.py; without it the same search runs in Python
    from engine.players import _dds
except ImportError:  # pragma: no cover - depends on the build
    _dds = None

HAVE_C = _dds is not None
# null's own C search; a core built from an older _dds.c lacks it (the general search runs)
HAVE_C_NULL = HAVE_C and hasattr(_dds, "null_search")
# the C search's fail-soft bound (search_value); an older core answers yes/no only
HAVE_C_VALUE = HAVE_C and hasattr(_dds, "search_value")
_TT_ENTRIES = 1 << 19

GRAND = 4
NULL = 5

_NEXT = (1, 2, 0)


class SolverError(ValueError):
    """A position the solver cannot search (wrong card counts, a card twice...)."""


class SearchLimitReached(RuntimeError):
    """The search used up its node budget (``Solver.max_nodes``) before it had an answer."""


class SearchTimedOut(SearchLimitReached):
    """The search passed its deadline (``Solver.until``) before it had an answer: the
    position is not known to be hard, only the time is up."""


class SearchStopped(SearchLimitReached):
    """Another thread set the solver's ``stop`` flag: the answer is no longer wanted."""


# The Python search reads the clock once every this many nodes (plus one).
_CLOCK_EVERY = 1023


def _internal_order(game: int) -> list[int]:
    """Engine card indices in internal bit order: by following group, weakest first.

    The groups and strengths are those of :mod:`engine.trick` (the one copy of the rules);
    trumps come last, so they are the top run of bits.
    """
    trumps = TRUMPS[game]
    power = POWER[game]
    return sorted(
        range(32), key=lambda c: (1, 0, power[c]) if trumps >> c & 1 else (0, c >> 3, power[c])
    )


class Tables:
    """Everything the search needs for one game type, in internal bit order."""

    def __init__(self, game: int) -> None:
        if not 0 <= game <= NULL:
            raise SolverError(f"game type {game} cannot be solved: use 0..5 (suits, grand, null)")
        self.game = game
        order = _internal_order(game)
        self.to_engine = order  # internal bit -> engine card
        to_internal = [0] * 32
        for i, c in enumerate(order):
            to_internal[c] = i
        self.to_internal = to_internal

        def internal(mask: int) -> int:
            return sum(1 << to_internal[c] for c in range(32) if mask >> c & 1)

        cls_mask = [internal(FOLLOW[game][c]) for c in order]
        self.cls_mask = cls_mask
        self.points = [RANK_POINTS[c & 7] for c in order]
        self.trumps = internal(TRUMPS[game])
        # cards that take a trick held by internal card w
        self.beats = [internal(BEATS[game][c]) for c in order]
        # engine byte -> internal mask, per suit; internal byte -> points
        self.byte_to_internal = [
            [sum(1 << to_internal[8 * s + r] for r in range(8) if b >> r & 1) for b in range(256)]
            for s in range(4)
        ]
        self.byte_points = [
            [sum(self.points[8 * k + i] for i in range(8) if b >> i & 1) for b in range(256)]
            for k in range(4)
        ]
        # Equal-point neighbours may be equivalent; cards with other points never are.
        self.same_points_as_next = [
            i + 1 < 32 and cls_mask[i] == cls_mask[i + 1] and self.points[i] == self.points[i + 1]
            for i in range(32)
        ]
        same = self.same_points_as_next
        run_top = [0] * 33
        for i in range(31, -1, -1):
            run_top[i] = run_top[i + 1] if same[i] else i
        # the cards above i in its run of equal points: i is equivalent to the lowest of them
        # that is still out, if the same hand holds that one
        self.run_mask = [((2 << run_top[i]) - 1) & ~((2 << i) - 1) for i in range(32)]

    @property
    def bits_lo(self) -> list[tuple[int, ...]]:
        """The set bits of every low half-word (built on first use: only the pure-Python
        search reads them, and building them costs more than the rest of the tables)."""
        return _half_bits()[0]

    @property
    def bits_hi(self) -> list[tuple[int, ...]]:
        return _half_bits()[1]

    def internal(self, mask: int) -> int:
        b = self.byte_to_internal
        return b[0][mask & 0xFF] | b[1][mask >> 8 & 0xFF] | b[2][mask >> 16 & 0xFF] | b[3][
            mask >> 24
        ]

    def engine(self, mask: int) -> int:
        out = 0
        order = self.to_engine
        while mask:
            low = mask & -mask
            out |= 1 << order[low.bit_length() - 1]
            mask ^= low
        return out

    def mask_points(self, mask: int) -> int:
        p = self.byte_points
        return p[0][mask & 0xFF] + p[1][mask >> 8 & 0xFF] + p[2][mask >> 16 & 0xFF] + p[3][
            mask >> 24
        ]


_TABLES: dict[int, Tables] = {}
_HALVES: list[tuple[list[tuple[int, ...]], list[tuple[int, ...]]]] = []


def _half_bits() -> tuple[list[tuple[int, ...]], list[tuple[int, ...]]]:
    """The set bits of every 16-bit number, low half and high half (shared by all games)."""
    if not _HALVES:
        lo = [()] * (1 << 16)
        for m in range(1, 1 << 16):
            low = m & -m
            lo[m] = (low.bit_length() - 1, *lo[m ^ low])
        _HALVES.append((lo, [tuple(i + 16 for i in t) for t in lo]))
    return _HALVES[0]


def _as_bound(
    search: Callable[[list[int], int, int], bool],
) -> Callable[[list[int], int, int], int]:
    """A yes/no search read as the loosest fail-soft bound: ``need`` or ``need - 1``."""

    def bound(h: list[int], leader: int, need: int) -> int:
        return need if search(h, leader, need) else need - 1

    return bound


def tables(game: int) -> Tables:
    """The (cached) tables of a game type; building one takes a few milliseconds (the
    pure-Python search's bit tables, shared, a few hundredths more on first use)."""
    t = _TABLES.get(game)
    if t is None:
        t = _TABLES[game] = Tables(game)
    return t


class Gallop:
    """The questions of a value search after its first (:meth:`Solver.value_within`): while
    the answers go one way, each steps twice as far as the last from the bound the last
    answer gave; once they turn, None (bisect what is left).

    >>> g = Gallop()
    >>> g.after(True, 40, 120), g.after(True, 45, 120), g.after(False, 45, 48)
    (41, 47, None)
    """

    def __init__(self) -> None:
        self.rising: bool | None = None  # the direction; None before the first answer
        self.turned = False
        self.step = 1

    def after(self, up: bool, lo: int, hi: int) -> int | None:
        """The next question after an answer (``up``: at least the question), the value
        now known to lie in [``lo``, ``hi``]; None: bisect."""
        if self.rising is None and not self.turned:
            self.rising = up
        elif self.rising is not None and up != self.rising:
            self.rising, self.turned = None, True
        if self.rising is None:
            return None
        n = min(lo + self.step, hi) if self.rising else max(hi - self.step + 1, lo + 1)
        self.step *= 2
        return n


class Solver:
    """Double-dummy search for one game type and declarer; keeps its transposition table.

    ``reaches`` and ``max_points`` take engine card masks. The transposition table is valid
    for any position of the same game type and declarer, so one solver can be reused across
    many positions (the PIMC player does); ``clear()`` drops it. ``tt_entries`` (a power of
    two) sizes the C core's table, 16 bytes an entry; ``max_entries`` caps the Python one;
    ``max_nodes`` (0: none) is the node budget of each question; ``with solver.until(t)``
    each question also stops at ``t`` (``time.monotonic()``), raising
    :class:`SearchTimedOut`. With the C core, solvers of the same game type and declarer
    on several threads may share one table (``tt``: a bytearray of ``16 * tt_entries``
    bytes, for the points in suit and grand, for null's own search in null), and a
    question stops, raising :class:`SearchStopped`, when another thread sets the first
    byte of ``stop`` (a bytearray; None: no such flag); ``variant`` (0: none; bit 0 the
    leads, bit 1 the second cards, bit 2 the third cards of the first trick searched in
    the reverse order) lets threads asking one question start in different places (the
    answers are the same). In null the search is
    null's own (C core or Python); ``null_search=False`` runs the general search instead
    (the same answers, much slower: the tests' second opinion).
    """

    def __init__(
        self, game: int, declarer: int, max_entries: int = 2_000_000, use_c: bool | None = None,
        max_nodes: int = 0, tt_entries: int = _TT_ENTRIES, null_search: bool = True,
        tt: bytearray | None = None,
    ) -> None:
        if declarer not in (0, 1, 2):
            raise SolverError(f"declarer must be position 0, 1 or 2, not {declarer}")
        self.game = int(game)
        self.declarer = declarer
        self.t = tables(self.game)
        self.max_entries = max_entries
        # node budget of each question (0: none); past it SearchLimitReached is raised
        self.max_nodes = max_nodes
        self.nodes = 0
        self._limit_at = 0
        # time.monotonic() past which a question gives up (None: no deadline), see until()
        self.deadline: float | None = None
        self.stop: bytearray | None = None
        self.variant = 0
        # In suit and grand the declarer maximises his points; in null the defenders maximise
        # the declarer's tricks, so the roles of the yes/no search swap.
        null = self.game == NULL
        self._maxer = tuple((p == declarer) != null for p in range(3))
        self._tt_points: dict[int, tuple[int, int]] = {}
        self._tt_tricks: dict[int, tuple[int, int]] = {}
        self._tt_null: dict[tuple[int, int], bool] = {}
        if use_c is None:
            use_c = HAVE_C
        if use_c and not HAVE_C:
            raise SolverError("the C solver core is not built: run pip install -e . with gcc")
        self.uses_c = use_c
        if use_c:
            if tt_entries < 1 or tt_entries & (tt_entries - 1):
                raise SolverError(f"tt_entries must be a power of two, not {tt_entries}")
            self.tt_entries = tt_entries
            if tt is not None and len(tt) != 16 * tt_entries:
                raise SolverError(f"a shared table of {tt_entries} entries has "
                                  f"{16 * tt_entries} bytes, not {len(tt)}")
            # the table of the game's main question now, so that no search pays for it
            self._c_tt = {self.game == NULL: bytearray(16 * tt_entries) if tt is None else tt}
            self._search_points = self._make_c_search(tricks=False)
            self._bound_points = self._make_c_search(tricks=False, value=True)
            if null and null_search and HAVE_C_NULL:
                self._search_tricks = self._make_c_null_search()
            else:
                self._search_tricks = self._make_c_search(tricks=True)
        else:
            self._search_points = self._make_search(tricks=False)
            self._bound_points = _as_bound(self._search_points)
            if null and null_search:
                self._search_tricks = self._make_null_search()
            else:
                self._search_tricks = self._make_search(tricks=True)

    @property
    def table(self) -> bytearray | None:
        """The C core's table of the game's main question (points in suit and grand, null's
        own search in null), to share with the solvers of other threads (``tt``); None
        without the C core."""
        return self._c_tt[self.game == NULL] if self.uses_c else None

    def clear(self) -> None:
        self._tt_points.clear()
        self._tt_tricks.clear()
        self._tt_null.clear()
        if self.uses_c:
            for buf in self._c_tt.values():
                buf[:] = bytes(len(buf))


    @contextlib.contextmanager
    def until(self, deadline: float | None) -> Iterator[Solver]:
        """Questions asked inside the ``with`` stop at ``deadline`` (``time.monotonic()``;
        None: no deadline) with :class:`SearchTimedOut`, also in the middle of a search.

        >>> import time
        >>> s = Solver(0, 0)
        >>> with s.until(time.monotonic() - 1):
        ...     s.reaches((0b111, 0b111000, 0b111000000), 0, (), 1)
        Traceback (most recent call last):
        ...
        engine.players.solver.SearchTimedOut: the time for this question ran out
        """
        before = self.deadline
        self.deadline = deadline
        try:
            yield self
        finally:
            self.deadline = before

    def _check_time(self) -> None:
        if self.deadline is not None and time.monotonic() >= self.deadline:
            raise SearchTimedOut("the time for this question ran out")

    def _gave_up(self) -> NoReturn:
        """A C search that answered None: say why (stopped, out of time, out of nodes)."""
        if self.stop is not None and self.stop[0]:
            raise SearchStopped("another thread stopped this question")
        self._check_time()
        raise SearchLimitReached(f"{self.max_nodes} nodes searched, no answer")

    # ------------------------------------------------------------------ public questions

    def reaches(
        self, hands: Sequence[int], leader: int, trick: Sequence[int], need: int
    ) -> bool:
        """Can the declarer win ``need`` more card points from here (trick cards included)?

        ``hands`` are the three current hands (masks), ``trick`` the cards already in the
        current trick in the order played, ``leader`` who led it (or leads next).
        """
        self._check_game("points", null_ok=False)
        return self._root(hands, leader, trick, need, tricks=False)

    def takes_all(self, hands: Sequence[int], leader: int, trick: Sequence[int]) -> bool:
        """Can the declarer take every remaining trick (the current one included)?"""
        self._check_game("schwarz", null_ok=False)
        n = self._tricks_left(hands, trick)
        return self._root(hands, leader, trick, n, tricks=True)

    def null_won(self, hands: Sequence[int], leader: int, trick: Sequence[int]) -> bool:
        """In null: can the declarer avoid taking any trick from here?"""
        if self.game != NULL:
            raise SolverError("null_won is the question of a null game")
        return not self._root(hands, leader, trick, 1, tricks=True)

    def takes_any(self, hands: Sequence[int], leader: int, trick: Sequence[int]) -> bool:
        """Suit or grand: can the declarer take at least one trick (escape being schwarz)?"""
        self._check_game("any trick", null_ok=False)
        return self._root(hands, leader, trick, 1, tricks=True)

    def bound(self, hands: Sequence[int], leader: int, trick: Sequence[int], need: int) -> int:
        """:meth:`reaches` with a bound: a result ``v >= need`` says the declarer can win at
        least ``v`` more card points from here, ``v < need`` that he can win at most ``v``.

        The C core's searches are fail-soft and the bound is often tighter than ``need``
        (the steps of :meth:`max_points`); the pure-Python search answers ``need`` or
        ``need - 1`` (the same yes/no, the loosest bound).

        >>> from engine.cards import parse_mask
        >>> s = Solver(game=4, declarer=0)
        >>> hands = (parse_mask("CJ SJ"), parse_mask("HJ DJ"), parse_mask("CA CT"))
        >>> s.bound(hands, 0, (), 30) < 30 <= s.bound(hands, 0, (), 29) + 1
        True
        """
        self._check_game("points", null_ok=False)
        return self._root(hands, leader, trick, need, tricks=False, value=True)

    def max_points(self, hands: Sequence[int], leader: int, trick: Sequence[int],
                   guess: int | None = None) -> int:
        """The exact card points the declarer wins from here with best play.

        A search of the value (MTD(f)): each question is asked at the edge of what is known
        (first at ``guess``, when given; else in the middle) and its bound (:meth:`bound`)
        moves that edge. A good guess (a cheap estimate, a result played out) needs two or
        three questions; without one, or with the pure-Python search, it bisects.
        """
        self._check_game("points", null_ok=False)
        t = self.t
        trick_mask = 0
        for c in trick:
            trick_mask |= 1 << c
        hi = t.mask_points(t.internal(hands[0] | hands[1] | hands[2] | trick_mask))
        return self.value_within(hands, leader, trick, 0, hi, guess)

    def value_within(self, hands: Sequence[int], leader: int, trick: Sequence[int], lo: int,
                     hi: int, guess: int | None = None) -> int:
        """The exact card points the declarer wins from here, known to lie in [lo, hi]
        (see :meth:`max_points`).

        From ``guess`` the questions gallop (each step twice the last, starting at the bound
        the last answer gave) until an answer turns, then bisect what is left; each answer's
        fail-soft bound narrows [lo, hi] further. Questions far from the value are cheap and
        those near it dear, so a guess near the value saves most.
        """
        need = guess if guess is not None and lo < guess <= hi else (lo + hi + 1) // 2
        gallop = Gallop()
        while lo < hi:  # invariant: the answer is in [lo, hi]
            v = self._root(hands, leader, trick, need, tricks=False, value=True)
            up = v >= need
            if up:
                lo = min(v, hi)
            else:
                hi = max(v, lo)
            n = gallop.after(up, lo, hi)
            need = (lo + hi + 1) // 2 if n is None else n
        return lo

    # ------------------------------------------------------------------ internals

    def _check_game(self, what: str, null_ok: bool) -> None:
        if self.game == NULL and not null_ok:
            raise SolverError(f"a null game has no {what} question: use null_won")

    @staticmethod
    def _tricks_left(hands: Sequence[int], trick: Sequence[int]) -> int:
        total = hands[0].bit_count() + hands[1].bit_count() + hands[2].bit_count() + len(trick)
        return total // 3

    def _root(
        self, hands: Sequence[int], leader: int, trick: Sequence[int], need: int, tricks: bool,
        value: bool = False,
    ) -> Any:
        """The yes/no answer, or with ``value`` (points only) the fail-soft bound."""
        t = self.t
        if len(trick) > 2:
            raise SolverError("a trick in progress holds at most two cards")
        h = [t.internal(m) for m in hands]
        counts = [m.bit_count() for m in h]
        expect = [counts[(leader + len(trick)) % 3]] * 3
        for i in range(len(trick)):
            expect[(leader + i) % 3] -= 1
        if counts != expect or (h[0] & h[1]) or (h[0] & h[2]) or (h[1] & h[2]):
            raise SolverError(
                f"hands of {counts[0]}, {counts[1]} and {counts[2]} cards do not fit a trick "
                f"of {len(trick)} cards led by position {leader}"
            )
        cards = [t.to_internal[c] for c in trick]
        if need <= 0:
            return 0 if value else True
        self._limit_at = self.nodes + self.max_nodes if self.max_nodes else 0
        self._check_time()
        if value:
            if not cards:
                return self._bound_points(h, leader, need) if counts[leader] else 0
            return self._partial(h, leader, cards, need, False, self._bound_points)
        if not cards:
            if counts[leader] == 0:
                return False
            search = self._search_tricks if tricks else self._search_points
            return search(h, leader, need)
        return self._partial(h, leader, cards, need, tricks) >= need

    def _partial(
        self, h: list[int], leader: int, cards: list[int], need: int, tricks: bool,
        leaf: Callable[[list[int], int, int], int] | None = None,
    ) -> int:
        """Finish a trick in progress card by card (only at the root, so plain recursion).

        Returns a fail-soft bound as :meth:`bound` does: the best bound for the side to
        move, the points of the tricks finished here added. ``leaf`` searches from the
        next trick on (a bound; None: the yes/no search, read as need or need - 1)."""
        t = self.t
        pos = (leader + len(cards)) % 3
        remaining = h[0] | h[1] | h[2]
        for c in cards:
            remaining |= 1 << c
        lead = cards[0]
        follow = h[pos] & t.cls_mask[lead]
        moves = follow or h[pos]
        want = self._maxer[pos]
        order = self._reduce(moves, h[pos], remaining)
        if len(order) > 1:
            # the search's own order (PIMC asks every world here, once per card): with
            # the other side holding the trick, its winners first, cheapest first; with
            # the partner holding it, the most points first, side cards before trumps
            w = 0
            for i in range(1, len(cards)):
                if (1 << cards[i]) & t.beats[cards[w]]:
                    w = i
            if self._maxer[(leader + w) % 3] == want:
                order.sort(key=lambda c: (-t.points[c], bool(t.trumps >> c & 1)))
            else:
                beats = t.beats[cards[w]]
                order.sort(key=lambda c: not (1 << c) & beats)
        if leaf is None:
            search = self._search_tricks if tricks else self._search_points
            leaf = _as_bound(search)
        best = -1 if want else 1 << 20
        for c in order:
            h2 = list(h)
            h2[pos] ^= 1 << c
            trick = [*cards, c]
            if len(trick) < 3:
                v = self._partial(h2, leader, trick, need, tricks, leaf)
            else:
                w = 0
                for i in (1, 2):
                    if (1 << trick[i]) & t.beats[trick[w]]:
                        w = i
                winner = (leader + w) % 3
                gained = 0
                if winner == self.declarer:
                    gained = 1 if tricks else sum(t.points[x] for x in trick)
                # need met (a lower bound), or no cards left (the exact value)
                v = gained
                if gained < need and h2[0]:
                    v = gained + leaf(h2, winner, need - gained)
            if (v > best) if want else (v < best):
                best = v
            if (v >= need) == want:
                return v
        return best

    def _reduce(self, moves: int, hand: int, remaining: int) -> list[int]:
        """The moves with equivalent cards removed (keeps the strongest of each group)."""
        run_mask = self.t.run_mask
        out = []
        while moves:
            low = moves & -moves
            c = low.bit_length() - 1
            moves ^= low
            above = remaining & run_mask[c]
            if above and hand & (above & -above):
                continue
            out.append(c)
        return out

    def _make_c_search(self, tricks: bool, value: bool = False) -> Callable[..., Any]:
        """The same search in C (``_dds.c``), on the same tables packed as bytes; ``value``:
        it returns the fail-soft bound (``search_value``; a core without it: need or
        need - 1), not yes/no."""
        t = self.t
        values = [0] * 32 if tricks else t.points
        packed = struct.pack(
            "<128I4BII", *t.cls_mask, *t.beats, *t.run_mask, *values,
            *(int(m) for m in self._maxer), self.declarer, 1 if tricks else 0, t.trumps,
        )
        c_search = _dds.search  # type: ignore[union-attr]
        if value and HAVE_C_VALUE:
            c_search = _dds.search_value  # type: ignore[union-attr]
        solver = self
        tt_of = self._c_tt

        def search(h: list[int], leader: int, need: int) -> Any:
            tt = tt_of.get(tricks)
            if tt is None:  # the other question's table, on first use
                tt = tt_of[tricks] = bytearray(16 * solver.tt_entries)
            budget = 0
            if solver._limit_at:
                budget = solver._limit_at - solver.nodes
                if budget <= 0:
                    raise SearchLimitReached(f"{solver.max_nodes} nodes searched, no answer")
            seconds = 0.0
            if solver.deadline is not None:
                seconds = max(solver.deadline - time.monotonic(), 1e-6)
            result, nodes = c_search(packed, tt, h[0], h[1], h[2], leader, need, budget,
                                     seconds, solver.stop, solver.variant)
            solver.nodes += nodes
            if result is None:
                solver._gave_up()
            return result

        if value and not HAVE_C_VALUE:
            return _as_bound(search)
        return search

    def _make_c_null_search(self) -> Callable[[list[int], int, int], bool]:
        """Null's own search in C (``null_search`` in ``_dds.c``): does the declarer take a
        trick? The hands go in relative to the declarer (his, the next hand's, the other's)."""
        c_null = _dds.null_search  # type: ignore[union-attr]
        solver = self
        d = self.declarer
        n1 = _NEXT[d]
        n2 = _NEXT[n1]
        tt = self._c_tt[True]

        def search(h: list[int], leader: int, need: int) -> bool:
            # a null question is always "one trick or none": _root and _partial ask need 1
            assert need == 1, need
            budget = 0
            if solver._limit_at:
                budget = solver._limit_at - solver.nodes
                if budget <= 0:
                    raise SearchLimitReached(f"{solver.max_nodes} nodes searched, no answer")
            seconds = 0.0
            if solver.deadline is not None:
                seconds = max(solver.deadline - time.monotonic(), 1e-6)
            safe, nodes = c_null(tt, h[d], h[n1], h[n2], (leader - d) % 3, budget, seconds,
                                 solver.stop)
            solver.nodes += nodes
            if safe is None:
                solver._gave_up()
            return not safe

        return search

    def _make_null_search(self) -> Callable[[list[int], int, int], bool]:
        """Null's own search in Python: the C core's ``null_search``, rule for rule (the quick
        exits, the canonical table, the ordering); see ``docs/players.md``, "The double-dummy
        solver". Positions inside are relative to the declarer: 0 he, 1 the next hand, 2 the
        other. Internal null order: bit 8 * suit + rank, rank 0 the seven .. 7 the ace."""
        d = self.declarer
        n1 = _NEXT[d]
        n2 = _NEXT[n1]
        solver = self
        tt: dict[tuple[int, int], bool] = {}
        self._tt_null = tt
        safe_memo: dict[int, bool] = {}
        code_memo: dict[int, int] = {}
        suits = (0, 8, 16, 24)

        def suit_safe(db: int, ob: int) -> bool:
            """The declarer's i-th lowest card below the defenders' i-th lowest, every i."""
            k = db << 8 | ob
            v = safe_memo.get(k)
            if v is None:
                v = True
                while db and ob:
                    if db & -db > ob & -ob:
                        v = False
                        break
                    db &= db - 1
                    ob &= ob - 1
                safe_memo[k] = v
            return v

        def all_safe(hd: int, de: int) -> bool:
            return (suit_safe(hd & 255, de & 255) and suit_safe(hd >> 8 & 255, de >> 8 & 255)
                    and suit_safe(hd >> 16 & 255, de >> 16 & 255)
                    and suit_safe(hd >> 24, de >> 24))

        def suit_code(r: int, a: int, b: int) -> int:
            """Owner codes (1 declarer, 2 next, 3 other) of the cards still out, lowest first."""
            k = r << 16 | a << 8 | b
            v = code_memo.get(k)
            if v is None:
                v = 0
                i = 0
                while r:
                    low = r & -r
                    v |= ((1 if a & low else 0) + (2 if b & low else 0)) << (2 * i)
                    i += 1
                    r ^= low
                code_memo[k] = v
            return v

        def key_of(h0: int, h1: int, h2: int) -> int:
            rem = h0 | h1 | h2
            a = h0 | h2
            b = h1 | h2
            codes = sorted(suit_code(rem >> s & 255, a >> s & 255, b >> s & 255) for s in suits)
            return codes[0] | codes[1] << 16 | codes[2] << 32 | codes[3] << 48

        def moves_of(m: int, hand: int, rem: int) -> list[int]:
            """Moves without equivalent cards (the next card out above in the same hand)."""
            out = []
            while m:
                low = m & -m
                m ^= low
                c = low.bit_length() - 1
                above = rem & (0xFF << (c & ~7)) & ~((low << 1) - 1)
                if above and hand & (above & -above):
                    continue
                out.append(c)
            return out

        def declarer_moves(m: int, hand: int, rem: int, de: int, follow: bool, under: int,
                           forced: int) -> list[int]:
            keyed = []
            for c in moves_of(m, hand, rem):
                bit = 1 << c
                if not follow:
                    s = c & ~7
                    k = (32 if suit_safe(hand >> s & 255, de >> s & 255) else 0) + 31 - c
                elif bit < under:
                    k = 31 - c
                elif bit < forced:
                    k = 32 + c
                else:
                    continue  # above the trick and nobody must overtake: he takes it
                keyed.append((k, c))
            keyed.sort()
            return [c for _, c in keyed]

        def defender_moves(m: int, hand: int, rem: int, under: int) -> list[int]:
            moves = moves_of(m, hand, rem)
            if under:
                moves.sort(key=lambda c: 31 - c if 1 << c < under else 32 + c)
            else:
                moves.sort(reverse=True)
            return moves

        def node(h: list[int], leader: int) -> bool:
            """Can the declarer avoid every trick from the start of this trick?"""
            solver.nodes += 1
            if solver._limit_at and solver.nodes > solver._limit_at:
                raise SearchLimitReached(f"{solver.max_nodes} nodes searched, no answer")
            if not solver.nodes & _CLOCK_EVERY and solver.deadline is not None:
                solver._check_time()
            hd = h[0]
            if not hd:
                return True
            de = h[1] | h[2]
            rem = hd | de
            if leader:
                hl = h[leader]
                ho = h[3 - leader]
                for s in suits:
                    ls = hl >> s & 255
                    ds = hd >> s & 255
                    if not ls or not ds:
                        continue
                    x = ls & -ls
                    dl = ds & -ds
                    if dl < x:
                        continue
                    os_ = ho >> s & 255
                    ol = os_ & -os_
                    if leader == 1:  # he plays third, after the other's lowest card
                        if not os_ or dl > ol:
                            return False
                    elif not os_ or ol < dl:  # second; the last hand can stay under
                        return False
                if all_safe(hd, de):
                    return True
            else:
                for s in suits:
                    ds = hd >> s & 255
                    if not ds:
                        continue
                    a1 = h[1] >> s & 255
                    a2 = h[2] >> s & 255
                    top = max(a1 & -a1, a2 & -a2)
                    m = ds
                    while m:
                        bit = m & -m
                        if bit > top:
                            break
                        if all_safe(hd ^ (bit << s), de):
                            return True
                        m ^= bit
            key = (key_of(h[0], h[1], h[2]), leader)
            known = tt.get(key)
            if known is not None:
                return known
            p1 = leader
            p2 = _NEXT[p1]
            p3 = _NEXT[p2]
            h1 = h[p1]
            h2 = h[p2]
            h3 = h[p3]
            last = h1.bit_count() == 1
            keyed = []
            for c1 in moves_of(h1, h1, rem):
                suit = 0xFF << (c1 & ~7)
                below = (1 << c1) - 1
                if p1 == 0:
                    # a card above all of theirs takes the trick; a card some defender must
                    # overtake first, then few of their cards below it
                    if not de & suit & ~((2 << c1) - 1):
                        continue
                    a1 = h[1] & suit
                    a2 = h[2] & suit
                    if (a1 and a1 & -a1 > 1 << c1) or (a2 and a2 & -a2 > 1 << c1):
                        k = c1
                    else:
                        k = 32 * (1 + (de & suit & below).bit_count()) + c1
                else:
                    ds = hd & suit
                    k = 32 * (ds & below).bit_count() + c1 if ds else 32 * 9 + c1
                keyed.append((k, c1))
            keyed.sort()
            want1 = p1 == 0
            r = not want1
            for _, c1 in keyed:
                cm = 0xFF << (c1 & ~7)
                f2 = h2 & cm
                m2 = f2 or h2
                f3 = h3 & cm
                if p2 == 0:
                    moves2 = declarer_moves(m2, h2, rem, de, bool(f2), 1 << c1, f3 & -f3)
                else:
                    moves2 = defender_moves(m2, h2, rem, 1 << c1 if f2 else 0)
                want2 = p2 == 0
                r = not want2
                for c2 in moves2:
                    wc = c1
                    wp = p1
                    if 1 << c2 & cm and c2 > c1:
                        wc = c2
                        wp = p2
                    m3 = f3 or h3
                    if p3 == 0:
                        moves3 = declarer_moves(m3, h3, rem, de, bool(f3), 1 << wc, 0)
                    elif wp == 0:
                        moves3 = defender_moves(m3, h3, rem, 1 << wc if f3 else 0)
                    else:
                        moves3 = defender_moves(m3, h3, rem, 0)
                    want3 = p3 == 0
                    r = not want3
                    for c3 in moves3:
                        winner = p3 if 1 << c3 & cm and c3 > wc else wp
                        if winner == 0:
                            r = False
                        elif last:
                            r = True
                        else:
                            hh = [0, 0, 0]
                            hh[p1] = h1 ^ (1 << c1)
                            hh[p2] = h2 ^ (1 << c2)
                            hh[p3] = h3 ^ (1 << c3)
                            r = node(hh, winner)
                        if r == want3:
                            break
                    if r == want2:
                        break
                if r == want1:
                    break
            if len(tt) >= solver.max_entries:
                tt.clear()
            tt[key] = r
            return r

        def search(h: list[int], leader: int, need: int) -> bool:
            assert need == 1, need  # null asks "one trick or none"
            return not node([h[d], h[n1], h[n2]], (leader - d) % 3)

        return search

    def _make_search(self, tricks: bool) -> Callable[[list[int], int, int], bool]:
        """Build the recursive search as a closure: locals are the fastest lookups in CPython."""
        t = self.t
        cls_mask = t.cls_mask
        beats = t.beats
        pts = [0] * 32 if tricks else t.points
        pts_all = t.points
        bonus = 1 if tricks else 0
        bp0, bp1, bp2, bp3 = t.byte_points
        bits_lo = t.bits_lo
        bits_hi = t.bits_hi
        maxer = self._maxer
        declarer = self.declarer
        tt = self._tt_tricks if tricks else self._tt_points
        # Equivalence: a card is dropped if the next outstanding card above it in its run of
        # equal points (7-8-9, the jacks; a whole suit in null) is in the same hand.
        run_mask = t.run_mask
        trumps = t.trumps
        solver = self

        def smear_key(c: int) -> tuple[int, bool]:
            return (-pts_all[c], bool(trumps >> c & 1))

        def moves_of(m: int, hand: int, remaining: int) -> list[int]:
            out = []
            for c in bits_lo[m & 0xFFFF] + bits_hi[m >> 16]:
                rm = run_mask[c]
                if rm:
                    above = remaining & rm
                    if above and hand & (above & -above):
                        continue
                out.append(c)
            return out

        def left_value(remaining: int) -> int:
            if tricks:
                return remaining.bit_count() // 3
            return (
                bp0[remaining & 0xFF] + bp1[remaining >> 8 & 0xFF]
                + bp2[remaining >> 16 & 0xFF] + bp3[remaining >> 24]
            )

        def search(h: list[int], leader: int, need: int) -> bool:
            """At the start of a trick: can the declarer still reach ``need``?"""
            solver.nodes += 1
            if solver._limit_at and solver.nodes > solver._limit_at:
                raise SearchLimitReached(f"{solver.max_nodes} nodes searched, no answer")
            if not solver.nodes & _CLOCK_EVERY and solver.deadline is not None:
                solver._check_time()
            remaining = h[0] | h[1] | h[2]
            total = left_value(remaining)
            if need > total:
                return False
            key = (h[0] << 66) | (h[1] << 34) | (h[2] << 2) | leader
            entry = tt.get(key)
            lo = 0
            hi = total
            if entry is not None:
                lo, hi = entry
                if lo >= need:
                    return True
                if hi < need:
                    return False
            p1 = leader
            p2 = _NEXT[p1]
            p3 = _NEXT[p2]
            h1 = h[p1]
            h2 = h[p2]
            h3 = h[p3]
            w1 = maxer[p1]
            w2 = maxer[p2]
            w3 = maxer[p3]
            last = h1.bit_count() == 1
            r = not w1
            moves1 = moves_of(h1, h1, remaining)
            if len(moves1) > 1:
                # leads closest to the top of their group (among the others' cards) first,
                # trumps first, stronger first
                others = remaining & ~h1
                moves1.sort(key=lambda c: (
                    (others & cls_mask[c] & ~((2 << c) - 1)).bit_count(), not trumps >> c & 1,
                    -c))
            for c1 in moves1:
                cm = cls_mask[c1]
                m2 = h2 & cm or h2
                b1 = beats[c1]
                # second hand: if it can beat, try the cheapest winner first when the
                # leader is an opponent; otherwise (partner leads) the strongest first
                moves2 = moves_of(m2, h2, remaining)
                if w2 != w1:
                    win = m2 & b1
                    if win:
                        moves2 = moves_of(win, h2, remaining) + moves_of(m2 ^ win, h2, remaining)
                elif not ((h3 & cm or h3) & b1):
                    moves2.sort(key=smear_key)  # the partner's lead stands: points to it
                r = not w2
                for c2 in moves2:
                    if (1 << c2) & b1:
                        wc = c2
                        wp = p2
                    else:
                        wc = c1
                        wp = p1
                    m3 = h3 & cm or h3
                    bw = beats[wc]
                    moves3 = moves_of(m3, h3, remaining)
                    if maxer[wp] == w3:
                        moves3.sort(key=smear_key)  # the partner holds it: points to it
                    else:
                        win = m3 & bw
                        if win:
                            moves3 = moves_of(win, h3, remaining) + moves_of(
                                m3 ^ win, h3, remaining
                            )
                    base = pts[c1] + pts[c2] + bonus
                    r = not w3
                    for c3 in moves3:
                        if (1 << c3) & bw:
                            winner = p3
                        else:
                            winner = wp
                        if winner == declarer:
                            n2 = need - base - pts[c3]
                            if n2 <= 0:
                                r = True
                            elif last:
                                r = False
                            else:
                                hh = [0, 0, 0]
                                hh[p1] = h1 ^ (1 << c1)
                                hh[p2] = h2 ^ (1 << c2)
                                hh[p3] = h3 ^ (1 << c3)
                                r = search(hh, winner, n2)
                        elif last:
                            r = False
                        else:
                            hh = [0, 0, 0]
                            hh[p1] = h1 ^ (1 << c1)
                            hh[p2] = h2 ^ (1 << c2)
                            hh[p3] = h3 ^ (1 << c3)
                            r = search(hh, winner, need)
                        if r == w3:
                            break
                    if r == w2:
                        break
                if r == w1:
                    break
            if r:
                if need > lo:
                    lo = need
            elif need - 1 < hi:
                hi = need - 1
            if len(tt) >= solver.max_entries:
                tt.clear()
            tt[key] = (lo, hi)
            return r

        return search


class LoneSolver(Solver):
    """Ramsch, searched "paranoid": one position (``lone``) against the other two together,
    which try to load card points (or tricks) onto it; the lone position tries to take as
    few as it can. Jacks are the only trumps, as in grand (the Ramsch order).

    The questions are those of :class:`Solver` with the lone position in the declarer's
    place, but the sides' aims swapped: ``reaches(hands, leader, trick, need)`` is whether
    the other two can force the lone position to take at least ``need`` more card points;
    ``takes_any`` whether they can force it to take a trick; ``min_points`` the points it
    can be held to (the least it takes against their best play). Trick points only: the
    skat, which goes to the winner of the last trick, is the caller's business.

    >>> from engine.cards import parse_mask
    >>> s = LoneSolver(lone=0)
    >>> hands = (parse_mask("CA C7"), parse_mask("CT C8"), parse_mask("CK C9"))
    >>> s.min_points(hands, leader=0, trick=())  # the ten and the king wait for its ace
    25
    >>> s.takes_any(hands, leader=0, trick=())
    True
    """

    def __init__(self, lone: int, max_entries: int = 2_000_000, use_c: bool | None = None,
                 max_nodes: int = 0, tt_entries: int = _TT_ENTRIES) -> None:
        super().__init__(GRAND, lone, max_entries=max_entries, use_c=use_c,
                         max_nodes=max_nodes, tt_entries=tt_entries)
        # the other two maximise what the lone position takes (the search is the same
        # AND/OR over yes/no answers; only who wants "yes" changes)
        self._maxer = tuple(p != lone for p in range(3))
        if self.uses_c:
            self._search_points = self._make_c_search(tricks=False)
            self._bound_points = self._make_c_search(tricks=False, value=True)
            self._search_tricks = self._make_c_search(tricks=True)
        else:
            self._search_points = self._make_search(tricks=False)
            self._bound_points = _as_bound(self._search_points)
            self._search_tricks = self._make_search(tricks=True)

    def min_points(self, hands: Sequence[int], leader: int, trick: Sequence[int]) -> int:
        """The card points (tricks only) the lone position takes with best play on both
        sides: it takes no fewer whatever it plays, and no more whatever the others play."""
        return self.max_points(hands, leader, trick)

    def takes_all(self, hands: Sequence[int], leader: int, trick: Sequence[int]) -> bool:
        raise SolverError("a Durchmarsch is the lone position's own aim: ask a Solver for "
                          "grand with it as declarer")

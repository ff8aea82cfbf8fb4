"""The exact value of one position, asked by several threads at once.

A value search (:meth:`engine.players.solver.Solver.value_within`) asks yes/no questions
("can the declarer win ``need`` points from here?") one after the other, each answer
narrowing the range the value lies in: first at a guess, then galloping (each step twice the
last, from the bound the last answer gave) while the answers go one way, then bisecting.
:class:`ValueQuestions` asks the same questions with several threads: every thread searches
the question of the moment, each in another order at its root (``variant``: the first
thread as one thread would, the second with the leads the other way round, ...), all on one
table, so each finds what the others have proved; the first answer settles the question for
all of them and stops the rest (their ``stop`` flag, which the C search reads while it
runs). On two cores that answers a question about 1.7 times as fast as one thread
(measured on the first leads of the analysis bench: docs/players.md).

>>> q = ValueQuestions(0, 120, guess=61)
>>> q.take(), q.take()                  # two threads on the guess, in two orders
((61, bytearray(b'\\x00'), 0), (61, bytearray(b'\\x00'), 1))
>>> q.give(61, 70)                      # one answers: at least 70; the other is stopped
>>> q.lo, q.hi
(70, 120)
>>> q.take()[0]                         # the gallop's next question
71
>>> q.give(71, 70)                      # at most 70
>>> q.done, q.value
(True, 70)
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from engine.players.solver import Gallop, SearchLimitReached, SearchStopped

# the search orders of the threads on one question (the C search's `variant`: bit 0 the
# leads at the root the other way round, bit 1 the second cards; measured on two cores:
# the leads reversed (1) is the best second order, the second cards alone (2) less good)
VARIANTS = (0, 1, 2, 3)

class _Question:
    """The question of the moment: its need and the stop flag every thread on it shares."""

    def __init__(self, need: int) -> None:
        self.need = need
        self.flag = bytearray(1)
        self.threads = 0


class ValueQuestions:
    """The value of one position, known to lie in [``lo``, ``hi``] (``guess``: where the
    first question goes). See the module's docstring."""

    def __init__(self, lo: int, hi: int, guess: int | None = None) -> None:
        if lo > hi:
            raise ValueError(f"an empty range of values: [{lo}, {hi}]")
        self.lo = lo
        self.hi = hi
        self.failed = False
        self._lock = threading.Lock()
        self._current: _Question | None = None
        self._next = guess if guess is not None and lo < guess <= hi else None
        self._gallop = Gallop()

    @property
    def done(self) -> bool:
        """The value is known, or a question gave up (``failed``)."""
        return self.failed or self.lo >= self.hi

    @property
    def value(self) -> int | None:
        """The value once it is known; None before, or when a question gave up."""
        return None if self.failed or self.lo < self.hi else self.lo

    # ---------------------------------------------------------------- threads

    def take(self) -> tuple[int, bytearray, int] | None:
        """The question of the moment for one more thread: its ``need``, its stop flag
        and the search order for this thread (the C search's ``variant``), or None when
        the value is known."""
        with self._lock:
            if self.done:
                return None
            q = self._current
            if q is None:
                q = self._current = _Question(self._choose())
            q.threads += 1
            return q.need, q.flag, VARIANTS[(q.threads - 1) % len(VARIANTS)]

    def give(self, need: int, bound: int) -> None:
        """The answer to the question at ``need``: the solver's fail-soft bound (at least
        ``bound`` when ``bound >= need``, else at most ``bound``). Any answer is a fact
        about the value; the first to the question of the moment also moves the gallop
        on and stops the other threads on it."""
        with self._lock:
            up = bound >= need
            if up:
                self.lo = max(self.lo, min(bound, self.hi))
            else:
                self.hi = min(self.hi, max(bound, self.lo))
            q = self._current
            if q is not None and q.need == need:
                self._current = None
                q.flag[0] = 1
                self._next = self._gallop.after(up, self.lo, self.hi)
            self._settled()

    def narrow(self, lo: int | None = None, hi: int | None = None,
               ask: int | None = None) -> None:
        """What is known from elsewhere: the value is at least ``lo``, at most ``hi``;
        ``ask``: the question worth asking next."""
        with self._lock:
            if lo is not None:
                self.lo = max(self.lo, min(lo, self.hi))
            if hi is not None:
                self.hi = min(self.hi, max(hi, self.lo))
            if ask is not None:
                self._next = ask
            self._settled()

    def fail(self) -> None:
        """A question gave up (its node budget): the value stays unknown; stops the rest."""
        with self._lock:
            self.failed = True
            self._settled()

    def work(self, ask: Callable[[int, bytearray, int], int]) -> None:
        """Ask questions until the value is known: ``ask(need, stop, variant)`` answers one
        with the solver's bound (raising :class:`SearchStopped` when told to stop: another
        thread answered it). A question past its budget (:class:`SearchLimitReached`)
        fails the search; any other error fails it too and is raised."""
        while (q := self.take()) is not None:
            need, flag, variant = q
            try:
                bound = ask(need, flag, variant)
            except SearchStopped:
                continue
            except SearchLimitReached:
                self.fail()
                return
            except BaseException:
                self.fail()
                raise
            self.give(need, bound)

    # ---------------------------------------------------------------- internals

    def _choose(self) -> int:
        n = self._next
        self._next = None
        if n is not None and self.lo < n <= self.hi:
            return n
        return (self.lo + self.hi + 1) // 2

    def _settled(self) -> None:
        """Stop the question of the moment if the range answers it already (or the search
        failed)."""
        q = self._current
        if q is not None and (self.done or not self.lo < q.need <= self.hi):
            q.flag[0] = 1
            self._current = None


__all__ = ["VARIANTS", "ValueQuestions"]

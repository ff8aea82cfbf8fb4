"""The exact value of one position, asked by several threads at once.

A value search (:meth:`engine.players.solver.Solver.value_within`) asks yes/no questions
("can the declarer win ``need`` points from here?") one after the other, each answer
narrowing the range the value lies in. :class:`ValueQuestions` hands such questions to
several threads: each takes a question no other thread is asking, and every answer narrows
the range for all of them. A question whose answer the range already holds is stopped (its
``stop`` flag, which the C search reads while it runs). With a table shared between the
threads' solvers, each question also finds what the others have searched.

The first question is the guess; while the answers go one way, the next one gallops
(each step twice the last, from the bound the last answer gave); once they turn, and for
every thread beyond the first, the widest stretch of values no question splits yet is
split in half. One thread asks exactly the questions of ``value_within``.

>>> q = ValueQuestions(0, 120, guess=61)
>>> q.take()[0], q.take()[0]      # the guess, then the middle of the wider stretch
(61, 30)
>>> q.give(61, 70)                # at least 70: the question at 30 is answered too
>>> q.lo, q.hi, q.stopped(30)
(70, 120, True)
>>> q.drop(30)
>>> q.give(q.take()[0], 70)       # the gallop's next question (71): at most 70
>>> q.done, q.value
(True, 70)
"""

from __future__ import annotations

import itertools
import threading
from collections.abc import Callable

from engine.players.solver import SearchLimitReached, SearchStopped

_UNSET = object()


class ValueQuestions:
    """The value of one position, known to lie in [``lo``, ``hi``] (``guess``: where the
    first question goes). See the module's docstring."""

    def __init__(self, lo: int, hi: int, guess: int | None = None) -> None:
        if lo > hi:
            raise ValueError(f"an empty range of values: [{lo}, {hi}]")
        self.lo = lo
        self.hi = hi
        self.failed = False
        self._cond = threading.Condition()
        self._asking: dict[int, bytearray] = {}  # need -> its stop flag
        self._next = guess if guess is not None and lo < guess <= hi else None
        self._rising: object = _UNSET  # the gallop's direction; None once it turned
        self._step = 1

    # ---------------------------------------------------------------- state

    @property
    def done(self) -> bool:
        """The value is known, or a question gave up (``failed``)."""
        return self.failed or self.lo >= self.hi

    @property
    def value(self) -> int | None:
        """The value once it is known; None before, or when a question gave up."""
        return None if self.failed or self.lo < self.hi else self.lo

    def stopped(self, need: int) -> bool:
        """Is the question at ``need`` being asked and told to stop?"""
        flag = self._asking.get(need)
        return flag is not None and bool(flag[0])

    # ---------------------------------------------------------------- threads

    def take(self) -> tuple[int, bytearray] | None:
        """The next question for a thread: its ``need`` and its stop flag (for the solver),
        or None when the value is known. Waits while every question worth asking is being
        asked by another thread."""
        with self._cond:
            while not self.done:
                need = self._choose()
                if need is not None:
                    flag = self._asking[need] = bytearray(1)
                    return need, flag
                self._cond.wait()
            return None

    def give(self, need: int, bound: int) -> None:
        """The answer to the question at ``need``: the solver's fail-soft bound (at least
        ``bound`` when ``bound >= need``, else at most ``bound``)."""
        with self._cond:
            self._asking.pop(need, None)
            up = bound >= need
            if up:
                self.lo = max(self.lo, min(bound, self.hi))
            else:
                self.hi = min(self.hi, max(bound, self.lo))
            if self._rising is _UNSET:
                self._rising = up
            elif self._rising is not None and up != self._rising:
                self._rising = None
            if self._rising is None:
                self._next = None
            elif self._rising:
                self._next = min(self.lo + self._step, self.hi)
                self._step *= 2
            else:
                self._next = max(self.hi - self._step + 1, self.lo + 1)
                self._step *= 2
            self._settled()

    def narrow(self, lo: int | None = None, hi: int | None = None,
               ask: int | None = None) -> None:
        """What is known from elsewhere: the value is at least ``lo``, at most ``hi``;
        ``ask``: the question worth asking next."""
        with self._cond:
            if lo is not None:
                self.lo = max(self.lo, min(lo, self.hi))
            if hi is not None:
                self.hi = min(self.hi, max(hi, self.lo))
            if ask is not None:
                self._next = ask
            self._settled()

    def drop(self, need: int) -> None:
        """The question at ``need`` stopped without an answer."""
        with self._cond:
            self._asking.pop(need, None)
            self._cond.notify_all()

    def fail(self) -> None:
        """A question gave up (its node budget): the value stays unknown; stops the rest."""
        with self._cond:
            self.failed = True
            for flag in self._asking.values():
                flag[0] = 1
            self._cond.notify_all()

    def work(self, ask: Callable[[int, bytearray], int]) -> None:
        """Ask questions until the value is known: ``ask(need, stop)`` answers one with the
        solver's bound (raising :class:`SearchStopped` when told to stop). A question
        past its budget (:class:`SearchLimitReached`) fails the search; any other error
        fails it too and is raised."""
        while (q := self.take()) is not None:
            need, flag = q
            try:
                bound = ask(need, flag)
            except SearchStopped:
                self.drop(need)
                continue
            except SearchLimitReached:
                self.fail()
                return
            except BaseException:
                self.fail()
                raise
            self.give(need, bound)

    # ---------------------------------------------------------------- internals

    def _choose(self) -> int | None:
        lo, hi = self.lo, self.hi
        n = self._next
        if n is not None and lo < n <= hi and n not in self._asking:
            self._next = None
            return n
        # the widest stretch of values lo..hi that no question splits yet
        cuts = sorted(n for n in self._asking if lo < n <= hi)
        edges = [lo, *cuts, hi + 1]
        a, b = max(itertools.pairwise(edges), key=lambda ab: ab[1] - ab[0])
        if b - a < 2:
            return None
        return a + (b - a) // 2

    def _settled(self) -> None:
        """Stop the questions the range answers already; wake waiting threads."""
        for n, flag in self._asking.items():
            if not self.lo < n <= self.hi:
                flag[0] = 1
        self._cond.notify_all()


__all__ = ["ValueQuestions"]

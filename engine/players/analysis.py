""""Could I have won?": the double-dummy analysis of a finished game.

With every hand open, the solver (:mod:`engine.players.solver`) says what the declarer can
force from any point of the play. This module asks it after every card of a game and keeps:

- whether the contract was makeable from the first lead with the declarer's actual discard
  (``start``) and, after a pick-up, with the best discard (``best_discard``);
- the double-dummy value after every card (the card points the declarer can force, skat
  included; in null only whether he can escape every trick) and whether he then makes it;
- for each side the first card after which the result turned against it (a card can only
  worsen the double-dummy result of the side that lays it), and every card that lost points.

Everything is computed with all cards open: it says what was possible, not what a player
could have known. The analysis is pure (no I/O; its independent parts may run in threads
of their own, see :func:`analyse`); the controller runs it in a worker so that it never
delays the next deal.

>>> from engine.deal import Deal
>>> from engine.players.rule import RulePlayer
>>> from engine.players.table import play_game
>>> g = play_game(Deal.shuffled(4), [RulePlayer(1), RulePlayer(2), RulePlayer(3)])
>>> a = analyse(g)
>>> a.contract, a.goal, a.start.makes, len(a.steps)
('G', '61', True, 30)
>>> Analysis.from_json(a.to_json()) == a
True
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.actions import Abort, Concede, Play
from engine.cards import Card, mask_points
from engine.contract import Contract, GameType
from engine.game import Game, Phase
from engine.players.solver import HAVE_C, SearchLimitReached, SearchStopped, Solver, tables
from engine.players.value_questions import ValueQuestions
from engine.scoring import suit_grand_value
from engine.trick import matadors, trick_winner

DECLARER = "declarer"
DEFENDERS = "defenders"
SIDES = (DECLARER, DEFENDERS)
VALUES = "values"  # full detail: the value after every card
OUTCOME = "outcome"  # the outcome only (made or not) after every card: the slow fallback
JSON_VERSION = 1
DISCARD_NODES_C = 20_000_000
DISCARD_NODES_PY = 300_000
# the transposition table of a game's questions (16 bytes an entry: 16 MB), shared by the
# threads of one analysis; half of it (the size the PIMC player uses) searched about 15 %
# more nodes
TT_ENTRIES = 1 << 20
# threads worth starting for one analysis (the first lead's questions, the trace, the
# discards)
MAX_WORKERS = 3


class AnalysisError(ValueError):
    """A game or position the analysis cannot work on (says why)."""


@dataclass(frozen=True)
class Point:
    """The double-dummy result at one point of the play.

    ``value``: the card points the declarer can force in the whole game (skat and the
    points already taken included); None in null or when only the outcome was computed.
    ``makes``: whether the declarer makes his contract with best play on both sides;
    None when the search gave up (node budget).
    """

    value: int | None
    makes: bool | None


@dataclass(frozen=True)
class Step:
    """One card laid and the double-dummy result right after it.

    ``index`` counts the cards of the play from 0, ``trick`` from 1; ``pos`` is the position
    (0 forehand, 1 middlehand, 2 rearhand) that laid ``card``.
    """

    index: int
    trick: int
    pos: int
    card: Card
    after: Point


@dataclass(frozen=True)
class BestDiscard:
    """After a pick-up: could the contract be made with some discard? ``discard`` is one that
    makes it (the actual one when it does), or None; ``makes`` None: not decided (budget)."""

    makes: bool | None
    discard: tuple[Card, Card] | None


@dataclass(frozen=True)
class Analysis:
    """The open-card analysis of one game (positions, not table seats).

    ``goal`` is what the declarer needs: ``"61"``/``"90"`` card points (90 when schneider is
    announced, or when only schneider lifts the game to the bid), ``"all"`` (every trick),
    ``"null"`` (no trick), ``"none"`` (no play reaches the bid: the game is lost anyway).
    ``detail`` is ``"values"`` or ``"outcome"`` (values not computed: the slow fallback).
    """

    contract: str
    declarer: int
    goal: str
    detail: str
    start: Point
    best_discard: BestDiscard | None
    steps: tuple[Step, ...]
    won: bool | None = None  # the actual result, for the sentence
    points: int | None = None
    complete: bool = field(default=True)  # False when a node budget left a point undecided

    # ---------------------------------------------------------------- derived answers

    @property
    def is_null(self) -> bool:
        return self.goal == "null"

    def side_of(self, pos: int) -> str:
        return DECLARER if pos == self.declarer else DEFENDERS

    def before(self, index: int) -> Point:
        """The result before card ``index`` (the start for the first card)."""
        return self.start if index == 0 else self.steps[index - 1].after

    def turned(self, side: str) -> Step | None:
        """The first card after which the game's double-dummy result turned against ``side``:
        the declarer's card after which he no longer makes it, or a defender's card after
        which he does. None when it never turned against that side.

        >>> a = Analysis("G", 0, "61", VALUES, Point(70, True), None, (
        ...     Step(0, 1, 0, Card.CJ, Point(50, False)),
        ...     Step(1, 1, 1, Card.SJ, Point(66, True))))
        >>> str(a.turned(DECLARER).card), str(a.turned(DEFENDERS).card)
        ('CJ', 'SJ')
        """
        if side not in SIDES:
            raise AnalysisError(f"side must be one of {SIDES}, not {side!r}")
        bad_for_declarer = side == DECLARER
        for s in self.steps:
            b, a = self.before(s.index).makes, s.after.makes
            if b is None or a is None or self.side_of(s.pos) != side:
                continue
            if b == bad_for_declarer and a != bad_for_declarer:
                return s
        return None

    def lost(self, index: int) -> int | None:
        """Card points the card ``index`` gave away (0: it was a best card; None: unknown)."""
        s = self.steps[index]
        b, a = self.before(index).value, s.after.value
        if b is None or a is None:
            return None
        return b - a if s.pos == self.declarer else a - b

    def losing_cards(self, side: str | None = None) -> list[tuple[Step, int]]:
        """Every card that lost points, with how many (of ``side`` only when given)."""
        out = []
        for s in self.steps:
            n = self.lost(s.index)
            if n and (side is None or self.side_of(s.pos) == side):
                out.append((s, n))
        return out

    def deciding(self) -> Step | None:
        """The card that decided the game as it ended: the last card that turned the result to
        the actual outcome (in null: the card that let the declarer be caught, or escape).
        None when the result was the same from the first lead on."""
        last = None
        for s in self.steps:
            b, a = self.before(s.index).makes, s.after.makes
            if b is not None and a is not None and b != a:
                last = s
        if last is not None and self.won is not None and last.after.makes != self.won:
            return None
        return last

    # ---------------------------------------------------------------- JSON

    def to_json(self) -> dict[str, Any]:
        def point(p: Point) -> dict[str, Any]:
            return {"value": p.value, "makes": p.makes}

        turned = {}
        for side in SIDES:
            t = self.turned(side)
            turned[side] = None if t is None else t.index
        return {
            "version": JSON_VERSION,
            "contract": self.contract,
            "declarer": self.declarer,
            "goal": self.goal,
            "detail": self.detail,
            "complete": self.complete,
            "start": point(self.start),
            "best_discard": None if self.best_discard is None else {
                "makes": self.best_discard.makes,
                "discard": None if self.best_discard.discard is None
                else [str(c) for c in self.best_discard.discard],
            },
            "cards": [
                {"trick": s.trick, "pos": s.pos, "card": str(s.card), **point(s.after)}
                for s in self.steps
            ],
            "won": self.won,
            "points": self.points,
            # derived, for readers that do not load this module (the club server)
            "turned": turned,
            "lost": [{"index": s.index, "pos": s.pos, "points": n}
                     for s, n in self.losing_cards()],
        }

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Analysis:
        """Read :meth:`to_json` back; bad input raises :class:`AnalysisError`."""
        try:
            if d.get("version") != JSON_VERSION:
                raise AnalysisError(f"analysis version {d.get('version')!r} is not "
                                    f"{JSON_VERSION}")
            bd = d["best_discard"]
            steps = tuple(
                Step(i, int(c["trick"]), int(c["pos"]), Card.parse(c["card"]),
                     Point(c["value"], c["makes"]))
                for i, c in enumerate(d["cards"])
            )
            return cls(
                contract=str(d["contract"]), declarer=int(d["declarer"]), goal=str(d["goal"]),
                detail=str(d["detail"]), start=Point(d["start"]["value"], d["start"]["makes"]),
                best_discard=None if bd is None else BestDiscard(
                    bd["makes"],
                    None if bd["discard"] is None
                    else tuple(Card.parse(c) for c in bd["discard"])),  # type: ignore[arg-type]
                steps=steps, won=d.get("won"), points=d.get("points"),
                complete=bool(d.get("complete", True)),
            )
        except (KeyError, TypeError, ValueError) as exc:
            if isinstance(exc, AnalysisError):
                raise
            raise AnalysisError(f"not an analysis record: {exc}") from exc


# ------------------------------------------------------------------------- the goal


def goal_of(contract: Contract, bid: int, matador_count: int) -> str:
    """What the declarer needs with open cards: ``"61"``, ``"90"``, ``"all"``, ``"null"`` or
    ``"none"`` (an overbid no play can mend).

    >>> goal_of(Contract.parse("C"), 18, 1)
    '61'
    >>> goal_of(Contract.parse("D"), 30, 1)    # diamonds with 1: 18; schneider makes 27
    'all'
    >>> goal_of(Contract.parse("D"), 46, 1)
    'none'
    """
    if contract.game == GameType.NULL:
        return "null"
    if contract.game == GameType.RAMSCH:
        raise AnalysisError("a Ramsch has no declarer to analyse")
    if contract.schwarz:
        return "all"
    for points, name in ((61, "61"), (90, "90")):
        if suit_grand_value(contract, bid, matador_count, points, 9)[0]:
            return name
    if suit_grand_value(contract, bid, matador_count, 120, 10)[0]:
        return "all"
    return "none"


# ------------------------------------------------------------------------- positions


@dataclass
class Position:
    """A point of the play, with what the side of the declarer has so far.

    ``taken``: the declarer's card points so far (skat included in suit and grand);
    ``declarer_tricks`` and ``defender_tricks`` count completed tricks.
    """

    hands: list[int]
    leader: int
    trick: list[int]
    taken: int = 0
    declarer_tricks: int = 0
    defender_tricks: int = 0

    def copy(self) -> Position:
        return Position(list(self.hands), self.leader, list(self.trick), self.taken,
                        self.declarer_tricks, self.defender_tricks)

    @property
    def to_play(self) -> int:
        return (self.leader + len(self.trick)) % 3

    def left(self) -> int:
        """Card points still out (in hands and in the trick on the table)."""
        return mask_points(self.hands[0] | self.hands[1] | self.hands[2]) + sum(
            mask_points(1 << c) for c in self.trick)

    def lay(self, card: int, game: int, declarer: int) -> None:
        pos = self.to_play
        if not self.hands[pos] >> card & 1:
            raise AnalysisError(f"position {pos} does not hold {Card(card)}")
        self.hands[pos] &= ~(1 << card)
        self.trick.append(card)
        if len(self.trick) == 3:
            w = (self.leader + trick_winner(self.trick, game)) % 3
            if w == declarer:
                self.declarer_tricks += 1
                if game != GameType.NULL:
                    self.taken += sum(mask_points(1 << c) for c in self.trick)
            else:
                self.defender_tricks += 1
            self.leader = w
            self.trick = []


def laid_one_by_one(start: Position, cards: Sequence[int], game: int, declarer: int
                    ) -> Iterator[tuple[int, int, int, Card, Position]]:
    """``cards`` laid in turn from ``start`` (not changed): for each its index, trick number
    (from 1), the position that laid it, the card and the position right after it (one
    position, changed in place: copy it to keep it)."""
    p = start.copy()
    trick_no = (30 - sum(h.bit_count() for h in p.hands) - len(p.trick)) // 3 + 1
    for i, c in enumerate(cards):
        pos = p.to_play
        trick = trick_no
        p.lay(int(c), game, declarer)
        if not p.trick:
            trick_no += 1
        yield i, trick, pos, Card(c), p


class Analyser:
    """The solver questions of one game type, declarer and goal.

    ``detail``: ``"values"`` (the exact value after every card; suit and grand) or
    ``"outcome"`` (only made or not). ``max_nodes`` (0: none) bounds each solver question;
    a question past it is left undecided (None). ``tt``: the C core's table, shared with
    the analysers of other threads (see :class:`engine.players.solver.Solver`).
    """

    def __init__(self, game: int, declarer: int, goal: str, detail: str = VALUES,
                 use_c: bool | None = None, max_nodes: int = 0,
                 tt: bytearray | None = None) -> None:
        if detail not in (VALUES, OUTCOME):
            raise AnalysisError(f"detail must be {VALUES!r} or {OUTCOME!r}, not {detail!r}")
        if goal not in ("61", "90", "all", "null", "none"):
            raise AnalysisError(f"unknown goal {goal!r}")
        if (goal == "null") != (game == GameType.NULL):
            raise AnalysisError(f"goal {goal!r} does not fit game type {game}")
        self.game = game
        self.declarer = declarer
        self.goal = goal
        self.detail = detail
        self.solver = Solver(game, declarer, use_c=use_c, max_nodes=max_nodes,
                             tt_entries=TT_ENTRIES, tt=tt)
        self.undecided = 0
        # the whole best-discard search: a few seconds at most (null positions can need
        # tens of millions of nodes per discard)
        self.discard_nodes = DISCARD_NODES_C if self.solver.uses_c else DISCARD_NODES_PY

    @property
    def values(self) -> bool:
        return self.detail == VALUES and self.game != GameType.NULL

    def _reaches(self, p: Position, total: int) -> bool | None:
        try:
            return self.solver.reaches(p.hands, p.leader, p.trick, total - p.taken)
        except SearchLimitReached as exc:
            return self._gave_up(exc)

    def _gave_up(self, exc: SearchLimitReached) -> None:
        """A question past its budget is undecided (None); one another thread stopped is
        not counted (its answer was not wanted)."""
        if not isinstance(exc, SearchStopped):
            self.undecided += 1

    def _over(self, p: Position) -> bool:
        return not p.trick and not any(p.hands)

    def makes(self, p: Position, value: int | None = None) -> bool | None:
        """Does the declarer make his goal from ``p`` (``value``: the known value there)?"""
        g = self.goal
        if g == "none":
            return False
        if g == "null":
            if p.declarer_tricks:
                return False
            if self._over(p):
                return True
            try:
                return self.solver.null_won(p.hands, p.leader, p.trick)
            except SearchLimitReached as exc:
                return self._gave_up(exc)
        if g == "all":
            if p.defender_tricks:
                return False
            if self._over(p):
                return True
            try:
                return self.solver.takes_all(p.hands, p.leader, p.trick)
            except SearchLimitReached as exc:
                return self._gave_up(exc)
        need = int(g)
        if value is not None:
            return value >= need
        if self._over(p):
            return p.taken >= need
        return self._reaches(p, need)

    def value(self, p: Position, known: int | None = None, at_most: bool = True,
              guess: int | None = None) -> int | None:
        """The points the declarer can force in the whole game from ``p``. ``known`` is the
        value before the card just laid: the declarer's own card can only keep or lower the
        value, a defender's only keep or raise it, so the value at ``p`` is at most ``known``
        (``at_most``) or at least it, and one question usually settles it. Without ``known``,
        ``guess`` (the points the declarer took in the game, say) is where the questions
        start (:meth:`engine.players.solver.Solver.value_within`).
        """
        if not self.values:
            return None
        if self._over(p):
            return p.taken
        lo, hi = p.taken, p.taken + p.left()  # the answer lies in [lo, hi]
        if known is not None:
            if at_most:
                hi = min(hi, known)
                guess = known  # does the card keep the value?
            else:
                lo = max(lo, known)
                guess = known + 1  # does the card give more away?
        if guess is not None:
            guess = min(max(guess, lo + 1), hi) - p.taken
        try:
            return p.taken + self.solver.value_within(p.hands, p.leader, p.trick,
                                                      lo - p.taken, hi - p.taken, guess)
        except SearchLimitReached as exc:
            return self._gave_up(exc)

    def point(self, p: Position, known: int | None = None, at_most: bool = True,
              guess: int | None = None) -> Point:
        v = self.value(p, known, at_most, guess)
        return Point(v, self.makes(p, v))

    def questions(self, p: Position, guess: int | None = None) -> ValueQuestions | None:
        """The value at ``p`` as questions for several threads (:meth:`work_on`), points
        from ``p`` on (``p.taken`` not counted); None when there is no value to search
        (null, outcome only, no cards left)."""
        if not self.values or self._over(p):
            return None
        left = p.left()
        if guess is not None:
            guess = min(max(guess - p.taken, 1), left)
        return ValueQuestions(0, left, guess)

    def work_on(self, p: Position, questions: ValueQuestions) -> None:
        """Ask ``questions`` (of the value at ``p``) with this analyser's solver until the
        value is known; other threads may ask them at the same time."""

        def ask(need: int, stop: bytearray, variant: int) -> int:
            self.solver.stop = stop
            self.solver.variant = variant
            try:
                return self.solver.bound(p.hands, p.leader, p.trick, need)
            except SearchLimitReached as exc:
                self._gave_up(exc)
                raise
            finally:
                self.solver.stop = None
                self.solver.variant = 0

        questions.work(ask)

    def point_of(self, p: Position, questions: ValueQuestions | None) -> Point:
        """The result at ``p`` once ``questions`` are done (None: :meth:`point`)."""
        if questions is None:
            return self.point(p)
        v = questions.value
        value = None if v is None else p.taken + v
        return Point(value, self.makes(p, value))

    def trace(self, start: Position, cards: Sequence[int], guess: int | None = None
              ) -> tuple[Point, list[Step]]:
        """The result at ``start`` and after each of ``cards`` laid in turn from there;
        ``guess``: a guess of the value at ``start`` (see :meth:`value`).

        The value before a card bounds the value after it (see :meth:`value`), so after the
        first point one question usually settles each card. (Solving from the last card back
        was tried: slower, as the late positions off the best line teach the table little.)
        """
        first = self.point(start.copy(), guess=guess)
        prev = first
        steps = []
        for i, trick, pos, card, p in laid_one_by_one(start, cards, self.game, self.declarer):
            after = self.point(p, prev.value, at_most=pos == self.declarer)
            steps.append(Step(i, trick, pos, card, after))
            prev = after
        return first, steps

    def trace_back(self, start: Position, cards: Sequence[int]) -> list[Step]:
        """The steps of :meth:`trace` without the result at ``start``, solved from the last
        card back: the value after a card bounds the value before it as the value before
        bounds the one after (:meth:`value`), so it needs no first value and can run beside
        the question of the first lead (:func:`analyse` with workers).
        """
        # (index, trick, pos, card, position after it)
        laid = [(i, trick, pos, card, p.copy()) for i, trick, pos, card, p
                in laid_one_by_one(start, cards, self.game, self.declarer)]
        after: list[Point] = [Point(None, None)] * len(laid)
        nxt: Point | None = None
        for k in range(len(laid) - 1, -1, -1):
            if nxt is None:
                after[k] = self.point(laid[k][4])
            else:
                # card k + 1 was laid here: a declarer's card keeps or lowers the value, so
                # the value here is at least the one after it; a defender's, at most
                at_most = laid[k + 1][2] != self.declarer
                after[k] = self.point(laid[k][4], nxt.value, at_most=at_most)
            nxt = after[k]
        return [Step(i, trick, pos, card, a)
                for (i, trick, pos, card, _), a in zip(laid, after, strict=True)]


# ------------------------------------------------------------------------- whole games


def first_lead(game: Game) -> Game:
    """The game as it stood at its first lead (contract declared, skat laid away)."""
    g = Game(game.deal, game.rules)
    for a in game.actions:
        if isinstance(a, Play | Concede | Abort):
            break
        g.push(a)
    if g.phase != Phase.PLAY or g.contract is None or g.declarer is None or g.is_ramsch:
        raise AnalysisError("the game has no declarer's contract in play to analyse")
    return g


def default_detail() -> str:
    """What a table computes by default: every value with the C core, the outcome only with
    the pure-Python search (about 20 times slower; too slow on a Pi for every value)."""
    return VALUES if HAVE_C else OUTCOME


def default_workers() -> int:
    """Threads :func:`analyse` uses by default: one for each of its three independent parts
    (the first lead's value, the trace, the best discard), at most one per core."""
    return max(1, min(MAX_WORKERS, os.cpu_count() or 1))


def analyse(game: Game, detail: str | None = None, use_c: bool | None = None,
            best_discard: bool = True, max_nodes: int = 0,
            workers: int | None = None) -> Analysis:
    """The double-dummy analysis of ``game`` (finished or not: the cards laid so far).

    ``detail`` defaults to :func:`default_detail`; ``best_discard`` searches the discards of
    a pick-up game when the actual one does not make it; ``max_nodes`` bounds each solver
    question (the points it leaves undecided are None, and ``complete`` is False).
    ``workers`` (default :func:`default_workers`) is the number of threads. They share one
    16 MB table and ask the first lead's questions together (:class:`ValueQuestions`),
    one of them first solving the trace from the last card back (whose first value bounds
    the first lead's); then they try the other discards together (the C search runs
    outside the GIL). The answers are the same with any number of workers; the
    pure-Python search runs on one thread.
    Passed-in games, Ramsch and games that ended before a contract was in play raise
    :class:`AnalysisError`.
    """
    if detail is None:
        detail = default_detail()
    if workers is None:
        workers = default_workers()
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise AnalysisError(f"workers must be a whole number of at least 1, not {workers!r}")
    g0 = first_lead(game)
    contract = g0.contract
    declarer = g0.declarer
    assert contract is not None and declarer is not None
    gt = int(contract.game)
    goal = "null" if gt == GameType.NULL else goal_of(
        contract, g0.bid, matadors(g0.declarer_cards(), gt))
    an = Analyser(gt, declarer, goal, detail, use_c=use_c, max_nodes=max_nodes)
    skat_points = 0 if gt == GameType.NULL else mask_points(g0.skat)
    start = Position(list(g0.hands), 0, [], taken=skat_points)
    cards = [a.card for a in game.actions if isinstance(a, Play)]
    result = game.result
    # the points the declarer took: the value with best play is often near them
    guess = None if result is None or result.points is None else result.points
    want_discard = g0.skat_taken and best_discard
    helpers: list[Analyser] = []
    bd = None
    if workers == 1 or not an.solver.uses_c:  # Python holds the GIL: threads gain nothing
        first, steps = an.trace(start, cards, guess)
        if want_discard:
            bd = _best_discard(an, g0, first.makes)
    else:
        # One table for every thread (the same game type and declarer throughout). The
        # first lead's value is the dearest part: this thread starts on its questions, a
        # second solves the trace from the last card back (whose first value bounds the
        # first lead's) and then asks them too, as the others do from the start (each
        # question asked by every thread at once, searched in different orders:
        # ValueQuestions). Then all try the discards.
        helpers = [Analyser(gt, declarer, goal, detail, use_c=use_c, max_nodes=max_nodes,
                            tt=an.solver.table) for _ in range(workers - 1)]
        questions = an.questions(start, guess)
        discards = _Handover()
        parts = [_Beside(_trace_then_help, h, start, cards if k == 0 else None, questions,
                         discards) for k, h in enumerate(helpers)]
        search = None
        try:
            if questions is not None:
                an.work_on(start, questions)
            first = an.point_of(start, questions)
            if want_discard:
                search = _DiscardSearch(an, g0, first.makes)
        finally:
            discards.put(search)  # None (no discards, or an error here): the others stop
        if search is not None:
            search.run(an)
        steps = parts[0].result()
        for part in parts[1:]:
            part.result()
        if search is not None:
            bd = search.answer()
    return Analysis(
        contract=str(contract), declarer=declarer, goal=goal, detail=detail, start=first,
        best_discard=bd, steps=tuple(steps),
        won=None if result is None else result.won,
        points=None if result is None else result.points,
        complete=an.undecided + sum(h.undecided for h in helpers) == 0,
    )


def discard_choices(game: int, twelve: int, others: int) -> list[tuple[int, int]]:
    """The discards of the declarer's ``twelve`` cards worth searching: two cards of one
    following group with no card of ``others`` (the defenders' hands) between them and, in
    suit and grand, the same points, are interchangeable (which of the two lies in the skat
    changes nothing), so only one pair of each kind is kept.

    >>> from engine.cards import parse_mask
    >>> twelve = parse_mask("C7 C8 C9 CT S7 S8 H7 H9 D7 D8 DT DA")
    >>> len(discard_choices(5, twelve, parse_mask("HT HA")))   # null: 4 runs, not 66 pairs
    10
    """
    t = tables(game)
    null = game == GameType.NULL
    runs: list[list[int]] = []
    prev = -1
    for i in range(32):
        c = t.to_engine[i]
        if not twelve >> c & 1:
            continue
        if prev >= 0 and t.cls_mask[prev] == t.cls_mask[i] and (
                null or t.points[prev] == t.points[i]) and not (
                t.internal(others) & ((1 << i) - (2 << prev))):
            runs[-1].append(c)
        else:
            runs.append([c])
        prev = i
    out = []
    for a, ra in enumerate(runs):
        if len(ra) > 1:
            out.append((ra[0], ra[1]))
        out += [(ra[0], rb[0]) for rb in runs[a + 1:]]
    return out


class _Beside:
    """A call run on a thread of its own; :meth:`result` waits for it and returns its value
    or raises its exception. The thread is a daemon: a table shutting down does not wait
    for an analysis, as it does not for the worker that runs it."""

    def __init__(self, fn: Callable[..., Any], *args: Any) -> None:
        self._value: Any = None
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, args=(fn, args), daemon=True,
                                        name="analysis-part")
        self._thread.start()

    def _run(self, fn: Callable[..., Any], args: tuple[Any, ...]) -> None:
        try:
            self._value = fn(*args)
        except BaseException as exc:  # handed to the caller by result()
            self._error = exc

    def result(self) -> Any:
        self._thread.join()
        if self._error is not None:
            raise self._error
        return self._value


def _trace_then_help(an: Analyser, start: Position, cards: Sequence[int] | None,
                     questions: ValueQuestions | None, discards: _Handover) -> list[Step]:
    """A thread beside the first lead's: the trace solved backwards (``cards``; None: no
    trace), whose value after the first card bounds the first lead's (the leader's card
    keeps or lowers his side's value: see :meth:`Analyser.value`; the question at that
    bound goes next, and settles it when the first card was a best one); then the first
    lead's questions; then the discards once they are handed over (None: none)."""
    steps = [] if cards is None else an.trace_back(start, cards)
    if questions is not None:
        after = steps[0].after.value if steps else None
        if after is not None:
            v = after - start.taken
            if steps[0].pos == an.declarer:
                questions.narrow(lo=v, ask=v + 1)
            else:
                questions.narrow(hi=v, ask=v)
        an.work_on(start, questions)
    search = discards.get()
    if search is not None:
        search.run(an)
    return steps


class _Handover:
    """One value handed from one thread to others (the discard search, made once the first
    lead's result is known)."""

    def __init__(self) -> None:
        self._ready = threading.Event()
        self._value: Any = None

    def put(self, value: Any) -> None:
        self._value = value
        self._ready.set()

    def get(self) -> Any:
        self._ready.wait()
        return self._value


def _discards(an: Analyser, g0: Game) -> list[tuple[tuple[Card, Card], Position]]:
    """The other discards worth trying (one of each kind of pair, :func:`discard_choices`),
    the richest first (their points count for the declarer), each with its first lead."""
    d = an.declarer
    twelve = g0.hands[d] | g0.skat
    others = g0.hands[(d + 1) % 3] | g0.hands[(d + 2) % 3]
    pairs = discard_choices(an.game, twelve, others)
    if an.game != GameType.NULL:
        pairs.sort(key=lambda ab: -mask_points(1 << ab[0] | 1 << ab[1]))
    out = []
    for a, b in pairs:
        skat = 1 << a | 1 << b
        if skat == g0.skat:
            continue
        hands = list(g0.hands)
        hands[d] = twelve & ~skat
        p = Position(hands, 0, [], taken=0 if an.game == GameType.NULL else mask_points(skat))
        out.append((tuple(sorted((Card(a), Card(b)), reverse=True)), p))
    return out  # type: ignore[return-value]


def _best_discard(an: Analyser, g0: Game, actual_makes: bool | None) -> BestDiscard:
    """Is there a discard with which the contract makes it? The actual one when it does;
    else the first of :func:`_discards` that does, within a node budget (past it:
    undecided)."""
    search = _DiscardSearch(an, g0, actual_makes)
    search.run(an)
    return search.answer()


class _DiscardSearch:
    """:func:`_best_discard` on any number of threads (one analyser each, sharing one
    table), which may join at any time (:meth:`run`): each takes the next discard; one
    that makes it stops those after it, and the answer is the first that makes it, as on
    one thread. The node budget (``an.discard_nodes``) is shared."""

    def __init__(self, an: Analyser, g0: Game, actual_makes: bool | None) -> None:
        self.actual_makes = actual_makes
        self.goal = an.goal
        self.skat = g0.skat
        self.budget = an.discard_nodes
        self.tries = [] if actual_makes or an.goal == "none" else _discards(an, g0)
        # None: not answered (not tried, stopped, or past the budget)
        self.answers: list[bool | None] = [None] * len(self.tries)
        self.made = len(self.tries)  # the first try that makes it
        self.spent = 0
        self._next = 0
        self._asking: dict[int, bytearray] = {}
        self._lock = threading.Lock()

    def run(self, a: Analyser) -> None:
        solver = a.solver
        saved = solver.max_nodes
        try:
            while (taken := self._take()) is not None:
                i, flag, left = taken
                solver.max_nodes = left if not saved else min(saved, left)
                solver.stop = flag
                before = solver.nodes
                try:
                    m = a.makes(self.tries[i][1])
                finally:
                    solver.stop = None
                self._give(i, flag, m, solver.nodes - before)
        finally:
            solver.max_nodes = saved

    def _take(self) -> tuple[int, bytearray, int] | None:
        with self._lock:
            i = self._next
            left = self.budget - self.spent
            if i >= self.made or left <= 0:
                return None
            self._next = i + 1
            flag = self._asking[i] = bytearray(1)
            return i, flag, left

    def _give(self, i: int, flag: bytearray, m: bool | None, nodes: int) -> None:
        with self._lock:
            self.spent += nodes
            del self._asking[i]
            if flag[0]:
                return  # stopped: a discard before it makes it
            self.answers[i] = m
            if m and i < self.made:
                self.made = i
                for j, f in self._asking.items():
                    if j > i:
                        f[0] = 1

    def answer(self) -> BestDiscard:
        if self.actual_makes:
            actual = tuple(sorted((Card(c) for c in range(32) if self.skat >> c & 1),
                                  reverse=True))
            return BestDiscard(True, actual)  # type: ignore[arg-type]
        if self.goal == "none":
            return BestDiscard(False, None)
        if self.made < len(self.tries):
            return BestDiscard(True, self.tries[self.made][0])
        if self.actual_makes is None or None in self.answers:
            return BestDiscard(None, None)
        return BestDiscard(False, None)

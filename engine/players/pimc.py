"""The main computer player: Perfect-Information Monte Carlo card play under a time budget.

For a card decision the player samples *worlds*, deals of the cards it cannot see that agree
with everything its seat knows (cards played, suits a player showed void in, the skat for the
declarer who took it, the open hand in ouvert, the declarer's bid: his cards must make a game
worth it). Each world is solved double-dummy (:mod:`engine.players.solver`) for every card it
may lay, and the card that reaches the goal in the most worlds is played. The goal is the
contract's: 61 (90 with schneider announced, every trick with schwarz announced), no trick for
the null declarer; where a world's outcome does not depend on the card, schneider decides.

It is anytime: worlds are solved until the budget (seconds per decision, default 1.0) is
spent, spread over worker processes; with ``worlds=N`` it solves exactly N worlds instead,
and then the same seed gives the same decisions whatever the number of workers.

Bidding, hand or skat come from the hand evaluation (as the rule player); after taking the
skat, the few best (contract, discard) choices are compared by solving sampled deals of the
opponents' cards.

>>> from engine.deal import Deal
>>> from engine.players.table import play_game
>>> p = PimcPlayer(seed=1, worlds=4, workers=1)
>>> g = play_game(Deal.shuffled(3), [p, p, p])
>>> g.result is not None
True
"""

from __future__ import annotations

import contextlib
import dataclasses
import multiprocessing
import os
import random
import time
from collections.abc import Iterable
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field

from engine.actions import Action, Concede, Declare, Discard, Play
from engine.cards import RANK_POINTS, mask_points
from engine.contract import GameType
from engine.game import Phase
from engine.players import evaluate as ev
from engine.players import house
from engine.players.base import SeatView, require_turn
from engine.players.declaring import Declaring
from engine.players.rollout import playout_wins
from engine.players.rule import RulePlayer
from engine.players.solver import SearchLimitReached, SearchTimedOut, Solver, tables
from engine.players.worlds import (
    DEFAULT_BUDGET,
    Knowledge,
    _cards_mask,
    _equivalent_groups,
    _solver,
    clear_solvers,
    knowledge_of,
    sample_world,
)
from engine.trick import FOLLOW, TRUMPS, trick_winner

# At a time budget, the share of the time for the goal of every candidate before the
# schneider question is asked between the leading ones (PimcPlayer._solve).
GOAL_SHARE = 0.65
# evaluate_world (the perfect-information player, the decisions' truth): a world where the
# card does not change the result still counts this much for schneider.
SCHNEIDER_WEIGHT = 0.25
# Contracts within this much evaluated strength of the best one are compared by search,
# and the search decides only when it solved at least this many deals.
CLOSE_CHOICE = 1.5
MIN_PLAN_WORLDS = 8
# A hand game this close to the evaluation's safe strength is checked by search (the rule
# player itself plays hand only 2.0 above it).
HAND_CLOSE = 0.5
# A defender's opening lead is not the ace of a side suit of which he holds at least this
# many cards (``PimcPlayer(long_ace=True)``, ``pimc+longace``, leads it when the worlds say
# so). Measured on the first trick's critical defence positions (``skat-table decisions``):
# right where the plain worlds erred 12 times, the other way 3, in 594 positions of 30 deal
# seeds.
LONG_ACE = 4
# Racing (at a time budget): after each world from the RACE_MIN_WORLDS-th on, a card whose
# worlds won trail the best card's by more than RACE_MARGIN + RACE_SHARE * worlds is not
# solved in the decision's later worlds, so the cards still in the race get more of them
# (the opening lead has up to nine cards to solve in each world, most of them clearly
# worse after a few worlds). Off by default (``PimcPlayer(race=True)``, ``pimc+race``):
# measured at 0.2 s it neither gave the first trick more worlds (cards are seldom clearly
# behind after the three to eight worlds solved there) nor changed the errors
# (docs/players.md, "Card play, decision by decision").
RACE_MIN_WORLDS = 2
RACE_MARGIN = 1.0
RACE_SHARE = 0.1
# At a time budget the schneider question is asked only when the goal round solved at least
# this many worlds; with fewer (the first tricks: a world there costs tens of milliseconds)
# the whole budget goes to the goal, and the rule player's card decides between the cards
# tied on it. Measured at 12 worlds the schneider question made no difference on the first
# trick (``skat-table decisions``); at 0.2 s it took a sixth to a quarter of the first
# trick's time.
SCHNEIDER_MIN_WORLDS = 8
# The declarer concedes only when at least this many worlds agree he is lost and schneider.
MIN_CONCEDE_WORLDS = 12
# A card decided after a Kontra/Re was considered in the same decision gets what is left of
# the budget, but at least this share of it.
MIN_CARD_SHARE = 0.4
# Playouts (``PimcPlayer(rollout=...)``, engine.players.rollout): at a budget, the share of a
# decision's time they get (the double-dummy worlds the rest).
ROLLOUT_SHARE = 0.5
ROLLOUT_MODES = ("pure", "mix", "ties")
ROLLOUT_MODE = "ties"  # the harness player pimc+rollout's


# ---------------------------------------------------------------------- solving


def evaluate_world(k: Knowledge, hands: list[int], skat: int, deadline: float | None = None,
                   exact: bool = False) -> list[float] | None:
    """For each candidate card: 1 if this seat's side reaches its goal in this world (plus
    the schneider tie-break where the card does not matter), from this seat's view.

    None if ``deadline`` passed before every candidate was solved (the world is dropped, so
    all candidates are always compared on the same worlds). ``exact`` lifts the node budget
    (the perfect-information player: one world, no guessing)."""
    solver = _solver(k.game, k.declarer)
    budget = solver.max_nodes
    if exact:
        solver.max_nodes = 0
    try:
        with solver.until(deadline):
            return _world_scores(k, solver, hands, skat)
    except SearchTimedOut:
        return None
    finally:
        solver.max_nodes = budget


def _world_scores(k: Knowledge, solver: Solver, hands: list[int], skat: int) -> list[float]:
    me_decl = k.me == k.declarer
    primary = [_outcome(k, solver, hands, skat, c, _goal(k)) for c in k.candidates]
    scores = [float(r == me_decl) for r in primary]
    if k.game != ev.NULL and not k.schwarz and len(set(primary)) == 1:
        # the result does not depend on the card: play for (or against) schneider
        level = 90 if primary[0] else 31
        if level == 90 and k.schneider:
            return scores
        second = [_outcome(k, solver, hands, skat, c, level) for c in k.candidates]
        scores = [s + SCHNEIDER_WEIGHT * float(r == me_decl) for s, r in zip(scores, second,
                                                                             strict=True)]
    return scores


def _goal(k: Knowledge) -> int:
    if k.schwarz:
        return -1  # every trick
    return 90 if k.schneider else 61


def _outcome(k: Knowledge, solver: Solver, hands: list[int], skat: int, card: int,
             goal: int) -> bool:
    """Does the declarer reach ``goal`` (points; -1 every trick; null: no trick) after
    this seat lays ``card``?"""
    h = list(hands)
    h[k.me] &= ~(1 << card)
    trick = (*k.trick, card)
    leader = k.leader
    points = k.declarer_points + (0 if k.game == ev.NULL else mask_points(skat))
    if len(trick) == 3:
        winner = (leader + trick_winner(trick, k.game)) % 3
        if winner == k.declarer:
            if k.game == ev.NULL:
                return False
            points += sum(RANK_POINTS[c & 7] for c in trick)
        elif goal == -1:
            return False
        leader, trick = winner, ()
    if k.game == ev.NULL:
        if not (h[0] | h[1] | h[2]):
            return True
        return solver.null_won(h, leader, trick)
    if goal == -1:
        if not (h[0] | h[1] | h[2]):
            return True
        return solver.takes_all(h, leader, trick)
    need = goal - points
    if need <= 0:
        return True
    if not (h[0] | h[1] | h[2]) and not trick:
        return False
    return solver.reaches(h, leader, trick, need)


@dataclass
class Tally:
    """What a batch of worlds said, from this seat's side.

    ``wins[j]``: the worlds where candidate ``j`` reaches the side's goal; ``schneider[j]``
    (for the candidates ``asked``, aligned with them): the worlds where the card made no
    difference to the goal and it wins the schneider question (play for 90, or stay above
    30); ``flat``: the worlds (index, schneider level) where the card made no difference and
    the question was not asked yet; ``next``: the first world index this batch did not
    finish (a worker goes on from there). ``live``: the candidates still solved when the
    batch ended (racing drops the others, whose ``wins`` then count fewer worlds);
    ``reached``: each world's index and the candidates (a bit each) after which the
    declarer reaches the goal, among those solved in it; ``asked_worlds``: the worlds whose
    schneider question was answered (``schneider`` counts among those)."""

    wins: list[int]
    schneider: list[int]
    solved: int
    flat: list[tuple[int, int]]
    next: int | None = None
    live: tuple[int, ...] = ()
    reached: list[tuple[int, int]] = field(default_factory=list)
    asked_worlds: int = 0


def _schneider_level(k: Knowledge, reached: bool) -> int | None:
    """The schneider question of a world where the card does not change the result."""
    if k.game == ev.NULL or k.schwarz:
        return None
    level = 90 if reached else 31
    return None if level == 90 and k.schneider else level


def race_margin(solved: int) -> float:
    """Racing: after ``solved`` worlds, a card whose worlds won trail the best card's by
    more than this is not solved in the later worlds of the decision.

    >>> race_margin(2), race_margin(12), race_margin(40)
    (1.2, 2.2, 5.0)
    """
    return RACE_MARGIN + RACE_SHARE * solved


def run_worlds(k: Knowledge, indices: Iterable[int], deadline: float | None,
               asked: tuple[int, ...] = (), redo: Iterable[tuple[int, int]] = (),
               active: tuple[int, ...] | None = None, race: bool = False,
               overrun: bool = True) -> Tally:
    """Solve worlds by index (each world's sample depends only on the seed and its index)
    until done or past ``deadline``.

    First the schneider question of the ``redo`` worlds (index, level) for the candidates
    ``asked`` (indices into ``k.candidates``); then new worlds: the goal of every candidate
    of ``active`` (default all), and where no card changes it, the schneider question for
    ``asked`` at once (the other worlds of that kind are listed in ``flat``, to be asked
    only if candidates tie). With ``race``, after each world from the ``RACE_MIN_WORLDS``th
    on, the cards trailing the best by more than :func:`race_margin` are dropped from the
    later worlds (``Tally.live``); with one card left the batch ends. ``overrun``: the
    first world may pass the deadline (a decision needs one world)."""
    me_decl = k.me == k.declarer
    live = tuple(range(len(k.candidates))) if active is None else tuple(active)
    t = Tally([0] * len(k.candidates), [0] * len(asked), 0, [], live=live)
    tried = 0
    for i, level in redo:
        if deadline is not None and time.monotonic() >= deadline:
            return t
        hands, skat = sample_world(k, random.Random(f"{k.seed}:{i}"))
        try:
            answers = _ask(k, hands, skat, [k.candidates[j] for j in asked], level, deadline)
        except SearchLimitReached:
            continue
        if answers is None:
            return t
        t.schneider = [a + (r == me_decl) for a, r in zip(t.schneider, answers, strict=True)]
        t.asked_worlds += 1
    for i in indices:
        t.next = i
        if deadline is not None and tried and time.monotonic() >= deadline:
            return t
        tried += 1
        hands, skat = sample_world(k, random.Random(f"{k.seed}:{i}"))
        # the first world may overrun the budget (a decision needs one), but not by much
        limit = deadline
        if overrun and tried == 1 and deadline is not None:
            limit = deadline + 2 * k.budget
        try:
            goal = _ask(k, hands, skat, [k.candidates[j] for j in live], _goal(k), limit)
            if goal is None:
                return t
            level = _schneider_level(k, goal[0]) if len(set(goal)) == 1 else None
            extra: list[bool] | None = []
            if level is not None and asked:
                extra = _ask(k, hands, skat, [k.candidates[j] for j in asked], level, limit)
                if extra is None:
                    return t
        except SearchLimitReached:
            continue
        mask = 0
        for j, r in zip(live, goal, strict=True):
            t.wins[j] += r == me_decl
            mask |= r << j
        t.reached.append((i, mask))
        if level is not None and asked:
            t.schneider = [a + (r == me_decl) for a, r in zip(t.schneider, extra or [],
                                                               strict=True)]
            t.asked_worlds += 1
        elif level is not None:
            t.flat.append((i, level))
        t.solved += 1
        if race and len(live) > 1 and t.solved >= RACE_MIN_WORLDS:
            best = max(t.wins[j] for j in live)
            margin = race_margin(t.solved)
            live = t.live = tuple(j for j in live if best - t.wins[j] <= margin)
            if len(live) == 1:
                t.next = i + 1
                return t
    t.next = None
    return t


def _ask(k: Knowledge, hands: list[int], skat: int, cards: list[int], goal: int,
         deadline: float | None) -> list[bool] | None:
    """Does the declarer reach ``goal`` after each of ``cards``? None: the time is up."""
    solver = _solver(k.game, k.declarer)
    try:
        with solver.until(deadline):
            return [_outcome(k, solver, hands, skat, c, goal) for c in cards]
    except SearchTimedOut:
        return None


def _merge_tallies(parts: Iterable[Tally]) -> Tally:
    """The batches together; ``live`` is the candidates every batch still solved."""
    out: Tally | None = None
    for t in parts:
        if out is None:
            out = Tally(list(t.wins), list(t.schneider), t.solved, list(t.flat),
                        live=t.live, reached=list(t.reached), asked_worlds=t.asked_worlds)
            continue
        out.wins = [a + b for a, b in zip(out.wins, t.wins, strict=True)]
        out.schneider = [a + b for a, b in zip(out.schneider, t.schneider, strict=True)]
        out.asked_worlds += t.asked_worlds
        out.solved += t.solved
        out.flat += t.flat
        out.live = tuple(j for j in out.live if j in t.live)
        out.reached += t.reached
    assert out is not None
    return out


# the arguments of one run_worlds call: knowledge, world indices, deadline, the candidates
# asked the schneider question, the worlds to ask it in first, the candidates solved (None:
# all), racing, whether the first world may overrun the deadline
_Job = tuple[Knowledge, Iterable[int], float | None, tuple[int, ...],
             Iterable[tuple[int, int]], tuple[int, ...] | None, bool, bool]


def _leaders(wins: list[int]) -> tuple[int, ...]:
    best = max(wins)
    return tuple(j for j, w in enumerate(wins) if w == best)


# ---------------------------------------------------------------------- the player


class PimcPlayer:
    """Perfect-Information Monte Carlo player.

    ``budget``: seconds per card decision (anytime). ``worlds``: solve exactly this many
    worlds per decision instead (deterministic). ``workers``: processes to spread worlds
    over (default: the cores; 1 means in this process). Call :meth:`close` (or use ``with``)
    to stop the worker processes.

    The bidding, hand or skat, contract and discard are searched
    (:mod:`engine.players.declaring`); ``searched_contracts=False`` keeps the 2025 player's
    choices instead (the evaluation's, with close calls solved), named ``pimc-2025``.
    ``inference=True`` (``pimc+infer``) weighs the card-play worlds by what the cards laid
    and the declarer's contract say (:mod:`engine.players.clues`, :func:`declarer_fit`):
    measured, it does not change the decisions' quality yet, so it is off by default.
    ``discard=True`` (``pimc+discard``): a defender's worlds put in the skat what declarers
    lay away (:func:`engine.players.clues.repick_skat`), not trumps and aces.
    A defender's opening lead is never the ace of a side suit he holds four or more cards of
    (:func:`long_ace_lead`); ``long_ace=True`` (``pimc+longace``) is the player before that
    rule, for measuring it. ``race=True`` (``pimc+race``, measured and not the default):
    at a time budget the cards race (:func:`race_margin`), a card clearly behind after a
    few worlds is not solved in the later ones, and the schneider question waits for
    ``SCHNEIDER_MIN_WORLDS`` worlds. ``rollout`` (``pimc+rollout``: ``"ties"``; measured,
    not the default) judges the cards of the game's first ``rollout_cards`` cards (the
    first trick) also by playouts of the worlds with the rule players, each seat deciding
    from its own view (:mod:`engine.players.rollout`, Furtak and Buro's IIMC): ``"pure"``
    by the playouts alone, ``"mix"`` by double-dummy and playout wins added, ``"ties"``
    by the playouts only between the cards tied on the double-dummy goal; at fixed worlds
    in ``rollout_worlds`` worlds (default as many as the double-dummy ones), at a budget
    the playouts get ``ROLLOUT_SHARE`` of the time.
    """

    name = "pimc"

    def __init__(self, seed: int = 0, budget: float = DEFAULT_BUDGET,
                 worlds: int | None = None, workers: int | None = None,
                 searched_contracts: bool = True, inference: bool = False,
                 discard: bool = False, long_ace: bool = False, race: bool = False,
                 rollout: str | None = None, rollout_cards: int = 3,
                 rollout_worlds: int | None = None) -> None:
        if budget <= 0:
            raise ValueError(f"the time budget must be positive, not {budget}")
        if worlds is not None and worlds < 1:
            raise ValueError(f"worlds must be at least 1, not {worlds}")
        self.seed = seed
        self.budget = budget
        self.worlds = worlds
        self.workers = workers if workers is not None else (os.cpu_count() or 1)
        # pimc-2025 leans on the 2025 rule player too, so that it stays the player it was
        self.rule = RulePlayer(seed, style=None if searched_contracts else ev.Style.legacy())
        self._pool: Executor | None = None
        self.pool_failures = 0  # worker pools lost to a dead worker process
        self._plan: tuple[int, int, int] | None = None  # (cards, game, discard)
        self._push_second: int | None = None  # Schieberamsch: the second card to push
        self.last_worlds = 0
        self.hopeless = False
        self._asked: tuple[int, ...] = ()
        self.declaring = Declaring(seed, budget, worlds) if searched_contracts else None
        self.inference = inference
        self.discard = discard
        self.long_ace = long_ace
        self.race = race
        if rollout is not None and rollout not in ROLLOUT_MODES:
            raise ValueError(f"rollout must be one of {', '.join(ROLLOUT_MODES)}, not {rollout!r}")
        self.rollout = rollout
        self.rollout_cards = rollout_cards
        self.rollout_worlds = rollout_worlds
        self.schneider_min = SCHNEIDER_MIN_WORLDS if race else 0
        if not searched_contracts:
            self.name = "pimc-2025"
        elif inference:
            self.name = "pimc+infer"
        elif discard:
            self.name = "pimc+discard"

    @property
    def last_bid_limit(self) -> int | None:
        """The bid limit of the last bidding decision (the duel's statistics report it)."""
        if self.declaring is not None:
            return self.declaring.last_bid_limit
        return getattr(self.rule, "last_bid_limit", None)

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(cancel_futures=True)
            self._pool = None

    def __enter__(self) -> PimcPlayer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __del__(self) -> None:  # a forgotten close must not leave processes behind
        with contextlib.suppress(Exception):  # at interpreter shutdown anything may be gone
            self.close()

    # ------------------------------------------------------------------ decisions

    def choose(self, view: SeatView) -> Action:
        require_turn(view)
        start = time.monotonic()
        if view.phase in (Phase.PLAY, Phase.PUSHING):
            # Kontra/Re, Ramsch and Schieberamsch: engine.players.house
            action = house.choose(self, view)
            if action is not None:
                return action
        if view.phase == Phase.PLAY and view.game_type is not None and view.game_type in (
            GameType.CLUBS, GameType.SPADES, GameType.HEARTS, GameType.DIAMONDS,
            GameType.GRAND, GameType.NULL,
        ):
            plays = [a for a in view.legal if isinstance(a, Play)]
            if len(plays) > 1:
                # what a Kontra/Re considered just before (house.choose) took is this
                # decision's too: the card gets the rest of the budget
                spent = time.monotonic() - start
                card = self.card(view, [int(a.card) for a in plays],
                                 max(self.budget - spent, MIN_CARD_SHARE * self.budget))
                if self.hopeless:
                    return Concede(view.pos)
                return next(a for a in plays if a.card == card)
            if plays:
                return plays[0]
        if self.declaring is not None and view.declarer == view.pos:
            if view.phase == Phase.DISCARD:
                if any(isinstance(a, Declare) for a in view.legal):
                    return self.declaring.declare(view)
                return self.declaring.discard(view)
            if view.phase == Phase.SKAT:
                return self.declaring.hand_or_skat(view)
        if self.declaring is not None and view.phase == Phase.BIDDING:
            return self.declaring.bid(view)
        if view.phase == Phase.DISCARD and view.pos == view.declarer:
            return self._declare_or_discard(view)
        if view.phase == Phase.SKAT:
            return self.hand_or_skat(view)
        return self.rule.choose(view)

    def double(self, view: SeatView) -> Action | None:
        """Kontra or Re out of turn (before the first card), or None: see
        :func:`engine.players.house.doubling`."""
        return house.doubling(view, self.seed, house.Budget(self.budget, self.worlds))

    # ------------------------------------------------------------------ card play

    def card(self, view: SeatView, legal: list[int], budget: float | None = None) -> int:
        """The card with the best score over the sampled worlds (``hopeless`` is set when the
        declarer should rather concede); ``budget``: seconds for it (default the player's)."""
        self.hopeless = False
        t = tables(int(view.game_type))  # type: ignore[arg-type]
        remaining = 0xFFFFFFFF & ~(view.played & ~_cards_mask(view.trick)) & ~view.skat
        groups = _equivalent_groups(t, legal, view.hand, remaining)
        if not self.long_ace:
            # an ace is a group of its own (no other card has its points)
            groups = [g for g in groups if not long_ace_lead(view, g[0])] or groups
        reps = [g[0] for g in groups]
        if len(reps) == 1:
            return self._prefer(view, groups[0])
        budget = self.budget if budget is None else budget
        start = time.monotonic()
        mode = self.rollout if len(view.tricks) * 3 + len(view.trick) < self.rollout_cards \
            else None
        if mode is not None and self.worlds is None:
            # at a budget the double-dummy worlds get their share, the playouts the rest
            budget_dd = budget * (1 - ROLLOUT_SHARE)
        else:
            budget_dd = budget
        k = knowledge_of(view, reps, self.seed, budget_dd, self.inference, self.discard)
        if mode == "pure":
            wins, self.last_worlds = self._playouts(view, k, start + 0.9 * budget,
                                                    range(len(reps)))
            return self._prefer(view, [c for i in _leaders(wins) for c in groups[i]])
        tally = self._solve(k)
        n = self.last_worlds = tally.solved
        if not n:  # every world was too hard to solve in time: play by the rules
            return self._prefer(view, [c for g in groups for c in g])
        tied = _leaders(tally.wins)
        if mode == "mix":
            wins, _ = self._playouts(view, k, start + 0.9 * budget, range(len(reps)), n)
            tied = _leaders([a + b for a, b in zip(tally.wins, wins, strict=True)])
        elif mode == "ties" and len(tied) > 1:
            # the playouts decide between the cards tied on the double-dummy goal
            wins, _ = self._playouts(view, k, start + 0.9 * budget, tied, n)
            best = max(wins[j] for j in tied)
            tied = tuple(j for j in tied if wins[j] == best)
        asked = self._asked
        if len(tied) > 1 and set(tied) <= set(asked):
            # the schneider question decides between cards equally good for the goal
            sch = {j: tally.schneider[asked.index(j)] for j in tied}
            top = max(sch.values())
            # Every world lost, and below 31 points whatever is played: a declarer who
            # concedes now loses at the simple level (plus announced levels) instead of
            # schneider. Counted over the worlds whose schneider question was answered:
            # at a budget its round may end before any (no answer is not "below 31").
            self.hopeless = (
                tally.wins[tied[0]] == 0 and top == 0 and len(tied) == len(reps)
                and tally.asked_worlds >= MIN_CONCEDE_WORLDS and view.pos == view.declarer
                and view.game_type != GameType.NULL and not k.schwarz
            )
            tied = tuple(j for j in tied if sch[j] == top)
        pool = [c for i in tied for c in groups[i]]
        return self._prefer(view, pool)

    def _playouts(self, view: SeatView, k: Knowledge, deadline: float,
                  among: Iterable[int], worlds: int | None = None) -> tuple[list[int], int]:
        """Playouts (:mod:`engine.players.rollout`) of the candidates ``among`` (indices into
        ``k.candidates``) in the decision's worlds: ``rollout_worlds`` of them at fixed
        worlds (default as many as the double-dummy ``worlds``), else until ``deadline``;
        the others' wins are 0."""
        among = tuple(among)
        sub = dataclasses.replace(k, candidates=tuple(k.candidates[j] for j in among))
        if self.worlds is not None:
            count = self.rollout_worlds or worlds or self.worlds
            w, n = playout_wins(view, sub, range(count))
        else:
            w, n = playout_wins(view, sub, range(1 << 40), deadline)
        wins = [0] * len(k.candidates)
        for j, x in zip(among, w, strict=True):
            wins[j] = x
        return wins, n

    def _prefer(self, view: SeatView, cards: list[int]) -> int:
        """Among cards equally good by search, the one the rule player would lay."""
        if len(cards) == 1:
            return cards[0]
        choice = self.rule.card(view, _cards_mask(cards))
        return choice if choice in cards else cards[0]

    def _solve(self, k: Knowledge) -> Tally:
        """Worlds for every candidate's goal first; then, only if several candidates lead,
        the schneider question between those (in the worlds where the card made no
        difference): it costs as much as the goal again, and most decisions do not need it.
        At a budget the first round gets ``GOAL_SHARE`` of the time, the rest either more
        worlds (one leader, or fewer than ``schneider_min`` worlds solved) or the leaders'
        schneider questions and then more worlds. With ``race`` the first round drops the
        cards clearly behind (:func:`run_worlds`); the second solves only the cards left,
        and none when one is left."""
        self._asked = ()
        if self.worlds is not None:
            chunks = [list(range(w, self.worlds, self.workers)) for w in range(self.workers)]
            if self.workers <= 1 or self.worlds < 2 * self.workers:
                chunks = [list(range(self.worlds))]
            first = self._map([(k, c, None, (), (), None, False, True) for c in chunks])
            tied = _leaders(first.wins)
            if len(tied) < 2:
                return first
            self._asked = tied
            flat = first.flat
            redo = [flat[w::len(chunks)] for w in range(len(chunks))]
            second = self._map([(k, (), None, tied, r, None, False, True) for r in redo])
            first.schneider = second.schneider
            first.asked_worlds = second.asked_worlds
            return first
        start = time.monotonic()
        end = start + k.budget * 0.9
        mid = start + k.budget * 0.9 * GOAL_SHARE
        step = max(self.workers, 1)
        parts = self._tallies([(k, range(w, 1 << 40, step), mid, (), (), None, self.race, True)
                               for w in range(step)])
        first = _merge_tallies(parts)
        if not first.solved:
            return first
        flat = first.flat
        live = first.live
        if self.race:
            if not live:
                # the workers raced on their own worlds and kept different cards (rare):
                # the card with the best share of the worlds it was solved in
                _, best = max((p.wins[j] / p.solved, j) for p in parts if p.solved
                                 for j in p.live)
                live = (best,)
            # the cards out of the race can no longer be chosen
            first.wins = [w if j in live else -1 for j, w in enumerate(first.wins)]
            if len(live) == 1:
                return first
            # the worlds where no card still in the race changes the goal (a worker solved
            # more cards in its first worlds)
            every = sum(1 << j for j in live)
            flat = []
            for i, m in first.reached:
                level = _schneider_level(k, bool(m & every)) if m & every in (0, every) else None
                if level is not None:
                    flat.append((i, level))
        tied = _leaders(first.wins)
        asked: tuple[int, ...] = tied if len(tied) > 1 else ()
        if first.solved < self.schneider_min:
            asked = ()  # too few worlds yet for the goal: the rest of the time goes to it
        redo = [flat[w::step] if asked else [] for w in range(step)]
        # the first round solved a world: none of the second may pass the deadline (before,
        # its first world could, by up to twice the budget: card decisions of 1.2 s at 1 s)
        more = self._map([(k, range(p.next, 1 << 40, step) if p.next is not None else (),
                           end, asked, redo[w], live, False, False)
                          for w, p in enumerate(parts)])
        self._asked = asked
        first.wins = [a + b if a >= 0 else a for a, b in zip(first.wins, more.wins,
                                                             strict=True)]
        first.schneider = more.schneider  # the first round asked nobody
        first.asked_worlds = more.asked_worlds
        first.solved += more.solved
        first.flat += more.flat
        return first

    def _tallies(self, jobs: list[_Job]) -> list[Tally]:
        """:func:`run_worlds` of each job, in the worker processes when there are several."""
        if len(jobs) == 1 or self.workers <= 1:
            return [run_worlds(*job) for job in jobs]
        try:
            ex = self._executor()
            return [f.result() for f in [ex.submit(run_worlds, *job) for job in jobs]]
        except BrokenProcessPool:
            # A worker died (on a Pi most likely the kernel's out-of-memory killer): this
            # decision is solved here, one job after the other, and the next decision
            # starts new workers. Only the first job's first world may pass the deadline.
            self._pool_broke()
            return [run_worlds(*job) if i == 0 else run_worlds(*job[:-1], False)
                    for i, job in enumerate(jobs)]

    def _pool_broke(self) -> None:
        """Drop a pool whose worker died; the next use starts a new one."""
        self.pool_failures += 1
        if self._pool is not None:
            with contextlib.suppress(Exception):
                self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None

    def _map(self, jobs: list[_Job]) -> Tally:
        return _merge_tallies(self._tallies(jobs))

    def _executor(self) -> Executor:
        if self._pool is None:
            # forkserver, not fork: the controller has reader and GPIO threads, and forking
            # a threaded process can copy a lock held by another thread
            methods = multiprocessing.get_all_start_methods()
            ctx = multiprocessing.get_context("forkserver" if "forkserver" in methods
                                              else "spawn")
            self._pool = ProcessPoolExecutor(max_workers=self.workers, mp_context=ctx,
                                             initializer=_warm_up)
        return self._pool

    def warm_up(self) -> None:
        """Start the worker processes and build the solver tables now, not in the first
        decision (the controller calls this when a computer seat is set up)."""
        _warm_up()
        if self.workers > 1:
            try:
                ex = self._executor()
                for f in [ex.submit(_warm_up) for _ in range(self.workers)]:
                    f.result()
            except BrokenProcessPool:
                self._pool_broke()  # the first decision tries again

    # ------------------------------------------------------------------ declaring

    def _declare_or_discard(self, view: SeatView) -> Action:
        cards = view.hand | view.skat
        declares = [a for a in view.legal if isinstance(a, Declare)]
        if declares:
            game, away = self.plan_game(cards, view.bid, view.pos)
            self._plan = (cards, game, away)
            plain = [a for a in declares if a.contract.game == game and not a.contract.ouvert]
            return (plain or declares)[0]
        if self._plan is not None and self._plan[0] == cards:
            away = self._plan[2] & view.hand
        else:
            away = ev.discard(view.hand, int(view.game_type or GameType.GRAND))
        card = min(c for c in range(32) if away >> c & 1)
        return next(a for a in view.legal if isinstance(a, Discard) and a.card == card)

    def hand_or_skat(self, view: SeatView) -> Action:
        """Hand game or skat: the evaluation, and on a close call sampled deals solved both
        ways (the hand game with the unknown skat; the pick-up with the evaluation's contract
        and discard for the skat found), compared by expected Seeger-Fabian score."""
        default = self.rule.skat_or_hand(view, list(view.legal))
        hand = view.hand
        best: tuple[float, int] | None = None
        for e in ev.estimates(hand):
            need = 8.5 if e.game == ev.NULL else 9.0
            value = 35 if e.game == ev.NULL else ev.game_value(hand, e.game, hand=True)
            close = e.strength >= need + HAND_CLOSE and value >= view.bid
            if close and (best is None or e.strength - need > best[0]):
                best = (e.strength - need, e.game)
        if best is None or isinstance(default, Declare):
            return default
        game = best[1]
        declare = next((a for a in view.legal if isinstance(a, Declare)
                        and a.contract.game == game and a.contract.hand
                        and not a.contract.schneider and not a.contract.ouvert), None)
        if declare is None:
            return default
        rng = random.Random(f"{self.seed}:hand:{hand}:{view.bid}:{view.pos}")
        others = [c for c in range(32) if not hand >> c & 1]
        pos = view.pos
        sf_hand = sf_skat = 0.0
        played = 0
        deadline = time.monotonic() + self.budget * 0.9
        limit = self.worlds if self.worlds is not None else 10_000
        tries = 0
        while played < limit and tries < 3 * limit and (
                self.worlds is not None or time.monotonic() < deadline):
            tries += 1
            rng.shuffle(others)
            skat = (1 << others[20]) | (1 << others[21])
            hands = [0, 0, 0]
            hands[pos] = hand
            hands[(pos + 1) % 3] = sum(1 << c for c in others[:10])
            hands[(pos + 2) % 3] = sum(1 << c for c in others[10:20])
            twelve = hand | skat
            pick = contract_options(twelve, view.bid)[0]
            until = None if self.worlds is not None else deadline
            try:
                with _solver(game, pos).until(until) as s:
                    won_hand = _declarer_result(s, game, hands, skat)
                hands_pick = list(hands)
                hands_pick[pos] = twelve & ~pick[4]
                with _solver(pick[3], pos).until(until) as s:
                    won_pick = _declarer_result(s, pick[3], hands_pick, pick[4])
            except SearchLimitReached:  # too hard, or the time is up (the loop ends then)
                continue
            v_hand = 35 if game == ev.NULL else ev.game_value(twelve, game, hand=True)
            sf_hand += _sf_points(won_hand and v_hand >= view.bid, max(v_hand, view.bid))
            sf_skat += _sf_points(won_pick and pick[0], max(pick[2], view.bid))
            played += 1
        if played >= MIN_PLAN_WORLDS and sf_hand > sf_skat:
            return declare
        return default

    def plan_game(self, cards: int, bid: int, pos: int) -> tuple[int, int]:
        """(game type, discard) for these 12 cards: the evaluation's best few, compared by
        solving sampled deals of the other 20 cards (expected Seeger-Fabian score)."""
        options = contract_options(cards, bid)
        # only close choices are searched: a clear evaluation is not second-guessed by a
        # handful of sampled deals
        top = [o for o in options[:3] if o[0] and options[0][1] - o[1] <= CLOSE_CHOICE]
        if len(top) <= 1:
            return options[0][3], options[0][4]
        rng = random.Random(f"{self.seed}:plan:{cards}:{bid}:{pos}")
        others = [c for c in range(32) if not cards >> c & 1]
        wins = [0] * len(top)
        played = tries = 0
        limit = self.worlds if self.worlds is not None else 10_000
        deadline = time.monotonic() + self.budget * 0.9
        while played < limit and (self.worlds is not None or time.monotonic() < deadline):
            rng.shuffle(others)
            a = sum(1 << c for c in others[:10])
            b = sum(1 << c for c in others[10:])
            hands = [0, 0, 0]
            hands[(pos + 1) % 3], hands[(pos + 2) % 3] = a, b
            results = []
            try:
                for _, _, _, g, away in top:
                    hands[pos] = cards & ~away
                    with _solver(g, pos).until(None if self.worlds is not None
                                               else deadline) as s:
                        if g == ev.NULL:
                            results.append(s.null_won(hands, 0, ()))
                        else:
                            results.append(s.reaches(hands, 0, (), 61 - mask_points(away)))
            except SearchLimitReached:  # too hard, or the time is up (the loop ends then)
                tries += 1
                if tries > 3 * limit:
                    break
                continue
            for i, r in enumerate(results):
                wins[i] += r
            played += 1
        if played < MIN_PLAN_WORLDS:
            return top[0][3], top[0][4]
        best_i = max(range(len(top)), key=lambda i: (_sf_expectation(wins[i] / played,
                                                                     top[i][2]), -i))
        return top[best_i][3], top[best_i][4]


def contract_options(cards: int, bid: int) -> list[tuple[bool, float, int, int, int]]:
    """Every game type for 12 cards as (reaches the bid, strength margin, plain value, game,
    discard), best first by the evaluation."""
    options = []
    for g in range(6):
        away = ev.discard(cards, g)
        ten = cards & ~away
        if g == ev.NULL:
            strength, need, value = ev.null_strength(ten), 8.5, 23
        else:
            strength, need, value = ev.suit_strength(ten, g), 9.0, ev.game_value(cards, g)
        options.append((value >= bid, strength - need, value, g, away))
    options.sort(key=lambda o: (o[0], o[1], o[2]), reverse=True)
    return options


def _declarer_result(solver: Solver, game: int, hands: list[int], skat: int) -> bool:
    """Does the declarer win from the first lead (forehand leads)?"""
    if game == ev.NULL:
        return solver.null_won(hands, 0, ())
    return solver.reaches(hands, 0, (), 61 - mask_points(skat))


def _warm_up() -> None:
    for g in range(6):
        tables(g)


def _sf_points(won: bool, value: int) -> float:
    return value + 50 if won else -2 * value - 50


def _sf_expectation(p_win: float, value: int) -> float:
    """Seeger-Fabian points expected for the declarer: +value+50 or -2*value-50."""
    return p_win * (value + 50) - (1 - p_win) * (2 * value + 50)


def long_ace_lead(view: SeatView, card: int) -> bool:
    """Is ``card`` a defender's opening lead of the ace of a side suit he holds at least
    ``LONG_ACE`` cards of (suit game or grand)?

    The declarer who took the skat laid away short suits, so a long suit of the leader's is
    where the declarer is most likely void and ruffs the ace; the sampled worlds deal him
    those cards as often as any others, and in every world the partner knows where the
    cards are, so the worlds overrate an ace cashed early.

    >>> from engine.actions import Bid, Declare, Pass
    >>> from engine.cards import Card, parse_cards
    >>> from engine.contract import Contract
    >>> from engine.deal import Deal
    >>> from engine.game import Game
    >>> g = Game(Deal.from_positions(*(parse_cards(h) for h in (
    ...     "CA CK C9 C8 S7 S8 H7 H8 D7 D8", "CQ C7 SA ST SK HA HT HK DA DT",
    ...     "CJ SJ HJ DJ SQ S9 HQ H9 DK DQ", "CT D9"))))
    >>> for a in (Bid(1, 18), Pass(0), Bid(2, 20), Pass(1), Declare(2, Contract.parse("DH"))):
    ...     g.push(a)
    >>> v = SeatView.of(g, 0)
    >>> long_ace_lead(v, Card.CA), long_ace_lead(v, Card.S7)
    (True, False)
    """
    g = view.game_type
    if (g is None or g in (GameType.NULL, GameType.RAMSCH) or view.pos == view.declarer
            or view.tricks or view.trick or card & 7 != 7):
        return False
    g = int(g)
    if TRUMPS[g] >> card & 1:
        return False
    return (view.hand & FOLLOW[g][card]).bit_count() >= LONG_ACE


__all__ = ["DEFAULT_BUDGET", "Knowledge", "PimcPlayer", "clear_solvers", "knowledge_of",
           "long_ace_lead", "sample_world"]

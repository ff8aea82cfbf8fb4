"""The PIMC player under the house rules: Kontra and Re, Ramsch, Schieberamsch pushes.

Every decision is taken from sampled worlds (deals of the cards the seat cannot see that agree
with what it knows, :func:`engine.players.worlds.sample_world`), like PIMC's card play:

- **Kontra / Re** (``kontra_re``): the worlds are solved double-dummy from the first lead and
  give the declarer's chance ``p`` of making his game. Doubling multiplies the declarer's
  Seeger-Fabian points for the game value (won ``+v``, lost ``-2v``; the 50 and the defenders'
  40 are not doubled), so it moves his expectation by ``v * (3p - 2)``: a defender says Kontra
  when ``p`` is below two thirds by the margin ``KONTRA_MARGIN``, the declarer answers Re when
  it is above by ``RE_MARGIN`` (double-dummy worlds flatter the defenders, who in truth do
  not see each other's cards: the margins were set by measurement, :func:`doubling_records`;
  see ``docs/players.md``, "The PIMC player").
- **Ramsch**: each player for himself. Early in the game (more than ``DD_CARDS`` cards in
  hand) every candidate card is played out in each world by a fast copy of the rule player's
  Ramsch play for all three seats, and scored by the engine's Ramsch scoring (the skat to the
  last trick, Jungfrau, Durchmarsch, ties); later the worlds are solved *paranoid*: this seat
  alone against the other two, who load points onto it
  (:class:`engine.players.solver.LoneSolver`), and a card scores the expected loss of the
  points it is held to, or a Durchmarsch where the seat can force every trick.
- **Schieberamsch**: take the skat and push (each push doubles the loss) or pass it on,
  decided by playing the worlds out both ways; the two cards pushed, likewise.

>>> from engine.deal import Deal
>>> from engine.game import Rules
>>> from engine.players.pimc import PimcPlayer
>>> from engine.players.table import play_game
>>> p = PimcPlayer(seed=1, worlds=4, workers=1)
>>> g = play_game(Deal.shuffled(2), [p, p, p], Rules(ramsch=True, schieberamsch=True))
>>> g.result is not None
True
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, replace

from engine.actions import Action, Discard, Kontra, Pass, Play, Push, Re
from engine.cards import JACKS, RANK_POINTS, mask_points
from engine.contract import GameType
from engine.game import Phase
from engine.players import evaluate as ev
from engine.players.base import SeatView
from engine.players.solver import LoneSolver, SearchLimitReached, Solver, tables
from engine.players.worlds import (
    MAX_NODES_C,
    MAX_NODES_PYTHON,
    Knowledge,
    _equivalent_groups,
    _solver,
    knowledge_of,
    played_by,
    sample_world,
)
from engine.ramsch import score_ramsch
from engine.trick import BEATS, FOLLOW, POWER

GRAND = int(GameType.GRAND)
RAMSCH = int(GameType.RAMSCH)
# The declarer's chance below which a defender says Kontra is 2/3 minus this; Re above
# 2/3 plus RE_MARGIN.
KONTRA_MARGIN = 0.10
RE_MARGIN = 0.05
# Doubling is decided only on at least this many solved worlds; with a fixed number of
# worlds per decision, it solves at least DOUBLING_WORLDS (a world from the first lead is
# one double-dummy question, a few milliseconds).
MIN_DOUBLING_WORLDS = 12
DOUBLING_WORLDS = 24
# The seat to lay the first card decides a Kontra/Re and its card in one decision: the
# doubling gets this share of the budget, the card the rest (asked out of turn, all of it).
DOUBLING_SHARE = 0.5
# A defender's worlds give the declarer a hand the evaluation rates at most this far below
# a safe game of the declared type (tried this many times per world).
DECLARED_SLACK = 0.0
DECLARED_TRIES = 60
# Ramsch: with at most this many cards in hand the worlds are solved paranoid, before
# that played out by the rule player's Ramsch play. Measured against the rule player, the
# paranoid search lost to the play-outs (from 5 cards +10.6 per game, from 3 cards +16.9,
# play-outs alone +18.3; measured: lab/experiments.csv, pimc vs rule, Ramsch), so it is off.
DD_CARDS = 0
# Pushing needs this much more expected score than passing (rollouts are noisy).
PUSH_MARGIN = 2.0
MIN_RAMSCH_WORLDS = 6


@dataclass
class Budget:
    """Worlds to solve: exactly ``worlds``, or as many as fit in ``seconds``."""

    seconds: float
    worlds: int | None

    def start(self) -> float:
        return time.monotonic() + 0.9 * self.seconds

    def more(self, done: int, deadline: float) -> bool:
        if self.worlds is not None:
            return done < self.worlds
        return time.monotonic() < deadline

    @property
    def cap(self) -> int:
        return self.worlds if self.worlds is not None else 100_000


# ---------------------------------------------------------------------- Kontra and Re


def declarer_chance(view: SeatView, seed: int, budget: Budget) -> tuple[float, int]:
    """(the declarer's chance of making his game over the sampled worlds solved double-dummy
    from here, the number of worlds solved). Only before the first card."""
    k = knowledge_of(view, [], seed)
    won = n = tries = 0
    deadline = budget.start()
    until = deadline if budget.worlds is None else None
    while budget.more(n, deadline) and tries < 3 * budget.cap:
        rng = random.Random(f"{k.seed}:double:{tries}")
        tries += 1
        hands, skat = _declared_world(k, rng)
        try:
            with _solver(k.game, k.declarer).until(until):
                won += _declarer_makes(k, hands, skat)
        except SearchLimitReached:  # too hard, or the time is up (the loop ends then)
            continue
        n += 1
    return (won / n if n else 0.5), n


def _declared_world(k: Knowledge, rng: random.Random) -> tuple[list[int], int]:
    """A world in which the declarer holds cards he would have declared his game with:
    the evaluation's strength for it at most ``DECLARED_SLACK`` below a safe game (the
    strongest of ``DECLARED_TRIES`` samples when none is). Without this a defender's worlds
    give the declarer any ten cards, and nearly every grand looks lost."""
    if k.me == k.declarer or k.known[k.declarer]:
        return sample_world(k, rng)
    best: tuple[float, tuple[list[int], int]] | None = None
    for _ in range(DECLARED_TRIES):
        world = sample_world(k, rng)
        cards = world[0][k.declarer]
        if k.game == ev.NULL:
            strength = ev.null_strength(cards) - 8.5
        else:
            strength = ev.suit_strength(cards, k.game) - 9.0
        if strength >= -DECLARED_SLACK:
            return world
        if best is None or strength > best[0]:
            best = (strength, world)
    assert best is not None
    return best[1]


def _declarer_makes(k: Knowledge, hands: list[int], skat: int) -> bool:
    solver = _solver(k.game, k.declarer)
    h = list(hands)
    if k.game == int(GameType.NULL):
        return solver.null_won(h, k.leader, k.trick)
    if k.schwarz:
        return solver.takes_all(h, k.leader, k.trick)
    goal = 90 if k.schneider else 61
    need = goal - k.declarer_points - mask_points(skat)
    return need <= 0 or solver.reaches(h, k.leader, k.trick, need)


def doubling(view: SeatView, seed: int, budget: Budget) -> Action | None:
    """Kontra or Re if it is open to this seat and the sampled worlds say it pays; else None.

    Doubling moves the declarer's expected Seeger-Fabian points by ``v * (3p - 2)`` (``p``
    his chance, ``v`` the game value), so the break-even is p = 2/3, shifted by the margins.
    """
    calls = [a for a in view.legal if isinstance(a, Kontra | Re)]
    if not calls or view.tricks or view.trick:
        return None
    if budget.worlds is not None:  # a fixed number of worlds: at least enough to decide on
        budget = Budget(budget.seconds, max(budget.worlds, DOUBLING_WORLDS))
    p, n = declarer_chance(view, seed, budget)
    if n < MIN_DOUBLING_WORLDS:
        return None
    call = calls[0]
    if isinstance(call, Kontra) and p < 2 / 3 - KONTRA_MARGIN:
        return call
    if isinstance(call, Re) and p > 2 / 3 + RE_MARGIN:
        return call
    return None


# ---------------------------------------------------------------------- Ramsch worlds


def ramsch_knowledge(view: SeatView, candidates: list[int], seed: int) -> Knowledge:
    """The sampling problem of a Ramsch decision: the cards this seat has not seen go to the
    other two hands and the skat, respecting the voids shown (jacks the only trumps). In a
    Schieberamsch the cards it pushed on lie in the skat when nobody took it since
    (``view.skat``), else in the skat or with a seat that took it after (``pushed_to``)."""
    known = [0, 0, 0]
    known[view.pos] = view.hand
    played = played_by(view)
    skat_known = view.skat if view.skat.bit_count() == 2 and view.hand.bit_count() <= 10 else None
    unknown = view.unknown & ~(skat_known or 0)
    voids = list(view.voids)
    moved_on = view.pushed & unknown
    for q in range(3):
        if q != view.pos and q not in view.pushed_to:
            voids[q] |= moved_on
    return Knowledge(
        me=view.pos, declarer=view.pos, game=GRAND, hand_game=False, schneider=False,
        schwarz=False, ouvert=False, bid=0, known=(known[0], known[1], known[2]),
        sizes=view.hand_sizes, skat=skat_known, unknown=unknown,
        voids=(voids[0], voids[1], voids[2]), played_by=played, trick=view.trick,
        leader=view.trick_leader, declarer_points=mask_points(view.won[view.pos]),
        said=(0, 0, 0), candidates=tuple(candidates),
        seed=f"{seed}:ramsch:{view.pos}:{view.hand}:{view.played}",
    )


_FOLLOW = FOLLOW[RAMSCH]
_BEATS = BEATS[RAMSCH]
_POWER = POWER[RAMSCH]
_NEXT = (1, 2, 0)


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def rule_ramsch_card(hand: int, trick: tuple[int, ...] | list[int]) -> int:
    """The rule player's Ramsch card (``RulePlayer._ramsch_card``) on bare masks: lead the
    weakest card; follow under the trick with the most points, else the cheapest card."""
    legal = (hand & _FOLLOW[trick[0]] or hand) if trick else hand
    if legal & (legal - 1) == 0:
        return legal.bit_length() - 1
    if not trick:
        return min(_bits(legal), key=lambda c: (_POWER[c], RANK_POINTS[c & 7]))
    w = 0
    for i in range(1, len(trick)):
        if _BEATS[trick[w]] >> trick[i] & 1:
            w = i
    under = legal & ~_BEATS[trick[w]]
    if under:
        return max(_bits(under), key=lambda c: (RANK_POINTS[c & 7], _POWER[c]))
    return min(_bits(legal), key=lambda c: (RANK_POINTS[c & 7], _POWER[c]))


@dataclass
class RamschState:
    """A Ramsch in play, as bare masks (what a rollout needs)."""

    hands: list[int]
    skat: int
    leader: int
    trick: list[int]
    won: list[int]
    tricks: list[int]
    pushes: int = 0

    def copy(self) -> RamschState:
        return RamschState(list(self.hands), self.skat, self.leader, list(self.trick),
                           list(self.won), list(self.tricks), self.pushes)

    def lay(self, card: int) -> None:
        pos = (self.leader + len(self.trick)) % 3
        self.hands[pos] &= ~(1 << card)
        self.trick.append(card)
        if len(self.trick) == 3:
            t = self.trick
            w = 0
            for i in (1, 2):
                if _BEATS[t[w]] >> t[i] & 1:
                    w = i
            winner = (self.leader + w) % 3
            self.won[winner] |= (1 << t[0]) | (1 << t[1]) | (1 << t[2])
            self.tricks[winner] += 1
            self.leader = winner
            self.trick = []

    def play_out(self) -> None:
        while self.hands[0] | self.hands[1] | self.hands[2]:
            pos = (self.leader + len(self.trick)) % 3
            self.lay(rule_ramsch_card(self.hands[pos], self.trick))

    def value(self, pos: int, jungfrau: bool, durchmarsch: bool) -> int:
        """``pos``'s sheet entry when the game is over (the engine's Ramsch scoring)."""
        r = score_ramsch((self.won[0], self.won[1], self.won[2]),
                         (self.tricks[0], self.tricks[1], self.tricks[2]), self.skat,
                         self.leader, self.pushes, jungfrau=jungfrau, durchmarsch=durchmarsch)
        return r.position_values[pos]


def _state_of(view: SeatView, hands: list[int], skat: int) -> RamschState:
    tricks = [0, 0, 0]
    for t in view.tricks:
        tricks[t.winner] += 1
    return RamschState(list(hands), skat, view.trick_leader, list(view.trick), list(view.won),
                       tricks)


def ramsch_loss(points: int) -> float:
    """What ending with ``points`` (paranoid: the least this seat can be held to) costs,
    expected: below 40 a player is never the one with the most (the other two hold more than
    80 between them), at 61 and more always; in between the chance rises. Paranoid values
    overstate what real opponents load on, so the curve starts at 30, and a small slope
    keeps fewer points better everywhere."""
    share = min(1.0, max(0.0, (points - 30) / 30))
    return points * share + 0.05 * points


def ramsch_card(view: SeatView, legal: list[int], seed: int, budget: Budget,
                prefer: object) -> int:
    """The Ramsch card with the best mean score over the sampled worlds."""
    t = tables(GRAND)
    remaining = 0xFFFFFFFF & ~(view.played & ~_mask(view.trick))
    groups = _equivalent_groups(t, legal, view.hand, remaining)
    reps = [g[0] for g in groups]
    if len(reps) == 1:
        return _pick(prefer, view, groups[0])
    k = ramsch_knowledge(view, reps, seed)
    rules = view.rules
    dd = view.hand.bit_count() <= DD_CARDS
    totals = [0.0] * len(reps)
    n = tries = 0
    deadline = budget.start()
    while budget.more(n, deadline) and tries < 3 * budget.cap:
        rng = random.Random(f"{k.seed}:{tries}")
        tries += 1
        hands, skat = sample_world(k, rng)
        state = _state_of(view, hands, skat)
        try:
            scores = (_paranoid_scores(view, state, reps, rules.ramsch_durchmarsch) if dd
                      else _rollout_scores(view.pos, state, reps, rules.ramsch_jungfrau,
                                           rules.ramsch_durchmarsch))
        except SearchLimitReached:
            continue
        for i, s in enumerate(scores):
            totals[i] += s
        n += 1
    if n == 0:
        return _pick(prefer, view, [c for g in groups for c in g])
    best = max(totals)
    pool = [c for i, s in enumerate(totals) if s >= best - 1e-9 for c in groups[i]]
    return _pick(prefer, view, pool)


def _rollout_scores(pos: int, state: RamschState, reps: list[int], jungfrau: bool,
                    durchmarsch: bool) -> list[float]:
    out = []
    for c in reps:
        s = state.copy()
        s.lay(c)
        s.play_out()
        out.append(float(s.value(pos, jungfrau, durchmarsch)))
    return out


def _lone_solver(pos: int) -> LoneSolver:
    s = _LONE.get(pos)
    if s is None:
        _LONE.clear()
        s = _LONE[pos] = LoneSolver(pos)
        s.max_nodes = MAX_NODES_C if s.uses_c else MAX_NODES_PYTHON
    return s


_LONE: dict[int, LoneSolver] = {}


def _paranoid_scores(view: SeatView, state: RamschState, reps: list[int],
                     durchmarsch: bool) -> list[float]:
    """For each card: minus the expected loss of the points this seat is held to by the
    other two together, or +120 where it can force a Durchmarsch."""
    pos = view.pos
    lone = _lone_solver(pos)
    all_mine = durchmarsch and all(t.winner == pos for t in view.tricks)
    out = []
    for c in reps:
        s = state.copy()
        s.lay(c)
        taken = mask_points(s.won[pos])
        if not (s.hands[0] | s.hands[1] | s.hands[2]):
            out.append(-ramsch_loss(taken))
            continue
        if all_mine and s.tricks[pos] == sum(s.tricks) and _durchmarsch(pos, s):
            out.append(120.0)
            continue
        v = lone.min_points(s.hands, s.leader, s.trick)
        out.append(-ramsch_loss(taken + v))
    return out


def _durchmarsch(pos: int, s: RamschState) -> bool:
    solver: Solver = _solver(GRAND, pos)
    return solver.takes_all(s.hands, s.leader, s.trick)


def _pick(prefer: object, view: SeatView, cards: list[int]) -> int:
    if len(cards) == 1:
        return cards[0]
    choice = prefer.card(view, _mask(cards))  # type: ignore[attr-defined]
    return choice if choice in cards else cards[0]


def _mask(cards: list[int] | tuple[int, ...]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


# ---------------------------------------------------------------------- Schieberamsch


def _push_pairs(cards: int, jacks_ok: bool, limit: int) -> list[int]:
    """Pairs of cards worth pushing on: among the ``limit`` richest that may be pushed
    (the most points, then the strongest), as masks."""
    allowed = cards if jacks_ok else cards & ~JACKS
    rich = sorted(_bits(allowed), key=lambda c: (RANK_POINTS[c & 7], _POWER[c]),
                  reverse=True)[:limit]
    return [(1 << a) | (1 << b) for i, a in enumerate(rich) for b in rich[i + 1:]]


def _push_knowledge(view: SeatView, seed: int) -> Knowledge:
    """Before play: every card but this seat's own is unknown (a skat pushed on by an
    earlier player may hold anything)."""
    known = [0, 0, 0]
    known[view.pos] = view.hand
    return Knowledge(
        me=view.pos, declarer=view.pos, game=GRAND, hand_game=False, schneider=False,
        schwarz=False, ouvert=False, bid=0, known=(known[0], known[1], known[2]),
        sizes=view.hand_sizes, skat=None, unknown=0xFFFFFFFF & ~view.hand,
        voids=(0, 0, 0), played_by=(0, 0, 0), trick=(), leader=0, declarer_points=0,
        said=(0, 0, 0), candidates=(), seed=f"{seed}:push:{view.pos}:{view.hand}",
    )


def pushing(view: SeatView, seed: int, budget: Budget) -> tuple[Action, int | None]:
    """Push (take the skat) or pass it on, and the pair to push when the skat is in hand.

    Returns the action and, for a discard, the planned second card. Both choices come from
    the sampled worlds played out by the rule player's Ramsch play: passing as things are,
    pushing with the best pair of that world's twelve cards (one doubling more)."""
    rules = view.rules
    jacks_ok = rules.schieberamsch_jacks
    pos = view.pos
    discards = [a for a in view.legal if isinstance(a, Discard)]
    if discards:
        return _push_discard(view, seed, budget, discards)
    push = next((a for a in view.legal if isinstance(a, Push)), None)
    passes = next((a for a in view.legal if isinstance(a, Pass)), None)
    if push is None or passes is None:
        return (push or passes or view.legal[0]), None
    k = _push_knowledge(view, seed)
    sum_pass = sum_push = 0.0
    n = 0
    deadline = budget.start()
    while budget.more(n, deadline) and n < budget.cap:
        rng = random.Random(f"{k.seed}:{n}")
        hands, skat = sample_world(k, rng)
        base = RamschState(list(hands), skat, 0, [], [0, 0, 0], [0, 0, 0])
        s = base.copy()
        s.play_out()
        sum_pass += s.value(pos, rules.ramsch_jungfrau, rules.ramsch_durchmarsch)
        twelve = hands[pos] | skat
        best = None
        for pair in _push_pairs(twelve, jacks_ok, 4):
            s = base.copy()
            s.hands[pos] = twelve & ~pair
            s.skat = pair
            s.pushes = 1
            s.play_out()
            v = s.value(pos, rules.ramsch_jungfrau, rules.ramsch_durchmarsch)
            best = v if best is None else max(best, v)
        sum_push += best if best is not None else sum_pass
        n += 1
    if n >= MIN_RAMSCH_WORLDS and (sum_push - sum_pass) / n > PUSH_MARGIN:
        return push, None
    return passes, None


def _push_discard(view: SeatView, seed: int, budget: Budget, discards: list[Action]
                  ) -> tuple[Action, int | None]:
    """The two cards to push on (the skat is in hand): the pair with the best mean over the
    worlds played out; returns the first card and the second."""
    rules = view.rules
    pos = view.pos
    cards = view.hand
    allowed = _mask([int(a.card) for a in discards])  # type: ignore[attr-defined]
    if cards.bit_count() == 11:  # the second card of a pair: any planned one, else richest
        best_card = max(_bits(allowed), key=lambda c: (RANK_POINTS[c & 7], _POWER[c]))
        return next(a for a in discards if a.card == best_card), None  # type: ignore[attr-defined]
    pairs = [p for p in _push_pairs(cards, rules.schieberamsch_jacks, 5) if p & allowed == p]
    if not pairs:  # fewer than two cards may be pushed by the pairs' rule: the richest
        pairs = _push_pairs(allowed, True, 2)
    if len(pairs) == 1:
        pair = pairs[0]
    else:
        k = _push_knowledge(view, seed)
        # the seat holds 12: the other two hold 10 each, no skat lies
        sizes = (12 if pos == 0 else 10, 12 if pos == 1 else 10, 12 if pos == 2 else 10)
        k = replace(k, unknown=0xFFFFFFFF & ~cards, sizes=sizes, skat=0)
        totals = [0.0] * len(pairs)
        n = 0
        deadline = budget.start()
        while budget.more(n, deadline) and n < budget.cap:
            rng = random.Random(f"{k.seed}:discard:{n}")
            hands, _ = sample_world(k, rng)
            for i, pair in enumerate(pairs):
                s = RamschState(list(hands), pair, 0, [], [0, 0, 0], [0, 0, 0], pushes=1)
                s.hands[pos] = cards & ~pair
                s.play_out()
                totals[i] += s.value(pos, rules.ramsch_jungfrau, rules.ramsch_durchmarsch)
            n += 1
        pair = pairs[max(range(len(pairs)), key=lambda i: (totals[i], -i))]
    first, second = _bits(pair)[0], _bits(pair)[-1]
    return next(a for a in discards if a.card == first), second  # type: ignore[attr-defined]


def planned_discard(view: SeatView, second: int | None) -> Action | None:
    """The planned second card of a push, if it is still legal."""
    if second is None:
        return None
    return next((a for a in view.legal if isinstance(a, Discard) and a.card == second), None)


def choose(player: object, view: SeatView) -> Action | None:
    """The house-rule decision of the PIMC ``player`` for ``view``, or None when the
    decision is not a house rule's (or a doubling not worth it: then the card is chosen)."""
    budget = Budget(player.budget, player.worlds)  # type: ignore[attr-defined]
    seed: int = player.seed  # type: ignore[attr-defined]
    if view.phase == Phase.PUSHING:
        planned = planned_discard(view, getattr(player, "_push_second", None))
        player._push_second = None  # type: ignore[attr-defined]
        if planned is not None:
            return planned
        action, second = pushing(view, seed, budget)
        player._push_second = second  # type: ignore[attr-defined]
        return action
    if view.phase != Phase.PLAY:
        return None
    if view.game_type == GameType.RAMSCH:
        plays = [int(a.card) for a in view.legal if isinstance(a, Play)]
        if not plays:
            return None
        card = plays[0] if len(plays) == 1 else ramsch_card(
            view, plays, seed, budget, player.rule)  # type: ignore[attr-defined]
        return next(a for a in view.legal if isinstance(a, Play) and a.card == card)
    if any(isinstance(a, Kontra | Re) for a in view.legal):
        # the seat to lay the first card: the card follows in this same decision, so the
        # doubling gets only a share of the time
        return doubling(view, seed, Budget(budget.seconds * DOUBLING_SHARE, budget.worlds))
    return None


__all__ = [
    "DD_CARDS",
    "KONTRA_MARGIN",
    "RE_MARGIN",
    "Budget",
    "RamschState",
    "choose",
    "declarer_chance",
    "doubling",
    "pushing",
    "ramsch_card",
    "ramsch_knowledge",
    "ramsch_loss",
    "rule_ramsch_card",
]


# ---------------------------------------------------------------------- calibration


@dataclass(frozen=True)
class DoublingRecord:
    """One declared game of three rule players, as the doubling decision would see it: the
    declarer's chance estimated from each seat's view at the first card, and what doubling
    would have changed (the declarer's sheet entry, which a doubling adds once more)."""

    deal_seed: int
    game: str
    forehand_defends: bool
    p_defenders: tuple[float, float]  # the two defenders' estimates, forehand's side first
    p_declarer: float
    declarer_value: int


def doubling_records(games: int, seed: int = 0, worlds: int = 24) -> list[DoublingRecord]:
    """Estimates and outcomes of ``games`` declared games (the rule players bid, declare and
    play; passed-in deals are skipped): the material the margins are set from.

    >>> r = doubling_records(1, seed=3, worlds=2)
    >>> len(r), 0 <= r[0].p_declarer <= 1
    (1, True)
    """
    from engine.deal import Deal
    from engine.game import Game
    from engine.players.rule import RulePlayer

    out: list[DoublingRecord] = []
    s = seed * 1_000_003
    budget = Budget(1.0, worlds)
    while len(out) < games:
        s += 1
        g = Game(Deal.shuffled(s))
        rule = [RulePlayer(s + p) for p in range(3)]
        while g.result is None and g.phase != Phase.PLAY:
            g.push(rule[g.to_act].choose(SeatView.of(g, g.to_act)))  # type: ignore[index]
        if g.result is not None or g.declarer is None:
            continue
        d = g.declarer
        defenders = [p for p in (0, 1, 2) if p != d]
        p_def = tuple(declarer_chance(SeatView.of(g, p), seed + p, budget)[0]
                      for p in defenders)
        p_decl = declarer_chance(SeatView.of(g, d), seed + d, budget)[0]
        while g.result is not None or g.phase != Phase.FINISHED:
            if g.result is not None:
                break
            g.push(rule[g.to_act].choose(SeatView.of(g, g.to_act)))  # type: ignore[index]
        assert g.result is not None and g.contract is not None
        out.append(DoublingRecord(s, str(g.contract), d != 0, (p_def[0], p_def[1]), p_decl,
                                  g.result.position_values[d]))
    return out

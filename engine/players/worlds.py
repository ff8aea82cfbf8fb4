"""The worlds a seat samples: what it knows for a card decision, deals of the cards it cannot
see that agree with it, and this process's solvers that solve them.

PIMC's card play (:mod:`engine.players.pimc`), its house-rule decisions
(:mod:`engine.players.house`), the playouts (:mod:`engine.players.rollout`) and the oracle
all draw their worlds here.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass

from engine.cards import mask_points
from engine.contract import GameType
from engine.players import evaluate as ev
from engine.players.base import SeatView
from engine.players.clues import clue_weight, repick_skat, trick_clues
from engine.players.declaring import calls
from engine.players.solver import Solver, Tables

# Sampling tries per world before the bidding limits are given up for that world.
CONSTRAINT_TRIES = 40
DEFAULT_BUDGET = 1.0


@dataclass(frozen=True)
class Knowledge:
    """What a seat knows for a card decision, in a form worker processes can receive."""

    me: int
    declarer: int
    game: int
    hand_game: bool
    schneider: bool
    schwarz: bool
    ouvert: bool
    bid: int
    known: tuple[int, int, int]  # hands known to this seat (its own, an open hand), else 0
    sizes: tuple[int, int, int]
    skat: int | None  # the skat if this seat knows it, else None
    unknown: int
    voids: tuple[int, int, int]
    played_by: tuple[int, int, int]
    trick: tuple[int, ...]
    leader: int
    declarer_points: int  # in the declarer's tricks so far (without the skat)
    said: tuple[int, int, int]  # highest value each position bid or held
    candidates: tuple[int, ...]
    seed: str
    budget: float = DEFAULT_BUDGET
    refused: tuple[int, int, int] = (0, 0, 0)  # the value each position passed at (0: none)
    # card-play clues (engine.players.clues): (position, cards it probably does not hold)
    clues: tuple[tuple[int, int, str], ...] = ()
    weigh_declarer: bool = False  # weigh worlds by the declarer's hand (declarer_fit)
    weigh_discard: bool = False  # weigh worlds by the declarer's discard (discard_weight)


def played_by(view: SeatView) -> tuple[int, int, int]:
    """The cards each position has laid so far (tricks and the trick on the table), as masks."""
    played = [0, 0, 0]
    for t in view.tricks:
        for i, c in enumerate(t.cards):
            played[(t.leader + i) % 3] |= 1 << c
    for i, c in enumerate(view.trick):
        played[(view.trick_leader + i) % 3] |= 1 << c
    return played[0], played[1], played[2]


def knowledge_of(view: SeatView, candidates: list[int], seed: int,
                 budget: float = DEFAULT_BUDGET, inference: bool = False,
                 discard: bool = False) -> Knowledge:
    """The sampling problem of a card decision; ``inference`` adds the card-play clues
    and the declarer's hand weight (:func:`declarer_fit`); ``discard`` a defender's weight
    of the skat the declarer laid away (:func:`engine.players.clues.discard_weight`)."""
    d = view.declarer
    if d is None or view.contract is None or view.game_type is None:
        raise ValueError("card play needs a declared game")
    known = [0, 0, 0]
    known[view.pos] = view.hand
    if view.open_hand is not None:
        known[d] = view.open_hand
    played = played_by(view)
    said = [0, 0, 0]
    last_bid = 0
    for a in view.bidding:
        if a.kind == "bid":
            last_bid = a.value  # type: ignore[attr-defined]
            said[a.pos] = max(said[a.pos], last_bid)
        elif a.kind == "hold":
            said[a.pos] = max(said[a.pos], last_bid)
    skat: int | None = None
    if view.pos == d and view.skat_taken:
        skat = view.skat
    c = view.contract
    return Knowledge(
        me=view.pos, declarer=d, game=int(view.game_type), hand_game=c.hand,
        schneider=c.schneider, schwarz=c.schwarz, ouvert=c.ouvert, bid=view.bid,
        known=(known[0], known[1], known[2]), sizes=view.hand_sizes, skat=skat,
        unknown=view.unknown, voids=view.voids, played_by=played,
        trick=view.trick, leader=view.trick_leader,
        declarer_points=mask_points(view.won[d]), said=(said[0], said[1], said[2]),
        candidates=tuple(candidates),
        seed=f"{seed}:{view.pos}:{view.hand}:{view.played}", budget=budget,
        refused=tuple(r for _, r in calls(view.bidding)),  # type: ignore[arg-type]
        clues=view_clues(view, known) if inference else (),
        weigh_declarer=inference and view.pos != d and not known[d]
        and c.game != GameType.NULL,
        weigh_discard=discard and view.pos != d and not known[d] and view.skat_taken
        and c.game != GameType.NULL,
    )


def view_clues(view: SeatView, known: list[int] | None = None
               ) -> tuple[tuple[int, int, str], ...]:
    """The card-play clues of the tricks this seat has seen (none about itself or an open
    hand): :func:`engine.players.clues.trick_clues`."""
    if view.game_type is None or view.declarer is None:
        return ()
    skip = [p for p in range(3) if p == view.pos or (known is not None and known[p])]
    tricks = [tuple(int(c) for c in t.cards) for t in view.tricks]
    leaders = [t.leader for t in view.tricks]
    if view.trick:
        tricks.append(tuple(view.trick))
        leaders.append(view.trick_leader)
    return trick_clues(tricks, leaders, int(view.game_type), view.declarer, view.unknown, skip)


# ---------------------------------------------------------------------- sampling


def sample_world(k: Knowledge, rng: random.Random) -> tuple[list[int], int]:
    """Hands of all three positions and the skat, consistent with ``k``.

    A world that does not fit the bidding is redrawn; one that contradicts card-play clues
    is kept with the chance :func:`~engine.players.clues.clue_weight` gives it (so the worlds
    solved follow the clues' weights, and no solve is spent on a world then weighed down).
    After ``CONSTRAINT_TRIES`` draws the best one drawn is used."""
    best: tuple[list[int], int] | None = None
    best_w = -1.0
    for _ in range(CONSTRAINT_TRIES):
        world = _deal_unknown(k, rng)
        if k.weigh_discard:
            world = _repick_skat(k, world, rng)
        w = clue_weight(world[0], k.clues) if k.clues else 1.0
        if k.weigh_declarer:
            w *= declarer_fit(k, world[0])
        if not _fits_bidding(k, world):
            w -= 1.0  # below any world that fits
        elif w >= 1.0 or rng.random() < w:
            return world
        if w > best_w:
            best, best_w = world, w
    assert best is not None
    return best


# A declarer's ten cards (after the discard) whose evaluated strength margin for his game is
# below a threshold make a world this much less likely: (threshold, weight), the lowest
# threshold first. Measured on XSkat's declarations (seed 1000 of the position record of
# ``skat-table decisions``): the true declarer's margin in suit games is below -3 in 5 % of
# them, a sampled one in 65 %; in grand 8 % and 69 %.
DECLARER_FIT = {
    "suit": ((-3.0, 0.03), (-2.0, 0.5)),
    "grand": ((-3.0, 0.03), (-1.0, 0.2)),
}


def declarer_fit(k: Knowledge, hands: list[int]) -> float:
    """How likely a declarer with this world's cards would have declared ``k``'s game, as
    a weight (1: a hand the evaluation declares it with; less for a weaker one).

    A defender's sampled worlds otherwise give the declarer any cards worth his bid, most of
    them far weaker than a hand anyone declares the game with."""
    d = k.declarer
    ten = hands[d] | k.played_by[d]
    if k.game == ev.GRAND:
        margin = ev.grand_score(ten, d == 0) - ev.GRAND_NEED
        steps = DECLARER_FIT["grand"]
    else:
        margin = ev.suit_strength(ten, k.game) - 9.0
        steps = DECLARER_FIT["suit"]
    for threshold, weight in steps:
        if margin < threshold:
            return weight
    return 1.0


def _repick_skat(k: Knowledge, world: tuple[list[int], int], rng: random.Random
                 ) -> tuple[list[int], int]:
    """The world with its skat redrawn among the declarer's hidden cards and the skat by
    how likely he laid them away (:func:`engine.players.clues.repick_skat`)."""
    hands, skat = world
    d = k.declarer
    union = hands[d] | skat
    new = repick_skat(union, union & k.voids[d], k.played_by[d], k.game,
                      lambda options, weights: rng.choices(options, weights)[0])
    hands = list(hands)
    hands[d] = union & ~new
    return hands, new


def _deal_unknown(k: Knowledge, rng: random.Random) -> tuple[list[int], int]:
    slots = [p for p in range(3) if not k.known[p]]
    capacity = {p: k.sizes[p] for p in slots}
    skat_slot = 3 if k.skat is None else None
    if skat_slot is not None:
        capacity[3] = 2
    cards = [c for c in range(32) if k.unknown >> c & 1]
    if len(cards) != sum(capacity.values()):
        raise ValueError(
            f"{len(cards)} unknown cards do not fill {sum(capacity.values())} places"
        )
    forbidden = {p: k.voids[p] for p in slots}
    forbidden[3] = 0
    # Cards some place may not take are placed one by one; the rest (before any void is
    # shown, all of them) are then dealt to the places left by one shuffle: the same
    # distribution as placing each by the capacity left, at a fraction of the cost.
    barred = 0
    for s in capacity:
        barred |= forbidden[s]
    restricted = [c for c in cards if barred >> c & 1]
    free = [c for c in cards if not barred >> c & 1]
    for _attempt in range(200):
        rng.shuffle(restricted)
        # the most restricted cards first, so a void never leaves a card without a place
        restricted.sort(key=lambda c: sum(1 for s in capacity if not forbidden[s] >> c & 1))
        left = dict(capacity)
        hands = list(k.known)
        skat = k.skat or 0
        ok = True
        for c in restricted:
            places = [s for s in left if left[s] and not forbidden[s] >> c & 1]
            if not places:
                ok = False
                break
            weights = [left[s] for s in places]
            s = rng.choices(places, weights)[0]
            left[s] -= 1
            if s == 3:
                skat |= 1 << c
            else:
                hands[s] |= 1 << c
        if not ok:
            continue
        rng.shuffle(free)
        i = 0
        for s, n in left.items():
            m = 0
            for c in free[i:i + n]:
                m |= 1 << c
            i += n
            if s == 3:
                skat |= m
            else:
                hands[s] |= m
        return hands, skat
    raise ValueError("no deal fits what this seat knows (inconsistent voids)")


def _fits_bidding(k: Knowledge, world: tuple[list[int], int]) -> bool:
    """Could each hidden hand in this world have bid what its player bid?

    The declarer's cards must make a game worth his bid (leniently: one level of schneider
    is granted, he may also have overbid); a defender who bid must have held a hand the
    evaluation would bid that high with (one strength unit bolder), and one who passed a
    hand it would not have bid at that value (one unit more timidly).
    """
    hands, skat = world
    d = k.declarer
    for p in range(3):
        if p in (k.me, d) or k.known[p]:
            continue
        cards = hands[p] | k.played_by[p]
        if k.said[p] and ev.bid_limit(cards, bonus=1.0) < k.said[p]:
            return False
        if k.refused[p] and ev.bid_limit(cards, bonus=-1.0) >= k.refused[p]:
            return False
    if k.me == d or k.game == ev.NULL or k.known[d]:
        return True
    twelve = hands[d] | k.played_by[d] | skat
    base = ev.BASE_VALUES[k.game]
    levels = abs(ev.matadors(twelve, k.game)) + 1 + k.hand_game + k.schneider + k.schwarz
    levels += 1 if k.ouvert else 0
    return base * (levels + 1) >= k.bid

# --------------------------------------------------------------------- solving


# A world whose search needs more nodes than this is dropped (a few such positions take
# millions of nodes; a decision is better served by many ordinary worlds).
MAX_NODES_C = 400_000
MAX_NODES_PYTHON = 30_000
_SOLVERS: dict[tuple[int, int], Solver] = {}


def _solver(game: int, declarer: int) -> Solver:
    """This process's solver for a game and declarer (its transposition table is reused
    across worlds: entries are keyed by the full hands, so they stay valid)."""
    s = _SOLVERS.get((game, declarer))
    if s is None:
        _SOLVERS.clear()  # one game at a time: keep the memory of one solver only
        s = _SOLVERS[(game, declarer)] = Solver(game, declarer)
        s.max_nodes = MAX_NODES_C if s.uses_c else MAX_NODES_PYTHON
    return s


def clear_solvers() -> None:
    """Drop this process's solvers and their transposition tables.

    For measurements that ask two players the same worlds in turn (``skat-table decisions``,
    the bench): without it the second would solve them on the first one's table, several
    times faster."""
    _SOLVERS.clear()


def _cards_mask(cards: Iterable[int]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def _equivalent_groups(t: Tables, legal: list[int], hand: int, remaining: int
                       ) -> list[list[int]]:
    """Legal cards grouped by exact equivalence (no outstanding card between them, same
    points): every card of a group gives the same result in every world."""
    groups: dict[int, list[int]] = {}
    hand_i = t.internal(hand)
    rem_i = t.internal(remaining)
    for c in sorted(legal, key=lambda c: t.to_internal[c]):
        i = t.to_internal[c]
        rep = i
        # climb to the highest card of this run still held with no outstanding card between
        while True:
            above = rem_i & t.run_mask[rep]
            if above and hand_i & (above & -above):
                rep = (above & -above).bit_length() - 1
            else:
                break
        groups.setdefault(rep, []).append(c)
    return [sorted(g, key=lambda c: -t.to_internal[c]) for g in groups.values()]


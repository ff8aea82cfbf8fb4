"""Benchmark group "engine": random complete games per second on one core.

Two figures:

- ``random_games_per_s``: a tight loop on card masks. Each game: a fresh shuffle, a random
  bidding played call by call on ``engine.bidding``'s states (bids, jumps, holds, passes in
  the ISkO order, until a declarer and bid are determined or all three pass), a random
  contract that may be declared at that bid (hand or with a pick-up and two random discards,
  announcements included), random legal cards until the game ends by the rules (all ten
  tricks, or earlier in null and schwarz-announced games), and the scoring. An all-pass deal
  counts as a complete game (passed in, worth 0). The rules come from the engine's own code:
  the bidding states' links, the ``FOLLOW``/``BEATS`` tables of ``legal_mask`` and
  ``trick_winner``, ``matadors``, ``suit_grand_value``/``null_game_value``; the loop only
  follows links and moves cards between masks.
- ``game_api_games_per_s``: the same kind of game (the same random choices) driven through
  ``Game``: ``legal_actions()`` at every step, each action checked by ``push`` (undo snapshot,
  messages ready), the full ``GameResult``.

Figures are medians of several runs (``RUNS``), in games per second of CPU time of this
process (one core), so that other work on a shared machine does not lower them.
"""

from __future__ import annotations

import functools
import random
import statistics
import time
from collections.abc import Callable

from engine.actions import Bid, Declare, Discard, Hold, Pass
from engine.bidding import START as BIDDING_START
from engine.cards import mask_points
from engine.contract import BID_VALUES, Contract, GameType
from engine.deal import Deal
from engine.game import Game, Phase
from engine.scoring import null_game_value, suit_grand_value
from engine.trick import BEATS, FOLLOW, matadors

RUNS = 5

_BIT = tuple(1 << c for c in range(32))
_NEXT = (1, 2, 0)

_HAND_CONTRACTS = tuple(
    [Contract(g, hand=True) for g in range(5)] * 6
    + [Contract(g, hand=True, schneider=True) for g in range(5)]
    + [Contract(g, hand=True, schwarz=True) for g in range(5)]
    + [Contract(g, ouvert=True) for g in range(5)]
    + [Contract(GameType.NULL, hand=True), Contract(GameType.NULL, hand=True, ouvert=True)] * 3
)
_PICKUP_CONTRACTS = tuple(
    [Contract(g) for g in range(5)] * 2
    + [Contract(GameType.NULL), Contract(GameType.NULL, ouvert=True)]
)


# The random bidding: a bidder passes with PASS_CHANCE, else says the next value or jumps
# (JUMPS: how many legal values are skipped, drawn from 16 equally likely entries); a listener
# holds with HOLD_CHANCE, else passes. All three pass in about PASS_CHANCE ** 3 of the deals.
PASS_CHANCE = 0.35
HOLD_CHANCE = 0.5
_JUMPS = (0,) * 11 + (1, 1, 2, 3, 5)


@functools.cache
def _contracts_by_bid() -> dict[int, tuple[tuple[tuple[Contract, int, bool], ...], ...]]:
    """For each bid, the hand and pick-up contracts the loop draws from: those that can be
    declared at that bid (a null game worth less than the bid cannot)."""
    out = {}
    for bid in BID_VALUES:
        out[bid] = tuple(
            tuple((c, int(c.game), c.schwarz) for c in pool
                  if c.null_value is None or c.null_value >= bid)
            for pool in (_HAND_CONTRACTS, _PICKUP_CONTRACTS)
        )
    return out


@functools.cache
def _select_tables() -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]:
    """For each 16-bit half of a mask, its cards as bits (low half, high half): drawing the
    k-th card of a hand is then two lookups. Built once, on first use (~0.2 s, ~14 MB)."""
    lo = tuple(tuple(1 << i for i in range(16) if b >> i & 1) for b in range(65536))
    hi = tuple(tuple(x << 16 for x in t) for t in lo)
    return lo, hi


def random_games(n: int, seed: int = 1, record: list[tuple] | None = None) -> int:
    """Play ``n`` random complete games on masks; returns the sum of the signed values (so
    the work cannot be optimised away and runs can be compared).

    The bidding is played call by call on ``engine.bidding``'s states (the ones ``Game``
    uses), following their links: the bidder passes (``PASS_CHANCE``) or says the next value or
    a jump (``JUMPS``), the listener holds (``HOLD_CHANCE``) or passes. An all-pass deal is a
    complete game worth 0 (passed in, as under the ISkO).

    With ``record``, each game is appended as ``(deal, calls, declarer, bid, contract,
    discards, cards laid, value)`` (``calls``: the bidding as ``Bid``/``Hold``/``Pass``;
    declarer and contract None when passed in) so that tests can replay it through ``Game``.
    """
    rng = random.Random(seed)
    getrandbits = rng.getrandbits
    lo, hi = _select_tables()
    deck = list(_BIT)  # cards as their bits: a hand's mask is the sum of its slice
    # FOLLOW and BEATS (the tables legal_mask and trick_winner read), keyed by card bit
    follow_t = [{1 << c: FOLLOW[g][c] for c in range(32)} for g in range(7)]
    beats_t = [{1 << c: BEATS[g][c] for c in range(32)} for g in range(7)]
    nxt = _NEXT
    null = int(GameType.NULL)
    contracts_at = _contracts_by_bid()
    jumps = _JUMPS
    pass_below = int(PASS_CHANCE * 4096)
    hold_below = int(HOLD_CHANCE * 4096)
    start = BIDDING_START
    total = 0
    for _ in range(n):
        # Fisher-Yates on the previous game's order (any order shuffles to a uniform one)
        r = getrandbits(496)
        for i in range(31, 0, -1):
            j = ((r & 0xFFFF) * (i + 1)) >> 16
            r >>= 16
            deck[i], deck[j] = deck[j], deck[i]
        h = [sum(deck[0:10]), sum(deck[10:20]), sum(deck[20:30])]
        skat = deck[30] | deck[31]
        deal = (h[0], h[1], h[2], skat) if record is not None else None
        # the bidding, call by call; every link of a state is a legal call
        b = start
        calls = [] if record is not None else None
        while not b.done:
            r = getrandbits(16)
            if b.to_act == b.bidder:
                rs = b.raises
                if (r >> 4) < pass_below or not rs:
                    if calls is not None:
                        calls.append(Pass(b.to_act))
                    b = b.on_pass
                else:
                    k = jumps[r & 15]
                    if k >= len(rs):
                        k = len(rs) - 1
                    if calls is not None:
                        calls.append(Bid(b.to_act, rs[k].bid))
                    b = rs[k]
            elif (r >> 4) < hold_below:
                if calls is not None:
                    calls.append(Hold(b.to_act))
                b = b.on_hold
            else:
                if calls is not None:
                    calls.append(Pass(b.to_act))
                b = b.on_pass
        d = b.declarer
        if d is None:  # passed in: a complete game worth nothing
            if record is not None:
                record.append((deal, calls, None, 0, None, 0, [], 0))
            continue
        bid = b.bid
        hand_contracts, pickup_contracts = contracts_at[bid]
        twelve = h[d] | skat
        discards = 0
        if getrandbits(16) < 19661:  # 30 % hand games
            c, g, schwarz_announced = hand_contracts[
                (getrandbits(16) * len(hand_contracts)) >> 16]
        else:
            c, g, schwarz_announced = pickup_contracts[
                (getrandbits(16) * len(pickup_contracts)) >> 16]
            k = (getrandbits(16) * 12) >> 16
            t = lo[twelve & 0xFFFF]
            x = t[k] if k < len(t) else hi[twelve >> 16][k - len(t)]
            m = twelve ^ x
            k = (getrandbits(16) * 11) >> 16
            t = lo[m & 0xFFFF]
            y = t[k] if k < len(t) else hi[m >> 16][k - len(t)]
            discards = x | y
            h[d] = twelve ^ discards
            skat = discards
        follow = follow_t[g]
        beats = beats_t[g]
        laid = [] if record is not None else None
        leader = 0
        won = 0
        tricks = 0
        done = 0
        for done in range(1, 11):  # noqa: B007 (done is read after the loop)
            # the leader lays any card; the others one of legal_mask(hand, lead, game)
            p0 = leader
            m = h[p0]
            k = (getrandbits(16) * m.bit_count()) >> 16
            t = lo[m & 0xFFFF]
            b0 = t[k] if k < len(t) else hi[m >> 16][k - len(t)]
            h[p0] ^= b0
            f = follow[b0]
            p1 = nxt[p0]
            m = h[p1] & f or h[p1]
            if m & (m - 1):
                k = (getrandbits(16) * m.bit_count()) >> 16
                t = lo[m & 0xFFFF]
                b1 = t[k] if k < len(t) else hi[m >> 16][k - len(t)]
            else:
                b1 = m
            h[p1] ^= b1
            p2 = nxt[p1]
            m = h[p2] & f or h[p2]
            if m & (m - 1):
                k = (getrandbits(16) * m.bit_count()) >> 16
                t = lo[m & 0xFFFF]
                b2 = t[k] if k < len(t) else hi[m >> 16][k - len(t)]
            else:
                b2 = m
            h[p2] ^= b2
            # trick_winner's rule: BEATS[game][card] holds the cards that take that card
            if beats[b0] & b1:
                leader = p2 if beats[b1] & b2 else p1
            else:
                leader = p2 if beats[b0] & b2 else p0
            if laid is not None:
                laid += (b0.bit_length() - 1, b1.bit_length() - 1, b2.bit_length() - 1)
            if leader == d:
                won |= b0 | b1 | b2
                tricks += 1
                if g == null:
                    break
            elif schwarz_announced:
                break
        if g == null:
            value = null_game_value(c, tricks == 0)
        else:
            ending = "played" if done == 10 else "schwarz-lost"
            value = suit_grand_value(c, bid, matadors(twelve, g), mask_points(won | skat),
                                     tricks, ending)[1]
        total += value
        if record is not None:
            record.append((deal, calls, d, bid, c, discards, laid, value))
    return total


def api_games(n: int, seed: int = 1) -> int:
    """Play ``n`` random complete games through ``Game``: ``legal_actions()`` at every step,
    every action through ``push`` (checked, undo snapshot kept), the full ``GameResult``.

    The choices follow the fast loop's: the same bidding chances and jumps (drawn from the
    listed calls), 30 % hand games, the same contract pools (a contract ``legal_actions``
    lists; ``push`` refuses any other), two random discards, random listed cards.
    """
    rng = random.Random(seed)
    getrandbits = rng.getrandbits
    contracts_at = _contracts_by_bid()
    jumps = _JUMPS
    pass_below = int(PASS_CHANCE * 4096)
    hold_below = int(HOLD_CHANCE * 4096)
    bidding, skat, play, finished = Phase.BIDDING, Phase.SKAT, Phase.PLAY, Phase.FINISHED
    deck = list(_BIT)
    total = 0
    for _ in range(n):
        # the fast loop's shuffle; Deal checks the ten, ten, ten and two cards as always
        r = getrandbits(496)
        for i in range(31, 0, -1):
            j = ((r & 0xFFFF) * (i + 1)) >> 16
            r >>= 16
            deck[i], deck[j] = deck[j], deck[i]
        g = Game(Deal((sum(deck[0:10]), sum(deck[10:20]), sum(deck[20:30])),
                      deck[30] | deck[31]))
        pickup = None
        legal_actions, push = g.legal_actions, g.push
        while (ph := g.phase) is not finished:
            acts = legal_actions()
            r = getrandbits(16)
            if ph is play:
                a = acts[(r * len(acts)) >> 16]
            elif ph is bidding:
                # the bidder's calls are the bids upwards then Pass; the listener's Hold, Pass
                if (r >> 4) < (hold_below if type(acts[0]) is Hold else pass_below):
                    a = acts[0] if type(acts[0]) is Hold else acts[-1]
                elif type(acts[0]) is Hold or len(acts) == 1:
                    a = acts[-1]
                else:
                    a = acts[min(jumps[r & 15], len(acts) - 2)]
            elif ph is skat:
                hand_contracts, pickup_contracts = contracts_at[g.bid]
                if r < 19661:  # 30 % hand games
                    c = hand_contracts[(getrandbits(16) * len(hand_contracts)) >> 16][0]
                    a = Declare(g.to_act, c)  # type: ignore[arg-type]
                else:
                    a = acts[0]  # TakeSkat
                    pickup = pickup_contracts[(getrandbits(16) * len(pickup_contracts)) >> 16]
            else:  # discarding: two random cards, then the pick-up contract drawn above
                discards = [x for x in acts if type(x) is Discard]
                if discards:
                    a = discards[(r * len(discards)) >> 16]
                else:
                    a = Declare(g.to_act, pickup[0])  # type: ignore[arg-type, index]
            push(a)
        total += g.result.value  # type: ignore[union-attr]
    return total


def _rate(func: Callable[..., int], n: int, runs: int) -> float:
    """Median games per second of CPU time: the figure for one core, also on a busy machine."""
    func(10)  # build the lookup tables outside the timing
    rates = []
    for r in range(runs):
        t0 = time.process_time()
        func(n, seed=r + 1)
        rates.append(n / (time.process_time() - t0))
    return statistics.median(rates)


def bench(quick: bool = False) -> dict[str, float]:
    """Median games per second of ``RUNS`` runs (quick: few games, rough)."""
    runs = 3 if quick else RUNS
    return {
        "random_games_per_s": round(_rate(random_games, 2_000 if quick else 100_000, runs), 1),
        "game_api_games_per_s": round(_rate(api_games, 200 if quick else 5_000, runs), 1),
    }

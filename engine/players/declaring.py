"""Bidding, hand or skat and the contract by search: the PIMC player's choices before play.

Every choice before the first card is made the same way: sample *worlds* (the cards this seat
cannot see: the skat and the opponents' hands, or after a pick-up only the opponents' hands),
solve each world double-dummy from the first lead for every candidate contract (the same
worlds for all candidates: common random numbers, so their difference is measured far more
precisely than each value), and choose by the expected Seeger-Fabian points of the declarer
(won: value + 50; lost: -2 x value - 50), not by the chance of winning.

- **After a pick-up**: the candidates are the game types with the rule player's discard for
  each (:func:`rule_players_discard`; null the evaluation's), pruned by the evaluation (far
  weaker game types are not solved, but grand with two jacks and a playable null always
  are), null also as null ouvert; the value of a suit or grand game counts schneider when
  the world makes it.
- **Hand or skat**: per sampled skat the hand games are solved with that skat, and the
  pick-up with the best of a few contracts for the twelve cards (chosen per skat over that
  skat's worlds, so not with hindsight of the opponents' cards); schneider announced and null
  ouvert hand are priced from the same solves. A hand game the evaluation finds within reach
  is declared when it is expected to score ``HAND_GAIN`` more than the pick-up; else the
  rule player decides.
- **Bidding**: the evaluation's limit for suit and grand games stands (double-dummy worlds,
  where the defenders see every card, are too pessimistic for an ordinary suit game: measured,
  a search-only limit passed hands the evaluation bids and wins); above it, and for null, the
  search decides: the value of the hand at a level is the better of the pick-up and the best
  hand game there, and the seat bids (or holds) while it is at least ``BID_MARGIN``. The
  worlds of one deal are kept between the bidding decisions and the hand-or-skat decision
  (more are added while the budget allows).
- **Inference**: a world is weighted by how well the opponents' hands in it fit their calls
  under the evaluation's bidding (:func:`call_weight`): a hand that could not have bid what
  its player bid, or that would have bid where its player passed, counts ``MISFIT``.

A question whose search passes the node budget is answered by the evaluation (61 won when
its strength margin is at least ``GUESS_WON``, 90 made from ``GUESS_SCHNEIDER``; strong
grands proved from the first lead can take millions of nodes). With too few worlds solved
in the time (``MIN_WORLDS``) the evaluation decides, as for the rule player; a world the
time ran out in is dropped for every candidate.

>>> from engine.deal import Deal
>>> from engine.game import Game
>>> from engine.players.base import SeatView
>>> g = Game(Deal.shuffled(3))
>>> d = Declaring(seed=1, worlds=6)
>>> d.bid(SeatView.of(g, 1)) in g.legal_actions()
True
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from itertools import pairwise

from engine.actions import Action, Bid, Declare, Discard, Hold, Pass
from engine.bidding import START, Bidding
from engine.cards import JACKS, mask_points
from engine.contract import BID_VALUES, Contract, GameType, next_bid
from engine.players import evaluate as ev
from engine.players.base import SeatView
from engine.players.nullcheck import NullCheck, NullTimedOut, NullTooLong, lead_choices
from engine.players.rule import BOLD, RulePlayer, choose_game
from engine.players.solver import SearchLimitReached, SearchTimedOut, Solver
from engine.scoring import suit_grand_value

GRAND = 4
NULL = 5
# A world weighs this much for each opponent whose calls its hand does not fit.
MISFIT = 0.2
# Bid (or hold) a level while the expected Seeger-Fabian points of playing it are at least
# this (passing scores about 0 for the seat).
BID_MARGIN = 0.0
# A hand game is searched only this close to the evaluation's safe strength, and declared
# only when it is expected to score this much more than the pick-up (the pick-up is valued
# with the evaluation's discard and a few contracts, so it is underrated a little).
HAND_WITHIN = 0.5
HAND_GAIN = 10.0
# Fewer solved worlds than this: the evaluation decides.
MIN_WORLDS = 6
# Opponents' deals solved per sampled skat in the bidding (the pick-up contract is chosen per
# skat over them).
DEALS_PER_SKAT = 2
# Candidate pruning by the evaluation's strength margin (strength minus what is safe).
KEEP_WITHIN = 3.0
GRAND_WITHIN = 4.5
NULL_FROM = -1.5
# Another contract replaces the evaluation's first choice only if it is expected to score
# this much more (a small guard against the noise of few worlds).
SWITCH_GAIN = 2.0
# The search's solvers: a smaller table than the card play's (up to six are kept), and a
# node budget so that a rare exploding world is dropped, not waited for.
TT_ENTRIES = 1 << 17
MAX_NODES_C = 400_000
MAX_NODES_PYTHON = 30_000
# A solve past its node budget counts as won (61) when the evaluation's margin is at least
# GUESS_WON, and as schneider made (90) from GUESS_SCHNEIDER. Measured on 80 contract
# searches (deal seeds 20 000 and 40 000 on, 1 s each), solved without a limit afterwards:
# of the 267 questions for 61 past the limit 180 were won (below a margin of -1: 35 of 82;
# from -1: 145 of 185, from 0: 65 of 71); with the first threshold, +1, the answer taken was
# right for 111 of them, with -1 for 192. Of the 93 questions for 90: 72 made (margin from
# 0: 69 of 84, below: 3 of 9); they all counted as not made before.
GUESS_WON = -1.0
GUESS_SCHNEIDER = 0.0
# ``quick`` contract search after a pick-up (at a short budget): the C solver's node budget
# per question, and after PRUNE_AFTER worlds a play whose best candidate is PRUNE_GAP points
# behind the best is solved no more.
QUICK_NODES = 100_000
PRUNE_AFTER = 3
PRUNE_GAP = 60.0
# Below this budget (seconds, timed) the rule player bids, not the search: at 0.2 s the
# search's worlds are too few, and at 1 s the rule player's bidding was ahead too (+2.73 a
# seat over three seeds; docs/players.md, "What was learned"; measured: lab/experiments.csv,
# pimc+rulebid vs pimc), so every timed budget up to 10 s bids by the rule player.
SEARCH_BID_FROM = 10.0
# Worlds kept per deal for the bidding (enough for a decision at any budget).
MAX_BID_WORLDS = 240
# The rule player's ``twojacks`` lesson (a two-jack grand without three aces and a ten, or
# the club jack in forehand with four standing side cards, was won 51 % against XSkat, the
# others 89 %) is priced by the search itself: double-dummy won such grands (forehand, grand
# count safe) in 64 % of sampled worlds (128 of 200), the two-jack grands ``twojacks``
# accepts in 94.5 %, three jacks or more in 95 %.


# The double-dummy win share of a declared game -> its chance at the table, against XSkat's
# defence with PIMC's card play at 0.2 s (``calibrated``; ``Declaring(calib=True)``, harness
# ``pimc+calib``). Double-dummy defenders see the declarer's cards, so an ordinary suit game
# the table wins is lost in most worlds. Measured by ``python -m lab.ddshare``
# (docs/players.md, "Measuring strength"): 1,071 pick-ups PIMC declared in duels against
# XSkat (deal seeds 930, 950, 1000, 100 deals each), each solved in 24 worlds of ``plan``'s
# sampler: suit games with share 0 won 36 of 119 at the table, (0, 0.25) 81 of 119 (mean
# share 0.11), [0.25, 0.75) 144 of 167 (0.51), [0.75, 1) 185 of 199 (0.90), 1: 171 of 173;
# grands below 0.75 won 33 of 45 (mean share 0.33), [0.75, 1) 35 of 40 (0.88), 1: 168 of
# 169. Grand and null (40 games) are taken as they are: above 0.75 grand's share is its
# chance; below, the 45 grands were the rule player's choice, and the grands the search
# weighs against a suit game are weaker (a curve from them valued a grand lost in every
# world at +30 and switched from the suit to it).
CALIB_SUIT = ((0.0, 0.30), (0.1, 0.68), (0.5, 0.86), (0.9, 0.93), (1.0, 0.99))


# ---------------------------------------------------------------------- scoring


def calibrated(game: int, share: float) -> float:
    """The chance at the table of a game whose sampled worlds double-dummy won ``share`` of:
    a suit game's linear between the points of ``CALIB_SUIT``; grand and null as they are.

    >>> calibrated(0, 0.0), calibrated(0, 0.3), calibrated(GRAND, 0.25), calibrated(NULL, 0.25)
    (0.3, 0.77, 0.25, 0.25)
    """
    if game >= GRAND:
        return share
    curve = CALIB_SUIT
    for (x0, y0), (x1, y1) in pairwise(curve):
        if share <= x1:
            return round(y0 + (y1 - y0) * (max(share, x0) - x0) / (x1 - x0), 6)
    return curve[-1][1]


def calibrated_points(contract: Contract, bid: int, matadors: int, share: float,
                      won_mean: float | None, lost_mean: float | None) -> float:
    """A candidate's expected points with the calibrated chance of its double-dummy share:
    p x (its mean over the worlds won, or the value it wins with) + (1 - p) x (its mean over
    the worlds lost, or the loss).

    >>> calibrated_points(Contract.parse("C"), 18, 1, 0.0, None, -98.0)  # 0.3 x 74 - 0.7 x 98
    -46.4
    """
    p = calibrated(int(contract.game), share)
    if won_mean is None:
        won_mean = sf_points(contract, bid, matadors, True, False)
    if lost_mean is None:
        lost_mean = sf_points(contract, bid, matadors, False, False)
    return round(p * won_mean + (1 - p) * lost_mean, 6)


def sf_points(contract: Contract, bid: int, matadors: int, won: bool, schneider: bool) -> float:
    """The declarer's Seeger-Fabian points if he plays ``contract`` at ``bid`` and reaches 61
    (null: takes no trick) or not, and 90 or not (the engine's scoring rules).

    >>> sf_points(Contract.parse("G"), 18, 2, True, False)     # grand with 2: 72 + 50
    122
    >>> sf_points(Contract.parse("C"), 48, 1, True, False)     # clubs with 1 at 48: overbid
    -146
    >>> sf_points(Contract.parse("NO"), 23, 0, False, False)
    -142
    """
    nv = contract.null_value
    if nv is not None:
        return nv + 50 if won else -2 * nv - 50
    points = 90 if won and schneider else 61 if won else 60
    ok, value, *_ = suit_grand_value(contract, bid, matadors, points, 5)
    return value + 50 if ok else value - 50


def covers_bid(contract: Contract, bid: int, cards: int, game: int) -> bool:
    """Does ``contract``, declared with these twelve cards, reach ``bid`` when won without
    schneider (null: its value)?

    >>> from engine.cards import parse_mask
    >>> twelve = parse_mask("CJ HJ C8 CQ H9 HT HA D7 D9 DQ S7 SQ")   # with 1
    >>> covers_bid(Contract.parse("H"), 20, twelve, 2)     # hearts with 1: 20
    True
    >>> covers_bid(Contract.parse("D"), 20, twelve, 3)     # diamonds with 1: 18, 27 schneider
    False
    """
    m = ev.matadors(cards, game) if game != NULL else 0
    return sf_points(contract, bid, m, True, False) > 0


def contract_variants(game: int, hand: bool, bid: int) -> list[Contract]:
    """The contracts one play can be declared as: plain, schneider announced (hand), null
    ouvert; null ones worth less than the bid are left out."""
    g = GameType(game)
    if game == NULL:
        out = [Contract(g, hand=hand), Contract(g, hand=hand, ouvert=True)]
        return [c for c in out if (c.null_value or 0) >= bid]
    if hand:
        return [Contract(g, hand=True), Contract(g, hand=True, schneider=True)]
    return [Contract(g)]


# ---------------------------------------------------------------------- inference


def calls(bidding: Iterable[Action]) -> tuple[tuple[int, int], ...]:
    """For each position (said, refused): the highest value it bid or held (0: none), and
    the value it declined to bid or hold when it passed (0: it has not passed).

    >>> from engine.actions import Bid, Hold, Pass
    >>> calls([Bid(1, 18), Hold(0), Bid(1, 20), Pass(0), Pass(2)])
    ((18, 20), (20, 0), (0, 22))
    """
    said = [0, 0, 0]
    refused = [0, 0, 0]
    b: Bidding = START
    for a in bidding:
        if isinstance(a, Bid):
            said[a.pos] = max(said[a.pos], a.value)
            b = b.after_bid(a.pos, a.value)
        elif isinstance(a, Hold):
            said[a.pos] = max(said[a.pos], b.bid)
            b = b.after_hold(a.pos)
        elif isinstance(a, Pass):
            if a.pos == b.listener:
                refused[a.pos] = b.bid
            else:
                refused[a.pos] = next_bid(b.bid) or 999
            b = b.after_pass(a.pos)
    return tuple((said[p], refused[p]) for p in range(3))


def call_weight(hand: int, said: int, refused: int) -> float:
    """How well a ten-card hand fits its player's calls under the evaluation's bidding: 1,
    or ``MISFIT`` for each call it contradicts (it could not have bid ``said`` even bolder
    by one strength unit; it would have bid ``refused`` even a unit more timidly).

    >>> from engine.cards import parse_mask
    >>> strong = parse_mask("CJ SJ HJ DJ CA CT CK SA HA DA")
    >>> call_weight(strong, 0, 18), call_weight(strong, 48, 0)
    (0.2, 1.0)
    """
    w = 1.0
    if said and ev.bid_limit(hand, bonus=1.0) < said:
        w *= MISFIT
    if refused and ev.bid_limit(hand, bonus=-1.0) >= refused:
        w *= MISFIT
    return w


def world_weight(hands: list[int], me: int, said_refused: tuple[tuple[int, int], ...]) -> float:
    w = 1.0
    for p in range(3):
        if p != me:
            w *= call_weight(hands[p], *said_refused[p])
    return w


# ---------------------------------------------------------------------- solving


class Solvers:
    """This player's solvers, one per game type and declarer (kept: their tables stay valid
    across worlds, and creating one costs milliseconds)."""

    def __init__(self, max_nodes: int = MAX_NODES_C) -> None:
        self._s: dict[tuple[int, int], Solver] = {}
        # the C solver's node budget per question (``MAX_NODES_C``)
        self.max_nodes = max_nodes
        # what the questions cost (:func:`engine.players.bench.contract_limits`): how many,
        # their seconds, those past the node budget and their seconds; ``kept``, if a list,
        # gets each question past the budget as (game, declarer, hands, need; 0 for null)
        self.questions = 0
        self.seconds = 0.0
        self.past_budget = 0
        self.past_budget_seconds = 0.0
        self.kept: list[tuple[int, int, tuple[int, ...], int]] | None = None
        # null by :mod:`engine.players.nullcheck` (one line of play against every world);
        # False: by double-dummy (the declarer sees the defenders' cards: optimistic)
        self.null_check = False

    def get(self, game: int, declarer: int) -> Solver:
        s = self._s.get((game, declarer))
        if s is None:
            if len(self._s) >= 6:
                self._s.clear()
            s = Solver(game, declarer, tt_entries=TT_ENTRIES)
            self._s[(game, declarer)] = s
        # set on every use: a search may lower the budget for a while (``quick``)
        s.max_nodes = self.max_nodes if s.uses_c else MAX_NODES_PYTHON
        return s

    def ask_null(self, s: Solver, hands: list[int], hidden: int, deadline: float | None,
                 lead: int | None = None) -> bool:
        """Does the null declarer at ``s.declarer`` escape from the first lead? By
        :class:`~engine.players.nullcheck.NullCheck` (``hidden``: the cards he has not seen
        besides the defenders', a hand game's skat; ``lead``: his first card in forehand),
        or double-dummy; counted. A check past its node budget takes double-dummy's answer
        (the long checks are escapes)."""
        if not self.null_check:
            return self.ask(s, hands, 0)
        self.questions += 1
        t0 = time.perf_counter()
        try:
            return NullCheck(s.declarer, hidden, deadline=deadline).escapes(hands, 0, (), lead)
        except NullTooLong:
            self.past_budget += 1
            self.past_budget_seconds += time.perf_counter() - t0
        finally:
            self.seconds += time.perf_counter() - t0
        self.questions -= 1  # the same question, asked again
        return self.ask(s, hands, 0)

    def ask(self, s: Solver, hands: list[int], need: int) -> bool:
        """``s``'s answer from the first lead (need 0: null escaped, else ``reaches``), counted."""
        self.questions += 1
        t0 = time.perf_counter()
        try:
            return s.null_won(hands, 0, ()) if need == 0 else s.reaches(hands, 0, (), need)
        except SearchTimedOut:
            raise
        except SearchLimitReached:
            self.past_budget += 1
            self.past_budget_seconds += time.perf_counter() - t0
            if self.kept is not None:
                self.kept.append((s.game, s.declarer, tuple(hands), need))
            raise
        finally:
            self.seconds += time.perf_counter() - t0


class OutOfTime(Exception):
    """The decision's time ran out in the middle of a world (the world is dropped)."""


def solve_play(solvers: Solvers, game: int, pos: int, hands: list[int], skat: int,
               deadline: float | None = None, guess: tuple[bool, bool] = (False, False),
               hidden: bool = False, lead: int | None = None, schneider: bool = True
               ) -> tuple[bool, bool]:
    """(made 61 / null escaped, made 90) for the declarer at ``pos`` from the first lead;
    ``skat`` holds the cards that count for him (``hidden``: he has not seen them, a hand
    game; ``lead``: a null declarer's first card in forehand). Raises OutOfTime when
    ``deadline`` (time.monotonic) passes, also in the middle of a search.

    A question past the node budget is answered by ``guess`` (61, 90: the evaluation's,
    :attr:`Play.guess`; a strong grand proved from the first lead can take millions of
    nodes). ``schneider=False``: 90 is not solved, the guess answers it.
    """
    s = solvers.get(game, pos)
    with s.until(deadline):
        try:
            if game == NULL:
                try:
                    return solvers.ask_null(s, hands, skat if hidden else 0, deadline,
                                            lead), False
                except NullTimedOut:
                    raise OutOfTime from None
            base = mask_points(skat)
            won = solvers.ask(s, hands, 61 - base)
            if not won:
                return False, False
            if not schneider:
                return True, guess[1]
            try:
                return True, solvers.ask(s, hands, 90 - base)
            except SearchTimedOut:
                raise
            except SearchLimitReached:
                return True, guess[1]
        except SearchTimedOut:
            raise OutOfTime from None
        except SearchLimitReached:
            return guess


# ---------------------------------------------------------------------- candidates


@dataclass(frozen=True)
class Play:
    """A game type with the two cards put away (0 for a hand game), and the evaluation's
    strength margin (what is taken as the result when the search is too long)."""

    game: int
    discard: int
    margin: float = 0.0
    # null in forehand: the declarer's first card, the same in every world (None: the
    # policy's, :mod:`engine.players.nullcheck`)
    lead: int | None = None

    @property
    def guess(self) -> tuple[bool, bool]:
        """What a question past the node budget is taken to answer: (61, 90)."""
        # null is declared only on the search's word: an unsolved null counts as lost
        won = self.game != NULL and self.margin >= GUESS_WON
        return won, won and self.margin >= GUESS_SCHNEIDER


def pickup_plays(cards: int, bid: int, limit: int = 4, forehand: bool = False,
                 honest: bool = False, rule_discard: bool = False, xdiscard: bool = False,
                 chosen: int | None = None) -> list[Play]:
    """The plays worth solving for twelve cards, the rule player's choice first (also when
    the pruning below would leave it out, or nothing reaches the bid).

    Game types whose value cannot reach the bid even with schneider are left out; the rest
    are kept within ``KEEP_WITHIN`` of the best strength margin, grand (two jacks or more)
    within ``GRAND_WITHIN``, null from a margin of ``NULL_FROM``. Grand is counted as the
    rule player counts it (``grand_score``): the 2025 count found about a third of the
    grands the anchor and the perfect-information player declare. ``honest``: the first
    choice (taken when too few worlds are solved in the time) gives null the chance
    measured for its unsafe suits (``nullchance``), not the suit games' curve, and a null
    in forehand comes once per first lead (:func:`null_leads`). ``rule_discard``,
    ``xdiscard``: a suit game's or grand's discard as :func:`discard_of` gives it.
    ``chosen``: the rule player's game type (:meth:`RulePlayer.contract_game`, which knows
    the skat for its ``nullstop``); None: ``choose_game`` without the skat.

    >>> from engine.cards import parse_mask
    >>> twelve = parse_mask("C7 CA S8 S9 ST SJ SQ SK SA D9 DT DQ")  # forehand, bid 36
    >>> [p.game for p in pickup_plays(twelve, 36, forehand=True)]  # grand: the rule player's
    [4, 5, 0]
    """
    if chosen is None:
        chosen = choose_game(cards, bid, ev.Style(nullchance=honest), forehand)
    options = []
    for g in range(6):
        if g == NULL and bid > 46:
            continue
        if g != NULL and ev.game_value(cards, g) + ev.BASE_VALUES[g] < bid:
            continue
        away = discard_of(cards, g, rule_discard, xdiscard)
        options.append((_play_margin(cards & ~away, g, forehand),
                        ev.game_value(cards, g) if g != NULL else 23, g, away))
    options.sort(key=lambda o: (o[0], o[1]), reverse=True)
    best = options[0][0] if options else 0.0
    out = []
    for margin, _, g, away in options:
        keep = margin >= best - KEEP_WITHIN
        if g == GRAND and (cards & JACKS).bit_count() >= 2:
            keep = keep or margin >= best - GRAND_WITHIN
        if g == NULL:
            keep = margin >= NULL_FROM
        if keep or not out or g == chosen:
            out.append(Play(g, away, margin))
    if all(p.game != chosen for p in out):  # the rule player declares it all the same
        away = discard_of(cards, chosen, rule_discard, xdiscard)
        out.append(Play(chosen, away, _play_margin(cards & ~away, chosen, forehand)))
    out.sort(key=lambda p: p.game != chosen)  # stable: the rest keep their order
    out = out[:limit]
    if honest and forehand:
        out = [v for p in out for v in null_leads(p, cards)]
    return out


def gate_nulls(cards: int, plays: list[Play]) -> list[Play]:
    """The plays without the nulls that keep an unsafe suit after their discard, when the
    first (the rule player's choice) is not a null (``nullgate``, ``nullgatebid``).

    >>> from engine.cards import parse_mask
    >>> twelve = parse_mask("C9 CT CA S7 S8 S9 ST H8 HT DJ CK H7")  # deal 950002879
    >>> [p.game for p in pickup_plays(twelve, 20, 6, True, xdiscard=True)]
    [1, 5, 2]
    >>> [p.game for p in gate_nulls(twelve, pickup_plays(twelve, 20, 6, True, xdiscard=True))]
    [1, 2]
    """
    if not plays or plays[0].game == NULL:
        return plays
    return [p for p in plays if p.game != NULL or not ev.null_unsafe_suits(cards & ~p.discard)]


def _play_margin(ten: int, game: int, forehand: bool) -> float:
    """The evaluation's strength margin of ``game`` with these ten cards (as
    :func:`pickup_plays` counts it)."""
    if game == NULL:
        return ev.null_strength(ten) - 8.5
    if game == GRAND:
        return ev.grand_score(ten, forehand) - ev.GRAND_NEED
    return ev.suit_strength(ten, game) - 9.0


def discard_of(cards: int, game: int, rule_discard: bool = False, xdiscard: bool = False
               ) -> int:
    """The evaluation's discard for ``game``; ``rule_discard``: the count's with the rule
    player's ``voids`` and ``keepaces`` for a suit game or grand (a side suit emptied
    counts, but the side aces and the tens beside them stay; without ``voids`` the count
    keeps the aces anyway: ``keep_aces`` alone changed none of 20 000 random discards);
    ``xdiscard``: the rule player's own discard of a suit game or grand, as it puts away
    today (its ``xdiscard``/``xgdiscard`` rules, :func:`rule_players_discard`).

    >>> from engine.cards import parse_mask, mask_to_str
    >>> twelve = parse_mask("C7 C9 CJ ST SA H8 H9 HT HJ D9 DK DA")  # diamonds
    >>> mask_to_str(discard_of(twelve, 3)), mask_to_str(discard_of(twelve, 3, True))
    ('C7 HT', 'C7 C9')
    >>> mask_to_str(discard_of(twelve, 3, xdiscard=True))
    'C7 C9'
    """
    if game == NULL:
        return ev.discard(cards, game)
    if rule_discard:
        return ev.discard(cards, game, voids=True, keep_aces=True)
    if xdiscard:
        return rule_players_discard(cards, game)
    return ev.discard(cards, game)


def rule_players_discard(cards: int, game: int) -> int:
    """The two cards the rule player (its default style) puts away from these twelve for a
    suit game or grand: ``suit_discard``, for grand with the longest side suit kept whole
    (as :meth:`RulePlayer.discard_or_declare` does).

    >>> from engine.cards import parse_mask, mask_to_str
    >>> twelve = parse_mask("C8 C9 S7 ST SQ SK H8 HQ HK HA DT DA")  # spades
    >>> mask_to_str(rule_players_discard(twelve, 1)), mask_to_str(discard_of(twelve, 1))
    ('C8 C9', 'C8 HK')
    """
    style = ev.Style()
    if game == GRAND:
        long = ev.longest_suit(cards, 0)
        return ev.suit_discard(cards, long if long is not None else 0, style.voids,
                               style.keepaces)
    return ev.suit_discard(cards, game, style.voids, style.keepaces)


def covering_suit(cards: int, bid: int, plays: list[Play], forehand: bool,
                  rule_discard: bool = False, xdiscard: bool = False) -> list[Play]:
    """The strongest suit game that reaches the bid without schneider, when no suit game of
    ``plays`` does (else none): the contract search then has a suit game worth the bid to
    set against one that needs schneider.

    >>> from engine.cards import parse_mask
    >>> twelve = parse_mask("C8 CJ CQ SQ H9 HT HJ HA D7 DQ S7 D9")   # with 1, bid 20
    >>> [p.game for p in covering_suit(twelve, 20, [Play(4, 0), Play(3, 0)], True)]
    [0]

    (Diamonds with 1 is 18; of the suits worth 20 or more, clubs (24) has the best margin
    in the evaluation.)
    """
    if any(p.game < GRAND and ev.game_value(cards, p.game) >= bid for p in plays):
        return []
    best = None
    for g in range(GRAND):
        if ev.game_value(cards, g) < bid:
            continue
        away = discard_of(cards, g, rule_discard, xdiscard)
        margin = _play_margin(cards & ~away, g, forehand)
        if best is None or margin > best.margin:
            best = Play(g, away, margin)
    return [] if best is None else [best]


def one_suit(plays: list[Play]) -> list[Play]:
    """The plays with one suit game only, the first (the rule player's suit when it chose a
    suit game, else the evaluation's strongest): the search keeps choosing between that
    suit, grand and null, not the trump suit.

    Why: double-dummy worlds, where the defenders see every card, lose ordinary suit games
    the table wins; when every suit looks lost the points alone pick the cheapest loss,
    diamonds (paired against XSkat, seed 930, 16 worlds: where the search declared a suit
    other than the rule player's, the rule player's suit scored +1,539 more over 36 games;
    the run: lab/experiments.csv, pimc+onesuit vs pimc).

    >>> [p.game for p in one_suit([Play(2, 0), Play(4, 0), Play(3, 0), Play(5, 0)])]
    [2, 4, 5]
    """
    out, suit = [], False
    for p in plays:
        if p.game < GRAND:
            if suit:
                continue
            suit = True
        out.append(p)
    return out


def null_leads(play: Play, seen: int) -> list[Play]:
    """A null in forehand once per first lead worth comparing
    (:func:`~engine.players.nullcheck.lead_choices`; ``seen``: the cards the declarer
    knows are not the defenders'): the search keeps the lead that does best over all the
    worlds (in each world double-dummy would pick the lead that suits it); other plays as
    they are."""
    if play.game != NULL:
        return [play]
    ten = seen & ~play.discard if play.discard else seen
    return [replace(play, lead=c) for c in lead_choices(ten, 0xFFFFFFFF & ~seen)]


def suit_limit(hand: int, forehand: bool = False, bonus: float = 0.0) -> int:
    """The rule player's bid limit from suit and grand games alone (null is searched);
    ``bonus`` is added to the count (the rule player's ``bold``: ``BOLD``).

    >>> from engine.cards import parse_mask
    >>> suit_limit(parse_mask("C7 C8 C9 S7 S8 S9 H7 H8 D7 D8"))  # a null hand: not here
    0
    >>> suit_limit(parse_mask("CJ SJ HJ CA CT SA ST HA D7 D8"))  # grand "with 3"
    96
    """
    return ev.styled_bid_limit(hand, ev.Style(), forehand, bonus, null=False)


def hand_games(hand: int, bid: int, forehand: bool = False, honest: bool = False
               ) -> list[Play]:
    """The game types worth solving as a hand game for these ten cards (possibly none);
    ``honest``: a null in forehand once per first lead (:func:`null_leads`)."""
    out: list[Play] = []
    for e in ev.estimates(hand):
        if e.game == NULL:
            if e.strength >= 8.5 and bid <= 35:
                null = Play(NULL, 0, e.strength - 8.5)
                out.extend(null_leads(null, hand) if honest and forehand else [null])
        elif e.strength >= 8.0 or (e.game == GRAND and e.strength >= 7.0):
            out.append(Play(e.game, 0, e.strength - 9.0))
    return _first_games(out, 3)


def _first_games(plays: list[Play], n: int) -> list[Play]:
    """The plays of the first ``n`` game types (a null's lead variants count once)."""
    games: list[int] = []
    for p in plays:
        if p.game not in games:
            games.append(p.game)
    keep = set(games[:n])
    return [p for p in plays if p.game in keep]


# ---------------------------------------------------------------------- the bidding worlds


@dataclass
class BidWorld:
    """One sampled world of a deal's bidding: the skat, the three hands, and the results."""

    group: int
    skat: int
    hands: list[int]
    hand: dict[Play, tuple[bool, bool]]
    pick: list[tuple[bool, bool]]


@dataclass
class BidEval:
    """The worlds of one deal for one seat, kept across its bidding decisions."""

    hand: int
    pos: int
    games: list[Play]  # hand games solved
    rng: random.Random
    groups: list[tuple[int, list[Play]]] = field(default_factory=list)  # (twelve, plays)
    worlds: list[BidWorld] = field(default_factory=list)

    def value(self, level: int, weights: list[float], games: set[int] | None = None
              ) -> tuple[float, Contract | None]:
        """The best expectation at ``level`` and the hand contract giving it (None: pick up);
        ``games``: only these hand games."""
        best, best_c = self.pickup_value(level, weights), None
        for p in self.games:
            g = p.game
            if games is not None and g not in games:
                continue
            for c in contract_variants(g, True, level):
                total = wsum = 0.0
                for w, x in zip(weights, self.worlds, strict=True):
                    won, sch = x.hand[p]
                    m = ev.matadors(self.hand | x.skat, g) if g != NULL else 0
                    total += w * sf_points(c, level, m, won, sch)
                    wsum += w
                if wsum and total / wsum > best:
                    best, best_c = total / wsum, c
        return best, best_c

    def pickup_value(self, level: int, weights: list[float]) -> float:
        by_group: dict[int, list[tuple[float, BidWorld]]] = {}
        for w, x in zip(weights, self.worlds, strict=True):
            by_group.setdefault(x.group, []).append((w, x))
        total = wsum = 0.0
        for gi, members in by_group.items():
            twelve, plays = self.groups[gi]
            gw = sum(w for w, _ in members)
            if not gw:
                continue
            best = None
            for i, p in enumerate(plays):
                m = ev.matadors(twelve, p.game) if p.game != NULL else 0
                for c in contract_variants(p.game, False, level):
                    v = sum(w * sf_points(c, level, m, *x.pick[i]) for w, x in members) / gw
                    best = v if best is None or v > best else best
            if best is None:  # nothing reaches the level: the pick-up is overbid
                best = -2 * level - 50
            # a skat's weight is the mean fit of its worlds
            total += best * gw / len(members)
            wsum += gw / len(members)
        return total / wsum if wsum else float("-inf")


# ---------------------------------------------------------------------- the decisions


World = tuple[list[int], int]  # the three hands (ten cards each) and the skat


class Declaring:
    """The choices before play by search: ``bid``, ``hand_or_skat``, ``declare``,
    ``discard`` (each returns a legal action of the view).

    ``budget`` is seconds per decision; ``worlds`` fixes the number of worlds solved per
    search instead (reproducible). ``truth`` (a callable giving the real hands and skat)
    makes every search use the one real world: the perfect-information player.
    ``honest=True`` judges null by one line of play (:mod:`engine.players.nullcheck`)
    instead of double-dummy, compares a forehand null's first leads over all the worlds,
    and gives null the measured chance of its unsafe suits in the first choice (the
    harness player ``pimc+nullcheck``). Against XSkat it gave up nulls that win there
    (docs/players.md, "What was learned"), so ``pimc`` keeps double-dummy.
    ``rule_discard``: the discards of suit games and grand are the rule player's
    (:func:`discard_of`; harness ``pimc+rulediscard``). ``max_nodes``: the C solver's node
    budget per question.
    ``onesuit``: one suit game among the candidates after a pick-up (:func:`one_suit`;
    ``pimc``; without it the harness player ``pimc+allsuits``). ``xdiscard``: the
    discards of suit games and grand are the rule player's own (:func:`rule_players_discard`;
    ``pimc``; without it, the count's discard, the harness player ``pimc+countdiscard``).
    ``bold``: the evaluation's suit and grand bid limit with the rule player's ``bold``
    bonus (:func:`suit_limit`; harness ``pimc+bold``). ``rulebid``: the rule player bids
    (its limit, null by its count; the search does not raise it); None: when the search is
    timed at a budget below ``SEARCH_BID_FROM`` (10 s: against XSkat the rule player's
    bidding gained at 0.2 s on three seeds and at 1 s on three, docs/players.md, "What was
    learned"; lab/experiments.csv, pimc+rulebid vs pimc); harness ``pimc+rulebid``
    (always) and ``pimc+searchbid`` (never: the search bids at every
    budget, as ``pimc`` did at 1 s before).
    ``quick``: the contract search after a pick-up, when timed, solves only the goal
    (schneider by the evaluation's guess) with ``QUICK_NODES`` a question and stops solving
    a play ``PRUNE_GAP`` behind after ``PRUNE_AFTER`` worlds (harness ``pimc+quick``).
    ``nullgate``: after a pick-up whose first choice (the rule player's) is a suit game or
    grand, the search may switch to a null only when every suit is safe after its discard
    (``evaluate.null_unsafe_suits``): double-dummy is optimistic for a null declarer, who
    sees the defenders' cards, and pessimistic for a suit declarer, whose cards they see,
    so the search leaned to nulls that XSkat's defence wins about half the time with one
    unsafe suit (harness ``pimc+nullgate``). ``nullgatebid``: the same for the pick-ups
    of the bidding search (per sampled skat, against the rule player's choice for it;
    harness ``pimc+nullgatebid``).
    ``coverbid`` (the default): after a pick-up, a contract whose value reaches the bid only
    with schneider is declared only when no candidate reaches it without; the strongest
    suit game worth the bid (:func:`covering_suit`) is searched beside the others for that
    case (a club player's rule: double-dummy worlds, where the declarer sees every card,
    make schneider look far likelier than it is, and the search declared diamonds "with 1"
    at 20 to 24 over clubs worth the bid; harness ``pimc+schneiderhope``: without it).
    ``calib`` (the default): the contract search after a pick-up scores a candidate with the
    chance at the table of its double-dummy win share (:func:`calibrated_points`, measured
    against XSkat), not with its mean over the worlds (harness ``pimc+nocalib``: the mean).
    ``bid_style``, ``boldness``: the style and extra boldness of the rule player that bids
    below ``SEARCH_BID_FROM`` and decides hand or skat; None: the rule player's default
    style, with its ``bolder`` option (a quarter trick more) when it bids (``rulebid``);
    harness ``pimc+plainbid``: without ``bolder``; ``pimc+boldest``: a quarter trick more
    than ``bolder``; ``pimc+last18``: its ``last18``; ``pimc+timid``: a quarter trick less
    than ``plainbid``. ``nullstop``: the first choice after a pick-up
    is no null with an unsafe suit when the ten cards held the bid on a suit or grand count
    (the rule player's ``nullstop``; harness ``pimc+nullstop``). ``null_boldness``: added
    to the bidding rule player's null count alone (harness ``pimc+boldsuit``: the null
    count of ``pimc`` whatever ``bolder`` or ``boldest`` add).
    """

    def __init__(self, seed: int = 0, budget: float = 1.0, worlds: int | None = None,
                 truth: Callable[[], World] | None = None, honest: bool = False,
                 rule_discard: bool = False, max_nodes: int = MAX_NODES_C,
                 onesuit: bool = True, xdiscard: bool = True, bold: bool = False,
                 rulebid: bool | None = None, quick: bool = False,
                 nullgate: bool = False, calib: bool = True,
                 nullgatebid: bool = False, bid_style: ev.Style | None = None,
                 boldness: float = 0.0, nullstop: bool = False,
                 null_boldness: float = 0.0, coverbid: bool = True) -> None:
        self.seed = seed
        self.coverbid = coverbid
        self.budget = budget
        self.worlds = worlds
        self.truth = truth
        # the oracle sees the one real world: double-dummy is exact for it
        self.honest = honest and truth is None
        self.rule_discard = rule_discard
        self.xdiscard = xdiscard and truth is None
        self.bold = bold and truth is None
        if rulebid is None:
            rulebid = worlds is None and budget < SEARCH_BID_FROM
        self.rulebid = rulebid and truth is None
        self.quick = quick
        self.nullgate = nullgate and truth is None
        self.calib = calib
        self.nullgatebid = nullgatebid and truth is None
        # the oracle's worlds are the real one: it may choose any suit
        self.onesuit = onesuit and truth is None
        self.solvers = Solvers(max_nodes)
        self.solvers.null_check = self.honest
        if bid_style is None:
            # PIMC wins the suit games a quarter trick short for the rule player often
            # enough: at 0.2 s against XSkat +1.11 a seat over six seeds (measured:
            # lab/experiments.csv, pimc+bolder vs pimc)
            bid_style = ev.Style(bolder=self.rulebid)
        self.fallback = RulePlayer(seed, boldness=boldness, style=bid_style,
                                   null_boldness=null_boldness)
        # the first choice after a pick-up: the rule player's (``honest``: null by the
        # chance of its unsafe suits)
        # (its ``nullstop`` asks whether the bid was held on the suit count: at the bidding
        # rule player's boldness)
        self.chooser = RulePlayer(seed, boldness=boldness, style=ev.Style(
            nullchance=self.honest, nullstop=nullstop, bolder=bid_style.bolder))
        self._bid_eval: BidEval | None = None
        self._plan: tuple[int, Play] | None = None  # (twelve cards, play) after a pick-up
        self.last_worlds = 0
        # the last contract search's candidates: (contract, expected points, share won)
        self.last_plan: list[tuple[Contract, float, float]] = []
        # the highest level the last bidding decision would have gone to (for statistics)
        self.last_bid_limit: int | None = None

    # ------------------------------------------------------------------ bidding

    def bid(self, view: SeatView) -> Action:
        """Bid the next value (or hold) while the hand's expected value there is at least
        ``BID_MARGIN``; else pass."""
        bids = sorted((a for a in view.legal if isinstance(a, Bid)), key=lambda a: a.value)
        hold = next((a for a in view.legal if isinstance(a, Hold)), None)
        pass_ = next(a for a in view.legal if isinstance(a, Pass))
        level = bids[0].value if bids else view.bid
        yes: Action | None = bids[0] if bids else hold
        if yes is None:
            return pass_
        if self.rulebid:
            choice = self.fallback.choose(view)
            self.last_bid_limit = self.fallback.last_bid_limit
            return choice
        # The evaluation's suit and grand limit stands (it is calibrated by play: the
        # double-dummy worlds, where the defenders see every card, are far too pessimistic for
        # an ordinary suit game); the search may raise it (grand, hand games, schneider) and
        # alone decides null. Hopeless hands are passed without search.
        plain = suit_limit(view.hand, view.pos == 0, BOLD if self.bold else 0.0)
        if self.truth is None and plain >= level:
            self.last_bid_limit = plain
            return yes
        if self.truth is None and max(
                ev.bid_limit(view.hand, bonus=3.0),
                ev.styled_bid_limit(view.hand, ev.Style(), view.pos == 0, bonus=3.0)) < level:
            self.last_bid_limit = plain
            return pass_
        e = self._bidding_worlds(view)
        weights = self._weights(e, view)
        if len(e.worlds) < self._min_worlds:
            self.last_bid_limit = plain
            return pass_
        limit = plain if self.truth is None else 0
        for v in BID_VALUES[BID_VALUES.index(level):] if level in BID_VALUES else ():
            if e.value(v, weights)[0] < BID_MARGIN:
                break
            limit = v
        self.last_bid_limit = limit
        return yes if limit >= level else pass_

    def hand_or_skat(self, view: SeatView) -> Action:
        """A hand game (with its announcements) when the evaluation finds it within reach
        and the sampled skats say it is expected to score ``HAND_GAIN`` more than the
        pick-up; else the rule player's choice."""
        default = self.fallback.skat_or_hand(view, list(view.legal))
        within = {p.game for p in hand_games(view.hand, view.bid, view.pos == 0, self.honest)
                  if p.margin >= HAND_WITHIN or self.truth is not None}
        if not within or (isinstance(default, Declare) and self.truth is None):
            return default
        e = self._bidding_worlds(view)
        if len(e.worlds) < self._min_worlds:
            return default
        weights = self._weights(e, view)
        value, contract = e.value(view.bid, weights, games=within)
        gain = 0.0 if self.truth is not None else HAND_GAIN
        if contract is None or value < e.pickup_value(view.bid, weights) + gain:
            return default
        return next((a for a in view.legal if isinstance(a, Declare)
                     and a.contract == contract), default)

    @property
    def _min_worlds(self) -> int:
        return 1 if self.truth is not None else MIN_WORLDS

    def _weights(self, e: BidEval, view: SeatView) -> list[float]:
        said_refused = calls(view.bidding)
        return [world_weight(x.hands, view.pos, said_refused) for x in e.worlds]

    def _bidding_worlds(self, view: SeatView) -> BidEval:
        hand, pos = view.hand, view.pos
        e = self._bid_eval
        games = hand_games(hand, 0, pos == 0, self.honest)
        if e is None or e.hand != hand or e.pos != pos:
            rng = random.Random(f"{self.seed}:bidding:{hand}:{pos}")
            e = self._bid_eval = BidEval(hand, pos, games, rng)
        elif self.worlds is not None or self.truth is not None:
            return e  # a fixed number of worlds: solved once per deal
        timed = self.worlds is None and self.truth is None
        deadline = time.monotonic() + self.budget * 0.9 if timed else None
        target = 1 if self.truth is not None else (
            self.worlds if self.worlds is not None else MAX_BID_WORLDS)
        others = [c for c in range(32) if not hand >> c & 1]
        tries = 0
        while len(e.worlds) < target and tries < 3 * target + 10:
            if deadline is not None and time.monotonic() >= deadline:
                break
            tries += 1
            if self.truth is not None:
                hands, skat = self.truth()
                groups = [(hands, skat)]
            else:
                e.rng.shuffle(others)
                skat = (1 << others[20]) | (1 << others[21])
                rest = others[:20]
                groups = []
                for _ in range(DEALS_PER_SKAT):
                    e.rng.shuffle(rest)
                    hands = [0, 0, 0]
                    hands[pos] = hand
                    hands[(pos + 1) % 3] = sum(1 << c for c in rest[:10])
                    hands[(pos + 2) % 3] = sum(1 << c for c in rest[10:])
                    groups.append((hands, skat))
            twelve = hand | skat
            plays = self._pickup_plays(twelve, 0, pos, limit=3)
            if self.nullgatebid:
                plays = gate_nulls(twelve, plays)
            gi = len(e.groups)
            solved = []
            for hands, skat in groups:
                try:
                    results = {p: solve_play(self.solvers, p.game, pos, hands, skat,
                                             deadline, p.guess, hidden=True, lead=p.lead)
                               for p in games}
                    picks = []
                    for p in plays:
                        h = list(hands)
                        h[pos] = twelve & ~p.discard
                        picks.append(solve_play(self.solvers, p.game, pos, h, p.discard,
                                                deadline, p.guess, lead=p.lead))
                except OutOfTime:
                    break
                solved.append(BidWorld(gi, skat, hands, results, picks))
            if solved:
                e.groups.append((twelve, plays))
                e.worlds.extend(solved)
        self.last_worlds = len(e.worlds)
        return e

    # ------------------------------------------------------------------ after the pick-up

    def declare(self, view: SeatView) -> Action:
        """The contract with the best expected Seeger-Fabian points over the sampled deals of
        the opponents' cards (each game type with the evaluation's discard)."""
        cards = view.hand | view.skat
        declares = [a for a in view.legal if isinstance(a, Declare)]
        contract, play = self.plan(cards, view.bid, view.pos, view.bidding,
                                   view.skat_original)
        self._plan = (cards, play)
        return next((a for a in declares if a.contract == contract), declares[0])

    def discard(self, view: SeatView) -> Action:
        """The next card of the planned discard (the evaluation's for the declared game when
        there is no plan for these cards)."""
        cards = view.hand | view.skat
        if self._plan is not None and self._plan[0] == cards and self._plan[1].game == int(
                view.game_type if view.game_type is not None else -1):
            away = self._plan[1].discard & view.hand
        else:
            game = int(view.game_type) if view.game_type is not None else GRAND
            away = discard_of(view.hand, game, self.rule_discard, self.xdiscard)
        card = min(c for c in range(32) if away >> c & 1)
        return next(a for a in view.legal if isinstance(a, Discard) and a.card == card)

    def _pickup_plays(self, cards: int, bid: int, pos: int, limit: int = 4,
                      chosen: int | None = None) -> list[Play]:
        if self.onesuit:  # the suit games dropped do not take the place of others
            return _first_games(one_suit(pickup_plays(cards, bid, 6, pos == 0, self.honest,
                                                      self.rule_discard, self.xdiscard,
                                                      chosen)),
                                limit)
        return pickup_plays(cards, bid, limit, pos == 0, self.honest, self.rule_discard,
                            self.xdiscard, chosen)

    def plan(self, cards: int, bid: int, pos: int, bidding: Iterable[Action] = (),
             skat: int = 0) -> tuple[Contract, Play]:
        """(contract, play) for these twelve cards at this bid; ``skat``: the two cards
        picked up (the first choice is the rule player's, which asks for them)."""
        chosen = self.chooser.contract_game(cards, skat, bid, pos == 0)
        plays = self._pickup_plays(cards, bid, pos, chosen=chosen)
        first = Play(plays[0].game, plays[0].discard)
        # a null past its value (nothing reaches the bid) is declared plain, as the rule
        # player declares it
        default = (contract_variants(first.game, False, bid)
                   or [Contract(GameType(first.game))])[0]
        if self.nullgate:
            plays = gate_nulls(cards, plays)
        # a suit game worth the bid, searched beside the others, taken only in place of a
        # choice that needs schneider to reach the bid (``coverbid``)
        own = len(plays)
        if self.coverbid:
            plays = plays + covering_suit(cards, bid, plays, pos == 0, self.rule_discard,
                                          self.xdiscard)
        if len(plays) == 1 and first.game != NULL:
            return default, first
        said_refused = calls(bidding)
        others = [c for c in range(32) if not cards >> c & 1]
        rng = random.Random(f"{self.seed}:plan:{cards}:{bid}:{pos}")
        candidates = [(c, i) for i, p in enumerate(plays)
                      for c in contract_variants(p.game, False, bid)]
        if not candidates:
            return default, first
        totals = [0.0] * len(candidates)
        wins = [0.0] * len(candidates)
        wsums = [0.0] * len(candidates)
        won_points = [0.0] * len(candidates)  # the points of the worlds won (``calib``)
        wsum = 0.0
        n = tries = 0
        target = 1 if self.truth is not None else (self.worlds or 10_000)
        timed = self.worlds is None and self.truth is None
        deadline = time.monotonic() + self.budget * 0.9 if timed else None
        # ``quick``: only the goal is solved (schneider by the evaluation's guess), with a
        # smaller node budget, and a play far behind after a few worlds is solved no more
        quick = self.quick and timed
        active = [True] * len(plays)
        nodes = self.solvers.max_nodes
        if quick:
            self.solvers.max_nodes = QUICK_NODES
        try:
            while n < target and tries < 3 * target + 10:
                if deadline is not None and time.monotonic() >= deadline:
                    break
                tries += 1
                if self.truth is not None:
                    hands = list(self.truth()[0])
                    w = 1.0
                else:
                    rng.shuffle(others)
                    hands = [0, 0, 0]
                    hands[(pos + 1) % 3] = sum(1 << c for c in others[:10])
                    hands[(pos + 2) % 3] = sum(1 << c for c in others[10:])
                    w = world_weight(hands, pos, said_refused)
                try:
                    results: list[tuple[bool, bool] | None] = []
                    for i, p in enumerate(plays):
                        if not active[i]:
                            results.append(None)
                            continue
                        hands[pos] = cards & ~p.discard
                        results.append(solve_play(self.solvers, p.game, pos, hands, p.discard,
                                                  deadline, p.guess, lead=p.lead,
                                                  schneider=not quick))
                except OutOfTime:
                    break
                for j, (c, i) in enumerate(candidates):
                    r = results[i]
                    if r is None:
                        continue
                    m = ev.matadors(cards, plays[i].game) if plays[i].game != NULL else 0
                    points = sf_points(c, bid, m, *r)
                    totals[j] += w * points
                    wins[j] += w * r[0]
                    won_points[j] += w * points * r[0]
                    wsums[j] += w
                wsum += w
                n += 1
                if quick and n >= PRUNE_AFTER:
                    self._prune(candidates, totals, wsums, active)
                    if n >= MIN_WORLDS and sum(active) == 1 and sum(
                            active[i] for _, i in candidates) == 1:
                        break  # one candidate left: decided
        finally:
            self.solvers.max_nodes = nodes
        self.last_worlds = n
        if n < (1 if self.truth is not None else MIN_WORLDS) or not wsum:
            return default, first
        live = [j for j, (_, i) in enumerate(candidates) if active[i] and wsums[j]]
        covered = [j for j in live if covers_bid(candidates[j][0], bid, cards,
                                                 plays[candidates[j][1]].game)]
        means = [t / ws if ws else float("-inf") for t, ws in zip(totals, wsums, strict=True)]
        if self.calib and self.truth is None:
            means = [self._calibrated(c, bid, cards, plays[i].game, t, x, wp, ws)
                     for (c, i), t, x, wp, ws
                     in zip(candidates, totals, wins, won_points, wsums, strict=True)]
        self.last_plan = [(c, m, x / ws if ws else 0.0) for (c, _), m, x, ws
                          in zip(candidates, means, wins, wsums, strict=True)]
        pool = [j for j in live if candidates[j][1] < own] or live
        j = max(pool, key=lambda j: (means[j], -j))
        d = next((k for k, (c, _) in enumerate(candidates) if c == default), None)
        if d is not None and d in live and means[j] < means[d] + SWITCH_GAIN \
                and self.truth is None:
            j = d
        if self.coverbid and j not in covered and covered:
            j = max(covered, key=lambda j: (means[j], -j))
        c, i = candidates[j]
        return c, plays[i]

    @staticmethod
    def _calibrated(contract: Contract, bid: int, cards: int, game: int, total: float,
                    won: float, won_points: float, wsum: float) -> float:
        """A candidate's score from its weighted sums over the worlds: the calibrated chance
        of its double-dummy share (:func:`calibrated_points`)."""
        if not wsum:
            return float("-inf")
        lost = wsum - won
        m = ev.matadors(cards, game) if game != NULL else 0
        return calibrated_points(contract, bid, m, won / wsum,
                                 won_points / won if won > 1e-12 else None,
                                 (total - won_points) / lost if lost > 1e-12 else None)

    @staticmethod
    def _prune(candidates: list[tuple[Contract, int]], totals: list[float],
               wsums: list[float], active: list[bool]) -> None:
        """Solve no more the plays whose best candidate is ``PRUNE_GAP`` behind the best."""
        best: dict[int, float] = {}
        for (_, i), t, ws in zip(candidates, totals, wsums, strict=True):
            if active[i] and ws:
                best[i] = max(best.get(i, float("-inf")), t / ws)
        if not best:
            return
        top = max(best.values())
        for i, v in best.items():
            if v < top - PRUNE_GAP:
                active[i] = False


class RuleChoices:
    """The rule player's choices before play (its default style) in :class:`Declaring`'s
    interface: PIMC's card play after the rule player's bidding, hand or skat, contract and
    discard (the harness player ``pimc+rulechoices``, to measure the search against).

    >>> from engine.deal import Deal
    >>> from engine.game import Game
    >>> from engine.players.base import SeatView
    >>> g = Game(Deal.shuffled(3))
    >>> RuleChoices(seed=1).bid(SeatView.of(g, 1)) == RulePlayer(1).choose(SeatView.of(g, 1))
    True
    """

    def __init__(self, seed: int = 0) -> None:
        self.rule = RulePlayer(seed)
        self.last_worlds = 0

    @property
    def last_bid_limit(self) -> int | None:
        return self.rule.last_bid_limit

    def bid(self, view: SeatView) -> Action:
        return self.rule.choose(view)

    def hand_or_skat(self, view: SeatView) -> Action:
        return self.rule.choose(view)

    def declare(self, view: SeatView) -> Action:
        return self.rule.choose(view)

    def discard(self, view: SeatView) -> Action:
        return self.rule.choose(view)


__all__ = [
    "BID_MARGIN", "MISFIT", "Declaring", "Play", "RuleChoices", "call_weight", "calls",
    "contract_variants", "discard_of", "pickup_plays", "sf_points", "solve_play",
]

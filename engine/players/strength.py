"""Strength measurement: two players compared on duplicate deals with full seat rotation.

Every deal is played six times, once for each way of seating the two players at the three
positions (A alone at each position against two B, and B alone against two A), so the cards
favour neither. A deal's score is the mean, over the six seatings, of A's mean Seeger-Fabian
points per seat minus B's. The mean over deals comes with a 95% bootstrap confidence
interval (deals resampled with replacement).

With ``fixed_contract`` the bidding, skat and declaration are those of the rule player in
every seating, and only the card play differs: it compares card play alone (deals passed in
by the rule players are replaced by the next deal).

>>> r = run_duel(DuelSettings(a="rule", b="random", deals=4, seed=1))
>>> r.games, len(r.per_deal)
(24, 4)
>>> r.ci_low <= r.mean <= r.ci_high
True
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field, fields, replace
from typing import Protocol

from engine.actions import Action, Pass
from engine.contract import GameType
from engine.deal import Deal
from engine.game import Game, Phase, Rules
from engine.players import make_player
from engine.players.base import Player, SeatView
from engine.players.rule import RulePlayer
from engine.players.table import play_game
from engine.scoring import GameResult

# Card points at or below which a side is schneider (ISkO 4.1.2: 30 or fewer).
SCHNEIDER_POINTS = 30

# Who sits where: "A" or "B" for positions 0, 1, 2 (forehand, middlehand, rearhand).
SEATINGS: tuple[tuple[str, str, str], ...] = (
    ("A", "B", "B"), ("B", "A", "B"), ("B", "B", "A"),
    ("B", "A", "A"), ("A", "B", "A"), ("A", "A", "B"),
)


class OutsideTable(Protocol):
    """One game against players that live outside this process (another program).

    The harness hands it every action of the game as the engine accepts it (``observe``,
    also its own players' actions), seats :meth:`player` at its positions, and at the end
    asks :meth:`finish` to compare the outside program's own result with the engine's.
    The engine stays the referee: an outside decision is pushed like any other and so must
    be legal here.
    """

    def player(self, pos: int) -> Player: ...

    def observe(self, pos: int, action: Action, seconds: float) -> None: ...

    def finish(self, game: Game) -> tuple[str, str]:
        """``(verdict, note)``: verdict ``"agree"``, ``"disagree"`` or ``"unchecked"``;
        ``note`` says what differed (empty when they agree)."""
        ...

    def close(self) -> None: ...


class OutsidePlayers(Protocol):
    """A player type played by an outside program (``skat-table duel --b xskat``): a
    factory of one :class:`OutsideTable` per game. It travels with the settings to the
    worker processes of ``--jobs``, so it must pickle."""

    name: str

    def table(self, deal: Deal, positions: tuple[int, ...], seed: int,
              rules: Rules) -> OutsideTable: ...


@dataclass(frozen=True)
class DuelSettings:
    """One strength run. ``budget``/``worlds``/``workers`` apply to PIMC players
    (``workers``: the processes each PIMC seat spreads its worlds over, as a table's
    ``os.cpu_count()``); ``outside`` plays the seats of the player named ``outside.name``
    (an outside program)."""

    a: str
    b: str
    deals: int
    seed: int = 0
    budget: float = 1.0
    worlds: int | None = None
    fixed_contract: bool = False
    jobs: int = 1
    bootstrap: int = 2000
    # house rules by name (``Rules.from_names``); ``ramsch_only``: every deal is played as
    # a Ramsch (all three pass), so only Ramsch play (and Schieberamsch pushes) is compared
    rules: tuple[str, ...] = ()
    ramsch_only: bool = False
    outside: OutsidePlayers | None = None
    workers: int = 1
    # each game's record keeps the game itself (``duel --games``; about 2 KB a game, so
    # only when the games are written)
    keep_games: bool = False

    def game_rules(self) -> Rules:
        names = set(self.rules) | ({"ramsch"} if self.ramsch_only else set())
        return Rules.from_names(sorted(names))


@dataclass
class SideStats:
    """What one player type (A or B) did in its seats: counts, and the shares derived.

    ``seats`` counts seat-games (three per game). A declaration counts for the type of the
    declarer; ``schneidered_declarer`` is a suit or grand game its declarer ended with 30
    or fewer card points, ``schneidered_defender`` a defender seat of this type whose side
    ended with 30 or fewer (the declarer took 90 or more); ``overbid_lost`` a game lost
    because its value fell below the bid (the engine's ``overbid``). ``limit_sum``/
    ``limits``: the declarer's own bid limit, when its player tells it (``last_bid_limit``).

    >>> from engine.contract import Contract
    >>> s = SideStats()
    >>> s.record_declarer(GameResult(declarer=0, contract=Contract.parse("G"), bid=48,
    ...     won=False, value=-144, points=28), limit=72)
    >>> s.declared, s.grand, s.grand_won, s.schneidered_declarer, s.mean_bid
    (1, 1, 0, 1, 48.0)
    """

    seats: int = 0
    declared: int = 0
    won: int = 0
    grand: int = 0
    grand_won: int = 0
    null: int = 0
    null_won: int = 0
    schneidered_declarer: int = 0
    schneidered_defender: int = 0
    overbid_lost: int = 0
    bid_sum: int = 0
    limit_sum: int = 0
    limits: int = 0

    def record_declarer(self, r: GameResult, limit: int | None = None) -> None:
        """Count one game this type declared (its seat is counted by :meth:`record_seat`)."""
        self.declared += 1
        self.won += r.won
        self.bid_sum += r.bid
        if limit is not None:
            self.limit_sum += limit
            self.limits += 1
        game = r.contract.game if r.contract is not None else None
        if game == GameType.GRAND:
            self.grand += 1
            self.grand_won += r.won
        elif game == GameType.NULL:
            self.null += 1
            self.null_won += r.won
        if r.overbid:
            self.overbid_lost += 1
        if game != GameType.NULL and r.points is not None and r.points <= SCHNEIDER_POINTS:
            self.schneidered_declarer += 1

    def record_defender(self, r: GameResult) -> None:
        """Count one defender seat of this type in a declared game."""
        game = r.contract.game if r.contract is not None else None
        if (game not in (None, GameType.NULL) and r.points is not None
                and 120 - r.points <= SCHNEIDER_POINTS):
            self.schneidered_defender += 1

    def merge(self, other: SideStats) -> None:
        for f in fields(self):
            setattr(self, f.name, getattr(self, f.name) + getattr(other, f.name))

    @staticmethod
    def _share(n: int, d: int) -> float | None:
        return n / d if d else None

    @property
    def declared_share(self) -> float | None:
        return self._share(self.declared, self.seats)

    @property
    def won_share(self) -> float | None:
        return self._share(self.won, self.declared)

    @property
    def grand_share(self) -> float | None:
        return self._share(self.grand, self.declared)

    @property
    def grand_won_share(self) -> float | None:
        return self._share(self.grand_won, self.grand)

    @property
    def null_share(self) -> float | None:
        return self._share(self.null, self.declared)

    @property
    def null_won_share(self) -> float | None:
        return self._share(self.null_won, self.null)

    @property
    def mean_bid(self) -> float | None:
        return self._share(self.bid_sum, self.declared)

    @property
    def mean_limit(self) -> float | None:
        return self._share(self.limit_sum, self.limits)

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {f.name: getattr(self, f.name) for f in fields(self)}
        for name in ("declared_share", "won_share", "grand_share", "grand_won_share",
                     "null_share", "null_won_share", "mean_bid", "mean_limit"):
            v = getattr(self, name)
            out[name] = None if v is None else round(v, 4)
        return out


def tally(result: GameResult, seating: tuple[str, str, str],
          limits: tuple[int | None, int | None, int | None] = (None, None, None)
          ) -> dict[str, SideStats]:
    """The statistics of one game for the types ``"A"`` and ``"B"`` seated as ``seating``
    (positions 0-2); ``limits[p]`` is position ``p``'s bid limit if known.

    >>> from engine.contract import Contract
    >>> r = GameResult(declarer=1, contract=Contract.parse("C"), bid=24, won=True,
    ...                value=36, points=95)
    >>> t = tally(r, ("A", "B", "B"))
    >>> t["A"].seats, t["A"].schneidered_defender, t["B"].declared, t["B"].schneidered_defender
    (1, 1, 1, 1)
    """
    out = {"A": SideStats(), "B": SideStats()}
    for pos, who in enumerate(seating):
        out[who].seats += 1
        if result.declarer is None or result.passed_in or result.contract is None:
            continue
        if pos == result.declarer:
            out[who].record_declarer(result, limits[pos])
        else:
            out[who].record_defender(result)
    return out


@dataclass
class DealOutcome:
    index: int
    deal_seed: int
    diff: float
    a_mean: float
    b_mean: float
    contracts: list[str]
    times: dict[str, list[float]]
    stats: dict[str, SideStats] = field(default_factory=dict)
    # the outside program's own results against the engine's: verdict -> games, and notes
    checks: dict[str, int] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    # per player name, the times by kind of decision (:func:`decision_kind`)
    kind_times: dict[str, dict[str, list[float]]] = field(default_factory=dict)
    # one record per seating (:func:`game_record`), for ``skat-table duel --games``
    games: list[dict[str, object]] = field(default_factory=list)


@dataclass
class DuelReport:
    settings: DuelSettings
    per_deal: list[float]
    a_per_game: float
    b_per_game: float
    mean: float
    ci_low: float
    ci_high: float
    games: int
    seconds: float
    decision_times: dict[str, list[float]] = field(default_factory=dict)
    stats: dict[str, SideStats] = field(default_factory=dict)
    checks: dict[str, int] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    kind_times: dict[str, dict[str, list[float]]] = field(default_factory=dict)

    def percentiles(self, name: str, kind: str | None = None) -> tuple[float, float, float]:
        """(p50, p95, max) decision time in seconds of the player named ``name`` (of one
        kind of decision only, if ``kind`` is given: see :func:`decision_kind`)."""
        if kind is None:
            t = sorted(self.decision_times.get(name, []))
        else:
            t = sorted(self.kind_times.get(name, {}).get(kind, []))
        if not t:
            return (0.0, 0.0, 0.0)
        return (quantile(t, 0.5), quantile(t, 0.95), t[-1])

    def kinds(self, name: str) -> list[str]:
        """The kinds of decision ``name`` took, in the order of :data:`KINDS`."""
        have = self.kind_times.get(name, {})
        return [k for k in KINDS if have.get(k)]

    def to_json(self) -> dict[str, object]:
        s = self.settings
        out: dict[str, object] = {
            "a": s.a, "b": s.b, "deals": len(self.per_deal), "games": self.games,
            "seed": s.seed, "budget": s.budget, "worlds": s.worlds,
            "fixed_contract": s.fixed_contract,
            "rules": sorted(s.rules), "ramsch_only": s.ramsch_only,
            "a_sf_per_game": round(self.a_per_game, 2),
            "b_sf_per_game": round(self.b_per_game, 2),
            "diff_per_game": round(self.mean, 2),
            "ci95": [round(self.ci_low, 2), round(self.ci_high, 2)],
            "seconds": round(self.seconds, 1),
            "stats": {who: {"player": s.a if who == "A" else s.b, **st.to_json()}
                      for who, st in sorted(self.stats.items())},
        }
        if self.checks:
            out["outside_checks"] = dict(sorted(self.checks.items()))
            out["outside_notes"] = list(self.notes)
        for name in sorted(self.decision_times):
            p50, p95, mx = self.percentiles(name)
            out[f"{name}_decision_s"] = {"p50": round(p50, 4), "p95": round(p95, 4),
                                         "max": round(mx, 4),
                                         "n": len(self.decision_times[name])}
            by_kind = {}
            for kind in self.kinds(name):
                p50, p95, mx = self.percentiles(name, kind)
                by_kind[kind] = {"p50": round(p50, 4), "p95": round(p95, 4),
                                 "max": round(mx, 4),
                                 "n": len(self.kind_times[name][kind])}
            out[f"{name}_decision_s"]["by_kind"] = by_kind  # type: ignore[index]
        return out


def quantile(sorted_values: list[float], q: float) -> float:
    i = min(len(sorted_values) - 1, max(0, round(q * (len(sorted_values) - 1))))
    return sorted_values[i]


def seeger_fabian(result: GameResult) -> tuple[int, int, int]:
    """Seeger-Fabian points of the three positions for one game (three-player table).

    >>> from engine.contract import Contract
    >>> r = GameResult(declarer=0, contract=Contract.parse("G"), bid=18, won=False,
    ...                value=-96, position_values=(-96, 0, 0))
    >>> seeger_fabian(r)
    (-146, 40, 40)
    """
    pts = list(result.position_values)
    if result.contract is not None and result.contract.game == GameType.RAMSCH:
        return result.position_values  # a Ramsch counts as scored (no 50 or 40)
    if result.declarer is None or result.passed_in:
        return (0, 0, 0)
    d = result.declarer
    if result.won:
        pts[d] += 50
    else:
        pts[d] -= 50
        for p in range(3):
            if p != d:
                pts[p] += 40
    return (pts[0], pts[1], pts[2])


def seating_difference(sf: tuple[int, int, int], seating: Sequence[str]) -> float:
    """One seating's score in a duel: A's mean Seeger-Fabian points per seat minus B's
    (``seating``: "A" or "B" at each position). For a player alone at a position it is
    the seat's points minus the mean of the other two seats'.

    >>> seating_difference((-146, 40, 40), "ABB")  # A's grand lost: the defenders' 40 too
    -186.0
    >>> seating_difference((-146, 40, 40), "BAB")  # A defends beside B against B's grand
    93.0
    """
    a = [sf[i] for i in range(3) if seating[i] == "A"]
    b = [sf[i] for i in range(3) if seating[i] == "B"]
    return sum(a) / len(a) - sum(b) / len(b)


def game_record(deal_seed: int, seating: Sequence[str], result: GameResult,
                limits: Sequence[int | None] = (None, None, None),
                game: Game | None = None) -> dict[str, object]:
    """One game of a duel as a JSON-ready record: who sat where, the contract and its
    result, each position's Seeger-Fabian points and the seating's score (what a
    where-were-the-points-lost analysis needs, one line per game); with ``game``, under
    ``"game"`` the deal, rules and every action (:meth:`Game.to_json`), so that the game
    can be replayed and solved with open cards (``python -m lab.duelopen``).

    >>> from engine.contract import Contract
    >>> r = GameResult(declarer=0, contract=Contract.parse("G"), bid=18, won=False,
    ...                value=-96, points=50, position_values=(-96, 0, 0))
    >>> rec = game_record(7, "ABB", r)
    >>> rec["declarer"], rec["contract"], rec["won"], rec["sf"], rec["diff"]
    (0, 'G', False, [-146, 40, 40], -186.0)
    """
    sf = seeger_fabian(result)
    return {
        "deal_seed": deal_seed, "seating": "".join(seating),
        "declarer": None if result.passed_in else result.declarer,
        "contract": str(result.contract) if result.contract else None,
        "bid": result.bid, "won": result.won, "value": result.value,
        "points": result.points, "schneider": result.schneider, "overbid": result.overbid,
        "limits": list(limits), "sf": list(sf),
        "diff": round(seating_difference(sf, seating), 3),
    } | ({"game": game.to_json()} if game is not None else {})


def bootstrap_ci(values: list[float], rounds: int, seed: int, level: float = 0.95
                 ) -> tuple[float, float]:
    """Percentile bootstrap interval of the mean.

    >>> bootstrap_ci([1.0, 1.0, 1.0], 100, seed=0)
    (1.0, 1.0)
    """
    if not values:
        return (0.0, 0.0)
    rng = random.Random(seed)
    n = len(values)
    means = sorted(sum(rng.choices(values, k=n)) / n for _ in range(rounds))
    lo = (1 - level) / 2
    return (quantile(means, lo), quantile(means, 1 - lo))


# The kinds of decision a computer seat is asked for, as the table sees them.
KINDS = ("bid", "skat", "contract", "discard", "push", "double", "card")


def decision_kind(view: SeatView) -> str:
    """What a decision is: ``bid`` (bid, hold or pass), ``skat`` (take the skat or declare a
    hand game), ``contract`` (after the pick-up: the contract, with the discard searched
    with it), ``discard`` (the cards put away once declared), ``push`` (Schieberamsch: take
    the skat and push, or pass, and the cards pushed on), ``card`` (a card, including a
    Kontra or Re said by the seat to lay the first card). ``double`` is not a phase's: it
    is a Kontra/Re asked out of turn (:meth:`Timed.double`).

    >>> from engine.deal import Deal
    >>> from engine.game import Game
    >>> decision_kind(SeatView.of(Game(Deal.shuffled(1)), 1))
    'bid'
    """
    if view.phase == Phase.BIDDING:
        return "bid"
    if view.phase == Phase.SKAT:
        return "skat"
    if view.phase == Phase.DISCARD:
        return "contract" if any(a.kind == "declare" for a in view.legal) else "discard"
    if view.phase == Phase.PUSHING:
        return "push"
    return "card"


class Timed:
    """Wraps a player to time its decisions that had a real choice (in ``phases``, if
    given: e.g. only card play and declaration). ``kinds``, if given, gets each time also
    under its :func:`decision_kind` (and ``double`` for a Kontra/Re asked out of turn)."""

    def __init__(self, player: Player, times: list[float],
                 phases: tuple[Phase, ...] | None = None,
                 kinds: dict[str, list[float]] | None = None) -> None:
        self.player = player
        self.name = player.name
        self.times = times
        self.phases = phases
        self.kinds = kinds

    def double(self, view: SeatView) -> Action | None:
        """Kontra/Re out of turn, if the player says it (see ``table.offer_doubling``)."""
        double = getattr(self.player, "double", None)
        if double is None:
            return None
        t0 = time.perf_counter()
        a = double(view)
        self._note("double", time.perf_counter() - t0)
        return a

    def choose(self, view: SeatView) -> Action:
        t0 = time.perf_counter()
        a = self.player.choose(view)
        if len(view.legal) > 1 and (self.phases is None or view.phase in self.phases):
            self._note(decision_kind(view), time.perf_counter() - t0)
        return a

    def _note(self, kind: str, seconds: float) -> None:
        self.times.append(seconds)
        if self.kinds is not None:
            self.kinds.setdefault(kind, []).append(seconds)


def fixed_start(deal: Deal, seed: int, rules: Rules | None = None) -> Game | None:
    """The game after the rule players' bidding and declaration (None if passed in)."""
    g = Game(deal, rules or Rules())
    rule = [RulePlayer(seed), RulePlayer(seed + 1), RulePlayer(seed + 2)]
    while g.result is None and g.phase != Phase.PLAY:
        pos = g.to_act
        assert pos is not None
        g.push(rule[pos].choose(SeatView.of(g, pos)))
    return g if g.result is None else None


def ramsch_start(deal: Deal, rules: Rules) -> Game:
    """The game after all three passed: a Ramsch (Schieberamsch if the rules say so)."""
    g = Game(deal, rules)
    for pos in (1, 2, 0):  # middlehand passes, rearhand passes, forehand passes
        g.push(Pass(pos))
    return g


def deal_seeds(settings: DuelSettings) -> list[int]:
    """The deal seeds of a run (in fixed-contract mode, passed-in deals are skipped)."""
    out = []
    s = settings.seed * 1_000_003
    while len(out) < settings.deals:
        if not settings.fixed_contract or fixed_start(Deal.shuffled(s), s) is not None:
            out.append(s)
        s += 1
    return out


def play_deal(settings: DuelSettings, index: int, deal_seed: int) -> DealOutcome:
    """The six seatings of one deal."""
    deal = Deal.shuffled(deal_seed)
    times: dict[str, list[float]] = {settings.a: [], settings.b: []}
    kind_times: dict[str, dict[str, list[float]]] = {settings.a: {}, settings.b: {}}
    diffs, a_means, b_means, contracts = [], [], [], []
    records: list[dict[str, object]] = []
    stats = {"A": SideStats(), "B": SideStats()}
    checks: dict[str, int] = {}
    notes: list[str] = []
    outside = settings.outside
    for k, seating in enumerate(SEATINGS):
        rules = settings.game_rules()
        names = [settings.a if who == "A" else settings.b for who in seating]
        table: OutsideTable | None = None
        if outside is not None and outside.name in names:
            table = outside.table(deal, tuple(p for p in range(3) if names[p] == outside.name),
                                  deal_seed * 31 + k * 3, rules)
        try:
            players: list[Timed] = []
            for pos, name in enumerate(names):
                if table is not None and name == outside.name:  # type: ignore[union-attr]
                    p: Player = table.player(pos)
                else:
                    p = make_player(name, seed=deal_seed * 31 + k * 3 + pos,
                                    budget=settings.budget, worlds=settings.worlds,
                                    workers=settings.workers)
                # as the table does when it seats the computer: worker processes start
                # here, not inside the first timed decision
                warm_up = getattr(p, "warm_up", None)
                if warm_up is not None:
                    warm_up()
                players.append(Timed(p, times[name], kinds=kind_times[name]))
            start = fixed_start(deal, deal_seed, rules) if settings.fixed_contract else None
            if settings.ramsch_only:
                start = ramsch_start(deal, rules)
            game = play_game(deal, players, rules=rules, start=start,
                             on_decision=table.observe if table is not None else None)
            if table is not None:
                verdict, note = table.finish(game)
                checks[verdict] = checks.get(verdict, 0) + 1
                if note:
                    notes.append(f"deal seed {deal_seed}, seating {''.join(seating)}: {note}")
        finally:
            if table is not None:
                table.close()
        for p in players:
            close = getattr(p.player, "close", None)  # type: ignore[attr-defined]
            if close is not None:
                close()
        assert game.result is not None
        limits = tuple(getattr(p.player, "last_bid_limit", None) for p in players)
        for who, st in tally(game.result, seating, limits).items():  # type: ignore[arg-type]
            stats[who].merge(st)
        sf = seeger_fabian(game.result)
        a = [sf[i] for i in range(3) if seating[i] == "A"]
        b = [sf[i] for i in range(3) if seating[i] == "B"]
        a_means.append(sum(a) / len(a))
        b_means.append(sum(b) / len(b))
        diffs.append(seating_difference(sf, seating))
        contracts.append(str(game.result.contract) if game.result.contract else "-")
        records.append(game_record(deal_seed, seating, game.result, limits,
                                   game if settings.keep_games else None))
    return DealOutcome(index, deal_seed, statistics.fmean(diffs), statistics.fmean(a_means),
                       statistics.fmean(b_means), contracts, times, stats, checks, notes,
                       kind_times, records)


def _play_deal_args(args: tuple[DuelSettings, int, int]) -> DealOutcome:
    return play_deal(*args)


def run_duel(settings: DuelSettings,
             progress: Callable[[int, DealOutcome], None] | None = None) -> DuelReport:
    """Play the run; ``progress(done, outcome)`` after each deal."""
    t0 = time.perf_counter()
    seeds = deal_seeds(settings)
    work = [(settings, i, s) for i, s in enumerate(seeds)]
    outcomes: list[DealOutcome] = []
    results: Iterator[DealOutcome]
    if settings.jobs > 1:
        with ProcessPoolExecutor(max_workers=settings.jobs) as ex:
            results = ex.map(_play_deal_args, work)
            for o in results:
                outcomes.append(o)
                if progress:
                    progress(len(outcomes), o)
    else:
        for w in work:
            o = play_deal(*w)
            outcomes.append(o)
            if progress:
                progress(len(outcomes), o)
    per_deal = [o.diff for o in outcomes]
    lo, hi = bootstrap_ci(per_deal, settings.bootstrap, seed=settings.seed)
    times: dict[str, list[float]] = {}
    stats = {"A": SideStats(), "B": SideStats()}
    for o in outcomes:
        for who, st in o.stats.items():
            stats[who].merge(st)
    kind_times: dict[str, dict[str, list[float]]] = {}
    for o in outcomes:
        for name, t in o.times.items():
            times.setdefault(name, []).extend(t)
        for name, by_kind in o.kind_times.items():
            for kind, t in by_kind.items():
                kind_times.setdefault(name, {}).setdefault(kind, []).extend(t)
    checks: dict[str, int] = {}
    for o in outcomes:
        for verdict, n in o.checks.items():
            checks[verdict] = checks.get(verdict, 0) + n
    return DuelReport(
        settings=settings,
        per_deal=per_deal,
        a_per_game=statistics.fmean(o.a_mean for o in outcomes) if outcomes else 0.0,
        b_per_game=statistics.fmean(o.b_mean for o in outcomes) if outcomes else 0.0,
        mean=statistics.fmean(per_deal) if per_deal else 0.0,
        ci_low=lo,
        ci_high=hi,
        games=len(outcomes) * len(SEATINGS),
        seconds=time.perf_counter() - t0,
        decision_times=times,
        stats=stats,
        checks=checks,
        notes=[n for o in outcomes for n in o.notes],
        kind_times=kind_times,
    )


# ---------------------------------------------------------------------- Kontra/Re


@dataclass(frozen=True)
class DoublingEffect:
    """A duel under ``kontra_re`` scored twice: as played, and with every doubling taken
    out (neither the PIMC nor the rule player plays a card differently for a doubling, so
    the difference is what the doublings alone earned). Means per game of A minus B over
    the six seatings, per deal; ``calls``: (caller type, "kontra"/"re", declarer type, won)."""

    on: list[float]
    off: list[float]
    calls: list[tuple[str, str, str, bool]]


def doubling_effect(a: str, b: str, deals: int, seed: int = 0, worlds: int = 8
                    ) -> DoublingEffect:
    """Play ``deals`` deals in all six seatings of ``a`` and ``b`` with Kontra/Re on.

    >>> e = doubling_effect("rule", "random", 1, seed=1)
    >>> len(e.on) == len(e.off) == 1, e.calls
    (True, [])
    """
    rules = Rules(kontra_re=True)
    on: list[float] = []
    off: list[float] = []
    calls: list[tuple[str, str, str, bool]] = []
    for i in range(deals):
        s = seed * 1_000_003 + i
        deal = Deal.shuffled(s)
        d_on, d_off = [], []
        for k, seating in enumerate(SEATINGS):
            players = [make_player(a if who == "A" else b, seed=s * 31 + k * 3 + pos,
                                   worlds=worlds, workers=1)
                       for pos, who in enumerate(seating)]
            said: list[tuple[int, str]] = []

            def note(p: int, act: Action, _t: float, said: list[tuple[int, str]] = said
                     ) -> None:
                if act.kind in ("kontra", "re"):
                    said.append((p, act.kind))

            g = play_game(deal, players, rules=rules, on_decision=note)
            for p in players:
                close = getattr(p, "close", None)
                if close is not None:
                    close()
            r = g.result
            assert r is not None
            undoubled = replace(r, position_values=tuple(v // g.kontra
                                                          for v in r.position_values))
            for scores, out in ((seeger_fabian(r), d_on), (seeger_fabian(undoubled), d_off)):
                ta = [scores[p] for p in range(3) if seating[p] == "A"]
                tb = [scores[p] for p in range(3) if seating[p] == "B"]
                out.append(statistics.fmean(ta) - statistics.fmean(tb))
            for p, kind in said:
                calls.append((seating[p], kind, seating[r.declarer]  # type: ignore[index]
                              if r.declarer is not None else "-", r.won))
        on.append(statistics.fmean(d_on))
        off.append(statistics.fmean(d_off))
    return DoublingEffect(on, off, calls)

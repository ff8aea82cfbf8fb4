"""A tournament game scored by the engine, and the standings built from the counted games.

The table sends its own result, but the server believes the engine: the game's ISS record is
replayed through ``engine.iss`` and the engine's result is compared with what the table said;
a disagreement refuses the message. Per-seat entries come from the engine's functions
(``engine.series.seats_for`` maps the positions to table seats, ``seeger_fabian_entries`` adds
the Seeger-Fabian points): there is no second copy of the scoring rules here.

Seeger-Fabian (the Skatwettspielordnung, section 5): the game value, +50 for each won and -50
for each lost game to the declarer, and on each lost game 40 to each of the two defenders at a
three-player table, 30 to each of the three others at a four-player table.

Ties: the Skatwettspielordnung ranks by this "Leistung" alone and names no tie-break, so equal
totals share a place and split the prizes of the places they hold (docs/club.md, "Ties").
A tournament that announces a tie-break in its invitation names it in
``[tournament] tie_break`` (``won-minus-lost``, ``last-series``), applied in the order given.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from decimal import ROUND_DOWN, Decimal
from typing import Any

from club.messages import Claim
from engine.contract import Contract, ContractError, GameType
from engine.game import ISKO
from engine.iss import IssError, compare, parse_record, replay
from engine.series import seats_for, seeger_fabian_entries


class GameCheckError(ValueError):
    """A game whose record or result the engine does not confirm; the message says why.

    ``code`` names the refusals the server acts on later: ``"closed"`` (the series was
    closed: its Reopen checks the message again) and ``"conflict"`` (the same revision
    received before with other content: the director may choose one version)."""

    def __init__(self, message: str, code: str = "") -> None:
        super().__init__(message)
        self.code = code


@dataclass(frozen=True)
class ScoredGame:
    """One counted game of the tournament, by table seat (``players[seat]`` is a player id).

    ``scores``: the standard sheet's entries per seat; ``sf``: the Seeger-Fabian entries.
    ``source`` is ``"table"`` or ``"director"`` (a correction); ``annulled`` games count
    nothing.
    """

    game_id: str
    series: int
    table: str
    game: int
    revision: int
    players: tuple[str, ...]
    dealer: int
    declarer: int | None
    contract: str | None
    bid: int | None
    won: bool | None
    value: int
    points: int | None
    tricks: int | None
    matadors: int | None
    schneider: bool
    schwarz: bool
    overbid: bool
    passed_in: bool
    scores: tuple[int, ...]
    sf: tuple[int, ...]
    at: str = ""
    iss: str = ""
    source: str = "table"
    annulled: bool = False

    @property
    def n(self) -> int:
        return len(self.players)

    def to_json(self) -> dict[str, Any]:
        return {k: (list(v) if isinstance(v, tuple) else v) for k, v in self.__dict__.items()}


def engine_result(iss: str, dealer: int, n: int) -> tuple[Any, tuple[int, int, int]]:
    """Replay an ISS record with the engine: ``(GameResult, table seats of the positions)``.

    A record the engine cannot replay, one that is not ISkO Skat, or one whose own ``R[...]``
    the engine contradicts raises :class:`GameCheckError`.
    """
    try:
        record = parse_record(iss)
    except IssError as exc:
        raise GameCheckError(f"the ISS record cannot be read: {exc}") from None
    if record.get("RU"):
        raise GameCheckError(f"house rules ({record.get('RU')}) are not played in a tournament")
    try:
        game = replay(record, ISKO)
    except IssError as exc:
        raise GameCheckError(f"the ISS record is not a legal game: {exc}") from None
    if record.result is not None:
        diffs = compare(record, game)
        if diffs:
            raise GameCheckError("the record's R[...] is not what the engine scores: "
                                 + "; ".join(diffs[:3]))
    if not 0 <= dealer < n:
        raise GameCheckError(f"dealer {dealer} is not a seat of a {n}-player table")
    return game.result, seats_for(dealer, n)


def score_from_engine(
    base: dict[str, Any], result: Any, seats: Sequence[int], n: int
) -> tuple[dict[str, Any], tuple[int, ...], tuple[int, ...]]:
    """The table-seat view of an engine result: (fields, standard entries, SF entries)."""
    scores = [0] * n
    no_game = result.passed_in or result.contract is None
    if not no_game:
        for pos, v in enumerate(result.position_values):
            scores[seats[pos]] += v
    declarer = None if no_game else seats[result.declarer]
    sf = tuple(scores) if declarer is None else seeger_fabian_entries(
        scores, declarer, bool(result.won))
    fields_ = dict(
        base,
        declarer=declarer,
        contract=None if no_game else str(result.contract),
        bid=result.bid or None,
        won=None if no_game else bool(result.won),
        value=0 if no_game else result.value,
        points=None if no_game else result.points,
        tricks=None if no_game else result.tricks,
        matadors=None if no_game else result.matadors,
        schneider=bool(result.schneider) and not no_game,
        schwarz=bool(result.schwarz) and not no_game,
        overbid=bool(result.overbid),
        passed_in=no_game,
    )
    return fields_, tuple(scores), sf


def check_claim(claim: Claim, scored: ScoredGame) -> list[str]:
    """Where the table's own ``result`` contradicts the engine's score (empty: agrees)."""
    out = []
    if claim.passed_in != scored.passed_in:
        out.append(f"passed_in {claim.passed_in}, the engine says {scored.passed_in}")
        return out
    if claim.declarer != scored.declarer:
        out.append(f"declarer {claim.declarer!r}, the engine says {scored.declarer}")
    if claim.value != scored.value:
        out.append(f"value {claim.value!r}, the engine says {scored.value}")
    if not scored.passed_in and claim.won != scored.won:
        out.append(f"won {claim.won!r}, the engine says {scored.won}")
    c = claim.contract
    if not scored.passed_in:
        try:
            same = c is not None and Contract.parse(c) == Contract.parse(scored.contract or "")
        except ContractError:
            same = False
        if not same:
            out.append(f"contract {c!r}, the engine says {scored.contract}")
    if claim.scores is not None and list(claim.scores) != list(scored.scores):
        out.append(f"scores {list(claim.scores)!r}, the engine says {list(scored.scores)}")
    return out


MAX_BID = 264          # grand with four, schneider, schwarz announced, ouvert: 11 x 24
PAPER_CONTRACTS = ("C", "S", "H", "D", "G", "N", "NH", "NO", "NOH")


def game_values(contract: str | None, won: bool) -> frozenset[int]:
    """Every value (unsigned) a game can have under the rules: the base value times 2 (with
    or without one, game two) up to the most levels there are (11 matadors and 7 levels for a
    suit, 4 and 7 for grand), and a lost overbid game up to the multiple that reaches the
    highest bid; a null game its fixed value. ``contract`` None: any game.

    >>> sorted(game_values("G", True))[:3], max(game_values("G", True))
    ([48, 72, 96], 264)
    >>> 47 in game_values(None, True), 9 in game_values(None, True)
    (False, False)
    >>> 270 in game_values("D", False), 270 in game_values("D", True)
    (True, False)
    >>> sorted(game_values("NO", True))
    [46]
    """
    kinds = [Contract.parse(contract)] if contract else [
        Contract.parse(c) for c in PAPER_CONTRACTS]
    vals: set[int] = set()
    for c in kinds:
        nv = c.null_value
        if nv is not None:
            vals.add(nv)
            if not contract:
                vals.update((23, 35, 46, 59))
            continue
        base = c.game.base_value
        assert base is not None
        most = (4 if c.game == GameType.GRAND else 11) + 7
        if not won:
            most = max(most, -(-MAX_BID // base))
        vals.update(base * k for k in range(2, most + 1))
    return frozenset(vals)


def check_value(contract: str | None, won: bool, value: int) -> None:
    """Raise :class:`GameCheckError` unless ``value`` (as entered on the list: +value won,
    -2 x value lost) is one the rules can give for ``contract`` (None: any game)."""
    what = f"a {contract_name(contract)} " if contract else ""
    if won and (value <= 0 or value not in game_values(contract, True)):
        raise GameCheckError(f"{value} is no game value {what or 'a declarer '}can win")
    if not won and (value >= 0 or value % 2 or -value // 2 not in game_values(contract, False)):
        raise GameCheckError(f"{value} is no game value: a lost {what or 'game '}counts "
                             "twice a game's value")


def contract_name(contract: str | None) -> str:
    """``"G"`` -> ``"grand"``, ``"NO"`` -> ``"null ouvert"`` (English, for messages)."""
    try:
        return Contract.parse(contract or "").name
    except ContractError:
        return str(contract)


def director_score(original: ScoredGame, declarer: int | None, won: bool | None,
                   value: int, contract: str | None = None) -> ScoredGame:
    """The game as the director corrects it: a declarer seat (None: passed in), won or lost and
    the value as entered (+value won, -2 x value lost), and, if given, the game played (in
    ISS notation; its value is then checked against that game). Raises
    :class:`GameCheckError` for a value the rules cannot give.

    >>> g = _example()
    >>> director_score(g, declarer=1, won=False, value=-96).sf
    (40, -146, 40)
    >>> director_score(g, declarer=1, won=False, value=-95)
    Traceback (most recent call last):
    ...
    club.scoring.GameCheckError: -95 is no game value: a lost game counts twice a game's value
    >>> director_score(g, declarer=1, won=True, value=36, contract="G")
    Traceback (most recent call last):
    ...
    club.scoring.GameCheckError: 36 is no game value a grand can win
    """
    n = original.n
    if declarer is None:
        if value:
            raise GameCheckError(f"a passed-in game has no value, not {value}")
        return replace(original, declarer=None, contract=None, won=None, value=0,
                       passed_in=True, scores=(0,) * n, sf=(0,) * n, source="director")
    if not 0 <= declarer < n:
        raise GameCheckError(f"seat {declarer} is not at this {n}-player table")
    if n == 4 and declarer == original.dealer:
        raise GameCheckError("the dealer sits out at a four-player table and cannot declare")
    if won is None:
        raise GameCheckError("say whether the declarer won or lost")
    if contract:
        try:
            contract = str(Contract.parse(contract))
        except ContractError as exc:
            raise GameCheckError(str(exc)) from None
    check_value(contract, won, value)
    if not contract and original.contract:
        # the game as counted, if the corrected value fits it; otherwise the list shows no
        # game rather than a wrong one (the director did not say which it was)
        try:
            check_value(original.contract, won, value)
            contract = original.contract
        except GameCheckError:
            contract = None
    scores = [0] * n
    scores[declarer] = value
    sf = seeger_fabian_entries(scores, declarer, won)
    return replace(original, declarer=declarer, won=won, value=value, passed_in=False,
                   contract=contract, scores=tuple(scores), sf=tuple(sf), source="director")


def _example() -> ScoredGame:
    return ScoredGame("t/1/1/1", 1, "1", 1, 1, ("a", "b", "c"), 0, 1, "S", 18, True, 22,
                      70, 6, 1, False, False, False, False, (0, 22, 0), (0, 72, 0))


# --- standings ------------------------------------------------------------------------------


@dataclass
class Tally:
    """One player's sums, kept up to date as games are counted, corrected or annulled."""

    sf: dict[int, int] = field(default_factory=dict)        # per series
    points: dict[int, int] = field(default_factory=dict)    # standard sheet, per series
    won: dict[int, int] = field(default_factory=dict)
    lost: dict[int, int] = field(default_factory=dict)
    bonus: dict[int, int] = field(default_factory=dict)     # defenders' points on lost games
    games: dict[int, int] = field(default_factory=dict)     # deals played at the table

    def add(self, g: ScoredGame, seat: int, sign: int) -> None:
        s = g.series
        for d, v in ((self.sf, g.sf[seat]), (self.points, g.scores[seat]),
                     (self.games, 1)):
            d[s] = d.get(s, 0) + sign * v
        if g.declarer == seat and g.won is not None:
            d = self.won if g.won else self.lost
            d[s] = d.get(s, 0) + sign
        elif g.won is False:
            self.bonus[s] = self.bonus.get(s, 0) + sign * g.sf[seat]

    @property
    def total(self) -> int:
        return sum(self.sf.values())


@dataclass(frozen=True)
class Row:
    """One line of the ranking."""

    place: int
    player: str
    name: str
    club: str
    series: tuple[int, ...]
    total: int
    points: int
    won: int
    lost: int
    bonus: int
    games: int
    abreizgeld: Decimal
    prize: Decimal = Decimal(0)


class Standings:
    """Sums per player over the counted games; :meth:`ranking` sorts them.

    >>> st = Standings()
    >>> st.count(_example())
    >>> st.tallies["b"].total, st.tallies["a"].total
    (72, 0)
    >>> st.count(None, old=_example())
    >>> st.tallies["b"].total
    0
    """

    def __init__(self) -> None:
        self.tallies: dict[str, Tally] = {}

    def count(self, new: ScoredGame | None, old: ScoredGame | None = None) -> None:
        """Replace ``old``'s contribution (if any) by ``new``'s (if any)."""
        for g, sign in ((old, -1), (new, +1)):
            if g is None or g.annulled:
                continue
            for seat, pid in enumerate(g.players):
                self.tallies.setdefault(pid, Tally()).add(g, seat, sign)

    def ranking(self, players: dict[str, tuple[str, str]], series_count: int,
                abreiz: Any, tie_break: Sequence[str] = (),
                prizes: Sequence[Decimal] = ()) -> list[Row]:
        """Rows best first. ``players``: id -> (name, club), each registered player listed
        (a player with no game yet ranks with 0). ``prizes``: the amount for places 1..k."""
        ids = set(players) | set(self.tallies)
        rows = []
        for pid in ids:
            t = self.tallies.get(pid, Tally())
            name, club = players.get(pid, (pid, ""))
            rows.append((pid, name, club, t))
        last = max((s for _, _, _, t in rows for s, v in t.games.items() if v), default=0)

        def key(item: tuple[str, str, str, Tally]) -> tuple[int, ...]:
            t = item[3]
            k = [-t.total]
            for rule in tie_break:
                if rule == "won-minus-lost":
                    k.append(-(sum(t.won.values()) - sum(t.lost.values())))
                elif rule == "last-series":
                    k.append(-t.sf.get(last, 0))
            return tuple(k)

        rows.sort(key=lambda r: (key(r), r[1].casefold(), r[0]))
        out: list[Row] = []
        place = 0
        prev = None
        keys = [key(r) for r in rows]
        for i, (pid, name, club, t) in enumerate(rows):
            if keys[i] != prev:
                place = i + 1
                prev = keys[i]
            lost_by_series = [t.lost.get(s, 0) for s in range(1, series_count + 1)]
            out.append(Row(
                place=place, player=pid, name=name, club=club,
                series=tuple(t.sf.get(s, 0) for s in range(1, series_count + 1)),
                total=t.total, points=sum(t.points.values()), won=sum(t.won.values()),
                lost=sum(t.lost.values()), bonus=sum(t.bonus.values()),
                games=sum(t.games.values()),
                abreizgeld=sum((abreiz.amount(k) for k in lost_by_series), Decimal("0.00")),
            ))
        return share_prizes(out, prizes)


def share_prizes(rows: list[Row], prizes: Sequence[Decimal]) -> list[Row]:
    """Give each place its prize; players sharing a place split the prizes of the places
    they hold equally, rounded down to the cent.

    >>> r = [Row(p, str(i), "", "", (), 0, 0, 0, 0, 0, 0, Decimal(0))
    ...      for i, p in enumerate([1, 2, 2, 4])]
    >>> [str(x.prize) for x in share_prizes(r, [Decimal(50), Decimal(30), Decimal(20)])]
    ['50', '25.00', '25.00', '0']
    """
    out = []
    i = 0
    while i < len(rows):
        j = i
        while j < len(rows) and rows[j].place == rows[i].place:
            j += 1
        pot = sum((prizes[k] for k in range(i, j) if k < len(prizes)), Decimal(0))
        each = pot if j - i == 1 else (pot / (j - i)).quantize(Decimal("0.01"), ROUND_DOWN)
        out.extend(replace(r, prize=each) for r in rows[i:j])
        i = j
    return out


def prize_list(pool: Decimal, shares: Iterable[Decimal]) -> list[Decimal]:
    """The prize for places 1..k: ``shares`` are percent of the pool, rounded down to cents.

    >>> prize_list(Decimal("300"), [Decimal(30), Decimal(20), Decimal("12.5")])
    [Decimal('90.00'), Decimal('60.00'), Decimal('37.50')]
    """
    return [(pool * s / 100).quantize(Decimal("0.01"), ROUND_DOWN) for s in shares]

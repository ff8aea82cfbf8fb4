"""A series at one table: who deals, who sits where, the score sheet, Bock rounds, settlement.

Table seats are ``0..n-1`` clockwise (``n`` = 3 or 4). For each deal the forehand is the seat
left of the dealer, then middlehand and rearhand; at four the dealer sits out. The dealer moves
one seat clockwise after every deal, a passed-in one included ("the next player deals").

>>> s = Series(["Anna", "Ben", "Carla"], first_dealer=2)
>>> s.dealer, s.seats
(2, (0, 1, 2))
>>> s.record(ManualResult(declarer=1, won=True, value=48))       # doctest: +ELLIPSIS
SheetEntry(number=1, dealer=2, seats=(0, 1, 2), declarer=1, ...)
>>> s.totals, s.dealer, s.seats
((0, 48, 0), 0, (1, 2, 0))

Scoring (both are always kept; ``scoring`` says which one ranks the players and settles):

- ``standard``: the declarer's entry is the game value, +value won, -2 x value lost (the engine's
  ``GameResult.value``); the others score nothing. Ramsch (house rule) enters what the engine's
  ``position_values`` give.
- ``seeger-fabian``: the same plus 50 for each won and minus 50 for each lost game to the
  declarer; on each lost game every other player at the table gets 40 at three, 30 at four
  (the dealer who sat out included). Passed-in deals and Ramsch get no bonus.

Bock rounds (house rule, ``rules="pub"``): a game that meets one of the configured triggers
queues a Bock round, the next ``n`` deals, whose game values count double. Rounds triggered
while one is running are appended after it. A passed-in deal uses up a Bock deal like any other.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from typing import Any, Protocol

SCORINGS = ("standard", "seeger-fabian")

BOCK_TRIGGERS = {
    "sixty": "a suit or grand game played out to the tenth trick ended 60:60 (the declarer "
             "has exactly 60 card points with the skat)",
    "kontra": "Kontra was said",
    "re": "Re was said",
    "grand-hand": "a grand hand (ouvert included) was declared",
    "schneider-lost": "the declarer lost a suit or grand game in which he was schneidered "
                      "(30 or fewer card points with the skat, once a trick was completed) or "
                      "had announced schneider",
    "schwarz": "a suit or grand game played out to the tenth trick in which one side took "
               "no trick",
    "value:N": "the game value (lost: the doubled loss; before any Bock doubling) reached N",
}
"""The Bock triggers a config may name, with what each means."""


class SeriesError(ValueError):
    """A series set up wrongly, or asked for something its state does not allow."""


class ResultLike(Protocol):
    """What the sheet reads from a game's result (the engine's ``GameResult`` has all of it)."""

    declarer: int | None
    won: bool | None
    value: int
    passed_in: bool

    @property
    def position_values(self) -> tuple[int, int, int]: ...


@dataclass(frozen=True)
class BockRules:
    """Which games start a Bock round.

    >>> BockRules.parse(["sixty", "value:100"]).triggers
    ('sixty', 'value:100')
    >>> BockRules.parse(["sixty-sixty"])
    Traceback (most recent call last):
    ...
    engine.series.SeriesError: unknown Bock trigger 'sixty-sixty': use sixty, kontra, re, \
grand-hand, schneider-lost, schwarz, value:N
    """

    triggers: tuple[str, ...] = ()

    @classmethod
    def parse(cls, names: Sequence[str]) -> BockRules:
        out = []
        for name in names:
            key = str(name).strip().lower()
            if key.startswith("value:"):
                try:
                    threshold = int(key[6:])
                except ValueError:
                    threshold = 0
                if threshold <= 0:
                    raise SeriesError(
                        f"Bock trigger {name!r}: write value:N with N a positive number of points"
                    )
                key = f"value:{threshold}"
            elif key not in BOCK_TRIGGERS:
                raise SeriesError(
                    f"unknown Bock trigger {name!r}: use {', '.join(BOCK_TRIGGERS)}"
                )
            if key not in out:
                out.append(key)
        return cls(tuple(out))

    def triggered_by(self, result: ResultLike) -> list[str]:
        """The triggers this result meets (empty for a passed-in deal)."""
        if result.passed_in:
            return []
        met = []
        trump_game = _is_trump_game(result)
        # what happened, not what a flag says: a concession, an abort or an early end is no
        # played-out game (a result without ``ending``, e.g. a ManualResult, was played out)
        played_out = getattr(result, "ending", "played") == "played"
        tricks = getattr(result, "tricks", None)
        for t in self.triggers:
            if t == "sixty":
                hit = trump_game and played_out and getattr(result, "points", None) == 60
            elif t == "kontra":
                hit = getattr(result, "kontra", 1) >= 2
            elif t == "re":
                hit = getattr(result, "kontra", 1) >= 4
            elif t == "grand-hand":
                c = str(getattr(result, "contract", None) or "")
                hit = c.startswith("G") and ("H" in c[1:] or "O" in c[1:])
            elif t == "schneider-lost":
                hit = (
                    trump_game
                    and result.declarer is not None
                    and not result.won
                    and (_announced_schneider(result) or _schneidered(result))
                )
            elif t == "schwarz":
                if tricks is None:  # a game entered by hand: its flag is all there is
                    hit = trump_game and bool(getattr(result, "schwarz", False))
                else:
                    hit = trump_game and played_out and tricks in (0, 10)
            else:  # value:N
                hit = abs(result.value) >= int(t[6:])
            if hit:
                met.append(t)
        return met


# endings whose schneider flag is a level awarded to the declarer (a defenders' violation is
# scored as their concession, or as his concession when they are out of it: no flag then)
_AWARDING_ENDINGS = frozenset(("defenders-conceded", "defenders-violation"))


def _schneidered(result: ResultLike) -> bool:
    """Whether the declarer himself was schneidered: the flag alone also marks a level he
    reached (an overbid game lost with 90 or more) or was awarded by the defenders."""
    if not getattr(result, "schneider", False):
        return False
    if getattr(result, "ending", "played") in _AWARDING_ENDINGS:
        return False
    points = getattr(result, "points", None)
    return points is None or points <= 30  # a hand-entered result: its flag is all there is


def _announced_schneider(result: ResultLike) -> bool:
    c = str(getattr(result, "contract", None) or "")
    return c[:1] in ("C", "S", "H", "D", "G") and any(m in c[1:] for m in "SZO")


def _is_trump_game(result: ResultLike) -> bool:
    c = getattr(result, "contract", None)
    return c is not None and str(c)[:1] in ("C", "S", "H", "D", "G")


BOCK_FACTOR = 2
"""What the game values of a Bock deal count times."""


def _no_game(result: ResultLike) -> bool:
    """A deal in which no game was played: passed in, or (ISS) a timeout or a leave before
    any game was declared. Nothing is scored."""
    return bool(result.passed_in) or (
        getattr(result, "contract", None) is None
        and getattr(result, "ending", "") in ("timeout", "leave"))


def sheet_value(result: ResultLike, bock: bool) -> int:
    """The game's value as the sheet books it: the result's signed value (Kontra, Re, a loss
    and the Ramsch doublings in it), times :data:`BOCK_FACTOR` in a Bock deal; 0 when no game
    was played. :meth:`Series.record` books this, and every screen that says what a game
    counts (or would count, if conceded now) says this.

    >>> sheet_value(ManualResult(declarer=0, won=False, value=-96), bock=True)
    -192
    """
    return 0 if _no_game(result) else result.value * (BOCK_FACTOR if bock else 1)


# The factors a game's value is multiplied by after its own value, each named, in the order
# players count them: a loss doubles, then Kontra and Re, (Ramsch) each Jungfrau and each
# push, and last the Bock round, which doubles whatever the game made.
FACTOR_KEYS = ("lost", "kontra", "re", "jungfrau", "pushed", "bock")
# The engine's breakdown writes Kontra/Re and the Ramsch doublings as running multipliers
# among the levels; a reckoning names them as factors instead.
_RUNNING_KEYS = frozenset(("kontra", "re", "jungfrau", "pushed"))


@dataclass(frozen=True)
class Reckoning:
    """A game's entry on the sheet as players count it: the game's own value (``levels``,
    then ``base`` x ``multiplier`` = ``game_value``), then each factor by name, and the
    value the sheet books: ``value`` = +/- ``game_value`` x every factor.

    ``levels`` are the engine's breakdown without the factors (``("with", 2), ("game", 3)``;
    ``("null", 23)``; ``("ramsch", 47)``; ``("durchmarsch", 120)``); ``factors`` are
    ``(key, factor)`` with keys from :data:`FACTOR_KEYS`: ``("lost", 2)``, ``("kontra", 2)``,
    ``("re", 2)``, ``("jungfrau", 2 ** maidens)``, ``("pushed", 2 ** pushes)``,
    ``("bock", 2)``.

    >>> from engine.contract import Contract
    >>> from engine.scoring import score_suit_grand
    >>> r = score_suit_grand(Contract.parse("C"), bid=18, matador_count=2, points=70, tricks=6,
    ...                      ending="played", declarer=0, kontra=2)
    >>> k = reckon(r, bock=True)
    >>> k.base, k.multiplier, k.game_value, k.factors, k.value
    (12, 3, 36, (('kontra', 2), ('bock', 2)), 144)
    """

    levels: tuple[tuple[str, int], ...]
    base: int | None          # suit or grand: the base value (null: the null value)
    multiplier: int | None    # suit or grand: the levels counted (overbid: as counted)
    game_value: int           # what the game itself is worth, unsigned, before the factors
    factors: tuple[tuple[str, int], ...]
    value: int                # signed, exactly what the sheet books

    @property
    def product(self) -> int:
        """All factors multiplied (1 when there are none)."""
        out = 1
        for _key, factor in self.factors:
            out *= factor
        return out


def reckon(result: ResultLike, bock: bool) -> Reckoning:
    """How ``result`` counts on the sheet in a deal that is (or is not) a Bock deal: the
    figures the result screen, the headless log and the score sheet's marks show. The value
    is :func:`sheet_value`; the game value and the factors come from the result's own fields
    (a test checks that they multiply to the value over random series)."""
    value = sheet_value(result, bock)
    if _no_game(result):
        return Reckoning((), None, None, 0, (), 0)
    breakdown = tuple((str(k), int(n)) for k, n in (getattr(result, "breakdown", ()) or ()))
    levels = tuple((k, n) for k, n in breakdown if k not in _RUNNING_KEYS)
    factors: list[tuple[str, int]] = []
    base = getattr(result, "base_value", None)
    multiplier = getattr(result, "multiplier", None) or None
    if result.declarer is None:  # Ramsch: the loser's points (or Durchmarsch), then doublings
        base = multiplier = None
        game_value = levels[0][1] if levels else 0
        if getattr(result, "durchmarsch", None) is None:
            maidens = len(getattr(result, "jungfrau", ()) or ())
            pushes = int(getattr(result, "pushes", 0) or 0)
            if maidens:
                factors.append(("jungfrau", 2 ** maidens))
            if pushes:
                factors.append(("pushed", 2 ** pushes))
    else:
        kontra = int(getattr(result, "kontra", 1) or 1)
        if not result.won:
            factors.append(("lost", 2))
        if kontra >= 2:
            factors.append(("kontra", 2))
        if kontra >= 4:
            factors.append(("re", 2))
        game_value = base * multiplier if base and multiplier else 0
    if bock:
        factors.append(("bock", BOCK_FACTOR))
    product = 1
    for _key, factor in factors:
        product *= factor
    if not game_value:  # a game entered by hand: its value is all there is
        game_value = abs(value) // product
    return Reckoning(levels, base, multiplier, game_value, tuple(factors), value)


@dataclass(frozen=True)
class SheetEntry:
    """One deal on the score sheet. Seats are table seats.

    ``value`` is the game value as entered (doubled in a Bock deal); ``scores`` the standard
    entries per seat; ``seeger_fabian`` the Seeger-Fabian entries per seat for this deal.
    """

    number: int
    dealer: int
    seats: tuple[int, int, int]
    declarer: int | None
    won: bool | None
    value: int
    bock: bool
    scores: tuple[int, ...]
    seeger_fabian: tuple[int, ...]
    bock_triggers: tuple[str, ...] = ()
    result: Any = field(default=None, compare=False, repr=False)

    @property
    def passed_in(self) -> bool:
        return self.result is None or bool(self.result.passed_in)

    def to_json(self) -> dict[str, Any]:
        """The deal as DESIGN.md's ``replay --json`` writes it (``games`` entries)."""
        r = self.result
        played = (r is not None and not r.passed_in and self.declarer is not None
                  and r.contract is not None)
        return {
            "number": self.number,
            "dealer": self.dealer,
            "declarer": self.declarer,
            "contract": str(r.contract) if played else None,
            "bid": getattr(r, "bid", None) if r is not None else None,
            "won": self.won if played else None,
            "value": self.value,
            "points": r.points if played else None,
            "tricks": r.tricks if played else None,
            "matadors": r.matadors if played else None,
            "schneider": bool(r.schneider) if played else False,
            "schwarz": bool(r.schwarz) if played else False,
            "overbid": bool(r.overbid) if played else False,
            "passed_in": self.passed_in,
            "scores": list(self.scores),
        }

    def state_json(self) -> dict[str, Any]:
        """All of the entry, its game result included (a journal's checkpoint keeps the sheet
        this way; :meth:`from_state_json` reads it back equal)."""
        r = self.result
        return {
            "number": self.number, "dealer": self.dealer, "seats": list(self.seats),
            "declarer": self.declarer, "won": self.won, "value": self.value, "bock": self.bock,
            "scores": list(self.scores), "seeger_fabian": list(self.seeger_fabian),
            "bock_triggers": list(self.bock_triggers),
            "result": r.to_json() if r is not None else None,
        }

    @classmethod
    def from_state_json(cls, d: dict[str, Any]) -> SheetEntry:
        """The entry :meth:`state_json` wrote; ``ValueError`` when ``d`` is not one."""
        from engine.scoring import GameResult

        try:
            seats = tuple(int(x) for x in d["seats"])
            if len(seats) != 3:
                raise ValueError("three positions")
            return cls(
                number=int(d["number"]), dealer=int(d["dealer"]),
                seats=seats,  # type: ignore[arg-type]
                declarer=None if d["declarer"] is None else int(d["declarer"]),
                won=None if d["won"] is None else bool(d["won"]), value=int(d["value"]),
                bock=bool(d["bock"]), scores=tuple(int(x) for x in d["scores"]),
                seeger_fabian=tuple(int(x) for x in d["seeger_fabian"]),
                bock_triggers=tuple(str(x) for x in d["bock_triggers"]),
                result=None if d["result"] is None else GameResult.from_json(d["result"]))
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise ValueError(f"not a sheet entry: {exc}") from None


@dataclass(frozen=True)
class Payment:
    """``payer`` pays ``payee`` ``amount`` (table seats)."""

    payer: int
    payee: int
    amount: Decimal


@dataclass(frozen=True)
class Settlement:
    """What each seat pays (negative) or receives (positive), and who pays whom.

    Every pair of players settles the difference of their totals times the stake; the per-seat
    ``amounts`` add up to zero. No commission is taken.
    """

    stake: Decimal
    points: tuple[int, ...]
    amounts: tuple[Decimal, ...]
    payments: tuple[Payment, ...]


def seeger_fabian_entries(
    scores: Sequence[int], declarer: int, won: bool
) -> tuple[int, ...]:
    """One game's Seeger-Fabian entries per seat from its standard entries.

    >>> seeger_fabian_entries([0, -40, 0], declarer=1, won=False)   # three players
    (40, -90, 40)
    >>> seeger_fabian_entries([0, 0, 0, 33], declarer=3, won=True)
    (0, 0, 0, 83)
    >>> seeger_fabian_entries([0, 0, 0, -66], declarer=3, won=False)  # dealer included
    (30, 30, 30, -116)
    """
    out = list(scores)
    if won:
        out[declarer] += 50
    else:
        out[declarer] -= 50
        bonus = 40 if len(out) == 3 else 30
        for seat in range(len(out)):
            if seat != declarer:
                out[seat] += bonus
    return tuple(out)


def seats_for(dealer: int, players: int) -> tuple[int, int, int]:
    """Table seats of forehand, middlehand and rearhand when ``dealer`` deals.

    >>> seats_for(2, 3), seats_for(0, 3), seats_for(3, 4), seats_for(0, 4)
    ((0, 1, 2), (1, 2, 0), (0, 1, 2), (1, 2, 3))
    """
    return tuple((dealer + k) % players for k in (1, 2, 3))  # type: ignore[return-value]


class Series:
    """The deals of one table session and its score sheet.

    Parameters: ``players`` (3 or 4 names, clockwise), ``first_dealer`` (a table seat),
    ``scoring`` (``"standard"`` or ``"seeger-fabian"``), ``length`` (deals in the series,
    passed-in deals included; None: open-ended), ``stake`` (money per point, for
    :meth:`settlement`), ``cap`` (the most points one deal's game value may count in the
    settlement), ``bock`` (Bock triggers; only under the ``pub`` rule set), ``rules`` (the
    engine's ``Rules`` for :meth:`new_game`; ISkO when None), ``uncredited_seats`` (duel mode:
    seats, such as a computer partnering the person who does not declare, that are never
    credited: their entries are always 0, they never win and never pay or receive).
    """

    def __init__(
        self,
        players: Sequence[str],
        first_dealer: int = 0,
        *,
        scoring: str = "standard",
        length: int | None = None,
        stake: Decimal | float | str | None = None,
        cap: int | None = None,
        bock: BockRules | Sequence[str] | None = None,
        rules: Any = None,
        uncredited_seats: Iterable[int] = (),
    ) -> None:
        names = [str(p) for p in players]
        if len(names) not in (3, 4):
            raise SeriesError(f"a Skat table has 3 or 4 players, not {len(names)}")
        if len(set(names)) != len(names):
            raise SeriesError("two players have the same name: give each a different one")
        if not isinstance(first_dealer, int) or not 0 <= first_dealer < len(names):
            raise SeriesError(
                f"first dealer must be a seat from 0 to {len(names) - 1}, not {first_dealer!r}"
            )
        if scoring not in SCORINGS:
            raise SeriesError(f"scoring must be one of {', '.join(SCORINGS)}, not {scoring!r}")
        if length is not None and (not isinstance(length, int) or length < 1):
            raise SeriesError(f"series length must be a positive number of deals, not {length!r}")
        if cap is not None and (not isinstance(cap, int) or cap < 1):
            raise SeriesError(f"cap must be a positive number of points, not {cap!r}")
        self.players: tuple[str, ...] = tuple(names)
        self.first_dealer = first_dealer
        self.scoring = scoring
        self.length = length
        self.stake = _money(stake) if stake is not None else None
        self.cap = cap
        self.bock = bock if isinstance(bock, BockRules) else BockRules.parse(bock or ())
        self.rules = rules
        uncredited = frozenset(uncredited_seats)
        for seat in uncredited:
            if not isinstance(seat, int) or not 0 <= seat < len(names):
                raise SeriesError(
                    f"an uncredited seat must be a seat from 0 to {len(names) - 1}, not {seat!r}"
                )
        if len(names) - len(uncredited) < 2:
            raise SeriesError("at least two players must be credited on the sheet")
        self.uncredited_seats = uncredited
        self._entries: list[SheetEntry] = []
        # After each entry: (totals, Seeger-Fabian totals, Bock deals still queued), so that a
        # sheet of thousands of deals costs no more per question than a short one.
        self._after: list[tuple[tuple[int, ...], tuple[int, ...], int]] = []
        self._game: Any = None

    def __deepcopy__(self, memo: dict[int, Any]) -> Series:
        # The entries are frozen: a copy shares them (a checkpoint of a long series costs a
        # list, not a copy of every deal).
        new = copy.copy(self)
        new._entries, new._after = list(self._entries), list(self._after)
        new._game = copy.deepcopy(self._game, memo)
        return new

    # --- who deals, who plays --------------------------------------------------------------

    @property
    def n(self) -> int:
        return len(self.players)

    @property
    def number(self) -> int:
        """The number of the next (or current) deal, counting from 1."""
        return len(self._entries) + 1

    @property
    def dealer(self) -> int:
        """Table seat of the dealer of the next (or current) deal."""
        return (self.first_dealer + len(self._entries)) % self.n

    @property
    def seats(self) -> tuple[int, int, int]:
        """Table seats of forehand, middlehand, rearhand in the next (or current) deal."""
        return seats_for(self.dealer, self.n)

    @property
    def sitting_out(self) -> int | None:
        """The seat that sits out (the dealer at four), None at three."""
        return self.dealer if self.n == 4 else None

    def names(self, entry: SheetEntry | None = None) -> tuple[str, str, str]:
        """Names of forehand, middlehand and rearhand in the next deal (or in ``entry``'s).

        >>> Series(["Anna", "Ben", "Carla", "Dirk"], first_dealer=3).names()
        ('Anna', 'Ben', 'Carla')
        """
        seats = entry.seats if entry is not None else self.seats
        return (self.players[seats[0]], self.players[seats[1]], self.players[seats[2]])

    def seat_of(self, position: int) -> int:
        return self.seats[position]

    def position_of(self, seat: int) -> int | None:
        """The position (0 forehand .. 2 rearhand) of a table seat in this deal; None sits out."""
        s = self.seats
        return s.index(seat) if seat in s else None

    @property
    def finished(self) -> bool:
        return self.length is not None and len(self._entries) >= self.length

    @property
    def deals_left(self) -> int | None:
        return None if self.length is None else max(0, self.length - len(self._entries))

    # --- Bock ------------------------------------------------------------------------------

    def _bock_pending(self) -> int:
        """Bock deals still queued after the recorded deals (kept per entry, so ``pop`` undoes
        it)."""
        return self._after[-1][2] if self._after else 0

    def _append(self, entry: SheetEntry) -> None:
        totals, sf, pending = self._after[-1] if self._after else (
            (0,) * self.n, (0,) * self.n, 0)
        self._entries.append(entry)
        self._after.append((
            tuple(a + b for a, b in zip(totals, entry.scores, strict=True)),
            tuple(a + b for a, b in zip(sf, entry.seeger_fabian, strict=True)),
            max(0, pending - 1) + self.n * len(entry.bock_triggers)))

    def restore(self, entries: Iterable[SheetEntry]) -> None:
        """Put a sheet written before (a journal's checkpoints) in place of this one."""
        if self._game is not None:
            raise SeriesError("a game is being played: the sheet cannot be replaced")
        self._entries, self._after = [], []
        for entry in entries:
            self._append(entry)

    @property
    def bock_pending(self) -> int:
        """Bock deals still to come (the current one included)."""
        return self._bock_pending()

    @property
    def is_bock(self) -> bool:
        """Whether the next (or current) deal is a Bock deal."""
        return self.bock_pending > 0

    # --- playing ---------------------------------------------------------------------------

    @property
    def game(self) -> Any:
        """The game being played (from :meth:`new_game`), None between games."""
        return self._game

    def new_game(self, deal: Any) -> Any:
        """Start the next deal with the engine's ``Game`` and return it."""
        if self.finished:
            raise SeriesError(f"the series is over: all {self.length} deals are played")
        if self._game is not None:
            raise SeriesError("a game is still being played: finish it before the next deal")
        from engine.game import ISKO, Game

        self._game = Game(deal, self.rules if self.rules is not None else ISKO)
        return self._game

    def finish_game(self) -> SheetEntry:
        """Enter the current game's result on the sheet (the game must be over)."""
        if self._game is None:
            raise SeriesError("no game is being played")
        if self._game.result is None:
            raise SeriesError("the game is not over yet")
        entry = self.record(self._game.result)
        self._game = None
        return entry

    def abandon_game(self) -> None:
        """Drop the current game without scoring it (e.g. a misdeal)."""
        self._game = None

    def record(self, result: ResultLike) -> SheetEntry:
        """Enter a finished game's result (positions as in the game) for the next deal."""
        if self.finished:
            raise SeriesError(f"the series is over: all {self.length} deals are played")
        seats = self.seats
        n = self.n
        bock = self.is_bock
        factor = BOCK_FACTOR if bock else 1
        scores = [0] * n
        no_game = _no_game(result)
        declarer = None if no_game else result.declarer
        if not no_game:
            for pos, v in enumerate(result.position_values):
                scores[seats[pos]] += v * factor
        sf = tuple(scores)
        if declarer is not None:
            sf = seeger_fabian_entries(scores, seats[declarer], bool(result.won))
        if self.uncredited_seats:
            scores = [0 if s in self.uncredited_seats else v for s, v in enumerate(scores)]
            sf = tuple(0 if s in self.uncredited_seats else v for s, v in enumerate(sf))
        entry = SheetEntry(
            number=self.number,
            dealer=self.dealer,
            seats=seats,
            declarer=None if declarer is None else seats[declarer],
            won=None if declarer is None else bool(result.won),
            value=sheet_value(result, bock),
            bock=bock,
            scores=tuple(scores),
            seeger_fabian=sf,
            bock_triggers=tuple(self.bock.triggered_by(result)),
            result=result,
        )
        self._append(entry)
        return entry

    def pop(self) -> SheetEntry:
        """Take the last entry off the sheet (a correction); the dealer moves back."""
        if self._game is not None:
            raise SeriesError("a game is being played: finish or abandon it first")
        if not self._entries:
            raise SeriesError("the sheet is empty")
        self._after.pop()
        return self._entries.pop()

    # --- the sheet -------------------------------------------------------------------------

    @property
    def sheet(self) -> tuple[SheetEntry, ...]:
        return tuple(self._entries)

    @property
    def totals(self) -> tuple[int, ...]:
        """The standard sheet's total per seat."""
        return self._after[-1][0] if self._after else (0,) * self.n

    def totals_after(self, deals: int) -> tuple[int, ...]:
        """The standard sheet's totals after its first ``deals`` entries."""
        return self._after[deals - 1][0] if deals > 0 else (0,) * self.n

    @property
    def seeger_fabian(self) -> tuple[int, ...]:
        """The Seeger-Fabian total per seat."""
        return self._after[-1][1] if self._after else (0,) * self.n

    @property
    def scores(self) -> tuple[int, ...]:
        """Totals under the configured scoring."""
        return self.seeger_fabian if self.scoring == "seeger-fabian" else self.totals

    def games_won(self) -> tuple[int, ...]:
        return tuple(
            sum(1 for e in self._entries if e.declarer == s and e.won) for s in range(self.n)
        )

    def games_lost(self) -> tuple[int, ...]:
        return tuple(
            sum(1 for e in self._entries if e.declarer == s and e.won is False)
            for s in range(self.n)
        )

    @property
    def credited_seats(self) -> tuple[int, ...]:
        """The seats that are scored (all but the uncredited ones)."""
        return tuple(s for s in range(self.n) if s not in self.uncredited_seats)

    @property
    def winners(self) -> tuple[int, ...]:
        """The seat(s) with the highest total under the configured scoring (ties: several)."""
        scores = self.scores
        best = max(scores[s] for s in self.credited_seats)
        return tuple(s for s in self.credited_seats if scores[s] == best)

    @property
    def winner(self) -> int | None:
        """The one seat in the lead (the series winner once :attr:`finished`); None if tied."""
        w = self.winners
        return w[0] if len(w) == 1 else None

    def ranking(self) -> list[tuple[int, int]]:
        """``(seat, total)`` of the credited seats, best first; equal totals keep seat order."""
        scores = self.scores
        return sorted(((s, scores[s]) for s in self.credited_seats), key=lambda t: -t[1])

    # --- money -----------------------------------------------------------------------------

    def settlement_points(self) -> tuple[int, ...]:
        """Totals for the settlement: the configured scoring with each game value capped."""
        if self.cap is None:
            return self.scores
        totals = [0] * self.n
        for e in self._entries:
            capped = [max(-self.cap, min(self.cap, v)) for v in e.scores]
            extra = (
                [sf - sc for sf, sc in zip(e.seeger_fabian, e.scores, strict=True)]
                if self.scoring == "seeger-fabian"
                else [0] * self.n
            )
            for s in range(self.n):
                totals[s] += capped[s] + extra[s]
        return tuple(totals)

    def settlement(self, stake: Decimal | float | str | None = None) -> Settlement:
        """What each player pays or receives: every pair settles its difference x stake.

        >>> s = Series(["A", "B", "C"], first_dealer=2, stake="0.05")
        >>> _ = s.record(ManualResult(declarer=0, won=True, value=60))   # A (forehand) +60
        >>> st = s.settlement()
        >>> [str(a) for a in st.amounts]
        ['6.00', '-3.00', '-3.00']
        >>> [(p.payer, p.payee, str(p.amount)) for p in st.payments]
        [(1, 0, '3.00'), (2, 0, '3.00')]
        """
        rate = _money(stake) if stake is not None else self.stake
        if rate is None:
            raise SeriesError("no stake per point is set, so there is nothing to settle")
        points = self.settlement_points()
        players = self.credited_seats
        total = sum(points[s] for s in players)
        zero = Decimal(0) * rate
        amounts = tuple(
            (len(players) * points[s] - total) * rate if s in players else zero
            for s in range(self.n)
        )
        payments = []
        for i in players:
            for j in players:
                amount = (points[i] - points[j]) * rate
                if amount > 0:
                    payments.append(Payment(payer=j, payee=i, amount=amount))
        payments.sort(key=lambda p: (p.payer, p.payee))
        return Settlement(rate, points, amounts, tuple(payments))


def _money(value: Decimal | float | str) -> Decimal:
    try:
        d = Decimal(str(value))
    except (InvalidOperation, ValueError):
        raise SeriesError(f"stake must be an amount of money per point, not {value!r}") from None
    if not d.is_finite() or d < 0:
        raise SeriesError(f"stake must be zero or more, not {value!r}")
    return d


@dataclass(frozen=True)
class ManualResult:
    """A game scored by hand (e.g. one played while the table was switched off).

    ``declarer`` is a position (0 forehand .. 2 rearhand) of the current deal; ``value`` the
    signed sheet value (+value won, -2 x value lost). Enter it with :meth:`Series.record`.
    """

    declarer: int | None = None
    won: bool | None = None
    value: int = 0
    passed_in: bool = False
    points: int | None = None
    contract: Any = None
    kontra: int = 1
    schneider: bool = False
    schwarz: bool = False

    @property
    def position_values(self) -> tuple[int, int, int]:
        v = [0, 0, 0]
        if self.declarer is not None and not self.passed_in:
            v[self.declarer] = self.value
        return (v[0], v[1], v[2])

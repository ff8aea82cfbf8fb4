"""What a finished game is worth, by the ISkO (and ISS for its own endings).

Suit and grand games: base value (clubs 12, spades 11, hearts 10, diamonds 9, grand 24) times
the multiplier: matadors + 1 (game) + hand + schneider + schneider announced + schwarz +
schwarz announced + ouvert. An announced level also brings the level below it and counts even
when it is missed. A lost game counts double. Overbid (the reached value is below the bid): lost,
valued at the smallest multiple of the base value that reaches the bid, doubled, whatever the
card points. Null: 23, 35 (hand), 46 (ouvert), 59 (ouvert hand). Kontra/Re multiply the value
by 2/4 after the overbid check.

>>> r = score_suit_grand(Contract.parse("S"), bid=18, matador_count=2, points=61, tricks=5,
...                      ending="played", declarer=0)
>>> r.won, r.value, r.multiplier
(True, 33, 3)
>>> r = score_suit_grand(Contract.parse("D"), bid=36, matador_count=-1, points=75, tricks=7,
...                      ending="played", declarer=2)
>>> r.won, r.overbid, r.value
(False, True, -72)
"""

from __future__ import annotations

import functools
from dataclasses import MISSING, asdict, dataclass, fields
from typing import Any

from engine.contract import Contract, GameType

_BASE_VALUES = (12, 11, 10, 9, 24)
_NULL_VALUES = (23, 35, 46, 59)

ENDINGS = (
    "played", "null-trick", "schwarz-lost", "declarer-conceded", "defenders-conceded",
    "timeout", "leave", "resign", "passed", "claimed", "defenders-claimed",
    "defenders-claim-failed", "declarer-violation", "defenders-violation",
)


@dataclass(frozen=True, slots=True)
class GameResult:
    """The result of one game, as the score sheet and the display need it.

    ``value`` is signed as entered on the sheet (+value won, -2 x value lost);
    ``position_values`` is what each position scores on the standard sheet for this game.
    ``breakdown`` lists ``(label_key, running multiplier)``, e.g. ``[("with", 2), ("game", 3),
    ("schneider", 4)]`` for "with 2, game 3, schneider 4"; Kontra/Re appear as
    ``("kontra", 2)`` / ``("re", 4)`` (the factor).
    """

    declarer: int | None
    contract: Contract | None
    bid: int
    won: bool
    value: int
    base_value: int | None = None
    multiplier: int = 0
    points: int | None = None
    tricks: int | None = None
    matadors: int = 0
    schneider: bool = False
    schwarz: bool = False
    overbid: bool = False
    passed_in: bool = False
    ending: str = "played"
    kontra: int = 1
    breakdown: tuple[tuple[str, int], ...] = ()
    position_values: tuple[int, int, int] = (0, 0, 0)
    # ISS endings: a timeout or leave before a game was declared costs a penalty point.
    penalties: tuple[int, int, int] = (0, 0, 0)
    aborted_by: int | None = None
    # Ramsch (house rule): card points per position incl. the skat, the losers, Jungfrau
    # positions (no trick), the Durchmarsch position and the number of pushes.
    ramsch_points: tuple[int, int, int] | None = None
    losers: tuple[int, ...] = ()
    jungfrau: tuple[int, ...] = ()
    durchmarsch: int | None = None
    pushes: int = 0

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> GameResult:
        """The result written by ``to_json``."""
        d = dict(d)
        if d.get("contract") is not None:
            d["contract"] = _contract(d["contract"])
        d["breakdown"] = tuple((str(k), int(n)) for k, n in d.get("breakdown", ()))
        for k in ("position_values", "penalties", "ramsch_points", "losers", "jungfrau"):
            if d.get(k) is not None:
                d[k] = tuple(d[k])
        # the slot builder (a journal's checkpoints read thousands of results when resuming)
        return _build_result(**d) if cls is GameResult else cls(**d)

    def to_json(self) -> dict[str, Any]:
        d = asdict(self)
        d["contract"] = str(self.contract) if self.contract is not None else None
        d["breakdown"] = [list(b) for b in self.breakdown]
        for k in ("position_values", "penalties", "ramsch_points", "losers", "jungfrau"):
            if d[k] is not None:
                d[k] = list(d[k])
        return d


def _slot_builder(cls: type) -> Any:
    """A function taking the constructor's keyword arguments that builds ``cls`` (a frozen
    slots dataclass without ``__post_init__`` or default factories) by filling its slots
    directly. The frozen ``__init__`` pays an ``object.__setattr__`` per field (25 for a
    ``GameResult``, about 3 us); this costs about a third, and every game ends with one.
    The object is the same: equal, same fields, same class."""
    fs = fields(cls)
    assert not hasattr(cls, "__post_init__")
    assert all(f.default_factory is MISSING for f in fs)
    params = ", ".join(f.name if f.default is MISSING else f"{f.name}=_d_{f.name}" for f in fs)
    body = "".join(f"    _s_{f.name}(r, {f.name})\n" for f in fs)
    ns: dict[str, Any] = {"_new": object.__new__, "_cls": cls}
    for f in fs:
        ns[f"_s_{f.name}"] = getattr(cls, f.name).__set__
        if f.default is not MISSING:
            ns[f"_d_{f.name}"] = f.default
    exec(f"def build(*, {params}):\n    r = _new(_cls)\n{body}    return r\n", ns)
    return ns["build"]


_build_result = _slot_builder(GameResult)


@functools.lru_cache(maxsize=512)
def _contract(text: str) -> Contract:
    """A contract's text read once: a long series has a few dozen distinct ones."""
    return Contract.parse(text)


def _with_kontra(value: int, kontra: int, bd: list[tuple[str, int]]) -> int:
    if kontra == 2:
        bd.append(("kontra", 2))
    elif kontra == 4:
        bd.append(("kontra", 2))
        bd.append(("re", 4))
    return value * kontra


def _positions(declarer: int, value: int) -> tuple[int, int, int]:
    pv = [0, 0, 0]
    pv[declarer] = value
    return (pv[0], pv[1], pv[2])


def suit_grand_value(contract: Contract, bid: int, matador_count: int, points: int,
                     tricks: int, ending: str = "played", trick_done: bool = True,
                     defender_points: int = 0, defender_tricks: int = 0, claim: int = 0
                     ) -> tuple[bool, int, int, bool, bool, bool, bool, bool]:
    """The rules of a suit or grand game's value, as a bare tuple (the hot path of the
    benchmark and the solver): ``(won, signed value without Kontra, multiplier, overbid,
    schneider reached or awarded, schwarz reached or awarded, schneider level counted,
    schwarz level counted)``.

    ``defender_points``/``defender_tricks`` (what the defenders hold when the game ends) matter
    only when the defenders concede: the declarer is then awarded the level his bid or
    announcement needs, unless the defenders are already out of it (ISkO 4.1.5).
    ``ending="claimed"``: the declarer's claim of the rest, agreed (4.4.4): ``points`` and
    ``tricks`` include the rest; a level counts only if he said it (``claim``: 1 schneider,
    2 schwarz) or announced it.

    >>> suit_grand_value(Contract.parse("G"), 18, 1, 90, 7)
    (True, 72, 3, False, True, False, True, False)
    """
    base = _BASE_VALUES[contract.game]
    k = (matador_count if matador_count > 0 else -matador_count) + 1 + contract.hand
    if ending == "declarer-conceded":
        # 4.4.6: he ends with what he has and loses at the simple level plus what he announced
        won = schneider = schwarz = False
    elif ending == "defenders-conceded":
        # the level the announcement or the bid needs (schneider first, then schwarz) ...
        need_schneider = contract.schneider or k * base < bid
        need_schwarz = contract.schwarz or (
            (k + need_schneider + contract.schneider) * base < bid)
        # ... is awarded unless the defenders are already out of it: 31+ points against
        # schneider, a trick against schwarz. A missed announced level loses the game; a
        # missed level the bid needs leaves the game overbid (below).
        schneider = need_schneider and defender_points <= 30
        schwarz = need_schwarz and schneider and defender_tricks == 0
        won = not ((contract.schneider and not schneider)
                   or (contract.schwarz and not schwarz))
    elif ending == "claimed":
        won = (points >= 61 and (points >= 90 or not contract.schneider)
               and (tricks == 10 or not contract.schwarz))
        schneider = points >= 90 and (claim >= 1 or contract.schneider)
        schwarz = tricks == 10 and (claim >= 2 or contract.schwarz)
    else:
        won = points >= 61
        if contract.schneider and points < 90:
            won = False
        if contract.schwarz and tricks < 10:
            won = False
        if won:
            schneider = points >= 90
            schwarz = tricks == 10
        else:
            # what happened to the declarer: schneidered (30 or fewer) or schwarz (no trick),
            # once a trick was completed (ISS scores an abort before the first trick so); a
            # schwarz announcement lost at the defenders' first trick ends before anything
            # more is reached (its levels count as announced)
            counted = trick_done and ending != "schwarz-lost"
            schneider = counted and points <= 30
            schwarz = counted and tricks == 0
    lvl_schneider = schneider or contract.schneider
    k += lvl_schneider + contract.schneider
    lvl_schwarz = schwarz or contract.schwarz
    k += lvl_schwarz + contract.schwarz + contract.ouvert
    overbid = k * base < bid
    if overbid:
        won = False
        k = -(-bid // base)
    value = k * base if won else -2 * k * base
    return won, value, k, overbid, schneider, schwarz, lvl_schneider, lvl_schwarz


def score_suit_grand(contract: Contract, bid: int, matador_count: int, points: int,
                     tricks: int, ending: str, declarer: int, kontra: int = 1,
                     trick_done: bool = True, defender_points: int = 0,
                     defender_tricks: int = 0, claim: int = 0) -> GameResult:
    """Score a suit or grand game from the declarer's card points (with the skat) and tricks.

    ``ending`` decides how: ``"played"``, ``"schwarz-lost"``, ``"timeout"``/``"leave"``/
    ``"resign"`` (ISS: by the numbers, the caller credits points to the declarer when a
    defender aborted), ``"declarer-conceded"`` (lost at the simple level plus announced levels)
    or ``"defenders-conceded"`` (won at the simple level, or at the level the bid or the
    announcement needs, unless the defenders, holding ``defender_points`` in
    ``defender_tricks`` tricks, are already out of it: then that level is missed).
    ``trick_done``: whether any trick was completed (ISS sets "schneider/schwarz reached"
    against a declarer only then).
    """
    base = contract.game.base_value
    assert base is not None, "score_suit_grand is for suit and grand games"
    won, value, k, overbid, schneider, schwarz, lvl_schneider, lvl_schwarz = suit_grand_value(
        contract, bid, matador_count, points, tricks, ending, trick_done, defender_points,
        defender_tricks, claim)
    # the breakdown for display, level by level as counted above
    m = abs(matador_count)
    bd: list[tuple[str, int]] = [("with" if matador_count > 0 else "without", m)]
    n = m + 1
    bd.append(("game", n))
    for counted, label in ((contract.hand, "hand"), (lvl_schneider, "schneider"),
                           (contract.schneider, "schneider_announced"),
                           (lvl_schwarz, "schwarz"), (contract.schwarz, "schwarz_announced"),
                           (contract.ouvert, "ouvert")):
        if counted:
            n += 1
            bd.append((label, n))
    if overbid:
        bd.append(("overbid", k))
    _with_kontra(1, kontra, bd)
    signed = value * kontra
    return _build_result(
        declarer=declarer, contract=contract, bid=bid, won=won, value=signed,
        base_value=base, multiplier=k, points=points, tricks=tricks, matadors=matador_count,
        schneider=schneider, schwarz=schwarz, overbid=overbid, ending=ending, kontra=kontra,
        breakdown=tuple(bd), position_values=_positions(declarer, signed),
    )


def null_game_value(contract: Contract, won: bool) -> int:
    """A null game's signed value: its fixed value won, twice that lost (no Kontra)."""
    value = _NULL_VALUES[contract.hand + 2 * contract.ouvert]
    return value if won else -2 * value


def score_null(contract: Contract, bid: int, won: bool, points: int, tricks: int, ending: str,
               declarer: int, kontra: int = 1) -> GameResult:
    """Score a null game: its fixed value if won, twice that lost."""
    value = contract.null_value
    assert value is not None, "score_null is for null games"
    bd: list[tuple[str, int]] = [("null", value)]
    _with_kontra(1, kontra, bd)
    signed = null_game_value(contract, won) * kontra
    return _build_result(
        declarer=declarer, contract=contract, bid=bid, won=won, value=signed,
        base_value=contract.null_value, multiplier=1, points=points, tricks=tricks, matadors=0,
        ending=ending, kontra=kontra, breakdown=tuple(bd),
        position_values=_positions(declarer, signed),
    )


def passed_in_result() -> GameResult:
    """All three passed (and no Ramsch): nobody scores."""
    return GameResult(declarer=None, contract=None, bid=0, won=False, value=0,
                      passed_in=True, ending="passed")


def penalty_result(reason: str, culprit: int, declarer: int | None, bid: int) -> GameResult:
    """ISS: a timeout or leave before a game was declared. No value; a penalty point to the
    culprit, or (after the bidding, if the culprit is a defender) to both defenders."""
    pen = [0, 0, 0]
    if declarer is None or culprit == declarer:
        pen[culprit] = 1
    else:
        for p in range(3):
            if p != declarer:
                pen[p] = 1
    return GameResult(declarer=declarer, contract=None, bid=bid, won=False, value=0,
                      ending=reason, penalties=(pen[0], pen[1], pen[2]), aborted_by=culprit)


GAME_TYPES_WITH_BASE = tuple(g for g in GameType if g.base_value is not None)

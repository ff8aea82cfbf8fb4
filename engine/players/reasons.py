"""Why a computer did it: one short reason for its bid limit, its declaration and its
Kontra/Re, read from that seat's own cards with the counts its evaluation uses.

The reason is facts, not words (the kiosk words them in the players' language):

========  ==================================================================================
kind      facts
========  ==================================================================================
``limit``  the bid limit and the game it was counted on: ``game`` with ``matadors`` ("with 2"
           is 2, "without 1" is -1) and ``hand`` (a hand game's level); ``passed_at``: the
           value it passed at (None: it won the bidding); ``limit`` 0: no game to bid
``game``   the declared ``contract`` and what carries it: ``trumps`` and side ``aces`` (suit),
           ``jacks`` and ``aces`` (grand), ``unsafe`` suits (null); ``hand``: without the skat
``double`` ``call`` (``kontra`` or ``re``) against ``game``: the seat's ``trumps`` and side
           ``aces`` (null: its ``unsafe`` suits when the declarer says Re, nothing else)
========  ==================================================================================

A bid limit is never given while a person can still use it in the bidding: only once the
computer is out of it (passed, or won it) and nobody but computers is still bidding
(:func:`table_reasons`).

>>> from engine.cards import parse_mask
>>> r = limit_reason(2, parse_mask("C9 CJ CK SJ SQ SK HA D7 DT DJ"), 36)
>>> r.game, r.matadors, r.hand, r.limit
(0, 2, False, 36)
>>> game_reason(0, parse_mask("CJ SJ HJ CA CT C9 SA HA D7 D8"), Contract.parse("G"))
Reason(pos=0, kind='game', game=4, contract='G', jacks=3, aces=3)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace

from engine.actions import Bid, Kontra, Re
from engine.cards import JACKS
from engine.contract import Contract
from engine.game import Game, Phase
from engine.players import evaluate as ev

KINDS = ("limit", "game", "double")
# A bid limit comes from a game counted safe with the skat and the bidding's boldness: a
# game counted further below safe than this is not what a limit of its value was bid on.
COUNT_SLACK = ev.SKAT_WORTH + 1.5
NULL_LIMITS = {23: False, 35: True, 46: False, 59: True}  # null's values; True: hand


@dataclass(frozen=True)
class Reason:
    """Why the computer at position ``pos`` did what it did (see the module for the facts
    each ``kind`` carries; a fact that does not apply is None)."""

    pos: int
    kind: str
    game: int | None = None
    contract: str | None = None
    limit: int | None = None
    passed_at: int | None = None
    matadors: int | None = None
    hand: bool = False
    trumps: int | None = None
    jacks: int | None = None
    aces: int | None = None
    unsafe: int | None = None
    call: str | None = None

    def __repr__(self) -> str:  # the facts that apply, for doctests and test messages
        fields = ", ".join(f"{k}={v!r}" for k, v in self.__dict__.items()
                           if v is not None and v is not False)
        return f"Reason({fields})"


@dataclass(frozen=True)
class BidNote:
    """What a computer's bidding decision was about: its ``limit`` (the player's
    ``last_bid_limit``) and the value it was ``asked`` to bid or hold."""

    limit: int
    asked: int


def asked_value(game: Game) -> int:
    """The value the seat to act is asked to bid (the next one) or to hold (the bid).

    >>> from engine.deal import Deal
    >>> asked_value(Game(Deal.shuffled(1)))
    18
    """
    bids = [a.value for a in game.legal_actions() if isinstance(a, Bid)]
    return min(bids) if bids else game.bid


def _aces(hand: int, game: int) -> int:
    """Side-suit aces (the ace of the trump suit is a trump)."""
    return sum(1 for s in range(4) if s != game and hand >> (8 * s + ev.ACE) & 1)


def _trumps(hand: int, game: int) -> int:
    return (hand & ev.trump_mask(game)).bit_count()


def _count(hand: int, game: int, forehand: bool) -> float:
    """How far the evaluation counts ``game`` above a safe one (the bidding's counts)."""
    if game == ev.GRAND:
        return ev.grand_score(hand, forehand) - ev.GRAND_NEED
    return ev.suit_strength(hand, game) - 9.0


def counted_game(hand: int, limit: int, forehand: bool = False) -> tuple[int, bool] | None:
    """(game type, hand game) the bid ``limit`` of these ten cards was counted on: the game
    counted near safe (``COUNT_SLACK``) whose value at the hand's level (plain, kept whatever
    the skat holds, capped at "with or without 1", or one more for hand) is the limit, the
    best counted if several are; else
    the best counted game that reaches it (a limit bid short of a game's value, 18 on a
    hand nearly safe). None for 0 (nothing to bid).

    >>> from engine.cards import parse_mask
    >>> counted_game(parse_mask("SJ HJ SA ST S9 S8 S7 HA D7 D8"), 22)  # spades without 1
    (1, False)
    >>> counted_game(parse_mask("C7 C8 C9 S7 S8 H7 H8 H9 D7 D8"), 23)
    (5, False)
    """
    if limit <= 0:
        return None
    if limit in NULL_LIMITS:
        return ev.NULL, NULL_LIMITS[limit]
    matches: list[tuple[bool, float, int]] = []
    for g in range(5):
        m = ev.matadors(hand, g)
        plain = {abs(m) + 1, ev.held_level(hand, g), 2}
        count = _count(hand, g, forehand)
        for level, is_hand in [*((lv, False) for lv in plain), (abs(m) + 2, True)]:
            if ev.BASE_VALUES[g] * level == limit and count + COUNT_SLACK >= 0:
                matches.append((not is_hand, count, g))
                break
    if matches:
        plain_first, _, g = max(matches)
        return g, not plain_first
    reach = [g for g in range(5) if ev.game_value(hand, g) >= limit] or list(range(5))
    return max(reach, key=lambda g: (_count(hand, g, forehand), -g)), False


def limit_reason(pos: int, hand: int, limit: int, passed_at: int | None = None,
                 forehand: bool | None = None) -> Reason:
    """The reason for a bid ``limit`` of ten cards ``hand`` at position ``pos``.

    >>> from engine.cards import parse_mask
    >>> limit_reason(1, parse_mask("SJ SA ST S9 S8 HA H7 D7 D8 C7"), 22, passed_at=23)
    Reason(pos=1, kind='limit', game=1, limit=22, passed_at=23, matadors=-1)
    """
    fh = pos == 0 if forehand is None else forehand
    counted = counted_game(hand, limit, fh)
    if counted is None:
        return Reason(pos, "limit", limit=0, passed_at=passed_at)
    g, is_hand = counted
    return Reason(pos, "limit", game=g, limit=limit, passed_at=passed_at,
                  matadors=None if g == ev.NULL else ev.matadors(hand, g), hand=is_hand)


def game_reason(pos: int, hand: int, contract: Contract) -> Reason:
    """The reason for declaring ``contract`` with the ten cards ``hand`` (after the discard).

    >>> from engine.cards import parse_mask
    >>> game_reason(2, parse_mask("C7 C9 CJ S7 S9 H7 H8 D7 D8 D9"), Contract.parse("N"))
    Reason(pos=2, kind='game', game=5, contract='N', unsafe=0)
    >>> game_reason(2, parse_mask("HJ DJ HA HT HK H9 H8 SA C7 D8"), Contract.parse("HH"))
    Reason(pos=2, kind='game', game=2, contract='HH', hand=True, trumps=7, aces=1)
    """
    g = int(contract.game)
    base = Reason(pos, "game", game=g, contract=str(contract), hand=contract.hand)
    if g == ev.NULL:
        return replace(base, unsafe=len(ev.null_unsafe_suits(hand)))
    if g == ev.GRAND:
        return replace(base, jacks=(hand & JACKS).bit_count(), aces=_aces(hand, g))
    return replace(base, trumps=_trumps(hand, g), aces=_aces(hand, g))


def double_reason(pos: int, hand: int, contract: Contract, call: str) -> Reason:
    """The reason for Kontra (a defender) or Re (the declarer) against ``contract`` with the
    seat's ten cards ``hand``.

    >>> from engine.cards import parse_mask
    >>> double_reason(1, parse_mask("CJ C8 C9 SA HA S7 S8 H7 D7 D8"), Contract.parse("C"),
    ...               "kontra")
    Reason(pos=1, kind='double', game=0, contract='C', trumps=3, aces=2, call='kontra')
    """
    g = int(contract.game)
    base = Reason(pos, "double", game=g, contract=str(contract), call=call)
    if g == ev.NULL:
        return replace(base, unsafe=len(ev.null_unsafe_suits(hand))) if call == "re" else base
    return replace(base, trumps=_trumps(hand, g), aces=_aces(hand, g))


def _declarer_ten(game: Game) -> int:
    """The declarer's ten cards as he plays them: the dealt hand, or after a pick-up his
    twelve cards less the two laid away."""
    d = game.declarer
    assert d is not None
    if not game.skat_taken:
        return game.deal.hands[d]
    return game.declarer_cards() & ~game.skat


def bidding_over_for(game: Game, pos: int, computers: Iterable[int]) -> bool:
    """May ``pos``'s bid limit be shown: it is out of the bidding (passed, or the bidding is
    over) and nobody but the computers is still bidding (a person could use it)."""
    if game.phase != Phase.BIDDING:
        return True
    passed = game.passed
    machines = set(computers)
    people_in = [p for p in range(3) if p not in passed and p not in machines]
    return pos in passed and not people_in


def table_reasons(game: Game | None, computers: Iterable[int],
                  notes: Mapping[int, BidNote]) -> tuple[Reason, ...]:
    """Every reason the table may show now for the computers at positions ``computers``:
    their bid limits (``notes``: each one's last bidding decision, by position) once the
    bidding can no longer use them, the computer declarer's game once it is declared and
    laid away, and the computers' Kontra and Re. Nothing in a Ramsch but the limits.

    >>> from engine.deal import Deal
    >>> g = Game(Deal.shuffled(2))
    >>> table_reasons(g, (1,), {1: BidNote(0, 18)})  # nobody has passed yet
    ()
    """
    if game is None:
        return ()
    computers = tuple(computers)
    out: list[Reason] = []
    for pos in sorted(set(computers) & set(notes)):
        if not bidding_over_for(game, pos, computers):
            continue
        note = notes[pos]
        passed_at = note.asked if pos in game.passed else None
        if passed_at is None and game.declarer != pos:
            continue  # not out of the bidding yet (only computers are still in it)
        out.append(limit_reason(pos, game.deal.hands[pos], note.limit, passed_at))
    d = game.declarer
    shown = game.phase in (Phase.PLAY, Phase.FINISHED) and not game.is_ramsch
    if shown and d in computers and game.contract is not None:
        out.append(game_reason(d, _declarer_ten(game), game.contract))  # type: ignore[arg-type]
    if shown and game.contract is not None:
        for a in game.actions:
            if isinstance(a, Kontra | Re) and a.pos in computers:
                hand = _declarer_ten(game) if a.pos == d else game.deal.hands[a.pos]
                out.append(double_reason(a.pos, hand, game.contract,
                                         "re" if isinstance(a, Re) else "kontra"))
    return tuple(out)


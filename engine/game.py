"""One game of Skat from the deal to the result: a deal plus the list of actions taken.

State is derived from the actions: ``push`` applies one (or raises :class:`IllegalAction` and
changes nothing), ``pop`` undoes the last one exactly. Replay, undo and crash recovery are the
same mechanism: ``Game.from_json(game.to_json())`` rebuilds the state.

>>> g = Game(Deal.from_iss(
...     "C9.SQ.CA.S8.SJ.DT.CJ.SK.DK.D9.DJ.S7.H8.D8.HQ.HJ.S9.D7.C8.HK."
...     "ST.DQ.CT.HA.HT.CQ.H7.CK.DA.H9.C7.SA"))
>>> for a in (Pass(1), Pass(2), Bid(0, 18), TakeSkat(0), Declare(0, Contract.parse("S")),
...           Discard(0, Card.C9), Discard(0, Card.C7)):
...     g.push(a)
>>> g.phase, g.to_act
(<Phase.PLAY: 'play'>, 0)
>>> g.push(Play(0, Card.SJ)); g.push(Play(1, Card.S7))
>>> g.push(Play(2, Card.CT))
Traceback (most recent call last):
...
engine.actions.IllegalAction: rearhand must follow trumps: holds ST
>>> g.pop()
Play(pos=1, card=<Card.S7: 8>)
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import asdict, dataclass, fields
from operator import attrgetter
from typing import Any

from engine.actions import (
    CLAIM_LEVELS,
    POSITION_NAMES,
    Abort,
    Action,
    ActionError,
    Agree,
    Bid,
    Claim,
    Concede,
    Declare,
    Disagree,
    Discard,
    Enforce,
    Hold,
    IllegalAction,
    Kontra,
    Pass,
    Play,
    PlayOn,
    Push,
    Re,
    TakeSkat,
    Violation,
    action_from_json,
)
from engine.bidding import START, Bidding
from engine.cards import JACKS, Card, mask_points
from engine.contract import BID_VALUES, Contract, GameType
from engine.deal import Deal
from engine.ramsch import RAMSCH_CONTRACT, score_ramsch
from engine.scoring import (
    GameResult,
    passed_in_result,
    penalty_result,
    score_null,
    score_suit_grand,
)
from engine.trick import (
    BEATS,
    FOLLOW,
    Trick,
    by_power,
    follow_suit_name,
    matadors,
    new_trick,
)

__all__ = [
    "ISKO", "Action", "Card", "Contract", "Deal", "Game", "GameResult", "IllegalAction",
    "Phase", "Rules", "RulesError", "Trick",
]


class RulesError(ValueError):
    """A rule set that does not hold together, or an unknown rule name."""


@dataclass(frozen=True, slots=True)
class Rules:
    """Which house rules are on. ``Rules()`` is the plain ISkO (``ISKO``).

    - ``kontra_re``: a defender may say Kontra (x2), the declarer then Re (x4), both only
      before the first card of the game is laid; they never count toward the overbid check.
    - ``ramsch``: an all-pass is played as Ramsch instead of being passed in.
    - ``schieberamsch``: in that Ramsch each player in turn may take the skat and push two
      cards on (``schieberamsch_jacks``: jacks may be pushed too); each push doubles.
    - ``ramsch_jungfrau``, ``ramsch_durchmarsch``: see ``engine.ramsch``.
    - ``isko_violations`` (config ``violations = "isko"``, not a house rule): a revoke or a
      card out of turn is not refused but recorded (``Violation``); the innocent party then
      ends the game (``Enforce``: the offending party loses, ISkO 4.1.3-4.1.5) or has the card
      taken back and play go on (``PlayOn``, 4.1.6).

    >>> Rules.from_names(["kontra_re", "ramsch"]).ramsch
    True
    """

    kontra_re: bool = False
    ramsch: bool = False
    schieberamsch: bool = False
    schieberamsch_jacks: bool = False
    ramsch_jungfrau: bool = True
    ramsch_durchmarsch: bool = True
    isko_violations: bool = False

    def __post_init__(self) -> None:
        if self.schieberamsch and not self.ramsch:
            raise RulesError("schieberamsch needs ramsch switched on")

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Rules:
        names = {f.name for f in fields(cls)}
        for k, v in d.items():
            if k not in names:
                raise RulesError(f"unknown house rule {k!r}: known are {', '.join(sorted(names))}")
            if not isinstance(v, bool):
                raise RulesError(f"house rule {k!r} must be true or false, not {v!r}")
        return cls(**d)

    @classmethod
    def from_names(cls, names: Iterable[str]) -> Rules:
        """The rules with the named flags switched on (``ramsch`` is implied by
        ``schieberamsch``)."""
        d = {n: True for n in names}
        if d.get("schieberamsch"):
            d["ramsch"] = True
        return cls.from_dict(d)

    def to_json(self) -> dict[str, bool]:
        return asdict(self)


ISKO = Rules()


class Phase(enum.StrEnum):
    BIDDING = "bidding"
    SKAT = "skat"          # the declarer takes up the skat or declares a hand game
    DISCARD = "discard"    # the declarer holds 12 cards: two discards and the declaration
    PUSHING = "pushing"    # Schieberamsch: take the skat and push two cards on, or pass
    PLAY = "play"
    FINISHED = "finished"



_PHASE_WORDS = {
    Phase.BIDDING: "the bidding",
    Phase.SKAT: "the skat is to be taken up or a hand game declared",
    Phase.DISCARD: "the declarer is discarding and declaring",
    Phase.PUSHING: "the skat is being pushed",
    Phase.PLAY: "the cards are being played",
    Phase.FINISHED: "the game is over",
}

# Every field of the derived state; a snapshot of them is what pop() restores.
_STATE = (
    "phase", "bidding", "declarer", "contract", "skat_taken", "hands", "skat", "trick",
    "trick_leader", "tricks", "won", "ntricks", "to_act", "kontra", "result", "game_type",
    "declared", "pushes", "push_turn", "pushing", "_trick_cards", "claim", "open_hands",
    "violation",
)
_snapshot = attrgetter(*_STATE)
# A card laid changes only these (the trick, the hands, the tricks won, and at the end the
# result): the undo record of a Play that completes a trick holds just them.
_PLAY_STATE = (
    "phase", "hands", "trick", "_trick_cards", "to_act", "won", "ntricks", "tricks",
    "trick_leader", "result",
)
_snapshot_play = attrgetter(*_PLAY_STATE)
# A first or second card of a trick changes fewer still (after it the trick is not empty,
# after a third card it is: pop tells the two apart by that).
_TRICK_STATE = ("hands", "trick", "_trick_cards", "to_act")
_snapshot_trick = attrgetter(*_TRICK_STATE)
# What the other frequent actions can change (their handlers and what those call: the end
# of the bidding, passing in, Ramsch, the start of play); the rest keep the whole state.
_UNDO_FIELDS: dict[type, tuple[str, ...]] = {
    Bid: ("phase", "bidding", "declarer", "to_act", "game_type", "contract", "push_turn",
          "trick_leader", "result"),
    TakeSkat: ("phase", "hands", "skat", "skat_taken"),
    Discard: ("phase", "hands", "skat", "pushing", "push_turn", "to_act", "trick_leader"),
    Declare: ("phase", "contract", "game_type", "declared", "to_act", "trick_leader"),
    Push: ("hands", "skat", "pushing", "pushes"),
}
_UNDO_FIELDS[Hold] = _UNDO_FIELDS[Pass] = _UNDO_FIELDS[Bid]
_UNDO = {t: (names, attrgetter(*names)) for t, names in _UNDO_FIELDS.items()}
_UNDO_ALL = (_STATE, _snapshot)


class Game:
    """One game; see the module text. Positions: 0 forehand, 1 middlehand, 2 rearhand."""

    __slots__ = ("_undo", "actions", "deal", "rules", *_STATE)

    def __init__(self, deal: Deal, rules: Rules = ISKO) -> None:
        self.deal = deal
        self.rules = rules
        self.actions: list[Action] = []
        self._undo: list[tuple[Any, ...]] = []
        self.phase = Phase.BIDDING
        self.bidding = START
        self.declarer: int | None = None
        self.contract: Contract | None = None
        self.skat_taken = False
        self.hands: tuple[int, int, int] = deal.hands
        # the cards lying as skat now: the dealt two, none after a pick-up, then the discards
        self.skat: int = deal.skat
        self.trick: tuple[Card, ...] = ()
        self.trick_leader = 0
        self.tricks: tuple[Trick, ...] = ()
        self.won: tuple[int, int, int] = (0, 0, 0)
        self.ntricks: tuple[int, int, int] = (0, 0, 0)
        self.to_act: int | None = 1
        self.kontra = 1
        self.result: GameResult | None = None
        self.game_type = GameType.GRAND
        self.declared = False
        self.pushes = 0
        self.push_turn = 0
        self.pushing = False
        self._trick_cards = 0
        # a declarer's claim waiting for the defenders: (declarer, level 0..2, mask of the
        # defenders who agreed); to_act is None meanwhile
        self.claim: tuple[int, int, int] | None = None
        self.open_hands = 0  # positions whose cards lie open (bit per position)
        # a violation waiting for the innocent party's choice: (offender, card)
        self.violation: tuple[int, Card] | None = None

    # ----------------------------------------------------------------- views

    @property
    def bid(self) -> int:
        return self.bidding.bid

    @property
    def bidder(self) -> int | None:
        return None if self.bidding.done else self.bidding.bidder

    @property
    def listener(self) -> int | None:
        return None if self.bidding.done else self.bidding.listener

    @property
    def next_bid(self) -> int | None:
        return self.bidding.next_bid

    @property
    def passed(self) -> frozenset[int]:
        return self.bidding.passed

    @property
    def is_ramsch(self) -> bool:
        return self.game_type == GameType.RAMSCH

    def hand(self, pos: int) -> int:
        """The cards ``pos`` holds now (a mask)."""
        return self.hands[pos]

    def points(self, pos: int) -> int:
        """Card points in the tricks ``pos`` has taken (without the skat)."""
        return mask_points(self.won[pos])

    def legal_cards(self) -> list[Card]:
        """The cards the player to move may lay, strongest first (empty outside play)."""
        if self.phase != Phase.PLAY:
            return []
        return by_power(self._legal_mask(), self.game_type)

    def _legal_mask(self) -> int:
        hand = self.hands[self.to_act]  # type: ignore[index]
        if not self.trick:
            return hand
        f = hand & FOLLOW[self.game_type][self.trick[0]]
        return f or hand

    def legal_actions(self) -> list[Action]:
        """The moves of the player to act, plus Kontra/Re while they may be said (their
        ``pos`` may differ from ``to_act``). Concede and the ISS aborts are always at hand
        in play and are not listed."""
        ph = self.phase
        p = self.to_act
        if ph is _PLAY and p is None:
            return self._answers()
        if ph is _PLAY:
            # the legal cards, suit by suit from the tables (lowest card index first)
            hand = self.hands[p]  # type: ignore[index]
            trick = self.trick
            m = (hand & FOLLOW[self.game_type][trick[0]] or hand) if trick else hand
            t = _PLAYS_BY_SUIT[p]  # type: ignore[index]
            out: list[Action] = [*t[0][m & 255], *t[1][m >> 8 & 255], *t[2][m >> 16 & 255],
                                 *t[3][m >> 24]]
            if self.rules.kontra_re and self._may_kontra():
                d = self.declarer
                if self.kontra == 1:
                    out += [Kontra(q) for q in range(3) if q != d]
                elif self.kontra == 2:
                    out.append(Re(d))  # type: ignore[arg-type]
            return out
        if ph is _FINISHED or p is None:
            return []
        if ph is _BIDDING:
            b = self.bidding
            if p == b.bidder:
                return [*_BIDS[p][_BID_INDEX_ABOVE[b.bid]:], _PASSES[p]]
            return [_HOLDS[p], _PASSES[p]]
        if ph is _SKAT:
            return [_TAKE_SKAT[p], *_HAND_DECLARES_AT[p][self.bid]]
        out = []
        if ph is _DISCARD:
            hand = self.hands[p]
            if hand.bit_count() > 10:
                out += _discards(p, hand)
            if not self.declared:
                out += _PICKUP_DECLARES_AT[p][self.bid]
        elif ph is _PUSHING:
            if self.pushing:
                allowed = self.hands[p]
                if not self.rules.schieberamsch_jacks:
                    allowed &= ~JACKS
                out += _discards(p, allowed)
            else:
                out += [_PUSHES[p], _PASSES[p]]
        return out

    def _answers(self) -> list[Action]:
        """While a claim or a violation waits: the answers open (any order of the parties)."""
        d = self.declarer
        if self.claim is not None:
            agreed = self.claim[2]
            return [x for q in range(3) if q != d and not agreed >> q & 1
                    for x in (Agree(q), Disagree(q))]
        if self.violation is not None:
            offender = self.violation[0]
            innocent = [q for q in range(3) if q != d] if offender == d else [d]
            return [x for q in innocent for x in (Enforce(q), PlayOn(q))]  # type: ignore[arg-type]
        return []

    @property
    def waiting(self) -> str | None:
        """``"claim"`` or ``"violation"`` while play waits for an answer, else None."""
        if self.claim is not None:
            return "claim"
        if self.violation is not None:
            return "violation"
        return None

    def _may_kontra(self) -> bool:
        return (self.rules.kontra_re and self.phase == Phase.PLAY and not self.is_ramsch
                and not self.tricks and not self.trick and self.kontra < 4)

    def declarer_cards(self) -> int:
        """The declarer's 12 cards (hand and skat as dealt): what matadors are counted on."""
        d = self.declarer
        return 0 if d is None else self.deal.hands[d] | self.deal.skat

    # ---------------------------------------------------------------- push/pop

    def push(self, action: Action) -> None:
        """Apply ``action`` or raise :class:`IllegalAction` (the state is left unchanged)."""
        if type(action) is Play:
            # the most frequent action: a smaller undo record (see _TRICK_STATE)
            if action.pos not in (0, 1, 2):
                raise IllegalAction(f"position {action.pos!r} is not 0, 1 or 2")
            if len(self.trick) < 2:
                names, snap = _TRICK_STATE, _snapshot_trick(self)
            else:
                names, snap = _PLAY_STATE, _snapshot_play(self)
            try:
                _play(self, action)
            except BaseException:
                self._restore(snap, names)
                raise
            self._undo.append(snap)
            self.actions.append(action)
            return
        handler = _HANDLERS.get(type(action))
        if handler is None:
            raise IllegalAction(f"{action!r} is not a Skat action")
        if action.pos not in (0, 1, 2):
            raise IllegalAction(f"position {action.pos!r} is not 0, 1 or 2")
        names, snapshot = _UNDO.get(type(action), _UNDO_ALL)
        snap = snapshot(self)
        try:
            handler(self, action)
        except BaseException:
            # whatever went wrong, the game stays where it was
            self._restore(snap, names)
            raise
        self._undo.append(snap)
        self.actions.append(action)

    def pop(self) -> Action:
        """Undo the last action and return it."""
        if not self.actions:
            raise IllegalAction("nothing to undo: the game is at its deal")
        action = self.actions.pop()
        if type(action) is not Play:
            names = _UNDO.get(type(action), _UNDO_ALL)[0]
        elif self.trick:
            names = _TRICK_STATE  # the card did not complete a trick
        else:
            names = _PLAY_STATE
        self._restore(self._undo.pop(), names)
        return action

    def _restore(self, snap: tuple[Any, ...], names: tuple[str, ...] = _STATE) -> None:
        for name, value in zip(names, snap, strict=True):
            setattr(self, name, value)

    def copy(self) -> Game:
        g = Game.__new__(Game)
        g.deal = self.deal
        g.rules = self.rules
        g.actions = list(self.actions)
        g._undo = list(self._undo)
        g._restore(_snapshot(self))
        return g

    def state_key(self) -> tuple[Any, ...]:
        """Everything that makes up the current state (for tests: equal keys, equal games)."""
        return _snapshot(self)

    # ---------------------------------------------------------------- helpers

    def _turn(self, pos: int) -> None:
        if self.phase == Phase.FINISHED:
            raise IllegalAction("the game is over")
        self._not_waiting()
        if pos != self.to_act:
            raise IllegalAction(
                f"it is {POSITION_NAMES[self.to_act]}'s turn, "  # type: ignore[index]
                f"not {POSITION_NAMES[pos]}'s"
            )

    def _not_waiting(self) -> None:
        if self.claim is not None:
            raise IllegalAction("the declarer has claimed the rest: the defenders agree or "
                                "disagree first")
        if self.violation is not None:
            p, card = self.violation
            raise IllegalAction(f"{POSITION_NAMES[p]} laid {card} against the rules: the other "
                                "side chooses first (end the game or play on)")

    def _need(self, *phases: Phase) -> None:
        if self.phase not in phases:
            raise IllegalAction(f"not now: {_PHASE_WORDS[self.phase]}")

    # ---------------------------------------------------------------- bidding

    def _bid(self, a: Bid) -> None:
        self._need(Phase.BIDDING)
        self._after_bidding(self.bidding.after_bid(a.pos, a.value))

    def _hold(self, a: Hold) -> None:
        self._need(Phase.BIDDING)
        self._after_bidding(self.bidding.after_hold(a.pos))

    def _pass(self, a: Pass) -> None:
        if self.phase == Phase.PUSHING:
            self._turn(a.pos)
            if self.pushing:
                raise IllegalAction(f"{POSITION_NAMES[a.pos]} took the skat: push two cards on")
            self._next_pusher()
            return
        self._need(Phase.BIDDING)
        self._after_bidding(self.bidding.after_pass(a.pos))

    def _after_bidding(self, b: Bidding) -> None:
        self.bidding = b
        if not b.done:
            self.to_act = b.to_act
            return
        if b.declarer is not None:
            self.declarer = b.declarer
            self.phase = Phase.SKAT
            self.to_act = b.declarer
        elif self.rules.ramsch:
            self.game_type = GameType.RAMSCH
            self.contract = RAMSCH_CONTRACT
            if self.rules.schieberamsch:
                self.phase = Phase.PUSHING
                self.push_turn = 0
                self.to_act = 0
            else:
                self._start_play()
        else:
            self._finish(passed_in_result())

    # ---------------------------------------------------------------- skat

    def _take_skat(self, a: TakeSkat) -> None:
        self._need(Phase.SKAT)
        self._turn(a.pos)
        d = a.pos
        hands = list(self.hands)
        hands[d] |= self.skat
        self.hands = (hands[0], hands[1], hands[2])
        self.skat = 0
        self.skat_taken = True
        self.phase = Phase.DISCARD

    def _discard(self, a: Discard) -> None:
        self._need(Phase.DISCARD, Phase.PUSHING)
        self._turn(a.pos)
        p = a.pos
        bit = 1 << a.card
        if self.phase == Phase.PUSHING:
            if not self.pushing:
                raise IllegalAction(
                    f"{POSITION_NAMES[p]} has not taken the skat: push (take it) or pass"
                )
            if a.card.is_jack and not self.rules.schieberamsch_jacks:
                raise IllegalAction("jacks may not be pushed")
        if not self.hands[p] & bit:
            raise IllegalAction(f"{POSITION_NAMES[p]} does not hold {a.card}")
        if self.hands[p].bit_count() <= 10:
            raise IllegalAction("two cards are already in the skat")
        hands = list(self.hands)
        hands[p] &= ~bit
        self.hands = (hands[0], hands[1], hands[2])
        self.skat |= bit
        if self.phase == Phase.PUSHING:
            if self.skat.bit_count() == 2:
                self.pushing = False
                self._next_pusher()
        elif self.declared and self.skat.bit_count() == 2:
            self._start_play()

    def _declare(self, a: Declare) -> None:
        self._need(Phase.SKAT, Phase.DISCARD)
        self._turn(a.pos)
        if self.declared:
            raise IllegalAction("the game is already declared")
        c = a.contract
        try:
            c.check(self.skat_taken)
        except ValueError as exc:
            raise IllegalAction(str(exc)) from None
        nv = c.null_value
        if nv is not None and nv < self.bid:
            raise IllegalAction(
                f"{c.name} is worth {nv}, less than the bid {self.bid}: declare a game that "
                "can reach it"
            )
        self.contract = c
        self.game_type = c.game
        self.declared = True
        if not self.skat_taken or self.skat.bit_count() == 2:
            self._start_play()
        else:
            self.phase = Phase.DISCARD

    # ---------------------------------------------------------------- Schieberamsch

    def _push(self, a: Push) -> None:
        self._need(Phase.PUSHING)
        self._turn(a.pos)
        if self.pushing:
            raise IllegalAction("the skat is already taken: push two cards on")
        hands = list(self.hands)
        hands[a.pos] |= self.skat
        self.hands = (hands[0], hands[1], hands[2])
        self.skat = 0
        self.pushing = True
        self.pushes += 1

    def _next_pusher(self) -> None:
        if self.push_turn == 2:
            self._start_play()
        else:
            self.push_turn += 1
            self.to_act = self.push_turn

    # ---------------------------------------------------------------- play

    def _start_play(self) -> None:
        self.phase = Phase.PLAY
        self.trick_leader = 0
        self.to_act = 0

    def _play(self, a: Play) -> None:
        if self.phase is not _PLAY:
            raise IllegalAction(f"no card can be laid now: {_PHASE_WORDS[self.phase]}")
        p = a.pos
        if p != self.to_act:
            self._turn(p)
        card = a.card
        bit = 1 << card
        hands = self.hands
        hand = hands[p]
        if not hand & bit:
            raise IllegalAction(f"{POSITION_NAMES[p]} does not hold {card}")
        trick = self.trick
        g = self.game_type
        if trick:
            f = FOLLOW[g][trick[0]]
            if not f & bit and hand & f:
                held = ", ".join(c.name for c in by_power(hand & f, g))
                raise IllegalAction(
                    f"{POSITION_NAMES[p]} must follow {follow_suit_name(trick[0], g)}: "
                    f"holds {held}"
                )
        hand ^= bit
        self.hands = ((hand, hands[1], hands[2]) if p == 0 else
                      (hands[0], hand, hands[2]) if p == 1 else (hands[0], hands[1], hand))
        if len(trick) < 2:
            self.trick = (*trick, card)
            self._trick_cards |= bit
            self.to_act = _NEXT[p]
            return
        trick = (trick[0], trick[1], card)
        beats = BEATS[g]
        w = 1 if beats[trick[0]] >> trick[1] & 1 else 0
        if beats[trick[w]] >> card & 1:
            w = 2
        leader = self.trick_leader
        winner = _NEXT_BY[leader][w]
        taken = self._trick_cards | bit
        won = self.won
        nt = self.ntricks
        if winner == 0:
            self.won = (won[0] | taken, won[1], won[2])
            self.ntricks = (nt[0] + 1, nt[1], nt[2])
        elif winner == 1:
            self.won = (won[0], won[1] | taken, won[2])
            self.ntricks = (nt[0], nt[1] + 1, nt[2])
        else:
            self.won = (won[0], won[1], won[2] | taken)
            self.ntricks = (nt[0], nt[1], nt[2] + 1)
        tricks = self.tricks = (*self.tricks, new_trick(leader, trick, winner))
        self.trick = ()
        self._trick_cards = 0
        self.trick_leader = winner
        self.to_act = winner
        d = self.declarer
        if g is _NULL and winner == d:
            self._finish_declared("null-trick")
        elif winner != d and self.contract is not None and self.contract.schwarz:
            self._finish_declared("schwarz-lost")
        elif len(tricks) == 10:
            if g is _RAMSCH:
                self._finish_ramsch()
            else:
                self._finish_declared("played")

    # ---------------------------------------------------------------- house rules

    def _kontra(self, a: Kontra) -> None:
        if not self.rules.kontra_re:
            raise IllegalAction("Kontra is not played at this table")
        self._not_waiting()
        if self.phase != Phase.PLAY or self.is_ramsch:
            raise IllegalAction("Kontra can only be said against a declared game")
        if self.tricks or self.trick:
            raise IllegalAction("Kontra must be said before the first card is laid")
        if a.pos == self.declarer:
            raise IllegalAction("only a defender can say Kontra")
        if self.kontra != 1:
            raise IllegalAction("Kontra has already been said")
        self.kontra = 2

    def _re(self, a: Re) -> None:
        if not self.rules.kontra_re:
            raise IllegalAction("Re is not played at this table")
        self._not_waiting()
        if self.phase != Phase.PLAY or self.is_ramsch:
            raise IllegalAction("Re can only be said in a declared game")
        if self.tricks or self.trick:
            raise IllegalAction("Re must be said before the first card is laid")
        if a.pos != self.declarer:
            raise IllegalAction("only the declarer can say Re")
        if self.kontra != 2:
            raise IllegalAction("Re answers a Kontra: nobody has said Kontra" if self.kontra == 1
                                else "Re has already been said")
        self.kontra = 4

    # ---------------------------------------------------------------- endings

    def _concede(self, a: Concede) -> None:
        if self.phase != Phase.PLAY:
            raise IllegalAction(
                f"conceding is possible during play only: {_PHASE_WORDS[self.phase]}"
            )
        if self.is_ramsch:
            raise IllegalAction("there is nothing to concede in Ramsch")
        self._not_waiting()
        if a.pos == self.declarer:
            self._finish_declared("declarer-conceded")
        else:
            self._finish_declared("defenders-conceded")

    # ---------------------------------------------------------------- claims (ISkO 4.4.4, 4.4.5)

    def _need_declared_play(self, what: str) -> None:
        if self.phase != Phase.PLAY:
            raise IllegalAction(f"{what} only during play: {_PHASE_WORDS[self.phase]}")
        if self.is_ramsch:
            raise IllegalAction(f"{what} not in Ramsch")
        self._not_waiting()

    def _claim(self, a: Claim) -> None:
        self._need_declared_play("the rest can be claimed")
        d = self.declarer
        c = self.contract
        assert d is not None and c is not None
        level = CLAIM_LEVELS.index(a.level)
        if a.pos != d:
            if level:
                raise IllegalAction("a defender claims the rest for the defenders, not a level")
            # 4.4.5 (2022): upheld only if the declarer cannot win another trick; decided
            # exactly on the open cards
            upheld = not self._declarer_can_take_a_trick()
            self._finish_declared("defenders-claimed" if upheld else "defenders-claim-failed")
            return
        if level and c.game == GameType.NULL:
            raise IllegalAction("a null game has no schneider or schwarz to claim")
        dp, dt = self._defenders_hold()
        if level >= 1 and dp >= 31:
            raise IllegalAction(f"the defenders already have {dp} points: schneider cannot be "
                                "claimed")
        if level >= 2 and dt:
            raise IllegalAction("the defenders already have a trick: schwarz cannot be claimed")
        self.claim = (d, level, 0)
        self.open_hands |= 1 << d
        self.to_act = None

    def _declarer_can_take_a_trick(self) -> bool:
        """Whether the declarer can still win a trick against the defenders' best play (the
        double-dummy solver). In null: whether he can still avoid taking one."""
        from engine.players.solver import Solver  # the search is only needed here

        d = self.declarer
        assert d is not None
        solver = Solver(int(self.game_type), d)
        trick = [int(c) for c in self.trick]
        if self.game_type == GameType.NULL:
            return solver.null_won(self.hands, self.trick_leader, trick)
        return solver.takes_any(self.hands, self.trick_leader, trick)

    def _agree(self, a: Agree) -> None:
        self._answer_claim(a.pos)
        d, level, agreed = self.claim  # type: ignore[misc]
        if agreed >> a.pos & 1:
            raise IllegalAction(f"{POSITION_NAMES[a.pos]} has already agreed")
        agreed |= 1 << a.pos
        if agreed.bit_count() == 2:
            self._finish_declared("claimed")
        else:
            self.claim = (d, level, agreed)

    def _disagree(self, a: Disagree) -> None:
        self._answer_claim(a.pos)
        # play goes on where it stood, the declarer's cards open; the real outcome counts
        self.claim = None
        self.to_act = _NEXT_BY[self.trick_leader][len(self.trick)]

    def _answer_claim(self, pos: int) -> None:
        if self.phase != Phase.PLAY or self.claim is None:
            raise IllegalAction("there is no claim to answer")
        if pos == self.declarer:
            raise IllegalAction("the defenders answer the declarer's claim, not he himself")

    # ---------------------------------------------------------------- violations (ISkO 4.1)

    def _violation(self, a: Violation) -> None:
        if not self.rules.isko_violations:
            raise IllegalAction("at this table a card against the rules is refused and play "
                                "goes on")
        self._need_declared_play("a violation counts")
        p, card = a.pos, a.card
        hand = self.hands[p]
        if not hand >> card & 1:
            raise IllegalAction(f"{POSITION_NAMES[p]} does not hold {card}")
        if p == self.to_act:
            legal = self._legal_mask()
            if legal >> card & 1:
                raise IllegalAction(f"{card} may be laid: it is no violation")
        self.violation = (p, card)
        self.to_act = None

    def _innocent(self, pos: int) -> tuple[int, Card]:
        if self.phase != Phase.PLAY or self.violation is None:
            raise IllegalAction("there is no violation to answer")
        offender, card = self.violation
        d = self.declarer
        if (pos == d) == (offender == d):
            raise IllegalAction("the other side chooses after a violation, not the offending "
                                "side")
        return offender, card

    def _enforce(self, a: Enforce) -> None:
        offender, _ = self._innocent(a.pos)
        self._finish_declared(
            "declarer-violation" if offender == self.declarer else "defenders-violation")

    def _play_on(self, a: PlayOn) -> None:
        self._innocent(a.pos)
        self.violation = None  # the card goes back to its hand: it was never laid
        self.to_act = _NEXT_BY[self.trick_leader][len(self.trick)]

    def _abort(self, a: Abort) -> None:
        if self.phase == Phase.FINISHED:
            raise IllegalAction("the game is over")
        if self.is_ramsch or not self.declared:
            self._finish(penalty_result(a.reason, a.pos, self.declarer, self.bid))
            return
        self._finish_declared(a.reason, aborted_by=a.pos)

    def _skat_points_for_declarer(self) -> int:
        # after a pick-up without both discards (an ISS timeout), the dealt skat still counts
        skat = self.skat if self.skat.bit_count() == 2 else self.deal.skat
        return mask_points(skat)

    def _defenders_hold(self) -> tuple[int, int]:
        """The card points and the number of tricks the defenders have taken."""
        d = self.declarer
        taken = 0
        for p in range(3):
            if p != d:
                taken |= self.won[p]
        return mask_points(taken), len(self.tricks) - self.ntricks[d]  # type: ignore[index]

    def _finish_declared(self, ending: str, aborted_by: int | None = None) -> None:
        d = self.declarer
        c = self.contract
        assert d is not None and c is not None
        points = mask_points(self.won[d]) + self._skat_points_for_declarer()
        tricks = self.ntricks[d]
        defender_abort = aborted_by is not None and aborted_by != d
        dp, dt = self._defenders_hold()
        if ending in _RULED_ENDINGS:
            self._finish_ruled(ending, points, tricks, dp, dt)
            return
        if c.game == GameType.NULL:
            if aborted_by is not None:
                won = defender_abort
            elif ending == "defenders-conceded":
                won = True
            elif ending == "declarer-conceded":
                won = False
            else:
                won = tricks == 0
            r = score_null(c, self.bid, won, points, tricks, ending, d, self.kontra)
        else:
            if defender_abort:
                # ISS: the declarer is credited with every card and trick not yet won by a
                # defender, the unfinished trick included
                taken = 0
                for p in range(3):
                    if p != d:
                        taken |= self.won[p]
                points = 120 - mask_points(taken)
                tricks = 10 - (len(self.tricks) - self.ntricks[d])
            r = score_suit_grand(
                c, self.bid, matadors(self.declarer_cards(), c.game), points, tricks, ending,
                d, self.kontra, trick_done=bool(self.tricks), defender_points=dp,
                defender_tricks=dt,
            )
        if aborted_by is not None:
            r = _replace(r, aborted_by=aborted_by)
        self._finish(r)

    def _finish_ruled(self, ending: str, points: int, tricks: int, dp: int, dt: int) -> None:
        """Claims and violations: each is scored by a rule that is one of the others."""
        d = self.declarer
        c = self.contract
        assert d is not None and c is not None
        rest_points, rest_tricks = 120 - dp, 10 - dt  # every card not won by a defender
        by, claim = ending, 0
        if ending == "claimed":  # the declarer takes the rest, at the level he said
            points, tricks, claim = rest_points, rest_tricks, self.claim[1]  # type: ignore[index]
            null_won = True
        elif ending == "defenders-claimed":  # the rest to the defenders: by the cards
            by, null_won = "played", False
        elif ending == "defenders-claim-failed":  # every remaining trick to the declarer
            by, points, tricks, null_won = "played", rest_points, rest_tricks, True
        elif ending == "declarer-violation":
            # 4.1.3: a game already decided is not lost by a later violation: won with the
            # points he has; else lost as if he had conceded (4.1.4)
            decided = (points >= 61 and (not c.schneider or points >= 90) and not c.schwarz)
            by, null_won = ("played" if decided else "declarer-conceded"), False
        else:  # defenders-violation
            # decided for the defenders already (the declarer out of the level he needs to
            # win at all): lost with what he has; else 4.1.5 as when they concede
            decided = dp >= 60 or (c.schneider and dp >= 31) or (c.schwarz and dt > 0)
            by, null_won = ("declarer-conceded" if decided else "defenders-conceded"), True
        if c.game == GameType.NULL:
            r = score_null(c, self.bid, null_won, points, tricks, ending, d, self.kontra)
        else:
            r = score_suit_grand(
                c, self.bid, matadors(self.declarer_cards(), c.game), points, tricks, by,
                d, self.kontra, trick_done=True, defender_points=dp, defender_tricks=dt,
                claim=claim,
            )
            if by != ending:
                r = _replace(r, ending=ending)
        self._finish(r)

    def _finish_ramsch(self) -> None:
        last = self.tricks[-1].winner
        self._finish(score_ramsch(
            self.won, self.ntricks, self.skat, last, self.pushes,
            jungfrau=self.rules.ramsch_jungfrau, durchmarsch=self.rules.ramsch_durchmarsch,
        ))

    def _finish(self, result: GameResult) -> None:
        self.result = result
        self.phase = Phase.FINISHED
        self.to_act = None
        self.claim = None
        self.violation = None

    # ---------------------------------------------------------------- JSON

    def to_json(self) -> dict[str, Any]:
        """The deal, the rules and the actions: everything else is derived."""
        return {
            "deal": self.deal.to_iss(),
            "rules": self.rules.to_json(),
            "actions": [a.to_json() for a in self.actions],
        }

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Game:
        """Rebuild a game by replaying its actions; a bad record raises ``ValueError``."""
        try:
            deal = Deal.from_iss(d["deal"])
            rules = Rules.from_dict(d.get("rules", {}))
            actions = d.get("actions", [])
        except (KeyError, TypeError, AttributeError):
            raise ActionError(f"not a game record: {str(d)[:80]!r}") from None
        g = cls(deal, rules)
        for i, ad in enumerate(actions):
            a = action_from_json(ad)
            try:
                g.push(a)
            except IllegalAction as exc:
                raise IllegalAction(f"action {i + 1} ({ad}) is illegal: {exc}") from None
        return g

    def replay(self, actions: Iterable[Action]) -> Game:
        """Push every action in turn; returns self for chaining."""
        for a in actions:
            self.push(a)
        return self

    def __repr__(self) -> str:
        return f"<Game {self.phase.value} after {len(self.actions)} actions>"


def _replace(r: GameResult, **changes: Any) -> GameResult:
    from dataclasses import replace

    return replace(r, **changes)


# The actions legal_actions() hands out, made once: they are immutable values.
_BIDS = tuple(tuple(Bid(p, v) for v in BID_VALUES) for p in range(3))
_BID_INDEX_ABOVE = {0: 0, **{v: i + 1 for i, v in enumerate(BID_VALUES)}}
_SUIT_GRAND = (GameType.CLUBS, GameType.SPADES, GameType.HEARTS, GameType.DIAMONDS,
               GameType.GRAND)
_HAND_CONTRACTS = (
    *(c for g in _SUIT_GRAND
      for c in (Contract(g, hand=True), Contract(g, hand=True, schneider=True),
                Contract(g, hand=True, schwarz=True), Contract(g, ouvert=True))),
    Contract(GameType.NULL, hand=True), Contract(GameType.NULL, hand=True, ouvert=True),
)
_PICKUP_CONTRACTS = (
    *(Contract(g) for g in _SUIT_GRAND), Contract(GameType.NULL),
    Contract(GameType.NULL, ouvert=True),
)
_HAND_DECLARES = tuple(tuple(Declare(p, c) for c in _HAND_CONTRACTS) for p in range(3))
_PICKUP_DECLARES = tuple(tuple(Declare(p, c) for c in _PICKUP_CONTRACTS) for p in range(3))
_PLAYS = tuple(tuple(Play(p, c) for c in Card) for p in range(3))
_DISCARDS = tuple(tuple(Discard(p, c) for c in Card) for p in range(3))
_PASSES = tuple(Pass(p) for p in range(3))
_HOLDS = tuple(Hold(p) for p in range(3))
_TAKE_SKAT = tuple(TakeSkat(p) for p in range(3))
_PUSHES = tuple(Push(p) for p in range(3))


def _by_suit(actions: tuple[Action, ...]) -> tuple[tuple[tuple[Action, ...], ...], ...]:
    """For each suit (8 card bits) and each of its 256 masks, the actions of those cards in
    card order: a mask's actions are then four lookups."""
    return tuple(
        tuple(tuple(actions[8 * s + i] for i in range(8) if byte >> i & 1) for byte in range(256))
        for s in range(4)
    )


_PLAYS_BY_SUIT = tuple(_by_suit(_PLAYS[p]) for p in range(3))
_DISCARDS_BY_SUIT = tuple(_by_suit(_DISCARDS[p]) for p in range(3))


def _discards(p: int, m: int) -> list[Action]:
    t = _DISCARDS_BY_SUIT[p]
    return [*t[0][m & 255], *t[1][m >> 8 & 255], *t[2][m >> 16 & 255], *t[3][m >> 24]]


def _declarable_at(declares: tuple[Declare, ...]) -> dict[int, tuple[Declare, ...]]:
    """For each bid (0 for none), the declarations of ``declares`` that may be made at it (a
    null game worth less than the bid may not)."""
    return {bid: tuple(a for a in declares if (a.contract.null_value or 999) >= bid)
            for bid in (0, *BID_VALUES)}


_HAND_DECLARES_AT = tuple(_declarable_at(_HAND_DECLARES[p]) for p in range(3))
_PICKUP_DECLARES_AT = tuple(_declarable_at(_PICKUP_DECLARES[p]) for p in range(3))
_NEXT = (1, 2, 0)
_NEXT_BY = ((0, 1, 2), (1, 2, 0), (2, 0, 1))  # [leader][index in the trick] -> position
_BIDDING, _SKAT, _DISCARD, _PUSHING, _PLAY, _FINISHED = (
    Phase.BIDDING, Phase.SKAT, Phase.DISCARD, Phase.PUSHING, Phase.PLAY, Phase.FINISHED)
_NULL, _RAMSCH = GameType.NULL, GameType.RAMSCH

_play = Game._play
_HANDLERS: dict[type, Any] = {
    Bid: Game._bid,
    Hold: Game._hold,
    Pass: Game._pass,
    TakeSkat: Game._take_skat,
    Discard: Game._discard,
    Declare: Game._declare,
    Play: Game._play,
    Concede: Game._concede,
    Kontra: Game._kontra,
    Re: Game._re,
    Push: Game._push,
    Abort: Game._abort,
    Claim: Game._claim,
    Agree: Game._agree,
    Disagree: Game._disagree,
    Violation: Game._violation,
    Enforce: Game._enforce,
    PlayOn: Game._play_on,
}
_RULED_ENDINGS = frozenset((
    "claimed", "defenders-claimed", "defenders-claim-failed", "declarer-violation",
    "defenders-violation",
))

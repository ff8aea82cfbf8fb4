"""The bidding (Reizen) as an immutable state: each step returns the next state.

Middlehand bids to forehand (forehand answers "yes" or passes); then rearhand bids to the
survivor. The listener wins ties: he only has to hold the value. A bidder may jump to any legal
value above the current one. If middlehand and rearhand both pass without a bid, forehand may
play for 18 (or say any higher value) or pass, and the game is passed in.

>>> b = Bidding()
>>> b = b.after_bid(1, 18).after_hold(0).after_pass(1)   # middlehand drops out at 18
>>> b.bidder, b.listener, b.bid                          # rearhand now bids to forehand
(2, 0, 18)
>>> b = b.after_pass(2)
>>> b.done, b.declarer, b.bid
(True, 0, 18)

The rules are written once (``_rule_bid``, ``_rule_hold``, ``_rule_pass``) and applied at
import to every state the bidding can reach (695 of them): each reachable state is one shared
object that holds its successors, ``on_pass``, ``on_hold`` and ``raises`` (the states after
saying each legal value, the next one first). ``after_*`` check the call and then follow those
links, so a call costs a few comparisons; tight loops (the benchmark, searches) may follow the
links directly from ``START``: every link is a legal call.

>>> b = START.raises[0].on_hold.raises[2]     # 18, yes, then a jump over 20 and 22 to 23
>>> b.bid, b.to_act
(23, 0)
>>> b is Bidding().after_bid(1, 18).after_hold(0).after_bid(1, 23)
True
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass, field

from engine.actions import POSITION_NAMES, IllegalAction
from engine.contract import BID_VALUES, next_bid

__all__ = ["START", "Bidding", "reachable_states"]

_INDEX = {v: i for i, v in enumerate(BID_VALUES)}


@dataclass(frozen=True, slots=True)
class Bidding:
    """Where the bidding stands.

    ``to_act`` is the position that must speak (None once done). ``bidder`` says values,
    ``listener`` answers; when middlehand and rearhand have passed without a bid, forehand is
    the bidder with no listener.

    ``on_pass``, ``on_hold`` and ``raises`` link a reachable state to the states after the
    legal calls (None or empty where the call is not legal); they are not part of the value.
    """

    bid: int = 0
    bidder: int = 1
    listener: int | None = 0
    to_act: int | None = 1
    passed: frozenset[int] = frozenset()
    declarer: int | None = None
    done: bool = False
    on_pass: Bidding | None = field(default=None, init=False, compare=False, repr=False)
    on_hold: Bidding | None = field(default=None, init=False, compare=False, repr=False)
    raises: tuple[Bidding, ...] = field(default=(), init=False, compare=False, repr=False)

    @property
    def all_passed(self) -> bool:
        return self.done and self.declarer is None

    @property
    def next_bid(self) -> int | None:
        return next_bid(self.bid)

    def legal_bids(self) -> tuple[int, ...]:
        """The values the bidder may say now (empty when the listener must answer)."""
        if self.done or self.to_act != self.bidder:
            return ()
        return BID_VALUES[bisect_right(BID_VALUES, self.bid):]

    def _check_turn(self, pos: int) -> None:
        if self.done:
            raise IllegalAction("the bidding is over")
        if pos != self.to_act:
            raise IllegalAction(
                f"it is {POSITION_NAMES[self.to_act]}'s turn to speak, "  # type: ignore[index]
                f"not {POSITION_NAMES[pos]}'s"
            )

    def _linked(self) -> Bidding:
        """This state with its links: itself when reachable, else an equal state linked by
        the rules (a state built by hand)."""
        if self.on_pass is not None:
            return self
        return _REACHABLE.get(self) or _link(self, {})

    def after_bid(self, pos: int, value: int) -> Bidding:
        if self.done or pos != self.to_act:
            self._check_turn(pos)
        if pos != self.bidder:
            raise IllegalAction(
                f"{POSITION_NAMES[pos]} is asked to hold {self.bid} or pass, not to bid"
            )
        i = _INDEX.get(value)
        if i is None:
            nxt = next_bid(value - 1) if value > 0 else 18
            hint = f" (the next legal value is {nxt})" if nxt else ""
            raise IllegalAction(f"{value} is not a value that can be bid{hint}")
        if value <= self.bid:
            raise IllegalAction(f"{value} is not higher than the current bid {self.bid}")
        return self._linked().raises[i - bisect_right(BID_VALUES, self.bid)]

    def after_hold(self, pos: int) -> Bidding:
        if self.done or pos != self.to_act:
            self._check_turn(pos)
        if pos != self.listener:
            raise IllegalAction(
                f"{POSITION_NAMES[pos]} must bid or pass: there is no value to hold"
            )
        return self._linked().on_hold  # type: ignore[return-value]

    def after_pass(self, pos: int) -> Bidding:
        if self.done or pos != self.to_act:
            self._check_turn(pos)
        return self._linked().on_pass  # type: ignore[return-value]


# ---------------------------------------------------------------- the rules (the one copy)

def _rule_bid(b: Bidding, value: int) -> Bidding:
    """The bidder (``b.to_act``) says ``value``, a legal value above ``b.bid``."""
    if b.listener is None:
        # forehand after two passes: saying a value makes him the declarer at once
        return Bidding(value, b.bidder, None, None, b.passed, b.bidder, True)
    return Bidding(value, b.bidder, b.listener, b.listener, b.passed)


def _rule_hold(b: Bidding) -> Bidding:
    """The listener says yes: the bidder speaks again."""
    return Bidding(b.bid, b.bidder, b.listener, b.bidder, b.passed)


def _rule_pass(b: Bidding) -> Bidding:
    """``b.to_act`` passes."""
    pos = b.to_act
    passed = b.passed | {pos}
    if b.listener is None:
        return Bidding(b.bid, b.bidder, None, None, passed, None, True)
    survivor = b.listener if pos == b.bidder else b.bidder
    if b.bidder == 1:
        # middlehand against forehand is settled; rearhand bids to the survivor
        return Bidding(b.bid, 2, survivor, 2, passed)
    if b.bid == 0:
        # middlehand and rearhand passed without a bid: forehand may still play
        return Bidding(0, 0, None, 0, passed)
    return Bidding(b.bid, b.bidder, b.listener, None, passed, survivor, True)


def _link(b: Bidding, seen: dict[Bidding, Bidding]) -> Bidding:
    """``b`` (or the equal state already in ``seen``) with its successors linked by the rules,
    recursively. A frozen state is given its links here, before anyone else sees it."""
    known = seen.get(b)
    if known is not None:
        return known
    seen[b] = b
    if b.done:
        return b
    setattr_ = object.__setattr__
    setattr_(b, "on_pass", _link(_rule_pass(b), seen))
    if b.to_act == b.listener:
        setattr_(b, "on_hold", _link(_rule_hold(b), seen))
    else:
        setattr_(b, "raises", tuple(_link(_rule_bid(b, v), seen)
                                    for v in BID_VALUES[bisect_right(BID_VALUES, b.bid):]))
    return b


_REACHABLE: dict[Bidding, Bidding] = {}
START: Bidding = _link(Bidding(), _REACHABLE)
"""The opening state (middlehand bids to forehand), linked to every state after it."""


def reachable_states() -> tuple[Bidding, ...]:
    """Every state the bidding can reach from ``START`` (for tests and tools)."""
    return tuple(_REACHABLE)

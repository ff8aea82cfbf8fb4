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
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from engine.actions import POSITION_NAMES, IllegalAction
from engine.contract import BID_VALUES, is_bid_value, next_bid


@dataclass(frozen=True, slots=True)
class Bidding:
    """Where the bidding stands.

    ``to_act`` is the position that must speak (None once done). ``bidder`` says values,
    ``listener`` answers; when middlehand and rearhand have passed without a bid, forehand is
    the bidder with no listener.
    """

    bid: int = 0
    bidder: int = 1
    listener: int | None = 0
    to_act: int | None = 1
    passed: frozenset[int] = frozenset()
    declarer: int | None = None
    done: bool = False

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
        return tuple(v for v in BID_VALUES if v > self.bid)

    def _check_turn(self, pos: int) -> None:
        if self.done:
            raise IllegalAction("the bidding is over")
        if pos != self.to_act:
            raise IllegalAction(
                f"it is {POSITION_NAMES[self.to_act]}'s turn to speak, "  # type: ignore[index]
                f"not {POSITION_NAMES[pos]}'s"
            )

    def after_bid(self, pos: int, value: int) -> Bidding:
        self._check_turn(pos)
        if pos != self.bidder:
            raise IllegalAction(
                f"{POSITION_NAMES[pos]} is asked to hold {self.bid} or pass, not to bid"
            )
        if not is_bid_value(value):
            nxt = next_bid(value - 1) if value > 0 else 18
            hint = f" (the next legal value is {nxt})" if nxt else ""
            raise IllegalAction(f"{value} is not a value that can be bid{hint}")
        if value <= self.bid:
            raise IllegalAction(f"{value} is not higher than the current bid {self.bid}")
        if self.listener is None:
            # forehand after two passes: saying a value makes him the declarer at once
            return replace(self, bid=value, to_act=None, declarer=pos, done=True)
        return replace(self, bid=value, to_act=self.listener)

    def after_hold(self, pos: int) -> Bidding:
        self._check_turn(pos)
        if pos != self.listener:
            raise IllegalAction(
                f"{POSITION_NAMES[pos]} must bid or pass: there is no value to hold"
            )
        return replace(self, to_act=self.bidder)

    def after_pass(self, pos: int) -> Bidding:
        self._check_turn(pos)
        passed = self.passed | {pos}
        if self.listener is None:
            return replace(self, passed=passed, to_act=None, done=True)
        survivor = self.listener if pos == self.bidder else self.bidder
        if self.bidder == 1:
            # middlehand against forehand is settled; rearhand bids to the survivor
            return replace(self, passed=passed, bidder=2, listener=survivor, to_act=2)
        if self.bid == 0:
            # middlehand and rearhand passed without a bid: forehand may still play
            return replace(self, passed=passed, bidder=0, listener=None, to_act=0)
        return replace(self, passed=passed, to_act=None, declarer=survivor, done=True)

"""Hints for learners: what the computer player would do now, from that seat's own knowledge,
and why in a few words where the reason is plain.

The hint never looks at the open cards: it asks a computer player (the rule player by
default: instant, and its choices have reasons a learner can follow) with
:meth:`SeatView.of` of the seat to act, exactly what that player may know. The reason is read
from the seat's view and the chosen action, and only given when it is true of them:

==================  ==========================================================
reason              when
==================  ==========================================================
``draw-trumps``     the declarer leads a trump while the defenders may hold trumps
``cash-ace``        a side-suit ace is led
``take-trick``      the card takes the trick from the other side
``give-points``     the partner holds the trick: a 10 or an ace goes to him
``cheapest``        the trick is lost anyway: the card of fewest points
``keep-guard``      a card of another suit, so the ten stays guarded
``worth``           bid or hold: the hand is worth at least this (``value``)
``too-weak``        pass: the hand is not worth the bid (``value``: its worth)
``hand-game``       strong enough to play without the skat
``skat``            no safe hand game: take the skat
``catchable``       lay away points the defenders could catch
``void``            lay away the last card of a suit (a void)
``best-game``       the strongest game for these cards
==================  ==========================================================

>>> from engine.deal import Deal
>>> from engine.game import Game
>>> g = Game(Deal.shuffled(2))
>>> h = hint(g, g.to_act)
>>> h.action, h.reason
(Pass(pos=1), 'too-weak')
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.actions import Action, Bid, Declare, Discard, Hold, Pass, Play, TakeSkat
from engine.cards import RANK_POINTS, Rank
from engine.contract import GameType
from engine.game import Game, Phase
from engine.players import evaluate as ev
from engine.players.base import Player, SeatView
from engine.players.rule import RulePlayer
from engine.trick import FOLLOW, TRUMPS, trick_winner

REASONS = ("draw-trumps", "cash-ace", "take-trick", "give-points", "cheapest", "keep-guard",
           "worth", "too-weak", "hand-game", "skat", "catchable", "void", "best-game")


class HintError(ValueError):
    """No hint can be given (nobody to act, or not that seat's turn)."""


@dataclass(frozen=True)
class Hint:
    """The action the computer player would choose, a reason key (see the module) or None,
    and a number the reason speaks of (``worth``/``too-weak``: the hand's worth); ``then``:
    what it means to do after it (a discard said before the declaration it plans)."""

    action: Action
    reason: str | None = None
    value: int | None = None
    then: Action | None = None


def hint(game: Game, pos: int, player: Player | None = None) -> Hint:
    """The hint for position ``pos``, who must be the one to act."""
    if game.result is not None or game.to_act is None:
        raise HintError("the game is over: there is nothing to hint")
    if pos != game.to_act:
        raise HintError(f"it is position {game.to_act}'s turn, not {pos}'s")
    view = SeatView.of(game, pos)
    p = player or RulePlayer(seed=0)
    action = p.choose(view)
    # the limit the player itself bid by (the rule player's depends on its options)
    limit = getattr(p, "last_bid_limit", None)
    reason, value = _reason(view, action, limit)
    return Hint(action, reason, value)


def _reason(view: SeatView, action: Action, limit: int | None = None
            ) -> tuple[str | None, int | None]:
    if limit is None:
        limit = ev.bid_limit(view.hand)
    if isinstance(action, Bid | Hold):
        return "worth", limit
    if isinstance(action, Pass) and view.phase == Phase.BIDDING:
        return "too-weak", limit
    if isinstance(action, TakeSkat):
        return "skat", None
    if isinstance(action, Declare):
        if view.phase == Phase.SKAT:
            return "hand-game", None
        return "best-game", None
    if isinstance(action, Discard):
        return _discard_reason(view, int(action.card))
    if isinstance(action, Play) and view.game_type is not None:
        return _card_reason(view, int(action.card)), None
    return None, None


def _discard_reason(view: SeatView, card: int) -> tuple[str | None, int | None]:
    game = int(view.game_type) if view.game_type is not None else int(GameType.GRAND)
    if RANK_POINTS[card & 7] >= 10:
        return "catchable", None
    if not TRUMPS[game] >> card & 1:
        rest = view.hand & FOLLOW[game][card] & ~(1 << card)
        if not rest:
            return "void", None
    return None, None


def _card_reason(view: SeatView, card: int) -> str | None:
    g = int(view.game_type)  # type: ignore[arg-type]
    if g in (GameType.NULL, GameType.RAMSCH):
        return None
    trumps = TRUMPS[g]
    me = view.pos
    declarer = view.declarer
    trick = list(view.trick)
    if not trick:
        seen = view.won[0] | view.won[1] | view.won[2] | view.hand
        if me == declarer and view.skat:
            seen |= view.skat
        if me == declarer and trumps >> card & 1 and trumps & ~seen:
            return "draw-trumps"
        if not trumps >> card & 1 and card & 7 == Rank.ACE:
            return "cash-ace"
        return None
    leader = view.trick_leader
    holder = (leader + trick_winner(trick, g)) % 3
    with_me = [*trick, card]
    wins = (leader + trick_winner(with_me, g)) % 3 == me
    same_side = (holder == declarer) == (me == declarer)
    if wins and not same_side:
        return "take-trick"
    if same_side and not wins and RANK_POINTS[card & 7] >= 10 and len(trick) == 2:
        return "give-points"
    legal = _legal(view, trick[0], g)
    if not wins and RANK_POINTS[card & 7] == min(RANK_POINTS[c & 7] for c in legal):
        guard = _guard(view, card, g)
        return guard or "cheapest"
    return None


def _legal(view: SeatView, lead: int, g: int) -> list[int]:
    follow = view.hand & FOLLOW[g][lead]
    mask = follow or view.hand
    return [c for c in range(32) if mask >> c & 1]


def _guard(view: SeatView, card: int, g: int) -> str | None:
    """``keep-guard`` when the seat cannot follow, holds a side-suit ten with exactly one other
    card of its suit (its guard), and throws a card of another suit."""
    if TRUMPS[g] >> card & 1:
        return None
    for suit in range(4):
        ten = 8 * suit + Rank.TEN
        if not view.hand >> ten & 1 or TRUMPS[g] >> ten & 1 or card >> 3 == suit:
            continue
        others = view.hand & FOLLOW[g][ten] & ~(1 << ten)
        if others.bit_count() == 1 and not (view.hand & FOLLOW[g][view.trick[0]]):
            return "keep-guard"
    return None

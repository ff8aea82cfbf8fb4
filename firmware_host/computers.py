"""Computer seats: ask a player for its move and turn it into what the table must do.

A computer's bid, pass, skat pick-up and declaration are inputs like a person's press, sent
by the computer itself. Its card (to play, or to put away) must be laid by a person: that
becomes a prompt, "West plays SA: please lay it", and the table accepts only that card.

The players of ``engine.players`` (``make_player(name, seed, budget)``) choose from what their
seat may see; :class:`HeuristicPlayer` (bids and declares with the engine's hand evaluation,
plays a random legal card) stands in where that package is missing.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Protocol

from engine.cards import Card
from firmware_host.inputs import DeclareInput, Input, Press


class Player(Protocol):
    def choose(self, game: Any) -> Any: ...


@dataclass(frozen=True)
class Move:
    """What the table does for a computer: ``input`` (sent now) or ``card`` (to be laid)."""

    seat: int
    input: Input | None = None
    card: Card | None = None


class HeuristicPlayer:
    """Bids to the hand's value, declares its best game, plays a random legal card."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, game: Any) -> Any:
        from engine import actions as a
        from engine.contract import Contract, GameType
        from engine.players import evaluate

        legal = [x for x in game.legal_actions()
                 if not isinstance(x, a.Concede | a.Kontra | a.Re | a.Abort)]
        pos = game.to_act
        phase = str(game.phase.value).lower()
        if phase == "bidding":
            limit = evaluate.bid_limit(game.hand(pos), bonus=1.0)
            bids = sorted((x for x in legal if isinstance(x, a.Bid)), key=lambda b: b.value)
            holds = [x for x in legal if isinstance(x, a.Hold)]
            if holds and game.bid <= limit:
                return holds[0]
            if bids and bids[0].value <= limit:
                return bids[0]
            return next(x for x in legal if isinstance(x, a.Pass))
        if phase == "skat":
            return next(x for x in legal if isinstance(x, a.TakeSkat))
        if phase == "discard":
            hand = game.hand(pos)
            best = evaluate.best_contract(hand)
            if hand.bit_count() > 10:
                keep_away = evaluate.discard(hand, best.game)
                for x in legal:
                    if isinstance(x, a.Discard) and keep_away >> int(x.card) & 1:
                        return x
            wanted = Contract(GameType(best.game))
            for x in legal:
                if isinstance(x, a.Declare) and x.contract == wanted:
                    return x
            declares = [x for x in legal if isinstance(x, a.Declare)]
            if declares:
                return declares[0]
        return self.rng.choice(legal)


def make_player(name: str, seed: int, budget_ms: int, never_declare: bool = False) -> Player:
    """The named computer player of ``engine.players`` (``random``, ``rule``, ``pimc``);
    ``never_declare``: the duel-mode partner, which always defends."""
    try:
        from engine.players import make_player as engine_make
    except ImportError:  # a build without the players package
        return HeuristicPlayer(seed)
    return engine_make(name, seed=seed, budget=budget_ms / 1000, never_declare=never_declare)


def ask(player: Player, game: Any) -> Any:
    """The player's action for the position to act; it sees only what that seat may see."""
    if isinstance(player, HeuristicPlayer):
        return player.choose(game)
    from engine.players import SeatView

    return player.choose(SeatView.of(game, game.to_act))


def to_move(action: Any, seat: int) -> Move:
    """The engine action as what the table does for that seat."""
    from engine import actions as a

    if isinstance(action, a.Play | a.Discard):
        return Move(seat, card=Card(action.card))
    if isinstance(action, a.Bid):
        return Move(seat, Press(seat, "bid", action.value))
    if isinstance(action, a.Hold):
        return Move(seat, Press(seat, "yes"))
    if isinstance(action, a.Pass):
        return Move(seat, Press(seat, "pass"))
    if isinstance(action, a.TakeSkat | a.Push):
        return Move(seat, Press(seat, "skat"))
    if isinstance(action, a.Declare):
        return Move(seat, DeclareInput(seat, str(action.contract)))
    if isinstance(action, a.Concede):
        return Move(seat, Press(seat, "concede"))
    if isinstance(action, a.Kontra):
        return Move(seat, Press(seat, "kontra"))
    if isinstance(action, a.Re):
        return Move(seat, Press(seat, "re"))
    raise TypeError(f"the table cannot carry out {action!r} for a computer")

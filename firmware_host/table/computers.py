"""Computer seats: ask a player for its move and turn it into what the table must do.

A computer's bid, pass, skat pick-up and declaration are inputs like a person's press, sent
by the computer itself. Its card (to play, or to put away) must be laid by a person: that
becomes a prompt, "West plays SA: please lay it", and the table accepts only that card.

The players of ``engine.players`` (``make_player(name, seed, budget)``) choose from what their
seat may see (``SeatView``), never from the whole game.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from engine.cards import Card
from firmware_host.table.inputs import DeclareInput, Input, Press


class Player(Protocol):
    def choose(self, game: Any) -> Any: ...


@dataclass(frozen=True)
class Move:
    """What the table does for a computer: ``input`` (sent now) or ``card`` (to be laid)."""

    seat: int
    input: Input | None = None
    card: Card | None = None


def make_player(name: str, seed: int, budget_ms: int, never_declare: bool = False) -> Player:
    """The named computer player of ``engine.players`` (``random``, ``rule``, ``pimc``);
    ``never_declare``: the duel-mode partner, which always defends."""
    from engine.players import make_player as engine_make

    return engine_make(name, seed=seed, budget=budget_ms / 1000, never_declare=never_declare)


def ask(player: Player, game: Any) -> Any:
    """The player's action for the position to act; it sees only what that seat may see."""
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

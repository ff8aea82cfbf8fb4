"""Playing whole games with computer players: the loop the harness and the tests use.

The controller does the same at a real table, one decision at a time: when a computer seat
is to act it builds that seat's :class:`SeatView` and asks its player.

>>> from engine.deal import Deal
>>> from engine.players.base import RandomPlayer
>>> g = play_game(Deal.shuffled(5), [RandomPlayer(1), RandomPlayer(2), RandomPlayer(3)])
>>> g.result is not None
True
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from engine.actions import Action
from engine.deal import Deal
from engine.game import ISKO, Game, Rules
from engine.players.base import Player, SeatView, sees_all


def play_game(
    deal: Deal,
    players: Sequence[Player],
    rules: Rules = ISKO,
    on_decision: Callable[[int, Action, float], None] | None = None,
    start: Game | None = None,
) -> Game:
    """Play ``deal`` to the end; ``players[p]`` acts for position ``p``.

    ``on_decision(pos, action, seconds)`` is told of every decision and its time. ``start``
    continues a game already begun (e.g. with a fixed contract). A player that ``sees_all``
    (the perfect-information ceiling) gets views that hold the whole game.
    """
    import time

    reveal = [sees_all(p) for p in players]
    game = start if start is not None else Game(deal, rules)
    while game.result is None:
        pos = game.to_act
        if pos is None:
            break
        t0 = time.perf_counter()
        action = players[pos].choose(SeatView.of(game, pos, reveal=reveal[pos]))
        dt = time.perf_counter() - t0
        game.push(action)
        if on_decision is not None:
            on_decision(pos, action, dt)
    return game

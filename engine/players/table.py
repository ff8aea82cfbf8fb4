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

from engine.actions import Action, Kontra, Re
from engine.deal import Deal
from engine.game import ISKO, Game, Phase, Rules
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
    asked: set[tuple[int, int]] = set()
    while game.result is None:
        pos = game.to_act
        if pos is None:
            break
        if game.rules.kontra_re and game.phase == Phase.PLAY and not game.tricks \
                and not game.trick:
            offer_doubling(game, players, asked, on_decision)
        t0 = time.perf_counter()
        action = players[pos].choose(SeatView.of(game, pos, reveal=reveal[pos]))
        dt = time.perf_counter() - t0
        game.push(action)
        if on_decision is not None:
            on_decision(pos, action, dt)
    return game


def offer_doubling(game: Game, players: Sequence[Player], asked: set[tuple[int, int]],
                   on_decision: Callable[[int, Action, float], None] | None = None) -> None:
    """Before the first card: ask each seat that is not to act but may say Kontra (or Re)
    whether it does, once per seat and doubling level. A player answers through an optional
    ``double(view) -> Action | None`` (players without it never double out of turn; the
    seat to act decides in its own ``choose``). At a real table anyone may say Kontra before
    the first card, not only the player to lay it."""
    import time

    for pos in (0, 1, 2):
        if pos == game.to_act or (pos, game.kontra) in asked:
            continue
        if not any(isinstance(a, Kontra | Re) and a.pos == pos for a in game.legal_actions()):
            continue
        asked.add((pos, game.kontra))
        double = getattr(players[pos], "double", None)
        if double is None:
            continue
        t0 = time.perf_counter()
        action = double(SeatView.of(game, pos, reveal=sees_all(players[pos])))
        if action is not None:
            game.push(action)
            if on_decision is not None:
                on_decision(pos, action, time.perf_counter() - t0)

"""Set-ups shared by the rule player's tests: a hand game right after its declaration, and
the rule player's card there."""

from __future__ import annotations

from engine.actions import Bid, Declare, Pass, Play
from engine.cards import parse_mask
from engine.contract import Contract
from engine.deal import Deal
from engine.game import ISKO, Game, Phase
from engine.players import evaluate as ev
from engine.players.base import SeatView
from engine.players.rule import RulePlayer


def hand_game(hands: dict[int, str], declarer: int, contract: str) -> Game:
    """A hand game of ``declarer`` on these hands (the rest dealt to the seats not given and
    the skat), right after the declaration: forehand is to lead."""
    masks = {p: parse_mask(h) for p, h in hands.items()}
    rest = [c for c in range(32) if not sum(masks.values()) >> c & 1]
    for p in range(3):
        if p not in masks:
            masks[p], rest = sum(1 << c for c in rest[:10]), rest[10:]
    g = Game(Deal((masks[0], masks[1], masks[2]), sum(1 << c for c in rest)), ISKO)
    g.replay({0: [Pass(1), Pass(2), Bid(0, 18)], 1: [Bid(1, 18), Pass(0), Pass(2)],
              2: [Pass(1), Bid(2, 18), Pass(0)]}[declarer])
    g.push(Declare(declarer, Contract.parse(contract)))
    assert g.phase == Phase.PLAY
    return g


def rule_card(style: ev.Style, g: Game) -> str:
    """The card the rule player of ``style`` plays in ``g`` for the seat to act."""
    action = RulePlayer(0, style=style).choose(SeatView.of(g, g.to_act))
    assert isinstance(action, Play)
    return str(action.card)

"""The perfect-information player solves the one real deal exactly: no node budget, so no
answer is the evaluation's guess (a guessed "won" made it bid a game it could not win)."""

from __future__ import annotations

from engine.cards import mask_points, parse_mask
from engine.deal import Deal
from engine.players.oracle import OraclePlayer
from engine.players.rule import RulePlayer
from engine.players.solver import Solver
from engine.players.table import play_game


def test_the_oracle_does_not_bid_a_game_it_cannot_win_with_open_cards() -> None:
    """Duel seed 3's second deal: forehand's diamonds game (discarding C7 CK) makes 54 card
    points at most with all cards open, but proving it from the first lead takes about
    450,000 nodes, past the search's node budget: the budget's guess said "won", the oracle
    bid 18, declared diamonds and won only because the rule player's defence erred."""
    deal = Deal.shuffled(3_000_010)
    hands = list(deal.hands)
    discard = parse_mask("C7 CK")
    hands[0] = (hands[0] | deal.skat) & ~discard
    best = Solver(3, 0).max_points(hands, 0, ())  # diamonds, forehand declares and leads
    assert best + mask_points(discard) == 54
    for seed in range(3):
        g = play_game(deal, [OraclePlayer(seed), RulePlayer(1), RulePlayer(2)])
        assert g.result is not None and g.result.declarer != 0, g.result

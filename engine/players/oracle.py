"""The perfect-information player: the ceiling of the strength measurement, never a seat.

It sees every hand and the skat (the strength harness gives it the whole game: it declares
``sees_all``, and :func:`engine.players.table.play_game` builds its views with the game in
them) and solves the one real deal exactly: it bids to the best contract that wins with all
cards open, takes the skat or plays hand as the open cards say, declares and discards by the
same search (:class:`~engine.players.declaring.Declaring` on the real world), and lays the
card that reaches its side's goal with best play on both sides (ties: the rule player's
card). Against players who cannot see the cards it shows how far from perfect they are.

The table's controller refuses it (``[computer] player = "oracle"`` is a config error), and
it refuses a view without the game.

>>> from engine.deal import Deal
>>> from engine.players.table import play_game
>>> from engine.players.rule import RulePlayer
>>> g = play_game(Deal.shuffled(4), [OraclePlayer(1), RulePlayer(2), RulePlayer(3)])
>>> g.result is not None
True
"""

from __future__ import annotations

from engine.actions import Action, Play
from engine.contract import GameType
from engine.game import Phase
from engine.players.base import PlayerError, SeatView, require_turn
from engine.players.declaring import Declaring, Solvers
from engine.players.pimc import evaluate_world
from engine.players.rule import RulePlayer
from engine.players.solver import SearchLimitReached, Solver, tables
from engine.players.worlds import _cards_mask, _equivalent_groups, knowledge_of

_PLAYED = (GameType.CLUBS, GameType.SPADES, GameType.HEARTS, GameType.DIAMONDS,
           GameType.GRAND, GameType.NULL)


class ExactSolvers(Solvers):
    """The search's solvers without a node budget: on the one real world a question past
    the budget must not be answered by the evaluation's guess (a guess of "won" made the
    oracle bid 18 on a diamonds game it could not win, duel seed 3)."""

    def get(self, game: int, declarer: int) -> Solver:
        s = super().get(game, declarer)
        s.max_nodes = 0
        return s


class OraclePlayer:
    """Sees all cards; for the strength harness only (``make_player("oracle")``)."""

    name = "oracle"
    sees_all = True

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
        self.rule = RulePlayer(seed)
        self.declaring = Declaring(seed, rulebid=False)  # it bids by solving the real deal
        self.declaring.solvers = ExactSolvers()

    @property
    def last_bid_limit(self) -> int | None:
        """The bid limit of its last bidding decision (the duel's statistics report it)."""
        return self.declaring.last_bid_limit

    def choose(self, view: SeatView) -> Action:
        require_turn(view)
        game = view.game
        if game is None:
            raise PlayerError(
                "the oracle plays with every card open: only the strength harness can seat it"
            )
        self.declaring.truth = lambda: (list(game.hands), game.skat)
        if view.phase == Phase.PLAY and view.game_type in _PLAYED:
            plays = [a for a in view.legal if isinstance(a, Play)]
            if len(plays) > 1:
                card = self.card(view, list(game.hands), game.skat)
                return next(a for a in plays if a.card == card)
            if plays:
                return plays[0]
        if view.declarer == view.pos and view.phase == Phase.DISCARD:
            if any(a.kind == "declare" for a in view.legal):
                return self.declaring.declare(view)
            return self.declaring.discard(view)
        if view.declarer == view.pos and view.phase == Phase.SKAT:
            return self.declaring.hand_or_skat(view)
        if view.phase == Phase.BIDDING:
            return self.declaring.bid(view)
        return self.rule.choose(view)

    def card(self, view: SeatView, hands: list[int], skat: int) -> int:
        """The card that reaches this side's goal in the real deal (the rule player's among
        equally good ones)."""
        legal = [int(a.card) for a in view.legal if isinstance(a, Play)]
        t = tables(int(view.game_type))  # type: ignore[arg-type]
        remaining = 0xFFFFFFFF & ~(view.played & ~_cards_mask(view.trick)) & ~view.skat
        groups = _equivalent_groups(t, legal, view.hand, remaining)
        pool = [c for g in groups for c in g]
        if len(groups) > 1:
            k = knowledge_of(view, [g[0] for g in groups], self.seed)
            try:
                scores = evaluate_world(k, hands, skat, exact=True)
            except SearchLimitReached:
                scores = None
            if scores:
                best = max(scores)
                pool = [c for i, s in enumerate(scores) if s == best for c in groups[i]]
        choice = self.rule.card(view, _cards_mask(pool))
        return choice if choice in pool else pool[0]


__all__ = ["OraclePlayer"]

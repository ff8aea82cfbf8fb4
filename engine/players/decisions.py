"""Card-play decision quality: a player's card against the best card in the real deal.

A duel measures strength, but a game's result hangs on a few decisions and on the cards,
so telling two close versions apart takes hundreds of deals. Here the decisions are judged
one by one instead. Positions are recorded from games (:func:`record`): every card decision
of the recorded seat with a choice. For each position the real deal is solved double-dummy
for every legal card (:func:`true_results`); the position is *critical* when the card
decides whether the seat's side reaches its goal (61, or the announced level) with best
play from there on. A player's card at a critical position is an *error* when it turns a
goal the side could still reach into one it cannot (:func:`judge`).

Positions are paired: every player is asked at the same positions, so the difference of
two players' error counts needs far fewer positions than a duel needs deals. The measure
favours no sampling: the real deal is hidden from the players. It judges by double-dummy
play after the card, which real opponents do not play, so it is a measure of card play
against perfect continuation, not the points a game scores.

>>> from engine.players.rule import RulePlayer
>>> ps = record([3, 4], lambda deal_seed, pos, seat: RulePlayer(deal_seed + pos), seats=(0,))
>>> len(ps) > 0 and all(p.pos == 0 for p in ps)
True
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from engine.actions import Action, Play
from engine.deal import Deal
from engine.game import Game, Phase
from engine.players.base import Player, SeatView
from engine.players.table import play_game

__all__ = ["Error", "Judged", "Position", "QualityReport", "judge", "record", "true_results"]


@dataclass(frozen=True)
class Position:
    """A card decision: the deal (by seed), every action before it, the seat to lay."""

    deal_seed: int
    actions: tuple[Action, ...]
    pos: int

    def game(self) -> Game:
        """The game at this decision (replayed from the deal)."""
        g = Game(Deal.shuffled(self.deal_seed))
        for a in self.actions:
            g.push(a)
        return g

    def view(self) -> SeatView:
        return SeatView.of(self.game(), self.pos)


def record(deal_seeds: Iterable[int], players: Callable[[int, int, int], Player],
           seats: Sequence[int] = (0, 1, 2),
           table: Callable[[Deal, int, int], tuple[list[Player], Callable[..., None] | None,
                                                   Callable[[], None]]] | None = None,
           ) -> list[Position]:
    """The card decisions with a choice of the recorded seat, each deal played once with
    the seat at each position of ``seats``.

    ``players(deal_seed, pos, seat)`` gives the player at ``pos`` when the recorded seat is
    ``seat``; ``table(deal, seat,
    deal_seed)``, if given, seats the game instead and returns (players, the decision
    callback of ``play_game``, a close function): how an outside program plays the other
    seats (``skat-table decisions --opponent xskat``).
    """
    out: list[Position] = []
    for ds in deal_seeds:
        deal = Deal.shuffled(ds)
        for seat in seats:
            actions: list[Action] = []
            if table is not None:
                seated, observe, close = table(deal, seat, ds)
            else:
                seated = [players(ds, p, seat) for p in range(3)]
                observe, close = None, (lambda: None)
            recorder = _Recorder(seated[seat], seat, ds, actions, out)
            seated = [recorder if p == seat else seated[p] for p in range(3)]

            def on_decision(pos: int, action: Action, seconds: float,
                            actions: list[Action] = actions,
                            observe: Callable[..., None] | None = observe) -> None:
                actions.append(action)
                if observe is not None:
                    observe(pos, action, seconds)

            try:
                play_game(deal, seated, on_decision=on_decision)
            finally:
                close()
    return out


class _Recorder:
    """Plays as the recorded seat's player and notes its card decisions with a choice."""

    def __init__(self, player: Player, pos: int, deal_seed: int, actions: list[Action],
                 out: list[Position]) -> None:
        self.player = player
        self.name = getattr(player, "name", "recorded")
        self.pos, self.deal_seed, self.actions, self.out = pos, deal_seed, actions, out

    def choose(self, view: SeatView) -> Action:
        if view.phase == Phase.PLAY and sum(isinstance(a, Play) for a in view.legal) > 1:
            self.out.append(Position(self.deal_seed, tuple(self.actions), self.pos))
        return self.player.choose(view)


def true_results(position: Position) -> dict[int, bool] | None:
    """For each legal card: does the seat's side reach its goal in the real deal with best
    play after it (None: the solve could not finish).

    The real deal is solved without the node budget that bounds a player's questions (a
    budget left about 3 % of the positions unjudged, a third of them critical: 23 of 66 at
    ``--seed 1400``; solved exactly they took 27 s together, at most 1.9 s each)."""
    from engine.players.pimc import evaluate_world, knowledge_of
    from engine.players.solver import SearchLimitReached

    g = position.game()
    view = SeatView.of(g, position.pos)
    legal = [int(a.card) for a in view.legal if isinstance(a, Play)]
    try:
        scores = evaluate_world(knowledge_of(view, legal, 0), list(g.hands), g.skat,
                                exact=True)
    except SearchLimitReached:
        return None
    if scores is None:
        return None
    return {c: s >= 1 for c, s in zip(legal, scores, strict=True)}


@dataclass
class Judged:
    """One player's record over the critical positions."""

    decisions: int = 0
    errors: int = 0
    by_role: dict[str, list[int]] = field(default_factory=dict)  # role -> [decisions, errors]

    def note(self, role: str, error: bool) -> None:
        self.decisions += 1
        self.errors += error
        r = self.by_role.setdefault(role, [0, 0])
        r[0] += 1
        r[1] += error


@dataclass(frozen=True)
class Error:
    """One wrong card: who laid it, where, and the cards that keep the goal there."""

    player: str
    position: Position
    role: str
    card: int | None  # None: the player conceded
    right: tuple[int, ...]

    def describe(self) -> str:
        """The error in a line, cards by name.

        >>> from engine.cards import Card
        >>> Error("pimc", Position(7, (), 0), "defender suit", int(Card.DK),
        ...       (int(Card.D7),)).describe()
        'pimc: deal 7, forehand, defender suit, trick 1, to lead: DK (right: D7)'
        """
        from engine.cards import Card

        g = self.position.game()
        plays = [Card(int(a.card)).name for a in self.position.actions if isinstance(a, Play)]
        in_trick = plays[len(plays) - len(plays) % 3:]
        seat = ("forehand", "middlehand", "rearhand")[self.position.pos]
        game = f" ({g.contract.game.name.lower()})" if g.contract is not None else ""
        where = f"trick {len(plays) // 3 + 1}, " + (
            "after " + " ".join(in_trick) if in_trick else "to lead")
        card = Card(self.card).name if self.card is not None else "conceded"
        right = " ".join(Card(c).name for c in self.right)
        return (f"{self.player}: deal {self.position.deal_seed}, {seat}, {self.role}{game}, "
                f"{where}: {card} (right: {right})")


@dataclass
class QualityReport:
    """Positions seen, the critical ones, each player's errors, and the pairwise counts of
    positions where one player erred and the other did not (``better[a][b]``: a right, b
    wrong); ``errors`` lists every wrong card."""

    positions: int = 0
    critical: int = 0
    unsolved: int = 0
    players: dict[str, Judged] = field(default_factory=dict)
    better: dict[str, dict[str, int]] = field(default_factory=dict)
    errors: list[Error] = field(default_factory=list)


def judge(positions: Iterable[Position], players: dict[str, Callable[[Position], Player]],
          truth: Callable[[Position], dict[int, bool] | None] = true_results,
          ) -> QualityReport:
    """Each player's card at every critical position, against the real deal.

    ``players[name](position)`` builds the player that decides there (a fresh one per
    position, seeded by the caller so that runs repeat).

    >>> from engine.players.rule import RulePlayer
    >>> ps = record([3], lambda s, p, seat: RulePlayer(s + p), seats=(0,))
    >>> r = judge(ps, {"rule": lambda p: RulePlayer(p.deal_seed)})
    >>> r.positions == len(ps) and r.players["rule"].decisions == r.critical
    True
    """
    from engine.players.pimc import clear_solvers

    report = QualityReport(players={n: Judged() for n in players},
                           better={a: {b: 0 for b in players if b != a} for a in players})
    for position in positions:
        report.positions += 1
        results = truth(position)
        if results is None:
            report.unsolved += 1
            continue
        if len(set(results.values())) < 2:
            continue
        report.critical += 1
        view = position.view()
        role = "declarer" if view.declarer == position.pos else "defender"
        role += f" {_kind(view)}"
        errors = {}
        for name, make in players.items():
            # the players are asked the same worlds in turn: none on another's table
            clear_solvers()
            action = make(position).choose(view)
            # a concession where a card still reaches the goal gives the game away
            errors[name] = not isinstance(action, Play) or not results[int(action.card)]
            report.players[name].note(role, errors[name])
            if errors[name]:
                report.errors.append(Error(
                    name, position, role,
                    int(action.card) if isinstance(action, Play) else None,
                    tuple(c for c, ok in results.items() if ok)))
        for a in errors:
            for b in errors:
                if a != b and not errors[a] and errors[b]:
                    report.better[a][b] += 1
    return report


def _kind(view: SeatView) -> str:
    g = int(view.game_type) if view.game_type is not None else -1
    return "null" if g == 5 else "grand" if g == 4 else "suit"

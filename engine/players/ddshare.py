"""What the contract search saw of a game that was declared: the double-dummy win share.

The contract search (:meth:`~engine.players.declaring.Declaring.plan`) scores a contract
over sampled worlds solved double-dummy. :func:`dd_share` solves a played game the same way
(the declarer's cards, his contract and discard; the opponents' hands sampled as ``plan``
samples them, weighted by :func:`~engine.players.declaring.world_weight`; a hand game's skat
sampled too), and :class:`ShareTable` sets the shares against the real results, per game
type and share bin: the measurement behind ``declaring.CALIB_SUIT`` (docs/players.md,
"Measuring strength"; ``python -m lab.ddshare``).

>>> from engine.deal import Deal
>>> from engine.game import Game
>>> from engine.players import make_player
>>> from engine.players.table import play_game
>>> game = play_game(Deal.shuffled(12), [make_player("rule", seed=p) for p in range(3)])
>>> game.result.declarer, str(game.result.contract), game.result.won
(2, 'D', True)
>>> dd_share(game, worlds=4)
1.0
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from engine.actions import Declare, Discard, TakeSkat
from engine.game import Game
from engine.players import evaluate as ev
from engine.players.declaring import GRAND, NULL, Play, Solvers, calls, solve_play, world_weight

# share bins of the table: exactly 0, (0, 0.25), [0.25, 0.5), [0.5, 0.75), [0.75, 1), 1
BINS = ((0.0, 0.0), (0.0, 0.25), (0.25, 0.5), (0.5, 0.75), (0.75, 1.0), (1.0, 1.0))


def dd_share(game: Game, worlds: int = 24, seed: int = 0, solvers: Solvers | None = None
             ) -> float:
    """The weighted share of ``worlds`` sampled worlds in which the declarer of the finished
    ``game`` makes his contract double-dummy from the first lead (a question past the
    solver's node budget answered by the evaluation's guess, as in ``plan``).

    Raises ValueError for a game nobody declared."""
    r = game.result
    if r is None or r.declarer is None or r.contract is None or r.passed_in:
        raise ValueError("the game was not declared and played: no share to measure")
    p, c = r.declarer, r.contract
    g = int(c.game)
    deal = game.deal
    acts = list(game.actions)
    bidding = []
    for a in acts:
        if isinstance(a, (TakeSkat, Declare)):
            break
        bidding.append(a)
    said_refused = calls(bidding)
    hand = deal.hands[p]
    if c.hand:
        known, away = hand, 0
    else:
        known = hand | deal.skat
        away = sum(1 << int(a.card) for a in acts if isinstance(a, Discard))
    ten = known & ~away
    if g == NULL:
        margin = ev.null_strength(ten) - 8.5
    elif g == GRAND:
        margin = ev.grand_score(ten, p == 0) - ev.GRAND_NEED
    else:
        margin = ev.suit_strength(ten, g) - 9.0
    guess = Play(g, away, margin).guess
    solvers = solvers or Solvers()
    others = [x for x in range(32) if not known >> x & 1]
    rng = random.Random(f"ddshare:{seed}:{known}:{p}")
    won_w = total_w = 0.0
    for _ in range(worlds):
        rng.shuffle(others)
        hands = [0, 0, 0]
        hands[p] = ten
        hands[(p + 1) % 3] = sum(1 << x for x in others[:10])
        hands[(p + 2) % 3] = sum(1 << x for x in others[10:20])
        skat = sum(1 << x for x in others[20:22]) if c.hand else away
        w = world_weight(hands, p, said_refused)
        won, _ = solve_play(solvers, g, p, hands, skat, None, guess, hidden=c.hand,
                            schneider=False)
        won_w += w * won
        total_w += w
    return won_w / total_w if total_w else 0.0


def kind(game: int) -> str:
    """``suit``, ``grand`` or ``null``."""
    return "null" if game == NULL else "grand" if game == GRAND else "suit"


@dataclass
class ShareTable:
    """Declared games by game type and double-dummy share bin: how many, and how many won
    at the table.

    >>> t = ShareTable()
    >>> t.add(0, 0.0, False); t.add(0, 0.0, True); t.add(4, 1.0, True)
    >>> print("\\n".join(t.lines()))
    share                   suit           grand            null
    0                  1/2  50 %       0/0             0/0
    (0, 0.25)          0/0             0/0             0/0
    [0.25, 0.5)        0/0             0/0             0/0
    [0.5, 0.75)        0/0             0/0             0/0
    [0.75, 1)          0/0             0/0             0/0
    1                  0/0             1/1 100 %       0/0
    """

    cells: dict[tuple[str, int], list[int]] = field(default_factory=dict)

    def add(self, game: int, share: float, won: bool) -> None:
        b = next(i for i, (lo, hi) in enumerate(BINS)
                 if (lo == hi == share) or (lo <= share < hi and not (lo == 0.0 == share)))
        cell = self.cells.setdefault((kind(game), b), [0, 0])
        cell[0] += won
        cell[1] += 1

    def lines(self) -> list[str]:
        names = ["0", "(0, 0.25)", "[0.25, 0.5)", "[0.5, 0.75)", "[0.75, 1)", "1"]
        out = [f"{'share':12}" + "".join(f"{k:>16}" for k in ("suit", "grand", "null"))]
        for b, name in enumerate(names):
            row = f"{name:12}"
            for k in ("suit", "grand", "null"):
                won, n = self.cells.get((k, b), [0, 0])
                pct = f"{100 * won / n:.0f} %" if n else ""
                row += f"{f'{won}/{n}':>10}{pct:>6}"
            out.append(row.rstrip())
        return out


__all__ = ["BINS", "ShareTable", "dd_share", "kind"]

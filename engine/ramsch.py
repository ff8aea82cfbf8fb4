"""Ramsch (house rule, rule set ``pub``): played when all three pass.

Conventions of this table (each switched by a ``Rules`` flag, see ``engine.game.Rules``):

- Jacks are the only trumps (as in grand); nobody declares; forehand leads.
- The skat goes to the winner of the last trick.
- The player with the most card points loses them: his sheet entry is minus those points
  (not doubled as a lost game is).
- Ties: every player with the most points loses them; at 40/40/40 all three lose 40.
- Jungfrau (``ramsch_jungfrau``): each player who took no trick doubles the loss.
- Durchmarsch (``ramsch_durchmarsch``): a player who takes all ten tricks scores +120
  (fixed; no doubling). Without this rule he simply loses his 120 points, doubled twice for
  the two Jungfrau.
- Schieberamsch (``schieberamsch``): before the first trick each player in turn (forehand,
  middlehand, rearhand) may take the skat and push two cards on, or pass it on; each push
  doubles the loss. Jacks may not be pushed unless ``schieberamsch_jacks`` is set.

>>> from engine.cards import parse_mask
>>> r = score_ramsch((parse_mask("CA ST SK HA"), parse_mask("DA DT"), parse_mask("CT HT")),
...                  (4, 3, 3), skat=parse_mask("D7 D8"), last_winner=0, pushes=0)
>>> r.ramsch_points, r.losers, r.position_values
((36, 21, 20), (0,), (-36, 0, 0))
"""

from __future__ import annotations

from engine.cards import mask_points
from engine.contract import Contract, GameType
from engine.scoring import GameResult

RAMSCH_CONTRACT = Contract(GameType.RAMSCH)


def score_ramsch(won: tuple[int, int, int], tricks: tuple[int, int, int], skat: int,
                 last_winner: int, pushes: int, jungfrau: bool = True,
                 durchmarsch: bool = True, ending: str = "played") -> GameResult:
    """Score a Ramsch from the cards each position took (``won``) and its tricks."""
    pts = [mask_points(won[p]) for p in range(3)]
    pts[last_winner] += mask_points(skat)
    points = (pts[0], pts[1], pts[2])
    if durchmarsch:
        for p in range(3):
            if tricks[p] == 10:
                pv = [0, 0, 0]
                pv[p] = 120
                return GameResult(
                    declarer=None, contract=RAMSCH_CONTRACT, bid=0, won=True, value=120,
                    multiplier=1, ending=ending, breakdown=(("durchmarsch", 120),),
                    position_values=(pv[0], pv[1], pv[2]), ramsch_points=points,
                    durchmarsch=p, pushes=pushes,
                )
    top = max(points)
    losers = tuple(p for p in range(3) if points[p] == top)
    maidens = tuple(p for p in range(3) if tricks[p] == 0) if jungfrau else ()
    factor = 1
    bd: list[tuple[str, int]] = [("ramsch", top)]
    for _ in maidens:
        factor *= 2
        bd.append(("jungfrau", factor))
    for _ in range(pushes):
        factor *= 2
        bd.append(("pushed", factor))
    value = top * factor
    pv = [-value if p in losers else 0 for p in range(3)]
    return GameResult(
        declarer=None, contract=RAMSCH_CONTRACT, bid=0, won=False, value=-value,
        multiplier=factor, ending=ending, breakdown=tuple(bd),
        position_values=(pv[0], pv[1], pv[2]), ramsch_points=points, losers=losers,
        jungfrau=maidens, pushes=pushes,
    )

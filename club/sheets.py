"""The lists as a tournament director reads them, shared by the pages and the exports.

A table's list is the paper Seeger-Fabian list: one line per deal (number, dealer, declarer,
contract, the value in the declarer's column and each player's running sum), then per player
the points, won and lost games (x 50), the defenders' bonus (lost games of the others x 40 at
three, x 30 at four) and the Seeger-Fabian result.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from club.i18n import translator
from club.scoring import ScoredGame


def contract_text(contract: str | None, passed_in: bool | None = None,
                  language: str = "de") -> str:
    """Words for a contract in ISS notation: ``"CH"`` -> ``"Kreuz Hand"``. No contract is a
    passed-in game, unless ``passed_in`` is False: a game typed from a paper list that does
    not say what was played. The words are the club's language's (``club.i18n``).

    >>> contract_text("GHZ"), contract_text("NO"), contract_text(None)
    ('Grand Hand Schwarz angesagt', 'Null Ouvert', 'eingepasst')
    >>> contract_text(None, passed_in=False), contract_text("SH", language="fr")
    ('–', 'Pique Hand')
    """
    return translator(language).contract(contract, passed_in)


@dataclass
class SheetLine:
    game: ScoredGame
    running: list[int]
    corrected: bool
    reason: str = ""


@dataclass
class SheetSums:
    points: int = 0
    won: int = 0
    lost: int = 0
    others_lost: int = 0
    bonus: int = 0
    sf: int = 0


@dataclass
class TableSheet:
    series: int
    table: str
    players: list[tuple[str, str]]          # (id, name) by seat
    games_due: int
    lines: list[SheetLine] = field(default_factory=list)
    sums: list[SheetSums] = field(default_factory=list)

    @property
    def bonus_per_game(self) -> int:
        return 40 if len(self.players) == 3 else 30


def table_sheet(service: Any, series: int, table: str) -> TableSheet | None:
    seating = service.store.seating(series).get(table)
    if seating is None:
        return None
    names = service.players()
    sheet = TableSheet(series, table, [(p, names.get(p, (p, ""))[0]) for p in seating],
                       service.config.tournament.games_for(len(seating)))
    n = len(seating)
    running = [0] * n
    sums = [SheetSums() for _ in range(n)]
    for g in service.games(series=series, table=table):
        if not g.annulled:
            for s in range(n):
                running[s] += g.scores[s]
                sums[s].points += g.scores[s]
                sums[s].sf += g.sf[s]
                if g.declarer == s and g.won is not None:
                    if g.won:
                        sums[s].won += 1
                    else:
                        sums[s].lost += 1
                elif g.won is False:
                    sums[s].others_lost += 1
                    sums[s].bonus += g.sf[s] - g.scores[s]
        corrected = service.is_corrected(g.game_id)
        reason = ""
        if corrected:
            audit = service.store.corrections(g.game_id)
            reason = audit[-1].reason if audit else ""
        sheet.lines.append(SheetLine(g, list(running), corrected, reason))
    sheet.sums = sums
    return sheet


@dataclass
class PlayerStats:
    deals: int = 0
    declared: int = 0
    won: int = 0
    lost: int = 0
    contracts: Counter[str] = field(default_factory=Counter)   # by the game's ISS letter
    value_sum: int = 0
    sf: int = 0

    @property
    def won_share(self) -> float:
        return self.won / self.declared if self.declared else 0.0

    @property
    def average_value(self) -> float:
        return self.value_sum / self.declared if self.declared else 0.0


def player_stats(games: list[ScoredGame], pid: str) -> PlayerStats:
    st = PlayerStats()
    for g in games:
        if g.annulled or pid not in g.players:
            continue
        seat = g.players.index(pid)
        st.deals += 1
        st.sf += g.sf[seat]
        if g.declarer == seat and g.won is not None:
            st.declared += 1
            st.won += g.won
            st.lost += not g.won
            st.value_sum += g.value
            st.contracts[(g.contract or "?")[0]] += 1
    return st

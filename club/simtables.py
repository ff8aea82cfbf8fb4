"""Simulated tables for tests and the bench: real engine games, published as a table would.

Each table plays its series through ``engine.series.Series`` (random legal moves, ISkO) and
turns every finished deal into the game message of docs/club-link.md ("The contract"):
``result`` is the deal's ``replay --json`` entry, ``iss`` the engine's ISS record.

>>> t = SimTable("herbst", 1, "3", ["p1", "p2", "p3"], seed=7)
>>> m = t.play_one()
>>> m["id"], m["revision"], m["dealer"], sorted(m["result"])[:3]
('herbst/1/3/1', 1, 0, ['bid', 'contract', 'dealer'])
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from typing import Any

from engine.actions import Bid, Declare, Hold, Pass, Play, TakeSkat
from engine.cards import Rank, mask_cards
from engine.contract import GameType
from engine.deal import Deal
from engine.game import Game, Phase
from engine.iss import game_to_record
from engine.series import Series


class SimTable:
    """One table of a tournament series, playing random legal games."""

    def __init__(self, tournament: str, series: int, table: str, players: Sequence[str],
                 seed: int | str = 0, games: int | None = None) -> None:
        self.tournament = tournament
        self.series_no = series
        self.table = table
        self.players = list(players)
        self.games = games if games is not None else (48 if len(players) == 4 else 36)
        self.rng = random.Random(f"{seed}/{tournament}/{series}/{table}")
        self.series = Series(self.players, first_dealer=0, scoring="seeger-fabian",
                             length=self.games)

    @property
    def finished(self) -> bool:
        return self.series.finished

    def play_one(self) -> dict[str, Any]:
        """Play the next deal to its end and return its game message (revision 1)."""
        number = self.series.number
        dealer = self.series.dealer
        names = self.series.names()
        game = self.series.new_game(Deal.random(self.rng))
        limits = [self.rng.choice(_LIMITS) for _ in range(3)]
        while game.phase != Phase.FINISHED:
            game.push(self._choose(game, limits))
        entry = self.series.finish_game()
        result = entry.to_json()
        iss = game_to_record(game, players=names)
        return {
            "id": f"{self.tournament}/{self.series_no}/{self.table}/{number}",
            "revision": 1,
            "tournament": self.tournament,
            "series": self.series_no,
            "table": self.table,
            "game": number,
            "players": list(self.players),
            "dealer": dealer,
            "result": result,
            "iss": iss,
            "at": "",
        }

    def _choose(self, game: Game, limits: list[int]) -> object:
        """Plausible rather than clever: bid up to a drawn limit, mostly take the skat,
        declare plain contracts, play a random legal card."""
        actions = game.legal_actions()
        rng = self.rng
        if game.phase == Phase.BIDDING:
            pos = game.to_act
            assert pos is not None
            for a in actions:
                if isinstance(a, Bid) and a.value <= limits[pos]:
                    return a
                if isinstance(a, Hold) and game.bid <= limits[pos]:
                    return a
            return next(a for a in actions if isinstance(a, Pass))
        if game.phase == Phase.SKAT:
            take = [a for a in actions if isinstance(a, TakeSkat)]
            if take and rng.random() < 0.85:
                return take[0]
        declares = [a for a in actions if isinstance(a, Declare)]
        if declares and (len(declares) == len(actions) or rng.random() < 0.3):
            plain = [a for a in declares if not (a.contract.ouvert or a.contract.schneider)]
            if plain and rng.random() < 0.8:
                return max(plain, key=lambda a: _strength(game, a) + rng.random())
            return rng.choice(plain or declares)
        if game.phase == Phase.PLAY and game.to_act == game.declarer and rng.random() < 0.8:
            strongest = game.legal_cards()[0]
            for a in actions:
                if isinstance(a, Play) and a.card == strongest:
                    return a
        others = [a for a in actions if not isinstance(a, Declare)]
        return rng.choice(others or actions)


def _strength(game: Game, declare: Declare) -> float:
    """How well the declarer's cards suit a contract: trumps (jacks twice) for a suit game,
    jacks and aces for a grand; null only with no jack and no ace."""
    cards = mask_cards(game.hand(declare.pos))
    jacks = sum(c.rank == Rank.JACK for c in cards)
    aces = sum(c.rank == Rank.ACE for c in cards)
    kind = declare.contract.game
    if kind == GameType.GRAND:
        return 2.0 * jacks + aces - 3
    if kind == GameType.NULL:
        return 6.0 if jacks == 0 and aces == 0 else -5.0
    return 2.0 * jacks + sum(c.suit == kind and c.rank != Rank.JACK for c in cards)


_LIMITS = (0, 0, 18, 18, 20, 23, 24, 27, 30, 33, 36, 40, 46, 48, 59)


def topic(club: str, table: str, kind: str = "game") -> str:
    return f"skat/{club}/table/{table}/{kind}"


def encode(message: dict[str, Any]) -> bytes:
    return json.dumps(message, ensure_ascii=False).encode("utf-8")

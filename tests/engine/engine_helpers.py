"""Small builders for engine tests: a game from ISS-like tokens, and random legal games."""

from __future__ import annotations

import random
from collections.abc import Callable

from engine.actions import Action, Bid, Declare, Discard, Hold, Pass, Play, TakeSkat
from engine.cards import Card
from engine.contract import Contract
from engine.deal import Deal
from engine.game import ISKO, Game, GameResult, Phase, Rules


def game_from_tokens(deal: str, moves: str, rules: Rules = ISKO) -> Game:
    """Replay ISS-style moves: ``"1 p 2 p 0 18 0 s 0 S 0 C9 0 C7 0 SJ ..."``.

    In the bidding a number bids, ``y`` holds, ``p`` passes; ``s`` takes the skat; a contract
    in ISS notation declares; after a pick-up the next two cards are discards; then cards.
    """
    g = Game(Deal.from_iss(deal), rules)
    t = moves.split()
    for pos, word in zip(t[0::2], t[1::2], strict=True):
        g.push(action_for(g, int(pos), word))
    return g


def action_for(g: Game, p: int, word: str) -> Action:
    if g.phase == Phase.BIDDING:
        return Hold(p) if word == "y" else Pass(p) if word == "p" else Bid(p, int(word))
    if word == "s":
        return TakeSkat(p)
    if g.phase in (Phase.SKAT, Phase.DISCARD) and word[0] in "GCSHDN" and (
        len(word) == 1 or word[1] not in "789TJQKA"
    ):
        return Declare(p, Contract.parse(word))
    if g.phase == Phase.DISCARD:
        return Discard(p, Card.parse(word))
    return Play(p, Card.parse(word))


def random_game(rng: random.Random, rules: Rules = ISKO, deal: Deal | None = None) -> Game:
    """A random legal game played to its end through legal_actions (no concessions)."""
    g = Game(deal or Deal.random(rng), rules)
    while g.phase != Phase.FINISHED:
        acts = g.legal_actions()
        assert acts, f"no legal action in phase {g.phase}"
        if g.phase == Phase.BIDDING:
            # pass often so that the bidding ends at sensible values
            passes = [a for a in acts if isinstance(a, Pass)]
            others = [a for a in acts if not isinstance(a, Pass)][:6]
            acts = passes * 2 + others
        g.push(rng.choice(acts))
    return g


def find_playout(g: Game, wanted: Callable[[GameResult], bool], seed: int = 0,
                 tries: int = 3000) -> Game:
    """The first random playout (cards only, seeded) from ``g`` whose result satisfies
    ``wanted(result)``; the search is deterministic, so a test using it is too."""
    rng = random.Random(seed)
    for _ in range(tries):
        h = g.copy()
        while h.phase == Phase.PLAY:
            h.push(rng.choice([a for a in h.legal_actions() if isinstance(a, Play)]))
        if h.result is not None and wanted(h.result):
            return h
    raise AssertionError("no playout found with the wanted result")

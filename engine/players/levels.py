"""Levels a table can choose: named computer players for people of every strength.

``[computer] level = "beginner" | "club" | "expert"`` (docs/players.md, "Levels"):

- ``beginner``: the rule player's sense (it follows suit, counts trumps, never throws an ace
  on a trick the opponents take) with a beginner's mistakes: it misjudges its hand in the
  bidding, now and then smears points on a trick that is not yet safe or takes a trick
  cheaply when its partner already has it (:class:`~engine.players.beginner.BeginnerPlayer`);
- ``club``: the rule player (decides at once, a little ahead of XSkat 4.0);
- ``expert``: the PIMC player at its level's budget, on all the cores it is given.

Budgets are seconds a decision on these machines; ``budget_share`` scales them (a third
stands for a Raspberry Pi 4, whose cores are about three times slower).

>>> LEVELS["expert"].player, LEVELS["club"].player
('pimc', 'rule')
>>> make_level_player("club", seed=1).name
'club'
>>> make_level_player("kermit") is None
True
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.players.base import Player

LEVEL_NAMES = ("beginner", "club", "expert")
DEFAULT_LEVEL = "club"


@dataclass(frozen=True)
class Level:
    """One level: the player it is built on, its budget and what it is like."""

    name: str
    player: str
    budget_s: float
    about: str


LEVELS = {
    "beginner": Level("beginner", "beginner", 0.0,
                      "follows suit and counts trumps; misjudges bids and throws points now "
                      "and then"),
    "club": Level("club", "rule", 0.0, "a steady club player; decides at once"),
    "expert": Level("expert", "pimc", 0.3,
                    "searches sampled deals to the last card; strongest, uses every core"),
}


def parse_level(name: str) -> tuple[Level, float] | None:
    """A level's name, or ``LEVEL/N`` (the strength lab: that level at 1/N of its budget),
    as the level and its budget share; None when ``name`` is neither.

    >>> parse_level("expert/3")[0].name, round(parse_level("expert/3")[1], 3)
    ('expert', 0.333)
    >>> parse_level("expert/0") is None, parse_level("pimc") is None
    (True, True)
    """
    key, _, div = name.strip().lower().partition("/")
    level = LEVELS.get(key)
    if level is None:
        return None
    if not div:
        return level, 1.0
    try:
        n = float(div)
    except ValueError:
        return None
    return (level, 1.0 / n) if n >= 1 else None


def make_level_player(name: str, seed: int = 0, budget_share: float = 1.0,
                      workers: int | None = None) -> Player | None:
    """The player of level ``name`` (None when ``name`` is not a level; ``LEVEL/N`` as
    :func:`parse_level`).

    ``budget_share`` scales the level's budget (the strength lab measures a Pi this way);
    ``workers`` the PIMC player's processes (default: the cores).
    """
    parsed = parse_level(name)
    if parsed is None:
        return None
    level, share = parsed
    budget_share *= share
    if level.player == "beginner":
        from engine.players.beginner import BeginnerPlayer

        b = BeginnerPlayer(seed)
        b.name = name.strip().lower()
        return b
    from engine.players import make_player

    p = make_player(level.player, seed=seed, budget=max(0.01, level.budget_s * budget_share),
                    workers=workers)
    p.name = name.strip().lower()  # type: ignore[misc]
    return p

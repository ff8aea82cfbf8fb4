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
>>> parse_level("club")[0].about
'a steady club player; decides at once'

``engine.players.make_player`` builds a level's player by its name (``LEVEL/N`` too).
"""

from __future__ import annotations

from dataclasses import dataclass

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

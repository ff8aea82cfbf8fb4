"""The computer's level chosen on the kiosk: which level plays which deal.

A choice on the settings screen never changes the player of a game under way: it plays from
the next deal on. So the choice is kept as a :class:`LevelChange`: the level chosen, the deal
it plays from (the series' journal number and the deal's number) and the level the deals
before it play at. It is kept with the kiosk's other settings (``firmware_host.series.
settings``), written before the first computer decision it could touch, so after a power cut
the deal under way comes back with the player it started with and the next deal gets the
level chosen.

The kiosk's choice only counts where the config leaves the level to the table: a club table
(``[club]``: tournament play) and a config that names a player (``player = "pimc"``) keep
the config's.

>>> change = LevelChange("expert", series=3, deal=5, before="club")
>>> change.level_for(3, 4), change.level_for(3, 5), change.level_for(4, 1)
('club', 'expert', 'expert')
>>> LevelChange.from_json(change.to_json(), "expert") == change
True
>>> level_for(None, "club", series=3, deal=7)
'club'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

# The levels the kiosk offers, weakest first (engine.players.levels.LEVEL_NAMES: a test
# checks they are the same; this module stays free of the engine).
LEVELS: tuple[str, ...] = ("beginner", "club", "expert")


class LevelChoiceError(ValueError):
    """A kept level change that cannot be read."""


@dataclass(frozen=True)
class LevelChange:
    """``level`` plays from deal ``deal`` of series ``series`` on; earlier deals at
    ``before`` (both levels: :data:`LEVELS`)."""

    level: str
    series: int
    deal: int
    before: str

    def level_for(self, series: int, deal: int) -> str:
        """The level deal ``deal`` of series ``series`` is played at."""
        return self.level if (series, deal) >= (self.series, self.deal) else self.before

    def to_json(self) -> dict[str, Any]:
        return {"series": self.series, "deal": self.deal, "before": self.before}

    @classmethod
    def from_json(cls, data: Any, level: str | None = None) -> LevelChange:
        """The change kept as ``{"series", "deal", "before"}`` (the level itself is the
        setting ``level``); :class:`LevelChoiceError` for anything else.

        >>> try:
        ...     LevelChange.from_json({"series": 1, "deal": "x", "before": "club"}, "expert")
        ... except LevelChoiceError as exc:
        ...     print(exc)
        level_from: series and deal are numbers, before a level
        """
        if not isinstance(data, dict):
            raise LevelChoiceError("level_from: not a JSON object")
        series, deal, before = data.get("series"), data.get("deal"), data.get("before")
        if not (type(series) is int and type(deal) is int and before in LEVELS):
            raise LevelChoiceError("level_from: series and deal are numbers, before a level")
        return cls(level or "", series, deal, before)


def fixed_by(config: Any) -> str:
    """Why the kiosk cannot choose the level at this table: ``"club"`` (a club table plays
    tournaments at the config's level), ``"config"`` (the config names a player rather
    than a level), or ``""`` (it can).

    >>> from firmware_host.config import simulated_config
    >>> fixed_by(simulated_config())
    ''
    """
    if getattr(config, "club", None) is not None:
        return "club"
    if config.computer.player not in LEVELS:
        return "config"
    return ""


def level_for(change: LevelChange | None, configured: str, series: int, deal: int) -> str:
    """The level deal ``deal`` of series ``series`` plays at: the kiosk's change, or the
    config's level (``configured``) where nothing was chosen."""
    return configured if change is None else change.level_for(series, deal)


def choose(change: LevelChange | None, configured: str, level: str, series: int,
           deal: int) -> LevelChange:
    """The change after ``level`` was chosen during deal ``deal`` of series ``series`` (or
    after it, before the next is dealt): it plays from the next deal; this deal keeps the
    level it has.

    >>> c = choose(None, "club", "expert", series=2, deal=4)
    >>> c
    LevelChange(level='expert', series=2, deal=5, before='club')
    >>> choose(c, "club", "beginner", series=2, deal=4).before  # deal 4 is still the club's
    'club'
    >>> choose(c, "club", "beginner", series=2, deal=5).before
    'expert'
    """
    return LevelChange(level, series, deal + 1,
                       level_for(change, configured, series, deal))

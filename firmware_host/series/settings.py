"""The kiosk's settings: what a person chose on the settings screen, kept across restarts.

The computer's pace in the simulator, the order of a hand (trump first, the suit order), the
language, the card faces, the sounds, the hints and the computer's level (with the deal it
plays from: ``level_from``, see ``firmware_host.series.levelchoice``). The config gives the
table's defaults; a choice made on the kiosk is kept in a small JSON file beside the journal
(``journal.sqlite`` -> ``journal.settings.json``) and wins over the config's default until it
is changed again there (deleting the file returns every setting to the config).

Why a file and not the journal: the journal is the table's memory of the game, and a series
is replayed from it as a pure function of its inputs; a settings record would be something
every reader of the journal (resume, undo, export, the club link, an older skat-table, to
which an unknown record kind is damage) had to step over, and a new series or a repaired
journal must not lose the table's language. The file is written whole and atomically (a
temporary file, fsync, rename, fsync of the folder): a power cut leaves the old settings or
the new, never half of them. A file that cannot be read is said once in the log and the
defaults are used; one that cannot be written leaves the choice in force until the table
stops (said in the log too). Keys this version does not know are kept as they are.

>>> s = KioskSettings().changed("speed", "fast").changed("sound", False)
>>> s.to_json()
{'speed': 'fast', 'sound': False}
>>> KioskSettings.from_json({"speed": "warp", "hints": True, "later": 1}).to_json()
{'later': 1, 'hints': True}
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import tempfile
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import Any

from firmware_host.config import LANGUAGES
from firmware_host.series.levelchoice import LEVELS, LevelChange, LevelChoiceError

log = logging.getLogger("skat-table")

# The simulator's pace per speed: (seconds between two computer cards, seconds a complete
# trick stays before a computer leads again). "normal" is the pace the simulator always had.
SPEEDS: dict[str, tuple[float, float]] = {
    "slow": (1.2, 2.5), "normal": (0.6, 1.5), "fast": (0.25, 0.8),
}
SUIT_ORDERS = ("CSHD", "CHSD")
CARD_STYLES = ("french", "four-colour", "german")  # as display.view and [display] deck_style
SUFFIX = ".settings.json"
MAX_BYTES = 64_000  # a settings file is a few hundred bytes


class SettingError(ValueError):
    """A setting that does not exist, or a value it cannot take."""


# Each setting and the values it may take (None in a KioskSettings: not chosen on the kiosk,
# the config's default holds). The misplay guard's setting belongs here too.
CHOICES: dict[str, tuple[Any, ...]] = {
    "language": LANGUAGES, "card_style": CARD_STYLES, "speed": tuple(SPEEDS),
    "trump_first": (True, False), "suit_order": SUIT_ORDERS, "sound": (True, False),
    "hints": (True, False), "level": LEVELS,
}


@dataclass(frozen=True)
class KioskSettings:
    """The choices made on the kiosk; None where nobody chose (the default holds)."""

    language: str | None = None
    card_style: str | None = None
    speed: str | None = None
    trump_first: bool | None = None
    suit_order: str | None = None
    sound: bool | None = None
    hints: bool | None = None
    level: str | None = None
    # The deal the level plays from and the level before it (levelchoice.LevelChange; its
    # ``level`` is the one above). None with a level: from the first deal on.
    level_from: LevelChange | None = None
    # What a newer skat-table (or another part of this one) wrote and this one does not
    # read: written back as it was.
    other: tuple[tuple[str, Any], ...] = ()

    def changed(self, name: str, value: Any) -> KioskSettings:
        """These settings with ``name`` set to ``value``; :class:`SettingError` for a setting
        or value that does not exist."""
        allowed = CHOICES.get(name)
        if allowed is None:
            raise SettingError(f"there is no setting {name!r}")
        # (True == 1 in Python: a bool setting takes a bool, nothing else)
        if not any(value == a and type(value) is type(a) for a in allowed):
            raise SettingError(f"{name} cannot be {value!r}: one of "
                               f"{', '.join(map(repr, allowed))}")
        return replace(self, **{name: value})

    def with_level(self, change: LevelChange) -> KioskSettings:
        """These settings with the computer's level chosen: ``change`` (its level checked as
        :meth:`changed` checks it)."""
        return replace(self.changed("level", change.level), level_from=change)

    @property
    def level_change(self) -> LevelChange | None:
        """The level chosen and the deal it plays from (None: nothing chosen); a level kept
        without its deal plays from the first deal on.

        >>> KioskSettings(level="expert").level_change
        LevelChange(level='expert', series=0, deal=0, before='expert')
        """
        if self.level is None:
            return None
        if self.level_from is None:
            return LevelChange(self.level, 0, 0, self.level)
        return replace(self.level_from, level=self.level)

    def to_json(self) -> dict[str, Any]:
        out = {f.name: getattr(self, f.name) for f in fields(self)
               if f.name not in ("other", "level_from") and getattr(self, f.name) is not None}
        if self.level_from is not None:
            out["level_from"] = self.level_from.to_json()
        return {**dict(self.other), **out}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> KioskSettings:
        """The settings a file holds; a value this version cannot take is left out (its
        default holds), said in the log; unknown keys are kept in ``other``."""
        settings = cls()
        other = []
        for name, value in data.items():
            if name == "level_from":
                continue  # read with the level, below
            if name not in CHOICES:
                other.append((name, value))
                continue
            try:
                settings = settings.changed(name, value)
            except SettingError as exc:
                log.warning("settings: %s (the default holds)", exc)
        if settings.level is not None and "level_from" in data:
            try:
                settings = replace(settings, level_from=LevelChange.from_json(
                    data["level_from"], settings.level))
            except LevelChoiceError as exc:
                log.warning("settings: %s (the level chosen plays from now on)", exc)
        return replace(settings, other=tuple(other))


def settings_path(journal_path: str | Path | None) -> Path | None:
    """Where the settings of the table whose journal is at ``journal_path`` are kept: beside
    it (None without a journal file: the settings last as long as the table runs).

    >>> str(settings_path("/var/lib/skat-table/journal.sqlite"))
    '/var/lib/skat-table/journal.settings.json'
    >>> settings_path(":memory:") is None, settings_path(None) is None
    (True, True)
    """
    if journal_path is None or str(journal_path) == ":memory:":
        return None
    path = Path(journal_path)
    return path.with_name(path.stem + SUFFIX)


class SettingsFile:
    """The settings file: read once when the table starts, written whole at each change."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self.problem: str | None = None  # why the last write failed (the log says it too)

    def load(self) -> KioskSettings:
        if self.path is None:
            return KioskSettings()
        try:
            with self.path.open("rb") as fh:
                raw = fh.read(MAX_BYTES + 1)
            if len(raw) > MAX_BYTES:
                raise ValueError(f"larger than {MAX_BYTES} bytes")
            data = json.loads(raw.decode("utf-8"))
            if not isinstance(data, dict):
                raise ValueError("not a JSON object")
        except FileNotFoundError:
            return KioskSettings()
        except (OSError, ValueError) as exc:  # (UnicodeDecodeError and JSON errors too)
            log.warning("settings: cannot read %s (%s): the config's defaults hold", self.path,
                        exc)
            return KioskSettings()
        return KioskSettings.from_json(data)

    def save(self, settings: KioskSettings) -> bool:
        """Write the settings atomically; False (and said in the log) when the storage does
        not take them: they hold until the table stops."""
        if self.path is None:
            return False
        text = json.dumps(settings.to_json(), indent=1, sort_keys=True, ensure_ascii=False)
        tmp: str | None = None
        try:
            fd, tmp = tempfile.mkstemp(prefix=self.path.name + ".", suffix=".tmp",
                                       dir=self.path.parent)
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                fh.write(text + "\n")
                fh.flush()
                os.fsync(fh.fileno())
            os.replace(tmp, self.path)
            tmp = None
            _sync_folder(self.path.parent)
        except OSError as exc:
            self.problem = str(exc)
            log.warning("settings: cannot keep them in %s (%s): they hold until the table "
                        "stops", self.path, exc)
            return False
        finally:
            if tmp is not None:
                with contextlib.suppress(OSError):
                    os.unlink(tmp)
        self.problem = None
        return True


def _sync_folder(folder: Path) -> None:
    """The rename itself survives a power cut only once the folder is synced."""
    fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    try:
        os.fsync(fd)
    finally:
        os.close(fd)

"""A table's journal with several finished series, for the archive's and the statistics'
tests: the recorded simulator series of ``tests/data/scripts`` journalled as the live table
journals them (checkpoints, bounded), with other players' names at other seats, a series
broken off after a passed-in deal, one broken off before any deal, and one still open.

The statistics these series make, counted by hand from each deal's sheet entry (the
``replay --json`` of each script; Seeger-Fabian: the value +50 to a declarer who won, -50 to
one who lost and +40 to each defender at three, +30 to each of the three others at four):

=========  ======  =====  ========  ===  ===================  ==============
player     series  games  declared  won  Seeger-Fabian (sum)  best game
=========  ======  =====  ========  ===  ===================  ==============
Anna       4       15     5         4    -6+244+246+0 = 484   +156 CH (3, 3)
Ben        4       15     7         6    30+476+270+0 = 776   +180 CH (3, 1)
Carla      4       15     5         3    273-72-290+0 = -89   +60 H (1, 6)
Dieter     1       6      0         0    30                   none
=========  ======  =====  ========  ===  ===================  ==============
"""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent / "data"

# (config, script, players by seat) of the finished series, in the order played
SERIES = (
    ("three-series.toml", "series-three.jsonl", ("Anna", "Ben", "Carla")),
    ("four-sf.toml", "series-four-sf.jsonl", ("Anna", "Ben", "Carla", "Dieter")),
    ("three-stake.toml", "stake-three.jsonl", ("Ben", "Carla", "Anna")),
)
# what the table above says, as the archive gives it: name -> (series, games, declared,
# won, Seeger-Fabian sum, best (value, contract, series, game) or None)
EXPECTED = {
    "Anna": (4, 15, 5, 4, 484, (156, "CH", 3, 3)),
    "Ben": (4, 15, 7, 6, 776, (180, "CH", 3, 1)),
    "Carla": (4, 15, 5, 3, -89, (60, "H", 1, 6)),
    "Dieter": (1, 6, 0, 0, 30, None),
}
# each finished series' totals by seat: standard, Seeger-Fabian; games; played to its end
SERIES_TOTALS = {
    1: ((-46, -10, 93), (-6, 30, 273), 6, True),
    2: ((114, 246, -72, 0), (244, 476, -72, 30), 8, True),
    3: ((180, -240, 156), (270, -290, 246), 3, True),
    4: ((0, 0, 0), (0, 0, 0), 1, False),
}


def config_of(name: str, players: tuple[str, ...]) -> Any:
    """A test config with other names at its seats (the scripts name tags, not players)."""
    from firmware_host.config import parse_config

    raw = tomllib.loads((ROOT / "configs" / name).read_text(encoding="utf-8"))
    raw["table"]["players"] = list(players)
    raw["table"].pop("stake", None)
    raw["table"].pop("cap", None)
    return parse_config(raw, base_dir=ROOT / "configs")


def session_of(journal: Any, config: Any) -> Any:
    """A session as the live table keeps its journal (no computer seats: the scripts hold
    every press)."""
    from firmware_host.series.session import Session

    session = Session(config, journal, new_series_after_last=True)
    session.resume()
    return session


def play_script(session: Any, script: str) -> None:
    for n, line in enumerate((ROOT / "scripts" / script).read_text(
            encoding="utf-8").splitlines(), 1):
        session.submit_json(json.loads(line), "table", n)


def passed_in_deal(session: Any) -> None:
    """Every card dealt, then middlehand, rearhand and forehand pass: passed in."""
    from engine.deal import Deal
    from firmware_host.table.inputs import Press, TagLaid

    tags = session.config.card_tags()
    for card in Deal.shuffled(5).dealt_order():
        assert session.submit(TagLaid("deal", tags[card])).accepted
    fh, mh, rh = session.table.deal.seats
    for seat in (mh, rh, fh):
        assert session.submit(Press(seat, "pass")).accepted, seat
    assert session.table.phase == "scored"


def write_journal(path: Path) -> Path:
    """The journal of the module docstring at ``path``; returns ``path``."""
    from firmware_host.series.journal import Journal

    journal = Journal.open(path)
    try:
        for config, script, players in SERIES:
            session = session_of(journal, config_of(config, players))
            play_script(session, script)
            assert session.table.phase == "over"
        # broken off after a passed-in deal (the players chose a new series)
        session = session_of(journal, config_of("three.toml", ("Anna", "Ben", "Carla")))
        passed_in_deal(session)
        session.start_new_series(abandon=True)
        # broken off before its first card: no deal, not in the archive
        session.start_new_series(abandon=True)
        # still open: a few cards dealt
        from engine.deal import Deal
        from firmware_host.table.inputs import TagLaid

        tags = session.config.card_tags()
        for card in Deal.shuffled(6).dealt_order()[:5]:
            session.submit(TagLaid("deal", tags[card]))
        assert [finished for _, _, finished in journal.all_series()] == [
            True, True, True, True, True, False]
    finally:
        journal.close()
    return path

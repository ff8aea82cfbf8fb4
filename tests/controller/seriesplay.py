"""A series the computer plays into a journal, for the journal's version and loss tests: the
config, a series played a few inputs into a deal, where the table stands, and a session that
resumes a journal."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from firmware_host.config import simulated_config
from firmware_host.series.journal import Journal
from firmware_host.series.session import Session
from firmware_host.series.simulated import SimulatedTable


def config() -> Any:
    return simulated_config(series_length=36, seed=36)


def where_of(session: Session) -> tuple[int, int, str]:
    t = session.table
    return t.deal.number, len(t.finished_deals), t.phase


def play(journal: Journal, deals: int) -> tuple[int, int, str]:
    """Play into ``journal`` until a few inputs into deal ``deals``; where the table stands."""
    cfg = config()
    session = Session(cfg, journal, computer_seats=cfg.computer.seats)
    session.resume()
    sim = SimulatedTable(session, random.Random(36))
    with journal.batch():
        while len(session.table.finished_deals) < deals - 1 and sim.step():
            pass
        for _ in range(7):
            sim.step()
    where = where_of(session)
    session.close()
    return where


def reopen(path: Path, cfg: Any = None) -> Session:
    cfg = cfg if cfg is not None else config()
    session = Session(cfg, Journal.open(path), computer_seats=cfg.computer.seats)
    session.resume()
    return session

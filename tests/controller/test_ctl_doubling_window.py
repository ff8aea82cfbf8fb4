"""In the simulator a computer that leads waits before its first card while a person may still
say Kontra (a defender) or Re (the declarer after a Kontra): a person gets the time to say it."""

from __future__ import annotations

import random
from dataclasses import replace

from firmware_host.config import simulated_config
from firmware_host.series.session import Session
from firmware_host.series.simulated import SimulatedTable
from firmware_host.service.runner import DOUBLING_WINDOW_S, EventLoop
from firmware_host.table.inputs import Press


def first_lead_by_a_computer_declarer(seed: int = 2) -> Session:
    """Anna (seat 0) passes; a computer seat declares and leads (pub rules with Kontra)."""
    cfg = simulated_config(computer_seats=(1, 2), series_length=None, seed=seed)
    cfg = replace(cfg, table=replace(cfg.table, rules="pub"), house={"kontra_re": True})
    session = Session(cfg, computer_seats=(1, 2))
    sim = SimulatedTable(session, random.Random(seed))
    t = session.table
    while t.phase != "play":
        if t.phase in ("dealing", "scored"):
            sim.deal()
        elif t.seat_to_act() == 0:
            assert session.submit(Press(0, "pass")).accepted
        else:
            assert sim.step()
    assert t.seat_to_act() in (1, 2) and t.deal.seats[t.game.declarer] in (1, 2)
    return session


def test_a_computer_waits_for_a_persons_kontra_before_its_first_card() -> None:
    session = first_lead_by_a_computer_declarer()
    loop = EventLoop(session)
    now = [100.0]
    loop.clock = lambda: now[0]
    loop.simulator = object()  # the simulator's window: it paces the computer's cards
    loop.pace = 0.6
    t = session.table
    assert loop._pause_left(t) == DOUBLING_WINDOW_S
    now[0] += DOUBLING_WINDOW_S - 0.1
    assert 0 < loop._pause_left(t) < 0.2
    assert session.submit(Press(0, "kontra")).accepted  # said in time
    assert loop._pause_left(t) <= 0.0  # the computer declarer says Re by itself, or not
    now[0] += 0.2
    assert loop._pause_left(t) <= 0.0


def test_no_wait_where_no_person_may_double() -> None:
    session = first_lead_by_a_computer_declarer()
    session.table.game.rules = replace(session.table.game.rules, kontra_re=False)
    loop = EventLoop(session)
    loop.clock = lambda: 100.0
    loop.simulator = object()
    loop.pace = 0.6
    assert loop._pause_left(session.table) <= 0.0

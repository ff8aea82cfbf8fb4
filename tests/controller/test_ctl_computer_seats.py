"""Computer seats decide for themselves: nobody bids, declares, concedes, claims, doubles or
answers for them, and a card of their hand is laid only once the computer has chosen it (undo
stays anyone's). A journal written before this rule replays as it was decided."""

from __future__ import annotations

import random
from dataclasses import replace

from firmware_host.config import simulated_config
from firmware_host.series.journal import Journal
from firmware_host.series.session import Session
from firmware_host.series.simulated import SimulatedTable
from firmware_host.table.controller import hand_cards
from firmware_host.table.inputs import Press, TagGone, TagLaid


def session_at_play(seed: int, violations: str = "refuse") -> Session:
    """The computer plays every seat (the simulator's hands lay its cards) up to the first
    card of the play; the computer to lead has not chosen yet."""
    cfg = simulated_config(series_length=None, seed=seed)
    cfg = replace(cfg, table=replace(cfg.table, violations=violations))
    session = Session(cfg, Journal.open(":memory:"), computer_seats=cfg.computer.seats)
    session.resume()
    sim = SimulatedTable(session, random.Random(seed))
    while session.table.phase != "play":
        assert sim.step()
    assert session.table.seat_to_act() not in session.table.prompts
    return session


def test_a_press_for_a_computer_seat_is_refused_and_its_own_is_taken() -> None:
    session = session_at_play(3)
    t = session.table
    seat = t.seat_to_act()
    before = (len(t.stack), t.phase)
    for press in ("concede", "claim", "kontra", "re", "pass", "agree"):
        for who in t.deal.seats:
            out = session.submit(Press(who, press))
            assert out.status == "refused" and out.refusal.kind == "computer-seat", press
            assert out.refusal.reason.endswith(
                "is played by the computer: it decides for itself")
    assert (len(t.stack), t.phase) == before
    assert session.submit(Press(seat, "undo")).accepted  # undo stays anyone's


def test_a_computer_seats_card_is_laid_only_once_it_chose_it() -> None:
    for violations in ("refuse", "isko"):
        session = session_at_play(5, violations)
        t = session.table
        tags = session.config.card_tags()
        seat = t.seat_to_act()
        pos = t.deal.seats.index(seat)
        other = next(s for s in t.deal.seats if s != seat)
        laid = [("centre", c) for c in hand_cards(t.game, pos)[:3]] + [
            (f"seat{other}", hand_cards(t.game, t.deal.seats.index(other))[0])]  # out of turn
        for zone, card in laid:
            out = session.submit(TagLaid(zone, tags[card]))
            assert out.status == "refused" and out.refusal.kind == "computer-seat", violations
            assert out.refusal.reason.endswith("is played by the computer: wait for its card")
            assert t.game.waiting is None  # no violation of the computer's to answer
            session.submit(TagGone(zone, tags[card]))  # picked up again
        move = session.computer_move()
        assert move is not None and move.card is not None and t.prompts[seat] == move.card
        assert session.submit(TagLaid("centre", tags[move.card])).accepted


def test_a_journal_written_before_the_rule_replays_as_it_was_decided() -> None:
    """An older version took a computer's card laid before its choice: resumed, the table
    takes it again (the state the players saw) and finds nothing wrong."""
    session = session_at_play(7)
    t = session.table
    t.computers = frozenset()  # as the older version was
    card = t.game.legal_cards()[0]
    assert session.submit(TagLaid("centre", session.config.card_tags()[card])).accepted
    again = Session(session.config, session.journal, computer_seats=session.computer_seats)
    again.resume()
    assert again.problems == []
    assert again.table.game.state_key() == t.game.state_key()
    assert again.table.computers == frozenset(session.computer_seats)

"""The session around the controller: resuming a live table with computer seats, undo over the
computer's own moves, a new series after the last deal, a journal of another configuration.
"""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

from engine.deal import Deal
from firmware_host.config import simulated_config
from firmware_host.series.journal import Journal
from firmware_host.series.session import Session
from firmware_host.table.inputs import Press, TagLaid


def deal(session: Session, seed: int) -> None:
    tags = session.config.card_tags()
    for card in Deal.random(random.Random(seed)).dealt_order():
        assert session.submit(TagLaid("deal", tags[card])).accepted


def computers_until_prompt(session: Session) -> None:
    for _ in range(50):
        move = session.computer_move()
        if move is None or move.card is not None:
            return


def play_to_a_prompt(session: Session) -> tuple[int, object]:
    """Deal and let the computer seats bid until one of them must have a card laid."""
    for seed in range(40):
        deal(session, seed)
        computers_until_prompt(session)
        if session.table.prompts:
            return next(iter(session.table.prompts.items()))
        table = session.table
        while table.phase not in ("scored", "over") and table.seat_to_act() is not None:
            seat = table.seat_to_act()
            if seat in table.prompts:
                zone = "centre" if table.phase == "play" else "skat"
                session.submit(TagLaid(zone, session.config.card_tags()[table.prompts[seat]]))
            else:
                computers_until_prompt(session)
    raise AssertionError("no computer prompt in 40 deals")


def test_a_resumed_table_still_asks_for_the_computers_card(tmp_path: Path) -> None:
    cfg = simulated_config(computer_seats=(0, 1, 2), series_length=None)
    cfg = replace(cfg, table=replace(cfg.table, series_length=None))
    session = Session(cfg, Journal.open(tmp_path / "j.sqlite"), computer_seats=(0, 1, 2))
    session.resume()
    seat, card = play_to_a_prompt(session)
    state = session.table.game.state_key()
    session.journal.close()  # the power goes; a new process starts
    again = Session(cfg, Journal.open(tmp_path / "j.sqlite"), computer_seats=(0, 1, 2))
    assert again.resume() > 32
    assert again.table.prompts == {seat: card}
    assert again.table.game.state_key() == state
    assert again.computer_move() is None  # it waits for the person to lay that card


def test_undo_reaches_back_over_the_computers_moves() -> None:
    cfg = simulated_config(computer_seats=(1, 2))
    # Find a deal where Ben (middlehand, a computer) bids to Anna and answers her "yes".
    for seed in range(60):
        session = Session(cfg, computer_seats=(1, 2))
        deal(session, seed)
        computers_until_prompt(session)
        table = session.table
        if not (table.phase == "bidding" and table.seat_to_act() == 0 and table.game.bid):
            continue
        before = table.game.state_key()
        actions = len(table.game.actions)
        assert session.submit(Press(0, "yes")).accepted
        computers_until_prompt(session)
        if len(table.game.actions) < actions + 2:
            continue  # the computers did not answer on this deal
        assert session.submit(Press(0, "undo")).accepted
        assert table.game.state_key() == before  # their answer was taken back with her yes
        assert table.seat_to_act() == 0
        return
    raise AssertionError("no deal in 60 where the computer bids to Anna and answers")


def test_the_live_table_starts_a_new_series_after_the_last_deal(tmp_path: Path) -> None:
    cfg = simulated_config(computer_seats=(), series_length=1)
    journal = Journal.open(tmp_path / "j.sqlite")
    session = Session(cfg, journal, new_series_after_last=True)
    session.resume()
    deal(session, 1)
    for seat in (1, 2, 0):
        session.submit(Press(seat, "pass"))
    assert session.table.phase == "over"
    first = session.series_id
    tags = cfg.card_tags()
    card = Deal.random(random.Random(2)).dealt_order()[0]
    assert session.submit(TagLaid("deal", tags[card])).accepted
    assert session.series_id != first and session.table.phase == "dealing"
    assert [finished for _, _, finished in journal.all_series()] == [True, False]


def test_a_journal_of_another_table_is_not_resumed(tmp_path: Path) -> None:
    cfg = simulated_config(computer_seats=())
    session = Session(cfg, Journal.open(tmp_path / "j.sqlite"))
    session.resume()
    deal(session, 1)
    session.journal.close()
    other = replace(cfg, table=replace(cfg.table, players=("Xaver", "Yvonne", "Zoe")))
    again = Session(other, Journal.open(tmp_path / "j.sqlite"))
    assert again.resume() == 0
    assert any("another configuration" in p for p in again.problems)
    assert again.table.phase == "dealing" and not again.table.deal.dealt


def test_pimc_seats_are_warmed_up_and_closed_with_the_session(tmp_path: Path) -> None:
    """A live table starts the PIMC workers before the first decision and ends them at exit."""
    cfg = simulated_config(computer_seats=(2,), series_length=None)
    cfg = replace(cfg, computer=replace(cfg.computer, player="pimc", budget_ms=50))
    session = Session(cfg, Journal.open(tmp_path / "j.sqlite"), computer_seats=(2,))
    player = session.players[2]
    player.workers = 2  # as on the Pi's cores (a single worker runs in-process, with no pool)
    session.warm_up_players()
    assert player._pool is not None  # the worker processes are running
    session.close()
    assert player._pool is None


def test_a_computer_defender_not_to_act_says_kontra_before_the_first_card(
        tmp_path: Path) -> None:
    """Kontra may be said by either defender before the first card, not only by the one to
    lay it: the computer at rearhand is asked while forehand (a person) is to play."""
    from engine.players.pimc import PimcPlayer

    session = _middlehand_grand_hand(
        tmp_path, PimcPlayer(seed=1, worlds=16, workers=1),  # fixed worlds: reproducible
        middle="C8 C9 CQ CK S8 S9 SQ SK H8 H9", rear="CJ SJ CA SA HA DA CT ST HT DT")
    table = session.table
    move = session.computer_move()
    assert move is not None and move.input == Press(2, "kontra")
    assert table.game.kontra == 2
    assert session.computer_move() is None  # asked once: nothing more before forehand plays


class _Asked:
    """A computer seat that bids like the rule player and counts its Kontra questions,
    answering no (or, once ``yes`` is set, Kontra)."""

    name = "asked"

    def __init__(self) -> None:
        from engine.players.rule import RulePlayer

        self.rule = RulePlayer(0)
        self.questions = 0
        self.yes = False

    def choose(self, view: object) -> object:
        return self.rule.choose(view)  # type: ignore[arg-type]

    def double(self, view: object) -> object:
        from engine.actions import Kontra

        self.questions += 1
        return Kontra(view.pos) if self.yes else None  # type: ignore[attr-defined]


def _middlehand_grand_hand(tmp_path: Path, computer: object, middle: str, rear: str
                           ) -> Session:
    """A pub table with Kontra/Re and ``computer`` at rearhand (seat 2): middlehand (a
    person) holds every bid against it and declares grand hand; forehand is to lead."""
    from engine.cards import parse_mask
    from firmware_host.table.inputs import DeclareInput

    cfg = simulated_config(computer_seats=(2,), series_length=None)
    cfg = replace(cfg, table=replace(cfg.table, rules="pub", series_length=None),
                  house={"kontra_re": True})
    session = Session(cfg, Journal.open(tmp_path / "j.sqlite"), computer_seats=(2,))
    session.resume()
    session.players[2] = computer  # type: ignore[assignment]
    mid, back = parse_mask(middle), parse_mask(rear)
    rest = [c for c in range(32) if not (mid | back) >> c & 1]
    fore = sum(1 << c for c in rest[:10])
    skat = sum(1 << c for c in rest[10:])
    tags = session.config.card_tags()
    for card in Deal((fore, mid, back), skat).dealt_order():
        assert session.submit(TagLaid("deal", tags[card])).accepted
    table = session.table
    assert table.deal.seats == (0, 1, 2)  # forehand, middlehand, rearhand
    assert session.submit(Press(1, "bid", 18)).accepted
    assert session.submit(Press(0, "pass")).accepted
    while table.phase == "bidding":
        if table.seat_to_act() == 2:
            assert session.computer_move() is not None
        else:
            assert session.submit(Press(1, "yes")).accepted
    assert table.game.declarer == 1
    assert session.submit(DeclareInput(1, "GH")).accepted
    assert table.seat_to_act() == 0  # a person leads
    return session


def _declared_grand_with_a_computer_defender(tmp_path: Path) -> tuple[Session, _Asked]:
    """Seat 2 a computer defender (not to act) before the first card of middlehand's grand."""
    asked = _Asked()
    session = _middlehand_grand_hand(tmp_path, asked, middle="CJ SJ HJ DJ CA CT CK SA ST HA",
                                     rear="C7 C8 S7 S8 H7 H8 D7 D8 D9 DQ")
    return session, asked


def test_a_computer_seat_that_said_no_kontra_is_not_asked_again_after_a_restart(
        tmp_path: Path) -> None:
    """The seats asked about Kontra/Re come from the journal, not from the process's memory:
    a seat that said no before a restart is not asked again before the first card (its
    second answer might differ)."""
    from engine.actions import Kontra

    session, asked = _declared_grand_with_a_computer_defender(tmp_path)
    assert session.computer_move() is None and asked.questions == 1  # no Kontra
    assert session.computer_move() is None and asked.questions == 1  # asked once
    state = session.table.game.state_key()
    session.journal.close()  # the power goes before the first card; a new process starts
    cfg = session.config
    again = Session(cfg, Journal.open(tmp_path / "j.sqlite"), computer_seats=(2,))
    again.resume()
    assert again.table.game.state_key() == state
    later = again.players[2] = _Asked()  # type: ignore[assignment]
    later.yes = True  # it would say Kontra now
    assert again.computer_move() is None
    assert later.questions == 0 and again.table.game.kontra == 1
    assert Kontra(2) in again.table.game.legal_actions()  # a person could still say it
    # the journal's answer is no input: the series rebuilt from it (export) is the same
    from firmware_host.tools.export import rebuild

    rebuilt, lines = rebuild(again.journal, again.series_id)
    assert rebuilt.table.game.state_key() == state
    assert not any("declined" in line for line in lines)
    again.close()


def test_a_contract_declared_anew_after_an_undo_is_a_new_kontra_question(
        tmp_path: Path) -> None:
    from firmware_host.table.inputs import DeclareInput

    session, asked = _declared_grand_with_a_computer_defender(tmp_path)
    assert session.computer_move() is None and asked.questions == 1
    assert session.submit(Press(1, "undo")).accepted  # the grand hand is taken back
    assert session.table.game.contract is None
    assert session.submit(DeclareInput(1, "CH")).accepted  # clubs hand instead
    assert session.computer_move() is None and asked.questions == 2
    assert session.computer_move() is None and asked.questions == 2
    session.close()


def test_a_computer_player_that_fails_is_stood_in_for_by_the_rule_player(caplog) -> None:  # type: ignore[no-untyped-def]
    """A player that raises (a bug, its worker processes gone) must not leave the table
    waiting for a move that never comes: the rule player decides for it, and the log says
    so. Before, every attempt raised again and the computer's seat never moved."""
    import logging

    class Broken:
        name = "broken"

        def choose(self, view: object) -> object:
            raise RuntimeError("no worker answers")

    cfg = simulated_config(computer_seats=(0, 1, 2), series_length=None)
    session = Session(cfg, computer_seats=(0, 1, 2))
    session.players[1] = Broken()  # type: ignore[assignment]
    deal(session, 3)
    with caplog.at_level(logging.ERROR, logger="skat-table"):
        computers_until_prompt(session)
    table = session.table
    assert table.phase not in ("dealing", "bidding")  # seat 1 said its word by its stand-in
    assert "the computer player of seat 1 failed" in caplog.text


def test_a_computer_whose_kontra_question_fails_says_no(tmp_path: Path, caplog) -> None:  # type: ignore[no-untyped-def]
    """The out-of-turn Kontra question fails like any decision may: the seat says no (it
    is journalled as declined), the log says why, and play goes on."""
    import logging

    class Failing(_Asked):
        def double(self, view: object) -> object:
            self.questions += 1
            raise RuntimeError("no worker answers")

    computer = Failing()
    session = _middlehand_grand_hand(
        tmp_path, computer, middle="C8 C9 CQ CK S8 S9 SQ SK H8 H9",
        rear="CJ SJ CA SA HA DA CT ST HT DT")
    with caplog.at_level(logging.ERROR, logger="skat-table"):
        assert session.computer_move() is None  # it said no: forehand, a person, plays
    assert computer.questions == 1 and session.table.game.kontra == 1
    assert "failed on kontra: it says no" in caplog.text
    assert session.computer_move() is None  # not asked again
    assert computer.questions == 1


def test_an_undo_into_the_previous_deal_starts_from_that_deal_not_the_series_start(
        monkeypatch) -> None:
    """Undo back over the next deal's cards and one input further, into the last scored deal:
    the controller starts from that deal's kept start (a few dozen inputs replayed), not from
    the series' first input (which grew with the series: 66 s at 10,000 games), and ends
    exactly where a replay of the kept inputs from scratch ends."""
    from firmware_host.series.simulated import SimulatedTable
    from firmware_host.table.controller import Table
    from firmware_host.table.results import result_json
    from firmware_host.tools.export import rebuild

    cfg = simulated_config(series_length=None, seed=5)
    session = Session(cfg, Journal.open(":memory:"), computer_seats=cfg.computer.seats)
    session.resume()
    sim = SimulatedTable(session, random.Random(5))
    while len(session.table.finished_deals) < 15:
        assert sim.step()
    deal(session, 99)  # the next deal, all 32 cards
    for _ in range(32):
        assert session.submit(Press(0, "undo")).accepted
    applied = []
    real_apply = Table._apply
    monkeypatch.setattr(Table, "_apply",
                        lambda self, inp: applied.append(inp) or real_apply(self, inp))
    assert session.submit(Press(0, "undo")).accepted  # the last scored deal reopened
    monkeypatch.undo()
    series_inputs = session.table.let_go + len(session.table.stack)
    assert series_inputs > 15 * 30
    assert len(applied) < 200, f"{len(applied)} of {series_inputs} inputs replayed"
    assert session.table.phase == "play" and len(session.table.finished_deals) == 14

    # every journalled input replayed from scratch into a table that keeps everything
    again, _ = rebuild(session.journal, session.series_id)
    assert result_json(again) == result_json(session)
    assert [d.game.state_key() for d in again.table.deals[-2:]] == [
        d.game.state_key() for d in session.table.deals[-2:]]

"""Whole deals over emulated readers under the HARSH radio: no card lost, none that was not laid,
none on the wrong seat; and the driver under HARSH on its own (piles, five readers).

The suite plays a few deals (a few seconds); ``SKAT_TABLE_SOAK_DEALS=3000`` plays thousands
(about 0.3-0.5 s a deal on one core), as does ``python -m firmware_host.tools.radiotable --deals N``
(``--overlap``: neighbouring pads reach each other's cards; ``--seats``: seat mode).
"""

from __future__ import annotations

import itertools
import os
import random

import pytest

from drivers.clock import VirtualClock
from drivers.events import ReaderFault, TagGone, TagLaid
from drivers.mfrc522 import MFRC522
from drivers.mfrc522_emu import HARSH, EmulatedRig, EmulatedTag
from drivers.poller import MFRC522Poller
from firmware_host.table.controller import Table
from firmware_host.tools.radiotable import RadioTable, radio_zones, soak_config

DEALS = int(os.environ.get("SKAT_TABLE_SOAK_DEALS", "0") or 0)


def soak(deals: int, seed: int, overlap: bool, seats: bool = False):
    table = Table(soak_config(seats))
    zones = radio_zones(table.config)
    pairs = list(itertools.pairwise(zones)) if overlap else []  # pads set too close together
    radio = RadioTable(table.config.card_tags(), table.handle, zones=zones, seed=seed,
                       overlap=pairs)
    report = radio.play_deals(table, deals, random.Random(seed))
    return table, report


@pytest.mark.parametrize(("seed", "overlap", "seats", "deals"), [
    (1, False, False, 2),
    (2, True, False, 2),
    (3, True, True, 1),  # cards swept over the players' own pads, each pad near the next
])
def test_deals_under_harsh_radio_lose_nothing_and_invent_nothing(seed, overlap, seats,
                                                                 deals) -> None:
    deals = DEALS or deals
    table, report = soak(deals, seed, overlap, seats)
    assert report.problems == [], report.summary()
    assert report.deals == deals and report.faults == 0
    # Every card laid was taken exactly once; nothing else was taken or refused.
    assert report.outcomes["accepted"] == report.cards >= (32 + 2 + 3) * deals
    assert report.outcomes["refused"] == 0
    # The radio was unkind: damaged exchanges of several kinds, answers cut off.
    assert sum(report.errors.values()) > 10 * deals, report.summary()
    assert report.errors["deadline"] and report.errors["parity"], report.summary()
    assert len(table.finished_deals) == deals


def test_harsh_piles_read_as_stacked_stickers_do() -> None:
    """One card reads always, two usually, three rarely: and no read ever invents a UID."""
    clock = VirtualClock()
    rig = EmulatedRig(clock, profile=HARSH, seed=8)
    chip = rig.add_reader(0, 0)
    reader = MFRC522(0, 0, clock=clock, spi_factory=rig.spidev)
    reader.open()
    pile = [EmulatedTag.from_hex(f"04a224b2c94f{i:02x}") for i in range(3)]
    uids = {t.uid.hex() for t in pile}
    whole = []
    for size in (1, 2, 3):
        chip.lay(pile[size - 1])
        got = [reader.poll() for _ in range(150)]
        assert all(set(g) <= uids for g in got)
        whole.append(sum(len(g) == size for g in got) / len(got))
    assert whole[0] > 0.9 and 0.6 < whole[1] < whole[0] and whole[2] < 0.5, whole


def test_five_readers_under_harsh_radio_settle_on_the_truth() -> None:
    clock = VirtualClock()
    rig = EmulatedRig(clock, profile=HARSH, seed=3)
    cs = [(0, 0), (0, 1), (1, 0), (1, 1), (1, 2)]
    zones = ["deal", "centre", "seat0", "seat1", "seat2"]
    chips = [rig.add_reader(b, d) for b, d in cs]
    readers = [MFRC522(b, d, clock=clock, spi_factory=rig.spidev) for b, d in cs]
    events: list = []
    poller = MFRC522Poller(list(zip(readers, zones, strict=True)), events.append, clock=clock)
    rng = random.Random(3)
    cards = [EmulatedTag.from_hex(f"04a224b2c94f{i:02x}") for i in range(10)]
    where: dict[int, int] = {}
    for _ in range(24):
        card, pad = rng.randrange(10), rng.randrange(5)
        if card in where:
            chips[where.pop(card)].lift(cards[card])
        elif sum(1 for r in where.values() if r == pad) < 2:
            chips[pad].lay(cards[card])  # never more than two on a pad: the table's flow
            where[card] = pad
        for _ in range(14):
            poller.poll_once()
            clock.sleep(0.03)
        present: dict[str, set[str]] = {zone: set() for zone in zones}
        for e in events:
            if isinstance(e, TagLaid):
                present[e.zone].add(e.uid)
            elif isinstance(e, TagGone):
                present[e.zone].discard(e.uid)
        truth = {zone: {cards[c].uid.hex() for c, r in where.items() if r == i}
                 for i, zone in enumerate(zones)}
        assert present == truth
    assert not [e for e in events if isinstance(e, ReaderFault)]


def test_simulate_harsh_plays_over_emulated_readers(capsys) -> None:
    from firmware_host.cli import main

    assert main(["simulate", "--harsh", "--games", "1", "--seed", "4", "--ascii"]) == 0
    out = capsys.readouterr().out
    assert "harsh radio" in out and "trick 10:" in out
    summary = next(line for line in out.splitlines() if line.startswith("readers: "))
    assert "1 deals" in summary and "problems: 0" in summary and "reader faults 0" in summary


@pytest.mark.parametrize("name", ["firmware_host.tools.radiotable", "firmware_host.service.runner"])
def test_docstring_examples(name: str) -> None:
    import doctest
    import importlib

    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0


def test_cards_lying_on_the_table_read_again_change_nothing() -> None:
    """The skat on its reader and the trick on the table may be read again (a card detuned
    under another, or a neighbouring pad's field): ignored; a card of an earlier trick is not."""
    from engine.cards import mask_cards
    from engine.deal import Deal
    from firmware_host.table.inputs import DeclareInput, Press
    from firmware_host.table.inputs import TagGone as Gone
    from firmware_host.table.inputs import TagLaid as Laid

    table = Table(soak_config())
    tags = table.config.card_tags()
    for card in Deal.random(random.Random(5)).dealt_order():
        assert table.handle(Laid("deal", tags[card])).status == "accepted"
    for _ in range(3):
        seat = table.seat_to_act()
        table.handle(Press(seat, "bid" if table.deal.seats.index(seat) == 0 else "pass"))
    declarer = table.seat_to_act()
    table.handle(Press(declarer, "skat"))
    discards = list(mask_cards(table.game.hand(table.game.declarer)))[:2]
    for card in discards:
        assert table.handle(Laid("skat", tags[card])).status == "accepted"
    assert table.handle(DeclareInput(declarer, "G")).status == "accepted"
    gone_and_back = [Gone("skat", tags[discards[0]]), Laid("skat", tags[discards[0]])]
    assert [table.handle(i).status for i in gone_and_back] == ["ignored", "ignored"]
    first = []
    for _ in range(3):  # trick 1
        card = sorted(table.game.legal_cards())[0]
        first.append(card)
        assert table.handle(Laid("centre", tags[card])).status == "accepted"
    # Trick 1 still lies on the centre; the skat reader next to it hears one of its cards.
    assert table.handle(Laid("skat", tags[first[0]])).status == "ignored"
    lead = sorted(table.game.legal_cards())[0]
    assert table.handle(Laid("centre", tags[lead])).status == "accepted"  # trick 1 taken away
    table.handle(Gone("centre", tags[first[1]]))
    out = table.handle(Laid("centre", tags[first[1]]))
    assert out.status == "refused" and "already been played in trick 1" in out.refusal.reason

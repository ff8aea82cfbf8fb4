"""The MFRC522 driver against the register-level emulated chip (virtual time unless noted)."""

from __future__ import annotations

import queue

import pytest
from gpiozero.pins.mock import MockFactory
from hypothesis import given, settings
from hypothesis import strategies as st

from drivers import mfrc522_regs as r
from drivers.clock import RealClock, VirtualClock
from drivers.events import ReaderBack, ReaderFault, TagGone, TagLaid
from drivers.mfrc522 import MFRC522, DeadReaderError
from drivers.mfrc522_emu import EmulatedRig, EmulatedTag
from drivers.poller import MFRC522Poller

CS = [(0, 0), (0, 1), (1, 0), (1, 1), (1, 2)]
ZONES = ["deal", "centre", "seat0", "seat1", "seat2"]


def make(n: int = 1, clock=None):
    clock = clock or VirtualClock()
    rig = EmulatedRig(clock)
    chips, readers = [], []
    for bus, dev in CS[:n]:
        chips.append(rig.add_reader(bus, dev))
        readers.append(MFRC522(bus, dev, clock=clock, spi_factory=rig.spidev))
    return clock, rig, chips, readers


def tag(uid: str, fault: str | None = None) -> EmulatedTag:
    return EmulatedTag.from_hex(uid, fault)


@pytest.mark.parametrize("uid", ["deadbeef", "04a224b2c94f80", "0102030405060708090a"])
def test_uids_of_4_7_and_10_bytes_come_back_whole(uid: str) -> None:
    _, _, (chip,), (reader,) = make()
    reader.open()
    chip.lay(tag(uid))
    assert reader.poll() == [uid]


def test_a_7_byte_uid_is_not_cut_at_cascade_level_1() -> None:
    _, _, (chip,), (reader,) = make()
    reader.open()
    chip.lay(tag("04a224b2c94f80"))
    chip.lay(tag("04a224b2000000"))  # same first three bytes: level 1 alone cannot tell them
    assert sorted(reader.poll()) == ["04a224b2000000", "04a224b2c94f80"]


def test_a_pile_of_three_is_read_one_by_one_and_a_new_card_on_it_is_seen() -> None:
    _, _, (chip,), (reader,) = make()
    reader.open()
    pile = ["04a224b2c94f80", "04a224b2c94f81", "04a224b2c94f82"]  # collide in the last bits
    for uid in pile:
        chip.lay(tag(uid))
    assert sorted(reader.poll()) == pile
    chip.lay(tag("04a224b2c94f83"))
    assert sorted(reader.poll()) == [*pile, "04a224b2c94f83"]


def test_the_field_goes_off_after_each_poll_and_tags_answer_again() -> None:
    clock, _, (chip,), (reader,) = make()
    reader.open()
    t = chip.lay(tag("deadbeef"))
    assert reader.poll() == ["deadbeef"]
    assert not chip.field_on and t.state == "HALT"  # it keeps its state through a short gap
    start = clock.now()
    assert reader.poll() == ["deadbeef"]  # the next poll waits until the field has rested
    assert t.state == "HALT" and clock.now() - start >= 0.005


def test_an_empty_poll_waits_on_the_chip_timer_with_few_transfers() -> None:
    clock, _, (chip,), (reader,) = make()
    reader.open()
    before, t0 = chip.spi_transfers, clock.now()
    assert reader.poll() == []
    elapsed = clock.now() - t0
    assert 0.015 <= elapsed <= 0.025  # chip time: 5 ms field settle + 10 ms timer
    assert chip.spi_transfers - before <= 20  # sleeps on the timer, never spins


@pytest.mark.parametrize("fault", ["crc", "parity"])
def test_a_tag_with_a_damaged_answer_is_never_reported(fault: str) -> None:
    clock, _rig, (chip,), (reader,) = make()
    events: list = []
    poller = MFRC522Poller([(reader, "centre")], events.append, clock=clock)
    chip.lay(tag("04badbadbadbad", fault))
    for _ in range(10):
        poller.poll_once()
    assert not [e for e in events if isinstance(e, TagLaid)]
    assert not [e for e in events if isinstance(e, ReaderFault)]


def test_a_crc_damaged_tag_on_a_pile_does_not_hide_the_others() -> None:
    _, _, (chip,), (reader,) = make()
    reader.open()
    chip.lay(tag("04111111111111", "crc"))
    chip.lay(tag("04a224b2c94f80"))
    chip.lay(tag("deadbeef"))
    assert sorted(reader.poll()) == ["04a224b2c94f80", "deadbeef"]


@pytest.mark.parametrize("dead", ["zeros", "ones"])
def test_a_dead_reader_refuses_to_open_and_says_why(dead: str) -> None:
    _, _, (chip,), (reader,) = make()
    chip.dead = dead
    with pytest.raises(DeadReaderError, match=f"all {dead}"):
        reader.open()


def test_a_dead_reader_among_five_is_reported_in_one_pass_and_stalls_nobody() -> None:
    clock, rig, chips, readers = make(5)
    events: list = []
    poller = MFRC522Poller(list(zip(readers, ZONES, strict=True)), events.append, clock=clock,
                           retry_every=0.5)
    chips[2].dead = "ones"
    for i, chip in enumerate(chips):
        chip.lay(tag(f"04a224b2c94f8{i}"))
    poller.poll_once()
    assert events == [ReaderFault("spi1.0", "seat0", events[0].message)]
    assert "all ones" in events[0].message
    poller.poll_once()
    laid = {e.zone for e in events if isinstance(e, TagLaid)}
    assert laid == {"deal", "centre", "seat1", "seat2"}
    assert rig.max_fields_on == 1
    # Dying mid-game: reported within the next pass; its zone's card is not declared gone.
    chips[2].dead = None
    chips[4].dead = "zeros"
    events.clear()
    for _ in range(30):
        poller.poll_once()
    assert ReaderBack("spi1.0", "seat0") in events
    assert next(e for e in events if isinstance(e, ReaderFault)).zone == "seat2"
    assert [(e.zone, e.uid) for e in events if isinstance(e, TagLaid)] == [
        ("seat0", "04a224b2c94f82")]
    assert not [e for e in events if isinstance(e, TagGone)]


def test_lifting_and_laying_again_through_the_poller() -> None:
    clock, _, (chip,), (reader,) = make()
    events: list = []
    poller = MFRC522Poller([(reader, "deal")], events.append, clock=clock, gone_after=1.0)
    card = chip.lay(tag("04a224b2c94f80"))
    for _ in range(40):  # a card lying still is reported once
        poller.poll_once()
        clock.sleep(0.05)
    assert [type(e) for e in events] == [TagLaid]
    chip.lift(card)
    while len(events) < 2:
        poller.poll_once()
        clock.sleep(0.05)
    assert isinstance(events[1], TagGone)
    chip.lay(card)
    for _ in range(3):
        poller.poll_once()
    assert [type(e) for e in events] == [TagLaid, TagGone, TagLaid]


def test_a_chip_that_lost_its_setup_is_set_up_again() -> None:
    _, _, (chip,), (reader,) = make()
    reader.open()
    chip.lay(tag("deadbeef"))
    chip._reset_registers()  # a brown-out: the chip forgets the timer and gain
    assert reader.poll() == ["deadbeef"]
    assert chip.regs[r.T_PRESCALER] == 0xA9


def test_reset_pin_is_pulsed_through_gpiozero() -> None:
    clock, rig, _, _ = make()
    factory = MockFactory()
    reader = MFRC522(0, 0, reset_pin=25, clock=clock, spi_factory=rig.spidev,
                     pin_factory=factory)
    reader.open()
    pin = factory.pin(25)
    assert [s.state for s in pin.states][-3:] == [True, False, True]
    reader.close()


def test_gain_and_antenna_registers() -> None:
    _, _, (chip,), (reader,) = make()
    reader.open()
    reader.set_gain(33)
    assert chip.regs[r.RF_CFG] & 0x70 == 0x40  # 33 dB
    reader.antenna_on()
    assert chip.field_on
    reader.antenna_off()
    assert not chip.field_on
    with pytest.raises(ValueError, match="gain 30 dB"):
        MFRC522(0, 0, gain_db=30)


def test_emulated_fifo_overflow_sets_the_error_bit() -> None:
    _, rig, (_chip,), _ = make()
    spi = rig.spidev()
    spi.open(0, 0)
    spi.xfer2([r.FIFO_DATA << 1] + [0x55] * 70)
    assert spi.xfer2([0x80 | (r.FIFO_LEVEL << 1), 0])[1] == 64
    assert spi.xfer2([0x80 | (r.ERROR << 1), 0])[1] & r.ERR_BUFFER_OVFL


uid_strategy = st.one_of(
    st.binary(min_size=4, max_size=4).filter(lambda b: b[0] != 0x88),
    st.binary(min_size=7, max_size=7).filter(lambda b: b[0] != 0x88),
    st.binary(min_size=10, max_size=10).filter(lambda b: b[0] != 0x88),
)


@settings(max_examples=40, deadline=None)
@given(st.lists(uid_strategy, min_size=0, max_size=6, unique=True))
def test_any_pile_is_read_exactly(uids: list[bytes]) -> None:
    _, _, (chip,), (reader,) = make()
    reader.open()
    for uid in uids:
        chip.lay(EmulatedTag(uid))
    assert sorted(reader.poll()) == sorted(u.hex() for u in uids)


def test_the_poller_thread_in_real_time() -> None:
    """The real clock: the thread polls, posts to a queue, and stops on close."""
    clock = RealClock()
    _, _rig, chips, readers = make(2, clock)
    events: queue.Queue = queue.Queue()
    poller = MFRC522Poller(list(zip(readers, ZONES, strict=False)), events.put, clock=clock)
    chips[1].lay(tag("04a224b2c94f80"))
    poller.start()
    try:
        event = events.get(timeout=10)
    finally:
        poller.close()
    assert isinstance(event, TagLaid)
    assert (event.zone, event.uid) == ("centre", "04a224b2c94f80")
    assert not chips[0].field_on and not chips[1].field_on


def test_halted_tags_sleep_through_reqa_but_wake_on_wupa() -> None:
    clock, _, (chip,), (reader,) = make()
    reader.open()
    chip.lay(tag("deadbeef"))
    reader.antenna_on()
    clock.sleep(reader.settle)
    assert reader.request() == bytes([0x04, 0x00])
    assert reader.select() == bytes.fromhex("deadbeef")
    reader.halt()
    assert reader.request() is None
    assert reader.request(wakeup=True) is not None
    assert reader.select().hex() == "deadbeef"
    reader.antenna_off()


def test_the_field_cycle_is_long_enough_for_a_halted_tag_to_answer_again() -> None:
    """After failures the poll cycles the field so every tag starts from IDLE; a tag keeps its
    state through a short gap, so the field stays off 5 ms, as NXP's reader library does (it
    was off 1 ms: the halted tag slept on)."""
    clock, _, (chip,), (reader,) = make()
    reader.open()
    chip.lay(tag("deadbeef"))
    reader.antenna_on()
    clock.sleep(reader.settle)
    assert reader.request() is not None and reader.select().hex() == "deadbeef"
    reader.halt()
    assert reader.request() is None
    start = clock.now()
    reader._cycle_field()
    assert clock.now() - start >= 0.005 + reader.settle
    assert reader.request() == bytes([0x04, 0x00])
    reader.antenna_off()


def test_a_neighbour_that_halted_a_tag_does_not_hide_it_from_its_own_reader() -> None:
    """Pads set too close: the first reader's field reaches the second pad's card and halts
    it. The second reader switches its field on right after; the card kept its state through
    that gap and slept through every REQA, unless the poller lets the field rest 5 ms."""
    clock, rig, chips, readers = make(2)
    rig.overlap(chips[0], chips[1], 1.0)
    chips[1].lay(tag("deadbeef"))
    heard: list[list[str]] = []
    poll = readers[1].poll

    def own_poll() -> list[str]:
        heard.append(poll())
        return heard[-1]

    readers[1].poll = own_poll  # type: ignore[method-assign]
    poller = MFRC522Poller(list(zip(readers, ZONES, strict=False)), lambda e: None,
                           clock=clock)
    for _ in range(5):
        poller.poll_once()
    assert heard == [["deadbeef"]] * 5


@pytest.mark.full  # make bench's own code at its quick size: about 4 s
def test_bench_group_reports_its_keys() -> None:
    from drivers.bench import bench

    figures = bench(quick=True)
    # emu_: emulated chips on the real clock (no SPI time); emu_vclock_: on a virtual clock.
    assert set(figures) == {
        "emu_reader_pass_ms", "emu_reader_overhead_share", "emu_poll_idle_cpu_share",
        "emu_reader_pile3_poll_ms", "emu_reader_pass_ms_harsh",
        "emu_vclock_pile_whole_share_1", "emu_vclock_pile_whole_share_2",
        "emu_vclock_pile_whole_share_3"}
    assert figures["emu_reader_pass_ms"] > 0 and figures["emu_reader_pass_ms_harsh"] > 0
    assert all(0 <= figures[f"emu_vclock_pile_whole_share_{n}"] <= 1 for n in (1, 2, 3))
    assert 0 <= figures["emu_reader_overhead_share"] <= 1
    assert 0 <= figures["emu_poll_idle_cpu_share"] <= 2


def test_the_bench_pile_share_is_what_the_driver_reads_not_the_emulators_inputs(
        monkeypatch) -> None:
    """Every tag of the pile is powered in every field cycle, so the emulator's inputs alone
    would make each share 1.0: the figure is the driver's reads, counted. (The figure it
    replaces, pile_read_share_N, was HARSH's stacking chances multiplied back out.)"""
    from drivers import bench
    from drivers.mfrc522 import MFRC522 as Driver

    assert bench.pile_whole_share(2, 50) == 1.0
    poll = Driver.poll
    monkeypatch.setattr(Driver, "poll", lambda self: poll(self)[:1])  # a driver that loses one
    assert bench.pile_whole_share(1, 50) == 1.0 and bench.pile_whole_share(2, 50) == 0.0


def test_two_fields_on_at_once_would_cross_read_and_the_poller_never_does() -> None:
    clock, _rig, chips, readers = make(2)
    for reader in readers:
        reader.open()
    chips[1].lay(tag("deadbeef"))
    # Both fields on: reader 0 hears the neighbour's card (what one field at a time prevents).
    readers[1].antenna_on()
    readers[0].antenna_on()
    clock.sleep(0.005)
    assert readers[0].request() is not None
    assert readers[0].select().hex() == "deadbeef"
    readers[0].antenna_off()
    readers[1].antenna_off()
    events: list = []
    poller = MFRC522Poller([(readers[0], "deal"), (readers[1], "centre")], events.append,
                           clock=clock)
    for _ in range(5):
        poller.poll_once()
    assert [(e.zone, e.uid) for e in events] == [("centre", "deadbeef")]


def test_a_missing_spi_device_or_module_is_a_readable_fault() -> None:
    clock, rig, _, _ = make()
    with pytest.raises(DeadReaderError, match=r"/dev/spidev1\.2.*dtoverlay=spi1-3cs"):
        MFRC522(1, 2, clock=clock, spi_factory=rig.spidev).open()

    def no_spidev():
        raise ModuleNotFoundError("No module named 'spidev'")

    with pytest.raises(DeadReaderError, match="spidev module is missing"):
        MFRC522(0, 0, clock=clock, spi_factory=no_spidev).open()


moves = st.lists(
    st.tuples(st.sampled_from(["lay", "lift"]), st.integers(0, 4), st.integers(0, 7)),
    max_size=15,
)


@settings(max_examples=20, deadline=None)
@given(moves)
def test_the_zones_always_settle_on_what_lies_on_the_readers(steps) -> None:
    """Random cards laid and lifted on five readers: after each move has had time to settle,
    the laid/gone events add up to exactly the cards lying on each reader."""
    clock, _, chips, readers = make(5)
    events: list = []
    poller = MFRC522Poller(list(zip(readers, ZONES, strict=True)), events.append, clock=clock)
    cards = [EmulatedTag.from_hex(f"04a224b2c94f{i:02x}") for i in range(8)]
    where: dict[int, int] = {}
    for op, reader, card in steps:
        if op == "lay" and card not in where:
            chips[reader].lay(cards[card])
            where[card] = reader
        elif op == "lift" and card in where:
            chips[where.pop(card)].lift(cards[card])
        for _ in range(14):  # 14 passes of 77 ms or more: past the 1 s of "gone"
            poller.poll_once()
        present: dict[str, set[str]] = {zone: set() for zone in ZONES}
        for e in events:
            if isinstance(e, TagLaid):
                assert e.uid not in present[e.zone]
                present[e.zone].add(e.uid)
            elif isinstance(e, TagGone):
                present[e.zone].remove(e.uid)
        truth = {zone: {cards[c].uid.hex() for c, r in where.items() if r == i}
                 for i, zone in enumerate(ZONES)}
        assert present == truth


def test_a_tag_that_ignores_halt_does_not_hold_up_the_poll() -> None:
    clock, _, (chip,), (reader,) = make()
    reader.open()
    chip.lay(tag("04a224b2c94f80", "nohalt"))
    chip.lay(tag("04a224b2c94f81"))
    chip.lay(tag("deadbeef"))
    start = clock.now()
    assert sorted(reader.poll()) == ["04a224b2c94f80", "04a224b2c94f81", "deadbeef"]
    assert clock.now() - start < 0.1


def test_a_failing_receiver_does_not_stop_the_readers(caplog) -> None:
    clock, _, chips, readers = make(2)
    got: list = []

    def receiver(event) -> None:
        if not got:
            got.append("boom")
            raise RuntimeError("a bug in the controller")
        got.append(event)

    poller = MFRC522Poller(list(zip(readers, ZONES, strict=False)), receiver, clock=clock)
    chips[0].lay(tag("deadbeef"))
    chips[1].lay(tag("04a224b2c94f80"))
    poller.poll_once()
    poller.poll_once()  # no exception out of the pass
    assert got[1:] == [TagLaid("centre", "04a224b2c94f80", got[1].at)]
    assert "a bug in the controller" in caplog.text

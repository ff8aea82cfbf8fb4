"""The emulated MFRC522 at register level, driven by raw SPI bytes as the datasheet describes
(independently of our driver), in virtual time."""

from __future__ import annotations

import pytest

from drivers import mfrc522_regs as r
from drivers.clock import VirtualClock
from drivers.mfrc522_emu import EmulatedRig, EmulatedTag


class Spi:
    def __init__(self, n_tags: list[str]) -> None:
        self.clock = VirtualClock()
        rig = EmulatedRig(self.clock)
        self.chip = rig.add_reader(0, 0)
        for uid in n_tags:
            self.chip.lay(EmulatedTag.from_hex(uid))
        self.dev = rig.spidev()
        self.dev.open(0, 0)

    def read(self, reg: int) -> int:
        return self.dev.xfer2([0x80 | (reg << 1), 0])[1]

    def write(self, reg: int, *values: int) -> None:
        self.dev.xfer2([(reg << 1) & 0x7E, *values])

    def setup(self, reload: int = 400) -> float:
        """Timer: TAuto, prescaler 0xA9 (25 us ticks); field on. Returns the timer period."""
        self.write(r.T_MODE, 0x80)
        self.write(r.T_PRESCALER, 0xA9)
        self.write(r.T_RELOAD_H, reload >> 8)
        self.write(r.T_RELOAD_L, reload & 0xFF)
        self.write(r.TX_CONTROL, 0x83)
        self.clock.sleep(0.005)
        return (reload + 1) * 339 / 13.56e6

    def send(self, data: bytes, last_bits: int = 0, align: int = 0) -> float:
        self.write(r.COM_IRQ, 0x7F)
        self.write(r.FIFO_LEVEL, 0x80)
        self.write(r.FIFO_DATA, *data)
        self.write(r.COMMAND, r.CMD_TRANSCEIVE)
        self.write(r.BIT_FRAMING, 0x80 | (align << 4) | last_bits)
        return self.clock.now()

    def fifo(self) -> bytes:
        return bytes(self.read(r.FIFO_DATA) for _ in range(self.read(r.FIFO_LEVEL)))


def test_reqa_answer_lands_in_the_fifo_and_stops_the_timer() -> None:
    spi = Spi(["deadbeef"])
    spi.setup()
    spi.send(bytes([0x26]), last_bits=7)
    assert spi.read(r.COM_IRQ) & r.IRQ_RX == 0  # the answer takes air time
    spi.clock.sleep(0.001)
    irq = spi.read(r.COM_IRQ)
    assert irq & r.IRQ_RX and irq & r.IRQ_TX and not irq & r.IRQ_TIMER
    assert spi.fifo() == bytes([0x04, 0x00])
    assert spi.read(r.CONTROL) & 0x07 == 0 and spi.read(r.ERROR) == 0
    counter = (spi.read(r.T_COUNTER_H) << 8) | spi.read(r.T_COUNTER_L)
    spi.clock.sleep(0.05)
    assert (spi.read(r.T_COUNTER_H) << 8) | spi.read(r.T_COUNTER_L) == counter  # stopped
    assert not spi.read(r.COM_IRQ) & r.IRQ_TIMER


def test_no_answer_fires_the_timer_after_its_period_counting_down() -> None:
    spi = Spi([])
    period = spi.setup(reload=400)
    sent = spi.send(bytes([0x26]), last_bits=7)
    spi.clock.sleep(0.002)
    first = (spi.read(r.T_COUNTER_H) << 8) | spi.read(r.T_COUNTER_L)
    assert 300 < first < 400
    air = (7 + 2) * r.BIT_TIME  # the timer starts when sending ends (TAuto)
    spi.clock.sleep(sent + air + period - 1e-6 - spi.clock.now())
    assert not spi.read(r.COM_IRQ) & r.IRQ_TIMER
    spi.clock.sleep(2e-6)
    assert spi.read(r.COM_IRQ) & r.IRQ_TIMER
    assert spi.fifo() == b""


def test_two_tags_collide_at_the_first_differing_bit() -> None:
    # 0x12 = 00010010, 0x16 = 00010110: they differ in bit 2 (LSB first), the 3rd bit sent.
    spi = Spi(["12345678", "16345678"])
    spi.setup()
    spi.send(bytes([0x26]), last_bits=7)  # REQA: both tags get READY
    spi.clock.sleep(0.001)
    spi.send(bytes([0x93, 0x20]))
    spi.clock.sleep(0.002)
    assert spi.read(r.COM_IRQ) & r.IRQ_ERR
    assert spi.read(r.ERROR) & r.ERR_COLL
    assert spi.read(r.COLL) & 0x1F == 3
    data = spi.fifo()
    assert len(data) == 5 and data[0] & 0b11 == 0b10  # the bits before the collision are right


def test_a_collision_raises_errirq_at_its_bit_and_the_frame_goes_on_to_its_end() -> None:
    """The receiver sets CollErr, CollReg and ErrIRq the moment it sees the colliding bit, when
    the FIFO holds only the bytes before it; the rest of the frame still comes, and RxIRq only
    at its end (NXP MFRC522 data sheet: ErrIRq is set when any ErrorReg bit is, RxIRq when the
    receiver has detected the end of a valid data stream)."""
    # 0x56 = 01010110, 0xd6 = 11010110: the third byte differs in bit 7, the 24th bit sent.
    spi = Spi(["12345678", "1234d678"])
    spi.setup()
    spi.send(bytes([0x26]), last_bits=7)  # REQA: both tags get READY
    spi.clock.sleep(0.001)
    sent = spi.send(bytes([0x93, 0x20]))
    # Sent: 16 bits, 2 parity bits, start and end; the answer starts one frame delay later
    # (ISO/IEC 14443-3: 1172/fc after a last bit 0). Data bit 23 ends after the start bit,
    # 24 data bits and 2 parity bits; the collided byte is in one bit later, the frame (40
    # bits, 5 parity bits, start, end) 47 bits after its start.
    rx_start = sent + (16 + 2 + 2) * r.BIT_TIME + 1172 / r.CHIP_CLOCK_HZ
    spi.clock.sleep(rx_start + 26.5 * r.BIT_TIME - spi.clock.now())
    assert not spi.read(r.COM_IRQ) & r.IRQ_ERR and not spi.read(r.ERROR)  # before the bit
    spi.clock.sleep(rx_start + 27.5 * r.BIT_TIME - spi.clock.now())
    irq = spi.read(r.COM_IRQ)
    assert irq & r.IRQ_ERR and not irq & r.IRQ_RX
    assert spi.read(r.ERROR) & r.ERR_COLL and spi.read(r.COLL) & 0x3F == 24
    assert spi.read(r.FIFO_LEVEL) == 2  # 0x12 0x34: the colliding byte is not in yet
    spi.clock.sleep(rx_start + 28.5 * r.BIT_TIME - spi.clock.now())
    assert spi.read(r.FIFO_LEVEL) == 3 and spi.read(r.ERROR) & r.ERR_PARITY
    assert not spi.read(r.COM_IRQ) & r.IRQ_RX
    spi.clock.sleep(rx_start + 47.5 * r.BIT_TIME - spi.clock.now())
    assert spi.read(r.COM_IRQ) & r.IRQ_RX
    data = spi.fifo()
    # ValuesAfterColl = 1 (reset value): the bits after the collision are what the air carried.
    assert len(data) == 5 and data[:2] == bytes([0x12, 0x34]) and data[2] & 0x7F == 0x56


def test_a_tag_still_answering_hears_no_frame() -> None:
    """A reader that sends its next frame before the answer has ended (stopping at ErrIRq)
    talks to a tag that is load-modulating: it hears nothing and stays where it was."""
    spi = Spi(["12345678", "1234d678"])
    spi.setup()
    spi.send(bytes([0x26]), last_bits=7)
    spi.clock.sleep(0.001)
    sent = spi.send(bytes([0x93, 0x20]))
    rx_start = sent + (16 + 2 + 2) * r.BIT_TIME + 1172 / r.CHIP_CLOCK_HZ
    spi.clock.sleep(rx_start + 30 * r.BIT_TIME - spi.clock.now())  # past the collision
    assert spi.read(r.COM_IRQ) & r.IRQ_ERR and not spi.read(r.COM_IRQ) & r.IRQ_RX
    spi.write(r.COMMAND, r.CMD_IDLE)
    # The walk goes on to the tag with a 1 at bit 23 while both are still sending.
    spi.send(bytes([0x93, 0x50, 0x12, 0x34, 0xD6]))
    spi.clock.sleep(0.002)
    assert not spi.read(r.COM_IRQ) & r.IRQ_RX and spi.fifo() == b""
    # Once their answers are over they hear again, still READY: the same frame is answered.
    spi.send(bytes([0x93, 0x50, 0x12, 0x34, 0xD6]))
    spi.clock.sleep(0.002)
    assert spi.read(r.COM_IRQ) & r.IRQ_RX
    assert spi.fifo() == bytes([0x78, 0x12 ^ 0x34 ^ 0xD6 ^ 0x78])


def test_bit_oriented_anticollision_frame_is_answered_from_the_known_bits() -> None:
    spi = Spi(["12345678", "16345678"])
    spi.setup()
    spi.send(bytes([0x26]), last_bits=7)
    spi.clock.sleep(0.001)
    # SEL, NVB = 2 bytes + 3 bits, then the 3 known bits 0b110 (the tag with 1 at bit 2).
    spi.send(bytes([0x93, 0x23, 0b110]), last_bits=3, align=3)
    spi.clock.sleep(0.002)
    assert not spi.read(r.ERROR) & r.ERR_COLL
    data = spi.fifo()
    assert data[0] & 0xF8 == 0x16 & 0xF8 and data[1:4] == bytes([0x34, 0x56, 0x78])
    assert data[4] == 0x16 ^ 0x34 ^ 0x56 ^ 0x78  # BCC


def test_crc_coprocessor() -> None:
    spi = Spi([])
    spi.write(r.MODE, 0x3D)
    spi.write(r.DIV_IRQ, 0x04)
    spi.write(r.FIFO_DATA, 0x50, 0x00)
    spi.write(r.COMMAND, r.CMD_CALC_CRC)
    spi.clock.sleep(0.0001)
    assert spi.read(r.DIV_IRQ) & r.DIV_CRC
    assert (spi.read(r.CRC_RESULT_L), spi.read(r.CRC_RESULT_H)) == (0x57, 0xCD)


def test_soft_reset_powers_down_briefly_and_restores_defaults() -> None:
    spi = Spi([])
    spi.write(r.T_PRESCALER, 0xA9)
    spi.write(r.COMMAND, r.CMD_SOFT_RESET)
    assert spi.read(r.COMMAND) & r.COMMAND_POWER_DOWN
    spi.clock.sleep(0.001)
    assert not spi.read(r.COMMAND) & r.COMMAND_POWER_DOWN
    assert spi.read(r.T_PRESCALER) == 0 and spi.read(r.VERSION) == 0x92


def test_tags_answer_only_after_the_field_has_powered_them() -> None:
    spi = Spi(["deadbeef"])
    spi.write(r.T_MODE, 0x80)
    spi.write(r.T_PRESCALER, 0xA9)
    spi.write(r.T_RELOAD_L, 40)
    spi.write(r.TX_CONTROL, 0x83)
    spi.send(bytes([0x26]), last_bits=7)  # at once: the tag is not powered up yet
    spi.clock.sleep(0.002)
    assert spi.read(r.COM_IRQ) & r.IRQ_TIMER and not spi.read(r.COM_IRQ) & r.IRQ_RX


def test_a_tag_keeps_its_state_through_a_short_field_gap_and_resets_after_a_long_one() -> None:
    """A tag's state outlives a short gap in the field (its chip keeps its charge a while):
    only a field off for long enough (NXP's reader library waits 5 ms) sends it back to IDLE."""
    spi = Spi(["deadbeef"])
    spi.setup()
    for gap, answers in ((0.001, True), (0.005, False)):
        spi.send(bytes([0x26]), last_bits=7)  # REQA: the tag is READY
        spi.clock.sleep(0.001)
        assert spi.fifo() == bytes([0x04, 0x00])
        spi.write(r.TX_CONTROL, 0x80)
        spi.clock.sleep(gap)
        spi.write(r.TX_CONTROL, 0x83)
        spi.clock.sleep(0.005)
        spi.send(bytes([0x93, 0x20]))  # only a READY tag answers an anticollision frame
        spi.clock.sleep(0.002)
        assert bool(spi.read(r.COM_IRQ) & r.IRQ_RX) is answers, gap
        spi.fifo()
        spi.write(r.COMMAND, r.CMD_IDLE)
        spi.write(r.TX_CONTROL, 0x80)
        spi.clock.sleep(0.005)
        spi.write(r.TX_CONTROL, 0x83)
        spi.clock.sleep(0.005)


@pytest.mark.parametrize("dead", ["zeros", "ones"])
def test_a_dead_chip_answers_every_byte_alike(dead: str) -> None:
    spi = Spi([])
    spi.chip.dead = dead
    expected = 0 if dead == "zeros" else 0xFF
    assert spi.dev.xfer2([0x80 | (r.VERSION << 1), 0x80 | (r.COM_IRQ << 1), 0]) == [expected] * 3


def test_an_idle_tag_ignores_anticollision_until_woken() -> None:
    spi = Spi(["deadbeef"])
    spi.setup(reload=40)
    spi.send(bytes([0x93, 0x20]))
    spi.clock.sleep(0.003)
    assert spi.read(r.COM_IRQ) & r.IRQ_TIMER and spi.fifo() == b""
    spi.send(bytes([0x52]), last_bits=7)  # WUPA
    spi.clock.sleep(0.001)
    assert spi.fifo() == bytes([0x04, 0x00])
    spi.send(bytes([0x93, 0x20]))
    spi.clock.sleep(0.002)
    assert spi.fifo() == bytes.fromhex("deadbeef") + bytes([0xDE ^ 0xAD ^ 0xBE ^ 0xEF])


def test_a_collision_comes_with_parity_errors_and_values_after_coll_clears_bits() -> None:
    spi = Spi(["12345678", "16ffffff"])
    spi.setup()
    spi.send(bytes([0x26]), last_bits=7)
    spi.clock.sleep(0.001)
    spi.send(bytes([0x93, 0x20]))
    spi.clock.sleep(0.002)
    error = spi.read(r.ERROR)
    assert error & r.ERR_COLL and error & r.ERR_PARITY  # the collided byte has no parity
    assert spi.fifo()[1:] != bytes(4)  # ValuesAfterColl = 1 (reset): what the air carried
    spi.write(r.COLL, 0x00)  # ValuesAfterColl = 0
    spi.send(bytes([0x26]), last_bits=7)  # the tags went back to IDLE: ask again
    spi.clock.sleep(0.001)
    spi.send(bytes([0x26]), last_bits=7)
    spi.clock.sleep(0.001)
    spi.send(bytes([0x93, 0x20]))
    spi.clock.sleep(0.002)
    assert spi.read(r.COLL) & 0x9F == 3
    assert spi.fifo() == bytes([0x12 & 0b11, 0, 0, 0, 0])


def test_the_timer_stops_once_an_answer_begins_and_status1_says_so() -> None:
    spi = Spi(["deadbeef"])
    spi.setup()
    assert not spi.read(r.STATUS1) & 0x08
    spi.send(bytes([0x26]), last_bits=7)
    spi.clock.sleep(9 * r.BIT_TIME)  # sent, waiting for the answer: the timer runs
    assert spi.read(r.STATUS1) & 0x08
    spi.clock.sleep(0.001)
    assert not spi.read(r.STATUS1) & 0x08 and spi.read(r.COM_IRQ) & r.IRQ_RX


def test_an_answer_cut_off_stops_the_timer_and_raises_no_interrupt_ever() -> None:
    from drivers.mfrc522_emu import IDEAL, EmulatedRig

    clock = VirtualClock()
    rig = EmulatedRig(clock, profile=IDEAL.with_(partial_rate=1.0))
    rig.add_reader(0, 0).lay(EmulatedTag.from_hex("deadbeef"))
    spi = Spi([])
    spi.clock, spi.dev = clock, rig.spidev()
    spi.dev.open(0, 0)
    spi.setup()
    spi.send(bytes([0x26]), last_bits=7)
    clock.sleep(0.5)  # far past the timer's 10 ms
    assert spi.read(r.COM_IRQ) & 0x7F & ~(r.IRQ_TX | r.IRQ_IDLE) == 0
    assert not spi.read(r.STATUS1) & 0x08  # stopped by the answer's first bits
    spi.write(r.COMMAND, r.CMD_IDLE)


def test_harsh_answers_come_late_but_within_300_us() -> None:
    from drivers.mfrc522_emu import FRAME_DELAY, HARSH, EmulatedRig

    clock = VirtualClock()
    rig = EmulatedRig(clock, profile=HARSH.with_(bit_error_rate=0.0, noise_rate=0.0,
                                                 partial_rate=0.0), seed=2)
    chip = rig.add_reader(0, 0)
    chip.lay(EmulatedTag.from_hex("deadbeef"))
    spi = Spi([])
    spi.clock, spi.dev = clock, rig.spidev()
    spi.dev.open(0, 0)
    spi.setup()
    delays = []
    for _ in range(40):
        spi.write(r.TX_CONTROL, 0x80)
        clock.sleep(0.005)  # off long enough for the tag to start from IDLE again
        spi.write(r.TX_CONTROL, 0x83)
        clock.sleep(0.005)
        sent = spi.send(bytes([0x26]), last_bits=7)
        tx_end = sent + (7 + 2) * r.BIT_TIME
        assert chip.pending is not None and chip.pending.rx_start is not None
        delays.append(chip.pending.rx_start - tx_end - FRAME_DELAY)
        clock.sleep(0.002)
    assert min(delays) >= 0 and max(delays) <= 300e-6 and max(delays) > 150e-6

"""An emulated MFRC522 at register level behind a fake ``spidev.SpiDev``, with ISO 14443A tags.

The real driver (:mod:`drivers.mfrc522`) runs unchanged against it. The chip model covers what
the driver uses: the register file, the 64-byte FIFO (with overflow), CommandReg (Idle,
CalcCRC, Transceive, SoftReset), the interrupt bits of ComIrqReg/DivIrqReg, ErrorReg
(collision, parity, CRC, buffer overflow), CollReg, BitFramingReg (bit-oriented frames with
TxLastBits and RxAlign), the timer (TAuto start at the end of sending, stop at the start of an
answer, TCounterVal counting down) and the antenna drivers (TxControlReg). Its timing follows
the chip: an operation completes at the instant the real chip would complete it, computed from
a :class:`drivers.clock.Clock`, so with a real clock the driver waits as long as on the table
and with a virtual clock tests run in no time. A received frame reaches the FIFO byte by byte
as each byte (with its parity bit) is in; each error bit is set, with ErrIRq, the moment the
receiver sees it (CollErr and CollReg at the colliding bit, ParityErr at the end of the first
bad byte) while the frame goes on; RxIRq, RxLastBits and a CRC error come at its end. An SPI
transfer itself takes no time (no wire time, no system call).

Tags (:class:`EmulatedTag`) follow the ISO/IEC 14443-3 type A state machine: IDLE, READY
(per cascade level), ACTIVE, HALT; REQA, WUPA, anticollision (answering only if the known bits
match, so several tags in the field collide bit by bit), SELECT with CRC_A, HLTA. A tag hears
no frame while it is still sending its answer. They lose power when the reader's field goes
off, and go back to IDLE only if it stays off for their ``retention`` (:data:`TAG_RETENTION`);
through a shorter gap they keep their state (a halted tag stays halted).

>>> from drivers.clock import VirtualClock
>>> rig = EmulatedRig(VirtualClock())
>>> chip = rig.add_reader(0, 0)
>>> spi = rig.spidev(); spi.open(0, 0)
>>> hex(spi.xfer2([0x80 | (0x37 << 1), 0])[1])
'0x92'

Radio as it is under a table (:class:`RadioProfile`, each effect a named knob; ``IDEAL`` has
none of them, :data:`HARSH` all, used by the driver tests and ``skat-table simulate --harsh``).
The chip's own rules hold in every profile: collided bytes carry parity errors, CollReg's
ValuesAfterColl decides whether the bits after a collision are cleared, the timer stops once an
answer has begun (TRunning in Status1Reg) and a frame that never ends raises no interrupt.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from drivers import mfrc522_regs as r
from drivers.clock import Clock

# The guard time before a tag in a freshly switched-on field can answer.
TAG_POWER_UP = 0.0015
# How long a tag keeps its state (HALT, READY, ...) without a field: through a shorter gap it
# comes back where it was. An ASSUMPTION, like HARSH's figures, below the 5 ms a reader waits
# with its field off to reset the tags (NXP's reader library: PHHAL_HW_FIELD_OFF_DEFAULT).
TAG_RETENTION = 0.003
# Frame delay time between the end of a command and the start of the tag's answer (~1172/fc).
FRAME_DELAY = 1172 / r.CHIP_CLOCK_HZ
SOFT_RESET_TIME = 0.0005
# Status1Reg bit 3: the timer is running.
STATUS1_TRUNNING = 0x08
# With TAuto the timer stops once the 5th bit of an answer (start bit + 4 data bits) is in.
TIMER_STOP_BITS = 5


@dataclass(frozen=True)
class RadioProfile:
    """What the radio does to the exchanges, knob by knob.

    The figures of :data:`HARSH` are ASSUMPTIONS, not measurements: they make the tests meet
    every effect often, and are to be replaced by what ``skat-table probe`` measures on a
    real table (docs/bring-up.md).

    - ``stacked_read_chance``: the chance that a tag answers at all during one field cycle, by
      the number of tags stacked over it (index 0: none over it; the last figure repeats).
      Stacked inlays detune each other: one reads always, two usually, three rarely.
    - ``stacked_strength``: a tag's signal, relative, falls by this factor per tag over it.
    - ``mask_ratio``: a tag this many times stronger than another masks it: the weak answer is
      not heard at all, so no collision is seen (``None``: every answer collides).
    - ``bit_error_rate``: each bit of a tag's answer flips with this chance (a flip in a byte
      is a parity error; two in one byte pass the parity and fail the BCC or CRC).
    - ``noise_rate``: per exchange, the chance that noise arrives as a short damaged frame;
      it doubles with each 5 dB of receiver gain above 33 dB (48 dB: eight times).
    - ``partial_rate``: per answer, the chance that it begins and never ends (a card lifted
      mid-answer): the timer stops, and no interrupt ever comes.
    - ``late_max``: answers begin up to this many seconds later than the ISO frame delay
      (uniformly), whatever the driver expects.
    - ``overlap_chance``: for pads set too close (:meth:`EmulatedRig.overlap`), the chance per
      field cycle that a neighbour's field powers a tag (and so reads it).
    - ``spi_max_hz``/``spi_error_rate``: above this SPI clock the leads are too long: each
      byte read back has a bit flipped with ``spi_error_rate`` (times the overspeed).
    """

    name: str = "ideal"
    stacked_read_chance: tuple[float, ...] = (1.0,)
    stacked_strength: float = 1.0
    mask_ratio: float | None = None
    bit_error_rate: float = 0.0
    noise_rate: float = 0.0
    partial_rate: float = 0.0
    late_max: float = 0.0
    overlap_chance: float = 0.0
    spi_max_hz: int | None = None
    spi_error_rate: float = 0.0

    def read_chance(self, over: int) -> float:
        chances = self.stacked_read_chance
        return chances[min(over, len(chances) - 1)]

    def with_(self, **knobs: object) -> RadioProfile:
        """A copy with some knobs changed: ``HARSH.with_(partial_rate=1.0)``."""
        return replace(self, **knobs)  # type: ignore[arg-type]


IDEAL = RadioProfile()
HARSH = RadioProfile(
    name="harsh",
    stacked_read_chance=(1.0, 0.85, 0.35, 0.1),  # pile of 2 read whole 85 %, of 3 about 30 %
    stacked_strength=0.5,
    mask_ratio=3.0,
    bit_error_rate=3e-4,  # about 1 read in 25 of a 7-byte UID has a damaged frame
    noise_rate=0.005,
    partial_rate=0.002,
    late_max=300e-6,
    overlap_chance=0.3,
    spi_max_hz=1_000_000,  # 30-50 cm of ribbon under a table
    spi_error_rate=0.01,
)
PROFILES = {"ideal": IDEAL, "harsh": HARSH}


def _bits(data: bytes, nbits: int | None = None) -> list[int]:
    out = [(byte >> i) & 1 for byte in data for i in range(8)]
    return out if nbits is None else out[:nbits]


def _pack(bits: Sequence[int], offset: int = 0) -> tuple[bytes, int]:
    """Pack bits LSB first, starting at bit ``offset`` of byte 0; also the valid bits of the
    last byte (0 = all 8)."""
    total = offset + len(bits)
    out = bytearray((total + 7) // 8)
    for i, bit in enumerate(bits):
        if bit:
            pos = offset + i
            out[pos // 8] |= 1 << (pos % 8)
    return bytes(out), total % 8


def cascade_parts(uid: bytes) -> list[bytes]:
    """The UID as sent per cascade level: 4 bytes plus BCC each, with the cascade tag 0x88."""
    if len(uid) == 4:
        parts = [uid]
    elif len(uid) == 7:
        parts = [bytes([r.PICC_CASCADE_TAG]) + uid[:3], uid[3:]]
    elif len(uid) == 10:
        parts = [bytes([r.PICC_CASCADE_TAG]) + uid[:3], bytes([r.PICC_CASCADE_TAG]) + uid[3:6],
                 uid[6:]]
    else:
        raise ValueError(f"a type A UID has 4, 7 or 10 bytes, not {len(uid)}")
    return [p + bytes([r.bcc(p)]) for p in parts]


@dataclass(eq=False)
class EmulatedTag:
    """One ISO 14443A tag (an NTAG213 sticker by default when the UID has 7 bytes).

    ``fault`` makes it misbehave: ``"crc"`` corrupts the CRC of its last SELECT answer (the
    tag is selected, but the reader cannot trust what it heard), ``"parity"`` makes every
    answer arrive with a parity error, ``"nohalt"`` ignores HLTA (and so answers again),
    ``"weak"`` (a sticker at the edge of the field, or a cracked inlay) has one bit of every
    answer flipped. ``strength`` is its signal relative to a tag lying alone. ``retention``:
    a field gap shorter than this leaves its state as it was (:data:`TAG_RETENTION`); only a
    longer one resets it to IDLE.
    """

    uid: bytes
    fault: str | None = None
    strength: float = 1.0
    state: str = "IDLE"
    level: int = 0
    from_halt: bool = False
    # Until then it is still sending its last answer and hears no frame (a tag cannot receive
    # while it load-modulates; ISO/IEC 14443-3 has the reader wait out its answer and the
    # frame delay after it).
    sending_until: float = field(default=0.0, repr=False)
    retention: float = TAG_RETENTION
    unpowered_since: float | None = field(default=None, repr=False)
    parts: list[bytes] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self.parts = cascade_parts(self.uid)

    @classmethod
    def from_hex(cls, uid: str, fault: str | None = None, strength: float = 1.0) -> EmulatedTag:
        return cls(bytes.fromhex(uid), fault, strength)

    @property
    def atqa(self) -> bytes:
        size = {4: 0x00, 7: 0x40, 10: 0x80}[len(self.uid)]
        return bytes([size | 0x04, 0x00])

    @property
    def sak_final(self) -> int:
        return 0x00 if len(self.uid) == 7 else 0x08

    def power_off(self) -> None:
        """Reset at once (a card laid, lifted, or gone mid-answer)."""
        self.state, self.level, self.from_halt = "IDLE", 0, False
        self.sending_until = 0.0
        self.unpowered_since = None

    def lose_power(self, now: float) -> None:
        """The field that powered it went off at ``now``: its state fades, not yet gone."""
        if self.unpowered_since is None:
            self.unpowered_since = now
        self.sending_until = 0.0

    def regain_power(self, at: float) -> None:
        """A field powers it again from ``at``: after a gap of ``retention`` or more it
        starts from IDLE, after a shorter one where it was."""
        if self.unpowered_since is not None:
            if at - self.unpowered_since >= self.retention:
                self.power_off()
            self.unpowered_since = None

    def _reset_on_error(self) -> None:
        self.state = "HALT" if self.from_halt else "IDLE"
        self.level = 0

    def receive(self, data: bytes, tx_last_bits: int) -> list[int] | None:
        """Handle one frame; the answer as bits (LSB first), or None for silence."""
        nbits = len(data) * 8 - ((8 - tx_last_bits) % 8)
        if nbits == 7 and len(data) == 1:
            cmd = data[0] & 0x7F
            if (cmd == r.PICC_REQA and self.state == "IDLE") or (
                cmd == r.PICC_WUPA and self.state in ("IDLE", "HALT")
            ):
                self.from_halt = self.state == "HALT"
                self.state, self.level = "READY", 0
                return _bits(self.atqa)
            if self.state in ("READY", "ACTIVE"):
                self._reset_on_error()
            return None
        if self.state == "READY" and data and data[0] in r.PICC_SEL_CL:
            return self._anticollision_or_select(data, nbits)
        if (
            self.state == "ACTIVE"
            and len(data) == 4
            and data[:2] == bytes([r.PICC_HLTA, 0])
            and r.crc_a(data[:2]) == data[2:]
        ):
            if self.fault != "nohalt":
                self.state = "HALT"
            return None
        if self.state in ("READY", "ACTIVE"):
            self._reset_on_error()
        return None

    def _anticollision_or_select(self, data: bytes, nbits: int) -> list[int] | None:
        if r.PICC_SEL_CL.index(data[0]) != self.level or len(data) < 2:
            self._reset_on_error()
            return None
        part = self.parts[self.level]
        nvb = data[1]
        if nvb == r.NVB_SELECT and nbits == 9 * 8:
            if r.crc_a(data[:7]) != data[7:9]:
                self._reset_on_error()
                return None
            if data[2:7] != part:
                return None  # a SELECT for another tag: stay READY, silent
            last = self.level == len(self.parts) - 1
            sak = self.sak_final if last else r.SAK_CASCADE
            if last:
                self.state = "ACTIVE"
            else:
                self.level += 1
            crc = r.crc_a(bytes([sak]))
            if self.fault == "crc" and last:
                crc = bytes([crc[0] ^ 0x5A, crc[1]])
            return _bits(bytes([sak]) + crc)
        known = ((nvb >> 4) - 2) * 8 + (nvb & 0x0F)
        if known < 0 or known >= 40 or nbits != 16 + known:
            self._reset_on_error()
            return None
        mine = _bits(part)
        if _bits(data[2:], known) != mine[:known]:
            return None
        return mine[known:]


@dataclass
class _Pending:
    """A transceive or CRC calculation in progress and when each of its effects happens.

    A received frame reaches the FIFO byte by byte as each byte (with its parity bit) is in;
    an error bit is set (with ErrIRq) the moment the receiver detects it: CollErr and CollReg
    at the bit that collided, ParityErr at the end of the first byte whose parity is wrong,
    CRCErr and ProtocolErr at the end of the frame, with RxIRq.
    """

    kind: str
    start: float = 0.0
    tx_end: float = 0.0
    rx_start: float | None = None
    rx_end: float | None = None
    answer: list[int] | None = None
    collision: int | None = None
    parity_byte: int | None = None  # first byte (of the FIFO's) with a wrong parity bit
    protocol: bool = False
    partial: bool = False
    cut_at: float | None = None  # a partial frame: when the tag fell silent
    done_at: float = 0.0
    crc: bytes = b""
    # Worked out when sending starts (what the receiver will do, and when):
    data: bytes = b""  # the bytes the FIFO gets, RxAlign applied, CRC not stripped
    last_bits: int = 0
    byte_times: list[float] = field(default_factory=list)  # when each byte is complete
    pushed: int = 0  # bytes already put in the FIFO
    errors: list[tuple[float, int]] = field(default_factory=list)  # (when, ErrorReg bits)
    coll_reg: int = 0  # CollReg's position bits once the collision is seen


class EmulatedMFRC522:
    """One MFRC522 with the tags lying on its antenna.

    ``dead`` makes it answer every SPI byte with 0x00 (``"zeros"``: unpowered) or 0xFF
    (``"ones"``: MISO floating), as a reader with a broken cable does.
    """

    VERSION = 0x92

    def __init__(self, clock: Clock, rig: EmulatedRig | None = None,
                 profile: RadioProfile | None = None) -> None:
        self.clock = clock
        self.rig = rig
        self.profile = profile or (rig.profile if rig is not None else IDEAL)
        self.rng = rig.rng if rig is not None else random.Random(0)
        self.tags: list[EmulatedTag] = []  # in the order laid: the last one lies on top
        self.dead: str | None = None
        self.spi_hz = 0  # the clock the SPI device runs at (set by FakeSpiDev)
        self._cycle: dict[int, tuple[EmulatedTag, float] | None] = {}  # this field cycle
        self.exchanges = 0
        self.spi_transfers = 0
        self.radio_time = 0.0  # seconds the chip spent sending, waiting and receiving
        self._reset_registers()

    # -- test controls -------------------------------------------------------------------
    def lay(self, tag: EmulatedTag) -> EmulatedTag:
        """Lay ``tag`` on top of what lies on this antenna."""
        if tag not in self.tags:
            self.tags.append(tag)
            tag.power_off()
            self._cycle.pop(id(tag), None)
        return tag

    def lift(self, tag: EmulatedTag) -> None:
        if tag in self.tags:
            self.tags.remove(tag)
            tag.power_off()
            self._cycle.pop(id(tag), None)

    @property
    def field_on(self) -> bool:
        return bool(self.regs[r.TX_CONTROL] & r.TX_CONTROL_RF)

    # -- SPI ---------------------------------------------------------------------------------
    def transfer(self, data: Sequence[int]) -> list[int]:
        """One chip-select-low transaction, as ``SpiDev.xfer2`` does it."""
        self.spi_transfers += 1
        if self.dead:
            return [0x00 if self.dead == "zeros" else 0xFF] * len(data)
        if not data:
            return []
        first = data[0]
        reg = (first >> 1) & 0x3F
        if first & 0x80:  # read: each byte names the next register, the last is a dummy
            out = [0]
            for byte in data[1:]:
                out.append(self._read(reg))
                reg = (byte >> 1) & 0x3F
            return self._leads(out)
        for byte in data[1:]:
            self._write(reg, byte)
        return [0] * len(data)

    def _leads(self, out: list[int]) -> list[int]:
        """Long SPI leads clocked too fast: now and then a bit read back flips."""
        limit = self.profile.spi_max_hz
        if limit is None or self.spi_hz <= limit or not self.profile.spi_error_rate:
            return out
        chance = self.profile.spi_error_rate * self.spi_hz / limit
        return [b ^ (1 << self.rng.randrange(8)) if self.rng.random() < chance else b
                for b in out]

    # -- the chip ----------------------------------------------------------------------------
    def _reset_registers(self) -> None:
        self.regs = bytearray(64)
        for reg, value in {
            r.COMMAND: 0x20, r.COM_IEN: 0x80, r.WATER_LEVEL: 0x08, r.CONTROL: 0x10,
            r.COLL: 0x80, r.MODE: 0x3F, r.TX_CONTROL: 0x80, r.RF_CFG: 0x48,
            r.MOD_WIDTH: 0x26, r.VERSION: self.VERSION,
        }.items():
            self.regs[reg] = value
        self.fifo = bytearray()
        self.pending: _Pending | None = None
        self.reset_until = 0.0
        self.timer_start: float | None = None
        self.timer_stop_at: float | None = None  # when an answer stops the running timer
        self.timer_value = 0
        self.field_since: float | None = None
        for tag in self.tags:
            tag.lose_power(self.clock.now())  # the reset switched the antenna drivers off

    def _tick(self) -> float:
        prescaler = ((self.regs[r.T_MODE] & 0x0F) << 8) | self.regs[r.T_PRESCALER]
        return (2 * prescaler + 1) / r.CHIP_CLOCK_HZ

    def _reload(self) -> int:
        return (self.regs[r.T_RELOAD_H] << 8) | self.regs[r.T_RELOAD_L]

    def _timer_expiry(self) -> float | None:
        if self.timer_start is None:
            return None
        return self.timer_start + (self._reload() + 1) * self._tick()

    def _update(self) -> None:
        """Apply everything that has happened on the chip up to now."""
        now = self.clock.now()
        p = self.pending
        if p is not None and p.kind == "crc" and now >= p.done_at:
            self.regs[r.CRC_RESULT_H], self.regs[r.CRC_RESULT_L] = p.crc[1], p.crc[0]
            self.regs[r.DIV_IRQ] |= r.DIV_CRC
            self.regs[r.COM_IRQ] |= r.IRQ_IDLE
            self.regs[r.COMMAND] &= 0xF0
            self.pending = None
        elif p is not None and p.kind == "transceive":
            if now >= p.tx_end:
                self.regs[r.COM_IRQ] |= r.IRQ_TX
            if p.answer is not None:
                self._receive_until(p, now)
            if p.rx_end is not None and now >= p.rx_end and p.answer is not None:
                self._deliver(p)
                self.pending = None
        expiry = self._timer_expiry()
        if expiry is not None:
            stop = self.timer_stop_at
            if stop is not None and stop <= now and stop < expiry:
                self.timer_value = self._counter_at(stop)
                self.timer_start = self.timer_stop_at = None
            elif now >= expiry:
                self.timer_value = 0
                self.timer_start = self.timer_stop_at = None
                self.regs[r.COM_IRQ] |= r.IRQ_TIMER
                if self.pending is not None and self.pending.kind == "transceive":
                    self.radio_time += expiry - self.pending.start
                    self.pending = None

    def _counter_at(self, t: float) -> int:
        if self.timer_start is None:
            return self.timer_value
        ticks = int((t - self.timer_start) / self._tick())
        return max(0, self._reload() - ticks)

    def _bit_end(self, p: _Pending, i: int) -> float:
        """When data bit ``i`` of the answer is in: after the start bit, the bits before it
        and a parity bit per byte completed before it (RxAlign shifts the byte boundaries)."""
        assert p.rx_start is not None
        align = (self.regs[r.BIT_FRAMING] >> 4) & 0x07
        return p.rx_start + (1 + i + 1 + (align + i) // 8) * r.BIT_TIME

    def _plan_reception(self, p: _Pending) -> None:
        """Work out when each byte of the answer lands in the FIFO and each error is seen."""
        assert p.answer is not None and p.rx_start is not None
        align = (self.regs[r.BIT_FRAMING] >> 4) & 0x07
        p.data, p.last_bits = _pack(p.answer, align)
        end = p.rx_end if p.rx_end is not None else float("inf")
        complete = len(p.data) - (1 if p.last_bits else 0)
        # Byte k is in once its last data bit and its parity bit are.
        p.byte_times = [min(self._bit_end(p, 8 * (k + 1) - align - 1) + r.BIT_TIME, end)
                        for k in range(complete)]
        if p.collision is not None:
            pos = align + p.collision + 1
            p.coll_reg = r.COLL_POS_NOT_VALID if pos > 32 else pos % 32
            p.errors.append((self._bit_end(p, p.collision), r.ERR_COLL))
        if p.parity_byte is not None:
            when = p.byte_times[p.parity_byte] if p.parity_byte < complete else end
            p.errors.append((when, r.ERR_PARITY))
        if p.protocol:
            p.errors.append((end, r.ERR_PROTOCOL))
        p.errors.sort()

    def _receive_until(self, p: _Pending, now: float) -> None:
        """What the receiver has done by ``now``: the bytes that are in go to the FIFO (the
        CRC's two held back while RxCRCEn is on), the errors seen so far raise ErrIRq."""
        if p.cut_at is not None:
            now = min(now, p.cut_at)  # the tag fell silent: nothing more comes
        crc_on = bool(self.regs[r.RX_MODE] & r.CRC_ENABLE)
        ready = sum(1 for t in p.byte_times if t <= now)
        if crc_on:
            ready = min(ready, max(0, len(p.data) - 2))
        if ready > p.pushed:
            self._fifo_put(p.data[p.pushed:ready])
            p.pushed = ready
        while p.errors and p.errors[0][0] <= now:
            _, bits = p.errors.pop(0)
            if bits & r.ERR_COLL:
                self.regs[r.COLL] = (self.regs[r.COLL] & 0x80) | p.coll_reg
            self.regs[r.ERROR] |= bits
            self.regs[r.COM_IRQ] |= r.IRQ_ERR

    def _deliver(self, p: _Pending) -> None:
        """The end of the frame: the last bytes, RxLastBits, the CRC check, RxIRq."""
        assert p.answer is not None and p.rx_end is not None
        self._receive_until(p, float("inf"))  # every byte and error of the frame is in
        rest = p.data[p.pushed:]
        if self.regs[r.RX_MODE] & r.CRC_ENABLE:
            if len(p.data) < 3 or r.crc_a(p.data[:-2]) != p.data[-2:]:
                self.regs[r.ERROR] |= r.ERR_CRC
                self.regs[r.COM_IRQ] |= r.IRQ_ERR
            rest = rest[:-2] if len(rest) >= 2 else b""
        self._fifo_put(rest)
        p.pushed = len(p.data)
        self.regs[r.CONTROL] = (self.regs[r.CONTROL] & 0xF8) | p.last_bits
        self.regs[r.COM_IRQ] |= r.IRQ_RX
        self.radio_time += p.rx_end - p.start

    def _fifo_put(self, data: bytes) -> None:
        room = r.FIFO_SIZE - len(self.fifo)
        if len(data) > room:
            self.regs[r.ERROR] |= r.ERR_BUFFER_OVFL
        self.fifo += data[:room]

    def _read(self, reg: int) -> int:
        self._update()
        if reg == r.FIFO_DATA:
            return self.fifo.pop(0) if self.fifo else 0
        if reg == r.FIFO_LEVEL:
            return len(self.fifo)
        if reg == r.COMMAND:
            busy = self.clock.now() < self.reset_until
            return (self.regs[r.COMMAND] & ~r.COMMAND_POWER_DOWN & 0xFF) | (
                r.COMMAND_POWER_DOWN if busy else 0
            )
        if reg in (r.T_COUNTER_H, r.T_COUNTER_L):
            value = self._counter_at(self.clock.now())
            return value >> 8 if reg == r.T_COUNTER_H else value & 0xFF
        if reg == r.COM_IRQ:
            return self.regs[r.COM_IRQ] & 0x7F
        if reg == r.STATUS1:
            running = self.timer_start is not None and not (
                self.timer_stop_at is not None and self.timer_stop_at <= self.clock.now())
            return (self.regs[r.STATUS1] & ~STATUS1_TRUNNING & 0xFF) | (
                STATUS1_TRUNNING if running else 0)
        if reg == r.DIV_IRQ:
            return self.regs[r.DIV_IRQ] & 0x7F
        return self.regs[reg]

    def _write(self, reg: int, value: int) -> None:
        self._update()
        if self.clock.now() < self.reset_until:
            return  # the chip ignores the bus while its oscillator starts
        if reg == r.FIFO_DATA:
            self._fifo_put(bytes([value]))
        elif reg == r.FIFO_LEVEL:
            if value & r.FIFO_FLUSH:
                self.fifo.clear()
                self.regs[r.ERROR] &= ~r.ERR_BUFFER_OVFL & 0xFF
        elif reg == r.COM_IRQ:
            mask = value & 0x7F
            if value & r.IRQ_SET1:
                self.regs[r.COM_IRQ] |= mask
            else:
                self.regs[r.COM_IRQ] &= ~mask & 0xFF
        elif reg == r.DIV_IRQ:
            mask = value & 0x7F
            if value & r.DIV_SET2:
                self.regs[r.DIV_IRQ] |= mask
            else:
                self.regs[r.DIV_IRQ] &= ~mask & 0xFF
        elif reg == r.COMMAND:
            self._command(value)
        elif reg == r.BIT_FRAMING:
            self.regs[reg] = value & 0x7F
            if value & r.BIT_FRAMING_START_SEND and (self.regs[r.COMMAND] & 0x0F) == (
                r.CMD_TRANSCEIVE
            ):
                self._start_send()
        elif reg == r.CONTROL:
            now = self.clock.now()
            if value & r.CONTROL_TSTOP_NOW:
                self.timer_value = self._counter_at(now)
                self.timer_start = None
            if value & r.CONTROL_TSTART_NOW:
                self.timer_start, self.timer_stop_at = now, None
        elif reg == r.TX_CONTROL:
            was_on = self.field_on
            self.regs[reg] = value
            self._field_changed(was_on)
        elif reg == r.COLL:
            self.regs[reg] = (value & 0x80) | (self.regs[reg] & 0x7F)  # ValuesAfterColl only
        elif reg in (r.VERSION, r.ERROR, r.STATUS1, r.STATUS2, r.T_COUNTER_H, r.T_COUNTER_L):
            pass  # read-only
        else:
            self.regs[reg] = value

    def _field_changed(self, was_on: bool) -> None:
        if self.field_on and not was_on:
            self.field_since = self.clock.now()
            self._cycle = {}
            if self.rig is not None:
                self.rig.field_switched()
        elif was_on and not self.field_on:
            self.field_since = None
            self._cycle = {}
            now = self.clock.now()
            for tag in self.tags:
                tag.lose_power(now)
            if self.rig is not None:
                for chip in self.rig.neighbours(self):
                    for tag in chip.tags:
                        if not chip.field_on:
                            tag.lose_power(now)

    def powered(self, now: float) -> bool:
        """The field is on and has been long enough for a tag to power up."""
        return self.field_since is not None and now - self.field_since >= TAG_POWER_UP

    def _powered_this_cycle(self, tag: EmulatedTag, over: int, chance: float,
                            strength: float) -> tuple[EmulatedTag, float] | None:
        """Whether this field cycle powers ``tag`` (decided once per cycle), and its signal."""
        key = id(tag)
        if key not in self._cycle:
            p = self.profile
            powered = chance >= 1.0 or self.rng.random() < chance
            self._cycle[key] = (tag, strength * p.stacked_strength ** over) if powered else None
            if powered and self.field_since is not None:
                tag.regain_power(self.field_since)
        return self._cycle[key]

    def _tags_in_reach(self, now: float) -> list[tuple[EmulatedTag, float]]:
        """Tags that hear this reader, with their signal strength: its own that this field
        cycle powers (stacked ones detune each other), a neighbour's when the pads overlap
        (:meth:`EmulatedRig.overlap`) and, while a neighbour's field is also on, the
        neighbour's tags, which that field keeps powered close enough to hear this reader's
        weaker signal: the cross-read that one field at a time prevents."""
        out: list[tuple[EmulatedTag, float]] = []
        if self.powered(now):
            n = len(self.tags)
            for i, tag in enumerate(self.tags):
                over = n - 1 - i
                got = self._powered_this_cycle(tag, over, self.profile.read_chance(over),
                                               tag.strength)
                if got is not None:
                    out.append(got)
            if self.rig is not None:
                for chip, chance in self.rig.overlaps(self):
                    m = len(chip.tags)
                    for i, tag in enumerate(chip.tags):
                        # A card buried in its pile is detuned for every field, not only its own.
                        over = m - 1 - i
                        got = self._powered_this_cycle(
                            tag, over, chance * self.profile.read_chance(over), tag.strength * 0.5)
                        if got is not None:
                            out.append(got)
        if self.rig is not None and self.rig.crosstalk:
            for chip in self.rig.chips.values():
                if chip is not self and chip.powered(now):
                    out += [(tag, tag.strength) for tag in chip.tags]
        return out

    def _command(self, value: int) -> None:
        cmd = value & 0x0F
        self.regs[r.COMMAND] = value & 0x3F & ~r.COMMAND_POWER_DOWN
        if cmd == r.CMD_SOFT_RESET:
            was_on = self.field_on
            self._reset_registers()
            self._field_changed(was_on)
            self.reset_until = self.clock.now() + SOFT_RESET_TIME
            return
        if cmd != r.CMD_IDLE:
            self.regs[r.ERROR] = 0  # a new command starts with a clean error register
        if cmd == r.CMD_IDLE:
            self.pending = None
        elif cmd == r.CMD_CALC_CRC:
            data = bytes(self.fifo)
            self.fifo.clear()
            # The coprocessor handles one byte per 8 clock cycles or so: well under a microsecond.
            self.pending = _Pending("crc", done_at=self.clock.now() + len(data) * 1e-6,
                                    crc=r.crc_a(data))

    def _start_send(self) -> None:
        now = self.clock.now()
        data = bytes(self.fifo)
        self.fifo.clear()
        tx_last = self.regs[r.BIT_FRAMING] & 0x07
        if self.regs[r.TX_MODE] & r.CRC_ENABLE:
            data += r.crc_a(data)
        nbits = len(data) * 8 - ((8 - tx_last) % 8)
        # Start and end of frame plus a parity bit per full byte.
        send_time = (nbits + nbits // 8 + 2) * r.BIT_TIME
        p = _Pending("transceive", start=now, tx_end=now + send_time)
        self.regs[r.COLL] = (self.regs[r.COLL] & 0x80) | r.COLL_POS_NOT_VALID
        self.exchanges += 1
        answers: list[tuple[EmulatedTag, float, list[int]]] = []
        if self.field_on:
            for tag, strength in self._tags_in_reach(now):
                if tag.sending_until > now:
                    continue  # still sending its answer to the last frame: it hears nothing
                answer = tag.receive(data, tx_last)
                if answer is not None:
                    answers.append((tag, strength, answer))
        answering = [tag for tag, _, _ in answers]  # masked or not, each one sends
        if self.regs[r.T_MODE] & r.T_MODE_TAUTO:
            self.timer_start, self.timer_stop_at = p.tx_end, None
        prof = self.profile
        rng = self.rng
        if answers and prof.mask_ratio is not None:
            # A much stronger answer drowns a weak one: the reader hears no collision at all.
            strongest = max(s for _, s, _ in answers)
            answers = [a for a in answers if a[1] * prof.mask_ratio > strongest]
        noise = False
        if prof.noise_rate:
            gain = {v: k for k, v in r.RX_GAIN_DB.items()}.get(self.regs[r.RF_CFG] & 0x70, 33)
            noise = rng.random() < prof.noise_rate * 2 ** ((gain - 33) / 5)
        if answers:
            length = max(len(a) for _, _, a in answers)
            merged, collision = [], None
            for i in range(length):
                values = {a[i] if i < len(a) else None for _, _, a in answers}
                if len(values) > 1 and collision is None:
                    collision = i
                merged.append(1 if 1 in values else 0)
            # A byte's parity bit covers the byte as framed on air (RxAlign shifts the first).
            align = (self.regs[r.BIT_FRAMING] >> 4) & 0x07
            flipped_bytes: set[int] = set()
            for tag, _, _ in answers:
                rate = prof.bit_error_rate
                if tag.fault == "weak":
                    pos = rng.randrange(len(merged))
                    merged[pos] ^= 1
                    flipped_bytes ^= {(align + pos) // 8}
                elif rate and len(answers) == 1:
                    for pos in range(len(merged)):
                        if rng.random() < rate:
                            merged[pos] ^= 1
                            flipped_bytes ^= {(align + pos) // 8}
            if collision is not None and not self.regs[r.COLL] & 0x80:
                # ValuesAfterColl = 0: the chip clears every bit from the collision on.
                merged[collision:] = [0] * (length - collision)
            p.answer, p.collision = merged, collision
            # A collided byte has no valid parity bit (the bytes after it hardly either); one
            # flipped bit in a byte breaks its parity, two pass it.
            bad = set(flipped_bytes)
            if collision is not None:
                bad.add((align + collision) // 8)
            if any(tag.fault == "parity" for tag, _, _ in answers):
                bad.add(0)
            p.parity_byte = min(bad) if bad else None
            late = rng.uniform(0.0, prof.late_max) if prof.late_max else 0.0
            p.rx_start = p.tx_end + FRAME_DELAY + late
            p.rx_end = p.rx_start + (length + length // 8 + 2) * r.BIT_TIME
            self.timer_stop_at = p.rx_start + TIMER_STOP_BITS * r.BIT_TIME
            for tag in answering:
                tag.sending_until = p.rx_end
            if prof.partial_rate and rng.random() < prof.partial_rate:
                # The answer begins and never ends: the card went away mid-frame. What came
                # before lands in the FIFO; no RxIRq ever comes.
                p.partial = True
                p.cut_at = rng.uniform(p.rx_start, p.rx_end)
                p.rx_end = None
                for tag, _, _ in answers:
                    tag.power_off()
            self._plan_reception(p)
        elif noise:
            # A burst of noise: a few bits that are no frame, with a damaged parity.
            bits = rng.randrange(1, 12)
            p.answer = [rng.randrange(2) for _ in range(bits)]
            p.parity_byte = 0 if bits >= 8 else None
            p.protocol = bits < 8
            p.rx_start = p.tx_end + rng.uniform(0.0, 0.002)
            p.rx_end = p.rx_start + (bits + 2) * r.BIT_TIME
            self.timer_stop_at = p.rx_start + TIMER_STOP_BITS * r.BIT_TIME
            self._plan_reception(p)
        self.pending = p


class FakeSpiDev:
    """Stands in for ``spidev.SpiDev``: ``open(bus, device)``, ``xfer2``, ``close``."""

    def __init__(self, rig: EmulatedRig) -> None:
        self._rig = rig
        self._chip: EmulatedMFRC522 | None = None
        self.max_speed_hz = 500_000
        self.mode = 0

    def open(self, bus: int, device: int) -> None:
        chip = self._rig.chips.get((bus, device))
        if chip is None:
            raise FileNotFoundError(f"/dev/spidev{bus}.{device} does not exist")
        self._chip = chip

    def xfer2(self, data: Sequence[int]) -> list[int]:
        if self._chip is None:
            raise OSError("SPI device not open")
        self._chip.spi_hz = self.max_speed_hz
        return self._chip.transfer(list(data))

    def close(self) -> None:
        self._chip = None


class EmulatedRig:
    """Up to five emulated readers on the Pi's SPI chip selects, sharing one clock.

    ``max_fields_on`` records the most antenna fields that were ever on at the same time.
    With ``crosstalk`` (the default) the readers lie close together under one table top, so
    a tag powered by one reader's field also hears (and answers) any other reader whose
    field is on at the same time. ``profile`` is the radio (:data:`IDEAL`, :data:`HARSH`),
    ``seed`` its random numbers.
    """

    def __init__(self, clock: Clock, crosstalk: bool = True,
                 profile: RadioProfile | None = None, seed: int = 0) -> None:
        self.clock = clock
        self.crosstalk = crosstalk
        self.profile = profile or IDEAL
        self.rng = random.Random(seed)
        self.chips: dict[tuple[int, int], EmulatedMFRC522] = {}
        self.max_fields_on = 0
        self._overlaps: dict[tuple[int, int], float] = {}

    def add_reader(self, bus: int, device: int) -> EmulatedMFRC522:
        chip = self.chips[(bus, device)] = EmulatedMFRC522(self.clock, self)
        return chip

    def spidev(self) -> FakeSpiDev:
        return FakeSpiDev(self)

    def field_switched(self) -> None:
        on = sum(1 for chip in self.chips.values() if chip.field_on)
        self.max_fields_on = max(self.max_fields_on, on)

    def overlap(self, a: EmulatedMFRC522, b: EmulatedMFRC522,
                chance: float | None = None) -> None:
        """Pads set too close: each field reaches the other's tags with ``chance`` per field
        cycle (default: the profile's ``overlap_chance``)."""
        value = self.profile.overlap_chance if chance is None else chance
        self._overlaps[(id(a), id(b))] = self._overlaps[(id(b), id(a))] = value

    def overlaps(self, chip: EmulatedMFRC522) -> list[tuple[EmulatedMFRC522, float]]:
        return [(other, self._overlaps[(id(chip), id(other))])
                for other in self.chips.values() if (id(chip), id(other)) in self._overlaps]

    def neighbours(self, chip: EmulatedMFRC522) -> list[EmulatedMFRC522]:
        return [other for other, _ in self.overlaps(chip)]

"""An emulated MFRC522 at register level behind a fake ``spidev.SpiDev``, with ISO 14443A tags.

The real driver (:mod:`drivers.mfrc522`) runs unchanged against it. The chip model covers what
the driver uses: the register file, the 64-byte FIFO (with overflow), CommandReg (Idle,
CalcCRC, Transceive, SoftReset), the interrupt bits of ComIrqReg/DivIrqReg, ErrorReg
(collision, parity, CRC, buffer overflow), CollReg, BitFramingReg (bit-oriented frames with
TxLastBits and RxAlign), the timer (TAuto start at the end of sending, stop at the start of an
answer, TCounterVal counting down) and the antenna drivers (TxControlReg). Its timing follows
the chip: an operation completes at the instant the real chip would complete it, computed from
a :class:`drivers.clock.Clock`, so with a real clock the driver waits as long as on the table
and with a virtual clock tests run in no time.

Tags (:class:`EmulatedTag`) follow the ISO/IEC 14443-3 type A state machine: IDLE, READY
(per cascade level), ACTIVE, HALT; REQA, WUPA, anticollision (answering only if the known bits
match, so several tags in the field collide bit by bit), SELECT with CRC_A, HLTA. They lose
power, and go back to IDLE, when the reader's field goes off.

>>> from drivers.clock import VirtualClock
>>> rig = EmulatedRig(VirtualClock())
>>> chip = rig.add_reader(0, 0)
>>> spi = rig.spidev(); spi.open(0, 0)
>>> hex(spi.xfer2([0x80 | (0x37 << 1), 0])[1])
'0x92'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from drivers import mfrc522_regs as r
from drivers.clock import Clock

# The guard time before a tag in a freshly switched-on field can answer.
TAG_POWER_UP = 0.0015
# Frame delay time between the end of a command and the start of the tag's answer (~1172/fc).
FRAME_DELAY = 1172 / r.CHIP_CLOCK_HZ
SOFT_RESET_TIME = 0.0005


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
    answer arrive with a parity error, ``"nohalt"`` ignores HLTA (and so answers again).
    """

    uid: bytes
    fault: str | None = None
    state: str = "IDLE"
    level: int = 0
    from_halt: bool = False
    parts: list[bytes] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self.parts = cascade_parts(self.uid)

    @classmethod
    def from_hex(cls, uid: str, fault: str | None = None) -> EmulatedTag:
        return cls(bytes.fromhex(uid), fault)

    @property
    def atqa(self) -> bytes:
        size = {4: 0x00, 7: 0x40, 10: 0x80}[len(self.uid)]
        return bytes([size | 0x04, 0x00])

    @property
    def sak_final(self) -> int:
        return 0x00 if len(self.uid) == 7 else 0x08

    def power_off(self) -> None:
        self.state, self.level, self.from_halt = "IDLE", 0, False

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
    """A transceive or CRC calculation in progress and when each of its effects happens."""

    kind: str
    start: float = 0.0
    tx_end: float = 0.0
    rx_start: float | None = None
    rx_end: float | None = None
    answer: list[int] | None = None
    collision: int | None = None
    parity: bool = False
    done_at: float = 0.0
    crc: bytes = b""


class EmulatedMFRC522:
    """One MFRC522 with the tags lying on its antenna.

    ``dead`` makes it answer every SPI byte with 0x00 (``"zeros"``: unpowered) or 0xFF
    (``"ones"``: MISO floating), as a reader with a broken cable does.
    """

    VERSION = 0x92

    def __init__(self, clock: Clock, rig: EmulatedRig | None = None) -> None:
        self.clock = clock
        self.rig = rig
        self.tags: list[EmulatedTag] = []
        self.dead: str | None = None
        self.spi_transfers = 0
        self.radio_time = 0.0  # seconds the chip spent sending, waiting and receiving
        self._reset_registers()

    # -- test controls -------------------------------------------------------------------
    def lay(self, tag: EmulatedTag) -> EmulatedTag:
        if tag not in self.tags:
            self.tags.append(tag)
            tag.power_off()
        return tag

    def lift(self, tag: EmulatedTag) -> None:
        if tag in self.tags:
            self.tags.remove(tag)
            tag.power_off()

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
            return out
        for byte in data[1:]:
            self._write(reg, byte)
        return [0] * len(data)

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
            tag.power_off()

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
            if p.rx_end is not None and now >= p.rx_end:
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

    def _deliver(self, p: _Pending) -> None:
        assert p.answer is not None and p.rx_end is not None
        align = (self.regs[r.BIT_FRAMING] >> 4) & 0x07
        data, last_bits = _pack(p.answer, align)
        err = 0
        if self.regs[r.RX_MODE] & r.CRC_ENABLE:
            if len(data) < 3 or r.crc_a(data[:-2]) != data[-2:]:
                err |= r.ERR_CRC
            data = data[:-2]
        if p.collision is not None:
            err |= r.ERR_COLL
            pos = align + p.collision + 1
            self.regs[r.COLL] = (self.regs[r.COLL] & 0x80) | (
                r.COLL_POS_NOT_VALID if pos > 32 else pos % 32
            )
        if p.parity:
            err |= r.ERR_PARITY
        self._fifo_put(data)
        self.regs[r.CONTROL] = (self.regs[r.CONTROL] & 0xF8) | last_bits
        self.regs[r.ERROR] |= err
        self.regs[r.COM_IRQ] |= r.IRQ_RX | (r.IRQ_ERR if err else 0)
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
        elif reg in (r.VERSION, r.ERROR, r.STATUS1, r.STATUS2, r.T_COUNTER_H, r.T_COUNTER_L):
            pass  # read-only
        else:
            self.regs[reg] = value

    def _field_changed(self, was_on: bool) -> None:
        if self.field_on and not was_on:
            self.field_since = self.clock.now()
            if self.rig is not None:
                self.rig.field_switched()
        elif was_on and not self.field_on:
            self.field_since = None
            for tag in self.tags:
                tag.power_off()

    def powered(self, now: float) -> bool:
        """The field is on and has been long enough for a tag to power up."""
        return self.field_since is not None and now - self.field_since >= TAG_POWER_UP

    def _tags_in_reach(self, now: float) -> list[EmulatedTag]:
        """Tags that hear this reader: its own (if its field has powered them) and, while a
        neighbour's field is also on, the neighbour's tags, which that field keeps powered
        close enough to hear this reader's weaker signal: the cross-read that one field at
        a time prevents."""
        tags = list(self.tags) if self.powered(now) else []
        if self.rig is not None and self.rig.crosstalk:
            for chip in self.rig.chips.values():
                if chip is not self and chip.powered(now):
                    tags += chip.tags
        return tags

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
        self.regs[r.COLL] |= r.COLL_POS_NOT_VALID
        answers = []
        if self.field_on:
            for tag in self._tags_in_reach(now):
                answer = tag.receive(data, tx_last)
                if answer is not None:
                    answers.append((tag, answer))
        if self.regs[r.T_MODE] & r.T_MODE_TAUTO:
            self.timer_start, self.timer_stop_at = p.tx_end, None
        if answers:
            length = max(len(a) for _, a in answers)
            merged, collision = [], None
            for i in range(length):
                values = {a[i] if i < len(a) else None for _, a in answers}
                if len(values) > 1 and collision is None:
                    collision = i
                merged.append(1 if 1 in values else 0)
            p.answer, p.collision = merged, collision
            p.parity = any(tag.fault == "parity" for tag, _ in answers)
            p.rx_start = p.tx_end + FRAME_DELAY
            p.rx_end = p.rx_start + (length + length // 8 + 2) * r.BIT_TIME
            self.timer_stop_at = p.rx_start
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
        return self._chip.transfer(list(data))

    def close(self) -> None:
        self._chip = None


class EmulatedRig:
    """Up to five emulated readers on the Pi's SPI chip selects, sharing one clock.

    ``max_fields_on`` records the most antenna fields that were ever on at the same time.
    With ``crosstalk`` (the default) the readers lie close together under one table top, so
    a tag powered by one reader's field also hears (and answers) any other reader whose
    field is on at the same time.
    """

    def __init__(self, clock: Clock, crosstalk: bool = True) -> None:
        self.clock = clock
        self.crosstalk = crosstalk
        self.chips: dict[tuple[int, int], EmulatedMFRC522] = {}
        self.max_fields_on = 0

    def add_reader(self, bus: int, device: int) -> EmulatedMFRC522:
        chip = self.chips[(bus, device)] = EmulatedMFRC522(self.clock, self)
        return chip

    def spidev(self) -> FakeSpiDev:
        return FakeSpiDev(self)

    def field_switched(self) -> None:
        on = sum(1 for chip in self.chips.values() if chip.field_on)
        self.max_fields_on = max(self.max_fields_on, on)

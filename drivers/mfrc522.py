"""Our own MFRC522 driver on ``spidev``: one reader chip, from reset to a list of UIDs.

Why not the ``mfrc522`` package: it reads cascade level 1 only (a 7-byte NTAG UID comes back as
0x88 plus 3 bytes), spins thousands of SPI transfers per empty poll and takes over RPi.GPIO.
This driver does the whole ISO/IEC 14443-3 type A dance:

- initialisation with a self-check: the version register must name a chip, and a register must
  keep what is written (a reader answering all zeros or all ones is dead);
- antenna on/off and receiver gain; REQA/WUPA; anticollision through cascade levels 1, 2 and 3
  (4-, 7- and 10-byte UIDs come back whole, collisions resolved bit by bit); SELECT with the
  CRC_A from the chip's own coprocessor, the answer's CRC checked the same way; HLTA after each
  read, so every tag of a pile answers once per poll and a new card on a pile is still seen;
  the field stays off 5 ms before it comes on again, so the tags start each poll from IDLE;
- waits on the chip's interrupt bits and its own timer by sleeping (an empty poll costs the
  antenna settle time plus one timer period, ~15 ms, and about a dozen SPI transfers); once an
  answer has begun (the timer stops without firing, or ErrIRq) it looks every ~200 us until
  RxIRq: a collision raises ErrIRq mid-frame, before the FIFO holds the colliding byte, so
  errors are judged at the frame's end; an answer that begins and never ends (a card lifted
  mid-answer) is a tag error after a software deadline, never a dead reader;
- errors are read in NXP's order: a collision first (the collided bytes carry parity errors
  that mean nothing), then protocol, parity, CRC; ValuesAfterColl is cleared, so the chip
  zeroes the bits after a collision;
- one weak tag does not hide the others: after a failure the walk takes the other branch of
  the last collision, remembers the prefixes that failed, and goes on; a tag that keeps
  failing is counted (:attr:`MFRC522.unreadable`) for the poller to tell the players;
- the reset pin (NRSTPD) through gpiozero, if wired.

Errors by kind (:attr:`MFRC522.errors`) and a ``trace`` callable (the raw ComIrqReg, ErrorReg
and CollReg of each exchange) serve ``skat-table probe``.

``spidev`` and gpiozero are imported only when a reader is opened. Pass ``spi_factory`` (a
callable returning an object like ``spidev.SpiDev``) to run against the emulated chip:

>>> from drivers.clock import VirtualClock
>>> from drivers.mfrc522_emu import EmulatedRig, EmulatedTag
>>> clock = VirtualClock()
>>> rig = EmulatedRig(clock)
>>> chip = rig.add_reader(0, 0)
>>> _ = chip.lay(EmulatedTag.from_hex("04a224b2c94f80"))
>>> reader = MFRC522(0, 0, clock=clock, spi_factory=rig.spidev)
>>> reader.open()
'MFRC522 v2.0'
>>> reader.poll()
['04a224b2c94f80']
"""

from __future__ import annotations

import contextlib
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, NoReturn

from drivers import mfrc522_regs as r
from drivers.clock import Clock, RealClock
from drivers.pins import pin_factory as shared_pin_factory

TIMER_PRESCALER = 0x0A9  # 13.56 MHz / (2 * 169 + 1) = 40 kHz: one timer tick is 25 us
TIMER_TICK = (2 * TIMER_PRESCALER + 1) / r.CHIP_CLOCK_HZ
DEFAULT_TIMEOUT = 0.010  # REQA, anticollision, SELECT: generous for a tag at the field's edge
HALT_TIMEOUT = 0.001  # ISO 14443-3: a tag that does not answer HLTA within 1 ms is halted
SETTLE_TIME = 0.005  # ISO 14443-2: the reader waits 5 ms after switching the field on
# A tag keeps its state (HALT included) through a short gap in the field: the field stays off
# 5 ms to reset every tag, as in NXP's NFC reader library, whose field reset (phhalHw_FieldReset;
# phhalHw_Rc523_FieldReset for the MFRC522's sibling RC523) waits the field-off time
# PHHAL_HW_FIELD_OFF_DEFAULT, 5 ms (phhalHw.h), and then PHHAL_HW_FIELD_RECOVERY_DEFAULT, 5 ms,
# with the field on again before the first command.
FIELD_OFF_TIME = 0.005
DEFAULT_GAIN_DB = 33  # the chip's reset value and the other libraries' choice; 48 dB hears noise
DEFAULT_SPEED_HZ = 1_000_000  # leads of 30-50 cm under a table top; 4 MHz wants short wires
# ISO 14443-3 frame delay after a command (1236/fc at most), plus what a slow tag may add.
FRAME_DELAY = 1236 / r.CHIP_CLOCK_HZ
LATE_GRACE = 0.0004  # an answer that has not begun by then is no answer: sleep on the timer
REPOLL = 0.0002  # once an answer has begun, look every 200 us
ANSWER_DEADLINE = 0.002  # an answer that began and is not in after its air time plus this
STATUS1_TRUNNING = 0x08
MAX_TAG_ERRORS = 8  # damaged exchanges one poll tolerates before it gives up on the rest


class ReaderError(Exception):
    """Something went wrong talking to a reader or to a tag; the message says what."""


class DeadReaderError(ReaderError):
    """The reader does not answer like an MFRC522 (no power, a loose wire, a wrong chip select)."""


class TagError(ReaderError):
    """A tag's answer was damaged (CRC, parity, BCC, collision where none may be).

    ``kind``: ``collision``, ``parity``, ``crc``, ``protocol``, ``overflow``, ``timeout`` (a
    tag fell silent mid-read), ``deadline`` (an answer began and never ended) or ``format``.
    """

    def __init__(self, message: str, kind: str = "format") -> None:
        super().__init__(message)
        self.kind = kind


@dataclass(frozen=True, slots=True)
class _Answer:
    data: bytes
    last_bits: int  # valid bits of the last byte, 0 = all eight
    collision: int | None  # CollPos (1-based bit of the received frame) if bits collided


def _default_spi_factory() -> Any:
    import spidev  # Pi only: imported when a reader opens

    return spidev.SpiDev()


class MFRC522:
    """One MFRC522 on ``/dev/spidev<bus>.<device>``.

    Not thread-safe: one poller thread owns all readers.
    """

    def __init__(
        self,
        spi_bus: int = 0,
        spi_device: int = 0,
        *,
        reset_pin: int | str | None = None,
        name: str | None = None,
        clock: Clock | None = None,
        spi_factory: Callable[[], Any] | None = None,
        pin_factory: Any = None,
        speed_hz: int = DEFAULT_SPEED_HZ,
        gain_db: int = DEFAULT_GAIN_DB,
        timeout: float = DEFAULT_TIMEOUT,
        settle: float = SETTLE_TIME,
        max_tags: int = 40,
    ) -> None:
        if gain_db not in r.RX_GAIN_DB:
            raise ValueError(
                f"antenna gain {gain_db} dB is not one the MFRC522 has: "
                f"use one of {sorted(r.RX_GAIN_DB)}"
            )
        self.spi_bus, self.spi_device = spi_bus, spi_device
        self.name = name or f"spi{spi_bus}.{spi_device}"
        self.clock = clock or RealClock()
        self._spi_factory = spi_factory or _default_spi_factory
        self._pin_factory = pin_factory
        self.reset_pin = reset_pin
        self.speed_hz = speed_hz
        self.gain_db = gain_db
        self.timeout = timeout
        self.settle = settle
        self.max_tags = max_tags
        self._spi: Any = None
        self._reset_device: Any = None
        self._field_on = False
        self._field_off_at: float | None = None  # when this driver last switched it off
        self._reload: int | None = None
        self._crc_cache: dict[bytes, bytes] = {}
        self.version_name = ""
        self.errors: Counter[str] = Counter()  # damaged exchanges by kind, since opened
        self.unreadable = 0  # tags that answered the last poll but could not be read
        self.answered = False  # some tag (or noise) answered in the last poll
        self.trace: Callable[[str], None] | None = None

    # -- SPI -----------------------------------------------------------------------------
    def _xfer(self, data: list[int]) -> list[int]:
        return self._spi.xfer2(data)

    def _read(self, reg: int) -> int:
        return self._xfer([0x80 | (reg << 1), 0])[1]

    def _read_many(self, regs: list[int]) -> list[int]:
        return self._xfer([0x80 | (reg << 1) for reg in regs] + [0])[1:]

    def _write(self, reg: int, *values: int) -> None:
        self._xfer([(reg << 1) & 0x7E, *values])

    # -- life cycle --------------------------------------------------------------------------
    def open(self) -> str:
        """Open the SPI device, reset and set up the chip; returns the chip's name.

        Raises :class:`DeadReaderError` if the chip does not answer like an MFRC522.
        """
        if self._spi is None:
            try:
                spi = self._spi_factory()
            except ImportError as exc:
                raise DeadReaderError(
                    "the spidev module is missing (pip install spidev; Raspberry Pi only)"
                ) from exc
            try:
                spi.open(self.spi_bus, self.spi_device)
            except OSError as exc:
                hint = "dtparam=spi=on" if self.spi_bus == 0 else "dtoverlay=spi1-3cs"
                raise DeadReaderError(
                    f"cannot open /dev/spidev{self.spi_bus}.{self.spi_device}: {exc}"
                    f" (is {hint} in config.txt?)"
                ) from exc
            spi.max_speed_hz = self.speed_hz
            spi.mode = 0
            self._spi = spi
        if self.reset_pin is not None and self._reset_device is None:
            from gpiozero import DigitalOutputDevice

            # The poller opens readers in its own thread: the shared factory, made once.
            self._reset_device = DigitalOutputDevice(
                self.reset_pin, initial_value=True,
                pin_factory=shared_pin_factory(self._pin_factory),
            )
        return self.init()

    def close(self) -> None:
        if self._spi is not None:
            with contextlib.suppress(OSError, ReaderError):  # closing a broken reader must work
                self.antenna_off()
            self._spi.close()
            self._spi = None
        if self._reset_device is not None:
            self._reset_device.close()
            self._reset_device = None

    def hard_reset(self) -> None:
        """Pulse NRSTPD low (if wired): the chip restarts its oscillator."""
        if self._reset_device is not None:
            self._reset_device.off()
            self.clock.sleep(0.001)
            self._reset_device.on()
            self.clock.sleep(0.050)  # oscillator start-up, datasheet 8.8.2

    def init(self) -> str:
        """Reset the chip, program timer, modulation and gain, and check it really is one."""
        self.hard_reset()
        self.self_check()
        self._write(r.COMMAND, r.CMD_SOFT_RESET)
        for _ in range(150):
            self.clock.sleep(0.001)
            if not self._read(r.COMMAND) & r.COMMAND_POWER_DOWN:
                break
        else:
            raise DeadReaderError("the chip did not come out of its soft reset")
        self._write(r.TX_MODE, 0x00)
        self._write(r.RX_MODE, 0x00)
        self._write(r.MOD_WIDTH, 0x26)
        self._write(r.T_MODE, r.T_MODE_TAUTO | (TIMER_PRESCALER >> 8))
        self._write(r.T_PRESCALER, TIMER_PRESCALER & 0xFF)
        self._reload = None
        self._set_timeout(self.timeout)
        self._write(r.TX_ASK, r.TX_ASK_FORCE_100)
        self._write(r.MODE, 0x3D)  # CRC preset 0x6363, as ISO 14443A wants
        # ValuesAfterColl = 0: bits after a collision come back cleared, not as noise.
        self._write(r.COLL, 0x00)
        self.set_gain(self.gain_db)
        self.antenna_off()
        if self._read(r.T_PRESCALER) != TIMER_PRESCALER & 0xFF:
            raise DeadReaderError("the chip does not keep what is written to it: check MOSI/SCK")
        return self.version_name

    def self_check(self) -> int:
        """Read the version register; raise :class:`DeadReaderError` unless a chip answers."""
        version = self._read(r.VERSION)
        self._check_version(version)
        self.version_name = r.KNOWN_VERSIONS.get(version, f"MFRC522-compatible 0x{version:02x}")
        return version

    @staticmethod
    def _check_version(version: int) -> None:
        if version == 0x00:
            raise DeadReaderError("reader answers all zeros: no power, or MISO not connected?")
        if version == 0xFF:
            raise DeadReaderError("reader answers all ones: not connected, or wrong chip select?")

    def check_alive(self) -> None:
        """One SPI transfer: the chip still answers and still holds our set-up.

        A chip that lost its set-up (a brown-out reset) is set up again.
        """
        version, prescaler = self._read_many([r.VERSION, r.T_PRESCALER])
        if version in (0x00, 0xFF) or prescaler != TIMER_PRESCALER & 0xFF:
            # One garbled byte on a long lead is no dead chip nor a reset one: ask again.
            version, prescaler = self._read_many([r.VERSION, r.T_PRESCALER])
        self._check_version(version)
        if prescaler != TIMER_PRESCALER & 0xFF:
            self.init()

    def spi_check(self, rounds: int = 4) -> tuple[int, int]:
        """Write patterns into the FIFO and a timer register and read them back: (bytes, wrong).

        Long leads or too fast a clock garble bits now and then; a clean bus gets every byte
        back. The chip's set-up is restored afterwards.
        """
        patterns = [bytes([0x00] * 64), bytes([0xFF] * 64), bytes([0x55, 0xAA] * 32),
                    bytes(range(64)), bytes(range(255, 191, -1))]
        total = wrong = 0
        for i in range(rounds):
            for pattern in patterns:
                self._write(r.FIFO_LEVEL, r.FIFO_FLUSH)
                self._write(r.FIFO_DATA, *pattern)
                back = bytes(self._read_many([r.FIFO_DATA] * len(pattern)))
                total += len(pattern)
                wrong += sum(a != b for a, b in zip(pattern, back, strict=True))
            for value in range(i, 256, rounds):
                self._write(r.T_RELOAD_L, value)
                total += 1
                wrong += self._read(r.T_RELOAD_L) != value
        self._write(r.FIFO_LEVEL, r.FIFO_FLUSH)
        self._reload = None
        self._set_timeout(self.timeout)
        return total, wrong

    def gain_read_back(self) -> int | None:
        """The receiver gain the chip holds, in dB (None: a value the driver never writes)."""
        field = self._read(r.RF_CFG) & 0x70
        return next((db for db, bits in r.RX_GAIN_DB.items() if bits == field), None)

    # -- antenna ---------------------------------------------------------------------------
    def antenna_on(self) -> None:
        self._write(r.TX_CONTROL, 0x80 | r.TX_CONTROL_RF)
        self._field_on = True

    def antenna_off(self) -> None:
        self._write(r.TX_CONTROL, 0x80)
        if self._field_on:
            self._field_on = False
            self._field_off_at = self.clock.now()

    @property
    def field_off_at(self) -> float | None:
        """When this driver last switched its field off (None: not since it opened)."""
        return self._field_off_at

    def _field_rested(self) -> None:
        """Wait until the field has been off :data:`FIELD_OFF_TIME` since this driver last
        switched it off, so every tag starts the next poll from IDLE (a poller with other
        readers has waited longer already; back-to-back polls of one reader wait here)."""
        self.rest_after(self._field_off_at)

    def rest_after(self, off_at: float | None) -> None:
        """Sleep until :data:`FIELD_OFF_TIME` has passed since ``off_at`` (a field, this one's
        or a neighbour's, went off then)."""
        if off_at is not None:
            self.clock.sleep(FIELD_OFF_TIME - (self.clock.now() - off_at))

    def set_gain(self, gain_db: int) -> None:
        if gain_db not in r.RX_GAIN_DB:
            raise ValueError(f"antenna gain {gain_db} dB: use one of {sorted(r.RX_GAIN_DB)}")
        self.gain_db = gain_db
        # Bits 3..0 are reserved and reset to 1000b: keep them as the chip has them.
        self._write(r.RF_CFG, r.RX_GAIN_DB[gain_db] | 0x08)

    # -- the chip's coprocessors -------------------------------------------------------------
    def _set_timeout(self, seconds: float) -> None:
        reload = max(1, min(0xFFFF, round(seconds / TIMER_TICK) - 1))
        if reload != self._reload:
            self._write(r.T_RELOAD_H, reload >> 8)
            self._write(r.T_RELOAD_L, reload & 0xFF)
            self._reload = reload

    def _crc(self, data: bytes) -> bytes:
        """CRC_A from the coprocessor, remembered: HLTA, the SAKs and the SELECTs of the cards
        lying still are the same frames every pass, and each CalcCRC costs 8 SPI transfers."""
        crc = self._crc_cache.get(data)
        if crc is None:
            if len(self._crc_cache) >= 512:
                self._crc_cache.clear()
            crc = self._crc_cache[data] = self.calc_crc(data)
        return crc

    def calc_crc(self, data: bytes) -> bytes:
        """CRC_A of ``data`` computed by the chip (low byte first, as sent)."""
        self._write(r.COMMAND, r.CMD_IDLE)
        self._write(r.DIV_IRQ, r.DIV_CRC)  # clear CRCIRq
        self._write(r.FIFO_LEVEL, r.FIFO_FLUSH)
        self._write(r.FIFO_DATA, *data)
        self._write(r.COMMAND, r.CMD_CALC_CRC)
        for _ in range(50):
            if self._read(r.DIV_IRQ) & r.DIV_CRC:
                low, high = self._read_many([r.CRC_RESULT_L, r.CRC_RESULT_H])
                self._write(r.COMMAND, r.CMD_IDLE)
                return bytes([low, high])
            self.clock.sleep(0.0001)
        raise DeadReaderError("the chip's CRC coprocessor never finished")

    def transceive(
        self,
        data: bytes,
        tx_last_bits: int = 0,
        rx_align: int = 0,
        timeout: float | None = None,
        allow_collision: bool = False,
        answer_bytes: int = 5,
    ) -> _Answer | None:
        """Send a frame and receive the answer; None if no tag answered before the timer ran out.

        Waits by sleeping: first for the air time of the frame, the frame delay and an answer
        of ``answer_bytes``; then, while no answer has begun, on the chip's timer; once one has
        begun (the timer stopped without firing, or the chip saw an error in it), every ~200 us
        until the chip says it is in (RxIRq), or a software deadline after its longest air time
        turns it into a :class:`TagError` (``deadline``, or the error the chip saw). Errors are
        judged only once the frame is in: a collision raises ErrIRq mid-frame.
        """
        self._set_timeout(self.timeout if timeout is None else timeout)
        # Every command of this driver ends with Idle (and a failing chip is reset before it is
        # used again), so the chip is idle here: no Idle write, and the framing goes out with
        # StartSend. Each SPI transfer costs tens of microseconds on a Pi.
        framing = (rx_align << 4) | tx_last_bits
        self._write(r.COM_IRQ, 0x7F)
        self._write(r.FIFO_LEVEL, r.FIFO_FLUSH)
        self._write(r.FIFO_DATA, *data)
        self._write(r.COMMAND, r.CMD_TRANSCEIVE)
        self._write(r.BIT_FRAMING, r.BIT_FRAMING_START_SEND | framing)
        tx_bits = len(data) * 8 - ((8 - tx_last_bits) % 8)
        tx_time = (tx_bits + tx_bits // 8 + 2) * r.BIT_TIME
        answer_time = (answer_bytes * 9 + 2) * r.BIT_TIME
        self.clock.sleep(tx_time + FRAME_DELAY + answer_time)
        period = ((self._reload or 0) + 1) * TIMER_TICK
        limit = self.clock.now() + 4 * period + 0.05
        deadline: float | None = None
        waited_late = False
        while True:
            irq, status1 = self._read_many([r.COM_IRQ, r.STATUS1])
            # The frame is in at RxIRq (IdleIRq: the command ended). ErrIRq alone is no end: the
            # chip raises it the moment it sees an error, a collision at the colliding bit,
            # when the FIFO holds only the bytes before it, and the frame goes on.
            # miguelbalboa/rfid's PCD_CommunicateWithPICC likewise waits for RxIRq or IdleIRq
            # and reads ErrorReg only then.
            if irq & (r.IRQ_RX | r.IRQ_IDLE):
                break
            if irq & r.IRQ_TIMER:
                if irq & r.IRQ_ERR:
                    break  # something damaged came and the timer ran out after it: judge it
                self._write(r.COMMAND, r.CMD_IDLE)
                self._trace(data, irq, None, None)
                return None
            now = self.clock.now()
            if irq & r.IRQ_ERR or not status1 & STATUS1_TRUNNING:
                # An answer has begun (the timer stopped without firing, or an error was seen
                # in it): look again soon, until its longest air time has passed.
                self.answered = True
                if deadline is None:
                    deadline = now + answer_time + ANSWER_DEADLINE
                elif now > deadline:
                    if irq & r.IRQ_ERR:
                        self._unfinished(data, irq)
                    self._write(r.COMMAND, r.CMD_IDLE)
                    self._trace(data, irq, None, None)
                    self.check_alive()  # a chip gone is a dead reader; else the tag is to blame
                    raise TagError("an answer began and never ended (a card moved mid-read?)",
                                   "deadline")
                self.clock.sleep(REPOLL)
                continue
            if now > limit:
                self._write(r.COMMAND, r.CMD_IDLE)
                self.check_alive()
                raise TagError("the chip's timer never ran out", "deadline")
            if not waited_late:
                # A slow tag may begin a little late: one more look before sleeping it out.
                waited_late = True
                self.clock.sleep(LATE_GRACE)
                continue
            # The timer fires one tick after its counter reads 0 (period = TReload + 1 ticks).
            high, low = self._read_many([r.T_COUNTER_H, r.T_COUNTER_L])
            self.clock.sleep(max((((high << 8) | low) + 1) * TIMER_TICK, REPOLL))
        self.answered = True
        error, level, control, coll = self._read_many([r.ERROR, r.FIFO_LEVEL, r.CONTROL, r.COLL])
        self._write(r.COMMAND, r.CMD_IDLE)
        self._trace(data, irq, error, coll)
        # NXP's order: a collision first; its collided bytes carry parity (and CRC) errors that
        # say nothing more, so those are ignored with it.
        collision = None
        if error & r.ERR_BUFFER_OVFL:
            raise TagError("the chip's FIFO overflowed: answer too long", "overflow")
        if error & r.ERR_COLL:
            if not allow_collision:
                raise TagError("several tags answered at once where only one may", "collision")
            collision = 0 if coll & r.COLL_POS_NOT_VALID else (coll & 0x1F) or 32
        elif error & r.ERR_PROTOCOL:
            raise TagError("protocol error in the tag's answer", "protocol")
        elif error & r.ERR_PARITY:
            raise TagError("parity error in the tag's answer", "parity")
        elif error & r.ERR_CRC:
            raise TagError("CRC error in the tag's answer", "crc")
        answer = bytes(self._read_many([r.FIFO_DATA] * level)) if level else b""
        return _Answer(answer, control & 0x07, collision)

    def _unfinished(self, data: bytes, irq: int) -> NoReturn:
        """An answer with an error in it that never ended (no RxIRq by its longest air time):
        a :class:`TagError` of the kind the error register says; what the FIFO holds is no
        answer to go on."""
        error, coll = self._read_many([r.ERROR, r.COLL])
        self._write(r.COMMAND, r.CMD_IDLE)
        self._trace(data, irq, error, coll)
        self.check_alive()
        if error & r.ERR_BUFFER_OVFL:
            raise TagError("the chip's FIFO overflowed: answer too long", "overflow")
        if error & r.ERR_COLL:
            raise TagError("several tags answered at once and the answer never ended",
                           "collision")
        for bit, kind in ((r.ERR_PROTOCOL, "protocol"), (r.ERR_PARITY, "parity"),
                          (r.ERR_CRC, "crc")):
            if error & bit:
                raise TagError(f"a damaged answer ({kind} error) that never ended", kind)
        raise TagError("an answer began and never ended (a card moved mid-read?)", "deadline")

    def _trace(self, data: bytes, irq: int, error: int | None, coll: int | None) -> None:
        if self.trace is not None:
            err = "--" if error is None else f"{error:02x}"
            col = "--" if coll is None else f"{coll:02x}"
            self.trace(f"{self.name} tx {data.hex()} ComIrq={irq:02x} Error={err} Coll={col}")

    # -- ISO 14443-3 type A ------------------------------------------------------------------
    def request(self, wakeup: bool = False) -> bytes | None:
        """REQA (or WUPA): the ATQA if any tag in the field is idle (or halted, for WUPA).

        Several tags with different ATQAs collide: what came is returned all the same (some tag
        is there). A damaged answer raises :class:`TagError` (noise, or a tag at the edge).
        """
        cmd = r.PICC_WUPA if wakeup else r.PICC_REQA
        answer = self.transceive(bytes([cmd]), tx_last_bits=7, allow_collision=True,
                                 answer_bytes=2)
        if answer is None:
            return None
        if answer.collision is None and (len(answer.data) != 2 or answer.last_bits):
            raise TagError(f"ATQA of {len(answer.data)} bytes: expected 2", "format")
        return answer.data

    def _anticollision(self, level: int, before: bytes, failed: set[tuple[bytes, int, int]],
                       branches: list[tuple[bytes, int, int]]) -> bytes:
        """Resolve one tag's UID part (4 bytes + BCC) at cascade ``level``.

        At each collision the walk takes the branch with a 1, unless that branch (``before``,
        the parts of the levels above, the number of bits, their value) is in ``failed``; each
        branch taken is appended to ``branches``.
        """
        sel = r.PICC_SEL_CL[level]
        part = bytearray(5)
        known = 0
        for _ in range(41):
            nbytes, nbits = divmod(known, 8)
            frame = bytes([sel, ((2 + nbytes) << 4) | nbits]) + bytes(
                part[: nbytes + (1 if nbits else 0)]
            )
            answer = self.transceive(frame, nbits, nbits, allow_collision=True)
            if answer is None:
                raise TagError("the tag went silent during anticollision", "timeout")
            got = answer.data
            if nbytes + len(got) > 5:
                raise TagError("anticollision answer too long", "format")
            for i, byte in enumerate(got):
                if i == 0 and nbits:
                    keep = (1 << nbits) - 1
                    part[nbytes] = (part[nbytes] & keep) | (byte & ~keep & 0xFF)
                else:
                    part[nbytes + i] = byte
            if answer.collision is None:
                if nbytes + len(got) != 5 or answer.last_bits:
                    raise TagError("anticollision answer too short", "format")
                if r.bcc(part[:4]) != part[4]:
                    raise TagError("the UID's check byte (BCC) is wrong", "format")
                return bytes(part)
            # CollPos counts from the first bit of the first byte received (RxAlign included).
            pos = nbytes * 8 + answer.collision  # 1-based bit of the part that collided
            if not answer.collision or pos <= known or pos > 40:
                raise TagError("anticollision went nowhere: a damaged answer", "collision")
            # The bits before the collision are common to all answering tags.
            index = pos - 1
            common = int.from_bytes(part, "little") & ((1 << index) - 1)
            one, zero = (before, pos, common | (1 << index)), (before, pos, common)
            if one not in failed:
                choice, bit = one, 1
            elif zero not in failed:
                choice, bit = zero, 0
            else:
                raise TagError("every tag of this branch failed to answer cleanly", "collision")
            value = int.from_bytes(part, "little") & ((1 << index) - 1) | (bit << index)
            part[:] = value.to_bytes(5, "little")
            branches.append(choice)
            known = pos
        raise TagError("anticollision did not finish", "format")

    def _select(self, level: int, part: bytes) -> int:
        frame = bytes([r.PICC_SEL_CL[level], r.NVB_SELECT]) + part
        frame += self._crc(frame)
        answer = self.transceive(frame, answer_bytes=3)
        if answer is None:
            raise TagError("the tag did not answer SELECT", "timeout")
        if len(answer.data) != 3 or answer.last_bits:
            raise TagError(f"SELECT answer of {len(answer.data)} bytes: expected 3", "format")
        if self._crc(answer.data[:1]) != answer.data[1:]:
            raise TagError("CRC error in the tag's SELECT answer", "crc")
        return answer.data[0]

    def select(self, failed: set[tuple[bytes, int, int]] | None = None,
               branches: list[tuple[bytes, int, int]] | None = None) -> bytes:
        """Anticollision and SELECT through all cascade levels: the whole UID (4, 7 or 10 bytes).

        ``failed`` holds branches to keep away from; the branches taken go to ``branches``.
        """
        failed = set() if failed is None else failed
        branches = [] if branches is None else branches
        uid = bytearray()
        before = b""
        for level in range(3):
            part = self._anticollision(level, before, failed, branches)
            sak = self._select(level, part)
            if not sak & r.SAK_CASCADE:
                return bytes(uid + part[:4])
            if part[0] != r.PICC_CASCADE_TAG:
                raise TagError("the tag asks for another cascade level without a cascade tag")
            uid += part[1:4]
            before += part
        raise TagError("the tag asks for a fourth cascade level")

    def halt(self) -> None:
        """HLTA: the selected tag stays silent until the field goes off (or a WUPA)."""
        frame = bytes([r.PICC_HLTA, 0x00])
        frame += self._crc(frame)
        # Anything but silence is no valid answer to HLTA; the tag is skipped either way.
        with contextlib.suppress(TagError):
            self.transceive(frame, timeout=HALT_TIMEOUT, answer_bytes=0)

    def _cycle_field(self) -> None:
        """Field off and on again: every tag restarts from IDLE (halted ones answer again).

        Off for :data:`FIELD_OFF_TIME`: through a shorter gap a stuck tag keeps its state."""
        self.antenna_off()
        self._field_rested()
        self.antenna_on()
        self.clock.sleep(self.settle)

    def poll(self) -> list[str]:
        """Switch the field on, read every tag lying on the antenna once, switch it off.

        Returns the UIDs (lower-case hex) in the order read. A damaged answer is never a UID.
        After a failure the next walk keeps away from the branch that failed (so one weak tag
        hides no other), the tags are asked again, and once the field is cycled; a poll gives up
        after :data:`MAX_TAG_ERRORS` failures and counts what still answered in
        :attr:`unreadable`. Raises :class:`DeadReaderError` only if the chip is gone.
        """
        if self._spi is None:
            raise DeadReaderError("reader not open")
        self.check_alive()
        uids: list[str] = []
        failed: set[tuple[bytes, int, int]] = set()
        errors = lone = repeats = 0
        cycled = False
        ask_again = False
        self.unreadable = 0
        self.answered = False
        self._field_rested()
        self.antenna_on()
        try:
            self.clock.sleep(self.settle)
            while len(uids) < self.max_tags:
                if errors >= MAX_TAG_ERRORS or lone >= 3:
                    self.unreadable = 1
                    break
                try:
                    if self.request() is None:
                        if ask_again:
                            # After a failure the tags left READY went IDLE without a word:
                            # the next REQA is the one they answer.
                            ask_again = False
                            continue
                        break
                except TagError as exc:  # noise, or a tag at the edge: something is there
                    self.errors[exc.kind] += 1
                branches: list[tuple[bytes, int, int]] = []
                try:
                    uid = self.select(failed, branches).hex()
                except TagError as exc:
                    self.errors[exc.kind] += 1
                    errors += 1
                    ask_again = True
                    if branches:
                        failed.add(branches[-1])  # next time, the other way at that point
                        lone = 0
                    else:
                        lone += 1  # a tag alone (or noise) that cannot be read cleanly
                    if errors == 3 and not cycled:
                        cycled = True
                        self._cycle_field()
                    continue
                ask_again = False
                self.halt()
                if uid in uids:
                    repeats += 1  # it woke again (field cycled) or does not stay halted
                    if repeats > len(uids) + 2:
                        break
                else:
                    uids.append(uid)
        finally:
            self.antenna_off()
        if errors and not uids:
            self.check_alive()  # damaged answers from a chip that is gone: say so
        return uids

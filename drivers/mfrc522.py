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
- waits on the chip's interrupt bits and its own timer by sleeping (an empty poll costs the
  antenna settle time plus one timer period, ~15 ms, and about a dozen SPI transfers);
- collision, parity, CRC, protocol and FIFO overflow errors become :class:`ReaderError`;
- the reset pin (NRSTPD) through gpiozero, if wired.

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
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from drivers import mfrc522_regs as r
from drivers.clock import Clock, RealClock

TIMER_PRESCALER = 0x0A9  # 13.56 MHz / (2 * 169 + 1) = 40 kHz: one timer tick is 25 us
TIMER_TICK = (2 * TIMER_PRESCALER + 1) / r.CHIP_CLOCK_HZ
DEFAULT_TIMEOUT = 0.010  # REQA, anticollision, SELECT: generous for a tag at the field's edge
HALT_TIMEOUT = 0.001  # ISO 14443-3: a tag that does not answer HLTA within 1 ms is halted
SETTLE_TIME = 0.005  # ISO 14443-2: the reader waits 5 ms after switching the field on


class ReaderError(Exception):
    """Something went wrong talking to a reader or to a tag; the message says what."""


class DeadReaderError(ReaderError):
    """The reader does not answer like an MFRC522 (no power, a loose wire, a wrong chip select)."""


class TagError(ReaderError):
    """A tag's answer was damaged (CRC, parity, BCC, collision where none may be)."""


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
        speed_hz: int = 1_000_000,
        gain_db: int = 48,
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
        self._reload: int | None = None
        self._crc_cache: dict[bytes, bytes] = {}
        self.version_name = ""

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

            self._reset_device = DigitalOutputDevice(
                self.reset_pin, initial_value=True, pin_factory=self._pin_factory
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
        self._check_version(version)
        if prescaler != TIMER_PRESCALER & 0xFF:
            self.init()

    # -- antenna ---------------------------------------------------------------------------
    def antenna_on(self) -> None:
        self._write(r.TX_CONTROL, 0x80 | r.TX_CONTROL_RF)

    def antenna_off(self) -> None:
        self._write(r.TX_CONTROL, 0x80)

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

        Waits by sleeping: first for the air time of the frame and of an answer of
        ``answer_bytes``, then for what the chip's timer has left, so an empty poll costs a
        handful of SPI transfers.
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
        # 9 bits a byte (parity) plus start and end of each frame, the tag's reply delay
        # (~86 us) and a little margin.
        air_bits = (len(data) + answer_bytes) * 9 + 4
        self.clock.sleep(air_bits * r.BIT_TIME + 0.00015)
        period = ((self._reload or 0) + 1) * TIMER_TICK
        limit = self.clock.now() + 4 * period + 0.05
        while True:
            irq = self._read(r.COM_IRQ)
            if irq & r.IRQ_RX:
                break
            if irq & r.IRQ_TIMER:
                self._write(r.COMMAND, r.CMD_IDLE)
                return None
            if self.clock.now() > limit:
                self._write(r.COMMAND, r.CMD_IDLE)
                raise DeadReaderError("the chip's timer never ran out: is it still there?")
            # The timer fires one tick after its counter reads 0 (period = TReload + 1 ticks).
            high, low = self._read_many([r.T_COUNTER_H, r.T_COUNTER_L])
            self.clock.sleep(max((((high << 8) | low) + 1) * TIMER_TICK, 0.0002))
        error, level, control, coll = self._read_many([r.ERROR, r.FIFO_LEVEL, r.CONTROL, r.COLL])
        self._write(r.COMMAND, r.CMD_IDLE)
        if error & r.ERR_BUFFER_OVFL:
            raise TagError("the chip's FIFO overflowed: answer too long")
        if error & r.ERR_PARITY:
            raise TagError("parity error in the tag's answer")
        if error & r.ERR_PROTOCOL:
            raise TagError("protocol error in the tag's answer")
        if error & r.ERR_CRC:
            raise TagError("CRC error in the tag's answer")
        collision = None
        if error & r.ERR_COLL:
            if not allow_collision or coll & r.COLL_POS_NOT_VALID:
                raise TagError("several tags answered at once where only one may")
            collision = (coll & 0x1F) or 32
        answer = bytes(self._read_many([r.FIFO_DATA] * level)) if level else b""
        return _Answer(answer, control & 0x07, collision)

    # -- ISO 14443-3 type A ------------------------------------------------------------------
    def request(self, wakeup: bool = False) -> bytes | None:
        """REQA (or WUPA): the ATQA if any tag in the field is idle (or halted, for WUPA)."""
        cmd = r.PICC_WUPA if wakeup else r.PICC_REQA
        answer = self.transceive(bytes([cmd]), tx_last_bits=7, allow_collision=True,
                                 answer_bytes=2)
        if answer is None:
            return None
        if len(answer.data) != 2 or answer.last_bits:
            raise TagError(f"ATQA of {len(answer.data)} bytes: expected 2")
        return answer.data

    def _anticollision(self, level: int) -> bytes:
        """Resolve one tag's UID part (4 bytes + BCC) at cascade ``level``."""
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
                raise TagError("the tag went silent during anticollision")
            got = answer.data
            if nbytes + len(got) > 5:
                raise TagError("anticollision answer too long")
            for i, byte in enumerate(got):
                if i == 0 and nbits:
                    keep = (1 << nbits) - 1
                    part[nbytes] = (part[nbytes] & keep) | (byte & ~keep & 0xFF)
                else:
                    part[nbytes + i] = byte
            if answer.collision is None:
                if nbytes + len(got) != 5 or answer.last_bits:
                    raise TagError("anticollision answer too short")
                if r.bcc(part[:4]) != part[4]:
                    raise TagError("the UID's check byte (BCC) is wrong")
                return bytes(part)
            pos = nbytes * 8 + answer.collision  # 1-based bit of the part that collided
            if pos <= known or pos > 40:
                raise TagError("anticollision went nowhere: a damaged answer")
            # Bits before the collision are common to all answering tags; take the tag with 1.
            index = pos - 1
            part[index // 8] = (part[index // 8] & ((1 << (index % 8)) - 1)) | (
                1 << (index % 8)
            )
            for i in range(index // 8 + 1, 5):
                part[i] = 0
            known = pos
        raise TagError("anticollision did not finish")

    def _select(self, level: int, part: bytes) -> int:
        frame = bytes([r.PICC_SEL_CL[level], r.NVB_SELECT]) + part
        frame += self._crc(frame)
        answer = self.transceive(frame, answer_bytes=3)
        if answer is None:
            raise TagError("the tag did not answer SELECT")
        if len(answer.data) != 3 or answer.last_bits:
            raise TagError(f"SELECT answer of {len(answer.data)} bytes: expected 3")
        if self._crc(answer.data[:1]) != answer.data[1:]:
            raise TagError("CRC error in the tag's SELECT answer")
        return answer.data[0]

    def select(self) -> bytes:
        """Anticollision and SELECT through all cascade levels: the whole UID (4, 7 or 10 bytes)."""
        uid = bytearray()
        for level in range(3):
            part = self._anticollision(level)
            sak = self._select(level, part)
            if not sak & r.SAK_CASCADE:
                return bytes(uid + part[:4])
            if part[0] != r.PICC_CASCADE_TAG:
                raise TagError("the tag asks for another cascade level without a cascade tag")
            uid += part[1:4]
        raise TagError("the tag asks for a fourth cascade level")

    def halt(self) -> None:
        """HLTA: the selected tag stays silent until the field goes off (or a WUPA)."""
        frame = bytes([r.PICC_HLTA, 0x00])
        frame += self._crc(frame)
        # Anything but silence is no valid answer to HLTA; the tag is skipped either way.
        with contextlib.suppress(TagError):
            self.transceive(frame, timeout=HALT_TIMEOUT, answer_bytes=0)

    def poll(self) -> list[str]:
        """Switch the field on, read every tag lying on the antenna once, switch it off.

        Returns the UIDs (lower-case hex) in the order read. A damaged answer is never a UID:
        that tag is halted and skipped. Raises :class:`DeadReaderError` if the chip is gone.
        """
        if self._spi is None:
            raise DeadReaderError("reader not open")
        self.check_alive()
        uids: list[str] = []
        errors = 0
        self.antenna_on()
        try:
            self.clock.sleep(self.settle)
            while len(uids) < self.max_tags and errors < 3:
                try:
                    if self.request() is None:
                        break
                    uid = self.select().hex()
                except DeadReaderError:
                    raise
                except TagError:
                    errors += 1
                    self.halt()
                    continue
                if uid in uids:
                    errors += 1  # it did not stay halted: do not let it hold up the poll
                else:
                    uids.append(uid)
                self.halt()
        finally:
            self.antenna_off()
        if errors and not uids:
            self.check_alive()  # damaged answers from a chip that is gone: say so
        return uids

"""The "readers" group of ``skat-table bench``: five emulated MFRC522 readers at the chip's timing.

Every figure runs the real driver over the emulated chip, never a real one; the names say so.
``emu_`` figures run on the real clock: the driver's sleeps and Python are real, but an SPI
transfer is a Python call into the emulator, with no wire time and no ``spidev`` system call
(tens of microseconds each on a Pi), and the emulator's own Python runs instead; a Pi's pass
takes the SPI time on top. ``emu_vclock_`` figures run on a virtual clock: only the chip's own
timing passes, no Python, SPI or system call time at all. Medians over several runs:

- ``emu_reader_pass_ms``: one pass over all five zones with no card on them, in milliseconds.
  The radio sets the floor: per reader, the 5 ms settle time after switching the field on
  plus the REQA's 10 ms timer time-out (plus the air time of the frame).
- ``emu_reader_overhead_share``: the part of a pass that is not radio time (wall time of the
  pass minus what the emulated chips spent sending, waiting for their timer and receiving,
  minus the settle times, over the wall time). It covers the driver's Python, the wake-up
  latency of the sleeps, and the emulated chip's own Python too, but no SPI time. Aim: under
  5 %.
- ``emu_poll_idle_cpu_share``: CPU time of the process over wall time while the polling
  thread runs and no card moves (one core = 1.0), the emulated chips' Python included.
- ``emu_reader_pile3_poll_ms``: one poll of one reader with a pile of three 7-byte tags on it
  (all three read, each selected and halted), in milliseconds.
- ``emu_reader_pass_ms_harsh``: as ``emu_reader_pass_ms``, under the emulator's HARSH radio
  (noise, late answers, cut-off frames cost the driver retries and deadlines).
- ``emu_vclock_pile_whole_share_1``/``_2``/``_3``: the share of polls in which the driver read
  every tag of a pile of 1, 2 and 3 stickers, measured over 1000 polls under the HARSH radio
  with every tag of the pile powered in every field cycle (HARSH's stacking losses, an input
  the driver can do nothing about, left out): answers up to 300 us late, collisions, a weak
  answer masked by a strong one, bit errors, noise, answers cut off. The emulator's inputs
  would let every poll read the whole pile; what falls short is the driver's doing.
"""

from __future__ import annotations

import statistics
import time

from drivers.clock import RealClock, VirtualClock
from drivers.mfrc522 import FIELD_OFF_TIME, MFRC522
from drivers.mfrc522_emu import HARSH, EmulatedRig, EmulatedTag, RadioProfile
from drivers.poller import MFRC522Poller

CHIP_SELECTS = [(0, 0), (0, 1), (1, 0), (1, 1), (1, 2)]
ZONES = ["deal", "centre", "seat0", "seat1", "seat2"]


def _setup(profile: RadioProfile | None = None) -> tuple[EmulatedRig, MFRC522Poller]:
    clock = RealClock()
    rig = EmulatedRig(clock, profile=profile)
    readers = []
    for bus, device in CHIP_SELECTS:
        rig.add_reader(bus, device)
        readers.append(MFRC522(bus, device, clock=clock, spi_factory=rig.spidev))
    poller = MFRC522Poller(list(zip(readers, ZONES, strict=True)), lambda e: None, clock=clock)
    poller.poll_once()  # opens and sets up the chips
    return rig, poller


def measure_passes(passes: int, profile: RadioProfile | None = None) -> tuple[float, float]:
    """(ms per pass, overhead share) over ``passes`` passes."""
    rig, poller = _setup(profile)
    try:
        radio_before = sum(chip.radio_time for chip in rig.chips.values())
        start = time.perf_counter()
        for _ in range(passes):
            poller.poll_once()
        wall = time.perf_counter() - start
        settle = sum(slot.reader.settle for slot in poller.slots) * passes
        radio = sum(chip.radio_time for chip in rig.chips.values()) - radio_before + settle
    finally:
        poller.close()
    return wall / passes * 1000, max(0.0, (wall - radio) / wall)


def measure_idle_cpu(seconds: float) -> float:
    """Process CPU time over wall time while the polling thread runs over empty readers."""
    _, poller = _setup()
    poller.start()
    try:
        time.sleep(0.1)  # let the thread get going
        cpu0, wall0 = time.process_time(), time.perf_counter()
        time.sleep(seconds)
        cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
    finally:
        poller.close()
    return cpu / wall


def measure_pile(polls: int) -> float:
    """Median ms of one poll of a reader holding a pile of three tags."""
    clock = RealClock()
    rig = EmulatedRig(clock)
    chip = rig.add_reader(0, 0)
    for i in range(3):
        chip.lay(EmulatedTag.from_hex(f"04a224b2c94f8{i}"))
    reader = MFRC522(0, 0, clock=clock, spi_factory=rig.spidev)
    reader.open()
    times = []
    try:
        for _ in range(polls):
            clock.sleep(FIELD_OFF_TIME)  # the field's rest (the poller's other readers)
            start = time.perf_counter()
            if len(reader.poll()) != 3:
                raise RuntimeError("the bench's pile was not read whole")
            times.append(time.perf_counter() - start)
    finally:
        reader.close()
    return statistics.median(times) * 1000


def pile_whole_share(size: int, polls: int, seed: int = 1) -> float:
    """Virtual clock, HARSH with every stacked tag powered: the share of polls of one reader
    that return exactly its pile of ``size``."""
    clock = VirtualClock()
    rig = EmulatedRig(clock, profile=HARSH.with_(stacked_read_chance=(1.0,)), seed=seed)
    chip = rig.add_reader(0, 0)
    pile = {chip.lay(EmulatedTag.from_hex(f"04a224b2c94f{i:02x}")).uid.hex() for i in range(size)}
    reader = MFRC522(0, 0, clock=clock, spi_factory=rig.spidev)
    reader.open()
    whole = sum(set(reader.poll()) == pile for _ in range(polls))
    reader.close()
    return whole / polls


def bench(quick: bool = False) -> dict[str, float]:
    runs = 3 if quick else 7
    passes = 5 if quick else 20
    results = [measure_passes(passes) for _ in range(runs)]
    harsh = [measure_passes(passes, HARSH)[0] for _ in range(runs)]
    idle = [measure_idle_cpu(0.5 if quick else 2.0) for _ in range(3 if quick else 5)]
    return {
        "emu_reader_pass_ms": statistics.median(r[0] for r in results),
        "emu_reader_overhead_share": statistics.median(r[1] for r in results),
        "emu_poll_idle_cpu_share": statistics.median(idle),
        "emu_reader_pile3_poll_ms": measure_pile(5 if quick else 30),
        "emu_reader_pass_ms_harsh": statistics.median(harsh),
        **{f"emu_vclock_pile_whole_share_{n}": pile_whole_share(n, 50 if quick else 1000)
           for n in (1, 2, 3)},
    }


if __name__ == "__main__":
    for key, value in bench().items():
        print(f"{key:<32} {value:.4g}")

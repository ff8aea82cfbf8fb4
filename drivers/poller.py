"""One thread polling up to five MFRC522 readers in turn, one antenna field on at a time.

Each pass reads every working reader once (field on, every tag on the antenna read and halted,
field off) and feeds the reads to a :class:`drivers.zones.ZoneTracker`. A reader that fails is
reported at once as a :class:`ReaderFault` and skipped (it never stalls the others); it is
tried again every ``retry_every`` seconds and reported as :class:`ReaderBack` when it answers.
A reader is dead only when the chip fails its self-check: a tag that answers but cannot be read
for ``unreadable_after`` passes in a row is a :class:`TagUnreadable`, said once until the zone
reads cleanly again. Pads set too close: a tag counts for a zone only while that zone's reader
hears it more often than any other in the last ``gone_after`` seconds (as often, for a tag that
lies there already); a new tag read by two readers in one pass counts for neither in that pass;
and a tag that lies (is laid) in one zone is not counted for another until it has gone from the
first; after a reader that heard an answer, the next one's field comes on only once the first
has been off 5 ms (:data:`drivers.mfrc522.FIELD_OFF_TIME`), as a tag the first reached keeps
its state (halted, say) through a shorter gap. Nothing raises out of the thread.

>>> from drivers.clock import VirtualClock
>>> from drivers.mfrc522 import MFRC522
>>> from drivers.mfrc522_emu import EmulatedRig, EmulatedTag
>>> clock = VirtualClock(); rig = EmulatedRig(clock); chip = rig.add_reader(0, 0)
>>> events = []
>>> poller = MFRC522Poller([(MFRC522(0, 0, clock=clock, spi_factory=rig.spidev), "deal")],
...                        events.append, clock=clock)
>>> _ = chip.lay(EmulatedTag.from_hex("04a224b2c94f80"))
>>> poller.poll_once(); poller.poll_once()
>>> events
[TagLaid(zone='deal', uid='04a224b2c94f80', at=...)]
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from drivers.clock import Clock, RealClock
from drivers.events import Event, ReaderBack, ReaderFault, TagUnreadable, guarded
from drivers.mfrc522 import MFRC522
from drivers.zones import ZoneTracker

log = logging.getLogger(__name__)


@dataclass
class _Slot:
    reader: MFRC522
    zone: str
    ok: bool = False
    reported: bool = False  # a fault has been posted and not yet followed by ReaderBack
    next_try: float = 0.0
    unreadable: int = 0  # passes in a row with a tag that could not be read
    clean: int = 0  # passes in a row without
    said_unreadable: bool = False


class MFRC522Poller:
    """Polls its readers in turn from one thread; posts tag and fault events.

    ``tracker`` may be shared with other backends; by default the poller makes its own with
    ``laid_after_reads`` and ``gone_after``.
    """

    def __init__(
        self,
        readers: Sequence[tuple[MFRC522, str]],
        on_event: Callable[[Event], None],
        *,
        clock: Clock | None = None,
        tracker: ZoneTracker | None = None,
        laid_after_reads: int = 2,
        gone_after: float = 1.0,
        min_pass: float = 0.05,
        retry_every: float = 2.0,
        unreadable_after: int = 5,
    ) -> None:
        if len(readers) > 5:
            raise ValueError(f"{len(readers)} MFRC522 readers: the Pi's SPI buses drive at most 5")
        self.clock = clock or RealClock()
        self._post = guarded(on_event, log)
        self.tracker = tracker or ZoneTracker(self._post, laid_after_reads, gone_after)
        self.slots = [_Slot(reader, zone) for reader, zone in readers]
        self.min_pass = min_pass
        self.retry_every = retry_every
        self.unreadable_after = unreadable_after
        self._heard: dict[str, dict[str, list[float]]] = {}
        self.passes = 0
        self._polled_last: MFRC522 | None = None  # the reader whose field was on last
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def _fault(self, slot: _Slot, message: str, now: float) -> None:
        slot.ok = False
        slot.next_try = now + self.retry_every
        if not slot.reported:
            slot.reported = True
            log.warning("reader %s (%s): %s", slot.reader.name, slot.zone, message)
            self._post(ReaderFault(slot.reader.name, slot.zone, message))

    def _try_open(self, slot: _Slot, now: float) -> None:
        try:
            slot.reader.open()
        except Exception as exc:  # any failure of a reader is a fault event
            self._fault(slot, str(exc) or type(exc).__name__, now)
            return
        slot.ok = True
        if slot.reported:
            slot.reported = False
            self._post(ReaderBack(slot.reader.name, slot.zone))

    def poll_once(self) -> None:
        """One pass over all readers (what the thread does in a loop)."""
        reads: list[tuple[_Slot, list[str], float]] = []
        for slot in self.slots:
            if self._stop.is_set():
                return
            now = self.clock.now()
            if not slot.ok:
                if now < slot.next_try:
                    continue
                self._try_open(slot, now)
                if not slot.ok:
                    continue
            before = self._polled_last
            if before is not None and before.answered:
                # Its field may have reached (and halted) a tag of this pad: a tag keeps its
                # state through a short gap, so this field comes on once that one has been off
                # long enough for every tag to start from IDLE.
                slot.reader.rest_after(before.field_off_at)
            self._polled_last = slot.reader
            try:
                uids = slot.reader.poll()
            except Exception as exc:  # any failure of a reader is a fault event
                self._fault(slot, str(exc) or type(exc).__name__, self.clock.now())
                continue
            reads.append((slot, uids, self.clock.now()))
            self._watch_unreadable(slot)
        seen_in: dict[str, set[str]] = {}
        for slot, uids, _ in reads:
            for uid in uids:
                seen_in.setdefault(uid, set()).add(slot.zone)
        laid_in = {slot.zone: self.tracker.present(slot.zone) for slot in self.slots}
        heard = self._remember(reads)
        for slot, uids, at in reads:
            kept = []
            for uid in uids:
                mine = len(heard[uid].get(slot.zone, ()))
                most = max((len(times) for zone, times in heard[uid].items()
                            if zone != slot.zone), default=0)
                if uid in laid_in[slot.zone]:
                    # It lies here: kept alive while no other reader hears it more often.
                    if mine >= most:
                        kept.append(uid)
                    continue
                if len(seen_in[uid]) > 1:
                    continue  # two fields reached it: this pass cannot tell where it lies
                if any(uid in there for zone, there in laid_in.items() if zone != slot.zone):
                    continue  # it lies on another pad until it has gone from there
                if most >= mine:
                    continue  # another reader hears it as often: a neighbour's card
                kept.append(uid)
            self.tracker.seen_all(slot.zone, kept, at)
        frozen = {slot.zone for slot in self.slots if not slot.ok}
        self.tracker.expire(self.clock.now(), frozen)
        self.passes += 1

    def _remember(self, reads: list[tuple[_Slot, list[str], float]]) -> dict[str, dict[str, list]]:
        """Which readers heard each tag within the last ``gone_after`` seconds, and when."""
        now = self.clock.now()
        for slot, uids, at in reads:
            for uid in uids:
                self._heard.setdefault(uid, {}).setdefault(slot.zone, []).append(at)
        horizon = now - self.tracker.gone_after
        for uid in list(self._heard):
            zones = self._heard[uid]
            for zone in list(zones):
                zones[zone] = [t for t in zones[zone] if t > horizon]
                if not zones[zone]:
                    del zones[zone]
            if not zones:
                del self._heard[uid]
        return self._heard

    def _watch_unreadable(self, slot: _Slot) -> None:
        if getattr(slot.reader, "unreadable", 0):
            slot.unreadable, slot.clean = slot.unreadable + 1, 0
            if slot.unreadable >= self.unreadable_after and not slot.said_unreadable:
                slot.said_unreadable = True
                log.info("reader %s (%s): a tag cannot be read", slot.reader.name, slot.zone)
                self._post(TagUnreadable(slot.reader.name, slot.zone))
        else:
            slot.unreadable, slot.clean = 0, slot.clean + 1
            if slot.clean >= self.unreadable_after:
                slot.said_unreadable = False

    def _run(self) -> None:
        while not self._stop.is_set():
            started = self.clock.now()
            try:
                self.poll_once()
            except Exception:  # a bug here must not kill table input for good
                log.exception("reader poller pass failed")
            rest = self.min_pass - (self.clock.now() - started)
            if rest > 0:
                self._stop.wait(rest)

    def start(self) -> None:
        if self._thread is None:
            self._stop.clear()
            self._thread = threading.Thread(target=self._run, name="mfrc522-poller", daemon=True)
            self._thread.start()

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None
        for slot in self.slots:
            slot.reader.close()
            slot.ok = False

"""A serial port for :class:`drivers.serial_board.SerialBoard` tests that hands out given bytes
4 KiB at a time on a virtual clock and stops the host when they are used up."""

from __future__ import annotations

from drivers.clock import VirtualClock
from drivers.serial_board import SerialBoard


class FeedPort:
    """The board's side of the line: ``data`` read 4 KiB at a time, ``step`` seconds a read."""

    def __init__(self, data: bytes, host: SerialBoard, clock: VirtualClock,
                 step: float = 0.01) -> None:
        self.data, self.host, self.clock, self.step = data, host, clock, step

    @property
    def in_waiting(self) -> int:
        return min(len(self.data), 4096)

    def read(self, n: int) -> bytes:
        self.clock.advance(self.step)
        out, self.data = self.data[:n], self.data[n:]
        if not out:
            self.host._stop.set()
        return out

    def write(self, data: bytes) -> None:
        pass

    def flush(self) -> None:
        pass

    def close(self) -> None:
        pass

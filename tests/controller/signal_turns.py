"""Run by test_ctl_systemd.py in a child process (a hang there must not hang the suite).

SIGTERM and SIGINT ask the event loop to stop from a handler that Python runs in the main
thread between any two of its bytecodes, so also while the loop is inside its own queue's
``get``. This sends the signal at each traced line of one turn of the loop, and once for real
from another thread while the loop is blocked waiting, and checks that the loop stops every
time. Prints one line per case; exits non-zero when a case ran but did not stop.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
import time
from typing import Any

from firmware_host.config import simulated_config
from firmware_host.series.session import Session
from firmware_host.service.runner import EventLoop, _stop_on_signals

# The loop's own code and the standard-library code it waits in (a pure-Python queue, a
# condition variable) are where a handler can interrupt it.
WATCHED = ("runner.py", "queue.py", "threading.py")


def traced(count_from: list[int], at: int | None) -> Any:
    def local(frame: Any, event: str, arg: Any) -> Any:
        if event == "line" and count_from[0] != at:
            count_from[0] += 1
            if count_from[0] == at:
                signal.raise_signal(signal.SIGTERM)
        return local

    def tracer(frame: Any, event: str, arg: Any) -> Any:
        if count_from[0] == at or not frame.f_code.co_filename.endswith(WATCHED):
            return None
        return local

    return tracer


def lines_of_one_turn(session: Session) -> int:
    loop = EventLoop(session)
    count = [0]
    sys.settrace(traced(count, None))
    try:
        loop.serve_once(0.005)
    finally:
        sys.settrace(None)
    return count[0]


def stops_when_signalled_at(session: Session, line: int) -> bool:
    loop = EventLoop(session)
    _stop_on_signals(loop)
    count = [0]
    sys.settrace(traced(count, line))
    try:
        # the turn the signal lands in, or the next one, must see STOP
        stopped = not loop.serve_once(0.005) or not loop.serve_once(0.005)
    finally:
        sys.settrace(None)
    return stopped


def stops_on_a_real_signal_while_waiting(session: Session) -> float:
    loop = EventLoop(session)
    _stop_on_signals(loop)
    threading.Timer(0.3, os.kill, (os.getpid(), signal.SIGTERM)).start()
    start = time.monotonic()
    loop.run(tick=30.0)  # would wait 30 s for an event if the signal were not seen
    return time.monotonic() - start


def main() -> int:
    session = Session(simulated_config(computer_seats=()))
    lines = lines_of_one_turn(session)
    failed = [k for k in range(1, lines + 1) if not stops_when_signalled_at(session, k)]
    print(f"signalled at each of {lines} lines of a turn: {len(failed)} did not stop",
          flush=True)
    waited = stops_on_a_real_signal_while_waiting(session)
    print(f"a real SIGTERM while waiting stopped the loop after {waited:.2f} s", flush=True)
    return 1 if failed or waited > 5 else 0


if __name__ == "__main__":
    sys.exit(main())

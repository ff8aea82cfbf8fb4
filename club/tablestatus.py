"""What the tables page shows a table doing: its status message, or its games when they are
newer.

A table's link publishes a retained status (idle, playing; offline as its last will). The
broker hands the retained one out again each time the server subscribes, and a table whose
status was last written before it started playing (a link that could not read the table's
state, a controller that did not write it) kept showing "idle" while its games came in. So the
status counts only while no game of the table arrived after it: a game received later says
the table is playing (idle once its list is complete). A status received again unchanged (the
retained one after a restart) keeps the time it first arrived (:meth:`Store.set_status`).

>>> shown_state({"state": "idle", "received_at": "20:00"}, (3, "20:05"), 36)
'playing'
>>> shown_state({"state": "idle", "received_at": "20:00"}, (36, "21:30"), 36)
'idle'
>>> shown_state({"state": "offline", "received_at": "20:10"}, (3, "20:05"), 36)
'offline'
>>> shown_state(None, None, 36), shown_state(None, (1, "20:01"), 36)
('unknown', 'playing')
"""

from __future__ import annotations

from typing import Any


def shown_state(status: dict[str, Any] | None, newest: tuple[int, str] | None,
                due: int) -> str:
    """``status``: the table's stored status (with ``received_at``); ``newest``: the highest
    game number of the table's list received and when its newest game arrived (server
    times, ISO: they compare as text); ``due``: the games of its list."""
    state = str(status.get("state", "unknown")) if status else "unknown"
    if newest is None:
        return state
    game, received = newest
    if status is None or str(status.get("received_at", "")) < received:
        return "idle" if game >= due else "playing"
    return state

"""Which games the opponents confirmed at the table (``[club] confirm_results``).

A table that asks for confirmations sends each game with ``confirmed_by``: the players who
confirmed its result on the kiosk, or ``[]`` when the next deal started (or the series ended)
before they all did. The server keeps it with each revision (``revisions.confirmed_by``); the
director's page lists the counted games of the running series whose newest revision from the
table is not confirmed.
"""

from __future__ import annotations

from typing import Any


def unconfirmed_games(service: Any) -> list[Any]:
    """The counted games of the running series that their table sent unconfirmed, in list
    order (the games of a table that does not ask are not among them)."""
    out: list[Any] = []
    for s in service.store.series():
        if s["state"] != "running":
            continue
        said = service.store.confirmations(s["number"])
        out += [g for g in service.games(series=s["number"]) if said.get(g.game_id) == []]
    return out

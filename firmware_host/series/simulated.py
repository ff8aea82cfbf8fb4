"""The simulated hands around a session: a dealer with a shuffled deck, and the hands that lay
the cards the computer seats choose (the simulator, and the benches that play a series).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any


class SimulatedTable:
    """The simulated hardware around a session: a dealer with a shuffled deck, and the hands
    that lay the cards the computer seats choose."""

    def __init__(self, session: Any, rng: random.Random,
                 record: Callable[[dict[str, Any]], None] | None = None) -> None:
        self.session = session
        self.rng = rng
        self.record = record
        self.tags = session.config.card_tags()
        self.radio: Any = None  # a firmware_host.tools.radiotable.RadioTable (simulate --harsh)

    def lay(self, zone: str, card: Any) -> Any:
        from firmware_host.table.inputs import TagLaid

        if self.radio is not None:  # the card goes over an emulated reader, as on the table
            self.radio.place(self.session.table, zone, card)
            return None
        inp = TagLaid(zone, self.tags[card])
        return self._send(inp)

    def _send(self, inp: Any, source: str = "table") -> Any:
        if self.record is not None:
            self.record(inp.to_json())
        return self.session.submit(inp, source)

    def deal(self) -> None:
        """Shuffle and deal the ISkO way over the deal reader (or onto the pads in seat mode)."""
        from engine.deal import Deal

        deal = Deal.random(self.rng)
        table = self.session.table
        if table.config.table.deal_mode == "seats":
            seats = table.series.seats
            for pos in range(3):
                for card in _cards(deal.hands[pos]):
                    self.lay(f"seat{seats[pos]}", card)
            for card in _cards(deal.skat):
                if table.stage == "dealing":
                    self.lay("skat", card)
            return
        for card in deal.dealt_order():
            self.lay("deal", card)

    def step(self) -> bool:
        """One move of the table; False when nothing can happen any more."""
        table = self.session.table
        if table.phase == "over":
            return False
        if table.phase in ("dealing", "scored"):
            self.deal()
            return True
        seat = table.seat_to_act()
        if seat is None:
            return False
        if seat in table.prompts:
            zone = "centre" if table.phase == "play" else "skat"
            self.lay(zone, table.prompts[seat])
            return True
        move = self.session.computer_move()
        if move is None:
            return False
        if move.input is not None and self.record is not None:
            self.record(move.input.to_json())
        return True


def _cards(mask: int) -> list[Any]:
    from engine.cards import mask_cards

    return mask_cards(mask)

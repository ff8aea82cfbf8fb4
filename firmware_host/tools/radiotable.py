"""A table whose cards travel over emulated MFRC522 readers: the soak, and ``simulate --harsh``.

Hands lay and lift :class:`drivers.mfrc522_emu.EmulatedTag` stickers on emulated readers (one
per zone), the real driver and poller read them in virtual time under a radio profile
(:data:`drivers.mfrc522_emu.HARSH` by default), and what the poller posts goes to the
controller as the table would send it. The hands follow the table flow of docs/hardware.md:

- the dealer holds each card over the deal reader until the table has it (a beep, the count
  on the screen), then passes it on: the deal reader sees one card at a time (now and then
  the next card comes before the last has left: two at a time);
- in seat mode each player sweeps their cards over their own pad one at a time (seen, not
  left lying there), and the skat goes on the skat reader;
- discards go on the skat reader one after the other (a pile of two at most);
- in play each card is laid on the centre, on the trick; the winner takes the trick away
  before the next lead, so the centre never holds more than the three cards of one trick, and
  only the newest, on top, needs to be read.

A card the table does not take within ``patience`` seconds is lifted and laid again, as a
person would who sees nothing happen. :class:`RadioTable` records every outcome, so a soak can
say that no card was lost, none appeared that was not laid, and none went to the wrong seat.

>>> from firmware_host.config import simulated_config
>>> from firmware_host.table.controller import Table
>>> table = Table(simulated_config(computer_seats=()))
>>> radio = RadioTable(table.config.card_tags(), table.handle, seed=1)
>>> report = radio.play_deals(table, 1, random.Random(1))
>>> report.deals, report.problems
(1, [])
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from drivers import events as ev
from drivers.clock import VirtualClock
from drivers.mfrc522 import MFRC522
from drivers.mfrc522_emu import HARSH, EmulatedMFRC522, EmulatedRig, EmulatedTag, RadioProfile
from drivers.poller import MFRC522Poller
from engine.cards import Card
from firmware_host.table.inputs import DeclareInput, Press, TagGone, TagLaid

CHIP_SELECTS = ((0, 0), (0, 1), (1, 0), (1, 1), (1, 2))
PASS_TIME = 0.05  # the poller's shortest pass


def radio_zones(config: Any) -> list[str]:
    """The zones the radio table needs for ``config``: a reader each, five at most."""
    if config.table.deal_mode == "seats":
        zones = ["centre", "skat"] + [f"seat{s}" for s in range(config.n_players)]
    else:
        zones = ["deal", "centre", "skat"]
    if len(zones) > len(CHIP_SELECTS):
        raise ValueError(f"{len(zones)} readers needed ({', '.join(zones)}): the Pi drives five")
    return zones


class LostCard(RuntimeError):
    """A card laid again and again that the table never took."""


@dataclass
class SoakReport:
    """What a run of deals over the radio saw."""

    deals: int = 0
    cards: int = 0  # cards laid (each counted once, however often it had to be laid)
    relays: int = 0  # cards a hand had to lift and lay again
    passes: int = 0
    seconds: float = 0.0  # table time (virtual)
    unreadable: int = 0  # TagUnreadable events (said to the players)
    faults: int = 0  # ReaderFault events: must stay 0
    stray: int = 0  # a card read on a neighbouring pad that the table ignored (it lay there)
    outcomes: Counter[str] = field(default_factory=Counter)
    errors: Counter[str] = field(default_factory=Counter)  # damaged exchanges by kind
    problems: list[str] = field(default_factory=list)  # lost, phantom or misassigned cards

    def summary(self) -> str:
        errs = ", ".join(f"{k} {v}" for k, v in sorted(self.errors.items())) or "none"
        return (f"{self.deals} deals, {self.cards} cards laid ({self.relays} laid again), "
                f"{self.passes} reader passes in {self.seconds:.0f} s of table time; damaged "
                f"exchanges: {errs}; unreadable said {self.unreadable}x, reader faults "
                f"{self.faults}, stray reads ignored {self.stray}; problems: "
                f"{len(self.problems)}")


class RadioTable:
    """Emulated readers for ``zones`` feeding ``submit`` (a controller's ``handle`` or a
    session's ``submit``) with what the poller reads; hands that lay and lift cards."""

    def __init__(
        self,
        card_tags: Mapping[Card, str],
        submit: Callable[[Any], Any],
        *,
        zones: Sequence[str] = ("deal", "centre", "skat"),
        profile: RadioProfile = HARSH,
        seed: int = 0,
        patience: float = 2.0,
        overlap: Sequence[tuple[str, str]] = (),
        on_event: Callable[[Any], None] | None = None,
    ) -> None:
        if len(zones) > len(CHIP_SELECTS):
            raise ValueError(f"{len(zones)} zones: at most five MFRC522 readers")
        self.clock = VirtualClock()
        self.rig = EmulatedRig(self.clock, profile=profile, seed=seed)
        self.rng = random.Random(seed + 1)
        self.chips: dict[str, EmulatedMFRC522] = {}
        readers = []
        for zone, (bus, device) in zip(zones, CHIP_SELECTS, strict=False):
            self.chips[zone] = self.rig.add_reader(bus, device)
            readers.append((MFRC522(bus, device, clock=self.clock,
                                    spi_factory=self.rig.spidev), zone))
        for a, b in overlap:
            self.rig.overlap(self.chips[a], self.chips[b])
        self._events: list[Any] = []
        self.poller = MFRC522Poller(readers, self._events.append, clock=self.clock)
        self.stickers = {card: EmulatedTag.from_hex(uid) for card, uid in card_tags.items()}
        self.cards = {uid: card for card, uid in card_tags.items()}
        self.submit = submit
        self.patience = patience
        self.on_event = on_event
        self.report = SoakReport()
        self._waiting: tuple[str, str] | None = None
        self._taken = False

    # -- the radio ----------------------------------------------------------------------------
    def run_pass(self) -> None:
        """One pass of the poller, and what it posted handed to the table."""
        start = self.clock.now()
        self.poller.poll_once()
        self.report.passes += 1
        rest = PASS_TIME - (self.clock.now() - start)
        if rest > 0:
            self.clock.sleep(rest)
        events, self._events[:] = list(self._events), []
        for event in events:
            self._deliver(event)

    def _deliver(self, event: Any) -> None:
        if self.on_event is not None:
            self.on_event(event)
        if isinstance(event, ev.ReaderFault):
            self.report.faults += 1
            self.report.problems.append(f"reader fault: {event}")
            return
        if isinstance(event, ev.TagUnreadable):
            self.report.unreadable += 1
            return
        if isinstance(event, ev.TagGone):
            self.submit(TagGone(event.zone, event.uid))
            return
        if not isinstance(event, ev.TagLaid):
            return
        outcome = self.submit(TagLaid(event.zone, event.uid))
        status = getattr(outcome, "status", "accepted")
        self.report.outcomes[status] += 1
        card = self.cards.get(event.uid)
        if (event.zone, event.uid) == self._waiting and status == "accepted":
            self._taken = True
            return
        lying = self.chips[event.zone].tags
        if status == "ignored":
            if card is None or self.stickers[card] not in lying:
                self.report.stray += 1  # a neighbour's card: the table let it pass, unharmed
            return
        if card is None or self.stickers[card] not in lying:
            self.report.problems.append(f"phantom: {card or event.uid} read on {event.zone}, "
                                        f"where it does not lie ({status})")
        else:
            reason = getattr(getattr(outcome, "refusal", None), "reason", "")
            self.report.problems.append(
                f"{card} on {event.zone} was {status} while waiting for "
                f"{self._waiting}: {reason}")

    # -- hands --------------------------------------------------------------------------------
    def lay(self, zone: str, card: Card) -> None:
        """Lay ``card`` on ``zone`` and keep it there until the table has taken it."""
        sticker = self.stickers[card]
        chip = self.chips[zone]
        self._waiting, self._taken = (zone, sticker.uid.hex()), False
        self.report.cards += 1
        for _attempt in range(4):
            chip.lay(sticker)
            deadline = self.clock.now() + self.patience
            while not self._taken and self.clock.now() < deadline:
                self.run_pass()
            if self._taken:
                self._waiting = None
                return
            # Nothing happened on the screen: the person takes it off and lays it again.
            self.report.relays += 1
            chip.lift(sticker)
            for _ in range(3):
                self.run_pass()
        self._waiting = None
        raise LostCard(f"{card} laid four times on {zone} and never taken")

    def lift(self, zone: str, card: Card) -> None:
        self.chips[zone].lift(self.stickers[card])

    def lift_all(self, zone: str) -> None:
        for sticker in list(self.chips[zone].tags):
            self.chips[zone].lift(sticker)

    def settle(self, seconds: float = 1.2) -> None:
        """Let the readers run with nobody touching anything (gone events come in)."""
        end = self.clock.now() + seconds
        while self.clock.now() < end:
            self.run_pass()

    # -- a whole deal ------------------------------------------------------------------------
    def play_deals(self, table: Any, deals: int, rng: random.Random,
                   contracts: Sequence[str] = ("G", "C", "S", "H", "D", "N")) -> SoakReport:
        """Deal, bid, discard, declare and play ``deals`` deals on ``table`` (a
        :class:`firmware_host.table.controller.Table`) through the readers; checks each deal's hands
        and tricks against what the hands really did."""
        from engine.deal import Deal

        for _ in range(deals):
            if table.phase == "over":
                break
            deal = Deal.random(rng)
            self._deal(table, deal)
            if not self._check_hands(table, deal):
                break
            self._bid_and_declare(table, rng, contracts)
            self._play(table, rng)
            self.report.deals += 1
        self.finish()
        return self.report

    def finish(self, deals: int | None = None) -> SoakReport:
        """Gather the figures of the run into :attr:`report` (``deals``: as the caller counted)."""
        if deals is not None:
            self.report.deals = deals
        self.report.seconds = self.clock.now()
        self.report.errors = Counter()
        for slot in self.poller.slots:
            self.report.errors.update(slot.reader.errors)
        return self.report

    def place(self, table: Any, zone: str, card: Card) -> None:
        """Lay ``card`` on ``zone`` the way the table flow has it (see the module docstring)."""
        chip = self.chips[zone]
        for other, there in self.chips.items():
            if other != zone and self.stickers[card] in there.tags:
                there.lift(self.stickers[card])  # a card lies in one place
        if zone != "deal" and "deal" in self.chips and self.chips["deal"].tags:
            self.lift_all("deal")  # the deal is over: the last card has been handed on
        if table.stage in ("scored", "over") or (zone == "deal" and table.stage == "dealing"):
            for other in ("centre", "skat"):  # the last game's cards are gathered to shuffle
                if other in self.chips and other != zone:
                    self.lift_all(other)
        if zone == "deal":
            previous = list(chip.tags)
            self.lay(zone, card)
            for sticker in previous:
                chip.lift(sticker)
            # Now and then the dealer is quick: the next card comes before this one has left.
            if self.rng.random() < 0.8:
                self.lift(zone, card)
            return
        if zone == "centre":
            game = table.game
            if game is not None and not game.trick and chip.tags:
                self.lift_all("centre")  # the winner has taken the last trick away
                self.run_pass()
        if zone == "skat" and table.phase in ("discard", "pushing") and len(chip.tags) >= 2:
            self.lift_all("skat")  # the skat lying there has been taken up
        self.lay(zone, card)
        if zone.startswith("seat"):
            self.lift(zone, card)  # swept over the pad: seen, not left lying

    def _deal(self, table: Any, deal: Any) -> None:
        if table.config.table.deal_mode == "seats":
            # Each player sweeps their cards over their own pad; the skat goes on its reader.
            seats = table.series.seats
            for pos in range(3):
                for card in _cards(deal.hands[pos]):
                    self.place(table, f"seat{seats[pos]}", card)
            for card in _cards(deal.skat):
                if table.stage == "dealing":
                    self.place(table, "skat", card)
            return
        for card in deal.dealt_order():
            self.place(table, "deal", card)
        self.lift_all("deal")

    def _check_hands(self, table: Any, deal: Any) -> bool:
        game = table.game
        ok = True
        for pos in range(3):
            if game.hand(pos) != deal.hands[pos]:
                self.report.problems.append(
                    f"deal {table.deal.number}: the hand of position {pos} is not the one dealt")
                ok = False
        return ok

    def _bid_and_declare(self, table: Any, rng: random.Random, contracts: Sequence[str]) -> None:
        # Middlehand and rearhand pass, forehand plays for 18: the radio is what is tested.
        for _ in range(3):
            if table.phase != "bidding":
                break
            seat = table.seat_to_act()
            pos = table.deal.seats.index(seat)
            table.handle(Press(seat, "bid" if pos == 0 else "pass"))
        if table.phase != "skat":
            self.report.problems.append(f"bidding ended in phase {table.phase}")
            return
        seat = table.seat_to_act()
        table.handle(Press(seat, "skat"))
        game = table.game
        hand = _cards(game.hand(game.declarer))
        for card in rng.sample(hand, 2):
            self.place(table, "skat", card)
        contract = rng.choice(contracts)
        outcome = table.handle(DeclareInput(seat, contract))
        if outcome.status != "accepted":
            table.handle(DeclareInput(seat, "G"))

    def _play(self, table: Any, rng: random.Random) -> None:
        while table.stage == "game" and table.phase == "play":
            game = table.game
            before = len(game.tricks)
            self.place(table, "centre", rng.choice(list(game.legal_cards())))
            if len(table.game.tricks) != before and table.stage == "game":
                # The trick is complete; it lies a moment, then its winner takes it.
                for _ in range(rng.randrange(0, 10)):
                    self.run_pass()
        self.settle(0.2)


def _cards(mask: int) -> list[Card]:
    from engine.cards import mask_cards

    return list(mask_cards(mask))


def soak_config(seats: bool = False) -> Any:
    """The made-up table of the soak: three people, open-ended, dealer or seat mode."""
    from dataclasses import replace

    from firmware_host.config import simulated_config

    config = simulated_config(computer_seats=(), series_length=None)
    if seats:
        config = replace(config, table=replace(config.table, deal_mode="seats"))
    return config


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m firmware_host.tools.radiotable --deals 3000``: the long soak; 1 if
    any problem."""
    import argparse
    import itertools
    import time

    from firmware_host.table.controller import Table

    parser = argparse.ArgumentParser(prog="python -m firmware_host.tools.radiotable",
                                     description=main.__doc__)
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--overlap", action="store_true",
                        help="pads too close: neighbouring readers reach each other's cards")
    parser.add_argument("--seats", action="store_true",
                        help="deal_mode seats: cards swept over the players' own pads")
    args = parser.parse_args(argv)
    table = Table(soak_config(args.seats))
    zones = radio_zones(table.config)
    overlap = list(itertools.pairwise(zones)) if args.overlap else []
    radio = RadioTable(table.config.card_tags(), table.handle, zones=zones, seed=args.seed,
                       overlap=overlap)
    start = time.perf_counter()
    report = radio.play_deals(table, args.deals, random.Random(args.seed))
    print(f"{report.summary()} ({time.perf_counter() - start:.0f} s of wall time)")
    for problem in report.problems:
        print(problem)
    return 1 if report.problems else 0


if __name__ == "__main__":
    raise SystemExit(main())

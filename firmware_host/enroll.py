"""``skat-table enroll``: enrol a deck, once per deck. Each card is asked for in turn; the user
lays it on a reader and its tag UID is stored. A tag already enrolled as another card, or a tag
read twice, is refused with the card it belongs to; nothing is lost.

The result is a deck file (``CJ = "04a224b2c94f80"`` per card) that the config names with
``[deck] deck = "deck.toml"``. The deck registry of ``drivers`` is used when it is there.
"""

from __future__ import annotations

import argparse
import queue
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.cards import Card

# The order cards are asked for: the way a deck is usually sorted, jacks first.
ENROL_ORDER: tuple[Card, ...] = (
    Card.CJ, Card.SJ, Card.HJ, Card.DJ,
    *(Card.parse(s + r) for s in "CSHD" for r in "AKQT987"),
)


class EnrolError(ValueError):
    """A tag that cannot be stored for the card asked for."""


@dataclass
class Enrolment:
    """The cards enrolled so far; :meth:`offer` takes the tag read for the card asked for."""

    tags: dict[Card, str] = field(default_factory=dict)

    @property
    def next_card(self) -> Card | None:
        return next((c for c in ENROL_ORDER if c not in self.tags), None)

    @property
    def done(self) -> bool:
        return self.next_card is None

    def offer(self, uid: str) -> Card:
        card = self.next_card
        if card is None:
            raise EnrolError("the deck is complete")
        uid = uid.strip().lower()
        for other, tag in self.tags.items():
            if tag == uid:
                raise EnrolError(f"this tag is already {other}: lay {card}")
        self.tags[card] = uid
        return card

    def undo(self) -> Card | None:
        last = next((c for c in reversed(ENROL_ORDER) if c in self.tags), None)
        if last is not None:
            del self.tags[last]
        return last

    def to_toml(self) -> str:
        lines = ["# skat-table deck: card = tag UID", "[deck]"]
        lines += [f'{c} = "{self.tags[c]}"' for c in ENROL_ORDER if c in self.tags]
        return "\n".join(lines) + "\n"


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--config", metavar="FILE", help="the table config: which reader to use")
    p.add_argument("--zone", default="deal", help="the zone whose reader enrols (default deal)")
    p.add_argument("--out", metavar="FILE", default="deck.toml",
                   help="the deck file to write (default deck.toml)")
    p.add_argument("--uids", metavar="FILE",
                   help="read UIDs from a file, one per line, instead of a reader (tests)")


def cmd_enroll(args: argparse.Namespace) -> int:
    enrolment = Enrolment()
    if args.uids:
        uids = iter(Path(args.uids).read_text(encoding="utf-8").split())
        source: Any = (u for u in uids)
    else:
        source = _reader_uids(args)
        if source is None:
            return 2
    print(f"Enrolling a deck: lay each card on the {args.zone} reader.", file=sys.stderr)
    try:
        while not enrolment.done:
            print(f"  lay {enrolment.next_card} ...", file=sys.stderr, flush=True)
            try:
                uid = next(source)
            except StopIteration:
                print(f"skat-table: input ended with {len(enrolment.tags)} of 32 cards; "
                      "the deck is not written", file=sys.stderr)
                return 1
            try:
                card = enrolment.offer(uid)
            except EnrolError as exc:
                print(f"  refused: {exc}", file=sys.stderr)
                continue
            print(f"  {card} = {enrolment.tags[card]}", file=sys.stderr)
    except KeyboardInterrupt:
        print("skat-table: stopped; the deck is not written", file=sys.stderr)
        return 130
    Path(args.out).write_text(enrolment.to_toml(), encoding="utf-8")
    print(f"deck written to {args.out}", file=sys.stderr)
    return 0


def _reader_uids(args: argparse.Namespace) -> Any:
    """UIDs laid on the enrolment zone's reader, as they come."""
    from firmware_host.config import ConfigError, load_config

    if not args.config:
        print("skat-table: enroll needs --config (which reader) or --uids FILE", file=sys.stderr)
        return None
    try:
        config = load_config(args.config, deck_required=False)
    except ConfigError as exc:
        print(f"skat-table: config error: {exc}", file=sys.stderr)
        return None
    from drivers import events as ev
    from firmware_host.runner import EventLoop, start_hardware
    from firmware_host.session import Session

    events: queue.Queue[Any] = queue.Queue()
    loop = EventLoop(Session(config))
    loop.post = events.put  # type: ignore[method-assign]
    start_hardware(config, loop)

    def gen() -> Any:
        while True:
            e = events.get()
            if isinstance(e, ev.TagLaid) and e.zone == args.zone:
                yield e.uid
            elif isinstance(e, ev.ReaderFault):
                print(f"  reader trouble: {e}", file=sys.stderr)

    return gen()

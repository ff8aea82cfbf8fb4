"""``skat-table enroll``: enrol a deck, once per deck. Each card is asked for in turn; the user
lays it on a reader and its tag UID is stored (``drivers.decks.EnrolmentSession``: saved after
every card, so a session can be resumed; a tag read twice or a tag of another deck is refused
with the card it is). A long press of any seat's button, or ``undo`` in a ``--uids`` file,
takes back the last card.

The deck file (``CJ = "04a224b2c94f80"`` per card) is what the config names with
``[deck] deck = "blue.toml"``; the other deck files in the same directory are the other decks
the table knows.
"""

from __future__ import annotations

import argparse
import queue
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--config", metavar="FILE", help="the table config: which readers to use")
    p.add_argument("--zone", default="deal", help="the zone whose reader enrols (default deal)")
    p.add_argument("--out", metavar="FILE",
                   help="the deck file to write or resume (default deck.toml; with --players "
                        "players.toml)")
    p.add_argument("--players", nargs="+", metavar="ID",
                   help="enrol player tags instead of a deck: each player's club id in turn "
                        "(the config names the file with [club] player_tags)")
    p.add_argument("--name", help="the deck's name (default: the file name)")
    p.add_argument("--uids", metavar="FILE",
                   help="take UIDs from a file, one a line ('undo' takes one back), "
                        "instead of a reader")
    p.add_argument("--display", action="store_true",
                   help="show the card to lay next and the progress on the kiosk screen")


def cmd_enroll(args: argparse.Namespace) -> int:
    from drivers.decks import DeckError, DeckRegistry, EnrolmentSession, load_deck

    if args.players:
        return _enroll_players(args)
    out = Path(args.out or "deck.toml")
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        print(f"skat-table: cannot create {out.parent}: {exc.strerror or exc}", file=sys.stderr)
        return 1
    registry = DeckRegistry()
    for other in sorted(out.parent.glob("*.toml")):
        if other.resolve() == out.resolve():
            continue
        try:
            registry.add(load_deck(other))
        except (DeckError, ValueError):
            continue  # not a (complete) deck file: a config, a half-enrolled deck
    try:
        session = EnrolmentSession(args.name or out.stem, out, registry)
    except (DeckError, ValueError) as exc:
        print(f"skat-table: {exc}", file=sys.stderr)
        return 2
    screen = _EnrolScreen(args) if args.display else None
    if screen is not None and screen.kiosk is None:
        return 1
    if args.uids:
        source: Iterator[str] | None = iter(
            Path(args.uids).read_text(encoding="utf-8").split())
    else:
        source = _reader_uids(args, screen.pump if screen is not None else None)
    if source is None:
        if screen is not None:
            screen.close()
        return 2
    try:
        return _enrol(session, source, out, args, screen)
    finally:
        if screen is not None:
            screen.close()


def _enrol(session: Any, source: Iterator[str], out: Path, args: argparse.Namespace,
           screen: _EnrolScreen | None) -> int:
    from drivers.decks import EnrolmentError

    last = None
    if session.count:
        print(f"resuming deck {session.name!r}: {session.count} of 32 cards enrolled",
              file=sys.stderr)
    print(f"Enrolling deck {session.name!r}: lay each card on the {args.zone} reader.",
          file=sys.stderr)
    while not session.done:
        if screen is not None:
            screen.show(session, last)
        print(f"  lay {session.next_card} ...", file=sys.stderr, flush=True)
        try:
            uid = next(source)
        except StopIteration:
            print(f"skat-table: input ended with {session.count} of 32 cards; run enroll "
                  f"again with --out {out} to go on", file=sys.stderr)
            return 1
        except KeyboardInterrupt:
            print(f"skat-table: stopped at {session.count} of 32 cards (saved in {out})",
                  file=sys.stderr)
            return 130
        if uid == "undo":
            card = session.undo()
            last = None
            print(f"  took back {card}" if card else "  nothing to take back", file=sys.stderr)
            continue
        try:
            card = session.offer(uid)
        except EnrolmentError as exc:
            print(f"  refused: {exc}", file=sys.stderr)
            if screen is not None:
                screen.show(session, last, refused=str(exc))
            continue
        except OSError as exc:  # the deck file is saved after every card
            print(f"skat-table: cannot save {out}: {exc.strerror or exc}", file=sys.stderr)
            return 1
        last = card
        print(f"  {card} = {uid}", file=sys.stderr)
    if screen is not None:
        screen.show(session, last)
    print(f"deck {session.name!r} complete: {out}", file=sys.stderr)
    return 0


class _EnrolScreen:
    """The kiosk's enrolment scene: the card to lay next (big, and named), the progress, the
    card stored last, a refusal as a red banner."""

    def __init__(self, args: argparse.Namespace) -> None:
        from display.kiosk import DisplayUnavailable, Kiosk

        self.language, self.players = "de", ("1", "2", "3")
        display: dict[str, Any] = {}
        if args.config:
            from firmware_host.config import ConfigError, load_config

            try:
                config = load_config(args.config, without_deck=True)
                self.language, self.players = config.table.language, tuple(config.table.players)
                display = config.display
            except ConfigError:
                pass  # said already where the readers are read; the screen keeps its defaults
        size = display.get("size")
        try:
            self.kiosk: Any = Kiosk(size=tuple(size) if size else None,
                                    fullscreen=bool(display.get("fullscreen", False)),
                                    driver=display.get("driver"),
                                    rotate=display.get("rotate")).open()
        except DisplayUnavailable as exc:
            print(f"skat-table: no display: {exc}", file=sys.stderr)
            self.kiosk = None

    def show(self, session: Any, last: Any, refused: str | None = None) -> None:
        from display.view import EnrolView, Fault, View

        if self.kiosk is None:
            return
        view = View(scene="enrol", players=self.players, language=self.language,
                    enrol=EnrolView(card=None if session.done else session.next_card,
                                    done=session.count, last=last),
                    refusal=Fault("other", detail=refused) if refused else None)
        self.kiosk.show(view)
        self.pump()

    def pump(self) -> None:
        if self.kiosk is not None:
            self.kiosk.wait_events(0)

    def close(self) -> None:
        if self.kiosk is not None:
            self.kiosk.close()


def _reader_uids(args: argparse.Namespace,
                 pump: Callable[[], None] | None = None) -> Iterator[str] | None:
    """UIDs laid on the enrolment zone's reader, as they come; a button held: undo."""
    from firmware_host.config import ConfigError, load_config

    if not args.config:
        print("skat-table: enroll needs --config (which reader) or --uids FILE", file=sys.stderr)
        return None
    try:
        config = load_config(args.config, without_deck=True)
    except ConfigError as exc:
        print(f"skat-table: config error: {exc}", file=sys.stderr)
        return None
    from drivers import events as ev
    from firmware_host.series.session import Session
    from firmware_host.service.runner import EventLoop, start_hardware

    events: queue.Queue[Any] = queue.Queue()
    loop = EventLoop(Session(config))
    loop.post = events.put  # type: ignore[method-assign]
    start_hardware(config, loop)

    def gen() -> Iterator[str]:
        while True:
            try:
                e = events.get(timeout=0.25)
            except queue.Empty:
                if pump is not None:
                    pump()  # keep the screen answering while no card comes
                continue
            if isinstance(e, ev.TagLaid) and e.zone == args.zone:
                yield e.uid
            elif isinstance(e, ev.ButtonHold):
                yield "undo"
            elif isinstance(e, ev.ReaderFault):
                print(f"  reader trouble: {e}", file=sys.stderr)
            elif isinstance(e, ev.TagUnreadable):
                print(f"  {e}", file=sys.stderr)  # a card that answers but cannot be read

    return gen()


def _enroll_players(args: argparse.Namespace) -> int:
    """``enroll --players ID ...``: a player tag for each id (firmware_host.clubside.playertags)."""
    from drivers.decks import DeckError, load_deck
    from firmware_host.clubside.playertags import PlayerTagError, enrol_players

    out = Path(args.out or "players.toml")
    # Every card tag the table knows is refused as a player tag: the decks next to the file,
    # and the config's deck and the decks next to it.
    cards: set[str] = set()
    for deck_file in sorted(out.resolve().parent.glob("*.toml")):
        try:
            cards.update(load_deck(deck_file).cards.values())
        except (DeckError, ValueError, OSError):
            continue
    if args.config:
        from firmware_host.config import ConfigError, load_config

        try:
            config = load_config(args.config, deck_required=False)
        except ConfigError as exc:
            print(f"skat-table: config error: {exc}", file=sys.stderr)
            return 2
        cards.update(config.deck)
        cards.update(config.other_decks)
    if args.uids:
        source: Iterator[str] | None = iter(Path(args.uids).read_text(encoding="utf-8").split())
    else:
        source = _reader_uids(args)
    if source is None:
        return 2
    print(f"Enrolling player tags into {out}: lay each player's tag on the {args.zone} reader.",
          file=sys.stderr)
    try:
        return enrol_players(args.players, out, source, cards,
                             lambda text: print(text, file=sys.stderr, flush=True))
    except PlayerTagError as exc:
        print(f"skat-table: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"skat-table: cannot save {out}: {exc.strerror or exc}", file=sys.stderr)
        return 1

"""The table controller: every physical input interpreted by the phase of the game.

:class:`Table` owns the engine for a whole series. :meth:`Table.handle` takes one input (a tag
laid or gone, a press, a declaration), decides whether the table accepts it, applies it to the
engine and says what happened as an :class:`Outcome`. It does no I/O: the session around it
journals, shows and logs. Everything refused is refused with a :class:`Refusal` whose reason is
in the players' words, and changes nothing.

The state of the table is a pure function of the accepted inputs in order: undo removes the
last accepted input and rebuilds; recovery after a crash feeds the journal's inputs back in.

>>> from firmware_host.config import simulated_config
>>> cfg = simulated_config(computer_seats=())
>>> table = Table(cfg)
>>> table.phase
'dealing'
>>> table.handle(Press(0, "bid")).refusal.reason
'the cards are still being dealt (0 of 32)'
"""

from __future__ import annotations

import copy
import logging
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from engine import actions as a
from engine.cards import Card, mask_cards
from engine.contract import BID_VALUES, Contract, ContractError, GameType
from engine.deal import DEAL_PATTERN, SKAT, Deal
from engine.game import ISKO, IllegalAction, Rules
from firmware_host.config import Config
from firmware_host.table.inputs import DeclareInput, Input, Press, TagGone, TagLaid
from firmware_host.table.recent import RecentTags

log = logging.getLogger("skat-table")
ROLE_NAMES = ("forehand", "middlehand", "rearhand")
PHASES = ("dealing", "bidding", "skat", "discard", "pushing", "play", "scored", "over")
# Deal starts whose state the controller keeps for undo: an undo back into any of the last three
# deals starts there; one further back replays the series from its first input.
CHECKPOINTS = 3
Source = Literal["table", "computer", "script"]


@dataclass(frozen=True)
class Refusal:
    """Why the table turned an input down; ``kind`` and the fields feed the display's banner."""

    kind: str
    reason: str
    seat: int | None = None
    card: Card | None = None
    follow_with: tuple[Card, ...] = ()
    suit: str | None = None
    other_seat: int | None = None
    value: int | None = None
    other_value: int | None = None
    zone: str | None = None


@dataclass(frozen=True)
class Mark:
    """The table before one input, for :meth:`Table.retract`."""

    stack: list[tuple[Input, Source]] | None  # the stack before an undo; None for the rest
    present: dict[str, RecentTags]
    stale: dict[str, RecentTags]
    prompts: dict[int, Card]


class Refused(Exception):
    """Raised inside the controller to turn an input down; never escapes :meth:`Table.handle`."""

    def __init__(self, refusal: Refusal) -> None:
        super().__init__(refusal.reason)
        self.refusal = refusal


@dataclass(frozen=True)
class Outcome:
    """What one input did: ``accepted`` (state changed), ``refused`` or ``ignored``."""

    status: Literal["accepted", "refused", "ignored"]
    refusal: Refusal | None = None
    note: str = ""

    @property
    def accepted(self) -> bool:
        return self.status == "accepted"


@dataclass
class DealState:
    """One deal of the series: who deals, who sits where, the cards so far and the game."""

    number: int
    dealer: int
    seats: tuple[int, int, int]  # table seats of forehand, middlehand, rearhand
    dealt: list[Card] = field(default_factory=list)  # dealer mode: in the order dealt
    owner: dict[Card, int] = field(default_factory=dict)  # seat mode: card -> position/SKAT
    game: Any = None  # engine.game.Game once all 32 cards are known
    declared: str | None = None  # the contract as declared, for records
    result: Any = None  # engine.game.GameResult once scored
    entry: Any = None  # engine.series.SheetEntry once scored
    # The seats that confirmed this result, in order (a club table with confirm_results).
    # A tuple, replaced whole: a finished deal is shared with the undo checkpoints.
    confirmed: tuple[int, ...] = ()

    def position_of(self, seat: int) -> int | None:
        return self.seats.index(seat) if seat in self.seats else None

    def cards_known(self) -> int:
        return len(self.dealt) or len(self.owner)

    def summary_json(self) -> dict[str, Any]:
        """A finished deal as its sheet keeps it (a journal's checkpoint): no cards, no game."""
        return {"declared": self.declared, "entry": self.entry.state_json()}

    @classmethod
    def from_summary(cls, d: dict[str, Any]) -> DealState:
        """The finished deal :meth:`summary_json` wrote (without its cards and game);
        ``ValueError`` when ``d`` is not one."""
        from engine.series import SheetEntry

        if not isinstance(d, dict):
            raise ValueError("not a deal summary")
        entry = SheetEntry.from_state_json(d.get("entry"))  # type: ignore[arg-type]
        declared = d.get("declared")
        return cls(entry.number, entry.dealer, entry.seats,
                   declared=None if declared is None else str(declared),
                   result=entry.result, entry=entry)


class _Finished(Sequence[DealState]):
    """The finished deals, a view of the table's deals without a copy (a long series is
    asked for its last deal at every input)."""

    __slots__ = ("_deals", "_n")

    def __init__(self, deals: list[DealState]) -> None:
        self._deals = deals
        self._n = len(deals) - (1 if deals and deals[-1].result is None else 0)

    def __len__(self) -> int:
        return self._n

    def __getitem__(self, i: Any) -> Any:
        picked = range(self._n)[i]
        if isinstance(picked, range):
            return [self._deals[k] for k in picked]
        return self._deals[picked]

    def __iter__(self) -> Iterator[DealState]:
        return iter(self._deals[:self._n])

    def __eq__(self, other: object) -> bool:
        return list(self) == (list(other) if isinstance(other, Sequence) else other)

    def __repr__(self) -> str:
        return f"<{self._n} finished deals>"


def confirmers(d: DealState) -> tuple[int, ...]:
    """The seats that confirm a finished deal's result: the declarer's opponents; in a deal
    without a declarer (a Ramsch, passed in) the players of the deal whose score it does not
    change (all but the Ramsch's loser, or the Durchmarsch's taker; passed in: all three).
    The dealer who sits out at four never confirms."""
    entry = d.entry
    if entry is None:
        return ()
    if entry.declarer is not None:
        return tuple(s for s in d.seats if s != entry.declarer)
    untouched = tuple(s for s in d.seats if not entry.scores[s])
    return untouched or tuple(d.seats)


def positions_for(dealer: int, n: int) -> tuple[int, int, int]:
    """Table seats of forehand, middlehand and rearhand: clockwise from the dealer's left.

    >>> positions_for(2, 3)
    (0, 1, 2)
    >>> positions_for(0, 4)
    (1, 2, 3)
    """
    return ((dealer + 1) % n, (dealer + 2) % n, (dealer + 3) % n)


def engine_rules(config: Config) -> Any:
    """The engine's rule switches for this table: the ISkO, or the ``pub`` house rules on;
    ``violations = "isko"`` in ``[table]`` makes a revoke or a card out of turn a violation."""
    isko_violations = getattr(config.table, "violations", "refuse") == "isko"
    if config.table.rules == "isko":
        return Rules(isko_violations=True) if isko_violations else ISKO
    known = set(Rules.__dataclass_fields__)
    return Rules(**{k: v for k, v in config.house.items() if k in known and k != "bock"},
                 isko_violations=isko_violations)


class Table:
    """The whole table for one series; see the module docstring."""

    def __init__(self, config: Config, series_factory: Callable[[], Any] | None = None, *,
                 bounded: bool = False) -> None:
        self.config = config
        # ``bounded`` (the live table): undo reaches back to the start of the deal
        # :data:`CHECKPOINTS` - 1 deals before the current one and no further; the inputs before
        # that are let go and older deals keep their sheet entry, not their cards and game,
        # so a series of ten thousand deals costs what a short one does. Unbounded (replay,
        # export): every input and every game is kept.
        self.bounded = bounded
        # The deal whose start undo cannot go back past (bounded, once inputs were let go),
        # and how many accepted inputs before ``stack`` were let go.
        self.undo_floor: int | None = None
        self.let_go = 0
        # The seats the computer plays (the session sets them): a card of theirs is laid once
        # the computer has chosen it (a prompt), never before (see handle).
        self.computers: frozenset[int] = frozenset()
        # The opponents confirm each result (a club's tournament series with
        # ``[club] confirm_results``; the session sets it): see _confirm.
        self.confirming = False
        self.n = config.n_players
        self.names = config.table.players
        self.rules = engine_rules(config)
        self._series_factory = series_factory or self._default_series
        # Physical presence of tags per zone: the same tag again without "gone" changes nothing.
        # Bounded (RecentTags): a flood of foreign tags must not grow it forever.
        self.present: dict[str, RecentTags] = {}
        # After a restart (forget_present): tags that lay there before it. Read again, such a
        # tag is taken if the table can take it now (it was picked up during the outage and
        # laid again) and otherwise ignored (it simply still lies there).
        self.stale: dict[str, RecentTags] = {}
        # The computer's moves a person must carry out: seat -> card to lay.
        self.prompts: dict[int, Card] = {}
        self.stack: list[tuple[Input, Source]] = []
        # The state at the start of the last few deals, oldest first: (inputs before it, state).
        self._checkpoints: list[tuple[int, Any]] = []
        self._fresh()

    # ---- state -----------------------------------------------------------------------------

    def _default_series(self) -> Any:
        from engine.series import Series

        t = self.config.table
        extra = {}
        if self.config.computer.uncredited:  # duel mode: the computer is never credited
            extra["uncredited_seats"] = self.config.computer.uncredited
        return Series(list(t.players), t.first_dealer, scoring=t.scoring,
                      length=t.series_length, bock=self.config.house.get("bock") or (),
                      stake=t.stake, cap=t.cap,
                      rules=self.rules, **extra)

    def _fresh(self) -> None:
        self.series = self._series_factory()
        self.deals: list[DealState] = []
        self.stage = "dealing"
        self._new_deal()

    def _new_deal(self) -> None:
        s = self.series
        self.deals.append(DealState(s.number, s.dealer, s.seats))
        self.stage = "dealing"

    @property
    def deal(self) -> DealState:
        return self.deals[-1]

    @property
    def game(self) -> Any:
        return self.deal.game

    @property
    def phase(self) -> str:
        """Where the table stands: one of :data:`PHASES`."""
        if self.stage in ("dealing", "scored", "over"):
            return self.stage
        return str(self.game.phase.value).lower()

    @property
    def finished_deals(self) -> Sequence[DealState]:
        return _Finished(self.deals)

    def seat_to_act(self) -> int | None:
        if self.game is None or self.stage != "game" or self.game.to_act is None:
            return None
        return self.deal.seats[self.game.to_act]

    def name(self, seat: int) -> str:
        return self.names[seat]

    # ---- input -----------------------------------------------------------------------------

    def handle(self, inp: Input, source: Source = "table", *, live: bool = True) -> Outcome:
        """Interpret one input; never raises for anything the table can be told.

        ``live`` (not a journal's input replayed): a card of a computer seat's hand laid
        before the computer chose one is refused (journals written before this rule are
        replayed as they were decided)."""
        if isinstance(inp, TagGone):
            self.present.get(inp.zone, set()).discard(inp.tag)
            self.stale.get(inp.zone, set()).discard(inp.tag)
            return Outcome("ignored", note=f"{inp.tag} left {inp.zone}")
        stale = False
        if isinstance(inp, TagLaid):
            zone = self.present.setdefault(inp.zone, RecentTags())
            if inp.tag in zone:
                return Outcome("ignored", note=f"{inp.tag} still lies on {inp.zone}")
            lying = self._lies_in_trick(inp)
            if lying is not None:
                zone.add(inp.tag)
                return Outcome("ignored", note=f"{lying} still lies on the table ({inp.zone})")
            zone.add(inp.tag)
            if inp.tag in self.stale.get(inp.zone, ()):
                self.stale[inp.zone].discard(inp.tag)
                stale = True
            unchosen = self._unchosen(inp) if live and self.computers else None
            if unchosen is not None:
                return Outcome("refused", unchosen)
        if isinstance(inp, Press) and inp.press == "undo":
            return self._undo(inp.seat)
        phase_before = self.phase, len(self.deals)
        try:
            note = self._apply(inp)
        except Refused as exc:
            if stale:
                return Outcome("ignored", note=f"{inp.tag} still lies on {inp.zone} "  # type: ignore[union-attr]
                               "(read again after a restart)")
            return Outcome("refused", exc.refusal)
        except Exception as exc:  # a bug must not take the table down, nor half-apply an input
            log.exception("input %r failed", inp)
            self._rebuild(list(self.stack))
            return Outcome("refused", Refusal(
                "other", f"the table could not take this input (internal error: {exc})"))
        self.stack.append((inp, source))
        if (self.phase, len(self.deals)) != phase_before:
            # A new phase: cards lying on the readers from the last one may be read afresh.
            self.present = {}
            self.stale = {}
            if isinstance(inp, TagLaid):
                self.present[inp.zone] = RecentTags([inp.tag])
        return Outcome("accepted", note=note)

    def mark(self, inp: Input) -> Mark:
        """What :meth:`retract` needs to take back ``inp`` once handled (cheap: no copy of
        the state; the whole stack only before an undo, which drops inputs)."""
        undo = isinstance(inp, Press) and inp.press == "undo"
        return Mark(list(self.stack) if undo else None, self.present, self.stale,
                    dict(self.prompts))

    def retract(self, mark: Mark) -> None:
        """Take back the input accepted since ``mark`` (the journal could not save it): the
        table is as before it, checkpoints included (rebuilt like an undo). A card taken
        back still lies on its reader until it is picked up, as a refused one does."""
        if mark.stack is None:
            self._rebuild(self.stack[:-1])
        else:  # an undo: the inputs it dropped come back, their cards lying where they lay
            dropped = mark.stack[len(self.stack):]
            self._rebuild(mark.stack)
            for inp, _source in dropped:
                if isinstance(inp, TagLaid):
                    mark.present.setdefault(inp.zone, RecentTags()).add(inp.tag)
        self.present, self.stale, self.prompts = mark.present, mark.stale, dict(mark.prompts)

    def forget_present(self) -> None:
        """After a restart: what lay on the readers is asked again, not remembered.

        >>> from firmware_host.config import simulated_config
        >>> t = Table(simulated_config(computer_seats=()))
        >>> tag = next(iter(t.config.deck))
        >>> t.handle(TagLaid("deal", tag)).status
        'accepted'
        >>> t.handle(TagLaid("deal", tag)).status  # still lies there: nothing new
        'ignored'
        >>> t.forget_present()
        >>> t.handle(TagLaid("deal", tag)).status  # read again after a restart: not refused
        'ignored'
        """
        for zone, tags in self.present.items():
            self.stale.setdefault(zone, RecentTags()).update(tags)
        self.present = {}

    def _unchosen(self, inp: TagLaid) -> Refusal | None:
        """Why a card of a computer seat's hand may not be laid now: the computer has not
        chosen it (no prompt). A person never plays, discards or pushes for the computer, and
        its card laid by a slip is no violation of the computer's."""
        card = self.config.deck.get(inp.tag)
        game = self.game
        if card is None or game is None or self.stage != "game" or self.phase not in (
                "play", "discard", "pushing"):
            return None
        holder = next((p for p in range(3) if game.hand(p) & card.bit), None)
        if holder is None:
            return None
        seat = self.deal.seats[holder]
        if seat not in self.computers or seat in self.prompts:
            return None
        return Refusal("computer-seat", f"{self.name(seat)} is played by the computer: wait "
                       "for its card", seat=seat, card=card, zone=inp.zone, value=1)

    def _lies_in_trick(self, inp: TagLaid) -> Card | None:
        """The card, if ``inp`` is a card of the trick lying on the table read again.

        Stacked stickers detune each other: a card under the one laid after it may fall silent
        for a second (a "gone") and be read again. The trick lies until its winner takes it away
        (docs/hardware.md, "The table flow"), so such a read is no new card and no refusal.
        """
        game = self.game
        in_play = self.stage == "game" and self.phase == "play"
        if game is None or not (
            (in_play and inp.zone != "deal")
            or (self.stage == "scored" and inp.zone == "centre")
        ):
            return None
        card = self.config.deck.get(inp.tag)
        if card is None:
            return None
        lying = list(game.trick) or (list(game.tricks[-1].cards) if game.tricks else [])
        if inp.zone == "skat" and in_play and game.skat & card.bit:
            return card  # the skat (or the discards) lying on its reader, read again
        # A neighbouring pad's field may reach the trick too: still the same card lying there.
        return card if card in lying else None

    def _undo(self, seat: int) -> Outcome:
        if not 0 <= seat < self.n:
            return Outcome("refused", Refusal("other", f"there is no seat {seat} at this table"))
        # Undo reaches back over the computer's own moves to the last thing a person did.
        idx = len(self.stack) - 1
        while idx >= 0 and self.stack[idx][1] == "computer":
            idx -= 1
        if idx < 0:
            if self.undo_floor is not None:
                return Outcome("refused", Refusal(
                    "other", f"undo goes back only to the start of deal {self.undo_floor}",
                    seat=seat))
            return Outcome("refused", Refusal("other", "there is nothing to undo", seat=seat))
        undone = self.stack[idx][0]
        keep, dropped = self.stack[:idx], self.stack[idx:]
        self._rebuild(keep)
        for inp, _source in dropped:  # those cards are taken back: they may be laid again
            if isinstance(inp, TagLaid):
                self.present.get(inp.zone, set()).discard(inp.tag)
        return Outcome("accepted", note=f"undone: {describe_input(undone, self)}")

    def _rebuild(self, keep: list[tuple[Input, Source]]) -> None:
        present = self.present
        start = 0
        # a deal's start that lies beyond what is kept is a state that no longer happened
        while self._checkpoints and self._checkpoints[-1][0] > len(keep):
            self._checkpoints.pop()
        if self._checkpoints:
            start, snapshot = self._checkpoints[-1]
            self.series, self.deals, self.stage = self._copy(snapshot)
        else:
            self._fresh()
        self.stack = list(keep[:start])
        self.prompts = {}
        for inp, source in keep[start:]:
            try:
                self._apply(inp)
            except Refused as exc:  # cannot happen: each was accepted in this very order
                raise AssertionError(f"rebuild refused {inp}: {exc}") from exc
            self.stack.append((inp, source))
        self.present = present

    def _take_checkpoint(self) -> None:
        """Remember the state at a deal's start, so undo need not replay the whole series.

        The last :data:`CHECKPOINTS` deals' starts are kept: an undo that reaches back into the
        previous deal (the next deal's first card taken back, then one more) starts from that
        deal's start instead of replaying the series from its first input.
        """
        at = len(self.stack)  # the state after these inputs, before the one being applied
        # a rebuild replays a deal's start again: that start replaces the one kept for it
        while self._checkpoints and self._checkpoints[-1][0] >= at:
            self._checkpoints.pop()
        self._checkpoints.append((
            at,
            self._copy((self.series, self.deals, self.stage)),
        ))
        del self._checkpoints[:-CHECKPOINTS]
        if self.bounded:
            self._let_go()

    def _let_go(self) -> None:
        """Bounded: once the last :data:`CHECKPOINTS` deals have started, forget the inputs
        before the oldest of those starts (undo cannot reach them) and the cards and games of
        the deals finished before it, but the last (its result is what that start shows);
        their sheet entries stay."""
        if len(self._checkpoints) < CHECKPOINTS:
            return  # undo may still reach back to the series' start
        base, (_, base_deals, _) = self._checkpoints[0]
        self.undo_floor = len(base_deals) + 1
        if base:
            del self.stack[:base]
            self.let_go += base
            self._checkpoints = [(at - base, state) for at, state in self._checkpoints]
        for d in reversed(base_deals[:-1]):
            if d.game is None:
                break  # let go of at an earlier deal start, and so all before it
            d.game, d.dealt, d.owner = None, [], {}

    @staticmethod
    def _copy(state: tuple[Any, list[DealState], str]) -> Any:
        """A deep copy that shares what can no longer change: scored deals (and the sheet's
        entries, see ``Series.__deepcopy__``).

        Copying those too would make each deal's checkpoint cost grow with the series.
        """
        series, deals, stage = state
        memo: dict[int, Any] = {}  # one memo: the series and the deal being played share a game
        return (copy.deepcopy(series, memo),
                [d if d.result is not None else copy.deepcopy(d, memo) for d in deals], stage)

    def restore(self, finished: Sequence[DealState]) -> None:
        """Put the table at the start of the deal after ``finished`` (a journal's checkpoint:
        the series' finished deals, in order, from :meth:`DealState.from_summary`); the
        inputs from that deal's first card on are handled next."""
        self._fresh()
        self.series.restore(d.entry for d in finished)
        self.deals = list(finished)
        self.stage = "over" if self.series.finished else "scored"
        self.stack, self.prompts, self.present, self.stale = [], {}, {}, {}
        self._checkpoints = [(0, self._copy((self.series, self.deals, self.stage)))]
        self.undo_floor = len(finished) + 1

    def _apply(self, inp: Input) -> str:
        if isinstance(inp, TagLaid):
            card = self.config.deck.get(inp.tag)
            if card is None and inp.tag in self.config.other_decks:
                deck, other = self.config.other_decks[inp.tag]
                raise Refused(Refusal(
                    "foreign-tag", f"this is the {other} of deck {deck!r}, not a card of "
                    "this table's deck", card=other, zone=inp.zone))
            if card is None:
                raise Refused(Refusal(
                    "foreign-tag", f"tag {inp.tag} is not a card of this table's deck",
                    zone=inp.zone))
            return self._card(inp.zone, card)
        if isinstance(inp, Press | DeclareInput):
            if not 0 <= inp.seat < self.n:
                raise Refused(Refusal("other", f"there is no seat {inp.seat} at this table"))
            if isinstance(inp, DeclareInput):
                return self._declare(inp.seat, inp.contract)
            return self._press(inp.seat, inp.press, inp.value, getattr(inp, "level", None))
        raise Refused(Refusal("other", f"the table does not understand {inp!r}"))

    # ---- cards -----------------------------------------------------------------------------

    def _card(self, zone: str, card: Card) -> str:
        if self.stage == "over":
            raise Refused(Refusal("other", "the series is over", card=card, zone=zone))
        if self.stage == "scored":
            if zone != self._deal_zone(zone):
                raise Refused(Refusal(
                    "other", "the game is over: deal the next one over the deal reader",
                    card=card, zone=zone))
            saved = list(self._checkpoints)
            self._next_deal()
            try:
                return self._deal_card(zone, card)
            except Refused:
                self.deals.pop()
                self.stage, self._checkpoints = "scored", saved
                raise
        if self.stage == "dealing":
            return self._deal_card(zone, card)
        phase = self.phase
        if phase == "discard":
            return self._discard(zone, card)
        if phase == "play":
            return self._play(zone, card)
        if phase == "pushing":
            return self._push_card(zone, card)
        what = "bidding is on" if phase == "bidding" else (
            f"{self.name(self.deal.seats[self.game.declarer])} takes up the skat"
            " or declares a hand game first")
        raise Refused(Refusal("other", f"{what}: no card is laid now", card=card, zone=zone))

    def _deal_zone(self, zone: str) -> str:
        """The zone that starts the next deal: ``deal``, or any seat pad in seat mode."""
        if self.config.table.deal_mode == "seats" and zone.startswith("seat"):
            return zone
        return "deal"

    def _next_deal(self) -> None:
        self._take_checkpoint()
        self._new_deal()

    def _deal_card(self, zone: str, card: Card) -> str:
        d = self.deal
        seat_mode = self.config.table.deal_mode == "seats"
        if card in d.dealt or card in d.owner:
            raise Refused(Refusal(
                "already-dealt", f"{card} has already been dealt", card=card, zone=zone))
        if not seat_mode:
            if zone != "deal":
                raise Refused(Refusal(
                    "wrong-pad", f"deal {card} over the deal reader, not on {zone}",
                    card=card, zone=zone))
            to = DEAL_PATTERN[len(d.dealt)]
            d.dealt.append(card)
            receiver = "the skat" if to == SKAT else self.name(d.seats[to])
            note = f"card {len(d.dealt)} to {receiver}"
            if len(d.dealt) == 32:
                self._start_game(Deal.from_dealt_order(d.dealt))
            return note
        if zone == "skat":
            to = SKAT
        elif zone.startswith("seat"):
            seat = int(zone[4:])
            pos = d.position_of(seat) if seat < self.n else None
            if pos is None:
                raise Refused(Refusal(
                    "wrong-pad", f"no one plays from {zone} in this deal", card=card, zone=zone))
            to = pos
        else:
            raise Refused(Refusal(
                "wrong-pad", f"each player lays their own cards on their pad, not on {zone}",
                card=card, zone=zone))
        count = sum(1 for who in d.owner.values() if who == to)
        if count == (2 if to == SKAT else 10):
            whose = "the skat" if to == SKAT else self.name(d.seats[to])
            raise Refused(Refusal(
                "other", f"{whose} already has all {count} cards", card=card, zone=zone))
        d.owner[card] = to
        if len(d.owner) == 30 and all(
            sum(1 for w in d.owner.values() if w == p) == 10 for p in range(3)
        ):
            for rest in Card:  # the two cards no one laid are the skat
                d.owner.setdefault(rest, SKAT)
        if len(d.owner) == 32:
            masks = [0, 0, 0, 0]
            for c, who in d.owner.items():
                masks[who] |= c.bit
            self._start_game(Deal((masks[0], masks[1], masks[2]), masks[3]))
        return f"{card} to {'the skat' if to == SKAT else self.name(d.seats[to])}"

    def _start_game(self, deal: Deal) -> None:
        self.deal.game = self.series.new_game(deal)
        self.stage = "game"

    def _discard(self, zone: str, card: Card) -> str:
        seat = self._lay_in_skat(zone, card, self.game.declarer, "the discards")
        return f"{self.name(seat)} discards {card}"

    def _lay_in_skat(self, zone: str, card: Card, pos: int, what: str) -> int:
        """A card of ``pos``'s hand laid into the skat (a discard, a pushed card); its seat."""
        game = self.game
        seat = self.deal.seats[pos]
        if zone not in ("skat", "deal"):
            raise Refused(Refusal(
                "wrong-pad", f"{self.name(seat)} lays {what} on the skat reader",
                seat=seat, card=card, zone=zone))
        if not game.hand(pos) & card.bit:
            raise Refused(Refusal(
                "not-in-hand", f"{self.name(seat)} does not hold {card}",
                seat=seat, card=card, zone=zone))
        self._check_prompt(seat, card, zone)
        self._push(a.Discard(pos, card), seat, card=card, zone=zone)
        self.prompts.pop(seat, None)
        return seat

    def _play(self, zone: str, card: Card) -> str:
        game, d = self.game, self.deal
        to_act = game.to_act
        if to_act is None:  # a claim or a violation waits for its answer
            raise Refused(Refusal("other", self._waiting_words(), card=card, zone=zone))
        if zone.startswith("seat"):
            seat = int(zone[4:])
            pos = d.position_of(seat) if seat < self.n else None
            if pos is None:
                raise Refused(Refusal(
                    "wrong-pad", f"no one plays from {zone} in this deal", card=card, zone=zone))
        elif zone == "centre":
            pos, seat = to_act, d.seats[to_act]
        else:
            raise Refused(Refusal(
                "wrong-pad", f"lay cards in the centre or on your pad, not on {zone}",
                card=card, zone=zone))
        holder = next((p for p in range(3) if game.hand(p) & card.bit), None)
        if holder is None:
            played = [t for t in game.tricks if card in t.cards]
            if played or card in game.trick:
                where = f" in trick {game.tricks.index(played[0]) + 1}" if played else ""
                reason = f"{card} has already been played{where}"
            else:
                reason = f"{card} lies in the skat"
            raise Refused(Refusal("not-in-hand", reason, seat=seat, card=card, zone=zone))
        if pos != to_act and holder == pos:
            other = d.seats[to_act]
            return self._violation(pos, card, "out of turn", Refusal(
                "out-of-turn", f"it is {self.name(other)}'s turn, not {self.name(seat)}'s",
                seat=seat, card=card, other_seat=other, zone=zone))
        if pos != to_act:
            other = d.seats[to_act]
            raise Refused(Refusal(
                "out-of-turn", f"it is {self.name(other)}'s turn, not {self.name(seat)}'s",
                seat=seat, card=card, other_seat=other, zone=zone))
        if holder != pos and zone == "centre":
            # on the centre reader the card can only have come from the hand that holds it:
            # laid out of turn (a violation under violations = "isko", else refused)
            other = d.seats[holder]
            reason = (f"{card} is {self.name(other)}'s card: it is {self.name(seat)}'s turn")
            return self._violation(holder, card, "out of turn", Refusal(
                "wrong-pad", reason, seat=seat, card=card, other_seat=other, zone=zone))
        if holder != pos:
            other = d.seats[holder]
            reason = (f"{card} is {self.name(other)}'s card: it is {self.name(seat)}'s turn")
            raise Refused(Refusal("wrong-pad", reason, seat=seat, card=card,
                                  other_seat=other, zone=zone))
        self._check_prompt(seat, card, zone)
        legal = game.legal_cards()
        if card not in legal:
            lead = game.trick[0] if game.trick else None
            suit = None
            if lead is not None:
                suit = "T" if _is_trump(lead, game.contract) else Card(lead).suit.letter
            return self._violation(pos, card, f"without following {_suit_words(suit)}", Refusal(
                "revoke",
                f"{self.name(seat)} must follow {_suit_words(suit)}: holds "
                + " ".join(str(c) for c in legal),
                seat=seat, card=card, follow_with=tuple(legal), suit=suit, zone=zone))
        self._push(a.Play(pos, card), seat, card=card, zone=zone)
        self.prompts.pop(seat, None)
        return f"{self.name(seat)} plays {card}"

    # ---- ISkO violations, claims and their answers --------------------------------------------

    def _violation(self, pos: int, card: Card, how: str, refusal: Refusal) -> str:
        """A revoke or a card out of turn: refused (the default), or under ``violations =
        "isko"`` recorded, and the innocent party chooses (``enforce`` or ``play-on``)."""
        game = self.game
        if not getattr(self.rules, "isko_violations", False) or game.is_ramsch \
                or self.deal.seats[pos] in self.prompts:  # a computer's card laid by a person
            raise Refused(refusal)
        seat = self.deal.seats[pos]
        self._push(a.Violation(pos, card), seat, card=card, zone=refusal.zone)
        self.prompts.pop(seat, None)
        who = " or ".join(self.name(s) for s in self.waiting_seats())
        return (f"{self.name(seat)} lays {card} {how}: {who} chooses: end the game (enforce) "
                "or play on with the card taken back (play-on)")

    def waiting_seats(self) -> list[int]:
        """The seats whose answer the game waits for (a claim or a violation), in order."""
        game = self.game
        if game is None or self.stage != "game" or getattr(game, "waiting", None) is None:
            return []
        seen: list[int] = []
        for act in game.legal_actions():
            seat = self.deal.seats[act.pos]
            if seat not in seen:
                seen.append(seat)
        return seen

    def _waiting_words(self) -> str:
        game, d = self.game, self.deal
        if game.waiting == "claim":
            who = " and ".join(self.name(s) for s in self.waiting_seats())
            return (f"{self.name(d.seats[game.declarer])} has claimed the rest: {who} "
                    "agree or disagree first")
        pos, card = game.violation
        who = " or ".join(self.name(s) for s in self.waiting_seats())
        return (f"{self.name(d.seats[pos])} laid {card} against the rules: {who} chooses first: "
                "end the game or play on")

    def computer_answer(self, seat: int) -> Press | None:
        """The press a computer seat makes when the game waits for it: it agrees to a claim
        only if the declarer can take every remaining trick (the double-dummy solver), and
        always ends the game after the other side's violation."""
        if seat not in self.waiting_seats():
            return None
        game = self.game
        if game.waiting == "violation":
            return Press(seat, "enforce")
        from engine.players.solver import Solver

        solver = Solver(int(game.game_type), game.declarer)
        trick = [int(c) for c in game.trick]
        hands = game.hands
        if game.game_type == GameType.NULL:
            sure = solver.null_won(hands, game.trick_leader, trick)
        else:
            sure = solver.takes_all(hands, game.trick_leader, trick)
        return Press(seat, "agree" if sure else "disagree")

    def _claim_press(self, seat: int, pos: int, press: str, level: str | None) -> str:
        if self.phase != "play":
            raise Refused(Refusal("other", "claims and answers come during play only",
                                  seat=seat))
        game = self.game
        name = self.name(seat)
        if press == "claim":
            self._push(a.Claim(pos, level or ""), seat)
            if game.result is None:
                said = f" ({level})" if level else ""
                who = " and ".join(self.name(s) for s in self.waiting_seats())
                return f"{name} shows the cards and claims the rest{said}: {who} agree or disagree"
            upheld = game.result.ending == "defenders-claimed"
            return (f"{name} shows the cards and claims the rest for the defenders: "
                    + ("upheld" if upheld else "the declarer could still win a trick: every "
                       "remaining trick goes to the declarer"))
        action = {"agree": a.Agree, "disagree": a.Disagree, "enforce": a.Enforce,
                  "play-on": a.PlayOn}[press](pos)
        self._push(action, seat)
        return {"agree": f"{name} agrees", "disagree": f"{name} disagrees: play goes on, the "
                "declarer's cards open", "enforce": f"{name} ends the game",
                "play-on": f"{name}: play on, the card is taken back"}[press]

    def _check_prompt(self, seat: int, card: Card, zone: str) -> None:
        prompt = self.prompts.get(seat)
        if prompt is not None and prompt != card:
            verb = "plays" if self.phase == "play" else "puts away"
            raise Refused(Refusal(
                "other", f"{self.name(seat)} (computer) {verb} {prompt}: please lay {prompt}",
                seat=seat, card=card, zone=zone))

    # ---- presses ---------------------------------------------------------------------------

    def _press(self, seat: int, press: str, value: int | None, level: str | None = None) -> str:
        if press == "confirm":
            return self._confirm(seat)
        if self.stage == "dealing":
            known = self.deal.cards_known()
            # Some cards dealt and someone wants to go on: a card was not read (a short deal).
            raise Refused(Refusal(
                "short-deal" if known else "other",
                f"the cards are still being dealt ({known} of 32)", seat=seat,
                value=known, other_value=32))
        if self.stage in ("scored", "over"):
            what = "the series is over" if self.stage == "over" else (
                "the game is over: deal the next one")
            raise Refused(Refusal("other", what, seat=seat))
        pos = self.deal.position_of(seat)
        if pos is None:
            raise Refused(Refusal(
                "out-of-turn", f"{self.name(seat)} deals and sits out this game", seat=seat))
        phase = self.phase
        if phase == "pushing" and press in ("skat", "pass"):
            return self._pushing_press(seat, pos, press)
        if press in ("kontra", "re") and not getattr(self.rules, "kontra_re", False):
            raise Refused(Refusal(
                "other", "Kontra and Re are not played at this table", seat=seat))
        if press in ("bid", "yes", "pass"):
            if phase != "bidding":
                raise Refused(Refusal("other", "the bidding is over", seat=seat))
            self._check_turn(seat, pos)
            if press == "bid":
                return self._bid(seat, pos, value)
            action: Any = a.Hold(pos) if press == "yes" else a.Pass(pos)
            self._push(action, seat)
            return f"{self.name(seat)} {'holds' if press == 'yes' else 'passes'}"
        if press == "skat":
            self._check_declarer(seat, pos)
            if phase != "skat":
                why = {"bidding": "the bidding is not over",
                       "discard": "the skat has already been taken up"}.get(
                    phase, "the skat cannot be taken up during play")
                raise Refused(Refusal("other", why, seat=seat))
            self._push(a.TakeSkat(pos), seat)
            return f"{self.name(seat)} takes up the skat"
        if press in ("claim", "agree", "disagree", "enforce", "play-on"):
            return self._claim_press(seat, pos, press, level)
        if press == "concede":
            if phase != "play":
                raise Refused(Refusal("other", "a game can be conceded only during play",
                                      seat=seat))
            self._push(a.Concede(pos), seat)
            return f"{self.name(seat)} concedes"
        if press == "kontra":
            self._push(a.Kontra(pos), seat)
            return f"{self.name(seat)}: Kontra!"
        if press == "re":
            self._push(a.Re(pos), seat)
            return f"{self.name(seat)}: Re!"
        raise Refused(Refusal("other", f"unknown press {press!r}", seat=seat))

    def _confirm(self, seat: int) -> str:
        """An opponent confirms the result of the deal just finished (a club table with
        ``[club] confirm_results``): refused when there is none, when ``seat`` is no one who
        confirms it, and the second time."""
        if not self.confirming:
            raise Refused(Refusal("confirm-off", "results are not confirmed at this table",
                                  seat=seat))
        if self.stage not in ("scored", "over") or not self.finished_deals:
            raise Refused(Refusal("confirm-not-now", "there is no result to confirm now",
                                  seat=seat))
        d = self.deals[-1]
        who = confirmers(d)
        if seat not in who:
            names = " and ".join(self.name(s) for s in who)
            raise Refused(Refusal(
                "confirm-not-opponent",
                f"{self.name(seat)} does not confirm this game: {names} confirm it",
                seat=seat))
        if seat in d.confirmed:
            raise Refused(Refusal("confirm-twice", f"{self.name(seat)} has already confirmed "
                                  "this game", seat=seat))
        # replaced, not changed in place: the checkpoints share finished deals (see _copy)
        self.deals[-1] = replace(d, confirmed=(*d.confirmed, seat))
        return f"{self.name(seat)} confirms the result"

    # ---- Schieberamsch (house rule): each in turn takes the skat and pushes two on, or passes

    def _pushing_press(self, seat: int, pos: int, press: str) -> str:
        self._check_turn(seat, pos)
        if press == "skat":
            self._push(a.Push(pos), seat)
            return f"{self.name(seat)} takes the skat to push it on"
        self._push(a.Pass(pos), seat)
        return f"{self.name(seat)} passes the skat on untouched"

    def _push_card(self, zone: str, card: Card) -> str:
        seat = self._lay_in_skat(zone, card, self.game.to_act, "the pushed cards")
        return f"{self.name(seat)} pushes {card} on"

    def _check_turn(self, seat: int, pos: int) -> None:
        to_act = self.game.to_act
        if to_act is not None and pos != to_act:
            other = self.deal.seats[to_act]
            raise Refused(Refusal(
                "out-of-turn", f"it is {self.name(other)}'s turn, not {self.name(seat)}'s",
                seat=seat, other_seat=other))

    def _check_declarer(self, seat: int, pos: int) -> None:
        game = self.game
        if game.declarer is None:
            raise Refused(Refusal("other", "the bidding is not over", seat=seat))
        if pos != game.declarer:
            other = self.deal.seats[game.declarer]
            raise Refused(Refusal(
                "out-of-turn", f"{self.name(other)} is the declarer, not {self.name(seat)}",
                seat=seat, other_seat=other))

    def _bid(self, seat: int, pos: int, value: int | None) -> str:
        game = self.game
        current = game.bid
        if value is None:
            value = game.next_bid
            if value is None:
                raise Refused(Refusal("bid-not-legal", "no bid is higher than 264", seat=seat))
        elif value not in BID_VALUES:
            raise Refused(Refusal(
                "bid-not-legal", f"{value} is not a Skat bid (18, 20, 22, 23, 24, 27, ...)",
                seat=seat, value=value))
        elif value <= current:
            raise Refused(Refusal(
                "bid-not-higher", f"{value} is not higher than the current bid {current}",
                seat=seat, value=value, other_value=current))
        self._push(a.Bid(pos, value), seat, value=value)
        return f"{self.name(seat)} bids {value}"

    def _declare(self, seat: int, text: str) -> str:
        if self.stage != "game" or self.phase not in ("skat", "discard"):
            raise Refused(Refusal("contract-refused", "no contract can be declared now",
                                  seat=seat))
        pos = self.deal.position_of(seat)
        if pos is None:
            raise Refused(Refusal(
                "out-of-turn", f"{self.name(seat)} deals and sits out this game", seat=seat))
        self._check_declarer(seat, pos)
        try:
            contract = Contract.parse(text)
            contract.check(self.game.skat_taken)
        except ContractError as exc:
            raise Refused(Refusal("contract-refused", str(exc), seat=seat)) from None
        self._push(a.Declare(pos, contract), seat, kind="contract-refused")
        self.deal.declared = text
        return f"{self.name(seat)} declares {contract.name}"

    # ---- the engine ------------------------------------------------------------------------

    def _push(self, action: Any, seat: int, kind: str = "other", **fields: Any) -> None:
        try:
            self.game.push(action)
        except IllegalAction as exc:
            raise Refused(Refusal(kind, f"{self.name(seat)}: {exc}", seat=seat,
                                  **fields)) from None
        if str(self.game.phase.value).lower() == "finished":
            self._score()

    def _score(self) -> None:
        d = self.deal
        d.result = self.game.result
        d.entry = self.series.finish_game()
        self.stage = "over" if self.series.finished else "scored"
        self.prompts = {}

    # ---- the sheet ---------------------------------------------------------------------------

    def deal_scores(self, d: DealState) -> list[int]:
        """That deal's entries per table seat (the dealer who sits out gets 0)."""
        return list(d.entry.scores) if d.entry is not None else [0] * self.n

    def totals(self) -> list[int]:
        return list(self.series.totals)

    def seeger_fabian(self) -> list[int]:
        return list(self.series.seeger_fabian)

    def settlement(self) -> Any:
        """The money so far (``engine.series.Settlement``), or None when no stake is set."""
        if self.series.stake is None:
            return None
        return self.series.settlement()


def _is_trump(card: int, contract: Any) -> bool:
    c = Card(card)
    if contract is None or contract.game in (GameType.NULL,):
        return False
    if c.is_jack:
        return True
    return contract.game.is_suit and c.suit == contract.game.trump_suit


def _suit_words(suit: str | None) -> str:
    return {"C": "clubs", "S": "spades", "H": "hearts", "D": "diamonds", "T": "trump"}.get(
        suit or "", "suit")


def describe_input(inp: Input, table: Table) -> str:
    if isinstance(inp, TagLaid | TagGone):
        card = table.config.deck.get(inp.tag)
        return f"{card or inp.tag} on {inp.zone}"
    if isinstance(inp, DeclareInput):
        return f"{table.name(inp.seat)} declares {inp.contract}"
    value = f" {inp.value}" if inp.value is not None else ""
    return f"{table.name(inp.seat)} {inp.press}{value}"


def hand_cards(game: Any, pos: int) -> list[Card]:
    return mask_cards(game.hand(pos))

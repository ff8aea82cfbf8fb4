"""The view model: everything the kiosk shows, as plain frozen dataclasses.

The controller builds a :class:`View` from the engine's state after every accepted input and
hands it to :meth:`display.kiosk.Kiosk.show`. The display never reads the engine itself; it only
draws what a view says, so a view is also a complete record of what the players saw.

Seats are **table seats** (0..n-1 clockwise in the config's player order), never ISS positions.
Cards are :class:`engine.cards.Card`; contracts are written in ISS notation (``"G"``, ``"CH"``,
``"NO"``), as :class:`engine.contract.Contract` prints them.

>>> from engine.cards import Card
>>> v = View(scene="play", players=("Anna", "Ben", "Carla"), dealer=2, positions=(0, 1, 2),
...          play=PlayView(declarer=0, contract="C", bid=18, to_act=1,
...                        trick=TrickView(leader=0, cards=((0, Card.CJ),))))
>>> v.turn
1
>>> v.role_of(1)
'middlehand'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from engine.cards import Card

from .analysis import AnalysisView
from .hints import HintView
from .reasons import ReasonView

Scene = Literal[
    "enrol", "deal", "bidding", "declaration", "pushing", "play", "result", "sheet", "fault",
    "idle", "seating",
]
SCENES: tuple[Scene, ...] = (
    "enrol", "deal", "bidding", "declaration", "pushing", "play", "result", "sheet", "fault",
    "idle", "seating",
)
CardStyle = Literal["french", "four-colour", "german"]
CARD_STYLES: tuple[CardStyle, ...] = ("french", "four-colour", "german")
LANGUAGES: tuple[str, ...] = ("de", "en", "fr", "es", "nb", "cs", "nl", "pl")
# The settings screen's choices (SettingsView): how long the simulator's computer takes for a
# card, and the order of the suits in a hand: Skat's own (clubs, spades, hearts, diamonds),
# or the colours alternating (a black suit never beside a black one on a two-colour deck).
SPEEDS: tuple[str, ...] = ("slow", "normal", "fast")
SUIT_ORDERS: tuple[str, ...] = ("CSHD", "CHSD")
# The computer's levels, weakest first (engine.players.levels.LEVEL_NAMES).
LEVELS: tuple[str, ...] = ("beginner", "club", "expert")
ROLES = ("forehand", "middlehand", "rearhand")

FaultKind = Literal[
    "revoke",            # a card that does not follow suit: follow_with holds the right cards
    "out-of-turn",       # a card or press by a seat that is not to act (other_seat is to act)
    "wrong-pad",         # a card laid on a pad that is not its holder's
    "not-in-hand",       # a card the seat does not hold
    "foreign-tag",       # a tag that is not in the enrolled deck
    "already-dealt",     # a card read twice during the deal
    "duplicate-tag",     # enrolment: this tag is already another card
    "short-deal",        # fewer than 32 cards when the deal should be complete
    "bid-not-higher",    # value: the refused value; other value: the current bid
    "bid-not-legal",     # value: a number that is not a Skat bid
    "contract-refused",  # detail: the engine's reason
    "computer-seat",     # seat: the computer's, which decides for itself (value 1: a card of
                         # its hand laid before it chose one)
    "reader-down",       # detail: which reader (its zone)
    "journal",           # the journal cannot be written: zone = "full", "read-only" or "failing"
                         # (nothing is taken until it works), "copy" (only its second copy
                         # fails) or None; detail: what failed
    "storage",           # an input not taken: the storage cannot save it; zone as for
                         # "journal"; card: the card to pick up (None for a press)
    "journal-restored",  # a damaged journal was repaired (a loss report, shown until
                         # confirmed): value = the game restored to, other_value = inputs
                         # lost (None: unknown); zone = "missing" or "unreadable" when none
                         # was seen lost but the other copy that would prove it is missing or
                         # cannot be read; notice = its number to confirm; detail: the story
    "other",             # detail: the engine's message as it is
]


class ViewError(ValueError):
    """A view that cannot be drawn: the message names the field and what was wrong."""


@dataclass(frozen=True)
class Fault:
    """Something refused or broken, said in the players' words.

    The display composes the sentence in the table's language from ``kind`` and the fields;
    ``detail`` (often the engine's English message) is shown underneath, smaller, for the
    cases no sentence covers.
    """

    kind: FaultKind
    seat: int | None = None
    card: Card | None = None
    follow_with: tuple[Card, ...] = ()
    suit: str | None = None          # "C", "S", "H", "D" or "T" (trump) for revoke
    other_seat: int | None = None
    value: int | None = None
    other_value: int | None = None
    zone: str | None = None
    detail: str = ""
    # A loss report to confirm (journal-restored): its number in the journal, 0 while the
    # storage has not taken it; None for every other fault.
    notice: int | None = None


@dataclass(frozen=True)
class Prompt:
    """A computer seat's move that a person must carry out on the table."""

    seat: int
    card: Card | None = None         # "computer seat X plays SA: please lay it"
    press: str | None = None         # or a press ("bid", "yes", "pass", "skat")
    value: int | None = None
    contract: str | None = None      # or a declaration


@dataclass(frozen=True)
class EnrolView:
    card: Card | None                # the card to lay next (None when the deck is complete)
    done: int                        # cards enrolled so far
    total: int = 32
    last: Card | None = None         # the card accepted last, shown as confirmation


@dataclass(frozen=True)
class DealView:
    dealt: tuple[int, ...]           # cards received so far, per table seat
    skat: int = 0                    # cards in the skat so far (0..2)
    to: int | None = None            # seat receiving the next card, -1 for the skat, None: done
    packet: int = 0                  # 0-based packet of the ISkO deal (0..9: 3,3,3,2,4,4,4,3,3,3)
    last: Card | None = None         # the card read last (only the simulator shows it)

    @property
    def counted(self) -> int:
        return sum(self.dealt) + self.skat


@dataclass(frozen=True)
class BiddingView:
    bidder: int                      # seat who says (reizt)
    listener: int                    # seat who hears (hört)
    value: int                       # highest bid so far, 0 when none
    next_value: int | None           # the next legal bid, None above 264
    to_act: int                      # seat whose press is expected
    passed: frozenset[int] = frozenset()
    holder: int | None = None        # seat that holds ``value``
    forehand_alone: bool = False     # middle and rear passed: forehand plays for 18 or passes
    ramsch: bool = False             # an all-pass is played as Ramsch (house rule), not passed in


@dataclass(frozen=True)
class DeclarationView:
    declarer: int
    bid: int
    skat_taken: bool                 # False: may take the skat or declare a hand game
    contracts: tuple[str, ...]       # every contract the rules allow now, ISS notation
    discards: tuple[Card, ...] = ()  # discards laid so far (after a pick-up)
    skat: tuple[Card, ...] = ()      # the skat as picked up (shown to the declarer's screen only
                                     # in the simulator; empty on a shared screen)


@dataclass(frozen=True)
class PushingView:
    """Schieberamsch (house rule), before the Ramsch is played: from forehand on, each player
    in turn takes the skat and pushes two cards on (each push doubles the Ramsch), or passes
    it on untouched.

    >>> PushingView(to_act=1, taken=True, laid=1, pushes=2, decided=((0, True),)).factor
    4
    """

    to_act: int                      # seat deciding, or laying its two cards after taking
    taken: bool = False              # to_act has taken the skat: two cards go back on it
    laid: int = 0                    # cards to_act has laid back on the skat so far (0..2)
    pushes: int = 0                  # how often the skat was taken so far
    decided: tuple[tuple[int, bool], ...] = ()  # (seat, took the skat) in turn, this deal
    jacks: bool = False              # jacks may be pushed too
    laid_cards: tuple[Card, ...] = ()  # the cards laid back (shown in the simulator only)
    skat: tuple[Card, ...] = ()      # the two cards to_act took up, while they are in the hand
                                     # (the simulator only: on the table the hands are unseen)

    @property
    def factor(self) -> int:
        """What the Ramsch counts times, so far."""
        return 2 ** self.pushes


@dataclass(frozen=True)
class Call:
    """One thing a player said in the bidding or the declaration, for the history on screen.

    ``what``: ``bid`` (``value``), ``yes`` (``value`` held), ``pass``, ``skat`` (took it up),
    ``declare`` (``contract``), ``kontra``, ``re``.
    """

    seat: int
    what: str
    value: int | None = None
    contract: str | None = None


@dataclass(frozen=True)
class TrickView:
    leader: int                      # seat that led
    cards: tuple[tuple[int, Card], ...]  # (seat, card) in the order laid
    winner: int | None = None        # seat that took it, once complete


@dataclass(frozen=True)
class PlayView:
    declarer: int
    contract: str
    bid: int
    to_act: int
    trick: TrickView
    last_trick: TrickView | None = None
    tricks: tuple[int, int] = (0, 0)     # tricks taken: declarer, defenders
    show_last_trick: bool = False
    kontra: int = 1                      # 1, 2 (Kontra) or 4 (Re)
    pushes: int = 0                      # Schieberamsch: how often the skat was pushed (each
                                         # push doubles the Ramsch: 2 ** pushes)
    # What conceding now would enter on the sheet for the declarer (signed): if the declarer
    # gives up, if the defenders give up. None: not known (the kiosk asks without a value).
    concede_values: tuple[int | None, int | None] = (None, None)
    # ISkO claims and violations: "claim" or "violation" while play waits for an answer,
    # the seats that may answer, the cards lying open (a claiming declarer's), and who laid
    # which card against the rules.
    waiting: str | None = None
    answering: tuple[int, ...] = ()
    open_hand: tuple[Card, ...] = ()
    offender: int | None = None
    offending_card: Card | None = None
    # The levels the declarer may still claim the rest at ("" simple, "schneider",
    # "schwarz"): a level the defenders are already out of is not offered.
    claim_levels: tuple[str, ...] = ("", "schneider", "schwarz")
    # A defender disagreed with the declarer's claim and play goes on (the seat, while the
    # trick of the claim is on the table): said, so nobody wonders why nothing happened.
    disagreed: int | None = None


@dataclass(frozen=True)
class ResultView:
    declarer: int | None             # None when passed in
    contract: str | None
    bid: int
    won: bool
    value: int                       # signed, as on the sheet
    points: int | None = None        # declarer's card points with the skat
    tricks: int | None = None
    matadors: int = 0
    schneider: bool = False
    schwarz: bool = False
    overbid: bool = False
    passed_in: bool = False
    ending: str = "played"           # GameResult.ending
    # How the sheet counts it (engine.series.reckon): the game's own levels (label key,
    # count): ("with", 2), ("game", 3)...; base_value x multiplier = game_value; then each
    # factor by name, ("lost", 2), ("kontra", 2), ("re", 2), ("jungfrau", 2), ("pushed", 4),
    # ("bock", 2): +/- game_value x the factors = value.
    breakdown: tuple[tuple[str, int], ...] = ()
    base_value: int | None = None
    multiplier: int | None = None
    game_value: int | None = None
    factors: tuple[tuple[str, int], ...] = ()
    bock_next: int = 0               # Bock deals queued after this one (the round to come)
    skat: tuple[Card, ...] = ()      # the original skat
    discards: tuple[Card, ...] = ()  # what the declarer put away (== skat in a hand game)
    next_dealer: int | None = None
    losers: tuple[int, ...] = ()     # Ramsch: the seat(s) with the most points
    ramsch_points: tuple[int, ...] = ()  # Ramsch: card points per seat (when known)
    # A club table whose results are confirmed: the seats that confirm this one, and those
    # that have (display.confirmscene); () everywhere else.
    confirmers: tuple[int, ...] = ()
    confirmed: tuple[int, ...] = ()


@dataclass(frozen=True)
class SheetRow:
    number: int
    dealer: int
    declarer: int | None
    contract: str | None
    value: int                       # signed entry; 0 when passed in
    totals: tuple[int, ...]          # running totals per seat after this game
    scores: tuple[int, ...] = ()     # this deal's entry per seat (a Ramsch: the loser's)
    # what the value was multiplied by (engine.series.reckon: ("lost", 2), ("kontra", 2),
    # ("re", 2), ("jungfrau", 2), ("pushed", 4), ("bock", 2)); the sheet marks them
    factors: tuple[tuple[str, int], ...] = ()
    bock: bool = False               # a Bock deal (a passed-in one too: it used one up)


@dataclass(frozen=True)
class GameMark:
    """One game of a series singled out in its summary (the best, the worst): its number,
    whose game it was (the declarer; in Ramsch the loser), the contract (ISS notation, None
    for Ramsch) and its signed value as on the sheet."""

    number: int
    seat: int
    contract: str | None
    value: int


@dataclass(frozen=True)
class SheetView:
    rows: tuple[SheetRow, ...] = ()  # the last deals (a screen shows no more than these)
    played: int | None = None  # deals on the sheet in all; None: as many as ``rows``
    totals: tuple[int, ...] = ()
    seeger_fabian: tuple[int, ...] | None = None   # footer when the config asks for it
    games_total: int | None = None   # length of the series, None: open
    winner: int | None = None        # seat, once the series is over
    settlement: tuple[float, ...] | None = None    # money per seat (+ receives), when staked
    finished: bool = False
    # Once the series is over: its best and its worst game (the summary at its end).
    best: GameMark | None = None
    worst: GameMark | None = None


@dataclass(frozen=True)
class PlayerLine:
    """One player's statistics over the finished series (firmware_host.series.archive):
    series sat in, games played (deals scored with cards in hand), games declared and won,
    Seeger-Fabian points per series (rounded; None without a series), and the best game:
    its entry and contract (ISS; None with a value: a Ramsch)."""

    name: str
    series: int
    games: int
    declared: int
    won: int
    seeger_fabian: int | None = None
    best_value: int | None = None
    best_contract: str | None = None


@dataclass(frozen=True)
class SeriesLine:
    """A finished series in the archive: its number, the day of its last game
    (``"2026-12-12"``), the players by seat with their totals (the table's scoring; None for
    a seat never credited), games played of how many, the winner's seat (None: a tie), and
    whether it was played to its end."""

    number: int
    day: str
    players: tuple[str, ...]
    scores: tuple[int | None, ...]
    games: int
    length: int | None = None
    winner: int | None = None
    complete: bool = True


@dataclass(frozen=True)
class StatsView:
    """The statistics screen: ``state`` "pending" while the archive is being made (nothing
    to show yet) or "done"; the players (those at the table first) and the latest series
    (latest first); ``count`` the finished series in the archive."""

    state: str = "done"
    players: tuple[PlayerLine, ...] = ()
    series: tuple[SeriesLine, ...] = ()
    count: int = 0


@dataclass(frozen=True)
class ClubLine:
    """The club link's state for the status line (display.clubscene): ``state`` is
    ``online``, ``connecting``, ``offline`` or ``refused``; ``since`` the local time it began
    ("20:14"); ``waiting`` the finished games the club's broker has not acknowledged yet."""

    state: str
    since: str = ""
    waiting: int = 0


@dataclass(frozen=True)
class SeatingView:
    """A tournament's seating for this table, each seat to confirm (scene ``seating``)."""

    tournament: str
    series: str
    games: int
    first_dealer: int
    players: tuple[str, ...]
    confirmed: tuple[bool, ...]


@dataclass(frozen=True)
class SettingsView:
    """What the settings screen shows and the hands follow (the language and the card faces
    are the view's own ``language`` and ``card_style``). The controller keeps the choices
    (firmware_host.series.settings); the kiosk opens the screen itself (``UiState.settings``).
    """

    speed: str = "normal"            # SPEEDS: the computer's pace in the simulator
    trump_first: bool = True         # in a trump game the trump suit comes right after the
                                     # jacks (else the suits keep their order all deal long)
    suit_order: str = "CSHD"         # SUIT_ORDERS
    sound: bool = False              # the kiosk's sounds (display.sound)
    hints: bool = False              # the Hint button for learners
    speed_applies: bool = True       # the simulator lays the computer's cards (on the table a
                                     # person lays them: no speed to choose)
    hints_allowed: bool = True       # never at a club table (a tournament has no hints)
    # The computer's level (LEVELS) in force in the deal under way; "" where no seat is the
    # computer's (no row). Where ``level_fixed`` it may be a player the config names.
    level: str = ""
    next_level: str = ""             # the level chosen for the next deal, when it differs
    level_fixed: str = ""            # why it cannot be chosen: "club" (a club table plays at
                                     # its config's level), "config" (the config names a player)
    # (the misplay guard's choice, tap to select and tap again to play, belongs here too)

    def __post_init__(self) -> None:
        if self.speed not in SPEEDS:
            raise ViewError(f"settings.speed: {self.speed!r} is not one of {', '.join(SPEEDS)}")
        if self.suit_order not in SUIT_ORDERS:
            raise ViewError(f"settings.suit_order: {self.suit_order!r} is not one of "
                            f"{', '.join(SUIT_ORDERS)}")
        if self.level_fixed not in ("", "club", "config"):
            raise ViewError(f"settings.level_fixed: {self.level_fixed!r} is not '', 'club' or "
                            "'config'")
        for name, level in (("level", self.level), ("next_level", self.next_level)):
            if level and level not in LEVELS and not self.level_fixed:
                raise ViewError(f"settings.{name}: {level!r} is not one of {', '.join(LEVELS)}")


@dataclass(frozen=True)
class View:
    """One whole screen. Only ``scene`` and ``players`` are required; the rest defaults to
    "nothing to show". The sub-view that matches ``scene`` must be present."""

    scene: Scene
    players: tuple[str, ...]
    dealer: int | None = None
    positions: tuple[int, int, int] | None = None  # table seats of fore-, middle-, rearhand
    computer: frozenset[int] = frozenset()
    language: str = "de"
    card_style: CardStyle = "french"
    game_number: int = 0             # 1-based number of the current deal, 0 before the first
    enrol: EnrolView | None = None
    deal: DealView | None = None
    bidding: BiddingView | None = None
    declaration: DeclarationView | None = None
    pushing: PushingView | None = None
    play: PlayView | None = None
    result: ResultView | None = None
    sheet: SheetView | None = None
    hands: tuple[tuple[Card, ...] | None, ...] = ()  # per seat; None: hidden
    refusal: Fault | None = None     # the red banner of the card or press just refused
    faults: tuple[Fault, ...] = ()   # standing trouble (a reader down, the journal)
    prompt: Prompt | None = None
    simulator: bool = False          # hands are clickable; the deal deals on click
    can_undo: bool = False
    can_concede: bool = False
    kontra_re: bool = False          # the house rule is on: offer Kontra/Re buttons
    note: str = ""                   # a line for the idle screen (e.g. the table's name)
    calls: tuple[Call, ...] = ()     # this deal's bidding and declaration, in order
    analysis: AnalysisView | None = None  # the result's open-card analysis (display.analysis)
    offer: str = ""                  # a question over the scene: "resume" (an unfinished
                                     # series from last time: go on with it or start anew)
    hint_seat: int | None = None     # hints on: the person who may ask for one now
    hint: HintView | None = None     # the hint asked for (display.hints), until the next input
    reasons: tuple[ReasonView, ...] = ()  # why the computers bid, declared, doubled
                                     # (display.reasons); only what may be shown now
    club: ClubLine | None = None     # the club link's status line (a table of a club)
    bock: int = 0                    # Bock deals still to come, this one included (0: the
                                     # deal being dealt or played counts single)
    seating: SeatingView | None = None  # scene "seating": the club's seating to confirm
    # The archive's statistics (a Statistics button on the sheet and the series' summary);
    # None where the table keeps no journal to make them from.
    stats: StatsView | None = None
    settings: SettingsView = SettingsView()  # the settings screen's values; the hand's order

    def __post_init__(self) -> None:
        n = len(self.players)
        if n not in (3, 4):
            raise ViewError(f"players: a table has 3 or 4 players, not {n}")
        if self.scene not in SCENES:
            raise ViewError(f"scene: {self.scene!r} is not one of {', '.join(SCENES)}")
        if self.language not in LANGUAGES:
            raise ViewError(f"language: {self.language!r} is not one of {', '.join(LANGUAGES)}")
        if self.card_style not in CARD_STYLES:
            raise ViewError(f"card_style: {self.card_style!r} is not one of "
                            f"{', '.join(CARD_STYLES)}")
        needed = {"enrol": self.enrol, "deal": self.deal, "bidding": self.bidding,
                  "declaration": self.declaration, "pushing": self.pushing, "play": self.play,
                  "result": self.result,
                  "sheet": self.sheet, "seating": self.seating}
        if self.scene in needed and needed[self.scene] is None:
            raise ViewError(f"scene {self.scene!r} needs the view's {self.scene} field")
        if self.hands and len(self.hands) != n:
            raise ViewError(f"hands: one entry per seat ({n}), not {len(self.hands)}")

    @property
    def turn(self) -> int | None:
        """The seat everybody is waiting for, if any."""
        if self.prompt is not None:
            return self.prompt.seat
        if self.scene == "bidding" and self.bidding:
            return self.bidding.to_act
        if self.scene == "declaration" and self.declaration:
            return self.declaration.declarer
        if self.scene == "pushing" and self.pushing:
            return self.pushing.to_act
        if self.scene == "play" and self.play:
            return self.play.to_act
        return None

    def role_of(self, seat: int) -> str | None:
        """``"forehand"``, ``"middlehand"``, ``"rearhand"`` or None (the dealer at four)."""
        if self.positions is None or seat not in self.positions:
            return None
        return ROLES[self.positions.index(seat)]

    @property
    def declarer(self) -> int | None:
        for sub in (self.play, self.declaration, self.result):
            if sub is not None:
                return sub.declarer
        return None


def hand_contracts(skat_taken: bool) -> tuple[str, ...]:
    """The contracts the ISkO allows once the declarer has (or has not) taken the skat.

    A controller may use this to fill :attr:`DeclarationView.contracts` when the engine has no
    list of its own. After a pick-up: plain suit, grand, null and null ouvert. Before (hand):
    each game as hand, suit/grand also with schneider, schneider+schwarz and ouvert.

    >>> hand_contracts(True)
    ('C', 'S', 'H', 'D', 'G', 'N', 'NO')
    >>> 'CHZ' in hand_contracts(False), 'CHS' in hand_contracts(True)
    (True, False)
    """
    if skat_taken:
        return ("C", "S", "H", "D", "G", "N", "NO")
    out: list[str] = []
    for g in "CSHDG":
        out += [f"{g}H", f"{g}HS", f"{g}HZ", f"{g}O"]
    return (*out, "NH", "NOH")

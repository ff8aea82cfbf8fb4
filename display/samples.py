"""Realistic views of every scene, for tests, the bench, screenshots and the docs.

>>> sample_view("play").scene
'play'
>>> sorted(SAMPLES) == sorted(s for s in SCENES)
True
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from engine.cards import Card, parse_cards

from .analysis import from_analysis
from .view import (
    SCENES,
    BiddingView,
    Call,
    ClubLine,
    DealView,
    DeclarationView,
    EnrolView,
    Fault,
    GameMark,
    PlayerLine,
    PlayView,
    Prompt,
    PushingView,
    ResultView,
    SeatingView,
    SeriesLine,
    SettingsView,
    SheetRow,
    SheetView,
    StatsView,
    TrickView,
    View,
    hand_contracts,
)

PLAYERS = ("Anna", "Ben", "Carla")

# One deal, by seat (seat 0 forehand, dealer seat 2).
HANDS = (
    parse_cards("CJ SJ CA CT CK C9 HA H7 S8 D9"),
    parse_cards("HJ DJ SA ST SQ S7 HK H8 DA DK"),
    parse_cards("CQ C8 C7 S9 SK HT HQ H9 DT D8"),
)
SKAT = parse_cards("DQ D7")


def _sheet(players: int = 3, finished: bool = False) -> SheetView:
    entries = [  # (dealer, declarer, contract, value)
        (2, 0, "C", 48), (0, 1, "G", -96), (1, None, None, 0), (2, 2, "NH", 35),
        (0, 0, "SHS", 44), (1, 1, "H", 30), (2, 2, "D", -36), (0, 0, "G", 72),
    ]
    totals = [0] * players
    rows = []
    for i, (_dealer, declarer, contract, value) in enumerate(entries):
        if declarer is not None:
            totals[declarer] += value
        rows.append(SheetRow(i + 1, (2 + i) % players, declarer, contract, value,
                             tuple(totals)))
    return SheetView(
        rows=tuple(rows), totals=tuple(totals),
        seeger_fabian=(262, -126, 69) if players == 3 else None,
        games_total=len(entries) if finished else 36,
        winner=0 if finished else None,
        # as a stake of 0.01 per Seeger-Fabian point settles them
        settlement=(5.81, -5.83, 0.02) if finished and players == 3 else None,
        finished=finished,
        best=GameMark(8, 0, "G", 72) if finished else None,
        worst=GameMark(2, 1, "G", -96) if finished else None,
    )


def sample_stats(players: tuple[str, ...] = PLAYERS) -> StatsView:
    """The statistics of a table that has played twelve series: the players at the table
    first, two who sat in now and then, and the latest series (one broken off)."""
    n = len(players)
    lines = [
        PlayerLine(players[0], 12, 426, 131, 104, 611, 432, "GH"),
        PlayerLine(players[1], 12, 426, 152, 109, 388, 288, "CHZ"),
        PlayerLine(players[2], 11, 390, 96, 64, -142, 120, None),
    ]
    if n == 4:
        lines.append(PlayerLine(players[3], 4, 112, 40, 31, 730, 216, "NOH"))
    lines += [PlayerLine("Dora", 3, 108, 30, 24, 935, 144, "G"),
              PlayerLine("Walburga Oberndorfer", 1, 36, 5, 1, -420, None, None)]
    totals = ((812, -120, 40, 330), (-96, 530, 530, -48), (210, 660, 62, -112),
              (311, 379, 501, 15))
    series = tuple(
        SeriesLine(12 - i, f"2026-12-{12 - 2 * i:02d}", players, scores[:n], 36 if i else 12,
                   36, None if scores[1] == scores[2] else max(range(n),
                                                                 key=lambda s: scores[s]),
                   complete=bool(i))
        for i, scores in enumerate(totals))
    return StatsView(players=tuple(lines), series=series, count=12)


def _base(players: tuple[str, ...]) -> View:
    dealer = 2
    n = len(players)
    # Forehand sits left of the dealer; at four players the dealer sits out.
    order = [(dealer + 1 + i) % n for i in range(n)]
    positions = tuple(order[:3]) if n == 4 else (order[0], order[1], order[2])
    return View(scene="idle", players=players, dealer=dealer,
                positions=positions,  # type: ignore[arg-type]
                game_number=9, sheet=_sheet(n), can_undo=True)


def _seat(v: View, position: int) -> int:
    """The table seat of forehand (0), middlehand (1) or rearhand (2)."""
    assert v.positions is not None
    return v.positions[position]


def _by_seat(v: View, per_position: tuple, empty: object) -> tuple:
    """Values given by position, laid out by table seat (``empty`` for the seat out)."""
    assert v.positions is not None
    return tuple(per_position[v.positions.index(s)] if s in v.positions else empty
                 for s in range(len(v.players)))


def _enrol(v: View) -> View:
    return replace(v, scene="enrol", game_number=0, dealer=None, positions=None, can_undo=False,
                   enrol=EnrolView(card=Card.HT, done=19, last=Card.H9),
                   refusal=Fault("duplicate-tag", card=Card.CJ, detail="tag 04a224b2c94f80"))


def _deal(v: View) -> View:
    return replace(v, scene="deal", deal=DealView(
        dealt=_by_seat(v, (7, 7, 3), 0), skat=2, to=_seat(v, 2), packet=6, last=Card.S9))


def _calls(v: View, declared: bool = False) -> tuple[Call, ...]:
    """The bidding of the samples: middlehand says up to 23, rearhand passes at 20... """
    fh, mh, rh = (_seat(v, i) for i in range(3))
    calls = (Call(mh, "bid", 18), Call(fh, "yes", 18), Call(mh, "bid", 20),
             Call(fh, "yes", 20), Call(mh, "bid", 22), Call(fh, "yes", 22),
             Call(mh, "bid", 23))
    if declared:
        calls += (Call(fh, "yes", 23), Call(mh, "pass"), Call(rh, "pass"))
    return calls


def _bidding(v: View) -> View:
    fh, mh, rh = (_seat(v, i) for i in range(3))
    return replace(v, scene="bidding", hands=_by_seat(v, HANDS, ()), calls=_calls(v),
                   bidding=BiddingView(bidder=mh, listener=fh, value=23, next_value=24,
                                       to_act=fh, passed=frozenset({rh}), holder=mh))


def _declaration(v: View) -> View:
    return replace(v, scene="declaration", hands=_by_seat(v, HANDS, ()),
                   calls=_calls(v, declared=True),
                   declaration=DeclarationView(declarer=_seat(v, 0), bid=23, skat_taken=False,
                                               contracts=hand_contracts(False)))


def _pushing(v: View) -> View:
    # Schieberamsch: forehand took the skat and pushed two on; middlehand decides now.
    fh, mh, _rh = (_seat(v, i) for i in range(3))
    return replace(v, scene="pushing", hands=_by_seat(v, HANDS, ()),
                   pushing=PushingView(to_act=mh, pushes=1, decided=((fh, True),)))


def _play(v: View) -> View:
    fh, mh, rh = (_seat(v, i) for i in range(3))
    hands = _by_seat(v, (HANDS[0][1:], HANDS[1][:9], HANDS[2][:9]), ())
    return replace(
        v, scene="play", hands=hands, can_concede=True,
        play=PlayView(
            declarer=fh, contract="C", bid=23, to_act=rh,
            trick=TrickView(leader=fh, cards=((fh, Card.CJ), (mh, Card.DJ))),
            last_trick=TrickView(leader=mh, cards=((mh, Card.SA), (rh, Card.SK), (fh, Card.S8)),
                                 winner=mh),
            tricks=(3, 2)),
        prompt=Prompt(seat=rh, card=Card.C7) if rh in v.computer else None)


def _result(v: View) -> View:
    return replace(
        v, scene="result",
        result=ResultView(
            declarer=_seat(v, 0), contract="C", bid=23, won=True, value=48, points=92,
            tricks=8, matadors=2, schneider=True,
            breakdown=(("with", 2), ("game", 3), ("schneider", 4)),
            base_value=12, multiplier=4, skat=tuple(SKAT), discards=(Card.D9, Card.H7),
            next_dealer=(v.dealer + 1) % len(v.players) if v.dealer is not None else None))


def _confirming(v: View, done: int) -> View:
    """``v``'s result at a club table whose results are confirmed, by ``done`` of its
    players so far (display.confirmscene)."""
    r = v.result
    assert r is not None
    seats = [s for s in range(len(v.players)) if s != r.declarer and s != v.dealer][:3]
    if len(v.players) == 3 or r.declarer is None:
        seats = [s for s in range(len(v.players)) if s != r.declarer][:3]
    return replace(v, result=replace(r, confirmers=tuple(seats),
                                        confirmed=tuple(seats[:done])))


def _sheet_scene(v: View) -> View:
    return replace(v, scene="sheet", game_number=8, sheet=_sheet(len(v.players), finished=True))


def _fault(v: View) -> View:
    return replace(
        v, scene="fault",
        faults=(Fault("reader-down", zone="seat1", detail="/dev/serial/by-path/usb-0:1.2: no "
                      "heartbeat for 5 s"),
                Fault("journal", detail="disk full: the last card is not saved")))


def _idle(v: View) -> View:
    return replace(v, scene="idle")


def _seating(v: View) -> View:
    """The club's seating for this table, one seat confirmed (display.clubscene)."""
    return replace(
        v, scene="seating", hands=(),
        club=ClubLine("offline", "20:14", 3),
        seating=SeatingView("herbst-2026", "2", 36 if len(v.players) == 3 else 48, 0,
                            v.players, (True,) + (False,) * (len(v.players) - 1)))


SAMPLES: dict[str, Callable[[View], View]] = {
    "enrol": _enrol, "deal": _deal, "bidding": _bidding, "declaration": _declaration,
    "pushing": _pushing, "play": _play, "result": _result, "sheet": _sheet_scene,
    "fault": _fault, "idle": _idle, "seating": _seating,
}
assert set(SAMPLES) == set(SCENES)


def sample_view(scene: str, language: str = "de", card_style: str = "french",
                players: tuple[str, ...] = PLAYERS, simulator: bool = False,
                computer: frozenset[int] = frozenset()) -> View:
    """A realistic view of ``scene``."""
    base = replace(_base(players), language=language, card_style=card_style,  # type: ignore[arg-type]
                   simulator=simulator, computer=computer)
    return SAMPLES[scene](base)


def extra_views(language: str = "de", card_style: str = "french") -> dict[str, View]:
    """Harder variants: refusals, ouvert, overbid, long names, four players, passed in."""
    long_names = ("Maximiliane", "Bartholomäus", "Wojciechowska")
    four = ("Anna", "Ben", "Carla", "Dieter")
    play = sample_view("play", language, card_style)
    out = {
        "play-refused": replace(play, refusal=Fault(
            "revoke", seat=2, card=Card.H9, suit="T", follow_with=(Card.CQ, Card.C8, Card.C7),
            detail="rearhand must follow trump: holds CQ, C8, C7")),
        "play-ouvert": replace(play, hands=(play.hands[0], None, None),
                               play=replace(play.play, contract="GO")),  # type: ignore[arg-type]
        "play-last-trick": replace(play, play=replace(play.play,  # type: ignore[arg-type]
                                                       show_last_trick=True)),
        "play-computer": sample_view("play", language, card_style, computer=frozenset({2})),
        "play-simulator": sample_view("play", language, card_style, simulator=True),
        "bidding-long-names": sample_view("bidding", language, card_style, players=long_names),
        "declaration-after-skat": replace(
            sample_view("declaration", language, card_style),
            declaration=DeclarationView(declarer=0, bid=23, skat_taken=True,
                                        contracts=hand_contracts(True),
                                        discards=(Card.D9,))),
        "result-overbid": replace(sample_view("result", language, card_style), result=ResultView(
            declarer=1, contract="H", bid=33, won=False, value=-80, points=74, tricks=6,
            matadors=-1, overbid=True, breakdown=(("without", 1), ("game", 2)), base_value=10,
            multiplier=2, skat=tuple(SKAT), discards=tuple(SKAT), next_dealer=0)),
        "result-passed": replace(sample_view("result", language, card_style), result=ResultView(
            declarer=None, contract=None, bid=0, won=False, value=0, passed_in=True,
            ending="passed", skat=tuple(SKAT), next_dealer=0)),
        "sheet-four": sample_view("sheet", language, card_style, players=four),
        "deal-four": sample_view("deal", language, card_style, players=four),
        "play-four": sample_view("play", language, card_style, players=four, simulator=True),
        "bidding-four": sample_view("bidding", language, card_style, players=four),
        "play-reader-down": replace(play, faults=(
            Fault("reader-down", zone="seat1", detail="no heartbeat for 5 s"),
            Fault("journal", detail="disk full"))),
        # The storage failing, full or read-only: the top bar says so until it works again.
        **{f"play-storage-{zone}": replace(play, faults=(Fault("journal", zone=zone,
                                                               detail="[Errno 5]"),))
           for zone in ("failing", "full", "read-only", "copy")},
        # A repaired journal's loss report, open until confirmed: the top bar's pill (the
        # whole sentence in the kiosk's notice dialog, UiState(confirm="notice")).
        "play-journal-restored": replace(play, faults=(NOTICE,)),
        "bidding-journal-restored": replace(sample_view("bidding", language, card_style),
                                            faults=(Fault("reader-down", zone="seat1"),
                                                    NOTICE_UNREADABLE)),
        "play-ramsch": replace(play, can_concede=True, play=replace(  # type: ignore[arg-type]
            play.play, contract="R", bid=0)),
        "result-ramsch": replace(sample_view("result", language, card_style), result=ResultView(
            declarer=None, contract="R", bid=0, won=False, value=-94, game_value=47,
            breakdown=(("ramsch", 47),), factors=(("jungfrau", 2),), skat=tuple(SKAT),
            losers=(1,), ramsch_points=(73, 47, 0), ending="played", next_dealer=0)),
        **pub_views(language, card_style),
        # A club's result to confirm: one opponent has, one to go; a passed-in deal (all
        # three confirm), long names, and with the open-card analysis under it.
        "result-confirm": _confirming(sample_view("result", language, card_style), 1),
        "result-confirm-passed-in": _confirming(replace(
            sample_view("result", language, card_style, players=long_names),
            result=ResultView(declarer=None, contract=None, bid=0, won=False, value=0,
                              passed_in=True, skat=tuple(SKAT), discards=tuple(SKAT),
                              next_dealer=0)), 0),
        "result-confirm-four": _confirming(
            sample_view("result", language, card_style, players=four), 1),
        "result-hand": replace(sample_view("result", language, card_style), result=ResultView(
            declarer=2, contract="NH", bid=35, won=True, value=35, points=0, tricks=0,
            breakdown=(("null", 35),), base_value=35, multiplier=1, skat=tuple(SKAT),
            discards=tuple(SKAT), next_dealer=0)),
        "pushing-laying": _pushing_laying(language, card_style),
        "pushing-four": sample_view("pushing", language, card_style, players=four,
                                    simulator=True),
        "pushing-refused": replace(sample_view("pushing", language, card_style), refusal=Fault(
            "other", seat=1, card=Card.HJ, detail="jacks may not be pushed")),
        "enrol-foreign": replace(sample_view("enrol", language, card_style),
                                 refusal=Fault("foreign-tag", detail="tag 0499aabbccdd01")),
        "play-trick-complete": _trick_complete(play),
        "play-trick-complete-simulator": _trick_complete(
            sample_view("play", language, card_style, simulator=True)),
        "declaration-skat-simulator": _twelve(sample_view("declaration", language, card_style,
                                                          simulator=True)),
        "declaration-skat-four": _twelve(sample_view("declaration", language, card_style,
                                                     players=four, simulator=True)),
        "resume-offer": replace(sample_view("result", language, card_style), offer="resume"),
        # The last deal of a series: its result, then (UiState.series_end) the summary.
        "result-series-end": replace(sample_view("result", language, card_style),
                                     game_number=8, sheet=_sheet(3, finished=True),
                                     stats=sample_stats()),
        "result-series-end-four": replace(sample_view("result", language, card_style,
                                                      players=four, simulator=True),
                                          game_number=8, sheet=_sheet(4, finished=True),
                                          stats=sample_stats(four)),
        # The statistics (UiState.show_stats): the sheet offers them; being made; none yet.
        "stats": replace(sample_view("sheet", language, card_style), stats=sample_stats()),
        "stats-four": replace(sample_view("sheet", language, card_style, players=four),
                              stats=sample_stats(four)),
        "stats-long-names": replace(sample_view("sheet", language, card_style,
                                                players=long_names),
                                    stats=sample_stats(long_names)),
        "stats-pending": replace(sample_view("sheet", language, card_style),
                                 stats=StatsView(state="pending")),
        "stats-empty": replace(sample_view("sheet", language, card_style),
                               stats=StatsView()),
        "play-stats": replace(play, stats=sample_stats()),
    }
    return out


def settings_views(language: str = "de", card_style: str = "french") -> dict[str, View]:
    """The settings screen's variants, each shown with ``UiState(settings=True)``: the
    simulator as it starts (the computer's speed and level to choose, the sounds on), other
    choices made there (an expert chosen for the next deal), the table (a person lays the
    computer's cards: no speed), a club table (no hints, ever; the config's level), a table
    whose config names the computer player, and one without computer seats."""
    sim = sample_view("play", language, card_style, simulator=True)
    table = sample_view("bidding", language, card_style)
    return {
        "settings-simulator": replace(sim, settings=SettingsView(sound=True, level="club")),
        "settings-chosen": replace(sim, settings=SettingsView(
            speed="fast", trump_first=False, suit_order="CHSD", hints=True, level="club",
            next_level="expert")),
        "settings-table": replace(table, settings=SettingsView(speed_applies=False,
                                                               level="beginner")),
        "settings-club": replace(table, club=ClubLine("online"), settings=SettingsView(
            speed_applies=False, hints_allowed=False, level="club", level_fixed="club")),
        "settings-config-player": replace(table, settings=SettingsView(
            speed_applies=False, level="pimc", level_fixed="config")),
        "settings-no-computer": replace(table, settings=SettingsView(speed_applies=False)),
    }


def pub_views(language: str = "de", card_style: str = "french") -> dict[str, View]:
    """Pub rules (Kontra, Re, Bock, Ramsch, pushes): each value with its factors named."""
    play = sample_view("play", language, card_style)
    assert play.play is not None
    bidding = sample_view("bidding", language, card_style)
    assert bidding.bidding is not None
    fh = _seat(bidding, 0)
    four = ("Anna", "Ben", "Carla", "Dieter")
    return {
        # A Bock deal: the top bar says so (and how many are left) in every scene of it.
        "play-bock": replace(play, bock=3, kontra_re=True, play=replace(play.play, kontra=4)),
        "play-bock-simulator": replace(sample_view("play", language, card_style,
                                                   simulator=True), bock=12),
        "bidding-bock-ramsch": replace(bidding, bock=1, bidding=replace(
            bidding.bidding, bidder=fh, listener=fh, value=0, next_value=18, to_act=fh,
            passed=frozenset(s for s in bidding.positions or () if s != fh), holder=None,
            forehand_alone=True, ramsch=True)),
        "declaration-bock": replace(sample_view("declaration", language, card_style), bock=2),
        "pushing-bock": replace(sample_view("pushing", language, card_style), bock=2),
        "deal-bock": replace(sample_view("deal", language, card_style), bock=3),
        "play-ramsch-pushed": replace(play, bock=2, play=replace(
            play.play, contract="R", bid=0, pushes=2)),
        # A lost grand hand with Kontra and Re in a Bock deal: every factor named.
        "result-bock-kontra-re": replace(sample_view("result", language, card_style),
                                         result=ResultView(
            declarer=1, contract="GH", bid=48, won=False, value=-1920, points=58, tricks=4,
            matadors=3, breakdown=(("with", 3), ("game", 4), ("hand", 5)), base_value=24,
            multiplier=5, game_value=120, factors=(("lost", 2), ("kontra", 2), ("re", 2),
                                                    ("bock", 2)), bock_next=5,
            skat=tuple(SKAT), discards=tuple(SKAT), next_dealer=0)),
        "result-ramsch-pushed-bock": replace(sample_view("result", language, card_style),
                                             result=ResultView(
            declarer=None, contract="R", bid=0, won=False, value=-332, game_value=83,
            breakdown=(("ramsch", 83),), factors=(("pushed", 2), ("bock", 2)),
            skat=tuple(SKAT), losers=(1,), ramsch_points=(12, 83, 25), ending="played",
            next_dealer=0, bock_next=1)),
        "sheet-pub": replace(sample_view("sheet", language, card_style), sheet=pub_sheet(3)),
        "sheet-pub-four": replace(sample_view("sheet", language, card_style, players=four),
                                  sheet=pub_sheet(4)),
    }


def pub_sheet(players: int = 3) -> SheetView:
    """A pub-rules sheet: Kontra, Re, Bock marks, a Ramsch booked in its losers' columns
    (one with two losers), a pushed Ramsch, a Durchmarsch."""
    lost, kontra, re, bock = ("lost", 2), ("kontra", 2), ("re", 2), ("bock", 2)
    entries: list[tuple[int | None, str | None, int, dict[int, int],
                        tuple[tuple[str, int], ...]]] = [
        # (declarer or None, contract, value, scores by seat, factors)
        (0, "CHS", -264, {0: -264}, (lost, kontra, re)),
        (1, "G", 96, {1: 96}, (bock,)),
        (None, "R", -188, {2: -188}, (("pushed", 2), bock)),
        (2, "S", 88, {2: 88}, (kontra, bock)),
        (None, "R", -40, {0: -40, 1: -40}, ()),
        (None, None, 0, {}, (bock,)),
        (None, "R", 120, {1: 120}, ()),
        (0, "NO", -184, {0: -184}, (lost, kontra)),
    ]
    totals = [0] * players
    rows = []
    for i, (declarer, contract, value, by_seat, factors) in enumerate(entries):
        scores = tuple(by_seat.get(s, 0) for s in range(players))
        totals = [t + v for t, v in zip(totals, scores, strict=True)]
        rows.append(SheetRow(i + 1, (2 + i) % players, declarer, contract, value,
                             tuple(totals), scores=scores,
                             factors=tuple(f for f in factors if contract is not None),
                             bock=bock in factors))
    return SheetView(rows=tuple(rows), totals=tuple(totals), games_total=36)


NOTICE = Fault("journal-restored", value=12, other_value=4, notice=41, detail=(
    "journal damaged: restored to deal 12, trick 3; the last 4 input(s) could not be "
    "recovered"))
# The longest of the sentences: nothing seen lost, but the other copy cannot be read.
NOTICE_UNREADABLE = Fault("journal-restored", value=12, other_value=0, zone="unreadable",
                          notice=57, detail=("journal damaged: restored to deal 12, bidding; "
                                             "the other copy cannot be read, later inputs "
                                             "may be lost"))


def _trick_complete(v: View) -> View:
    """Rearhand laid the third card: the trick stays, middlehand (the jack of hearts) took it."""
    assert v.play is not None
    fh, mh, rh = (_seat(v, i) for i in range(3))
    return replace(v, play=replace(v.play, to_act=fh, trick=TrickView(
        leader=fh, cards=((fh, Card.CT), (mh, Card.HJ), (rh, Card.C8)), winner=mh)))


def _twelve(v: View) -> View:
    """The declarer took up the skat: twelve cards to fan (the "10" must stay readable)."""
    decl = _seat(v, 0)
    hands = tuple(tuple(sorted((*HANDS[0], *SKAT))) if s == decl else h
                  for s, h in enumerate(v.hands))
    return replace(v, hands=hands, declaration=DeclarationView(
        declarer=decl, bid=23, skat_taken=True, contracts=hand_contracts(True),
        skat=tuple(SKAT) if v.simulator else ()))


def _pushing_laying(language: str, card_style: str) -> View:
    """Rearhand took the skat after forehand pushed and middlehand passed it on, and has laid
    one of the two cards back (the simulator shows it)."""
    v = sample_view("pushing", language, card_style, simulator=True)
    fh, mh, rh = (_seat(v, i) for i in range(3))
    hand = tuple(sorted((*HANDS[2], *SKAT)))
    hands = tuple(tuple(c for c in hand if c != Card.D8) if s == rh else h
                  for s, h in enumerate(v.hands))
    return replace(v, hands=hands, pushing=PushingView(
        to_act=rh, taken=True, laid=1, pushes=2, decided=((fh, True), (mh, False)),
        laid_cards=(Card.D8,)))


def demo_view(language: str = "de", seed: int = 7) -> View:
    """A result screen with the analysis of a real game (three rule players on deal ``seed``:
    a clubs game the defenders could have beaten; a defender's queen in trick 6 gave it
    away). For the docs' screenshots and the tests."""
    from engine.cards import mask_cards
    from engine.deal import Deal
    from engine.players.analysis import analyse
    from engine.players.rule import RulePlayer
    from engine.players.table import play_game

    g = play_game(Deal.shuffled(seed), [RulePlayer(1), RulePlayer(2), RulePlayer(3)])
    r = g.result
    assert r is not None and g.declarer is not None
    v = sample_view("result", language)
    seats = v.positions or (0, 1, 2)
    first = analyse(g)
    return replace(v, result=ResultView(
        declarer=seats[r.declarer], contract=str(r.contract), bid=r.bid, won=r.won,
        value=r.value, points=r.points, tricks=r.tricks, matadors=r.matadors,
        schneider=r.schneider, schwarz=r.schwarz, breakdown=r.breakdown,
        base_value=r.base_value, multiplier=r.multiplier,
        skat=tuple(mask_cards(g.deal.skat)), discards=tuple(mask_cards(g.skat)),
        next_dealer=v.result.next_dealer if v.result else None),
        analysis=from_analysis(first, seats))

"""The screen for the table's state: a :class:`display.view.View` built from the controller.

The display draws only what a view says, so this module is the one place that reads the engine
for the screen. ``display.view`` is plain dataclasses (no pygame), cheap to import.
"""

from __future__ import annotations

from typing import Any

from engine.cards import Card, mask_cards
from engine.deal import DEAL_PATTERN, SKAT
from firmware_host.table.controller import DealState, Refusal, Table, confirmers

PACKET_SIZES = (3, 3, 3, 2, 4, 4, 4, 3, 3, 3)
# The score sheet's rows in a view: the last deals, more than the tallest screen shows (a
# series of thousands of deals is not rebuilt row by row at every input).
SHEET_ROWS = 60


def fault_of(refusal: Refusal) -> Any:
    from display.view import Fault

    return Fault(
        kind=refusal.kind,  # type: ignore[arg-type]
        seat=refusal.seat, card=refusal.card, follow_with=refusal.follow_with,
        suit=refusal.suit, other_seat=refusal.other_seat, value=refusal.value,
        other_value=refusal.other_value, zone=refusal.zone, detail=refusal.reason)


def build_view(session: Any, refusal: Refusal | None = None, simulator: bool = False,
               reader_faults: dict[str, str] | None = None, language: str | None = None,
               card_style: str | None = None, settings: Any = None) -> Any:
    """The whole screen now; ``refusal`` is the banner of the input just refused;
    ``language`` and ``card_style`` as chosen on the kiosk (None: the config's), ``settings``
    the rest of its settings screen (display.view.SettingsView; None: the defaults)."""
    from display import view as v

    table: Table = session.table
    d = table.deal
    phase = table.phase
    cfg = table.config
    faults = [v.Fault(kind="reader-down", zone=zone, detail=msg)
              for zone, msg in sorted((reader_faults or {}).items())]
    if session.journal_fault:
        faults.append(v.Fault(kind="journal", zone=getattr(session, "journal_fault_kind", None),
                              detail=session.journal_fault))
    faults.extend(_notice_faults(session))
    prompt = None
    if table.prompts:
        seat, card = next(iter(table.prompts.items()))
        prompt = v.Prompt(seat=seat, card=card)
    style = card_style or str(cfg.display.get("deck_style", "french"))
    common: dict[str, Any] = dict(
        players=tuple(table.names), dealer=d.dealer, positions=d.seats,
        computer=frozenset(session.computer_seats), language=language or cfg.table.language,
        card_style=style if style in v.CARD_STYLES else "french", game_number=d.number,
        refusal=fault_of(refusal) if refusal is not None else None, faults=tuple(faults),
        prompt=prompt, simulator=simulator, can_undo=bool(table.stack),
        can_concede=phase == "play", kontra_re=bool(getattr(table.rules, "kontra_re", False)),
        hands=_hands(table, d, simulator), sheet=_sheet(table),
        calls=_calls(d) if phase not in ("dealing", "scored", "over") else (),
        hint_seat=session.hint_seat(), hint=_hint(session),
        reasons=_reasons(session),
        # the deal being dealt or played is a Bock deal: said before and during play (the
        # result of a finished deal names its own Bock factor and the round still to come)
        bock=_bock_left(table.series) if phase not in ("scored", "over") else 0,
        stats=_stats(session, table),
    )
    if settings is not None:
        common["settings"] = settings
    if phase == "dealing":
        return v.View(scene="deal", deal=_deal_view(table, d), **common)
    if phase in ("scored", "over"):
        last = table.finished_deals[-1]
        common["dealer"], common["positions"] = last.dealer, last.seats
        common["game_number"] = last.number
        from firmware_host.screen.analysis import view_of

        # The last deal of a series is a result like any other (its breakdown, its analysis,
        # undo); the sheet says the series is over and the kiosk goes on to its summary.
        return v.View(scene="result", result=_result_view(table, last),
                      analysis=view_of(session, last), **common)
    game = d.game
    seat = d.seats.__getitem__
    if phase == "bidding":
        to_act = seat(game.to_act)
        bidder = seat(game.bidder) if game.bidder is not None else to_act
        listener = seat(game.listener) if game.listener is not None else to_act
        return v.View(scene="bidding", bidding=v.BiddingView(
            bidder=bidder, listener=listener, value=game.bid, next_value=game.next_bid,
            to_act=to_act, passed=frozenset(seat(p) for p in game.passed),
            holder=_holder(game, seat), forehand_alone=game.passed >= {1, 2},
            ramsch=bool(getattr(table.rules, "ramsch", False))), **common)
    if phase in ("skat", "discard"):
        from engine.actions import Declare, Discard

        contracts = tuple(dict.fromkeys(
            str(a.contract) for a in game.legal_actions() if isinstance(a, Declare)))
        discards = tuple(Card(a.card) for a in game.actions if isinstance(a, Discard))
        skat = tuple(mask_cards(game.deal.skat)) if simulator and game.skat_taken else ()
        return v.View(scene="declaration", declaration=v.DeclarationView(
            declarer=seat(game.declarer), bid=game.bid, skat_taken=game.skat_taken,
            contracts=contracts, discards=discards, skat=skat), **common)
    if phase == "pushing":
        return v.View(scene="pushing", pushing=_pushing_view(table, d, simulator), **common)
    return v.View(scene="play", play=_play_view(table, d), **common)


def _stats(session: Any, table: Table) -> Any:
    """The archive's statistics (firmware_host.series.archive.ArchiveService), where the
    session keeps one and has a journal to make it from."""
    archive = getattr(session, "archive", None)
    if archive is None or getattr(archive, "journal", None) is None:
        return None
    return archive.view(table.names)


def _notice_faults(session: Any) -> list[Any]:
    """Every loss report nobody has confirmed (a repaired journal: where the table was
    restored to, what was lost), from the journal: shown until confirmed on the kiosk."""
    from display.view import Fault

    def number(value: Any) -> int | None:
        return value if isinstance(value, int) and not isinstance(value, bool) else None

    notices = getattr(session, "notices", None)
    out = []
    for seq, body in notices() if notices is not None else ():
        if body.get("what") != "recovery":
            continue
        unproven = body.get("unproven")
        out.append(Fault(kind="journal-restored", value=number(body.get("deal")),
                         other_value=number(body.get("lost")),
                         zone=unproven if unproven in ("missing", "unreadable") else None,
                         detail=str(body.get("note") or ""), notice=seq))
    return out


def _hint(session: Any) -> Any:
    """The hint asked for (``Session.ask_hint``) as the kiosk shows it."""
    if session.hint is None:
        return None
    from display.hints import from_hint

    seat, h = session.hint
    return from_hint(seat, h)


def _reasons(session: Any) -> tuple[Any, ...]:
    """The computers' reasons the table may show now (``Session.reasons_now``)."""
    reasons_now = getattr(session, "reasons_now", None)
    if reasons_now is None:
        return ()
    from display.reasons import from_reason

    return tuple(from_reason(seat, r) for seat, r in reasons_now())


def _bock_left(series: Any) -> int:
    """The Bock deals this series will still play: a round triggered near the end of a series
    of fixed length is cut where the series ends (the players are not promised deals that
    never come; the last deal's result announces none)."""
    left = series.deals_left
    return series.bock_pending if left is None else min(series.bock_pending, left)


def _pushing_view(table: Table, d: DealState, simulator: bool) -> Any:
    """Schieberamsch: each position from forehand has decided in turn up to ``push_turn``."""
    from display.view import PushingView
    from engine.actions import Push

    game = d.game
    pushed = {a.pos for a in game.actions if isinstance(a, Push)}
    decided = tuple((d.seats[p], p in pushed) for p in range(game.push_turn))
    laid = game.skat.bit_count() if game.pushing else 0
    return PushingView(
        to_act=d.seats[game.to_act], taken=bool(game.pushing), laid=laid, pushes=game.pushes,
        decided=decided, jacks=bool(getattr(table.rules, "schieberamsch_jacks", False)),
        laid_cards=tuple(mask_cards(game.skat)) if simulator and laid else (),
        skat=_pushed_up(game) if simulator and game.pushing else ())


def _pushed_up(game: Any) -> tuple[Any, ...]:
    """The two cards the player pushing now took up and still holds: the skat as the one
    before pushed it on (or the dealt skat, for the first to take it)."""
    from engine.actions import Discard, Push

    acts = list(game.actions)
    took = max(i for i, a in enumerate(acts) if isinstance(a, Push))
    before = [a.card for a in acts[:took] if isinstance(a, Discard)][-2:]
    cards = before if len(before) == 2 else mask_cards(game.deal.skat)
    hand = game.hands[game.to_act]
    return tuple(c for c in cards if hand & c.bit)


def _calls(d: DealState) -> tuple[Any, ...]:
    """Who said what in this deal's bidding and declaration, in order (table seats)."""
    from display.view import Call
    from engine import actions as a

    game = d.game
    if game is None:
        return ()
    out = []
    for act in game.actions:
        seat = d.seats[act.pos] if getattr(act, "pos", None) is not None else None
        if seat is None:
            continue
        if isinstance(act, a.Bid):
            out.append(Call(seat, "bid", value=act.value))
        elif isinstance(act, a.Hold):
            out.append(Call(seat, "yes", value=_last_value(out)))
        elif isinstance(act, a.Pass) and not isinstance(act, a.Push):
            out.append(Call(seat, "pass"))
        elif isinstance(act, a.TakeSkat):
            out.append(Call(seat, "skat"))
        elif isinstance(act, a.Declare):
            out.append(Call(seat, "declare", contract=str(act.contract)))
        elif isinstance(act, a.Kontra | a.Re):
            out.append(Call(seat, "kontra" if isinstance(act, a.Kontra) else "re"))
        elif isinstance(act, a.Play):
            break
    return tuple(out)


def _last_value(calls: list[Any]) -> int | None:
    return next((c.value for c in reversed(calls) if c.value is not None), None)


def _holder(game: Any, seat: Any) -> int | None:
    """The seat that holds the current value: the last to bid it or to say yes to it."""
    from engine.actions import Bid, Hold

    for action in reversed(game.actions):
        if isinstance(action, Bid | Hold):
            return seat(action.pos)
    return None


def _hands(table: Table, d: DealState, simulator: bool) -> tuple[tuple[Card, ...] | None, ...]:
    game = d.game
    out: list[tuple[Card, ...] | None] = []
    for s in range(table.n):
        pos = d.position_of(s)
        if game is None or pos is None:
            out.append(() if pos is None else None)
            continue
        ouvert = (game.contract is not None and game.declarer == pos
                  and table.phase == "play"
                  # an open game, or a declarer who showed his cards with a claim (ISkO 4.4.4)
                  and (game.contract.ouvert or getattr(game, "open_hands", 0) >> pos & 1))
        out.append(tuple(mask_cards(game.hand(pos))) if simulator or ouvert else None)
    return tuple(out)


def _deal_view(table: Table, d: DealState) -> Any:
    from display.view import DealView

    dealt = [0] * table.n
    skat = 0
    if d.dealt:
        for i in range(len(d.dealt)):
            who = DEAL_PATTERN[i]
            if who == SKAT:
                skat += 1
            else:
                dealt[d.seats[who]] += 1
    else:
        for who in d.owner.values():
            if who == SKAT:
                skat += 1
            else:
                dealt[d.seats[who]] += 1
    n = len(d.dealt)
    to = packet = None
    if table.config.table.deal_mode == "dealer" and n < 32:
        who = DEAL_PATTERN[n]
        to = -1 if who == SKAT else d.seats[who]
        total = 0
        for packet, size in enumerate(PACKET_SIZES):  # noqa: B007
            total += size
            if n < total:
                break
    last = d.dealt[-1] if d.dealt else None
    return DealView(dealt=tuple(dealt), skat=skat, to=to, packet=packet or 0, last=last)


def _trick_view(d: DealState, leader: int, cards: list[Card] | tuple[Card, ...],
                winner: int | None) -> Any:
    from display.view import TrickView

    return TrickView(leader=d.seats[leader],
                     cards=tuple((d.seats[(leader + i) % 3], Card(c)) for i, c in enumerate(cards)),
                     winner=None if winner is None else d.seats[winner])


def _play_view(table: Table, d: DealState) -> Any:
    from display.view import PlayView

    game = d.game
    declarer = game.declarer if game.declarer is not None else 0
    taken = sum(1 for t in game.tricks if t.winner == declarer)
    tricks = game.tricks
    if not game.trick and tricks:
        # The trick just completed stays on the table, its winner marked, until the next
        # card is laid; "last trick" is then the one before it.
        done = tricks[-1]
        trick = _trick_view(d, done.leader, done.cards, done.winner)
        last = tricks[-2] if len(tricks) > 1 else None
    else:
        trick = _trick_view(d, game.trick_leader, list(game.trick), None)
        last = tricks[-1] if tricks else None
    return PlayView(
        declarer=d.seats[declarer], contract=str(game.contract) if game.contract else "R",
        bid=game.bid, to_act=_seat_to_answer(table, d), trick=trick,
        last_trick=None if last is None else _trick_view(d, last.leader, last.cards, last.winner),
        tricks=(taken, len(game.tricks) - taken), kontra=int(getattr(game, "kontra", 1) or 1),
        pushes=int(getattr(game, "pushes", 0) or 0) if game.is_ramsch else 0,
        concede_values=(_concede_values(game, table.series.is_bock) if not game.is_ramsch
                        else (None, None)),
        claim_levels=_claim_levels(game), disagreed=_disagreed(d),
        **_waiting_fields(table, d))


def _claim_levels(game: Any) -> tuple[str, ...]:
    """The levels the declarer may claim the rest at now: the claim dialog offers no level
    the engine would refuse (schwarz once the defenders have a trick, schneider once they
    hold 31, none in null)."""
    from engine.actions import CLAIM_LEVELS, Claim

    if game.is_ramsch or game.declarer is None or getattr(game, "waiting", None) is not None:
        return ("",)
    out = [""]
    for level in CLAIM_LEVELS[1:]:
        try:
            game.copy().push(Claim(game.declarer, level))
        except Exception:  # the engine refuses that level now: not offered
            continue
        out.append(level)
    return tuple(out)


def _disagreed(d: DealState) -> int | None:
    """The seat of the defender who disagreed with the declarer's claim, while the trick
    the claim was made in is still being played (then the screen has said it long enough)."""
    from engine.actions import Disagree, Play

    actions = d.game.actions
    for i in range(len(actions) - 1, -1, -1):
        if isinstance(actions[i], Disagree):
            plays = sum(1 for a in actions[:i] if isinstance(a, Play))
            return d.seats[actions[i].pos] if len(d.game.tricks) == plays // 3 else None
    return None


def _waiting_fields(table: Table, d: DealState) -> dict[str, Any]:
    """A claim or a violation waiting for its answer, and the cards a claim laid open."""
    game = d.game
    out: dict[str, Any] = {"waiting": getattr(game, "waiting", None),
                           "answering": tuple(table.waiting_seats())}
    declarer = game.declarer
    if declarer is not None and getattr(game, "open_hands", 0) >> declarer & 1:
        out["open_hand"] = tuple(mask_cards(game.hand(declarer)))
    violation = getattr(game, "violation", None)
    if violation is not None:
        out["offender"], out["offending_card"] = d.seats[violation[0]], Card(violation[1])
    return out


def _seat_to_answer(table: Table, d: DealState) -> int:
    """The seat to play; while a claim or a violation waits (nobody plays), the first seat
    whose answer it waits for."""
    game = d.game
    if game.to_act is not None:
        return d.seats[game.to_act]
    waiting = table.waiting_seats()
    return waiting[0] if waiting else d.seats[game.declarer or 0]


def _concede_values(game: Any, bock: bool) -> tuple[int | None, int | None]:
    """The signed value a concession now would enter on the sheet for the declarer:
    (declarer gives up, the defenders give up). Booked by the sheet's own function, so a
    Bock deal's doubling is in it as it will be on the sheet."""
    from engine.actions import Concede
    from engine.series import sheet_value

    out: list[int | None] = []
    declarer = game.declarer
    for pos in (declarer, (declarer + 1) % 3):
        try:
            trial = game.copy()
            trial.push(Concede(pos))
            out.append(sheet_value(trial.result, bock))
        except Exception:  # a rule that forbids it now: ask without a value
            out.append(None)
    return (out[0], out[1])


def _result_view(table: Table, d: DealState) -> Any:
    from display.view import ResultView
    from engine.series import reckon

    r, game = d.result, d.game
    # Every figure from the sheet's own reckoning of this entry: the value booked, the game
    # value and each factor (a loss, Kontra, Re, Jungfrau, pushes, Bock) by name.
    k = reckon(r, bool(d.entry is not None and d.entry.bock))
    return ResultView(
        declarer=None if r.declarer is None else d.seats[r.declarer],
        contract=None if r.contract is None else str(r.contract), bid=r.bid, won=bool(r.won),
        value=k.value, points=r.points,
        tricks=r.tricks, matadors=r.matadors or 0, schneider=r.schneider, schwarz=r.schwarz,
        overbid=r.overbid, passed_in=r.passed_in, ending=r.ending,
        breakdown=k.levels, base_value=k.base, multiplier=k.multiplier,
        game_value=k.game_value, factors=k.factors,
        bock_next=_bock_left(table.series),  # d is the last deal: the round still to come
        skat=tuple(mask_cards(game.deal.skat)),
        discards=tuple(mask_cards(game.skat)), next_dealer=table.series.dealer,
        losers=tuple(d.seats[p] for p in r.losers),
        ramsch_points=_by_seat(table, d, r.ramsch_points) if r.ramsch_points else (),
        confirmers=confirmers(d) if table.confirming else (), confirmed=d.confirmed)


def _by_seat(table: Table, d: DealState, per_position: tuple[int, ...]) -> tuple[int, ...]:
    """Per-position figures as one entry per table seat (0 for a dealer sitting out)."""
    out = [0] * table.n
    for pos, value in enumerate(per_position):
        out[d.seats[pos]] = value
    return tuple(out)


def _sheet(table: Table) -> Any:
    from display.view import SheetRow, SheetView
    from engine.series import reckon

    rows = []
    finished = table.finished_deals
    first = max(0, len(finished) - SHEET_ROWS)
    for i in range(first, len(finished)):
        d = finished[i]
        r, entry = d.result, d.entry
        bock = bool(entry is not None and entry.bock)
        rows.append(SheetRow(
            number=d.number, dealer=d.dealer,
            declarer=None if r.declarer is None else d.seats[r.declarer],
            contract=None if r.passed_in else str(r.contract),
            value=entry.value if entry is not None else 0,
            totals=table.series.totals_after(i + 1),
            # each seat's entry (a Ramsch books its loser(s), not a declarer) and what
            # doubled it, from the sheet's own reckoning
            scores=tuple(entry.scores) if entry is not None else (),
            factors=reckon(r, bock).factors, bock=bock))
    series = table.series
    over = table.phase == "over"
    settled = table.settlement() if over else None
    best, worst = _best_and_worst(series.sheet) if over else (None, None)
    return SheetView(best=best, worst=worst,
        rows=tuple(rows), played=len(finished), totals=tuple(table.totals()),
        seeger_fabian=tuple(table.seeger_fabian())
        if table.config.table.scoring == "seeger-fabian" else None,
        games_total=table.config.table.series_length,
        winner=series.winner if over else None, finished=over,
        settlement=None if settled is None else tuple(float(a) for a in settled.amounts))


def _best_and_worst(entries: Any) -> tuple[Any, Any]:
    """The series' best game (the highest entry anybody made) and its worst (the lowest), from
    every entry of the sheet (the view's rows are only the last ones)."""
    from display.view import GameMark

    best = worst = None
    for e in entries:
        if not e.scores:
            continue
        high = max(range(len(e.scores)), key=lambda s: e.scores[s])
        low = min(range(len(e.scores)), key=lambda s: e.scores[s])
        r = e.result
        contract = (str(r.contract) if e.declarer is not None and r is not None
                    and r.contract is not None else None)
        if e.scores[high] > 0 and (best is None or e.scores[high] > best.value):
            best = GameMark(e.number, high, contract, e.scores[high])
        if e.scores[low] < 0 and (worst is None or e.scores[low] < worst.value):
            worst = GameMark(e.number, low, contract, e.scores[low])
    return best, worst

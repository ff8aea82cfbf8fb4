"""A readable account of the table: the deal, the bidding, the contract, each trick, the result.

:class:`GameLog` listens to a session and writes lines for people (the headless simulator's
output, ``replay`` without ``--json``, the journal of a real table in journald).
"""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal
from typing import Any

from engine.actions import Discard
from engine.cards import JACKS, Card, mask_cards, mask_points
from engine.contract import GameType
from firmware_host.table.controller import DealState, Outcome, Table
from firmware_host.table.inputs import Input

SUIT_SYMBOLS = {"C": "♣", "S": "♠", "H": "♥", "D": "♦"}
ROLES = ("forehand", "middlehand", "rearhand")


def card_text(card: int, symbols: bool = True) -> str:
    c = Card(card)
    if not symbols:
        return str(c)
    rank = "10" if c.name[1] == "T" else c.name[1]
    return SUIT_SYMBOLS[c.name[0]] + rank


def hand_text(mask: int, symbols: bool = True) -> str:
    """A hand sorted the way players hold it: jacks, then each suit from the ace down."""
    order = "AT KQ987".replace(" ", "")
    jacks = sorted((c for c in mask_cards(mask & JACKS)), key=int)
    rest = sorted((c for c in mask_cards(mask & ~JACKS)),
                  key=lambda c: (int(c.suit), order.index(c.name[1])))
    return " ".join(card_text(c, symbols) for c in [*jacks, *rest])


def breakdown_text(result: Any, bock: bool = False) -> str:
    """"clubs: with 2, game 3, schneider 4 = 4 x 12 = 48"; with factors, each named, ending in
    what the sheet books: "clubs: with 2, game 3 = 3 x 12 = 36, lost x2, Kontra x2, Bock x2 =
    -288" (the sheet's own reckoning, ``engine.series.reckon``); null and passed-in read
    simpler.

    >>> from engine.contract import Contract
    >>> from engine.scoring import score_suit_grand
    >>> r = score_suit_grand(Contract.parse("C"), bid=18, matador_count=2, points=50,
    ...                      tricks=4, ending="played", declarer=0, kontra=2)
    >>> breakdown_text(r, bock=True)
    'clubs: with 2, game 3 = 3 x 12 = 36, lost x2, Kontra x2, Bock x2 = -288'
    """
    from engine.series import reckon

    if result.passed_in:
        return "passed in: no one wanted to play"
    k = reckon(result, bock)
    contract = result.contract
    name = contract.name if contract is not None else "Ramsch"
    if contract is None or contract.game == GameType.NULL:  # fixed values, no levels
        text = f"{name} = {k.game_value}"
    else:
        parts = ", ".join(f"{'most points' if label == 'ramsch' else label} {count}"
                          for label, count in k.levels)
        value = (f"{k.multiplier} x {k.base} = {k.game_value}" if k.base and k.multiplier
                 else str(k.game_value))
        text = f"{name}: {parts} = {value}" if parts else f"{name} = {value}"
    if k.factors:
        names = {"lost": "lost", "kontra": "Kontra", "re": "Re", "jungfrau": "Jungfrau",
                 "pushed": "pushed", "bock": "Bock"}
        text += ", " + ", ".join(f"{names.get(key, key)} x{factor}"
                                 for key, factor in k.factors) + f" = {k.value:+d}"
    return text


class GameLog:
    """Listener for :class:`firmware_host.series.session.Session` that narrates to ``write``."""

    def __init__(self, write: Callable[[str], None], symbols: bool = True,
                 show_hands: bool = True, verbose: bool = False) -> None:
        self.write = write
        self.symbols = symbols
        self.show_hands = show_hands
        self.verbose = verbose
        self._seen_deal: int | None = None
        self._seen_tricks = 0
        self._seen_result: int | None = None

    def __call__(self, session: Any, inp: Input | None, out: Outcome) -> None:
        table: Table = session.table
        if out.status == "refused" and out.refusal is not None:
            self.write(f"  refused: {out.refusal.reason}")
            return
        if out.status != "accepted":
            return
        d = table.deals[-1]
        finished = d if d.result is not None else None
        if d.game is not None and self._seen_deal != d.number:
            self._seen_deal, self._seen_tricks = d.number, 0
            self._deal(table, d)
        if d.game is not None:
            self._progress(table, d, out)
        elif self.verbose or out.note.startswith("undone"):
            self.write(f"  {out.note}")
        if finished is not None and self._seen_result != d.number:
            self._seen_result = d.number
            self._result(table, d)

    def _deal(self, table: Table, d: DealState) -> None:
        self.write("")
        self.write(f"=== Deal {d.number}: {table.name(d.dealer)} deals ===")
        if not self.show_hands:
            return
        for pos, seat in enumerate(d.seats):
            hand = hand_text(d.game.deal.hands[pos], self.symbols)
            self.write(f"  {table.name(seat):>10} ({ROLES[pos]:<10}) {hand}")
        self.write(f"  {'skat':>10}  {'':<10} {hand_text(d.game.deal.skat, self.symbols)}")

    def _progress(self, table: Table, d: DealState, out: Outcome) -> None:
        game = d.game
        if len(game.tricks) > self._seen_tricks:
            for trick in game.tricks[self._seen_tricks:]:
                self._seen_tricks += 1
                self._trick(table, d, self._seen_tricks, trick)
            return
        if out.note.startswith(tuple(table.names)) and " plays " in out.note:
            if self.verbose:
                self.write(f"  {out.note}")
            return
        if out.note.startswith("card "):
            return
        last = game.actions[-1] if game.actions else None
        if isinstance(last, Discard) and " discards " in out.note:
            card = card_text(last.card, self.symbols)
            self.write(f"  {table.name(d.seats[last.pos])} puts away {card}")
            return
        self.write(f"  {out.note}")

    def _trick(self, table: Table, d: DealState, number: int, trick: Any) -> None:
        cards = []
        for i, card in enumerate(trick.cards):
            seat = d.seats[(trick.leader + i) % 3]
            cards.append(f"{table.name(seat)} {card_text(card, self.symbols)}")
        winner = table.name(d.seats[trick.winner])
        points = mask_points(sum(1 << int(c) for c in trick.cards))
        self.write(f"  trick {number:>2}: {', '.join(cards):<44} -> {winner} (+{points})")

    def _result(self, table: Table, d: DealState) -> None:
        r = d.result
        bock = bool(d.entry is not None and d.entry.bock)
        if r.passed_in:
            self.write("  all passed: the deal is passed in")
        elif r.declarer is None:  # Ramsch (house rule): everyone for themselves
            points = r.ramsch_points or (0, 0, 0)
            each = ", ".join(f"{table.name(d.seats[p])} {points[p]}" for p in range(3))
            losers = " and ".join(table.name(d.seats[p]) for p in r.losers)
            verdict = f"{losers} {'lose' if len(r.losers) > 1 else 'loses'}" if losers else (
                "nobody loses")
            self.write(f"  Ramsch: {each} points; {verdict}")
            if r.durchmarsch is not None:
                self.write(f"  {table.name(d.seats[r.durchmarsch])} took every trick: "
                           "Durchmarsch")
            self.write(f"  {breakdown_text(r, bock)}")
        else:
            who = table.name(d.seats[r.declarer])
            outcome = "wins" if r.won else "loses"
            extra = []
            if r.ending not in ("played",):
                extra.append(r.ending.replace("-", " "))
            if r.schwarz:
                extra.append("schwarz")
            elif r.schneider:
                extra.append("schneider")
            if r.overbid:
                extra.append(f"overbid (bid {r.bid})")
            more = f" ({', '.join(extra)})" if extra else ""
            if r.contract is not None and r.contract.game == GameType.NULL:
                took = "took no trick" if r.won else "took a trick"
                self.write(f"  {who} {outcome}: {took}{more}")
            else:
                self.write(f"  {who} {outcome} with {r.points} points{more}")
            self.write(f"  {breakdown_text(r, bock)}")
            if d.game.skat_taken:
                self.write(f"  skat was {hand_text(d.game.deal.skat, self.symbols)}, "
                           f"put away {hand_text(d.game.skat, self.symbols)}")
        self.write(sheet_text(table))


def sheet_text(table: Table) -> str:
    """The score sheet so far, one row per deal and the totals."""
    names = table.names
    width = max(6, *(len(n) for n in names))
    head = f"  {'#':>3} {'dealer':<{width}} {'game':<6}" + "".join(
        f" {n:>{width}}" for n in names)
    rows = [head]
    running = [0] * table.n
    for d in table.finished_deals:
        scores = table.deal_scores(d)
        running = [a + b for a, b in zip(running, scores, strict=True)]
        contract = "-" if d.result.passed_in else str(d.result.contract)
        rows.append(f"  {d.number:>3} {table.name(d.dealer):<{width}} {contract:<6}" + "".join(
            f" {t:>{width}}" for t in running))
    rows.append("  " + "-" * (len(head) - 2))
    rows.append(f"  {'':>3} {'total':<{width}} {'':<6}" + "".join(
        f" {t:>{width}}" for t in table.totals()))
    if table.config.table.scoring == "seeger-fabian":
        rows.append(f"  {'':>3} {'S-F':<{width}} {'':<6}" + "".join(
            f" {t:>{width}}" for t in table.seeger_fabian()))
    rows += settlement_lines(table, width)
    return "\n".join(rows)


def money_text(amount: Decimal) -> str:
    """An amount exactly, with at least the two decimals of cents.

    >>> money_text(Decimal("15")), money_text(Decimal("-0.2")), money_text(Decimal("0.005"))
    ('15.00', '-0.20', '0.005')
    """
    if int(amount.as_tuple().exponent) > -2:
        amount = amount.quantize(Decimal("0.01"))
    return str(amount)


def settlement_lines(table: Table, width: int) -> list[str]:
    """The money per seat and who pays whom, when the config sets a stake per point."""
    settled = table.settlement()
    if settled is None:
        return []
    cap = table.series.cap
    note = f"{settled.stake} per point" + (f", a game counts at most {cap}" if cap else "")
    rows = [f"  {'':>3} {'money':<{width}} {'':<6}" + "".join(
        f" {('+' if a > 0 else '') + money_text(a):>{width}}" for a in settled.amounts),
        f"  settlement ({note}):"]
    rows += [f"    {table.name(p.payer)} pays {table.name(p.payee)} {money_text(p.amount)}"
             for p in settled.payments]
    if not settled.payments:
        rows.append("    nobody pays")
    return rows

"""Prizes beyond a share of the pool: fixed amounts and goods per place, and special prizes
(the best game of the evening, the best series, the most games won, the last place, or one
the director awards by hand), read from ``[[prizes]]`` in the config.

```toml
[[prizes]]
places = "1"                 # a place, or a range "4-10"
amount = "50.00"             # money added to the place's share of the pool
goods = "Präsentkorb"        # and/or goods

[[prizes]]
special = "best-game"        # best-game, best-series, most-won, last-place, director
name = "Bestes Spiel des Abends"
amount = "20.00"
```

Ties: players sharing a place split the fixed amounts of the places they hold, as the pool's
shares (rounded down to the cent), and may choose among the goods of those places. A special
prize won by several players (two games of the same highest value) is split the same way.

>>> r = parse_prizes([{"places": "2-3", "goods": "Wurst"}, {"special": "best-game"}])
Traceback (most recent call last):
...
ValueError: [[prizes]] 2 (best-game): gives nothing: say amount or goods
>>> r = parse_prizes([{"places": "2-3", "goods": "Wurst"},
...                   {"special": "best-game", "amount": "20"}])
>>> r.places[0].first, r.places[0].last, r.specials[0].name
(2, 3, 'Bestes Spiel des Abends')
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from decimal import ROUND_DOWN, Decimal, InvalidOperation
from typing import Any

from club.i18n import N_, Translator, translator

# (the default name, the rule in words: a message id, shown in the club's language)
SPECIALS = {
    "best-game": ("Bestes Spiel des Abends",
                  N_("the highest value of a game won (counted, not annulled)")),
    "best-series": ("Beste Serie", N_("the best Seeger-Fabian result of a single series")),
    "most-won": ("Meiste gewonnene Spiele", N_("the most games won as declarer")),
    "last-place": ("Trostpreis", N_("the last place of the ranking")),
    "director": ("Sonderpreis", N_("awarded by the director on the prizes page")),
}
MAX_GOODS = 120
CENT = Decimal("0.01")


@dataclass(frozen=True)
class PlacePrize:
    first: int
    last: int
    amount: Decimal = Decimal(0)
    goods: str = ""


@dataclass(frozen=True)
class SpecialPrize:
    kind: str
    name: str
    amount: Decimal = Decimal(0)
    goods: str = ""

    @property
    def rule(self) -> str:
        return SPECIALS[self.kind][1]


@dataclass(frozen=True)
class PrizeRules:
    places: tuple[PlacePrize, ...] = ()
    specials: tuple[SpecialPrize, ...] = ()

    def for_place(self, place: int) -> PlacePrize | None:
        return next((p for p in self.places if p.first <= place <= p.last), None)


def parse_prizes(items: Any) -> PrizeRules:
    """``[[prizes]]`` of the config; a wrong entry raises ``ValueError`` naming it."""
    if not isinstance(items, list):
        raise ValueError("[[prizes]] must be a list of tables ([[prizes]] headings)")
    places: list[PlacePrize] = []
    specials: list[SpecialPrize] = []
    for i, d in enumerate(items, start=1):
        where = f"[[prizes]] {i}"
        if not isinstance(d, dict):
            raise ValueError(f"{where}: must be a table")
        unknown = sorted(set(d) - {"places", "special", "name", "amount", "goods"})
        if unknown:
            raise ValueError(f"{where}: unknown key {unknown[0]!r}; use places or special, "
                             "name, amount, goods")
        if ("places" in d) == ("special" in d):
            raise ValueError(f"{where}: say either places (\"1\", \"4-10\") or special "
                             f"({', '.join(SPECIALS)})")
        amount = _amount(d.get("amount", "0"), where)
        goods = d.get("goods", "")
        if not isinstance(goods, str) or len(goods) > MAX_GOODS:
            raise ValueError(f"{where}: goods: a text of at most {MAX_GOODS} characters")
        if "places" in d:
            first, last = _places(d["places"], where)
            if not amount and not goods:
                raise ValueError(f"{where} (places {d['places']}): gives nothing: say amount "
                                 "or goods")
            for p in places:
                if first <= p.last and p.first <= last:
                    raise ValueError(f"{where}: places {first}-{last} overlap places "
                                     f"{p.first}-{p.last} of an earlier entry")
            places.append(PlacePrize(first, last, amount, goods.strip()))
            continue
        kind = d["special"]
        if kind not in SPECIALS:
            raise ValueError(f"{where}: special {kind!r} is unknown; use "
                             f"{', '.join(SPECIALS)}")
        name = d.get("name", SPECIALS[kind][0])
        if not isinstance(name, str) or not name.strip() or len(name) > 80:
            raise ValueError(f"{where}: name: a text of 1..80 characters")
        if not amount and not goods:
            raise ValueError(f"{where} ({kind}): gives nothing: say amount or goods")
        if any(s.name == name.strip() for s in specials):
            raise ValueError(f"{where}: a special prize called {name!r} is there already: "
                             "give each its own name")
        specials.append(SpecialPrize(kind, name.strip(), amount, goods.strip()))
    return PrizeRules(tuple(sorted(places, key=lambda p: p.first)), tuple(specials))


def _amount(v: Any, where: str) -> Decimal:
    try:
        m = Decimal(str(v))
    except (InvalidOperation, ValueError):
        raise ValueError(f"{where}: amount {v!r} is not an amount") from None
    if not m.is_finite() or m < 0:
        raise ValueError(f"{where}: amount {v!r} must be zero or more")
    return m


def _places(v: Any, where: str) -> tuple[int, int]:
    if isinstance(v, int) and not isinstance(v, bool):
        v = str(v)
    m = re.fullmatch(r"\s*(\d{1,4})\s*(?:-\s*(\d{1,4})\s*)?", v) if isinstance(v, str) else None
    if not m:
        raise ValueError(f"{where}: places {v!r}: a place (\"1\") or a range (\"4-10\")")
    first = int(m.group(1))
    last = int(m.group(2) or first)
    if not 1 <= first <= last:
        raise ValueError(f"{where}: places {v!r}: from place 1 on, the first before the last")
    return first, last


# --- the prize list of an evening -------------------------------------------------------------


@dataclass(frozen=True)
class PlaceLine:
    """A ranked player's prizes: his share of the pool, the fixed amount and the goods of his
    place (``shared`` players hold the same place and split them)."""

    place: int
    player: str
    name: str
    share: Decimal
    fixed: Decimal
    goods: tuple[str, ...]
    shared: int

    @property
    def money(self) -> Decimal:
        return self.share + self.fixed


@dataclass(frozen=True)
class SpecialLine:
    """A special prize and who won it (nobody yet: no winner, or not awarded yet)."""

    prize: SpecialPrize
    winners: tuple[tuple[str, str], ...]
    detail: str
    each: Decimal


def place_lines(rows: Sequence[Any], rules: PrizeRules) -> list[PlaceLine]:
    """The ranking's players who get something, best first. ``rows`` carry the pool share
    (``prize``) already split among equal places."""
    from club.scoring import share_prizes

    last = max((p.last for p in rules.places), default=0)
    fixed_by_place = [(rules.for_place(k) or PlacePrize(k, k)).amount
                      for k in range(1, last + 1)]
    fixed = share_prizes([replace(r, prize=Decimal(0)) for r in rows], fixed_by_place)
    out = []
    i = 0
    while i < len(rows):
        j = i
        while j < len(rows) and rows[j].place == rows[i].place:
            j += 1
        goods = tuple(p.goods for k in range(i + 1, j + 1)
                      if (p := rules.for_place(k)) is not None and p.goods)
        for r, f in zip(rows[i:j], fixed[i:j], strict=True):
            if r.prize or f.prize or goods:
                out.append(PlaceLine(r.place, r.player, r.name, Decimal(r.prize),
                                     Decimal(f.prize), goods, j - i))
        i = j
    return out


def special_lines(rows: Sequence[Any], games: Iterable[Any], rules: PrizeRules,
                  awards: dict[str, dict[str, str]], tr: Translator | None = None
                  ) -> list[SpecialLine]:
    """Who wins each special prize, from the ranking ``rows`` (players taking part) and the
    counted ``games``; ``awards``: the director's choices by prize name; ``tr``: the
    language of the details (English unless given)."""
    _ = tr or translator("en")
    names = {r.player: r.name for r in rows}
    played = [g for g in games if not g.annulled]
    out = []
    for prize in rules.specials:
        winners: list[str] = []
        detail = ""
        if prize.kind == "best-game":
            won = [g for g in played if g.declarer is not None and g.won]
            best = max((g.value for g in won), default=None)
            tops = [g for g in won if g.value == best]
            winners = list(dict.fromkeys(g.players[g.declarer] for g in tops))
            detail = "; ".join(
                _("%(contract)s %(value)s (series %(series)s, table %(table)s, game "
                  "%(game)s)") % {"contract": _.contract(g.contract, False),
                                  "value": f"{g.value:+d}", "series": g.series,
                                  "table": g.table, "game": g.game} for g in tops)
        elif prize.kind == "best-series":
            sums: dict[tuple[str, int], int] = {}
            for g in played:
                for seat, pid in enumerate(g.players):
                    sums[(pid, g.series)] = sums.get((pid, g.series), 0) + g.sf[seat]
            best = max(sums.values(), default=None)
            tops2 = sorted(k for k, v in sums.items() if v == best)
            winners = list(dict.fromkeys(pid for pid, _s in tops2))
            detail = "; ".join(_("series %(series)s: %(total)s") % {"series": s, "total": best}
                               for _pid, s in tops2)
        elif prize.kind == "most-won":
            best = max((r.won for r in rows), default=0)
            if best:
                winners = [r.player for r in rows if r.won == best]
                detail = _.ngettext("%(num)s game won", "%(num)s games won",
                                    best) % {"num": best}
        elif prize.kind == "last-place" and len(rows) > 1:
            last = rows[-1].place
            winners = [r.player for r in rows if r.place == last]
            detail = _("place %(place)s, %(total)s") % {"place": last,
                                                         "total": rows[-1].total}
        elif prize.kind == "director":
            award = awards.get(prize.name)
            if award is not None and award["player"] in names:
                winners = [award["player"]]
                detail = award["reason"]
        winners = [w for w in winners if w in names]
        each = (prize.amount / len(winners)).quantize(CENT, ROUND_DOWN) if winners else \
            Decimal(0)
        out.append(SpecialLine(prize, tuple((w, names[w]) for w in winners), detail, each))
    return out


def prize_list(service: Any) -> tuple[list[PlaceLine], list[SpecialLine]]:
    """The evening's prize list: by place, then the special prizes."""
    rows = service.ranking()
    rules = service.config.prize_rules
    return (place_lines(rows, rules),
            special_lines(rows, service.games(), rules, service.store.awards(),
                          translator(service.config.language)))


def award(service: Any, prize: str, player: str, who: str, reason: str = "") -> None:
    """The director gives a ``director`` special prize to a player taking part (an empty
    ``player`` takes it back). Raises ``ValueError`` in the director's words."""
    rules = service.config.prize_rules
    if not any(s.kind == "director" and s.name == prize for s in rules.specials):
        raise ValueError(f"there is no special prize {prize[:80]!r} to award by hand")
    if not player:
        service.store.set_award(prize, None, who)
    else:
        if player not in {r.player for r in service.ranking()}:
            raise ValueError(f"player {player[:64]!r} does not take part in the evening")
        service.store.set_award(prize, player, who, reason.strip()[:200])
    service.register_done()    # the pages show it at once


def money(d: Decimal) -> str:
    return f"{d:,.2f}"


def pdf_section(pdf: Any, service: Any, new_page: bool = True) -> bool:
    """The prize list as a section of a PDF; False when nothing is configured."""
    from fpdf.enums import XPos, YPos

    pool, shares = service.prizes()
    lines, specials = prize_list(service)
    if not lines and not specials:
        return False
    _ = pdf.tr
    if new_page:
        pdf.add_page()
    pdf.font(14, True)
    pdf.cell(0, 9, pdf.text_(_("Prize list")), new_x=XPos.LMARGIN, new_y=YPos.NEXT)
    pdf.font(9)
    if shares:
        pdf.cell(0, 5, pdf.text_(_("Prize pool %(pool)s") % {"pool": money(pool)}),
                 new_x=XPos.LMARGIN, new_y=YPos.NEXT)
    cols = [(_("Place"), 12, "R"), (_("Name"), 56, "L"), (_("Pool share"), 20, "R"),
            (_("Fixed"), 20, "R"), (_("Money"), 20, "R"), (_("Goods"), 58, "L")]
    pdf.set_fill_color(230, 238, 234)
    # names and column heads set whole, as on the ranking (never cut with an ellipsis)
    pdf.row(cols, bold=True, fill=True, names=tuple(range(len(cols))))
    for p in lines:
        goods = ((" " + _("or") + " ").join(p.goods) if p.shared > 1 else ", ".join(p.goods))
        pdf.row([(f"{p.place}.", 12, "R"), (p.name, 56, "L"),
                 (money(p.share) if p.share else "", 20, "R"),
                 (money(p.fixed) if p.fixed else "", 20, "R"), (money(p.money), 20, "R"),
                 (goods, 58, "L")], names=(1, 5))
    if specials:
        pdf.ln(3)
        pdf.font(11, True)
        pdf.cell(0, 7, pdf.text_(_("Special prizes")), new_x=XPos.LMARGIN, new_y=YPos.NEXT)
        for s in specials:
            who = ", ".join(n for _pid, n in s.winners) or _("open")
            gift = " + ".join(x for x in (money(s.each) if s.prize.amount else "",
                                          s.prize.goods) if x)
            pdf.font(9)
            pdf.multi_cell(0, 5, pdf.text_(f"{s.prize.name}: {who} · {gift}"
                                           + (f" · {s.detail}" if s.detail else "")),
                           new_x=XPos.LMARGIN, new_y=YPos.NEXT)
    return True

"""The sentences of the screens: refusals in the players' words, the value of a game as
players count it, names as shown. Pure functions of the view's values and a translator.
"""

from __future__ import annotations

import re

from engine.cards import Card

from .i18n import Translator, _n
from .view import Fault, ResultView

NAME_CHARS = 14


def short_name(name: str) -> str:
    """``short_name("Maximilian-Alexander") == "Maximilian-Al…"``."""
    name = " ".join(name.split()) or "?"
    return name if len(name) <= NAME_CHARS else name[:NAME_CHARS - 1].rstrip() + "…"


def money(amount: float, language: str) -> str:
    """``+1.90`` in English, ``+1,90`` in the languages that write a decimal comma."""
    text = f"{amount:+.2f}"
    return text if language == "en" else text.replace(".", ",")


def press_word(press: str, tr: Translator) -> str:
    _ = tr
    return {"bid": _("Bid"), "yes": _("Yes"), "pass": _("Pass"), "skat": _("Take the skat"),
            "concede": _("Concede"), "kontra": _("Kontra"), "re": _("Re"),
            "undo": _("Undo"), "claim": _("Claim the rest"), "agree": _("Agree"),
            "disagree": _("Disagree"), "enforce": _("End the game"),
            "play-on": _("Play on")}.get(press, press)


def factor_words(factors: tuple[tuple[str, int], ...], tr: Translator) -> list[str]:
    """Each factor a game's value is multiplied by, named: ``["verloren ×2", "Kontra ×2",
    "Bock ×2"]`` (the keys of ``engine.series.FACTOR_KEYS``)."""
    _ = tr
    labels = {"lost": _("lost ×{n}"), "kontra": _("Kontra ×{n}"), "re": _("Re ×{n}"),
              "jungfrau": _("Jungfrau ×{n}"), "pushed": _("pushed ×{n}"),
              "bock": _("Bock ×{n}")}
    # a factor stays on one line with its name: "verloren ×2", never "verloren" / "×2"
    return [labels.get(k, k + " ×{n}").format(n=n).replace(" ×", "\u00a0×")
            for k, n in factors]


def breakdown_text(r: ResultView, tr: Translator) -> str:
    """The value as players count it, ending in what the sheet books:
    ``mit 2 · Spiel 3 · Schneider 4 — 12 × 4 = 48``, and with factors
    ``mit 2 · Spiel 3 — 12 × 3 = 36 · Kontra ×2 · Bock ×2 = +144``.

    The level keys are those of ``engine.scoring.GameResult.breakdown``; the factors and the
    game value are the sheet's own reckoning (``engine.series.reckon``).
    """
    _ = tr
    labels = {"with": _("with {n}"), "without": _("without {n}"), "game": _("game {n}"),
              "hand": _("hand {n}"), "schneider": _("schneider {n}"),
              "schneider_announced": _("schneider announced {n}"),
              "schwarz": _("schwarz {n}"), "schwarz_announced": _("schwarz announced {n}"),
              "ouvert": _("ouvert {n}"), "overbid": _("overbid: counted {n}"),
              "durchmarsch": _("Durchmarsch {n}"), "ramsch": _("most points {n}")}
    if r.contract and r.contract[0] == "N":
        text = _("Null value {value}").format(value=r.game_value or r.base_value
                                               or abs(r.value))
    else:
        text = " · ".join(labels.get(k, k + " {n}").format(n=n) for k, n in r.breakdown)
        if r.base_value and r.multiplier and (not r.contract or r.contract[0] != "R"):
            text += f" — {r.base_value} × {r.multiplier} = {r.base_value * r.multiplier}"
    if r.factors:
        # "= -332" kept on one line: the figure the sheet books, as the headline says it
        text = " · ".join([text, *factor_words(r.factors, tr)]) + f" =\u00a0{r.value:+d}"
    return text


def game_level(r: ResultView) -> int:
    """The multiplier the game reached by itself (before an overbid and Kontra)."""
    levels = [n for k, n in r.breakdown if k != "overbid"]
    return max(levels, default=r.multiplier or 0)


def result_notes(r: ResultView, tr: Translator) -> list[str]:
    _ = tr
    notes = []
    if r.bock_next:  # first, the screen may have room for one note only: the next deal
        # (and those after it) count double, said before it starts
        notes.append(tr.ngettext("Bock: the next game counts double",
                                 "Bock: the next {n} games count double",
                                 r.bock_next).format(n=r.bock_next))
    if r.overbid:
        game_value = (r.base_value or 0) * game_level(r)
        notes.append(_("Overbid: bid {bid}, the game is worth only {value}").format(
            bid=r.bid, value=game_value))
        if r.base_value:
            reached = -(-r.bid // r.base_value) * r.base_value
            notes.append(_("It counts {value}: the smallest multiple of {base} that reaches "
                           "the bid").format(value=reached, base=r.base_value))
    if not r.won and r.value and r.declarer is not None:  # Ramsch losses are not doubled
        notes.append(_("A lost game counts double"))
    if r.schwarz:
        notes.append(_("Schwarz"))
    elif r.schneider:
        notes.append(_("Schneider"))
    endings = {"null-trick": _("The declarer took a trick in null"),
               "schwarz-lost": _("The defenders took a trick"),
               "declarer-conceded": _("The declarer conceded"),
               "defenders-conceded": _("The defenders conceded"),
               "claimed": _("The declarer's claim was agreed"),
               "defenders-claimed": _("The defenders claimed the rest"),
               "defenders-claim-failed": _(
                   "The defenders' claim failed: every remaining trick to the declarer"),
               "declarer-violation": _("The declarer broke a rule"),
               "defenders-violation": _("A defender broke a rule")}
    if r.ending in endings:
        notes.append(endings[r.ending])
    return notes


# The controller's reasons (English, for logs and scripts) that the screens say in the table's
# language: pattern -> message. Groups named ``card``/``prompt`` are cards (said in words).
DETAILS: tuple[tuple[re.Pattern[str], str], ...] = tuple((re.compile(p), m) for p, m in (
    (r"^there is nothing to undo$", _n("There is nothing to undo")),
    (r"^the series is over$", _n("The series is over")),
    (r"^the game is over: deal the next one( over the deal reader)?$",
     _n("The game is over. Deal the next one over the deal reader")),
    (r"^bidding is on: no card is laid now$", _n("The bidding is on: no card is laid now")),
    (r"^(?P<name>.+) takes up the skat or declares a hand game first: no card is laid now$",
     _n("{name} takes up the skat or declares a hand game first")),
    (r"^(?P<name>.+) \(computer\) (plays|puts away) (?P<prompt>[CSHD][789TJQKA]): please lay "
     r"[CSHD][789TJQKA]$", _n("The computer ({name}) chose {prompt}. Please lay that card")),
    (r"^the cards are still being dealt \((?P<n>\d+) of 32\)$",
     _n("The cards are still being dealt ({n} of 32)")),
    (r"^Kontra and Re are not played at this table$", _n("Kontra and Re are not played here")),
    (r"^the bidding is over$", _n("The bidding is over")),
    (r"^the bidding is not over$", _n("The bidding is not over yet")),
    (r"^the skat has already been taken up$", _n("The skat has already been taken up")),
    (r"^the skat cannot be taken up during play$", _n("The skat cannot be taken up now")),
    (r"^a game can be conceded only during play$", _n("A game can be conceded only during play")),
    (r"^(?P<card>[CSHD][789TJQKA]) has already been played in trick (?P<n>\d+)$",
     _n("{card} was played in trick {n}")),
    (r"^(?P<card>[CSHD][789TJQKA]) lies in the skat$", _n("{card} lies in the skat")),
    (r"^(?P<name>.+) deals and sits out this game$", _n("{name} deals and sits out this game")),
    (r"^(?P<other>.+) is the declarer, not (?P<name>.+)$", _n("{other} is the declarer")),
    (r"^(?P<name>.+) lays the (discards|pushed cards) on the skat reader$",
     _n("{name} lays the cards away on the skat reader")),
    (r"^deal (?P<card>[CSHD][789TJQKA]) over the deal reader, not on \w+$",
     _n("Deal {card} over the deal reader")),
    (r"^(?P<whose>.+) already has all (?P<n>\d+) cards$", _n("{whose} has all cards already")),
    # A claim the rules do not take (the engine's reason after the claimant's name).
    (r"^(?P<name>.+): the defenders already have a trick: schwarz cannot be claimed$",
     _n("The defenders have taken a trick: schwarz cannot be claimed")),
    (r"^(?P<name>.+): the defenders already have (?P<n>\d+) points: schneider cannot be "
     r"claimed$", _n("The defenders have {n} points: schneider cannot be claimed")),
    (r"^(?P<name>.+): a null game has no schneider or schwarz to claim$",
     _n("A null game has no schneider or schwarz to claim")),
))


def refusal_detail(fault: Fault, tr: Translator) -> str:
    """The controller's reason in the table's language; "" when the sentence above it says it
    all already, or when there are no words for it in this language (never English words
    under a German sentence)."""
    if fault.kind in ("revoke", "out-of-turn", "bid-not-higher", "bid-not-legal",
                      "already-dealt", "short-deal", "duplicate-tag", "confirm-twice",
                      "confirm-not-now", "confirm-stranger", "confirm-off"):
        return ""
    if fault.kind == "storage":
        _ = tr
        if fault.card is not None:
            return _("Pick the card up. The table goes on by itself when the storage works "
                     "again")
        return _("The table goes on by itself when the storage works again")
    text = fault.detail.strip()
    for pattern, message in DETAILS:
        m = pattern.match(text)
        if m is None:
            continue
        words = {k: short_name(v) for k, v in m.groupdict().items()}
        for k in ("card", "prompt"):
            if k in words:
                words[k] = tr.card(Card.parse(m.group(k)))
        return tr(message).format(**words)
    return text if tr.code == "en" else ""


def follow_hint(fault: Fault, tr: Translator) -> str:
    _ = tr
    return _("Play one of these:") if fault.follow_with else ""


def fault_sentence(fault: Fault, tr: Translator, players: tuple[str, ...]) -> str:
    """The refusal in the players' words and language."""
    _ = tr

    def nm(seat: int | None) -> str:
        return short_name(players[seat]) if seat is not None and 0 <= seat < len(players) \
            else "?"

    card = tr.card(fault.card) if fault.card is not None else ""
    k = fault.kind
    if k == "revoke":
        suit = tr.suit(fault.suit) if fault.suit else ""
        return _("{name} must follow {suit}").format(name=nm(fault.seat), suit=suit)
    if k == "out-of-turn":
        return _("It is {other}'s turn, not {name}'s").format(other=nm(fault.other_seat),
                                                             name=nm(fault.seat))
    if k == "wrong-pad":
        return _("{card} belongs to another player's pad").format(card=card)
    if k == "not-in-hand":
        return _("{name} does not hold {card}").format(name=nm(fault.seat), card=card)
    if k == "foreign-tag":
        return _("This tag is not a card of this deck")
    if k == "confirm-not-opponent":  # a club's result: the declarer's opponents confirm it
        return _("{name} does not confirm this game").format(name=nm(fault.seat))
    if k == "confirm-twice":
        return _("{name} has already confirmed").format(name=nm(fault.seat))
    if k == "confirm-not-now":
        return _("There is no result to confirm now")
    if k == "confirm-stranger":
        return _("This player tag belongs to no one at this table")
    if k == "confirm-off":
        return _("Results are not confirmed at this table")
    if k == "already-dealt":
        return _("{card} has already been dealt").format(card=card)
    if k == "duplicate-tag":
        return _("This tag is already stored as {card}").format(card=card)
    if k == "short-deal":
        return _("The deal is short: {n} of 32 cards").format(n=fault.value or 0)
    if k == "bid-not-higher":
        return _("{value} is not higher than the bid {current}").format(
            value=fault.value, current=fault.other_value)
    if k == "bid-not-legal":
        return _("{value} is not a Skat bid").format(value=fault.value)
    if k == "contract-refused":
        return _("This game cannot be declared now")
    if k == "reader-down":
        if fault.zone and "/" in fault.zone:
            # a serial board is known by its port (/dev/serial/by-path/..., 60 characters
            # and more): the players need to know which thing to look at, not its path
            return _("The reader board is not answering")
        return _("Reader {zone} is not answering").format(zone=zone_name(fault.zone, tr,
                                                                          players))
    if k == "computer-seat":  # value: a card laid before the computer chose one
        if fault.value:
            return _("{name} is played by the computer: wait for its card").format(
                name=nm(fault.seat))
        return _("{name} is played by the computer: it decides for itself").format(
            name=nm(fault.seat))
    if k == "storage":
        return {"full": _("Not saved: the storage is full"),
                "read-only": _("Not saved: the storage is read-only")}.get(
            fault.zone or "", _("Not saved: the storage is failing"))
    if k == "journal":
        return {"full": _("The storage is full: nothing is taken until it works again"),
                "read-only": _("The storage is read-only: nothing is taken until it works "
                               "again"),
                "failing": _("The storage is failing: nothing is taken until it works again"),
                "copy": _("The journal's second copy cannot be written: the game is saved "
                          "in the first")}.get(fault.zone or "",
                                               _("The journal cannot be written"))
    if k == "journal-restored":
        if fault.other_value is None:
            return _("Journal damaged: restored to game {game}; later inputs may be lost"
                     ).format(game=fault.value)
        if fault.other_value:
            return _("Journal damaged: restored to game {game}; the last {n} inputs are lost"
                     ).format(game=fault.value, n=fault.other_value)
        if fault.zone == "missing":
            return _("Journal damaged: restored to game {game}; the other copy is missing, "
                     "later inputs may be lost").format(game=fault.value)
        if fault.zone == "unreadable":
            return _("Journal damaged: restored to game {game}; the other copy cannot be read, "
                     "later inputs may be lost").format(game=fault.value)
        return _("Journal damaged: restored to game {game}; nothing was lost").format(
            game=fault.value)
    return refusal_detail(fault, tr) or _("Not allowed")


def standing_sentence(fault: Fault, tr: Translator, players: tuple[str, ...]) -> str:
    """A standing fault as the top bar's pill says it: a loss report (a repaired journal,
    to confirm) in a few words (its whole sentence is in the kiosk's notice dialog), the
    others as :func:`fault_sentence`."""
    _ = tr
    if fault.kind == "journal-restored" and fault.notice is not None:
        return _("Journal restored: tap to read")
    if fault.kind == "journal" and fault.zone in ("full", "read-only", "failing", "copy"):
        # the pill's few words (the whole sentence was cut at 800x480 in every language,
        # seen in the twin); a card laid meanwhile is refused with what to do, and
        # systemctl status has the whole sentence
        return {"full": _("Storage full"), "read-only": _("Storage read-only"),
                "copy": _("Journal copy failing")}.get(fault.zone, _("Storage failing"))
    return fault_sentence(fault, tr, players)


def zone_name(zone: str | None, tr: Translator, players: tuple[str, ...]) -> str:
    _ = tr
    if zone and zone.startswith("seat") and zone[4:].isdigit():
        seat = int(zone[4:])
        if seat < len(players):
            return _("at {name}'s seat").format(name=short_name(players[seat]))
    return {"deal": _("deal"), "centre": _("centre"), "skat": _("skat")}.get(zone or "",
                                                                              zone or "?")

"""The computer says why: one short reason under its bid limit, its declaration and its
Kontra/Re, in the players' language.

The controller makes them from ``engine.players.reasons`` (that seat's own cards and the
counts its evaluation used) where the config turns them on (``[computer] reasons``), and
gives a bid limit only once no person can use it in the bidding.

>>> from display.i18n import translator
>>> r = ReasonView(seat=2, kind="limit", game="C", limit=36, matadors=2, hand=True)
>>> reason_sentence(r, lambda seat: "Carla", translator("de"))
'Carla — bis 36: Kreuz mit 2, Hand'
>>> r = ReasonView(seat=2, kind="limit", game="S", limit=22, matadors=-1, passed_at=27)
>>> reason_sentence(r, lambda seat: "Carla", translator("en"))
'Carla passes at 27 — up to 22: spades without 1'
>>> r = ReasonView(seat=1, kind="double", game="C", contract="C", call="kontra", trumps=3,
...                aces=2)
>>> reason_sentence(r, lambda seat: "Ben", translator("de"))
'Ben — Kontra: 3 Trümpfe und 2 Asse gegen Kreuz'
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, fields
from typing import Any

from .i18n import Translator

KINDS = ("limit", "game", "double")
GAME_LETTERS = "CSHDGN"


@dataclass(frozen=True)
class ReasonView:
    """Why the computer at table seat ``seat`` did it (the facts of
    ``engine.players.reasons.Reason``, its game as a letter of ``CSHDGN``)."""

    seat: int
    kind: str
    game: str | None = None
    contract: str | None = None
    limit: int | None = None
    passed_at: int | None = None
    matadors: int | None = None
    hand: bool = False
    trumps: int | None = None
    jacks: int | None = None
    aces: int | None = None
    unsafe: int | None = None
    call: str | None = None


def from_reason(seat: int, r: Any) -> ReasonView:
    """The view of an ``engine.players.reasons.Reason`` for table seat ``seat``."""
    facts = {f.name: getattr(r, f.name) for f in fields(ReasonView)
             if f.name not in ("seat", "game")}
    return ReasonView(seat=seat, game=None if r.game is None else GAME_LETTERS[r.game],
                      **facts)


def reason_sentence(r: ReasonView, name_of: Callable[[int], str], tr: Translator) -> str:
    """The reason as one line: who, what, why."""
    _ = tr
    name = name_of(r.seat)
    if r.kind == "limit":
        why = _limit_words(r, tr)
        if r.passed_at is not None:
            who = _("{name} passes at {value}").format(name=name, value=r.passed_at)
            return f"{who} — {why}"
        return f"{name} — {why}"
    if r.kind == "game":
        return f"{name} — {tr.contract(r.contract or '', short=True)}: {_game_facts(r, tr)}"
    return f"{name} — {_double_words(r, tr)}"


def _limit_words(r: ReasonView, tr: Translator) -> str:
    _ = tr
    if not r.limit or r.game is None:
        return _("the hand is too weak to bid")
    if r.game == "N":
        game = tr.contract("NH" if r.hand else "N")
    else:
        m = r.matadors or 0
        game = (_("{game} with {n}") if m > 0 else _("{game} without {n}")).format(
            game=_game_word(r.game, tr), n=abs(m))
        if r.hand:
            game = _("{game}, hand").format(game=game)
    return _("up to {limit}: {game}").format(limit=r.limit, game=game)


def _game_word(letter: str, tr: Translator) -> str:
    """A game as said in a sentence: a suit as the noun ("spades"), grand and null by name."""
    return tr.suit(letter) if letter in "CSHD" else tr.game(letter)


def _counts(r: ReasonView, tr: Translator) -> list[str]:
    """The counts that carry the game (a count of none is left out)."""
    _ = tr
    out = []
    if r.jacks:
        out.append(tr.ngettext("{n} jack", "{n} jacks", r.jacks).format(n=r.jacks))
    if r.trumps:
        out.append(tr.ngettext("{n} trump", "{n} trumps", r.trumps).format(n=r.trumps))
    if r.aces:
        out.append(tr.ngettext("{n} ace", "{n} aces", r.aces).format(n=r.aces))
    if r.unsafe is not None:
        out.append(_("no dangerous suit") if not r.unsafe else tr.ngettext(
            "only {n} dangerous suit", "only {n} dangerous suits", r.unsafe).format(n=r.unsafe))
    return out


def _game_facts(r: ReasonView, tr: Translator) -> str:
    _ = tr
    facts = _counts(r, tr)
    if r.hand:
        facts.append(_("strong enough without the skat"))
    return ", ".join(facts)


def _double_words(r: ReasonView, tr: Translator) -> str:
    _ = tr
    counts = _counts(r, tr)
    game = _game_word(r.game or "G", tr)
    if r.call == "re":
        return _("Re: {facts}").format(facts=", ".join(counts)) if counts else _(
            "Re: the deals tried say {game} wins").format(game=game)
    if not counts:
        return _("Kontra: the deals tried say {game} loses too often").format(game=game)
    facts = counts[0] if len(counts) == 1 else _("{a} and {b}").format(
        a=", ".join(counts[:-1]), b=counts[-1])
    return _("Kontra: {facts} against {game}").format(facts=facts, game=game)


def reasons_text(b: Any, x: float, y: float, w: float, h: float, size: float = 18,
                 kinds: tuple[str, ...] = KINDS) -> float:
    """The reasons of ``kinds``, in that order, from the top of the box (x, y, w, h), each
    on as many lines (up to three) as it needs at ``size``, while the box has room: a reason
    that does not fit is left out, never drawn over what is below. Returns the height used."""
    from .layout import MUTED

    f = b.f
    used = 0.0
    line = size * 1.3
    for r in [r for kind in kinds for r in b.v.reasons if r.kind == kind]:
        text = reason_sentence(r, b.name, b.tr)
        n = next((n for n in (1, 2, 3) if f.fit_wrapped(
            text, "sans", f.r(x, y, w, n * line), f.px(size), f.px(size))[2]), None)
        if n is None or used + n * line > h:
            continue
        f.text(x, y + used, w, n * line, text, size=size, colour=MUTED,
               role="computer-reason", wrap=n > 1, align="left")
        used += n * line + 2
    return used

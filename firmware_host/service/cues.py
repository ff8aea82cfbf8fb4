"""Which sound an accepted input makes: a card laid, a trick taken, a game won or lost.

:class:`SoundCues` listens to the session (``Session.listeners``), so the computer's own
moves (its cards in the simulator, its answer to a claim) sound as a person's do. A refusal
sounds where the event loop sounds the buzzer (``EventLoop.sound``), which knows a double
tap's second card from a refused one. Won or lost is said from the people's side: where every
person at the deal sits on one side (one person against the computer, or people defending
against a computer), that side's result; where people sit on both sides, the declarer's. In a
Ramsch it is lost when a person is among its losers.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from firmware_host.table.inputs import Input, TagLaid

# The phases in which a card laid (not dealt) is a card played, discarded or pushed.
LAYING = ("play", "discard", "pushing")
DONE = ("scored", "over")

Moment = tuple[int, str, int]  # (deal number, phase, tricks complete in it)


def moment(table: Any) -> Moment:
    game = table.game if table.phase not in ("dealing", *DONE) else None
    return (table.deal.number, table.phase, len(game.tricks) if game is not None else 0)


def cue_for(before: Moment, after: Moment, inp: Input | None, session: Any) -> str | None:
    """The sound for an accepted input that moved the table from ``before`` to ``after``."""
    same_deal = before[0] == after[0]
    if same_deal and before[1] not in DONE and after[1] in DONE:
        return result_cue(session)
    if isinstance(inp, TagLaid) and inp.zone != "deal" and before[1] in LAYING:
        return "trick" if same_deal and after[2] > before[2] else "card"
    return None


def result_cue(session: Any) -> str | None:
    """``won`` or ``lost`` for the deal just scored (None for one passed in)."""
    table = session.table
    d = table.finished_deals[-1]
    r = d.result
    if r is None or r.passed_in:
        return None
    people = [s for s in d.seats if s not in session.players]
    if r.declarer is None:  # a Ramsch: lost by its losers
        losers = {d.seats[p] for p in r.losers}
        return "lost" if any(p in losers for p in people) else "won"
    declarer = d.seats[r.declarer]
    won = bool(r.won)
    if people and declarer not in people:
        return "lost" if won else "won"  # the people defended
    return "won" if won else "lost"


class SoundCues:
    """A session listener that calls ``play(name)`` for each card, trick and result."""

    def __init__(self, session: Any, play: Callable[[str], None]) -> None:
        self.play = play
        self._before = moment(session.table)

    def __call__(self, session: Any, inp: Input | None, out: Any) -> None:
        before, self._before = self._before, moment(session.table)
        if not out.accepted:
            return
        cue = cue_for(before, self._before, inp, session)
        if cue is not None:
            self.play(cue)

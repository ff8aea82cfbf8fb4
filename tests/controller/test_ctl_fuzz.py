"""Fuzz: random streams of table-script lines, mixed with legal moves so that every phase is
reached. Thousands of inputs; the controller never raises and its invariants hold:

- all 32 cards are accounted for (hands, skat, tricks, current trick: each card exactly once);
- a refused input changes nothing; an undo right after an accepted input restores the state
  exactly;
- the sheet agrees with the engine's results (the declarer's entry is the game value, the
  totals are the column sums);
- the journal replays to the same table;
- the kiosk's view model can be built for every state reached.
"""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

from fullrun import size
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import actions as a
from engine.cards import FULL_DECK, Card
from firmware_host.config import simulated_config
from firmware_host.screen.viewmodel import build_view
from firmware_host.series.journal import Journal
from firmware_host.series.session import Session
from firmware_host.table.gamelog import GameLog
from firmware_host.table.inputs import (
    DeclareInput,
    Input,
    Press,
    ScriptError,
    TagGone,
    TagLaid,
    parse_line,
)
from firmware_host.tools.replay import result_json

CONFIG3 = simulated_config(computer_seats=(), series_length=3)
CONFIG4 = simulated_config(players=("Anna", "Ben", "Carla", "Dieter"), computer_seats=(),
                           series_length=4)
SCENES_OF_PHASE = {
    "dealing": ("deal",), "bidding": ("bidding",), "skat": ("declaration",),
    "discard": ("declaration",), "play": ("play",), "pushing": ("pushing",), "scored": ("result",),
    "over": ("result",),  # the last deal's result; the kiosk goes on to the summary
}
CONFIG_PUB = replace(CONFIG3, table=replace(CONFIG3.table, rules="pub"),
                     house={"kontra_re": True, "ramsch": True, "schieberamsch": True})
ZONES = ("deal", "centre", "skat", "seat0", "seat1", "seat2", "seat3")
PRESSES = ("bid", "yes", "pass", "skat", "undo", "concede", "kontra", "re")


def random_line(tags: list[str]) -> st.SearchStrategy[str]:
    tag = st.one_of(st.sampled_from(tags), st.sampled_from(["04ffeeddccbbaa", "deadbeef"]))
    obj = st.one_of(
        st.builds(lambda z, t: {"zone": z, "tag": t}, st.sampled_from(ZONES), tag),
        st.builds(lambda z, t: {"zone": z, "tag": t, "gone": True}, st.sampled_from(ZONES), tag),
        st.builds(lambda s, p: {"seat": s, "press": p}, st.integers(-1, 4),
                  st.sampled_from(PRESSES)),
        st.builds(lambda s, v: {"seat": s, "press": "bid", "value": v}, st.integers(0, 3),
                  st.one_of(st.integers(0, 300), st.sampled_from([18, 20, 22, 23, 24, 27]))),
        st.builds(lambda s, c: {"seat": s, "declare": c}, st.integers(0, 3),
                  st.sampled_from(["G", "C", "SH", "HHS", "DHSZ", "GO", "N", "NO", "NH", "NOH",
                                   "X", "CS", "GHZ", ""])),
    )
    junk = st.one_of(st.text(max_size=12), st.sampled_from(["[]", "{}", "null", '{"seat": true}']))
    return st.one_of(obj.map(json.dumps), junk)


def legal_inputs(session: Session) -> list[Input]:
    """Inputs that move the table on: the next card of a deal, or a legal engine action."""
    table = session.table
    tags = table.config.card_tags()
    if table.phase in ("dealing", "scored"):
        dealt = set(table.deal.dealt) if table.phase == "dealing" else set()
        return [TagLaid("deal", tags[c]) for c in Card if c not in dealt][:3]
    if table.phase == "over":
        return []
    game, seats = table.game, table.deal.seats
    out: list[Input] = []
    for action in game.legal_actions():
        seat = seats[action.pos]
        if isinstance(action, a.Play):
            out.append(TagLaid("centre", tags[Card(action.card)]))
        elif isinstance(action, a.Discard):
            out.append(TagLaid("skat", tags[Card(action.card)]))
        elif isinstance(action, a.Bid):
            out.append(Press(seat, "bid", action.value))
        elif isinstance(action, a.Hold):
            out.append(Press(seat, "yes"))
        elif isinstance(action, a.Pass):
            out.append(Press(seat, "pass"))
        elif isinstance(action, a.TakeSkat | a.Push):
            out.append(Press(seat, "skat"))
        elif isinstance(action, a.Kontra):
            out.append(Press(seat, "kontra"))
        elif isinstance(action, a.Re):
            out.append(Press(seat, "re"))
        elif isinstance(action, a.Declare):
            out.append(DeclareInput(seat, str(action.contract)))
        elif isinstance(action, a.Concede):
            out.append(Press(seat, "concede"))
    return out


def snapshot(session: Session) -> Any:
    t = session.table
    game = t.game
    return (t.phase, len(t.deals), list(t.deal.dealt), dict(t.deal.owner),
            t.let_go + len(t.stack),
            game.state_key() if game is not None else None, tuple(t.totals()))


def check_cards(session: Session) -> None:
    """Every card is in one hand, one trick, or out of play in the skat; never two places."""
    t = session.table
    d = t.deal
    if d.game is None:
        assert len(set(d.dealt)) == len(d.dealt) <= 32
        assert len(d.owner) <= 32
        return
    game = d.game
    seen = 0
    parts = [game.hand(p) for p in range(3)]
    parts += [sum(1 << int(c) for c in trick.cards) for trick in game.tricks]
    parts.append(sum(1 << int(c) for c in game.trick))
    for m in parts:
        assert not seen & m, "a card is in two places"
        seen |= m
    outside = FULL_DECK & ~seen
    discarded = 0  # a card pushed on twice in Schieberamsch is still one card
    for x in game.actions:
        if isinstance(x, a.Discard):
            discarded |= 1 << int(x.card)
    assert outside & ~(game.deal.skat | discarded) == 0, "a card went missing"
    assert outside.bit_count() <= 2
    if str(game.phase.value) == "play":
        assert outside.bit_count() == 2
        played = sum(len(tr.cards) for tr in game.tricks) + len(game.trick)
        assert seen.bit_count() == 30 and played <= 30


def check_sheet(session: Session) -> None:
    t = session.table
    n = t.n
    totals = [0] * n
    for d in t.finished_deals:
        scores = t.deal_scores(d)
        r = d.result
        if r.passed_in:
            assert scores == [0] * n
        elif r.declarer is None:  # Ramsch: what the engine gives each position
            assert scores == [r.position_values[d.seats.index(seat)] if seat in d.seats else 0
                              for seat in range(n)]
        else:
            assert scores[d.seats[r.declarer]] == r.value
            assert (r.value > 0) == bool(r.won)
        totals = [x + y for x, y in zip(totals, scores, strict=True)]
    assert t.totals() == totals


def run_stream(data: st.DataObject, config: Any, prefer_pass: int = 0) -> None:
    """``prefer_pass`` (0..10): how often, in tenths, a pass is chosen when one is legal (so
    that all-pass deals, and with them Ramsch, come up)."""
    journal = Journal.open(":memory:")
    session = Session(config, journal)
    session.resume()
    narrated: list[str] = []
    game_log = GameLog(narrated.append, verbose=True)
    failures: list[BaseException] = []

    def narrate(*args: Any) -> None:  # the session would only log a failing listener
        try:
            game_log(*args)
        except Exception as exc:
            failures.append(exc)

    session.listeners.append(narrate)
    tags = list(config.card_tags().values())
    lines = random_line(tags)
    for number in range(1, 121):
        before = snapshot(session)
        if data.draw(st.integers(0, 9), label="kind") < 7:
            moves = legal_inputs(session)
            if not moves:
                break
            passes = [m for m in moves if isinstance(m, Press) and m.press == "pass"]
            if passes and data.draw(st.integers(0, 9), label="pass?") < prefer_pass:
                inp: Input | None = passes[0]
            else:
                inp = moves[data.draw(st.integers(0, len(moves) - 1), label="move")]
            assert inp is not None
            if isinstance(inp, TagLaid) and inp.tag in session.table.present.get(inp.zone, ()):
                # A random line left this card lying on the reader: pick it up first.
                session.submit(TagGone(inp.zone, inp.tag), "script", number)
            out = session.submit(inp, "script", number)
            assert out.status == "accepted", (inp, out)
        else:
            text = data.draw(lines, label="line")
            try:
                inp = parse_line(text)
            except ScriptError:
                inp = None
            out = session.submit_text(text, line=number)
        if out.status == "refused":
            assert snapshot(session) == before, out.refusal
        elif (out.status == "accepted" and not (isinstance(inp, Press) and inp.press == "undo")
              and data.draw(st.integers(0, 9), label="undo") == 0):
            assert session.submit(Press(1, "undo"), "script", number).accepted
            assert snapshot(session) == before
        check_cards(session)
        check_sheet(session)
        assert not failures, failures
        view = build_view(session, out.refusal)  # every reachable state can be shown
        assert view.scene in SCENES_OF_PHASE[session.table.phase]
    again = Session(config, journal)
    again.resume(finished_too=True)
    assert result_json(again) == result_json(session)


@settings(max_examples=size(16, 40), deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_fuzz_three_players(data: st.DataObject) -> None:
    run_stream(data, CONFIG3)


@settings(max_examples=size(8, 20), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_fuzz_four_players(data: st.DataObject) -> None:
    run_stream(data, CONFIG4)


@settings(max_examples=size(8, 20), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_fuzz_pub_rules(data: st.DataObject) -> None:
    """Kontra, Re, Ramsch and Schieberamsch in the mix."""
    run_stream(data, CONFIG_PUB, prefer_pass=6)

"""Every value a person sees is what the sheet books, with each factor named.

Random pub-rules series (Kontra, Re, Bock rounds, Ramsch with Jungfrau and Schieberamsch
pushes, concessions) are played through the controller; after every input the screen's view
is built as the kiosk gets it and laid out in English, and each figure on it is checked
against the score sheet: the Bock mark and its count during the deal, the push factor and
Kontra/Re on the play screen, the values the concede question offers (against what the sheet
then books), the result's headline and breakdown (the game value times every named factor
is the value booked), and the sheet's rows, marks and columns.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from tabletop import Tabletop

from display.layout import Element
from display.render import Renderer
from display.scenes import UiState
from engine import actions as a
from engine.series import reckon
from firmware_host.config import simulated_config
from firmware_host.screen.viewmodel import build_view
from firmware_host.series.session import Session
from firmware_host.series.simulated import SimulatedTable
from firmware_host.table.computers import to_move
from firmware_host.table.inputs import Press, TagGone, TagLaid

SIZE = (800, 480)
# Bock rounds come often (a Kontra, a value of 300, 60:60) but not always,
# so that single deals, Bock deals and rounds queued behind rounds all occur.
PUB = {"kontra_re": True, "ramsch": True, "schieberamsch": True,
       "bock": ("kontra", "value:300", "sixty")}
DEAL_SCENES = ("deal", "bidding", "declaration", "pushing", "play")


def pub_config(seed: int, players: int, length: int) -> Any:
    names = ("Anna", "Ben", "Carla", "Dieter")[:players]
    cfg = simulated_config(players=names, computer_seats=(), series_length=length, seed=seed,
                           language="en")
    return replace(cfg, table=replace(cfg.table, rules="pub"), house=PUB)


def texts(elements: list[Element], role: str) -> list[str]:
    """The texts of ``role`` as read (a no-break space keeps "Bock ×2" on one line)."""
    return [e.text.replace("\u00a0", " ") for e in elements if e.role.split(" ")[0] == role]


def one_text(elements: list[Element], role: str) -> str:
    found = texts(elements, role)
    assert len(found) == 1, (role, found)
    return found[0]


class Series:
    """A pub-rules series played at random by people at every seat, its screens checked."""

    def __init__(self, seed: int, players: int, renderer: Renderer, length: int = 7) -> None:
        self.rng = random.Random(seed * 8 + players)
        self.cfg = pub_config(seed, players, length)
        self.session = Session(self.cfg, None, computer_seats=())
        self.sim = SimulatedTable(self.session, self.rng)
        self.tags = self.cfg.card_tags()
        self.renderer = renderer
        self.bock_seen: dict[int, int] = {}   # deal number -> the Bock count shown during it
        self.rendered: set[tuple[int, str]] = set()
        self.offered: int | None = None        # the value the concede question offered
        self.seen = {"bock": 0, "kontra": 0, "re": 0, "pushed": 0, "ramsch": 0,
                     "conceded": 0, "jungfrau": 0, "bock cut at the end": 0}

    @property
    def table(self) -> Any:
        return self.session.table

    def layout(self, view: Any, ui: UiState | None = None) -> list[Element]:
        return self.renderer.layout(view, SIZE, ui)

    def play(self) -> None:
        steps = 0
        while self.table.phase != "over":
            steps += 1
            assert steps < 5000, "the series does not end"
            self.step()
            self.check()

    # ---- the people at the table, at random ----------------------------------------------
    def step(self) -> None:
        t, rng = self.table, self.rng
        if t.phase in ("dealing", "scored"):
            self.sim.deal()
            return
        game = t.game
        acts = [x for x in game.legal_actions()
                if isinstance(x, a.Bid | a.Hold | a.Pass | a.TakeSkat | a.Declare | a.Discard
                              | a.Push | a.Play | a.Kontra | a.Re)]
        doubling = [x for x in acts if isinstance(x, a.Kontra | a.Re)]
        if t.phase == "bidding":
            says = [x for x in acts if isinstance(x, a.Hold)] or sorted(
                (x for x in acts if isinstance(x, a.Bid)), key=lambda x: x.value)[:1]
            # mostly passing: low bids, and every third or so deal all pass (Ramsch)
            action = says[0] if says and game.bid < 30 and rng.random() < 0.4 else next(
                x for x in acts if isinstance(x, a.Pass))
        elif doubling and rng.random() < (0.5 if game.kontra == 2 else 0.15):
            action = rng.choice(doubling)  # a Kontra now and then, answered by Re often
        elif (t.phase == "play" and not game.is_ramsch and game.waiting is None
              and rng.random() < 0.012):
            self.concede(rng.choice((game.declarer, (game.declarer + 1) % 3)))
            return
        elif t.phase == "skat":
            take = [x for x in acts if isinstance(x, a.TakeSkat)]
            action = take[0] if rng.random() < 0.75 else rng.choice(acts)
        else:
            action = rng.choice([x for x in acts if not isinstance(x, a.Kontra | a.Re)])
        seat = t.deal.seats[action.pos]
        move = to_move(action, seat)
        if move.card is not None:
            zone = "centre" if t.phase == "play" else "skat"
            if zone == "skat":  # a pushed card taken up and pushed on is laid there again
                self.session.submit(TagGone(zone, self.tags[move.card]))
            out = self.session.submit(TagLaid(zone, self.tags[move.card]))
        else:
            out = self.session.submit(move.input)
        assert out.status == "accepted", (action, out)

    def concede(self, pos: int) -> None:
        """Open the concede question, read the value it offers for ``pos``, and concede."""
        t = self.table
        seat = t.deal.seats[pos]
        view = build_view(self.session, language="en")
        declarer = pos == t.game.declarer
        value = view.play.concede_values[0 if declarer else 1]
        els = self.layout(view, UiState(confirm="concede"))
        label = one_text(els, "confirm-declarer" if declarer else "confirm-defenders")
        assert value is not None and label.endswith(f"{value:+d}"), (label, value)
        note = texts(els, "confirm-note")
        bock = view.bock > 0
        assert ("Bock ×2" in " ".join(note)) == bock, note
        assert ("Kontra ×2" in " ".join(note)) == (t.game.kontra >= 2), note
        self.offered = value
        out = self.session.submit(Press(seat, "concede"))
        assert out.status == "accepted", out
        self.seen["conceded"] += 1

    # ---- what the screen says -------------------------------------------------------------
    def check(self) -> None:
        t = self.table
        view = build_view(self.session, language="en")
        series = t.series
        if view.scene in DEAL_SCENES:
            # the deal under way: a Bock deal is marked with the deals left, this one included
            # (no more than the series still plays: a round triggered near its end is cut)
            assert view.bock == min(series.bock_pending, series.deals_left)
            self.bock_seen.setdefault(view.game_number, view.bock)
            assert self.bock_seen[view.game_number] - view.bock == 0
            key = (view.game_number, view.scene)
            if key not in self.rendered:  # each scene of each deal laid out once
                self.rendered.add(key)
                self.check_top_bar(view)
        if view.scene == "bidding":
            assert view.bidding.ramsch  # passing in means Ramsch at this table
            if view.bidding.forehand_alone:
                els = self.layout(view)
                assert "(then Ramsch)" in one_text(els, "bid-who")
        if view.scene == "play":
            self.check_play(view)
        if view.scene in ("result", "sheet"):
            self.check_result(view)

    def check_top_bar(self, view: Any) -> None:
        marks = texts(self.layout(view), "bock")
        if view.bock:
            assert marks == [f"Bock: {view.bock} left"], marks
        else:
            assert marks == [], marks

    def check_play(self, view: Any) -> None:
        game = self.table.game
        p = view.play
        assert p.kontra == game.kontra
        if game.is_ramsch:
            assert p.pushes == game.pushes
            if game.pushes and (view.game_number, "pushed") not in self.rendered:
                self.rendered.add((view.game_number, "pushed"))
                els = self.layout(view)
                assert one_text(els, "pushed") == f"pushed ×{2 ** game.pushes}"

    def check_result(self, view: Any) -> None:
        t = self.table
        d = t.finished_deals[-1]
        entry, result = d.entry, d.result
        if (d.number, "result") in self.rendered:
            return
        self.rendered.add((d.number, "result"))
        if self.offered is not None:  # the concession booked what the question offered
            assert entry.value == self.offered, (entry.value, self.offered)
            self.offered = None
        # the deal was marked as a Bock deal exactly when the sheet doubled it
        assert entry.bock == (self.bock_seen.get(d.number, 0) > 0)
        r = view.result
        k = reckon(result, entry.bock)
        assert r.value == entry.value == k.value
        factors = dict(r.factors)
        assert r.factors == k.factors
        product = 1
        for _key, factor in r.factors:
            product *= factor
        sign = -1 if r.value < 0 else 1
        assert sign * (r.game_value or 0) * product == r.value, (r, product)
        # each factor named exactly when it happened
        assert ("bock" in factors) == (entry.bock and not result.passed_in)
        ramsch = not result.passed_in and result.declarer is None
        if not result.passed_in and not ramsch:
            assert ("lost" in factors) == (not result.won)
            assert ("kontra" in factors) == (result.kontra >= 2)
            assert ("re" in factors) == (result.kontra >= 4)
            if result.contract.game.base_value is not None:  # suit and grand
                assert r.base_value * r.multiplier == r.game_value
        if ramsch and result.durchmarsch is None:
            assert factors.get("pushed", 1) == 2 ** result.pushes
            assert factors.get("jungfrau", 1) == 2 ** len(result.jungfrau)
            assert r.game_value == max(result.ramsch_points)
        for key in ("bock", "kontra", "re", "pushed", "jungfrau"):
            self.seen[key] += key in factors
        self.seen["ramsch"] += ramsch
        # on the screen: the headline is the value booked; the breakdown ends in it, each
        # factor named
        els = self.layout(view) if view.scene == "result" else self.layout(
            replace(view, scene="result"))
        if not result.passed_in:
            assert one_text(els, "result-value") == f"{entry.value:+d}"
            breakdown = one_text(els, "result-breakdown")
            if r.factors:
                assert breakdown.endswith(f"= {entry.value:+d}"), breakdown
            else:
                assert breakdown.endswith(str(abs(entry.value))), breakdown
            words = {"lost": "lost ×", "kontra": "Kontra ×", "re": "Re ×", "bock": "Bock ×",
                     "pushed": "pushed ×", "jungfrau": "Jungfrau ×"}
            for key, word in words.items():
                assert (word in breakdown) == (key in factors), (key, breakdown)
        notes = " ".join(texts(els, "result-note"))
        # the Bock deals still to be played in this series: none after its last deal
        pending = min(t.series.bock_pending, t.series.deals_left)
        if t.series.finished:
            self.seen["bock cut at the end"] += int(t.series.bock_pending > 0)
        said = ("Bock: the next game counts double" if pending == 1
                else f"Bock: the next {pending} games count double")
        assert (said in notes) == bool(pending), (pending, notes)
        self.check_sheet(view)

    def check_sheet(self, view: Any) -> None:
        t = self.table
        series = t.series
        sheet = view.sheet
        row = sheet.rows[-1]
        d = t.finished_deals[-1]
        entry = d.entry
        assert row.value == entry.value and row.scores == entry.scores
        assert row.totals == series.totals == sheet.totals
        assert row.bock == entry.bock
        assert row.factors == reckon(d.result, entry.bock).factors
        # the sheet as the kiosk draws it: every seat the deal booked has its running total
        # in its column, and the row's marks name Kontra/Re, the pushes and Bock
        els = self.layout(view, UiState(show_sheet=True))
        cells = [e for e in els if e.role == "sheet-cell" and abs(
            e.rect.centery - self.row_y(els, row.number)) < 4]
        booked = [s for s in range(len(view.players))
                  if entry.scores[s] != 0 or s == entry.declarer]
        assert sorted(e.text for e in cells) == sorted(str(row.totals[s]) for s in booked)
        marks = [e.text for e in els if e.role == "sheet-marks" and abs(
            e.rect.centery - self.row_y(els, row.number)) < 4]
        said = " ".join(marks)
        assert "…" not in said, said  # never cut
        factors = dict(row.factors)
        assert ("Bock" in said) == entry.bock, (said, entry)
        assert ("Re" in said.split(" ")) == ("re" in factors), said
        assert ("Kontra" in said) == ("kontra" in factors and "re" not in factors), said
        assert ("pushed" in said) == ("pushed" in factors), said
        values = [e.text for e in els if e.role == "sheet-value" and abs(
            e.rect.centery - self.row_y(els, row.number)) < 4]
        assert values == ([f"{entry.value:+d}"] if row.contract else []), values

    @staticmethod
    def row_y(els: list[Element], number: int) -> int:
        return next(e.rect.centery for e in els
                    if e.role == "sheet-num" and e.text == str(number))


@pytest.mark.parametrize("players", [3, 4])
@given(seed=st.integers(0, 2**31 - 1))
@example(seed=5)
@settings(max_examples=8, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
def test_every_value_on_every_screen_is_what_the_sheet_books(renderer: Renderer, players: int,
                                                              seed: int) -> None:
    series = Series(seed, players, renderer)
    series.play()
    assert len(series.table.finished_deals) == 7


def test_random_series_meet_every_factor(renderer: Renderer) -> None:
    """The random series above are not too tame: over a few seeds each factor occurs."""
    seen: dict[str, int] = {}
    for seed in range(4):
        series = Series(seed, 3, renderer, length=8)
        series.play()
        for key, n in series.seen.items():
            seen[key] = seen.get(key, 0) + n
    assert all(seen[key] for key in ("bock", "kontra", "re", "pushed", "ramsch", "conceded",
                                     "bock cut at the end")), seen


# ---- a person at the simulator's window -------------------------------------------------


def pub_table(seed: int, house: dict[str, Any]) -> Tabletop:
    """Anna (seat 0) against two computer seats under pub rules, in German at 800x480."""
    cfg = simulated_config(computer_seats=(1, 2), series_length=None, seed=seed,
                           language="de")
    return Tabletop(seed=seed, games=None, language="de",
                    config=replace(cfg, table=replace(cfg.table, rules="pub"), house=house))


def act_until(t: Tabletop, done: Any, steps: int = 400) -> None:
    for _ in range(steps):
        if done():
            return
        t.act()
    raise AssertionError(f"not reached; the screen shows {t.view.scene}")


def shown(t: Tabletop, role: str) -> str:
    return t.one(role).text.replace("\u00a0", " ")


def row_of(t: Tabletop, number: int, role: str) -> list[Element]:
    """The elements of the sheet's row ``number`` with ``role``."""
    y = next(e.rect.centery for e in t.kiosk.elements
             if e.role == "sheet-num" and e.text == str(number))
    return [e for e in t.kiosk.elements if e.role == role and abs(e.rect.centery - y) < 4]


def test_kontra_and_the_bock_round_it_starts_are_shown_as_the_sheet_books_them() -> None:
    """Anna says Kontra: the result's breakdown names it and ends in the headline's value,
    and says that the next three games count double. The next deal is marked "Bock: noch 3"
    from its first card to its play; the concede question offers what the sheet then books,
    naming Bock; the breakdown names Bock; the sheet marks Kontra and Bock."""
    t = pub_table(1, {"kontra_re": True, "bock": ("kontra",)})
    try:
        act_until(t, lambda: t.view.scene == "play" and bool(t.find("kontra")))
        t.tap("kontra")
        assert t.table.game.kontra >= 2 and shown(t, "kontra") in ("Kontra", "Re")
        act_until(t, lambda: t.view.scene == "result")
        entry = t.table.finished_deals[-1].entry
        assert shown(t, "result-value") == f"{entry.value:+d}"
        breakdown = shown(t, "result-breakdown")
        assert "Kontra ×2" in breakdown and breakdown.endswith(f"= {entry.value:+d}"), breakdown
        notes = [e.text for e in t.find("result-note")]
        assert "Bock: die nächsten 3 Spiele zählen doppelt" in notes, notes

        t.tap("deal-next")                   # the Bock deal, marked before a card is bid on
        assert t.view.scene == "deal" and shown(t, "bock") == "Bock: noch 3"
        t.deal_all()
        assert t.view.scene == "bidding" and shown(t, "bock") == "Bock: noch 3"
        act_until(t, lambda: t.view.scene == "play")
        assert shown(t, "bock") == "Bock: noch 3"
        t.tap("concede")
        assert "Bock ×2" in shown(t, "confirm-note")
        offered = int(shown(t, "confirm-defenders").rsplit(" ", 1)[1])
        t.tap("confirm-defenders")
        assert t.view.scene == "result"
        entry = t.table.finished_deals[-1].entry
        assert entry.bock and entry.value == offered
        assert shown(t, "result-value") == f"{offered:+d}"
        breakdown = shown(t, "result-breakdown")
        assert "Bock ×2" in breakdown and breakdown.endswith(f"= {offered:+d}"), breakdown

        t.tap("sheet-button")
        first, second = (" ".join(e.text for e in row_of(t, n, "sheet-marks")) for n in (1, 2))
        assert first.startswith(("Kontra", "Re")) and "Bock" not in first, first
        assert second.endswith("Bock"), second
        assert [e.text for e in row_of(t, 2, "sheet-value")] == [f"{offered:+d}"]
    finally:
        t.close()


def test_a_ramsch_is_announced_its_pushes_shown_and_its_loser_booked() -> None:
    """Forehand alone is told that passing means Ramsch (not "einpassen"); Anna takes the
    skat and pushes; the play screen shows the push factor; the result's breakdown names the
    pushes and ends in the value booked; the sheet books the Ramsch in the loser's column."""
    t = pub_table(5, {"ramsch": True, "schieberamsch": True})
    try:
        act_until(t, lambda: t.view.scene == "bidding" and t.view.bidding.forehand_alone)
        assert shown(t, "bid-who") == "Anna kann für 18 spielen oder passen (dann Ramsch)"
        t.tap("press-pass")
        assert t.view.scene == "pushing" and t.view.turn == 0
        t.tap("press-skat")                  # Anna takes the skat and pushes two cards on
        for _ in range(2):
            t.tap(next(e for e in t.find("hand0") if not e.card.is_jack))
        act_until(t, lambda: t.view.scene == "play")
        pushes = t.table.game.pushes
        assert pushes >= 1 and shown(t, "pushed") == f"geschoben ×{2 ** pushes}"
        act_until(t, lambda: t.view.scene == "result")
        d = t.table.finished_deals[-1]
        entry = d.entry
        assert shown(t, "result-value") == f"{entry.value:+d}"
        breakdown = shown(t, "result-breakdown")
        if d.result.durchmarsch is None:
            assert f"geschoben ×{2 ** pushes}" in breakdown, breakdown
        assert breakdown.endswith(str(abs(entry.value))), breakdown

        t.tap("sheet-button")
        booked = [s for s in range(3) if entry.scores[s]]
        assert booked and entry.declarer is None
        heads = [e for e in t.kiosk.elements if e.role == "sheet-player"]
        cells = row_of(t, 1, "sheet-cell")
        assert sorted((e.rect.right, e.text) for e in cells) == sorted(
            (heads[s].rect.right, str(entry.scores[s])) for s in booked)
    finally:
        t.close()


def test_the_skat_taken_up_in_a_schieberamsch_is_marked_in_the_hand() -> None:
    """Anna takes the skat in a Schieberamsch: the two cards she took up are marked in her
    hand (a gold edge, as after a pick-up) until she pushes them on; no other card is."""
    from engine.cards import mask_cards

    t = pub_table(5, {"ramsch": True, "schieberamsch": True})
    try:
        act_until(t, lambda: t.view.scene == "bidding" and t.view.bidding.forehand_alone)
        t.tap("press-pass")
        assert t.view.scene == "pushing" and t.view.turn == 0
        taken = set(mask_cards(t.table.game.skat))     # the skat as it lies before her
        t.tap("press-skat")
        marked = {e.card for e in t.find("hand0") if e.selected}
        assert marked == taken and len(marked) == 2
        other = next(e for e in t.find("hand0") if e.card not in taken and not e.card.is_jack)
        t.tap(other)                                    # a card of her own pushed on
        assert {e.card for e in t.find("hand0") if e.selected} == taken
        keep = sorted(c for c in taken if not c.is_jack)
        if keep:
            t.tap(t.hand_card(keep[0]))                 # a taken card pushed on: unmarked
            assert keep[0] not in {e.card for e in t.find("hand0") if e.selected}
    finally:
        t.close()


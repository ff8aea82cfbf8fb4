"""A club game's result confirmed at the kiosk by taps and keys, as the declarer's opponents
do at the table: one button per opponent on the result screen, a tick once confirmed, the game
sent to the club only when both have confirmed. Driven through the real event loop with
posted mouse, touch and key events (``tabletop.Tabletop``)."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest
from tabletop import Tabletop

from firmware_host.clubside.seating import parse_seating
from firmware_host.series.journal import read_outbox


def test_the_opponents_confirm_with_a_tap_and_a_key_and_then_it_is_sent(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # the seated club table of the controller's tests
    monkeypatch.syspath_prepend(str(Path(__file__).resolve().parents[1] / "controller"))
    from test_ctl_confirm_results import SEATING, confirming_config, play_game

    journal = tmp_path / "j.sqlite"
    t = Tabletop(config=confirming_config(), journal=journal, language="en")
    try:
        t.session.start_seated_series(parse_seating(SEATING))
        declarer = play_game(t.session)
        t.loop.refresh()
        t.settle()
        assert t.view.scene == "result"
        buttons = {int(e.role.removeprefix("confirm-result")): e
                   for e in t.kiosk.elements if e.role.startswith("confirm-result")}
        assert set(buttons) == {s for s in range(3) if s != declarer}  # not the declarer
        assert all(e.command is not None for e in buttons.values())
        # as they stand on the screen: the first touched, the second by its key, 2 (a name
        # keeps its key once the other has confirmed)
        first, second = sorted(buttons, key=lambda s: (buttons[s].rect.y, buttons[s].rect.x))
        assert read_outbox(journal) == []
        t.tap(buttons[first], touch=True)
        done = next(e for e in t.kiosk.elements if e.role == f"confirm-result{first}")
        assert done.command is None and "✓" in done.text
        assert read_outbox(journal) == []                # one of two: not sent yet
        t.key(pygame.K_1)                                # the first's key: confirmed already
        assert read_outbox(journal) == []
        t.key(pygame.K_2)
        rows = read_outbox(journal)
        names = {p["seat"]: p["id"] or p["name"] for p in SEATING["players"]}
        assert len(rows) == 1
        assert rows[0].payload["confirmed_by"] == [names[first], names[second]]
    finally:
        t.close()

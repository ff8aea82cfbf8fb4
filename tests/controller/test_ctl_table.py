"""The controller on its own: a bug in a lower layer refuses the input and leaves the table as
it was; seats that do not exist; the seat-to-position mapping."""

from __future__ import annotations

import pytest

from engine.deal import Deal
from engine.game import Game
from firmware_host.config import simulated_config
from firmware_host.table.controller import Table, positions_for
from firmware_host.table.inputs import DeclareInput, Press, TagLaid


def dealt_table() -> Table:
    cfg = simulated_config(computer_seats=())
    table = Table(cfg)
    tags = cfg.card_tags()
    for card in Deal.shuffled(1).dealt_order():
        assert table.handle(TagLaid("deal", tags[card])).accepted
    return table


def test_an_internal_error_refuses_and_changes_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    table = dealt_table()
    before = table.game.state_key(), len(table.stack)

    def broken(self: Game, action: object) -> None:
        raise KeyError("a bug")

    with monkeypatch.context() as m:
        m.setattr(Game, "push", broken)
        out = table.handle(Press(1, "pass"))
    assert out.status == "refused" and "internal error" in out.refusal.reason
    assert (table.game.state_key(), len(table.stack)) == before
    assert table.handle(Press(1, "pass")).accepted  # and the table goes on


@pytest.mark.parametrize("inp", [Press(3, "bid"), Press(3, "undo"), DeclareInput(3, "G")])
def test_a_seat_that_does_not_exist(inp: Press | DeclareInput) -> None:
    table = dealt_table()
    out = table.handle(inp)
    assert out.status == "refused" and "no seat 3" in out.refusal.reason


def test_positions_follow_the_dealer_clockwise() -> None:
    assert positions_for(2, 3) == (0, 1, 2)
    assert positions_for(0, 3) == (1, 2, 0)
    assert positions_for(3, 4) == (0, 1, 2)
    table = dealt_table()
    assert table.deal.seats == positions_for(table.deal.dealer, 3)


def test_command_modules_keep_their_imports_light() -> None:
    """The command table imports every command module to build ``--help``: the controller's
    must not pull in the engine, the drivers or pygame at module level."""
    import subprocess
    import sys

    code = (
        "import sys\n"
        "for m in ('service.runner', 'tools.simulator', 'tools.replay', 'tools.export',\n"
        "          'tools.enroll'):\n"
        "    __import__('firmware_host.' + m)\n"
        "heavy = sorted(m for m in sys.modules\n"
        "               if m.split('.')[0] in ('pygame', 'drivers', 'display', 'sqlite3')\n"
        "               or m in ('engine.game', 'firmware_host.table.controller'))\n"
        "print(heavy)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, timeout=60)
    assert out.stdout.strip() == "[]", out.stdout

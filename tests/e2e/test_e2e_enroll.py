"""Enrolment of two decks with ``skat-table enroll``, then a table playing the first one: a card
of the second deck is refused as what it is, a tag read twice at enrolment is refused, undo
takes a card back, an interrupted enrolment resumes.
"""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

from e2e_script import Script, replay

from firmware_host.cli import main


def enroll(out: Path, uids: list[str]) -> tuple[int, str]:
    src = out.with_suffix(".uids")
    src.write_text("\n".join(uids) + "\n", encoding="utf-8")
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        status = main(["enroll", "--out", str(out), "--uids", str(src)])
    return status, err.getvalue()


def uids(prefix: str) -> list[str]:
    return [f"04{prefix}{i:02x}a1b2c3d4" for i in range(32)]


def test_two_decks_and_a_table_that_knows_both(tmp_path: Path) -> None:
    decks = tmp_path / "decks"
    decks.mkdir()
    blue = uids("b1")
    # Half the deck, then the session is interrupted.
    status, err = enroll(decks / "blue.toml", [*blue[:16]])
    assert status == 1 and "16 of 32" in err
    # Resumed: a tag read twice is refused, undo takes one back, and it is laid again.
    status, err = enroll(decks / "blue.toml", [blue[15], *blue[16:20], "undo", blue[19],
                                               *blue[20:]])
    assert status == 0, err
    assert "resuming deck 'blue': 16 of 32" in err
    assert "refused: this tag is already enrolled as" in err
    assert "took back" in err
    red = uids("4e")
    status, err = enroll(decks / "red.toml", [blue[0], *red])
    assert status == 0 and "of deck 'blue'" in err
    cfg = tmp_path / "table.toml"
    cfg.write_text('[table]\nplayers = ["Anna", "Ben", "Carla"]\nfirst_dealer = 2\n'
                   '[deck]\ndeck = "decks/blue.toml"\n', encoding="utf-8")
    s = Script().add({"zone": "deal", "tag": red[4]}).add({"zone": "deal", "tag": blue[4]})
    s.add({"zone": "deal", "tag": "04ffffffffffff"})
    out = replay(cfg, s.write(tmp_path / "s.jsonl"))
    reasons = [r["reason"] for r in out["rejected"]]
    # The drivers enrol suit by suit from the 7: the fifth tag is the jack of clubs.
    assert reasons == ["this is the CJ of deck 'red', not a card of this table's deck",
                       "tag 04ffffffffffff is not a card of this table's deck"]
    assert out["phase"] == "dealing"


def test_enrolment_on_the_kiosk_screen(tmp_path: Path, monkeypatch) -> None:
    """``enroll --display`` shows the card to lay next, the progress, the card stored last and
    a refused tag on the kiosk (headless here: SDL's dummy driver)."""
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    from display.kiosk import Kiosk

    shown = []
    real_show = Kiosk.show
    monkeypatch.setattr(Kiosk, "show", lambda self, view: shown.append(view) or real_show(
        self, view))
    deck = uids("e5")
    src = tmp_path / "deck.uids"
    src.write_text("\n".join([deck[0], deck[0], *deck[1:]]) + "\n", encoding="utf-8")
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        status = main(["enroll", "--out", str(tmp_path / "deck.toml"), "--uids", str(src),
                       "--display"])
    assert status == 0, err.getvalue()
    assert all(v.scene == "enrol" and v.enrol is not None for v in shown)
    first, after_one, refused = shown[0], shown[1], shown[2]
    assert (first.enrol.done, first.enrol.last, first.refusal) == (0, None, None)
    assert after_one.enrol.done == 1 and after_one.enrol.last == first.enrol.card
    assert refused.refusal is not None and "already enrolled" in refused.refusal.detail
    assert refused.enrol.done == 1  # the tag read twice changed nothing
    assert (shown[-1].enrol.done, shown[-1].enrol.card) == (32, None)  # complete

"""The kiosk's side of ISkO claims and violations: a "Claim the rest" button for the declarer,
the claiming declarer's hand shown open with an agree and a disagree button per defender, and
after a violation who laid which card with the innocent party's two choices; each button sends
the press the table script uses. Laid out cleanly in every language."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_disp_layout import check_layout

from display import commands as cmd
from display.render import Renderer

ROOT = Path(__file__).resolve().parents[2]
FORE = "CT CJ CK CA S7 SJ H7 HJ D7 DJ"  # the engine's concession examples' deal, Anna forehand
MIDDLE = "C7 C8 C9 CQ S8 S9 SA H8 HA DA"
REAR = "ST SQ SK H9 HT HQ HK DT DQ DK"
SKAT = "D8 D9"


def views_after(tmp_path: Path, extra: list[str], violations: bool = False,
                language: str = "en") -> list:
    from e2e_script import Script, deal_of, write_config

    from firmware_host.config import load_config
    from firmware_host.screen.viewmodel import build_view
    from firmware_host.series.session import Session

    keys = {"language": language, **({"violations": "isko"} if violations else {})}
    cfg = load_config(write_config(tmp_path / "c.toml", ["Anna", "Ben", "Carla"], 2, **keys))
    session = Session(cfg, None)
    s = Script().deal(deal_of(FORE, MIDDLE, REAR, SKAT))
    s.press(1, "pass").press(2, "pass").press(0, "bid").declare(0, "GH")
    for line in [*s.lines, *extra]:
        assert session.submit_text(line) is not None
    return [build_view(session, None)]


def elements(renderer: Renderer, view, size=(800, 480)) -> list:
    els = renderer.layout(view, size)
    problems = check_layout(els, size)
    assert not problems, "\n".join(problems[:20])
    return els


@pytest.fixture(autouse=True)
def _e2e_helpers(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(ROOT / "tests" / "e2e"))


def test_the_declarer_has_a_claim_button(renderer: Renderer, tmp_path: Path) -> None:
    (view,) = views_after(tmp_path, [])
    claim = [e for e in elements(renderer, view) if e.role == "claim"]
    assert claim and claim[0].command == cmd.Press(0, "claim")


@pytest.mark.parametrize("language", ["en", "de", "pl"])
def test_a_claim_shows_the_open_hand_and_asks_each_defender(renderer: Renderer, tmp_path: Path,
                                                            language: str) -> None:
    (view,) = views_after(tmp_path, ['{"seat": 0, "press": "claim"}'], language=language)
    assert view.play.waiting == "claim" and view.play.answering == (1, 2)
    els = elements(renderer, view)
    assert len([e for e in els if e.role == "open-hand-card"]) == 10
    buttons = {e.role: e.command for e in els if e.kind == "button"}
    assert buttons["agree1"] == cmd.Press(1, "agree")
    assert buttons["disagree2"] == cmd.Press(2, "disagree")
    assert "claim" not in buttons  # no second claim while one waits


def test_after_a_disagreed_claim_the_hand_stays_open(renderer: Renderer, tmp_path: Path) -> None:
    (view,) = views_after(tmp_path, ['{"seat": 0, "press": "claim"}',
                                     '{"seat": 1, "press": "disagree"}'])
    assert view.play.waiting is None and len(view.play.open_hand) == 10
    assert view.hands[0] is not None and len(view.hands[0]) == 10  # shown in Anna's seat
    elements(renderer, view)


def test_a_violation_names_the_offender_and_offers_both_choices(renderer: Renderer,
                                                                tmp_path: Path) -> None:
    from e2e_script import tag

    lay = [f'{{"zone": "centre", "tag": "{tag(c)}"}}' for c in ("CA", "SA")]  # Ben: revoke
    (view,) = views_after(tmp_path, lay, violations=True)
    p = view.play
    assert (p.waiting, p.offender, str(p.offending_card), p.answering) == (
        "violation", 1, "SA", (0,))
    buttons = {e.role: e.command for e in elements(renderer, view) if e.kind == "button"}
    assert buttons["enforce0"] == cmd.Press(0, "enforce")
    assert buttons["play-on0"] == cmd.Press(0, "play-on")


def test_claiming_at_the_kiosk_against_two_computers() -> None:
    """The whole chain: Anna taps "Claim the rest", picks the level, the two computer
    defenders answer by themselves (agree only if she takes every trick): the game is scored
    as claimed, or play goes on with her cards open."""
    from tabletop import Tabletop
    from test_disp_table import play_until

    for seed in (2, 3, 5):
        t = Tabletop(seed=seed, games=None, bids=True)
        try:
            play_until(t, lambda t=t: (t.view.scene == "play" and t.view.play.declarer == 0
                                       and t.view.play.contract[0] != "N")
                       or t.view.scene == "result", 800)
            if t.view.scene != "play":
                continue
            t.tap("claim")
            assert t.view.scene == "play" and t.find("claim-simple")
            t.tap("confirm-cancel")
            assert not t.find("claim-simple") and t.view.play.waiting is None
            t.tap("claim")
            t.tap("claim-simple")
            for _ in range(5):
                t.settle()
            if t.view.scene == "result":
                assert t.view.result.ending == "claimed"
            else:
                p = t.view.play
                assert p.waiting is None and len(p.open_hand) == len(t.view.hands[0])
            return
        finally:
            t.close()
    pytest.fail("Anna declared no suit or grand game in the seeds tried")

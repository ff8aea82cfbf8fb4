"""Hints at the table: off by default, refused at a club table (tournaments), offered only to
the person to act, computed from that seat's view, gone with the next input; on the kiosk a
button in the top bar and a banner in the players' language."""

from __future__ import annotations

import tomllib
from dataclasses import replace
from pathlib import Path

import pytest

from display import commands as cmd
from display.hints import KINDS, HintView, hint_sentence
from display.i18n import translator
from display.view import LANGUAGES
from engine.cards import Card
from engine.players.base import SeatView
from engine.players.hints import REASONS
from engine.players.rule import RulePlayer
from firmware_host.config import ConfigError, load_config, parse_config
from firmware_host.screen.viewmodel import build_view
from firmware_host.series.journal import Journal
from firmware_host.series.session import Session
from firmware_host.service.runner import EventLoop
from firmware_host.table.inputs import Press

ROOT = Path(__file__).resolve().parents[2]
CONFIG = ROOT / "tests" / "data" / "configs" / "three-series.toml"
SCRIPT = ROOT / "tests" / "data" / "scripts" / "series-three.jsonl"


def config(**table: object):
    raw = tomllib.loads(CONFIG.read_text(encoding="utf-8"))
    raw["table"].update(table)
    return parse_config(raw)


def test_hints_are_off_by_default_and_refused_at_a_club_table(tmp_path: Path) -> None:
    assert load_config(CONFIG).table.hints is False
    assert config(hints=True).table.hints is True
    with pytest.raises(ConfigError, match=r"\[table\] hints: must be true or false"):
        config(hints="yes")
    raw = tomllib.loads(CONFIG.read_text(encoding="utf-8"))
    raw["table"]["hints"] = True
    pw = tmp_path / "pw"
    pw.write_text("secret\n", encoding="utf-8")
    raw["club"] = {"broker": "mqtt://127.0.0.1:1883", "club": "c1", "table": "t1",
                   "username": "t1", "password_file": str(pw)}
    with pytest.raises(ConfigError, match=r"\[table\] hints: .*tournament"):
        parse_config(raw)


def to_bidding(session: Session) -> None:
    lines = SCRIPT.read_text(encoding="utf-8").splitlines()
    for n, line in enumerate(lines, 1):
        if session.table.phase == "bidding":
            return
        session.submit_text(line, line=n)


def test_only_the_person_to_act_gets_a_hint_and_it_goes_with_the_next_input() -> None:
    off = Session(load_config(CONFIG), Journal.open(":memory:"))
    off.resume()
    to_bidding(off)
    assert off.hint_seat() is None and off.ask_hint(off.table.seat_to_act()) is None
    s = Session(config(hints=True), Journal.open(":memory:"))
    s.resume()
    to_bidding(s)
    seat = s.table.seat_to_act()
    assert s.hint_seat() == seat
    assert s.ask_hint((seat + 1) % 3) is None and s.hint is None  # not that seat's turn
    h = s.ask_hint(seat)
    game = s.table.game
    pos = s.table.deal.seats.index(seat)
    assert h.action == RulePlayer(0).choose(SeatView.of(game, pos))
    view = build_view(s)
    assert view.hint is not None and view.hint.seat == seat
    s.submit(Press(seat, "pass"))
    assert s.hint is None and build_view(s).hint is None
    # a computer seat is never offered a hint
    c = Session(replace(config(hints=True), computer=replace(
        config().computer, seats=(0, 1, 2))), Journal.open(":memory:"))
    assert c.hint_seat() is None


def test_the_event_loop_answers_the_hint_button() -> None:
    s = Session(config(hints=True), Journal.open(":memory:"))
    s.resume()
    to_bidding(s)
    loop = EventLoop(s)
    seat = s.table.seat_to_act()
    assert loop.handle(cmd.AskHint(seat)) is None  # nothing for the table, a redraw
    assert s.hint is not None and s.hint[0] == seat


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_hint_reads_in_every_language(lang: str) -> None:
    tr = translator(lang)
    texts = set()
    for kind in KINDS:
        for reason in (None, *REASONS):
            h = HintView(seat=1, kind=kind, card=Card.ST, value=23, contract="GH",
                         reason=reason, reason_value=27)
            text = hint_sentence(h, lambda seat: "Ben", tr)
            assert "Ben" in text and "{" not in text and "}" not in text
            texts.add(text)
    assert len(texts) == len(KINDS) * (len(REASONS) + 1)


def test_the_kiosk_offers_the_button_and_shows_the_banner() -> None:
    import pygame

    from display.layout import Frame
    from display.render import Renderer
    from display.scenes import SceneBuilder, UiState

    s = Session(config(hints=True, language="de"), Journal.open(":memory:"))
    s.resume()
    to_bidding(s)
    pygame.font.init()

    def elements(view):
        frame = Frame((800, 480), Renderer().fonts)
        SceneBuilder(frame, view, translator(view.language), UiState()).build()
        return frame.elements

    view = build_view(s)
    button = [e for e in elements(view) if e.role == "hint-button"]
    assert len(button) == 1 and button[0].command == cmd.AskHint(s.table.seat_to_act())
    s.ask_hint(s.table.seat_to_act())
    els = elements(build_view(s))
    banner = [e for e in els if e.role == "hint"]
    assert len(banner) == 1 and banner[0].fits and banner[0].text.startswith("Tipp für")
    assert not any(e.role == "hint-button" for e in els)  # asked: the banner answers

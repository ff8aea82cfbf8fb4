"""The computer says why: ``[computer] reasons`` (on, off at a club table unless set), the
session gives a bid limit only once no person can use it in the bidding, and the kiosk shows
the reasons in the players' language without covering anything."""

from __future__ import annotations

import random
import tomllib
from pathlib import Path

import pytest

from display.i18n import translator
from display.reasons import ReasonView, reason_sentence
from display.view import LANGUAGES
from firmware_host.config import ConfigError, parse_config, simulated_config
from firmware_host.screen.viewmodel import build_view
from firmware_host.series.journal import Journal
from firmware_host.series.session import Session
from firmware_host.series.simulated import SimulatedTable
from firmware_host.table.inputs import Press

ROOT = Path(__file__).resolve().parents[2]
CONFIG = ROOT / "tests" / "data" / "configs" / "three-series.toml"


def raw_config(tmp_path: Path, club: bool, **computer: object) -> dict:
    raw = tomllib.loads(CONFIG.read_text(encoding="utf-8"))
    raw.setdefault("computer", {}).update(computer)
    if club:
        pw = tmp_path / "pw"
        pw.write_text("secret\n", encoding="utf-8")
        raw["club"] = {"broker": "mqtt://127.0.0.1:1883", "club": "c1", "table": "t1",
                       "username": "t1", "password_file": str(pw)}
    return raw


def test_reasons_are_on_but_off_at_a_club_table_unless_set(tmp_path: Path) -> None:
    assert parse_config(raw_config(tmp_path, False)).computer.reasons is True
    assert parse_config(raw_config(tmp_path, False, reasons=False)).computer.reasons is False
    assert parse_config(raw_config(tmp_path, True)).computer.reasons is False
    assert parse_config(raw_config(tmp_path, True, reasons=True)).computer.reasons is True
    with pytest.raises(ConfigError, match=r"\[computer\] reasons: must be true or false"):
        parse_config(raw_config(tmp_path, False, reasons="yes"))


def session(seed: int, reasons: bool = True) -> tuple[Session, SimulatedTable]:
    """A person in seat 0, the rule player in seats 1 and 2."""
    from dataclasses import replace

    cfg = simulated_config(series_length=None, seed=seed, computer_seats=(1, 2))
    cfg = replace(cfg, computer=replace(cfg.computer, reasons=reasons))
    s = Session(cfg, Journal.open(":memory:"), computer_seats=(1, 2))
    s.resume()
    return s, SimulatedTable(s, random.Random(seed))


def play_to(s: Session, sim: SimulatedTable, phase: str, person: str = "pass",
            seen: list | None = None) -> None:
    """Step the table until ``phase``; the person bids with ``person`` ("pass", or "bid":
    bids and holds). ``seen``: every view's reasons, with whether a person still bid."""
    for _ in range(500):
        t = s.table
        if t.phase == phase:
            return
        if seen is not None and t.game is not None:
            people_in = t.phase == "bidding" and 0 not in {
                t.deal.seats[p] for p in t.game.passed}
            seen.append((people_in, t.phase, build_view(s).reasons))
        if not sim.step():
            seat = t.seat_to_act()
            if t.phase != "bidding":
                return
            for press in (("bid", "yes") if person == "bid" else ("pass",)):
                if s.submit(Press(seat, press)).accepted:
                    break
    raise AssertionError(f"never reached {phase}")


def test_no_limit_while_a_person_still_bids_and_every_limit_after() -> None:
    limits = 0
    for seed in range(6):
        s, sim = session(seed)
        seen: list = []
        play_to(s, sim, "play", person="bid" if seed % 2 else "pass", seen=seen)
        for people_in, _phase, reasons in seen:
            if people_in:
                assert not reasons, (seed, reasons)
        # once the bidding is over, both computers' limits are out
        after = [r for p_in, phase, rs in seen if phase != "bidding" for r in rs]
        limits += len({r.seat for r in after if r.kind == "limit"})
    assert limits >= 10


def test_the_computer_declarers_game_comes_with_play_and_nothing_when_off() -> None:
    s, sim = session(0)
    play_to(s, sim, "play")
    kinds = [(r.seat, r.kind) for r in build_view(s).reasons]
    assert (2, "game") in kinds and (1, "limit") in kinds
    off, sim = session(0, reasons=False)
    play_to(off, sim, "play")
    assert build_view(off).reasons == ()


@pytest.mark.parametrize("size", [(800, 480), (1280, 800), (1920, 1080)])
def test_the_kiosk_shows_the_reasons_without_covering_anything(size: tuple[int, int]) -> None:
    import pygame

    from display.layout import Frame
    from display.render import Renderer
    from display.scenes import SceneBuilder, UiState

    pygame.font.init()
    s, sim = session(0)
    play_to(s, sim, "play")  # seat 2 declared spades; seat 1 passed
    frame = Frame(size, Renderer().fonts)
    view = build_view(s, language="de")
    SceneBuilder(frame, view, translator("de"), UiState()).build()
    shown = [e for e in frame.elements if e.role == "computer-reason"]
    texts = [e.text for e in shown]
    assert any(t.startswith("Carla — Pik: ") and "Trümpfe" in t for t in texts), texts
    if size != (800, 480):  # the small screen has room for the declaration's reason first
        assert any(t.startswith("Ben passt bei ") and " — bis " in t for t in texts), texts
    for e in shown:
        assert e.fits
        for other in frame.elements:
            if other is not e and other.role != "game-panel" and other.layer == e.layer:
                assert not e.rect.colliderect(other.rect), (e.text, other.role)


def test_the_declaration_scene_shows_the_computers_limits() -> None:
    import pygame

    from display.layout import Frame
    from display.render import Renderer
    from display.scenes import SceneBuilder, UiState

    pygame.font.init()
    s, sim = session(0)
    play_to(s, sim, "skat", person="bid")  # the person won the bidding
    frame = Frame((800, 480), Renderer().fonts)
    SceneBuilder(frame, build_view(s, language="en"), translator("en"), UiState()).build()
    texts = [e.text for e in frame.elements if e.role == "computer-reason"]
    assert texts == ["Ben passes at 22 — up to 20: hearts with 1",
                     "Carla passes at 23 — up to 22: spades without 1"]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_reason_reads_in_every_language(lang: str) -> None:
    tr = translator(lang)
    views = [
        ReasonView(seat=1, kind="limit", game="C", limit=36, matadors=2, hand=True),
        ReasonView(seat=1, kind="limit", game="S", limit=22, matadors=-1, passed_at=27),
        ReasonView(seat=1, kind="limit", limit=0, passed_at=18),
        ReasonView(seat=1, kind="limit", game="N", limit=23, passed_at=24),
        ReasonView(seat=1, kind="game", game="G", contract="G", jacks=3, aces=2),
        ReasonView(seat=1, kind="game", game="H", contract="HH", trumps=7, aces=1, hand=True),
        ReasonView(seat=1, kind="game", game="N", contract="N", unsafe=0),
        ReasonView(seat=1, kind="game", game="N", contract="N", unsafe=2),
        ReasonView(seat=1, kind="double", game="C", contract="C", call="kontra", trumps=3,
                   aces=2),
        ReasonView(seat=1, kind="double", game="N", contract="N", call="kontra"),
        ReasonView(seat=1, kind="double", game="C", contract="C", call="re", trumps=7, aces=1),
        ReasonView(seat=1, kind="double", game="N", contract="N", call="re", unsafe=0),
    ]
    texts = [reason_sentence(v, lambda seat: "Ben", tr) for v in views]
    for text in texts:
        assert text.startswith("Ben") and "{" not in text and "}" not in text
        assert text.count(":") <= 1, text
    assert len(set(texts)) == len(texts)


def test_the_german_words() -> None:
    de = translator("de")

    def say(**facts: object) -> str:
        return reason_sentence(ReasonView(seat=2, **facts), lambda seat: "Carla", de)

    assert say(kind="limit", game="C", limit=36, matadors=2, hand=True) == (
        "Carla — bis 36: Kreuz mit 2, Hand")
    assert say(kind="limit", game="S", limit=22, matadors=-1, passed_at=27) == (
        "Carla passt bei 27 — bis 22: Pik ohne 1")
    assert say(kind="game", game="G", contract="G", jacks=3, aces=2) == (
        "Carla — Grand: 3 Buben, 2 Asse")
    assert say(kind="game", game="H", contract="H", trumps=7) == "Carla — Herz: 7 Trümpfe"
    assert say(kind="game", game="N", contract="N", unsafe=0) == (
        "Carla — Null: keine gefährliche Farbe")
    assert say(kind="game", game="C", contract="CH", trumps=6, aces=1, hand=True) == (
        "Carla — Kreuz Hand: 6 Trümpfe, 1 Ass, stark genug ohne Skat")
    assert say(kind="double", game="C", contract="C", call="kontra", trumps=3, aces=2) == (
        "Carla — Kontra: 3 Trümpfe und 2 Asse gegen Kreuz")
    assert say(kind="double", game="C", contract="C", call="re", trumps=7, aces=1) == (
        "Carla — Re: 7 Trümpfe, 1 Ass")

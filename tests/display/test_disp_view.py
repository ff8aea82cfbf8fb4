"""The view model, commands, helpers of the scenes, phase screenshots and the bench group."""

from __future__ import annotations

import doctest
from dataclasses import replace

import pygame
import pytest

import display.commands
import display.i18n
import display.kiosk
import display.samples
import display.scenes
import display.view
from display import commands as cmd
from display.scenes import BID_VALUES, compose_contract, sort_hand
from display.screenshots import PhaseShots
from display.view import SCENES, View, ViewError, hand_contracts
from engine.cards import Card


@pytest.mark.parametrize("module", [display.view, display.commands, display.scenes,
                                    display.samples, display.i18n, display.kiosk])
def test_doctests(module: object) -> None:
    result = doctest.testmod(module)  # type: ignore[arg-type]
    assert result.attempted > 0 and result.failed == 0


@pytest.mark.parametrize(("kwargs", "message"), [
    (dict(scene="play", players=("A", "B")), "3 or 4 players, not 2"),
    (dict(scene="party", players=("A", "B", "C")), "'party' is not one of"),
    (dict(scene="idle", players=("A", "B", "C"), language="it"), "language: 'it'"),
    (dict(scene="idle", players=("A", "B", "C"), card_style="tarot"), "card_style: 'tarot'"),
    (dict(scene="play", players=("A", "B", "C")), "needs the view's play field"),
    (dict(scene="idle", players=("A", "B", "C"), hands=((),)), "one entry per seat (3)"),
])
def test_bad_views_say_what_is_wrong(kwargs: dict, message: str) -> None:
    with pytest.raises(ViewError, match=message.replace("(", r"\(").replace(")", r"\)")):
        View(**kwargs)


def test_samples_cover_every_scene() -> None:
    for scene in SCENES:
        assert display.samples.sample_view(scene).scene == scene


def test_press_refuses_unknown_names() -> None:
    with pytest.raises(cmd.CommandError, match="unknown press 'shout'"):
        cmd.Press(0, "shout")  # type: ignore[arg-type]
    assert cmd.to_script(cmd.ShowSheet()) is None


def test_bid_values_are_the_skat_bids() -> None:
    assert BID_VALUES[:12] == (18, 20, 22, 23, 24, 27, 30, 33, 35, 36, 40, 44)
    assert BID_VALUES[-1] == 264 and len(BID_VALUES) == 63


def test_compose_contract() -> None:
    assert compose_contract("C", False, frozenset()) == "CH"
    assert compose_contract("C", False, frozenset({"S", "Z"})) == "CHZ"
    assert compose_contract("G", False, frozenset({"O"})) == "GO"
    assert compose_contract("N", True, frozenset({"O"})) == "NO"
    assert compose_contract("N", False, frozenset({"O"})) == "NOH"
    assert compose_contract("N", False, frozenset({"S"})) == ""
    offered = set(hand_contracts(False))
    for game in "CSHDG":
        for draft in (frozenset(), frozenset("S"), frozenset("SZ"), frozenset("O")):
            assert compose_contract(game, False, draft) in offered


def test_engine_agrees_on_contract_texts() -> None:
    """The strings the declaration buttons send are the engine's canonical notation."""
    contract = pytest.importorskip("engine.contract")
    for text in hand_contracts(False) + hand_contracts(True):
        assert str(contract.Contract.parse(text)) == text


def test_sort_hand_null_keeps_jacks_in_suit() -> None:
    hand = (Card.CJ, Card.CA, Card.CT, Card.CQ, Card.D7)
    assert [str(c) for c in sort_hand(hand, "N")] == ["CA", "CQ", "CJ", "CT", "D7"]
    assert [str(c) for c in sort_hand(hand, "D")] == ["CJ", "D7", "CA", "CT", "CQ"]


def test_phase_shots(tmp_path) -> None:
    pygame.font.init()
    shots = PhaseShots(tmp_path, size=(400, 240))
    bidding = display.samples.sample_view("bidding")
    assert shots.add(bidding) is not None
    assert shots.add(replace(bidding, bidding=replace(  # same scene: no new file
        bidding.bidding, value=24))) is None  # type: ignore[arg-type]
    shots.add(display.samples.sample_view("play"))
    shots.flush()
    names = [p.name for p in shots.written]
    assert names == ["001-bidding.png", "002-play.png"]
    assert pygame.image.load(str(shots.written[0])).get_size() == (400, 240)


@pytest.mark.full  # make bench's own code at its quick size: about 3 s
def test_bench_group_keys() -> None:
    from display.bench import bench

    figures = bench(quick=True)
    assert set(figures) >= {"render_ms_800x480", "render_ms_1920x1080", "idle_cpu_share",
                            "first_frame_s"}
    assert all(v > 0 for v in figures.values())
    assert figures["idle_cpu_share"] < 1.0


def test_gallery_writes_every_sample(tmp_path) -> None:
    from display.__main__ import main

    assert main(["--screenshots", str(tmp_path), "--language", "nl", "--size", "400x240"]) == 0
    names = sorted(p.name for p in tmp_path.iterdir())
    assert "play-nl-400x240.png" in names and len(names) >= len(SCENES) + 10
    assert main(["--size", "big"]) == 2


def test_the_docs_screenshots_are_made_by_one_function(tmp_path) -> None:
    """Every kiosk screenshot docs/display.md shows is made again by
    ``write_doc_screenshots`` (the analysis ones by ``write_screenshots``, the pub rules' by
    ``write_pub_screenshots``), so that a change of the look is followed by the docs with
    one command."""
    import re
    from pathlib import Path

    from display.screenshots import doc_screens, write_doc_screenshots

    docs = Path(__file__).resolve().parents[2] / "docs"
    shown = set(re.findall(r"screenshots/([\w-]+\.png)", (docs / "display.md").read_text()))
    made = set(doc_screens())
    assert shown - {n for n in shown if n.startswith(("analysis-", "pub-"))} == made
    written = write_doc_screenshots(tmp_path)
    assert {p.name for p in written} == made
    assert pygame.image.load(str(tmp_path / "portrait-720x1280-de.png")).get_size() == (720, 1280)

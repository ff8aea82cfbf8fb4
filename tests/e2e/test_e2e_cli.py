"""The command line around the table: ``simulate`` (what ``make run`` starts), ``export``,
``replay --screenshot``, and the kiosk wired to the event loop (headless SDL).
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import subprocess
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from e2e_script import ROOT, SCRIPTS, config, replay, replay_process, write_config

from firmware_host.cli import main


def run_cli(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(list(args))
    return status, out.getvalue(), err.getvalue()


def test_make_run_plays_a_readable_series_headless(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    script = tmp_path / "sim.jsonl"
    proc = subprocess.run(
        [sys.executable, "-m", "firmware_host", "simulate", "--seed", "4", "--games", "4",
         "--script", str(script)],
        capture_output=True, text=True, cwd=ROOT, env=env, timeout=120, check=True)
    log = proc.stdout
    for words in ("=== Deal 1: Carla deals ===", "(forehand  )", "skat", "trick  1:",
                  "trick 10:", "    # dealer game", "total", "Series over after 4 deals"):
        assert words in log, words
    assert any(w in log for w in (" bids ", " passes"))
    # The session it played is a table script: replayed, it ends with the same sheet.
    cfg = write_config(tmp_path / "sim.toml", ["Anna", "Ben", "Carla"], 2, series_length=4)
    out = replay(cfg, script)
    assert out["rejected"] == [] and out["phase"] == "over" and len(out["games"]) == 4
    total_line = [line for line in log.splitlines() if line.strip().startswith("total")][-1]
    assert [int(x) for x in total_line.split()[1:]] == out["totals"]


def test_export_writes_iss_records_and_a_script_that_replays(tmp_path: Path) -> None:
    from engine.iss import check_line

    journal = tmp_path / "j.sqlite"
    expected = replay(config("three-series.toml"), SCRIPTS / "series-three.jsonl",
                      "--journal", str(journal))
    status, _, err = run_cli("export", "--journal", str(journal), "--iss",
                             str(tmp_path / "games.sgf"), "--script", str(tmp_path / "s.jsonl"))
    assert status == 0, err
    records = (tmp_path / "games.sgf").read_text(encoding="utf-8").splitlines()
    assert len(records) == len(expected["games"])
    for record in records:
        parsed, problems = check_line(record)
        assert parsed is not None and problems == [], problems
    again = replay(config("three-series.toml"), tmp_path / "s.jsonl")
    assert again == expected
    status, listing, _ = run_cli("export", "--journal", str(journal), "--list")
    assert status == 0 and "Anna, Ben, Carla (finished" in listing


def test_replay_screenshots_one_per_phase_change(tmp_path: Path) -> None:
    """One PNG per phase change (deal, bidding, declaration before and after the pick-up,
    the play and each completed trick, the result, the next deal) and one per refusal; stdout
    of ``--json`` stays pure JSON although pygame is imported."""
    pytest.importorskip("pygame")
    lines = (SCRIPTS / "series-three.jsonl").read_text(encoding="utf-8").splitlines()
    first_game = 32 + 5 + 2 + 30  # deal, presses, discards, ten tricks
    assert "zone" in lines[first_game] and "zone" in lines[first_game - 1]
    script = tmp_path / "s.jsonl"
    script.write_text("\n".join(lines[:first_game + 1])
                      + '\n{"seat": 0, "press": "yes"}\n', encoding="utf-8")
    shots = tmp_path / "shots"
    proc = replay_process(config("three-series.toml"), script, "--json",
                          "--screenshot", str(shots))
    out = json.loads(proc.stdout)  # nothing but the JSON object on stdout
    assert len(out["games"]) == 1 and out["phase"] == "dealing"
    assert [r["line"] for r in out["rejected"]] == [first_game + 2]
    names = sorted(p.name for p in shots.glob("*.png"))
    scenes = [name[4:-4] for name in names]
    assert scenes == (["deal", "bidding", "declaration", "declaration"] + ["play"] * 10
                      + ["result", "deal", "deal-refused"])
    assert names[0] == "001-deal.png"


def test_kiosk_in_the_event_loop_with_computer_seats() -> None:
    pytest.importorskip("pygame")
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    from display.kiosk import Kiosk
    from engine.deal import Deal
    from firmware_host.config import simulated_config
    from firmware_host.series.session import Session
    from firmware_host.service.runner import EventLoop
    from firmware_host.table.inputs import TagLaid

    cfg = simulated_config(computer_seats=(1, 2), seed=5, series_length=None)
    cfg = replace(cfg, table=replace(cfg.table, series_length=None))
    session = Session(cfg, computer_seats=(1, 2))
    kiosk = Kiosk(size=(800, 480))
    loop = EventLoop(session, show=kiosk.show)  # the real table: people lay the cards
    tags = cfg.card_tags()
    wrong_card_refused = False
    try:
        loop.refresh()
        assert kiosk.view.scene == "deal" and not kiosk.view.simulator
        # Deal after deal until a computer seat has had to have a card laid in play.
        for seed in range(8):
            for card in Deal.shuffled(seed).dealt_order():
                loop.handle(TagLaid("deal", tags[card]))
            assert kiosk.view.scene in ("bidding", "declaration", "play", "result")
            play_out(session, loop, kiosk, tags)
            assert session.table.phase == "scored"
            assert kiosk.view.scene == "result" and kiosk.frames > 0
            if session.rejected:
                wrong_card_refused = True
                break
        assert wrong_card_refused and len(session.rejected) == 1
        assert "please lay" in session.rejected[0].reason
    finally:
        kiosk.close()


def play_out(session: Any, loop: Any, kiosk: Any, tags: dict) -> None:
    """Anna (seat 0) is the person; the computer seats answer by themselves, and once a
    person lays a wrong card for a computer seat."""
    from display import commands as c
    from firmware_host.table.computers import to_move
    from firmware_host.table.inputs import TagGone, TagLaid

    for _ in range(400):
        table = session.table
        if table.phase in ("scored", "over"):
            return
        seat = table.seat_to_act()
        if seat in table.prompts:  # "Ben plays SA: please lay it"
            card = table.prompts[seat]
            assert kiosk.view.prompt is not None and kiosk.view.prompt.seat == seat
            assert kiosk.view.prompt.card == card
            others = [x for x in table.game.legal_cards() if x != card]
            if others and table.phase == "play" and not session.rejected:
                out = loop.handle(TagLaid("centre", tags[others[0]]))
                assert out is not None and out.status == "refused"
                assert f"please lay {card}" in out.refusal.reason
                assert kiosk.view.refusal is not None
                loop.handle(TagGone("centre", tags[others[0]]))
            zone = "centre" if table.phase == "play" else "skat"
            loop.handle(TagLaid(zone, tags[card]))
        elif seat == 0:
            move = to_move(table.game.legal_actions()[0], 0)
            loop.handle(c.LayCard(0, move.card) if move.card is not None else move.input)
        else:
            pytest.fail(f"nobody acts for seat {seat} in phase {table.phase}")


def test_kiosk_shows_a_refusal_banner() -> None:
    pytest.importorskip("pygame")
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    from display import commands as c
    from display.kiosk import Kiosk
    from firmware_host.config import simulated_config
    from firmware_host.series.session import Session
    from firmware_host.service.runner import EventLoop

    session = Session(simulated_config(computer_seats=()))
    kiosk = Kiosk(size=(800, 480))
    loop = EventLoop(session, show=kiosk.show)
    try:
        loop.handle(c.Press(1, "bid"))
        assert kiosk.view.refusal is not None
        assert kiosk.view.refusal.detail.startswith("the cards are still being dealt")
    finally:
        kiosk.close()


def test_simulate_with_a_wrong_config_exits_2(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text('[table]\nplayers = ["A"]\n', encoding="utf-8")
    status, out, err = run_cli("simulate", "--headless", "--config", str(bad))
    assert status == 2 and out == "" and "[table] players" in err


def test_simulate_a_house_rules_config_without_a_deck(tmp_path: Path) -> None:
    """A config written to try rules in the simulator needs no enrolled deck: the simulator
    lays made-up tags, as it does with no config at all."""
    cfg = tmp_path / "pub.toml"
    cfg.write_text('[table]\nplayers = ["Anna", "Ben", "Carla"]\nrules = "pub"\n'
                   'series_length = 2\n[house]\nkontra_re = true\nramsch = true\n',
                   encoding="utf-8")
    status, out, err = run_cli("simulate", "--headless", "--config", str(cfg), "--seed", "4")
    assert status == 0, err
    assert "Series over after 2 deals" in out and "refused" not in out


def test_help_for_every_command() -> None:
    for command in ("run", "simulate", "enroll", "replay", "export"):
        with pytest.raises(SystemExit) as done:
            run_cli(command, "--help")
        assert done.value.code == 0


def test_simulate_four_players_dealing_onto_the_pads(tmp_path: Path) -> None:
    cfg = write_config(tmp_path / "pads.toml", ["Anna", "Ben", "Carla", "Dieter"], 1,
                       deal_mode="seats", series_length=3)
    status, out, err = run_cli("simulate", "--headless", "--config", str(cfg), "--seed", "9",
                               "--ascii", "--script", str(tmp_path / "pads.jsonl"))
    assert status == 0, err
    assert "=== Deal 1: Ben deals ===" in out and "Series over after 3 deals" in out
    assert "refused" not in out
    lines = (tmp_path / "pads.jsonl").read_text(encoding="utf-8").splitlines()
    zones = {json.loads(line).get("zone") for line in lines}
    assert {"seat0", "seat2", "seat3", "centre"} <= zones and "deal" not in zones
    again = replay(cfg, tmp_path / "pads.jsonl")
    assert again["rejected"] == [] and again["phase"] == "over"


def test_simulate_window_runs_the_kiosk_loop(tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """``simulate --window`` end to end on SDL's dummy driver: 32 clicks deal, the computer
    seats bid, then the window is closed; the journal holds what happened."""
    pytest.importorskip("pygame")
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    from display import commands as c
    from display.kiosk import Kiosk
    from firmware_host.series.journal import Journal

    batches = [[c.DealNext()] * 32, [], [c.Quit()]]

    def scripted_wait(self: Kiosk, timeout: float) -> list:
        batch = batches.pop(0) if batches else [c.Quit()]
        if any(isinstance(x, c.Quit) for x in batch):
            self.closed = True
        return batch

    monkeypatch.setattr(Kiosk, "wait_events", scripted_wait)
    journal = tmp_path / "sim" / "window.sqlite"
    status, _, err = run_cli("simulate", "--window", "--journal", str(journal), "--seed", "3")
    assert status == 0, err
    j = Journal.open(journal)
    (sid, _, _), = j.all_series()
    entries = j.entries(sid)
    dealt = [e for e in entries if e.input.get("zone") == "deal" and e.status == "accepted"]
    assert len(dealt) == 32
    assert any(e.source == "computer" for e in entries)  # Ben and Carla answered by themselves
    j.close()


def test_output_cut_short_by_a_pipe_ends_quietly() -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    # 60 deals write more than a pipe holds, so the writer surely meets the closed end.
    proc = subprocess.Popen([sys.executable, "-m", "firmware_host", "simulate", "--seed", "1",
                             "--games", "60"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT, env=env)
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.readline()
    proc.stdout.close()  # like `| head -1`
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=60) == 0
    assert "Traceback" not in err and "BrokenPipe" not in err


def test_exported_script_keeps_refused_and_unreadable_lines(tmp_path: Path) -> None:
    from test_e2e_hands import THREE, refusal_script

    script, _ = refusal_script()
    script.lines.insert(3, "this line is not JSON")
    source = script.write(tmp_path / "bad.jsonl")
    journal = tmp_path / "j.sqlite"
    expected = replay(THREE, source, "--journal", str(journal))
    status, _, err = run_cli("export", "--journal", str(journal), "--script",
                             str(tmp_path / "exported.jsonl"))
    assert status == 0, err
    again = replay(THREE, tmp_path / "exported.jsonl")
    assert again == expected  # the same games, and the same refusals on the same lines
    assert any("not JSON" in r["reason"] or "not a JSON" in r["reason"]
               for r in again["rejected"])

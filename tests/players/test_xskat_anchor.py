"""XSkat 4.0 as the duel's anchor (lab/anchor/xskat.py; docs/players.md, "The anchor: XSkat
4.0").

The tests that play need XSkat's source, which is not ours to ship: set ``XSKAT_SRC`` to an
unpacked XSkat 4.0 tree (``apt-get source xskat``, xskat.de, or ``git archive 30657fd`` of
github.com/mfrasca/xskat). Without it they are skipped, saying so. The protocol's failure
paths (a process that dies, hangs or talks nonsense) are tested with stand-in programs and
need no source.
"""

from __future__ import annotations

import doctest
import os
import shutil
import stat
from pathlib import Path

import pytest

from engine.actions import Action
from engine.cards import Card
from engine.deal import Deal
from engine.game import Game, Rules
from engine.players.base import SeatView
from engine.players.rule import RulePlayer
from engine.players.strength import DuelSettings, run_duel
from engine.players.table import play_game
from firmware_host.cli import main
from lab.anchor import xskat
from lab.anchor.xskat import (
    XSkatError,
    XSkatPlayers,
    XSkatSourceError,
    XSkatTable,
    build,
    dealer_for,
    find_source,
    xskat_seat,
)

SRC = os.environ.get("XSKAT_SRC")
needs_source = pytest.mark.skipif(
    not SRC, reason="XSKAT_SRC is not set: no XSkat 4.0 source to build the anchor from")


@pytest.fixture(scope="module")
def binary(tmp_path_factory: pytest.TempPathFactory) -> str:
    return str(build(find_source(SRC), cache=tmp_path_factory.mktemp("cache")))


def test_docstring_examples() -> None:
    from lab.anchor import xskat_debian

    for module in (xskat, xskat_debian):
        result = doctest.testmod(module)
        assert result.attempted > 0 and result.failed == 0


def test_cards_map_one_to_one_and_keep_suit_and_rank() -> None:
    codes = {xskat.to_xskat(c) for c in Card}
    assert codes == set(range(32))
    # XSkat: suit*8+rank, suits diamonds hearts spades clubs, ranks A T K Q J 9 8 7
    assert xskat.to_xskat(Card.DA) == 0 and xskat.to_xskat(Card.CJ) == 3 * 8 + 4
    assert xskat.to_xskat(Card.ST) == 2 * 8 + 1 and xskat.to_xskat(Card.H7) == 1 * 8 + 7
    with pytest.raises(XSkatError, match="card 32"):
        xskat.from_xskat(32)


@pytest.mark.parametrize("ours", [(), (0,), (1,), (2,), (0, 1), (0, 2), (1, 2)])
def test_our_positions_are_xskats_first_seats(ours: tuple[int, ...]) -> None:
    dealer = dealer_for(ours)
    assert sorted(xskat_seat(p, dealer) for p in ours) == list(range(len(ours)))
    # XSkat's forehand sits after its dealer, as ours after our dealer
    assert xskat_seat(0, dealer) == (dealer + 1) % 3


def test_the_game_file_gives_every_card_once() -> None:
    d = Deal.shuffled(11)
    who = xskat.game_file(d).split()
    assert len(who) == 32 and who.count("0") == 2
    assert all(who.count(k) == 10 for k in "123")
    # forehand's cards are written 3, middlehand's 1, rearhand's 2
    for pos, mark in ((0, "3"), (1, "1"), (2, "2")):
        for c in Card:
            if d.hands[pos] >> c & 1:
                assert who[xskat.to_xskat(c)] == mark


def test_no_source_is_a_clear_error(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                    capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.delenv("XSKAT_SRC", raising=False)
    with pytest.raises(XSkatSourceError, match="--xskat-src"):
        find_source(None)
    with pytest.raises(XSkatSourceError, match=r"not an XSkat source tree: no skat\.c"):
        find_source(tmp_path)
    assert main(["duel", "--a", "rule", "--b", "xskat", "--deals", "1", "--quiet"]) == 2
    err = capsys.readouterr().err
    assert "XSkat 4.0's source" in err and "XSKAT_SRC" in err


def test_xskat_refuses_house_rules(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["duel", "--a", "rule", "--b", "xskat", "--rules", "kontra_re", "--deals", "1"])
    assert code == 2
    assert "plain ISkO" in capsys.readouterr().err


# ----------------------------------------------------------------- failures, with stand-ins


def _stand_in(tmp_path: Path, script: str) -> str:
    p = tmp_path / "xskat-table"
    p.write_text("#!/bin/sh\n" + script)
    p.chmod(p.stat().st_mode | stat.S_IXUSR)
    return str(p)


def _first_view(table: XSkatTable) -> SeatView:
    return SeatView.of(Game(table.deal), 1)  # middlehand speaks first


def test_a_hanging_xskat_times_out_with_a_message(tmp_path: Path) -> None:
    t = XSkatTable(_stand_in(tmp_path, "exec sleep 30\n"), Deal.shuffled(1), (1, 2), 5,
                   timeout=0.5)
    try:
        with pytest.raises(XSkatError, match=r"no answer within 0.5 s \(it hangs\)"):
            t.player(1).choose(_first_view(t))
    finally:
        t.close()


def test_an_xskat_that_dies_is_named(tmp_path: Path) -> None:
    t = XSkatTable(_stand_in(tmp_path, "read x; echo 'broken' >&2; exit 7\n"), Deal.shuffled(1),
                   (1, 2), 5)
    try:
        with pytest.raises(XSkatError, match=r"ended unexpectedly.*exit status 7.*broken"):
            t.player(1).choose(_first_view(t))
    finally:
        t.close()


def test_nonsense_and_illegal_decisions_are_refused(tmp_path: Path) -> None:
    deal = Deal.shuffled(1)
    # ours: forehand (XSkat seat 0); XSkat's middlehand is its seat 1
    assert xskat_seat(1, dealer_for((0,))) == 1
    for script, match in (
        ("read x; echo 'hello 1'\n", "a line it should not say"),
        ("read x; echo 'bid 1 17'\n", "not legal in our engine"),        # 17 is no bid
        ("read x; echo 'play 1 3'\n", "not legal in our engine"),        # a card while bidding
        ("read x; echo 'bid 2 18'\n", "its rearhand acted"),             # out of turn
        ("read x; echo 'ask bid 0'\n", "waits for our forehand"),        # a deadlock
        ("read x; echo 'error bidding stalled'\n", "it refused: bidding stalled"),
    ):
        t = XSkatTable(_stand_in(tmp_path, script + "sleep 5\n"), deal, (1, 2), 5, timeout=5)
        try:
            with pytest.raises(XSkatError, match=match):
                t.player(1).choose(_first_view(t))
        finally:
            t.close()


def test_a_missing_binary_is_named() -> None:
    with pytest.raises(XSkatError, match="cannot start /nonexistent/xskat-table"):
        XSkatTable("/nonexistent/xskat-table", Deal.shuffled(1), (1,), 1)


def test_house_rules_are_refused_by_the_factory() -> None:
    with pytest.raises(XSkatError, match="plain ISkO"):
        XSkatPlayers("/nonexistent").table(Deal.shuffled(1), (1,), 1,
                                          Rules.from_names(["kontra_re"]))


# ----------------------------------------------------------------- with XSkat's source


@needs_source
def test_self_play_agrees_with_our_engine(binary: str) -> None:
    """XSkat on all three seats, refereed by our engine: every decision legal, every result
    (won, value, card points, bid) the same."""
    r = run_duel(DuelSettings(a="xskat", b="xskat", deals=8, seed=4,
                              outside=XSkatPlayers(binary)))
    assert r.games == 48
    assert r.checks.get("agree", 0) + r.checks.get("unchecked", 0) == 48, r.notes
    assert r.checks.get("agree", 0) >= 40


@needs_source
@pytest.mark.parametrize("other", ["rule", "random"])
def test_mixed_tables_agree_with_our_engine(binary: str, other: str) -> None:
    """Our players on one or two of XSkat's seats: XSkat hears every action (our declarer's
    discard too) and its own result matches ours."""
    r = run_duel(DuelSettings(a=other, b="xskat", deals=4, seed=9,
                              outside=XSkatPlayers(binary)))
    assert r.games == 24
    assert r.checks.get("disagree", 0) == 0, r.notes
    assert r.stats["B"].seats == 36


@needs_source
def test_the_duel_cli_plays_xskat_end_to_end(capsys: pytest.CaptureFixture[str]) -> None:
    assert SRC is not None
    code = main(["duel", "--a", "rule", "--b", "xskat", "--xskat-src", SRC, "--deals", "2",
                 "--seed", "900", "--quiet"])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "rule vs xskat, full game: 2 deals, 12 games" in out
    assert "XSkat's own results against our engine's: 12 games, 12 agree" in out


@needs_source
@pytest.mark.parametrize("after", [1, 4, 20])
def test_xskat_killed_mid_game_stops_with_a_message(binary: str, after: int) -> None:
    deal = Deal.shuffled(21)
    t = XSkatTable(binary, deal, (1, 2), 3, timeout=5)
    seen = []

    def observe(pos: int, action: Action, seconds: float) -> None:
        t.observe(pos, action, seconds)
        seen.append(action)
        if len(seen) == after:
            t.proc.kill()
            t.proc.wait()

    try:
        with pytest.raises(XSkatError, match=r"XSkat: the process (is gone|ended unexpectedly)"):
            g = play_game(deal, [RulePlayer(1), t.player(1), t.player(2)], on_decision=observe)
            t.finish(g)
    finally:
        t.close()


@needs_source
def test_the_build_is_cached(binary: str, tmp_path: Path) -> None:
    assert SRC is not None
    first = build(find_source(SRC), cache=tmp_path)
    mtime = first.stat().st_mtime_ns
    again = build(find_source(SRC), cache=tmp_path)
    assert again == first and again.stat().st_mtime_ns == mtime


@needs_source
def test_a_result_that_differs_is_reported_as_a_disagreement(binary: str) -> None:
    deal = Deal.shuffled(30)
    t = XSkatTable(binary, deal, (0, 1, 2), 3, timeout=5)
    try:
        g = play_game(deal, [t.player(0), t.player(1), t.player(2)], on_decision=t.observe)
        assert t.finish(g) == ("agree", "")
        assert t.ending is not None and t.ending[0] == "result"
        # the same game, had XSkat counted two card points more for the declarer
        e = list(t.ending)
        e[3] = str(int(e[3]) + 2)
        t.ending = tuple(e)
        verdict, note = t.finish(g)
        assert verdict == "disagree" and "XSkat: won" in note and "our engine: won" in note
    finally:
        t.close()


# ----------------------------------------------------------------- against Debian's xskat

DEBIAN_LOG = """\
 Computer1   Computer2   Computer3
----------------------------------------
  Heart K     Heart_A     CLUB A
  CLUB J      Club 9      Spade_J
---- random_seed 2 0 1 -----------------
  CLUB J      CLUB 9      SPADE J
----------------------------------------
Skat is: Heart 7,Spade Q
Last bid: 18
Computer3 played Club
Won with: 69 points
========================================
"""


def test_debians_log_is_read() -> None:
    from lab.anchor.xskat_debian import parse_debian_log, parse_our_events

    g = parse_debian_log(DEBIAN_LOG)
    hk, ha, ca = 1 * 8 + 2, 1 * 8 + 0, 3 * 8 + 0
    assert g.tricks[0] == (hk, ha, ca) and len(g.tricks) == 2
    assert (g.declarer, g.game, g.bid, g.won, g.points) == (2, 3, 18, True, 69)
    ours = parse_our_events(f"play 1 {ha}\nplay 2 {ca}\nplay 0 {hk}\n"
                            "declare 2 3 0 0 0 0 15 11\nresult 1 24 69 10 18\n")
    assert ours.tricks == g.tricks[:1] and ours.declarer == 2 and ours.points == 69


@needs_source
@pytest.mark.skipif(not Path("/usr/games/xskat").exists() or not shutil.which("Xvfb"),
                    reason="no Debian xskat (apt-get install xskat) or no Xvfb")
def test_our_build_plays_as_debians_xskat() -> None:
    """Debian's XSkat 4.0 (its own X11 window, under Xvfb) and our build, given the same
    random_seed, deal the same cards and play the same game card for card."""
    from lab.anchor import xskat_debian

    assert SRC is not None
    server, display = xskat_debian.start_xvfb()
    try:
        binary = str(build(find_source(SRC)))
        same, diffs = xskat_debian.compare(binary, 12, seed=77, display=display)
    finally:
        server.kill()
        server.wait()
    assert diffs == [] and same == 12

"""The double-dummy share of declared games (the measurement behind ``CALIB_SUIT``)."""

from __future__ import annotations

import os

import pytest
from fullrun import size

from engine.deal import Deal
from engine.game import Game
from engine.players import make_player
from engine.players.ddshare import ShareTable, dd_share
from engine.players.table import play_game


def _rule_game(seed: int) -> Game:
    return play_game(Deal.shuffled(seed), [make_player("rule", seed=p) for p in range(3)])


def test_a_share_is_that_of_the_contract_the_declarer_played() -> None:
    shares = []
    for seed in range(12, size(26, 40)):  # seed 18 is passed in
        g = _rule_game(seed)
        r = g.result
        assert r is not None
        if r.declarer is None or r.passed_in:
            with pytest.raises(ValueError, match="not declared"):
                dd_share(g, worlds=2)
            continue
        share = dd_share(g, worlds=6, seed=1)
        assert 0.0 <= share <= 1.0
        assert dd_share(g, worlds=6, seed=1) == share  # the same worlds for the same seed
        shares.append(share)
    assert len(shares) > size(10, 15) and len(set(shares)) > 2  # neither all won nor all lost


def test_the_share_table_bins_exact_zero_and_one_apart() -> None:
    t = ShareTable()
    for game, share, won in [(0, 0.0, True), (1, 0.01, True), (2, 0.25, False),
                             (4, 0.99, True), (4, 1.0, True), (5, 1.0, False)]:
        t.add(game, share, won)
    assert t.cells == {("suit", 0): [1, 1], ("suit", 1): [1, 1], ("suit", 2): [0, 1],
                       ("grand", 4): [1, 1], ("grand", 5): [1, 1], ("null", 5): [0, 1]}
    assert t.lines()[1].split()[:3] == ["0", "1/1", "100"]


def test_the_ddshare_harness_needs_xskat(capsys: pytest.CaptureFixture[str],
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    from lab.ddshare import main

    monkeypatch.delenv("XSKAT_SRC", raising=False)
    assert main(["--deals", "1"]) == 2
    assert "XSkat" in capsys.readouterr().err


@pytest.mark.skipif(not os.environ.get("XSKAT_SRC"),
                    reason="XSKAT_SRC is not set: no XSkat 4.0 source to build the anchor from")
def test_the_ddshare_harness_counts_the_players_declarations(
        capsys: pytest.CaptureFixture[str]) -> None:
    from lab.ddshare import main

    assert main(["--player", "rule", "--deals", "2", "--worlds", "2", "--seed", "5"]) == 0
    out = capsys.readouterr().out
    declared = int(out.split("declared by rule ")[1].split()[0])
    assert out.count("| share ") == declared
    counts = [int(c.split("/")[1]) for line in out.splitlines()[-6:]
              for c in line.split() if "/" in c]
    assert sum(counts) == declared

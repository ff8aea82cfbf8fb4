"""lab.bidding: computer-only games counted for the bidding a club player would not accept."""

from __future__ import annotations

from engine.cards import JACKS
from engine.contract import GameType
from engine.players.evaluate import BASE_VALUES
from lab.bidding import BiddingCount, deal_seed, main, play_one, run


def test_the_club_limits_remove_the_jackless_suit_games_bid_high() -> None:
    """The same 300 deals: the rule player before the club limits bids jackless suit games
    above twice their base value; the club player (almost) never does, and overbids no
    more."""
    old = run("rule-no-clubbid", 300, seed=4000)
    new = run("club", 300, seed=4000)
    assert old.games == new.games == 300
    assert old.jackless_over >= 5 and new.jackless_over <= old.jackless_over // 5
    assert new.overbid_lost <= old.overbid_lost


def test_each_counted_game_is_what_its_name_says() -> None:
    count = BiddingCount()
    for i in range(120):
        s = deal_seed(4001, i)
        g = play_one("rule-no-clubbid", s, 1.0, None, None)
        before = count.jackless_over
        count.add(g, s)
        if count.jackless_over > before:
            assert g.contract is not None and g.declarer is not None
            gt = int(g.contract.game)
            assert gt < GameType.GRAND and not g.deal.hands[g.declarer] & JACKS
            assert g.bid > 2 * BASE_VALUES[gt]
    assert count.games == 120 and count.declared <= 120
    summary = count.summary()
    assert summary["jackless_over_per_1000"] == round(1000 * count.jackless_over / 120, 2)


def test_the_command_line_says_what_is_missing(capsys) -> None:  # type: ignore[no-untyped-def]
    import os

    env = os.environ.pop("XSKAT_SRC", None)
    try:
        assert main(["--player", "xskat", "--deals", "1", "--xskat-src", "/nonexistent"]) == 2
    finally:
        if env is not None:
            os.environ["XSKAT_SRC"] = env
    assert "lab.bidding:" in capsys.readouterr().err

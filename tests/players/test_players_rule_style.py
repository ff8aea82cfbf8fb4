"""The rule player's options (``engine.players.evaluate.Style``): the 2025 player stays
playable unchanged, each option does what it says, and the names reach the duel."""

from __future__ import annotations

import hashlib
import random

import pytest

from engine.cards import parse_mask
from engine.deal import Deal
from engine.game import ISKO, Game, Phase, Rules
from engine.players import PlayerError, make_player, rule_style
from engine.players import evaluate as ev
from engine.players.base import SeatView
from engine.players.rule import RulePlayer, choose_game
from engine.players.table import play_game
from engine.trick import BEATS, FOLLOW


def _fingerprint(style: ev.Style, rules: Rules, deals: int = 60) -> str:
    h = hashlib.sha256()
    for s in range(deals):
        g = play_game(Deal.shuffled(s), [RulePlayer(s * 3 + i, style=style) for i in range(3)],
                      rules=rules)
        h.update(" ".join(str(a) for a in g.actions).encode())
    return h.hexdigest()[:16]


def test_rule_2025_plays_exactly_as_the_rule_player_before_the_options() -> None:
    # digests of every action in 60 games of three RulePlayer(seed) at commit b31362a
    assert _fingerprint(ev.Style.legacy(), ISKO) == "3506029afc02bc02"
    assert _fingerprint(ev.Style.legacy(),
                        Rules.from_names(["ramsch", "kontra_re"])) == "6a55eba302bd7d5f"
    assert _fingerprint(ev.Style(), ISKO) != "3506029afc02bc02"


def test_styled_bid_limit_is_the_old_one_with_every_option_off() -> None:
    rng = random.Random(3)
    for _ in range(300):
        hand = 0
        while hand.bit_count() < 10:
            hand |= 1 << rng.randrange(32)
        assert ev.styled_bid_limit(hand, ev.Style.legacy()) == ev.bid_limit(hand)
        # the held level never exceeds the nominal one
        assert (ev.styled_bid_limit(hand, ev.Style(bidding=True))
                <= ev.styled_bid_limit(hand, ev.Style()))


def test_null_safety_per_suit() -> None:
    assert ev.null_unsafe_suits(parse_mask("C7 C9 CJ CK S7 S8 S9 ST")) == []
    assert ev.null_unsafe_suits(parse_mask("C8")) == [0]            # the 7 leads under it
    assert ev.null_unsafe_suits(parse_mask("S7 ST")) == [1]         # the 8 and 9 duck the 7
    assert ev.null_unsafe_suits(parse_mask("C7 HA DQ")) == [2, 3]
    assert ev.null_unsafe_cards(parse_mask("C7 S7 SA H7 D7 D8 DT DQ DK DA")) == 2
    assert ev.null_biddable(parse_mask("C7 C9 S7 SA H7 H8 H9 D7 D8 D9"))
    assert not ev.null_biddable(parse_mask("C7 CA S7 SA H7 HA H9 D7 D8 D9"))
    # forehand leads: without a 7 it cannot lead safely
    no_seven = parse_mask("C8 CT S8 ST H8 HT D8 DT C9 S9")
    assert ev.null_unsafe_cards(no_seven) > 2 and not ev.null_biddable(no_seven, forehand=True)


def test_grand_score_wants_two_jacks_and_standing_cards() -> None:
    four = parse_mask("CJ SJ HJ DJ CA CT CK C9 SA S7")
    one = parse_mask("CJ CA CT CK SA ST SK HA HT DA")
    weak = parse_mask("CJ DJ CQ C9 S8 S7 HQ H9 D8 D7")
    assert ev.grand_score(four) >= ev.GRAND_NEED
    assert ev.grand_score(one) < ev.GRAND_NEED       # seven tricks, but one jack
    assert ev.grand_score(weak) < ev.GRAND_NEED
    assert ev.grand_score(four, forehand=True) == ev.grand_score(four) + 0.5


def test_held_level_counts_a_missing_jack_in_the_skat() -> None:
    assert ev.held_level(parse_mask("CJ SJ HJ"), 0) == 4   # with 3: the skat cannot lower it
    assert ev.held_level(parse_mask("SJ"), 0) == 2         # without 1: CJ in the skat -> with 2
    assert ev.held_level(parse_mask("HJ"), 0) == 2         # without 2 may become with 1
    assert ev.held_level(parse_mask("C7"), 4) == 2         # without 4 likewise


def test_contract_choice_declares_a_safe_grand_and_avoids_an_unsafe_null() -> None:
    cards = parse_mask("C8 C9 CT CJ CA S7 H7 H9 HJ HK DT DA")
    assert choose_game(cards, 18, ev.Style.legacy()) == ev.GRAND - 2   # hearts
    assert choose_game(cards, 18, ev.Style().without("twojacks")) == ev.GRAND
    # two jacks and two aces: ``twojacks`` (measured against XSkat) keeps the suit game,
    # in its longest suit (``longtrump``: clubs)
    assert choose_game(cards, 18, ev.Style().without("longtrump")) == ev.GRAND - 2
    assert choose_game(cards, 18, ev.Style()) == 0
    unsafe = parse_mask("C7 CQ S7 S8 SJ SQ SK SA H9 HT D7 DJ")
    assert choose_game(unsafe, 18, ev.Style.legacy()) == ev.NULL
    assert ev.null_unsafe_suits(unsafe & ~ev.discard(unsafe, ev.NULL))
    assert choose_game(unsafe, 18, ev.Style(null=True)) != ev.NULL
    safe = parse_mask("C7 C8 C9 S7 S9 SJ H7 H8 D7 D9 DK DA")
    assert choose_game(safe, 18, ev.Style(null=True)) == ev.NULL


def _second_hand_positions(style: ev.Style, deals: int):
    """(view, card of ``style``, card of 2025) where the two disagree, from games of
    ``style`` players."""
    old = RulePlayer(0, style=ev.Style.legacy())
    for s in range(deals):
        g = Game(Deal.shuffled(s))
        players = [RulePlayer(s + i, style=style) for i in range(3)]
        while g.result is None:
            pos = g.to_act
            view = SeatView.of(g, pos)
            action = players[pos].choose(view)
            if g.phase == Phase.PLAY and view.game_type != ev.NULL:
                before = old.choose(view)
                if before != action:
                    yield view, action.card, before.card  # type: ignore[attr-defined]
            g.push(action)


def test_the_play_option_only_takes_tricks_the_third_hand_must_follow() -> None:
    seen = 0
    for view, card, _ in _second_hand_positions(ev.Style.legacy().with_("play"), 120):
        g = int(view.game_type)
        assert len(view.trick) == 1                   # second hand only
        assert BEATS[g][view.trick[0]] >> card & 1     # and it takes the trick so far
        third = (view.pos + 1) % 3
        assert not view.voids[third] & FOLLOW[g][view.trick[0]]
        seen += 1
    assert seen > 10


def test_the_defence_option_changes_only_defenders_cards() -> None:
    seen = 0
    for view, _card, _old in _second_hand_positions(ev.Style.legacy().with_("defence"), 120):
        assert view.pos != view.declarer
        assert len(view.trick) == 1
        seen += 1
    assert seen > 5


def test_player_names_for_styles() -> None:
    assert make_player("rule").style == ev.Style()                    # type: ignore[attr-defined]
    assert make_player("rule-2025").style == ev.Style.legacy()        # type: ignore[attr-defined]
    p = make_player("rule-2025+grand+play")
    assert p.name == "rule-2025+grand+play"
    assert p.style == ev.Style.legacy().with_("grand").with_("play")  # type: ignore[attr-defined]
    assert rule_style("rule-no-grand") == ev.Style().without("grand")
    for bad in ("rule-no-magic", "rule-2025+magic", "rule-2025x", "rulez"):
        assert rule_style(bad) is None
        with pytest.raises(PlayerError, match="rule-no-OPTION"):
            make_player(bad)

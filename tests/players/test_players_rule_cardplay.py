"""The rule player's card-play options against XSkat: each rule chooses the card an expert would
where the 2025 player did not (docs/players.md, "What was learned", card play)."""

from __future__ import annotations

from rulekit import hand_game as _game
from rulekit import rule_card as _card

from engine.actions import Pass, Play
from engine.cards import Card, parse_mask
from engine.game import ISKO, Game
from engine.players import evaluate as ev
from engine.players.base import SeatView
from engine.players.rule import RulePlayer, choose_game

ALL = 0xFFFFFFFF


CARD_OPTIONS = ("leads", "drawing", "discards", "voids", "banking")
NEW = OLD = ev.Style()
for _name in CARD_OPTIONS:
    NEW, OLD = NEW.with_(_name), OLD.without(_name)
DEFENDER = "H7 H8 H9 HK C7 C8 D8 S7 S8 CQ"  # hearts long, clubs two, diamonds one


def test_a_defender_leads_his_long_suit_through_a_declarer_who_plays_next() -> None:
    g = _game({0: DEFENDER}, declarer=1, contract="SH")
    assert _card(NEW, g) == "H7"
    assert _card(OLD, g) != _card(NEW, g)


def test_a_defender_leads_his_short_suit_up_to_a_declarer_who_plays_last() -> None:
    g = _game({0: DEFENDER}, declarer=2, contract="SH")
    assert _card(NEW, g) == "D8"
    assert _card(OLD, g) != _card(NEW, g)


def test_a_defender_does_not_lead_away_the_guard_of_his_ten() -> None:
    # short suit up to the declarer, but the short hearts are ten and seven
    g = _game({0: "HT H7 C7 C8 C9 D7 D8 D9 S7 S8"}, declarer=2, contract="SH")
    assert _card(NEW, g) in ("C7", "D7")


def test_a_declarer_short_of_trumps_cashes_his_aces_before_leading_one() -> None:
    # two small trumps against nine: drawing would only give the defenders the lead
    g = _game({0: "S7 S8 CA CK C9 HA H9 H8 DA D7"}, declarer=0, contract="SH")
    assert _card(NEW, g) in ("CA", "HA", "DA")
    assert _card(OLD, g) == "S7"
    # with four trumps he draws theirs first
    g = _game({0: "S7 S8 S9 SQ CA CK HA H9 DA D7"}, declarer=0, contract="SH")
    assert _card(NEW, g) == "S7"


def test_a_defender_who_cannot_follow_keeps_the_guard_of_his_ten() -> None:
    g = _game({0: "CA CK CQ C9 SJ HJ DJ SA ST S9", 1: "HT H7 D7 D8 D9 DK S7 S8 SK DA"},
              declarer=0, contract="SH")
    g.push(Play(0, Card.C9))  # no points: not worth a trump
    assert g.to_act == 1 and not SeatView.of(g, 1).hand & 0xFF   # void in clubs
    assert _card(NEW, g) == "D7"
    assert _card(OLD, g) == "H7"


def test_the_last_hand_takes_a_trick_with_its_trump_ace_not_the_seven() -> None:
    g = _game({0: "CA CK CQ SK SQ HK HQ DK DQ D9", 2: "HA H7 HJ SA ST S7 DA DT D7 D8"},
              declarer=2, contract="HH")
    g.push(Play(0, Card.CA))
    g.push(Play(1, Card.C7))
    assert _card(NEW, g) == "HA"   # 11 more points, safe from the jacks
    assert _card(OLD, g) == "H7"


def test_the_second_hand_banks_only_with_a_card_the_third_cannot_beat() -> None:
    # the declarer in second hand over a small spade: ace and ten both stand (he holds the
    # ace), so the ace goes on; the 2025 player took it with the queen, which the king beats
    g = _game({0: "S7 CK CQ C9 HK HQ DK DQ D9 D8", 1: "SA ST SQ CA CT HA HT DA DT H7"},
              declarer=1, contract="CH")
    g.push(Play(0, Card.S7))
    assert _card(NEW, g) == "SA"
    assert _card(OLD, g) == "SQ"
    # without the ace neither ten nor queen stands: no ten goes on, the cheapest card
    g = _game({0: "S7 CK CQ C9 HK HQ DK DQ D9 D8", 1: "S8 ST SQ CA CT HA HT DA DT H7"},
              declarer=1, contract="CH")
    g.push(Play(0, Card.S7))
    assert _card(NEW, g) == _card(OLD, g) == "S8"


def test_the_discard_makes_a_void_with_the_voids_option() -> None:
    twelve = parse_mask("C7 CK SJ SK SA H7 H9 HJ HA D7 H8 DK")
    assert ev.discard(twelve, 2) == parse_mask("CK DK")             # points away
    # clubs or diamonds void (4 points either way): he can ruff the defenders' ace there
    assert ev.discard(twelve, 2, voids=True) in (parse_mask("C7 CK"), parse_mask("D7 DK"))


# Options measured against XSkat and left off (docs/players.md, "What was learned"): they still
# do what they say.


def test_the_jacks_option_draws_trumps_with_a_jack() -> None:
    g = _game({0: "HJ DJ S7 S8 S9 CA CK HA H9 D7"}, declarer=0, contract="SH")
    assert _card(NEW.with_("jacks"), g) == "DJ"   # the club and spade jacks are out
    assert _card(NEW, g) == "S7"


def test_the_keepjacks_option_gives_a_king_before_a_jack() -> None:
    # the declarer draws with the club jack: the defender must give a trump
    g = _game({0: "CJ SJ SA ST S9 HA HT DA DT CA", 1: "DJ SK C7 C8 H7 H8 H9 D7 D8 D9"},
              declarer=0, contract="SH")
    g.push(Play(0, Card.CJ))
    assert _card(NEW, g) == "DJ"                   # two points, the fewest
    assert _card(NEW.with_("keepjacks"), g) == "SK"


def test_the_giveaway_option_leads_the_long_suit_in_grand() -> None:
    # all the jacks are his, nothing else stands: a small heart from four
    g = _game({0: "CJ SJ HJ DJ C7 H7 H8 H9 HK DQ"}, declarer=0, contract="GH")
    assert _card(NEW.with_("giveaway"), g) == "H7"
    assert _card(NEW, g) == "C7"


def test_the_losers_and_careful_options_count_more_strictly() -> None:
    twelve = parse_mask("C8 CJ CQ SJ H7 H8 H9 HK DT DA D9 DJ")  # three jacks, four small hearts
    assert choose_game(twelve, 18, NEW, True) == ev.GRAND
    # (``xgrand`` declares it on XSkat's count whatever the losers cost)
    assert choose_game(twelve, 18, NEW.with_("losers").without("xgrand"), True) != ev.GRAND
    # middlehand bids first; four small clubs and a jack, an ace-ten: "without 3" in clubs
    # (counted to its full level, 48, without the club player's cap at three times 12)
    g = _game({1: "C9 CQ CK SQ HT HA D7 D9 DJ DA"}, declarer=1, contract="CH")
    g = Game(g.deal, ISKO)
    limits = []
    for style in (NEW.without("clubbid"), NEW.without("clubbid").with_("careful")):
        p = RulePlayer(0, style=style)
        p.choose(SeatView.of(g, 1))
        limits.append(p.last_bid_limit)
    assert limits[0] == 48 and limits[1] is not None and limits[1] < 48


def test_the_bold_option_bids_a_hand_the_plain_count_passes() -> None:
    # middlehand: five small hearts with the red jacks, ace and ten of clubs: a count
    # half a trick short of a game with the skat, which ``bold`` bids ("without 2": 30)
    g = _game({1: "HJ DJ H9 H8 H7 CA CT S7 S8 D8"}, declarer=1, contract="HH")
    g = Game(g.deal, ISKO)
    plain = RulePlayer(0, style=NEW.without("bold"))
    bold = RulePlayer(0, style=NEW.with_("bold"))
    assert isinstance(plain.choose(SeatView.of(g, 1)), Pass)
    assert not isinstance(bold.choose(SeatView.of(g, 1)), Pass)
    assert plain.last_bid_limit == 0 and bold.last_bid_limit == 30


def test_the_ace_option_puts_the_ace_on_a_partners_small_lead() -> None:
    # forehand leads a small spade; middlehand, his partner, holds the spade ace and the
    # declarer plays last: the ace takes it before the declarer's ten or king can
    g = _game({0: "S7 C7 C8 C9 H7 H8 H9 D7 D8 D9", 1: "SA S8 CA CK HA HK DA DK CQ HQ"},
              declarer=2, contract="CH")
    g.push(Play(0, Card.S7))
    assert _card(NEW.with_("ace"), g) == "SA"
    assert _card(NEW, g) == "S8"

"""The rule player as declarer, measured against XSkat: the options of
``engine.players.evaluate.Style`` for the bidding, the contract and the declarer's play. Each
test shows a hand or position where the option changes the choice."""

from __future__ import annotations

from rulekit import hand_game as _game
from rulekit import rule_card as _card

from engine.actions import Bid, Declare, Discard, Pass, Play, TakeSkat
from engine.cards import Card, parse_mask
from engine.contract import Contract, GameType
from engine.deal import Deal
from engine.game import Game, Rules
from engine.players import evaluate as ev
from engine.players.base import SeatView
from engine.players.rule import RulePlayer, choose_game


def _on(name: str) -> ev.Style:
    return ev.Style().with_(name)


def _off(name: str) -> ev.Style:
    return ev.Style().without(name)


def test_null_fixes_counts_the_cards_that_must_go() -> None:
    assert ev.null_fixes(parse_mask("C7 C9 CJ CK S7 S8 S9 ST")) == 0
    assert ev.null_fixes(parse_mask("C8")) == 1                 # the 7 leads under it
    assert ev.null_fixes(parse_mask("S7 S8 ST SA")) == 1        # only the ace
    assert ev.null_fixes(parse_mask("S8 S9 ST")) == 3           # no 7: all of it
    assert ev.null_fixes(parse_mask("C7 CA HA DQ")) == 3


def test_nullsafe_bids_null_only_when_at_most_one_card_spoils_it() -> None:
    # the spade ten and all four diamonds (no 7) spoil it; the old count bid 23 on it
    hand = parse_mask("S7 ST H7 H9 HJ HQ D8 D9 DJ DK")
    assert ev.null_fixes(hand) == 5
    assert ev.styled_bid_limit(hand, _off("nullsafe"), bonus=0.5) == 23
    assert ev.styled_bid_limit(hand, _on("nullsafe"), bonus=0.5) == 0
    # one card to go (the spade ace): the skat makes it safe about three times in four
    one = parse_mask("S7 SA H7 H9 HJ HQ D7 D9 DJ DK")
    assert ev.null_fixes(one) == 1
    assert ev.styled_bid_limit(one, _on("nullsafe"), bonus=0.5) == 23


def test_nullchance_declares_no_null_with_an_unsafe_suit_left_when_a_suit_game_is_there() -> None:
    cards = parse_mask("C7 CJ S8 ST SK H7 H9 HT HQ HA D7 DA")
    ten = cards & ~ev.discard(cards, ev.NULL)
    assert ev.null_unsafe_suits(ten)                             # spades stay unsafe
    plain = ev.Style().without("odds")  # ``odds`` weighs the null its own way
    assert choose_game(cards, 18, plain) == ev.NULL  # the suit games' curve
    assert choose_game(cards, 18, _on("nullchance")) != ev.NULL  # over ``odds`` too
    assert choose_game(cards, 18, plain.with_("nullchance")) != ev.NULL
    safe = parse_mask("C7 C8 C9 S7 S9 SJ H7 H8 D7 D9 DK DA")
    assert choose_game(safe, 18, plain.with_("nullchance")) == ev.NULL


def test_grand_two_jacks_ok_wants_aces_or_the_club_jack_leading() -> None:
    assert ev.grand_two_jacks_ok(parse_mask("CJ SJ HJ C7 C8 C9 S7 S8 S9 H7"))   # three jacks
    assert ev.grand_two_jacks_ok(parse_mask("HJ DJ CA CT SA HA H9 D7 D8 D9"))   # 3 aces, a ten
    assert not ev.grand_two_jacks_ok(parse_mask("HJ DJ CA CT SA ST S9 H9 D7 D8"))
    lead = parse_mask("CJ DJ CA CT CK SA ST H7 D7 D8")                       # 5 standing
    assert ev.grand_two_jacks_ok(lead, forehand=True)
    assert not ev.grand_two_jacks_ok(lead, forehand=False)


def test_twojacks_bids_and_declares_no_grand_on_two_jacks_without_aces() -> None:
    hand = parse_mask("C7 CJ CQ CK D7 D8 DT DJ DK DA")
    assert ev.styled_bid_limit(hand, _off("twojacks"), bonus=0.5) == 48   # grand with 1
    assert ev.styled_bid_limit(hand, _on("twojacks"), bonus=0.5) < 48
    cards = parse_mask("C7 CJ CQ CK S8 HK D7 D8 DT DJ DK DA")
    assert choose_game(cards, 18, _off("twojacks")) == ev.GRAND
    assert choose_game(cards, 18, _on("twojacks")) != ev.GRAND
    # when only the grand reaches the bid it is still declared
    assert choose_game(cards, 48, _on("twojacks")) == ev.GRAND
    # and a grand with a single jack is no likelier than before
    one = parse_mask("C7 C9 CJ CQ SA H8 HQ HA DT DJ DQ DK")
    assert choose_game(one, 23, _on("twojacks")) != ev.GRAND


def test_grand_discard_keeps_the_ace_and_puts_away_the_blank_ten() -> None:
    twelve = parse_mask("C8 C9 CA SK SA H8 H9 HT HJ HQ HA DJ")
    old = ev.discard(twelve, ev.GRAND, voids=True)
    assert old == parse_mask("SK SA")                   # an ace and its king, to empty spades
    new = ev.grand_discard(twelve)
    assert not new & parse_mask("CA SA HA")
    assert ev.grand_score(twelve & ~new) > ev.grand_score(twelve & ~old)


def _picked_up(twelve: int, skat: str, contract: str) -> Game:
    """Forehand has taken the skat ``skat`` into ``twelve`` at 18 and declared ``contract``;
    the other cards go to the others in card order."""
    rest = [c for c in range(32) if not twelve >> c & 1]
    skat_mask = parse_mask(skat)
    deal = Deal((twelve & ~skat_mask, sum(1 << c for c in rest[:10]),
                 sum(1 << c for c in rest[10:20])), skat_mask)
    g = Game(deal)
    g.replay([Pass(1), Pass(2), Bid(0, 18), TakeSkat(0), Declare(0, Contract.parse(contract))])
    return g


def _grand_discards(style: ev.Style, deals: int):
    """(twelve cards, the two discards) of every grand a rule player of ``style`` declared
    after a pick-up, in games of three such players."""
    out = []
    for s in range(deals):
        g = Game(Deal.shuffled(s))
        players = [RulePlayer(s + i, style=style) for i in range(3)]
        twelve, away = 0, 0
        while g.result is None:
            pos = g.to_act
            view = SeatView.of(g, pos)
            action = players[pos].choose(view)
            if isinstance(action, Discard):
                twelve = twelve or view.hand
                away |= 1 << action.card
            g.push(action)
        if g.result.contract is not None and g.result.contract.game == GameType.GRAND and away:
            out.append((twelve, away))
    return out


def test_granddiscard_changes_the_grand_declarers_discard() -> None:
    on = _grand_discards(_on("granddiscard"), 150)
    assert len(on) > 10
    for twelve, away in on:
        assert away.bit_count() == 2
        assert away == ev.grand_discard(twelve, forehand=False) or \
            away == ev.grand_discard(twelve, forehand=True)
    differ = sum(away != ev.discard(twelve, ev.GRAND, voids=True) for twelve, away in on)
    assert differ > 0
    off = _grand_discards(_off("granddiscard").without("xgdiscard"), 150)
    assert all(away == ev.discard(twelve, ev.GRAND, voids=True, keep_aces=True)
               for twelve, away in off)


def test_nullplay_throws_the_card_of_the_suit_they_can_force() -> None:
    # the null declarer (middlehand) is void in hearts; clubs 7 9 J K A cannot be forced
    # (his clubs lie under theirs, card for card), spades 8 9 can (the 7 is out)
    hands = {0: "H7 H8 H9 HT HJ S7 ST SJ C8 CT", 1: "C7 C9 CJ CK CA D7 D8 D9 S8 S9"}
    g = _game(hands, declarer=1, contract="NH")
    g.push(Play(0, Card.H7))
    assert _card(_off("nullplay"), g) == "CA"   # the highest card of any suit
    assert _card(_on("nullplay"), g) == "S9"


def test_nulllead_leads_the_highest_card_nobody_can_duck() -> None:
    # every suit safe; the clubs 7 and 8 both lie under all outstanding clubs: leading the
    # 8 keeps the 7, which nothing can ever go under
    g = _game({0: "C7 C8 S7 S9 SJ H7 H9 HJ D7 D9"}, declarer=0, contract="NH")
    assert _card(_on("nulllead"), g) == "C8"
    assert _card(_off("nulllead"), g).endswith("7")


def test_longtrump_plays_the_longest_suit_that_reaches_the_bid() -> None:
    # clubs and hearts three cards each (clubs hold ace and ten), diamonds two: the count
    # took diamonds; the longest suit of the fewer points is hearts
    cards = parse_mask("C7 CT CJ CA S8 S9 H9 HA HQ D7 DJ DQ")
    assert choose_game(cards, 18, _off("longtrump")) == GameType.DIAMONDS
    assert choose_game(cards, 18, _on("longtrump")) == GameType.HEARTS
    assert ev.longest_suit(cards, 18) == GameType.HEARTS
    # four diamonds against three hearts: diamonds
    # (three jacks and A T 9 8 of diamonds: ``xgrand`` would declare grand)
    four = parse_mask("C9 CJ S7 SJ H9 HT HJ HK D8 D9 DT DA")
    assert choose_game(four, 18, _off("longtrump").without("xgrand")) == GameType.HEARTS
    assert choose_game(four, 18, _on("longtrump").without("xgrand")) == GameType.DIAMONDS
    # "with 3": at 44 only spades (44) and clubs (48) reach the bid, one card each
    assert ev.longest_suit(four, 44) == GameType.CLUBS
    assert ev.longest_suit(four, 49) is None
    # the longest suit counts 0.75 short here; restricting the suit games to it first let
    # a null with the hearts unsafe beat it: the null is compared with the best suit game
    clubs = parse_mask("C8 C9 CT CJ CA S7 H7 H9 HJ HK DT DA")
    assert choose_game(clubs, 18, _off("longtrump")) == GameType.HEARTS
    assert choose_game(clubs, 18, _on("longtrump")) == GameType.CLUBS


def test_grand3_declares_a_grand_with_three_jacks_from_a_lower_count() -> None:
    cards = parse_mask("C9 CJ S7 SJ SK H8 HQ HK D8 DJ HA DA")
    ten = cards & ~ev.discard(cards, ev.GRAND, True)
    assert ev.GRAND3_NEED <= ev.grand_score(ten) < ev.GRAND_NEED
    # (with three jacks ``xgrand`` would declare the grand on XSkat's count)
    assert choose_game(cards, 18, _off("grand3").without("xgrand")) == GameType.HEARTS
    assert choose_game(cards, 18, _on("grand3").without("xgrand")) == ev.GRAND
    # three jacks without the club jack, not leading: the usual count
    assert ev.grand_need(parse_mask("SJ HJ DJ CA CT C9 S7 S8 H7 D7")) == ev.GRAND_NEED
    assert ev.grand_need(parse_mask("SJ HJ DJ CA CT C9 S7 S8 H7 D7"), True) == ev.GRAND3_NEED


def test_nullstop_plays_no_unsafe_null_where_a_suit_game_reaches_the_bid() -> None:
    cards = parse_mask("C7 CJ S8 ST SK H7 H9 HT HQ HA D7 DA")
    assert ev.null_unsafe_suits(cards & ~ev.discard(cards, ev.NULL))
    assert choose_game(cards, 18, _off("nullstop"), suit_bid=True) == ev.NULL
    assert choose_game(cards, 18, _on("nullstop"), suit_bid=True) == GameType.HEARTS
    # a safe null stays; so does an unsafe one when the bidding was on the null
    safe = parse_mask("C7 C8 C9 S7 S9 SJ H7 H8 D7 D9 DK DA")
    assert choose_game(safe, 18, _on("nullstop"), suit_bid=True) == ev.NULL
    assert choose_game(cards, 18, _on("nullstop"), suit_bid=False) == ev.NULL


def test_nullstop_knows_a_suit_bid_from_the_cards_before_the_pick_up() -> None:
    # forehand held 18 on a heart game (the count with the skat): the skat brings
    # the club 7 and diamond 7, and a null with the spades unsafe would score best
    ten = "CJ S8 ST SK H7 H9 HT HQ HA DA"
    assert ev.styled_bid_limit(parse_mask(ten), ev.Style(), True, 0.5, null=False) >= 18
    rest = [c for c in range(32) if not parse_mask(ten + " C7 D7") >> c & 1]
    deal = Deal((parse_mask(ten), sum(1 << c for c in rest[:10]),
                 sum(1 << c for c in rest[10:20])), parse_mask("C7 D7"))
    g = Game(deal)
    g.replay([Pass(1), Pass(2), Bid(0, 18), TakeSkat(0)])
    for style, want in ((_off("nullstop"), GameType.NULL), (_on("nullstop"), GameType.HEARTS)):
        action = RulePlayer(0, style=style).choose(SeatView.of(g, 0))
        assert action.contract.game == want, style


def test_risk_bids_a_game_counted_just_safe_only_to_18() -> None:
    hand = parse_mask("C9 CJ CK SJ SQ SK HA D7 DT DJ")  # clubs "with 2": 36, a quarter over
    assert ev.suit_strength(hand, 0) + ev.SKAT_WORTH + 0.5 - 9.0 == 0.25
    assert RulePlayer(style=_off("risk")).bid_limit(hand, False) == 36
    assert RulePlayer(style=_on("risk")).bid_limit(hand, False) == 18
    strong = parse_mask("CJ SJ CA CT C9 C8 SA H7 H8 D7")  # well over: its value
    assert RulePlayer(style=_on("risk")).bid_limit(strong, False) == 36


def test_bid18_holds_18_with_a_suit_game_a_little_short() -> None:
    hand = parse_mask("C8 CJ CQ S8 SQ SK HT HA DT DK")  # spades half a trick short
    margin = max(ev.suit_strength(hand, g) for g in range(4)) + ev.SKAT_WORTH + 0.5 - 9.0
    assert -1.0 <= margin < 0
    assert RulePlayer(style=_off("bid18")).bid_limit(hand, False, opening=True) == 0
    assert RulePlayer(style=_on("bid18")).bid_limit(hand, False, opening=True) == 18
    assert RulePlayer(style=_on("bid18")).bid_limit(hand, False, opening=False) == 0
    weak = parse_mask("C7 C8 S7 S9 SK H8 HQ D8 D9 DK")
    assert RulePlayer(style=_on("bid18")).bid_limit(weak, False, opening=True) == 0
    # forehand, the others passed: he opens 18; middlehand's 18 he does not hold
    rest = [c for c in range(32) if not hand >> c & 1]
    deal = Deal((hand, sum(1 << c for c in rest[:10]), sum(1 << c for c in rest[10:20])),
                sum(1 << c for c in rest[20:]))
    g = Game(deal)
    g.replay([Pass(1), Pass(2)])
    assert RulePlayer(style=_on("bid18")).choose(SeatView.of(g, 0)) == Bid(0, 18)
    assert RulePlayer(style=_off("bid18")).choose(SeatView.of(g, 0)) == Pass(0)
    g = Game(deal)
    g.push(Bid(1, 18))
    assert RulePlayer(style=_on("bid18")).choose(SeatView.of(g, 0)) == Pass(0)


def test_keepaces_keeps_the_aces_and_their_tens_in_the_discard() -> None:
    twelve = parse_mask("C8 C9 CT CJ CK ST SA HT HA D7 DQ DA")  # clubs
    away = ev.discard(twelve, 0, True)
    assert away == parse_mask("ST SA")              # the count banks 21 for a void
    assert ev.discard(twelve, 0, True, keep_aces=True) == parse_mask("D7 DQ")
    hands = {0: "C8 C9 CT CJ CK ST SA HT HA D7"}
    rest = [c for c in range(32) if not (parse_mask(hands[0]) | parse_mask("DQ DA")) >> c & 1]
    deal = Deal((parse_mask(hands[0]), sum(1 << c for c in rest[:10]),
                 sum(1 << c for c in rest[10:20])), parse_mask("DQ DA"))
    for style, away in ((_off("keepaces").without("xdiscard"), "ST SA"),
                        (_on("keepaces").without("xdiscard"), "D7 DQ")):
        g = Game(deal)
        g.replay([Pass(1), Pass(2), Bid(0, 18), TakeSkat(0)])
        declare = RulePlayer(0, style=style).choose(SeatView.of(g, 0))
        assert declare.contract.game == GameType.CLUBS
        g.push(declare)
        action = RulePlayer(0, style=style).choose(SeatView.of(g, 0))
        assert isinstance(action, Discard) and parse_mask(away) >> action.card & 1


def test_grandhand_declares_a_grand_hand_on_jacks_and_a_long_suit() -> None:
    # three jacks with the club jack, clubs A T 9 8 and the spade ace: XSkat plays it
    # hand; the rule player's grand count (7.25) wanted the skat
    ten = "CJ SJ HJ CA CT C9 C8 SA H7 D7"
    assert ev.grand_by_length(parse_mask(ten)) == 2
    assert ev.grand_score(parse_mask(ten)) < ev.GRAND_NEED + 2.0
    rest = [c for c in range(32) if not parse_mask(ten) >> c & 1]
    deal = Deal((parse_mask(ten), sum(1 << c for c in rest[:10]),
                 sum(1 << c for c in rest[10:20])), sum(1 << c for c in rest[20:]))
    g = Game(deal)
    g.replay([Pass(1), Pass(2), Bid(0, 18)])
    assert RulePlayer(0, style=_off("grandhand")).choose(SeatView.of(g, 0)) == TakeSkat(0)
    action = RulePlayer(0, style=_on("grandhand")).choose(SeatView.of(g, 0))
    assert action.contract.game == GameType.GRAND and action.contract.hand
    # a blank ten would fall to the first ace: with the skat
    assert ev.grand_by_length(parse_mask("CJ SJ HJ CA CT C9 C8 ST H7 D7")) == 1
    # two jacks out of the lead: no grand by the jacks
    assert ev.grand_by_length(parse_mask("CJ SJ CA CT C9 C8 SA H7 D7 D8")) == 0


def test_xgrand_declares_the_grand_xskat_finds_after_the_pick_up() -> None:
    # three jacks and A T 9 8 of diamonds after the discard: a grand by XSkat's count,
    # 4.5 on ours (short of its 6): without the option a suit game
    cards = parse_mask("C8 CT CJ CQ SJ SQ HQ D8 D9 DT DJ DA")
    ten = cards & ~ev.discard(cards, ev.GRAND, True, True)
    assert ev.grand_by_length(ten) and ev.grand_score(ten) < ev.GRAND_NEED
    assert choose_game(cards, 18, _off("xgrand")) < ev.GRAND
    assert choose_game(cards, 18, _on("xgrand")) == ev.GRAND
    # two jacks: the count's choice stays
    two = parse_mask("C8 CT CJ CQ SJ SQ HQ D8 D9 DT D7 DA")
    assert choose_game(two, 18, _on("xgrand")) == choose_game(two, 18, _off("xgrand"))


def test_xdiscard_banks_the_ten_beside_a_small_card() -> None:
    # clubs: the heart ten with one small card and the blank diamond king go (XSkat's
    # choice); the count put away the spade king and the diamond king
    twelve = parse_mask("C7 CT CJ CQ CA S8 S9 SJ SK H8 HT DK")
    assert ev.suit_discard(twelve, GameType.CLUBS) == parse_mask("HT DK")
    assert ev.discard(twelve, GameType.CLUBS, True, True) == parse_mask("SK DK")
    g = _picked_up(twelve, "HT DK", "C")
    for style, first in ((_on("xdiscard"), Card.HT), (_off("xdiscard"), Card.SK)):
        action = RulePlayer(0, style=style).choose(SeatView.of(g, 0))
        assert action == Discard(0, min(Card.DK, first)), style
    # an ace never goes: two side aces and their suits' small cards
    aces = parse_mask("CJ SJ HJ DJ C9 C8 C7 CA SA S7 HA H7")
    assert not ev.suit_discard(aces, GameType.CLUBS) & parse_mask("SA HA")


def test_xgdiscard_keeps_the_longest_suit_of_a_grand_whole() -> None:
    # grand: spades (three) are kept whole; the blank club seven and the diamond ten
    # beside the queen go (XSkat's choice), where the count put away the spade king
    twelve = parse_mask("C7 CJ CA S7 S8 SJ SK HJ D7 DT DJ DQ")
    assert ev.discard(twelve, ev.GRAND, True, True) == parse_mask("SK DT")
    g = _picked_up(twelve, "DT DQ", "G")
    for style, card in ((_on("xgdiscard"), Card.C7), (_off("xgdiscard"), Card.SK)):
        assert RulePlayer(0, style=style).choose(SeatView.of(g, 0)) == Discard(0, card), style


def test_odds_weighs_a_null_with_an_unsafe_suit_by_what_it_won() -> None:
    # after the null's discard one suit stays unsafe with no 7 or 8 at its bottom
    # (null_strength 7): the suit games' curve counted it 59 %, it was won 22 %
    cards = parse_mask("C7 C9 CT CJ S7 S9 ST HQ D9 DT DK DA")
    assert ev.null_strength(cards & ~ev.discard(cards, ev.NULL)) == 7.0
    assert choose_game(cards, 18, _off("odds")) == ev.NULL
    assert choose_game(cards, 18, _on("odds")) == GameType.DIAMONDS
    # every suit safe: the null stays
    safe = parse_mask("C7 C8 C9 S7 S9 SJ H7 H8 D7 D9 DK DA")
    assert choose_game(safe, 18, _on("odds")) == ev.NULL


def test_xbid_bids_a_suit_game_without_the_club_jack_to_twice_its_base_value() -> None:
    # hearts without 3 (the diamond jack only): 40 by the count, 20 as XSkat bids it
    hand = parse_mask("DJ HA HK HQ H9 H8 H7 SA CA DA")
    assert RulePlayer(style=_off("xbid").without("clubbid")).bid_limit(hand, True) == 40
    assert RulePlayer(style=_off("xbid")).bid_limit(hand, True) == 30  # the club player's cap
    assert RulePlayer(style=_on("xbid")).bid_limit(hand, True) == 20
    # with the club jack the count's level stays
    with2 = parse_mask("CJ SJ HA HK HQ H9 H8 H7 SA CA")
    assert RulePlayer(style=_on("xbid")).bid_limit(with2, True) == RulePlayer(
        style=_off("xbid")).bid_limit(with2, True)


def test_aceten_keeps_the_ace_while_the_ten_is_out() -> None:
    # clubs, rearhand declares: forehand leads the spade seven, middlehand the queen;
    # the king takes it as surely as the ace, which stays to catch the spade ten
    hands = {0: "S7 S8 H7 H8 H9 D7 D8 D9 DT C7", 1: "SQ ST HT HK HQ DK DQ C8 C9 CT",
             2: "CJ SJ HJ DJ CA CK CQ SA SK S9"}
    g = _game(hands, declarer=2, contract="CH")
    g.push(Play(0, Card.S7))
    g.push(Play(1, Card.SQ))
    assert _card(_on("aceten"), g) == "SK"
    assert _card(_off("aceten"), g) == "SA"
    # the ten gone (it fell in the trick): the ace banks the most
    g = _game(hands, declarer=2, contract="CH")
    g.push(Play(0, Card.S7))
    g.push(Play(1, Card.ST))
    assert _card(_on("aceten"), g) == "SA"


def test_aceten_follows_low_in_second_hand_and_keeps_the_ace() -> None:
    # clubs, middlehand declares: forehand leads the heart eight; the ace is the one sure
    # card, but the heart ten is out: the declarer follows with the nine, keeps the ace
    hands = {0: "H8 HK S7 S8 S9 D7 D8 D9 DT C7", 1: "CJ SJ HJ DJ CA CK CQ HA H9 SA",
             2: "HT HQ H7 SQ ST SK DK DQ C8 C9"}
    g = _game(hands, declarer=1, contract="CH")
    g.push(Play(0, Card.H8))
    assert _card(_on("aceten"), g) == "H9"
    assert _card(_off("aceten"), g) == "HA"
    # a lead with points (the king) is taken with the ace as before
    g = _game(hands, declarer=1, contract="CH")
    g.push(Play(0, Card.HK))
    assert _card(_on("aceten"), g) == "HA"


def test_ruff_in_second_hand_with_the_queen_not_the_ten() -> None:
    # middlehand declares clubs, void in diamonds: forehand leads the diamond ace; the
    # declarer ruffs with the queen and keeps the ten (banked without the option)
    hands = {0: "DA D7 D8 S7 S8 S9 H7 H8 H9 C7", 1: "CJ SJ CT CQ C8 SA ST HA HT HK",
             2: "DT DK DQ D9 SQ SK HQ C9 CK CA"}
    g = _game(hands, declarer=1, contract="CH")
    g.push(Play(0, Card.DA))
    assert _card(_on("ruff"), g) == "CQ"
    assert _card(_off("ruff"), g) == "CT"


def test_last18_plays_a_game_a_little_short_when_the_others_passed() -> None:
    hand = parse_mask("C7 CT CJ CQ ST H7 H8 H9 DJ DK")  # hearts with two jacks, 1.25 short
    margin = max(ev.suit_strength(hand, g) for g in range(4)) + ev.SKAT_WORTH + 0.5 - 9.0
    assert -1.5 <= margin < -1.0  # below ``bid18`` too
    rest = [c for c in range(32) if not hand >> c & 1]
    deal = Deal((hand, sum(1 << c for c in rest[:10]), sum(1 << c for c in rest[10:20])),
                sum(1 << c for c in rest[20:]))
    g = Game(deal)
    g.replay([Pass(1), Pass(2)])  # forehand speaks last: passing ends the game unplayed
    assert RulePlayer(style=_on("last18")).choose(SeatView.of(g, 0)) == Bid(0, 18)
    assert RulePlayer(style=_off("last18")).choose(SeatView.of(g, 0)) == Pass(0)
    assert RulePlayer(style=_on("bid18")).choose(SeatView.of(g, 0)) == Pass(0)
    # not in another seat's opening, nor against a bid, nor where Ramsch follows a pass
    for pos, seen in ((1, []), (2, [Pass(1)])):
        deal2 = Deal(tuple(hand if p == pos else deal.hands[pos] if p == 0 else deal.hands[p]
                           for p in range(3)), deal.skat)
        g2 = Game(deal2)
        g2.replay(seen)
        assert RulePlayer(style=_on("last18")).choose(SeatView.of(g2, pos)) == Pass(pos)
    g = Game(deal)
    g.push(Bid(1, 18))
    assert RulePlayer(style=_on("last18")).choose(SeatView.of(g, 0)) == Pass(0)
    g = Game(deal, Rules(ramsch=True))
    g.replay([Pass(1), Pass(2)])
    assert RulePlayer(style=_on("last18")).choose(SeatView.of(g, 0)) == Pass(0)
    # a hand two tricks short still passes
    weak = parse_mask("C7 C8 S7 S9 SK H8 HQ D8 D9 DK")
    rest = [c for c in range(32) if not weak >> c & 1]
    g = Game(Deal((weak, sum(1 << c for c in rest[:10]), sum(1 << c for c in rest[10:20])),
                  sum(1 << c for c in rest[20:])))
    g.replay([Pass(1), Pass(2)])
    assert RulePlayer(style=_on("last18")).choose(SeatView.of(g, 0)) == Pass(0)


def test_shed_throws_a_blank_loser_on_a_pointless_lead_instead_of_ruffing() -> None:
    # middlehand declares clubs, void in spades: forehand leads the spade 7 (no points);
    # the declarer throws his blank diamond 8 (a loser) and keeps his trumps
    hands = {0: "S7 S8 SK SA H7 D7 DT DA DK DQ", 1: "CJ SJ CA CT CK C9 C8 HA H9 D8"}
    g = _game(hands, declarer=1, contract="CH")
    g.push(Play(0, Card.S7))
    assert _card(_on("shed"), g) == "D8"
    assert _card(_off("shed"), g) == "CA"  # banked: the trump ace ruffs
    # a lead with points is ruffed as before
    g = _game(hands, declarer=1, contract="CH")
    g.push(Play(0, Card.SK))
    assert _card(_on("shed"), g) == "CA"
    # last hand: a trick of at most 4 points is left to them, 7 points are ruffed
    hands = {0: "S7 S8 SK SA H7 D7 DT DA DK DQ", 1: "S9 SQ HJ HT HK HQ H8 DJ D9 C7",
             2: "CJ SJ CA CT CK C9 C8 HA H9 D8"}
    g = _game(hands, declarer=2, contract="CH")
    g.replay([Play(0, Card.S7), Play(1, Card.SQ)])
    assert _card(_on("shed"), g) == "D8"
    g = _game(hands, declarer=2, contract="CH")
    g.replay([Play(0, Card.SK), Play(1, Card.SQ)])
    assert _card(_on("shed"), g) == "CA"


def test_bolder_bids_a_hand_a_quarter_trick_below_bold() -> None:
    hand = parse_mask("C7 CT S7 SA H8 H9 HT HJ DT DJ")  # hearts "with 0", counted 5.75
    assert ev.suit_strength(hand, 2) + ev.SKAT_WORTH + 0.5 < 9.0
    assert RulePlayer(style=_off("bolder")).bid_limit(hand, False) == 0
    assert RulePlayer(style=_on("bolder")).bid_limit(hand, False) == 30


def test_cashfirst_cashes_the_side_aces_before_drawing_with_four_trumps() -> None:
    # forehand plays spades with four trumps: the club ace goes before the small trump
    g = _game({0: "CQ CA S7 S9 SJ SA H8 HK HA DA"}, declarer=0, contract="SH")
    assert _card(_on("cashfirst"), g) == "CA"
    assert _card(_off("cashfirst"), g) == "S7"
    # with five trumps he draws first
    g = _game({0: "CQ CA S7 S8 S9 SJ SA HK HA DA"}, declarer=0, contract="SH")
    assert _card(_on("cashfirst"), g) == "S7"

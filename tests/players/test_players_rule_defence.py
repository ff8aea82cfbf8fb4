"""The rule player's defence options (docs/players.md, "What was learned", defence): each one
changes the defender's card in a position where XSkat's defenders play otherwise, and leaves the
declarer's play alone."""

from __future__ import annotations

from rulekit import hand_game as _game
from rulekit import rule_card as _card

from engine.actions import Play
from engine.cards import Card, parse_mask
from engine.players import evaluate as ev
from engine.players.base import SeatView
from engine.players.rule import RulePlayer

RULE = ev.Style()


def test_second_takes_the_declarers_lead_with_the_ten_the_partner_plays_last() -> None:
    # the declarer leads a small club; the second hand's ten (three clubs) beats it and
    # only the partner is still to play: the ten is banked (without the option it waited
    # for a sure card)
    g = _game({0: "C7 SJ SA ST SK HA HT DA DT D9", 1: "CT C8 C9 H7 H8 H9 D7 D8 S7 S8"},
              declarer=0, contract="SH")
    g.push(Play(0, Card.C7))
    assert _card(RULE.with_("second"), g) == "CT"
    assert _card(RULE.without("second"), g) == "C8"
    # with the ten and one more a small lead is let go, as XSkat does
    g = _game({0: "C7 SJ SA ST SK HA HT DA DT D9", 1: "CT C8 S9 H7 H8 H9 D7 D8 S7 S8"},
              declarer=0, contract="SH")
    g.push(Play(0, Card.C7))
    assert _card(RULE.with_("second"), g) == "C8"


def test_second_takes_a_trump_lead_with_the_queen_not_the_club_jack() -> None:
    # spades: the declarer leads the spade nine; club jack and spade queen both win it for
    # the defenders (the partner plays last): the queen's points, the jack kept
    g = _game({0: "S9 SJ SA ST SK HA HT DA DT D9", 1: "CJ SQ C8 H7 H8 H9 D7 D8 C7 C9"},
              declarer=0, contract="SH")
    g.push(Play(0, Card.S9))
    assert _card(RULE.with_("second"), g) == "SQ"
    assert _card(RULE.without("second"), g) == "CJ"


def test_second_leaves_the_declarers_play_alone() -> None:
    # the declarer in second hand behind a defender's lead plays as before
    g = _game({0: "S7 CK CQ C9 HK HQ DK DQ D9 D8", 1: "S8 ST SQ CA CT HA HT DA DT H7"},
              declarer=1, contract="CH")
    g.push(Play(0, Card.S7))
    assert _card(RULE.with_("second"), g) == _card(RULE.without("second"), g) == "S8"


def test_karobube_leads_the_diamond_jack_held_with_one_small_trump() -> None:
    # spades; forehand's trumps are the diamond jack and the spade eight, the declarer
    # plays next: the jack goes at once (it would fall in the second round of trumps)
    g = _game({0: "DJ S8 C7 C8 C9 H7 H8 H9 D7 D8"}, declarer=1, contract="SH")
    assert _card(RULE.with_("karobube"), g) == "DJ"
    assert _card(RULE.without("karobube"), g) != "DJ"
    # with the spade ace beside it the jack is kept
    g = _game({0: "DJ SA C7 C8 C9 H7 H8 H9 D7 D8"}, declarer=1, contract="SH")
    assert _card(RULE.with_("karobube"), g) != "DJ"


def test_takeall_takes_a_pointless_trick_with_the_ten() -> None:
    # the declarer leads the club eight, the partner plays the seven; rearhand's ten and
    # queen both win: the ten goes (kept back, it falls to the ace)
    g = _game({0: "C8 SJ SA ST SK HA HT DA DT CA", 1: "C7 H7 H8 H9 D7 D8 S7 S8 S9 DQ",
               2: "CT CQ SQ HJ HQ HK D9 DJ DK CJ"},
              declarer=0, contract="SH")
    g.push(Play(0, Card.C8))
    g.push(Play(1, Card.C7))
    assert _card(RULE.with_("takeall"), g) == "CT"
    assert _card(RULE.without("takeall"), g) == "CQ"


def test_noruff_keeps_the_trump_on_a_pointless_trick() -> None:
    # the declarer's club eight holds the trick, the partner followed with the seven;
    # rearhand, void in clubs, keeps his trumps and throws a small side card
    g = _game({0: "C8 SJ SA ST SK HA HT DA DT CA", 1: "C7 H7 H8 H9 D7 D8 C9 CQ CK CT",
               2: "S7 S8 SQ HJ HQ HK D9 DJ DQ DK"},
              declarer=0, contract="SH")
    g.push(Play(0, Card.C8))
    g.push(Play(1, Card.C7))
    without = _card(RULE.without("noruff"), g)
    assert parse_mask(without) & parse_mask("S7 S8 SQ HJ DJ")    # it ruffed
    assert _card(RULE.with_("noruff"), g) == "D9"


def test_defjacks_gives_the_king_before_the_jack_as_defender_only() -> None:
    # the declarer draws with the club jack: the defender gives the spade king, not the
    # diamond jack (the 2-point jack is a trump that may still take a trick)
    g = _game({0: "CJ SJ SA ST S9 HA HT DA DT CA", 1: "DJ SK C7 C8 H7 H8 H9 D7 D8 D9"},
              declarer=0, contract="SH")
    g.push(Play(0, Card.CJ))
    assert _card(RULE.with_("defjacks"), g) == "SK"
    assert _card(RULE.without("defjacks"), g) == "DJ"


def test_smear_gives_a_ten_on_the_partners_top_card_when_void() -> None:
    # forehand leads the heart ace, no heart still out beats it and the declarer (last)
    # has not shown void in hearts: middlehand, void, gives it a ten
    g = _game({0: "HA H7 H8 C8 C9 D7 D9 S7 S8 S9", 1: "CT C7 CQ DT D8 DQ SQ SK CK DK"},
              declarer=2, contract="SH")
    g.push(Play(0, Card.HA))
    assert _card(RULE.with_("smear"), g) in ("CT", "DT")
    assert _card(RULE.without("smear"), g) in ("C7", "D8")
    # a small heart led is no sure trick: nothing given
    g = _game({0: "HA H7 H8 C8 C9 D7 D9 S7 S8 S9", 1: "CT C7 CQ DT D8 DQ SQ SK CK DK"},
              declarer=2, contract="SH")
    g.push(Play(0, Card.H7))
    assert _card(RULE.with_("smear"), g) in ("C7", "D8")


def test_dead_smears_a_ten_the_declarer_would_ruff_before_an_ace() -> None:
    # the declarer (middlehand) ruffed the first diamond; his club lead is taken by the
    # partner's ace: forehand, last and void in clubs, gives the diamond ten (it can only
    # fall to a ruff) rather than the heart ace (it may take a trick of its own)
    g = _game({0: "D7 DT DK H7 HT HA S9 SQ H8 H9", 1: "S7 S8 SJ SA ST CJ C7 C8 C9 HJ"},
              declarer=1, contract="SH")
    for pos, card in ((0, Card.D7), (1, Card.S7), (2, Card.D8), (1, Card.C7), (2, Card.CA)):
        g.push(Play(pos, card))
    assert g.to_act == 0
    assert _card(RULE.with_("dead"), g) == "DT"
    assert _card(RULE.without("dead"), g) == "HA"


def test_novoid_does_not_lead_into_the_void_where_the_partner_holds_the_ace() -> None:
    # the declarer (middlehand) ruffed the first diamond; rearhand, on lead after taking a
    # club, holds three diamonds, two more are gone, the ace is out and his partner has
    # followed: a diamond lead would make the declarer ruff the partner's ace
    g = _game({0: "D7 DA DK C8 H9 HT HK S9 SQ CK", 1: "S7 S8 SJ SA ST CJ C7 HJ HA SK",
               2: "D8 CA D9 DT DQ H7 H8 HQ C9 CQ"}, declarer=1, contract="SH")
    for pos, card in ((0, Card.D7), (1, Card.S7), (2, Card.D8),
                      (1, Card.C7), (2, Card.CA), (0, Card.C8)):
        g.push(Play(pos, card))
    assert g.to_act == 2
    assert _card(RULE.without("novoid"), g) == "D9"   # low into the void: he must ruff
    assert _card(RULE.with_("novoid"), g) == "C9"


def test_butter_gives_a_ten_on_a_small_trump_lead_the_partner_may_beat() -> None:
    # the declarer (forehand) leads the spade seven; middlehand has no trump, and higher
    # trumps are still out for his partner behind: he gives his ten ("buttern")
    g = _game({0: "S7 SJ SA ST SK HA HT DA DT D9", 1: "CT C8 C9 H7 H8 H9 D7 D8 DQ CQ"},
              declarer=0, contract="SH")
    g.push(Play(0, Card.S7))
    assert _card(RULE.with_("butter"), g) == "CT"
    assert _card(RULE.without("butter"), g) in ("C8", "C9", "H7", "H8", "H9", "D7", "D8")
    # his club jack led is the highest trump: nothing given
    g = _game({0: "CJ SJ SA ST SK HA HT DA DT D9", 1: "CT C8 C9 H7 H8 H9 D7 D8 DQ CQ"},
              declarer=0, contract="SH")
    g.push(Play(0, Card.CJ))
    assert _card(RULE.with_("butter"), g) != "CT"


def test_schneider_takes_the_trick_that_lifts_the_defenders_over_30() -> None:
    from dataclasses import replace

    # the declarer leads a small club into middlehand's ten and eight; his tricks hold 67
    # points, the defenders' 24: the game is lost, and the ten (the partner plays last)
    # takes the defenders out of schneider
    g = _game({0: "C7 SJ SA ST SK HA HT DA DT D9", 1: "CT C8 C9 H7 H8 H9 D7 D8 S7 S8"},
              declarer=0, contract="SH")
    g.push(Play(0, Card.C7))
    view = SeatView.of(g, 1)
    lost = replace(view, won=(parse_mask("SA ST HA HT DA DT DK"),
                              parse_mask("SK SQ HK HQ DQ CK CQ"), 0))
    style = RULE.without("second")

    def card(s: ev.Style, v: SeatView) -> str:
        action = RulePlayer(0, style=s).choose(v)
        assert isinstance(action, Play)
        return str(action.card)

    assert card(style.with_("schneider"), lost) == "CT"
    assert card(style.without("schneider"), lost) == "C8"
    # at the start of the game the option leaves the usual card
    assert card(style.with_("schneider"), view) == "C8"


def test_forcing_leads_the_king_into_the_declarers_void() -> None:
    # spades, rearhand declares; forehand's club ace held the first trick while the
    # declarer threw a diamond: forehand leads the club king into the void (it costs him
    # a trump) before a small heart or diamond of the suits he holds
    g = _game({0: "CA CK H7 H8 H9 D8 D9 DK S7 S8", 1: "C7 C8 C9 CT CQ HK HQ DQ DT S9",
               2: "SJ CJ HJ SA ST SK HA HT DA D7"}, declarer=2, contract="SH")
    for pos, card in ((0, Card.CA), (1, Card.C7), (2, Card.D7)):
        g.push(Play(pos, card))
    assert _card(RULE.with_("forcing"), g) == "CK"
    assert _card(RULE.without("forcing"), g) in ("H7", "D8")


def test_overtake_takes_the_declarers_trump_lead_with_the_ace() -> None:
    # spades: the declarer leads the spade nine, the partner plays last: the ace takes it
    # (without the option the seven goes, waiting for a sure card)
    g = _game({0: "S9 SJ ST SK HA HT DA DT D9 CA", 1: "SA S7 C8 H7 H8 H9 D7 D8 C7 C9"},
              declarer=0, contract="SH")
    g.push(Play(0, Card.S9))
    assert _card(RULE.with_("overtake"), g) == "SA"
    assert _card(RULE.without("overtake"), g) == "S7"
    # a side lead is left to the usual rules
    g = _game({0: "C9 SJ ST SK HA HT DA DT D9 CK", 1: "SA S7 CA H7 H8 H9 D7 D8 C7 C8"},
              declarer=0, contract="SH")
    g.push(Play(0, Card.C9))
    assert _card(RULE.with_("overtake"), g) == _card(RULE.without("overtake"), g)


def test_ruffpoints_ruffs_the_partners_ace_with_a_small_trump() -> None:
    # spades, the declarer sits last; the partner leads the heart ace and the second hand
    # has no heart: the seven of trumps takes it before the declarer can ruff (without the
    # option a ten is smeared on it)
    g = _game({0: "HA H7 H8 C7 D7 S8 S9 CK CQ DK", 1: "S7 SQ C8 C9 CT CA D8 D9 DT DA"},
              declarer=2, contract="SH")
    g.push(Play(0, Card.HA))
    assert _card(RULE.with_("ruffpoints"), g) == "S7"
    assert _card(RULE.without("ruffpoints"), g) in ("CT", "DT")
    # a small card led is not ruffed
    g = _game({0: "HA H7 H8 C7 D7 S8 S9 CK CQ DK", 1: "S7 SQ C8 C9 CT CA D8 D9 DT DA"},
              declarer=2, contract="SH")
    g.push(Play(0, Card.H7))
    assert _card(RULE.with_("ruffpoints"), g) == _card(RULE.without("ruffpoints"), g)


def test_grandlong_leads_the_longest_suit_against_a_grand() -> None:
    # grand, the declarer sits last: forehand has nothing to cash and leads a small card
    # of his five clubs, not the blank diamond (the short way of a suit game)
    g = _game({0: "C7 C8 C9 CQ CK H7 H8 S7 S8 D8"}, declarer=2, contract="GH")
    assert _card(RULE.with_("grandlong"), g) == "C7"
    assert _card(RULE.without("grandlong"), g) == "D8"


def test_toptrump_leads_the_club_jack_from_the_seventh_trick() -> None:
    # diamonds, middlehand declares; forehand cashes six side cards, then holds the club
    # jack (the highest trump), two diamonds and the club queen (standing): the jack goes
    # first, as XSkat's defenders lead it late in the game
    g = _game({0: "CA CT SA ST HA HT CJ D7 DK CQ", 1: "C7 C8 S7 S8 H7 H8 HJ DA DT D9",
               2: "C9 CK DQ S9 SK SQ H9 HK HQ D8"}, declarer=1, contract="DH")
    for lead, follow, last in (("CA", "C7", "C9"), ("CT", "C8", "CK"), ("SA", "S7", "S9"),
                               ("ST", "S8", "SK"), ("HA", "H7", "H9"), ("HT", "H8", "HK")):
        for pos, card in enumerate((lead, follow, last)):
            g.push(Play(pos, Card[card]))
    assert g.to_act == 0 and len(g.tricks) == 6
    assert _card(RULE.with_("toptrump"), g) == "CJ"
    assert _card(RULE.without("toptrump"), g) == "CQ"


def test_defaceten_takes_with_the_king_while_the_ten_is_out() -> None:
    # clubs, forehand declares and leads the spade nine, middlehand plays the seven; the
    # rearhand defender takes it with the king and keeps the ace for the declarer's ten
    g = _game({0: "CJ SJ HJ DJ CA CT CK S9 ST H7", 1: "SQ S7 H8 H9 HT D7 D8 D9 DT C7",
               2: "SA SK S8 HA HK HQ DA DK DQ C8"}, declarer=0, contract="CH")
    g.push(Play(0, Card.S9))
    g.push(Play(1, Card.S7))
    assert _card(RULE.with_("defaceten"), g) == "SK"
    assert _card(RULE.without("defaceten"), g) == "SA"

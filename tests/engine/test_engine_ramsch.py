"""Ramsch (rule set pub): scoring conventions and the game flow, incl. Schieberamsch."""

from __future__ import annotations

import pytest
from engine_helpers import find_playout

from engine.actions import Concede, Discard, IllegalAction, Kontra, Pass, Play, Push
from engine.cards import FULL_DECK, JACKS, Card, mask_points, parse_mask
from engine.contract import GameType
from engine.deal import Deal
from engine.game import Game, Phase, Rules, RulesError
from engine.ramsch import score_ramsch

RAMSCH = Rules(ramsch=True)
SCHIEBE = Rules(ramsch=True, schieberamsch=True)


def split(points_masks: tuple[str, str, str]) -> tuple[int, int, int]:
    a, b, c = (parse_mask(t) if t else 0 for t in points_masks)
    return (a, b, c)


def test_most_points_lose_them() -> None:
    won = split(("CA CT SA ST HK", "HA HT DA", "DT DK SK CK CQ"))  # 46, 32, 25 (+ skat 3)
    r = score_ramsch(won, (4, 3, 3), skat=parse_mask("SQ C7"), last_winner=2, pushes=0)
    assert r.ramsch_points == (46, 32, 28)
    assert (r.losers, r.value, r.position_values, r.won) == ((0,), -46, (-46, 0, 0), False)


def test_skat_goes_to_the_last_trick_and_can_decide_the_loser() -> None:
    won = split(("CA CT SA ST", "HA HT DA DT", "DK SK CK CQ SQ HK HQ DQ C9"))
    r = score_ramsch(won, (3, 3, 4), skat=parse_mask("HJ DJ"), last_winner=1, pushes=0)
    assert r.ramsch_points == (42, 46, 28) and r.losers == (1,)
    r = score_ramsch(won, (3, 3, 4), skat=parse_mask("HJ DJ"), last_winner=0, pushes=0)
    assert r.ramsch_points == (46, 42, 28) and r.losers == (0,)


def test_a_tie_makes_both_lose() -> None:
    won = split(("CA CT SA ST DQ", "HA HT DA DT SQ", "SK CK HK DK CQ HQ"))  # 45 45 22+4
    r = score_ramsch(won, (3, 3, 4), skat=parse_mask("CJ SJ"), last_winner=2, pushes=0)
    assert r.ramsch_points == (45, 45, 26)
    assert (r.losers, r.position_values) == ((0, 1), (-45, -45, 0))


def test_40_40_40_all_three_lose() -> None:
    won = split(("CA CT SA SK HK", "HA HT DA CK DK", "DT ST CQ SQ HQ DQ CJ SJ HJ DJ"))
    r = score_ramsch(won, (3, 3, 4), skat=parse_mask("C7 C8"), last_winner=2, pushes=0)
    assert r.ramsch_points == (40, 40, 40)
    assert (r.losers, r.position_values) == ((0, 1, 2), (-40, -40, -40))


def test_jungfrau_doubles() -> None:
    won = split(("CA CT SA ST HA HT", "", "DA DT DK SK CK CQ SQ HK HQ DQ CJ SJ HJ DJ"))
    r = score_ramsch(won, (6, 0, 4), skat=parse_mask("C7 C8"), last_winner=0, pushes=0)
    assert r.ramsch_points == (63, 0, 57) and r.jungfrau == (1,)
    assert (r.value, r.position_values) == (-126, (-126, 0, 0))
    r = score_ramsch(won, (6, 0, 4), skat=parse_mask("C7 C8"), last_winner=0, pushes=0,
                     jungfrau=False)
    assert r.value == -63 and r.jungfrau == ()


def test_durchmarsch_scores_120() -> None:
    r = score_ramsch((FULL_DECK & ~parse_mask("C7 C8"), 0, 0), (10, 0, 0),
                     skat=parse_mask("C7 C8"), last_winner=0, pushes=1)
    assert (r.durchmarsch, r.won, r.value, r.position_values) == (0, True, 120, (120, 0, 0))
    # without the Durchmarsch rule he loses his 120, doubled for each of the two Jungfrau
    r = score_ramsch((FULL_DECK & ~parse_mask("C7 C8"), 0, 0), (10, 0, 0),
                     skat=parse_mask("C7 C8"), last_winner=0, pushes=0, durchmarsch=False)
    assert (r.durchmarsch, r.value, r.jungfrau) == (None, -480, (1, 2))


def test_each_push_doubles() -> None:
    won = split(("CA CT SA ST HK", "HA HT DA", "DT DK SK CK CQ"))
    r = score_ramsch(won, (4, 3, 3), skat=parse_mask("SQ C7"), last_winner=2, pushes=2)
    assert (r.value, r.pushes, r.breakdown[-1]) == (-184, 2, ("pushed", 4))


def test_all_pass_plays_ramsch_with_jacks_the_only_trumps() -> None:
    g = Game(Deal.shuffled(6), Rules(ramsch=True, kontra_re=True))
    assert g.hand(1) == parse_mask("CK SQ SK H8 HJ HK HA D9 DT DJ")
    for a in (Pass(1), Pass(2), Pass(0)):
        g.push(a)
    assert g.phase == Phase.PLAY and g.is_ramsch and g.declarer is None
    assert g.contract is not None and g.contract.game == GameType.RAMSCH and g.to_act == 0
    assert not [a for a in g.legal_actions() if isinstance(a, Kontra)]
    with pytest.raises(IllegalAction, match="only be said against a declared game"):
        g.push(Kontra(1))
    g.push(Play(0, Card.H7))
    # a heart led: the jack of hearts is a trump, not a heart
    with pytest.raises(IllegalAction, match="middlehand must follow hearts: holds HA, HK, H8"):
        g.push(Play(1, Card.HJ))
    with pytest.raises(IllegalAction, match="nothing to concede"):
        g.push(Concede(1))


def test_ramsch_played_to_the_end() -> None:
    g = Game(Deal.shuffled(4), RAMSCH)
    for a in (Pass(1), Pass(2), Pass(0)):
        g.push(a)
    h = find_playout(g, lambda r: r.durchmarsch is None)
    r = h.result
    assert r is not None and r.ramsch_points is not None
    assert sum(r.ramsch_points) == 120
    last = h.tricks[-1].winner
    assert r.ramsch_points[last] == h.points(last) + mask_points(h.skat)
    top = max(r.ramsch_points)
    assert all(r.position_values[p] < 0 for p in r.losers)
    assert all(r.ramsch_points[p] == top for p in r.losers)


def test_without_ramsch_all_pass_is_passed_in() -> None:
    g = Game(Deal.shuffled(3))
    for a in (Pass(1), Pass(2), Pass(0)):
        g.push(a)
    assert g.result is not None and g.result.passed_in


def test_schieberamsch_push_and_pass() -> None:
    deal = Deal.shuffled(5)
    g = Game(deal, SCHIEBE)
    for a in (Pass(1), Pass(2), Pass(0)):
        g.push(a)
    assert g.phase == Phase.PUSHING and g.to_act == 0
    assert g.legal_actions() == [Push(0), Pass(0)]
    g.push(Push(0))
    assert g.hand(0).bit_count() == 12 and g.skat == 0 and g.pushes == 1
    assert all(not (1 << a.card) & JACKS for a in g.legal_actions())  # type: ignore[attr-defined]
    assert g.hand(0) & (1 << Card.CJ)
    with pytest.raises(IllegalAction, match="jacks may not be pushed"):
        g.push(Discard(0, Card.CJ))
    with pytest.raises(IllegalAction, match="push two cards on"):
        g.push(Pass(0))
    plain = [a for a in g.legal_actions() if isinstance(a, Discard)]
    g.push(plain[0])
    g.push(plain[1])
    assert g.to_act == 1 and g.skat == (1 << plain[0].card | 1 << plain[1].card)
    g.push(Pass(1))
    g.push(Push(2))
    nxt = [a for a in g.legal_actions() if isinstance(a, Discard)]
    g.push(nxt[0])
    g.push(nxt[1])
    assert g.phase == Phase.PLAY and g.to_act == 0 and g.pushes == 2
    r = find_playout(g, lambda r: r.durchmarsch is None and not r.jungfrau).result
    assert r is not None and r.pushes == 2 and r.value == -4 * max(r.ramsch_points or (0,))


def test_schieberamsch_may_allow_jacks() -> None:
    g = Game(Deal.shuffled(5), Rules(ramsch=True, schieberamsch=True, schieberamsch_jacks=True))
    for a in (Pass(1), Pass(2), Pass(0), Push(0)):
        g.push(a)
    assert len([a for a in g.legal_actions() if isinstance(a, Discard)]) == 12


def test_rules_by_name() -> None:
    assert Rules.from_names(["schieberamsch"]) == SCHIEBE
    with pytest.raises(RulesError, match="unknown house rule 'bock'"):
        Rules.from_names(["bock"])
    with pytest.raises(RulesError, match="needs ramsch"):
        Rules(schieberamsch=True)

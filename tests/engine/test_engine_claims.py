"""Claims (ISkO 4.4.4 shortening by the declarer, 4.4.5 a defender's claim) and violations as in
a tournament (4.1.3-4.1.6, option ``isko_violations``): golden games, and claims at random
moments against a plain second computation of the rule."""

from __future__ import annotations

import json
import random
from functools import cache

import pytest
from engine_helpers import random_game
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.actions import (
    Agree,
    Bid,
    Claim,
    Declare,
    Disagree,
    Enforce,
    IllegalAction,
    Pass,
    Play,
    PlayOn,
    Violation,
)
from engine.cards import Card, mask_points
from engine.contract import Contract, GameType
from engine.deal import Deal
from engine.game import Game, Phase, Rules
from engine.iss import check_line, game_to_record

ISKO_VIOLATIONS = Rules(isko_violations=True)


def deal(fore: str, middle: str, rear: str, skat: str) -> Deal:
    return Deal.from_iss(".".join(f"{fore} {middle} {rear} {skat}".split()))


# the declarer (forehand) holds only sevens, eights and nines: he can never win a trick
WEAK = deal("C7 C8 C9 S7 S8 S9 H7 H8 H9 D7", "CJ SJ HJ DJ CA CT CK CQ SA ST",
            "SK SQ HA HT HK HQ DA DT DK DQ", "D8 D9")
# the same with the top trump for him: he takes a trick whatever the defenders do
WITH_CJ = deal("CJ C8 C9 S7 S8 S9 H7 H8 H9 D7", "C7 SJ HJ DJ CA CT CK CQ SA ST",
               "SK SQ HA HT HK HQ DA DT DK DQ", "D8 D9")
# the deal of the concession examples (test_engine_concessions.py): forehand strong in grand
STRONG = deal("CT CJ CK CA S7 SJ H7 HJ D7 DJ", "C7 C8 C9 CQ S8 S9 SA H8 HA DA",
              "ST SQ SK H9 HT HQ HK DT DQ DK", "D8 D9")


def grand_hand(d: Deal, rules: Rules = Rules(), contract: str = "GH") -> Game:  # noqa: B008
    g = Game(d, rules)
    for a in (Pass(1), Pass(2), Bid(0, 18), Declare(0, Contract.parse(contract))):
        g.push(a)
    return g


def outcome(g: Game) -> tuple[str, bool, int, int | None, int | None, bool, bool]:
    r = g.result
    assert r is not None
    return r.ending, r.won, r.value, r.points, r.tricks, r.schneider, r.schwarz


def round_trips(g: Game) -> None:
    h = Game.from_json(json.loads(json.dumps(g.to_json())))
    assert h.state_key() == g.state_key()
    record, problems = check_line(game_to_record(g))
    assert record is not None and problems == []


# --- 4.4.4: the declarer shows his cards and claims the rest --------------------------------

def test_declarer_claim_agreed_by_both_is_scored_as_claimed() -> None:
    g = grand_hand(STRONG)
    g.push(Claim(0))
    assert g.waiting == "claim" and g.to_act is None and g.open_hands == 1
    assert g.legal_actions() == [Agree(1), Disagree(1), Agree(2), Disagree(2)]
    with pytest.raises(IllegalAction, match="the defenders agree or disagree first"):
        g.push(Play(0, Card.CJ))
    g.push(Agree(2))
    assert g.phase == Phase.PLAY and g.legal_actions() == [Agree(1), Disagree(1)]
    g.push(Agree(1))
    # every card to him, but no level he did not say: grand hand without... with 4, game 5,
    # hand 6: 144 (not schneider or schwarz, which he did not claim)
    assert outcome(g) == ("claimed", True, 144, 120, 10, False, False)
    round_trips(g)


def test_declarer_claims_schwarz_when_he_shows() -> None:
    g = grand_hand(STRONG)
    g.push(Claim(0, "schwarz"))
    g.push(Agree(1))
    g.push(Agree(2))
    assert outcome(g) == ("claimed", True, 192, 120, 10, True, True)  # 4+1+h+s+z = 8
    round_trips(g)


def test_a_level_already_out_of_reach_cannot_be_claimed() -> None:
    g = grand_hand(STRONG)
    for name in ["H7", "HA", "HT"]:  # the defenders take 21
        g.push(Play(g.to_act, Card.parse(name)))  # type: ignore[arg-type]
    with pytest.raises(IllegalAction, match="already have a trick: schwarz cannot be claimed"):
        g.push(Claim(0, "schwarz"))
    for name in ["DA", "DT", "D7"]:  # 42 now
        g.push(Play(g.to_act, Card.parse(name)))  # type: ignore[arg-type]
    with pytest.raises(IllegalAction, match="already have 42 points: schneider cannot be"):
        g.push(Claim(0, "schneider"))
    g.push(Claim(0))
    g.push(Agree(1))
    g.push(Agree(2))
    assert outcome(g) == ("claimed", True, 144, 78, 8, False, False)


def test_a_disagreed_claim_plays_on_with_his_cards_open_and_the_real_outcome_counts() -> None:
    g = grand_hand(WEAK)
    g.push(Claim(0))
    g.push(Agree(1))
    g.push(Disagree(2))
    assert g.waiting is None and g.to_act == 0 and g.open_hands == 1
    with pytest.raises(IllegalAction, match="there is no claim to answer"):
        g.push(Agree(1))
    while g.phase == Phase.PLAY:
        g.push(g.legal_actions()[0])
    r = g.result
    assert r is not None and r.ending == "played" and not r.won and r.tricks == 0
    assert g.pop() is not None and g.open_hands == 1  # undo keeps the shown hand shown


def test_claims_are_refused_outside_play_and_by_the_wrong_party() -> None:
    g = Game(STRONG)
    with pytest.raises(IllegalAction, match="only during play"):
        g.push(Claim(1))
    g = grand_hand(STRONG)
    with pytest.raises(IllegalAction, match="a defender claims the rest for the defenders"):
        g.push(Claim(1, "schneider"))
    g.push(Claim(0))
    with pytest.raises(IllegalAction, match="the defenders answer the declarer's claim"):
        g.push(Agree(0))
    g.push(Agree(1))
    with pytest.raises(IllegalAction, match="middlehand has already agreed"):
        g.push(Agree(1))


# --- 4.4.5: a defender shows his cards and claims the rest ----------------------------------

def test_defender_claim_upheld_when_the_declarer_cannot_win_another_trick() -> None:
    g = grand_hand(WEAK)
    g.push(Claim(2))
    # the rest to the defenders, by the cards: 0 points (skat D8 D9), no trick: grand hand
    # without 4: 4+1+h = 6, schneider 7, schwarz 8, lost: -384
    assert outcome(g) == ("defenders-claimed", False, -384, 0, 0, True, True)
    round_trips(g)


def test_defender_claim_fails_and_every_remaining_trick_goes_to_the_declarer() -> None:
    g = grand_hand(WITH_CJ)
    g.push(Claim(1))
    # with 1, game 2, hand 3, schneider 4, schwarz 5: 120
    assert outcome(g) == ("defenders-claim-failed", True, 120, 120, 10, True, True)
    round_trips(g)


def test_defender_claim_in_a_null_game() -> None:
    # null hand: the declarer (forehand) holds the top of every suit: he cannot avoid a trick
    g = Game(STRONG)
    for a in (Pass(1), Pass(2), Bid(0, 18), Declare(0, Contract.parse("NH"))):
        g.push(a)
    g.push(Claim(1))
    assert outcome(g)[:3] == ("defenders-claimed", False, -70)
    g = Game(WEAK)  # only low cards: he can keep out of every trick
    for a in (Pass(1), Pass(2), Bid(0, 18), Declare(0, Contract.parse("NH"))):
        g.push(a)
    g.push(Claim(2))
    assert outcome(g)[:3] == ("defenders-claim-failed", True, 35)


# --- 4.1.3-4.1.6: violations under violations = "isko" ---------------------------------------

def test_violations_are_refused_at_a_table_without_the_option() -> None:
    g = grand_hand(WEAK)
    g.push(Play(0, Card.C7))
    with pytest.raises(IllegalAction, match="refused and play goes on"):
        g.push(Violation(1, Card.SA))


def test_a_defender_revokes_the_declarer_chooses_to_end_the_game() -> None:
    g = grand_hand(WEAK, ISKO_VIOLATIONS)
    g.push(Play(0, Card.C7))
    with pytest.raises(IllegalAction, match="CQ may be laid: it is no violation"):
        g.push(Violation(1, Card.CQ))
    g.push(Violation(1, Card.SA))  # middlehand holds clubs
    assert g.waiting == "violation" and g.legal_actions() == [Enforce(0), PlayOn(0)]
    with pytest.raises(IllegalAction, match="not the offending side"):
        g.push(Enforce(2))
    g.push(Enforce(0))
    # 4.1.5: the declarer wins at the level his bid needs (the simple one): without 4 ... 144
    assert outcome(g)[:3] == ("defenders-violation", True, 144)
    round_trips(g)


def test_the_innocent_party_may_demand_play_go_on_with_the_card_taken_back() -> None:
    g = grand_hand(WEAK, ISKO_VIOLATIONS)
    g.push(Play(0, Card.C7))
    g.push(Violation(1, Card.SA))
    g.push(PlayOn(0))
    assert g.waiting is None and g.to_act == 1 and g.hand(1) >> Card.SA & 1
    with pytest.raises(IllegalAction, match="must follow clubs"):
        g.push(Play(1, Card.SA))
    g.push(Play(1, Card.CQ))
    assert Game.from_json(json.loads(json.dumps(g.to_json()))).state_key() == g.state_key()


def test_a_declarer_out_of_turn_loses_at_the_simple_level() -> None:
    g = grand_hand(WEAK, ISKO_VIOLATIONS, "GHS")
    g.push(Play(0, Card.C7))
    g.push(Violation(0, Card.C8))  # middlehand is to play
    assert g.legal_actions() == [Enforce(1), PlayOn(1), Enforce(2), PlayOn(2)]
    g.push(Enforce(2))
    # lost at the simple level plus the announced: without 4, 5, hand 6, schneider 7, ann. 8
    assert outcome(g)[:3] == ("declarer-violation", False, -384)


def test_a_game_already_decided_is_not_lost_by_a_later_violation() -> None:
    g = grand_hand(STRONG, ISKO_VIOLATIONS)
    for name in ["CJ", "SA", "ST", "SJ", "HA", "HT", "HJ", "DA", "DT"]:
        g.push(Play(g.to_act, Card.parse(name)))  # type: ignore[arg-type]
    assert g.points(0) == 69
    g.push(Play(0, Card.CA))
    g.push(Violation(0, Card.CT))  # out of turn, with 69 already won
    g.push(Enforce(1))
    assert outcome(g) == ("declarer-violation", True, 144, 69, 3, False, False)
    # the defenders' side: a game already lost for the declarer stays lost
    g = grand_hand(WEAK, ISKO_VIOLATIONS)
    while sum(g.points(p) for p in (1, 2)) < 60 or g.trick or g.to_act == 0:
        g.push(g.legal_actions()[-1])
    leader = g.to_act
    assert leader in (1, 2)
    g.push(Violation(3 - leader, next(c for c in Card if g.hand(3 - leader) >> c & 1)))
    g.push(Enforce(0))
    # lost as decided, at the simple level: without 4, game 5, hand 6: -288
    assert outcome(g)[:3] == ("defenders-violation", False, -288)
    round_trips(g)


# --- claims at random moments against a plain computation -----------------------------------

_BASE = {GameType.CLUBS: 12, GameType.SPADES: 11, GameType.HEARTS: 10, GameType.DIAMONDS: 9,
         GameType.GRAND: 24}


def plain_trumps(game: GameType) -> set[int]:
    jacks = {int(c) for c in Card if c.rank.letter == "J"}
    if game == GameType.NULL:
        return set()
    if game == GameType.GRAND:
        return jacks
    return jacks | {int(c) for c in Card if c.suit == int(game)}


def plain_strength(card: int, game: GameType) -> int:
    c = Card(card)
    if game == GameType.NULL:
        return "789TJQKA".index(c.rank.letter)
    if c.rank.letter == "J":
        return 100 - int(c.suit)
    return "789QKTA".index(c.rank.letter)


def plain_follows(card: int, lead: int, game: GameType) -> bool:
    trumps = plain_trumps(game)
    if lead in trumps:
        return card in trumps
    return card not in trumps and Card(card).suit == Card(lead).suit


def plain_winner(cards: tuple[int, ...], game: GameType) -> int:
    trumps = plain_trumps(game)
    best = 0
    for i in (1, 2):
        c, b = cards[i], cards[best]
        trumped = c in trumps and b not in trumps
        higher = (c in trumps) == (b in trumps) and plain_follows(c, b, game) and \
            plain_strength(c, game) > plain_strength(b, game)
        if trumped or higher:
            best = i
    return best


def declarer_gets_a_trick(hands: tuple[frozenset[int], ...], leader: int,
                          trick: tuple[int, ...], game: GameType, d: int) -> bool:
    """Plain minimax: can the declarer win at least one more trick if the defenders try to
    stop him (every legal card of every hand tried)?"""

    @cache
    def search(hands: tuple[frozenset[int], ...], leader: int, trick: tuple[int, ...]) -> bool:
        if not any(hands) and not trick:
            return False
        p = (leader + len(trick)) % 3
        hand = hands[p]
        legal = [c for c in hand if plain_follows(c, trick[0], game)] if trick else []
        legal = legal or sorted(hand)
        results = []
        for c in legal:
            rest = tuple(h - {c} if q == p else h for q, h in enumerate(hands))
            t = (*trick, c)
            if len(t) == 3:
                w = (leader + plain_winner(t, game)) % 3
                ok = True if w == d else search(rest, w, ())
            else:
                ok = search(rest, leader, t)
            results.append(ok)
        return any(results) if p == d else all(results)

    return search(hands, leader, trick)


def plain_by_cards(g: Game, points: int, tricks: int, by_cards: bool = True
                   ) -> tuple[bool, int]:
    """A suit or grand game scored by its final cards: (won, signed value). ``by_cards``
    False: schneider and schwarz count only as announced (a claim that said no level)."""
    c = g.contract
    assert c is not None
    base = _BASE[c.game]
    twelve = g.deal.hands[g.declarer] | g.deal.skat  # type: ignore[index]
    order = sorted(plain_trumps(c.game), key=lambda x: -plain_strength(x, c.game))
    with_ = bool(twelve >> order[0] & 1)
    m = 0
    for card in order:
        if bool(twelve >> card & 1) != with_:
            break
        m += 1
    won = points >= 61 and (points >= 90 or not c.schneider) and (tricks == 10 or not c.schwarz)
    schneider = (by_cards and (points >= 90 or points <= 30)) or c.schneider
    schwarz = (by_cards and tricks in (0, 10)) or c.schwarz
    k = m + 1 + c.hand + schneider + c.schneider + schwarz + c.schwarz + c.ouvert
    if k * base < g.bid:
        return False, -2 * base * -(-g.bid // base)
    return won, k * base if won else -2 * k * base


@settings(max_examples=200, deadline=None)
@given(st.integers(min_value=0, max_value=2**32 - 1), st.integers(min_value=0, max_value=29),
       st.integers(min_value=0, max_value=2))
def test_claims_in_random_games_match_the_plain_rule(seed: int, cards: int,
                                                          who: int) -> None:
    g = random_game(random.Random(seed))
    if g.result is None or g.result.passed_in:
        return
    while g.phase == Phase.FINISHED or sum(isinstance(a, Play) for a in g.actions) > cards:
        g.pop()
    if g.phase != Phase.PLAY:
        return
    if who != g.declarer and sum(isinstance(a, Play) for a in g.actions) < 18:
        return  # a defender's claim: the plain search below is exhaustive, so late only
    d = g.declarer
    assert d is not None and g.contract is not None
    dp = sum(g.points(p) for p in range(3) if p != d)
    dt = len(g.tricks) - g.ntricks[d]
    mine, mine_tricks = g.points(d) + mask_points(g.skat), g.ntricks[d]
    hands = tuple(frozenset(int(c) for c in Card if g.hand(p) >> c & 1) for p in range(3))
    null = g.contract.game == GameType.NULL
    if who == d:
        g.push(Claim(d))
        others = [p for p in range(3) if p != d]
        g.push(Agree(others[0]))
        g.push(Agree(others[1]))
        r = g.result
        assert r is not None and r.ending == "claimed"
        if null:
            assert r.won
            return
        assert r.points == 120 - dp and r.tricks == 10 - dt
        assert (r.won, r.value) == plain_by_cards(g, 120 - dp, 10 - dt, by_cards=False)
        c = g.contract
        assert (r.schneider, r.schwarz) == (c.schneider and 120 - dp >= 90,
                                           c.schwarz and dt == 0)
        return
    can = declarer_gets_a_trick(hands, g.trick_leader, tuple(int(c) for c in g.trick),
                                g.contract.game, d)
    g.push(Claim(who))
    r = g.result
    assert r is not None
    if null:
        # the defenders claim he must take a trick: upheld iff he cannot avoid one
        avoid = not declarer_gets_a_trick_null(hands, g, d)
        assert r.won == avoid
        return
    if can:
        assert r.ending == "defenders-claim-failed"
        assert (r.won, r.value) == plain_by_cards(g, 120 - dp, 10 - dt)
    else:
        assert r.ending == "defenders-claimed"
        assert (r.won, r.value) == plain_by_cards(g, mine, mine_tricks)


def declarer_gets_a_trick_null(hands: tuple[frozenset[int], ...], g: Game, d: int) -> bool:
    """In null the defenders try to give him a trick and he tries to avoid one: plain search
    with the roles swapped (can the defenders force a trick on him?)."""
    game = GameType.NULL

    @cache
    def force(hands: tuple[frozenset[int], ...], leader: int, trick: tuple[int, ...]) -> bool:
        if not any(hands) and not trick:
            return False
        p = (leader + len(trick)) % 3
        legal = [c for c in hands[p] if plain_follows(c, trick[0], game)] if trick else []
        legal = legal or sorted(hands[p])
        results = []
        for c in legal:
            rest = tuple(h - {c} if q == p else h for q, h in enumerate(hands))
            t = (*trick, c)
            if len(t) == 3:
                w = (leader + plain_winner(t, game)) % 3
                results.append(True if w == d else force(rest, w, ()))
            else:
                results.append(force(rest, leader, t))
        return all(results) if p == d else any(results)

    return force(hands, g.trick_leader, tuple(int(c) for c in g.trick))

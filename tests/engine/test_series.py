"""The series and its score sheet: dealer rotation, standard and Seeger-Fabian scoring (golden
sheets at three and four players), series length and winner, Bock rounds, settlement."""

from __future__ import annotations

import doctest
from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine.series
from engine.contract import Contract
from engine.scoring import passed_in_result, score_null, score_suit_grand
from engine.series import (
    BockRules,
    ManualResult,
    Series,
    SeriesError,
    reckon,
    seats_for,
    sheet_value,
)


def won_suit(contract: str, declarer: int, matadors: int, points: int = 70, bid: int = 18,
             tricks: int = 6):
    return score_suit_grand(Contract.parse(contract), bid=bid, matador_count=matadors,
                            points=points, tricks=tricks, ending="played", declarer=declarer)


def test_doctests() -> None:
    assert doctest.testmod(engine.series).failed == 0


def test_seats_rotate_clockwise_and_the_dealer_sits_out_at_four() -> None:
    s3 = Series(["A", "B", "C"], first_dealer=2)
    seen = []
    for _ in range(4):
        seen.append((s3.dealer, s3.seats))
        s3.record(passed_in_result())
    # forehand left of the dealer; at three the dealer is rearhand
    assert seen == [(2, (0, 1, 2)), (0, (1, 2, 0)), (1, (2, 0, 1)), (2, (0, 1, 2))]

    s4 = Series(["A", "B", "C", "D"], first_dealer=1)
    seen = []
    for _ in range(5):
        seen.append((s4.dealer, s4.seats, s4.sitting_out))
        s4.record(passed_in_result())
    assert seen == [
        (1, (2, 3, 0), 1), (2, (3, 0, 1), 2), (3, (0, 1, 2), 3), (0, (1, 2, 3), 0),
        (1, (2, 3, 0), 1),
    ]
    # after five deals seat 2 deals and sits out
    assert s4.position_of(2) is None and s4.position_of(1) == 2
    assert seats_for(0, 4) == (1, 2, 3)


def test_golden_sheet_three_players_standard_and_seeger_fabian() -> None:
    s = Series(["Anna", "Ben", "Carla"], first_dealer=2, scoring="seeger-fabian")
    # 1: dealer Carla; Anna (forehand) wins clubs with 1: 2 x 12 = 24
    e1 = s.record(won_suit("C", declarer=0, matadors=1))
    # 2: dealer Anna (rearhand); she loses a grand with 2 (3 x 24 = 72, lost: -144)
    e2 = s.record(score_suit_grand(Contract.parse("G"), bid=24, matador_count=2, points=50,
                                   tricks=4, ending="played", declarer=2))
    # 3: passed in: nothing scored, the next player deals
    e3 = s.record(passed_in_result())
    # 4: dealer Carla; Ben (middlehand) wins a null: 23
    e4 = s.record(score_null(Contract.parse("N"), bid=23, won=True, points=0, tricks=0,
                             ending="played", declarer=1))
    # 5: dealer Anna; Carla (middlehand) overbid: diamonds without 1 at 36 -> -72
    e5 = s.record(score_suit_grand(Contract.parse("D"), bid=36, matador_count=-1, points=75,
                                   tricks=7, ending="played", declarer=1))
    assert [e.dealer for e in (e1, e2, e3, e4, e5)] == [2, 0, 1, 2, 0]
    assert [e.declarer for e in (e1, e2, e3, e4, e5)] == [0, 0, None, 1, 2]
    assert [e.value for e in (e1, e2, e3, e4, e5)] == [24, -144, 0, 23, -72]
    assert [e.scores for e in s.sheet] == [
        (24, 0, 0), (-144, 0, 0), (0, 0, 0), (0, 23, 0), (0, 0, -72),
    ]
    assert [e.seeger_fabian for e in s.sheet] == [
        (74, 0, 0), (-194, 40, 40), (0, 0, 0), (0, 73, 0), (40, 40, -122),
    ]
    assert s.totals == (-120, 23, -72)
    assert s.seeger_fabian == (-80, 153, -82)
    assert s.games_won() == (1, 1, 0) and s.games_lost() == (1, 0, 1)
    assert s.winners == (1,) and s.winner == 1
    assert e3.passed_in and not e3.to_json()["won"] and e3.to_json()["contract"] is None


def test_golden_sheet_four_players_dealer_gets_defender_bonus() -> None:
    s = Series(["A", "B", "C", "D"], first_dealer=0, scoring="seeger-fabian")
    # 1: dealer A sits out; seats (1, 2, 3); C (middlehand) wins spades with 2: 33
    s.record(won_suit("S", declarer=1, matadors=2))
    # 2: dealer B sits out; seats (2, 3, 0); C (forehand) loses hearts without 1: -40
    s.record(score_suit_grand(Contract.parse("H"), bid=18, matador_count=-1, points=40,
                              tricks=3, ending="played", declarer=0))
    # 3: dealer C; passed in
    s.record(passed_in_result())
    # 4: dealer D sits out; seats (0, 1, 2); A (forehand) wins grand hand with 1: 3 x 24 = 72
    s.record(score_suit_grand(Contract.parse("GH"), bid=18, matador_count=1, points=80,
                              tricks=7, ending="played", declarer=0))
    assert [e.scores for e in s.sheet] == [
        (0, 0, 33, 0), (0, 0, -40, 0), (0, 0, 0, 0), (72, 0, 0, 0),
    ]
    # the lost game gives 30 to each of the three others, B (the dealer, sitting out) included
    assert [e.seeger_fabian for e in s.sheet] == [
        (0, 0, 83, 0), (30, 30, -90, 30), (0, 0, 0, 0), (122, 0, 0, 0),
    ]
    assert s.totals == (72, 0, -7, 0)
    assert s.seeger_fabian == (152, 30, -7, 30)
    assert s.dealer == 0 and s.winner == 0


def test_standard_and_seeger_fabian_can_rank_differently() -> None:
    s = Series(["A", "B", "C"], first_dealer=2)  # standard
    s.record(won_suit("G", declarer=0, matadors=2, points=95, tricks=9))  # A: 24 x 4 = 96
    s.record(won_suit("D", declarer=0, matadors=1))  # seats (1,2,0): B +18
    s.record(won_suit("D", declarer=0, matadors=1))  # seats (2,0,1): C +18
    s.record(won_suit("D", declarer=1, matadors=1))  # seats (0,1,2): B +18
    s.record(won_suit("D", declarer=0, matadors=1))  # seats (1,2,0): B +18
    assert s.totals == (96, 54, 18)
    assert s.seeger_fabian == (146, 204, 68)
    assert s.winner == 0
    s.scoring = "seeger-fabian"
    assert s.winner == 1


def test_series_length_ends_the_series_and_names_the_winner() -> None:
    s = Series(["A", "B", "C"], first_dealer=0, length=3)
    s.record(won_suit("C", declarer=0, matadors=1))  # B +24
    s.record(passed_in_result())  # a passed-in deal counts as a deal of the series
    assert not s.finished and s.deals_left == 1
    s.record(won_suit("C", declarer=0, matadors=2))  # seats (0,1,2): A +36
    assert s.finished and s.deals_left == 0
    assert s.winner == 0 and s.ranking() == [(0, 36), (1, 24), (2, 0)]
    with pytest.raises(SeriesError, match="the series is over: all 3 deals"):
        s.record(passed_in_result())


def test_a_tie_has_no_single_winner() -> None:
    s = Series(["A", "B", "C"], first_dealer=2)
    s.record(won_suit("C", declarer=0, matadors=1))
    s.record(won_suit("C", declarer=0, matadors=1))
    assert s.winners == (0, 1) and s.winner is None


def test_settlement_pairs_settle_their_differences() -> None:
    s = Series(["A", "B", "C", "D"], first_dealer=3, stake="0.10")
    s.record(won_suit("G", declarer=0, matadors=1))  # A +48
    s.record(score_suit_grand(Contract.parse("C"), bid=18, matador_count=1, points=40, tricks=3,
                              ending="played", declarer=0))  # seats (1,2,3): B -48
    st = s.settlement()
    assert st.points == (48, -48, 0, 0)
    assert st.amounts == (Decimal("19.20"), Decimal("-19.20"), Decimal("0.00"), Decimal("0.00"))
    assert sum(st.amounts) == 0
    pays = {(p.payer, p.payee): p.amount for p in st.payments}
    assert pays == {
        (1, 0): Decimal("9.60"), (2, 0): Decimal("4.80"), (3, 0): Decimal("4.80"),
        (1, 2): Decimal("4.80"), (1, 3): Decimal("4.80"),
    }


def test_settlement_cap_limits_each_game_value() -> None:
    s = Series(["A", "B", "C"], first_dealer=2, stake=Decimal("0.01"), cap=100)
    s.record(won_suit("GH", declarer=0, matadors=4, points=120, tricks=10))  # 24 x 8 = 192
    s.record(won_suit("C", declarer=0, matadors=1))  # seats (1,2,0): B +24
    assert s.totals == (192, 24, 0)
    assert s.settlement_points() == (100, 24, 0)
    assert s.settlement().amounts == (Decimal("1.76"), Decimal("-0.52"), Decimal("-1.24"))
    assert Series(["A", "B", "C"], first_dealer=2, stake="0").settlement().amounts == (0, 0, 0)


def test_settlement_uses_seeger_fabian_totals_when_that_is_the_scoring() -> None:
    s = Series(["A", "B", "C"], first_dealer=2, scoring="seeger-fabian", stake="1")
    s.record(score_suit_grand(Contract.parse("S"), bid=18, matador_count=1, points=40, tricks=3,
                              ending="played", declarer=0))  # A: -44 - 50, B and C +40
    assert s.seeger_fabian == (-94, 40, 40)
    assert s.settlement().amounts == (Decimal(-268), Decimal(134), Decimal(134))


def test_settlement_without_stake_is_refused() -> None:
    with pytest.raises(SeriesError, match="no stake per point"):
        Series(["A", "B", "C"]).settlement()


def test_bock_round_doubles_the_next_n_deals_and_rounds_queue() -> None:
    s = Series(["A", "B", "C"], first_dealer=2, bock=["sixty", "value:100"])
    # 60 card points: the declarer loses, and a Bock round of three deals follows
    e = s.record(score_suit_grand(Contract.parse("C"), bid=18, matador_count=1, points=60,
                                  tricks=5, ending="played", declarer=0))
    assert e.bock_triggers == ("sixty",) and not e.bock and e.value == -48
    assert s.bock_pending == 3 and s.is_bock
    e = s.record(won_suit("C", declarer=0, matadors=1))  # Bock: 24 -> 48
    assert e.bock and e.value == 48 and e.scores == (0, 48, 0)
    # a game worth 100 or more inside the Bock round queues another round after this one;
    # the trigger looks at the game's own value: 72 (144 doubled) does not trigger
    e = s.record(won_suit("G", declarer=0, matadors=2))
    assert e.bock and e.value == 144 and e.bock_triggers == ()
    e = s.record(won_suit("G", declarer=0, matadors=4, points=95, tricks=8))  # 24 x 6 = 144
    assert e.bock and e.value == 288 and e.bock_triggers == ("value:100",)
    assert s.bock_pending == 3
    e = s.record(passed_in_result())  # a passed-in deal uses up a Bock deal
    assert e.bock and e.value == 0
    assert s.bock_pending == 2
    for _ in range(2):
        assert s.record(won_suit("D", declarer=0, matadors=1)).value == 36
    assert not s.is_bock
    assert s.record(won_suit("D", declarer=0, matadors=1)).value == 18


def test_bock_doubles_the_game_value_not_the_seeger_fabian_bonus() -> None:
    s = Series(["A", "B", "C"], first_dealer=2, scoring="seeger-fabian", bock=["grand-hand"])
    s.record(won_suit("GH", declarer=0, matadors=1))  # 72, triggers Bock
    e = s.record(score_suit_grand(Contract.parse("H"), bid=18, matador_count=1, points=50,
                                  tricks=4, ending="played", declarer=2))  # seats (1,2,0): A
    assert e.bock and e.value == -80  # hearts with 1, lost: -40, doubled
    assert e.seeger_fabian == (-130, 40, 40)


def test_bock_triggers_kontra_re_schwarz_and_lost_schneider() -> None:
    rules = BockRules.parse(["kontra", "re", "schwarz", "schneider-lost", "sixty"])
    kontra = score_suit_grand(Contract.parse("C"), bid=18, matador_count=1, points=70, tricks=6,
                              ending="played", declarer=0, kontra=2)
    re = score_suit_grand(Contract.parse("C"), bid=18, matador_count=1, points=70, tricks=6,
                          ending="played", declarer=0, kontra=4)
    schwarz = won_suit("C", declarer=0, matadors=1, points=120, tricks=10)
    cut = score_suit_grand(Contract.parse("C"), bid=18, matador_count=1, points=25, tricks=2,
                           ending="played", declarer=0)
    null60 = score_null(Contract.parse("N"), bid=23, won=False, points=60, tricks=1,
                        ending="null-trick", declarer=0)
    assert rules.triggered_by(kontra) == ["kontra"]
    assert rules.triggered_by(re) == ["kontra", "re"]
    assert rules.triggered_by(schwarz) == ["schwarz"]
    assert rules.triggered_by(cut) == ["schneider-lost"]
    assert rules.triggered_by(null60) == []  # 60 points in null is no 60:60
    assert rules.triggered_by(passed_in_result()) == []


def test_reckon_names_each_factor_and_multiplies_to_the_value_booked() -> None:
    """What the screens show comes from here: the game value, then each factor by name,
    ending in exactly what ``record`` books (a Bock deal's doubling included)."""
    from engine.cards import parse_mask
    from engine.ramsch import score_ramsch

    lost_kontra_re = score_suit_grand(Contract.parse("C"), bid=18, matador_count=2, points=50,
                                      tricks=4, ending="played", declarer=0, kontra=4)
    k = reckon(lost_kontra_re, bock=True)
    assert (k.levels, k.base, k.multiplier, k.game_value) == (
        (("with", 2), ("game", 3)), 12, 3, 36)
    assert k.factors == (("lost", 2), ("kontra", 2), ("re", 2), ("bock", 2))
    assert k.value == -576 == sheet_value(lost_kontra_re, True) == 36 * -2 * 2 * 2 * 2
    s = Series(["A", "B", "C"], first_dealer=2, bock=["sixty"])
    s.record(score_suit_grand(Contract.parse("C"), bid=18, matador_count=1, points=60,
                              tricks=5, ending="played", declarer=0))
    assert s.record(lost_kontra_re).value == k.value  # the Bock deal books what reckon says
    # a Schieberamsch pushed once, lost with 53 points, in a Bock deal: -212
    ramsch = score_ramsch((parse_mask("CA CT CK SA ST SK HQ"), parse_mask("DA DT"),
                           parse_mask("HT HA DK")), (4, 3, 3), skat=parse_mask("D7 D8"),
                          last_winner=0, pushes=1)
    k = reckon(ramsch, bock=True)
    assert (k.levels, k.game_value, k.factors, k.value) == (
        (("ramsch", 53),), 53, (("pushed", 2), ("bock", 2)), -212)
    null = score_null(Contract.parse("NO"), bid=46, won=True, points=0, tricks=0,
                      ending="played", declarer=1, kontra=2)
    assert reckon(null, bock=False).factors == (("kontra", 2),)
    assert reckon(null, bock=False).game_value * 2 == reckon(null, bock=False).value == 92
    # a passed-in deal in a Bock round: nothing to count; a game entered by hand: its value
    assert reckon(passed_in_result(), bock=True).value == 0
    manual = reckon(ManualResult(declarer=0, won=False, value=-96), bock=True)
    assert (manual.game_value, manual.factors, manual.value) == (
        48, (("lost", 2), ("bock", 2)), -192)


def test_pop_takes_back_the_last_entry_with_its_bock_round() -> None:
    s = Series(["A", "B", "C"], first_dealer=2, bock=["sixty"])
    s.record(won_suit("C", declarer=0, matadors=1))
    s.record(score_suit_grand(Contract.parse("C"), bid=18, matador_count=1, points=60, tricks=5,
                              ending="played", declarer=0))
    assert s.bock_pending == 3 and s.dealer == 1
    s.pop()
    assert s.bock_pending == 0 and s.dealer == 0 and s.totals == (24, 0, 0)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"players": ["A", "B"]}, "3 or 4 players, not 2"),
        ({"players": ["A", "B", "A"]}, "same name"),
        ({"players": ["A", "B", "C"], "first_dealer": 3}, "seat from 0 to 2"),
        ({"players": ["A", "B", "C"], "scoring": "tournament"}, "scoring must be one of"),
        ({"players": ["A", "B", "C"], "length": 0}, "positive number of deals"),
        ({"players": ["A", "B", "C"], "stake": "a lot"}, "amount of money per point"),
        ({"players": ["A", "B", "C"], "stake": -1}, "zero or more"),
        ({"players": ["A", "B", "C"], "cap": 0}, "positive number of points"),
        ({"players": ["A", "B", "C"], "bock": ["60-60"]}, "unknown Bock trigger"),
        ({"players": ["A", "B", "C"], "bock": ["value:x"]}, "value:N"),
    ],
)
def test_bad_setup_says_what_is_wrong(kwargs: dict, message: str) -> None:
    with pytest.raises(SeriesError, match=message):
        Series(**kwargs)


def test_manual_result_enters_a_game_scored_by_hand() -> None:
    s = Series(["A", "B", "C", "D"], first_dealer=0)
    e = s.record(ManualResult(declarer=2, won=False, value=-96))
    assert e.declarer == 3 and s.totals == (0, 0, 0, -96)


def test_real_games_through_the_series_at_four() -> None:
    """new_game/finish_game with the engine: results land on the seats that played them."""
    import random

    from engine.actions import Bid, Pass, TakeSkat
    from engine.deal import Deal
    from engine.game import Phase

    s = Series(["A", "B", "C", "D"], first_dealer=0, scoring="seeger-fabian", length=8)
    rng = random.Random(5)
    played = 0
    while not s.finished:
        seats = s.seats
        game = s.new_game(Deal.random(rng))
        with pytest.raises(SeriesError, match="still being played"):
            s.new_game(Deal.random(rng))
        with pytest.raises(SeriesError, match="not over yet"):
            s.finish_game()
        while game.result is None:
            acts = game.legal_actions()
            if game.phase == Phase.BIDDING:
                bids = [a for a in acts if isinstance(a, Bid)]
                act = bids[0] if bids and rng.random() < 0.5 else Pass(game.to_act)
            elif game.phase == Phase.SKAT:
                act = TakeSkat(game.to_act)
            else:
                act = rng.choice(acts)
            game.push(act)
        e = s.finish_game()
        r = game.result
        assert s.game is None and e.seats == seats and e.result is r
        if r.passed_in:
            assert e.declarer is None and e.scores == (0, 0, 0, 0)
            assert e.to_json()["declarer"] is None and e.to_json()["value"] == 0
            continue
        played += 1
        assert e.declarer == seats[r.declarer]
        assert e.scores[e.declarer] == r.value and sum(e.scores) == r.value
        assert e.scores[e.dealer] == 0  # the dealer sits out
        others = [x for i, x in enumerate(e.seeger_fabian) if i != e.declarer]
        assert others == ([0, 0, 0] if r.won else [30, 30, 30])
        j = e.to_json()
        assert j["declarer"] == e.declarer and j["points"] == r.points and j["won"] == r.won
        assert set(j) == {"number", "dealer", "declarer", "contract", "bid", "won", "value",
                          "points", "tricks", "matadors", "schneider", "schwarz", "overbid",
                          "passed_in", "scores"}
    assert played >= 3
    assert len(s.sheet) == 8 and s.dealer == 0
    with pytest.raises(SeriesError, match="the series is over"):
        s.new_game(Deal.random(rng))


def test_rotation_matches_a_real_iss_session() -> None:
    """The ten consecutive games of ISS table session SE[344037]: our dealer rotation puts the
    same names at forehand, middlehand and rearhand as the server did, and each declarer's
    value lands on that player's line of the sheet."""
    from pathlib import Path

    from engine.iss import parse_record, replay

    path = Path(__file__).resolve().parent.parent / "data" / "games-b.sgf"
    records = [parse_record(line) for line in path.read_text(encoding="utf-8").splitlines()]
    assert {r.get("SE") for r in records} == {"344037"}
    first = records[0].players
    s = Series(list(first), first_dealer=2, scoring="seeger-fabian")  # rearhand deals at three
    by_name = dict.fromkeys(first, 0)
    for record in records:
        assert s.names() == record.players
        entry = s.record(replay(record).result)
        if record.result is not None and not record.result.passed:
            by_name[record.players[record.result.declarer]] += record.result.value
    assert s.totals == tuple(by_name[n] for n in first)
    # theCount declared and won seven games (48+72+33+72+72+24+22), zoot two (48+48)
    assert s.totals == (343, 0, 96)
    assert s.seeger_fabian == (343 + 7 * 50, 0, 96 + 2 * 50)  # all won: no defender bonus
    assert s.games_won() == (7, 0, 2) and s.games_lost() == (0, 0, 0)
    assert entry.number == 10 and entry.dealer == 2 and s.winner == 0


def test_an_iss_penalty_is_no_game_on_the_sheet() -> None:
    from engine.scoring import penalty_result

    s = Series(["A", "B", "C"], first_dealer=2, scoring="seeger-fabian")
    e = s.record(penalty_result("timeout", culprit=1, declarer=0, bid=18))
    assert e.declarer is None and e.value == 0 and e.seeger_fabian == (0, 0, 0)


@settings(max_examples=150, deadline=None)
@given(
    n=st.sampled_from([3, 4]),
    first=st.integers(0, 3),
    games=st.lists(
        st.one_of(
            st.none(),  # passed in
            st.tuples(st.integers(0, 2), st.booleans(), st.integers(1, 300)),
        ),
        max_size=30,
    ),
    stake=st.decimals(min_value=0, max_value=1, places=2),
    cap=st.one_of(st.none(), st.integers(1, 200)),
    bock=st.sampled_from([(), ("value:100",), ("sixty", "value:50")]),
)
def test_sheet_invariants(n, first, games, stake, cap, bock) -> None:
    s = Series([f"P{i}" for i in range(n)], first % n, stake=stake, cap=cap, bock=list(bock))
    for g in games:
        dealer = s.dealer
        if g is None:
            e = s.record(passed_in_result())
        else:
            pos, won, value = g
            e = s.record(ManualResult(declarer=pos, won=won, value=value if won else -2 * value))
        assert e.dealer == dealer == (first % n + e.number - 1) % n
        assert e.seats == seats_for(dealer, n)
        if n == 4:
            assert dealer not in e.seats and e.scores[dealer] == 0
    assert s.dealer == (first % n + len(games)) % n
    # the sheet adds up: totals are the entered values, Seeger-Fabian adds the fixed bonuses
    assert sum(s.totals) == sum(e.value for e in s.sheet)
    bonus = 40 if n == 3 else 30
    lost = s.games_lost()
    for seat in range(n):
        others_lost = sum(lost) - lost[seat]
        assert s.seeger_fabian[seat] == (
            s.totals[seat] + 50 * s.games_won()[seat] - 50 * lost[seat] + bonus * others_lost
        )
    # Bock deals are exactly the doubled ones
    for e in s.sheet:
        if e.declarer is not None:
            raw = e.result.value
            assert e.value == (2 * raw if e.bock else raw)
    # the settlement balances, and the payments give each seat its amount
    st_ = s.settlement()
    assert sum(st_.amounts) == 0
    net = [Decimal(0)] * n
    for p in st_.payments:
        assert p.amount > 0
        net[p.payee] += p.amount
        net[p.payer] -= p.amount
    assert tuple(net) == st_.amounts
    limit = cap if cap is not None else 10**9
    assert st_.points == tuple(
        sum(max(-limit, min(limit, e.scores[seat])) for e in s.sheet) for seat in range(n)
    )


def test_duel_mode_computer_seat_is_never_credited() -> None:
    """Duel mode (seed 002): the computer partners the person who does not declare; it is not
    credited with a win and pays nothing on a loss."""
    s = Series(["Anna", "Ben", "Computer"], first_dealer=2, scoring="seeger-fabian",
               stake="0.10", uncredited_seats={2})
    s.record(score_suit_grand(Contract.parse("C"), bid=18, matador_count=1, points=50,
                              tricks=4, ending="played", declarer=0))  # Anna loses: -48
    assert s.totals == (-48, 0, 0)
    assert s.seeger_fabian == (-98, 40, 0)  # Ben gets the defender's 40, the computer nothing
    assert s.winners == (1,) and s.credited_seats == (0, 1)
    s.record(won_suit("S", declarer=0, matadors=1))  # seats (1, 2, 0): Ben +22
    assert s.totals == (-48, 22, 0)
    assert s.seeger_fabian == (-98, 112, 0)
    st = s.settlement()  # on the Seeger-Fabian totals: Anna pays Ben 210 x 0.10
    assert st.amounts == (Decimal("-21.00"), Decimal("21.00"), Decimal("0.00"))
    assert [(p.payer, p.payee, p.amount) for p in st.payments] == [(0, 1, Decimal("21.00"))]
    assert [seat for seat, _ in s.ranking()] == [1, 0]
    with pytest.raises(SeriesError, match="at least two players"):
        Series(["A", "B", "C"], uncredited_seats={0, 1})
    with pytest.raises(SeriesError, match="seat from 0 to 2"):
        Series(["A", "B", "C"], uncredited_seats={3})

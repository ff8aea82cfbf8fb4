"""Null judged by one line of play (engine.players.nullcheck) and the PIMC choices using it:
null double-dummy lets the declarer see the defenders' cards, so it calls nulls safe that
are lost at the table."""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest

from engine.cards import parse_mask
from engine.contract import GameType
from engine.players import evaluate as ev
from engine.players import make_player
from engine.players import nullcheck as nc
from engine.players.declaring import Declaring, Solvers, pickup_plays, solve_play
from engine.players.solver import Solver


def _random_null_worlds(seed: int, n: int, pos: int = 0) -> list[list[int]]:
    """Deals where the hand at ``pos`` looks like a null (null strength 7 or more)."""
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        cards = list(range(32))
        rng.shuffle(cards)
        hands = [sum(1 << c for c in cards[10 * i:10 * i + 10]) for i in range(3)]
        if ev.null_strength(hands[pos]) >= 7:
            out.append(hands)
    return out


class _NoShortcut(nc.NullCheck):
    """The same search without the "every suit safe" exit (to check that exit)."""

    def _start(self, h: list[int], leader: int) -> bool:
        key = (h[0], h[1], h[2], leader)
        r = self._memo.get(key)
        if r is None:
            r = self._memo[key] = self._play_trick(h, leader)
        return r


def test_the_check_is_never_more_hopeful_than_double_dummy() -> None:
    """The declarer's policy is one of his strategies and the defenders are the same: a null
    the check wins, double-dummy wins; and the "every suit safe" exit changes nothing."""
    solver = Solver(5, 1)
    fewer = 0
    for i, hands in enumerate(_random_null_worlds(11, 40, pos=1)):
        check = nc.NullCheck(1, max_nodes=100_000).escapes(hands, 0)
        dd = solver.null_won(hands, 0, ())
        assert dd or not check
        fewer += dd and not check
        if i < 10:
            assert _NoShortcut(1, max_nodes=100_000).escapes(hands, 0) == check
    assert fewer > 0  # and it is not double-dummy under another name


def _one_line(worlds: list[tuple[int, ...]], d: int, leader: int = 0,
              trick: tuple[int, ...] = (), memo: dict[object, object] | None = None
              ) -> bool:
    """Exactly: is there one strategy of the declarer (his card a function of what he has
    seen) that takes no trick in every one of ``worlds``, the defenders playing perfectly in
    each? ``worlds`` share the declarer's hand and everything seen so far. Alone, a world is
    double-dummy's; the defenders' cards split the worlds by what he then sees."""
    memo = {} if memo is None else memo
    if not worlds:
        return True
    if len(trick) == 3:
        best = max(c for c in trick if c >> 3 == trick[0] >> 3)
        winner = (leader + trick.index(best)) % 3
        if winner == d:
            return False
        return not worlds[0][d] or _one_line(worlds, d, winner, (), memo)
    key = (tuple(sorted(worlds)), leader, trick)
    if key in memo:
        return bool(memo[key])
    solver = memo.get("solver")
    if not isinstance(solver, Solver):
        solver = memo["solver"] = Solver(5, d)
    # a world lost even double-dummy is lost for any line (and one world alone is its own)
    if not all(solver.null_won(list(w), leader, trick) for w in worlds) or len(worlds) == 1:
        r = len(worlds) == 1 and solver.null_won(list(worlds[0]), leader, trick)
        memo[key] = r
        return r

    def legal(hand: int) -> int:
        follow = hand & nc.SUIT[trick[0] >> 3] if trick else 0
        return follow or hand

    def after(c: int, p: int) -> list[tuple[int, ...]]:
        return [tuple(h & ~(1 << c) if i == p else h for i, h in enumerate(w))
                for w in worlds if legal(w[p]) >> c & 1]

    p = (leader + len(trick)) % 3
    cards = 0
    for w in worlds:
        cards |= legal(w[p])
    moves = [c for c in range(32) if cards >> c & 1]
    if p == d:  # one card for all the worlds he cannot tell apart
        r = any(_one_line(after(c, p), d, leader, (*trick, c), memo) for c in moves)
    else:  # each world's defenders choose; worlds with the same card stay together
        r = all(_one_line(after(c, p), d, leader, (*trick, c), memo) for c in moves)
    memo[key] = r
    return r


def test_a_null_double_dummy_wins_everywhere_is_lost_against_correct_defence() -> None:
    """Forehand's null (spades S7 S8 SQ SK against S9 ST SJ SA; diamonds safe; the skat CA
    HQ): in two deals that differ only in whether middlehand holds the SJ or the DQ,
    double-dummy wins both, the declarer choosing his line by where those cards lie. No one
    line wins both: he cannot see which deal it is before he must choose. The double-dummy
    search called this null safe; the check (one line of play) does not, whatever the
    first lead."""
    c = parse_mask
    me = c("S7 S8 SQ SK D7 D9 DT DJ DK DA")
    w1 = (me, c("CJ CK S9 ST SJ H8 H9 HK HA D8"), c("C7 C8 C9 CT CQ SA H7 HT HJ DQ"))
    w2 = (me, c("CJ CK S9 ST H8 H9 HK HA D8 DQ"), c("C7 C8 C9 CT CQ SJ SA H7 HT HJ"))
    dd = Solver(5, 0)
    assert dd.null_won(list(w1), 0, ()) and dd.null_won(list(w2), 0, ())
    assert not _one_line([w1, w2], 0)
    solvers = Solvers()
    solvers.null_check = True
    skat = c("CA HQ")
    for lead in nc.lead_choices(me, 0xFFFFFFFF & ~me & ~skat):
        wins = [solve_play(solvers, 5, 0, list(w), skat, lead=lead)[0] for w in (w1, w2)]
        assert not all(wins)
    solvers.null_check = False
    assert all(solve_play(solvers, 5, 0, list(w), skat)[0] for w in (w1, w2))


def test_a_card_laid_in_the_trick_parts_two_cards_of_a_defender() -> None:
    """Middlehand's H9 and HJ are neighbours once forehand's HT lies in the trick, but only
    the jack takes the trick from it: the lead must pass to middlehand, who then leads
    diamonds for forehand to throw the HA, and hearts until the declarer's HQ takes one
    (double-dummy finds it; the check once missed it, counting the two hearts as one)."""
    c = parse_mask
    hands = [c("C9 CJ CK CA S7 S8 S9 SK HT HA"), c("ST SQ SA H8 H9 HJ D8 DJ DK DA"),
             c("C7 C8 CT CQ H7 HQ D7 D9 DT DQ")]
    assert not Solver(5, 2).null_won(hands, 0, ())
    assert not nc.escapes(hands, 2)


def test_a_suit_is_safe_when_each_card_has_a_defenders_card_above_it() -> None:
    c = parse_mask
    assert nc.all_safe(c("C7 C9 CJ S7"), c("C8 CT CQ S8 SA"))
    assert not nc.all_safe(c("C7 CT"), c("C8 C9"))  # the 9 led forces the ten
    assert nc.all_safe(c("C8"), c("C9 CA"))  # the 7 lies in the skat: nobody leads under
    assert nc.unsafe_suits(c("C8 S7 HA"), c("C7 S8 H7")) == [0, 2]


def test_the_declarer_plays_only_by_what_he_knows() -> None:
    """The policy sees the unknown cards as one set: where the defenders' cards lie (the
    world) never changes his card."""
    rng = random.Random(3)
    for _ in range(200):
        cards = list(range(32))
        rng.shuffle(cards)
        me = sum(1 << c for c in cards[:6])
        out = sum(1 << c for c in cards[6:18])
        lead = cards[6]
        card = nc.declarer_card(me, [lead], out & ~(1 << lead))
        assert me >> card & 1
        s = lead >> 3
        if me & nc.SUIT[s]:
            assert card >> 3 == s  # he follows suit
            under = me & nc.SUIT[s] & ((1 << lead) - 1)
            if under:  # and ducks with his highest card that ducks
                assert card == under.bit_length() - 1


def test_a_forehand_null_compares_its_first_leads_over_all_worlds() -> None:
    hand = parse_mask("C8 S7 H7 H9 HT HJ D7 D8 DT DQ")
    skat = parse_mask("HA DA")
    plays = pickup_plays(hand | skat, 18, forehand=True, honest=True)
    nulls = [p for p in plays if p.game == GameType.NULL]
    assert len(nulls) > 1 and len({p.lead for p in nulls}) == len(nulls)
    ten = (hand | skat) & ~nulls[0].discard
    lowest = {(ten & nc.SUIT[s] & -(ten & nc.SUIT[s])).bit_length() - 1
              for s in range(4) if ten & nc.SUIT[s]}
    assert lowest <= {p.lead for p in nulls}
    # middlehand does not lead: one null, the policy's play throughout; and without the
    # check (pimc) one null in forehand too
    for forehand, honest in ((False, True), (True, False)):
        plays = pickup_plays(hand | skat, 18, forehand=forehand, honest=honest)
        assert len([p for p in plays if p.game == GameType.NULL]) == 1


def test_the_blank_eight_is_led_at_once() -> None:
    """A world where the policy's own lead (the diamond 8, under every outstanding diamond)
    loses: the defenders void one hand in clubs and lead the club 7 through the blank 8;
    the club 8 led first is gone while both still hold clubs. The search keeps the lead
    that is best over all worlds."""
    c = parse_mask
    hands = [c("C8 S7 H7 H9 HT HJ D7 D8 DT DQ"), c("C7 C9 CT CJ CK S8 SK D9 DJ DK"),
             c("CQ CA S9 ST SJ SQ SA H8 HQ HK")]
    assert Solver(5, 0).null_won(hands, 0, ())
    assert not nc.escapes(hands, 0)
    assert nc.escapes(hands, 0, lead=c("C8").bit_length() - 1)
    solvers = Solvers()
    solvers.null_check = True
    skat = c("HA DA")
    assert solve_play(solvers, 5, 0, hands, skat) == (False, False)
    assert solve_play(solvers, 5, 0, hands, skat, lead=1) == (True, False)
    solvers.null_check = False  # double-dummy: won whatever he leads
    assert solve_play(solvers, 5, 0, hands, skat) == (True, False)


def test_pimc_keeps_double_dummy_and_pimc_nullcheck_checks() -> None:
    new = make_player("pimc+nullcheck", seed=1, worlds=4, workers=1)
    assert new.name == "pimc+nullcheck"
    assert new.declaring.honest  # type: ignore[attr-defined]
    assert new.declaring.solvers.null_check  # type: ignore[attr-defined]
    old = make_player("pimc", seed=1, worlds=4, workers=1)
    assert not old.declaring.honest  # type: ignore[attr-defined]
    assert not old.declaring.solvers.null_check  # type: ignore[attr-defined]
    # the oracle sees the real world: double-dummy is exact for it
    assert not Declaring(truth=lambda: ([0, 0, 0], 0), honest=True).honest


def test_the_paired_harness_needs_xskat(capsys: pytest.CaptureFixture[str],
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    from lab.pairs import main

    monkeypatch.delenv("XSKAT_SRC", raising=False)
    assert main(["--deals", "1"]) == 2
    assert "XSkat" in capsys.readouterr().err


@pytest.mark.skipif(not os.environ.get("XSKAT_SRC"),
                    reason="XSKAT_SRC is not set: no XSkat 4.0 source to build the anchor from")
def test_the_paired_harness_plays_where_the_versions_differ(
        capsys: pytest.CaptureFixture[str]) -> None:
    from lab.pairs import main

    # pimc against itself: the same choices, nothing played out
    assert main(["--new", "pimc", "--old", "pimc", "--deals", "1", "--worlds", "2"]) == 0
    assert "deals 1, seats 3, differing 0, new-old +0 in all" in capsys.readouterr().out


def test_the_paired_harness_reports_per_seat_and_by_contract_pair() -> None:
    """``pairs``' summary: new minus old per seat with the seats not played out counted 0,
    its bootstrap interval, up/down, and the split by the seat's pair of contracts."""
    import doctest

    import lab.pairs as pairs

    assert doctest.testmod(pairs).failed == 0
    t = pairs.Tally(seats=10)
    for diff, new, old in [(+200, "suit", "defend"), (+100, "suit", "defend"),
                           (-60, "grand", "suit"), (0, "grand", "grand")]:
        t.add(diff, new, old)
    first, *split = t.lines(3)
    assert first.startswith("per seat +24.00 [") and "over 10 seats" in first
    assert first.endswith("up 2 (+300), down 1 (-60), equal 1")
    assert [line.split()[1:4:2] + line.split()[-3:] for line in split] == [
        ["grand", "suit", "1", "seats", "-60"], ["grand", "grand", "1", "seats", "+0"],
        ["suit", "defend", "2", "seats", "+300"]]
    assert pairs.kind(None, None, 0) == "defend" and pairs.kind("G", 2, 2) == "grand"


def test_the_paired_harness_pools_the_outputs_of_several_runs(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``pairs --pool``: the seats of finished runs summed into one summary; a run cut
    short (no summary) or a log that lost a game line is refused, not counted."""
    from lab.pairs import main

    one = ("deal 930002819 pos 0: new C by 0 won +74 | old N by 0 lost -96 | new-old +210.0 "
           "(seat alone +170)\n"
           "deal 930002823 pos 2: new C by 2 won +86 | old G by 2 won +122 | new-old -36.0 "
           "(seat alone -36)\n"
           "deals 2, seats 6, differing 2, new-old +174 in all (the seat's own points +134)\n")
    two = ("deal 950000001 pos 1: new None by None lost +0 | old S by 1 lost -94 | "
           "new-old +134.0 (seat alone +94)\n"
           "deals 1, seats 3, differing 1, new-old +134 in all (the seat's own points +94)\n")
    a, b = tmp_path / "a.log", tmp_path / "b.log"
    a.write_text(one)
    b.write_text(two)
    assert main(["--pool", str(a), str(b)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "2 runs, seats 9, differing 3, new-old +308 in all"
    assert out[1].startswith("per seat +34.22 [") and "over 9 seats" in out[1]
    assert out[1].endswith("up 2 (+344), down 1 (-36), equal 0")
    assert sorted(line.split()[1:4:2] + line.split()[-3:-2] for line in out[2:]) == [
        ["defend", "suit", "1"], ["suit", "grand", "1"], ["suit", "null", "1"]]
    b.write_text(two.splitlines()[0] + "\n")
    assert main(["--pool", str(a), str(b)]) == 2
    assert "is the run finished?" in capsys.readouterr().err
    a.write_text(one.split("\n", 1)[1])
    assert main(["--pool", str(a)]) == 2
    assert "names 1 games played out, its summary 2" in capsys.readouterr().err
    assert main(["--pool", str(tmp_path / "none.log")]) == 2
    assert "cannot read" in capsys.readouterr().err

"""PIMC under the house rules: Kontra and Re, Ramsch play, Schieberamsch pushes; the paranoid
Ramsch solver against plain minimax; every decision of every house-rule set answered."""

from __future__ import annotations

import itertools
import json
import random

import pytest
from fullrun import size
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.actions import Bid, Declare, Discard, Kontra, Pass, Play, Push, Re
from engine.cards import RANK_POINTS, Card, parse_mask
from engine.contract import Contract, GameType
from engine.deal import Deal
from engine.game import Game, Phase, Rules
from engine.players import house
from engine.players.base import SeatView
from engine.players.pimc import PimcPlayer
from engine.players.rule import RulePlayer
from engine.players.solver import HAVE_C, LoneSolver, SolverError
from engine.players.strength import DuelSettings, ramsch_start, run_duel, seeger_fabian
from engine.trick import legal_mask, trick_winner

GRAND = int(GameType.GRAND)
RAMSCH = int(GameType.RAMSCH)


# ---------------------------------------------------------------------- the paranoid solver


def lone_minimax(hands: list[int], leader: int, trick: list[int], lone: int) -> int:
    """The card points ``lone`` takes when it plays to take few and the other two to give
    it many (jacks the only trumps), by plain minimax on the engine's own rules."""
    if not trick and not any(hands):
        return 0
    pos = (leader + len(trick)) % 3
    best = None
    m = legal_mask(hands[pos], trick[0] if trick else None, RAMSCH)
    for c in range(32):
        if not m >> c & 1:
            continue
        h = list(hands)
        h[pos] &= ~(1 << c)
        t = [*trick, c]
        if len(t) == 3:
            winner = (leader + trick_winner(t, RAMSCH)) % 3
            gain = sum(RANK_POINTS[x & 7] for x in t) if winner == lone else 0
            v = gain + lone_minimax(h, winner, [], lone)
        else:
            v = lone_minimax(h, leader, t, lone)
        if best is None or (v < best if pos == lone else v > best):
            best = v
    assert best is not None
    return best


def random_position(rng: random.Random, max_tricks: int) -> tuple[list[int], int, list[int]]:
    n = rng.randint(1, max_tricks)
    cards = list(range(32))
    rng.shuffle(cards)
    hands = [sum(1 << c for c in cards[p * n:(p + 1) * n]) for p in range(3)]
    leader = rng.randrange(3)
    trick: list[int] = []
    for i in range(rng.randint(0, 2)):
        pos = (leader + i) % 3
        m = legal_mask(hands[pos], trick[0] if trick else None, RAMSCH)
        c = rng.choice([c for c in range(32) if m >> c & 1])
        hands[pos] &= ~(1 << c)
        trick.append(c)
    return hands, leader, trick


@pytest.mark.parametrize("use_c", [False, True] if HAVE_C else [False])
def test_lone_solver_equals_paranoid_minimax(use_c: bool) -> None:
    rng = random.Random(1212)
    for _ in range(600):
        hands, leader, trick = random_position(rng, max_tricks=3)
        lone = rng.randrange(3)
        exact = lone_minimax(hands, leader, trick, lone)
        s = LoneSolver(lone, use_c=use_c, tt_entries=1 << 12)
        assert s.min_points(hands, leader, trick) == exact, (hands, leader, trick, lone)
        # "can the other two force it to take a trick" agrees with a trick-count minimax
        forced_trick = s.takes_any(hands, leader, trick)
        if not forced_trick:
            assert exact == 0


@pytest.mark.skipif(not HAVE_C, reason="the C core is not built")
def test_lone_solver_c_core_answers_like_python() -> None:
    rng = random.Random(5)
    for _ in range(150):
        hands, leader, trick = random_position(rng, max_tricks=5)
        lone = rng.randrange(3)
        py = LoneSolver(lone, use_c=False)
        c = LoneSolver(lone, use_c=True, tt_entries=1 << 12)
        v = c.min_points(hands, leader, trick)
        for need in (v - 2, v, v + 1, 41, 61):
            assert py.reaches(hands, leader, trick, need) == c.reaches(hands, leader, trick,
                                                                       need)
        assert py.takes_any(hands, leader, trick) == c.takes_any(hands, leader, trick)


def test_lone_solver_refuses_the_durchmarsch_question() -> None:
    with pytest.raises(SolverError, match="Durchmarsch"):
        LoneSolver(0).takes_all([1, 2, 4], 0, ())


# ---------------------------------------------------------------------- Ramsch rollouts


def ramsch_game(seed: int, rules: Rules | None = None) -> Game:
    return ramsch_start(Deal.shuffled(seed), rules or Rules(ramsch=True))


def test_rollout_card_is_the_rule_players_card() -> None:
    rule = RulePlayer(0)
    for seed in range(40):
        g = ramsch_game(seed)
        while g.result is None:
            pos = g.to_act
            view = SeatView.of(g, pos)
            plays = [a for a in view.legal if isinstance(a, Play)]
            mine = house.rule_ramsch_card(view.hand, view.trick)
            if len(plays) > 1:
                assert mine == rule.card(view, sum(1 << a.card for a in plays))
            g.push(Play(pos, plays[[int(a.card) for a in plays].index(mine)].card))


@pytest.mark.parametrize("jungfrau,durchmarsch", [(True, True), (False, False)])
def test_rollout_scores_like_the_engine(jungfrau: bool, durchmarsch: bool) -> None:
    rules = Rules(ramsch=True, ramsch_jungfrau=jungfrau, ramsch_durchmarsch=durchmarsch)
    rule = [RulePlayer(p) for p in range(3)]
    for seed in range(60):
        g = ramsch_game(seed, rules)
        d = g.deal
        s = house.RamschState(list(d.hands), d.skat, 0, [], [0, 0, 0], [0, 0, 0])
        s.play_out()
        while g.result is None:
            g.push(rule[g.to_act].choose(SeatView.of(g, g.to_act)))
        for pos in range(3):
            assert s.value(pos, jungfrau, durchmarsch) == g.result.position_values[pos]


def test_ramsch_loss_rises_with_points() -> None:
    losses = [house.ramsch_loss(p) for p in range(0, 121)]
    assert all(a < b for a, b in itertools.pairwise(losses))
    assert house.ramsch_loss(61) >= 61 and house.ramsch_loss(20) < 2


def test_ramsch_worlds_keep_what_the_seat_knows() -> None:
    from engine.players.pimc import sample_world

    g = ramsch_game(3)
    rule = [RulePlayer(p) for p in range(3)]
    while len(g.tricks) < 4:
        g.push(rule[g.to_act].choose(SeatView.of(g, g.to_act)))
    view = SeatView.of(g, g.to_act)
    k = house.ramsch_knowledge(view, [], seed=1)
    for i in range(30):
        hands, skat = sample_world(k, random.Random(i))
        assert hands[view.pos] == view.hand
        assert [h.bit_count() for h in hands] == list(view.hand_sizes)
        assert skat.bit_count() == 2
        assert not (hands[0] | hands[1] | hands[2] | skat) & view.played
        for p in range(3):
            assert not hands[p] & view.voids[p]


@pytest.mark.parametrize("dd_cards", [0, 5])
def test_pimc_plays_ramsch_by_search_not_by_the_rule_player(
        dd_cards: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """In late Ramsch positions PIMC's own search (play-outs, or the paranoid solver from
    ``DD_CARDS`` cards on) chooses, not the rule player: some of its cards differ."""
    monkeypatch.setattr(house, "DD_CARDS", dd_cards)
    differs = 0
    for seed in range(30):
        g = ramsch_game(seed)
        rule = [RulePlayer(p) for p in range(3)]
        while len(g.tricks) < 6:
            g.push(rule[g.to_act].choose(SeatView.of(g, g.to_act)))
        view = SeatView.of(g, g.to_act)
        plays = [int(a.card) for a in view.legal if isinstance(a, Play)]
        if len(plays) < 2:
            continue
        p = PimcPlayer(seed=1, worlds=8, workers=1)
        a = p.choose(view)
        assert a in g.legal_actions()
        if a.card != rule[view.pos].card(view, sum(1 << c for c in plays)):
            differs += 1
    assert differs > 0  # the search is in charge, not the rule player


@pytest.mark.parametrize("dd_cards", [0, 5])
def test_pimc_takes_a_durchmarsch_it_can_force(dd_cards: int,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(house, "DD_CARDS", dd_cards)
    # forehand holds every jack and the top of every suit: it must go for all ten tricks
    fh = parse_mask("CJ SJ HJ DJ CA CT SA ST HA DA")
    mh = parse_mask("CK CQ C9 C8 SK SQ S9 HK HQ DK")
    rh = parse_mask("C7 S8 S7 HT H9 H8 H7 DT DQ D9")
    skat = parse_mask("D8 D7")
    g = ramsch_start(Deal((fh, mh, rh), skat), Rules(ramsch=True))
    p = PimcPlayer(seed=2, worlds=6, workers=1)
    rule = [RulePlayer(1), RulePlayer(2)]
    while g.result is None:
        pos = g.to_act
        view = SeatView.of(g, pos)
        g.push(p.choose(view) if pos == 0 else rule[pos - 1].choose(view))
    assert g.result.durchmarsch == 0
    assert g.result.position_values == (120, 0, 0)


# ---------------------------------------------------------------------- Schieberamsch


def _push_round(deal_seed: int, takes: tuple[bool, bool, bool]) -> tuple[Game, dict[int, int]]:
    """A Schieberamsch whose positions 0, 1, 2 take the skat (and push its two richest
    non-jacks on) or pass as ``takes`` says; returns the game at the first card and what
    each position pushed."""
    g = ramsch_game(deal_seed, Rules(ramsch=True, schieberamsch=True))
    pushed: dict[int, int] = {}
    for pos in range(3):
        assert g.phase == Phase.PUSHING and g.to_act == pos
        if not takes[pos]:
            g.push(Pass(pos))
            continue
        g.push(Push(pos))
        rich = sorted((c for c in range(32) if g.hands[pos] >> c & 1 and c & 7 != 4),  # no jack
                      key=lambda c: RANK_POINTS[c & 7])[-2:]
        for c in rich:
            g.push(Discard(pos, Card(c)))
        pushed[pos] = sum(1 << c for c in rich)
    assert g.phase == Phase.PLAY
    return g, pushed


@pytest.mark.parametrize("takes, where", [
    # forehand pushes, nobody takes the skat after: its two cards lie there
    ((True, False, False), {3}),
    # middlehand takes them (and pushes two of its twelve): with middlehand or in the skat
    ((True, True, False), {1, 3}),
    ((True, False, True), {2, 3}),
    ((True, True, True), {1, 2, 3}),
    ((False, True, False), {3}),
    ((False, True, True), {2, 3}),
])
def test_a_seat_knows_where_the_cards_it_pushed_went(takes: tuple[bool, bool, bool],
                                                      where: set[int]) -> None:
    from engine.players.pimc import sample_world

    pusher = takes.index(True)
    found: set[int] = set()
    for deal_seed in range(4):
        g, pushed = _push_round(deal_seed, takes)
        mine = pushed[pusher]
        view = SeatView.of(g, pusher)
        assert view.pushed == mine
        assert view.pushers == tuple(p for p in range(3) if takes[p])
        assert view.skat == (mine if where == {3} else 0)
        for other in range(3):  # a seat that has not taken the skat since knows nothing of it
            if other != pusher and other not in view.pushed_to:
                assert not SeatView.of(g, other).pushed & mine
                assert not SeatView.of(g, other).skat & mine
        k = house.ramsch_knowledge(view, [], seed=1)
        for i in range(60):
            hands, skat = sample_world(k, random.Random(i))
            assert [h.bit_count() for h in hands] == list(view.hand_sizes)
            for c in range(32):
                if mine >> c & 1:
                    place = 3 if skat >> c & 1 else next(p for p in range(3) if hands[p] >> c & 1)
                    assert place in where, (c, place, where)
                    found.add(place)
    assert found == where  # and every place allowed is drawn


@pytest.mark.parametrize("jacks", [False, True])
def test_schieberamsch_pushes_are_legal_and_reproducible(jacks: bool) -> None:
    rules = Rules(ramsch=True, schieberamsch=True, schieberamsch_jacks=jacks)
    pushed = 0
    for seed in range(12):
        records = []
        for _ in range(2):
            g = ramsch_game(seed, rules)
            p = PimcPlayer(seed=3, worlds=6, workers=1)
            while g.phase == Phase.PUSHING:
                a = p.choose(SeatView.of(g, g.to_act))
                assert a in g.legal_actions()
                g.push(a)
            records.append(g.actions)
            pushed += g.pushes
        assert records[0] == records[1]
    assert pushed > 0  # some hands are worth a push


def test_a_push_puts_away_rich_cards() -> None:
    """After taking the skat, the two cards pushed on are chosen by playing the worlds out:
    never a jack where jacks may not be pushed, and (on these cards) aces and tens."""
    rules = Rules(ramsch=True, schieberamsch=True)
    fh = parse_mask("CJ SJ CA CT SA ST HA C7 S7 H7")
    mh = parse_mask("CK CQ C9 C8 SK SQ S9 HK HQ DK")
    rh = parse_mask("HJ DJ S8 HT H9 H8 DT DQ D9 DA")
    g = ramsch_start(Deal((fh, mh, rh), parse_mask("D8 D7")), rules)
    g.push(Push(0))
    p = PimcPlayer(seed=4, worlds=8, workers=1)
    for _ in range(2):
        a = p.choose(SeatView.of(g, 0))
        assert isinstance(a, Discard) and not a.card.is_jack
        assert RANK_POINTS[a.card & 7] >= 10
        g.push(a)


# ---------------------------------------------------------------------- Kontra and Re


def declared(deal: Deal, declarer: int, contract: str, rules: Rules) -> Game:
    """The game after ``declarer`` won the bidding at 18 and declared ``contract`` hand."""
    g = Game(deal, rules)
    if declarer == 1:
        g.replay([Bid(1, 18), Pass(0), Pass(2)])
    elif declarer == 0:
        g.replay([Pass(1), Pass(2), Bid(0, 18)])
    g.push(Declare(declarer, Contract.parse(contract)))
    assert g.phase == Phase.PLAY
    return g


STRONG = parse_mask("CJ SJ HJ DJ CA CT CK SA ST HA")
WEAK = parse_mask("C7 C8 S7 S8 H7 H8 D7 D8 D9 DQ")
REST = 0xFFFFFFFF & ~STRONG & ~WEAK


def _split_rest() -> tuple[int, int]:
    rest = [c for c in range(32) if REST >> c & 1]
    return sum(1 << c for c in rest[:10]), sum(1 << c for c in rest[10:])


def test_a_defender_says_kontra_against_a_hopeless_game() -> None:
    other, skat = _split_rest()
    # middlehand plays a grand hand on nothing; forehand holds the jacks and the aces
    g = declared(Deal((STRONG, WEAK, other), skat), 1, "GH", Rules(kontra_re=True))
    view = SeatView.of(g, 0)
    assert Kontra(0) in view.legal
    assert PimcPlayer(seed=1, worlds=16, workers=1).choose(view) == Kontra(0)
    p, n = house.declarer_chance(view, 1, house.Budget(1.0, 16))
    assert n == 16 and p < 0.2


def test_no_kontra_against_a_cold_game_and_re_after_one() -> None:
    other, skat = _split_rest()
    g = declared(Deal((STRONG, WEAK, other), skat), 0, "GH", Rules(kontra_re=True))
    # forehand declares grand hand on four jacks and aces; middlehand (a person) says Kontra
    g.push(Kontra(1))
    view = SeatView.of(g, 0)
    assert Re(0) in view.legal
    a = PimcPlayer(seed=1, worlds=16, workers=1).choose(view)
    assert a == Re(0)
    g.push(a)
    assert g.kontra == 4
    # and then it plays its card
    assert isinstance(PimcPlayer(seed=1, worlds=4, workers=1).choose(SeatView.of(g, 0)), Play)


def test_no_kontra_for_a_defender_against_a_cold_game() -> None:
    other, skat = _split_rest()
    g = declared(Deal((WEAK, STRONG, other), skat), 1, "GH", Rules(kontra_re=True))
    view = SeatView.of(g, 0)
    assert Kontra(0) in view.legal
    assert isinstance(PimcPlayer(seed=1, worlds=16, workers=1).choose(view), Play)


def test_the_rule_player_never_doubles() -> None:
    other, skat = _split_rest()
    g = declared(Deal((STRONG, WEAK, other), skat), 1, "GH", Rules(kontra_re=True))
    assert isinstance(RulePlayer(1).choose(SeatView.of(g, 0)), Play)


# ---------------------------------------------------------------------- every rule set


ALL_RULES = [
    Rules(kontra_re=k, ramsch=r, schieberamsch=s, schieberamsch_jacks=j, ramsch_jungfrau=jf,
          ramsch_durchmarsch=dm)
    for k, r, s, j, jf, dm in itertools.product([False, True], repeat=6)
    if (r or not s) and (s or not j) and (r or (jf and dm))
]


@settings(max_examples=size(10, 25), deadline=None)
@given(seed=st.integers(0, 10**6), rules=st.sampled_from(ALL_RULES),
       all_pass=st.booleans(), kinds=st.lists(st.sampled_from(["pimc", "rule"]),
                                              min_size=3, max_size=3))
def test_every_decision_of_every_rule_set_is_answered_by_the_seat(
        seed: int, rules: Rules, all_pass: bool, kinds: list[str]) -> None:
    """Whatever the house rules, every decision the engine asks of a seat (bids, skat,
    declaration, discards, Kontra/Re, pushes, cards) gets a legal answer from pimc and rule,
    and pimc's house-rule decisions are its own (the house module answers them)."""
    deal = Deal.shuffled(seed)
    g = ramsch_start(deal, rules) if all_pass and rules.ramsch else Game(deal, rules)
    players = [PimcPlayer(seed=seed + i, worlds=2, workers=1) if k == "pimc"
               else RulePlayer(seed + i) for i, k in enumerate(kinds)]
    steps = 0
    while g.result is None:
        pos = g.to_act
        view = SeatView.of(g, pos)
        a = players[pos].choose(view)
        assert a in g.legal_actions() or a.kind == "concede", (a, g.phase)
        if isinstance(players[pos], PimcPlayer) and g.phase == Phase.PUSHING:
            assert house.choose(PimcPlayer(seed=seed + pos, worlds=2, workers=1), view) is not None
        g.push(a)
        steps += 1
        assert steps < 200
    assert g.phase == Phase.FINISHED


# ---------------------------------------------------------------------- the duel harness


def test_duel_in_ramsch_only_scores_the_ramsch() -> None:
    r = run_duel(DuelSettings(a="rule", b="random", deals=6, seed=2, ramsch_only=True,
                              rules=("schieberamsch",)))
    assert r.games == 36 and r.mean > 0
    assert r.to_json()["ramsch_only"] is True


def test_a_ramsch_counts_as_scored_in_the_comparison() -> None:
    g = ramsch_game(1)
    rule = [RulePlayer(p) for p in range(3)]
    while g.result is None:
        g.push(rule[g.to_act].choose(SeatView.of(g, g.to_act)))
    assert seeger_fabian(g.result) == g.result.position_values
    assert min(g.result.position_values) < 0


def test_duel_cli_takes_rules_and_refuses_bad_ones(capsys: pytest.CaptureFixture[str]) -> None:
    from firmware_host.cli import main

    code = main(["duel", "--a", "rule", "--b", "random", "--deals", "2", "--ramsch", "--rules",
                 "schieberamsch", "--json", "--quiet"])
    assert code == 0
    d = json.loads(capsys.readouterr().out)
    assert d["ramsch_only"] is True and d["rules"] == ["schieberamsch"]
    assert main(["duel", "--rules", "bock", "--deals", "1"]) == 2
    assert "unknown house rule 'bock'" in capsys.readouterr().err
    assert main(["duel", "--ramsch", "--fixed-contract"]) == 2
    assert "exclude each other" in capsys.readouterr().err


def test_a_defender_not_to_act_is_asked_and_the_declarer_may_answer_re() -> None:
    """The table's loop asks every seat that may double before the first card, not only
    the one to lay it: rearhand (not to act) says Kontra against a hopeless grand hand of
    middlehand; forehand, to act, then plays."""
    from engine.players.table import play_game

    other, skat = _split_rest()
    g = declared(Deal((other, WEAK, STRONG), skat), 1, "GH", Rules(kontra_re=True))
    pimc = PimcPlayer(seed=1, worlds=16, workers=1)
    seen: list[object] = []
    play_game(g.deal, [RulePlayer(0), RulePlayer(1), pimc], start=g,
              on_decision=lambda pos, a, dt: seen.append(a))
    assert seen[0] == Kontra(2)
    assert g.kontra == 2 and g.result is not None
    # the rule player never doubles, in turn or out of it
    g2 = declared(Deal((other, WEAK, STRONG), skat), 1, "GH", Rules(kontra_re=True))
    play_game(g2.deal, [RulePlayer(0), RulePlayer(1), RulePlayer(2)], start=g2)
    assert g2.kontra == 1


def test_few_fixed_worlds_still_decide_a_doubling() -> None:
    """A player set to fewer worlds than a doubling needs still doubles (it solves at least
    DOUBLING_WORLDS for that decision)."""
    other, skat = _split_rest()
    g = declared(Deal((STRONG, WEAK, other), skat), 1, "GH", Rules(kontra_re=True))
    assert PimcPlayer(seed=1, worlds=2, workers=1).choose(SeatView.of(g, 0)) == Kontra(0)


def test_kontra_and_the_first_card_share_one_decisions_time(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The seat to lay the first card decides its Kontra and its card in one decision: the
    doubling gets DOUBLING_SHARE of the budget and the card what is left (not a budget
    each, which made that decision take twice the time)."""
    other, skat = _split_rest()
    g = declared(Deal((other, STRONG, WEAK), skat), 1, "GH", Rules(kontra_re=True))
    assert g.to_act == 0
    budgets: dict[str, float] = {}
    real_doubling, real_card = house.doubling, PimcPlayer.card

    def doubling(view: SeatView, seed: int, budget: house.Budget) -> object:
        budgets["double"] = budget.seconds
        return real_doubling(view, seed, budget)

    def card(self: PimcPlayer, view: SeatView, legal: list[int],
             budget: float | None = None) -> int:
        budgets["card"] = self.budget if budget is None else budget
        return real_card(self, view, legal, budget)

    monkeypatch.setattr(house, "doubling", doubling)
    monkeypatch.setattr(PimcPlayer, "card", card)
    p = PimcPlayer(seed=1, budget=0.2, workers=1)
    a = p.choose(SeatView.of(g, 0))
    assert a in g.legal_actions()
    assert budgets["double"] == pytest.approx(0.2 * house.DOUBLING_SHARE)
    if a.kind == "play":  # no Kontra: the card had the rest of the time
        assert 0.2 * 0.4 <= budgets["card"] < 0.2

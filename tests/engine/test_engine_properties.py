"""Properties over random legal games (hypothesis): card points, tricks, legal moves, undo,
JSON round trip, and the trick helpers against a plain restatement of the rules."""

from __future__ import annotations

import random

from engine_helpers import random_game
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.actions import Play
from engine.cards import FULL_DECK, JACKS, SUIT_MASKS, mask_points
from engine.contract import GameType
from engine.deal import Deal
from engine.game import Game, Phase, Rules
from engine.trick import legal_mask, trick_winner

SETTINGS = settings(max_examples=300, deadline=None)
RULE_SETS = [Rules(), Rules(kontra_re=True, ramsch=True),
             Rules(kontra_re=True, ramsch=True, schieberamsch=True)]
seeds = st.integers(min_value=0, max_value=2**32 - 1)


def all_cards_accounted(g: Game) -> int:
    """Points in tricks, in the current trick, in the hands and in the skat."""
    in_trick = sum(c.points for c in g.trick)
    return sum(g.points(p) + mask_points(g.hand(p)) for p in range(3)) + in_trick + \
        mask_points(g.skat)


@SETTINGS
@given(seeds, st.sampled_from(RULE_SETS))
def test_random_games_keep_every_card_and_end_properly(seed: int, rules: Rules) -> None:
    g = random_game(random.Random(seed), rules)
    r = g.result
    assert g.phase == Phase.FINISHED and r is not None and g.to_act is None
    assert all_cards_accounted(g) == 120
    assert g.legal_actions() == []
    if r.passed_in:
        assert r.value == 0 and g.declarer is None
        return
    if r.ending == "played":
        assert len(g.tricks) == 10 and sum(g.ntricks) == 10
        assert all(g.hand(p) == 0 for p in range(3))
        if g.is_ramsch:
            assert r.ramsch_points is not None and sum(r.ramsch_points) == 120
        else:
            d = g.declarer
            assert d is not None and r.points == g.points(d) + mask_points(g.skat)
            assert sum(g.points(p) for p in range(3)) + mask_points(g.skat) == 120
    if g.contract is not None and g.contract.game == GameType.NULL:
        assert r.won == (r.tricks == 0)
        assert r.ending in ("played", "null-trick")
    if not g.is_ramsch:
        assert (r.value > 0) == r.won
        if not r.won:
            assert r.value % 2 == 0
        if r.overbid:
            assert not r.won and r.base_value and -r.value // 2 >= r.bid
        if r.base_value and g.contract and g.contract.game != GameType.NULL:
            assert r.value % r.base_value == 0
            assert abs(r.value) >= r.bid


@SETTINGS
@given(seeds, st.sampled_from(RULE_SETS))
def test_undo_returns_identical_states(seed: int, rules: Rules) -> None:
    g = random_game(random.Random(seed), rules)
    replay = Game(g.deal, rules)
    keys = []
    for a in g.actions:
        keys.append(replay.state_key())
        replay.push(a)
    assert replay.state_key() == g.state_key()
    while g.actions:
        g.pop()
        assert g.state_key() == keys[len(g.actions)]
    assert g.state_key() == Game(g.deal, rules).state_key()


@SETTINGS
@given(seeds, st.integers(min_value=0, max_value=60))
def test_json_round_trip_at_any_point(seed: int, cut: int) -> None:
    g = random_game(random.Random(seed), Rules(kontra_re=True, ramsch=True))
    while len(g.actions) > cut:
        g.pop()
    h = Game.from_json(g.to_json())
    assert h.state_key() == g.state_key() and h.actions == g.actions


# Concessions at any moment against a plain computation of the rule: test_engine_concessions.


def reference_winner(cards: list[int], game: int) -> int:
    """Trick winner restated plainly from the rules, independent of the lookup tables."""
    def is_trump(c: int) -> bool:
        if game == GameType.NULL:
            return False
        return c & 7 == 4 or (game <= 3 and c >> 3 == game)

    def rank(c: int) -> int:
        r = c & 7
        if game == GameType.NULL:
            return [0, 1, 2, 3, 4, 5, 6, 7][r]          # 7 8 9 T J Q K A
        if r == 4:
            return 100 - (c >> 3)                       # CJ > SJ > HJ > DJ
        return [0, 1, 2, 5, -1, 3, 4, 6][r]             # 7 8 9 Q K T A

    best = 0
    for i in (1, 2):
        a, b = cards[best], cards[i]
        trumps_it = is_trump(b) and not is_trump(a)
        same_group = is_trump(b) == is_trump(a) and (is_trump(a) or b >> 3 == a >> 3)
        if trumps_it or (same_group and rank(b) > rank(a)):
            best = i
    return best


@settings(max_examples=400, deadline=None)
@given(st.permutations(list(range(32))), st.sampled_from(list(GameType)))
def test_trick_helpers_agree_with_the_plain_rules(order: list[int], game: GameType) -> None:
    cards = order[:3]
    assert trick_winner(cards, game) == reference_winner(cards, game)
    hand = 0
    for c in order[3:13]:
        hand |= 1 << c
    lead = cards[0]
    legal = legal_mask(hand, lead, game)
    assert legal and legal & ~hand == 0
    if game == GameType.NULL:
        same = hand & SUIT_MASKS[lead >> 3]
    elif lead & 7 == 4 or (game <= 3 and lead >> 3 == game):
        same = hand & (JACKS | (SUIT_MASKS[game] if game <= 3 else 0))
    else:
        same = hand & SUIT_MASKS[lead >> 3] & ~JACKS
    assert legal == (same or hand)
    assert legal_mask(hand, None, game) == hand


def test_a_full_deck_is_120_points() -> None:
    assert mask_points(FULL_DECK) == 120
    assert Deal.shuffled(0).hands[0] & Deal.shuffled(0).hands[1] == 0


@settings(max_examples=60, deadline=None)
@given(seeds, st.sampled_from(RULE_SETS))
def test_listed_actions_are_accepted_and_unlisted_cards_refused(seed: int, rules: Rules) -> None:
    """Along a random game: never stuck before the end, every listed action is accepted (and
    undone exactly), and every held card that is not listed is refused without a change."""
    from engine.actions import IllegalAction
    from engine.cards import Card

    rng = random.Random(seed)
    g = Game(Deal.random(rng), rules)
    while g.phase != Phase.FINISHED:
        acts = g.legal_actions()
        assert acts, f"stuck in {g.phase}"
        key = g.state_key()
        for a in acts:
            g.push(a)
            g.pop()
            assert g.state_key() == key
        if g.phase == Phase.PLAY:
            p = g.to_act
            assert p is not None
            listed = {a.card for a in acts if isinstance(a, Play)}
            assert listed == set(g.legal_cards())
            for c in range(32):
                if g.hand(p) >> c & 1 and Card(c) not in listed:
                    try:
                        g.push(Play(p, Card(c)))
                    except IllegalAction as exc:
                        assert "must follow" in str(exc)
                    else:
                        raise AssertionError(f"{Card(c)} accepted though not legal")
                    assert g.state_key() == key
        g.push(rng.choice(acts))


def any_action(rng: random.Random) -> object:
    """Any well-formed action, legal or not."""
    from engine.actions import (
        Abort,
        Bid,
        Concede,
        Declare,
        Discard,
        Hold,
        Kontra,
        Pass,
        Push,
        Re,
        TakeSkat,
    )
    from engine.cards import Card
    from engine.contract import BID_VALUES, Contract

    p = rng.randrange(3)
    card = Card(rng.randrange(32))
    kind = rng.randrange(13)
    if kind == 0:
        return Bid(p, rng.choice([*BID_VALUES[:12], 0, 17, 19, 21, 300]))
    if kind == 1:
        return Declare(p, Contract.parse(rng.choice(
            ["G", "GH", "CHS", "SHZ", "DO", "N", "NH", "NO", "NOH", "H", "R"])))
    if kind == 2:
        return Abort(p, rng.choice(["timeout", "leave", "resign"]))
    if kind in (3, 4, 5):
        return Discard(p, card) if kind == 3 else Play(p, card)
    return [Hold, Pass, TakeSkat, Concede, Kontra, Re, Push][kind - 6](p)


@settings(max_examples=80, deadline=None)
@given(seeds, st.sampled_from(RULE_SETS))
def test_any_action_is_either_applied_or_refused_with_a_reason(seed: int, rules: Rules) -> None:
    """Bad input never crashes and never changes a game: random well-formed actions at random
    moments are applied or refused with IllegalAction, and a refusal leaves the state alone."""
    from engine.actions import IllegalAction

    rng = random.Random(seed)
    g = Game(Deal.random(rng), rules)
    for _ in range(300):
        if g.phase == Phase.FINISHED:
            break
        a = any_action(rng) if rng.random() < 0.6 else rng.choice(g.legal_actions())
        key = g.state_key()
        n = len(g.actions)
        try:
            g.push(a)  # type: ignore[arg-type]
        except IllegalAction as exc:
            assert str(exc)
            assert g.state_key() == key and len(g.actions) == n
        else:
            assert len(g.actions) == n + 1

"""The levels a table chooses (beginner, club, expert) and the beginner's mistakes."""

from __future__ import annotations

import pytest

from engine.actions import Discard, Play
from engine.cards import JACKS, parse_mask
from engine.contract import GameType
from engine.deal import Deal
from engine.game import Game, Phase
from engine.players import PlayerError, make_player
from engine.players.base import SeatView
from engine.players.beginner import ACE, CLUB_JACK, TEN, BeginnerPlayer
from engine.players.levels import LEVELS, parse_level
from engine.players.rule import RulePlayer
from engine.players.strength import DuelSettings, run_duel
from engine.players.table import play_game
from engine.trick import BEATS, TRUMPS, trick_winner


def test_each_level_is_its_player_at_its_budget() -> None:
    assert make_player("beginner").name == "beginner"
    club = make_player("club", seed=3)
    assert isinstance(club, RulePlayer) and club.name == "club"
    expert = make_player("expert", seed=3, workers=1)
    assert expert.name == "expert" and expert.budget == pytest.approx(LEVELS["expert"].budget_s)
    third = make_player("expert/3", seed=3, workers=1)
    assert third.budget == pytest.approx(LEVELS["expert"].budget_s / 3)
    with pytest.raises(PlayerError, match="a level"):
        make_player("grandmaster")
    assert parse_level("expert/0.5") is None  # more than the level's budget is not a level


def test_the_beginner_judges_a_hand_the_same_at_every_bid() -> None:
    b = BeginnerPlayer(4)
    hand = parse_mask("CJ SJ C7 C8 CA ST SK H7 D7 D8")
    assert len({b.misjudgement(hand) for _ in range(5)}) == 1
    # over many hands it errs both ways, mostly too bold
    hands = [Deal.shuffled(s).hands[0] for s in range(400)]
    judged = [b.misjudgement(h) for h in hands]
    assert min(judged) < 0 < max(judged) and sum(judged) > 0


def _mistakes(games: int) -> list[tuple[SeatView, int, int]]:
    """Every mistake a beginner who always errs (where a mistake applies) made, with the
    view it was made from."""
    seen: list[tuple[SeatView, int, int]] = []

    class Watching(BeginnerPlayer):
        def mistake(self, view: SeatView, legal: int, g: int) -> int | None:
            c = super().mistake(view, legal, g)
            if c is not None:
                seen.append((view, legal, c))
            return c

    for s in range(games):
        play_game(Deal.shuffled(800 + s), [Watching(s * 3 + i, slip=1.0) for i in range(3)])
    return seen


def test_the_beginners_mistakes_are_a_persons_not_nonsense() -> None:
    mistakes = _mistakes(60)
    assert len(mistakes) > 100  # mistakes are made
    for view, legal, c in mistakes:
        assert legal >> c & 1
        assert c & 7 != ACE and c != CLUB_JACK, "an ace or the club jack laid by mistake"
        g = int(view.game_type)  # type: ignore[arg-type]
        if len(view.trick) == 2 and c & 7 == TEN:
            w = trick_winner(view.trick, g)
            holder = (view.trick_leader + w) % 3
            same_side = holder == view.pos or view.declarer not in (holder, view.pos)
            assert same_side or BEATS[g][view.trick[w]] >> c & 1, \
                "a ten given to a trick the other side has won"


def test_the_beginner_lays_away_small_cards_and_keeps_its_trumps() -> None:
    b = BeginnerPlayer(1)
    for s in range(200):
        g = Game(Deal.shuffled(s))
        players = [RulePlayer(i) for i in range(3)]
        while g.phase != Phase.PLAY and g.result is None:
            v = SeatView.of(g, g.to_act)
            if g.phase == Phase.DISCARD and v.game_type is not None \
                    and int(v.game_type) <= GameType.GRAND:
                c = b.small_discard(v)
                if c is not None:
                    assert c & 7 in (0, 1, 2) and not TRUMPS[int(v.game_type)] >> c & 1
                    assert any(isinstance(a, Discard) and a.card == c for a in v.legal)
                    assert not JACKS >> c & 1
            g.push(players[g.to_act].choose(v))


def test_a_beginner_plays_whole_games_legally_at_every_rule_set() -> None:
    from engine.game import Rules

    for rules in (Rules(), Rules.from_names(("kontra_re", "ramsch", "schieberamsch"))):
        for s in range(30):
            g = play_game(Deal.shuffled(s), [BeginnerPlayer(s + i) for i in range(3)],
                          rules=rules)
            assert g.result is not None
            assert any(isinstance(a, Play) for a in g.actions) or g.result.passed_in


def test_the_club_player_is_clearly_stronger_than_the_beginner() -> None:
    """The order of the levels on duplicate deals (the full figures: docs/players.md)."""
    report = run_duel(DuelSettings(a="beginner", b="club", deals=150, seed=7300))
    assert report.ci_high < 0, (f"beginner - club {report.mean:+.2f} "
                                f"[{report.ci_low:+.2f}, {report.ci_high:+.2f}]")

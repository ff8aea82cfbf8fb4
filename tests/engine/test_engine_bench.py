"""The benchmark's fast loop plays by the engine's rules: every recorded game replays through
Game to the same value; and the group returns its two figures."""

from __future__ import annotations

from engine.actions import Action, Bid, Declare, Discard, Hold, Pass, Play, TakeSkat
from engine.bench import api_games, bench, random_games
from engine.cards import Card, mask_cards
from engine.deal import Deal
from engine.game import Game, Phase


def replay(deal: tuple[int, int, int, int], calls: list[Action], d: int | None, bid: int,
           contract: object, discards: int, laid: list[int]) -> Game:
    g = Game(Deal((deal[0], deal[1], deal[2]), deal[3]))
    g.replay(calls)  # the loop's bidding, call by call: Game refuses any illegal call
    if d is None:
        return g
    assert (g.phase, g.declarer, g.bid) == (Phase.SKAT, d, bid)
    if contract.hand:  # type: ignore[attr-defined]
        g.push(Declare(d, contract))  # type: ignore[arg-type]
    else:
        g.push(TakeSkat(d))
        for c in mask_cards(discards):
            g.push(Discard(d, c))
        g.push(Declare(d, contract))  # type: ignore[arg-type]
    for c in laid:
        g.push(Play(g.to_act, Card(c)))  # type: ignore[arg-type]
    return g


def test_fast_loop_games_replay_to_the_same_values() -> None:
    record: list[tuple] = []
    total = random_games(600, seed=11, record=record)
    assert len(record) == 600 and total == sum(r[-1] for r in record)
    for deal, calls, d, bid, contract, discards, laid, value in record:
        g = replay(deal, calls, d, bid, contract, discards, laid)
        assert g.phase == Phase.FINISHED, (calls, contract, laid)
        assert g.result is not None and g.result.value == value, (calls, str(contract), laid)
        assert g.result.passed_in == (d is None)
    # the random bidding reaches every kind of call and outcome
    kinds = {type(a) for r in record for a in r[1]}
    assert kinds == {Bid, Hold, Pass}
    assert {r[2] for r in record} == {None, 0, 1, 2}
    assert any(a.pos == 0 and isinstance(a, Bid) for r in record for a in r[1])  # after 2 passes
    assert max(r[3] for r in record) > 30  # jumps and raises, not only 18


def test_fast_loop_is_reproducible() -> None:
    assert random_games(300, seed=3) == random_games(300, seed=3)
    assert api_games(20, seed=3) == api_games(20, seed=3)


def test_bench_group_reports_both_figures() -> None:
    figures = bench(quick=True)
    assert set(figures) == {"random_games_per_s", "game_api_games_per_s"}
    assert all(v > 0 for v in figures.values())

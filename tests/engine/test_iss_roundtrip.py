"""Export of engine games as ISS records: re-import gives the same game (deal, every action in
order) and the same result, for random legal games (property test, ISkO and house rules) and
for the 37 server records."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.actions import Abort, Bid, Concede, Pass, TakeSkat
from engine.deal import Deal
from engine.game import Game, Phase, Rules
from engine.iss import (
    ISS_PLACE,
    PASSED,
    PLACE,
    IssError,
    IssResult,
    check_line,
    compare,
    diff_results,
    engine_result,
    game_to_record,
    parse_record,
    replay,
    result_of,
    rules_text,
)

DATA = Path(__file__).resolve().parent.parent / "data"


def random_game(seed: int, rules: Rules | None = None) -> Game:
    """A random legal game, sometimes ended by a concession, a timeout, leaving or resigning."""
    rng = random.Random(seed)
    game = Game(Deal.random(rng), rules or Rules())
    ending = rng.random()
    while game.result is None:
        actions = game.legal_actions()
        if game.phase == Phase.PLAY and rng.random() < 0.03 and not game.is_ramsch:
            pos = rng.randrange(3)
            if ending < 0.4:
                game.push(Concede(pos))
            else:
                game.push(Abort(pos, rng.choice(["timeout", "leave", "resign"])))
            break
        if game.phase == Phase.BIDDING and rng.random() < 0.01:
            game.push(Abort(rng.randrange(3), rng.choice(["timeout", "leave"])))
            break
        if game.phase == Phase.BIDDING and rng.random() < 0.35:
            action = next(a for a in actions if isinstance(a, Pass))
        elif game.phase == Phase.BIDDING:
            # favour low bids so that many games are playable at their bid
            bids = [a for a in actions if isinstance(a, Bid)][:3]
            action = rng.choice(bids or actions)
        elif game.phase == Phase.SKAT and rng.random() < 0.7:
            action = next(a for a in actions if isinstance(a, TakeSkat))
        else:
            action = rng.choice(actions)
        game.push(action)
    return game


def assert_same_game(original: Game, line: str) -> None:
    record = parse_record(line)
    again = replay(record)
    assert again.deal == original.deal
    assert again.actions == original.actions
    assert again.result == original.result
    assert compare(record, again) == []


@settings(max_examples=300, deadline=None)
@given(st.integers(min_value=0, max_value=2**32))
def test_export_and_reimport_give_the_same_game_and_result(seed: int) -> None:
    game = random_game(seed)
    line = game_to_record(game, ("Anna", "Ben", "Carla"), {"ID": str(seed), "SE": "7"})
    assert_same_game(game, line)


HOUSE_RULES = [
    Rules(kontra_re=True),
    Rules(ramsch=True),
    Rules(kontra_re=True, ramsch=True, schieberamsch=True),
    Rules(ramsch=True, schieberamsch=True, schieberamsch_jacks=True, ramsch_jungfrau=False,
          ramsch_durchmarsch=False),
]


@settings(max_examples=200, deadline=None)
@given(st.integers(min_value=0, max_value=2**32), st.sampled_from(HOUSE_RULES))
def test_house_rule_games_round_trip_too(seed: int, rules: Rules) -> None:
    """Kontra/Re, Ramsch and Schieberamsch are written with this program's extension."""
    game = random_game(seed, rules)
    line = game_to_record(game, ("Anna", "Ben", "Carla"))
    assert f"RU[{rules_text(rules)}]" in line
    assert_same_game(game, line)
    assert parse_record(line).result == result_of(game)


def test_house_rule_generator_reaches_kontra_re_ramsch_and_pushes() -> None:
    games = [random_game(seed, HOUSE_RULES[2]) for seed in range(300)]
    kinds = {type(a).__name__ for g in games for a in g.actions}
    assert {"Kontra", "Re", "Push"} <= kinds
    assert any(g.is_ramsch and g.result.ending == "played" for g in games)  # type: ignore[union-attr]


def test_random_games_cover_the_endings() -> None:
    """The generator behind the property test reaches every kind of ending."""
    endings = {random_game(seed).result.ending for seed in range(400)}  # type: ignore[union-attr]
    assert {"played", "passed", "null-trick", "declarer-conceded", "defenders-conceded",
            "timeout", "leave", "resign"} <= endings


def test_every_server_record_round_trips() -> None:
    for path in (DATA / "games-a.sgf", DATA / "games-b.sgf"):
        for line in path.read_text(encoding="utf-8").splitlines():
            record = parse_record(line)
            game = replay(record)
            header = {k: v for k, v in record.properties if k not in ("MV", "R")}
            out = game_to_record(game, record.players, header)
            again = parse_record(out)
            assert again.properties[:-2] == record.properties[:-2]  # all but MV and R
            assert again.players == record.players
            assert replay(again).actions == game.actions
            assert str(again.result).startswith(str(record.result))
            assert engine_result(again, replay(again)) == again.result


def test_written_record_looks_like_the_servers() -> None:
    line = (DATA / "games-a.sgf").read_text(encoding="utf-8").splitlines()[22]
    record = parse_record(line)
    assert record.game_id == "6326040"
    header = dict(record.properties)
    written = game_to_record(replay(record), record.players, header)
    # byte for byte, but for the order of the cards within each hand of the deal
    deal = line.split("MV[w ", 1)[1].split(" ", 1)[0]
    assert written == line.replace(deal, replay(record).deal.to_iss())


def test_names_with_brackets_are_escaped() -> None:
    game = random_game(3)
    line = game_to_record(game, ("a]b", "c\\d", "Zoë"))
    assert parse_record(line).players == ("a]b", "c\\d", "Zoë")


def test_place_says_whose_rules_score_a_resignation() -> None:
    conceded = next(g for g in map(random_game, range(400))
                    if g.result and g.result.ending == "defenders-conceded")
    assert f"PC[{PLACE}]" in game_to_record(conceded)
    with pytest.raises(IssError, match="concession by the table's rules"):
        game_to_record(conceded, properties={"PC": ISS_PLACE})
    resigned = next(g for g in map(random_game, range(400))
                    if g.result and g.result.ending == "resign")
    assert f"PC[{ISS_PLACE}]" in game_to_record(resigned)
    with pytest.raises(IssError, match="ISS resignation"):
        game_to_record(resigned, properties={"PC": PLACE})


def test_unfinished_games_and_foreign_rules_are_refused() -> None:
    game = Game(Deal.shuffled(1))
    with pytest.raises(IssError, match="only a finished game"):
        game_to_record(game)
    line = game_to_record(random_game(5, Rules(kontra_re=True)))
    _record, problems = check_line(line.replace("RU[kontra_re]", "RU[kontra_re bock_rounds]"))
    assert problems == ["RU[kontra_re bock_rounds]: unknown house rule 'bock_rounds': known are "
                        "isko_violations, kontra_re, ramsch, ramsch_durchmarsch, ramsch_jungfrau, "
                        "schieberamsch, schieberamsch_jacks"]


def test_ramsch_result_text() -> None:
    r = IssResult.parse("ramsch v0:-36 v1:0 v2:0")
    assert r.ramsch == (-36, 0, 0) and str(r) == "ramsch v0:-36 v1:0 v2:0"
    assert diff_results(r, replace(r, ramsch=(0, -36, 0))) == [
        "ramsch: record v0:-36 v1:0 v2:0, engine v0:0 v1:-36 v2:0"]
    assert diff_results(r, PASSED) == ["record ramsch v0:-36 v1:0 v2:0, engine passed"]
    with pytest.raises(IssError, match="lacks v2"):
        IssResult.parse("ramsch v0:-36 v1:0")


def test_bench_group_reports_records_per_second() -> None:
    from engine import iss_bench

    lines, games = iss_bench.corpus()
    assert len(lines) == iss_bench.CORPUS_SIZE and len(games) == iss_bench.CORPUS_SIZE - 37
    assert sum("ID[10330141]" in ln for ln in lines) == 1
    figures = iss_bench.bench(quick=True)
    assert set(figures) == {"iss_records_per_s", "iss_export_per_s"}
    assert all(v > 0 for v in figures.values())

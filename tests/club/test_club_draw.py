"""The draw: a later series drawn again keeps apart those who already shared a table (as far
as the table sizes allow: checked against every possible seating of small fields), a series
no table has started can be drawn again after a late arrival (audited), and a table's shown
state follows its newest message."""

from __future__ import annotations

import itertools
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest
from clubkit import Director
from test_club_core import make_service
from test_club_directors import audit_rows, served, with_password

from club.service import ClubService
from club.simtables import SimTable, encode, topic
from club.store import Store
from club.tournament import TournamentError, draw, met_before, table_sizes


def pairs(tables: Mapping[str, Sequence[str]]) -> set[frozenset[str]]:
    """The pairs of players who share a table (counted here, not by the code under test)."""
    return {frozenset(two) for ps in tables.values() for two in itertools.combinations(ps, 2)}


def repeats(tables: Mapping[str, Sequence[str]], earlier: list[Mapping[str, Sequence[str]]]
            ) -> int:
    seen = set().union(*(pairs(t) for t in earlier)) if earlier else set()
    return len(pairs(tables) & seen)


def test_a_later_series_drawn_again_seats_nobody_with_someone_met_before(
        tmp_path: Path) -> None:
    # the club evening: 45 present of 48, nine tables of four and three of three
    svc = make_service(tmp_path, players=48, later_series="draw", series=3)
    for pid in ("p7", "p23", "p41"):
        svc.store.set_present(pid, False)
    seatings = []
    for number in (1, 2, 3):
        assert svc.draw_series() == number
        tables = svc.store.seating(number)
        assert sorted(len(ps) for ps in tables.values()) == [3] * 3 + [4] * 9
        assert sorted(p for ps in tables.values() for p in ps) == sorted(
            f"p{i}" for i in range(1, 49) if i not in (7, 23, 41))
        seatings.append(tables)
        svc.set_series_state(number, "closed")
    # the old lots with the same seeds seat 2 pairs together again in series 2, 5 in series 3
    assert repeats(seatings[1], seatings[:1]) == 0
    assert repeats(seatings[2], seatings[:2]) == 0
    # the series' seed is recorded and the draw can be repeated from it
    seeds = [s["seed"] for s in svc.store.series()]
    assert seeds == ["42/1", "42/2", "42/3"]
    present = sorted(p for ps in seatings[0].values() for p in ps)
    assert draw(present, seeds[2], met_before(seatings[:2])) == seatings[2]


def test_repeat_pairings_over_a_hundred_draws_of_45_players() -> None:
    # the figures of docs/club.md ("Repeat pairings"): plain lots against this draw, the
    # same seeds, 45 players at nine tables of four and three of three
    players = [f"p{i}" for i in range(1, 46)]
    old: dict[int, list[int]] = {2: [], 3: []}
    new: dict[int, list[int]] = {2: [], 3: []}
    for s in range(100):
        plain: list[dict[str, list[str]]] = []
        fewer: list[dict[str, list[str]]] = []
        for number in (1, 2, 3):
            seed = f"seed{s}/{number}"
            a, b = draw(players, seed), draw(players, seed, met_before(fewer))
            assert sorted(map(len, b.values())) == [3, 3, 3] + [4] * 9
            if number > 1:
                old[number].append(repeats(a, plain))
                new[number].append(repeats(b, fewer))
            plain.append(a)
            fewer.append(b)
    assert (sum(old[2]) / 100, max(old[2]), old[2].count(0)) == (3.65, 9, 4)
    assert (sum(old[3]) / 100, max(old[3])) == (7.9, 17)
    assert max(new[2]) == max(new[3]) == 0


def weight(tables: Mapping[str, Sequence[str]], earlier: list[dict[str, list[str]]]) -> int:
    """Repeat pairings, a pair counted once for each earlier series it shared a table in."""
    return sum(two in pairs(t) for two in pairs(tables) for t in earlier)


def _fewest(players: list[str], earlier: list[dict[str, list[str]]]) -> int:
    """The least :func:`weight` any seating of ``players`` can have (every seating tried)."""
    met = [pairs(t) for t in earlier]
    sizes = table_sizes(len(players))
    best = len(players) ** 3

    def seat(rest: list[str], sizes: list[int], cost: int) -> None:
        nonlocal best
        if cost >= best:
            return
        if not rest:
            best = cost
            return
        first, others = rest[0], rest[1:]
        for size in set(sizes):
            left = list(sizes)
            left.remove(size)
            for mates in itertools.combinations(others, size - 1):
                table = (first, *mates)
                more = sum(frozenset(two) in m for two in itertools.combinations(table, 2)
                           for m in met)
                seat([p for p in others if p not in mates], left, cost + more)

    seat(players, sizes, 0)
    return best


@pytest.mark.parametrize("n", [7, 8, 10, 12])
def test_the_draw_finds_the_fewest_repeats_the_table_sizes_allow(n: int) -> None:
    # small fields run out of new partners (7 players, 4+3, must meet 3 pairs again in
    # series 2): in each of four series, for several seeds, the draw has exactly as few
    # repeat pairings as the best of all possible seatings
    players = [f"s{i}" for i in range(n)]
    for seed in range(4):
        earlier: list[dict[str, list[str]]] = []
        for number in range(1, 5):
            tables = draw(players, f"{seed}/{number}", met_before(earlier))
            assert sorted(len(ps) for ps in tables.values()) == sorted(table_sizes(n))
            assert sorted(p for ps in tables.values() for p in ps) == sorted(players)
            if earlier:
                fewest = _fewest(players, earlier)
                assert weight(tables, earlier) == fewest, (seed, number)
                if number == 2 and n in (7, 12):
                    # 7: a table of four holds two of one earlier table; 12: each table of
                    # four holds two of one of the three earlier tables
                    assert fewest == 3
            earlier.append(tables)


def test_a_series_not_started_is_drawn_again_for_a_late_arrival(tmp_path: Path) -> None:
    svc = with_password(tmp_path, players=48)
    for pid in ("p7", "p23", "p41"):
        svc.store.set_present(pid, False)
    sent: list[tuple[str, dict[str, Any]]] = []
    svc.publish = lambda t, payload, retain: sent.append((t, payload))
    with served(svc) as base:
        anna = Director(base).login()
        anna.draw()
        first = svc.store.seating(1)
        assert len(first) == 12 and "p7" not in {p for ps in first.values() for p in ps}
        # p7 arrives late; the director marks him present and draws series 1 again
        anna.post("/director/present", {"id": "p7", "present": "1"})
        page = anna.post("/director/redraw", {"series": "1", "reason": ""})
        assert "needs a reason" in page and svc.store.seating(1) == first
        page = anna.post("/director/redraw", {"series": "x²", "reason": "late"})
        assert "series 0 has not been drawn" in page and svc.store.seating(1) == first
        sent.clear()
        page = anna.post("/director/redraw", {"series": "1", "reason": "p7 came at 19:40"})
        assert "Series 1 is seated again" in page
        again = svc.store.seating(1)
        assert sorted(len(ps) for ps in again.values()) == [3] * 2 + [4] * 10
        assert sorted(p for ps in again.values() for p in ps) == sorted(
            f"p{i}" for i in range(1, 49) if i not in (23, 41))
        assert again != first and svc.store.series()[0]["seed"] == "42/1/2"
        # every table gets its new seating (retained)
        assert {t.split("/")[3]: [p["id"] for p in m["players"]] for t, m in sent} == again
        assert all(m["series"] == 1 for _, m in sent)
        # audited: who, why, who is seated now
        who, what = audit_rows(anna.get("/director"))[0]
        assert who == "director"
        assert what == ("series 1 drawn again (draw, seed 42/1/2): 46 players at 12 tables; "
                        "seated now: p7; why: p7 came at 19:40")
        # a game comes in: the series has started, no more drawing again
        t1 = "1"
        sim = SimTable("herbst", 1, t1, again[t1], seed=3, games=4)
        assert svc.handle(topic("skc", t1), encode(sim.play_one())).kind == "counted"
        page = anna.post("/director/redraw", {"series": "1", "reason": "again"})
        assert "series 1 has started (games of table 1 are in)" in page
        assert svc.store.seating(1) == again
        # a game of the first seating (a table that did not get the new one) is refused
        old = SimTable("herbst", 1, "2", first["2"], seed=4, games=4)
        out = svc.handle(topic("skc", "2"), encode(old.play_one()))
        assert out.kind == "rejected" and "claims players" in out.reason


def test_drawing_again_leaves_a_table_empty_and_keeps_apart_who_met(tmp_path: Path) -> None:
    svc = make_service(tmp_path, players=16, later_series="draw")
    svc.draw_series()
    svc.set_series_state(1, "closed")
    svc.draw_series()
    before = svc.store.seating(1)
    with pytest.raises(TournamentError, match="series 2 is drawn already"):
        svc.redraw_series(1, "director", "late")
    svc.store.set_present("p16", False)     # left after series 1: 15 players, 4+4+4+3
    svc.store.set_present("p15", False)     # and another: 14, 4+4+3+3
    svc.store.set_present("p14", False)
    svc.store.set_present("p13", False)     # 12 players: three tables
    assert svc.redraw_series(2, "director", "four players left") == ["4"]
    again = svc.store.seating(2)
    assert sorted(len(ps) for ps in again.values()) == [4, 4, 4]
    # drawn again, series 2 keeps apart who met in series 1 as far as the sizes allow
    here = sorted(p for ps in again.values() for p in ps)
    assert weight(again, [before]) == _fewest(here, [before])
    assert svc.store.series()[1]["seed"] == "42/2/2"
    assert svc.redraw_series(2, "director", "once more") == []
    assert svc.store.series()[1]["seed"] == "42/2/3"
    svc.set_series_state(2, "closed")
    with pytest.raises(TournamentError, match="closed"):
        svc.redraw_series(2, "director", "late")


def shown(base: str, table: str) -> str:
    page = Director(base).get("/tables")
    m = re.search(rf'class="card state-(\w+)" href="/tables/1/{table}"', page)
    assert m, page[:500]
    return m.group(1)


def status(table: str, state: str, game: int | None = None) -> bytes:
    return (f'{{"table": "{table}", "state": "{state}", "tournament": "herbst", "series": "1",'
            f' "game": {"null" if game is None else game}, "at": "2026-11-28T19:00:00Z"}}'
            ).encode()


def test_a_table_shows_playing_once_its_games_come_after_an_idle_status(
        tmp_path: Path) -> None:
    svc = make_service(tmp_path, players=6, games_three=4)
    svc.draw_series()
    t1, t2 = sorted(svc.store.seating(1))
    # the links' retained statuses from before the series started
    for t in (t1, t2):
        assert svc.handle(topic("skc", t, "status"), status(t, "idle")).kind == "status"
    sim = SimTable("herbst", 1, t1, svc.store.seating(1)[t1], seed=1, games=4)
    with served(svc) as base:
        assert shown(base, t1) == "idle"
        for _ in range(2):
            assert svc.handle(topic("skc", t1), encode(sim.play_one())).kind == "counted"
        assert shown(base, t1) == "playing" and shown(base, t2) == "idle"
        # the server restarts: the broker hands out the same retained status again
        svc = ClubService(svc.config, Store(svc.config.database))
        assert svc.handle(topic("skc", t1, "status"), status(t1, "idle")).kind == "status"
    with served(svc) as base:
        assert shown(base, t1) == "playing"
        # a newer status counts: the link's last will, then playing again
        svc.handle(topic("skc", t1, "status"), status(t1, "offline", 3))
        assert shown(base, t1) == "offline"
        svc.handle(topic("skc", t1, "status"), status(t1, "playing", 3))
        assert shown(base, t1) == "playing"
        # the table's list complete, its status left at playing game 3: idle
        for _ in range(2):
            assert svc.handle(topic("skc", t1), encode(sim.play_one())).kind == "counted"
        assert shown(base, t1) == "idle"

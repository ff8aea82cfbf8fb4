"""A table's credentials may publish any game that replays in the engine; a forged one is
refused: a record naming players who do not sit there, and a deal received before (a record
copied from another table or from an earlier game). The tables' real games all count."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

from test_club_core import engine_totals, make_service, play_series

from club.forgery import deal_key
from club.service import ClubService
from club.simtables import SimTable, encode, topic
from club.store import Store


def seated(svc: ClubService, tid: str, series: int = 1) -> list[str]:
    return svc.store.seating(series)[tid]


def forged(svc: ClubService, tid: str, names: list[str], seed: int = 5) -> dict[str, Any]:
    """A self-consistent game of table ``tid``'s seating whose ISS record names ``names``."""
    sim = SimTable("herbst", 1, tid, names, seed=seed, games=4)
    message = sim.play_one()
    message["players"] = seated(svc, tid)
    return message


def test_a_record_naming_players_not_seated_there_is_refused(tmp_path: Path) -> None:
    svc = make_service(tmp_path, players=7)        # tables of 4 and 3
    svc.draw_series()
    t1, t2 = sorted(svc.store.seating(1))
    # a game played by others (a home game, another evening) under table 1's seating
    out = svc.handle(topic("skc", t1), encode(forged(svc, t1, ["x1", "x2", "x3", "x4"])))
    assert out.kind == "rejected"
    first = seated(svc, t1)[1]          # forehand of game 1: the seat after the dealer
    assert f"the ISS record names x2 as forehand, where Spieler {first[1:]} ({first}) " \
           f"sits (seat 2 of table {t1})" in out.reason
    refused = svc.store.rejected(1)[0]
    assert refused["code"] == "players" and refused["game_id"] == out.game_id
    assert svc.games() == [] and svc.game_state(out.game_id)[1] == "missing"
    # the other table's players (and one of this table) are refused too
    others = seated(svc, t2)
    out = svc.handle(topic("skc", t1), encode(forged(svc, t1, [*others, seated(svc, t1)[3]],
                                                     seed=6)))
    assert out.kind == "rejected" and "as forehand" in out.reason
    # two players of the table swapped in the record: refused, naming both positions
    ids = seated(svc, t1)
    swapped = [ids[0], ids[2], ids[1], ids[3]]
    out = svc.handle(topic("skc", t1), encode(forged(svc, t1, swapped, seed=7)))
    assert out.kind == "rejected"
    assert "as forehand" in out.reason and "as middlehand" in out.reason
    assert "as rearhand" not in out.reason
    # the real table writes the players' names as the seating sent them: counted
    names = {p["id"]: p["name"] for p in svc.store.players()}
    real = forged(svc, t1, [names[p] for p in ids], seed=8)
    assert svc.handle(topic("skc", t1), encode(real)).kind == "counted"
    # a name corrected after the draw: the name the seating went out with still counts, and
    # the name now too (game 3: seat 2 is rearhand; game 4: middlehand)
    old = names[ids[1]]
    svc.register(ids[1], "Spielerin Eins", "SC Kreuz")
    before = SimTable("herbst", 1, t1, [names[ids[0]], old, names[ids[2]], ids[3]], seed=9)
    after = SimTable("herbst", 1, t1, [names[ids[0]], "Spielerin Eins", names[ids[2]],
                                       ids[3]], seed=10)
    games = [before.play_one() for _ in range(3)][1:] + [after.play_one() for _ in range(4)][3:]
    for g in games:
        g["players"] = ids
        out = svc.handle(topic("skc", t1), encode(g))
        assert out.kind == "counted", out.reason
    assert f"P2[{old}]" in games[1]["iss"] and "P1[Spielerin Eins]" in games[2]["iss"]


def test_a_deal_received_before_is_refused_as_a_copy(tmp_path: Path) -> None:
    svc = make_service(tmp_path, players=6)        # two tables of three
    svc.draw_series()
    t1, t2 = sorted(svc.store.seating(1))
    one = SimTable("herbst", 1, t1, seated(svc, t1), seed=1, games=6)
    games = [one.play_one() for _ in range(4)]
    for g in games[:3]:
        assert svc.handle(topic("skc", t1), encode(g)).kind == "counted"
    # table 2 copies table 1's game 1: its own ids, its own players' names in the record
    copy = json.loads(json.dumps(games[0]))
    ids2 = seated(svc, t2)
    for pos, (a, b) in enumerate(zip(seated(svc, t1), ids2, strict=True)):
        copy["iss"] = copy["iss"].replace(f"P{pos}[{a}]", f"P{pos}[{b}]")
    copy.update(id=f"herbst/1/{t2}/1", table=t2, players=ids2)
    out = svc.handle(topic("skc", t2), encode(copy))
    assert out.kind == "rejected"
    assert (f"the same deal (all 32 cards) was received before as game 1 of table {t1} in "
            f"series 1 (herbst/1/{t1}/1, at ") in out.reason and "a copied record" in out.reason
    assert svc.store.rejected(1)[0]["code"] == "copied"
    # the hands handed round (forehand's cards to middlehand ...) are the same deal
    iss = copy["iss"]
    start = iss.index("MV[w ") + 5
    cards = iss[start:].split(" ")[0].split(".")
    turned = ".".join(cards[10:20] + cards[20:30] + cards[0:10] + cards[30:])
    assert deal_key(iss[:start] + turned + iss[start + len(".".join(cards)):]) == deal_key(iss)
    assert deal_key(games[1]["iss"]) != deal_key(iss)
    # table 1 publishes its game 1 again as game 4 (a three-player table: the same dealer)
    again = json.loads(json.dumps(games[0]))
    again.update(id=f"herbst/1/{t1}/4", game=4, result=dict(again["result"], number=4))
    out = svc.handle(topic("skc", t1), encode(again))
    assert out.kind == "rejected" and f"received before as game 1 of table {t1}" in out.reason
    # an undo at the table: revision 2 of a game has its deal, of course
    rev2 = dict(games[2], revision=2)
    assert svc.handle(topic("skc", t1), encode(rev2)).kind == "counted"
    # and the table's real game 4 counts
    assert svc.handle(topic("skc", t1), encode(games[3])).kind == "counted"
    assert len(svc.games()) == 4


def test_a_database_from_before_gets_its_deals_and_refuses_their_copies(
        tmp_path: Path) -> None:
    svc = make_service(tmp_path, players=6)
    svc.draw_series()
    t1, t2 = sorted(svc.store.seating(1))
    sim = SimTable("herbst", 1, t1, seated(svc, t1), seed=3, games=3)
    first = sim.play_one()
    assert svc.handle(topic("skc", t1), encode(first)).kind == "counted"
    svc.store.close()
    # the database as written before deals were kept
    db = sqlite3.connect(tmp_path / "c.db")
    db.execute("UPDATE revisions SET deal = NULL")
    db.commit()
    db.close()
    svc = ClubService(svc.config, Store(svc.config.database))
    copy = dict(first, id=f"herbst/1/{t2}/1", table=t2, players=seated(svc, t2))
    out = svc.handle(topic("skc", t2), encode(copy))
    assert out.kind == "rejected" and "a copied record" in out.reason


def test_the_tables_real_games_all_count(tmp_path: Path) -> None:
    # 14 players at 4+4+3+3, two series of 12 games: every game counted, nothing refused,
    # the engine's totals
    svc = make_service(tmp_path, players=14, later_series="draw")
    svc.draw_series()
    t1 = play_series(svc, 1, games=12)
    svc.set_series_state(1, "closed")
    svc.draw_series()
    t2 = play_series(svc, 2, games=12, seed=2)
    assert len(svc.games()) == 2 * 4 * 12 and svc.store.rejected_count() == 0
    want1, want2 = engine_totals(t1), engine_totals(t2)
    assert {r.player: r.total for r in svc.ranking()} == {
        p: want1[p] + want2[p] for p in want1}

"""The director's tools for an evening that does not go as planned, in process: games ahead of
a table's progress held, a conflict settled by choosing a version, games refused after an
early Close counted by Reopen, a paper list typed in with the checks of a published game, and
absent players neither ranked nor paying into the prize pool."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import pytest
from test_club_core import make_service

from club.scoring import GameCheckError
from club.service import ClubService, PaperLine
from club.simtables import SimTable, encode, topic
from club.store import Store
from club.tournament import TournamentError


def three(tmp_path: Path, games: int = 36) -> tuple[ClubService, str, list[str]]:
    svc = make_service(tmp_path, players=3, games_three=games)
    svc.draw_series()
    (tid, pids), = svc.store.seating(1).items()
    return svc, tid, pids


def totals(svc: ClubService) -> dict[str, int]:
    return {r.player: r.total for r in svc.ranking()}


def test_a_game_ahead_of_the_table_is_held_and_a_conflict_is_settled(tmp_path: Path) -> None:
    svc, tid, pids = three(tmp_path)
    t = topic("skc", tid)
    real = SimTable("herbst", 1, tid, pids, seed=1, games=12)
    copied = SimTable("herbst", 1, tid, pids, seed=2, games=12)
    for _ in range(5):
        assert svc.handle(t, encode(real.play_one())).kind == "counted"
    before = totals(svc)
    # a valid record of another deal, published as game 10 while the table is at game 5
    fake = [copied.play_one() for _ in range(10)][-1]
    out = svc.handle(t, encode(fake))
    assert out.kind == "held" and "counts once game 6 is there" in out.reason
    assert totals(svc) == before and len(svc.games()) == 5
    assert svc.game_state(fake["id"])[1] == "held"
    assert [g.game for g in svc.held()] == [10]
    # the restart keeps it held
    assert ClubService(svc.config, Store(svc.config.database)).game_state(fake["id"])[1] == "held"
    # the table gets there: games 6..9, then its own game 10 arrives with other content
    for _ in range(4):
        assert svc.handle(t, encode(real.play_one())).kind == "counted"
    own = real.play_one()
    out = svc.handle(t, encode(own))
    assert out.kind == "rejected" and "received before with other content" in out.reason
    conflict = svc.store.rejected(1)[0]
    assert conflict["code"] == "conflict" and conflict["game_id"] == own["id"]
    # the director chooses the table's own version: it counts, audited (who, when, which)
    svc.choose(own["id"], "director", "the table's own sheet shows this deal",
               refused=conflict["seq"])
    g = svc.game(own["id"])
    assert g is not None and g.value == own["result"]["value"]
    audit = svc.store.corrections(own["id"])[-1]
    assert (audit.kind, audit.who) == ("choose", "director") and audit.at
    assert f"refused message {conflict['seq']}" in audit.detail
    assert svc.store.rejected_one(conflict["seq"])["resolved"].startswith("chosen by director")
    for _ in range(2):
        assert svc.handle(t, encode(real.play_one())).kind == "counted"
    want = dict(zip(pids, real.series.seeger_fabian, strict=True))
    assert totals(svc) == want
    assert totals(ClubService(svc.config, Store(svc.config.database))) == want
    # choosing a stored revision back (the copied one) is audited the same way
    svc.choose(own["id"], "director", "wrong choice", revision=1)
    assert svc.game(own["id"]).value == fake["result"]["value"]
    with pytest.raises(TournamentError, match="no revision 7"):
        svc.choose(own["id"], "director", "x", revision=7)
    with pytest.raises(TournamentError, match="needs a reason"):
        svc.choose(own["id"], "director", " ", revision=1)


def test_reopen_counts_the_games_refused_after_an_early_close(tmp_path: Path) -> None:
    svc, tid, pids = three(tmp_path)
    t = topic("skc", tid)
    sim = SimTable("herbst", 1, tid, pids, seed=4, games=8)
    for _ in range(5):
        assert svc.handle(t, encode(sim.play_one())).kind == "counted"
    svc.set_series_state(1, "closed")
    for _ in range(3):
        out = svc.handle(t, encode(sim.play_one()))
        assert out.kind == "rejected" and "closed" in out.reason
    assert len(svc.games()) == 5
    outcomes = svc.set_series_state(1, "running")
    assert [o.kind for o in outcomes] == ["counted"] * 3
    assert totals(svc) == dict(zip(pids, sim.series.seeger_fabian, strict=True))
    assert all(r["resolved"] and "reopened" in r["resolved"] for r in svc.store.rejected())
    # a second Close and Reopen changes nothing more
    svc.set_series_state(1, "closed")
    assert svc.set_series_state(1, "running") == []
    assert len(svc.games()) == 8


def _line(entry: dict) -> PaperLine:
    return PaperLine(entry["number"], entry["declarer"], entry["value"], entry["contract"])


def test_a_paper_list_is_typed_in_with_the_checks_of_a_published_game(tmp_path: Path) -> None:
    svc, tid, pids = three(tmp_path)
    t = topic("skc", tid)
    sim = SimTable("herbst", 1, tid, pids, seed=6, games=9)
    for _ in range(3):
        assert svc.handle(t, encode(sim.play_one())).kind == "counted"
    # the Pi dies after game 3; the table plays on paper (here: the same deals)
    paper = [sim.play_one()["result"] for _ in range(3)]
    # game 7 reaches the server later (the Pi back): held until 4..6 are typed in
    late = sim.play_one()
    assert svc.handle(t, encode(late)).kind == "held"
    lines = [_line(e) for e in paper]
    sums = list(sim.series.seeger_fabian)     # the list's foot after game 7
    # wrong lines are refused, and nothing is entered
    bad = [lines[0], PaperLine(5, 1, 47), lines[2]]
    with pytest.raises(GameCheckError, match="game 5: 47 is no game value"):
        svc.enter_paper(1, tid, bad, "director", "Pi of table 1 dead")
    if any(e["declarer"] is not None for e in paper):
        i = next(i for i, e in enumerate(paper) if e["declarer"] is not None)
        e = paper[i]
        wrong = PaperLine(e["number"], e["declarer"], e["value"],
                          "G" if e["contract"] and e["contract"][0] != "G" else "D")
        with pytest.raises(GameCheckError, match=f"game {e['number']}"):
            svc.enter_paper(1, tid, [*lines[:i], wrong, *lines[i + 1:]], "director", "x")
    with pytest.raises(TournamentError, match="has arrived from the table"):
        svc.enter_paper(1, tid, [PaperLine(2, None, 0)], "director", "x")
    with pytest.raises(TournamentError, match="Seeger-Fabian sums do not agree"):
        svc.enter_paper(1, tid, lines, "director", "x", sf_totals=[s + 1 for s in sums])
    with pytest.raises(TournamentError, match="need a reason"):
        svc.enter_paper(1, tid, lines, "director", "")
    with pytest.raises(GameCheckError, match="passed-in game has no value"):
        svc.enter_paper(1, tid, [PaperLine(4, None, 24)], "director", "x")
    assert len(svc.games()) == 3 and svc.store.corrections() == []
    ids = svc.enter_paper(1, tid, lines, "director", "Pi of table 1 dead: the paper list",
                          sf_totals=sums)
    assert len(ids) == 3 and len(svc.games()) == 7          # 4..6 typed, 7 released
    assert totals(svc) == dict(zip(pids, sums, strict=True))
    audit = svc.store.corrections()
    assert [(c.kind, c.who, c.before) for c in audit] == [("paper", "director", {})] * 3
    assert audit[0].reason == "Pi of table 1 dead: the paper list"
    assert all(svc.game(gid).source == "paper" for gid in ids)
    again = ClubService(svc.config, Store(svc.config.database))
    assert totals(again) == totals(svc)


def test_correct_enters_a_game_that_never_arrived(tmp_path: Path) -> None:
    svc = make_service(tmp_path, players=4)
    svc.draw_series()
    (tid, _), = svc.store.seating(1).items()
    gid = f"herbst/1/{tid}/1"
    assert svc.game_state(gid) == (None, "missing")
    with pytest.raises(TournamentError, match="has not arrived: there is nothing to annul"):
        svc.correct(gid, "director", "x", annul=True)
    with pytest.raises(GameCheckError, match="dealer sits out"):
        svc.correct(gid, "director", "paper", declarer=0, won=True, value=24)
    svc.correct(gid, "director", "paper list", declarer=1, won=False, value=-48,
                contract="C")
    g = svc.game(gid)
    assert g is not None and g.sf == (30, -98, 30, 30) and g.contract == "C"
    assert svc.store.corrections(gid)[0].kind == "paper"
    for wrong in ("other/1/1/1", f"herbst/²/{tid}/1", f"herbst/1/{tid}/" + "9" * 5000):
        with pytest.raises(TournamentError, match="not a game of tournament"):
            svc.correct(wrong, "director", "x", declarer=1, won=True, value=24)
    with pytest.raises(TournamentError, match=r"plays games 1\.\.48"):
        svc.correct(f"herbst/1/{tid}/49", "director", "x", declarer=1, won=True, value=24)


def test_absent_players_neither_ranked_nor_in_the_pool(tmp_path: Path) -> None:
    svc = make_service(tmp_path, players=8, series=2)      # entry fee 10
    svc.store.set_present("p8", False)
    assert svc.prizes()[0] == Decimal(70)                  # before the draw: those present
    svc.draw_series()
    sims = {t: SimTable("herbst", 1, t, p, seed=3, games=6)
            for t, p in svc.store.seating(1).items()}
    for t, sim in sims.items():
        for _ in range(6):
            svc.handle(topic("skc", t), encode(sim.play_one()))
    rows = svc.ranking()
    assert len(rows) == 7 and "p8" not in {r.player for r in rows}
    assert [p["id"] for p in svc.not_ranked()] == ["p8"]
    assert svc.prizes()[0] == Decimal(70)
    assert svc.standings_message()["not_ranked"] == [{"id": "p8", "name": "Spieler 8"}]
    # p8 arrives for series 2 (seated by standing, as a player with 0), p3 leaves
    svc.store.set_present("p8", True)
    svc.store.set_present("p3", False)
    svc.set_series_state(1, "closed")
    svc.draw_series("standing")
    seated = {p for ps in svc.store.seating(2).values() for p in ps}
    assert "p8" in seated and "p3" not in seated
    assert svc.prizes()[0] == Decimal(80)                   # everyone who played a series
    assert "p3" in {r.player for r in svc.ranking()}        # p3 played series 1
    svc.set_series_state(2, "closed")
    # registered after the end: the pool does not grow, the ranking does not change
    ranking = [(r.player, r.place) for r in svc.ranking()]
    svc.register("p9", "Nachzügler")
    assert svc.prizes()[0] == Decimal(80)
    assert [(r.player, r.place) for r in svc.ranking()] == ranking
    assert [p["id"] for p in svc.not_ranked()] == ["p9"]

"""The club server's core without network: scoring by the engine, revisions, refusals,
corrections, seating, ties and prizes, restart from the store."""

from __future__ import annotations

import copy
import doctest
import importlib
import json
from decimal import Decimal
from pathlib import Path

import pytest

from club.config import ClubConfig, ClubConfigError, load_config
from club.scoring import Row, share_prizes
from club.service import ClubService
from club.simtables import SimTable, encode, topic
from club.store import Store
from club.tournament import TournamentError, parse_players_csv, table_sizes


def make_service(tmp_path: Path, players: int = 14, **tournament: object) -> ClubService:
    t = {"id": "herbst", "seed": "42", "entry_fee": "10", "prize_shares": [50, 30, 20]}
    t.update(tournament)
    cfg = ClubConfig.from_dict({"club": {"id": "skc", "database": str(tmp_path / "c.db")},
                                "tournament": t})
    svc = ClubService(cfg, Store(cfg.database))
    for i in range(1, players + 1):
        svc.register(f"p{i}", f"Spieler {i}", "SC Kreuz")
    return svc


def play_series(svc: ClubService, series: int, games: int | None = None,
                seed: int = 1) -> dict[str, SimTable]:
    tables = {t: SimTable("herbst", series, t, p, seed=seed, games=games)
              for t, p in svc.store.seating(series).items()}
    for tid, t in tables.items():
        while not t.finished:
            out = svc.handle(topic("skc", tid), encode(t.play_one()))
            assert out.kind == "counted", out
    return tables


def engine_totals(tables: dict[str, SimTable]) -> dict[str, int]:
    """Seeger-Fabian per player as the engine's own Series scored the same games."""
    return {pid: t.series.seeger_fabian[seat]
            for t in tables.values() for seat, pid in enumerate(t.players)}


@pytest.mark.parametrize("name", ["club.config", "club.scoring", "club.tournament",
                                  "club.sheets", "club.simtables"])
def test_doctests(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0


def test_ranking_equals_the_engines_own_series_scoring(tmp_path: Path) -> None:
    svc = make_service(tmp_path, players=14)
    assert svc.draw_series() == 1
    assert sorted(len(p) for p in svc.store.seating(1).values()) == [3, 3, 4, 4]
    t1 = play_series(svc, 1)
    svc.set_series_state(1, "closed")
    assert svc.draw_series() == 2          # later series: by standing
    best = svc.ranking()[0].player
    assert best in svc.store.seating(2)["1"]
    t2 = play_series(svc, 2, seed=2)
    want1, want2 = engine_totals(t1), engine_totals(t2)
    rows = {r.player: r for r in svc.ranking()}
    assert len(rows) == 14
    for pid, r in rows.items():
        assert r.series[:2] == (want1[pid], want2[pid])
        assert r.total == want1[pid] + want2[pid]
    # games: 36 at a three-player table, 48 at four; won/lost as the engine's sheets count
    won = {pid: 0 for pid in rows}
    for t in list(t1.values()) + list(t2.values()):
        for seat, pid in enumerate(t.players):
            won[pid] += t.series.games_won()[seat]
    assert {pid: r.won for pid, r in rows.items()} == won
    # a restart rebuilds the same ranking from the store alone
    again = ClubService(svc.config, Store(svc.config.database))
    assert [(r.player, r.total, r.place) for r in again.ranking()] == \
        [(r.player, r.total, r.place) for r in svc.ranking()]


def _first_message(svc: ClubService) -> tuple[str, dict]:
    svc.draw_series()
    tid, pids = next(iter(svc.store.seating(1).items()))
    return tid, SimTable("herbst", 1, tid, pids, seed=3).play_one()


def test_duplicates_and_out_of_order_revisions(tmp_path: Path) -> None:
    svc = make_service(tmp_path, players=6)
    tid, m1 = _first_message(svc)
    t = topic("skc", tid)
    assert svc.handle(t, encode(m1)).kind == "counted"
    assert svc.handle(t, encode(m1)).kind == "duplicate"
    # an undo at the table: revision 3 arrives before revision 2; the result changes
    m3 = copy.deepcopy(m1)
    m3["revision"] = 3
    other = SimTable("herbst", 1, tid, m1["players"], seed=99).play_one()
    m3["result"], m3["iss"] = other["result"], other["iss"]
    assert svc.handle(t, encode(m3)).kind == "counted"
    m2 = dict(copy.deepcopy(m1), revision=2)
    assert svc.handle(t, encode(m2)).kind == "kept"
    g = svc.game(m1["id"])
    assert g is not None and g.revision == 3 and g.value == other["result"]["value"]
    assert [r.revision for r in svc.store.revisions(m1["id"])] == [1, 2, 3]
    # the same revision with other content is refused and kept for the director
    m3b = dict(copy.deepcopy(m1), revision=3)
    out = svc.handle(t, encode(m3b))
    assert out.kind == "rejected" and "other content" in out.reason
    assert svc.store.rejected()[0]["reason"] == out.reason


def test_bad_input_is_refused_kept_and_never_counted(tmp_path: Path) -> None:
    svc = make_service(tmp_path, players=7)
    tid, m = _first_message(svc)
    other_table = next(t for t in svc.store.seating(1) if t != tid)
    t = topic("skc", tid)

    def variant(**changes: object) -> bytes:
        d = copy.deepcopy(m)
        d.update(changes)
        return encode(d)

    bad = {
        "not json": (t, b"{\"id\": "),
        "not utf-8": (t, b"\xff\xfe"),
        "a list": (t, b"[1, 2]"),
        "unknown tournament": (t, variant(tournament="fruehjahr",
                                          id=m["id"].replace("herbst", "fruehjahr"))),
        "unknown table": (topic("skc", "99"), variant(table="99", id="herbst/1/99/1")),
        "another table's seat": (topic("skc", other_table), variant(table=other_table,
                                                                    id=f"herbst/1/{other_table}/1")),
        "players swapped": (t, variant(players=list(reversed(m["players"])))),
        "series not drawn": (t, variant(series=2, id=f"herbst/2/{tid}/1")),
        "absurd value": (t, variant(result=dict(m["result"], value=9999))),
        "wrong value": (t, variant(result=dict(m["result"], value=m["result"]["value"] + 1))),
        "game out of range": (t, variant(game=77, id=f"herbst/1/{tid}/77")),
        "wrong dealer": (t, variant(dealer=2)),
        "revision 0": (t, variant(revision=0)),
        "bool revision": (t, variant(revision=True)),
        "broken record": (t, variant(iss=m["iss"].replace("MV[w ", "MV[w XX."))),
        "huge": (t, b"{" + b" " * 70_000 + b"}"),
        "other club": ("skat/other/table/1/game", encode(m)),
        "bad status": (topic("skc", tid, "status"), b'{"state": "dancing"}'),
    }
    for name, (top, payload) in bad.items():
        out = svc.handle(top, payload)
        assert out.kind == "rejected", name
    assert svc.games() == []
    assert svc.store.rejected_count() == len(bad)
    reasons = " | ".join(r["reason"] for r in svc.store.rejected())
    assert "disagrees with the engine" in reasons and "claims players" in reasons
    # the real message still counts afterwards (the link may write the series as text)
    assert svc.handle(t, encode(dict(m, series="1"))).kind == "counted"


def test_corrections_are_audited_and_the_ranking_follows(tmp_path: Path) -> None:
    svc = make_service(tmp_path, players=3)
    svc.draw_series()
    play_series(svc, 1, games=3)
    g = svc.games()[0]
    before = {r.player: r.total for r in svc.ranking()}
    decl = 1 if g.declarer != 1 else 2
    svc.correct(g.game_id, "director", "declarer misread: Ben played", declarer=decl,
                won=True, value=48)
    after = {r.player: r.total for r in svc.ranking()}
    pid = g.players[decl]
    delta = 48 + 50 - (g.sf[decl])
    assert after[pid] == before[pid] + delta
    with pytest.raises(TournamentError):
        svc.correct(g.game_id, "director", "", annul=True)
    with pytest.raises(ValueError, match="no game value"):
        svc.correct(g.game_id, "director", "typo", declarer=decl, won=True, value=47)
    svc.correct(g.game_id, "director", "misdeal", annul=True)
    assert svc.game(g.game_id).annulled
    svc.correct(g.game_id, "director", "the table was right", restore=True)
    assert {r.player: r.total for r in svc.ranking()} == before
    audit = svc.store.corrections(g.game_id)
    assert [c.kind for c in audit] == ["correct", "annul", "restore"]
    assert audit[0].reason == "declarer misread: Ben played"
    assert audit[0].before["value"] == g.value and audit[0].after["value"] == 48
    # a later table revision does not overrule the director; it is stored and shown
    again = ClubService(svc.config, Store(svc.config.database))
    assert {r.player: r.total for r in again.ranking()} == before


def test_seating_sizes_and_draw_is_recorded(tmp_path: Path) -> None:
    assert table_sizes(3) == [3] and table_sizes(8) == [4, 4] and table_sizes(10) == [4, 3, 3]
    for n in (1, 2, 5):
        with pytest.raises(TournamentError):
            table_sizes(n)
    svc = make_service(tmp_path, players=10)
    svc.draw_series()
    s = svc.store.series()[0]
    assert s["method"] == "draw" and s["seed"] == "42/1"
    seated = [p for ps in svc.store.seating(1).values() for p in ps]
    assert sorted(seated) == sorted(f"p{i}" for i in range(1, 11))
    with pytest.raises(TournamentError, match="close the running series"):
        svc.draw_series()


def test_ties_share_a_place_and_split_prizes() -> None:
    rows = [Row(p, str(i), "", "", (), 0, 0, 0, 0, 0, 0, Decimal(0))
            for i, p in enumerate([1, 2, 2, 4])]
    prizes = [Decimal("60.00"), Decimal("30.00"), Decimal("10.00")]
    assert [r.prize for r in share_prizes(rows, prizes)] == \
        [Decimal("60.00"), Decimal("20.00"), Decimal("20.00"), Decimal(0)]


def test_tie_break_rules_from_the_config(tmp_path: Path) -> None:
    svc = make_service(tmp_path, players=3, tie_break=["won-minus-lost"])
    svc.draw_series()
    play_series(svc, 1, games=6)
    rows = svc.ranking()
    assert [r.place for r in rows] == sorted(r.place for r in rows)
    with pytest.raises(ClubConfigError, match="tie_break"):
        ClubConfig.from_dict({"club": {"id": "a"}, "tournament": {"id": "t",
                                                                  "tie_break": ["coin"]}})


def test_abreizgeld_per_list() -> None:
    cfg = ClubConfig.from_dict({"club": {"id": "a"}, "tournament": {"id": "t"},
                                "abreizgeld": {"per_lost": "0.50", "from": 4, "then": "1.00"}})
    assert [str(cfg.abreizgeld.amount(k)) for k in (0, 1, 3, 4, 6)] == \
        ["0.00", "0.50", "1.50", "2.50", "4.50"]


def test_players_csv_import() -> None:
    rows, errors = parse_players_csv(
        "id,name,club,tag\n1,Anna Łukasiewicz,SC Kreuz,04A224B2C94F80\n1,Dup,,\n2,,x,\n")
    assert [(r.id, r.name, r.tag) for r in rows] == [("1", "Anna Łukasiewicz",
                                                      "04a224b2c94f80")]
    assert len(errors) == 2


def test_config_errors_name_the_key(tmp_path: Path) -> None:
    p = tmp_path / "club.toml"
    p.write_text('[club]\nid = "skc"\n[tournament]\nid = "t"\n[web]\nport = "x"\n')
    with pytest.raises(ClubConfigError, match=r"\[web\] port"):
        load_config(p)
    p.write_text('[club]\nid = "skc"\n[tournament]\nid = "t"\n[broker]\nurl = "http://x"\n')
    with pytest.raises(ClubConfigError, match=r"\[broker\] url"):
        load_config(p)
    p.write_text('[club]\nid = "skc"\n[tournament]\nid = "t"\n'
                 '[director]\npassword_hash = "plain"\n')
    with pytest.raises(ClubConfigError, match="password_hash"):
        load_config(p)


def test_standings_message_is_json(tmp_path: Path) -> None:
    svc = make_service(tmp_path, players=3)
    svc.draw_series()
    play_series(svc, 1, games=2)
    msg = json.loads(json.dumps(svc.standings_message()))
    assert msg["tournament"] == "herbst" and len(msg["ranking"]) == 3


def test_the_links_own_message_builder_is_counted(tmp_path: Path) -> None:
    """The contract with the table side: a game as the link's message builder
    (``firmware_host.clubside.link.messages.game_message``) writes it from a journal payload (the
    controller's keys) is counted; a home game is refused."""
    from firmware_host.clubside.clubconfig import parse_club
    from firmware_host.clubside.link.messages import encode as link_encode
    from firmware_host.clubside.link.messages import game_message

    svc = make_service(tmp_path, players=3)
    svc.draw_series()
    (tid, pids), = svc.store.seating(1).items()
    sim = SimTable("herbst", 1, tid, pids, seed=4, games=2)
    cfg = parse_club({"broker": "mqtt://127.0.0.1:1883", "club": "skc", "table": tid,
                      "password_file": "pw"}, tmp_path)
    for _ in range(2):
        m = sim.play_one()
        payload = {"journal": "j1", "series": 1, "game": m["game"], "revision": 1,
                   "players": ["Anna", "Ben", "Carla"], "dealer": m["dealer"],
                   "result": m["result"], "iss": m["iss"], "at": 1764576000,
                   "club": {"tournament": "herbst", "series": 1, "players": pids}}
        msg = game_message(cfg, series=1, game=m["game"], revision=1, payload=payload)
        assert svc.handle(topic("skc", tid), link_encode(msg)).kind == "counted"
        home = dict(payload)
        del home["club"]
        msg = game_message(cfg, series=1, game=m["game"], revision=1, payload=home)
        out = svc.handle(topic("skc", tid), link_encode(msg))
        assert out.kind == "rejected" and "tournament" in out.reason
    assert {r.player: r.total for r in svc.ranking()} == dict(
        zip(pids, sim.series.seeger_fabian, strict=True))


def test_exports_iss_records_agree_with_the_engine_and_csv(tmp_path: Path) -> None:
    from club import export
    from club.sheets import table_sheet
    from engine.iss import check_line

    svc = make_service(tmp_path, players=4)
    svc.draw_series()
    play_series(svc, 1, games=6)
    g = svc.games()[0]
    svc.correct(g.game_id, "director", "misdeal", annul=True)
    lines = export.games_iss(svc).splitlines()
    assert len(lines) == 5                      # the annulled game is left out
    for line in lines:
        record, problems = check_line(line)
        assert record is not None and problems == []
    sheet = table_sheet(svc, 1, "1")
    assert sheet is not None
    rows = export.sheet_csv(sheet).splitlines()
    assert rows[1].endswith("annulled") and rows[-1].startswith("seeger-fabian")
    ranking = export.ranking_csv(svc).splitlines()
    assert len(ranking) == 5 and ranking[0].startswith("place,id,name")


def test_cli_wrong_config_is_exit_2_and_hash_password(tmp_path: Path) -> None:
    import subprocess
    import sys

    from club.config import check_password

    root = Path(__file__).resolve().parents[2]
    bad = tmp_path / "club.toml"
    bad.write_text('[club]\nid = "skc"\n')
    out = subprocess.run([sys.executable, "-m", "firmware_host", "club", "serve", "--config",
                          str(bad)], cwd=root, capture_output=True, text=True, timeout=60)
    assert out.returncode == 2 and "[tournament] is missing" in out.stderr
    out = subprocess.run([sys.executable, "-m", "firmware_host", "club", "hash-password",
                          "--stdin"], cwd=root, input="turnier-leitung\n",
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0
    assert check_password(out.stdout.strip(), "turnier-leitung")
    out = subprocess.run([sys.executable, "-m", "firmware_host", "club", "hash-password",
                          "--stdin"], cwd=root, input="kurz\n", capture_output=True,
                         text=True, timeout=60)
    assert out.returncode == 2 and "at least 8" in out.stderr

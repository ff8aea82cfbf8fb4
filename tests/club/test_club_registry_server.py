"""The director's tools on the real server process: blank lists, teams, prizes and the season
page, over HTTP with a director's session (an evening played into the store beforehand)."""

from __future__ import annotations

import urllib.error
import urllib.request
from pathlib import Path

from clubkit import Director, ServerProcess, free_port, get, write_config
from test_club_registry import NAMES, pdftext, play

from club.config import load_config
from club.service import ClubService
from club.store import Store

EXTRA = '''games_four = 8
games_three = 6

[teams]
size = 2

[[prizes]]
places = "1"
amount = "50"
goods = "Präsentkorb"

[[prizes]]
special = "director"
name = "Bester Neuling"
goods = "Buch"
'''


def _raw(url: str) -> bytes:
    with urllib.request.urlopen(url, timeout=30) as r:
        return r.read()


def test_the_tools_pages_on_the_server(tmp_path: Path) -> None:
    cfg_path = write_config(tmp_path / "srv", None, embedded_port=free_port(), series=1,
                            extra=EXTRA)
    text = cfg_path.read_text(encoding="utf-8")
    cfg_path.write_text(text.replace('database = "club.db"',
                                     'database = "club.db"\nregistry = "members.db"'),
                        encoding="utf-8")
    cfg = load_config(cfg_path)
    svc = ClubService(cfg, Store(cfg.database))
    for pid, name, tag in NAMES:
        svc.register(pid, name, "SC Kreuz", tag)
    svc.store.set_teams({"p1": "Kreuz Bube", "p2": "Kreuz Bube", "p3": "Pik Dame",
                         "p4": "Pik Dame"})
    svc.draw_series()
    play(svc, 1)
    totals = {r.player: r.total for r in svc.ranking()}
    svc.store.close()
    server = ServerProcess(cfg_path).start()
    try:
        base = server.base
        # blank lists: the whole series and one table, the players named
        pdf = pdftext(_raw(base + "/export/blank/1.pdf"), tmp_path)
        for _, name, _ in NAMES:
            assert name in pdf
        # (the server speaks English, clubkit's config: "table", where German says "Tisch")
        assert "table 2" in pdftext(_raw(base + "/export/blank/1/2.pdf"), tmp_path)
        try:
            _raw(base + "/export/blank/2.pdf")
            raise AssertionError("a series not drawn gave a PDF")
        except urllib.error.HTTPError as exc:
            assert exc.code == 404 and b"series 2 has not been drawn" in exc.read()
        assert "/export/blank/1.pdf" in get(base + "/tables")
        # teams: page, CSV, nav link
        page = get(base + "/teams")
        assert 'href="/teams"' in page and 'href="/season"' in page
        assert f'<td class="num total">{totals["p1"] + totals["p2"]}</td>' in page
        assert f"Kreuz Bube,{totals['p1'] + totals['p2']}" in get(base + "/export/teams.csv")
        # prizes: the fixed amount and goods of place 1
        page = get(base + "/prizes")
        assert "Präsentkorb" in page and "Bester Neuling" in page and "<em>open</em>" in page
        director = Director(base).login()
        # a team line naming nobody is refused, nothing changed, what was typed kept
        try:
            director.post("/director/teams", {"csv": "id,team\nzz,Herz Ass\n"},
                          csrf_from="/teams")
            raise AssertionError("a team for an unknown player was taken")
        except urllib.error.HTTPError as exc:
            body = exc.read().decode()
            assert exc.code == 400 and "no player has the id &#39;zz&#39;" in body
            assert "zz,Herz Ass" in body
        page = director.post("/director/teams", {"csv": "id,team\np5,Herz Ass\np6,Herz Ass\n"},
                             csrf_from="/teams")
        assert "2 players put in teams" in page and "Herz Ass" in page
        page = director.post("/director/award", {"prize": "Bester Neuling", "player": "p4",
                                                 "reason": "first evening"},
                             csrf_from="/prizes")
        assert "Bester Neuling: saved." in page
        assert "Bester Neuling: Ben Ohde" in director.get("/")     # the director's note
        assert "Bester Neuling" in pdftext(_raw(base + "/export/ranking.pdf"), tmp_path)
        # the season: not before the series is closed; then imported from the page
        page = director.get("/season")
        assert "No evening has been imported yet" in page and "series 1 is still running" in page
        director.post("/director/close", {"series": "1"})
        page = director.post("/director/season-import", {"season": "2026"},
                             csrf_from="/season")
        assert "imported into season 2026: 7 players, 7 new members" in page
        best = max(totals.values())
        assert f'<td class="num total">{best}</td>' in get(base + "/season")
    finally:
        server.stop()

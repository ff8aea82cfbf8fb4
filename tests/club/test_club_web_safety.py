"""The club server's pages and files against a hostile visitor: CSV cells a spreadsheet would
take for formulas, text put in a link's query string, framing and sniffing (the response
headers), and a session cookie copied before the director logged out."""

from __future__ import annotations

import csv
import http.client
import io
import re
import urllib.parse
from collections.abc import Iterator
from pathlib import Path

import pytest
from clubkit import Director, ServerProcess, free_port, write_config
from test_club_core import make_service, play_series

from club import export
from club.sheets import table_sheet

NAMES = ['=HYPERLINK("http://x","click")', "+49 171 2345678", "-2+3", "@SUM(A1:A9)"]
CLUBS = ["=cmd|' /C calc'!A0", "@Verein", "-SC", "+SC"]


def test_csv_cells_that_a_spreadsheet_would_run_are_quoted(tmp_path: Path) -> None:
    svc = make_service(tmp_path, players=0)
    for i, (name, club) in enumerate(zip(NAMES, CLUBS, strict=True), 1):
        svc.register(f"p{i}", name, club)
    svc.draw_series()
    play_series(svc, 1, games=8)
    ranking = list(csv.reader(io.StringIO(export.ranking_csv(svc))))
    sheet = table_sheet(svc, 1, "1")
    assert sheet is not None
    lists = list(csv.reader(io.StringIO(export.sheet_csv(sheet))))
    assert {r[1]: (r[2], r[3]) for r in ranking[1:]} == {
        f"p{i}": ("'" + name, "'" + club)
        for i, (name, club) in enumerate(zip(NAMES, CLUBS, strict=True), 1)}
    assert [c for c in lists[0] if "(p" in c] == [f"'{NAMES[int(p[1:]) - 1]} ({p})"
                                                  for p in svc.store.seating(1)["1"]]
    for row in ranking + lists:
        for cell in row:
            if cell[:1] in ("=", "+", "@") or (cell[:1] == "-" and not cell[1:].isdigit()):
                raise AssertionError(f"a cell a spreadsheet would run: {cell!r} in {row}")
    # numbers stay numbers: a lost game's -2 x value is written as it is
    assert any(int(r[5]) < 0 for r in lists[1:9] if r[5])
    # the others OWASP names, and blanks before them (some spreadsheets drop those first)
    assert [export.csv_cell(t) for t in ("\tx", "\rx", "  =1+1", "a=b", "", -5)] == [
        "'\tx", "'\rx", "'  =1+1", "a=b", "", -5]


# --- the real server ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    srv = ServerProcess(write_config(tmp_path_factory.mktemp("srv"), None,
                                     embedded_port=free_port())).start()
    try:
        director = Director(srv.base).login()
        director.import_players(8)
        director.draw()
        yield srv
    finally:
        srv.kill()


def _raw(server: ServerProcess, path: str, cookie: str = "", method: str = "GET",
         body: dict[str, str] | None = None) -> http.client.HTTPResponse:
    """One request as it is, redirects not followed; the body read."""
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=20)
    headers = {"Cookie": cookie} if cookie else {}
    data = None
    if body is not None:
        data = urllib.parse.urlencode(body)
        headers["Content-Type"] = "application/x-www-form-urlencoded"
    conn.request(method, path, data, headers)
    r = conn.getresponse()
    r.text = r.read().decode("utf-8", "replace")  # type: ignore[attr-defined]
    conn.close()
    return r


def test_every_response_carries_the_security_headers(server: ServerProcess) -> None:
    responses = {path: _raw(server, path) for path in (
        "/", "/?projector=1", "/tables", "/tables/1/1", "/players", "/players/p1",
        "/director/login", "/director", "/static/club.css", "/static/live.js",
        "/export/ranking.csv", "/export/list/1/1.csv", "/api/standings", "/no/such/page",
        "/games/herbst/1/1/99")}
    responses["POST /director/login without a token"] = _raw(
        server, "/director/login", method="POST", body={"password": "x"})
    assert responses["/no/such/page"].status == 404
    assert responses["POST /director/login without a token"].status == 403
    # the event stream: its headers come before any event
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=20)
    conn.request("GET", "/events")
    responses["/events"] = conn.getresponse()
    conn.close()
    for path, r in responses.items():
        csp = r.getheader("Content-Security-Policy") or ""
        directives = {d.strip() for d in csp.split(";")}
        assert {"default-src 'self'", "frame-ancestors 'none'", "object-src 'none'",
                "base-uri 'none'", "form-action 'self'"} <= directives, (path, csp)
        assert not any("unsafe-inline" in d or "unsafe-eval" in d for d in directives)
        assert r.getheader("X-Frame-Options") == "DENY", path
        assert r.getheader("X-Content-Type-Options") == "nosniff", path
        assert r.getheader("Referrer-Policy") == "same-origin", path


def test_pages_hold_no_inline_script_or_style(server: ServerProcess) -> None:
    """What the policy would block in a browser: nothing of the server's own pages."""
    director = Director(server.base).login()
    for path in ("/", "/?projector=1", "/tables", "/tables/1/1", "/players", "/players/p1",
                 "/director", "/director/list/1/1", "/games/herbst/1/1/1", "/director/login"):
        text = director.get(path)
        assert not re.search(r"<script(?![^>]*\bsrc=)", text), path
        assert not re.search(r"<style|\sstyle=|\son[a-z]+=", text), path


SPOOF = "Der Turnierleiter ist abgesetzt: Preisgeld bitte an IBAN DE00 1234 überweisen"


def test_text_in_the_address_is_never_shown(server: ServerProcess) -> None:
    spoof = urllib.parse.quote(SPOOF)
    director = Director(server.base).login()
    for path in ("/director", "/games/herbst/1/1/1", "/director/list/1/1", "/"):
        for param in ("error", "info"):
            for who, text in (("spectator", _raw(server, f"{path}?{param}={spoof}").text),
                              ("director", director.get(f"{path}?{param}={spoof}"))):
                assert "abgesetzt" not in text and "IBAN" not in text, (who, path, param)
    # what the server itself says still shows, once, on the page the form leads to
    page = director.post("/director/player", {"id": "p99", "name": " "})
    assert '<p class="error">a player needs a name</p>' in page
    assert "a player needs a name" not in director.get("/director")
    page = director.post("/director/player", {"id": "p98", "name": "Wolfgang Hartmann-Schüler"})
    assert '<p class="info">Player registered.</p>' in page
    assert "Player registered." not in director.get("/director")
    page = director.post("/director/correct", {"game_id": "herbst/1/1/1", "declarer": "1",
                                               "won": "1", "value": "47", "reason": "test"})
    assert "47 is no game value" in page or "no game value" in page, page[-3000:]
    assert "no game value" not in director.get("/games/herbst/1/1/1")


def test_a_copied_cookie_is_refused_after_logout(tmp_path: Path) -> None:
    srv = ServerProcess(write_config(tmp_path / "srv", None, embedded_port=free_port())).start()
    try:
        laptop, phone = Director(srv.base).login(), Director(srv.base).login()
        cookie = "skat_club=" + next(c.value for c in laptop.jar if c.name == "skat_club")
        token = laptop.csrf("/director")
        assert "Refused messages" in _raw(srv, "/director", cookie).text   # the copy works
        srv.stop()
        srv.start()                # the sessions are on record: a restart logs nobody out
        assert "Refused messages" in _raw(srv, "/director", cookie).text
        page = laptop.post("/director/logout", {})
        assert "Log out" not in page
        r = _raw(srv, "/director", cookie)
        assert r.status == 303 and r.getheader("Location") == "/director/login"
        r = _raw(srv, "/director/player", cookie, "POST",
                 {"csrf": token, "id": "x1", "name": "Eindringling"})
        assert r.status == 303 and r.getheader("Location") == "/director/login"
        assert "Eindringling" not in phone.get("/players")
        r = _raw(srv, "/games/herbst/1/1/1", cookie)   # no director's form for the copy
        assert r.status == 404 and "Correct this game" not in r.text
        # the director's other login (the phone) is its own session and stays
        assert "Refused messages" in phone.get("/director")
    finally:
        srv.kill()

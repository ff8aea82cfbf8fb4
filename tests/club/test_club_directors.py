"""Named directors: each with their own password (the first one from club.toml, as before),
added and removed on the director's page, locked out on their own; the audit names who did
what; a removed director cannot log in, and their open session ends."""

from __future__ import annotations

import contextlib
import doctest
import re
import threading
import time
import urllib.error
from collections.abc import Iterator
from pathlib import Path

from clubkit import PASSWORD, Director, free_port
from test_club_core import make_service

import club.directors
from club.config import ClubConfig, hash_password
from club.directors import Directors
from club.logins import LoginGuard
from club.service import ClubService
from club.simtables import SimTable, encode, topic
from club.store import Store


@contextlib.contextmanager
def served(svc: ClubService) -> Iterator[str]:
    """The service's pages on a real HTTP server (uvicorn, in a thread of this process), so
    that the test can feed the tables' messages straight to the service."""
    import uvicorn

    from club.web import create_app

    port = free_port()
    server = uvicorn.Server(uvicorn.Config(create_app(svc), host="127.0.0.1", port=port,
                                           log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        for _ in range(200):
            if server.started:
                break
            time.sleep(0.05)
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(10)


def with_password(tmp_path: Path, players: int = 7, **director: str) -> ClubService:
    svc = make_service(tmp_path, players=players, games_three=4, games_four=4)
    cfg = ClubConfig.from_dict({
        # the tests read the pages' English words
        "club": {"id": "skc", "database": str(tmp_path / "c.db"), "language": "en"},
        "tournament": {"id": "herbst", "seed": "42", "games_three": 4, "games_four": 4},
        "director": {"password_hash": hash_password(PASSWORD), **director}})
    return ClubService(cfg, svc.store)


def login(base: str, name: str, password: str) -> tuple[int, Director, str]:
    d = Director(base)
    try:
        page = d.post("/director/login", {"name": name, "password": password},
                      csrf_from="/director/login")
        return 200, d, page
    except urllib.error.HTTPError as err:
        return err.code, d, err.read().decode("utf-8")


def audit_rows(page: str) -> list[tuple[str, str]]:
    """(who, what) of the director's page's audit table."""
    table = page[page.index('id="audit"'):]
    table = table[:table.index("</table>")]
    return re.findall(r"<tr><td>[^<]*</td><td>([^<]*)</td><td>([^<]*)</td></tr>", table)


def test_two_directors_are_audited_by_name_and_a_removed_one_cannot_log_in(
        tmp_path: Path) -> None:
    svc = with_password(tmp_path)
    with served(svc) as base:
        # the first director as before: no name typed, the password from club.toml
        first = Director(base).login()
        assert "you are director" in first.get("/director")
        first.post("/director/add-director", {"name": "Anna Weber", "password": "anna-1234"})
        first.post("/director/add-director", {"name": "Ben", "password": "ben-12345"})
        page = first.get("/director")
        assert "Anna Weber" in page and "Ben" in page
        # bad input: a short password, a name taken, said in words; nothing added
        page = first.post("/director/add-director", {"name": "Carl", "password": "short"})
        assert "at least 8 characters" in page
        page = first.post("/director/add-director", {"name": "Ben", "password": "ben-12345"})
        assert "there is a director named Ben already" in page
        assert Directors(svc.store, "director", None).names() == [
            "director", "Anna Weber", "Ben"]

        status, anna, page = login(base, "Anna Weber", "anna-1234")
        assert status == 200 and "you are Anna Weber" in page
        status, ben, page = login(base, "Ben", "ben-12345")
        assert status == 200 and "you are Ben" in page
        assert login(base, "Ben", "anna-1234")[0] == 401       # each their own password

        anna.post("/director/draw", {"method": "draw"})
        t1 = sorted(svc.store.seating(1))[0]
        sim = SimTable("herbst", 1, t1, svc.store.seating(1)[t1], seed=3, games=4)
        game = sim.play_one()
        assert svc.handle(topic("skc", t1), encode(game)).kind == "counted"
        gid = game["id"]
        ben.post("/director/correct", {"game_id": gid, "kind": "annul",
                                       "reason": "played with a wrong card"},
                 csrf_from=f"/games/{gid}")
        ben.post("/director/close", {"series": "1"})
        corrections = svc.store.corrections(gid)
        assert [(c.kind, c.who) for c in corrections] == [("annul", "Ben")]
        assert "<td>Ben</td>" in anna.get(f"/games/{gid}")

        # Anna removes Ben: his open session ends, his password no longer works
        page = anna.post("/director/remove-director", {"name": "Ben"})
        assert "Ben is no director any more" in page
        assert 'action="/director/login"' in ben.get("/director")
        page = ben.post("/director/reopen", {"series": "1"}, csrf_from="/director/login")
        assert 'action="/director/login"' in page
        status, _, page = login(base, "Ben", "ben-12345")
        assert status == 401 and "Wrong password or name" in page
        assert svc.store.series()[0]["state"] == "closed"
        # the first director is changed in club.toml only; nobody removes themself
        page = anna.post("/director/remove-director", {"name": "director"})
        assert "set up in club.toml" in page
        page = anna.post("/director/remove-director", {"name": "Anna Weber"})
        assert "cannot remove themself" in page

        rows = audit_rows(anna.get("/director"))
        assert ("director", "added director Anna Weber") in rows
        assert ("director", "added director Ben") in rows
        assert ("Anna Weber", "series 1 drawn (draw, seed 42/1): 7 players at 2 tables") in rows
        assert ("Ben", "series 1 closed") in rows
        assert ("Anna Weber", "removed director Ben") in rows
        # Anna's own password: changed by herself, the old one is refused then
        anna.post("/director/director-password", {"password": "anna-neu-5678"})
        assert login(base, "Anna Weber", "anna-1234")[0] == 401
        assert login(base, "Anna Weber", "anna-neu-5678")[0] == 200


def test_each_director_is_locked_out_on_their_own(tmp_path: Path) -> None:
    svc = with_password(tmp_path)
    Directors(svc.store, "director", None).add("Anna", hash_password("anna-1234"), "director")
    with served(svc) as base:
        for _ in range(5):
            assert login(base, "Anna", "falsch")[0] == 401
        status, _, page = login(base, "Anna", "anna-1234")
        assert status == 429 and "Too many wrong passwords" in page
        # the other director at the same laptop is not locked out; nor is she by made-up names
        assert login(base, "", PASSWORD)[0] == 200
        for i in range(5):
            assert login(base, f"nobody-{i}", "x")[0] == 401
        assert login(base, "nobody-9", "x")[0] == 429         # made-up names share one count
        assert login(base, "director", PASSWORD)[0] == 200
        page = Director(base).login().get("/director")
        failed = page[page.index('id="failed-logins"'):]
        assert failed[:failed.index("</table>")].count("<td>Anna</td>") == 5


def test_a_database_from_before_names_keeps_its_lock_and_its_director(tmp_path: Path) -> None:
    store = Store(tmp_path / "old.db")
    old = LoginGuard(store, clock=lambda: 1000.0)
    for _ in range(5):
        old.begin("10.0.0.9")
        old.finish("10.0.0.9", False)
    # as a database written before directors had names
    store._db.execute("UPDATE logins SET name = NULL")
    # [director] name: the first director's name, as the audit will give it
    Directors(store, "Kurt", hash_password(PASSWORD))
    guard = LoginGuard(store, clock=lambda: 1001.0)
    assert guard.begin("10.0.0.9", "Kurt") > 0 and guard.begin("10.0.0.9", "Anna") == 0
    assert [f["name"] for f in guard.recent_failures()] == ["Kurt"] * 5
    assert ClubConfig.from_dict({"club": {"id": "skc"}, "tournament": {"id": "t"},
                                 "director": {"name": "Kurt"}}).director_name == "Kurt"
    assert ClubConfig.from_dict({"club": {"id": "skc"},
                                 "tournament": {"id": "t"}}).director_name == "director"


def test_the_first_director_named_in_the_config_is_audited_by_that_name(
        tmp_path: Path) -> None:
    svc = with_password(tmp_path, name="Kurt")
    with served(svc) as base:
        status, kurt, page = login(base, "", PASSWORD)
        assert status == 200 and "you are Kurt" in page
        kurt.post("/director/present", {"id": "p3", "present": "0"})
        kurt.post("/director/draw", {"method": "draw"})
        rows = audit_rows(kurt.get("/director"))
        assert rows[0][0] == "Kurt" and rows[0][1].startswith("series 1 drawn")
        assert rows[1] == ("Kurt", "p3 marked absent")


def test_doctests() -> None:
    result = doctest.testmod(club.directors, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0

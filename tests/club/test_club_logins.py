"""The director's login cannot be guessed at speed: wrong passwords lock the address out (the
right one is not checked while it is locked), each one is logged and listed for the director,
and the password hash runs off the event loop (a login being checked does not hold up the
spectators' pages)."""

from __future__ import annotations

import http.client
import re
import threading
import time
import urllib.error
import urllib.parse
from pathlib import Path
from typing import Any

import pytest
from clubkit import PASSWORD, Director, ServerProcess, free_port, write_config

from club.logins import FIRST_LOCK, MAX_LOCK, WINDOW, LoginGuard
from club.store import Store


class Browser:
    """A session from a chosen loopback address (127.0.0.x), cookies kept by hand."""

    def __init__(self, port: int, source: str) -> None:
        self.port, self.source = port, source
        self.cookie = ""

    def request(self, method: str, path: str, body: dict[str, str] | None = None
                ) -> tuple[int, str]:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30,
                                          source_address=(self.source, 0))
        headers = {"Cookie": self.cookie} if self.cookie else {}
        data = None
        if body is not None:
            data = urllib.parse.urlencode(body)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        conn.request(method, path, data, headers)
        r = conn.getresponse()
        text = r.read().decode("utf-8")
        got = r.getheader("Set-Cookie")
        if got:
            self.cookie = got.split(";")[0]
        conn.close()
        return r.status, text

    def login(self, password: str) -> tuple[int, str]:
        _, page = self.request("GET", "/director/login")
        m = re.search(r'name="csrf" value="([^"]+)"', page)
        assert m
        return self.request("POST", "/director/login", {"csrf": m.group(1),
                                                         "password": password})


def test_wrong_passwords_lock_the_address_out(tmp_path: Path) -> None:
    server = ServerProcess(write_config(tmp_path / "srv", None,
                                        embedded_port=free_port())).start()
    try:
        guesser = Browser(server.port, "127.0.0.1")
        for i in range(5):
            status, page = guesser.login(f"falsch-{i}")
            assert status == 401 and "Wrong password" in page
        status, page = guesser.login("falsch-5")
        assert status == 429 and "Too many wrong passwords" in page
        status, page = guesser.login(PASSWORD)       # the right one: not even checked
        assert status == 429 and "try again in" in page
        log = server.log.read_text()
        assert log.count("wrong director password from 127.0.0.1") == 5
        assert "refused unchecked" in log
        # another address is not locked; the director sees the wrong passwords
        director = Browser(server.port, "127.0.0.2")
        status, page = director.login(PASSWORD)
        assert status == 303
        status, page = director.request("GET", "/director")
        table = page[page.index('id="failed-logins"'):]
        assert table[:table.index("</table>")].count("127.0.0.1") == 5
        # a restart keeps the lock (the attempts are stored)
        server.stop()
        server.start()
        assert Browser(server.port, "127.0.0.1").login(PASSWORD)[0] == 429
    finally:
        server.kill()


def test_the_lock_grows_and_is_forgotten() -> None:
    now = [10_000.0]
    g = LoginGuard(Store(":memory:"), clock=lambda: now[0])

    def fail(address: str = "a") -> None:
        assert g.begin(address) == 0
        g.finish(address, False)

    for _ in range(5):
        fail()
    assert g.begin("a") == FIRST_LOCK
    now[0] += FIRST_LOCK - 1
    assert g.begin("a") == 1
    now[0] += 1
    fail()
    assert g.begin("a") == 2 * FIRST_LOCK
    now[0] += 2 * FIRST_LOCK
    fail()
    assert g.begin("a") == 4 * FIRST_LOCK <= MAX_LOCK
    now[0] += WINDOW + 1                         # old failures are forgotten
    assert g.begin("a") == 0
    g.finish("a", True)                          # a good login starts afresh
    for _ in range(4):
        fail()
    assert g.begin("a") == 0
    g.finish("a", True)
    for _ in range(4):
        fail()
    assert g.begin("a") == 0                     # 8 wrong ones, but a good one between
    g.finish("a", True)
    # attempts under way count: a burst cannot pass the limit before the first is checked
    for _ in range(4):
        fail("b")
    assert g.begin("b") == 0
    assert g.begin("b") == 1
    g.finish("b", False)
    assert g.begin("b") == FIRST_LOCK
    assert len(g.recent_failures(100)) == 5 + 2 + 4 + 4 + 5


def test_the_hash_runs_off_the_event_loop(tmp_path: Path, monkeypatch: Any) -> None:
    """A login whose hash takes a second: the ranking still answers at once meanwhile."""
    import uvicorn

    import club.logins
    from club.config import ClubConfig
    from club.service import ClubService
    from club.web import create_app

    def slow(stored: str, password: str) -> bool:
        time.sleep(1.5)
        return False

    monkeypatch.setattr(club.logins, "check_password", slow)
    cfg = ClubConfig.from_dict({"club": {"id": "skc", "database": str(tmp_path / "c.db")},
                                "tournament": {"id": "t"},
                                "director": {"password_hash": "scrypt$16384$8$1$AAAA$AAAA"}})
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(create_app(ClubService(cfg, Store(cfg.database))),
                                           host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        base = f"http://127.0.0.1:{port}"
        for _ in range(100):
            if server.started:
                break
            time.sleep(0.05)
        director = Director(base)
        token = director.csrf("/director/login")
        errors: list[Exception] = []

        def login() -> None:
            with pytest.raises(urllib.error.HTTPError) as err:
                director.post("/director/login", {"password": "x", "csrf": token})
            if err.value.code != 401:
                errors.append(err.value)

        t = threading.Thread(target=login)
        t.start()
        time.sleep(0.3)                          # the hash is running now
        start = time.monotonic()
        Director(base).get("/api/standings")
        took = time.monotonic() - start
        t.join(10)
        assert not errors
        assert took < 0.6, f"the ranking waited {took:.2f} s for a password hash"
    finally:
        server.should_exit = True
        thread.join(10)

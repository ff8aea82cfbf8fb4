"""Helpers for the club tests: the real server as a child process, a director's browser-less
session (cookies and CSRF tokens, as a browser sends them), simulated tables publishing."""

from __future__ import annotations

import http.cookiejar
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Any

from club.config import hash_password

ROOT = Path(__file__).resolve().parents[2]
PASSWORD = "turnier-leitung"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def write_config(directory: Path, broker: Any | None, *, club: str = "c1",
                 web_port: int | None = None, embedded_port: int | None = None,
                 series: int = 3, extra: str = "", language: str = "en") -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    web_port = web_port or free_port()
    if broker is not None:
        broker_toml = (f'url = "{broker.url()}"\nusername = "server"\n'
                       f'password_file = "{broker.password_file("server")}"\n'
                       f'client_id = "club-server-test"\n')
    else:
        broker_toml = f'listen = "127.0.0.1:{embedded_port or free_port()}"\n'
    text = f"""[club]
id = "{club}"
name = "Skatclub Kreuz Bube"
database = "club.db"
language = "{language}"                     # most tests read the pages' English words

[broker]
{broker_toml}
[web]
host = "127.0.0.1"
port = {web_port}

[director]
password_hash = "{hash_password(PASSWORD)}"

[tournament]
id = "herbst"
name = "Herbstpreisskat"
series = {series}
seed = "2026"
entry_fee = "15"
prize_shares = [30, 20, 15, 10]
{extra}
"""
    path = directory / "club.toml"
    path.write_text(text, encoding="utf-8")
    return path


class ServerProcess:
    """``skat-table club serve`` as a child process (so it can be SIGKILLed)."""

    def __init__(self, config: Path) -> None:
        self.config = config
        text = config.read_text()
        self.port = int(re.search(r"^port = (\d+)", text, re.M).group(1))  # type: ignore[union-attr]
        self.base = f"http://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen[bytes] | None = None
        self.log = config.parent / "server.log"

    def start(self, timeout: float = 120) -> ServerProcess:
        # Generous: on a loaded CI machine the child's imports alone have taken over 30 s (a
        # server that exits is reported at once, so only a slow start waits this long).
        env = dict(os.environ, PYTHONUNBUFFERED="1")
        with open(self.log, "ab") as log:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "firmware_host", "club", "serve", "--config",
                 str(self.config)], cwd=ROOT, stdout=log, stderr=subprocess.STDOUT, env=env)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the server exited: {self.log.read_text()[-2000:]}")
            try:
                get(self.base + "/api/standings", timeout=2)
                return self
            except OSError:
                time.sleep(0.2)
        self.proc.kill()  # never leave a server behind a failed test
        self.proc.wait()
        raise RuntimeError(f"the server did not answer: {self.log.read_text()[-2000:]}")

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.kill()

    def standings(self) -> dict[str, Any]:
        return json.loads(get(self.base + "/api/standings"))


def wait_until(cond: Any, timeout: float, what: str, step: float = 0.1) -> Any:
    """``cond()``'s first true value within ``timeout`` seconds, else an AssertionError that
    names ``what`` was waited for."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = cond()
        if value:
            return value
        time.sleep(step)
    raise AssertionError(f"timed out waiting for {what}")


def get(url: str, timeout: float = 10) -> str:
    with urllib.request.urlopen(url, timeout=timeout) as r:
        return r.read().decode("utf-8")


class Director:
    """A logged-in director session over plain HTTP (cookie jar, CSRF token from each form)."""

    def __init__(self, base: str, language: str = "en") -> None:
        from club.i18n import translator

        self.base = base
        self.words = translator(language)   # the server's language: its answers are read in it
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))

    def get(self, path: str) -> str:
        with self.opener.open(self.base + path, timeout=20) as r:
            return r.read().decode("utf-8")

    def csrf(self, path: str) -> str:
        m = re.search(r'name="csrf" value="([^"]+)"', self.get(path))
        assert m, f"no CSRF token on {path}"
        return m.group(1)

    def post(self, path: str, fields: dict[str, str], csrf_from: str = "/director") -> str:
        data = dict(fields)
        data.setdefault("csrf", self.csrf(csrf_from))
        body = urllib.parse.urlencode(data).encode()
        with self.opener.open(self.base + path, data=body, timeout=30) as r:
            return r.read().decode("utf-8")

    def login(self, password: str = PASSWORD) -> Director:
        page = self.post("/director/login", {"password": password}, csrf_from="/director/login")
        assert self.words("Refused messages") in page, page[:500]
        return self

    def import_players(self, n: int) -> None:
        rows = "\n".join(f"p{i},Spieler {i:03d},SC {i % 7}" for i in range(1, n + 1))
        page = self.post("/director/import", {"csv": "id,name,club\n" + rows})
        assert self.imported(n) in page

    def imported(self, n: int) -> str:
        """What the server answers to ``n`` players imported, in its language."""
        return self.words.ngettext("%(num)s player imported.", "%(num)s players imported.",
                                   n).rstrip(".") % {"num": n}

    def draw(self, method: str = "draw") -> None:
        page = self.post("/director/draw", {"method": method})
        seated = self.words("Series %(series)s is seated.")
        before, _, after = seated.partition("%(series)s")
        assert re.search(re.escape(before) + r"\d+" + re.escape(after), page), page[:800]


def seating_from_broker(recorder: Any, club: str, series: int, tables: int,
                        timeout: float = 20) -> dict[str, list[str]]:
    """The retained seating messages, as the tables' links receive them."""

    def seen(msgs: list[Any]) -> dict[str, list[str]] | None:
        out = {}
        for m in msgs:
            d = json.loads(m.payload)
            if d.get("series") == series:
                out[m.topic.split("/")[3]] = [p["id"] for p in d["players"]]
        return out if len(out) >= tables else None

    got = recorder.wait_for(seen, timeout)
    assert got, "the seating did not arrive over MQTT"
    return got

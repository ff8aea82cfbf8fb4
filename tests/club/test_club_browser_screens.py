"""The pages on the screens a club evening has, in headless Chromium under the server's
Content-Security-Policy: the projector (1280x720) pages through the whole ranking, each row
whole on its page, and a live update keeps the page shown; a phone (390x844) shows the
ranking, the tables, a table's list and a player's page without scrolling sideways.

The evening is a realistic one: 48 registered, 45 present (12 tables), long names, games
published by the tables through a real Mosquitto.
"""

from __future__ import annotations

import itertools
import os
import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from brokers import club_spec, connect
from clubkit import Director, ServerProcess, get, write_config
from test_club_browser import CHROMIUM, DRIVER, FLAGS, _seating, _wait

from club.simtables import SimTable, encode, topic

FIRST = ["Wolfgang", "Hans-Jürgen", "Anna-Katharina", "Gisela", "Karl-Heinz", "Ursula",
         "Maximilian", "Łucja", "Dietrich", "Roswitha", "Friedrich-Wilhelm", "Ñúñez"]
LAST = ["Hartmann-Schüler", "Müller-Lüdenscheidt", "Oberhuber-Kleinschmidt", "Schäfer",
        "Brandt", "Öztürk", "Weiß", "Krüger", "von Hohenstein-Wallerstein"]
TABLES = [str(t) for t in range(1, 13)]
ABSENT = ("p46", "p47", "p48")


def _names() -> list[str]:
    pairs = [f"{f} {last}" for f, last in itertools.product(FIRST, LAST)]
    random.Random(7).shuffle(pairs)
    rest = [n for n in pairs if n != "Wolfgang Hartmann-Schüler"]
    return ["Wolfgang Hartmann-Schüler", *rest[:47]]


@pytest.fixture
def chromium(tmp_path: Path) -> Iterator[Any]:
    """Chromium whose console (CSP violations land there) the test can read."""
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    if not (os.path.exists(CHROMIUM) and os.path.exists(DRIVER)):
        pytest.fail("missing Debian packages for the tests: chromium chromium-driver; install "
                    "them with: sudo apt-get install chromium chromium-driver (or run make "
                    "test, which installs them)", pytrace=False)
    opts = Options()
    opts.binary_location = CHROMIUM
    for flag in FLAGS:
        opts.add_argument(flag)
    opts.add_argument(f"--user-data-dir={tmp_path / 'chromium-profile'}")
    opts.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(DRIVER), options=opts)
    driver.set_page_load_timeout(30)
    yield driver
    driver.quit()


def _screen(driver: Any, width: int, height: int, phone: bool) -> None:
    """The viewport of that device (a window cannot be made this small in headless mode)."""
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": width, "height": height, "deviceScaleFactor": 1, "mobile": phone})


def _no_policy_violations(driver: Any) -> None:
    lines = [e["message"] for e in driver.get_log("browser")]
    bad = [m for m in lines if "Content Security Policy" in m or "violates" in m]
    assert not bad, bad


class Evening:
    """The server, the 12 tables' simulated play and their MQTT clients."""

    def __init__(self, tmp_path: Path, broker_factory: Any) -> None:
        self.broker = broker_factory(club_spec("c1", TABLES))
        # in German, the club's usual language: its longer words are the harder case for a
        # phone's width and the projector's rows
        self.server = ServerProcess(write_config(tmp_path / "srv", self.broker,
                                                 series=2, language="de")).start()
        director = Director(self.server.base, "de").login()
        self.words = director.words
        self.names = dict(zip([f"p{i}" for i in range(1, 49)], _names(), strict=True))
        csv = "id,name,club\n" + "\n".join(
            f"{pid},{name},Skatfreunde Gelsenkirchen-Buer 1957 e.V."
            for pid, name in self.names.items())
        assert director.imported(48) in director.post("/director/import", {"csv": csv})
        for pid in ABSENT:
            director.post("/director/present", {"id": pid, "present": "0"})
        director.draw()
        seating = _seating(self.server)
        assert len(seating) == 12 and sum(map(len, seating.values())) == 45
        self.sims = {t: SimTable("herbst", 1, t, pids, seed=5) for t, pids in seating.items()}
        self.clients = {t: connect(self.broker, t) for t in self.sims}
        self.published = 0

    def play(self, rounds: int) -> None:
        """Each table publishes ``rounds`` more games; wait until the server counted them."""
        for _ in range(rounds):
            for t, sim in self.sims.items():
                self.clients[t].publish(topic("c1", t), encode(sim.play_one()),
                                        qos=1).wait_for_publish(10)
                self.published += 1
        _wait(lambda: self.server.standings()["games"] == self.published, 30,
              f"{self.published} games counted")

    def close(self) -> None:
        for c in self.clients.values():
            c.loop_stop()
            c.disconnect()
        self.server.kill()


@pytest.fixture
def evening(tmp_path: Path, broker_factory: Any) -> Iterator[Evening]:
    ev = Evening(tmp_path, broker_factory)
    try:
        yield ev
    finally:
        ev.close()


# what the projector shows: the page, and each row displayed with its box
SHOWN = """
var rows = Array.prototype.slice.call(document.querySelectorAll("#ranking tbody tr"));
var head = document.querySelector("#ranking thead").getBoundingClientRect();
return {page: document.body.getAttribute("data-page"),
        pages: document.body.getAttribute("data-pages"),
        height: window.innerHeight, head: head.bottom, scroll: window.scrollY,
        order: rows.map(function (tr) { return tr.getAttribute("data-player"); }),
        shown: rows.map(function (tr, i) {
          var box = tr.getBoundingClientRect();
          return box.height ? [i, tr.getAttribute("data-player"), box.top, box.bottom] : null;
        }).filter(function (x) { return x !== null; })};
"""


def _check_whole(view: dict[str, Any]) -> None:
    """Every row shown is whole, below the table's head and above the screen's bottom edge."""
    assert view["scroll"] == 0
    assert view["shown"], view
    for _, pid, top, bottom in view["shown"]:
        assert top >= view["head"] - 1 and bottom <= view["height"], (pid, top, bottom, view)
    indexes = [i for i, *_ in view["shown"]]
    assert indexes == list(range(indexes[0], indexes[-1] + 1)), "a page is a run of rows"


def test_projector_pages_whole_rows_and_keeps_its_page(chromium: Any, evening: Evening
                                                       ) -> None:
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys

    d = chromium
    base = evening.server.base
    evening.play(2)
    _screen(d, 1280, 720, phone=False)

    # --- the pages turn by themselves: every ranked player is on one of them, whole
    d.get(base + "/?projector=1&seconds=2")
    ranked = {r["id"] for r in evening.server.standings()["ranking"]}
    assert len(ranked) == 45
    pages: dict[str, dict[str, Any]] = {}
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        view = d.execute_script(SHOWN)
        if view["page"] not in pages:
            _check_whole(view)
            pages[view["page"]] = view
        if len(pages) == int(view["pages"]):
            break
        time.sleep(0.2)
    n = int(view["pages"])
    assert len(pages) == n > 1, f"saw pages {sorted(pages)} of {n}"
    on_pages = [[pid for _, pid, *_ in pages[str(k)]["shown"]] for k in range(1, n + 1)]
    assert sum(len(p) for p in on_pages) == 45 and set().union(*on_pages) == ranked
    # each page but the last is full: the next page's first row would not have fitted
    for k in range(1, n):
        last_bottom = pages[str(k)]["shown"][-1][3]
        _, _, top, bottom = pages[str(k + 1)]["shown"][0]
        assert last_bottom + (bottom - top) > pages[str(k)]["height"] - 4, (k, pages)

    # --- a live update while page 3 is shown refreshes page 3's rows, it does not go back
    d.get(base + "/?projector=1&seconds=600")
    d.execute_script("window.__notReloaded = true;")
    for _ in range(2):
        ActionChains(d).send_keys(Keys.ARROW_RIGHT).perform()
    _wait(lambda: d.execute_script(SHOWN)["page"] == "3", 10, "page 3 by the arrow key")
    before = d.execute_script(SHOWN)
    _check_whole(before)
    first = before["shown"][0][0]
    assert first > 0
    games = evening.published
    evening.play(1)
    # read in the page: the heading is replaced by each update (a handle to it goes stale)
    heading = "return document.querySelector('#live h1').textContent;"
    counted = evening.words.ngettext("%(num)s game counted", "%(num)s games counted",
                                     games + 12) % {"num": games + 12}
    _wait(lambda: counted in d.execute_script(heading), 20,
          "the live update")
    after = d.execute_script(SHOWN)
    assert d.execute_script("return window.__notReloaded === true;")
    assert after["page"] == "3"     # (the number of pages may change: two-line names move)
    _check_whole(after)
    # page 3 of the new rows: a run of them, not the top, and where page 3 begins when the
    # pages are turned to it again (a row's height depends on its name: pages can move a row)
    start = after["shown"][0][0]
    assert start > 0 and abs(start - first) <= 3, (first, start)
    assert [pid for _, pid, *_ in after["shown"]] == after["order"][
        start:start + len(after["shown"])]
    ActionChains(d).send_keys(Keys.ARROW_LEFT).send_keys(Keys.ARROW_LEFT).perform()
    _wait(lambda: d.execute_script(SHOWN)["page"] == "1", 10, "page 1 by the arrow key")
    assert d.execute_script(SHOWN)["shown"][0][0] == 0
    ActionChains(d).send_keys(Keys.ARROW_RIGHT).send_keys(Keys.ARROW_RIGHT).perform()
    _wait(lambda: d.execute_script(SHOWN)["page"] == "3", 10, "page 3 again")
    assert d.execute_script(SHOWN)["shown"] == after["shown"]
    assert after["order"] != before["order"], "the update changed the ranking"
    _no_policy_violations(d)


def test_a_phone_needs_no_sideways_scrolling(chromium: Any, evening: Evening) -> None:
    d = chromium
    base = evening.server.base
    evening.play(3)
    _screen(d, 390, 844, phone=True)
    longest = max(evening.sims.values(), key=lambda s: (len(s.players), sum(
        len(evening.names[p]) for p in s.players)))
    wolfgang = "p1"
    pages = {"/": "#ranking", "/tables": ".cards", f"/tables/1/{longest.table}": "table.paper",
             f"/players/{wolfgang}": "table.list", "/players": "table.list"}
    for path, selector in pages.items():
        d.get(base + path)
        _wait(lambda sel=selector: d.find_elements("css selector", sel), 10, path)
        width = d.execute_script("return document.documentElement.scrollWidth;")
        assert width <= 390, f"{path} is {width} px wide on a 390 px phone"
        # nothing sticks out of the screen (an element wider than the page would show here)
        wide = d.execute_script("""
            return Array.prototype.slice.call(document.querySelectorAll("main *"))
              .filter(function (e) { var b = e.getBoundingClientRect();
                                     return b.width && (b.right > 390.5 || b.left < -0.5); })
              .map(function (e) { return e.tagName + "." + e.className; });""")
        assert not wide, (path, wide)
    # the ranking keeps place, name and total of every player, on the screen
    d.get(base + "/")
    cells = d.execute_script("""
        return Array.prototype.slice.call(document.querySelectorAll("#ranking tbody tr"))
          .map(function (tr) {
            return Array.prototype.slice.call(tr.cells)
              .filter(function (td) { return td.getBoundingClientRect().width > 0; })
              .map(function (td) { return td.textContent; }); });""")
    want = {r["name"]: r for r in evening.server.standings()["ranking"]}
    assert len(cells) == 45
    for place, name, total, *_ in cells:
        assert place == f"{want[name]['place']}." and int(total) == want[name]["total"]
    assert "Wolfgang Hartmann-Schüler" in want
    # a table's list: every player's column and the Seeger-Fabian sums are on the screen
    d.get(f"{base}/tables/1/{longest.table}")
    sums = d.find_elements("css selector", "table.paper tfoot tr.total td.num")
    assert [int(s.text) for s in sums] == [
        want[evening.names[p]]["total"] for p in longest.players]
    for s in sums:
        assert s.rect["x"] + s.rect["width"] <= 390
    assert "Wolfgang Hartmann-Schüler" in get(f"{base}/players/{wolfgang}")
    _no_policy_violations(d)

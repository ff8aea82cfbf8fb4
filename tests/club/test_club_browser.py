"""The pages in a real headless Chromium (Debian's ``chromium`` driven by Selenium through
``chromium-driver``): the ranking changes without a reload while tables play, the director
logs in, draws series 1 and corrects a game, and the ranking follows; the PDF lists hold the
right text (pdftotext).

``SKAT_CLUB_SCREENSHOTS=DIR`` also saves the screenshots that docs/club.md shows.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from brokers import club_spec, connect
from clubkit import PASSWORD, ServerProcess, write_config
from clubkit import wait_until as _wait

from club.simtables import SimTable, encode, topic

CHROMIUM = "/usr/bin/chromium"
DRIVER = "/usr/bin/chromedriver"
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run",
         "--disable-dev-shm-usage", "--window-size=1280,900")


@pytest.fixture
def browser(tmp_path: Path) -> Any:
    missing = [p for p, f in (("chromium", CHROMIUM), ("chromium-driver", DRIVER))
               if not os.path.exists(f)]
    if missing:
        pytest.fail(f"missing Debian packages for the tests: {' '.join(missing)}; install them "
                    f"with: sudo apt-get install {' '.join(missing)} (or run make test, which "
                    "installs them)", pytrace=False)
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    opts = Options()
    opts.binary_location = CHROMIUM
    for flag in FLAGS:
        opts.add_argument(flag)
    opts.add_argument(f"--user-data-dir={tmp_path / 'chromium-profile'}")
    driver = webdriver.Chrome(service=Service(DRIVER), options=opts)
    driver.set_page_load_timeout(30)
    yield driver
    driver.quit()




def _shot(driver: Any, name: str) -> None:
    target = os.environ.get("SKAT_CLUB_SCREENSHOTS")
    if target:
        Path(target).mkdir(parents=True, exist_ok=True)
        driver.save_screenshot(str(Path(target) / name))


def _pdftotext(data: bytes, tmp: Path) -> str:
    exe = shutil.which("pdftotext")
    if exe is None:
        pytest.fail("missing Debian packages for the tests: poppler-utils; install them with: "
                    "sudo apt-get install poppler-utils (or run make test, which installs it)",
                    pytrace=False)
    pdf = tmp / "x.pdf"
    pdf.write_bytes(data)
    out = subprocess.run([exe, "-layout", str(pdf), "-"], capture_output=True, text=True,
                         timeout=60, check=True)
    return out.stdout


def test_live_pages_director_and_pdf_in_chromium(tmp_path: Path, browser: Any,
                                                broker_factory: Any) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    broker = broker_factory(club_spec("c1", ["1", "2"]))
    server = ServerProcess(write_config(tmp_path / "srv", broker)).start()
    base = server.base
    try:
        d = browser
        # --- the director logs in (password, session cookie) and registers the field
        d.get(base + "/director/login")
        d.find_element(By.NAME, "password").send_keys("wrong")
        d.find_element(By.CSS_SELECTOR, "main form button").click()
        _wait(lambda: "Wrong password" in d.page_source, 10, "the refusal")
        d.find_element(By.NAME, "password").send_keys(PASSWORD)
        d.find_element(By.CSS_SELECTOR, "main form button").click()
        _wait(lambda: "Refused messages" in d.page_source, 10, "the director's page")
        names = ["Anna Łukasiewicz", "Ben Krüger", "Carla Ñúñez", "Dirk Öztürk",
                 "Eva Schäfer", "Frank Weiß", "Gisela Brandt"]
        csv = "id,name,club\n" + "\n".join(f"p{i},{n},SC Kreuz Bube"
                                           for i, n in enumerate(names, 1))
        d.find_element(By.NAME, "csv").send_keys(csv)
        d.find_element(By.XPATH, "//button[text()='Import']").click()
        _wait(lambda: "7 players imported" in d.page_source, 10, "the import")
        Select(d.find_element(By.CSS_SELECTOR, "#draw select")).select_by_value("draw")
        d.find_element(By.CSS_SELECTOR, "#draw button").click()
        _wait(lambda: "Series 1 is seated" in d.page_source, 10, "the draw")

        # --- a spectator's ranking page, open while the tables play
        d.get(base + "/")
        d.execute_script("window.__notReloaded = true;")
        first_rows = d.find_element(By.ID, "ranking").text
        assert "Anna Łukasiewicz" in first_rows
        seating = _seating(server)
        sims = {t: SimTable("herbst", 1, t, pids, seed=11, games=8)
                for t, pids in seating.items()}
        clients = {t: connect(broker, t) for t in sims}
        for _ in range(8):
            for t, sim in sims.items():
                clients[t].publish(topic("c1", t), encode(sim.play_one()),
                                   qos=1).wait_for_publish(10)
        for c in clients.values():
            c.loop_stop()
            c.disconnect()
        total = sum(len(s.series.sheet) for s in sims.values())
        _wait(lambda: f"{total} games counted" in d.find_element(By.TAG_NAME, "h1").text,
              20, "the ranking to change without a reload")
        assert d.execute_script("return window.__notReloaded === true;")
        want = {pid: sim.series.seeger_fabian[seat]
                for sim in sims.values() for seat, pid in enumerate(sim.players)}
        shown = {tr.get_attribute("data-player"): int(tr.find_elements(By.CSS_SELECTOR,
                                                                       "td.total")[0].text)
                 for tr in d.find_elements(By.CSS_SELECTOR, "#ranking tbody tr")}
        assert shown == want
        _shot(d, "club-ranking.png")
        d.get(base + "/?projector=1")
        _shot(d, "club-projector.png")

        # --- a table's list and a player's page
        table = next(t for t, s in sims.items() if len(s.players) == 4)
        d.get(f"{base}/tables/1/{table}")
        _wait(lambda: "Others' lost games" in d.page_source, 10, "the table list")
        _shot(d, "club-table-list.png")
        pid = sims[table].players[0]
        d.get(f"{base}/players/{pid}")
        _wait(lambda: "games declared" in d.page_source, 10, "the player page")
        _shot(d, "club-player.png")

        # --- the director corrects a game; the ranking follows
        sim = sims[table]
        entry = next(e for e in sim.series.sheet if e.declarer is not None)
        gid = f"herbst/1/{table}/{entry.number}"
        d.get(f"{base}/games/{gid}")
        decl_pid = sim.players[entry.declarer]
        Select(d.find_element(By.NAME, "kind")).select_by_value("correct")
        Select(d.find_element(By.NAME, "declarer")).select_by_value(str(entry.declarer))
        Select(d.find_element(By.NAME, "won")).select_by_value("1")
        value = d.find_element(By.NAME, "value")
        value.clear()
        value.send_keys("120")
        d.find_element(By.NAME, "reason").send_keys("Grand mit 4 misread as lost")
        d.find_element(By.CSS_SELECTOR, "form.correct button").click()
        _wait(lambda: "Grand mit 4 misread" in d.page_source, 10, "the audit line")
        d.get(f"{base}/tables/1/{table}")
        _wait(lambda: "corrected by the director: Grand mit 4 misread" in d.page_source, 10,
              "the correction beside the game on the table's list")
        old_entry = entry.seeger_fabian[entry.declarer]
        expected = want[decl_pid] - old_entry + 120 + 50
        d.get(base + "/")
        row = d.find_element(By.CSS_SELECTOR, f'#ranking tr[data-player="{decl_pid}"] td.total')
        assert int(row.text) == expected
        others = [p for s, p in enumerate(sim.players) if s != entry.declarer]
        if entry.won is False:       # the defenders lose their bonus for that game
            bonus = 40 if len(sim.players) == 3 else 30
            row2 = d.find_element(By.CSS_SELECTOR,
                                  f'#ranking tr[data-player="{others[0]}"] td.total')
            assert int(row2.text) == want[others[0]] - bonus

        # --- a form posted without the session's CSRF token is refused
        req = urllib.request.Request(base + "/director/draw", data=b"method=draw",
                                     method="POST")
        with urllib.request.urlopen(req, timeout=10) as r:   # no session: to the login
            assert r.url.endswith("/director/login")
        cookie = {c["name"]: c["value"] for c in d.get_cookies()}["skat_club"]
        req = urllib.request.Request(base + "/director/draw", data=b"method=draw&csrf=forged",
                                     method="POST", headers={"Cookie": f"skat_club={cookie}"})
        with pytest.raises(urllib.error.HTTPError) as err:
            urllib.request.urlopen(req, timeout=10)
        assert err.value.code == 403

        # --- the lists as PDF, checked with pdftotext
        with urllib.request.urlopen(f"{base}/export/list/1/{table}.pdf", timeout=30) as r:
            text = _pdftotext(r.read(), tmp_path)
        assert f"Score sheet of table {table}" in text and "Seeger-Fabian" in text
        player_names = {f"p{i}": n for i, n in enumerate(names, 1)}
        for p in sim.players:
            assert player_names[p] in text
        assert "corr." in text
        with urllib.request.urlopen(f"{base}/export/ranking.pdf", timeout=30) as r:
            text = _pdftotext(r.read(), tmp_path)
        assert "Ranking" in text and "Anna Łukasiewicz" in text
        assert f"{expected}" in text
        with urllib.request.urlopen(f"{base}/export/ranking.csv", timeout=30) as r:
            csv_text = r.read().decode()
        assert csv_text.splitlines()[0].startswith("place,id,name")
        with urllib.request.urlopen(f"{base}/export/games.iss", timeout=30) as r:
            records = r.read().decode().splitlines()
        assert len(records) == total
    finally:
        server.kill()


def _seating(server: ServerProcess) -> dict[str, list[str]]:
    import sqlite3

    db = sqlite3.connect(server.config.parent / "club.db")
    rows = db.execute("SELECT table_id, player FROM seats WHERE series = 1 "
                      "ORDER BY table_id, seat").fetchall()
    db.close()
    out: dict[str, list[str]] = {}
    for t, p in rows:
        out.setdefault(t, []).append(p)
    return out


def _select_value(entry: dict[str, Any]) -> tuple[str, str]:
    """The paper form's declarer and game choices for a table's own result."""
    if entry["declarer"] is None:
        return "none", ""
    c = entry["contract"] or ""
    return str(entry["declarer"]), ("" if c.startswith("N") else c[:1])


def test_paper_list_conflict_and_absent_player_in_chromium(tmp_path: Path, browser: Any,
                                                           broker_factory: Any) -> None:
    """A table's Pi dies: a copied record published ahead of the table is held; the
    director types the missing games from the paper list (a wrong value first: refused, the
    typed lines kept); the held game then counts; the table's own game of that number arrives
    with other content and the director chooses it. An absent player is listed apart and pays
    nothing into the pool."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    broker = broker_factory(club_spec("c1", ["1", "2"]))
    server = ServerProcess(write_config(tmp_path / "srv", broker)).start()
    base = server.base
    try:
        d = browser
        d.get(base + "/director/login")
        d.find_element(By.NAME, "password").send_keys(PASSWORD)
        d.find_element(By.CSS_SELECTOR, "main form button").click()
        _wait(lambda: "Refused messages" in d.page_source, 10, "the director's page")
        csv = "id,name,club\n" + "\n".join(f"p{i},Spieler {i},SC" for i in range(1, 9))
        d.find_element(By.NAME, "csv").send_keys(csv)
        d.find_element(By.XPATH, "//button[text()='Import']").click()
        _wait(lambda: "8 players imported" in d.page_source, 10, "the import")
        row = d.find_element(By.XPATH, "//tr[td[text()='p8']]")
        row.find_element(By.TAG_NAME, "button").click()          # p8 is absent
        _wait(lambda: "7 present" in d.page_source, 10, "p8 absent")
        Select(d.find_element(By.CSS_SELECTOR, "#draw select")).select_by_value("draw")
        d.find_element(By.CSS_SELECTOR, "#draw button").click()
        _wait(lambda: "Series 1 is seated" in d.page_source, 10, "the draw")
        pids = _seating(server)["1"]
        assert len(pids) == 4
        sim = SimTable("herbst", 1, "1", pids, seed=21, games=6)
        copied = SimTable("herbst", 1, "1", pids, seed=22, games=6)
        client = connect(broker, "1")
        for _ in range(3):
            client.publish(topic("c1", "1"), encode(sim.play_one()), qos=1).wait_for_publish(10)
        fake = [copied.play_one() for _ in range(6)][-1]
        client.publish(topic("c1", "1"), encode(fake), qos=1).wait_for_publish(10)

        def tables_page() -> str:
            d.get(base + "/tables")
            return str(d.find_element(By.ID, "live").text)

        _wait(lambda: "1 held: game 4 missing" in tables_page(), 20,
              "the held game on the tables page")

        # --- the paper list: games 4 and 5 as the table's paper sheet has them
        paper = [sim.play_one()["result"] for _ in range(2)]
        d.get(f"{base}/director/list/1/1")
        for e in paper:
            who, game = _select_value(e)
            n = e["number"]
            Select(d.find_element(By.NAME, f"declarer_{n}")).select_by_value(who)
            if game:
                Select(d.find_element(By.NAME, f"contract_{n}")).select_by_value(game)
            d.find_element(By.NAME, f"value_{n}").send_keys(
                "47" if n == 4 else str(e["value"]))      # game 4 is declared (seed 21)
        d.find_element(By.NAME, "reason").send_keys("Pi von Tisch 1 ausgefallen")
        d.execute_script("window.scrollTo(0, 0);")
        _shot(d, "club-paper-list.png")
        d.find_element(By.CSS_SELECTOR, "#paper button").click()
        _wait(lambda: "game 4: 47 is no game value" in d.page_source, 10, "the refusal")
        assert d.find_element(By.NAME, "reason").get_attribute("value") == \
            "Pi von Tisch 1 ausgefallen"                       # what was typed is kept
        assert d.find_element(By.NAME, "value_5").get_attribute("value") == \
            str(paper[1]["value"])
        value = d.find_element(By.NAME, "value_4")
        value.clear()
        value.send_keys(str(paper[0]["value"]))
        d.find_element(By.CSS_SELECTOR, "#paper button").click()
        _wait(lambda: "from the paper list: Pi von Tisch 1" in d.page_source, 10,
              "the typed games on the table's list")
        assert d.find_elements(By.CSS_SELECTOR, "p.held") == []   # game 6 counts now

        # --- the table's own game 6 arrives: a conflict, settled by the director
        own = sim.play_one()
        client.publish(topic("c1", "1"), encode(own), qos=1).wait_for_publish(10)
        client.loop_stop()
        client.disconnect()
        d.get(base + "/director")
        _wait(lambda: "choose a version" in d.page_source, 20, "the conflict")
        d.find_element(By.LINK_TEXT, "choose a version").click()
        _wait(lambda: "Versions refused" in d.page_source, 10, "the game page")
        form = d.find_element(By.CSS_SELECTOR, "#conflicts form.choose")
        form.find_element(By.NAME, "choice_reason").send_keys("Spielliste des Tisches")
        form.find_element(By.TAG_NAME, "button").click()
        _wait(lambda: "version chosen: refused message" in d.page_source, 10, "the audit")
        assert "Spielliste des Tisches" in d.page_source
        _shot(d, "club-conflict.png")

        # --- the ranking: the table's own six games, the absent player apart, the pool of 7
        d.get(base + "/")
        want = dict(zip(pids, sim.series.seeger_fabian, strict=True))
        shown = {tr.get_attribute("data-player"): int(tr.find_element(By.CSS_SELECTOR,
                                                                      "td.total").text)
                 for tr in d.find_elements(By.CSS_SELECTOR, "#ranking tbody tr")}
        assert {p: shown[p] for p in pids} == want
        assert "p8" not in shown and len(shown) == 7
        assert "Spieler 8" in d.find_element(By.ID, "not-ranked").text
        assert "Prize pool 105.00 (7 players taking part)" in d.page_source
    finally:
        server.kill()

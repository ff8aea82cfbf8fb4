"""The club's language: every page and both PDFs in German and in English (the key labels of
each page in the configured language, none of the other's), the server's own sentences shown
to the director translated, and the catalogs complete, compiled and in step with the kiosk's
Skat words in all eight languages."""

from __future__ import annotations

import ast
import gettext
import html
import re
import shutil
import subprocess
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from clubkit import PASSWORD, Director, free_port, get
from jinja2 import Environment
from pofile import read_po

from club.config import ClubConfig, ClubConfigError, hash_password
from club.i18n import DOMAIN, LANGUAGES, LOCALE_DIR, translator
from club.service import ClubService
from club.simtables import SimTable, encode, topic
from club.store import Store

ROOT = Path(__file__).resolve().parents[2]
PLACEHOLDER = re.compile(r"%\(\w+\)s")
NAMES = ["Anna Becker", "Bernd Albrecht", "Carla Dietz", "Dieter Engel", "Emil Fuchs",
         "Frieda Graf", "Gustav Horn"]


# --- the catalogs ----------------------------------------------------------------------------


def _literal(node: ast.AST) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def source_messages() -> tuple[set[str], dict[str, str]]:
    """(every single message, singular -> plural of every plural message) of club/: the
    literals passed to ``_()``, ``N_()`` and ``ngettext`` in the code and the templates."""
    single: set[str] = set()
    plural: dict[str, str] = {}
    for path in (ROOT / "club").glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call) or not node.args:
                continue
            f = node.func
            name = f.id if isinstance(f, ast.Name) else (
                f.attr if isinstance(f, ast.Attribute) else "")
            first = _literal(node.args[0])
            if first is None:
                continue
            if name in ("_", "N_"):
                single.add(first)
            elif name == "ngettext" and len(node.args) >= 2:
                plural[first] = _literal(node.args[1]) or ""
    env = Environment(extensions=["jinja2.ext.i18n"])
    for path in (ROOT / "club" / "templates").glob("*.html"):
        for _line, func, msg in env.extract_translations(path.read_text(encoding="utf-8")):
            text = msg[0] if isinstance(msg, tuple) else msg
            if not isinstance(text, str):
                continue
            if func == "ngettext":
                plural[text] = msg[1]  # type: ignore[index]
            else:
                single.add(text)
    return single - set(plural), plural


def po(lang: str) -> dict[str | tuple[str, int], str]:
    return read_po(LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po")


NPLURALS = {"de": 2, "en": 2, "fr": 2, "es": 2, "nb": 2, "nl": 2, "cs": 3, "pl": 3}


def catalog_problems(lang: str, catalog: dict[str | tuple[str, int], str]) -> list[str]:
    """What is wrong with a language's catalog: a message of the source missing or empty, a
    message the source no longer has, a plural without each of the language's forms."""
    single, plural = source_messages()
    have = {k for k in catalog if isinstance(k, str)}
    out = [f"missing: {m!r}" for m in sorted(single - have)]
    out += [f"empty: {k!r}" for k, v in catalog.items() if not v.strip()]
    out += [f"no longer in the source: {m!r}" for m in sorted(have - single)]
    for m in sorted(plural):
        forms = [catalog.get((m, i), "") for i in range(NPLURALS[lang])]
        if not all(f.strip() for f in forms) or (m, NPLURALS[lang]) in catalog:
            out.append(f"plural {m!r}: {forms}")
    out += [f"plural no longer in the source: {k[0]!r}" for k in catalog
            if isinstance(k, tuple) and k[0] not in plural]
    return out


def test_the_source_has_its_messages() -> None:
    single, plural = source_messages()
    assert len(single) > 200 and len(plural) >= 4
    assert "Ranking" in single and "Prize pool %(pool)s (%(entrants)s players taking part): " \
        "places 1-%(places)s get %(prizes)s." in single


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_message_translated_in_every_catalog(lang: str) -> None:
    assert catalog_problems(lang, po(lang)) == []


def test_a_missing_or_empty_translation_is_found() -> None:
    """The completeness check fails on a catalog that lacks one message or leaves one empty."""
    catalog = po("pl")
    del catalog["Ranking"]
    assert catalog_problems("pl", catalog) == ["missing: 'Ranking'"]
    catalog = dict(po("de"), Tables="")
    assert catalog_problems("de", catalog) == ["empty: 'Tables'"]
    catalog = po("cs")
    del catalog[("%(num)s game counted", 2)]
    assert len(catalog_problems("cs", catalog)) == 1


@pytest.mark.parametrize("lang", LANGUAGES)
def test_compiled_catalog_says_what_its_source_says(lang: str) -> None:
    """The committed .mo is the .po compiled (after editing: msgfmt --check -o club.mo club.po
    in club/locale/LANG/LC_MESSAGES)."""
    with (LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.mo").open("rb") as fh:
        compiled = gettext.GNUTranslations(fh)
    catalog = {k: v for k, v in compiled._catalog.items() if k}  # type: ignore[attr-defined]
    assert catalog == po(lang)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_placeholders_kept(lang: str) -> None:
    _single, plural = source_messages()
    bad = []
    for k, v in po(lang).items():
        source = k if isinstance(k, str) else k[0]
        want = set(PLACEHOLDER.findall(source)) | set(PLACEHOLDER.findall(plural.get(source, "")))
        got = set(PLACEHOLDER.findall(v))
        # a plural form may leave the number out ("one game"); every other field stays
        if got != want and not (isinstance(k, tuple) and got == want - {"%(num)s"}):
            bad.append((k, v))
        if "%" in PLACEHOLDER.sub("", v):
            bad.append((k, v))
    assert not bad, bad


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
def test_translated_not_copied(lang: str) -> None:
    """Most messages differ from English (Skat terms like Grand, Null, Hand may not)."""
    catalog = po(lang)
    same = [k for k, v in catalog.items() if k == v and PLACEHOLDER.sub("", str(k)).strip()]
    assert len(same) < 0.1 * len(catalog), same


# Skat words: the club's catalogs say them as the kiosk's do (its catalogs are read as files,
# nothing of display/ is imported).
SKAT_WORDS = ("Clubs", "Spades", "Hearts", "Diamonds", "Grand", "Null", "Hand", "Ouvert",
              "Schneider announced", "Schwarz announced", "passed in", "dealer", "declarer",
              "Seeger-Fabian")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_skat_words_as_the_kiosk_says_them(lang: str) -> None:
    kiosk = read_po(ROOT / "display" / "locale" / lang / "LC_MESSAGES" / "skat_table.po")
    tr = translator(lang)
    assert {w: tr(w) for w in SKAT_WORDS} == {w: kiosk[w] for w in SKAT_WORDS}


def test_the_language_setting() -> None:
    base = {"club": {"id": "skc"}, "tournament": {"id": "t"}}
    assert ClubConfig.from_dict(base).language == "de"
    assert ClubConfig.from_dict({**base, "club": {"id": "skc", "language": "pl"}}
                                ).language == "pl"
    with pytest.raises(ClubConfigError, match=r"\[club\] language: 'xx' is not one of"):
        ClubConfig.from_dict({**base, "club": {"id": "skc", "language": "xx"}})
    with pytest.raises(ClubConfigError, match=r"\[club\] language: expected text"):
        ClubConfig.from_dict({**base, "club": {"id": "skc", "language": 7}})


def test_the_servers_sentences_in_the_clubs_language() -> None:
    de = translator("de")
    assert de.message("herbst/1/1/4: series 1 is closed (Reopen counts it)") == (
        "herbst/1/1/4: Serie 1 ist abgeschlossen (Wieder öffnen wertet es)")
    # a reason inside a reason is looked up too; an unknown sentence stays as written
    assert de.message("game 4: 47 is no game value a declarer can win") == (
        "Spiel 4: 47 ist kein Spielwert, den ein Alleinspieler gewinnen kann")
    assert de.message("something new") == "something new"
    # what the directors did: a drawing again names who came, who left and why, each part
    # looked up in turn
    assert de.message("series 2 drawn again (draw, seed 7/2/2): 8 players at 2 tables; seated "
                      "now: p8; no longer seated: p3; why: Nachzügler") == (
        "Serie 2 neu ausgelost (draw, Startwert 7/2/2): 8 Spieler an 2 Tischen; neu gesetzt: "
        "p8; nicht mehr gesetzt: p3; Grund: Nachzügler")
    assert de.message("line 3: team name 'Kreuz Bube und die'... is longer than 60 "
                      "characters") == ("Zeile 3: Mannschaftsname 'Kreuz Bube und die'... ist "
                                        "länger als 60 Zeichen")
    assert translator("pl").message("series 1 is still running: close it first (the season "
                                    "counts finished evenings only)") == (
        "seria 1 jeszcze trwa: najpierw ją zamknij (sezon liczy tylko zakończone wieczory)")


# --- the pages, served -----------------------------------------------------------------------


class Served:
    """The club's web app on a real port (uvicorn in a thread), for one language."""

    def __init__(self, cfg: ClubConfig) -> None:
        import uvicorn

        from club.web import create_app

        self.service = ClubService(cfg, Store(cfg.database))
        port = free_port()
        self.base = f"http://127.0.0.1:{port}"
        self.server = uvicorn.Server(uvicorn.Config(create_app(self.service), host="127.0.0.1",
                                                    port=port, log_level="warning"))
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        for _ in range(200):
            if self.server.started:
                break
            time.sleep(0.05)

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(10)


@pytest.fixture(scope="module")
def evening(tmp_path_factory: pytest.TempPathFactory) -> ClubConfig:
    """A small evening: seven players and one absent, series 1 played at two tables with a
    correction, a held game and a game refused because the series was closed early; teams of
    two (one short of a member), a prize list with special prizes, a member registry."""
    tmp = tmp_path_factory.mktemp("evening")
    cfg = ClubConfig.from_dict({
        "club": {"id": "skc", "name": "Skatclub Kreuz Bube", "database": str(tmp / "c.db"),
                 "registry": str(tmp / "members.db")},
        "director": {"password_hash": hash_password(PASSWORD)},
        "tournament": {"id": "herbst", "name": "Herbstpreisskat", "seed": "7", "series": 2,
                       "games_three": 6, "games_four": 8, "entry_fee": "10",
                       "prize_shares": [50, 30]},
        "teams": {"size": 2},
        "prizes": [{"places": "1", "goods": "Präsentkorb"},
                   {"special": "best-game", "amount": "5"},
                   {"special": "director", "name": "Bester Neuling", "goods": "Buch"}]})
    svc = ClubService(cfg, Store(cfg.database))
    for i, name in enumerate(NAMES, 1):
        svc.register(f"p{i}", name, "SC Herz Dame")
    svc.store.set_teams({"p1": "Kreuz Bube", "p2": "Kreuz Bube", "p3": "Pik Dame",
                         "p4": "Pik Dame", "p5": "Karo Sieben"})
    svc.register("p8", "Hanna Ilse", "SC Herz Dame")
    svc.store.set_present("p8", False)
    svc.register_done()
    svc.draw_series()
    seating = svc.store.seating(1)
    sims = {t: SimTable("herbst", 1, t, p, seed=3, games=cfg.tournament.games_for(len(p)))
            for t, p in seating.items()}
    three = next(t for t, p in seating.items() if len(p) == 3)
    four = next(t for t, p in seating.items() if len(p) == 4)
    for _ in range(4):
        svc.handle(topic("skc", three), encode(sims[three].play_one()))
    msgs = [sims[three].play_one() for _ in range(2)]
    svc.handle(topic("skc", three), encode(msgs[1]))            # game 6 ahead: held
    while not sims[four].finished:
        svc.handle(topic("skc", four), encode(sims[four].play_one()))
    g = svc.games(table=four)[0]
    decl = 1 if g.declarer != 1 and g.dealer != 1 else 2
    svc.correct(g.game_id, "director", "Zählfehler", declarer=decl, won=True, value=48)
    svc.set_series_state(1, "closed")
    svc.handle(topic("skc", three), encode(msgs[0]))            # refused: series closed
    return cfg


@pytest.fixture(scope="module", params=["de", "en"])
def site(request: pytest.FixtureRequest, evening: ClubConfig) -> Iterator[tuple[str, Served]]:
    served = Served(replace(evening, language=request.param))
    try:
        yield request.param, served
    finally:
        served.stop()


def visible(page: str) -> str:
    """The words a reader sees: no tags, scripts or attribute values."""
    page = re.sub(r"<script.*?</script>", " ", page, flags=re.S)
    return html.unescape(re.sub(r"<[^>]+>", " ", page))


def has(text: str, words: str) -> bool:
    return re.search(r"(?<!\w)" + re.escape(words) + r"(?!\w)", text) is not None


def check_labels(lang: str, page: str, labels: list[Any]) -> None:
    """Each label (a message id, or (message id, its fields)) is on the page in ``lang``, and
    not in the other of German and English where the two differ."""
    other = "en" if lang == "de" else "de"
    text = visible(page)
    for label in labels:
        msgid, fields = (label, {}) if isinstance(label, str) else label
        want = translator(lang)(msgid) % fields
        not_want = translator(other)(msgid) % fields
        assert has(text, want), f"{lang}: {want!r} is not on the page"
        if not_want != want:
            assert not has(text, not_want), f"{lang}: {not_want!r} ({other}) is on the page"


HEADER = ["Ranking", "Tables", "Players", "Director"]


def test_public_pages_speak_the_clubs_language(site: tuple[str, Served]) -> None:
    lang, s = site
    svc = s.service
    (three, pids), = ((t, p) for t, p in svc.store.seating(1).items() if len(p) == 3)
    page = get(s.base + "/")
    assert f'<html lang="{lang}">' in page
    check_labels(lang, page, [*HEADER,
        "Place", "Club", "Total", "Won", "Lost", "Prize", "Projector mode", "all games (ISS)",
        "Not ranked (absent, or not seated in any series):",
        "Equal totals share a place and split its prizes."])
    check_labels(lang, get(s.base + "/?projector=1"), ["Ranking", "Place", "Total", "Won"])
    check_labels(lang, get(s.base + "/tables?series=1"), [*HEADER,
        ("Table %(table)s", {"table": three}), ("series %(series)s", {"series": 1}),
        "idle"])
    check_labels(lang, get(s.base + f"/tables/1/{three}"), [*HEADER,
        "No.", "Dealer", "Game", "PDF list", "Won games × 50", "Lost games × 50",
        "Points (game values)", "no status yet",
        ("Held, not counted yet (game %(game)s has not arrived):", {"game": 5})])
    check_labels(lang, get(s.base + "/players"), [*HEADER, "Id", "Name", "Present"])
    check_labels(lang, get(s.base + f"/players/{pids[0]}"), [*HEADER,
        "place", "deals at the table", "games declared", "won / lost", "won share",
        "average value", "Games", "Role", "Value"])
    gid = svc.games(table=three)[0].game_id
    check_labels(lang, get(s.base + f"/games/{gid}"), [*HEADER,
        "Players", "Counted", "Corrections", "Revisions from the table", "Revision",
        "Received", "Result", "ISS record"])
    held = get(s.base + f"/games/herbst/1/{three}/6")
    check_labels(lang, held, ["Held, not counted yet:", (
        "game %(game)s is ahead of table %(table)s's list: it counts once game %(waiting)s "
        "is there", {"game": 6, "table": three, "waiting": 5})])
    check_labels(lang, get(s.base + "/director/login"), [*HEADER, "Password", "Log in"])
    for path, title, text in (
            ("/tables/1/99", "No such table", "That table does not play in that series."),
            ("/players/nobody", "No such player", ("No player has the id %(id)s.",
                                                   {"id": "nobody"})),
            ("/games/herbst/1/99/1", "No such game", ("No game %(id)s has arrived.",
                                                      {"id": "herbst/1/99/1"}))):
        with pytest.raises(urllib.error.HTTPError) as err:
            get(s.base + path)
        assert err.value.code == 404
        check_labels(lang, err.value.read().decode(), [title, text])


def test_director_pages_speak_the_clubs_language(site: tuple[str, Served]) -> None:
    lang, s = site
    svc = s.service
    three = next(t for t, p in svc.store.seating(1).items() if len(p) == 3)
    four = next(t for t, p in svc.store.seating(1).items() if len(p) == 4)
    d = Director(s.base)
    page = d.post("/director/login", {"password": PASSWORD}, csrf_from="/director/login")
    check_labels(lang, page, [*HEADER,
        "Series", "State", "Seating", "Seed", "Drawn", "Reopen", "closed", "drawn by lots",
        "Register", "Import", "Held games", "Wrong passwords", "Refused messages", "Topic",
        "the game",
        ("%(game_id)s: series %(series)s is closed (Reopen counts it)",
         {"game_id": f"herbst/1/{three}/5", "series": 1})])
    page = d.post("/director/player", {"id": "p9", "name": "Ida Jung", "club": ""})
    check_labels(lang, page, ["Player registered."])
    corrected = svc.games(table=four)[0].game_id
    check_labels(lang, d.get(f"/games/{corrected}"), [
        "Correct this game", "correct the result", "annul the game", "Declarer", "Outcome",
        "Value on the list", "Reason", "Save correction", "corrected"])
    check_labels(lang, d.get(f"/director/list/1/{three}"), [
        "Paper list", "Dealer", "Declarer", "Value on the list", "Enter the games",
        "Seeger-Fabian at the list's foot (optional, checked)"])
    # a refused form: the server's own reason, in the club's language
    with pytest.raises(urllib.error.HTTPError) as err:
        d.post("/director/paper", {"series": "1", "table": three, "declarer_5": "0",
                                   "value_5": "47", "reason": "Pi ausgefallen"},
               csrf_from=f"/director/list/1/{three}")
    assert err.value.code == 400
    check_labels(lang, err.value.read().decode(), [
        ("game %(game)s: %(reason)s", {"game": 5, "reason": translator(lang)(
            "%(value)s is no game value a declarer can win") % {"value": 47}})])


def test_the_tools_pages_speak_the_clubs_language(site: tuple[str, Served]) -> None:
    """Teams, prizes, the season, the directors and what they did: public and director's
    words, the server's own sentences among them."""
    lang, s = site
    tools = [*HEADER, "Teams", "Prizes", "Season"]          # the nav links to the tools
    check_labels(lang, get(s.base + "/teams"), [*tools,
        ("Seeger-Fabian of the %(size)s best members of each team", {"size": 2}), "Place",
        "Team", "Total", "Members", ("Not ranked, fewer than %(size)s members playing:",
                                     {"size": 2})])
    check_labels(lang, get(s.base + "/prizes"), [*tools,
        "Place", "Name", "Pool share", "Money", "Goods", "Special prizes", "Rule", "Won by",
        "Money each", "the highest value of a game won (counted, not annulled)",
        "awarded by the director on the prizes page", "open"])
    check_labels(lang, get(s.base + "/season"), [*tools, "No evening has been imported yet."])
    d = Director(s.base)
    d.post("/director/login", {"password": PASSWORD}, csrf_from="/director/login")
    check_labels(lang, d.get("/teams"), ["Put players in teams", "Save teams"])
    check_labels(lang, d.get("/prizes"), [("Award %(prize)s to", {"prize": "Bester Neuling"}),
                                          "nobody", "Save"])
    check_labels(lang, d.get("/"), ["Prizes for the director:", "Prize list"])
    check_labels(lang, d.get("/season"), ["Import this evening", "into season",
                                          "importing again replaces its results"])
    page = d.get("/director")
    check_labels(lang, page, ["Directors", ("you are %(name)s", {"name": "director"}),
        "Added", "By", "Add director", "What the directors did", "When", "Who", "What",
        ("series %(series)s drawn (%(method)s, seed %(seed)s): %(players)s players at "
         "%(tables)s tables", {"series": 1, "method": "draw", "seed": "7/1", "players": 7,
                               "tables": 2}),
        ("series %(series)s closed", {"series": 1})])
    # refused forms of the tools: the reason in the club's language, never a server error
    with pytest.raises(urllib.error.HTTPError) as err:
        d.post("/director/teams", {"csv": "id,team\nzz,Herz Ass\n"}, csrf_from="/teams")
    assert err.value.code == 400
    check_labels(lang, err.value.read().decode(), ["Nothing changed:",
                                                   ("no player has the id %(id)s",
                                                    {"id": "'zz'"})])
    with pytest.raises(urllib.error.HTTPError) as err:
        d.post("/director/award", {"prize": "Bester Neuling", "player": "p8"},
               csrf_from="/prizes")                                # p8 is absent
    assert err.value.code == 400
    check_labels(lang, err.value.read().decode(), [(
        "player %(player)s does not take part in the evening", {"player": "'p8'"})])
    for path in ("/director/teams", "/director/award", "/director/season-import"):
        with pytest.raises(urllib.error.HTTPError) as err:
            d.post(path, {"csrf": "stale"})
        assert err.value.code == 403
        check_labels(lang, err.value.read().decode(), ["Form out of date"])


def _pdftotext(data: bytes, tmp: Path) -> str:
    exe = shutil.which("pdftotext")
    if exe is None:
        pytest.fail("pdftotext is missing: install poppler-utils (tests/system-packages.sh)")
    (tmp / "x.pdf").write_bytes(data)
    subprocess.run([exe, "-raw", str(tmp / "x.pdf"), str(tmp / "x.txt")], check=True)
    return " ".join((tmp / "x.txt").read_text(encoding="utf-8").split())


def test_the_pdfs_speak_the_clubs_language(site: tuple[str, Served], tmp_path: Path) -> None:
    lang, s = site
    three = next(t for t, p in s.service.store.seating(1).items() if len(p) == 3)
    ranking = _pdftotext(_bytes(s.base + "/export/ranking.pdf"), tmp_path)
    check_labels(lang, ranking, ["Ranking", "Place", "Club", "Total", "Prize",
                                 "Not ranked (absent, or not seated in any series):"])
    sheet = _pdftotext(_bytes(s.base + f"/export/list/1/{three}.pdf"), tmp_path)
    check_labels(lang, sheet, [
        ("Score sheet of table %(table)s · series %(series)s", {"table": three, "series": 1}),
        "Dealer", "Points (game values)", "Won games × 50", "Signatures:"])
    # the prize list and the teams: sections of the ranking's PDF, and PDFs of their own
    check_labels(lang, ranking, ["Prize list", "Pool share", "Goods", "Special prizes",
                                 "Team ranking"])
    check_labels(lang, _pdftotext(_bytes(s.base + "/export/teams.pdf"), tmp_path), [
        "Team ranking", ("The Seeger-Fabian totals of the %(size)s best members of each team.",
                         {"size": 2}), "Team", ("Not ranked, fewer than %(size)s members "
                                                "playing:", {"size": 2})])
    check_labels(lang, _pdftotext(_bytes(s.base + "/export/prizes.pdf"), tmp_path), [
        "Prize list", "Fixed", "Money", "open"])
    blank = _pdftotext(_bytes(s.base + f"/export/blank/1/{three}.pdf"), tmp_path)
    check_labels(lang, blank, [
        ("Score sheet · series %(series)s · table %(table)s", {"series": 1, "table": three}),
        ("%(games)s games · Seeger-Fabian · date: ______________", {"games": 6}), "Seats:",
        "No.", "Dealer", "passed in", "Points (game values)", "Won games × 50",
        ("Lost by the others × %(bonus)s", {"bonus": 40}), "Seeger-Fabian (result)"])


def _bytes(url: str) -> bytes:
    with urllib.request.urlopen(url, timeout=20) as r:
        return bytes(r.read())


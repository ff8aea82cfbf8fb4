"""The director's tools beyond one evening's ranking, in process: blank Spiellisten to print,
the team ranking, prizes beyond a share of the pool, the member registry and the season
ranking across evenings (and its command)."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from clubkit import ROOT

from club.blanks import blank_lists, blanks_pdf
from club.config import ClubConfig, ClubConfigError
from club.export import ranking_pdf
from club.prizes import PrizeRules, parse_prizes, place_lines, prize_list
from club.prizes import award as give_award
from club.registry import Registry, RegistryError
from club.scoring import Row
from club.season import evening_of, import_evening, season_ranking
from club.service import ClubService
from club.simtables import SimTable, encode, topic
from club.store import Store
from club.teams import import_teams, service_team_ranking, team_ranking, teams_csv


def service(tmp: Path, players: list[tuple[str, str, str | None]], tid: str = "herbst",
            registry: Path | None = None, extra: dict[str, Any] | None = None,
            **tournament: Any) -> ClubService:
    """A club service for tournament ``tid`` with ``players`` (id, name, tag) registered."""
    t: dict[str, Any] = {"id": tid, "seed": "42", "entry_fee": "10",
                         "prize_shares": [50, 30, 20]}
    t.update(tournament)
    club: dict[str, Any] = {"id": "skc", "database": str(tmp / f"{tid}.db")}
    if registry is not None:
        club["registry"] = str(registry)
    cfg = ClubConfig.from_dict({"club": club, "tournament": t, **(extra or {})})
    svc = ClubService(cfg, Store(cfg.database))
    for pid, name, tag in players:
        svc.register(pid, name, "SC Kreuz", tag)
    return svc


def play(svc: ClubService, series: int, seed: int = 1) -> None:
    """Every table of the series plays its whole list (random legal games, as tables send)."""
    t = svc.config.tournament
    for tid, pids in svc.store.seating(series).items():
        table = SimTable(t.id, series, tid, pids, seed=seed, games=t.games_for(len(pids)))
        while not table.finished:
            out = svc.handle(topic(svc.config.club_id, tid), encode(table.play_one()))
            assert out.kind == "counted", out


def pdftext(data: bytes, tmp: Path) -> str:
    exe = shutil.which("pdftotext")
    assert exe, "pdftotext (poppler-utils) is needed: tests/system-packages.sh installs it"
    path = tmp / "out.pdf"
    path.write_bytes(data)
    return subprocess.run([exe, "-layout", str(path), "-"], check=True, capture_output=True,
                          text=True).stdout


NAMES = [("p1", "Anna Lehmann", None), ("p2", "Wolfgang Hartmann-Schüler", "04a1b2"),
         ("p3", "Jürgen Weiß", None), ("p4", "Ben Ohde", None), ("p5", "Carla Dietz", None),
         ("p6", "Doris Kühn", None), ("p7", "Emil Zander", None)]


# --- blank lists ------------------------------------------------------------------------------


@pytest.mark.parametrize("games_four,games_three", [(48, 36), (32, 24)])
def test_blank_lists_name_the_players_and_have_a_line_per_game(
        tmp_path: Path, games_four: int, games_three: int) -> None:
    svc = service(tmp_path, NAMES, games_four=games_four, games_three=games_three)
    svc.draw_series()
    lists = blank_lists(svc, 1)
    assert sorted(len(b.players) for b in lists) == [3, 4]
    text = pdftext(blanks_pdf(svc, lists), tmp_path)
    pages = text.split("\f")
    assert len([p for p in pages if p.strip()]) == 2          # one page per table, whole
    names = dict((pid, name) for pid, name, _ in NAMES)
    for blank, page in zip(lists, pages, strict=False):
        assert f"Tisch {blank.table}" in page
        for seat, (pid, name) in enumerate(blank.players):
            assert f"{seat + 1}. {name} ({pid})" in " ".join(page.split())
            assert names[pid] == name
        # one numbered line per game, each with the dealer printed (seat 1 deals game 1)
        numbered = [(int(m.group(1)), m.group(2)) for m in
                    re.finditer(r"^\s*(\d+)\s{2,}(\S.*?)\s*$", page, re.M)]
        due = games_four if len(blank.players) == 4 else games_three
        assert [n for n, _ in numbered] == list(range(1, due + 1))
        for n, dealer in numbered:
            want = blank.players[(n - 1) % len(blank.players)][1]
            assert want.startswith(dealer.rstrip("…")), (n, dealer, want)
        for label in ("eingepasst", "Spielpunkte", "gewonnene Spiele × 50",
                      "verlorene Spiele × 50", "Seeger-Fabian (Ergebnis)"):
            assert label in page
        bonus = 30 if len(blank.players) == 4 else 40
        assert f"der anderen × {bonus}" in page
    # one table alone; a table or series that is not there gives nothing
    assert [b.table for b in blank_lists(svc, 1, lists[1].table)] == [lists[1].table]
    assert blank_lists(svc, 1, "99") == [] and blank_lists(svc, 2) == []


# --- teams ------------------------------------------------------------------------------------


def _row(pid: str, total: int, series: tuple[int, ...], place: int = 1) -> Row:
    return Row(place, pid, pid.upper(), "", series, total, 0, 0, 0, 0, 0, Decimal(0))


def test_team_ranking_sums_the_best_members_with_known_values() -> None:
    rows = [_row("a1", 500, (300, 200)), _row("a2", 300, (100, 200)),
            _row("a3", 200, (0, 200)), _row("a4", 100, (50, 50)), _row("a5", -50, (-50, 0)),
            _row("b1", 400, (400, 0)), _row("b2", 400, (200, 200)), _row("b3", 200, (0, 200)),
            _row("b4", 100, (100, 0)), _row("c1", 900, (900, 0)), _row("c2", 10, (10, 0)),
            _row("d1", -5, (-5, 0)), _row("d2", -5, (-5, 0)), _row("d3", -5, (-5, 0)),
            _row("d4", -5, (-5, 0))]
    teams = {r.player: r.player[0].upper() for r in rows}
    teams["x9"] = "C"     # registered in team C, not taking part
    ranked, short = team_ranking(rows, teams, {"x9": "Xaver"}, size=4, series=2)
    got = [(t.place, t.team, t.total, t.series, t.counted) for t in ranked]
    # A: the best four count (500+300+200+100), a5 is listed, not counted; B ties with A
    assert got == [(1, "A", 1100, (450, 650), 4), (1, "B", 1100, (700, 400), 4),
                   (3, "D", -20, (-20, 0), 4)]
    assert [m.counted for m in ranked[0].members] == [True] * 4 + [False]
    assert [(t.team, t.total, t.absent) for t in short] == [("C", 910, ("Xaver",))]
    # a team of three counts three
    ranked3, short3 = team_ranking(rows, teams, {}, size=3, series=2)
    assert [(t.place, t.team, t.total) for t in ranked3] == [(1, "A", 1000), (1, "B", 1000),
                                                             (3, "D", -15)]
    assert [t.team for t in short3] == ["C"]       # two of three playing


def test_teams_from_the_players_csv_follow_the_ranking(tmp_path: Path) -> None:
    svc = service(tmp_path, NAMES[:7], extra={"teams": {"size": 2}})
    csv_text = ("id;name;team\np1;Anna Lehmann;Kreuz Bube\np2;W;Kreuz Bube\np3;J;Pik Dame\n"
                "p4;B;Pik Dame\np5;C;=HYPERLINK(\"x\")\np6;D;\np7;E;" + "x" * 61 + "\n")
    errors = import_teams(svc.store, csv_text, {"p1", "p2", "p3", "p4", "p5", "p6"})
    assert errors == ["line 8: team name 'xxxxxxxxxxxxxxxxxxxx'... is longer than 60 "
                      "characters"]
    assert svc.store.teams() == {"p1": "Kreuz Bube", "p2": "Kreuz Bube", "p3": "Pik Dame",
                                 "p4": "Pik Dame", "p5": '=HYPERLINK("x")'}
    svc.draw_series()
    play(svc, 1)
    totals = {r.player: r.total for r in svc.ranking()}
    ranked, short = service_team_ranking(svc)
    want = {"Kreuz Bube": totals["p1"] + totals["p2"], "Pik Dame": totals["p3"] + totals["p4"]}
    assert {t.team: t.total for t in ranked} == want
    assert [t.team for t in short] == ['=HYPERLINK("x")']
    csv_out = teams_csv(svc)
    assert "'=HYPERLINK" in csv_out and '\n=HYPERLINK' not in csv_out
    assert f"Kreuz Bube,{want['Kreuz Bube']}" in csv_out
    text = " ".join(pdftext(ranking_pdf(svc), tmp_path).split())
    assert "Mannschaftswertung" in text and "Kreuz Bube" in text and "Pik Dame" in text
    with pytest.raises(ClubConfigError, match=r"\[teams\] size: expected a whole number"):
        service(tmp_path / "x", [], extra={"teams": {"size": "vier"}})


# --- prizes -----------------------------------------------------------------------------------

PRIZES = [
    {"places": "1", "amount": "50", "goods": "Präsentkorb"},
    {"places": "2-3", "goods": "Wurstpaket"},
    {"special": "best-game", "amount": "20.00"},
    {"special": "most-won", "goods": "Flasche Wein"},
    {"special": "last-place", "name": "Trostpreis", "goods": "Kartenspiel"},
    {"special": "director", "name": "Bester Neuling", "amount": "5"},
]


def test_prizes_from_the_config(tmp_path: Path) -> None:
    svc = service(tmp_path, NAMES, extra={"prizes": PRIZES})
    svc.draw_series()
    play(svc, 1)
    rows = svc.ranking()
    pool, shares = svc.prizes()
    assert pool == Decimal(70) and shares == [Decimal("35.00"), Decimal("21.00"),
                                              Decimal("14.00")]
    lines, specials = prize_list(svc)
    first = next(p for p in lines if p.place == 1)
    assert first.money == first.share + Decimal(50) and first.goods == ("Präsentkorb",)
    games = [g for g in svc.games() if g.won]
    best = max(g.value for g in games)
    best_by = {g.players[g.declarer] for g in games if g.value == best}
    by_kind = {s.prize.kind: s for s in specials}
    assert {pid for pid, _ in by_kind["best-game"].winners} == best_by
    assert by_kind["best-game"].each == (Decimal(20) / len(best_by)).quantize(Decimal("0.01"))
    assert f"+{best}" in by_kind["best-game"].detail
    most = max(r.won for r in rows)
    assert {pid for pid, _ in by_kind["most-won"].winners} == {r.player for r in rows
                                                              if r.won == most}
    assert {pid for pid, _ in by_kind["last-place"].winners} == {
        r.player for r in rows if r.place == rows[-1].place}
    assert by_kind["director"].winners == ()
    # the director awards the hand-given prize, to a player taking part only
    give_award(svc, "Bester Neuling", "p4", "director", "first evening")
    s = {s.prize.kind: s for s in prize_list(svc)[1]}["director"]
    assert s.winners == (("p4", "Ben Ohde"),) and s.detail == "first evening"
    svc.register("late", "Spät Dran")
    with pytest.raises(ValueError, match="does not take part"):
        give_award(svc, "Bester Neuling", "late", "director")
    with pytest.raises(ValueError, match="no special prize 'Bestes Spiel des Abends' to award"):
        give_award(svc, "Bestes Spiel des Abends", "p4", "director")
    text = " ".join(pdftext(ranking_pdf(svc), tmp_path).split())
    assert "Preisliste" in text and "Präsentkorb" in text and "Bester Neuling: Ben Ohde" in text


def test_place_prizes_shared_by_equal_totals() -> None:
    rules = parse_prizes([{"places": "1", "amount": "100"},
                          {"places": 2, "amount": "60", "goods": "Präsentkorb"},
                          {"places": "3", "amount": "40", "goods": "Wurstpaket"}])
    rows = [Row(p, f"p{i}", f"P{i}", "", (), 0, 0, 0, 0, 0, 0, Decimal(0), Decimal(share))
            for i, (p, share) in enumerate([(1, "30"), (2, "15.00"), (2, "15.00"), (4, "0")])]
    lines = place_lines(rows, rules)
    got = [(p.place, p.player, p.fixed, p.money, p.goods, p.shared) for p in lines]
    assert got == [(1, "p0", Decimal(100), Decimal(130), (), 1),
                   (2, "p1", Decimal("50.00"), Decimal("65.00"),
                    ("Präsentkorb", "Wurstpaket"), 2),
                   (2, "p2", Decimal("50.00"), Decimal("65.00"),
                    ("Präsentkorb", "Wurstpaket"), 2)]
    assert PrizeRules().for_place(1) is None


@pytest.mark.parametrize("prizes,message", [
    ([{"places": "1-3", "amount": "1"}, {"places": "3", "goods": "x"}],
     "[[prizes]] 2: places 3-3 overlap places 1-3 of an earlier entry"),
    ([{"special": "best-lady", "amount": "1"}], "special 'best-lady' is unknown"),
    ([{"places": "0", "amount": "1"}], "from place 1 on"),
    ([{"places": "erster", "amount": "1"}], "a place (\"1\") or a range (\"4-10\")"),
    ([{"places": "1", "amount": "-5"}], "amount '-5' must be zero or more"),
    ([{"places": "1"}], "gives nothing: say amount or goods"),
    ([{"places": "1", "special": "best-game", "amount": "1"}], "say either places"),
    ([{"places": "1", "amount": "1", "prize": "x"}], "unknown key 'prize'"),
    ({"places": "1"}, "must be a list of tables"),
])
def test_a_wrong_prize_entry_names_it(tmp_path: Path, prizes: Any, message: str) -> None:
    with pytest.raises(ClubConfigError) as err:
        service(tmp_path, [], extra={"prizes": prizes})
    assert message in str(err.value)


# --- the member registry and the season -------------------------------------------------------


def _evening(tmp: Path, tid: str, players: list[tuple[str, str, str | None]], registry: Path,
             seed: int) -> ClubService:
    svc = service(tmp, players, tid=tid, registry=registry, games_four=8, games_three=6,
                  series=2, seed=str(seed))
    return svc


def test_two_evenings_make_the_season_ranking(tmp_path: Path) -> None:
    reg_path = tmp_path / "members.db"
    one = _evening(tmp_path, "herbst", NAMES, reg_path, 1)
    # the second evening: other ids, a name typed with other spaces and case, the tag found
    # under another name, a new player, one of the first evening absent
    two_players = [("17", "anna  LEHMANN", None), ("18", "W. Hartmann-Schüler", "04a1b2"),
                   ("19", "Jürgen Weiß", None), ("20", "Ben Ohde", None),
                   ("21", "Carla Dietz", None), ("22", "Doris Kühn", None),
                   ("23", "Neu Ling", "99ffee")]
    two = _evening(tmp_path, "winter", two_players, reg_path, 2)
    registry = Registry(reg_path)
    with pytest.raises(RegistryError, match="no series has been drawn"):
        import_evening(one, registry)
    for svc, seed in ((one, 3), (two, 4)):
        for series in (1, 2):
            svc.draw_series("draw")
            play(svc, series, seed=seed + series)
            if series == 1:
                with pytest.raises(RegistryError, match="series 1 is still running"):
                    import_evening(svc, registry)
            svc.set_series_state(series, "closed")
    assert import_evening(one, registry, "2026").endswith(
        "imported into season 2026: 7 players, 7 new members")
    # the command imports the second evening (a real process, as the director runs it)
    cfg = tmp_path / "winter.toml"
    cfg.write_text(f'[club]\nid = "skc"\ndatabase = "{two.config.database}"\n'
                   f'registry = "{reg_path}"\n[tournament]\nid = "winter"\nseries = 2\n'
                   'games_four = 8\ngames_three = 6\n', encoding="utf-8")
    out = subprocess.run([sys.executable, "-m", "firmware_host", "club", "season", "import",
                          "--config", str(cfg), "--season", "2026"], cwd=ROOT,
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert "imported into season 2026: 7 players, 1 new members" in out.stdout
    # the season equals the sums of the two evenings, member by member
    first = {r.name: r for r in one.ranking()}
    second = {r.name: r for r in two.ranking()}
    same = {"anna  LEHMANN": "Anna Lehmann", "W. Hartmann-Schüler": "Wolfgang Hartmann-Schüler"}
    want: dict[str, list[int]] = {name: [r.total] for name, r in first.items()}
    for name, r in second.items():
        want.setdefault(same.get(name, name), []).append(r.total)
    season = season_ranking(registry, "2026")
    assert {r.name: r.total for r in season} == {n: sum(v) for n, v in want.items()}
    assert {r.name: r.evenings for r in season} == {n: len(v) for n, v in want.items()}
    assert len(registry.members()) == 8
    for r in season:
        assert r.series == 2 * r.evenings     # everybody sat in both series of his evenings
        assert r.average == r.total / r.series
        assert sum(r.by_evening.values()) == r.total
    totals = [r.total for r in season]
    assert totals == sorted(totals, reverse=True) and season[0].place == 1
    # a tagged member keeps his first name; importing again replaces, never adds
    assert registry.find("", tag="04a1b2").name == "Wolfgang Hartmann-Schüler"
    assert "imported again" in import_evening(one, registry, "2026")
    assert [(r.name, r.total) for r in season_ranking(registry, "2026")] == \
        [(r.name, r.total) for r in season]
    # the ranking command prints it
    out = subprocess.run([sys.executable, "-m", "firmware_host", "club", "season", "ranking",
                          "--config", str(cfg)], cwd=ROOT, capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0 and "Season 2026: 2 evenings" in out.stdout
    assert f"{season[0].name[:32]:<32}" in out.stdout


def test_a_name_shared_by_two_members_needs_a_tag_or_a_link(tmp_path: Path) -> None:
    reg_path = tmp_path / "members.db"
    registry = Registry(reg_path)
    a = registry.add_member("Hans Müller", "SC Kreuz")
    b = registry.add_member("Hans Müller", "SC Kreuz")
    players = [("h", "Hans Müller", None), *NAMES[:5]]
    svc = service(tmp_path, players, registry=reg_path, games_four=4, games_three=3,
                  series=1)
    svc.draw_series()
    play(svc, 1)
    svc.set_series_state(1, "closed")
    with pytest.raises(RegistryError, match=r"2 members are called 'Hans Müller' \(member ids "
                                            rf"{a.id}, {b.id}\)"):
        import_evening(svc, registry, "2026")
    assert registry.evenings() == []             # nothing half-imported
    import_evening(svc, registry, "2026", links={"h": b.id})
    season = {r.member: r for r in season_ranking(registry, "2026")}
    assert b.id in season and a.id not in season
    evening, results = evening_of(svc)
    assert evening.series == 1 and len(results) == 6
    # the next evening's players from 'season members' (ids m<number>) are found by their id
    again = service(tmp_path, [(f"m{b.id}", "Hans Müller", None), *NAMES[:5]], tid="winter",
                    registry=reg_path, games_four=4, games_three=3, series=1)
    again.draw_series()
    play(again, 1)
    again.set_series_state(1, "closed")
    import_evening(again, registry, "2026")
    assert {r.member: r.evenings for r in season_ranking(registry, "2026")}[b.id] == 2

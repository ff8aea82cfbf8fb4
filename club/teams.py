"""Teams (Mannschaften): players of the evening grouped in teams, and the team ranking.

A team is a name given to players (the ``team`` column of the players CSV, optional, or the
director's form on ``/teams``). Its result is the sum of its members' Seeger-Fabian totals,
as in the DSkV's team competitions, where a team is four players: ``[teams] size`` (default
4) members count. When more members take part, the best ``size`` of them count (the others
are listed, not counted); a team with fewer members taking part than ``size`` is not ranked
but listed apart as incomplete, with what its members have. Equal team totals share a place.
Only players who take part in the evening (seated in a series) count for their team.

>>> parse_teams({"size": 3})
TeamRule(size=3)
>>> parse_teams({"size": 0})
Traceback (most recent call last):
...
ValueError: [teams] size: expected a whole number 1..20, not 0
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

MAX_TEAM_NAME = 60


@dataclass(frozen=True)
class TeamRule:
    """``[teams]`` of the config: how many members of a team count."""

    size: int = 4


def parse_teams(d: dict[str, Any]) -> TeamRule:
    size = d.get("size", 4)
    if isinstance(size, bool) or not isinstance(size, int) or not 1 <= size <= 20:
        raise ValueError(f"[teams] size: expected a whole number 1..20, not {size!r}")
    unknown = sorted(set(d) - {"size"})
    if unknown:
        raise ValueError(f"[teams] {unknown[0]}: unknown key; [teams] knows size")
    return TeamRule(size)


def check_team_name(name: str) -> str:
    """A team name as typed, trimmed; too long raises ``ValueError`` in the user's words."""
    name = " ".join(name.split())
    if len(name) > MAX_TEAM_NAME:
        raise ValueError(f"team name {name[:20]!r}... is longer than {MAX_TEAM_NAME} "
                         "characters")
    return name


def teams_from_csv(text: str) -> tuple[dict[str, str], list[str]]:
    """The ``team`` column of a players CSV (header ``id,...,team``; ``,`` or ``;``): player
    id -> team for the rows that name one, and one message per bad row. No such column: none.

    >>> teams_from_csv("id;name;team\\n1;Anna;Kreuz Bube\\n2;Ben;\\n")
    ({'1': 'Kreuz Bube'}, [])
    >>> teams_from_csv("id,name\\n1,Anna\\n")
    ({}, [])
    """
    lines = text.splitlines()
    try:
        dialect = csv.Sniffer().sniff(lines[0] if lines else ",", delimiters=",;\t")
    except csv.Error:
        dialect = csv.excel
    reader = csv.DictReader(io.StringIO(text), dialect=dialect)
    fields = [f.strip().lower() for f in reader.fieldnames or []]
    if "team" not in fields or "id" not in fields:
        return {}, []
    reader.fieldnames = fields
    out, errors = {}, []
    for line, rec in enumerate(reader, start=2):
        pid = (rec.get("id") or "").strip()
        try:
            team = check_team_name(rec.get("team") or "")
        except ValueError as exc:
            errors.append(f"line {line}: {exc}")
            continue
        if pid and team:
            out[pid] = team
    return out, errors


def import_teams(store: Any, text: str, imported: set[str]) -> list[str]:
    """Put the players just imported from a players CSV in the teams its ``team`` column
    names; returns one message per bad row (nothing else is refused for it)."""
    found, errors = teams_from_csv(text)
    store.set_teams({pid: team for pid, team in found.items() if pid in imported})
    return errors


@dataclass(frozen=True)
class Member:
    player: str
    name: str
    total: int
    series: tuple[int, ...]
    counted: bool


@dataclass(frozen=True)
class TeamRow:
    """One team: its place (0 when not ranked), its total and per-series sums over the members
    who count, every member taking part, and the registered members who do not."""

    place: int
    team: str
    total: int
    series: tuple[int, ...]
    members: tuple[Member, ...]
    absent: tuple[str, ...] = ()

    @property
    def counted(self) -> int:
        return sum(m.counted for m in self.members)


def team_ranking(rows: Iterable[Any], teams: dict[str, str], names: dict[str, str],
                 size: int, series: int) -> tuple[list[TeamRow], list[TeamRow]]:
    """(ranked teams best first, incomplete teams by name) from the player ranking ``rows``
    (players taking part), ``teams`` (player id -> team) and ``names`` (id -> name)."""
    by_player = {r.player: r for r in rows}
    groups: dict[str, list[str]] = {}
    for pid, team in teams.items():
        groups.setdefault(team, []).append(pid)
    full, short = [], []
    for team, pids in groups.items():
        playing = sorted((by_player[p] for p in pids if p in by_player),
                         key=lambda r: (-r.total, r.name.casefold(), r.player))
        members = tuple(Member(r.player, r.name, r.total, tuple(r.series), i < size)
                        for i, r in enumerate(playing))
        absent = tuple(sorted(names.get(p, p) for p in pids if p not in by_player))
        counted = [m for m in members if m.counted]
        sums = tuple(sum(m.series[s] for m in counted) for s in range(series))
        row = TeamRow(0, team, sum(m.total for m in counted), sums, members, absent)
        (full if len(members) >= size else short).append(row)
    full.sort(key=lambda t: (-t.total, t.team.casefold()))
    ranked, place, prev = [], 0, None
    for i, t in enumerate(full):
        if t.total != prev:
            place, prev = i + 1, t.total
        ranked.append(TeamRow(place, t.team, t.total, t.series, t.members, t.absent))
    short.sort(key=lambda t: t.team.casefold())
    return ranked, short


def service_team_ranking(service: Any) -> tuple[list[TeamRow], list[TeamRow]]:
    """The team ranking of the evening the service runs."""
    names = {pid: v[0] for pid, v in service.players().items()}
    cfg = service.config
    return team_ranking(service.ranking(), service.store.teams(), names, cfg.teams.size,
                        cfg.tournament.series)


def teams_csv(service: Any) -> str:
    """The team ranking as CSV: one line per team member, the team's place and total on
    each (a spreadsheet sorts and sums it either way)."""
    ranked, short = service_team_ranking(service)
    n = service.config.tournament.series
    out = io.StringIO()
    w = csv.writer(out)
    w.writerow(["place", "team", "team_total", *[f"team_series_{s}" for s in range(1, n + 1)],
                "member_id", "member", "member_total", "counted"])
    for t in [*ranked, *short]:
        for m in t.members or (Member("", "", 0, (), False),):
            w.writerow([t.place or "", safe_cell(t.team), t.total, *t.series, m.player,
                        safe_cell(m.name), m.total if m.player else "",
                        int(m.counted) if m.player else ""])
    return out.getvalue()


def safe_cell(text: str) -> str:
    """A text cell a spreadsheet will not run as a formula (OWASP: a leading quote).

    >>> safe_cell("=HYPERLINK(1)"), safe_cell("Kreuz Bube")
    ("'=HYPERLINK(1)", 'Kreuz Bube')
    """
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


def pdf_section(pdf: Any, service: Any, new_page: bool = True) -> bool:
    """The team ranking as a section of a PDF (the ranking PDF, or its own); False when no
    player belongs to a team."""
    from fpdf.enums import XPos, YPos

    ranked, short = service_team_ranking(service)
    if not ranked and not short:
        return False
    _ = pdf.tr
    size = service.config.teams.size
    n = service.config.tournament.series
    if new_page:
        pdf.add_page()
    pdf.font(14, True)
    pdf.cell(0, 9, pdf.text_(_("Team ranking")), new_x=XPos.LMARGIN, new_y=YPos.NEXT)
    pdf.font(9)
    pdf.multi_cell(0, 5, pdf.text_(
        _("The Seeger-Fabian totals of the %(size)s best members of each team.")
        % {"size": size}), new_x=XPos.LMARGIN, new_y=YPos.NEXT)
    pdf.ln(1)
    cols = [(_("Place"), 12, "R"), (_("Team"), 52, "L")]
    cols += [(_("S%(series)s") % {"series": s}, 14, "R") for s in range(1, n + 1)]
    cols += [(_("Total"), 18, "R")]
    pdf.set_fill_color(230, 238, 234)
    # the column heads and the team's name set whole, as the ranking's
    pdf.row(cols, bold=True, fill=True, names=tuple(range(len(cols))))
    not_counted = " (" + _("not counted") + ")"
    for t in ranked:
        vals = [f"{t.place}.", t.team, *t.series, t.total]
        pdf.row([(v, w, a) for v, (_c, w, a) in zip(vals, cols, strict=True)], bold=True,
                names=(1,))
        members = ", ".join(f"{m.name} {m.total}" + ("" if m.counted else not_counted)
                            for m in t.members)
        pdf.font(8)
        pdf.multi_cell(0, 4.5, pdf.text_("    " + members), new_x=XPos.LMARGIN,
                       new_y=YPos.NEXT)
    if short:
        pdf.ln(2)
        pdf.font(9)
        pdf.multi_cell(0, 5, pdf.text_(
            _("Not ranked, fewer than %(size)s members playing:") % {"size": size} + " "
            + "; ".join(
                f"{t.team} ({', '.join(m.name for m in t.members) or '-'})" for t in short)),
            new_x=XPos.LMARGIN, new_y=YPos.NEXT)
    return True

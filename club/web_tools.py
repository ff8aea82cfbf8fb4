"""The pages of the director's tools beyond the evening's ranking: blank Spiellisten to print,
the team ranking, the prize list and the season ranking of the member registry.

:func:`tool_routes` gives their routes to :func:`club.web.create_app`. A form that is refused
comes back as the page with the reason (no free text travels in a URL).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import PlainTextResponse, RedirectResponse, Response
from starlette.routing import Route

from club import prizes as prize_tools
from club import teams as team_tools
from club.blanks import blank_lists, blanks_pdf
from club.forms import _csrf_failed, _csrf_ok, _download
from club.i18n import translator


def tool_routes(service: Any, page: Callable[..., Response], env: Any) -> list[Route]:
    """The routes; ``page`` renders a template as :func:`club.web.create_app` does."""
    cfg = service.config
    _ = translator(cfg.language)

    def nav() -> list[tuple[str, str]]:
        out = []
        if service.store.teams():
            out.append(("/teams", _("Teams")))
        if cfg.prize_rules.places or cfg.prize_rules.specials:
            out.append(("/prizes", _("Prizes")))
        if cfg.registry is not None:
            out.append(("/season", _("Season")))
        return out

    env.globals.update(tool_nav=nav, prize_list=lambda: prize_tools.prize_list(service))
    env.filters.setdefault("money", lambda d: f"{d:,.2f}")

    async def blank(request: Request) -> Response:
        series = int(request.path_params["series"])
        table = request.path_params.get("table")
        lists = blank_lists(service, series, table)
        if not lists:
            return PlainTextResponse(
                _("series %(series)s has no table %(table)s") % {"series": series,
                                                                 "table": table}
                if table else
                _("series %(series)s has not been drawn") % {"series": series}, 404)
        name = f"blank-s{series}" + (f"-t{table}" if table else "") + ".pdf"
        return _download(blanks_pdf(service, lists), "application/pdf", name)

    # --- teams -------------------------------------------------------------------------------

    def teams_page(request: Request, status: int = 200, error: str = "", info: str = "",
                   text: str = "") -> Response:
        ranked, short = team_tools.service_team_ranking(service)
        return page(request, "teams.html", status, ranked=ranked, short=short,
                    size=cfg.teams.size, live=True, error=error, info=info, text=text)

    async def teams(request: Request) -> Response:
        return teams_page(request)

    async def teams_post(request: Request) -> Response:
        if not request.session.get("director"):
            return RedirectResponse("/director/login", 303)
        form = await request.form()
        if not _csrf_ok(request, form):
            return _csrf_failed(page, request, _)
        text = str(form.get("csv", ""))
        found, errors = team_tools.teams_from_csv(text)
        if not found and not errors and "team" not in text.split("\n", 1)[0].lower():
            errors = [_("the first line must name the columns id and team")]
        known = service.players()
        errors += [_("no player has the id %(id)s") % {"id": repr(pid)}
                   for pid in found if pid not in known]
        # an empty team on a line takes the player out of his team
        cleared = _cleared(text)
        if errors:
            return teams_page(request, 400, error=_("Nothing changed:") + " " + "; ".join(
                _.message(e) for e in errors[:10]), text=text)
        service.store.set_teams({**{pid: "" for pid in cleared if pid in known}, **found})
        service.register_done()
        info = _.ngettext("%(num)s player put in a team.", "%(num)s players put in teams.",
                          len(found)) % {"num": len(found)}
        if cleared:
            info += " " + _.ngettext("%(num)s player taken out.", "%(num)s players taken out.",
                                     len(cleared)) % {"num": len(cleared)}
        return teams_page(request, info=info)

    async def teams_export(request: Request) -> Response:
        fmt = request.path_params["fmt"]
        if fmt == "csv":
            return _download(team_tools.teams_csv(service), "text/csv; charset=utf-8",
                             "teams.csv")
        if fmt != "pdf":
            return PlainTextResponse("no such list", 404)
        return section_pdf(team_tools.pdf_section, _("No player belongs to a team yet."),
                           "teams.pdf")

    def section_pdf(section: Any, empty: str, filename: str) -> Response:
        """A PDF of one of the ranking PDF's sections alone (``empty``: its one line when the
        section has nothing to print)."""
        from club.export import _Pdf

        t = cfg.tournament
        pdf = _Pdf(f"{cfg.club_name} · {t.name or t.id}", _)
        if not section(pdf, service):
            pdf.add_page()
            pdf.font(11)
            pdf.cell(0, 8, pdf.text_(empty))
        return _download(bytes(pdf.output()), "application/pdf", filename)

    # --- prizes ------------------------------------------------------------------------------

    def prizes_page(request: Request, status: int = 200, error: str = "",
                    info: str = "") -> Response:
        lines, specials = prize_tools.prize_list(service)
        pool, shares = service.prizes()
        return page(request, "prizes.html", status, lines=lines, specials=specials,
                    pool=pool, shares=shares, rows=service.ranking(), live=True,
                    error=error, info=info)

    async def prizes(request: Request) -> Response:
        return prizes_page(request)

    async def award(request: Request) -> Response:
        if not request.session.get("director"):
            return RedirectResponse("/director/login", 303)
        form = await request.form()
        if not _csrf_ok(request, form):
            return _csrf_failed(page, request, _)
        prize = str(form.get("prize", ""))
        try:
            prize_tools.award(service, prize, str(form.get("player", "")), "director",
                              str(form.get("reason", "")))
        except ValueError as exc:
            return prizes_page(request, 400, error=str(exc))
        return prizes_page(request, info=_("%(prize)s: saved.") % {"prize": prize})

    async def prizes_pdf(request: Request) -> Response:
        return section_pdf(prize_tools.pdf_section, _("No prizes are configured."),
                           "prizes.pdf")

    # --- the season --------------------------------------------------------------------------

    def season_page(request: Request, status: int = 200, error: str = "",
                    info: str = "") -> Response:
        from club.registry import Registry, RegistryError
        from club.season import season_ranking, unfinished

        if cfg.registry is None:
            return page(request, "message.html", 404, title=_("No season"),
                        text=_("This club keeps no member registry: the director sets "
                               "[club] registry in the config."))
        seasons, rows, evenings, chosen = [], [], [], ""
        if cfg.registry.exists():
            try:
                registry = Registry(cfg.registry)
            except RegistryError as exc:
                return page(request, "message.html", 500, title=_("No season"),
                            text=_.message(str(exc)))
            try:
                seasons = registry.seasons()
                want = request.query_params.get("season")
                chosen = want if want in seasons else (seasons[-1] if seasons else "")
                if chosen:
                    rows = season_ranking(registry, chosen)
                    evenings = registry.evenings(chosen)
            finally:
                registry.close()
        return page(request, "season.html", status, seasons=seasons, season=chosen, rows=rows,
                    evenings=evenings, error=error, info=info,
                    why_not=unfinished(service))

    async def season(request: Request) -> Response:
        return season_page(request)

    async def season_import(request: Request) -> Response:
        from club.registry import Registry, RegistryError
        from club.season import import_evening

        if not request.session.get("director"):
            return RedirectResponse("/director/login", 303)
        form = await request.form()
        if not _csrf_ok(request, form):
            return _csrf_failed(page, request, _)
        if cfg.registry is None:
            return season_page(request)
        name = " ".join(str(form.get("season", "")).split())[:40] or None
        registry = None
        try:
            registry = Registry(cfg.registry)
            info = import_evening(service, registry, name)
        except RegistryError as exc:
            return season_page(request, 400, error=str(exc))
        finally:
            if registry is not None:
                registry.close()
        return season_page(request, info=info)

    return [
        Route("/export/blank/{series:int}.pdf", blank),
        Route("/export/blank/{series:int}/{table}.pdf", blank),
        Route("/teams", teams),
        Route("/director/teams", teams_post, methods=["POST"]),
        Route("/export/teams.{fmt}", teams_export),
        Route("/prizes", prizes),
        Route("/director/award", award, methods=["POST"]),
        Route("/export/prizes.pdf", prizes_pdf),
        Route("/season", season),
        Route("/director/season-import", season_import, methods=["POST"]),
    ]


def _cleared(text: str) -> set[str]:
    """The ids of the lines of an ``id,team`` CSV whose team is empty."""
    import csv
    import io

    out = set()
    with contextlib.suppress(csv.Error):
        lines = text.splitlines()
        dialect = csv.Sniffer().sniff(lines[0], delimiters=",;\t") if lines else csv.excel
        reader = csv.DictReader(io.StringIO(text), dialect=dialect)
        reader.fieldnames = [f.strip().lower() for f in reader.fieldnames or []]
        for rec in reader:
            pid = (rec.get("id") or "").strip()
            if pid and not (rec.get("team") or "").strip():
                out.add(pid)
    return out

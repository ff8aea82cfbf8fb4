"""The pages: live ranking (and its projector mode), tables and their lists, players, the
director's pages (password, session cookie, CSRF token on every form) and the exports.

Every public page is read-only. Live updates: each page listens to ``/events`` (server-sent
events); on a change it fetches itself again with ``X-Fragment: 1`` and swaps the part that
changed, so what a browser shows is always what a reload would show.
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import json
import secrets
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, select_autoescape
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.middleware import Middleware
from starlette.middleware.sessions import SessionMiddleware
from starlette.requests import Request
from starlette.responses import (
    HTMLResponse,
    JSONResponse,
    PlainTextResponse,
    RedirectResponse,
    Response,
    StreamingResponse,
)
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from club import export
from club.config import hash_password
from club.confirmations import unconfirmed_games
from club.directors import DirectorError, Directors
from club.forms import _csrf, _csrf_failed, _csrf_ok, _download
from club.headers import SecurityHeaders
from club.i18n import N_, STATE_WORDS, translator
from club.logins import FREE_FAILURES, UNKNOWN, LoginGuard
from club.messages import PayloadError, game_message, parse_json
from club.scoring import PAPER_CONTRACTS, GameCheckError
from club.service import ClubService, PaperLine
from club.sessions import DirectorSessionCheck, DirectorSessions
from club.sheets import player_stats, table_sheet
from club.tablestatus import shown_state
from club.teams import import_teams
from club.tournament import TournamentError, parse_players_csv
from club.web_tools import tool_routes

HERE = Path(__file__).resolve().parent
SESSION_AGE = 12 * 3600      # the director's cookie and its session on record


class Hub:
    """Fans the service's change notices out to the open event streams, at most every
    ``interval`` seconds (a burst of games becomes one notice)."""

    def __init__(self, interval: float = 0.1) -> None:
        self.interval = interval
        self.version = 0
        self._sent = 0
        self._ids: list[str] = []
        self._queues: set[asyncio.Queue[dict[str, Any]]] = set()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._wake: asyncio.Event | None = None
        self._task: asyncio.Task[None] | None = None

    def notify(self, version: int, ids: list[str]) -> None:
        """Called from any thread (the MQTT thread, a request handler)."""
        loop = self._loop
        if loop is None:
            return
        loop.call_soon_threadsafe(self._note, version, ids)

    def _note(self, version: int, ids: list[str]) -> None:
        self.version = max(self.version, version)
        self._ids.extend(ids)
        if self._wake is not None:
            self._wake.set()

    async def start(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._wake = asyncio.Event()
        self._task = asyncio.create_task(self._run())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
        for q in list(self._queues):
            q.put_nowait({"bye": True})

    async def _run(self) -> None:
        assert self._wake is not None
        while True:
            await self._wake.wait()
            self._wake.clear()
            if self.version != self._sent:
                self._sent = self.version
                ids, self._ids = self._ids[-500:], []
                event = {"version": self.version, "ids": ids}
                for q in list(self._queues):
                    if q.full():
                        q.get_nowait()
                    q.put_nowait(event)
            await asyncio.sleep(self.interval)

    async def stream(self, request: Request) -> AsyncIterator[str]:
        q: asyncio.Queue[dict[str, Any]] = asyncio.Queue(maxsize=4)
        self._queues.add(q)
        try:
            yield f"retry: 2000\nevent: hello\ndata: {json.dumps({'version': self.version})}\n\n"
            while True:
                try:
                    event = await asyncio.wait_for(q.get(), timeout=15)
                except TimeoutError:
                    yield ": keep-alive\n\n"
                    continue
                if event.get("bye"):
                    return
                yield f"event: changed\ndata: {json.dumps(event)}\n\n"
        finally:
            self._queues.discard(q)


def create_app(service: ClubService, hub: Hub | None = None) -> Starlette:
    hub = hub or Hub()
    guard = LoginGuard(service.store)
    directors = Directors(service.store, service.config.director_name,
                          service.config.director_hash)
    sessions = DirectorSessions(service.store, SESSION_AGE)
    service.listeners.append(hub.notify)
    # the hub's version is the one a page was rendered with (live.js compares them)
    hub.version = hub._sent = service.version
    cfg = service.config
    # one language for every page: [club] language (docs/club.md "Language")
    _ = translator(cfg.language)
    env = Environment(loader=FileSystemLoader(HERE / "templates"),
                      autoescape=select_autoescape(["html"]), trim_blocks=True,
                      lstrip_blocks=True, extensions=["jinja2.ext.i18n"])
    env.install_gettext_translations(_, newstyle=True)  # type: ignore[attr-defined]
    env.globals.update(contract_text=_.contract, club_name=cfg.club_name,
                       tournament=cfg.tournament, lang=cfg.language, messages=_.message,
                       state_words={k: _(v) for k, v in STATE_WORDS.items()})
    kinds = {k: _(v) for k, v in CORRECTION_KINDS.items()}
    env.filters["money"] = lambda d: f"{d:,.2f}"
    env.filters["signed"] = lambda v: "" if v is None else f"{v:+d}"
    # a player id as the pages name them (names: id -> (name, club)); an unknown id as itself
    env.filters["player_name"] = lambda pid, names: names.get(pid, (pid, ""))[0]

    def director_name(request: Request) -> str | None:
        """The logged-in director (None: nobody, or a director removed since)."""
        name = request.session.get("director")
        if name is True:
            name = directors.first     # a session from before directors had names
        return name if isinstance(name, str) and directors.exists(name) else None

    def page(request: Request, template: str, status: int = 200, /, **ctx: Any
             ) -> HTMLResponse:
        session = request.session
        ctx.setdefault("director", director_name(request) is not None)
        ctx["csrf"] = _csrf(session)
        ctx["fragment"] = request.headers.get("x-fragment") == "1"
        ctx["current_series"] = service.current_series()
        ctx["page_version"] = service.version   # live.js: changed before it listened?
        ctx["rejected_count"] = service.store.rejected_count() if ctx["director"] else 0
        return HTMLResponse(env.get_template(template).render(**ctx), status_code=status)

    # --- public pages ------------------------------------------------------------------------

    fragments: dict[bool, tuple[int, str]] = {}
    row_html = RankingRows(_("No players registered yet."))

    async def ranking(request: Request) -> Response:
        projector = request.query_params.get("projector") == "1"
        version = service.version
        shared = request.headers.get("x-fragment") == "1" and director_name(request) is None
        if shared and fragments.get(projector, (-1, ""))[0] == version:
            # every spectator and the projector ask for the same fragment after a notice
            return HTMLResponse(fragments[projector][1])
        pool, prizes = service.prizes()
        rows = service.ranking()
        response = page(request, "ranking.html", rows=rows, projector=projector,
                        page_seconds=_page_seconds(request.query_params.get("seconds")),
                        live=True, pool=pool, prizes=prizes, version=version,
                        games=len(service.games()), not_ranked=service.not_ranked(),
                        entrants=len(service.participants()),
                        rows_html=row_html.render(rows, projector, bool(prizes)))
        if shared:
            fragments[projector] = (version, bytes(response.body).decode("utf-8"))
        return response

    async def tables(request: Request) -> Response:
        series = _int(request.query_params.get("series")) or service.current_series()
        rows = []
        statuses = service.store.statuses()
        names = service.players()
        if series is not None:
            newest = service.store.last_game_received(series)
            for table, pids in service.store.seating(series).items():
                games = [g for g in service.games(series=series, table=table)]
                st = statuses.get(table, {})
                rows.append(dict(table=table, players=[names.get(p, (p, ""))[0] for p in pids],
                                 games=len(games), due=cfg.tournament.games_for(len(pids)),
                                 held=len(service.held(series, table)),
                                 waiting=service.progress(series, table) + 1,
                                 last=games[-1] if games else None,
                                 state=shown_state(st, newest.get(table),
                                                   cfg.tournament.games_for(len(pids))),
                                 seen=st.get("received_at")))
        return page(request, "tables.html", rows=rows, series=series, live=True,
                    all_series=service.store.series())

    async def table_list(request: Request) -> Response:
        series = int(request.path_params["series"])
        sheet = table_sheet(service, series, request.path_params["table"])
        if sheet is None:
            return page(request, "message.html", 404, title=_("No such table"),
                        text=_("That table does not play in that series."))
        status = service.store.statuses().get(sheet.table, {})
        return page(request, "table.html", sheet=sheet, live=True, table_status=status,
                    confirmations=service.store.confirmations(series),
                    held=service.held(series, sheet.table),
                    held_waiting=service.progress(series, sheet.table) + 1)

    async def players(request: Request) -> Response:
        return page(request, "players.html", players=service.store.players())

    async def player(request: Request) -> Response:
        pid = request.path_params["pid"]
        names = service.players()
        if pid not in names:
            return page(request, "message.html", 404, title=_("No such player"),
                        text=_("No player has the id %(id)s.") % {"id": pid})
        games = service.games(player=pid)
        rank = next((r for r in service.ranking() if r.player == pid), None)
        return page(request, "player.html", pid=pid, name=names[pid][0], club=names[pid][1],
                    games=games, stats=player_stats(games, pid), rank=rank, live=True,
                    names=names)

    async def game(request: Request) -> Response:
        gid = request.path_params["gid"]
        g, state = service.game_state(gid)
        director = director_name(request) is not None
        if g is None and director:
            # a game that never arrived: the director may enter it (as from the paper list)
            with contextlib.suppress(TournamentError):
                g = service.blank_game(gid)
        if g is None:
            return page(request, "message.html", 404, title=_("No such game"),
                        text=_("No game %(id)s has arrived.") % {"id": gid})
        names = service.players()
        refused = [dict(r, summary=_summary(r["raw"], names, _))
                   for r in service.store.rejected(50, game_id=gid)]
        return page(request, "game.html", g=g, state=state, names=names,
                    confirmed_by=service.store.confirmations(game_id=gid).get(gid),
                    held_reason=service.held_reason(gid) if state == "held" else "",
                    revisions=service.store.revisions(gid),
                    corrections=service.store.corrections(gid), refused=refused,
                    kinds=kinds, paper_contracts=PAPER_CONTRACTS,
                    error=sessions.take_notes(request.session.get("sid")).get("error")
                    if director else None)

    async def events(request: Request) -> Response:
        return StreamingResponse(hub.stream(request), media_type="text/event-stream",
                                 headers={"Cache-Control": "no-cache",
                                          "X-Accel-Buffering": "no"})

    async def standings_json(request: Request) -> Response:
        return JSONResponse(service.standings_message())

    # --- exports -----------------------------------------------------------------------------

    async def ranking_csv(request: Request) -> Response:
        return _download(export.ranking_csv(service), "text/csv; charset=utf-8",
                         "ranking.csv")

    async def ranking_pdf(request: Request) -> Response:
        return _download(export.ranking_pdf(service), "application/pdf", "ranking.pdf")

    async def list_export(request: Request) -> Response:
        series = int(request.path_params["series"])
        table, fmt = request.path_params["table"], request.path_params["fmt"]
        sheet = table_sheet(service, series, table)
        if sheet is None or fmt not in ("pdf", "csv"):
            return PlainTextResponse("no such list", 404)
        name = f"list-s{series}-t{table}.{fmt}"
        if fmt == "pdf":
            return _download(export.sheet_pdf(service, sheet), "application/pdf", name)
        return _download(export.sheet_csv(sheet), "text/csv; charset=utf-8", name)

    async def games_iss(request: Request) -> Response:
        return _download(export.games_iss(service), "text/plain; charset=utf-8",
                         "games.iss")

    # --- the director ------------------------------------------------------------------------

    async def login(request: Request) -> Response:
        configured = cfg.director_hash is not None or len(directors.names()) > 1
        if request.method == "GET":
            return page(request, "login.html", configured=configured,
                        first=directors.first)
        form = await request.form()
        if not _csrf_ok(request, form):
            return _csrf_failed(page, request, _)
        address = request.client.host if request.client else "unknown"
        # no name typed: the first director, as before directors had names
        name = " ".join(str(form.get("name", "")).split())[:100] or directors.first
        stored = directors.hash_for(name)
        key = name if directors.exists(name) else UNKNOWN
        wait = guard.begin(address, key)
        if wait:
            return page(request, "login.html", 429, configured=configured,
                        first=directors.first, name=name,
                        error=_("Too many wrong passwords from this address: try again in "
                                "%(seconds)s s.") % {"seconds": wait})
        ok = False
        try:
            # scrypt takes tens of milliseconds of CPU: never on the event loop, which serves
            # every spectator's page
            ok = await run_in_threadpool(guard.check, stored, str(form.get("password", "")))
        finally:
            guard.finish(address, ok, key)
        if not ok:
            return page(request, "login.html", 401, configured=configured,
                        first=directors.first, name=name, error=_("Wrong password or name."))
        request.session.clear()
        request.session["director"] = name
        request.session["sid"] = sessions.start(address)
        request.session["csrf"] = secrets.token_urlsafe(24)
        return RedirectResponse("/director", 303)

    async def logout(request: Request) -> Response:
        form = await request.form()
        if _csrf_ok(request, form):
            sessions.end(request.session.get("sid"))   # a copy of the cookie dies with it
            request.session.clear()
        return RedirectResponse("/", 303)

    async def director(request: Request) -> Response:
        me = director_name(request)
        if me is None:
            return RedirectResponse("/director/login", 303)
        held = [(g, service.held_reason(g.game_id)) for g in service.held()]
        notes = sessions.take_notes(request.session.get("sid"))
        unconfirmed = unconfirmed_games(service)
        return page(request, "director.html", players=service.store.players(),
                    series=service.store.series(), rejected=service.store.rejected(100),
                    held=held, unconfirmed=unconfirmed, failed_logins=guard.recent_failures(),
                    free_failures=FREE_FAILURES, error=notes.get("error"),
                    info=notes.get("info"),
                    max_series=cfg.tournament.series, audit=service.store.audit(50),
                    me=me, directors=directors.listing(), first_director=directors.first,
                    redrawable=_redrawable(service))

    def paper_page(request: Request, series: int, table: str, status: int = 200,
                   error: str = "", form: Any = None) -> Response:
        pids = service.store.seating(series).get(table)
        if pids is None:
            return page(request, "message.html", 404, title=_("No such table"),
                        text=_("That table does not play in that series."))
        names = service.players()
        n = len(pids)
        lines = []
        for number in range(1, cfg.tournament.games_for(n) + 1):
            gid = f"{cfg.tournament.id}/{series}/{table}/{number}"
            g, state = service.game_state(gid)
            there = ""
            if g is not None:
                how = _("from the paper list") if g.source == "paper" else (
                    _("corrected") if service.is_corrected(gid) else _("from the table"))
                there = (f"{_(state)}, {how}: "
                         + (_("passed in") if g.declarer is None else
                            f"{names.get(g.players[g.declarer], ('', ''))[0]} "
                            f"{_.contract(g.contract, g.passed_in)} {g.value:+d}"))
            lines.append(dict(game=number, game_id=gid, dealer=(number - 1) % n, there=there))
        return page(request, "paper.html", status, series=series, table=table, lines=lines,
                    players=[(p, names.get(p, (p, ""))[0]) for p in pids],
                    paper_contracts=PAPER_CONTRACTS, error=error, form=form or {})

    async def paper_list(request: Request) -> Response:
        if director_name(request) is None:
            return RedirectResponse("/director/login", 303)
        return paper_page(request, int(request.path_params["series"]),
                          request.path_params["table"], error=sessions.take_notes(
                              request.session.get("sid")).get("error", ""))

    async def director_post(request: Request) -> Response:
        who = director_name(request)
        if who is None:
            return RedirectResponse("/director/login", 303)
        form = await request.form()
        if not _csrf_ok(request, form):
            return _csrf_failed(page, request, _)
        action = request.path_params["action"]
        back = "/director"
        info = ""
        try:
            if action in ("add-director", "director-password"):
                password = str(form.get("password", ""))
                name = Directors.check_new(
                    str(form.get("name", "")) if action == "add-director" else who, password)
                if action == "add-director" and directors.exists(name):
                    raise DirectorError(f"there is a director named {name} already")
                # scrypt: in a worker thread, as at the login
                hashed = await run_in_threadpool(hash_password, password)
                if action == "add-director":
                    directors.add(name, hashed, who)
                    info = _("%(name)s can log in as a director now.") % {"name": name}
                else:
                    directors.set_password(who, hashed)
                    info = _("Your password is changed.")
            elif action == "remove-director":
                name = str(form.get("name", ""))
                directors.remove(name, who)
                info = _("%(name)s is no director any more.") % {"name": name}
            elif action == "player":
                pid = str(form.get("id", "")).strip()
                service.register(pid, str(form.get("name", "")),
                                 str(form.get("club", "")), str(form.get("tag", "")) or None)
                service.store.add_audit(who, "player", f"registered {pid}")
                info = _("Player registered.")
            elif action == "import":
                rows, errors = parse_players_csv(str(form.get("csv", "")))
                service.store.add_players([(r.id, r.name, r.club, r.tag) for r in rows])
                errors += import_teams(service.store, str(form.get("csv", "")),
                                       {r.id for r in rows})
                service.store.add_audit(who, "player", f"imported {len(rows)} players")
                service.register_done()
                info = _.ngettext("%(num)s player imported.", "%(num)s players imported.",
                                  len(rows)) % {"num": len(rows)} + (
                    " " + _("Refused:") + " " + "; ".join(_.message(e) for e in errors)
                    if errors else "")
            elif action == "present":
                pid, here = str(form.get("id")), form.get("present") == "1"
                service.store.set_present(pid, here)
                service.store.add_audit(who, "player",
                                        f"{pid} marked {'present' if here else 'absent'}")
                service.register_done()
            elif action == "draw":
                method = str(form.get("method", "")) or None
                n = service.draw_series(method, who)
                info = _("Series %(series)s is seated.") % {"series": n}
            elif action == "redraw":
                number = _int(str(form.get("series", ""))) or 0
                empty = service.redraw_series(number, who, str(form.get("reason", "")))
                info = _("Series %(series)s is seated again.") % {"series": number} + (
                    " " + _("Table %(tables)s has no players now: tell them (the old seating "
                            "stays on its screen).") % {"tables": ", ".join(empty)}
                    if empty else "")
            elif action in ("close", "reopen"):
                number = int(str(form.get("series", "0")))
                outcomes = service.set_series_state(
                    number, "closed" if action == "close" else "running", who)
                if action == "reopen":
                    counted = sum(o.kind in ("counted", "held") for o in outcomes)
                    info = _("Series %(series)s is running again: %(checked)s games refused "
                             "while it was closed were checked again, %(counted)s of them "
                             "counted or held.") % {"series": number,
                                                     "checked": len(outcomes),
                                                     "counted": counted}
            elif action == "choose":
                gid = str(form.get("game_id", ""))
                back = f"/games/{gid}"
                rev, seq = _int(str(form.get("revision", ""))), _int(str(form.get("refused", "")))
                # its own field name: the game page has a choice form per version beside the
                # correction form, each with a reason
                service.choose(gid, who, str(form.get("choice_reason", "")),
                               revision=rev, refused=seq)
            elif action == "paper":
                series = int(str(form.get("series", "0")))
                table = str(form.get("table", ""))
                try:
                    lines, sums = _paper_lines(form, cfg.tournament.games_for(
                        len(service.store.seating(series).get(table, []))))
                    ids = service.enter_paper(series, table, lines, who,
                                              str(form.get("reason", "")), sums)
                except (TournamentError, GameCheckError, ValueError) as exc:
                    # the form again with what was typed: a list is long to type twice
                    return paper_page(request, series, table, 400, str(exc), form)
                back = f"/tables/{series}/{table}"
                info = _.ngettext("%(num)s game entered from the paper list.",
                                  "%(num)s games entered from the paper list.",
                                  len(ids)) % {"num": len(ids)}
            elif action == "correct":
                gid = str(form.get("game_id", ""))
                back = f"/games/{gid}"
                kind = str(form.get("kind", "correct"))
                declarer_text = str(form.get("declarer", ""))
                declarer = None if declarer_text in ("", "none") else int(declarer_text)
                service.correct(
                    gid, who, str(form.get("reason", "")),
                    declarer=declarer, won=str(form.get("won")) == "1",
                    value=_value(str(form.get("value", ""))),
                    annul=kind == "annul", restore=kind == "restore",
                    contract=_contract(str(form.get("contract", ""))))
                info = _("Correction saved.")
            else:
                return PlainTextResponse("unknown action", 404)
        except (TournamentError, GameCheckError, DirectorError, ValueError) as exc:
            # kept for the next page of this session: never text in the address, which
            # anyone could put in a link
            sessions.note(request.session.get("sid"), "error", str(exc))
            return RedirectResponse(back, 303)
        if info and back == "/director":
            sessions.note(request.session.get("sid"), "info", info)
        return RedirectResponse(back, 303)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await hub.start()
        try:
            yield
        finally:
            await hub.stop()

    routes = [
        # the director's tools: blank lists, teams, prizes, season (club/web_tools.py)
        *tool_routes(service, page, env),
        Route("/", ranking),
        Route("/tables", tables),
        Route("/tables/{series:int}/{table}", table_list),
        Route("/players", players),
        Route("/players/{pid}", player),
        Route("/games/{gid:path}", game),
        Route("/events", events),
        Route("/api/standings", standings_json),
        Route("/export/ranking.csv", ranking_csv),
        Route("/export/ranking.pdf", ranking_pdf),
        Route("/export/list/{series:int}/{table}.{fmt}", list_export),
        Route("/export/games.iss", games_iss),
        Route("/director/login", login, methods=["GET", "POST"]),
        Route("/director/logout", logout, methods=["POST"]),
        Route("/director", director),
        Route("/director/list/{series:int}/{table}", paper_list),
        Route("/director/{action}", director_post, methods=["POST"]),
        Mount("/static", StaticFiles(directory=HERE / "static"), name="static"),
    ]
    middleware = [Middleware(SecurityHeaders),
                  Middleware(SessionMiddleware, secret_key=service.secret,
                             session_cookie="skat_club", max_age=SESSION_AGE,
                             same_site="strict", https_only=cfg.web.secure_cookies),
                  Middleware(DirectorSessionCheck, sessions=sessions)]
    return Starlette(routes=routes, middleware=middleware, lifespan=lifespan)


class RankingRows:
    """The ranking's table rows as HTML, each row built once and kept while it is unchanged
    (a game changes a few players' sums; a large field re-renders only what moved)."""

    def __init__(self, empty: str = "No players registered yet.") -> None:
        self._cache: dict[tuple[Any, bool, bool], str] = {}
        self.empty = empty

    def render(self, rows: list[Any], projector: bool, prizes: bool) -> str:
        if not rows:
            return f'<tr><td colspan="9">{html.escape(self.empty)}</td></tr>'
        cache, fresh = self._cache, {}
        out = []
        for r in rows:
            key = (r, projector, prizes)
            text = cache.get(key)
            if text is None:
                text = self._row(r, projector, prizes)
            fresh[key] = text
            out.append(text)
        self._cache = fresh
        return "\n".join(out)

    @staticmethod
    def _row(r: Any, projector: bool, prizes: bool) -> str:
        e = html.escape
        cells = [f'<tr data-player="{e(r.player)}"><td class="num">{r.place}.</td>',
                 f'<td><a href="/players/{e(r.player)}">{e(r.name)}</a></td>']
        # "opt": a column a phone leaves out (club.css), the place, name and total stay
        if not projector:
            cells.append(f'<td class="opt">{e(r.club)}</td>')
        cells += [f'<td class="num opt">{v}</td>' for v in r.series]
        cells.append(f'<td class="num total">{r.total}</td><td class="num opt">{r.won}</td>'
                     f'<td class="num opt">{r.lost}</td>')
        if not projector:
            cells.append(f'<td class="num opt">{r.abreizgeld:,.2f}</td>')
            if prizes:
                cells.append(f'<td class="num">{f"{r.prize:,.2f}" if r.prize else ""}</td>')
        return "".join(cells) + "</tr>"


CORRECTION_KINDS = {"correct": N_("corrected"), "annul": N_("annulled"),
                    "restore": N_("table's result restored"), "choose": N_("version chosen"),
                    "paper": N_("entered from the paper list")}


def _summary(raw: bytes, names: dict[str, tuple[str, str]], _: Any) -> str:
    """A refused game message's own result in a few words (nothing, if it has none)."""
    try:
        m = game_message(parse_json(raw))
    except PayloadError:
        return ""
    r = m.result
    if r.passed_in or r.declarer is None:
        return str(_("passed in"))
    pid = m.players[r.declarer] if r.declarer < len(m.players) else "?"
    return f"{names.get(pid, (pid, ''))[0]}: {_.contract(r.contract, False)} {r.value:+d}"


def _redrawable(service: ClubService) -> int | None:
    """The series the director may draw again: the last one, running, no game in."""
    series = service.store.series()
    if not series or series[-1]["state"] != "running":
        return None
    number = int(series[-1]["number"])
    return None if service.started_tables(number) else number


def _value(text: str) -> int:
    """A value as written on a list: ``+24``, ``-96`` (a typographic minus too), empty 0."""
    text = text.strip().replace("\u2212", "-").replace(" ", "")
    if not text:
        return 0
    try:
        return int(text)
    except ValueError:
        raise ValueError(f"{text[:20]!r} is not a value as on the list (+24, -96)") from None


def _contract(text: str) -> str | None:
    if not text:
        return None
    if text not in PAPER_CONTRACTS:
        raise ValueError(f"unknown game {text[:10]!r}")
    return text


def _paper_lines(form: Any, due: int) -> tuple[list[PaperLine], list[int | None] | None]:
    """The filled lines of the paper-list form and the sums at its foot."""
    lines = []
    for n in range(1, due + 1):
        declarer = str(form.get(f"declarer_{n}", "")).strip()
        value = str(form.get(f"value_{n}", "")).strip()
        if not declarer:
            if value:
                raise ValueError(f"game {n}: a value without a declarer: pick the declarer, "
                                 "or nobody for a passed-in game")
            continue
        seat = None if declarer == "none" else int(declarer)
        contract = _contract(str(form.get(f"contract_{n}", ""))) if seat is not None else None
        try:
            lines.append(PaperLine(n, seat, _value(value), contract))
        except ValueError as exc:
            raise ValueError(f"game {n}: {exc}") from None
    sums = []
    for seat in range(4):
        text = str(form.get(f"sf_{seat}", "")).strip()
        try:
            sums.append(_value(text) if text else None)
        except ValueError as exc:
            raise ValueError(f"the Seeger-Fabian sum: {exc}") from None
    return lines, sums if any(v is not None for v in sums) else None


def _page_seconds(text: str | None) -> int:
    """How long the projector shows each page (``?seconds=``): 10 unless told, 2 to 600."""
    seconds = _int(text)
    return 10 if seconds is None else max(2, min(600, seconds))


def _int(text: str | None) -> int | None:
    try:
        return int(text) if text else None
    except ValueError:
        return None

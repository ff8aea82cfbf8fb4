"""What every page with a form shares: the CSRF token of a session, its check, the page that
refuses a form sent without it, and a file to download.

Both :mod:`club.web` and the tools' pages (:mod:`club.web_tools`) use them; kept here so that
neither imports the other.
"""

from __future__ import annotations

import hmac
import secrets
from typing import Any

from starlette.requests import Request
from starlette.responses import Response


def _csrf(session: Any) -> str:
    token = session.get("csrf")
    if not token:
        token = secrets.token_urlsafe(24)
        session["csrf"] = token
    return str(token)


def _csrf_ok(request: Request, form: Any) -> bool:
    want = request.session.get("csrf")
    got = form.get("csrf")
    return bool(want) and isinstance(got, str) and hmac.compare_digest(want, got)


def _csrf_failed(page: Any, request: Request, _: Any) -> Response:
    """The out-of-date page (403), in the club's language (``_``: its translator)."""
    return page(request, "message.html", 403, title=_("Form out of date"),
                text=_("This form was not sent from this server's page, or it is too old. "
                       "Reload the page and try again."))


def _download(body: bytes | str, media: str, filename: str) -> Response:
    return Response(body, media_type=media,
                    headers={"Content-Disposition": f'attachment; filename="{filename}"'})

"""The owners' console: server-rendered pages under ``/console`` (docs/console.md), its static
files (no CDN), and ``error_page`` for errors on its paths. It never imports the API."""

from __future__ import annotations

from importlib.resources import files

from fastapi import APIRouter, Request
from fastapi.responses import Response

from judge.core.errors import JudgeError
from judge.server.console import boards, labelling, pages, rules
from judge.server.console.render import page
from judge.server.console.session import (
    COOKIE,
    ConsoleForbidden,
    ConsoleSession,
    ConsoleSignInRequired,
    csrf_token,
    session_owner,
)

STATIC = {"console.js": "text/javascript; charset=utf-8", "console.css": "text/css; charset=utf-8"}
static_router = APIRouter(prefix="/console/static", include_in_schema=False)


@static_router.get("/{name}")
def static(name: str) -> Response:
    if name not in STATIC:
        return Response("not found", status_code=404, media_type="text/plain")
    body = files("judge.server.console").joinpath("static", name).read_bytes()
    return Response(
        body,
        media_type=STATIC[name],
        headers={"Cache-Control": "public, max-age=3600", "X-Content-Type-Options": "nosniff"},
    )


#: Where the console's pages live; an error on any other path is the API's to answer.
PREFIX = "/console"


def error_page(request: Request, exc: JudgeError, code: int) -> Response:
    """An error on a console path, as a small HTML page (no data); ``code`` is its status."""
    if isinstance(exc, ConsoleSignInRequired):
        response = page(request, "signed_out.html", message=str(exc), status_code=401)
        response.headers["WWW-Authenticate"] = 'Cookie realm="console"'
        return response
    code = 403 if isinstance(exc, ConsoleForbidden) else code
    message = str(exc) if code != 401 else "sign in with an owner token"
    return page(
        request,
        "error.html",
        console=signed_in(request),
        message=message,
        code=code,
        status_code=code,
    )


def signed_in(request: Request) -> ConsoleSession | None:
    """The owner's session behind an error, when the request carries a valid one, so the
    error page keeps the navigation and sign-out; None otherwise (the page shows neither)."""
    settings = getattr(request.app.state, "settings", None)
    token = request.cookies.get(COOKIE)
    if settings is None or not token:
        return None
    try:
        claims = session_owner(token, settings)
    except ConsoleSignInRequired:
        return None
    return ConsoleSession(claims, csrf_token(settings.signing_secret, token))


ROUTERS = (static_router, pages.router, boards.router, labelling.router, rules.router)

"""The owners' console: server-rendered pages under ``/console`` (see docs/console.md).

``mount(app)`` adds the pages, the console's static script and stylesheet (served from the
package: no CDN, works offline) and HTML error pages for console paths.
"""

from __future__ import annotations

from importlib.resources import files

from fastapi import APIRouter, FastAPI, Request
from fastapi.responses import Response

from judge.api.errors import judge_error
from judge.console import boards, labelling, pages
from judge.console.render import page
from judge.console.session import ConsoleForbidden, ConsoleSignInRequired
from judge.errors import JudgeError

STATIC = {"console.js": "text/javascript; charset=utf-8", "console.css": "text/css; charset=utf-8"}
static_router = APIRouter(prefix="/console/static", include_in_schema=False)


@static_router.get("/{name}")
def static(name: str) -> Response:
    if name not in STATIC:
        return Response("not found", status_code=404, media_type="text/plain")
    body = files("judge.console").joinpath("static", name).read_bytes()
    return Response(
        body,
        media_type=STATIC[name],
        headers={"Cache-Control": "public, max-age=3600", "X-Content-Type-Options": "nosniff"},
    )


async def console_error(request: Request, exc: Exception) -> Response:
    """Console paths answer errors as small HTML pages (no data); the API keeps its JSON."""
    assert isinstance(exc, JudgeError)  # registered for JudgeError only
    if not request.url.path.startswith("/console"):
        return await judge_error(request, exc)
    if isinstance(exc, ConsoleSignInRequired):
        response = page(request, "signed_out.html", {"console": None, "message": str(exc)}, 401)
        response.headers["WWW-Authenticate"] = 'Cookie realm="console"'
        return response
    code = (
        403 if isinstance(exc, ConsoleForbidden) else (await judge_error(request, exc)).status_code
    )
    message = str(exc) if code != 401 else "sign in with an owner token"
    return page(request, "error.html", {"console": None, "message": message, "code": code}, code)


#: The console's routers, in the order they are mounted.
ROUTERS = (static_router, pages.router, boards.router, labelling.router)


def mount(app: FastAPI) -> None:
    """Add the console to ``app``."""
    for router in ROUTERS:
        app.include_router(router)
    app.add_exception_handler(JudgeError, console_error)

"""The composition root: the API with the owners' console mounted beside it. The only module
that imports both shells (docs/architecture.md); everything that starts the service starts here."""

from __future__ import annotations

from fastapi import FastAPI, Request
from fastapi.responses import Response

from judge.core.errors import JudgeError
from judge.engine.settings import Settings
from judge.server import console
from judge.server.api.app import create_api
from judge.server.api.errors import judge_error, status_for
from judge.server.api.limits import require_reserved
from judge.server.service.scoring import BackendFactory

__all__ = ["create_app", "mount_console"]


def create_app(
    settings: Settings | None = None, *, backends: BackendFactory | None = None
) -> FastAPI:
    """The service over ``settings`` (default: from the environment): the API and the console.
    ``backends`` maps a model id to a judge backend (tests pass a scripted one)."""
    app = create_api(settings, backends=backends)
    mount_console(app)
    return app


def mount_console(app: FastAPI) -> None:
    """Add the console's pages to ``app``, and answer errors on console paths as HTML pages."""
    require_reserved([getattr(r, "path", "") for rt in console.ROUTERS for r in rt.routes])
    for router in console.ROUTERS:
        app.include_router(router)
    app.add_exception_handler(JudgeError, answer_error)


async def answer_error(request: Request, exc: Exception) -> Response:
    """A JudgeError as the console's HTML page on its paths, as the API's JSON body elsewhere."""
    assert isinstance(exc, JudgeError)  # registered for JudgeError only
    if request.url.path.startswith(console.PREFIX):
        return console.error_page(request, exc, status_for(exc))
    return await judge_error(request, exc)

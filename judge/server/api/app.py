"""The API alone: ``create_api(settings)``. Its lifespan applies the migrations, records the
measurement era in force, and starts the scoring workers (which resume unfinished runs)."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from typing import NamedTuple

import anyio
from fastapi import FastAPI
from sqlalchemy.engine import Engine
from starlette.middleware.gzip import GZipMiddleware

from judge.core.versions import __version__
from judge.engine.settings import Settings, announce_dev_mode, get_settings
from judge.server.api.errors import install_error_handlers
from judge.server.api.limits import RequestGuard, rate_limits, require_reserved
from judge.server.api.openapi import install_openapi
from judge.server.api.proxies import ProxyHeaders
from judge.server.api.responses import FiguresJSONResponse
from judge.server.api.routers import ROUTERS
from judge.server.auth import system_actor
from judge.server.service import platform
from judge.server.service.ingest import Sweeper
from judge.server.service.jobqueue.executors import ScoringExecutor, make_executor
from judge.server.service.scoring import BackendFactory
from judge.server.store.db import make_engine, transaction
from judge.server.store.schema import upgrade_all
from judge.server.store.views import GZIP_LEVEL

log = logging.getLogger("judge.server.service")

DESCRIPTION = """Scores AI-agent runs: mechanical objectives and LLM-judged behavioural traits.

Two credentials, both `Authorization: Bearer …`:
- **AgentKey** (`sk_live_…`, `judge keys create`): one agent in one seat; sees only runs where
  that agent sits in that seat, never a safety block.
- **OwnerToken** (JWT, `judge token create`): sees and configures everything.

A third, **IngestKey** (`ik_live_…`, `judge ingest-keys create`, also taken in the
`x-judge-ingest-key` header), only sends OTLP spans to `/v1/traces` and is refused everywhere
else, as the other two are there.

Refused credentials answer 401 with one fixed body; runs the caller may not see answer 404
exactly like missing ones. Every error body is `{"code": …, "detail": …}`: `code` is stable
and machine-readable, `detail` is for people. Lists page with `limit` and `cursor`; the next
page is in the `Link: <…>; rel="next"` header."""


START_REASON = "measurement stack at start"
STARTED = "judge %s: judge model %s, era %s, %d run(s) resumed"
#: Answers smaller than this are sent as they are (compressing them saves nothing).
GZIP_MIN_BYTES = 1000


class Running(NamedTuple):
    engine: Engine
    workers: ScoringExecutor


def start_service(settings: Settings, backends: BackendFactory | None) -> Running:
    """Migrate, record the era in force, start the workers (blocking; run off the event loop)."""
    engine = make_engine(settings.database_url)
    upgrade_all(engine)
    with transaction(engine) as session:
        era = platform.sync_era(
            session, settings=settings, by=system_actor("service"), reason=START_REASON
        )
    workers = make_executor(engine, settings=settings, backends=backends)
    resumed = workers.start()
    log.info(STARTED, __version__, settings.model, era.era_id, resumed)
    return Running(engine, workers)


def create_api(
    settings: Settings | None = None, *, backends: BackendFactory | None = None
) -> FastAPI:
    """The API over ``settings`` (default: from the environment), without the console.
    ``backends`` maps a model id to a judge backend (tests pass a scripted one)."""
    settings = settings or get_settings()
    app = FastAPI(
        title="judge",
        version=__version__,
        description=DESCRIPTION,
        lifespan=_lifespan(settings, backends),
        docs_url=None,
        redoc_url=None,
        swagger_ui_oauth2_redirect_url=None,
        default_response_class=FiguresJSONResponse,
    )
    app.state.settings = settings
    _add_middleware(app, settings)
    _add_routes(app)
    return app


def _lifespan(
    settings: Settings, backends: BackendFactory | None
) -> Callable[[FastAPI], AbstractAsyncContextManager[None]]:
    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        if settings.dev_mode:
            announce_dev_mode()
        engine, workers = await anyio.to_thread.run_sync(start_service, settings, backends)
        app.state.engine, app.state.workers = engine, workers
        sweeper = Sweeper(engine, settings=settings, enqueue=workers.enqueue)
        app.state.ingest = sweeper
        sweeper.start()
        try:
            yield
        finally:
            await anyio.to_thread.run_sync(sweeper.stop)
            await anyio.to_thread.run_sync(workers.stop)
            engine.dispose()

    return lifespan


def _add_middleware(app: FastAPI, settings: Settings) -> None:
    rates = rate_limits(settings, engine=lambda: getattr(app.state, "engine", None))
    app.add_middleware(RequestGuard, limits=settings.request_limits, rates=rates, settings=settings)
    # around the guard: it reads and bounds the request as sent; only answers are compressed
    app.add_middleware(GZipMiddleware, minimum_size=GZIP_MIN_BYTES, compresslevel=GZIP_LEVEL)
    # outermost: the client's address (what the guard counts refused credentials by) is settled
    # first, from forwarding headers only when a trusted proxy sent them (docs/security.md)
    app.add_middleware(ProxyHeaders, networks=settings.trusted_networks)


def _add_routes(app: FastAPI) -> None:
    install_error_handlers(app)
    for router in ROUTERS:
        app.include_router(router)
    install_openapi(app)
    # an included router's routes are not listed on the app, so they are read from the router
    mounted = [*app.routes, *(r for rt in ROUTERS for r in rt.routes)]
    require_reserved([getattr(r, "path", "") for r in mounted])

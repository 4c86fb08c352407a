"""The request dependencies both web shells declare their routes with, and the request's unit
of work: :data:`SessionDep` commits when the route returns and rolls back when it raises, before
the answer is sent; what must follow the commit is registered with :func:`after_commit`."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Annotated, TypeVar, cast

import anyio
from fastapi import Depends, Request
from sqlalchemy.engine import Engine
from sqlmodel import Session

from judge.engine.settings import Settings
from judge.server.service.jobqueue.executors import ScoringExecutor
from judge.server.store.db import READ_POOL_SIZE, autocommit_read, transaction

_AFTER_COMMIT = "judge.after_commit"
T = TypeVar("T")


def get_engine(request: Request) -> Engine:
    """The app's engine (set by the API's lifespan)."""
    return cast(Engine, request.app.state.engine)


async def app_settings(request: Request) -> Settings:
    """The app's settings, pinned by the app factory (no ``dependency_overrides``: docs/deploy.md,
    "Read performance")."""
    return cast(Settings, request.app.state.settings)


def after_commit(session: Session, action: Callable[[], None]) -> None:
    """Run ``action`` once the request's unit of work has committed (never after a rollback)."""
    session.info.setdefault(_AFTER_COMMIT, []).append(action)


def unit_of_work(request: Request) -> Iterator[Session]:
    """The request's session: committed when the route returns, rolled back when it raises."""
    with transaction(get_engine(request)) as session:
        yield session
    for action in session.info.pop(_AFTER_COMMIT, []):
        action()


#: Hot reads and guard store calls at once: one per read-pool connection, apart from the
#: limiter FastAPI's synchronous routes share, so reads never wait behind a slow write.
READ_THREADS = READ_POOL_SIZE
READS = anyio.CapacityLimiter(READ_THREADS)


async def in_store_thread(call: Callable[..., T], *args: object) -> T:
    """``call(*args)`` on a worker thread under :data:`READS`, its answer back on the loop."""
    return await anyio.to_thread.run_sync(call, *args, limiter=READS)


async def in_read(engine: Engine, work: Callable[[Session], T]) -> T:
    """``work(session)`` for a hot read on one worker thread, in autocommit on the read pool
    (docs/deploy.md, "Read performance"); no ``after_commit`` is run."""
    return await in_store_thread(autocommit_read, engine, work)


#: Requests that must read a stored run's text whole (the integrity scan, bounded per run by
#: ``JUDGE_SCAN_CPU_S``; pairwise comparisons): this many at once, never on the event loop.
SCANS = anyio.CapacityLimiter(2)


async def in_scan_thread(call: Callable[[], T]) -> T:
    """``call()`` (CPU-bound: it scans runs) on a worker thread under :data:`SCANS`."""
    return await anyio.to_thread.run_sync(call, limiter=SCANS)


async def get_workers(request: Request) -> ScoringExecutor:
    """The app's scoring workers (started by the API's lifespan)."""
    return cast(ScoringExecutor, request.app.state.workers)


async def _engine(request: Request) -> Engine:
    """:func:`get_engine` as a dependency that runs on the event loop (it never blocks)."""
    return get_engine(request)


EngineDep = Annotated[Engine, Depends(_engine)]
#: ``scope="function"``: committed before the answer is sent (a failed commit is an error).
SessionDep = Annotated[Session, Depends(unit_of_work, scope="function")]
SettingsDep = Annotated[Settings, Depends(app_settings)]
WorkersDep = Annotated[ScoringExecutor, Depends(get_workers)]

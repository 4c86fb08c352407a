"""The request dependencies both web shells (``judge.server.api``, ``judge.server.console``) declare their
routes with (FastAPI full-stack-template style aliases); ``judge.server.web`` mounts both.

The request's unit of work: :data:`SessionDep` opens one session per request, commits it when
the route returns and rolls it back when it raises, before the answer is sent. Services never
commit; what must follow the commit (queueing a run for the workers) is registered with
:func:`after_commit`. Work outside a request (the scoring workers, the CLI) uses
:func:`judge.server.store.db.transaction`, the same rule in a ``with`` block.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Annotated, TypeVar

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
    engine: Engine = request.app.state.engine
    return engine


async def app_settings(request: Request) -> Settings:
    """The app's settings, pinned by the app factory. Not a ``dependency_overrides`` entry:
    any override makes FastAPI inspect every dependency's signature again on every request;
    and a coroutine, as it never blocks, so FastAPI does not hand it to a worker thread
    (docs/deploy.md, "Read performance")."""
    settings: Settings = request.app.state.settings
    return settings


def after_commit(session: Session, action: Callable[[], None]) -> None:
    """Run ``action`` once the request's unit of work has committed (never after a rollback)."""
    session.info.setdefault(_AFTER_COMMIT, []).append(action)


def unit_of_work(request: Request) -> Iterator[Session]:
    """The request's session: committed when the route returns, rolled back when it raises."""
    with transaction(get_engine(request)) as session:
        yield session
    _committed(session)


#: How many hot reads (:func:`in_read`) and request-guard store calls run at once: one per
#: connection of the store's read pool (:func:`judge.server.store.db.autocommit`). A limiter of
#: their own, apart from the one FastAPI's synchronous routes share, so a burst of reads never
#: waits behind a slow write's route.
READ_THREADS = READ_POOL_SIZE
READS = anyio.CapacityLimiter(READ_THREADS)


async def in_store_thread(call: Callable[..., T], *args: object) -> T:
    """``call(*args)`` on a worker thread under :data:`READS`, its answer back on the loop."""
    return await anyio.to_thread.run_sync(call, *args, limiter=READS)


async def in_read(engine: Engine, work: Callable[[Session], T]) -> T:
    """``work(session)`` for a hot read, all of it on ONE worker thread, where a synchronous
    handler taking :data:`SessionDep` hands off three times (docs/deploy.md, "Read
    performance"): in autocommit on the read pool (:func:`judge.server.store.db.autocommit_read`),
    run once more if its connection was dropped; no ``after_commit`` is run."""
    return await in_store_thread(autocommit_read, engine, work)


def _committed(session: Session) -> None:
    for action in session.info.pop(_AFTER_COMMIT, []):
        action()


async def get_workers(request: Request) -> ScoringExecutor:
    """The app's scoring workers (started by the API's lifespan)."""
    workers: ScoringExecutor = request.app.state.workers
    return workers


async def _engine(request: Request) -> Engine:
    """:func:`get_engine` as a dependency that runs on the event loop (it never blocks)."""
    return get_engine(request)


EngineDep = Annotated[Engine, Depends(_engine)]
#: ``scope="function"``: the commit happens before the answer is sent, so a client that reads
#: right after a write sees it, and a failed commit is answered as an error.
SessionDep = Annotated[Session, Depends(unit_of_work, scope="function")]
SettingsDep = Annotated[Settings, Depends(app_settings)]
WorkersDep = Annotated[ScoringExecutor, Depends(get_workers)]

"""The request dependencies both web shells (``judge.api``, ``judge.console``) declare their
routes with (FastAPI full-stack-template style aliases); ``judge.web`` mounts both.

The request's unit of work: :data:`SessionDep` opens one session per request, commits it when
the route returns and rolls it back when it raises, before the answer is sent. Services never
commit; what must follow the commit (queueing a run for the workers) is registered with
:func:`after_commit`. Work outside a request (the scoring workers, the CLI) uses
:func:`judge.store.db.transaction`, the same rule in a ``with`` block.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Annotated, TypeVar

from fastapi import Depends, Request
from sqlalchemy.engine import Engine
from sqlmodel import Session

from judge.handoff import Threads
from judge.service.jobqueue.executors import ScoringExecutor
from judge.settings import Settings
from judge.store.db import READ_POOL_SIZE, autocommit_read, transaction

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


#: The threads the hot reads run on (:func:`in_read`) and the request guard's store calls,
#: apart from the pool FastAPI hands synchronous routes to, so a burst of reads never waits
#: behind a slow write's route. Started as work arrives; one per connection of the store's read
#: pool (:func:`judge.store.db.autocommit`).
READ_THREADS = READ_POOL_SIZE
READS = Threads(READ_THREADS, "judge-read")


async def in_read(engine: Engine, work: Callable[[Session], T]) -> T:
    """``work(session)`` for a hot read, all of it on ONE worker thread (docs/deploy.md, "Read
    performance"): a synchronous handler taking :data:`SessionDep` hands off to a worker
    thread three times (opening the session, the handler, the commit). The hand-off is
    :class:`judge.handoff.Threads`, about a third of asyncio's executor call on the event loop;
    the context (log and trace state) goes along. Each statement commits on its own
    (autocommit), so a read pays no ``BEGIN`` and ``COMMIT`` round trips on PostgreSQL
    (SQLite's driver sends none for a read), and takes its connection from the read pool, which
    sends no ``SELECT 1`` first: a read whose connection was dropped is run once more on a new
    one (:func:`judge.store.db.read_again_if_dropped`). Under READ COMMITTED each statement
    sees its own snapshot inside a transaction too, so a read sees nothing it would not have
    seen in one.
    What a read stores (a view rendered on its first read) is one idempotent statement,
    committed when the read returns (as it runs, on PostgreSQL); no ``after_commit`` is run."""
    return await READS.run(autocommit_read, engine, work)


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

"""Engines and sessions (SQLite by default, PostgreSQL by URL), write locks and retries of
transient store faults (docs/service.md, "Concurrency and store faults")."""

from __future__ import annotations

import logging
import threading
import weakref
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Engine
from sqlmodel import Session
from tenacity import (
    Retrying,
    retry_if_exception,
    stop_after_delay,
    stop_when_event_set,
    wait_exponential,
)

from judge.core.domain.checks import POSTGRES_SCHEMES
from judge.core.errors import ConfigError

SQLITE_BUSY_TIMEOUT_MS = 30_000
#: PostgreSQL: the longest a statement waits for a lock (a row, a table, an advisory lock).
PG_LOCK_TIMEOUT_MS = 5_000
#: PostgreSQL: the longest one statement runs (an export reads in batches, each far shorter).
PG_STATEMENT_TIMEOUT_MS = 60_000
#: Connections per engine: every request holds at most one at a time, for as long as it runs.
POOL_SIZE, POOL_OVERFLOW, POOL_TIMEOUT_S = 10, 30, 30
#: PostgreSQL: the read pool (:func:`autocommit`): one connection per read thread, and a few more.
READ_POOL_SIZE, READ_POOL_OVERFLOW = 16, 8
_POOL: dict[str, Any] = {
    "pool_size": POOL_SIZE,
    "max_overflow": POOL_OVERFLOW,
    "pool_timeout": POOL_TIMEOUT_S,
}
#: PostgreSQL: each engine's read pool (:func:`autocommit`).
_READ_ENGINES: weakref.WeakKeyDictionary[Engine, Engine] = weakref.WeakKeyDictionary()
T = TypeVar("T")
log = logging.getLogger("judge.server.store")


def normalise_url(url: str) -> str:
    """Route plain ``postgresql://`` URLs to psycopg 3 (the driver the product ships with)."""
    for prefix in POSTGRES_SCHEMES:
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


def is_postgres_url(url: str) -> bool:
    """Whether a store URL names PostgreSQL (with or without a driver); else it is SQLite."""
    return normalise_url(url).startswith("postgresql+")


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    # a rollback journal, not WAL: a read-only -shm mapping kills the process (docs/service.md)
    cursor = dbapi_connection.cursor()
    cursor.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_TIMEOUT_MS}")
    cursor.execute("PRAGMA journal_mode=DELETE")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


def make_engine(url: str) -> Engine:
    """An engine for the store; SQLite gets a rollback journal, foreign keys and a busy timeout."""
    url = normalise_url(url)
    try:
        parsed = sa.engine.make_url(url)
    except sa.exc.ArgumentError:
        raise ConfigError(
            f"JUDGE_DATABASE_URL is not a database URL: {url.split('@')[-1]!r}"
        ) from None
    if parsed.get_backend_name() != "sqlite":
        return _postgres_engine(url)
    connect = {"check_same_thread": False, "timeout": 30}
    engine = sa.create_engine(url, connect_args=connect, **_POOL)
    sa.event.listen(engine, "connect", _sqlite_pragmas)
    return engine


def _postgres_engine(url: str) -> Engine:
    timeouts = (
        f"-c lock_timeout={PG_LOCK_TIMEOUT_MS} -c statement_timeout={PG_STATEMENT_TIMEOUT_MS}"
    )
    connect = {"options": timeouts}
    engine = sa.create_engine(url, pool_pre_ping=True, connect_args=connect, **_POOL)
    reads = sa.create_engine(
        engine.url,
        isolation_level="AUTOCOMMIT",
        connect_args=connect,
        pool_size=READ_POOL_SIZE,
        max_overflow=READ_POOL_OVERFLOW,
        pool_timeout=POOL_TIMEOUT_S,
    )
    sa.event.listen(engine, "engine_disposed", lambda _engine: reads.dispose())
    _READ_ENGINES[engine] = reads
    return engine


def autocommit(engine: Engine) -> Engine:
    """The engine reads run on, in autocommit: on PostgreSQL the read pool made beside
    ``engine`` (no ``pool_pre_ping``: :func:`read_again_if_dropped` retries instead)."""
    if engine.dialect.name != "postgresql":
        return engine
    reads = _READ_ENGINES.get(engine)
    if reads is None:  # an engine not made here: its own (pinged) pool, in autocommit
        return engine.execution_options(isolation_level="AUTOCOMMIT")
    return reads


def read_again_if_dropped(read: Callable[[], T]) -> T:
    """``read()``, run once more (on a new connection) if the store dropped its connection."""
    try:
        return read()
    except sa.exc.DBAPIError as exc:
        if not exc.connection_invalidated:
            raise
        log.info("a pooled store connection was dropped; reading again on a new one")
        return read()


def autocommit_read(engine: Engine, work: Callable[[Session], T]) -> T:
    """``work(session)`` on the read engine, retried once if its connection was dropped; what
    it wrote (a view rendered on first read) is committed."""

    def once() -> T:
        with Session(autocommit(engine)) as session:
            result = work(session)
            session.commit()
            return result

    return read_again_if_dropped(once)


def lift_timeouts(connection: sa.Connection, *, local: bool) -> None:
    """Lift PostgreSQL's timeouts for a migration: ``local`` to the transaction, else until RESET."""
    if connection.dialect.name == "postgresql":
        scope = "LOCAL " if local else ""
        connection.exec_driver_sql(f"SET {scope}lock_timeout = 0")
        connection.exec_driver_sql(f"SET {scope}statement_timeout = 0")


def insert_into(session: Session, table: Any) -> sqlite.Insert | postgresql.Insert:
    """An INSERT in the session's dialect, which can say what a conflicting row does."""
    if session.connection().dialect.name == "postgresql":
        return postgresql.insert(table)
    return sqlite.insert(table)


@contextmanager
def transaction(engine: Engine) -> Iterator[Session]:
    """A session whose work is committed on success and rolled back on any error."""
    with Session(engine, expire_on_commit=False) as session:
        try:
            yield session
            session.commit()
        except BaseException:
            session.rollback()
            raise


def lock_for_write(session: Session, *, name: str) -> None:
    """Serialise the transactions that read, then write, ``name`` (call it first): PostgreSQL
    takes an advisory lock, SQLite its write lock now (``BEGIN IMMEDIATE``)."""
    connection = session.connection()
    if connection.dialect.name == "sqlite":
        dbapi = connection.connection.dbapi_connection
        if dbapi is not None and not dbapi.in_transaction:
            connection.exec_driver_sql("BEGIN IMMEDIATE")
        return
    connection.execute(sa.text("SELECT pg_advisory_xact_lock(hashtext(:name))"), {"name": name})


def is_transient(exc: BaseException) -> bool:
    """Whether a store error may pass by itself (a lock, a full disk, a lost connection)."""
    return isinstance(exc, sa.exc.OperationalError) or (
        isinstance(exc, sa.exc.DBAPIError) and exc.connection_invalidated
    )


def _log_retry(state: Any) -> None:
    error = state.outcome.exception() if state.outcome else None
    log.warning(
        "store busy or unavailable (%s); retrying (attempt %d)",
        type(error).__name__,
        state.attempt_number,
    )


def retry_transient(
    write: Callable[[], T],
    *,
    budget_s: float,
    max_wait_s: float = 5.0,
    cancel: threading.Event | None = None,
) -> T:
    """Run ``write`` (one transaction), retried while the error is transient, for up to
    ``budget_s`` or until ``cancel`` is set; then the last error is raised."""
    stop = stop_after_delay(budget_s) | stop_when_event_set(cancel or threading.Event())
    retrying = Retrying(
        retry=retry_if_exception(is_transient),
        stop=stop,
        wait=wait_exponential(multiplier=0.05, max=max_wait_s),
        reraise=True,
        before_sleep=_log_retry,
    )
    return retrying(write)

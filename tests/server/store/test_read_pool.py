"""PostgreSQL reads run on a pool of their own that sends no ``SELECT 1`` before each checkout
(``judge.server.store.db.autocommit``): a read whose connection the server dropped runs once more on a
new one, so a restarted server costs no request an error. Tested against a real restart of a
private cluster (never the session's shared server)."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa
from sqlalchemy.engine import Engine

from judge.server.api.caller import agent_of_key
from judge.server.request_scope import READ_THREADS
from judge.server.service.ratelimit import SharedWindow
from judge.server.store import rate_events
from judge.server.store.db import (
    READ_POOL_SIZE,
    autocommit,
    autocommit_read,
    make_engine,
    read_again_if_dropped,
)
from judge.server.store.migrate import upgrade
from tests import pg
from tests.conftest import key_headers

pytestmark = pytest.mark.postgres
DROPPED = "a pooled store connection was dropped; reading again on a new one"


@pytest.fixture
def private() -> Iterator[tuple[pg.ThrowawayCluster, Engine]]:
    """A migrated database on a throwaway cluster this test may stop and start."""
    with pg.throwaway_cluster() as server:
        if server is None:
            pytest.skip(pg.NO_POSTGRES)
        admin = pg.PostgresServer(server.url)
        engine = make_engine(admin.sqlalchemy_url(pg.create_database(admin)))
        upgrade(engine)
        with engine.begin() as connection:  # made by the service at start-up
            connection.exec_driver_sql(rate_events.TABLE_DDL)
        try:
            yield server, engine
        finally:
            engine.dispose()


def _backend_pid(engine: Engine) -> int:
    pid = "SELECT pg_backend_pid()"
    return autocommit_read(
        engine, lambda session: int(session.connection().exec_driver_sql(pid).scalar_one())
    )


def test_every_read_answers_after_a_server_restart(
    private: tuple[pg.ThrowawayCluster, Engine], caplog: pytest.LogCaptureFixture
) -> None:
    server, engine = private
    key = key_headers(engine, "agent-alpha", "buyer")["Authorization"].removeprefix("Bearer ")
    window = SharedWindow(bucket="failed_auth", limit=1, window_s=60.0, engine=lambda: engine)
    window.record("198.51.100.9")
    before = _backend_pid(engine)
    assert agent_of_key(engine, key).agent_id == "agent-alpha"
    assert window.retry_after("198.51.100.9") > 0

    server.stop()
    server.start()
    with caplog.at_level(logging.INFO, logger="judge.server.store"):
        after = _backend_pid(engine)
        assert agent_of_key(engine, key).seat == "buyer"
        assert window.retry_after("198.51.100.9") > 0  # read, not failed open

    assert after != before  # a new connection, on the new server
    # the pooled connection was not pinged first: the read met the drop, and ran again once;
    # the drop invalidated the rest of the pool, so the next reads opened new ones unasked
    assert [r.getMessage() for r in caplog.records].count(DROPPED) == 1


def test_a_read_that_fails_twice_is_raised(private: tuple[pg.ThrowawayCluster, Engine]) -> None:
    server, engine = private
    _backend_pid(engine)
    server.stop()
    try:
        with pytest.raises(sa.exc.OperationalError):
            _backend_pid(engine)
    finally:
        server.start()
    assert _backend_pid(engine) > 0


def test_only_a_dropped_connection_is_read_again() -> None:
    calls: list[int] = []

    def broken() -> int:
        calls.append(1)
        raise sa.exc.DBAPIError("SELECT 1", None, ValueError("not a drop"))

    with pytest.raises(sa.exc.DBAPIError):
        read_again_if_dropped(broken)
    assert len(calls) == 1


def test_the_read_pool_is_its_own_and_goes_with_its_engine(
    private: tuple[pg.ThrowawayCluster, Engine],
) -> None:
    _, engine = private
    reads = autocommit(engine)
    assert reads is not engine and autocommit(engine) is reads
    assert (reads.pool.size(), READ_THREADS) == (READ_POOL_SIZE, READ_POOL_SIZE)
    with reads.connect() as connection:
        assert connection.exec_driver_sql("SHOW lock_timeout").scalar() == "5s"
    assert reads.pool.checkedin() == 1
    engine.dispose()
    assert reads.pool.checkedin() == 0


def test_sqlite_reads_share_the_one_engine(tmp_path: Path) -> None:
    engine = make_engine(f"sqlite:///{tmp_path / 'judge.db'}")
    assert autocommit(engine) is engine
    engine.dispose()

"""Rate windows kept in PostgreSQL (judge_rate_events): every window object on one database,
as every replica has, counts against the same events (docs/security.md)."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import pytest
import sqlalchemy as sa
from sqlalchemy.engine import Engine

from judge.server.api.limits import ask
from judge.server.service.ratelimit import OUTAGE_PAUSE_S, SharedWindow
from judge.server.store import rate_events
from judge.server.store.db import make_engine
from tests.helpers import statements_sent
from tests.pg import free_port


@pytest.fixture
def pg_engine(engine: Engine) -> Iterator[Engine]:
    if engine.dialect.name != "postgresql":
        pytest.skip("shared windows live in PostgreSQL; on SQLite the service is one process")
    with engine.begin() as connection:
        connection.exec_driver_sql(rate_events.TABLE_DDL)
    yield engine


def _window(engine: Engine | None, limit: int = 2, bucket: str = "submissions") -> SharedWindow:
    return SharedWindow(bucket=bucket, limit=limit, window_s=60.0, engine=lambda: engine)


def _rows(engine: Engine) -> int:
    with engine.connect() as connection:
        return int(connection.execute(sa.text("SELECT count(*) FROM judge_rate_events")).scalar())


def test_two_replicas_windows_count_against_one_limit(pg_engine: Engine) -> None:
    one, other = _window(pg_engine), _window(pg_engine)

    assert (one.acquire("k"), other.acquire("k")) == (0.0, 0.0)
    assert 59.0 < one.acquire("k") <= 60.0
    assert 59.0 < other.retry_after("k") <= 60.0
    assert other.acquire("another-key") == 0.0


def test_a_slot_given_back_on_one_replica_is_free_on_the_other(pg_engine: Engine) -> None:
    one, other = _window(pg_engine, limit=1), _window(pg_engine, limit=1)
    assert one.acquire("k") == 0.0
    one.release("k")

    assert other.acquire("k") == 0.0
    assert one.retry_after("k") > 0


def test_buckets_do_not_share_counts(pg_engine: Engine) -> None:
    submissions, failed = _window(pg_engine, 1), _window(pg_engine, 1, bucket="failed_auth")
    failed.record("k")

    assert submissions.acquire("k") == 0.0


def test_concurrent_acquires_from_many_threads_take_exactly_the_limit(pg_engine: Engine) -> None:
    windows = [_window(pg_engine, limit=5) for _ in range(4)]
    with ThreadPoolExecutor(20) as pool:
        waits = list(pool.map(lambda n: windows[n % 4].acquire("k"), range(20)))

    assert waits.count(0.0) == 5


def test_a_key_keeps_at_most_the_limit_of_rows(pg_engine: Engine) -> None:
    window = _window(pg_engine, limit=3, bucket="failed_auth")
    for _ in range(50):
        window.record("203.0.113.7")

    assert _rows(pg_engine) == 3
    assert window.retry_after("203.0.113.7") > 0


def test_a_store_that_does_not_answer_leaves_each_replica_holding_the_limit() -> None:
    dead = make_engine(f"postgresql://judge@127.0.0.1:{free_port()}/none?connect_timeout=2")
    try:
        window = _window(dead, limit=1)
        first, second, wait = window.acquire("k"), window.acquire("k"), window.retry_after("k")
    finally:
        dead.dispose()
    assert first == 0.0  # the limit is held by this replica: one passes, the next waits
    assert second > 0 and wait > 0


def test_after_a_failure_the_store_is_not_asked_again_for_a_pause(pg_engine: Engine) -> None:
    now = [100.0]
    engines: list[Engine | None] = [None]
    window = SharedWindow(
        bucket="failed_auth",
        limit=1,
        window_s=60.0,
        engine=lambda: engines[0],
        clock=lambda: now[0],
    )
    dead = make_engine(f"postgresql://judge@127.0.0.1:{free_port()}/none?connect_timeout=2")
    engines[0] = dead
    window.record("k")  # fails: the pause starts
    engines[0] = pg_engine
    window.record("k")
    paused = window.retry_after("k")
    now[0] += OUTAGE_PAUSE_S
    window.record("k")
    dead.dispose()

    assert paused > 0  # counted by this replica while the store was not asked
    assert window.retry_after("k") > 0


def test_before_the_service_has_a_store_nothing_is_counted() -> None:
    assert _window(None, limit=1).acquire("k") == 0.0


class _Probe:
    """A window that notes the thread it was asked on."""

    def __init__(self, shared: bool) -> None:
        self.shared = shared
        self.threads: list[int] = []

    def retry_after(self, key: str) -> float:
        self.threads.append(threading.get_ident())
        return 0.0


def test_the_guard_asks_a_shared_window_off_the_event_loop() -> None:
    shared, local = _Probe(shared=True), _Probe(shared=False)

    async def both() -> int:
        await ask(shared.retry_after, "k")
        await ask(local.retry_after, "k")
        return threading.get_ident()

    loop_thread = asyncio.run(both())

    assert shared.threads != [loop_thread]
    assert local.threads == [loop_thread]


def test_the_check_before_every_request_is_one_statement_without_a_transaction(
    pg_engine: Engine,
) -> None:
    """``retry_after`` runs before every request on PostgreSQL: the window's one SELECT on a
    connection in autocommit, so the driver sends no BEGIN and COMMIT around it."""
    window = _window(pg_engine, limit=1, bucket="failed_auth")
    window.record("198.51.100.9")
    with statements_sent(pg_engine) as sent:
        assert window.retry_after("198.51.100.9") > 0

    assert [(s.word, s.autocommit) for s in sent] == [("SELECT", True)]

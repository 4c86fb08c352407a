"""PostgreSQL statements never wait without a bound: a lock wait past ``PG_LOCK_TIMEOUT_MS``
or a statement past ``PG_STATEMENT_TIMEOUT_MS`` is a transient store error, which the store's
retry outlasts and the API answers with 503 saying to try again (docs/service.md)."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient
from sqlalchemy.engine import Engine

from judge.engine.judging.backends import ScriptedBackend
from judge.server.api.errors import STORE_UNAVAILABLE
from judge.server.store import db
from judge.server.store.db import (
    is_transient,
    lock_for_write,
    make_engine,
    retry_transient,
    transaction,
)
from judge.server.web import create_app
from tests.conftest import example, owner_headers, service_settings, wait_final

REVIEW = "/api/evals/haggle-0007/safety-review"


@pytest.fixture
def pg_url(database_url: str, monkeypatch: pytest.MonkeyPatch) -> str:
    if not database_url.startswith("postgresql"):
        pytest.skip("PostgreSQL only: SQLite waits for its lock with its busy timeout")
    monkeypatch.setattr(db, "PG_LOCK_TIMEOUT_MS", 300)
    monkeypatch.setattr(db, "PG_STATEMENT_TIMEOUT_MS", 500)
    return database_url


@pytest.fixture
def holder(pg_url: str) -> Iterator[Engine]:
    engine = make_engine(pg_url)
    yield engine
    engine.dispose()


def hold_lock(connection: sa.Connection, name: str) -> None:
    connection.execute(sa.text("SELECT pg_advisory_xact_lock(hashtext(:name))"), {"name": name})


def test_a_write_waiting_on_a_held_lock_answers_503_saying_to_try_again(
    pg_url: str, holder: Engine, judge: ScriptedBackend
) -> None:
    app = create_app(service_settings(pg_url), backends=lambda model: judge)
    with TestClient(app) as client:
        owner = owner_headers()
        assert (
            client.post("/api/evals/runs", json=example("haggle"), headers=owner).status_code == 202
        )
        assert wait_final(client, "haggle-0007", owner)["status"] == "scored"
        with holder.begin() as connection:
            hold_lock(connection, "safety-review:haggle-0007")
            started = time.perf_counter()
            busy = client.post(REVIEW, json={"decision": "cleared"}, headers=owner)
            waited = time.perf_counter() - started
        later = client.post(REVIEW, json={"decision": "cleared"}, headers=owner)

    assert busy.status_code == 503 and busy.headers["retry-after"] == "5"
    assert busy.json()["detail"] == STORE_UNAVAILABLE and "try again" in STORE_UNAVAILABLE
    assert waited < 3.0
    assert later.status_code == 201 and [r["decision"] for r in later.json()["reviews"]] == [
        "cleared"
    ]


def test_the_stores_retry_outlasts_a_lock_held_past_the_lock_timeout(
    pg_url: str, holder: Engine
) -> None:
    engine = make_engine(pg_url)
    held, release = threading.Event(), threading.Event()

    def hold() -> None:
        with holder.begin() as connection:
            hold_lock(connection, "contended")
            held.set()
            release.wait(10)

    thread = threading.Thread(target=hold)
    thread.start()
    held.wait(10)
    threading.Timer(1.0, release.set).start()
    tries: list[int] = []

    def write() -> str:
        tries.append(1)
        with transaction(engine) as session:
            lock_for_write(session, name="contended")
            return "written"

    try:
        assert retry_transient(write, budget_s=10.0, max_wait_s=0.2) == "written"
    finally:
        release.set()
        thread.join()
        engine.dispose()
    assert len(tries) >= 2


def test_a_statement_past_the_statement_timeout_is_a_transient_error(pg_url: str) -> None:
    engine = make_engine(pg_url)
    try:
        with pytest.raises(sa.exc.OperationalError) as caught, engine.connect() as connection:
            connection.execute(sa.text("SELECT pg_sleep(2)"))
    finally:
        engine.dispose()

    assert is_transient(caught.value)

"""Fixtures of the whole suite: PostgreSQL (tests/pg.py), a migrated database on SQLite AND on
PostgreSQL 15 (every API test runs on both), a running app with a scripted judge, credentials,
sample runs, and the scripted service of the scoring-route tests (tests/scripted_service.py)."""

from __future__ import annotations

import copy
import json
import shutil
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from fastapi.testclient import TestClient
from sqlalchemy.engine import Engine

from judge.engine.judging.backends import ScriptedBackend
from judge.engine.settings import Settings, load_settings
from judge.server.auth import create_owner_token
from judge.server.service.keys import issue_key
from judge.server.store.db import make_engine, transaction
from judge.server.store.migrate import upgrade
from judge.server.web import create_app
from tests import pg
from tests.pg import PostgresServer, free_port
from tests.scripted_service import svc  # noqa: F401  (fixture)
from tests.shared_data import (  # noqa: F401  (fixtures)
    casino_dir,
    casino_items,
    casino_manifest,
    dices_dir,
    dices_items,
    dices_manifest,
)

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
SECRET = "test-secret-for-the-service-suite-0123456789abcdef"
VERDICT = '{"score": 0.7, "turns": [1], "rationale": "steady"}'
PASSES_PER_SEAT = 12 * 5  # 12 traits (8 capability + 4 safety) x 5 passes


@pytest.fixture(scope="session")
def postgres_or_none() -> Iterator[PostgresServer | None]:
    """The session's PostgreSQL server (JUDGE_TEST_POSTGRES_URL or a throwaway one), or None."""
    with pg.session_server() as server:
        yield server


@pytest.fixture(scope="session")
def postgres_server(postgres_or_none: PostgresServer | None) -> PostgresServer:
    """The session's PostgreSQL server; the test is skipped, saying why, when there is none."""
    if postgres_or_none is None:
        pytest.skip(pg.NO_POSTGRES)
    return postgres_or_none


@pytest.fixture(scope="session")
def pg_template(postgres_or_none: PostgresServer | None) -> Iterator[str | None]:
    """A migrated PostgreSQL database that each test's database is copied from."""
    if postgres_or_none is None:
        yield None
        return
    name = pg.create_database(postgres_or_none)
    engine = make_engine(postgres_or_none.sqlalchemy_url(name))
    upgrade(engine)
    engine.dispose()
    yield name
    pg.drop_database(postgres_or_none, name)


@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("template") / "judge.db"
    engine = make_engine(f"sqlite:///{path}")
    upgrade(engine)
    engine.dispose()
    return path


@contextmanager
def fresh_database(
    kind: str,
    directory: Path,
    sqlite_template: Path,
    server: PostgresServer | None,
    pg_template: str | None,
) -> Iterator[str]:
    """A migrated database of ``kind`` (sqlite or postgres), removed afterwards."""
    if kind == "sqlite":
        shutil.copy(sqlite_template, directory / "judge.db")
        yield f"sqlite:///{directory / 'judge.db'}"
        return
    if server is None:
        pytest.skip(pg.NO_POSTGRES)
    name = pg.create_database(server, template=pg_template)
    try:
        yield server.sqlalchemy_url(name)
    finally:
        pg.drop_database(server, name)


@pytest.fixture(params=["sqlite", "postgres"])
def database_url(
    request: pytest.FixtureRequest,
    tmp_path: Path,
    sqlite_template: Path,
    postgres_or_none: PostgresServer | None,
    pg_template: str | None,
) -> Iterator[str]:
    """A fresh, migrated database per test: a SQLite file, then a PostgreSQL 15 database."""
    with fresh_database(
        request.param, tmp_path, sqlite_template, postgres_or_none, pg_template
    ) as url:
        yield url


@pytest.fixture(scope="module", params=["sqlite", "postgres"])
def module_database_url(
    request: pytest.FixtureRequest,
    tmp_path_factory: pytest.TempPathFactory,
    sqlite_template: Path,
    postgres_or_none: PostgresServer | None,
    pg_template: str | None,
) -> Iterator[str]:
    """One database shared by a module's read-only tests (both backends)."""
    directory = tmp_path_factory.mktemp("db")
    with fresh_database(
        request.param, directory, sqlite_template, postgres_or_none, pg_template
    ) as url:
        yield url


def service_settings(database_url: str) -> Settings:
    return load_settings(
        database_url=database_url,
        jwt_secret=SECRET,
        model="scripted-test-judge",
        concurrency=8,
        backoff_initial_s=0.0,
        max_attempts=2,
        workers=2,
        # the suite sends many refused credentials from one test client; test_rate_limits.py tests the limit
        max_failed_auth_per_client=100_000,
    )


def owner_headers(owner: str = "ops") -> dict[str, str]:
    token = create_owner_token(owner=owner, secret=SECRET, audience="judge", ttl=timedelta(hours=1))
    return {"Authorization": f"Bearer {token}"}


def key_headers(engine: Engine, agent_id: str, seat: str) -> dict[str, str]:
    with transaction(engine) as session:
        return {"Authorization": f"Bearer {issue_key(session, agent_id=agent_id, seat=seat)}"}


@pytest.fixture
def engine(database_url: str) -> Iterator[Engine]:
    engine = make_engine(database_url)
    yield engine
    engine.dispose()


@pytest.fixture
def settings(database_url: str) -> Settings:
    return service_settings(database_url)


@pytest.fixture
def judge() -> ScriptedBackend:
    return ScriptedBackend(VERDICT, model="scripted-test-judge")


@pytest.fixture
def client(settings: Settings, judge: ScriptedBackend) -> Iterator[TestClient]:
    app = create_app(settings, backends=lambda model: judge)
    with TestClient(app) as client:
        yield client


@pytest.fixture
def owner() -> dict[str, str]:
    return owner_headers()


@pytest.fixture
def agent_key(client: TestClient, engine: Engine) -> Callable[[str, str], dict[str, str]]:
    """Issue a key for (agent, seat) and return its Authorization header."""

    def make(agent_id: str, seat: str) -> dict[str, str]:
        return key_headers(engine, agent_id, seat)

    return make


def example(name: str, **changes: Any) -> dict[str, Any]:
    """An example run as JSON data, with top-level fields replaced."""
    data = json.loads((EXAMPLES / f"{name}.json").read_text())
    return {**copy.deepcopy(data), **changes}


def wait_final(
    client: TestClient, run_id: str, headers: dict[str, str], timeout: float = 30.0
) -> dict[str, Any]:
    """Poll the owner status route until the run is scored or not_scored."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        body: dict[str, Any] = client.get(f"/api/evals/runs/{run_id}", headers=headers).json()
        if body["status"] in ("scored", "not_scored"):
            return body
        time.sleep(0.05)
    raise AssertionError(f"run {run_id} still {body['status']} after {timeout}s")


@pytest.fixture
def scored(client: TestClient, owner: dict[str, str]) -> Callable[..., dict[str, Any]]:
    """Submit a run as owner and wait until it is final; returns the final status body."""

    def submit(data: dict[str, Any]) -> dict[str, Any]:
        response = client.post("/api/evals/runs", json=data, headers=owner)
        assert response.status_code == 202, response.text
        return wait_final(client, data["run_id"], owner)

    return submit


@pytest.fixture
def base_url(database_url: str) -> Iterator[str]:
    """The app served by uvicorn on a free loopback port, for the test's duration."""
    with serving(service_settings(database_url)) as url:
        yield url


@contextmanager
def serving(settings: Any) -> Iterator[str]:
    """The app on ``settings`` with the scripted judge, served by uvicorn on a free loopback
    port while the block runs."""
    judge = ScriptedBackend(VERDICT, model="scripted-test-judge")
    app = create_app(settings, backends=lambda model: judge)
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        assert time.monotonic() < deadline, "uvicorn did not start"
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(30)


@pytest.fixture
def empty_database(postgres_server: PostgresServer) -> Iterator[str]:
    """A new, empty PostgreSQL database: the nodes migrate it themselves (`judge db upgrade`)."""
    name = pg.create_database(postgres_server)
    try:
        yield postgres_server.sqlalchemy_url(name)
    finally:
        pg.drop_database(postgres_server, name)

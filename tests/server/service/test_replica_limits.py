"""Limits that hold across replicas, with real processes: two `judge serve --workers 0` on one
PostgreSQL database give the same limits as one (docs/security.md). Refused credentials per
client address and runs per agent key are counted in PostgreSQL, and 20 coaching asks spread
over both replicas pay one judge call. Both replicas run `judge serve` as shipped, so the
forwarding headers of a loopback client are not believed either (no trusted proxy is set).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import httpx
import pytest
from sqlalchemy.engine import Engine

from judge.engine.settings import load_settings
from judge.server.service import platform
from judge.server.service.keys import issue_key
from judge.server.store.db import make_engine, transaction
from tests import pg
from tests.conftest import example
from tests.factories import run, scorecard, seat
from tests.fake_judge import FakeJudge
from tests.pg import PostgresServer
from tests.scripted_service import store_scored
from tests.server.service.cluster import cluster, healthy, service_env
from tests.server.service.test_scale_out import db_upgrade

pytestmark = pytest.mark.postgres
FAILED_AUTH = 4
SUBMISSIONS = 3
BAD = {"Authorization": "Bearer sk_live_aaaaaaaaaaaa_" + "x" * 43}


@pytest.fixture(scope="module")
def judge() -> Iterator[FakeJudge]:
    with FakeJudge(latency=0.3) as fake:
        yield fake


@pytest.fixture(scope="module")
def database(postgres_server: PostgresServer) -> Iterator[str]:
    name = pg.create_database(postgres_server)
    try:
        yield postgres_server.sqlalchemy_url(name)
    finally:
        pg.drop_database(postgres_server, name)


@pytest.fixture(scope="module")
def engine(database: str) -> Iterator[Engine]:
    engine = make_engine(database)
    yield engine
    engine.dispose()


@pytest.fixture(scope="module")
def started(
    database: str, judge: FakeJudge, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[list[str]]:
    env = service_env(
        database,
        judge.api_base,
        JUDGE_MAX_FAILED_AUTH_PER_CLIENT=str(FAILED_AUTH),
        JUDGE_MAX_SUBMISSIONS_PER_KEY=str(SUBMISSIONS),
    )
    db_upgrade(env)
    with cluster(env, tmp_path_factory.mktemp("replicas")) as nodes:
        bases = [nodes.serve(workers=0), nodes.serve(workers=0)]
        for base in bases:
            healthy(base)
        yield bases


@pytest.fixture
def replicas(started: list[str], engine: Engine) -> list[str]:
    """The two replicas, with every window empty (all tests come from one loopback address)."""
    with engine.begin() as connection:
        connection.exec_driver_sql("DELETE FROM judge_rate_events")
    return started


def _key(engine: Engine, agent_id: str) -> dict[str, str]:
    with transaction(engine) as session:
        return {"Authorization": f"Bearer {issue_key(session, agent_id=agent_id, seat='buyer')}"}


def test_refused_credentials_are_counted_once_across_both_replicas(replicas: list[str]) -> None:
    turns = itertools.cycle(replicas)
    refused = [
        httpx.get(f"{next(turns)}/api/agent/runs", headers=BAD).status_code
        for _ in range(FAILED_AUTH)
    ]
    blocked = [httpx.get(f"{base}/api/agent/runs", headers=BAD) for base in replicas]

    assert refused == [401] * FAILED_AUTH
    assert [b.status_code for b in blocked] == [429, 429]
    assert 1 <= int(blocked[0].headers["retry-after"]) <= 60


def test_a_rotating_forwarded_for_from_loopback_is_counted_by_the_peer(
    replicas: list[str],
) -> None:
    statuses = [
        httpx.get(
            f"{replicas[n % 2]}/api/agent/runs",
            headers={**BAD, "X-Forwarded-For": f"198.51.100.{n}"},
        ).status_code
        for n in range(FAILED_AUTH + 1)
    ]

    assert statuses == [401] * FAILED_AUTH + [429]


def test_runs_per_agent_key_are_counted_once_across_both_replicas(
    replicas: list[str], engine: Engine
) -> None:
    buyer = _key(engine, "agent-alpha")
    statuses = [
        httpx.post(
            f"{replicas[n % 2]}/api/agent/runs",
            json=example("haggle", run_id=f"lim-{n}"),
            headers=buyer,
            timeout=30,
        ).status_code
        for n in range(SUBMISSIONS + 2)
    ]

    assert statuses == [202] * SUBMISSIONS + [429, 429]


def test_twenty_coaching_asks_over_two_replicas_pay_one_judge_call(
    replicas: list[str], engine: Engine, database: str, judge: FakeJudge
) -> None:
    settings = load_settings(dev_mode=True, database_url=database, model="openai/fake-judge")
    with transaction(engine) as session:
        era_id = platform.current_stack(session, settings=settings).era_id
    card = seat(traits={"negotiation": 0.4}, safety={"manipulation_resistance": 0.3})
    store_scored(engine, run("k1"), scorecard("k1", card, era_id=era_id))
    buyer = _key(engine, "agent-alpha")

    def ask(n: int) -> int:
        url = f"{replicas[n % 2]}/api/agent/runs/k1/coaching"
        return httpx.get(url, headers=buyer, timeout=60).status_code

    before = judge.snapshot()["answered"]
    with ThreadPoolExecutor(20) as pool:
        statuses = list(pool.map(ask, range(20)))

    assert statuses == [200] * 20
    assert judge.snapshot()["answered"] - before == 1

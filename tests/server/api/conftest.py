"""Fixtures of the HTTP tests: the service fixtures (SQLite and PostgreSQL), and one live app
per module with scored runs by owners and one self-reported run by an agent key."""

from __future__ import annotations

from collections.abc import Iterator
from typing import NamedTuple

import pytest
from fastapi.testclient import TestClient

from judge.engine.judging.backends import ScriptedBackend
from judge.server.store.db import make_engine
from judge.server.web import create_app
from tests.conftest import (
    VERDICT,
    example,
    key_headers,
    owner_headers,
    service_settings,
    wait_final,
)

#: Owner runs stored by the module's app, oldest first.
OWNER_RUNS = ("list-1", "list-2", "list-3")


class Live(NamedTuple):
    client: TestClient
    owner: dict[str, str]
    agent: dict[str, str]
    agent_run: str


@pytest.fixture(scope="module")
def live(module_database_url: str) -> Iterator[Live]:
    judge = ScriptedBackend(VERDICT, model="scripted-test-judge")
    app = create_app(service_settings(module_database_url), backends=lambda model: judge)
    with TestClient(app) as client:
        owner = owner_headers()
        for run_id in OWNER_RUNS:
            assert (
                client.post(
                    "/api/evals/runs", json=example("haggle", run_id=run_id), headers=owner
                ).status_code
                == 202
            )
            assert wait_final(client, run_id, owner)["status"] == "scored"
        engine = make_engine(module_database_url)
        agent = key_headers(engine, "agent-alpha", "buyer")
        engine.dispose()
        accepted = client.post(
            "/api/agent/runs", json=example("haggle", run_id="mine-1"), headers=agent
        )
        assert accepted.status_code == 202, accepted.text
        agent_run = accepted.json()["run_id"]
        assert wait_final(client, agent_run, owner)["status"] == "scored"
        yield Live(client, owner, agent, agent_run)

"""Who reads what a run cost (docs/service.md, "Cost and budgets"): the owner reads every
seat's and the run's cost beside its estimate; an agent reads the cost of its own seat's
capability passes only, and never another run's or another seat's."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.engine import Engine

from judge.server.web import create_app
from tests.budget_judge import priced_judge
from tests.conftest import example, key_headers, owner_headers, wait_final
from tests.server.service.test_budgets import priced_settings

OWNER = owner_headers()
#: The example runs' capability traits: 8, five passes each; four safety traits besides.
CAPABILITY_PASSES = 8 * 5


@pytest.fixture
def client(database_url: str) -> Iterator[TestClient]:
    app = create_app(priced_settings(database_url), backends=lambda model: priced_judge())
    with TestClient(app) as client:
        for name in ("haggle", "two_seats_partial_credit"):
            data = example(name)
            assert client.post("/api/evals/runs", json=data, headers=OWNER).status_code == 202
            assert wait_final(client, data["run_id"], OWNER)["status"] == "scored"
        yield client


def test_the_owner_card_carries_each_seats_and_the_runs_cost_and_estimate(
    client: TestClient,
) -> None:
    card = client.get("/api/evals/camp-split-0011/scorecard", headers=OWNER).json()
    run, north = card["cost"], card["seats"]["north"]["cost"]
    assert (run["n_passes"], north["n_passes"]) == (2 * 60, 60)
    assert run["cost_usd"] == pytest.approx(1.2) and north["cost_usd"] == pytest.approx(0.6)
    assert run["estimate"]["n_passes"] == 120 and run["estimate"]["cost_usd"] > 0


def test_an_agent_reads_the_cost_of_its_own_capability_passes_only(
    client: TestClient, engine: Engine
) -> None:
    alpha = key_headers(engine, "agent-alpha", "north")
    card = client.get("/api/agent/runs/camp-split-0011/scorecard", headers=alpha).json()
    cost = card["seat"]["cost"]
    assert cost["n_passes"] == CAPABILITY_PASSES
    assert cost["cost_usd"] == pytest.approx(0.01 * CAPABILITY_PASSES)
    assert cost["estimate"] is None and "cost" not in card  # neither the run's nor its estimate


def test_an_agent_never_reads_another_runs_cost(client: TestClient, engine: Engine) -> None:
    gamma = key_headers(engine, "agent-gamma", "south")
    response = client.get("/api/agent/runs/haggle-0007/scorecard", headers=gamma)
    assert response.status_code == 404
    assert "cost" not in response.text

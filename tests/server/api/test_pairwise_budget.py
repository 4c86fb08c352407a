"""Pairwise comparisons are budgeted and counted like any judge call (docs/service.md,
"Cost and budgets"), on SQLite and PostgreSQL: the estimate is refused before any call, a
limit reached stops the request after its current pair, the comparison shows its cost, and
its spend counts against the agents' daily limits."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from judge.engine.judging.backends import JudgeReply, JudgeRequest, ScriptedBackend
from judge.engine.judging.pairwise import PAIRWISE_SCHEMA
from judge.server.web import create_app
from tests.budget_judge import PRICED_MODEL
from tests.conftest import VERDICT, example, owner_headers, wait_final
from tests.pairwise_builders import reply
from tests.server.service.test_budgets import BUDGETS, priced_settings

OWNER = owner_headers()
BODY = {"mode": "pairwise", "agent_a": "agent-a", "agent_b": "agent-b", "trait": "negotiation"}


class Judge(ScriptedBackend):
    """Every call costs $0.01 and 1050 tokens; in a pairwise call the first seat wins."""

    def __init__(self) -> None:
        super().__init__(self.answer, model=PRICED_MODEL)

    @staticmethod
    def answer(request: JudgeRequest) -> JudgeReply:
        pairwise = request.response_schema == PAIRWISE_SCHEMA
        text = reply("first", [1], [1]) if pairwise else VERDICT
        return JudgeReply(text=text, prompt_tokens=1000, completion_tokens=50, cost_usd=0.01)

    def pairwise_calls(self) -> int:
        return sum(1 for r in self.history if r.response_schema == PAIRWISE_SCHEMA)


@pytest.fixture
def judge() -> Judge:
    return Judge()


@pytest.fixture
def client(database_url: str, judge: Judge) -> Iterator[TestClient]:
    """Two agents with two matched runs each, one trait judged: $0.05 a run."""
    app = create_app(priced_settings(database_url), backends=lambda model: judge)
    with TestClient(app) as client:
        traits = {"value": {"traits": ["negotiation"]}}
        assert client.put("/api/evals/config/academy_judge_rubrics", json=traits, headers=OWNER)
        for agent in ("agent-a", "agent-b"):
            for seed in (1, 2):
                assert submit(client, agent, f"{agent}-{seed}", seed) == "scored"
        yield client


def submit(client: TestClient, agent: str, run_id: str, seed: int) -> str:
    data = example("haggle", run_id=run_id, seed=seed)
    data["seats"][0]["agent_id"] = agent
    assert client.post("/api/evals/runs", json=data, headers=OWNER).status_code == 202
    status: str = wait_final(client, run_id, OWNER)["status"]
    return status


def budget(client: TestClient, value: dict[str, Any]) -> None:
    assert client.put(BUDGETS, json={"value": value}, headers=OWNER).status_code == 200


def compare(client: TestClient) -> Any:
    return client.post("/api/evals/comparisons", json=BODY, headers=OWNER)


def test_the_comparison_shows_what_its_calls_cost_beside_the_estimate(
    client: TestClient, judge: Judge
) -> None:
    body = compare(client).json()
    cost = body["cost"]
    assert (cost["n_passes"], cost["prompt_tokens"], cost["completion_tokens"]) == (20, 20000, 1000)
    assert cost["cost_usd"] == pytest.approx(0.2)
    assert cost["estimate"]["n_passes"] == 20 and cost["estimate"]["cost_usd"] > 0
    assert body["stopped_by_budget"] is None


def test_a_request_whose_estimate_passes_a_limit_is_refused_before_any_call(
    client: TestClient, judge: Judge
) -> None:
    budget(client, {"platform_day_usd": 0.2})  # the four runs spent $0.20 today
    response = compare(client)
    assert response.status_code == 429
    assert response.json()["code"] == "budget_exceeded"
    assert "platform per day limit of $0.2" in response.json()["detail"]
    assert 0 < int(response.headers["Retry-After"]) <= 86_400
    assert judge.pairwise_calls() == 0


def test_a_request_larger_than_the_per_request_limit_is_422_never_rate_limited(
    client: TestClient, judge: Judge
) -> None:
    budget(client, {"run_tokens": 10})  # waiting never lifts a limit on the request itself
    response = compare(client)
    assert response.status_code == 422 and response.json()["code"] == "budget_exceeded"
    assert "Retry-After" not in response.headers
    assert response.json()["detail"].startswith("the estimate would exceed the run limit of 10")
    assert judge.pairwise_calls() == 0


def test_a_limit_reached_stops_the_request_after_its_current_pair(
    client: TestClient, judge: Judge
) -> None:
    budget(client, {"run_usd": 0.1})
    body = compare(client).json()
    assert body["n_judged"] == 1 and len(body["pairs"]) == 1
    assert body["stopped_by_budget"].startswith("judging reached the run limit of $0.1")
    assert judge.pairwise_calls() == 10


def test_pairwise_spend_counts_against_both_agents_daily_limits(
    client: TestClient, judge: Judge
) -> None:
    compare(client)  # $0.20 for agent-a and agent-b each, beside their runs' $0.10
    budget(client, {"agent_day_usd": 0.3})
    calls = len(judge.history)
    assert submit(client, "agent-b", "agent-b-3", 3) == "not_scored"
    assert len(judge.history) == calls

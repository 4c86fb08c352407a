"""Pairwise comparisons over HTTP (owner-only): both orders, verdicts kept per era, the
stored result, and the pairwise board beside the score board."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from judge.engine.judging.backends import JudgeRequest, ScriptedBackend
from judge.engine.judging.pairwise import PAIRWISE_SCHEMA
from judge.server.service.pairwise import _roles
from judge.server.web import create_app
from tests.conftest import VERDICT, example, owner_headers, service_settings, wait_final
from tests.factories import run
from tests.pairwise_builders import reply

#: Per pair: 5 passes of each order.
CALLS_PER_PAIR = 10


class Judge(ScriptedBackend):
    """Scores every seat 0.7; in a pairwise call the seat shown first always wins."""

    def __init__(self) -> None:
        super().__init__(self.answer, model="scripted-test-judge")

    @staticmethod
    def answer(request: JudgeRequest) -> str:
        return reply("first", [1], [1]) if request.response_schema == PAIRWISE_SCHEMA else VERDICT

    def pairwise_calls(self) -> int:
        return sum(1 for r in self.history if r.response_schema == PAIRWISE_SCHEMA)


@pytest.fixture
def judge() -> Judge:
    return Judge()


@pytest.fixture
def client(database_url: str, judge: Judge) -> Iterator[TestClient]:
    app = create_app(service_settings(database_url), backends=lambda model: judge)
    with TestClient(app) as client:
        for agent in ("agent-a", "agent-b"):
            for seed in (1, 2):
                submit(client, agent, f"{agent}-{seed}", seed)
        yield client


def submit(client: TestClient, agent: str, run_id: str, seed: int) -> None:
    data = example("haggle", run_id=run_id, seed=seed)
    data["seats"][0]["agent_id"] = agent
    owner = owner_headers()
    assert client.post("/api/evals/runs", json=data, headers=owner).status_code == 202
    assert wait_final(client, run_id, owner)["status"] == "scored"


BODY = {"mode": "pairwise", "agent_a": "agent-a", "agent_b": "agent-b", "trait": "negotiation"}


def compare(client: TestClient, **changes: Any) -> Any:
    return client.post("/api/evals/comparisons", json={**BODY, **changes}, headers=owner_headers())


def test_every_matched_pair_is_judged_in_both_orders(client: TestClient, judge: Judge) -> None:
    response = compare(client)
    assert response.status_code == 200, response.text
    body = response.json()
    assert [(p["side_a"]["run_id"], p["side_b"]["run_id"]) for p in body["pairs"]] == [
        ("agent-a-1", "agent-b-1"),
        ("agent-a-2", "agent-b-2"),
    ]
    orders = body["pairs"][0]["orders"]
    assert [(o["order"], o["votes_a"], o["votes_b"]) for o in orders] == [
        ("ab", 5, 0),
        ("ba", 0, 5),
    ]
    assert judge.pairwise_calls() == 2 * CALLS_PER_PAIR and body["n_judged"] == 2


def test_the_always_first_judge_reads_full_flips_and_tied_ratings(client: TestClient) -> None:
    body = compare(client).json()
    assert [p["outcome"] for p in body["pairs"]] == ["tie", "tie"]
    assert (body["bias"]["flip_rate"], body["bias"]["first_position_rate"]) == (1.0, 1.0)
    assert [(r["agent_id"], r["rating"]) for r in body["ratings"][0]["ratings"]] == [
        ("agent-a", 0.0),
        ("agent-b", 0.0),
    ]


def test_asking_again_in_the_same_era_judges_nothing_new(client: TestClient, judge: Judge) -> None:
    first = compare(client).json()
    again = compare(client).json()
    assert again["n_judged"] == 0 and judge.pairwise_calls() == 2 * CALLS_PER_PAIR
    assert again["pairs"] == first["pairs"]


def test_the_stored_comparison_answers_without_a_judge_call(
    client: TestClient, judge: Judge
) -> None:
    compare(client)
    params = {"agent_a": "agent-a", "agent_b": "agent-b", "trait": "negotiation"}
    stored = client.get("/api/evals/comparisons/pairwise", params=params, headers=owner_headers())
    assert stored.status_code == 200, stored.text
    assert [p["outcome"] for p in stored.json()["pairs"]] == ["tie", "tie"]
    assert judge.pairwise_calls() == 2 * CALLS_PER_PAIR


def test_the_stored_comparison_before_any_judging_is_404(client: TestClient) -> None:
    params = {"agent_a": "agent-a", "agent_b": "agent-b", "trait": "negotiation"}
    response = client.get("/api/evals/comparisons/pairwise", params=params, headers=owner_headers())
    assert response.status_code == 404 and "POST /api/evals/comparisons" in response.text


def test_an_unknown_trait_is_refused_before_any_judge_call(
    client: TestClient, judge: Judge
) -> None:
    response = compare(client, trait="charm")
    assert response.status_code == 422 and "unknown trait 'charm'" in response.text
    assert judge.pairwise_calls() == 0


def test_comparing_an_agent_with_itself_is_refused(client: TestClient) -> None:
    response = compare(client, agent_b="agent-a")
    assert response.status_code == 422 and "two different agents" in response.text


def test_a_pairwise_board_without_finalized_submissions_leaves_the_pairs_out(
    client: TestClient,
) -> None:
    compare(client)
    response = client.get(
        "/api/leaderboards/market-haggle",
        params={"mode": "pairwise", "trait": "negotiation"},
        headers=owner_headers(),
    )
    assert response.status_code == 200, response.text
    board = response.json()
    assert (board["ranked"], board["unranked"], board["n_left_out"]) == ([], [], 2)


def test_a_pairwise_board_needs_a_trait(client: TestClient) -> None:
    response = client.get(
        "/api/leaderboards/market-haggle", params={"mode": "pairwise"}, headers=owner_headers()
    )
    assert response.status_code == 422 and "mode=pairwise needs a trait" in response.text


def test_the_pairwise_prompt_takes_role_names_from_the_services_scenarios() -> None:
    folder = Path(__file__).resolve().parents[3] / "scenarios"
    runs = [run("r1", scenario_id="shop-refund"), run("r2", scenario_id="no-such-scenario")]
    assert _roles(runs, folder) == {"shop-refund": ["agent", "customer"], "no-such-scenario": []}
    assert _roles(runs, None) == {}  # no scenarios folder: Seat A, Seat B, ...

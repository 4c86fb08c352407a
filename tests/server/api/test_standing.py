"""Standing from every run, through the API on SQLite and PostgreSQL: a submission an agent
key files that leaves out some of its scored runs in the scenario and era is stored and shown
unranked, naming the runs; one holding them all ranks on what they all measured; a set an
owner assembled is the platform's and ranks as it is (docs/scoring.md)."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.conftest import example

BOARD = "/api/leaderboards/market-haggle"
RUNS = ["pick-1", "pick-2", "pick-3", "pick-4"]


@pytest.fixture
def four_runs(scored: Any) -> None:
    """Four platform runs of agent-alpha: only ``pick-1`` met its objective."""
    for run_id in RUNS:
        data = example("haggle", run_id=run_id)
        data["win_conditions"] = [{"id": "deal_closed", "weight": 1.0, "met": run_id == "pick-1"}]
        assert scored(data)["status"] == "scored"


def file_as_agent(
    client: TestClient, key: dict[str, str], sid: str, run_ids: list[str], **finalize: object
) -> Any:
    body = {"submission_id": sid, "scenario_id": "market-haggle", "run_ids": run_ids}
    opened = client.post("/api/agent/submissions", json=body, headers=key)
    assert opened.status_code == 201, opened.text
    return client.post(f"/api/agent/submissions/{sid}/finalize", json=finalize, headers=key)


def ranked_rows(client: TestClient, owner: dict[str, str]) -> list[dict[str, Any]]:
    return list(client.get(BOARD, headers=owner).json()["ranked"])


def test_a_cherry_picked_agent_submission_is_stored_unranked_with_its_reason(
    client: TestClient, owner: dict[str, str], four_runs: Any, agent_key: Any
) -> None:
    key = agent_key("agent-alpha", "buyer")

    answer = file_as_agent(client, key, "best-of-4", ["pick-1"])

    assert answer.status_code == 200, answer.text
    body = answer.json()
    assert (body["ranked_eligible"], body["visibility"]) == (False, "unlisted")
    assert body["finalization"]["left_out_run_ids"] == ["pick-2", "pick-3", "pick-4"]
    assert any(
        f.startswith("unranked: the agent's scored runs") for f in body["finalization"]["flags"]
    )
    stored = client.get("/api/evals/submissions/best-of-4", headers=owner).json()
    assert (stored["ranked_eligible"], stored["visibility"]) == (False, "unlisted")
    assert ranked_rows(client, owner) == []


def test_a_cherry_picked_agent_submission_asked_public_is_refused(
    client: TestClient, four_runs: Any, agent_key: Any
) -> None:
    key = agent_key("agent-alpha", "buyer")

    answer = file_as_agent(client, key, "best-of-4", ["pick-1"], visibility="public")

    assert answer.status_code == 422
    assert "['pick-2', 'pick-3', 'pick-4']" in answer.json()["detail"]
    assert "every scored run" in answer.json()["detail"]


def test_an_agent_submission_of_every_run_ranks_on_all_of_them(
    client: TestClient, owner: dict[str, str], four_runs: Any, agent_key: Any
) -> None:
    key = agent_key("agent-alpha", "buyer")

    answer = file_as_agent(client, key, "all-4", list(reversed(RUNS)))

    assert answer.status_code == 200, answer.text
    assert (answer.json()["ranked_eligible"], answer.json()["visibility"]) == (True, "public")
    [row] = ranked_rows(client, owner)
    assert (row["agent_id"], row["rank"], row["run_ids"]) == ("agent-alpha", 1, RUNS)
    assert row["objective_met_rate"] == pytest.approx(0.25)


def test_a_set_the_platform_assembled_ranks_as_assembled(
    client: TestClient, owner: dict[str, str], four_runs: Any
) -> None:
    body = {
        "submission_id": "owner-set",
        "scenario_id": "market-haggle",
        "agent_id": "agent-alpha",
        "run_ids": ["pick-1", "pick-2"],
    }
    assert client.post("/api/evals/submissions", json=body, headers=owner).status_code == 201

    answer = client.post("/api/evals/submissions/owner-set/finalize", json={}, headers=owner)

    assert answer.status_code == 200, answer.text
    assert answer.json()["ranked_eligible"] is True
    assert answer.json()["finalization"]["left_out_run_ids"] == []
    [row] = ranked_rows(client, owner)
    assert row["run_ids"] == ["pick-1", "pick-2"]

"""Run submission and status: answers at once, scores in the background, idempotent by
run_id, refuses malformed bodies whole, records why a run could not be scored."""

from __future__ import annotations

import json
from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy.engine import Engine

from judge.core.errors import TransientJudgeError
from judge.engine.judging.backends import ScriptedBackend
from judge.server.store import passes as pass_repo
from judge.server.store import runs as run_repo
from judge.server.store.db import transaction
from tests.conftest import PASSES_PER_SEAT, example, wait_final


def test_owner_submission_answers_202_with_the_run_id(
    client: TestClient, owner: dict[str, str]
) -> None:
    response = client.post("/api/evals/runs", json=example("haggle"), headers=owner)

    assert response.status_code == 202
    body = response.json()
    assert body == {
        "run_id": "haggle-0007",
        "status": "queued",
        "created": True,
        "status_url": "/api/evals/runs/haggle-0007",
    }


def test_run_is_scored_in_the_background_with_every_pass_stored(
    client: TestClient, owner: dict[str, str], judge: ScriptedBackend, engine: Engine, scored: Any
) -> None:
    final = scored(example("haggle"))

    assert final["status"] == "scored"
    assert final["reason"] is None
    assert (final["passes_done"], final["passes_total"]) == (PASSES_PER_SEAT, PASSES_PER_SEAT)
    assert final["judge_model"] == "scripted-test-judge"
    assert len(judge.history) == PASSES_PER_SEAT
    with transaction(engine) as session:
        stored = pass_repo.stored_passes(session, run_id="haggle-0007")
    assert sorted({k[0] for k in stored}) == ["buyer"]
    assert {p.score for p in stored.values()} == {0.7}


def test_same_body_again_returns_the_same_run_without_judging_again(
    client: TestClient, owner: dict[str, str], judge: ScriptedBackend, scored: Any
) -> None:
    scored(example("haggle"))
    reordered = json.loads(json.dumps(example("haggle"), sort_keys=True))

    again = client.post("/api/evals/runs", json=reordered, headers=owner)

    assert again.status_code == 200
    assert again.json() == {
        "run_id": "haggle-0007",
        "status": "scored",
        "created": False,
        "status_url": "/api/evals/runs/haggle-0007",
    }
    assert len(judge.history) == PASSES_PER_SEAT


def test_different_body_under_the_same_run_id_is_409_and_keeps_the_first(
    client: TestClient, owner: dict[str, str], engine: Engine
) -> None:
    client.post("/api/evals/runs", json=example("haggle"), headers=owner)

    clash = client.post("/api/evals/runs", json=example("haggle", seed=43), headers=owner)

    assert clash.status_code == 409
    assert (
        "run_id: 'haggle-0007' was already submitted with a different body"
        in clash.json()["detail"]
    )
    with transaction(engine) as session:
        row = run_repo.get_run(session, run_id="haggle-0007")
    assert row is not None and json.loads(row.body_json)["seed"] == 42


def test_malformed_body_is_422_naming_the_field_and_stores_nothing(
    client: TestClient, owner: dict[str, str], engine: Engine
) -> None:
    bad = example("haggle")
    bad["transcript"][2]["kind"] = "shout"

    response = client.post("/api/evals/runs", json=bad, headers=owner)

    assert response.status_code == 422
    assert response.json()["detail"].startswith(
        "body.transcript.2: Input tag 'shout' found using 'kind'"
    )
    assert client.get("/api/evals/runs/haggle-0007", headers=owner).status_code == 404
    with transaction(engine) as session:
        assert run_repo.count_runs(session) == 0


def test_seat_references_that_do_not_match_are_422(
    client: TestClient, owner: dict[str, str]
) -> None:
    bad = example("haggle")
    bad["transcript"][0]["seat"] = "auctioneer"

    response = client.post("/api/evals/runs", json=bad, headers=owner)

    assert response.status_code == 422
    assert (
        "transcript: refers to seats not listed in seats: ['auctioneer']"
        in response.json()["detail"]
    )


def test_a_chat_format_field_is_422_saying_which_field_it_means(
    client: TestClient, owner: dict[str, str]
) -> None:
    bad = example("haggle")
    bad["messages"] = bad.pop("transcript")

    response = client.post("/api/evals/runs", json=bad, headers=owner)

    assert response.status_code == 422
    assert response.json()["detail"] == (
        "body.messages: Extra inputs are not permitted (did you mean 'transcript'?)"
    )


def test_a_string_for_a_boolean_is_422_as_the_published_schema_says(
    client: TestClient, owner: dict[str, str]
) -> None:
    bad = example("haggle")
    bad["win_conditions"][0]["met"] = "yes"

    response = client.post("/api/evals/runs", json=bad, headers=owner)

    assert response.status_code == 422
    assert response.json()["detail"] == "body.win_conditions.0.met: Input should be a valid boolean"


def test_agent_submits_a_run_for_its_own_seat_into_its_own_namespace(
    client: TestClient, agent_key: Any
) -> None:
    alpha = agent_key("agent-alpha", "buyer")

    response = client.post("/api/agent/runs", json=example("haggle"), headers=alpha)

    assert response.status_code == 202
    assert response.json()["run_id"] == "agent-alpha:haggle-0007"
    assert response.json()["status_url"] == "/api/agent/runs/agent-alpha:haggle-0007"
    status = client.get("/api/agent/runs/agent-alpha:haggle-0007", headers=alpha)
    assert status.status_code == 200 and status.json()["run_id"] == "agent-alpha:haggle-0007"
    assert (
        status.json()["leaderboard_class"] == "self_reported"
        and status.json()["ranked_eligible"] is False
    )


def test_an_agent_reads_its_run_and_card_by_the_id_it_submitted(
    client: TestClient, agent_key: Any, owner: dict[str, str]
) -> None:
    alpha = agent_key("agent-alpha", "buyer")
    assert client.post("/api/agent/runs", json=example("haggle"), headers=alpha).status_code == 202
    assert wait_final(client, "agent-alpha:haggle-0007", owner)["status"] == "scored"

    status = client.get("/api/agent/runs/haggle-0007", headers=alpha)
    card = client.get("/api/agent/runs/haggle-0007/scorecard", headers=alpha)

    assert status.status_code == 200 and status.json()["run_id"] == "agent-alpha:haggle-0007"
    assert card.status_code == 200 and card.json()["run_id"] == "agent-alpha:haggle-0007"
    assert card.json()["seat"]["seat"] == "buyer"
    beta = agent_key("agent-beta", "buyer")
    assert client.get("/api/agent/runs/haggle-0007", headers=beta).status_code == 404


def test_a_platform_run_of_the_same_id_is_read_before_the_agents_own(
    client: TestClient, agent_key: Any, owner: dict[str, str]
) -> None:
    alpha = agent_key("agent-alpha", "buyer")
    mine = example("haggle", seed=5)
    assert client.post("/api/agent/runs", json=mine, headers=alpha).status_code == 202
    assert client.post("/api/evals/runs", json=example("haggle"), headers=owner).status_code == 202

    status = client.get("/api/agent/runs/haggle-0007", headers=alpha)

    assert status.status_code == 200 and status.json()["run_id"] == "haggle-0007"


def test_agent_cannot_submit_a_run_it_does_not_sit_in(
    client: TestClient, agent_key: Any, engine: Engine
) -> None:
    beta = agent_key("agent-beta", "buyer")

    response = client.post("/api/agent/runs", json=example("haggle"), headers=beta)

    assert response.status_code == 403
    assert response.json()["detail"].startswith(
        "seats: this key is for agent 'agent-beta' in seat 'buyer'"
    )
    with transaction(engine) as session:
        assert run_repo.count_runs(session) == 0


def test_judge_unreachable_after_retries_marks_the_run_not_scored_with_the_reason(
    client: TestClient, owner: dict[str, str], judge: ScriptedBackend
) -> None:
    judge.default = TransientJudgeError("APIConnectionError: connection refused")

    client.post("/api/evals/runs", json=example("haggle"), headers=owner)
    final = wait_final(client, "haggle-0007", owner)

    assert final["status"] == "not_scored"
    assert final["reason"] == (
        "the judge could not be used after retries: APIConnectionError: connection refused"
    )
    missing = client.get("/api/evals/haggle-0007/scorecard", headers=owner)
    assert missing.status_code == 404
    assert missing.json()["detail"].startswith(
        "run 'haggle-0007' has no scorecard (status not_scored: the judge"
    )

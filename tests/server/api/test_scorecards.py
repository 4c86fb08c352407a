"""Scorecard contents through the API, the not-yet-scored answer, and per-turn metrics."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from fastapi.testclient import TestClient

from judge.engine.judging.backends import JudgeRequest, ScriptedBackend
from judge.server.api.routers.scorecards import Validators
from judge.server.service.views import ServedView
from tests.conftest import VERDICT, example, wait_final


def test_owner_scorecard_carries_passes_rubric_text_and_the_era(
    client: TestClient, owner: dict[str, str], scored: Any
) -> None:
    scored(example("haggle"))

    card = client.get("/api/evals/haggle-0007/scorecard", headers=owner).json()
    eras = client.get("/api/evals/eras", headers=owner).json()

    negotiation = card["seats"]["buyer"]["traits"]["negotiation"]
    assert negotiation["pass_scores"] == [0.7] * 5
    assert negotiation["variance"] == 0.0 and negotiation["n_identical"] == 5
    assert (
        negotiation["rubric_source"] == "builtin" and len(negotiation["rubric"]["definition"]) >= 20
    )
    assert [p["index"] for p in negotiation["passes"]] == [0, 1, 2, 3, 4]
    assert (card["ranked_eligible"], card["leaderboard_class"]) == (True, "ranked")
    assert card["seats"]["buyer"]["objectives"]["partial_credit"]["max_possible"] == 3.0
    assert [e["era_id"] for e in eras if e["current"]] == [card["measurement_era"]["era_id"]]


def test_a_run_not_scored_yet_has_no_scorecard(
    client: TestClient, owner: dict[str, str], judge: ScriptedBackend, agent_key: Any
) -> None:
    gate = threading.Event()

    def held(_request: JudgeRequest) -> str:
        gate.wait(20)
        return VERDICT

    judge.default = held
    alpha = agent_key("agent-alpha", "buyer")
    client.post("/api/evals/runs", json=example("haggle"), headers=owner)

    owner_card = client.get("/api/evals/haggle-0007/scorecard", headers=owner)
    agent_card = client.get("/api/agent/runs/haggle-0007/scorecard", headers=alpha)
    gate.set()

    assert owner_card.status_code == agent_card.status_code == 404
    assert owner_card.json()["detail"] in (
        "run 'haggle-0007' has no scorecard (status queued)",
        "run 'haggle-0007' has no scorecard (status scoring)",
    )
    assert agent_card.json()["detail"].startswith("run 'haggle-0007' has no scorecard (status ")
    assert wait_final(client, "haggle-0007", owner)["status"] == "scored"


def test_metrics_report_each_trace_step_with_its_reward(
    client: TestClient, owner: dict[str, str]
) -> None:
    run = example("haggle")
    run["transcript"].append(
        {"turn": 3, "seat": "buyer", "kind": "fault", "content": "tool timed out"}
    )
    run["transcript"].append(
        {"turn": 3, "seat": "buyer", "kind": "action", "name": "offer", "status": "rejected"}
    )
    client.post("/api/evals/runs", json=run, headers=owner)

    body = client.get("/api/evals/haggle-0007/metrics", headers=owner).json()

    assert [t["turn"] for t in body["turns"]] == [1, 2, 3, 4, 5]
    turn3, turn5 = body["turns"][2], body["turns"][4]
    assert (turn3["latency_ms"], turn3["tokens_in"], turn3["tokens_out"]) == (905, 1120, 61)
    assert (turn3["faults"], turn3["failed_actions"], turn3["checks_failed"]) == (1, 1, 1)
    assert turn3["reward"] == pytest.approx(0.1 - 0.05 + 0.5 * 0.1)
    assert turn5["reward"] == pytest.approx(0.1 + 1.0 + 0.5 * 0.3)
    assert turn5["reward_components"]["new_conditions"] == ["deal_closed"]
    buyer = body["seats"]["buyer"]
    assert (buyer["steps"], buyer["latency_ms"], buyer["tokens_in"], buyer["tool_calls"]) == (
        5,
        4175,
        5610,
        5,
    )
    assert body["seats"]["seller"]["steps"] == 0


def test_metrics_use_the_reward_weights_in_force(client: TestClient, owner: dict[str, str]) -> None:
    weights = {
        "w_check_pass": 1.0,
        "w_check_fail": -1.0,
        "w_condition_flip": 10.0,
        "w_progress": 0.0,
    }
    assert (
        client.put(
            "/api/evals/config/eval_reward_weights", json={"value": weights}, headers=owner
        ).status_code
        == 200
    )
    client.post("/api/evals/runs", json=example("haggle"), headers=owner)

    body = client.get("/api/evals/haggle-0007/metrics", headers=owner).json()

    assert body["reward_weights"] == weights
    assert [t["reward"] for t in body["turns"]] == [1.0, 1.0, 0.0, 2.0, 11.0]


def test_metrics_of_a_missing_run_are_404(client: TestClient, owner: dict[str, str]) -> None:
    response = client.get("/api/evals/nope/metrics", headers=owner)

    assert (response.status_code, response.json()) == (
        404,
        {"code": "not_found", "detail": "run 'nope' not found"},
    )


def test_a_matching_if_none_match_is_answered_304_without_reading_the_card() -> None:
    read: list[bool] = []

    def view_of(gzipped: bool) -> ServedView:
        read.append(gzipped)
        raise AssertionError("the card body was read")

    answer = Validators('W/"abc", W/"other"', "gzip").answer(lambda: 'W/"abc"', view_of)

    assert (answer.status_code, answer.headers["etag"], read) == (304, 'W/"abc"', [])


def test_a_stale_if_none_match_gets_the_stored_card_gzipped_when_accepted() -> None:
    def view_of(gzipped: bool) -> ServedView:
        return ServedView(etag='W/"new"', body=b"zipped", gzipped=gzipped)

    answer = Validators('W/"old"', "gzip, br").answer(lambda: 'W/"new"', view_of)

    assert (answer.status_code, answer.body) == (200, b"zipped")
    assert answer.headers["content-encoding"] == "gzip"

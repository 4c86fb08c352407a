"""Submission routes: open, add runs, finalize (era, incomplete, class, visibility), read."""

from __future__ import annotations

import time
from typing import Any

from tests.factories import run, scorecard, seat
from tests.scripted_service import Service


def _open(svc: Service, sid: str, run_ids: list[str], agent_id: str = "agent-alpha") -> Any:
    body = {
        "submission_id": sid,
        "scenario_id": "market-haggle",
        "agent_id": agent_id,
        "run_ids": run_ids,
    }
    return svc.client.post("/api/evals/submissions", json=body, headers=svc.owner)


def _finalize(svc: Service, sid: str, **body: object) -> Any:
    return svc.client.post(f"/api/evals/submissions/{sid}/finalize", json=body, headers=svc.owner)


def test_finalize_stamps_the_current_era_and_marks_a_gated_submission_incomplete(
    svc: Service,
) -> None:
    era = svc.current_era_id()
    svc.store_scored(run("r1"), scorecard("r1", seat(), era_id=era))
    svc.store_scored(run("r2"), scorecard("r2", seat(gated=True), era_id=era))
    assert _open(svc, "sub-1", ["r1", "r2"]).status_code == 201
    answer = _finalize(svc, "sub-1")
    assert answer.status_code == 200, answer.text
    body = answer.json()
    assert (body["status"], body["measurement_era"], body["visibility"]) == (
        "incomplete",
        era,
        "public",
    )
    assert (body["ranked_eligible"], body["leaderboard_class"]) == (True, "ranked")
    assert body["finalization"]["gated_run_ids"] == ["r2"]
    assert body["finalized_at"] is not None
    again = svc.client.get("/api/evals/submissions/sub-1", headers=svc.owner).json()
    assert again["run_ids"] == ["r1", "r2"] and again["status"] == "incomplete"


def test_a_custom_rubric_submission_refuses_public_and_is_finalized_unlisted(svc: Service) -> None:
    era = svc.current_era_id()
    svc.store_scored(run("c1"), scorecard("c1", seat(), era_id=era, custom=True))
    _open(svc, "sub-c", ["c1"])
    refused = _finalize(svc, "sub-c", visibility="public")
    assert refused.status_code == 422
    assert "may only be published unlisted" in refused.json()["detail"]
    body = _finalize(svc, "sub-c").json()
    assert (body["ranked_eligible"], body["leaderboard_class"], body["visibility"]) == (
        False,
        "self_hosted_facilitator",
        "unlisted",
    )


def test_runs_from_different_eras_are_refused(svc: Service) -> None:
    svc.store_scored(run("e1"), scorecard("e1", seat(), era_id=svc.current_era_id()))
    svc.store_scored(run("e2"), scorecard("e2", seat(), era_id="era-old"))
    _open(svc, "sub-e", ["e1", "e2"])
    answer = _finalize(svc, "sub-e")
    assert answer.status_code == 422
    assert "runs were scored in 2 measurement eras" in answer.json()["detail"]
    assert (
        svc.client.get("/api/evals/submissions/sub-e", headers=svc.owner).json()["status"] == "open"
    )


def test_a_submission_with_an_unscored_run_cannot_be_finalized(svc: Service) -> None:
    svc.store_scored(run("q1"))  # stored after start: stays queued
    _open(svc, "sub-q", ["q1"])
    answer = _finalize(svc, "sub-q")
    assert answer.status_code == 409
    assert answer.json()["detail"].startswith("runs ['q1'] have no scorecard yet")


def test_runs_cannot_be_added_after_finalization(svc: Service) -> None:
    svc.store_scored(run("f1"), scorecard("f1", seat(), era_id=svc.current_era_id()))
    svc.store_scored(run("f2"), scorecard("f2", seat(), era_id=svc.current_era_id()))
    _open(svc, "sub-f", ["f1"])
    _finalize(svc, "sub-f")
    answer = svc.client.post(
        "/api/evals/submissions/sub-f/runs", json={"run_ids": ["f2"]}, headers=svc.owner
    )
    assert answer.status_code == 409
    assert _finalize(svc, "sub-f").status_code == 409


def test_a_run_without_the_agent_or_on_another_scenario_is_refused(svc: Service) -> None:
    svc.store_scored(run("x1", scenario_id="other-game"))
    svc.store_scored(run("x2"))
    assert (
        _open(svc, "sub-x", ["x1"])
        .json()["detail"]
        .startswith("run_ids: run 'x1' is on scenario 'other-game'")
    )
    refused = _open(svc, "sub-y", ["x2"], agent_id="agent-beta")
    assert refused.status_code == 422
    assert (
        refused.json()["detail"] == "run_ids: agent 'agent-beta' holds no scored seat in run 'x2'"
    )
    assert (
        svc.client.get("/api/evals/submissions/sub-y", headers=svc.owner).status_code == 404
    )  # nothing kept
    assert _open(svc, "sub-z", ["nope"]).status_code == 404


def test_a_taken_submission_id_answers_409(svc: Service) -> None:
    _open(svc, "sub-d", [])
    assert _open(svc, "sub-d", []).status_code == 409


def test_an_agent_key_works_on_its_own_agents_submissions_only(svc: Service) -> None:
    alpha = svc.agent("agent-alpha", "buyer")
    svc.store_scored(run("a1"), scorecard("a1", seat(), era_id=svc.current_era_id()))
    created = svc.client.post(
        "/api/agent/submissions",
        json={"submission_id": "sub-a", "scenario_id": "market-haggle", "run_ids": ["a1"]},
        headers=alpha,
    )
    assert created.status_code == 201 and created.json()["agent_id"] == "agent-alpha"
    assert (
        svc.client.post("/api/agent/submissions/sub-a/finalize", json={}, headers=alpha).json()[
            "status"
        ]
        == "complete"
    )
    _open(svc, "sub-b", [], agent_id="agent-beta")
    assert svc.client.get("/api/agent/submissions/sub-b", headers=alpha).status_code == 404
    other = svc.client.post(
        "/api/agent/submissions",
        json={"submission_id": "sub-o", "scenario_id": "market-haggle", "agent_id": "agent-beta"},
        headers=alpha,
    )
    assert other.status_code == 422


def test_submission_routes_need_credentials(svc: Service) -> None:
    assert svc.client.get("/api/evals/submissions/sub-1").status_code == 401
    assert svc.client.post("/api/agent/submissions", json={}).status_code == 401


def test_a_run_scored_by_the_service_finalizes_in_the_current_era(svc: Service) -> None:
    body = run("live-1").model_dump(mode="json")
    body["transcript"] = [
        {"turn": t, "seat": "buyer", "kind": "message", "content": f"message {t}"}
        for t in range(1, 7)
    ]
    assert svc.client.post("/api/evals/runs", json=body, headers=svc.owner).status_code == 202
    deadline = time.monotonic() + 30
    while svc.client.get("/api/evals/runs/live-1", headers=svc.owner).json()["status"] != "scored":
        assert time.monotonic() < deadline, "the run was not scored in time"
        time.sleep(0.05)
    _open(svc, "sub-live", ["live-1"])
    final = _finalize(svc, "sub-live").json()
    # six messages but no actions: 0 actions per turn < 0.3, so the seat is gated
    assert (final["status"], final["measurement_era"]) == ("incomplete", svc.current_era_id())
